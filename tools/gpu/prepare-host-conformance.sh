#!/usr/bin/env bash
#! Builds the host images the conformance run checks on a CPU into .device/conformance-host/:
#! every testsuite kernel file and the generated kernels, compiled with --offload-arch=host.
#! Run tools/gpu/prepare-conformance.sh first (it builds the conformance binary, with the
#! generated kernels compiled in); then, on any x86-64 Linux machine:
#!   OFFLOAD_TARGET=cpu .device/conformance/conformance .device/conformance-host
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .device/conformance-host
for k in testsuite/kernels/*.rs testsuite/faults/*.rs; do
  target/release/rkc "$k" --offload-arch host -o ".device/conformance-host/$(basename "$k" .rs).fatbin"
done
.device/conformance/conformance --write-generated /tmp/rkc-generated.rs
target/release/rkc /tmp/rkc-generated.rs --offload-arch host -o .device/conformance-host/generated.fatbin
rm /tmp/rkc-generated.rs
ls -la .device/conformance-host | tail -3
