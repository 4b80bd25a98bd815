#!/usr/bin/env bash
#! The main job end to end: installs what is missing, builds rkc, compiles the slice example's
#! kernels into a fat binary, lists its images, runs them with every element checked, then runs
#! the other examples (matmul, reduction, blur, histogram, overlap, hgemm), each checked against a CPU
#! reference: on the GPU when there is one, on the CPU otherwise (the host image, or the simulator
#! for kernels it leaves out); each says where it ran.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
# rkc first: the example's build.rs compiles its kernels with it.
cargo build --release --locked -q -p rkc
cargo build --release --locked -q -p slice -p matmul -p reduction -p blur -p histogram -p overlap -p hgemm
mkdir -p target/rkc
echo '$ rkc examples/slice/src/kernels.rs -o target/rkc/slice.fatbin'
target/release/rkc examples/slice/src/kernels.rs -o target/rkc/slice.fatbin
echo '$ llvm-objdump-22 --offloading target/rkc/slice.fatbin'
/usr/lib/llvm-22/bin/llvm-objdump --offloading target/rkc/slice.fatbin | sed '/^$/d'
echo '$ slice target/rkc/slice.fatbin'
target/release/slice target/rkc/slice.fatbin
for example in matmul reduction blur histogram overlap hgemm; do
  echo "\$ cargo run --release -p $example"
  "target/release/$example"
done
