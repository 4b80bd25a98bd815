#!/usr/bin/env bash
#! Builds what tools/gpu/lineinfo.sh runs on the device machine into .device/lineinfo/: the
#! testsuite's shared.rs, saxpy.rs and faults/trap.rs compiled with -g (line information), named
#! relative to the repository so that the profiler finds the sources. Uses the conformance
#! binary tools/gpu/prepare-conformance.sh built (run that first).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p rkc
mkdir -p .device/lineinfo
for k in testsuite/kernels/shared.rs testsuite/kernels/saxpy.rs testsuite/faults/trap.rs; do
  target/release/rkc "$k" -g --offload-arch sm_90 -o ".device/lineinfo/$(basename "$k" .rs).fatbin"
done
ls -la .device/lineinfo
