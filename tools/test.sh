#!/usr/bin/env bash
#! Runs every test of the workspace, after installing what a fresh machine lacks.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
if ! command -v cargo >/dev/null; then
  echo "test: error: cargo is not installed; install a Rust toolchain (1.95 or newer) with rustup" >&2
  exit 1
fi
cargo test --workspace --locked
