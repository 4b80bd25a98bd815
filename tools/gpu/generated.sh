#!/usr/bin/env bash
#! Runs batches of tools/gpu/prepare-generated.sh on the device machine: each batch's
#! conformance run, of which the generated-kernel line and the summary are printed.
#!
#! Usage: [GEN_DIR=.device-gen] tools/gpu/generated.sh K...
set -uo pipefail
cd "$(dirname "$0")/../.."
for k in "$@"; do
  dir=$(mktemp -d)
  tar -xzf "${GEN_DIR:-.device-gen}/batch$k.tar.gz" -C "$dir"
  echo "# generated batch $k, $(date -u +%Y-%m-%dT%H:%MZ), commit $(cat "$dir/COMMIT")"
  "$dir/conformance" "$dir" | grep -E "generated kernels|passed|FAIL"
  rm -rf "$dir"
done
