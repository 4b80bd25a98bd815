#!/usr/bin/env bash
#! Builds what tools/gpu/conformance.sh runs on the device machine into .device/: the release
#! conformance binary and one fat binary per testsuite kernel file, plus RKC_GENERATED
#! (default 2000) generated kernels in generated.fatbin, compiled by rustc into the binary.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p rkc
export RKC_GENERATED=${RKC_GENERATED:-2000}
cargo build --release -q -p rkc-testsuite --bin conformance
mkdir -p .device/conformance
cp target/release/conformance .device/conformance/conformance
strip .device/conformance/conformance
for k in testsuite/kernels/*.rs testsuite/faults/*.rs; do
  target/release/rkc "$k" --offload-arch sm_90 -o ".device/conformance/$(basename "$k" .rs).fatbin"
done
.device/conformance/conformance --write-generated .device/conformance/generated.rs
target/release/rkc .device/conformance/generated.rs --offload-arch sm_90 -o .device/conformance/generated.fatbin
rm .device/conformance/generated.rs
git rev-parse --short HEAD > .device/COMMIT
ls -la .device/conformance
