//! The NVIDIA backend, as far as a machine without an NVIDIA GPU can test it: a stand-in for
//! libcuda.so (tests/cuda_mock.c, built here with the system's C compiler) reports one sm_90
//! device. The runtime reaches it through cudarc's bindings, as it reaches a real driver, and
//! must list the device with its limits, launch through `cuLaunchKernel` with the arguments
//! mapped in and out (the stand-in plays two kernels' writes), copy nothing back from a
//! kernel that panicked, report the JIT log of PTX the driver refuses, recover from a trap by
//! resetting the context, and run streams and events.
//!
//! cudarc finds the driver by its library name, so the test runs itself again in a child
//! process whose `LD_LIBRARY_PATH` puts the stand-in first (the dynamic loader reads it once,
//! at start-up); on a machine with a GPU the stand-in is found before the real driver too.

use offload_binary::{Access, Image, ImageKind, KernelInfo, OffloadKind, ParamInfo, ParamKind};
use rkc_offload::prelude::*;
use rkc_offload::{Backend, DeviceBuffer, OffloadError};

#[offload_kernel]
fn scale(x: *mut [f32; 4]) {
    // SAFETY: the pointer is mapped for the launch.
    unsafe {
        (*x)[0] *= 2.0;
    }
}

/// Played by the stand-in: writes its array and panics in thread 3.
#[offload_kernel]
fn panics(x: *mut [f32; 4]) {
    // SAFETY: the pointer is mapped for the launch.
    unsafe {
        (*x)[0] = 99.0;
    }
}

/// Played by the stand-in: `y[k] += x[k]`.
#[offload_kernel]
fn add_to(x: *const [f32; 4], y: *mut [f32; 4]) {
    // SAFETY: the pointers are mapped for the launch.
    unsafe {
        for k in 0..4 {
            (*y)[k] += (*x)[k];
        }
    }
}

#[offload_kernel]
fn refused_ptx(x: *mut u32) {
    // SAFETY: the pointer is mapped for the launch.
    unsafe {
        *x = 1;
    }
}

#[offload_kernel]
fn add_one(x: &mut [u32]) {
    let i = unsafe { thread_idx_x() } as usize;
    if i < x.len() {
        x[i] += 1;
    }
}

#[path = "common/mock.rs"]
mod mock;

const CHILD: &str = "RKC_CUDA_MOCK_CHILD";

fn image(kind: ImageKind, bytes: Vec<u8>, kernels: &[KernelInfo]) -> Image {
    Image {
        image_kind: kind,
        offload_kind: OffloadKind::Cuda,
        flags: 0,
        strings: vec![
            ("triple".into(), "nvptx64-nvidia-cuda".into()),
            ("arch".into(), "sm_90".into()),
            (offload_binary::KERNELS_KEY.into(), offload_binary::metadata::encode(kernels)),
        ],
        bytes,
    }
}

fn param(ty: &str, kind: ParamKind) -> ParamInfo {
    ParamInfo {
        name: "x".into(),
        ty: ty.into(),
        kind,
        access: Access::ReadWrite,
        past_pointee: None,
    }
}

fn info(name: &str, params: Vec<ParamInfo>) -> KernelInfo {
    KernelInfo {
        name: name.into(),
        source: "cuda.rs".into(),
        panic_sites: Vec::new(),
        print_sites: Vec::new(),
        barriers: false,
        params,
    }
}

/// Calls one of the stand-in's own functions.
fn mock_call<R>(name: &str) -> R {
    // SAFETY: the stand-in exports `name` with no parameters and this result type; loading it
    // again by path finds the copy cudarc loaded.
    unsafe {
        let lib =
            libloading::Library::new(std::env::var_os("RKC_CUDA_MOCK_PATH").unwrap()).unwrap();
        let f: libloading::Symbol<unsafe extern "C" fn() -> R> =
            lib.get(format!("{name}\0").as_bytes()).unwrap();
        f()
    }
}

#[test]
fn cuda_devices_images_launches_traps_and_streams() {
    if std::env::var_os(CHILD).is_none() {
        let lib = mock::build("cuda_mock.c", "libcuda.so");
        let status = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["cuda_devices_images_launches_traps_and_streams", "--exact", "--nocapture"])
            .env(CHILD, "1")
            .env("LD_LIBRARY_PATH", lib.parent().unwrap())
            .env("RKC_CUDA_MOCK_PATH", &lib)
            .env_remove("OFFLOAD_TARGET")
            .env_remove("RKC_HIP_LIBRARY")
            .status()
            .unwrap();
        assert!(status.success(), "the child process with the stand-in driver failed");
        return;
    }

    let devices = rkc_offload::devices();
    let cuda: Vec<_> =
        devices.iter().enumerate().filter(|(_, d)| d.backend == Backend::Cuda).collect();
    assert_eq!(cuda.len(), 1, "{devices:?}");
    let (ordinal, device) = cuda[0];
    assert_eq!(device.name, "rkc mock NVIDIA GPU");
    assert_eq!(device.driver, "CUDA driver 13.0");
    assert_eq!(device.arch, "sm_90");
    let ordinal = ordinal as i32;

    let scale_info = info(
        "scale",
        vec![param("*mut [f32; 4]", ParamKind::Pointer { pointee_size: 16, mutable: true })],
    );
    let panics_info = info(
        "panics",
        vec![param("*mut [f32; 4]", ParamKind::Pointer { pointee_size: 16, mutable: true })],
    );
    let refused_info = info(
        "refused_ptx",
        vec![param("*mut u32", ParamKind::Pointer { pointee_size: 4, mutable: true })],
    );
    let add_to_info = info(
        "add_to",
        vec![
            param("*const [f32; 4]", ParamKind::Pointer { pointee_size: 16, mutable: false }),
            param("*mut [f32; 4]", ParamKind::Pointer { pointee_size: 16, mutable: true }),
        ],
    );
    let add_info = info(
        "add_one",
        vec![param("&mut [u32]", ParamKind::Slice { elem_size: 4, mutable: true })],
    );
    let mut cubin = b"\x7fELF".to_vec();
    cubin.resize(64, 0);
    let fatbin = offload_binary::write(&[
        image(ImageKind::Cubin, cubin, &[scale_info, add_info, panics_info, add_to_info]),
        image(
            ImageKind::Ptx,
            b".version 8.0\n// mock-invalid\n".to_vec(),
            std::slice::from_ref(&refused_info),
        ),
    ]);
    rkc_offload::register_fatbin(fatbin).expect("register");

    // A launch through the stand-in, which plays `scale`: x goes in, is doubled, comes back.
    let mut x = [1.0f32, 2.0, 3.0, 4.0];
    try_offload! { kernel = scale, device = ordinal, args = (&mut x as *mut [f32; 4],) }
        .expect("launch on the stand-in");
    assert_eq!(x, [2.0, 2.0, 3.0, 4.0]);
    assert_eq!(mock_call::<i32>("rkc_mock_launches"), 1);

    // Two arguments copied in: the stand-in performs asynchronous copies only when a launch
    // or a synchronisation follows them, so each argument's source must stay as it was until
    // then (small arguments go in through pinned staging memory, one part each).
    let (p, mut q) = ([1.0f32, 2.0, 3.0, 4.0], [10.0f32, 20.0, 30.0, 40.0]);
    try_offload! { kernel = add_to, device = ordinal, args = (&p as *const [f32; 4], &mut q as *mut [f32; 4]) }
        .expect("two arguments through the stand-in");
    assert_eq!(q, [11.0, 22.0, 33.0, 44.0]);
    // The same launch refused by the driver after its copies in were queued: the error is the
    // driver's, nothing comes back, and no copy is left in flight from the staging memory,
    // which the next launch will write.
    mock_call::<()>("rkc_mock_fail_next_launch");
    let err = try_offload! { kernel = add_to, device = ordinal, args = (&p as *const [f32; 4], &mut q as *mut [f32; 4]) }
        .unwrap_err();
    assert!(matches!(err, OffloadError::Driver { code: 1, .. }), "{err}");
    assert_eq!(q, [11.0, 22.0, 33.0, 44.0]);
    assert_eq!(mock_call::<i32>("rkc_mock_queued"), 0, "copies in left in flight");

    // A kernel that panics after writing its array: the error names the thread, and the
    // host's data stays as it was.
    let err = try_offload! { kernel = panics, device = ordinal, args = (&mut x as *mut [f32; 4],) }
        .unwrap_err();
    assert!(matches!(err, OffloadError::KernelPanic { thread: [3, 0, 0], .. }), "{err}");
    assert_eq!(x, [2.0, 2.0, 3.0, 4.0]);
    assert_eq!(mock_call::<i32>("rkc_mock_launches"), 3);

    // PTX the driver refuses: the error names the call and the code, and carries the JIT log.
    let mut y = 0u32;
    let err = try_offload! { kernel = refused_ptx, device = ordinal, args = (&mut y as *mut u32,) }
        .unwrap_err();
    assert!(matches!(err, OffloadError::Driver { code: 218, .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("cuModuleLoadDataEx")
            && text.contains("CUDA_ERROR_INVALID_PTX")
            && text.contains("ptxas mock: syntax error in line 1"),
        "{text}"
    );

    // A trap: the launch reports it, the runtime resets the context, and the next launch runs.
    // A device buffer made before the reset is gone with the old context: launches and copies
    // that use it say so instead of reading freed memory.
    let mut before_reset =
        DeviceBuffer::from_slice_on(Some(ordinal), &[1u32, 2, 3]).expect("a buffer");
    mock_call::<()>("rkc_mock_trap_next");
    let err = try_offload! { kernel = scale, device = ordinal, args = (&mut x as *mut [f32; 4],) }
        .unwrap_err();
    assert!(matches!(err, OffloadError::KernelTrapped { recovered: true, .. }), "{err}");
    assert!(err.to_string().contains("CUDA_ERROR_ILLEGAL_ADDRESS"), "{err}");
    assert_eq!(mock_call::<i32>("rkc_mock_resets"), 1);
    assert_eq!(x, [2.0, 2.0, 3.0, 4.0], "a trapped launch copies nothing back");
    let err = try_offload! { kernel = add_one, device = ordinal, thread_dim = [3, 1, 1], args = (&mut before_reset,) }
        .unwrap_err();
    assert!(matches!(err, OffloadError::BufferLost { .. }), "{err}");
    assert!(before_reset.to_vec().is_err(), "a copy from a buffer the reset took");
    try_offload! { kernel = scale, device = ordinal, args = (&mut x as *mut [f32; 4],) }
        .expect("a launch after the reset");
    assert_eq!(x, [4.0, 2.0, 3.0, 4.0]);
    assert_eq!(mock_call::<i32>("rkc_mock_launches"), 5);

    // Dynamic shared memory beyond the 48 KiB a kernel has without asking: rkc asks the
    // driver for it (which refuses the launch otherwise), and refuses more than the device
    // allows a workgroup with the kernel's static shared memory counted.
    let mut buffer = DeviceBuffer::from_slice_on(Some(ordinal), &[1u32, 2, 3]).expect("a buffer");
    try_offload! { kernel = add_one, device = ordinal, thread_dim = [3, 1, 1], dyn_cache = 100_000, args = (&mut buffer,) }
        .expect("a launch with 100,000 bytes of dynamic shared memory");
    let err = try_offload! { kernel = add_one, device = ordinal, thread_dim = [3, 1, 1], dyn_cache = 232_000, args = (&mut buffer,) }
        .unwrap_err();
    assert!(matches!(err, OffloadError::InvalidLaunch { .. }), "{err}");
    assert!(
        err.to_string().contains("dyn_cache of 232000 bytes with the kernel's 1024 bytes of static shared memory, above the device's 232448 bytes"),
        "{err}"
    );
    assert_eq!(mock_call::<i32>("rkc_mock_launches"), 6);

    // Streams and events: a queued launch on a device buffer, timed by two events (the
    // stand-in puts 1.5 ms between consecutive events).
    let mut buffer = DeviceBuffer::from_slice_on(Some(ordinal), &[1u32, 2, 3]).expect("a buffer");
    let elapsed = rkc_offload::scope(|s| {
        let stream = s.stream_on(Some(ordinal))?;
        let start = stream.record()?;
        rkc_offload::offload_async! { stream = stream, kernel = add_one, thread_dim = [3, 1, 1], args = (&mut buffer,) }?;
        let end = stream.record()?;
        stream.synchronize()?;
        end.elapsed_since(&start)
    })
    .expect("a stream");
    assert_eq!(elapsed, std::time::Duration::from_micros(1500));
    assert_eq!(buffer.to_vec().expect("back to the host"), [1, 2, 3]);
    assert_eq!(mock_call::<i32>("rkc_mock_launches"), 7);

    // cudarc, on the same primary context: an rkc buffer read by cudarc, and a cudarc slice
    // read and passed to a kernel by rkc, with nothing copied between them.
    use rkc_offload::cudarc::driver::CudaContext;
    use rkc_offload::{DeviceSlice, DeviceSliceMut};
    let context = CudaContext::new(ordinal as usize).expect("cudarc's context");
    let stream = context.default_stream();
    {
        let view = buffer.cudarc_view(&stream).expect("lent to cudarc");
        assert_eq!(stream.clone_dtoh(&view).expect("cudarc's copy"), [1, 2, 3]);
    }
    // A stream of another context of the device cannot use rkc's memory.
    let other = CudaContext::new_non_primary(ordinal as usize, 0).expect("another context");
    let err = buffer.cudarc_view(&other.default_stream()).unwrap_err();
    assert!(matches!(err, OffloadError::Cudarc { .. }), "{err}");
    assert!(err.to_string().contains("CudaContext::new(0)"), "{err}");
    // A launch while another context is current on the thread makes rkc's current again.
    other.bind_to_thread().expect("the other context, current");
    try_offload! { kernel = add_one, device = ordinal, thread_dim = [3, 1, 1], args = (&mut buffer,) }
        .expect("a launch with another context current");
    assert_eq!(buffer.to_vec().expect("back to the host"), [1, 2, 3]);
    drop(other);
    context.bind_to_thread().expect("the primary context again");
    let mut slice = stream.clone_htod(&[5u32, 6, 7]).expect("cudarc's buffer");
    assert_eq!(DeviceSlice::from_cudarc(&slice).unwrap().to_vec().unwrap(), [5, 6, 7]);
    let arg = DeviceSliceMut::from_cudarc(&mut slice).expect("lent to rkc");
    try_offload! { kernel = add_one, device = ordinal, thread_dim = [3, 1, 1], args = (arg,) }
        .expect("a launch on cudarc's memory");
    assert_eq!(mock_call::<i32>("rkc_mock_launches"), 9);

    // Preloads on one thread while launches on host data run on another: a launch holds the
    // device while it looks its arguments up among the resident copies, so a preload must not
    // hold the resident copies while it waits for the device.
    const ROUNDS: i32 = 2000;
    std::thread::scope(|threads| {
        threads.spawn(|| {
            let mut data = vec![1u32; 64];
            for _ in 0..ROUNDS {
                let resident = rkc_offload::preload_mut(&mut data[..]);
                resident.finish().expect("a resident copy back");
            }
        });
        let mut z = [1.0f32; 4];
        for _ in 0..ROUNDS {
            try_offload! { kernel = scale, device = ordinal, args = (&mut z as *mut [f32; 4],) }
                .expect("a launch beside preloads");
        }
    });
    assert_eq!(mock_call::<i32>("rkc_mock_launches"), 9 + ROUNDS);
}
