#!/usr/bin/env bash
#! Runs issue 8's checks on every GPU of the device machine (nvidia-h200-x2 for all of them).
set -uo pipefail
cd "$(dirname "$0")/../.."
echo "# rkc several-device checks, $(date -u +%Y-%m-%dT%H:%MZ), commit $(cat .device/COMMIT 2>/dev/null)"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
.device/multi/multi_device .device/multi/saxpy.fatbin
