#!/usr/bin/env bash
#! Builds the examples (release; build.rs embeds each one's fat binary) into .device/examples/
#! for tools/gpu/examples.sh, stripped; and the slice example once more with only sm_80's images
#! (slice-sm80), whose run on a newer GPU shows the driver compiling the PTX.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p rkc
EXAMPLES="slice matmul reduction blur histogram overlap hgemm"
for e in $EXAMPLES; do cargo build --release -q -p "$e"; done
mkdir -p .device/examples
for e in $EXAMPLES; do cp "target/release/$e" ".device/examples/$e"; strip ".device/examples/$e"; done
RKC_OFFLOAD_ARCH=sm_80 cargo build --release -q -p slice
cp target/release/slice .device/examples/slice-sm80
strip .device/examples/slice-sm80
cargo build --release -q -p slice
git rev-parse --short HEAD > .device/COMMIT
ls -la .device/examples
