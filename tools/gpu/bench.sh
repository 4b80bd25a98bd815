#!/usr/bin/env bash
#! Runs the rkc-vs-nvcc benchmark on the device machine: compiles kernels.cu with nvcc there,
#! then times both versions (and cuBLAS for the GEMMs) with the harness and prints the Markdown
#! report.
set -euo pipefail
cd "$(dirname "$0")/../.."
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
echo "# rkc vs nvcc on the GPU, $(date -u +%Y-%m-%dT%H:%MZ), commit $(cat .device/COMMIT 2>/dev/null)"
echo
nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm,clocks.max.mem --format=csv,noheader
"$NVCC" --version | tail -2
"$NVCC" -O3 -gencode arch=compute_90a,code=sm_90a -cubin -o .device/bench/nvcc.cubin .device/bench/kernels.cu
# cuBLAS, the GEMM rows' reference, is loaded at run time (cudarc): the toolkit's copy, else the
# one a Python wheel installed.
CUBLAS=$(find /usr/local/cuda/lib64 /usr/local/cuda/targets /usr/lib/x86_64-linux-gnu /usr/local/lib \
    -name 'libcublas.so*' 2>/dev/null | head -1 || true)
if [ -z "$CUBLAS" ]; then
    CUBLAS=$(find / -xdev -path /proc -prune -o -name 'libcublas.so*' -print 2>/dev/null | head -1 || true)
fi
[ -n "$CUBLAS" ] && export LD_LIBRARY_PATH="$(dirname "$CUBLAS")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo
.device/bench/bench .device/bench "${RUNS:-25}"
# The register tiles: local-memory instructions (LDL/STL) in each compiler's SASS of the
# register-tiled sgemm, with its 128-bit shared loads and its fused multiply-adds.
echo
for cubin in .device/bench/rkc-checks.sm_90.cubin .device/bench/nvcc.cubin; do
    sass=$("$(dirname "$NVCC")/cuobjdump" -sass -fun sgemm_tiled "$cubin")
    echo "sgemm_tiled in $(basename "$cubin"): $(grep -cE '\b(LDL|STL)' <<<"$sass") local-memory instructions, $(grep -cE '\bLDS\.128' <<<"$sass") LDS.128, $(grep -cE '\bFFMA\b' <<<"$sass") FFMA"
done
# The tensor-core HGEMM: local memory, tensor-core, asynchronous-copy and ldmatrix instructions.
for cubin in .device/bench/rkc-checks.sm_90.cubin .device/bench/nvcc.cubin; do
    sass=$("$(dirname "$NVCC")/cuobjdump" -sass -fun hgemm "$cubin")
    echo "hgemm in $(basename "$cubin"): $(grep -cE '\b(LDL|STL)' <<<"$sass") local-memory instructions, $(grep -cE '\bHMMA' <<<"$sass") HMMA, $(grep -cE '\bLDGSTS' <<<"$sass") LDGSTS, $(grep -cE '\bLDSM' <<<"$sass") LDSM"
done
# The warpgroup HGEMM: local memory, warpgroup multiplies (HGMMA) and the asynchronous copies.
for cubin in .device/bench/rkc-checks.sm_90.cubin .device/bench/nvcc.cubin; do
    sass=$("$(dirname "$NVCC")/cuobjdump" -sass -fun hgemm_wgmma "$cubin")
    echo "hgemm_wgmma in $(basename "$cubin"): $(grep -cE '\b(LDL|STL)' <<<"$sass") local-memory instructions, $(grep -cE '\bHGMMA' <<<"$sass") HGMMA, $(grep -cE '\bLDGSTS' <<<"$sass") LDGSTS, $(grep -cE 'WARPSYNC|BSSY' <<<"$sass") WARPSYNC/BSSY"
done
# Whether ptxas serialises the warpgroup multiplies of rkc's kernel (its checks can leave the
# kernel before them; nvcc's twin has none): ptxas's own words, with -v.
PTXAS="$(dirname "$NVCC")/ptxas"
# (C7517 and C7519 are notes on the waits and arrives ptxas adds, not serialisations.)
"$PTXAS" -arch=sm_90a -v .device/bench/rkc-checks.sm_90.ptx -o /dev/null 2>&1 | grep -E "serialized.*hgemm_wgmma" | sed 's/^/rkc, checks on: /' || echo "rkc, checks on: ptxas does not serialise hgemm_wgmma's multiplies"
