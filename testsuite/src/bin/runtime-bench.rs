//! What the runtime costs on the GPU, against hand-written CUDA driver calls on the same cubin:
//!
//! 1. launch latency: `offload!` of saxpy on resident data and on `DeviceBuffer`s (nothing to
//!    copy) against `cuLaunchKernel` + `cuCtxSynchronize`, per launch, median of batches, and
//!    against a launch followed by a 48-byte `cuMemcpyDtoH` (what reading a panic record back
//!    costs at the least);
//! 2. queued launches: `offload_async!` on one stream against `cuLaunchKernel` on a
//!    non-blocking stream (the kind rkc's streams are) and on the default stream, without
//!    synchronising, per launch over batches of 1000, the three alternating;
//! 3. implicit mapping: `offload!` of saxpy on host slices (copy x and y in, y back) against
//!    `cuMemcpyHtoD` ×2 + launch + `cuMemcpyDtoH` on buffers allocated beforehand, from 1 KiB
//!    to 1 GiB per array.
//!
//! Before them it checks the interop with cudarc on the GPU: a cudarc slice passed to an rkc
//! kernel, and a `DeviceBuffer` read by cudarc's copy.
//!
//! Usage: runtime-bench DIR, where DIR holds rkc-nochecks.fatbin. Prints a Markdown report.

use rkc_offload::{DeviceBuffer, offload, preload, preload_mut};
use rkc_testsuite::bench_kernels::saxpy;
use rkc_testsuite::cuda::Gpu;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// rkc and cudarc on the same memory, with nothing copied between them: y (cudarc's) becomes
/// 2 x + y in an rkc kernel, and x (rkc's) is read back by cudarc. Panics on a wrong value.
fn check_cudarc_interop() {
    use rkc_offload::DeviceSliceMut;
    use rkc_offload::cudarc::driver::CudaContext;
    let stream = CudaContext::new(0).expect("cudarc's context").default_stream();
    let x = DeviceBuffer::from_slice(&[1.0f32; 256]).expect("x on the device");
    let mut y = stream.clone_htod(&[3.0f32; 256]).expect("cudarc's y");
    let arg = DeviceSliceMut::from_cudarc(&mut y).expect("cudarc's y lent to rkc");
    offload! { kernel = saxpy, workgroup_dim = [1, 1, 1], thread_dim = [256, 1, 1], args = (2.0f32, &x, arg) }
    let y = stream.clone_dtoh(&y).expect("y back through cudarc");
    assert!(y.iter().all(|v| *v == 5.0), "2 x + y through cudarc's memory: {:?}", &y[..4]);
    let view = x.cudarc_view(&stream).expect("x lent to cudarc");
    let back = stream.clone_dtoh(&view).expect("x back through cudarc");
    assert!(back.iter().all(|v| *v == 1.0), "rkc's x read by cudarc: {:?}", &back[..4]);
    println!(
        "cudarc interop checked: a `CudaSlice` as an rkc kernel's argument, a `DeviceBuffer` in cudarc's copy\n"
    );
}

fn main() {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).expect("usage: runtime-bench DIR"));
    let fatbin = std::fs::read(dir.join("rkc-nochecks.fatbin")).expect("rkc-nochecks.fatbin");
    rkc_offload::register_fatbin(&fatbin).expect("register the fat binary");
    let device = rkc_offload::default_device().expect("a device");
    assert_eq!(device.backend, rkc_offload::Backend::Cuda, "this benchmark needs a GPU");
    let gpu = Gpu::new();
    let cubin = offload_binary::read(&fatbin)
        .expect("fat binary")
        .into_iter()
        .find(|i| {
            i.image_kind == offload_binary::ImageKind::Cubin && i.string("arch") == Some("sm_90")
        })
        .expect("an sm_90 cubin")
        .bytes;
    let f = gpu.function(&cubin, "saxpy");
    let record = gpu.alloc(64);
    gpu.fill(record, 0, 64);
    println!(
        "device: {}, CUDA driver {}.{}\n",
        gpu.name,
        gpu.driver / 1000,
        gpu.driver % 1000 / 10
    );

    check_cudarc_interop();

    // 1. Launch latency, 256 elements (one block): the launch path, not the kernel.
    let n = 256usize;
    let x = vec![1.0f32; n];
    let mut y = vec![0.0f32; n];
    let (batches, per_batch) = (21, 200);
    let per_launch = |f: &mut dyn FnMut()| -> f64 {
        for _ in 0..50 {
            f();
        }
        median(
            (0..batches)
                .map(|_| {
                    let t = Instant::now();
                    for _ in 0..per_batch {
                        f();
                    }
                    t.elapsed().as_secs_f64() * 1e6 / per_batch as f64
                })
                .collect(),
        )
    };
    let resident_us = {
        let dx = preload(&x[..]);
        let dy = preload_mut(&mut y[..]);
        let us = per_launch(&mut || {
            offload! { kernel = saxpy, workgroup_dim = [1, 1, 1], thread_dim = [256, 1, 1], args = (2.0f32, &dx, &dy) }
        });
        dy.finish().expect("copy back");
        us
    };
    let buffer_us = {
        let bx = DeviceBuffer::from_slice(&x).expect("x to the device");
        let mut by = DeviceBuffer::from_slice(&y).expect("y to the device");
        let us = per_launch(&mut || {
            offload! { kernel = saxpy, workgroup_dim = [1, 1, 1], thread_dim = [256, 1, 1], args = (2.0f32, &bx, &mut by) }
        });
        // Every launch added 2 to each value, and the buffer kept the sums on the device.
        let launches = 50 + batches * per_batch;
        let expected = y[0] + 2.0 * launches as f32;
        assert!(
            by.to_vec().expect("y back").iter().all(|v| *v == expected),
            "saxpy on device buffers computed a wrong result"
        );
        // The other device-buffer operations on the GPU: zeroing, copies on the device and
        // views (cuMemsetD8, cuMemcpyDtoD, offsets into an allocation).
        let mut z = DeviceBuffer::<f32>::zeroed(n).expect("zeroed");
        assert!(z.to_vec().expect("zeros back").iter().all(|v| *v == 0.0), "zeroed is not zero");
        z.copy_from(&by).expect("copy on the device");
        z.slice_mut(1..3).copy_from_slice(&[-1.0, -2.0]).expect("copy into a view");
        let mut want = vec![expected; n];
        want[1..3].copy_from_slice(&[-1.0, -2.0]);
        assert_eq!(z.to_device(None).expect("a copy").to_vec().expect("back"), want);
        us
    };
    let (dx, dy) = (gpu.alloc(4 * n), gpu.alloc(4 * n));
    let args = |dx: u64, dy: u64, n: usize| -> Vec<Vec<u8>> {
        vec![
            2.0f32.to_le_bytes().to_vec(),
            dx.to_le_bytes().to_vec(),
            (n as u64).to_le_bytes().to_vec(),
            dy.to_le_bytes().to_vec(),
            (n as u64).to_le_bytes().to_vec(),
            record.to_le_bytes().to_vec(),
        ]
    };
    let small = args(dx, dy, n);
    let raw_us = per_launch(&mut || {
        gpu.launch(f, [1, 1, 1], [256, 1, 1], &small);
        gpu.synchronize();
    });
    let mut record_back = [0u8; 48];
    let raw_record_us = per_launch(&mut || {
        gpu.launch(f, [1, 1, 1], [256, 1, 1], &small);
        gpu.download_into(&mut record_back, record);
    });
    println!(
        "## Launch latency (saxpy on 256 elements, nothing to copy; medians of {batches} batches of {per_batch})\n"
    );
    println!("| path | µs per launch |\n|---|---|");
    println!("| `offload!` on resident data | {resident_us:.2} |");
    println!("| `offload!` on `DeviceBuffer`s | {buffer_us:.2} |");
    println!("| `cuLaunchKernel` + `cuCtxSynchronize` | {raw_us:.2} |");
    println!("| `cuLaunchKernel` + 48-byte `cuMemcpyDtoH` | {raw_record_us:.2} |");
    println!(
        "\nratio offload! / raw: {:.2} on resident data, {:.2} on device buffers (goal ≤ 1.1)\n",
        resident_us / raw_us,
        buffer_us / raw_us
    );

    // 2. Queued launches: batches of launches and one synchronisation. rkc's streams do not
    // wait for the default stream, so the raw launches that the goal measures against go to
    // a stream of that kind too; raw launches on the default stream are shown beside them. The
    // three paths alternate batch by batch, so that drift in the machine's speed reaches all
    // of them alike.
    let queued = 1000usize;
    let raw_stream = gpu.stream();
    let bx = DeviceBuffer::from_slice(&x).expect("x to the device");
    let mut by = DeviceBuffer::from_slice(&y).expect("y to the device");
    let timed = |f: &mut dyn FnMut()| -> f64 {
        let t = Instant::now();
        f();
        t.elapsed().as_secs_f64() * 1e6 / queued as f64
    };
    let (mut async_runs, mut raw_runs, mut default_runs) = (Vec::new(), Vec::new(), Vec::new());
    rkc_offload::scope(|s| {
        let st = s.stream()?;
        // One batch of each first, untimed: the stream's panic records are made in its first.
        for round in 0..=batches {
            let rkc = timed(&mut || {
                for _ in 0..queued {
                    rkc_offload::offload_async! { stream = st, kernel = saxpy, workgroup_dim = [1, 1, 1], thread_dim = [256, 1, 1], args = (2.0f32, &bx, &mut by) }
                        .expect("queue");
                }
                st.synchronize().expect("synchronise");
            });
            let raw = timed(&mut || {
                for _ in 0..queued {
                    gpu.launch_on(&raw_stream, f, [1, 1, 1], [256, 1, 1], 0, &small);
                }
                gpu.synchronize_stream(&raw_stream);
            });
            let default = timed(&mut || {
                for _ in 0..queued {
                    gpu.launch(f, [1, 1, 1], [256, 1, 1], &small);
                }
                gpu.synchronize();
            });
            if round > 0 {
                async_runs.push(rkc);
                raw_runs.push(raw);
                default_runs.push(default);
            }
        }
        Ok(())
    })
    .expect("a stream");
    let (async_us, raw_async_us, default_async_us) =
        (median(async_runs), median(raw_runs), median(default_runs));
    println!(
        "## Queued launches (saxpy on 256 elements, {queued} per synchronisation; medians of {batches} batches, alternating)\n"
    );
    println!("| path | µs per launch |\n|---|---|");
    println!("| `offload_async!` on one stream, then `Stream::synchronize` | {async_us:.2} |");
    println!(
        "| `cuLaunchKernel` on a non-blocking stream, then `cuStreamSynchronize` | {raw_async_us:.2} |"
    );
    println!(
        "| `cuLaunchKernel` on the default stream, then `cuCtxSynchronize` | {default_async_us:.2} |"
    );
    println!(
        "\nratio: {:.2} against the non-blocking stream (goal ≤ 1.1), {:.2} against the default stream\n",
        async_us / raw_async_us,
        async_us / default_async_us
    );

    // 3. Implicit mapping against hand-written copies.
    println!(
        "## Implicit mapping (saxpy: x and y copied in, y copied back) against hand-written copies\n"
    );
    println!(
        "| bytes per array | `offload!` (ms) | cuMemcpy + launch + cuMemcpy (ms) | ratio |\n|---|---|---|---|"
    );
    let mut worst = 0.0f64;
    let mut bytes = 1usize << 10;
    while bytes <= 1 << 30 {
        let n = bytes / 4;
        let x: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
        let mut y = vec![1.0f32; n];
        // Small copies take tens of microseconds, where the machine's drift over a run is of
        // the same order as the difference measured: the two paths alternate, rep by rep
        // (which one goes first alternating too), over many more reps than the large sizes.
        let reps = if bytes >= 1 << 28 {
            5
        } else if bytes >= 1 << 22 {
            15
        } else {
            101
        };
        let blocks = n.div_ceil(256) as u32;
        let (dx, dy) = (gpu.alloc(bytes), gpu.alloc(bytes));
        let a = args(dx, dy, n);
        let mut implicit_ms = Vec::with_capacity(reps);
        let mut manual_ms = Vec::with_capacity(reps);
        for rep in 0..=reps {
            for implicit_turn in [rep % 2 == 0, rep % 2 != 0] {
                let t = Instant::now();
                if implicit_turn {
                    offload! { kernel = saxpy, workgroup_dim = [blocks, 1, 1], thread_dim = [256, 1, 1], args = (2.0f32, &x[..], &mut y[..]) }
                } else {
                    gpu.upload(dx, &x);
                    gpu.upload(dy, &y);
                    gpu.launch(f, [blocks, 1, 1], [256, 1, 1], &a);
                    gpu.download_into(&mut y, dy);
                }
                let ms = t.elapsed().as_secs_f64() * 1e3;
                // The first rep of each warms the path up and is not counted.
                if rep > 0 {
                    if implicit_turn { implicit_ms.push(ms) } else { manual_ms.push(ms) }
                }
            }
        }
        let (implicit, manual) = (median(implicit_ms), median(manual_ms));
        gpu.free(dx);
        gpu.free(dy);
        worst = worst.max(implicit / manual);
        let label = if bytes >= 1 << 30 {
            format!("{} GiB", bytes >> 30)
        } else if bytes >= 1 << 20 {
            format!("{} MiB", bytes >> 20)
        } else {
            format!("{} KiB", bytes >> 10)
        };
        println!("| {label} | {implicit:.3} | {manual:.3} | {:.2} |", implicit / manual);
        bytes *= 4;
    }
    println!("\nworst ratio: {worst:.2} (goal ≤ 1.1)");
}
