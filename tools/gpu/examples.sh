#!/usr/bin/env bash
#! Runs every example on the device machine's GPU; each checks its results itself.
set -uo pipefail
cd "$(dirname "$0")/../.."
echo "# rkc examples on the GPU, $(date -u +%Y-%m-%dT%H:%MZ), commit $(cat .device/COMMIT 2>/dev/null)"
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
status=0
for e in slice matmul reduction blur histogram overlap hgemm; do
  echo
  echo "\$ cargo run --release -p $e"
  args=()
  if [ "$e" = blur ]; then args=("${OUT:-/tmp}/blur"); fi
  ".device/examples/$e" "${args[@]}" || status=1
done
echo
echo "\$ RKC_OFFLOAD_ARCH=sm_80 cargo run --release -p slice   # run with OFFLOAD_INFO=1"
OFFLOAD_INFO=1 .device/examples/slice-sm80 2>&1 | grep -v "^\[offload\] .*copied\|^\[offload\] .*bytes" | head -20
exit $status
