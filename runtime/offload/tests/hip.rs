//! The HIP backend, as far as a machine without an AMD GPU can test it: a stand-in for
//! libamdhip64.so (tests/hip_mock.c, built here with the system's C compiler) reports one
//! device and accepts only gfx942 code objects. The runtime must list the device as HIP, try
//! the fat binary's AMD code objects until one loads (gfx90a is refused, gfx942 taken), launch
//! through `hipModuleLaunchKernel` with the arguments mapped in and out, and report a fat
//! binary without a usable code object as a typed error naming the device.
//!
//! Runs in a process of its own (one test in this file): the runtime reads `RKC_HIP_LIBRARY`
//! once.

use offload_binary::{Access, Image, ImageKind, KernelInfo, OffloadKind, ParamInfo, ParamKind};
use rkc_offload::prelude::*;
use rkc_offload::{Backend, OffloadError};
use std::path::PathBuf;

#[offload_kernel]
fn scale(x: *mut [f32; 4]) {
    // SAFETY: the pointer is mapped for the launch.
    unsafe {
        (*x)[0] *= 2.0;
    }
}

#[offload_kernel]
fn only_gfx90a(x: *mut u32) {
    // SAFETY: the pointer is mapped for the launch.
    unsafe {
        *x = 1;
    }
}

#[path = "common/mock.rs"]
mod mock;

fn build_mock() -> PathBuf {
    mock::build("hip_mock.c", "libamdhip64.so")
}

/// A minimal ELF64 header whose e_flags name an AMDGPU machine (0x3f gfx90a, 0x4c gfx942).
fn code_object(mach: u32) -> Vec<u8> {
    let mut elf = vec![0u8; 64];
    elf[..4].copy_from_slice(b"\x7fELF");
    elf[4] = 2;
    elf[48..52].copy_from_slice(&mach.to_le_bytes());
    elf
}

fn image(arch: &str, mach: u32, kernels: &[KernelInfo]) -> Image {
    Image {
        image_kind: ImageKind::Object,
        offload_kind: OffloadKind::Hip,
        flags: 0,
        strings: vec![
            ("triple".into(), "amdgcn-amd-amdhsa".into()),
            ("arch".into(), arch.into()),
            (offload_binary::KERNELS_KEY.into(), offload_binary::metadata::encode(kernels)),
        ],
        bytes: code_object(mach),
    }
}

fn info(name: &str, ty: &str, bytes: u64) -> KernelInfo {
    KernelInfo {
        name: name.into(),
        source: "hip.rs".into(),
        panic_sites: Vec::new(),
        print_sites: Vec::new(),
        barriers: false,
        params: vec![ParamInfo {
            name: "x".into(),
            ty: ty.into(),
            kind: ParamKind::Pointer { pointee_size: bytes, mutable: true },
            access: Access::ReadWrite,
            past_pointee: None,
        }],
    }
}

#[test]
fn hip_devices_images_launches_and_errors() {
    let lib = build_mock();
    // SAFETY: this test is the only one in its process, and sets the variables before the
    // runtime (or anything else) reads the environment on another thread.
    unsafe {
        std::env::set_var("RKC_HIP_LIBRARY", &lib);
        std::env::remove_var("OFFLOAD_TARGET");
    }
    let devices = rkc_offload::devices();
    // A machine with an NVIDIA GPU lists it first; the mock device comes after.
    let hip: Vec<_> =
        devices.iter().enumerate().filter(|(_, d)| d.backend == Backend::Hip).collect();
    assert_eq!(hip.len(), 1, "{devices:?}");
    let (ordinal, device) = hip[0];
    assert_eq!(device.name, "rkc mock AMD GPU");
    assert_eq!(device.driver, "HIP 6.2");

    let scale_info = info("scale", "*mut [f32; 4]", 16);
    let gfx90a_info = info("only_gfx90a", "*mut u32", 4);
    let fatbin = offload_binary::write(&[
        image("gfx90a", 0x3f, &[scale_info.clone(), gfx90a_info.clone()]),
        image("gfx942", 0x4c, std::slice::from_ref(&scale_info)),
    ]);
    rkc_offload::register_fatbin(fatbin).expect("register");

    // The launch goes through the mock (which runs nothing): the data round-trips unchanged,
    // and the device now reports the architecture of the code object it accepted.
    let mut x = [1.0f32, 2.0, 3.0, 4.0];
    try_offload! { kernel = scale, device = ordinal as i32, args = (&mut x as *mut [f32; 4],) }
        .expect("launch on the mock");
    assert_eq!(x, [1.0, 2.0, 3.0, 4.0]);
    assert_eq!(rkc_offload::devices()[ordinal].arch, "gfx942");
    // SAFETY: the mock exports `int rkc_mock_launches(void)`.
    let launches = unsafe {
        let l = libloading::Library::new(&lib).unwrap();
        let f: libloading::Symbol<unsafe extern "C" fn() -> i32> =
            l.get(b"rkc_mock_launches\0").unwrap();
        f()
    };
    assert_eq!(launches, 1);

    // Only a gfx90a code object: HIP refuses it, and the error names the kernel and device.
    let mut y = 0u32;
    let err = try_offload! { kernel = only_gfx90a, device = ordinal as i32, args = (&mut y as *mut u32,) }.unwrap_err();
    assert!(matches!(err, OffloadError::NoImageForDevice { .. }), "{err}");
    let text = err.to_string();
    assert!(text.contains("only_gfx90a") && text.contains("rkc mock AMD GPU"), "{text}");
}
