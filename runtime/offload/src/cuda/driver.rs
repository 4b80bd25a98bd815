//! The driver entry points, one method per call, for both vendors: NVIDIA's through cudarc's
//! bindings (`cudarc::driver::sys`, which loads `libcuda` at run time and resolves each
//! symbol on its first use), AMD's through a table resolved by name from `libamdhip64`, since
//! HIP has no such crate. HIP's module API mirrors the driver API call for call, so one method
//! serves both, and the rest of the backend does not know which library it talks to.
//!
//! Every method returns the driver's result as an integer (`CuResult`): HIP's are integers
//! already, and keeping CUDA's as cudarc's enum would tie the error paths to the CUDA release
//! the bindings were generated from.

use super::{CuContext, CuDevice, CuDevicePtr, CuEvent, CuFunction, CuModule, CuResult, CuStream};
use cudarc::driver::sys;
use std::ffi::{c_char, c_int, c_uint, c_void};

/// Which library a set of calls goes to: CUDA through cudarc, or HIP's table of `T`.
pub(super) enum Calls<T> {
    Cuda,
    Hip(T),
}

/// Declares a set of calls: HIP's table (`$table`, loaded by name), the CUDA and HIP names of
/// each call (`$names`, for error messages), the check that the CUDA library has every one of
/// them (cudarc resolves symbols lazily and panics on a missing one), and a method per call
/// on `Calls<$table>`. A call's parameter types are cudarc's, which HIP's share in layout.
/// The `hip fn` entries are table fields only: their CUDA side is written out by hand.
macro_rules! calls {
    (
        $(#[$doc:meta])* $table:ident, $names:ident;
        $( fn $name:ident($($arg:ident: $ty:ty),*) = $cuda:ident / $hip:literal; )*
        $( hip fn $hname:ident($($harg:ident: $hty:ty),*) -> $hret:ty
            = $hcuda:literal / $hhip:literal; )*
    ) => {
        $(#[$doc])*
        pub(super) struct $table {
            $( $name: unsafe extern "C" fn($($ty),*) -> CuResult, )*
            $( $hname: unsafe extern "C" fn($($hty),*) -> $hret, )*
        }

        /// Each call's CUDA name and HIP's for the same.
        pub(super) const $names: &[(&str, &str)] =
            &[$( (stringify!($cuda), $hip), )* $( ($hcuda, $hhip), )*];

        impl $table {
            /// The entry points from HIP's library; `None` when one is missing.
            pub(super) fn load(lib: &libloading::Library) -> Option<$table> {
                // SAFETY: each symbol is given the signature of its declaration in
                // hip_runtime_api.h.
                unsafe {
                    Some($table {
                        $( $name: *lib.get(concat!($hip, "\0").as_bytes()).ok()?, )*
                        $( $hname: *lib.get(concat!($hhip, "\0").as_bytes()).ok()?, )*
                    })
                }
            }

            /// Whether the CUDA driver library exports every call of the set.
            pub(super) fn cuda_has_all() -> bool {
                $( cuda_has(concat!(stringify!($cuda), "\0")) )&&*
            }
        }

        impl Calls<$table> {
            $(
                /// # Safety
                ///
                /// The pointers must be valid for the call, as the driver API documents it.
                #[allow(clippy::too_many_arguments, reason = "the driver call's own parameters")]
                pub(super) unsafe fn $name(&self, $($arg: $ty),*) -> CuResult {
                    match self {
                        // SAFETY: the caller's promise; the symbol was found at load time.
                        Calls::Cuda => unsafe { sys::$cuda($($arg),*) as CuResult },
                        // SAFETY: the caller's promise.
                        Calls::Hip(table) => unsafe { (table.$name)($($arg),*) },
                    }
                }
            )*
        }
    };
}

calls! {
    /// The calls every launch and memory operation needs.
    HipCalls, NAMES;
    fn init(flags: c_uint) = cuInit / "hipInit";
    fn driver_get_version(version: *mut c_int) = cuDriverGetVersion / "hipDriverGetVersion";
    fn device_get_count(count: *mut c_int) = cuDeviceGetCount / "hipGetDeviceCount";
    fn device_get(dev: *mut CuDevice, ordinal: c_int) = cuDeviceGet / "hipDeviceGet";
    fn device_get_name(name: *mut c_char, len: c_int, dev: CuDevice)
        = cuDeviceGetName / "hipDeviceGetName";
    fn primary_ctx_retain(context: *mut CuContext, dev: CuDevice)
        = cuDevicePrimaryCtxRetain / "hipDevicePrimaryCtxRetain";
    fn primary_ctx_reset(dev: CuDevice) = cuDevicePrimaryCtxReset_v2 / "hipDevicePrimaryCtxReset";
    fn ctx_set_current(context: CuContext) = cuCtxSetCurrent / "hipCtxSetCurrent";
    fn ctx_synchronize() = cuCtxSynchronize / "hipDeviceSynchronize";
    fn module_get_function(function: *mut CuFunction, module: CuModule, name: *const c_char)
        = cuModuleGetFunction / "hipModuleGetFunction";
    fn mem_alloc(p: *mut CuDevicePtr, len: usize) = cuMemAlloc_v2 / "hipMalloc";
    fn mem_free(p: CuDevicePtr) = cuMemFree_v2 / "hipFree";
    fn memcpy_htod(dst: CuDevicePtr, src: *const c_void, len: usize)
        = cuMemcpyHtoD_v2 / "hipMemcpyHtoD";
    fn memcpy_dtoh(dst: *mut c_void, src: CuDevicePtr, len: usize)
        = cuMemcpyDtoH_v2 / "hipMemcpyDtoH";
    fn memcpy_dtod(dst: CuDevicePtr, src: CuDevicePtr, len: usize)
        = cuMemcpyDtoD_v2 / "hipMemcpyDtoD";
    fn memset_d8(dst: CuDevicePtr, value: u8, len: usize) = cuMemsetD8_v2 / "hipMemsetD8";
    fn launch_kernel(
        function: CuFunction,
        gx: c_uint,
        gy: c_uint,
        gz: c_uint,
        bx: c_uint,
        by: c_uint,
        bz: c_uint,
        shared: c_uint,
        stream: CuStream,
        params: *mut *mut c_void,
        extra: *mut *mut c_void
    ) = cuLaunchKernel / "hipModuleLaunchKernel";
    fn mem_host_alloc(p: *mut *mut c_void, len: usize, flags: c_uint)
        = cuMemHostAlloc / "hipHostMalloc";
    fn host_get_device_pointer(address: *mut CuDevicePtr, p: *mut c_void, flags: c_uint)
        = cuMemHostGetDevicePointer_v2 / "hipHostGetDevicePointer";
    // The calls whose CUDA side is written out below.
    hip fn module_load_data_ex(
        module: *mut CuModule,
        image: *const c_void,
        n: c_uint,
        options: *mut c_int,
        values: *mut *mut c_void
    ) -> CuResult = "cuModuleLoadDataEx" / "hipModuleLoadDataEx";
    hip fn get_error_name(code: CuResult) -> *const c_char = "cuGetErrorName" / "hipGetErrorName";
    hip fn get_error_string(code: CuResult) -> *const c_char
        = "cuGetErrorString" / "hipGetErrorString";
}

calls! {
    /// Streams, events, asynchronous copies and pinned memory, loaded apart from the calls
    /// every launch needs so that a driver without them (an old HIP) still runs `offload!`.
    HipStreamCalls, STREAM_NAMES;
    fn stream_create(stream: *mut CuStream, flags: c_uint)
        = cuStreamCreate / "hipStreamCreateWithFlags";
    fn stream_destroy(stream: CuStream) = cuStreamDestroy_v2 / "hipStreamDestroy";
    fn stream_synchronize(stream: CuStream) = cuStreamSynchronize / "hipStreamSynchronize";
    fn stream_wait_event(stream: CuStream, event: CuEvent, flags: c_uint)
        = cuStreamWaitEvent / "hipStreamWaitEvent";
    fn memcpy_htod_async(dst: CuDevicePtr, src: *const c_void, len: usize, stream: CuStream)
        = cuMemcpyHtoDAsync_v2 / "hipMemcpyHtoDAsync";
    fn memcpy_dtoh_async(dst: *mut c_void, src: CuDevicePtr, len: usize, stream: CuStream)
        = cuMemcpyDtoHAsync_v2 / "hipMemcpyDtoHAsync";
    fn event_create(event: *mut CuEvent, flags: c_uint) = cuEventCreate / "hipEventCreateWithFlags";
    fn event_record(event: CuEvent, stream: CuStream) = cuEventRecord / "hipEventRecord";
    fn event_synchronize(event: CuEvent) = cuEventSynchronize / "hipEventSynchronize";
    fn event_destroy(event: CuEvent) = cuEventDestroy_v2 / "hipEventDestroy";
    fn mem_free_host(p: *mut c_void) = cuMemFreeHost / "hipHostFree";
    // CUDA 12.8 added `cuEventElapsedTime_v2`, the only one cudarc's CUDA 13 bindings declare;
    // `event_elapsed` takes whichever the driver has.
    hip fn event_elapsed(ms: *mut f32, start: CuEvent, end: CuEvent) -> CuResult
        = "cuEventElapsedTime" / "hipEventElapsedTime";
}

/// Whether the CUDA driver library exports `name` (NUL-terminated).
pub(super) fn cuda_has(name: &str) -> bool {
    // SAFETY: only called after `cuda_present`; looking a symbol up runs no code of the
    // library.
    unsafe { sys::culib().get::<unsafe extern "C" fn()>(name.as_bytes()).is_ok() }
}

/// Whether a CUDA driver library can be loaded (cudarc's loader panics without one, so this
/// is asked first).
pub(super) fn cuda_present() -> bool {
    // SAFETY: loading the driver library runs its initialisers, which are designed to be
    // loaded into any process.
    unsafe { sys::is_culib_present() }
}

/// A CUDA entry point that cudarc's bindings declare with types the backend does not use (an
/// enum for the result or an option), resolved by name with its C signature.
///
/// # Safety
///
/// `F` must be the symbol's C signature, and `cuda_present` must have returned true.
unsafe fn cuda_symbol<F: Copy>(name: &[u8]) -> Option<F> {
    // SAFETY: the caller's promises.
    unsafe { sys::culib().get::<F>(name).ok().map(|s| *s) }
}

impl Calls<HipCalls> {
    /// The name and description of a driver error code, as static strings (null when the
    /// driver does not know the code).
    pub(super) fn error_text(&self, code: CuResult) -> (*const c_char, *const c_char) {
        match self {
            Calls::Cuda => {
                type Text = unsafe extern "C" fn(CuResult, *mut *const c_char) -> CuResult;
                let text = |name: &[u8]| {
                    let mut p: *const c_char = std::ptr::null();
                    // SAFETY: the signature is cuda.h's, with the result code as the C int it
                    // is; the driver writes a static string's pointer or leaves it null.
                    if let Some(f) = unsafe { cuda_symbol::<Text>(name) }
                        && unsafe { f(code, &mut p) } != 0
                    {
                        p = std::ptr::null();
                    }
                    p
                };
                (text(b"cuGetErrorName\0"), text(b"cuGetErrorString\0"))
            }
            // SAFETY: HIP returns static strings for every code.
            Calls::Hip(table) => unsafe {
                ((table.get_error_name)(code), (table.get_error_string)(code))
            },
        }
    }

    /// `cuModuleLoadDataEx`: loads a cubin, NUL-terminated PTX or a code object into the
    /// current context, with JIT options (cudarc's binding types the options as an enum).
    ///
    /// # Safety
    ///
    /// The image must be one of those; `options` and `values` hold `n` entries each, valid
    /// for the call.
    pub(super) unsafe fn module_load_data_ex(
        &self,
        module: *mut CuModule,
        image: *const c_void,
        n: c_uint,
        options: *mut c_int,
        values: *mut *mut c_void,
    ) -> CuResult {
        match self {
            // SAFETY: the caller's promise; the option codes rkc passes are members of
            // `CUjit_option`, which has the layout of a C int.
            Calls::Cuda => unsafe {
                sys::cuModuleLoadDataEx(module, image, n, options.cast(), values) as CuResult
            },
            // SAFETY: the caller's promise.
            Calls::Hip(table) => unsafe {
                (table.module_load_data_ex)(module, image, n, options, values)
            },
        }
    }
}

impl Calls<HipStreamCalls> {
    /// The milliseconds between two recorded events (`cuEventElapsedTime`).
    ///
    /// # Safety
    ///
    /// Both events must be this context's and `ms` writable.
    pub(super) unsafe fn event_elapsed(
        &self,
        ms: *mut f32,
        start: CuEvent,
        end: CuEvent,
    ) -> CuResult {
        type Elapsed = unsafe extern "C" fn(*mut f32, CuEvent, CuEvent) -> CuResult;
        match self {
            Calls::Cuda => {
                static ELAPSED: std::sync::OnceLock<Option<Elapsed>> = std::sync::OnceLock::new();
                // SAFETY: both symbols have this signature in cuda.h.
                let f = ELAPSED.get_or_init(|| unsafe {
                    cuda_symbol::<Elapsed>(b"cuEventElapsedTime_v2\0")
                        .or_else(|| cuda_symbol::<Elapsed>(b"cuEventElapsedTime\0"))
                });
                match f {
                    // SAFETY: the caller's promise.
                    Some(f) => unsafe { f(ms, start, end) },
                    // CUDA_ERROR_NOT_SUPPORTED.
                    None => 801,
                }
            }
            // SAFETY: the caller's promise.
            Calls::Hip(table) => unsafe { (table.event_elapsed)(ms, start, end) },
        }
    }
}
