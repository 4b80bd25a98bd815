//! A sum with warp shuffles: each block reduces its share with `warp_reduce_add` and shared
//! memory, and the host adds the blocks' sums. The CPU reference repeats the GPU's order of
//! additions (per thread, then the butterfly of each warp, then the warps), so the sum must
//! be bit-identical; transfer, kernel and end-to-end times are printed.

mod kernels;

use kernels::block_sums;
use rkc_offload::{Backend, offload, preload, preload_mut};
use std::process::ExitCode;
use std::time::Instant;

const THREADS: usize = 256;

/// The warp reduction in the GPU's order: five butterfly steps over 32 lanes.
fn butterfly(mut v: [f32; 32]) -> f32 {
    let mut k = 16;
    while k > 0 {
        v = std::array::from_fn(|l| v[l] + v[l ^ k]);
        k /= 2;
    }
    v[0]
}

fn main() -> ExitCode {
    rkc_offload::include_fatbin!("kernels").expect("the fat binary build.rs made");
    let device = rkc_offload::executor::<block_sums>().expect("a device");
    let (n, blocks) = match device.backend {
        Backend::CpuSimulator => (1 << 16, 8),
        Backend::CpuHost => (1 << 24, 64),
        _ => (1usize << 26, 1024usize),
    };
    println!(
        "sum of {n} floats in {blocks} blocks of {THREADS} threads on {} ({}, {})",
        device.name, device.arch, device.driver
    );

    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let x: Vec<f32> = (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        })
        .collect();
    let mut partial = vec![f32::NAN; blocks];

    let start = Instant::now();
    let dx = preload(&x[..]);
    let dp = preload_mut(&mut partial[..]);
    let copied_in = start.elapsed();
    let t = Instant::now();
    offload! { kernel = block_sums, workgroup_dim = [blocks as u32, 1, 1], thread_dim = [THREADS as u32, 1, 1], args = (&dx, &dp) }
    let kernel = t.elapsed();
    let t = Instant::now();
    if let Err(e) = dp.finish() {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    drop(dx);
    let copied_out = t.elapsed();
    let sum: f32 = partial.iter().sum();
    let total = start.elapsed();

    // The reference, in the kernel's order.
    let stride = blocks * THREADS;
    let expected: Vec<f32> = (0..blocks)
        .map(|b| {
            let thread_sum =
                |t: usize| (b * THREADS + t..n).step_by(stride).fold(0.0f32, |s, i| s + x[i]);
            let warps: Vec<f32> = (0..THREADS / 32)
                .map(|w| butterfly(std::array::from_fn(|l| thread_sum(w * 32 + l))))
                .collect();
            butterfly(std::array::from_fn(|l| warps.get(l).copied().unwrap_or(0.0)))
        })
        .collect();
    let exact = expected.iter().zip(&partial).all(|(e, p)| e.to_bits() == p.to_bits());
    let f64_sum: f64 = x.iter().map(|&v| f64::from(v)).sum();
    println!(
        "sum {sum} (f64 sum of the inputs: {f64_sum:.3}); every block's sum equals the CPU reference bit for bit: {exact}"
    );
    println!(
        "times: copy in {:.3} ms, kernel {:.3} ms ({:.0} GB/s), copy out {:.3} ms, end to end {:.3} ms",
        copied_in.as_secs_f64() * 1e3,
        kernel.as_secs_f64() * 1e3,
        4.0 * n as f64 / kernel.as_secs_f64() / 1e9,
        copied_out.as_secs_f64() * 1e3,
        total.as_secs_f64() * 1e3
    );
    if exact { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
