#!/usr/bin/env bash
#! Builds batches of generated kernels for the GPU differential run into .device-gen<k>/:
#! batch k holds RKC_GENERATED (default 2000) kernels from seed k·count + 1, compiled by rustc
#! into the conformance binary and by rkc into generated.fatbin (a batch is what one device
#! call can carry). Run each with tools/gpu/generated.sh k on the device machine.
#!
#! Usage: tools/gpu/prepare-generated.sh FIRST_BATCH LAST_BATCH
set -euo pipefail
cd "$(dirname "$0")/../.."
export RKC_GENERATED=${RKC_GENERATED:-2000}
cargo build --release -q -p rkc
for k in $(seq "$1" "$2"); do
  export RKC_GENERATED_FIRST=$((k * RKC_GENERATED + 1))
  cargo build --release -q -p rkc-testsuite --bin conformance
  dir=".device-gen$k"
  rm -rf "$dir" && mkdir -p "$dir"
  cp target/release/conformance "$dir/conformance"
  "$dir/conformance" --write-generated "$dir/generated.rs"
  target/release/rkc "$dir/generated.rs" --offload-arch sm_90 -o "$dir/generated.fatbin"
  for f in testsuite/kernels/*.rs; do target/release/rkc "$f" --offload-arch sm_90 -o "$dir/$(basename "$f" .rs).fatbin"; done
  rm "$dir/generated.rs"
  git rev-parse --short HEAD > "$dir/COMMIT"
  echo "batch $k: seeds $RKC_GENERATED_FIRST.. in $dir"
done
