#!/usr/bin/env bash
#! Runs batch K of tools/gpu/prepare-generated.sh on the device machine: the conformance run,
#! whose generated-kernel line reports the batch.
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=".device-gen$1"
echo "# generated batch $1, $(date -u +%Y-%m-%dT%H:%MZ), commit $(cat "$dir/COMMIT")"
"$dir/conformance" "$dir" | grep -E "generated kernels|passed"
