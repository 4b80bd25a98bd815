#!/usr/bin/env bash
#! Runs the vertical slice on the device machine: the example on the GPU, then the same on the
#! CPU simulator, under compute-sanitizer too when it is there. Expects the release `slice`
#! binary and the fat binary in .device/ (made by tools/gpu/prepare-slice.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."
echo "# rkc vertical slice on $(hostname), $(date -u +%Y-%m-%dT%H:%MZ), commit $(cat .device/COMMIT 2>/dev/null)"
nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total --format=csv
echo
echo '$ .device/slice .device/slice.fatbin'
.device/slice .device/slice.fatbin; gpu_rc=$?
echo "exit code: $gpu_rc"
echo
echo '$ OFFLOAD_TARGET=disabled .device/slice .device/slice.fatbin'
OFFLOAD_TARGET=disabled .device/slice .device/slice.fatbin; sim_rc=$?
echo "exit code: $sim_rc"
if command -v compute-sanitizer >/dev/null; then
  echo
  echo '$ compute-sanitizer --tool memcheck .device/slice .device/slice.fatbin'
  compute-sanitizer --tool memcheck .device/slice .device/slice.fatbin 2>&1 | tail -n 4
fi
exit $((gpu_rc | sim_rc))
