#!/usr/bin/env bash
#! Runs the runtime benchmark on the device machine: offload!'s launch latency on resident data
#! and its implicit mapping, each against hand-written CUDA driver calls on the same cubin.
set -euo pipefail
cd "$(dirname "$0")/../.."
echo "# rkc runtime costs on the GPU, $(date -u +%Y-%m-%dT%H:%MZ), commit $(cat .device/COMMIT 2>/dev/null)"
echo
.device/bench/runtime-bench .device/bench
