//! A 256-bin histogram of random bytes with atomics in shared and global memory, checked
//! bin by bin against a CPU count, with transfer, kernel and end-to-end times.

mod kernels;

use kernels::histogram;
use rkc_offload::{Backend, offload, preload, preload_mut};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    rkc_offload::include_fatbin!("kernels").expect("the fat binary build.rs made");
    let device = rkc_offload::executor::<histogram>().expect("a device");
    let (n, blocks) = match device.backend {
        Backend::CpuSimulator => (1 << 20, 8),
        Backend::CpuHost => (1 << 26, 64),
        _ => (1usize << 28, 2048u32),
    };
    println!(
        "histogram of {n} bytes in {blocks} blocks on {} ({}, {})",
        device.name, device.arch, device.driver
    );

    // Bytes with a skewed distribution (the sum of two random bytes, halved), so that some
    // bins are hot: atomics under contention.
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let data: Vec<u8> = (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (((seed & 255) + ((seed >> 8) & 255)) / 2) as u8
        })
        .collect();
    let mut bins = vec![0u32; 256];

    let start = Instant::now();
    let dd = preload(&data[..]);
    let db = preload_mut(&mut bins[..]);
    let copied_in = start.elapsed();
    let t = Instant::now();
    offload! { kernel = histogram, workgroup_dim = [blocks, 1, 1], thread_dim = [256, 1, 1], args = (&dd, &db) }
    let kernel = t.elapsed();
    let t = Instant::now();
    if let Err(e) = db.finish() {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    drop(dd);
    let copied_out = t.elapsed();
    let total = start.elapsed();

    let reference = Instant::now();
    let mut expected = [0u32; 256];
    for &b in &data {
        expected[b as usize] += 1;
    }
    let reference = reference.elapsed();
    let wrong = expected.iter().zip(&bins).filter(|(e, g)| e != g).count();
    let peak = (0..256).max_by_key(|&b| expected[b]).unwrap_or(0);
    println!(
        "{} of 256 bins equal the CPU count (fullest bin {peak}: {} bytes; the count in plain Rust on one host thread: {:.3} ms)",
        256 - wrong,
        bins[peak],
        reference.as_secs_f64() * 1e3
    );
    println!(
        "times: copy in {:.3} ms, kernel {:.3} ms ({:.0} GB/s), copy out {:.3} ms, end to end {:.3} ms",
        copied_in.as_secs_f64() * 1e3,
        kernel.as_secs_f64() * 1e3,
        n as f64 / kernel.as_secs_f64() / 1e9,
        copied_out.as_secs_f64() * 1e3,
        total.as_secs_f64() * 1e3
    );
    if wrong == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
