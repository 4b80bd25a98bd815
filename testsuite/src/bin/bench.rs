//! rkc against nvcc on the GPU: the kernels of testsuite/bench/kernels.rs (compiled by rkc,
//! with bounds checks on and off) and of kernels.cu (compiled by nvcc -O3 -arch=sm_90), the
//! same algorithms with the same parameters, loaded through one loader and timed one way:
//! CUDA events around each launch, warm-up launches first, the median of the timed ones,
//! inputs of random data in two sets used in turn, each buffer larger than the L2 cache for
//! the memory-bound kernels. Before the timed runs every variant runs once on outputs filled
//! with 0xFF, and its outputs are checked against a CPU reference. The ceiling is the device's
//! copy bandwidth, measured in the same run (cuMemcpyDtoD of 1 GiB).
//!
//! Usage: bench DIR [RUNS [KERNEL...]], where DIR holds rkc-checks.fatbin, rkc-nochecks.fatbin
//! and nvcc.cubin. Prints a Markdown report. With kernel names, only their rows run (a
//! comparison of a few kernels fits more runs into a device call); their inputs then differ
//! from a whole run's, since the random data is drawn in the order of the rows.

use rkc_testsuite::bench_kernels as bk;
use rkc_testsuite::cuda::{Gpu, Ptr};

/// One argument of a benchmark kernel.
#[derive(Clone, Copy)]
enum Arg {
    /// A scalar's little-endian bytes (`usize` as 8 bytes, `f32` as 4).
    U64(u64),
    F32(f32),
    /// Buffer `k` of the benchmark, as a slice: pointer and length in elements.
    Slice(usize),
    /// Buffer `k` of 4-byte elements as a slice of `[T; 4]`: pointer and length in quads.
    Quads(usize),
}

/// How a buffer starts.
#[derive(Clone, Copy)]
enum Init {
    /// Random `f32` in [-1, 1).
    Floats,
    /// Random `u32`.
    Words,
    /// Random integers in -4..=4 as `f16` bits: products and sums of 4096 of them are exact, so
    /// tensor cores, cuBLAS and the CPU agree bit for bit.
    SmallHalves,
    /// An output, filled with 0xFF before the checked run.
    Output,
}

struct Bench {
    /// The name in the report.
    name: &'static str,
    /// The kernel's name in both cubins.
    kernel: &'static str,
    /// Elements (4 or 8 bytes each) and initial contents of each buffer.
    buffers: Vec<(usize, usize, Init)>,
    args: Vec<Arg>,
    grid: [u32; 3],
    block: [u32; 3],
    /// Bytes of dynamic shared memory a launch gives the kernel.
    shared: u32,
    /// Bytes the kernel must move at least (reads + writes), for GB/s; 0 when compute-bound.
    bytes: f64,
    /// Floating-point operations, for GFLOP/s; 0 when memory-bound.
    flops: f64,
    /// Checks the outputs against a CPU reference, given every buffer after the run.
    verify: fn(&[Vec<u8>]) -> Result<(), String>,
    /// Whether the outputs must equal nvcc's bit for bit (no float reassociation differences).
    exact: bool,
}

fn floats(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

fn first_difference<T: PartialEq + std::fmt::Debug>(
    got: &[T],
    want: impl Iterator<Item = T>,
) -> Result<(), String> {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if *g != w {
            return Err(format!("element {i}: {g:?}, expected {w:?}"));
        }
    }
    Ok(())
}

fn close(got: f64, want: f64, rel: f64) -> bool {
    (got - want).abs() <= rel * want.abs().max(1.0)
}

const N: usize = 1 << 26;
const MAT: usize = 8192;
const GEMM: usize = 4096;
const ROWS: usize = 32768;
const COLS: usize = 1024;
const BODIES: usize = 32768;
const REDUCE_BLOCKS: usize = 1024;

fn benches() -> Vec<Bench> {
    let blocks = |n: usize| [n.div_ceil(256) as u32, 1, 1];
    vec![
        Bench {
            name: "vec_add",
            kernel: "vec_add",
            buffers: vec![(N, 4, Init::Floats), (N, 4, Init::Floats), (N, 4, Init::Output)],
            args: vec![Arg::Slice(0), Arg::Slice(1), Arg::Slice(2)],
            grid: blocks(N),
            block: [256, 1, 1],
            shared: 0,
            bytes: 12.0 * N as f64,
            flops: 0.0,
            verify: verify_add,
            exact: true,
        },
        Bench {
            name: "saxpy",
            kernel: "saxpy",
            buffers: vec![(N, 4, Init::Floats), (N, 4, Init::Floats)],
            args: vec![Arg::F32(2.5), Arg::Slice(0), Arg::Slice(1)],
            grid: blocks(N),
            block: [256, 1, 1],
            shared: 0,
            bytes: 12.0 * N as f64,
            flops: 0.0,
            // y is updated in place; the checked run starts from a fresh copy (see `run`).
            verify: verify_saxpy,
            exact: true,
        },
        Bench {
            name: "vec_add, [f32; 4] per thread",
            kernel: "vec_add4",
            buffers: vec![(N, 4, Init::Floats), (N, 4, Init::Floats), (N, 4, Init::Output)],
            args: vec![Arg::Quads(0), Arg::Quads(1), Arg::Quads(2)],
            grid: blocks(N / 4),
            block: [256, 1, 1],
            shared: 0,
            bytes: 12.0 * N as f64,
            flops: 0.0,
            verify: verify_add,
            exact: true,
        },
        Bench {
            name: "saxpy, [f32; 4] per thread",
            kernel: "saxpy4",
            buffers: vec![(N, 4, Init::Floats), (N, 4, Init::Floats)],
            args: vec![Arg::F32(2.5), Arg::Quads(0), Arg::Quads(1)],
            grid: blocks(N / 4),
            block: [256, 1, 1],
            shared: 0,
            bytes: 12.0 * N as f64,
            flops: 0.0,
            // y is updated in place; the checked run starts from a fresh copy (see `run`).
            verify: verify_saxpy,
            exact: true,
        },
        Bench {
            name: "canonical",
            kernel: "canonical",
            buffers: vec![(N / 2, 8, Init::Output)],
            args: vec![Arg::Slice(0)],
            grid: blocks(N / 2),
            block: [256, 1, 1],
            shared: 0,
            bytes: 4.0 * N as f64,
            flops: 0.0,
            verify: |b| {
                let x: Vec<f64> = b[0]
                    .chunks_exact(8)
                    .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
                    .collect();
                first_difference(&x, (0..N / 2).map(|i| i as f64))
            },
            exact: true,
        },
        Bench {
            name: "reduce",
            kernel: "reduce",
            buffers: vec![(N, 4, Init::Floats), (REDUCE_BLOCKS, 4, Init::Output)],
            args: vec![Arg::Slice(0), Arg::Slice(1)],
            grid: [REDUCE_BLOCKS as u32, 1, 1],
            block: [256, 1, 1],
            shared: 0,
            bytes: 4.0 * N as f64,
            flops: 0.0,
            verify: |b| {
                let want: f64 = floats(&b[0]).iter().map(|&v| f64::from(v)).sum();
                let got: f64 = floats(&b[1]).iter().map(|&v| f64::from(v)).sum();
                if close(got, want, 1e-3) {
                    Ok(())
                } else {
                    Err(format!("sum {got}, expected {want}"))
                }
            },
            exact: true,
        },
        Bench {
            name: "transpose",
            kernel: "transpose",
            buffers: vec![(MAT * MAT, 4, Init::Floats), (MAT * MAT, 4, Init::Output)],
            args: vec![Arg::U64(MAT as u64), Arg::U64(MAT as u64), Arg::Slice(0), Arg::Slice(1)],
            grid: [(MAT / 32) as u32, (MAT / 32) as u32, 1],
            block: [32, 8, 1],
            shared: 0,
            bytes: 8.0 * (MAT * MAT) as f64,
            flops: 0.0,
            verify: |b| {
                let (x, y) = (floats(&b[0]), floats(&b[1]));
                first_difference(&y, (0..MAT * MAT).map(|k| x[(k % MAT) * MAT + k / MAT]))
            },
            exact: true,
        },
        gemm("sgemm 4096³", "sgemm", 16, [16, 16, 1], Arg::Slice),
        gemm("sgemm register-tiled 4096³", "sgemm_tiled", 128, [256, 1, 1], Arg::Quads),
        hgemm(
            "hgemm tensor cores 4096³",
            "hgemm",
            [bk::HGEMM_BLOCK_M, bk::HGEMM_BLOCK_N],
            bk::HGEMM_THREADS,
            bk::HGEMM_SHARED_BYTES,
        ),
        hgemm(
            "hgemm warpgroup (wgmma) 4096³",
            "hgemm_wgmma",
            [bk::WGMMA_BLOCK_M, bk::WGMMA_BLOCK_N],
            bk::WGMMA_THREADS,
            bk::WGMMA_SHARED_BYTES,
        ),
        Bench {
            name: "stencil 5-point",
            kernel: "stencil",
            buffers: vec![(MAT * MAT, 4, Init::Floats), (MAT * MAT, 4, Init::Output)],
            args: vec![Arg::U64(MAT as u64), Arg::U64(MAT as u64), Arg::Slice(0), Arg::Slice(1)],
            grid: [(MAT / 32) as u32, (MAT / 8) as u32, 1],
            block: [32, 8, 1],
            shared: 0,
            bytes: 8.0 * (MAT * MAT) as f64,
            flops: 0.0,
            verify: |b| {
                let (x, y) = (floats(&b[0]), floats(&b[1]));
                for r in 1..MAT - 1 {
                    for c in 1..MAT - 1 {
                        let i = r * MAT + c;
                        let want = 0.2f32 * (x[i] + x[i - 1] + x[i + 1] + x[i - MAT] + x[i + MAT]);
                        if y[i] != want {
                            return Err(format!("({r}, {c}): {}, expected {want}", y[i]));
                        }
                    }
                }
                Ok(())
            },
            exact: true,
        },
        Bench {
            name: "histogram",
            kernel: "histogram",
            buffers: vec![(N, 4, Init::Words), (256, 4, Init::Output)],
            args: vec![Arg::Slice(0), Arg::Slice(1)],
            grid: [1024, 1, 1],
            block: [256, 1, 1],
            shared: 0,
            bytes: 4.0 * N as f64,
            flops: 0.0,
            // The bins start at zero for the checked run (see `run`).
            verify: |b| {
                let mut want = vec![0u32; 256];
                for w in words(&b[0]) {
                    want[(w & 255) as usize] += 1;
                }
                first_difference(&words(&b[1]), want.into_iter())
            },
            exact: true,
        },
        Bench {
            name: "softmax rows",
            kernel: "softmax",
            buffers: vec![(ROWS * COLS, 4, Init::Floats), (ROWS * COLS, 4, Init::Output)],
            args: vec![Arg::U64(COLS as u64), Arg::Slice(0), Arg::Slice(1)],
            grid: [ROWS as u32, 1, 1],
            block: [256, 1, 1],
            shared: 0,
            bytes: 8.0 * (ROWS * COLS) as f64,
            flops: 0.0,
            verify: |b| {
                let (x, y) = (floats(&b[0]), floats(&b[1]));
                for r in (0..ROWS).step_by(97) {
                    let row = &x[r * COLS..(r + 1) * COLS];
                    let m = row.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(f64::from(v)));
                    let s: f64 = row.iter().map(|&v| (f64::from(v) - m).exp()).sum();
                    for (c, &v) in row.iter().enumerate() {
                        let want = (f64::from(v) - m).exp() / s;
                        if !close(f64::from(y[r * COLS + c]), want, 1e-5) {
                            return Err(format!(
                                "({r}, {c}): {}, expected {want}",
                                y[r * COLS + c]
                            ));
                        }
                    }
                }
                Ok(())
            },
            exact: false,
        },
        Bench {
            name: "nbody",
            kernel: "nbody",
            buffers: vec![(4 * BODIES, 4, Init::Floats), (4 * BODIES, 4, Init::Output)],
            args: vec![Arg::U64(BODIES as u64), Arg::Slice(0), Arg::Slice(1)],
            grid: [(BODIES / 256) as u32, 1, 1],
            block: [256, 1, 1],
            shared: 0,
            bytes: 0.0,
            flops: 20.0 * (BODIES as f64).powi(2),
            verify: |b| {
                let (p, a) = (floats(&b[0]), floats(&b[1]));
                for i in (0..BODIES).step_by(509) {
                    let mut want = [0.0f64; 3];
                    for j in 0..BODIES {
                        let d: Vec<f64> = (0..3)
                            .map(|k| f64::from(p[4 * j + k]) - f64::from(p[4 * i + k]))
                            .collect();
                        let d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + 0.01;
                        let s = f64::from(p[4 * j + 3]) / (d2 * d2.sqrt());
                        for k in 0..3 {
                            want[k] += d[k] * s;
                        }
                    }
                    for k in 0..3 {
                        let got = f64::from(a[4 * i + k]);
                        if (got - want[k]).abs() > 1e-3 * want[k].abs().max(10.0) {
                            return Err(format!("body {i}, axis {k}: {got}, expected {}", want[k]));
                        }
                    }
                }
                Ok(())
            },
            exact: false,
        },
    ]
}

/// Checks `c = a + b` (buffers 0, 1, 2, `N` floats each).
fn verify_add(b: &[Vec<u8>]) -> Result<(), String> {
    let (x, y) = (floats(&b[0]), floats(&b[1]));
    first_difference(&floats(&b[2]), (0..N).map(|i| x[i] + y[i]))
}

/// Checks `y = 2.5·x + y`: buffer 0 is `x`, 1 the result, 2 `y` before the launch.
fn verify_saxpy(b: &[Vec<u8>]) -> Result<(), String> {
    let (x, y0, y) = (floats(&b[0]), floats(&b[2]), floats(&b[1]));
    first_difference(&y, (0..N).map(|i| 2.5 * x[i] + y0[i]))
}

/// A `GEMM × GEMM` f16 matrix product `kernel(n, k, a, b, c)` accumulated in f32, each block of
/// `threads` threads computing a `tile[0] × tile[1]` tile of `c` with `shared` bytes of dynamic
/// shared memory.
fn hgemm(
    name: &'static str,
    kernel: &'static str,
    tile: [usize; 2],
    threads: usize,
    shared: usize,
) -> Bench {
    Bench {
        name,
        kernel,
        buffers: vec![
            (GEMM * GEMM, 2, Init::SmallHalves),
            (GEMM * GEMM, 2, Init::SmallHalves),
            (GEMM * GEMM, 4, Init::Output),
        ],
        args: vec![
            Arg::U64(GEMM as u64),
            Arg::U64(GEMM as u64),
            Arg::Slice(0),
            Arg::Slice(1),
            Arg::Slice(2),
        ],
        grid: [(GEMM / tile[1]) as u32, (GEMM / tile[0]) as u32, 1],
        block: [threads as u32, 1, 1],
        shared: shared as u32,
        bytes: 0.0,
        flops: 2.0 * (GEMM as f64).powi(3),
        verify: verify_hgemm,
        exact: true,
    }
}

/// A `GEMM × GEMM` matrix product `kernel(n, a, b, c)`, each block of `block` threads computing
/// a `tile × tile` tile of `c`, the matrices passed as `matrix(k)` (slices of `f32`, or of
/// `[f32; 4]`).
fn gemm(
    name: &'static str,
    kernel: &'static str,
    tile: usize,
    block: [u32; 3],
    matrix: fn(usize) -> Arg,
) -> Bench {
    Bench {
        name,
        kernel,
        buffers: vec![
            (GEMM * GEMM, 4, Init::Floats),
            (GEMM * GEMM, 4, Init::Floats),
            (GEMM * GEMM, 4, Init::Output),
        ],
        args: vec![Arg::U64(GEMM as u64), matrix(0), matrix(1), matrix(2)],
        grid: [(GEMM / tile) as u32, (GEMM / tile) as u32, 1],
        block,
        shared: 0,
        bytes: 0.0,
        flops: 2.0 * (GEMM as f64).powi(3),
        verify: verify_gemm,
        exact: true,
    }
}

/// Checks `c = a·b` (buffers 0, 1, 2, `GEMM × GEMM`): 512 entries spread over the matrix,
/// against an f64 dot product.
fn verify_gemm(b: &[Vec<u8>]) -> Result<(), String> {
    let (a, bm, c) = (floats(&b[0]), floats(&b[1]), floats(&b[2]));
    for s in 0..512usize {
        let (r, col) = ((s * 7919) % GEMM, (s * 104_729) % GEMM);
        let want: f64 =
            (0..GEMM).map(|k| f64::from(a[r * GEMM + k]) * f64::from(bm[k * GEMM + col])).sum();
        let got = f64::from(c[r * GEMM + col]);
        if (got - want).abs() > 1e-3 * (GEMM as f64).sqrt() {
            return Err(format!("c[{r}][{col}] = {got}, expected {want}"));
        }
    }
    Ok(())
}

/// Checks `c = a·b` for the f16 `a` and `b` (buffers 0, 1) of small integers: 512 entries
/// spread over the matrix, which must equal the exact sum.
fn verify_hgemm(b: &[Vec<u8>]) -> Result<(), String> {
    let halves = |bytes: &[u8]| -> Vec<f32> {
        bytes.chunks(2).map(|h| half::f16::from_le_bytes([h[0], h[1]]).to_f32()).collect()
    };
    let (a, bm, c) = (halves(&b[0]), halves(&b[1]), floats(&b[2]));
    for s in 0..512usize {
        let (r, col) = ((s * 7919) % GEMM, (s * 104_729) % GEMM);
        let want: f32 = (0..GEMM).map(|k| a[r * GEMM + k] * bm[k * GEMM + col]).sum();
        let got = c[r * GEMM + col];
        if got != want {
            return Err(format!("c[{r}][{col}] = {got}, expected {want}"));
        }
    }
    Ok(())
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn contents(elems: usize, size: usize, init: Init, rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::with_capacity(elems * size);
    for _ in 0..elems {
        match init {
            Init::Floats => {
                out.extend(((rng.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0).to_le_bytes())
            }
            Init::Words => out.extend((rng.next() as u32).to_le_bytes()),
            Init::SmallHalves => {
                let x = ((rng.next() >> 40) % 9) as f32 - 4.0;
                out.extend(half::f16::from_f32(x).to_bits().to_le_bytes())
            }
            Init::Output => out.extend(std::iter::repeat_n(0u8, size)),
        }
    }
    out
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// One compiled version of the suite: where its kernels come from.
struct Variant {
    label: &'static str,
    image: Vec<u8>,
    /// rkc kernels take the panic record as a hidden last parameter.
    panic_record: bool,
}

fn cubin_of(fatbin: &[u8]) -> Vec<u8> {
    let images = offload_binary::read(fatbin).expect("a fat binary rkc wrote");
    images
        .into_iter()
        .find(|i| {
            i.image_kind == offload_binary::ImageKind::Cubin && i.string("arch") == Some("sm_90")
        })
        .expect("an sm_90 cubin in the fat binary")
        .bytes
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = std::path::PathBuf::from(args.get(1).expect("usage: bench DIR [RUNS [KERNEL...]]"));
    let runs: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(25);
    let only: Vec<&str> = args.iter().skip(3).map(String::as_str).collect();
    let all = benches();
    if let Some(unknown) = only.iter().find(|k| !all.iter().any(|b| b.kernel == **k)) {
        let names: Vec<&str> = all.iter().map(|b| b.kernel).collect();
        eprintln!("bench: no kernel `{unknown}` (the kernels: {})", names.join(", "));
        std::process::exit(2);
    }
    let read = |f: &str| {
        std::fs::read(dir.join(f)).unwrap_or_else(|e| panic!("{}: {e}", dir.join(f).display()))
    };
    let variants = [
        Variant {
            label: "rkc, checks on",
            image: cubin_of(&read("rkc-checks.fatbin")),
            panic_record: true,
        },
        Variant {
            label: "rkc, checks off",
            image: cubin_of(&read("rkc-nochecks.fatbin")),
            panic_record: true,
        },
        Variant { label: "nvcc -O3", image: read("nvcc.cubin"), panic_record: false },
    ];
    let gpu = Gpu::new();
    println!(
        "device: {}, CUDA driver {}.{}; {runs} timed launches per kernel and version after 3 warm-up launches; medians\n",
        gpu.name,
        gpu.driver / 1000,
        gpu.driver % 1000 / 10
    );

    // The ceiling: device-to-device copy bandwidth (each byte read once and written once).
    let bytes = 1usize << 30;
    let (src, dst) = (gpu.alloc(bytes), gpu.alloc(bytes));
    gpu.fill(src, 1, bytes);
    let copies: Vec<f64> =
        (0..runs + 3).map(|_| gpu.timed(|| gpu.copy(dst, src, bytes))).skip(3).collect();
    let ceiling = 2.0 * bytes as f64 / (median(copies) * 1e-3) / 1e9;
    println!("copy bandwidth (cuMemcpyDtoD, 1 GiB): {ceiling:.0} GB/s\n");

    let record = gpu.alloc(64);
    gpu.fill(record, 0, 64);
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut rows = Vec::new();
    let mut failures = Vec::new();
    for b in all.into_iter().filter(|b| only.is_empty() || only.contains(&b.kernel)) {
        // Two sets of buffers, used in turn by the timed launches.
        let host: Vec<Vec<Vec<u8>>> = (0..2)
            .map(|_| b.buffers.iter().map(|&(n, s, init)| contents(n, s, init, &mut rng)).collect())
            .collect();
        let sets: Vec<Vec<Ptr>> = host
            .iter()
            .map(|set| {
                set.iter()
                    .map(|data| {
                        let p = gpu.alloc(data.len());
                        gpu.upload(p, data);
                        p
                    })
                    .collect()
            })
            .collect();
        let arg_bytes = |set: &[Ptr], v: &Variant| -> Vec<Vec<u8>> {
            let mut out = Vec::new();
            for a in &b.args {
                match *a {
                    Arg::U64(x) => out.push(x.to_le_bytes().to_vec()),
                    Arg::F32(x) => out.push(x.to_le_bytes().to_vec()),
                    Arg::Slice(k) => {
                        out.push(set[k].to_le_bytes().to_vec());
                        out.push((b.buffers[k].0 as u64).to_le_bytes().to_vec());
                    }
                    Arg::Quads(k) => {
                        out.push(set[k].to_le_bytes().to_vec());
                        out.push((b.buffers[k].0 as u64 / 4).to_le_bytes().to_vec());
                    }
                }
            }
            if v.panic_record {
                out.push(record.to_le_bytes().to_vec());
            }
            out
        };
        let mut times = Vec::new();
        let mut outputs: Vec<Vec<Vec<u8>>> = Vec::new();
        for v in &variants {
            let f = gpu.function(&v.image, b.kernel);
            gpu.allow_dynamic_shared(f, b.shared);
            // The checked run: inputs fresh, outputs poisoned (histogram bins zeroed: it adds).
            for (k, (data, &(n, s, init))) in host[0].iter().zip(&b.buffers).enumerate() {
                match init {
                    Init::Output if b.name == "histogram" => gpu.fill(sets[0][k], 0, n * s),
                    Init::Output => gpu.fill(sets[0][k], 0xFF, n * s),
                    _ => gpu.upload(sets[0][k], data),
                }
            }
            gpu.launch_shared(f, b.grid, b.block, b.shared, &arg_bytes(&sets[0], v));
            gpu.synchronize();
            let mut after: Vec<Vec<u8>> = b
                .buffers
                .iter()
                .enumerate()
                .map(|(k, &(n, s, _))| gpu.download(sets[0][k], n * s))
                .collect();
            if b.name.starts_with("saxpy") {
                after.push(host[0][1].clone());
            }
            if let Err(e) = (b.verify)(&after) {
                failures.push(format!("{} ({}): {e}", b.name, v.label));
            }
            outputs.push(after);
            let args: Vec<Vec<Vec<u8>>> = sets.iter().map(|s| arg_bytes(s, v)).collect();
            let ms: Vec<f64> = (0..runs + 3)
                .map(|r| {
                    gpu.timed(|| gpu.launch_shared(f, b.grid, b.block, b.shared, &args[r % 2]))
                })
                .skip(3)
                .collect();
            times.push(median(ms));
        }
        let same = outputs[0] == outputs[2] && outputs[1] == outputs[2];
        if b.exact && !same {
            failures.push(format!("{}: rkc's outputs differ from nvcc's", b.name));
        }
        rows.push((b.name, times, b.bytes, b.flops, same));
    }

    // cuBLAS on the GEMMs' size, checked the same way: the reference point for the GEMM rows.
    let blas_ms = {
        let elems = GEMM * GEMM;
        let inits = [Init::Floats, Init::Floats, Init::Output];
        let bufs: Vec<Ptr> = inits
            .iter()
            .map(|&init| {
                let p = gpu.alloc(4 * elems);
                gpu.upload(p, &contents(elems, 4, init, &mut rng));
                p
            })
            .collect();
        gpu.fill(bufs[2], 0xFF, 4 * elems);
        gpu.sgemm_cublas(GEMM, bufs[0], bufs[1], bufs[2]);
        gpu.synchronize();
        let after: Vec<Vec<u8>> = bufs.iter().map(|&p| gpu.download(p, 4 * elems)).collect();
        if let Err(e) = verify_gemm(&after) {
            failures.push(format!("cublasSgemm: {e}"));
        }
        let ms: Vec<f64> = (0..runs + 3)
            .map(|_| gpu.timed(|| gpu.sgemm_cublas(GEMM, bufs[0], bufs[1], bufs[2])))
            .skip(3)
            .collect();
        for p in bufs {
            gpu.free(p);
        }
        median(ms)
    };

    // cublasGemmEx with f16 inputs and f32 accumulation and output, the HGEMM row's reference.
    let hgemm_blas_ms = {
        let elems = GEMM * GEMM;
        let bufs: Vec<Ptr> = [(2, Init::SmallHalves), (2, Init::SmallHalves), (4, Init::Output)]
            .iter()
            .map(|&(size, init)| {
                let p = gpu.alloc(size * elems);
                gpu.upload(p, &contents(elems, size, init, &mut rng));
                p
            })
            .collect();
        gpu.fill(bufs[2], 0xFF, 4 * elems);
        gpu.hgemm_cublas(GEMM, bufs[0], bufs[1], bufs[2]);
        gpu.synchronize();
        let after = [
            gpu.download(bufs[0], 2 * elems),
            gpu.download(bufs[1], 2 * elems),
            gpu.download(bufs[2], 4 * elems),
        ];
        if let Err(e) = verify_hgemm(&after) {
            failures.push(format!("cublasGemmEx: {e}"));
        }
        let ms: Vec<f64> = (0..runs + 3)
            .map(|_| gpu.timed(|| gpu.hgemm_cublas(GEMM, bufs[0], bufs[1], bufs[2])))
            .skip(3)
            .collect();
        for p in bufs {
            gpu.free(p);
        }
        median(ms)
    };

    println!(
        "| kernel | rkc checks on (ms) | rkc checks off (ms) | nvcc (ms) | on / nvcc | off / nvcc | throughput (off) | % of copy bandwidth (off) | outputs equal nvcc's |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let (mut log_on, mut log_off, mut worst_off) = (0.0, 0.0, 0.0f64);
    for (name, t, bytes, flops, same) in &rows {
        let (on, off) = (t[0] / t[2], t[1] / t[2]);
        log_on += on.ln();
        log_off += off.ln();
        worst_off = worst_off.max(off);
        let (throughput, share) = if *bytes > 0.0 {
            let gbs = bytes / (t[1] * 1e-3) / 1e9;
            (format!("{gbs:.0} GB/s"), format!("{:.0} %", 100.0 * gbs / ceiling))
        } else {
            (format!("{:.0} GFLOP/s", flops / (t[1] * 1e-3) / 1e9), "compute-bound".into())
        };
        println!(
            "| {name} | {:.3} | {:.3} | {:.3} | {on:.2} | {off:.2} | {throughput} | {share} | {} |",
            t[0],
            t[1],
            t[2],
            if *same { "yes" } else { "no (float library rounding)" }
        );
    }
    let n = rows.len() as f64;
    println!(
        "\ngeometric mean rkc / nvcc: {:.3} with bounds checks on, {:.3} with them off; worst (off): {worst_off:.3}",
        (log_on / n).exp(),
        (log_off / n).exp()
    );
    let gflops = |ms: f64| 2.0 * (GEMM as f64).powi(3) / (ms * 1e-3) / 1e9;
    println!(
        "\ncublasSgemm {GEMM}³ (FP32, cuBLAS's default math mode, no tensor cores): {blas_ms:.3} ms, {:.0} GFLOP/s\n",
        gflops(blas_ms)
    );
    println!(
        "| GEMM | rkc checks on: GFLOP/s | rkc checks off | nvcc | rkc on / cuBLAS | nvcc / cuBLAS |"
    );
    println!("|---|---|---|---|---|---|");
    for (name, t, ..) in rows.iter().filter(|r| r.0.starts_with("sgemm")) {
        println!(
            "| {name} | {:.0} | {:.0} | {:.0} | {:.2} | {:.2} |",
            gflops(t[0]),
            gflops(t[1]),
            gflops(t[2]),
            blas_ms / t[0],
            blas_ms / t[2]
        );
    }
    println!(
        "\ncublasGemmEx {GEMM}³ (f16 in, f32 accumulate and out, tensor cores): {hgemm_blas_ms:.3} ms, {:.0} GFLOP/s\n",
        gflops(hgemm_blas_ms)
    );
    println!(
        "| HGEMM | rkc checks on: GFLOP/s | rkc checks off | nvcc | rkc on / cuBLAS | nvcc / cuBLAS |"
    );
    println!("|---|---|---|---|---|---|");
    for (name, t, ..) in rows.iter().filter(|r| r.0.starts_with("hgemm")) {
        println!(
            "| {name} | {:.0} | {:.0} | {:.0} | {:.2} | {:.2} |",
            gflops(t[0]),
            gflops(t[1]),
            gflops(t[2]),
            hgemm_blas_ms / t[0],
            hgemm_blas_ms / t[2]
        );
    }
    if failures.is_empty() {
        println!("\nevery output checked against its CPU reference: all correct");
    } else {
        println!("\nFAILURES:\n{}", failures.join("\n"));
        std::process::exit(1);
    }
}
