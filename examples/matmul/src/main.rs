//! Tiled matrix multiply: C = A·B with 16×16 tiles in shared memory, on the first GPU or on
//! the CPU simulator, checked element by element against a CPU reference that adds in the
//! same order (so the results are bit-identical), with transfer, kernel and end-to-end times.

mod kernels;

use kernels::{TILE, matmul};
use rkc_offload::{Backend, offload, preload, preload_mut};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    rkc_offload::include_fatbin!("kernels").expect("the fat binary build.rs made");
    // Where the kernel runs: the GPU, the host image, or the simulator (which runs each thread
    // as a coroutine): the size suits each.
    let device = rkc_offload::executor::<matmul>().expect("a device");
    let n: usize = match device.backend {
        Backend::CpuSimulator => 64,
        Backend::CpuHost => 512,
        _ => 2048,
    };
    println!("matmul {n}×{n} on {} ({}, {})", device.name, device.arch, device.driver);

    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut random = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 40) as f32 / (1u64 << 24) as f32 - 0.5
    };
    let a: Vec<f32> = (0..n * n).map(|_| random()).collect();
    let b: Vec<f32> = (0..n * n).map(|_| random()).collect();
    let mut c = vec![f32::NAN; n * n];

    let start = Instant::now();
    let (da, db) = (preload(&a[..]), preload(&b[..]));
    let dc = preload_mut(&mut c[..]);
    let copied_in = start.elapsed();
    let grid = [(n / TILE) as u32, (n / TILE) as u32, 1];
    let t = Instant::now();
    offload! { kernel = matmul, workgroup_dim = grid, thread_dim = [TILE as u32, TILE as u32, 1], args = (n, &da, &db, &dc) }
    let kernel = t.elapsed();
    let t = Instant::now();
    if let Err(e) = dc.finish() {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    drop((da, db));
    let copied_out = t.elapsed();
    let total = start.elapsed();

    // The CPU reference: the same fused multiply-adds in the same order as each thread.
    let reference = Instant::now();
    let mut wrong = 0;
    for row in 0..n {
        for col in 0..n {
            let want = (0..n).fold(0.0f32, |acc, k| a[row * n + k].mul_add(b[k * n + col], acc));
            if c[row * n + col].to_bits() != want.to_bits() {
                wrong += 1;
            }
        }
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
