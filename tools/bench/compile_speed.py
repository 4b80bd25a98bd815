#!/usr/bin/env python3
"""Compile-speed benchmark: rkc against clang-22's CUDA device compilation of the same
kernels, and how rkc's time grows from 1 to 100 kernels in one file.

Writes testsuite/bench/compile-speed.md. Run from the repository root after
`cargo build --release -p rkc`:  python3 tools/bench/compile_speed.py
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
            "Per-stage times of the 100-kernel file, default targets (`rkc --time-passes`):", "", "```", stages.strip(), "```", ""]
    os.makedirs("testsuite/bench", exist_ok=True)
    with open("testsuite/bench/compile-speed.md", "w") as f:
        f.write("\n".join(out))
    print("\n".join(out))

if __name__ == "__main__":
    main()
