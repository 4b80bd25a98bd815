#!/usr/bin/env bash
#! Builds what tools/gpu/bench.sh runs on the device machine into .device/bench/: the release
#! benchmark harness and testsuite/bench/kernels.rs compiled by rkc with bounds checks on and
#! off (nvcc compiles kernels.cu there, where CUDA is installed).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p rkc
cargo build --release -q -p rkc-testsuite --bin bench --bin runtime-bench
mkdir -p .device/bench
cp target/release/bench target/release/runtime-bench .device/bench/
cp testsuite/bench/kernels.cu .device/bench/kernels.cu
# With checks on, the cubin also by itself (rkc-checks.sm_90.cubin), for bench.sh's look at the SASS.
target/release/rkc testsuite/bench/kernels.rs --offload-arch sm_90 -C checks=on --emit cubin,ptx -o .device/bench/rkc-checks.fatbin
target/release/rkc testsuite/bench/kernels.rs --offload-arch sm_90 -C checks=off -o .device/bench/rkc-nochecks.fatbin
git rev-parse --short HEAD > .device/COMMIT
ls -la .device/bench
