#!/usr/bin/env bash
#! Builds what tools/gpu/multi-device.sh runs on a device machine into .device/multi/.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p rkc
cargo build --release -q -p rkc-testsuite --bin multi_device
mkdir -p .device/multi
cp target/release/multi_device .device/multi/
target/release/rkc testsuite/kernels/saxpy.rs --offload-arch sm_90 -o .device/multi/saxpy.fatbin
git rev-parse --short HEAD > .device/COMMIT
