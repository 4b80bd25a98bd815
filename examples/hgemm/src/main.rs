//! Half-precision matrix multiply on tensor cores, its tiles staged by asynchronous copies:
//! C = A·B with f16 inputs and f32 accumulation, on the first GPU (tensor cores and `cp.async`
//! from sm_80), the host image or the CPU simulator, checked element by element against a CPU
//! reference. The inputs are small integers, so every partial sum is exact in f32 and the
//! result is the same whatever order the hardware adds in: every executor must match the
//! reference exactly.

mod kernels;

use half::f16;
use kernels::{BLOCK, THREADS, hgemm};
use rkc_offload::{Backend, offload, preload, preload_mut};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    rkc_offload::include_fatbin!("kernels").expect("the fat binary build.rs made");
    let device = rkc_offload::executor::<hgemm>().expect("a device");
    // Square sizes that suit each executor; multiples of the block's 64.
    let n: usize = match device.backend {
        Backend::CpuSimulator => 64,
        Backend::CpuHost => 256,
        _ => 4096,
    };
    println!(
        "hgemm {n}×{n}×{n} (f16 in, f32 accumulate) on {} ({}, {})",
        device.name, device.arch, device.driver
    );

    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut random = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        // An integer in -4..=4: products up to 16, and sums of up to 4096 of them stay exact.
        f16::from_f32(((seed >> 40) % 9) as f32 - 4.0)
    };
    let a: Vec<f16> = (0..n * n).map(|_| random()).collect();
    let b: Vec<f16> = (0..n * n).map(|_| random()).collect();
    let mut c = vec![f32::NAN; n * n];

    let start = Instant::now();
    let (da, db) = (preload(&a[..]), preload(&b[..]));
    let dc = preload_mut(&mut c[..]);
    let copied_in = start.elapsed();
    let grid = [(n / BLOCK) as u32, (n / BLOCK) as u32, 1];
    let t = Instant::now();
    offload! { kernel = hgemm, workgroup_dim = grid, thread_dim = [THREADS as u32, 1, 1], args = (n, n, &da, &db, &dc) }
    let kernel = t.elapsed();
    let t = Instant::now();
    if let Err(e) = dc.finish() {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    drop((da, db));
    let copied_out = t.elapsed();
    let total = start.elapsed();

    // The CPU reference: exact integer arithmetic, in the order of the rows.
    let reference = Instant::now();
    let (af, bf): (Vec<f32>, Vec<f32>) =
        (a.iter().map(|x| x.to_f32()).collect(), b.iter().map(|x| x.to_f32()).collect());
    let mut wrong = 0;
    let mut want = vec![0.0f32; n];
    for row in 0..n {
        want.fill(0.0);
        for k in 0..n {
            let x = af[row * n + k];
            for (w, y) in want.iter_mut().zip(&bf[k * n..(k + 1) * n]) {
                *w += x * y;
            }
        }
        wrong += c[row * n..(row + 1) * n].iter().zip(&want).filter(|(g, w)| g != w).count();
    }
    let reference = reference.elapsed();
    let gflops = 2.0 * (n as f64).powi(3) / kernel.as_secs_f64() / 1e9;
    println!(
        "{} of {} elements equal the CPU reference (plain Rust on one host thread, comparisons included: {:.3} ms)",
        n * n - wrong,
        n * n,
        reference.as_secs_f64() * 1e3
    );
    println!(
        "times: copy in {:.3} ms, kernel {:.3} ms ({gflops:.1} GFLOP/s), copy out {:.3} ms, end to end {:.3} ms",
        copied_in.as_secs_f64() * 1e3,
        kernel.as_secs_f64() * 1e3,
        copied_out.as_secs_f64() * 1e3,
        total.as_secs_f64() * 1e3
    );
    if wrong == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
