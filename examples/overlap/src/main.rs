//! Overlapping transfers with kernels: a large array goes to the device, through a kernel and
//! back, first synchronously (copy in, launch, copy out), then in chunks on two streams, so
//! that one chunk's copies run while another chunk's kernel does. Both results are compared
//! with each other and, on a sample, with the same steps computed on the CPU; the times and
//! the speed-up are printed. The host arrays are pinned (`PinnedBuffer`), which asynchronous
//! copies need to overlap anything.

mod kernels;

use kernels::logistic;
use rkc_offload::{DeviceBuffer, PinnedBuffer, offload, offload_async};
use std::process::ExitCode;
use std::time::Instant;

const STEPS: u32 = 400;
const CHUNKS: usize = 16;

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<bool, rkc_offload::OffloadError> {
    rkc_offload::include_fatbin!("kernels")?;
    let device = rkc_offload::default_device()?;
    let gpu = device.backend.is_gpu();
    // 256 MiB on a GPU; a size the simulator runs in a moment otherwise.
    let n: usize = if gpu { 1 << 26 } else { 1 << 16 };
    let chunk = n / CHUNKS;
    let blocks = |len: usize| [len.div_ceil(256) as u32, 1, 1];
    let mut input = PinnedBuffer::<f32>::zeroed(n)?;
    for (i, v) in input.iter_mut().enumerate() {
        *v = 0.05 + 0.9 * ((i * 7919) % 1000) as f32 / 1000.0;
    }
    let mut synchronous = PinnedBuffer::<f32>::zeroed(n)?;
    let mut overlapped = PinnedBuffer::<f32>::zeroed(n)?;
    let mut whole = DeviceBuffer::<f32>::zeroed(n)?;
    let mut halves = [DeviceBuffer::<f32>::zeroed(chunk)?, DeviceBuffer::<f32>::zeroed(chunk)?];
    // One launch first, so that neither timing includes loading the kernel.
    offload! { kernel = logistic, workgroup_dim = blocks(chunk), thread_dim = [256, 1, 1], args = (&mut halves[0], 1u32) }

    let t = Instant::now();
    whole.copy_from_slice(&input)?;
    offload! { kernel = logistic, workgroup_dim = blocks(n), thread_dim = [256, 1, 1], args = (&mut whole, STEPS) }
    whole.copy_to_slice(&mut synchronous)?;
    let sync_ms = t.elapsed().as_secs_f64() * 1e3;

    let t = Instant::now();
    let device_ms = rkc_offload::scope(|s| {
        let streams = [s.stream()?, s.stream()?];
        let start = streams[0].record()?;
        for (k, (from, to)) in input.chunks(chunk).zip(overlapped.chunks_mut(chunk)).enumerate() {
            let (stream, buffer) = (&streams[k % 2], &mut halves[k % 2]);
            stream.copy_to_device(&mut *buffer, from)?;
            offload_async! { stream = stream, kernel = logistic, workgroup_dim = blocks(chunk), thread_dim = [256, 1, 1], args = (&mut *buffer, STEPS) }?;
            stream.copy_to_host(&*buffer, to)?;
        }
        // The device's own time: from the first stream's start to both streams' ends.
        let other = streams[1].record()?;
        streams[0].wait_for(&other)?;
        let end = streams[0].record()?;
        Ok(end.elapsed_since(&start)?.as_secs_f64() * 1e3)
    })?;
    let async_ms = t.elapsed().as_secs_f64() * 1e3;

    let same = synchronous
        .iter()
        .zip(overlapped.iter())
        .filter(|(a, b)| a.to_bits() == b.to_bits())
        .count();
    let sample: Vec<usize> = (0..n).step_by(n / 4096).collect();
    let reference_ok = sample
        .iter()
        .filter(|&&i| {
            let mut v = input[i];
            for _ in 0..STEPS {
                v = 3.9 * v * (1.0 - v);
            }
            v.to_bits() == overlapped[i].to_bits()
        })
        .count();
    println!(
        "{n} floats ({} KiB), {STEPS} steps each, on {} ({})",
        (n * 4) >> 10,
        device.name,
        device.arch
    );
    println!(
        "{same} of {n} elements equal between the two runs; {reference_ok} of {} sampled equal the CPU's",
        sample.len()
    );
    println!(
        "synchronous copy-launch-copy {sync_ms:.3} ms; {CHUNKS} chunks on 2 streams {async_ms:.3} ms ({device_ms:.3} ms between the streams' events); speed-up {:.2}x",
        sync_ms / async_ms
    );
    if !gpu {
        println!(
            "(on the CPU (host image or simulator) queued work runs when it is queued, so nothing overlaps there; run on a GPU to see the streams pay)"
        );
    }
    Ok(same == n && reference_ok == sample.len())
}
