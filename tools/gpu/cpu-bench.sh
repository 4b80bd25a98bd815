#!/usr/bin/env bash
#! Runs the CPU benchmark built by tools/gpu/prepare-cpu-bench.sh: every benchmark kernel and
#! example in the host image against its rayon version, RUNS runs each (default 7), on all of
#! the machine's host threads. Works on any x86-64 Linux machine, GPU or not.
set -euo pipefail
cd "$(dirname "$0")/../.."
echo "# The host image against rayon, $(date -u +%Y-%m-%dT%H:%MZ), commit $(cat .device/COMMIT 2>/dev/null || git rev-parse --short HEAD)"
echo "CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) host threads"
OFFLOAD_TARGET=cpu .device/cpu-bench/cpu-bench .device/cpu-bench "${RUNS:-7}"
