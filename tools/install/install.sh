#!/bin/sh
# Installs rkc from its binary package (made by tools/package.sh in the rkc repository) into
# PREFIX, by default $HOME/.local: PREFIX/bin/rkc and PREFIX/lib/rkc, where rkc finds its
# companions. NVIDIA's ptxas and libdevice (nvidia-cuda-nvcc on PyPI) go to PREFIX/lib/rkc/pypi
# when python3 has pip; without them rkc still compiles, its NVIDIA images hold PTX only (the
# CUDA driver compiles it when the program loads it) and kernels that call math functions such
# as exp or sin cannot be compiled for NVIDIA GPUs. AMD code objects need LLVM 22's ld.lld
# (Debian and Ubuntu: lld-22); without it the default targets leave AMD out.
#
# Usage: sh install.sh [PREFIX]
set -eu
prefix=${1:-${PREFIX:-$HOME/.local}}
here=$(cd "$(dirname "$0")" && pwd)
pypi_spec="nvidia-cuda-nvcc==13.0.88"

mkdir -p "$prefix/bin" "$prefix/lib"
cp "$here/bin/rkc" "$prefix/bin/rkc.new"
mv "$prefix/bin/rkc.new" "$prefix/bin/rkc"
if [ -d "$prefix/lib/rkc/pypi" ]; then
  mv "$prefix/lib/rkc/pypi" "$prefix/lib/rkc-pypi.keep"
fi
rm -rf "$prefix/lib/rkc"
cp -r "$here/lib/rkc" "$prefix/lib/rkc"
if [ -d "$prefix/lib/rkc-pypi.keep" ]; then
  mv "$prefix/lib/rkc-pypi.keep" "$prefix/lib/rkc/pypi"
fi

if [ -x "$prefix/lib/rkc/pypi/nvidia/cu13/bin/ptxas" ]; then
  :
elif python3 -m pip --version >/dev/null 2>&1; then
  echo "install: fetching $pypi_spec (ptxas, libdevice) from PyPI"
  # Debian's and Ubuntu's python3 mark themselves externally managed; installing with --target
  # into rkc's own folder touches nothing of the system's, so that mark does not apply here.
  if ! python3 -m pip install -q --disable-pip-version-check --target "$prefix/lib/rkc/pypi" "$pypi_spec" 2>/dev/null &&
     ! python3 -m pip install -q --disable-pip-version-check --break-system-packages --target "$prefix/lib/rkc/pypi" "$pypi_spec"; then
    echo "install: warning: pip could not fetch $pypi_spec: rkc's NVIDIA images will hold PTX only" >&2
  fi
else
  echo "install: note: python3 with pip was not found, so NVIDIA's ptxas and libdevice were not fetched:"
  echo "  rkc's NVIDIA images hold PTX only, and kernels that call exp, sin... do not compile for NVIDIA GPUs."
  echo "  To add them: python3 -m pip install --target $prefix/lib/rkc/pypi $pypi_spec"
fi
echo "install: $("$prefix/bin/rkc" --version) in $prefix/bin"
