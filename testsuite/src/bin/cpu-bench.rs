//! The host image against the code a user would write for the CPU by hand: each kernel of
//! testsuite/bench/kernels.rs and of the five examples, launched with `offload!` where there is
//! no GPU (the fat binary's host image, on host memory in place), side by side with an
//! idiomatic `rayon` version of the same computation (parallel iterators over the data, the
//! inner loops written as plain Rust that LLVM may vectorise), at sizes a user would run on a
//! CPU. Each side runs once to warm up (the host image is loaded then) and is checked against
//! the other, then RUNS times (default 7) in turn; the report gives the medians, their ratio,
//! and the geometric mean and worst ratio over all rows.
//!
//! Usage: OFFLOAD_TARGET=cpu [CPU_BENCH_ONLY=row,...] cpu-bench DIR [RUNS], where DIR holds the fat binaries with a
//! host image (`rkc FILE --offload-arch=host`): bench.fatbin (testsuite/bench/kernels.rs) and
//! matmul, reduction, blur, histogram and slice.fatbin (each example's src/kernels.rs). Prints
//! a Markdown report. A kernel the host image leaves out would run on the simulator: the
//! report says so in its row rather than time it there.
//!
//! Kernels are found by name, the latest registered fat binary first; the examples'
//! `histogram` and `saxpy` share their names with the benchmark's, so the benchmark's rows run
//! first and each example's fat binary is registered just before its row.

#[path = "../../../examples/blur/src/kernels.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
mod blur_kernels;
#[path = "../../../examples/histogram/src/kernels.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
mod histogram_kernels;
#[path = "../../../examples/matmul/src/kernels.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
mod matmul_kernels;
#[path = "../../../examples/reduction/src/kernels.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
mod reduction_kernels;
#[path = "../../../examples/slice/src/kernels.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
#[allow(dead_code, reason = "the benchmark runs the example's saxpy, not its canonical kernel")]
mod slice_kernels;

use rayon::prelude::*;
use rkc_offload::{Backend, Kernel, offload};
use rkc_testsuite::bench_kernels as bk;
use std::time::Instant;

/// One row of the report.
struct Row {
    name: &'static str,
    size: &'static str,
    /// Medians in milliseconds; `None` where the kernel did not run in the host image.
    host_ms: Option<f64>,
    rayon_ms: f64,
    /// The check of the host image's outputs against the rayon version's.
    check: Result<(), String>,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Runs `host` (one launch) and `rayon` (the same work by hand) on `state` once each, checks
/// the outputs with `check`, then times each `runs` times in turn; `reset` runs before every
/// run (outside the timing) and restores what a run updates in place. Gives the row for
/// kernel `K`, or nothing where `CPU_BENCH_ONLY` (comma-separated row names, for a profiler)
/// leaves the row out.
fn measure<K: Kernel, S>(
    name: &'static str,
    size: &'static str,
    runs: usize,
    state: &mut S,
    reset: impl Fn(&mut S),
    host: impl Fn(&mut S),
    rayon: impl Fn(&mut S),
    check: impl Fn(&S) -> Result<(), String>,
) -> Option<Row> {
    if std::env::var("CPU_BENCH_ONLY").is_ok_and(|only| !only.split(',').any(|n| n == name)) {
        return None;
    }
    reset(state);
    host(state);
    rayon(state);
    let check = check(state);
    let (mut h, mut r) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
    for _ in 0..runs {
        for (f, times) in [(&host as &dyn Fn(&mut S), &mut h), (&rayon, &mut r)] {
            reset(state);
            let t = Instant::now();
            f(state);
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
    }
    let in_host_image = rkc_offload::executor::<K>().is_ok_and(|d| d.backend == Backend::CpuHost);
    Some(Row { name, size, host_ms: in_host_image.then(|| median(h)), rayon_ms: median(r), check })
}

/// Random `f32` in [-1, 1) from a xorshift generator.
fn floats(n: usize, mut seed: u64) -> Vec<f32> {
    (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        })
        .collect()
}

fn words(n: usize, mut seed: u64) -> Vec<u32> {
    (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 32) as u32
        })
        .collect()
}

/// The first element where `got` and `want` differ by more than `rel` relative to the larger
/// of 1 and `want` (0: bit for bit).
fn compare(got: &[f32], want: &[f32], rel: f32) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{} elements, expected {}", got.len(), want.len()));
    }
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let ok = if rel == 0.0 {
            g.to_bits() == w.to_bits()
        } else {
            (g - w).abs() <= rel * w.abs().max(1.0)
        };
        if !ok {
            return Err(format!("element {i}: {g}, the rayon version {w}"));
        }
    }
    Ok(())
}

fn equal<T: PartialEq + std::fmt::Debug>(got: &[T], want: &[T]) -> Result<(), String> {
    match got.iter().zip(want).position(|(g, w)| g != w) {
        Some(i) => Err(format!("element {i}: {:?}, the rayon version {:?}", got[i], want[i])),
        None if got.len() == want.len() => Ok(()),
        None => Err(format!("{} elements, expected {}", got.len(), want.len())),
    }
}

fn blocks(n: usize) -> [u32; 3] {
    [n.div_ceil(256) as u32, 1, 1]
}

/// The rayon version of `c = a·b` for `n × n` row-major matrices: rows in parallel, each row
/// the i-k-j loop (a row of `b` scaled into the row of `c`, which LLVM vectorises).
fn rayon_gemm(n: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    c.par_chunks_mut(n).enumerate().for_each(|(i, row)| {
        row.fill(0.0);
        for k in 0..n {
            let aik = a[i * n + k];
            for (cj, bj) in row.iter_mut().zip(&b[k * n..(k + 1) * n]) {
                *cj += aik * bj;
            }
        }
    });
}

/// The rayon version of a histogram of `key`s: per-task bins folded over chunks, then added.
fn rayon_histogram<T: Sync>(data: &[T], key: impl Fn(&T) -> usize + Sync) -> Vec<u32> {
    data.par_chunks(1 << 16)
        .fold(
            || vec![0u32; 256],
            |mut h, chunk| {
                for v in chunk {
                    h[key(v)] += 1;
                }
                h
            },
        )
        .reduce(
            || vec![0u32; 256],
            |mut a, b| {
                a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                a
            },
        )
}

const N: usize = 1 << 24;
const MAT: usize = 4096;
const GEMM: usize = 1024;
const ROWS: usize = 4096;
const COLS: usize = 1024;
const BODIES: usize = 8192;

/// The rows of testsuite/bench/kernels.rs, with the GPU benchmark's launch shapes.
fn bench_rows(runs: usize) -> Vec<Row> {
    let mut rows = Vec::new();
    let (x, x2) = (floats(N, 1), floats(N, 2));
    let out = || (vec![0.0f32; N], vec![0.0f32; N]);
    let same = |s: &(Vec<f32>, Vec<f32>)| compare(&s.0, &s.1, 0.0);

    rows.extend(measure::<bk::vec_add, _>(
        "vec_add",
        "2^24 f32",
        runs,
        &mut out(),
        |_| {},
        |s| offload! { kernel = bk::vec_add, workgroup_dim = blocks(N), thread_dim = [256, 1, 1], args = (&x[..], &x2[..], &mut s.0[..]) },
        |s| s.1.par_iter_mut().zip(x.par_iter().zip(&x2)).for_each(|(c, (a, b))| *c = a + b),
        same,
    ));
    rows.extend(measure::<bk::saxpy, _>(
        "saxpy",
        "2^24 f32",
        runs,
        &mut out(),
        |s| {
            s.0.copy_from_slice(&x2);
            s.1.copy_from_slice(&x2);
        },
        |s| offload! { kernel = bk::saxpy, workgroup_dim = blocks(N), thread_dim = [256, 1, 1], args = (2.5f32, &x[..], &mut s.0[..]) },
        |s| s.1.par_iter_mut().zip(&x).for_each(|(y, x)| *y += 2.5 * x),
        same,
    ));
    rows.extend(measure::<bk::canonical, _>(
        "canonical",
        "2^24 f64",
        runs,
        &mut (vec![0.0f64; N], vec![0.0f64; N]),
        |_| {},
        |s| offload! { kernel = bk::canonical, workgroup_dim = blocks(N), thread_dim = [256, 1, 1], args = (&mut s.0[..],) },
        |s| s.1.par_iter_mut().enumerate().for_each(|(i, v)| *v = i as f64),
        |s| equal(&s.0, &s.1),
    ));
    const REDUCE_BLOCKS: usize = 1024;
    rows.extend(measure::<bk::reduce, _>(
        "reduce",
        "2^24 f32",
        runs,
        &mut (vec![0.0f32; REDUCE_BLOCKS], 0.0f32),
        |_| {},
        |s| offload! { kernel = bk::reduce, workgroup_dim = [REDUCE_BLOCKS as u32, 1, 1], thread_dim = [256, 1, 1], args = (&x[..], &mut s.0[..]) },
        |s| s.1 = x.par_iter().sum::<f32>(),
        |s| compare(&[s.0.iter().sum::<f32>()], &[s.1], 1e-3),
    ));
    let m = floats(MAT * MAT, 3);
    let mat_out = || (vec![0.0f32; MAT * MAT], vec![0.0f32; MAT * MAT]);
    rows.extend(measure::<bk::transpose, _>(
        "transpose",
        "4096² f32",
        runs,
        &mut mat_out(),
        |_| {},
        |s| offload! { kernel = bk::transpose, workgroup_dim = [(MAT / 32) as u32, (MAT / 32) as u32, 1], thread_dim = [32, 8, 1], args = (MAT, MAT, &m[..], &mut s.0[..]) },
        |s| {
            s.1.par_chunks_mut(MAT).enumerate().for_each(|(r, row)| {
                for (c, o) in row.iter_mut().enumerate() {
                    *o = m[c * MAT + r];
                }
            })
        },
        same,
    ));
    let (a, b) = (floats(GEMM * GEMM, 4), floats(GEMM * GEMM, 5));
    rows.extend(measure::<bk::sgemm, _>(
        "sgemm",
        "1024³",
        runs,
        &mut (vec![0.0f32; GEMM * GEMM], vec![0.0f32; GEMM * GEMM]),
        |_| {},
        |s| offload! { kernel = bk::sgemm, workgroup_dim = [(GEMM / 16) as u32, (GEMM / 16) as u32, 1], thread_dim = [16, 16, 1], args = (GEMM, &a[..], &b[..], &mut s.0[..]) },
        |s| rayon_gemm(GEMM, &a, &b, &mut s.1),
        // The kernel fuses each multiply-add, the rayon version rounds twice.
        |s| compare(&s.0, &s.1, 1e-4),
    ));
    rows.extend(measure::<bk::stencil, _>(
        "stencil",
        "4096² f32",
        runs,
        &mut mat_out(),
        |_| {},
        |s| offload! { kernel = bk::stencil, workgroup_dim = [(MAT / 32) as u32, (MAT / 8) as u32, 1], thread_dim = [32, 8, 1], args = (MAT, MAT, &m[..], &mut s.0[..]) },
        |s| {
            s.1.par_chunks_mut(MAT).enumerate().skip(1).take(MAT - 2).for_each(|(r, row)| {
                for (c, o) in row.iter_mut().enumerate().take(MAT - 1).skip(1) {
                    let i = r * MAT + c;
                    *o = 0.2 * (m[i] + m[i - 1] + m[i + 1] + m[i - MAT] + m[i + MAT]);
                }
            })
        },
        same,
    ));
    let w = words(N, 6);
    rows.extend(measure::<bk::histogram, _>(
        "histogram",
        "2^24 u32",
        runs,
        &mut (vec![0u32; 256], Vec::new()),
        |s| s.0.fill(0),
        |s| offload! { kernel = bk::histogram, workgroup_dim = [1024, 1, 1], thread_dim = [256, 1, 1], args = (&w[..], &mut s.0[..]) },
        |s| s.1 = rayon_histogram(&w, |v| (v & 255) as usize),
        |s| equal(&s.0, &s.1),
    ));
    let sx = floats(ROWS * COLS, 7);
    rows.extend(measure::<bk::softmax, _>(
        "softmax",
        "4096 rows of 1024",
        runs,
        &mut (vec![0.0f32; ROWS * COLS], vec![0.0f32; ROWS * COLS]),
        |_| {},
        |s| offload! { kernel = bk::softmax, workgroup_dim = [ROWS as u32, 1, 1], thread_dim = [256, 1, 1], args = (COLS, &sx[..], &mut s.0[..]) },
        |s| {
            s.1.par_chunks_mut(COLS).zip(sx.par_chunks(COLS)).for_each(|(y, x)| {
                let m = x.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
                let sum: f32 = x.iter().map(|&v| (v - m).exp()).sum();
                for (o, &v) in y.iter_mut().zip(x) {
                    *o = (v - m).exp() / sum;
                }
            })
        },
        |s| compare(&s.0, &s.1, 1e-5),
    ));
    let pos = floats(4 * BODIES, 8);
    rows.extend(measure::<bk::nbody, _>(
        "nbody",
        "8192 bodies",
        runs,
        &mut (vec![0.0f32; 4 * BODIES], vec![0.0f32; 4 * BODIES]),
        |_| {},
        |s| offload! { kernel = bk::nbody, workgroup_dim = [(BODIES / 256) as u32, 1, 1], thread_dim = [256, 1, 1], args = (BODIES, &pos[..], &mut s.0[..]) },
        |s| {
            s.1.par_chunks_mut(4).enumerate().for_each(|(i, acc)| {
                let p = &pos[4 * i..4 * i + 3];
                let (mut ax, mut ay, mut az) = (0.0f32, 0.0f32, 0.0f32);
                for q in pos.chunks_exact(4) {
                    let (dx, dy, dz) = (q[0] - p[0], q[1] - p[1], q[2] - p[2]);
                    let d2 = dx * dx + dy * dy + dz * dz + 0.01;
                    let inv = 1.0 / d2.sqrt();
                    let s = q[3] * inv * inv * inv;
                    ax += dx * s;
                    ay += dy * s;
                    az += dz * s;
                }
                acc.copy_from_slice(&[ax, ay, az, 0.0]);
            })
        },
        |s| compare(&s.0, &s.1, 1e-3),
    ));
    rows
}

/// The rows of the five examples, with the launch shapes each chooses for the host image.
fn example_rows(runs: usize, register: impl Fn(&str)) -> Vec<Row> {
    let mut rows = Vec::new();

    register("matmul.fatbin");
    let (a, b) = (floats(GEMM * GEMM, 9), floats(GEMM * GEMM, 10));
    let tile = matmul_kernels::TILE;
    rows.extend(measure::<matmul_kernels::matmul, _>(
        "example matmul",
        "1024³",
        runs,
        &mut (vec![0.0f32; GEMM * GEMM], vec![0.0f32; GEMM * GEMM]),
        |_| {},
        |s| offload! { kernel = matmul_kernels::matmul, workgroup_dim = [(GEMM / tile) as u32, (GEMM / tile) as u32, 1], thread_dim = [tile as u32, tile as u32, 1], args = (GEMM, &a[..], &b[..], &mut s.0[..]) },
        |s| rayon_gemm(GEMM, &a, &b, &mut s.1),
        |s| compare(&s.0, &s.1, 1e-4),
    ));

    register("reduction.fatbin");
    let x = floats(N, 11);
    rows.extend(measure::<reduction_kernels::block_sums, _>(
        "example reduction",
        "2^24 f32",
        runs,
        &mut (vec![0.0f32; 64], 0.0f32),
        |_| {},
        |s| offload! { kernel = reduction_kernels::block_sums, workgroup_dim = [64, 1, 1], thread_dim = [256, 1, 1], args = (&x[..], &mut s.0[..]) },
        |s| s.1 = x.par_iter().sum::<f32>(),
        |s| compare(&[s.0.iter().sum::<f32>()], &[s.1], 1e-3),
    ));

    register("blur.fatbin");
    let (width, height) = (2048usize, 1536usize);
    let image = floats(width * height, 12);
    let radius = blur_kernels::RADIUS;
    rows.extend(measure::<blur_kernels::blur, _>(
        "example blur",
        "2048×1536",
        runs,
        &mut (vec![0.0f32; width * height], vec![0.0f32; width * height]),
        |_| {},
        |s| offload! { kernel = blur_kernels::blur, workgroup_dim = [width.div_ceil(32) as u32, height.div_ceil(8) as u32, 1], thread_dim = [32, 8, 1], args = (width, height, &image[..], &mut s.0[..]) },
        |s| {
            s.1.par_chunks_mut(width).enumerate().for_each(|(y, row)| {
                for (x, o) in row.iter_mut().enumerate() {
                    let mut sum = 0.0f32;
                    for dy in 0..2 * radius + 1 {
                        let yy = (y + dy).saturating_sub(radius).min(height - 1);
                        for dx in 0..2 * radius + 1 {
                            sum += image[yy * width + (x + dx).saturating_sub(radius).min(width - 1)];
                        }
                    }
                    *o = sum / 25.0;
                }
            })
        },
        |s| compare(&s.0, &s.1, 0.0),
    ));

    register("histogram.fatbin");
    let bytes: Vec<u8> = words(1 << 24, 13).iter().flat_map(|w| w.to_le_bytes()).collect();
    rows.extend(measure::<histogram_kernels::histogram, _>(
        "example histogram",
        "64 MiB",
        runs,
        &mut (vec![0u32; 256], Vec::new()),
        |s| s.0.fill(0),
        |s| offload! { kernel = histogram_kernels::histogram, workgroup_dim = [64, 1, 1], thread_dim = [256, 1, 1], args = (&bytes[..], &mut s.0[..]) },
        |s| s.1 = rayon_histogram(&bytes, |&v| usize::from(v)),
        |s| equal(&s.0, &s.1),
    ));

    register("slice.fatbin");
    let (x, y0) = (floats(N, 14), floats(N, 15));
    rows.extend(measure::<slice_kernels::saxpy, _>(
        "example slice (saxpy)",
        "2^24 f32",
        runs,
        &mut (vec![0.0f32; N], vec![0.0f32; N]),
        |s| {
            s.0.copy_from_slice(&y0);
            s.1.copy_from_slice(&y0);
        },
        |s| offload! { kernel = slice_kernels::saxpy, workgroup_dim = blocks(N), thread_dim = [256, 1, 1], args = (N, 2.5f32, &x[..], &mut s.0[..]) },
        |s| s.1.par_iter_mut().zip(&x).for_each(|(y, x)| *y += 2.5 * x),
        |s| compare(&s.0, &s.1, 0.0),
    ));
    rows
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = std::path::PathBuf::from(args.next().expect("usage: cpu-bench DIR [RUNS]"));
    let runs: usize = args.next().map_or(7, |r| r.parse().expect("RUNS: a number"));
    let register = |name: &str| {
        let path = dir.join(name);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        rkc_offload::register_fatbin(&bytes).expect("register the fat binary");
    };
    register("bench.fatbin");
    let device = rkc_offload::default_device().expect("a device");
    assert_eq!(device.backend, Backend::CpuHost, "run with OFFLOAD_TARGET=cpu");
    println!("Executor: {} ({}, {}).", device.name, device.arch, device.driver);
    println!();
    let mut rows = bench_rows(runs);
    rows.extend(example_rows(runs, register));
    if rows.is_empty() {
        eprintln!(
            "cpu-bench: no row to measure: CPU_BENCH_ONLY names none of the rows (its names are the table's first column)"
        );
        std::process::exit(2);
    }
    print(&rows, runs);
}

fn print(rows: &[Row], runs: usize) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("| kernel | size | host image (ms) | rayon (ms) | host image ÷ rayon | outputs |");
    println!("|---|---|---|---|---|---|");
    let mut ratios = Vec::new();
    for r in rows {
        let (host, ratio) = match r.host_ms {
            Some(h) => {
                ratios.push(h / r.rayon_ms);
                (format!("{h:.3}"), format!("{:.2}", h / r.rayon_ms))
            }
            None => ("not in the host image".into(), "—".into()),
        };
        let check = match &r.check {
            Ok(()) => "agree".to_string(),
            Err(e) => format!("DIFFER: {e}"),
        };
        println!("| {} | {} | {host} | {:.3} | {ratio} | {check} |", r.name, r.size, r.rayon_ms);
    }
    let geomean = (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp();
    let worst = ratios.iter().copied().fold(0.0, f64::max);
    println!();
    println!(
        "Geometric mean of host image ÷ rayon over {} kernels: {geomean:.2}; worst {worst:.2} ({threads} host threads, medians of {runs} runs).",
        ratios.len()
    );
}
