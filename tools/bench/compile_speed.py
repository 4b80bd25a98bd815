#!/usr/bin/env python3
"""Compile-speed benchmark: rkc against clang-22's CUDA device compilation of the same
kernels, and how rkc's time grows from 1 to 100 kernels in one file.

Also compares rkc's AMD code object (gfx942) with clang-22's HIP compilation of the same
kernels to a linked code object, the baseline for the AMD binary stage's time per kernel.

Writes testsuite/bench/compile-speed.md: the measurements at the top, replaced at each run, and
the file's findings (everything from its first "## Findings" heading on) kept below them. Run
from the repository root after `cargo build --release -p rkc`:
python3 tools/bench/compile_speed.py
Medians of 7 runs each, wall-clock, one process at a time on this machine.
"""
import os, platform, shutil, statistics, subprocess, sys, tempfile, time, datetime

RKC = os.path.abspath("target/release/rkc")
CLANG = shutil.which("clang-22") or "/usr/lib/llvm-22/bin/clang"
RUNS = 7

RUST_KERNEL = """
#[offload_kernel]
pub fn saxpy_{k}(n: usize, a: f32, x: &[f32], y: &mut [f32]) {{
    let i = unsafe {{ (block_idx_x() * block_dim_x() + thread_idx_x()) as usize }};
    if i < n && i < y.len() {{
        let mut acc = y[i];
        for s in 0..4usize {{
            acc = a.mul_add(x[(i + s) % x.len()], acc);
        }}
        y[i] = acc;
    }}
}}
"""

CUDA_KERNEL = """
extern "C" __global__ void saxpy_{k}(unsigned long n, float a, const float* x, unsigned long xlen, float* y, unsigned long ylen) {{
    unsigned long i = (unsigned long)(__nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x());
    if (i < n && i < ylen) {{
        float acc = y[i];
        for (unsigned long s = 0; s < 4; s++) {{
            acc = __builtin_fmaf(a, x[(i + s) % xlen], acc);
        }}
        y[i] = acc;
    }}
}}
"""

# The same kernel in HIP: the AMDGPU builtins for the thread's position.
HIP_KERNEL = (CUDA_KERNEL.replace("__nvvm_read_ptx_sreg_ctaid_x", "__builtin_amdgcn_workgroup_id_x")
              .replace("__nvvm_read_ptx_sreg_ntid_x", "__builtin_amdgcn_workgroup_size_x")
              .replace("__nvvm_read_ptx_sreg_tid_x", "__builtin_amdgcn_workitem_id_x"))

# -nocudainc leaves out CUDA's headers; these are the two spellings the kernels need.
CUDA_PRELUDE = """
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
"""

def median_time(cmd):
    times = []
    for _ in range(RUNS):
        t = time.perf_counter()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        times.append(time.perf_counter() - t)
        if r.returncode != 0:
            sys.exit(f"failed: {' '.join(cmd)}\n{r.stderr.decode()}")
    return statistics.median(times) * 1e3

def main():
    if not os.path.exists(RKC):
        sys.exit("build rkc first: cargo build --release -p rkc")
    tmp = tempfile.mkdtemp()
    rows = []
    amd = []
    for n in [1, 10, 25, 50, 100]:
        rs = os.path.join(tmp, f"k{n}.rs")
        cu = os.path.join(tmp, f"k{n}.cu")
        with open(rs, "w") as f:
            f.write("use rkc_offload::prelude::*;\n" + "".join(RUST_KERNEL.format(k=k) for k in range(n)))
        with open(cu, "w") as f:
            f.write(CUDA_PRELUDE + "".join(CUDA_KERNEL.format(k=k) for k in range(n)))
        ptx_only = median_time([RKC, rs, "-o", os.path.join(tmp, "o.fatbin"), "--offload-arch", "sm_90", "--no-cubin"])
        full = median_time([RKC, rs, "-o", os.path.join(tmp, "o.fatbin"), "--offload-arch", "sm_90"])
        both = median_time([RKC, rs, "-o", os.path.join(tmp, "o.fatbin")])
        clang = median_time([CLANG, "-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
                             "--offload-arch=sm_90", "-O3", "-S", "-o", os.path.join(tmp, "o.s"),
                             # Without a CUDA install clang assumes PTX 4.2, too old for sm_90.
                             "-Xclang", "-target-feature", "-Xclang", "+ptx78", cu])
        rows.append((n, ptx_only, full, both, clang))
        hip = os.path.join(tmp, f"k{n}.hip")
        with open(hip, "w") as f:
            f.write(CUDA_PRELUDE + "".join(HIP_KERNEL.format(k=k) for k in range(n)))
        rkc_amd = median_time([RKC, rs, "-o", os.path.join(tmp, "o.fatbin"), "--offload-arch", "gfx942"])
        # The device side only, compiled, assembled and linked by ld.lld into the code object a
        # runtime loads (without ROCm's libraries or headers, which the kernel does not use).
        clang_amd = median_time([CLANG, "-x", "hip", "--cuda-device-only", "-nogpuinc", "-nogpulib",
                                 "--no-gpu-bundle-output", "--offload-arch=gfx942", "-O3", "-c",
                                 "-o", os.path.join(tmp, "o.hsaco"), hip])
        amd.append((n, rkc_amd, clang_amd))
    # Per-stage times for the 100-kernel file.
    stages = subprocess.run([RKC, os.path.join(tmp, "k100.rs"), "-o", os.path.join(tmp, "o.fatbin"), "--time-passes"],
                            capture_output=True, text=True).stderr
    cpu = "unknown"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    out = ["# Compile speed", "",
           f"Measured {datetime.date.today()} on this project's development machine ({os.cpu_count()} cores, {cpu}),",
           "with `python3 tools/bench/compile_speed.py` (after `cargo build --release -p rkc`). Wall-clock",
           f"medians of {RUNS} runs of one process each, in milliseconds. Each kernel is a saxpy with a 4-step",
           "fused loop and bounds checks; the CUDA C++ version is the same algorithm.", "",
           "| kernels | rkc → PTX (sm_90) | rkc → PTX + cubin (sm_90) | rkc default targets (7 NVIDIA PTX+cubin, gfx942, host) | clang-22 -x cuda → PTX (sm_90) | rkc PTX / clang | rkc ms per kernel (PTX+cubin) |",
           "|---:|---:|---:|---:|---:|---:|---:|"]
    for n, p, f_, b, c in rows:
        out.append(f"| {n} | {p:.1f} | {f_:.1f} | {b:.1f} | {c:.1f} | {p / c:.2f} | {f_ / n:.2f} |")
    first, last = rows[0], rows[-1]
    slope = (last[2] - first[2]) / (last[0] - first[0])
    out += ["", f"Growth: from 1 to 100 kernels rkc's PTX+cubin time rises by {slope:.2f} ms per kernel; the table's",
            "per-kernel column shows whether that is linear (a constant per-kernel cost over the start-up).", "",
            "AMD, the same kernels to a gfx942 code object: rkc (`--offload-arch gfx942`, the whole compilation)",
            "against clang-22's HIP device compilation (`-x hip --cuda-device-only -O3`, linked by ld.lld):", "",
            "| kernels | rkc → gfx942 | clang-22 -x hip → gfx942 | rkc / clang | rkc ms per kernel | clang ms per kernel |",
            "|---:|---:|---:|---:|---:|---:|"]
    for n, r, c in amd:
        out.append(f"| {n} | {r:.1f} | {c:.1f} | {r / c:.2f} | {r / n:.2f} | {c / n:.2f} |")
    amd_slope = (amd[-1][1] - amd[0][1]) / (amd[-1][0] - amd[0][0])
    clang_slope = (amd[-1][2] - amd[0][2]) / (amd[-1][0] - amd[0][0])
    out += ["", f"From 1 to 100 kernels: rkc's gfx942 time rises by {amd_slope:.2f} ms per kernel, clang-22's by {clang_slope:.2f}.", "",
            "Per-stage times of the 100-kernel file, default targets (`rkc --time-passes`):", "", "```", stages.strip(), "```", ""]
    report = "testsuite/bench/compile-speed.md"
    findings = ""
    if os.path.exists(report):
        text = open(report).read()
        at = text.find("\n## Findings")
        if at >= 0:
            findings = text[at + 1:]
    os.makedirs("testsuite/bench", exist_ok=True)
    with open(report, "w") as f:
        f.write("\n".join(out) + ("\n" + findings if findings else ""))
    print("\n".join(out))

if __name__ == "__main__":
    main()
