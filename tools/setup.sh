#!/usr/bin/env bash
#! Installs what a fresh Debian 12 machine lacks to build and test rkc: LLVM/MLIR 22 and
#! their easy-to-miss companions from apt (compiler-rt's builtins for the host image among
#! them), and the PyPI CUDA toolkit (ptxas, fatbinary,
#! libdevice) into .toolchain/ inside the repository. Idempotent: when everything is
#! present it only checks, which takes about a second. With `--aarch64` (tools/test.sh passes
#! it) also what cross-compiling and running aarch64 host images needs: aarch64's C library
#! to link them against, a cross C compiler and Rust's aarch64 standard library to build the
#! conformance binary, and qemu to run it.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
toolchain="$root/.toolchain"

# Packages needed to build against MLIR 22 (see the toolchain notes in ARCHITECTURE.md):
# without libpolly-22-dev the link misses Polly, without libzstd-dev it misses -lzstd.
apt_packages=(
  llvm-22-dev libmlir-22-dev libpolly-22-dev libzstd-dev libclang-22-dev
  llvm-22 lld-22 mlir-22-tools clang-22 rocm-device-libs libclang-rt-22-dev
)
aarch64=false
for arg in "$@"; do
  case "$arg" in
    --aarch64) aarch64=true ;;
    *) echo "setup: error: unknown argument $arg (known: --aarch64)" >&2; exit 1 ;;
  esac
done
if $aarch64; then
  apt_packages+=(libc6-dev-arm64-cross gcc-aarch64-linux-gnu qemu-user)
fi
# The PyPI CUDA toolkit: ptxas, fatbinary and nvlink, with libdevice through nvidia-nvvm.
pypi_spec="nvidia-cuda-nvcc==13.0.88"

if ! command -v cargo >/dev/null; then
  echo "setup: error: cargo is not installed; install a Rust toolchain (1.95 or newer) with rustup" >&2
  exit 1
fi

missing=()
for p in "${apt_packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    sudo_cmd=""
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo_cmd="sudo"; fi
    if [ -z "$sudo_cmd" ]; then
      echo "setup: error: not root; run as root:" >&2
      echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
      exit 1
    fi
  else
    sudo_cmd=""
  fi
  if ! { $sudo_cmd apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }; then
    echo "setup: error: apt-get could not install the packages (no network or no bookworm-security suite?)." >&2
    echo "  run: apt-get update && apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

ptxas="$toolchain/pypi/nvidia/cu13/bin/ptxas"
if [ ! -x "$ptxas" ]; then
  echo "setup: installing $pypi_spec into .toolchain/pypi"
  if ! python3 -m pip --version >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-pip >/dev/null
    else
      echo "setup: error: python3 has no pip; run as root: apt-get install -y python3-pip" >&2
      exit 1
    fi
  fi
  pip_install() {
    python3 -m pip install -q --disable-pip-version-check --no-warn-script-location \
      --target "$toolchain/pypi" "$@" "$pypi_spec"
  }
  # Debian's own python3 marks itself externally managed; installing with --target into the
  # project's folder touches nothing of the system's, so that mark does not apply here.
  if ! pip_install 2>/dev/null && ! pip_install --break-system-packages; then
    echo "setup: error: pip could not install $pypi_spec (no network?)." >&2
    echo "  run: python3 -m pip install --target $toolchain/pypi $pypi_spec" >&2
    exit 1
  fi
fi

if $aarch64 && ! rustup target list --installed 2>/dev/null | grep -qx aarch64-unknown-linux-gnu; then
  echo "setup: installing Rust's aarch64-unknown-linux-gnu standard library"
  rustup target add aarch64-unknown-linux-gnu >/dev/null || {
    echo "setup: error: rustup could not add aarch64-unknown-linux-gnu (no rustup, or no network?)" >&2
    exit 1
  }
fi

echo "setup: ok (LLVM 22, ptxas $("$ptxas" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), ROCm device libs)"
