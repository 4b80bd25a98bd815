#!/usr/bin/env bash
#! Runs every test of the workspace, after installing what a fresh machine lacks.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh --aarch64
# The examples' build scripts run rkc (through rkc-build): build it first, so that they find it.
cargo build --release --locked -q -p rkc
cargo test --workspace --locked
# The aarch64 host image, cross-compiled and run under qemu (a few minutes).
tools/aarch64-conformance.sh
