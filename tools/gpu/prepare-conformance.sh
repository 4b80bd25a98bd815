#!/usr/bin/env bash
#! Builds what tools/gpu/conformance.sh runs on the device machine into .device/: the release
#! conformance binary and one fat binary per testsuite kernel file.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p rkc
cargo build --release -q -p rkc-testsuite --bin conformance
mkdir -p .device/conformance
cp target/release/conformance .device/conformance/conformance
for k in testsuite/kernels/*.rs; do
  target/release/rkc "$k" --offload-arch sm_90 -o ".device/conformance/$(basename "$k" .rs).fatbin"
done
git rev-parse --short HEAD > .device/COMMIT
ls -la .device/conformance
