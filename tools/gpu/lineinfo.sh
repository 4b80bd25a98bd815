#!/usr/bin/env bash
#! On the device machine: Nsight Compute's source view of a kernel compiled with -g (its
#! metrics per Rust line), and compute-sanitizer's report of a wild write, located at its Rust
#! line. Writes into $OUT (or out/).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-out}
mkdir -p "$out"
bin=.device/conformance/conformance
dir=.device/lineinfo
echo "# $(date -u +%Y-%m-%dT%H:%MZ), commit $(cat .device/COMMIT)" > "$out/lineinfo.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$out/lineinfo.txt"
ncu --version | tail -1 >> "$out/lineinfo.txt"
ncu --clock-control none --set full --import-source yes -k regex:'^block_sum$' -c 1 -f -o "$out/block_sum" "$bin" "$dir" --only block_sum > "$out/ncu-run.txt" 2>&1
echo "## ncu --page source --print-source cuda (block_sum, testsuite/kernels/shared.rs)" >> "$out/lineinfo.txt"
ncu -i "$out/block_sum.ncu-rep" --page source --print-source cuda --csv >> "$out/lineinfo.txt" 2>&1 \
  || ncu -i "$out/block_sum.ncu-rep" --page source --csv >> "$out/lineinfo.txt" 2>&1
echo "## compute-sanitizer (wild_write, testsuite/faults/trap.rs)" >> "$out/lineinfo.txt"
compute-sanitizer --show-backtrace device "$bin" "$dir" --only faults >> "$out/lineinfo.txt" 2>&1
echo "exit $?" >> "$out/lineinfo.txt"
