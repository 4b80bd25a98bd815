//! A minimal CUDA driver wrapper for the GPU benchmarks (`src/bin/bench.rs`,
//! `src/bin/runtime-bench.rs`): loads `libcuda.so.1` at run time, and panics with the call's
//! name on any error (a benchmark has nothing to recover).

use std::ffi::{CString, c_void};
use std::os::raw::{c_char, c_int, c_uint};

pub type CuResult = c_int;
pub type Ptr = u64;

pub struct Cuda {
    _lib: libloading::Library,
    pub init: unsafe extern "C" fn(c_uint) -> CuResult,
    pub device_get: unsafe extern "C" fn(*mut c_int, c_int) -> CuResult,
    pub device_name: unsafe extern "C" fn(*mut c_char, c_int, c_int) -> CuResult,
    pub driver_version: unsafe extern "C" fn(*mut c_int) -> CuResult,
    pub primary_retain: unsafe extern "C" fn(*mut *mut c_void, c_int) -> CuResult,
    pub ctx_set: unsafe extern "C" fn(*mut c_void) -> CuResult,
    pub module_load: unsafe extern "C" fn(*mut *mut c_void, *const c_void) -> CuResult,
    pub get_function:
        unsafe extern "C" fn(*mut *mut c_void, *mut c_void, *const c_char) -> CuResult,
    pub alloc: unsafe extern "C" fn(*mut Ptr, usize) -> CuResult,
    pub free: unsafe extern "C" fn(Ptr) -> CuResult,
    pub htod: unsafe extern "C" fn(Ptr, *const c_void, usize) -> CuResult,
    pub dtoh: unsafe extern "C" fn(*mut c_void, Ptr, usize) -> CuResult,
    pub dtod: unsafe extern "C" fn(Ptr, Ptr, usize) -> CuResult,
    pub memset: unsafe extern "C" fn(Ptr, u8, usize) -> CuResult,
    pub launch: unsafe extern "C" fn(
        *mut c_void,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        *mut c_void,
        *mut *mut c_void,
        *mut *mut c_void,
    ) -> CuResult,
    pub sync: unsafe extern "C" fn() -> CuResult,
    pub event_create: unsafe extern "C" fn(*mut *mut c_void, c_uint) -> CuResult,
    pub event_record: unsafe extern "C" fn(*mut c_void, *mut c_void) -> CuResult,
    pub event_sync: unsafe extern "C" fn(*mut c_void) -> CuResult,
    pub event_elapsed: unsafe extern "C" fn(*mut f32, *mut c_void, *mut c_void) -> CuResult,
}

pub fn check(call: &str, r: CuResult) {
    assert!(r == 0, "{call} failed with CUDA error {r}");
}

impl Cuda {
    fn load() -> Cuda {
        // SAFETY: the CUDA driver library's initialisers are safe to run.
        let lib = unsafe { libloading::Library::new("libcuda.so.1") }
            .expect("no CUDA driver (libcuda.so.1): this benchmark needs a GPU");
        macro_rules! sym {
            ($name:literal) => {
                // SAFETY: the symbol has the CUDA driver API's signature for this name.
                *unsafe { lib.get(concat!($name, "\0").as_bytes()) }.expect($name)
            };
        }
        Cuda {
            init: sym!("cuInit"),
            device_get: sym!("cuDeviceGet"),
            device_name: sym!("cuDeviceGetName"),
            driver_version: sym!("cuDriverGetVersion"),
            primary_retain: sym!("cuDevicePrimaryCtxRetain"),
            ctx_set: sym!("cuCtxSetCurrent"),
            module_load: sym!("cuModuleLoadData"),
            get_function: sym!("cuModuleGetFunction"),
            alloc: sym!("cuMemAlloc_v2"),
            free: sym!("cuMemFree_v2"),
            htod: sym!("cuMemcpyHtoD_v2"),
            dtoh: sym!("cuMemcpyDtoH_v2"),
            dtod: sym!("cuMemcpyDtoD_v2"),
            memset: sym!("cuMemsetD8_v2"),
            launch: sym!("cuLaunchKernel"),
            sync: sym!("cuCtxSynchronize"),
            event_create: sym!("cuEventCreate"),
            event_record: sym!("cuEventRecord"),
            event_sync: sym!("cuEventSynchronize"),
            event_elapsed: sym!("cuEventElapsedTime"),
            _lib: lib,
        }
    }
}

/// The CUDA calls this harness makes; each wrapper checks the result.
pub struct Gpu {
    pub cu: Cuda,
    pub name: String,
    pub driver: i32,
    start: *mut c_void,
    stop: *mut c_void,
}

impl Gpu {
    #[allow(
        clippy::new_without_default,
        reason = "it loads the CUDA driver and stops without a GPU: nothing to default to"
    )]
    pub fn new() -> Gpu {
        let cu = Cuda::load();
        let (mut dev, mut ctx, mut name, mut driver) =
            (0, std::ptr::null_mut(), [0 as c_char; 128], 0);
        // SAFETY: every out-pointer is valid for the call.
        unsafe {
            check("cuInit", (cu.init)(0));
            check("cuDeviceGet", (cu.device_get)(&mut dev, 0));
            check("cuDeviceGetName", (cu.device_name)(name.as_mut_ptr(), 128, dev));
            check("cuDriverGetVersion", (cu.driver_version)(&mut driver));
            check("cuDevicePrimaryCtxRetain", (cu.primary_retain)(&mut ctx, dev));
            check("cuCtxSetCurrent", (cu.ctx_set)(ctx));
        }
        // SAFETY: cuDeviceGetName wrote a NUL-terminated string.
        let name =
            unsafe { std::ffi::CStr::from_ptr(name.as_ptr()) }.to_string_lossy().into_owned();
        let (mut start, mut stop) = (std::ptr::null_mut(), std::ptr::null_mut());
        // SAFETY: valid out-pointers.
        unsafe {
            check("cuEventCreate", (cu.event_create)(&mut start, 0));
            check("cuEventCreate", (cu.event_create)(&mut stop, 0));
        }
        Gpu { cu, name, driver, start, stop }
    }

    pub fn function(&self, image: &[u8], name: &str) -> *mut c_void {
        let (mut module, mut f) = (std::ptr::null_mut(), std::ptr::null_mut());
        let cname = CString::new(name).unwrap();
        // SAFETY: `image` is a cubin; out-pointers are valid.
        unsafe {
            check("cuModuleLoadData", (self.cu.module_load)(&mut module, image.as_ptr().cast()));
            check(
                &format!("cuModuleGetFunction({name})"),
                (self.cu.get_function)(&mut f, module, cname.as_ptr()),
            );
        }
        f
    }

    pub fn alloc(&self, bytes: usize) -> Ptr {
        let mut p = 0;
        // SAFETY: valid out-pointer.
        check("cuMemAlloc", unsafe { (self.cu.alloc)(&mut p, bytes.max(1)) });
        p
    }

    pub fn free(&self, p: Ptr) {
        // SAFETY: `p` came from `alloc` and is not used afterwards.
        check("cuMemFree", unsafe { (self.cu.free)(p) });
    }

    pub fn upload(&self, p: Ptr, data: &[u8]) {
        // SAFETY: `p` has at least data.len() bytes.
        check("cuMemcpyHtoD", unsafe { (self.cu.htod)(p, data.as_ptr().cast(), data.len()) });
    }

    pub fn download(&self, p: Ptr, bytes: usize) -> Vec<u8> {
        let mut out = vec![0u8; bytes];
        // SAFETY: `p` has at least `bytes` bytes.
        check("cuMemcpyDtoH", unsafe { (self.cu.dtoh)(out.as_mut_ptr().cast(), p, bytes) });
        out
    }

    pub fn fill(&self, p: Ptr, byte: u8, bytes: usize) {
        // SAFETY: `p` has at least `bytes` bytes.
        check("cuMemsetD8", unsafe { (self.cu.memset)(p, byte, bytes) });
    }

    /// Runs `f` between two events and returns the milliseconds between them.
    pub fn timed(&self, f: impl FnOnce()) -> f64 {
        let mut ms = 0.0f32;
        // SAFETY: the events exist; `ms` is a valid out-pointer.
        unsafe {
            check("cuEventRecord", (self.cu.event_record)(self.start, std::ptr::null_mut()));
            f();
            check("cuEventRecord", (self.cu.event_record)(self.stop, std::ptr::null_mut()));
            check("cuEventSynchronize", (self.cu.event_sync)(self.stop));
            check("cuEventElapsedTime", (self.cu.event_elapsed)(&mut ms, self.start, self.stop));
        }
        f64::from(ms)
    }

    #[allow(
        clippy::not_unsafe_ptr_arg_deref,
        reason = "f is a CUfunction handle this Gpu's module loading gave, which only the driver reads"
    )]
    pub fn launch(&self, f: *mut c_void, grid: [u32; 3], block: [u32; 3], args: &[Vec<u8>]) {
        let mut ptrs: Vec<*mut c_void> = args.iter().map(|a| a.as_ptr() as *mut c_void).collect();
        // SAFETY: each argument's bytes are the kernel parameter's value, alive for the call.
        check("cuLaunchKernel", unsafe {
            (self.cu.launch)(
                f,
                grid[0],
                grid[1],
                grid[2],
                block[0],
                block[1],
                block[2],
                0,
                std::ptr::null_mut(),
                ptrs.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        });
    }

    pub fn synchronize(&self) {
        // SAFETY: no arguments.
        check("cuCtxSynchronize", unsafe { (self.cu.sync)() });
    }
}
