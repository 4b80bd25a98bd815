//! NVTX ranges: with a profiler's injection library named by `NVTX_INJECTION64_PATH` (here a
//! stand-in, tests/nvtx_mock.c, built with the system's C compiler), every launch is a range
//! named after its kernel, queued launches too; without one nothing is loaded (every other
//! test). Runs in a process of its own: the runtime reads the variable once.

use offload_binary::{Access, KernelInfo, ParamInfo, ParamKind};
use rkc_offload::prelude::*;

#[offload_kernel]
fn bump(x: &mut [u32]) {
    // SAFETY: the builtin only reads this thread's position.
    let i = unsafe { global_idx_x() };
    if i < x.len() {
        x[i] += 1;
    }
}

#[path = "common/mock.rs"]
mod mock;

#[test]
fn launches_are_nvtx_ranges_named_after_their_kernels() {
    let lib = mock::build("nvtx_mock.c", "libnvtx-mock.so");
    // SAFETY: this test is the only one in its process and sets the variables before the
    // runtime reads the environment.
    unsafe {
        std::env::set_var("NVTX_INJECTION64_PATH", &lib);
        std::env::set_var("OFFLOAD_TARGET", "disabled");
    }
    let info = KernelInfo {
        name: "bump".into(),
        source: "nvtx.rs".into(),
        panic_sites: Vec::new(),
        print_sites: Vec::new(),
        barriers: false,
        params: vec![ParamInfo {
            name: "x".into(),
            ty: "&mut [u32]".into(),
            kind: ParamKind::Slice { elem_size: 4, mutable: true },
            access: Access::ReadWrite,
            past_pointee: None,
        }],
    };
    let image = offload_binary::metadata::metadata_only_image(std::slice::from_ref(&info));
    rkc_offload::register_fatbin(offload_binary::write(&[image])).unwrap();
    let mut x = vec![0u32; 64];
    offload! { kernel = bump, thread_dim = [64, 1, 1], args = (&mut x[..],) }
    let mut buffer = rkc_offload::DeviceBuffer::from_slice(&x).unwrap();
    rkc_offload::scope(|s| {
        let st = s.stream()?;
        rkc_offload::offload_async! { stream = st, kernel = bump, thread_dim = [64, 1, 1], args = (&mut buffer,) }
    })
    .unwrap();
    assert_eq!(buffer.to_vec().unwrap(), vec![2u32; 64]);
    // SAFETY: the mock exports `const char *rkc_mock_nvtx_log(void)`, a static string.
    let log = unsafe {
        let l = libloading::Library::new(&lib).unwrap();
        let f: libloading::Symbol<unsafe extern "C" fn() -> *const std::ffi::c_char> =
            l.get(b"rkc_mock_nvtx_log\0").unwrap();
        std::ffi::CStr::from_ptr(f()).to_string_lossy().into_owned()
    };
    assert_eq!(log, "push bump\npop\npush bump (queued)\npop\n");
}
