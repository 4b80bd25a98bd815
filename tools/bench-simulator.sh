#!/usr/bin/env bash
#! The CPU simulator's speed on the examples: runs each example's release binary (built by
#! tools/run-example.sh or `cargo build --release -p NAME`) RUNS times (default 7) with
#! OFFLOAD_TARGET=disabled, so that it runs on the simulator even where there is a GPU, and
#! prints the median of the kernel time each example reports. Usage: tools/bench-simulator.sh
#! [DIR], DIR holding the binaries (default target/release) and slice.fatbin for slice.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-target/release}
runs=${RUNS:-7}
export OFFLOAD_TARGET=disabled
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "# CPU simulator, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD 2>/dev/null || cat .device/COMMIT), $(nproc) host threads"
echo "| example | kernel time, median of $runs (ms) |"
echo "|---|---|"
for example in matmul reduction blur histogram; do
  t=$(for _ in $(seq "$runs"); do "$dir/$example" | sed -n 's/.*kernel \([0-9.]*\) ms.*/\1/p'; done | median)
  echo "| $example | $t |"
done
fatbin=${SLICE_FATBIN:-$dir/slice.fatbin}
if [ -f "$fatbin" ]; then
  t=$(for _ in $(seq "$runs"); do "$dir/slice" "$fatbin" | sed -n 's/^saxpy: .*(\([0-9.]*\) ms).*/\1/p'; done | median)
  echo "| slice (saxpy, 2^20 elements, with its copies) | $t |"
fi
