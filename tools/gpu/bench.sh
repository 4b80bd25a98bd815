#!/usr/bin/env bash
#! Runs the rkc-vs-nvcc benchmark on the device machine: compiles kernels.cu with nvcc there,
#! then times both versions with the harness and prints the Markdown report.
set -euo pipefail
cd "$(dirname "$0")/../.."
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
echo "# rkc vs nvcc on the GPU, $(date -u +%Y-%m-%dT%H:%MZ), commit $(cat .device/COMMIT 2>/dev/null)"
echo
nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm,clocks.max.mem --format=csv,noheader
"$NVCC" --version | tail -2
"$NVCC" -O3 -arch=sm_90 -cubin -o .device/bench/nvcc.cubin .device/bench/kernels.cu
echo
.device/bench/bench .device/bench "${RUNS:-25}"
