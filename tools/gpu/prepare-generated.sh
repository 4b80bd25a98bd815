#!/usr/bin/env bash
#! Builds batches of generated kernels for the GPU differential run: batch k holds
#! RKC_GENERATED (default 2000) kernels from seed k·count + 1, compiled by rustc into the
#! conformance binary and by rkc into generated.fatbin, with the testsuite's fat binaries.
#! Each batch is packed as .device-gen/batch<k>.tar.gz (stripped and compressed, so that
#! several batches fit in the 64 MiB one device call carries). Run them with
#! tools/gpu/generated.sh K... on the device machine, carrying .device-gen.
#!
#! Usage: tools/gpu/prepare-generated.sh FIRST_BATCH LAST_BATCH
set -euo pipefail
cd "$(dirname "$0")/../.."
export RKC_GENERATED=${RKC_GENERATED:-2000}
cargo build --release -q -p rkc
mkdir -p .device-gen
for k in $(seq "$1" "$2"); do
  export RKC_GENERATED_FIRST=$((k * RKC_GENERATED + 1))
  cargo build --release -q -p rkc-testsuite --bin conformance
  dir=$(mktemp -d)
  cp target/release/conformance "$dir/conformance"
  strip "$dir/conformance"
  "$dir/conformance" --write-generated "$dir/generated.rs"
  target/release/rkc "$dir/generated.rs" --offload-arch sm_90 -o "$dir/generated.fatbin"
  for f in testsuite/kernels/*.rs testsuite/faults/*.rs; do target/release/rkc "$f" --offload-arch sm_90 -o "$dir/$(basename "$f" .rs).fatbin"; done
  rm "$dir/generated.rs"
  git rev-parse --short HEAD > "$dir/COMMIT"
  tar -czf ".device-gen/batch$k.tar.gz" -C "$dir" .
  rm -rf "$dir"
  echo "batch $k: seeds $RKC_GENERATED_FIRST..$((RKC_GENERATED_FIRST + RKC_GENERATED - 1)), $(du -h ".device-gen/batch$k.tar.gz" | cut -f1)"
done
