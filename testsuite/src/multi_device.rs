//! The checks of issue 8 (several devices), written once: `tests/multi_device.rs` runs them
//! on two simulated devices in CI, `src/bin/multi_device.rs` on every GPU of a machine. They
//! use the saxpy kernel of the testsuite, which the caller has registered.

use crate::saxpy::saxpy;
use rkc_offload::{OffloadError, offload, try_offload};

fn inputs(seed: u32, n: usize) -> (Vec<f32>, Vec<f32>, Vec<f32>, f32) {
    let a = 0.5 + seed as f32;
    let xs: Vec<f32> =
        (0..n).map(|i| ((i as u32).wrapping_mul(2654435761) ^ seed) as f32 * 1e-9).collect();
    let ys: Vec<f32> = (0..n).map(|i| (i as u32 + seed) as f32).collect();
    let expected = xs.iter().zip(&ys).map(|(x, y)| a * x + y).collect();
    (xs, ys, expected, a)
}

fn saxpy_on(device: i32, seed: u32, n: usize) -> Result<(), String> {
    let (xs, mut ys, expected, a) = inputs(seed, n);
    try_offload! {
        kernel = saxpy,
        workgroup_dim = [(n as u32).div_ceil(128), 1, 1],
        thread_dim = [128, 1, 1],
        device = device,
        args = (n, a, &xs[..], &mut ys[..]),
    }
    .map_err(|e| format!("device {device}: {e}"))?;
    if ys != expected {
        return Err(format!("device {device}: wrong result for seed {seed}"));
    }
    Ok(())
}

/// Runs every check the device count allows; returns the report, or the first failure.
pub fn run_checks() -> Result<String, String> {
    let mut report = String::new();
    let n = rkc_offload::offload_get_num_devices();
    report.push_str(&format!("offload_get_num_devices() = {n}\n"));
    for (k, d) in rkc_offload::devices().iter().enumerate() {
        report.push_str(&format!("  device {k}: {} ({}, {})\n", d.name, d.arch, d.driver));
    }
    // Every device computes a correct result.
    for d in 0..n {
        saxpy_on(d, 7 + d as u32, 10_000)?;
        report.push_str(&format!("PASS saxpy on device {d}\n"));
    }
    // A device past the count: upstream's message.
    let (xs, mut ys, _, a) = inputs(1, 64);
    match try_offload! { kernel = saxpy, device = n, args = (64usize, a, &xs[..], &mut ys[..]) } {
        Err(e) if e.to_string() == format!("offload device {n} is not available") => {
            report.push_str(&format!("PASS device = {n} gives `{e}`\n"));
        }
        other => return Err(format!("device = {n} should be unavailable, got {other:?}")),
    }
    if n < 2 {
        report.push_str("SKIPPED (needs 2 devices): concurrent launches on two devices; resident data refused on the other device\n");
        return Ok(report);
    }
    // Two host threads, one per device, 200 launches each, all correct.
    std::thread::scope(|s| -> Result<(), String> {
        let handles: Vec<_> = (0..2)
            .map(|d| {
                s.spawn(move || -> Result<(), String> {
                    for round in 0..200u32 {
                        saxpy_on(d, round * 2 + d as u32, 1000 + round as usize)?;
                    }
                    Ok(())
                })
            })
            .collect();
        for h in handles {
            h.join().map_err(|_| "a launching thread panicked".to_string())??;
        }
        Ok(())
    })?;
    report.push_str("PASS 2 host threads x 200 launches on devices 0 and 1 at once\n");
    // Resident data of device 0 is never used by a launch on device 1.
    let (xs, mut ys, _, a) = inputs(3, 256);
    let guard = rkc_offload::try_preload_on(Some(0), &xs[..]).map_err(|e| e.to_string())?;
    let result = try_offload! {
        kernel = saxpy,
        workgroup_dim = [2, 1, 1],
        thread_dim = [128, 1, 1],
        device = 1,
        args = (256usize, a, &guard, &mut ys[..]),
    };
    match result {
        Err(e @ OffloadError::ResidentElsewhere { .. }) => {
            report.push_str(&format!("PASS resident data of device 0 refused on device 1: {e}\n"))
        }
        other => {
            return Err(format!("resident data of device 0 was accepted on device 1: {other:?}"));
        }
    }
    // ... and is used on its own device.
    offload! { kernel = saxpy, workgroup_dim = [2, 1, 1], thread_dim = [128, 1, 1], device = 0, args = (256usize, a, &guard, &mut ys[..]) }
    report.push_str("PASS resident data of device 0 used on device 0\n");
    // A device buffer of device 0 is refused on device 1, and its copy there is used.
    let on_0 = rkc_offload::DeviceBuffer::from_slice_on(Some(0), &xs).map_err(|e| e.to_string())?;
    let mut y_1 =
        rkc_offload::DeviceBuffer::from_slice_on(Some(1), &ys).map_err(|e| e.to_string())?;
    let result = try_offload! {
        kernel = saxpy,
        workgroup_dim = [2, 1, 1],
        thread_dim = [128, 1, 1],
        device = 1,
        args = (256usize, a, &on_0, &mut y_1),
    };
    match result {
        Err(e @ OffloadError::BufferElsewhere { .. }) => {
            report.push_str(&format!("PASS a device buffer of device 0 refused on device 1: {e}\n"))
        }
        other => {
            return Err(format!("a device buffer of device 0 was accepted on device 1: {other:?}"));
        }
    }
    let on_1 = on_0.to_device(Some(1)).map_err(|e| e.to_string())?;
    offload! { kernel = saxpy, workgroup_dim = [2, 1, 1], thread_dim = [128, 1, 1], device = 1, args = (256usize, a, &on_1, &mut y_1) }
    let expected: Vec<f32> = xs.iter().zip(&ys).map(|(x, y)| a * x + y).collect();
    if y_1.to_vec().map_err(|e| e.to_string())? != expected {
        return Err("saxpy on device buffers copied to device 1 is wrong".into());
    }
    report.push_str("PASS a device buffer copied to device 1 is used there\n");
    Ok(report)
}
