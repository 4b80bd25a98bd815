//! Faults on the CPU simulator (the GPU's run in the conformance binary adds a trapping
//! kernel): each gives a typed error with a clear message, and the process keeps working.

use offload_binary::{Access, KernelInfo, ParamInfo, ParamKind};
use rkc_offload::OffloadError;
use rkc_offload::prelude::*;

#[offload_kernel]
fn fill(x: *mut [u32; 8]) {
    // SAFETY: the pointer is mapped for the launch; the thread index is below 8.
    unsafe {
        (*x)[thread_idx_x() as usize] = 9;
    }
}

fn fatbin() -> Vec<u8> {
    let info = KernelInfo {
        name: "fill".into(),
        source: "faults.rs".into(),
        panic_sites: Vec::new(),
        print_sites: Vec::new(),
        barriers: false,
        params: vec![ParamInfo {
            name: "x".into(),
            ty: "*mut [u32; 8]".into(),
            kind: ParamKind::Pointer { pointee_size: 32, mutable: true },
            access: Access::Write,
            past_pointee: None,
        }],
    };
    offload_binary::write(&[offload_binary::metadata::metadata_only_image(&[info])])
}

#[test]
fn faults_are_typed_errors_and_the_process_keeps_working() {
    // SAFETY: this file's only test sets the variable before the runtime reads it.
    unsafe { std::env::set_var("OFFLOAD_TARGET", "disabled") };
    let good = fatbin();

    // A corrupt and a truncated fat binary: typed errors naming what is wrong.
    let mut corrupt = good.clone();
    corrupt[0] ^= 0xff;
    let e = rkc_offload::register_fatbin(&corrupt).unwrap_err();
    assert!(matches!(e, OffloadError::BadFatBinary { .. }), "{e:?}");
    for cut in [1, good.len() / 3, good.len() - 1] {
        let e = rkc_offload::register_fatbin(&good[..cut]).unwrap_err();
        assert!(matches!(e, OffloadError::BadFatBinary { .. }), "{cut}: {e:?}");
    }

    // A kernel no registered fat binary holds.
    let mut x = [0u32; 8];
    let e =
        try_offload! { kernel = fill, thread_dim = [8, 1, 1], args = (&mut x as *mut [u32; 8],) }
            .unwrap_err();
    assert!(matches!(e, OffloadError::KernelNotFound { .. }), "{e}");

    // A launch that asks for more memory than a block has: refused before anything runs.
    rkc_offload::register_fatbin(&good).unwrap();
    let e = try_offload! { kernel = fill, thread_dim = [8, 1, 1], dyn_cache = 1 << 30, args = (&mut x as *mut [u32; 8],) }.unwrap_err();
    assert!(
        matches!(e, OffloadError::InvalidLaunch { .. }) && e.to_string().contains("dyn_cache"),
        "{e}"
    );
    assert_eq!(x, [0; 8], "a refused launch wrote data");

    // A shape past the device's limits.
    let e = try_offload! { kernel = fill, thread_dim = [2048, 1, 1], args = (&mut x as *mut [u32; 8],) }.unwrap_err();
    assert!(matches!(e, OffloadError::InvalidLaunch { .. }), "{e}");

    // After every failure above, a good launch works.
    try_offload! { kernel = fill, thread_dim = [8, 1, 1], args = (&mut x as *mut [u32; 8],) }
        .unwrap();
    assert_eq!(x, [9; 8]);
}
