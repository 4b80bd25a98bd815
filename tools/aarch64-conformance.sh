#!/usr/bin/env bash
#! The conformance run on the aarch64 host image, on this x86-64 machine: every testsuite
#! kernel file and the generated kernels compiled by the release rkc with
#! `--offload-arch=aarch64`, and the conformance binary cross-compiled for aarch64 Linux, run
#! under qemu's user-mode emulation with `OFFLOAD_TARGET=cpu`: each kernel in the aarch64 host
#! image against rustc's aarch64 code on the simulator, panics included, bit for bit.
#! Needs what `tools/setup.sh --aarch64` installs (qemu-user, gcc-aarch64-linux-gnu,
#! libc6-dev-arm64-cross, Rust's aarch64-unknown-linux-gnu standard library); run by
#! tools/test.sh after the workspace's tests.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in qemu-aarch64 aarch64-linux-gnu-gcc; do
  command -v "$tool" >/dev/null || { echo "aarch64-conformance: $tool is missing: run tools/setup.sh --aarch64" >&2; exit 1; }
done
sysroot=/usr/aarch64-linux-gnu
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
cargo build --release --locked -q -p rkc
cargo build --release --locked -q -p rkc-testsuite --bin conformance --target aarch64-unknown-linux-gnu
conformance=target/aarch64-unknown-linux-gnu/release/conformance
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# An Armv8.0 CPU (Cortex-A57): on CPUs with FP16 arithmetic (Armv8.2 on) the `half` crate's
# `Sum` and `Product` of f16 take a path of their own (each step rounded to f16; `product`
# starts from 0, a bug of half 2.7.1, so it is always 0), and rustc's reference would then
# differ from what rkc defines, which is half's portable behaviour (f32 accumulation, one
# rounding), the same as on x86-64.
qemu=(qemu-aarch64 -cpu cortex-a57 -L "$sysroot")
"${qemu[@]}" "$conformance" --write-generated "$dir/generated.rs"
for k in testsuite/kernels/*.rs testsuite/faults/*.rs "$dir/generated.rs"; do
  target/release/rkc "$k" --offload-arch aarch64 -o "$dir/$(basename "$k" .rs).fatbin"
done
report=$(OFFLOAD_TARGET=cpu "${qemu[@]}" "$conformance" "$dir" 2>&1) || { echo "$report"; exit 1; }
echo "$report" | grep -v '^PASS'
grep -q '^device: rkc CPU (host image) (aarch64' <<<"$report" || { echo "aarch64-conformance: the runs were not on the aarch64 host image" >&2; exit 1; }
