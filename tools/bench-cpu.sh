#!/usr/bin/env bash
#! Where there is no GPU: each example's kernel time on the CPU as `offload!` runs it by
#! default (the host image, or the simulator for the kernels the host image leaves out) and on
#! the simulator alone, medians of RUNS runs (default 7), with the size and executor each example
#! reports. The examples' release binaries must be built (tools/run-example.sh, or
#! `cargo build --release -p NAME`). Usage: tools/bench-cpu.sh [DIR], DIR holding the binaries
#! (default target/release) and slice.fatbin for slice (default target/rkc/slice.fatbin).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-target/release}
runs=${RUNS:-7}
fatbin=${SLICE_FATBIN:-target/rkc/slice.fatbin}
[ -f "$dir/slice.fatbin" ] && fatbin=$dir/slice.fatbin
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "# CPU executors, $(date -u +%Y-%m-%dT%H:%MZ), commit $(cat .device/COMMIT 2>/dev/null || git rev-parse --short HEAD), $(nproc) host threads"
echo "| example | OFFLOAD_TARGET | what ran | kernel time, median of $runs (ms) |"
echo "|---|---|---|---|"
for target in cpu simulator; do
  for example in matmul reduction blur histogram; do
    first=$(OFFLOAD_TARGET=$target "$dir/$example" | sed -n 1p)
    t=$(for _ in $(seq "$runs"); do OFFLOAD_TARGET=$target "$dir/$example" | sed -n 's/.*kernel \([0-9.]*\) ms.*/\1/p'; done | median)
    echo "| $example | $target | ${first%%(*} | $t |"
  done
  if [ -f "$fatbin" ]; then
    t=$(for _ in $(seq "$runs"); do OFFLOAD_TARGET=$target "$dir/slice" "$fatbin" | sed -n 's/^saxpy: .*(\([0-9.]*\) ms).*/\1/p'; done | median)
    echo "| slice (saxpy, 2^20 elements, with its copies) | $target | $(OFFLOAD_TARGET=$target "$dir/slice" "$fatbin" | sed -n 's/^device: \([^(]*\).*/\1/p') | $t |"
  fi
done
