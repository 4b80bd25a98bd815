#!/usr/bin/env bash
#! Builds the CPU benchmark (testsuite/src/bin/cpu-bench.rs: the host image against rayon) into
#! .device/cpu-bench/ with the fat binaries it reads (host images only), for
#! tools/gpu/cpu-bench.sh on the device machine's host CPU, or to run here.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p rkc
cargo build --release -q -p rkc-testsuite --bin cpu-bench
mkdir -p .device/cpu-bench
cp target/release/cpu-bench .device/cpu-bench/cpu-bench
strip .device/cpu-bench/cpu-bench
target/release/rkc testsuite/bench/kernels.rs --offload-arch host -o .device/cpu-bench/bench.fatbin
for e in matmul reduction blur histogram slice; do
  target/release/rkc "examples/$e/src/kernels.rs" --offload-arch host -o ".device/cpu-bench/$e.fatbin"
done
git rev-parse --short HEAD > .device/COMMIT
ls -la .device/cpu-bench
