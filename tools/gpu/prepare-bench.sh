#!/usr/bin/env bash
#! Builds what tools/gpu/bench.sh runs on the device machine into .device/bench/: the release
#! benchmark harness and testsuite/bench/kernels.rs compiled by rkc with bounds checks on and
#! off (nvcc compiles kernels.cu there, where CUDA is installed).
#!
#! With BASE=<revision>, also compiles the same kernels.rs with the compiler of that revision
#! into .device/bench-base/, for tools/gpu/compare.sh: a compiler change timed against its base
#! side by side, on one machine, in one call.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p rkc
if [ -n "${BASE:-}" ]; then
    # The base compiler is built from a worktree of its revision in a fresh temporary folder,
    # into a target folder of its own, target/base: cargo names a workspace crate's artifacts
    # by its path inside the workspace, so two checkouts sharing one target folder overwrite
    # each other's libraries. The first such build also builds the external crates.
    tmp="$(mktemp -d)"
    trap 'git worktree remove --force "$tmp/base" 2>/dev/null || true; rm -rf "$tmp"' EXIT
    git worktree add -q --detach "$tmp/base" "$BASE"
    CARGO_TARGET_DIR="$PWD/target/base" cargo build --release -q -p rkc --manifest-path "$tmp/base/Cargo.toml"
    rm -rf .device/bench-base
    mkdir -p .device/bench-base
    # The base's checkout has no .toolchain: it uses this one's CUDA toolkit (ptxas and
    # libdevice, which tools/setup.sh installed).
    RKC_CUDA_TOOLKIT="${RKC_CUDA_TOOLKIT:-$PWD/.toolchain/pypi/nvidia/cu13}" \
        target/base/release/rkc testsuite/bench/kernels.rs --offload-arch sm_90 -C checks=on -o .device/bench-base/rkc-checks.fatbin
    git rev-parse --short "$BASE" > .device/bench-base/COMMIT
fi
cargo build --release -q -p rkc-testsuite --bin bench --bin runtime-bench
mkdir -p .device/bench
cp target/release/bench target/release/runtime-bench .device/bench/
cp testsuite/bench/kernels.cu .device/bench/kernels.cu
# With checks on, the cubin also by itself (rkc-checks.sm_90.cubin), for bench.sh's look at the SASS.
target/release/rkc testsuite/bench/kernels.rs --offload-arch sm_90 -C checks=on --emit cubin,ptx -o .device/bench/rkc-checks.fatbin
target/release/rkc testsuite/bench/kernels.rs --offload-arch sm_90 -C checks=off -o .device/bench/rkc-nochecks.fatbin
git rev-parse --short HEAD > .device/COMMIT
ls -la .device/bench
