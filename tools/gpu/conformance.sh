#!/usr/bin/env bash
#! Runs the conformance binary on the device machine: every testsuite kernel on the GPU
#! against the CPU simulator.
set -uo pipefail
cd "$(dirname "$0")/../.."
echo "# rkc GPU conformance, $(date -u +%Y-%m-%dT%H:%MZ), commit $(cat .device/COMMIT 2>/dev/null)"
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
.device/conformance/conformance .device/conformance
