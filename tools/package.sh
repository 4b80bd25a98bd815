#!/usr/bin/env bash
#! Builds rkc's binary package, which installs on an x86-64 Linux machine that has neither LLVM
#! nor MLIR (glibc 2.36 or newer: Debian 12, Ubuntu 24.04, Fedora 37 and later):
#! target/dist/rkc-<version>-x86_64-linux.tar.gz holding bin/rkc (MLIR and LLVM linked in
#! statically, stripped), lib/rkc/amdgcn (the ROCm device libraries, NCSA-licensed),
#! lib/rkc/libclang_rt.builtins-x86_64.a (LLVM's compiler-rt builtins, Apache-2.0 with LLVM
#! exceptions, which the host image links for 16-bit floats and 128-bit division) and
#! install.sh (tools/install/install.sh). NVIDIA's ptxas and libdevice are not redistributed:
#! install.sh fetches them from PyPI where pip is available. Prints the sizes.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p rkc
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
name="rkc-$version-x86_64-linux"
dist=target/dist
rm -rf "${dist:?}/$name" "$dist/$name.tar.gz"
mkdir -p "$dist/$name/bin" "$dist/$name/lib/rkc"
cp target/release/rkc "$dist/$name/bin/rkc"
strip "$dist/$name/bin/rkc"
bitcode=/usr/lib/x86_64-linux-gnu/amdgcn
if [ -d "$bitcode/bitcode" ]; then
  cp -rL "$bitcode" "$dist/$name/lib/rkc/amdgcn"
else
  echo "package: warning: no ROCm device libraries at $bitcode (run tools/setup.sh): AMD kernels that call math functions will not link" >&2
fi
builtins=/usr/lib/llvm-22/lib/clang/22/lib/linux/libclang_rt.builtins-x86_64.a
if [ -f "$builtins" ]; then
  cp "$builtins" "$dist/$name/lib/rkc/"
else
  echo "package: warning: no compiler-rt builtins at $builtins (run tools/setup.sh): host images will leave out kernels with 16-bit floats or 128-bit division" >&2
fi
cp tools/install/install.sh "$dist/$name/install.sh"
chmod +x "$dist/$name/install.sh"
tar -czf "$dist/$name.tar.gz" -C "$dist" "$name"
echo "package: $dist/$name.tar.gz ($(du -h "$dist/$name.tar.gz" | cut -f1); rkc $(du -h "$dist/$name/bin/rkc" | cut -f1) stripped, $(du -h target/release/rkc | cut -f1) before)"
