#!/usr/bin/env bash
#! Builds what tools/gpu/slice.sh runs on the device machine into .device/: the release
#! example binary and the fat binary of its kernels (the compiler itself stays here).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p rkc -p slice
mkdir -p .device
cp target/release/slice .device/slice
target/release/rkc examples/slice/src/kernels.rs -o .device/slice.fatbin
git rev-parse --short HEAD > .device/COMMIT
ls -la .device
