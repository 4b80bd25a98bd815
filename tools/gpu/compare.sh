#!/usr/bin/env bash
#! Times a compiler change against its base on the device machine: compiles kernels.cu with
#! nvcc as tools/gpu/bench.sh does, then runs the harness on .device/bench-base (the base's rkc,
#! from `BASE=<revision> tools/gpu/prepare-bench.sh`) and .device/bench (this revision's) in
#! turn, ROUNDS times each (default 2), so that both meet the machine in the same states, and
#! prints each run's report. The nvcc and checks-off columns are the same programs in both (the
#! base directory gets copies), so only the checks-on column compares compilers.
#! KERNELS="softmax stencil" limits the harness to those kernels' rows (bench.rs says how).
#! Usage: RUNS=15 ROUNDS=2 [KERNELS=...] bash tools/gpu/compare.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -f .device/bench-base/rkc-checks.fatbin ] || { echo "no .device/bench-base: run BASE=<revision> tools/gpu/prepare-bench.sh first" >&2; exit 1; }
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
echo "# rkc $(cat .device/bench-base/COMMIT) against $(cat .device/COMMIT 2>/dev/null) on the GPU, $(date -u +%Y-%m-%dT%H:%MZ)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
"$NVCC" -O3 -gencode arch=compute_90a,code=sm_90a -cubin -o .device/bench/nvcc.cubin .device/bench/kernels.cu
cp .device/bench/nvcc.cubin .device/bench/rkc-nochecks.fatbin .device/bench-base/
CUBLAS=$(find /usr/local/cuda/lib64 /usr/local/cuda/targets /usr/lib/x86_64-linux-gnu /usr/local/lib \
    -name 'libcublas.so*' 2>/dev/null | head -1 || true)
if [ -z "$CUBLAS" ]; then
    CUBLAS=$(find / -xdev -path /proc -prune -o -name 'libcublas.so*' -print 2>/dev/null | head -1 || true)
fi
[ -n "$CUBLAS" ] && export LD_LIBRARY_PATH="$(dirname "$CUBLAS")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for round in $(seq "${ROUNDS:-2}"); do
    for dir in .device/bench-base .device/bench; do
        echo
        echo "## round $round: $dir (rkc $(cat "$dir/COMMIT" 2>/dev/null || cat .device/COMMIT))"
        # KERNELS is split into the harness's arguments on purpose: one name each.
        # shellcheck disable=SC2086
        .device/bench/bench "$dir" "${RUNS:-25}" ${KERNELS:-}
    done
done
