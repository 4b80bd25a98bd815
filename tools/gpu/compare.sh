#!/usr/bin/env bash
#! Times a compiler change against its base on the device machine: after tools/gpu/bench.sh
#! (which compiles kernels.cu with nvcc), runs the harness on .device/bench (this revision's
#! rkc) and .device/bench-base (the base's, from `BASE=<revision> tools/gpu/prepare-bench.sh`)
#! in turn, ROUNDS times each (default 2), so that both meet the machine in the same states, and
#! prints the checks-on rows of each run. The nvcc and checks-off columns are the same programs
#! in both (the base directory gets copies), so only the checks-on column compares compilers.
#! Usage: RUNS=15 ROUNDS=2 bash tools/gpu/compare.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -f .device/bench-base/rkc-checks.fatbin ] || { echo "no .device/bench-base: run BASE=<revision> tools/gpu/prepare-bench.sh first" >&2; exit 1; }
bash tools/gpu/bench.sh
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
        .device/bench/bench "$dir" "${RUNS:-25}"
    done
done
