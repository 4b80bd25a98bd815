//! Conformance: every testsuite kernel, compiled by rkc (fat binaries in a folder, one per
//! kernel file), runs on the GPU through the CUDA driver — or, where there is no GPU, in the
//! fat binary's host image — and on the CPU simulator (the rustc-compiled body) with the same
//! seeded inputs; the outputs must agree (floats: equal values, any NaN equal to any NaN).
//! Prints one line per kernel and a summary. On the host image, the kernels it leaves out
//! (they run on the simulator, so there is nothing to compare) are listed as skipped, and the
//! fault checks (a trapping GPU kernel, a device reset) do not apply.
//!
//! Usage: conformance <folder of <kernel file stem>.fatbin>

use rkc_offload::{LaunchConfig, RawArg};
use rkc_rk::Type;
use rkc_rk::interp::Arg;
use rkc_testsuite::{Outcome, cases, element, inputs_for, run_rustc, same_within};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    // `conformance --write-generated FILE`: the generated kernels this binary was built with,
    // for rkc to compile into generated.fatbin.
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--write-generated") {
        let Some(path) = args.get(2) else { return ExitCode::from(2) };
        return match std::fs::write(path, rkc_testsuite::generated::SOURCE) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {path}: {e}");
                ExitCode::from(2)
            }
        };
    }
    let Some(dir) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: conformance <folder of fat binaries> [--only KERNEL|faults]");
        return ExitCode::from(2);
    };
    // `--only KERNEL`: that testsuite kernel alone (for a profiler or compute-sanitizer, which
    // should see one kernel); `--only faults`: the fault checks alone (with saxpy, which they use).
    let only = match (args.get(2).map(String::as_str), args.get(3)) {
        (Some("--only"), Some(name)) => Some(name.clone()),
        (None, _) => None,
        _ => {
            eprintln!("usage: conformance <folder of fat binaries> [--only KERNEL|faults]");
            return ExitCode::from(2);
        }
    };
    let kernels = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels");
    let kernels = if kernels.is_dir() { kernels } else { PathBuf::from("testsuite/kernels") };
    let on_gpu = match rkc_offload::default_device() {
        Ok(d) if d.backend != rkc_offload::Backend::CpuSimulator => {
            println!("device: {} ({}, {})", d.name, d.arch, d.driver);
            d.backend.is_gpu()
        }
        _ => {
            eprintln!(
                "error: no GPU and no host images: conformance compares a GPU or the host image with the simulator"
            );
            return ExitCode::from(2);
        }
    };
    let device = if on_gpu { "the GPU" } else { "the host image" };
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let generated = if only.is_some() { Vec::new() } else { rkc_testsuite::generated_cases() };
    // The generated kernels share one fat binary and one module: register and compile once.
    let generated_module = rkc_front::compile(rkc_testsuite::generated::SOURCE).ok();
    if let Ok(fatbin) = std::fs::read(dir.join("generated.fatbin"))
        && let Err(e) = rkc_offload::register_fatbin(&fatbin)
    {
        println!("generated.fatbin: {e}");
    }
    let n_generated = generated.len();
    let (mut generated_passed, mut generated_failed) = (0, 0);
    let selected = |kernel: &str| match only.as_deref() {
        None => true,
        Some("faults") => kernel == "saxpy",
        Some(name) => kernel == name,
    };
    for case in cases().into_iter().filter(|c| selected(c.kernel)).chain(generated) {
        let is_generated = case.file == "generated.rs";
        let stem = case.file.trim_end_matches(".rs");
        let result = (|| -> Result<Checked, String> {
            let owned;
            let module = if is_generated {
                generated_module.as_ref().ok_or("rkc refuses the generated kernels")?
            } else {
                let fatbin = std::fs::read(dir.join(format!("{stem}.fatbin")))
                    .map_err(|e| format!("{stem}.fatbin: {e}"))?;
                rkc_offload::register_fatbin(&fatbin).map_err(|e| e.to_string())?;
                let source =
                    std::fs::read_to_string(kernels.join(case.file)).map_err(|e| e.to_string())?;
                owned = rkc_front::compile(&source)
                    .map_err(|d| format!("{} front-end errors", d.len()))?;
                &owned
            };
            let inputs = inputs_for(&case, module);
            let func = module.funcs.iter().find(|f| f.name == case.kernel).ok_or("no kernel")?;
            let tys: Vec<Type> = func.param_types().cloned().collect();
            let elems: Vec<Type> = tys
                .iter()
                .filter(|t| t.pointee().is_some() || matches!(t, Type::Slice { .. }))
                .map(element)
                .collect();

            let (reference, reference_printed) =
                rkc_offload::capture_prints(|| run_rustc(&case, &inputs, &tys));
            let mut gpu_buffers: Vec<Vec<u8>> = inputs
                .iter()
                .filter_map(|a| match a {
                    Arg::Buffer(b) => Some(b.clone()),
                    Arg::Scalar(_) => None,
                })
                .collect();
            let mut bufs = gpu_buffers.iter_mut();
            let mut raw: Vec<RawArg<'_>> = Vec::new();
            for (a, ty) in inputs.iter().zip(&tys) {
                match a {
                    Arg::Scalar(bits) => raw.push(RawArg::Scalar(*bits)),
                    Arg::Buffer(_) => {
                        let writable = matches!(
                            ty,
                            Type::Ptr { mutable: true, .. } | Type::Slice { mutable: true, .. }
                        );
                        let bytes = bufs.next().ok_or("buffer count")?;
                        raw.push(RawArg::Buffer { bytes, writable });
                    }
                }
            }
            let config = LaunchConfig {
                workgroup_dim: case.grid,
                thread_dim: case.block,
                dyn_cache: case.dyn_cache,
                device: None,
            };
            let t = Instant::now();
            let (launched, printed) = rkc_offload::capture_prints(|| {
                rkc_offload::launch_raw(case.kernel, config, &mut raw)
            });
            let gpu = match launched {
                Ok(()) => {
                    drop(raw);
                    Outcome::Buffers(gpu_buffers)
                }
                Err(rkc_offload::OffloadError::KernelPanic {
                    message,
                    location,
                    block,
                    thread,
                    ..
                }) => {
                    println!(
                        "     {} panicked on {device} at {location} in block {block:?}, thread {thread:?}: {message}",
                        case.kernel
                    );
                    Outcome::Panicked(message)
                }
                Err(rkc_offload::OffloadError::NotInHostImage { reason, .. }) => {
                    return Ok(Checked::Skipped(reason));
                }
                Err(e) => Outcome::Failed(e.to_string()),
            };
            let ms = t.elapsed().as_secs_f64() * 1e3;
            if case.kernel.starts_with("ulps_") {
                report_ulps(case.kernel, &inputs, &reference, &gpu);
            }
            same_within(&reference, &gpu, &elems, case.gpu_ulps)?;
            rkc_testsuite::same_prints(&reference_printed, &printed)?;
            let threads: u32 =
                case.grid.iter().product::<u32>() * case.block.iter().product::<u32>();
            Ok(Checked::Agree(format!("{threads} threads, {ms:.2} ms")))
        })();
        match result {
            Ok(Checked::Skipped(reason)) => {
                skipped += 1;
                if !is_generated {
                    println!(
                        "SKIP {:<18} {:<20} runs on the simulator: {reason}",
                        case.kernel, case.file
                    );
                }
            }
            // The generated kernels are summarised, with each failure named.
            Ok(_) if is_generated => generated_passed += 1,
            Err(e) if is_generated => {
                generated_failed += 1;
                println!("FAIL {:<18} {:<20} {e}", case.kernel, case.file);
            }
            Ok(Checked::Agree(detail)) => {
                passed += 1;
                println!("PASS {:<18} {:<20} {detail}", case.kernel, case.file);
            }
            Err(e) => {
                failed += 1;
                println!("FAIL {:<18} {:<20} {e}", case.kernel, case.file);
            }
        }
    }
    if only.is_none() {
        println!(
            "{} generated kernels (testsuite/src/generator.rs) on {device} against rustc's code on the simulator: {generated_passed} agree, {generated_failed} disagree",
            n_generated
        );
        if generated_failed == 0 {
            passed += 1;
        } else {
            failed += 1;
        }
        // Host threads launching at once, each with its own data (saxpy.fatbin is registered
        // above), every result checked: 8 × 200 (the concurrency test) and 16 × 1000 (the load test).
        for (threads, launches) in [(8u32, 200u32), (16, 1000)] {
            let t = Instant::now();
            let concurrent = std::thread::scope(|scope| {
                let workers: Vec<_> = (0..threads)
                    .map(|w| {
                        scope.spawn(move || -> Result<(), String> {
                            let n = 1000 + w as usize * 37;
                            for round in 0..launches {
                                let x: Vec<f32> =
                                    (0..n).map(|i| (i as u32 ^ w ^ round) as f32).collect();
                                let mut y: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
                                let a = w as f32 + 1.0;
                                rkc_offload::try_offload! {
                                    kernel = rkc_testsuite::saxpy::saxpy,
                                    workgroup_dim = [n.div_ceil(128) as u32, 1, 1],
                                    thread_dim = [128, 1, 1],
                                    args = (n, a, &x[..], &mut y[..]),
                                }
                                .map_err(|e| e.to_string())?;
                                if let Some(i) = (0..n).find(|&i| y[i] != a * x[i] + i as f32 * 0.5)
                                {
                                    return Err(format!(
                                        "thread {w}, launch {round}, element {i}: {} ",
                                        y[i]
                                    ));
                                }
                            }
                            Ok(())
                        })
                    })
                    .collect();
                workers
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|_| Err("a launching thread panicked".into())))
                    .collect::<Result<Vec<()>, String>>()
            });
            let label = if threads == 8 { "concurrency" } else { "load" };
            let seconds = t.elapsed().as_secs_f64();
            match concurrent {
                Ok(_) => {
                    passed += 1;
                    let total = threads * launches;
                    println!(
                        "PASS {label:<18} {:<20} {threads} host threads × {launches} launches, {:.0} ms, {:.0} launches/s",
                        "saxpy.rs",
                        seconds * 1e3,
                        f64::from(total) / seconds
                    );
                }
                Err(e) => {
                    failed += 1;
                    println!("FAIL {label:<18} {:<20} {e}", "saxpy.rs");
                }
            }
        }
        // Streams: saxpy queued on two streams over device buffers, the results copied back
        // asynchronously; a kernel that panics on a stream is reported by its synchronisation
        // with Rust's message, and the stream works afterwards.
        let streams = (|| -> Result<String, String> {
            use rkc_offload::{DeviceBuffer, offload_async};
            let e = |e: rkc_offload::OffloadError| e.to_string();
            let n = 100_000usize;
            let x: Vec<f32> = (0..n).map(|i| (i % 97) as f32).collect();
            let y: Vec<f32> = (0..n).map(|i| i as f32 * 0.25).collect();
            let dx = DeviceBuffer::from_slice(&x).map_err(e)?;
            let mut dys = [
                DeviceBuffer::from_slice(&y).map_err(e)?,
                DeviceBuffer::from_slice(&y).map_err(e)?,
            ];
            let mut outs = [vec![0.0f32; n], vec![0.0f32; n]];
            let ms = rkc_offload::scope(|s| {
                let st = [s.stream()?, s.stream()?];
                let start = st[0].record()?;
                for (k, (dy, out)) in dys.iter_mut().zip(outs.iter_mut()).enumerate() {
                    let a = k as f32 + 2.0;
                    offload_async! { stream = st[k], kernel = rkc_testsuite::saxpy::saxpy, workgroup_dim = [n.div_ceil(128) as u32, 1, 1], thread_dim = [128, 1, 1], args = (n, a, &dx, &mut *dy) }?;
                    st[k].copy_to_host(&*dy, out)?;
                }
                let other = st[1].record()?;
                st[0].wait_for(&other)?;
                let end = st[0].record()?;
                Ok(end.elapsed_since(&start)?.as_secs_f64() * 1e3)
            })
            .map_err(e)?;
            for (k, out) in outs.iter().enumerate() {
                let a = k as f32 + 2.0;
                if let Some(i) = (0..n).find(|&i| out[i] != a * x[i] + y[i]) {
                    return Err(format!("stream {k}, element {i}: {}", out[i]));
                }
            }
            let idx: Vec<u32> = (0..64).map(|i| if i == 9 { 75 } else { i }).collect();
            let didx =
                DeviceBuffer::from_slice(&[<[u32; 64]>::try_from(&idx[..]).unwrap_or([0; 64])])
                    .map_err(e)?;
            let mut dout = DeviceBuffer::<[u32; 64]>::zeroed(1).map_err(e)?;
            let panicked = rkc_offload::scope(|s| {
                let st = s.stream()?;
                offload_async! { stream = st, kernel = rkc_testsuite::panics::out_of_bounds, thread_dim = [64, 1, 1], args = (&didx, &mut dout) }?;
                let first = st.synchronize();
                offload_async! { stream = st, kernel = rkc_testsuite::saxpy::saxpy, workgroup_dim = [n.div_ceil(128) as u32, 1, 1], thread_dim = [128, 1, 1], args = (n, 1.0f32, &dx, &mut dys[0]) }?;
                st.synchronize()?;
                Ok(first)
            })
            .map_err(e)?;
            match panicked {
                Err(p)
                    if p.to_string()
                        .contains("index out of bounds: the len is 64 but the index is 75") => {}
                other => return Err(format!("a panic on a stream gave {other:?}")),
            }
            Ok(format!(
                "2 streams, saxpy over {n} elements each, {ms:.3} ms between events; a panic on a stream reported by its synchronisation"
            ))
        })();
        match streams {
            Ok(detail) => {
                passed += 1;
                println!("PASS {:<18} {:<20} {detail}", "streams", "saxpy.rs panics.rs");
            }
            Err(detail) => {
                failed += 1;
                println!("FAIL {:<18} {:<20} {detail}", "streams", "saxpy.rs panics.rs");
            }
        }
        // Faults, last (a trap may leave the device unusable): too much shared memory, a truncated
        // fat binary, then a kernel that traps. CUDA keeps an illegal address sticky for the life
        // of the process; the runtime tries a reset, and either later launches work and resident
        // data on the device is reported lost, or the device reports itself lost: typed errors
        // either way, and the process goes on.
    }
    if on_gpu && only.as_deref().is_none_or(|o| o == "faults") {
        let faults = (|| -> Result<String, String> {
            use rkc_offload::OffloadError;
            let fatbin =
                std::fs::read(dir.join("trap.fatbin")).map_err(|e| format!("trap.fatbin: {e}"))?;
            rkc_offload::register_fatbin(&fatbin).map_err(|e| e.to_string())?;
            let x = vec![1.0f32; 1000];
            let mut z = vec![0.0f32; 1000];
            match rkc_offload::try_offload! {
                kernel = rkc_testsuite::saxpy::saxpy, workgroup_dim = [8, 1, 1], thread_dim = [128, 1, 1], dyn_cache = 1 << 30, args = (1000usize, 1.0f32, &x[..], &mut z[..]),
            } {
                Err(OffloadError::InvalidLaunch { .. }) => {}
                other => return Err(format!("1 GiB of dynamic shared memory gave {other:?}")),
            }
            if rkc_offload::register_fatbin(&fatbin[..fatbin.len() / 2]).is_ok() {
                return Err("a truncated fat binary was accepted".into());
            }
            let resident_data = vec![1.0f32; 1000];
            let resident = rkc_offload::preload(&resident_data[..]);
            // More than one cell, so that the launch's reach check (a raw pointer to one value
            // that the kernel offsets past it) lets the wild write reach the GPU.
            let mut cells = [0u32; 64];
            let recovered = match rkc_offload::try_offload! { kernel = rkc_testsuite::faults_trap::wild_write, args = (&mut cells[..],) }
            {
                Err(OffloadError::KernelTrapped { recovered, .. }) => recovered,
                other => return Err(format!("a wild write gave {other:?}")),
            };
            let mut y = vec![2.0f32; 1000];
            let after = rkc_offload::try_offload! {
                kernel = rkc_testsuite::saxpy::saxpy, workgroup_dim = [8, 1, 1], thread_dim = [128, 1, 1], args = (1000usize, 3.0f32, &x[..], &mut y[..]),
            };
            let with_resident = rkc_offload::try_offload! {
                kernel = rkc_testsuite::saxpy::saxpy, workgroup_dim = [8, 1, 1], thread_dim = [128, 1, 1], args = (1000usize, 1.0f32, &resident, &mut z[..]),
            };
            drop(resident);
            let outcome = match (recovered, after, with_resident) {
                (true, Ok(()), Err(OffloadError::ResidentLost { .. }))
                    if y.iter().all(|&v| v == 5.0) =>
                {
                    "the device was reset and works again; resident data reported lost"
                }
                (
                    false,
                    Err(OffloadError::DeviceLost { .. }),
                    Err(OffloadError::DeviceLost { .. }),
                ) => "the device could not be reset and reports itself lost",
                (r, a, w) => return Err(format!("after the trap (recovered: {r}): {a:?}, {w:?}")),
            };
            Ok(format!(
                "too much shared memory and a truncated fat binary refused; a trapping kernel reported, then {outcome}"
            ))
        })();
        match faults {
            Ok(detail) => {
                passed += 1;
                println!("PASS {:<18} {:<20} {detail}", "faults", "faults/trap.rs");
            }
            Err(e) => {
                failed += 1;
                println!("FAIL {:<18} {:<20} {e}", "faults", "faults/trap.rs");
            }
        }
    }
    if skipped > 0 {
        println!(
            "{passed} passed, {failed} failed, {skipped} skipped (left out of the host image)"
        );
    } else {
        println!("{passed} passed, {failed} failed");
    }
    if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

/// Each float function's largest error on the GPU, in ULPs: the `f32` results against the
/// `f64` reference rounded to `f32`, the `f64` results against glibc's (the simulator's).
/// A kernel's comparison that did not fail.
enum Checked {
    /// The device and the simulator agree; the detail line.
    Agree(String),
    /// The host image leaves the kernel out, for this reason.
    Skipped(String),
}

fn report_ulps(kernel: &str, inputs: &[Arg], reference: &Outcome, gpu: &Outcome) {
    use rkc_testsuite::ulps::{FUNCTIONS, NAMES, reference as f64_reference};
    let (Some(Arg::Buffer(xs)), Outcome::Buffers(cpu), Outcome::Buffers(dev)) =
        (inputs.first(), reference, gpu)
    else {
        return;
    };
    let wide = kernel.ends_with("f64");
    let size = if wide { 8 } else { 4 };
    let value = |b: &[u8], k: usize| -> f64 {
        if wide {
            f64::from_le_bytes(b[8 * k..8 * k + 8].try_into().unwrap())
        } else {
            f64::from(f32::from_le_bytes(b[4 * k..4 * k + 4].try_into().unwrap()))
        }
    };
    let n = xs.len() / size;
    let ulps = |a: f64, b: f64| -> u64 {
        if a == b || (a.is_nan() && b.is_nan()) {
            return 0;
        }
        let key = |x: f64| -> i64 {
            let i = if wide { x.to_bits() as i64 } else { i64::from((x as f32).to_bits() as i32) };
            if i < 0 { i64::MIN - i } else { i }
        };
        key(a).abs_diff(key(b))
    };
    let mut line = format!(
        "     {kernel} largest error in ULPs against {}:",
        if wide { "glibc (f64)" } else { "an f64 reference" }
    );
    for (f, name) in NAMES.iter().enumerate().take(FUNCTIONS) {
        let worst = (0..n)
            .map(|i| {
                let want = if wide {
                    value(&cpu[1], f * n + i)
                } else {
                    f64::from(f64_reference(f, value(xs, i)) as f32)
                };
                ulps(value(&dev[1], f * n + i), want)
            })
            .max()
            .unwrap_or(0);
        line.push_str(&format!(" {name} {worst},"));
    }
    line.pop();
    println!("{line}");
}
