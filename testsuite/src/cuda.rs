//! The CUDA calls of the GPU benchmarks (`src/bin/bench.rs`, `src/bin/runtime-bench.rs`),
//! through `cudarc`'s driver and cuBLAS bindings, which load `libcuda` and `libcublas` at run
//! time. Every call panics with its name on an error: a benchmark has nothing to recover.

use cudarc::cublas::{result as cublas, sys as cublas_sys};
use cudarc::driver::{result, sys};
use std::ffi::{CString, c_void};

/// A device address.
pub type Ptr = u64;

/// Unwraps a driver or cuBLAS result, naming the call that failed.
pub fn check<T, E: std::fmt::Debug>(call: &str, r: Result<T, E>) -> T {
    r.unwrap_or_else(|e| panic!("{call} failed: {e:?}"))
}

/// A stream of `Gpu`'s context (null: the default stream), never destroyed.
pub struct Stream(sys::CUstream);

/// Device 0's primary context, current on the thread that made it, and two events for timing.
pub struct Gpu {
    pub name: String,
    /// `cuDriverGetVersion`: 1000 × major + 10 × minor.
    pub driver: i32,
    start: sys::CUevent,
    stop: sys::CUevent,
    /// Made at the first cuBLAS call (loading cuBLAS takes a while and most runs need none).
    blas: std::cell::OnceCell<cublas_sys::cublasHandle_t>,
}

impl Gpu {
    #[allow(
        clippy::new_without_default,
        reason = "it loads the CUDA driver and stops without a GPU: nothing to default to"
    )]
    pub fn new() -> Gpu {
        // SAFETY: only asks whether the library can be opened.
        assert!(
            unsafe { sys::is_culib_present() },
            "no CUDA driver (libcuda): this benchmark needs a GPU"
        );
        check("cuInit", result::init());
        let dev = check("cuDeviceGet", result::device::get(0));
        let name = check("cuDeviceGetName", result::device::get_name(dev));
        let mut driver = 0;
        // SAFETY: a valid out-pointer.
        check("cuDriverGetVersion", unsafe { sys::cuDriverGetVersion(&mut driver) }.result());
        // SAFETY: `dev` is a device handle; the context stays retained for the process.
        unsafe {
            let ctx = check("cuDevicePrimaryCtxRetain", result::primary_ctx::retain(dev));
            check("cuCtxSetCurrent", result::ctx::set_current(ctx));
        }
        let event =
            || check("cuEventCreate", result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT));
        Gpu { name, driver, start: event(), stop: event(), blas: std::cell::OnceCell::new() }
    }

    pub fn function(&self, image: &[u8], name: &str) -> sys::CUfunction {
        let cname = CString::new(name).unwrap();
        // SAFETY: `image` is a whole cubin; the module stays loaded for the process.
        unsafe {
            let module =
                check("cuModuleLoadData", result::module::load_data(image.as_ptr().cast()));
            check(
                &format!("cuModuleGetFunction({name})"),
                result::module::get_function(module, cname),
            )
        }
    }

    pub fn alloc(&self, bytes: usize) -> Ptr {
        // SAFETY: allocation has no preconditions beyond a current context.
        check("cuMemAlloc", unsafe { result::malloc_sync(bytes.max(1)) })
    }

    pub fn free(&self, p: Ptr) {
        // SAFETY: `p` came from `alloc` and is not used afterwards.
        check("cuMemFree", unsafe { result::free_sync(p) });
    }

    /// Copies `data` to `p` (plain data: bytes or numbers).
    pub fn upload<T: Copy>(&self, p: Ptr, data: &[T]) {
        // SAFETY: `p` has at least size_of_val(data) bytes.
        check("cuMemcpyHtoD", unsafe { result::memcpy_htod_sync(p, data) });
    }

    pub fn download(&self, p: Ptr, bytes: usize) -> Vec<u8> {
        let mut out = vec![0u8; bytes];
        self.download_into(&mut out, p);
        out
    }

    /// Fills `out` from `p` (plain data: bytes or numbers).
    pub fn download_into<T: Copy>(&self, out: &mut [T], p: Ptr) {
        // SAFETY: `p` has at least size_of_val(out) bytes, any bit pattern of which is a `T`
        // for the plain types the harness reads.
        check("cuMemcpyDtoH", unsafe { result::memcpy_dtoh_sync(out, p) });
    }

    /// Copies `bytes` bytes from `src` to `dst` on the device.
    pub fn copy(&self, dst: Ptr, src: Ptr, bytes: usize) {
        // SAFETY: both buffers have at least `bytes` bytes.
        check("cuMemcpyDtoD", unsafe { result::memcpy_dtod_sync(dst, src, bytes) });
    }

    pub fn fill(&self, p: Ptr, byte: u8, bytes: usize) {
        // SAFETY: `p` has at least `bytes` bytes.
        check("cuMemsetD8", unsafe { result::memset_d8_sync(p, byte, bytes) });
    }

    /// Runs `f` between two events and returns the milliseconds between them.
    pub fn timed(&self, f: impl FnOnce()) -> f64 {
        // SAFETY: the events exist and are only recorded on the default stream.
        unsafe {
            check("cuEventRecord", result::event::record(self.start, std::ptr::null_mut()));
            f();
            check("cuEventRecord", result::event::record(self.stop, std::ptr::null_mut()));
            check("cuEventSynchronize", result::event::synchronize(self.stop));
            f64::from(check("cuEventElapsedTime", result::event::elapsed(self.start, self.stop)))
        }
    }

    #[allow(
        clippy::not_unsafe_ptr_arg_deref,
        reason = "f is a CUfunction handle this Gpu's module loading gave, which only the driver reads"
    )]
    pub fn launch(&self, f: sys::CUfunction, grid: [u32; 3], block: [u32; 3], args: &[Vec<u8>]) {
        self.launch_on(&Stream(std::ptr::null_mut()), f, grid, block, 0, args);
    }

    /// `launch` with `shared` bytes of dynamic shared memory (see `allow_dynamic_shared`).
    #[allow(
        clippy::not_unsafe_ptr_arg_deref,
        reason = "f is a CUfunction handle this Gpu's module loading gave, which only the driver reads"
    )]
    pub fn launch_shared(
        &self,
        f: sys::CUfunction,
        grid: [u32; 3],
        block: [u32; 3],
        shared: u32,
        args: &[Vec<u8>],
    ) {
        self.launch_on(&Stream(std::ptr::null_mut()), f, grid, block, shared, args);
    }

    /// Lets `f` have `bytes` of dynamic shared memory, which beyond 48 KiB a kernel must ask for.
    #[allow(
        clippy::not_unsafe_ptr_arg_deref,
        reason = "f is a CUfunction handle this Gpu's module loading gave, which only the driver reads"
    )]
    pub fn allow_dynamic_shared(&self, f: sys::CUfunction, bytes: u32) {
        let attribute = sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES;
        // SAFETY: `f` is a loaded function of the current context.
        check("cuFuncSetAttribute", unsafe {
            sys::cuFuncSetAttribute(f, attribute, bytes as i32).result()
        });
    }

    /// A stream that does not wait for the default stream (`CU_STREAM_NON_BLOCKING`, the kind
    /// rkc's streams are), alive for the process.
    pub fn stream(&self) -> Stream {
        Stream(check(
            "cuStreamCreate",
            result::stream::create(result::stream::StreamKind::NonBlocking),
        ))
    }

    /// `launch` on `stream`.
    #[allow(
        clippy::not_unsafe_ptr_arg_deref,
        reason = "f is a CUfunction handle this Gpu's module loading gave, which only the driver reads"
    )]
    pub fn launch_on(
        &self,
        stream: &Stream,
        f: sys::CUfunction,
        grid: [u32; 3],
        block: [u32; 3],
        shared: u32,
        args: &[Vec<u8>],
    ) {
        let mut ptrs: Vec<*mut c_void> = args.iter().map(|a| a.as_ptr() as *mut c_void).collect();
        // SAFETY: each argument's bytes are the kernel parameter's value, alive for the call.
        check("cuLaunchKernel", unsafe {
            result::launch_kernel(
                f,
                (grid[0], grid[1], grid[2]),
                (block[0], block[1], block[2]),
                shared,
                stream.0,
                &mut ptrs,
            )
        });
    }

    pub fn synchronize(&self) {
        check("cuCtxSynchronize", result::ctx::synchronize());
    }

    pub fn synchronize_stream(&self, stream: &Stream) {
        // SAFETY: the stream is alive (made by `stream`, never destroyed).
        check("cuStreamSynchronize", unsafe { result::stream::synchronize(stream.0) });
    }

    /// `c = a·b` for row-major `n × n` matrices of `f32` by `cublasSgemm`, in FP32 (cuBLAS's
    /// default math mode: no TF32 tensor cores), queued on the default stream. Column-major
    /// cuBLAS computes `cᵀ = bᵀ·aᵀ`, which is `c` read row by row.
    pub fn sgemm_cublas(&self, n: usize, a: Ptr, b: Ptr, c: Ptr) {
        let handle = *self.blas.get_or_init(|| check("cublasCreate", cublas::create_handle()));
        let n = i32::try_from(n).expect("a matrix size cuBLAS takes");
        let (one, zero) = (1.0f32, 0.0f32);
        let op = cublas_sys::cublasOperation_t::CUBLAS_OP_N;
        // SAFETY: each matrix has n × n floats on the device; the scalars live for the call.
        check("cublasSgemm", unsafe {
            cublas::sgemm(
                handle,
                op,
                op,
                n,
                n,
                n,
                &one,
                b as *const f32,
                n,
                a as *const f32,
                n,
                &zero,
                c as *mut f32,
                n,
            )
        });
    }

    /// `c = a·b` for row-major `n × n` matrices of `f16` (`a`, `b`) into `f32` (`c`) by
    /// `cublasGemmEx` with f32 accumulation (`CUBLAS_COMPUTE_32F`, tensor cores), queued on the
    /// default stream; column-major as in [`Gpu::sgemm_cublas`].
    pub fn hgemm_cublas(&self, n: usize, a: Ptr, b: Ptr, c: Ptr) {
        let handle = *self.blas.get_or_init(|| check("cublasCreate", cublas::create_handle()));
        let n = i32::try_from(n).expect("a matrix size cuBLAS takes");
        let (one, zero) = (1.0f32, 0.0f32);
        let op = cublas_sys::cublasOperation_t::CUBLAS_OP_N;
        let (half, single) =
            (cublas_sys::cudaDataType::CUDA_R_16F, cublas_sys::cudaDataType::CUDA_R_32F);
        // SAFETY: each matrix has n × n elements of its type on the device; the scalars (f32,
        // as CUBLAS_COMPUTE_32F takes them) live for the call.
        check("cublasGemmEx", unsafe {
            cublas::gemm_ex(
                handle,
                op,
                op,
                n,
                n,
                n,
                (&raw const one).cast(),
                b as *const std::ffi::c_void,
                half,
                n,
                a as *const std::ffi::c_void,
                half,
                n,
                (&raw const zero).cast(),
                c as *mut std::ffi::c_void,
                single,
                n,
                cublas_sys::cublasComputeType_t::CUBLAS_COMPUTE_32F,
                cublas_sys::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )
        });
    }
}
