#!/usr/bin/env bash
#! Builds the examples (release; build.rs embeds each one's fat binary) into .device/examples/
#! for tools/gpu/examples.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p rkc
EXAMPLES="slice matmul reduction blur histogram"
for e in $EXAMPLES; do cargo build --release -q -p "$e"; done
mkdir -p .device/examples
for e in $EXAMPLES; do cp "target/release/$e" ".device/examples/$e"; done
git rev-parse --short HEAD > .device/COMMIT
ls -la .device/examples
