//! The vertical slice end to end: loads the fat binary rkc made from kernels.rs, launches the
//! canonical kernel and saxpy with `offload!`, and checks every element against a CPU
//! reference. Runs on the first GPU, or on the CPU simulator when there is none.
//!
//! Usage: slice [kernels.fatbin]  (default: the fat binary build.rs compiled and embedded)

mod kernels;

use kernels::{kernel, saxpy};
use rkc_offload::offload;
use std::process::ExitCode;
use std::time::Instant;

/// The fat binary build.rs made from src/kernels.rs.
const EMBEDDED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/kernels.fatbin"));

fn main() -> ExitCode {
    // The embedded fat binary, or one given on the command line (rkc's output).
    let (path, bytes) = match std::env::args().nth(1) {
        None => ("embedded kernels.fatbin".to_string(), EMBEDDED.to_vec()),
        Some(path) => match std::fs::read(&path) {
            Ok(b) => (path, b),
            Err(e) => {
                eprintln!("error: cannot read {path}: {e}");
                return ExitCode::from(2);
            }
        },
    };
    match offload_binary::read(&bytes) {
        Ok(images) => {
            println!("fat binary {path}: {} images", images.len());
            for i in &images {
                println!(
                    "  {:<6} {:<7} {:<20} {:>7} bytes",
                    i.image_kind.name(),
                    i.arch(),
                    i.triple(),
                    i.bytes.len()
                );
            }
        }
        Err(e) => {
            eprintln!("error: {path}: {e}");
            return ExitCode::from(2);
        }
    }
    if let Err(e) = rkc_offload::register_fatbin(&bytes) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let device = match rkc_offload::default_device() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    println!(
        "device: {} ({}, {:?}, {}); offload_get_num_devices() = {}",
        device.name,
        device.arch,
        device.backend,
        device.driver,
        rkc_offload::offload_get_num_devices()
    );

    let mut ok = true;

    // The canonical kernel: 256 workgroups of one thread, x[i] = i. Poisoned first, so that
    // an unwritten element cannot pass.
    let mut x = [-1.0f64; 256];
    let t = Instant::now();
    offload! {
        kernel = kernel,
        workgroup_dim = [256, 1, 1],
        args = (&mut x as *mut [f64; 256],),
    }
    let elapsed = t.elapsed();
    let correct = x.iter().enumerate().filter(|(i, v)| **v == *i as f64).count();
    println!(
        "kernel: {correct} of {} elements correct ({:.3} ms)",
        x.len(),
        elapsed.as_secs_f64() * 1e3
    );
    ok &= correct == x.len();

    // saxpy over 2^20 + 3 elements (not a multiple of the block size, so the guard matters),
    // on pseudo-random data.
    let n: usize = (1 << 20) + 3;
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut random = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    };
    let xs: Vec<f32> = (0..n).map(|_| random()).collect();
    let mut ys: Vec<f32> = (0..n).map(|_| random()).collect();
    let a = 2.5f32;
    let expected: Vec<f32> = xs.iter().zip(&ys).map(|(x, y)| a * x + y).collect();
    let blocks = n.div_ceil(256) as u32;
    let t = Instant::now();
    offload! {
        kernel = saxpy,
        workgroup_dim = [blocks, 1, 1],
        thread_dim = [256, 1, 1],
        args = (n, a, &xs[..], &mut ys[..]),
    }
    let elapsed = t.elapsed();
    // Rust's f32 arithmetic without contraction on both sides: the results must be identical.
    let correct = ys.iter().zip(&expected).filter(|(g, e)| g.to_bits() == e.to_bits()).count();
    println!("saxpy: {correct} of {n} elements correct ({:.3} ms)", elapsed.as_secs_f64() * 1e3);
    ok &= correct == n;

    // Resident data: y stays on the device for 3 saxpy launches and comes back once; the
    // result must equal 3 implicit launches', and the launches must move only x.
    let mut implicit = ys.clone();
    let mut resident = ys.clone();
    for _ in 0..3 {
        offload! {
            kernel = saxpy,
            workgroup_dim = [blocks, 1, 1],
            thread_dim = [256, 1, 1],
            args = (n, a, &xs[..], &mut implicit[..]),
        }
    }
    let t = Instant::now();
    let before = rkc_offload::transfer_totals();
    {
        let y = rkc_offload::preload_mut(&mut resident[..]);
        for _ in 0..3 {
            offload! {
                kernel = saxpy,
                workgroup_dim = [blocks, 1, 1],
                thread_dim = [256, 1, 1],
                args = (n, a, &xs[..], &y),
            }
        }
        if let Err(e) = y.finish() {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    let elapsed = t.elapsed();
    let after = rkc_offload::transfer_totals();
    let correct =
        resident.iter().zip(&implicit).filter(|(r, i)| r.to_bits() == i.to_bits()).count();
    let moved_in = after.0 - before.0;
    // x only, three times; nothing at all in the host image, which runs on host memory.
    let in_place =
        rkc_offload::executor::<saxpy>().is_ok_and(|d| d.backend == rkc_offload::Backend::CpuHost);
    let expected_in = if in_place { 0 } else { 3 * 4 * n as u64 };
    println!(
        "resident: {correct} of {n} elements equal to the implicit path; launches moved {moved_in} bytes in (expected: {expected_in}) and {} back ({:.3} ms)",
        after.1 - before.1,
        elapsed.as_secs_f64() * 1e3
    );
    ok &= correct == n && moved_in == expected_in && after.1 == before.1;

    if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
