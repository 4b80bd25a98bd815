//! The GPU backend: NVIDIA's driver API (`libcuda.so.1`, through cudarc's bindings) and AMD's
//! HIP (`libamdhip64.so`, through a table of its entry points), each loaded at run time so
//! that nothing from CUDA or ROCm is needed to build rkc programs or to run them without a GPU.
//!
//! HIP's module API mirrors the CUDA driver API call for call (`hipModuleLaunchKernel` is
//! `cuLaunchKernel`, `hipMemcpyHtoD` is `cuMemcpyHtoD`...), so both vendors share this code:
//! [`driver`] gives one method per call that goes to either library. The GPUs are numbered
//! NVIDIA first, then AMD.
//!
//! One primary context per device, a module cache per (device, fat binary, image), and every
//! driver error turned into [`OffloadError::Driver`] naming the call that failed.

use crate::LaunchConfig;
use crate::args::ArgMapping;
use crate::device::{Allocation, PinnedAllocation};
use crate::error::OffloadError;
use crate::placement::Placement;
use crate::registry::Found;
use cudarc::driver::sys;
use driver::{Calls, HipCalls, HipStreamCalls};
use std::collections::HashMap;
use std::ffi::{CStr, CString, c_char, c_int, c_uint, c_void};
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

mod driver;
mod limits;
mod stream;
pub(crate) use limits::check_limits;
use limits::{allow_dynamic_shared, check_shape};
pub(crate) use stream::StreamState;

// The handle types are cudarc's; HIP's have the same layout (opaque pointers, an int device,
// a 64-bit device address).
type CuResult = c_int;
type CuDevice = sys::CUdevice;
type CuContext = sys::CUcontext;
type CuModule = sys::CUmodule;
type CuFunction = sys::CUfunction;
type CuDevicePtr = sys::CUdeviceptr;
type CuStream = sys::CUstream;
type CuEvent = sys::CUevent;

const CUDA_SUCCESS: CuResult = 0;
const CUDA_ERROR_ILLEGAL_ADDRESS: CuResult = 700;
const CUDA_ERROR_ILLEGAL_INSTRUCTION: CuResult = 715;
const CUDA_ERROR_LAUNCH_FAILED: CuResult = 719;

const JIT_ERROR_LOG_BUFFER: c_int = 5;
const JIT_ERROR_LOG_BUFFER_SIZE_BYTES: c_int = 6;

/// One vendor's driver: its calls, and its stream calls when it has them.
struct Api {
    calls: Calls<HipCalls>,
    /// Streams, events and asynchronous copies (`None` when the library lacks them).
    streams: Option<Calls<HipStreamCalls>>,
    /// HIP's library, mapped for as long as its table is used (cudarc keeps CUDA's).
    _lib: Option<libloading::Library>,
}

impl std::ops::Deref for Api {
    type Target = Calls<HipCalls>;
    fn deref(&self) -> &Calls<HipCalls> {
        &self.calls
    }
}

/// Which vendor's library an [`Api`] comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Cuda,
    Hip,
}

/// HIP's `hipErrorNoBinaryForGpu`: the code object is for another AMD architecture.
const HIP_ERROR_NO_BINARY_FOR_GPU: CuResult = 209;

impl Api {
    /// Loads a vendor's library; `None` when it is not installed (or lacks an entry point).
    fn load(kind: Kind) -> Option<Api> {
        match kind {
            Kind::Cuda => {
                // cudarc resolves each symbol on its first call and panics on a missing one:
                // the library and every symbol rkc calls are looked up here first.
                if !driver::cuda_present()
                    || !HipCalls::cuda_has_all()
                    || !driver::cuda_has("cuModuleLoadDataEx\0")
                    || !driver::cuda_has("cuDeviceGetAttribute\0")
                    || !driver::cuda_has("cuFuncGetAttribute\0")
                    || !driver::cuda_has("cuFuncSetAttribute\0")
                {
                    return None;
                }
                Some(Api {
                    calls: Calls::Cuda,
                    streams: HipStreamCalls::cuda_has_all().then_some(Calls::Cuda),
                    _lib: None,
                })
            }
            Kind::Hip => {
                const LIBRARIES: &[&str] = &[
                    "libamdhip64.so",
                    "libamdhip64.so.6",
                    "libamdhip64.so.7",
                    "/opt/rocm/lib/libamdhip64.so",
                ];
                // SAFETY: loading a vendor's driver library runs its initialisers, which are
                // designed to be loaded into any process. `RKC_HIP_LIBRARY` names the HIP
                // library to load instead (a ROCm outside the library path, or the test's
                // stand-in).
                let lib = unsafe {
                    match std::env::var_os("RKC_HIP_LIBRARY") {
                        Some(path) => libloading::Library::new(path).ok()?,
                        None => LIBRARIES.iter().find_map(|l| libloading::Library::new(l).ok())?,
                    }
                };
                Some(Api {
                    calls: Calls::Hip(HipCalls::load(&lib)?),
                    streams: HipStreamCalls::load(&lib).map(Calls::Hip),
                    _lib: Some(lib),
                })
            }
        }
    }

    /// The name of a call in this vendor's API, for error messages (`cuMemAlloc_v2` is
    /// `hipMalloc` in HIP).
    fn call_name(&self, cuda: &'static str) -> &'static str {
        match self.kind() {
            Kind::Cuda => cuda,
            Kind::Hip => driver::NAMES
                .iter()
                .chain(driver::STREAM_NAMES)
                .find(|(c, _)| *c == cuda)
                .map_or(cuda, |(_, h)| *h),
        }
    }

    fn kind(&self) -> Kind {
        match self.calls {
            Calls::Cuda => Kind::Cuda,
            Calls::Hip(_) => Kind::Hip,
        }
    }

    /// A zeroed word of pinned host memory mapped for the device (`cuMemHostAlloc` with
    /// `CU_MEMHOSTALLOC_DEVICEMAP` / `hipHostMalloc` with `hipHostMallocMapped`, both 2): its
    /// host pointer and device address, or `None` when the driver cannot map host memory.
    fn mapped_word(&self) -> Option<(*mut u32, u64)> {
        const MAPPED: c_uint = 2;
        let mut p: *mut c_void = std::ptr::null_mut();
        let mut address: CuDevicePtr = 0;
        // SAFETY: live out-pointers; the allocation has 4 bytes, zeroed before use.
        unsafe {
            let allocated = self.mem_host_alloc(&mut p, 4, MAPPED);
            let mapped = if allocated == CUDA_SUCCESS {
                self.host_get_device_pointer(&mut address, p, 0)
            } else {
                allocated
            };
            if allocated != CUDA_SUCCESS || mapped != CUDA_SUCCESS || p.is_null() || address == 0 {
                return None;
            }
            std::ptr::write_volatile(p.cast::<u32>(), 0);
        }
        Some((p.cast(), address))
    }

    /// A panic record in device memory holding `initial`.
    fn new_record(&self, initial: &[u8; PANIC_RECORD_BYTES]) -> Result<CuDevicePtr, OffloadError> {
        let mut record: CuDevicePtr = 0;
        // SAFETY: a live out-pointer; the copy writes PANIC_RECORD_BYTES into an allocation of
        // that size.
        unsafe {
            self.check("cuMemAlloc_v2", self.mem_alloc(&mut record, PANIC_RECORD_BYTES))?;
            self.check(
                "cuMemcpyHtoD_v2",
                self.memcpy_htod(record, initial.as_ptr().cast(), PANIC_RECORD_BYTES),
            )?;
        }
        Ok(record)
    }

    /// A print buffer in device memory, empty (see `crate::print`).
    fn new_print_buffer(&self) -> Result<CuDevicePtr, OffloadError> {
        let bytes = crate::print::buffer_bytes();
        let header = crate::print::initial_header(bytes);
        let mut buffer: CuDevicePtr = 0;
        // SAFETY: a live out-pointer; the copy writes the header into an allocation of `bytes`,
        // which is larger.
        unsafe {
            self.check("cuMemAlloc_v2", self.mem_alloc(&mut buffer, bytes))?;
            self.check(
                "cuMemcpyHtoD_v2",
                self.memcpy_htod(buffer, header.as_ptr().cast(), header.len()),
            )?;
        }
        Ok(buffer)
    }

    /// Writes out what the finished launches of `kernels` printed into `buffer`, and empties
    /// it. The caller has synchronised with those launches.
    pub(crate) fn drain_prints(
        &self,
        buffer: CuDevicePtr,
        kernels: &[&offload_binary::KernelInfo],
    ) -> Result<(), OffloadError> {
        let mut header = [0u8; crate::print::HEADER_BYTES];
        // SAFETY: the buffer has at least HEADER_BYTES bytes; its kernels have finished.
        self.check("cuMemcpyDtoH_v2", unsafe {
            self.memcpy_dtoh(header.as_mut_ptr().cast(), buffer, header.len())
        })?;
        let (bytes, lost) = crate::print::written(&header);
        if bytes == 0 && lost == 0 {
            return Ok(());
        }
        let mut records = vec![0u8; bytes];
        let empty = crate::print::initial_header(crate::print::buffer_bytes());
        // SAFETY: `written` bounds `bytes` by the buffer's usable size, after the header.
        unsafe {
            self.check(
                "cuMemcpyDtoH_v2",
                self.memcpy_dtoh(
                    records.as_mut_ptr().cast(),
                    buffer + crate::print::HEADER_BYTES as u64,
                    bytes,
                ),
            )?;
            self.check(
                "cuMemcpyHtoD_v2",
                self.memcpy_htod(buffer, empty.as_ptr().cast(), empty.len()),
            )?;
        }
        crate::print::emit(&records, lost, kernels);
        Ok(())
    }

    /// The stream entry points, or the error for a driver without them.
    fn streams(&self) -> Result<&Calls<HipStreamCalls>, OffloadError> {
        // `ok_or_else`: every queued launch asks, and the error's strings are not free.
        self.streams.as_ref().ok_or_else(|| OffloadError::InvalidLaunch {
            kernel: "(stream)".into(),
            reason:
                "the GPU driver lacks the stream API (cuStreamCreate and the asynchronous copies)"
                    .into(),
        })
    }

    /// Pinned host memory (`cuMemHostAlloc` / `hipHostMalloc` with default flags).
    fn alloc_host(&self, p: *mut *mut c_void, len: usize) -> Result<(), OffloadError> {
        // SAFETY: `p` is a live out-pointer.
        self.check("cuMemHostAlloc", unsafe { self.mem_host_alloc(p, len, 0) })
    }

    /// Turns a driver result into a typed error naming the call.
    fn check(&self, call: &'static str, code: CuResult) -> Result<(), OffloadError> {
        if code == CUDA_SUCCESS {
            return Ok(());
        }
        let text = |p: *const c_char| {
            if p.is_null() {
                "unknown error".to_string()
            } else {
                // SAFETY: the library returns a pointer to a static NUL-terminated string.
                unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
            }
        };
        let (name, message) = self.error_text(code);
        let (name, message) = (text(name), text(message));
        Err(OffloadError::Driver { call: self.call_name(call), code, name, message })
    }
}

/// The key of a kernel in `Device::launched`: the address of its metadata, which the registry
/// keeps for the life of the process.
fn launched_key(found: &Found) -> usize {
    Arc::as_ptr(&found.info) as usize
}

/// A hasher for addresses: one multiplication instead of SipHash, which `HashMap` uses to
/// resist keys chosen by an attacker (addresses of the runtime's own allocations are not).
#[derive(Default)]
struct AddressHasher(u64);

impl std::hash::Hasher for AddressHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_usize(&mut self, n: usize) {
        // Allocations are aligned: the low bits carry nothing, and the table indexes by them.
        self.0 = ((n as u64) >> 4).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
}

/// A device's properties and limits.
#[derive(Clone, Debug)]
pub(crate) struct CudaDeviceInfo {
    pub name: String,
    pub kind: Kind,
    /// `sm_90` for NVIDIA GPUs; for AMD GPUs the `gfx` architecture of the first code object
    /// the device accepted (`amdgcn` before any).
    pub arch: String,
    /// The compute capability as an `sm_XY` number (90 for an H100/H200).
    pub sm: u32,
    pub max_threads_per_block: u32,
    pub max_block_dim: [u32; 3],
    pub max_grid_dim: [u32; 3],
    /// Shared memory a workgroup has without asking (static and `dyn_cache` together).
    pub max_shared_per_block: u32,
    /// Shared memory a workgroup may have when its kernel asks the driver for more (227 KiB
    /// on sm_90): rkc asks for a launch whose `dyn_cache` goes beyond `max_shared_per_block`.
    pub max_shared_optin: u32,
}

struct Device {
    info: CudaDeviceInfo,
    /// The driver's handle, for resetting the context after a trap.
    dev: CuDevice,
    /// The kernel whose trap left the device unusable, when resetting it failed (CUDA keeps
    /// an illegal address sticky for the life of the process).
    lost: Option<String>,
    /// Which library drives it (an index into `Cuda::apis`).
    api: usize,
    context: CuContext,
    /// Loaded modules by (fat binary id, image index), and functions by module and name.
    modules: HashMap<(usize, usize), CuModule>,
    functions: HashMap<(usize, usize, String), CuFunction>,
    /// The function each kernel of a fat binary launched with, by the address of its metadata
    /// in the registry (one per kernel and fat binary, never freed): a launch's first lookup,
    /// which hashes one word instead of the kernel's name.
    launched: HashMap<usize, CuFunction, BuildHasherDefault<AddressHasher>>,
    /// The dynamic shared memory each function was allowed beyond the default limit, by the
    /// function's handle (`cuFuncSetAttribute`'s maximum, which holds until a reset).
    dynamic_shared: HashMap<usize, u32, BuildHasherDefault<AddressHasher>>,
    /// The panic record every launch on this device passes (made on the first launch, kept
    /// zeroed between launches).
    record: Option<Record>,
    /// Device buffers of finished launches, by size class, for the next launches: allocating
    /// and freeing per launch cost more than the copies for small arrays (measured on the
    /// H200, testsuite/bench/runtime-h200.md).
    pool: Vec<(usize, CuDevicePtr)>,
    /// How many times the device was reset after a trap. Memory allocated before a reset is
    /// gone with its context: a `DeviceBuffer` remembers the count it was allocated under.
    resets: u64,
}

/// A device's panic record (see `PANIC_RECORD_BYTES`).
#[derive(Clone, Copy)]
struct Record {
    /// The record in device memory, which the kernel's first panicking thread claims and fills.
    device: CuDevicePtr,
    /// Pinned host memory the record is copied into when it is read.
    host: *mut u8,
    /// A word of host memory mapped for the device, whose device address the record holds at
    /// byte 48: the panicking thread sets it, so that a launch reads one host word after the
    /// kernel instead of copying the record back (4 µs of a 12 µs launch on the H200). `None`
    /// where the driver cannot map host memory: the record is then copied back every time.
    flag: Option<*mut u32>,
    /// The record's contents between launches: zero, the flag's device address and the
    /// print buffer's.
    initial: [u8; PANIC_RECORD_BYTES],
    /// The device's print buffer, whose address the record holds at byte 56.
    print: CuDevicePtr,
    /// Pinned host memory of twice `STAGING_BYTES`: the first half for a small argument
    /// copied back (see `Cuda::launch`), the second for small arguments copied in (see
    /// `Buffers::put`); `None` where the driver would not allocate it.
    staging: Option<*mut u8>,
}

/// The largest argument a launch copies back through `Record::staging`: beyond it, the copy
/// itself outweighs the synchronisation the staging saves, and the memory is better spent.
const STAGING_BYTES: usize = 64 << 10;

// SAFETY: the pinned record pointers are only used under the device's mutex.
unsafe impl Send for Device {}

/// The GPU drivers found (CUDA, HIP) with every device they report, NVIDIA's first.
pub(crate) struct Cuda {
    apis: Vec<(Api, i32)>,
    devices: Vec<Mutex<Device>>,
    /// Each device's memory, for the device layer (see device.rs).
    gpus: Vec<Gpu>,
}

// SAFETY: the raw context, module and function handles are process-wide driver objects; every
// use happens with the device's mutex held and its context made current on the calling
// thread, which is how the driver API expects several host threads to share them.
unsafe impl Send for Cuda {}
// SAFETY: as above; shared access goes through the per-device mutexes.
unsafe impl Sync for Cuda {}

impl Cuda {
    /// Loads the drivers and enumerates devices. `Ok(None)` means no usable driver (the CPU
    /// simulator is then the default); an error means a driver that is present but failing.
    pub fn new() -> Result<Option<Cuda>, OffloadError> {
        let mut apis = Vec::new();
        let mut devices = Vec::new();
        for kind in [Kind::Cuda, Kind::Hip] {
            let Some(api) = Api::load(kind) else { continue };
            let index = apis.len();
            // SAFETY: each call below passes pointers to live locals of the types the headers give.
            unsafe {
                // cuInit/hipInit fail on machines with a driver but no GPU: that is "no GPU",
                // not an error.
                if api.init(0) != CUDA_SUCCESS {
                    continue;
                }
                let mut driver_version = 0;
                api.check("cuDriverGetVersion", api.driver_get_version(&mut driver_version))?;
                let mut count = 0;
                api.check("cuDeviceGetCount", api.device_get_count(&mut count))?;
                for ordinal in 0..count {
                    let mut dev: CuDevice = 0;
                    api.check("cuDeviceGet", api.device_get(&mut dev, ordinal))?;
                    let mut name = [0 as c_char; 256];
                    api.check("cuDeviceGetName", api.device_get_name(name.as_mut_ptr(), 256, dev))?;
                    let name = CStr::from_ptr(name.as_ptr()).to_string_lossy().into_owned();
                    let info = match kind {
                        Kind::Cuda => {
                            // Only CUDA's attributes are asked (see the HIP case below),
                            // with cudarc's names for them.
                            use sys::CUdevice_attribute as A;
                            let attr = |a: A| -> Result<u32, OffloadError> {
                                let mut v = 0;
                                api.check(
                                    "cuDeviceGetAttribute",
                                    sys::cuDeviceGetAttribute(&mut v, a, dev) as CuResult,
                                )?;
                                Ok(v.max(0) as u32)
                            };
                            let sm = attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)? * 10
                                + attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?;
                            CudaDeviceInfo {
                                name,
                                kind,
                                arch: format!("sm_{sm}"),
                                sm,
                                max_threads_per_block: attr(
                                    A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                )?,
                                max_block_dim: [
                                    attr(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)?,
                                    attr(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)?,
                                    attr(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)?,
                                ],
                                max_grid_dim: [
                                    attr(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)?,
                                    attr(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)?,
                                    attr(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)?,
                                ],
                                max_shared_per_block: attr(
                                    A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
                                )?,
                                max_shared_optin: attr(
                                    A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                                )?,
                            }
                        }
                        // HIP numbers its device attributes differently from CUDA, and the
                        // numbering has changed between ROCm releases: rkc uses the limits every
                        // AMD GPU it targets (gfx90a, gfx942, gfx1100) has, rather than guess.
                        Kind::Hip => CudaDeviceInfo {
                            name,
                            kind,
                            arch: "amdgcn".into(),
                            sm: 0,
                            max_threads_per_block: 1024,
                            max_block_dim: [1024, 1024, 1024],
                            max_grid_dim: [i32::MAX as u32, 65535, 65535],
                            max_shared_per_block: 64 * 1024,
                            max_shared_optin: 64 * 1024,
                        },
                    };
                    let mut context: CuContext = std::ptr::null_mut();
                    api.check(
                        "cuDevicePrimaryCtxRetain",
                        api.primary_ctx_retain(&mut context, dev),
                    )?;
                    devices.push(Mutex::new(Device {
                        info,
                        dev,
                        lost: None,
                        api: index,
                        context,
                        modules: HashMap::new(),
                        functions: HashMap::new(),
                        launched: HashMap::default(),
                        dynamic_shared: HashMap::default(),
                        record: None,
                        pool: Vec::new(),
                        resets: 0,
                    }));
                }
                apis.push((api, driver_version));
            }
        }
        if devices.is_empty() {
            return Ok(None);
        }
        let gpus =
            (0..devices.len()).map(|ordinal| Gpu { ordinal, epoch: AtomicU64::new(0) }).collect();
        Ok(Some(Cuda { apis, devices, gpus }))
    }

    /// A GPU, for the device layer.
    pub fn device(&self, ordinal: usize) -> Result<&Gpu, OffloadError> {
        self.gpus.get(ordinal).ok_or(OffloadError::DeviceUnavailable { device: ordinal as i32 })
    }

    /// The library that drives a device.
    fn api(&self, device: &Device) -> &Api {
        &self.apis[device.api].0
    }

    /// A device's driver, as users read it: `CUDA driver 13.0`, `HIP 6.2`.
    pub fn driver_description(&self, ordinal: usize) -> String {
        let Some(device) = self.devices.get(ordinal) else { return String::new() };
        let index = device.lock().unwrap_or_else(|e| e.into_inner()).api;
        let (api, v) = &self.apis[index];
        match api.kind() {
            Kind::Cuda => format!("CUDA driver {}.{}", v / 1000, v % 1000 / 10),
            Kind::Hip => format!("HIP {}.{}", v / 10_000_000, v / 100_000 % 100),
        }
    }

    /// Runs `f` with a device's library, its context current on this thread and its mutex
    /// held; refused on a device that an earlier trap left unusable.
    fn with_device<R>(
        &self,
        ordinal: usize,
        f: impl FnOnce(&Api, &Device) -> Result<R, OffloadError>,
    ) -> Result<R, OffloadError> {
        let device = self
            .devices
            .get(ordinal)
            .ok_or(OffloadError::DeviceUnavailable { device: ordinal as i32 })?;
        let device = device.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(trapped) = &device.lost {
            return Err(OffloadError::DeviceLost {
                device: ordinal as i32,
                kernel: "(memory operation)".into(),
                trapped: trapped.clone(),
            });
        }
        let api = self.api(&device);
        // SAFETY: the context was retained at start-up.
        api.check("cuCtxSetCurrent", unsafe { api.ctx_set_current(device.context) })?;
        f(api, &device)
    }

    /// Allocates `len` bytes (at least one) on a device: the address, and the device's reset
    /// count, which the memory lives as long as.
    pub fn alloc(&self, ordinal: usize, len: usize) -> Result<(u64, u64), OffloadError> {
        self.with_device(ordinal, |api, device| {
            let mut p: CuDevicePtr = 0;
            // SAFETY: `p` is a live local.
            api.check("cuMemAlloc_v2", unsafe { api.mem_alloc(&mut p, len.max(1)) })?;
            Ok((p, device.resets))
        })
    }

    /// For an NVIDIA device that is usable, its primary context (the one cudarc's
    /// `CudaContext::new` retains too) and its reset count, which memory allocated now lives
    /// as long as; `None` for an AMD device, a lost one or an ordinal without a device.
    pub fn nvidia_context(&self, ordinal: usize) -> Option<(CuContext, u64)> {
        let d = self.devices.get(ordinal)?.lock().unwrap_or_else(|e| e.into_inner());
        (d.info.kind == Kind::Cuda && d.lost.is_none()).then_some((d.context, d.resets))
    }

    /// Marks a device lost after a trap it cannot recover from (see `Device::lost`), also for
    /// the lock-free `Gpu::alive`.
    fn lose(&self, device: &mut Device, ordinal: usize, kernel: String) {
        device.lost = Some(kernel);
        if let Some(gpu) = self.gpus.get(ordinal) {
            gpu.epoch.store(LOST, Ordering::Release);
        }
    }

    /// Copies `len` host bytes to device memory.
    ///
    /// # Safety
    ///
    /// `host` must be readable for `len` bytes and `device_ptr` an allocation of this device
    /// with room for them.
    pub unsafe fn copy_in(
        &self,
        ordinal: usize,
        device_ptr: u64,
        host: *const u8,
        len: usize,
    ) -> Result<(), OffloadError> {
        self.with_device(ordinal, |api, _| {
            // SAFETY: the caller's promise.
            api.check("cuMemcpyHtoD_v2", unsafe { api.memcpy_htod(device_ptr, host.cast(), len) })
        })
    }

    /// Copies `len` bytes of device memory to the host.
    ///
    /// # Safety
    ///
    /// `host` must be writable for `len` bytes and `device_ptr` an allocation of this device
    /// holding them.
    pub unsafe fn copy_out(
        &self,
        ordinal: usize,
        host: *mut u8,
        device_ptr: u64,
        len: usize,
    ) -> Result<(), OffloadError> {
        self.with_device(ordinal, |api, _| {
            // SAFETY: the caller's promise.
            api.check("cuMemcpyDtoH_v2", unsafe { api.memcpy_dtoh(host.cast(), device_ptr, len) })
        })
    }

    /// Copies `len` bytes between two allocations of one device.
    ///
    /// # Safety
    ///
    /// Both must be allocations of this device with `len` bytes from the addresses given.
    pub unsafe fn copy_within(
        &self,
        ordinal: usize,
        dst: u64,
        src: u64,
        len: usize,
    ) -> Result<(), OffloadError> {
        self.with_device(ordinal, |api, _| {
            // SAFETY: the caller's promise.
            api.check("cuMemcpyDtoD_v2", unsafe { api.memcpy_dtod(dst, src, len) })
        })
    }

    /// Sets `len` bytes of device memory to zero.
    ///
    /// # Safety
    ///
    /// `device_ptr` must be an allocation of this device with `len` bytes.
    pub unsafe fn zero(
        &self,
        ordinal: usize,
        device_ptr: u64,
        len: usize,
    ) -> Result<(), OffloadError> {
        self.with_device(ordinal, |api, _| {
            // SAFETY: the caller's promise.
            api.check("cuMemsetD8_v2", unsafe { api.memset_d8(device_ptr, 0, len) })
        })
    }

    /// Frees device memory allocated under reset count `resets`; memory a reset already took
    /// is not freed again.
    pub fn free(&self, ordinal: usize, device_ptr: u64, resets: u64) {
        if let Some(device) = self.devices.get(ordinal) {
            let device = device.lock().unwrap_or_else(|e| e.into_inner());
            if device.resets != resets || device.lost.is_some() {
                return;
            }
            let api = self.api(&device);
            // SAFETY: the pointer came from `alloc` on this device, under this context, and is
            // freed once.
            unsafe {
                api.ctx_set_current(device.context);
                api.mem_free(device_ptr);
            }
        }
    }

    pub fn device_count(&self) -> usize {
        self.devices.len()
    }

    pub fn device_info(&self, ordinal: usize) -> Option<CudaDeviceInfo> {
        let d = self.devices.get(ordinal)?;
        Some(d.lock().unwrap_or_else(|e| e.into_inner()).info.clone())
    }

    /// A device locked for a launch of `found`, its context current and the kernel's function
    /// loaded; refused on a lost device and for a shape the device cannot run.
    fn prepare_launch(
        &self,
        ordinal: usize,
        found: &Found,
        config: &LaunchConfig,
    ) -> Result<(std::sync::MutexGuard<'_, Device>, CuFunction), OffloadError> {
        let Some(device) = self.devices.get(ordinal) else {
            return Err(OffloadError::DeviceUnavailable { device: ordinal as i32 });
        };
        let mut device = device.lock().unwrap_or_else(|e| e.into_inner());
        let api = &self.apis[device.api].0;
        let name = found.info.name.as_str();
        if let Some(trapped) = &device.lost {
            return Err(OffloadError::DeviceLost {
                device: ordinal as i32,
                kernel: name.into(),
                trapped: trapped.clone(),
            });
        }
        check_shape(name, config, &device.info)?;
        crate::report::info(format_args!(
            "launch {name} on {} ({}), workgroups {:?}, threads {:?}",
            device.info.name, device.info.arch, config.workgroup_dim, config.thread_dim
        ));
        // SAFETY: the context was retained at start-up and stays alive for the process.
        api.check("cuCtxSetCurrent", unsafe { api.ctx_set_current(device.context) })?;
        let function = self.function(&mut device, found)?;
        if config.dyn_cache > device.info.max_shared_per_block {
            allow_dynamic_shared(api, &mut device, function, name, config.dyn_cache)?;
        }
        Ok((device, function))
    }

    /// Launches one kernel with upstream's mapping: buffers are allocated, copied in, the
    /// kernel runs, writable buffers are copied back, and everything is freed on every path.
    pub fn launch(
        &self,
        ordinal: usize,
        found: &Found,
        mappings: &[ArgMapping],
        config: &LaunchConfig,
    ) -> Result<(), OffloadError> {
        let (mut device, function) = self.prepare_launch(ordinal, found, config)?;
        let api = &self.apis[device.api].0;
        let name = found.info.name.as_str();
        let record = self.panic_record(&mut device)?;
        let device = &mut *device;

        // Small arguments go in through the second half of the staging memory, where the
        // driver has the stream calls for it.
        let staging_in = match (record.staging, api.streams()) {
            // SAFETY: the staging memory has twice STAGING_BYTES bytes.
            (Some(staging), Ok(streams)) => {
                Some(StagingIn { base: unsafe { staging.add(STAGING_BYTES) }, used: 0, streams })
            }
            _ => None,
        };
        let mut buffers =
            Buffers { api, ptrs: Vec::new(), pool: &mut device.pool, staged: None, staging_in };
        // Arguments already on this device (resident copies, device buffers) pass their
        // address and move nothing.
        let placements =
            crate::placement::place(found, mappings, crate::home::Home::Cuda(ordinal), |l| {
                l.resets == device.resets
            })?;
        let copies_in = crate::nvtx::Range::new(|| format!("{name}: copy to device"));
        let addresses = crate::placement::map_in(found, &placements, &mut buffers)?;
        let mut storage = parameters(found, &placements, &addresses);
        drop(copies_in);
        let kernel_range = crate::nvtx::Range::new(|| format!("{name}: kernel"));
        // The panic record, zeroed: the hidden last parameter of every rkc kernel (see
        // PANIC_RECORD_BYTES).
        storage.push(record.device);
        let kernel_start = crate::report::clock();
        // SAFETY: `function` belongs to the current context; `storage` has one value per
        // kernel parameter (the signature was checked against the fat binary).
        let launched =
            unsafe { launch_kernel(api, function, config, std::ptr::null_mut(), &mut storage) };
        api.check("cuLaunchKernel", launched)?;
        // An argument copied back that fits the staging memory: its copy there is the launch's
        // synchronisation (a copy on the default stream waits for the kernel), which saves
        // the round trip of a separate synchronisation, most of what a launch on small host
        // data cost beyond hand-written copies. It reaches the host's memory only after the
        // panic check, as the mapping requires (a panicked launch copies nothing back).
        let staged = match (record.flag, record.staging) {
            (Some(_), Some(staging)) => placements.iter().enumerate().find_map(|(k, p)| match *p {
                Placement::Copy { len, writable: true, .. }
                    if len > 0
                        && len <= STAGING_BYTES
                        && crate::placement::copies_back(found, k) =>
                {
                    Some(Staged { k, len, staging })
                }
                _ => None,
            }),
            _ => None,
        };
        // The launch's synchronisation: the staged copy back; else, with the mapped flag,
        // waiting for the context; without it, the synchronous copy of the record back, which
        // waits for the kernel on the default stream too. Each reports a trap.
        let (call, synced) = match (staged, record.flag) {
            // SAFETY: the staging memory is pinned, of STAGING_BYTES ≥ `len` bytes; the device
            // buffer has `len` bytes.
            (Some(Staged { k, len, staging }), _) => {
                ("cuMemcpyDtoH_v2", unsafe { api.memcpy_dtoh(staging.cast(), addresses[k], len) })
            }
            // SAFETY: synchronising the current context has no preconditions.
            (None, Some(_)) => ("cuCtxSynchronize", unsafe { api.ctx_synchronize() }),
            // SAFETY: `record.host` is pinned memory of PANIC_RECORD_BYTES bytes, as is the
            // record.
            (None, None) => ("cuMemcpyDtoH_v2", unsafe {
                api.memcpy_dtoh(record.host.cast(), record.device, PANIC_RECORD_BYTES)
            }),
        };
        if matches!(
            synced,
            CUDA_ERROR_ILLEGAL_INSTRUCTION | CUDA_ERROR_LAUNCH_FAILED | CUDA_ERROR_ILLEGAL_ADDRESS
        ) {
            let detail = api.check(call, synced).err().map(|e| e.to_string()).unwrap_or_default();
            // The context is unusable after a trap (the driver's errors are sticky): reset the
            // device and start afresh, so that later launches work. The reset frees every
            // allocation of the context, the launch's buffers too.
            std::mem::forget(buffers);
            let recovered = self.reset(device, ordinal);
            if recovered.is_err() {
                self.lose(device, ordinal, name.to_string());
            }
            return Err(OffloadError::KernelTrapped {
                kernel: name.into(),
                detail,
                recovered: recovered.is_ok(),
            });
        }
        // The copies in are done (or failed with the synchronisation): the staging memory is
        // free again, and dropping the buffers need not wait for them.
        if let Some(s) = &mut buffers.staging_in {
            s.used = 0;
        }
        api.check(call, synced)?;
        crate::report::info(format_args!(
            "  kernel {name}: {:.3} ms (launch and synchronisation)",
            crate::report::ms_since(kernel_start)
        ));
        // SAFETY: the flag is mapped host memory of this context, which the finished kernel
        // may have written; read and cleared only here, under the device's mutex.
        let panicked = record.flag.is_none_or(|f| unsafe { std::ptr::read_volatile(f) } != 0);
        if panicked {
            if let Some(f) = record.flag {
                // SAFETY: as above.
                unsafe { std::ptr::write_volatile(f, 0) };
                // SAFETY: `record.host` is pinned memory of PANIC_RECORD_BYTES bytes, as is the
                // record; the kernel has finished.
                api.check("cuMemcpyDtoH_v2", unsafe {
                    api.memcpy_dtoh(record.host.cast(), record.device, PANIC_RECORD_BYTES)
                })?;
            }
            let mut raw = [0u8; PANIC_RECORD_BYTES];
            // SAFETY: the copy above, or the synchronising one, filled the pinned buffer.
            unsafe {
                std::ptr::copy_nonoverlapping(record.host, raw.as_mut_ptr(), PANIC_RECORD_BYTES)
            };
            if let Some(panic) = read_panic_record(&raw, found) {
                // What the kernel printed before the panic is shown, as Rust would have.
                if !found.info.print_sites.is_empty() {
                    api.drain_prints(record.print, &[&found.info])?;
                }
                // Reset the record for the next launch.
                // SAFETY: the record has PANIC_RECORD_BYTES bytes; `initial` is that long.
                api.check("cuMemcpyHtoD_v2", unsafe {
                    api.memcpy_htod(
                        record.device,
                        record.initial.as_ptr().cast(),
                        PANIC_RECORD_BYTES,
                    )
                })?;
                // A panicked launch copies nothing back: the host's data stays as it was.
                return Err(panic);
            }
        }
        if !found.info.print_sites.is_empty() {
            api.drain_prints(record.print, &[&found.info])?;
        }
        drop(kernel_range);
        let _copies_out = crate::nvtx::Range::new(|| format!("{name}: copy from device"));
        // The staged argument comes from the staging memory, the others from the device.
        buffers.staged = staged;
        crate::placement::map_back(found, &placements, &addresses, &mut buffers)?;
        drop(buffers);
        Ok(())
    }

    /// Resets a device after a trap: a fresh primary context, empty module and buffer caches,
    /// a new panic record on the next launch; data resident on the device is lost (its
    /// guards then report it).
    fn reset(&self, device: &mut Device, ordinal: usize) -> Result<(), OffloadError> {
        let api = &self.apis[device.api].0;
        device.modules.clear();
        device.functions.clear();
        device.launched.clear();
        device.dynamic_shared.clear();
        device.record = None;
        device.resets += 1;
        if let Some(gpu) = self.gpus.get(ordinal) {
            gpu.epoch.store(device.resets, Ordering::Release);
        }
        device.pool.clear();
        crate::resident_map::lose_device(crate::home::Home::Cuda(ordinal));
        let mut context: CuContext = std::ptr::null_mut();
        // SAFETY: `dev` is the driver's handle of this device; `context` is a live local.
        unsafe {
            // The reset may itself report the sticky error it clears; what matters is that
            // a context can be had and made current afterwards.
            let _ = api.ctx_set_current(std::ptr::null_mut());
            let _ = api.primary_ctx_reset(device.dev);
            api.check(
                "cuDevicePrimaryCtxRetain",
                api.primary_ctx_retain(&mut context, device.dev),
            )?;
            api.check("cuCtxSetCurrent", api.ctx_set_current(context))?;
            // A context that still fails is not recovered.
            api.check("cuCtxSynchronize", api.ctx_synchronize())?;
        }
        device.context = context;
        Ok(())
    }

    /// The device's panic record, made on first use: device memory holding zeros and the
    /// address of the mapped flag, pinned memory to read it into, and the flag.
    fn panic_record(&self, device: &mut Device) -> Result<Record, OffloadError> {
        if let Some(r) = device.record {
            return Ok(r);
        }
        let api = &self.apis[device.api].0;
        let mut host: *mut c_void = std::ptr::null_mut();
        let flag = api.mapped_word();
        let print = api.new_print_buffer()?;
        let initial = initial_record(flag.map(|(_, address)| address), Some(print));
        let record = api.new_record(&initial)?;
        api.alloc_host(&mut host, PANIC_RECORD_BYTES)?;
        let mut staging: *mut c_void = std::ptr::null_mut();
        let staging = api.alloc_host(&mut staging, 2 * STAGING_BYTES).ok().map(|()| staging.cast());
        let r = Record {
            device: record,
            host: host.cast(),
            flag: flag.map(|(f, _)| f),
            initial,
            print,
            staging,
        };
        device.record = Some(r);
        Ok(r)
    }

    /// The kernel's function on a device, loading the best image into a module when needed:
    /// for an NVIDIA GPU the cubin of its arch, of an older minor version of it, or the newest
    /// PTX it can JIT-compile (said under `OFFLOAD_INFO`: it costs time at the first launch,
    /// and a cubin for the GPU would avoid it); for an AMD
    /// GPU the first code object HIP accepts (HIP rejects those of other architectures).
    fn function(&self, device: &mut Device, found: &Found) -> Result<CuFunction, OffloadError> {
        // A kernel launched before: its function, without choosing its image again.
        if let Some(&f) = device.launched.get(&launched_key(found)) {
            return Ok(f);
        }
        let api = &self.apis[device.api].0;
        let name = &found.info.name;
        let fatbin = &found.fatbin;
        let candidates: Vec<usize> = match device.info.kind {
            Kind::Cuda => fatbin
                .best_nvidia_image(name, device.info.sm)
                .and_then(|image| fatbin.images.iter().position(|i| std::ptr::eq(i, image)))
                .into_iter()
                .collect(),
            Kind::Hip => fatbin.amd_images(name),
        };
        let no_image = || OffloadError::NoImageForDevice {
            kernel: name.clone(),
            device: device.info.name.clone(),
            arch: device.info.arch.clone(),
            available: fatbin.describe_images(),
        };
        if candidates.is_empty() {
            return Err(no_image());
        }
        for &index in &candidates {
            if let Some(f) = device.functions.get(&(fatbin.id, index, name.clone())) {
                return Ok(*f);
            }
        }
        for &index in &candidates {
            let image = &fatbin.images[index];
            let module = match device.modules.get(&(fatbin.id, index)) {
                Some(m) => *m,
                None => {
                    // PTX is text the driver JIT-compiles and must end with a NUL.
                    let mut bytes = image.bytes.clone();
                    bytes.push(0);
                    let mut log = vec![0u8; 8192];
                    let mut options = [JIT_ERROR_LOG_BUFFER, JIT_ERROR_LOG_BUFFER_SIZE_BYTES];
                    let mut values = [log.as_mut_ptr().cast::<c_void>(), log.len() as *mut c_void];
                    // HIP's code objects are not JIT-compiled: no options.
                    let n_options =
                        if device.info.kind == Kind::Cuda { options.len() as c_uint } else { 0 };
                    let mut module: CuModule = std::ptr::null_mut();
                    // SAFETY: `bytes` is a cubin, NUL-terminated PTX or a code object; the JIT
                    // options point at a log buffer of the size given, alive for the call.
                    let r = unsafe {
                        api.module_load_data_ex(
                            &mut module,
                            bytes.as_ptr().cast(),
                            n_options,
                            options.as_mut_ptr(),
                            values.as_mut_ptr(),
                        )
                    };
                    if device.info.kind == Kind::Hip && r == HIP_ERROR_NO_BINARY_FOR_GPU {
                        continue;
                    }
                    if let Err(OffloadError::Driver { call, code, name, message }) =
                        api.check("cuModuleLoadDataEx", r)
                    {
                        let log = String::from_utf8_lossy(
                            &log[..log.iter().position(|&b| b == 0).unwrap_or(0)],
                        )
                        .into_owned();
                        return Err(OffloadError::Driver {
                            call,
                            code,
                            name,
                            message: if log.is_empty() {
                                message
                            } else {
                                format!("{message}: {log}")
                            },
                        });
                    }
                    if device.info.kind == Kind::Hip {
                        device.info.arch = image.arch().to_string();
                    } else if image.image_kind == offload_binary::ImageKind::Ptx {
                        crate::report::info(format_args!(
                            "{}: the fat binary has no cubin for {} ({}); the driver compiled the {} PTX",
                            name,
                            device.info.name,
                            device.info.arch,
                            image.arch()
                        ));
                    } else if image.arch() != device.info.arch {
                        crate::report::info(format_args!(
                            "{}: {} ({}) runs the {} cubin (binary compatible within its major version)",
                            name,
                            device.info.name,
                            device.info.arch,
                            image.arch()
                        ));
                    }
                    device.modules.insert((fatbin.id, index), module);
                    module
                }
            };
            let cname = CString::new(name.as_str())
                .map_err(|_| OffloadError::KernelNotFound { kernel: name.clone() })?;
            let mut function: CuFunction = std::ptr::null_mut();
            // SAFETY: `module` is a loaded module of the current context; `cname` is NUL-terminated.
            api.check("cuModuleGetFunction", unsafe {
                api.module_get_function(&mut function, module, cname.as_ptr())
            })?;
            device.functions.insert((fatbin.id, index, name.clone()), function);
            device.launched.insert(launched_key(found), function);
            return Ok(function);
        }
        Err(no_image())
    }
}

/// The parameter values of a launch: each placement's value, or its address on the device
/// (`addresses`, from `placement::map_in`), a slice's followed by its length in elements;
/// with room for the panic record after them.
pub(crate) fn parameters(found: &Found, placements: &[Placement], addresses: &[u64]) -> Vec<u64> {
    // At most two slots per argument (a slice's address and length), and the record's.
    let mut storage: Vec<u64> = Vec::with_capacity(2 * placements.len() + 1);
    parameters_into(found, placements, addresses, &mut storage);
    storage
}

/// `parameters` into `storage` (cleared first), for a caller that keeps the vector between
/// launches.
pub(crate) fn parameters_into(
    found: &Found,
    placements: &[Placement],
    addresses: &[u64],
    storage: &mut Vec<u64>,
) {
    storage.clear();
    for (k, placement) in placements.iter().enumerate() {
        let len = match *placement {
            Placement::Value(bits) => {
                storage.push(bits);
                continue;
            }
            Placement::OnDevice { len, .. } | Placement::Copy { len, .. } => len,
        };
        storage.push(addresses[k]);
        if let Some(offload_binary::ParamKind::Slice { elem_size, .. }) =
            found.info.params.get(k).map(|p| p.kind)
        {
            storage.push(len as u64 / elem_size.max(1));
        }
    }
}

/// `cuLaunchKernel` of `function` with the launch's shape on `stream` (null: the default
/// stream), its parameters the values in `storage`. The driver reads each parameter through
/// a pointer to its value; values narrower than 8 bytes sit in the low bytes of their u64,
/// which is where a little-endian pointer to the u64 finds them.
///
/// # Safety
///
/// `function` must belong to the current context and `storage` hold one value per parameter
/// of the kernel, in order (the panic record last).
unsafe fn launch_kernel(
    api: &Api,
    function: CuFunction,
    config: &LaunchConfig,
    stream: CuStream,
    storage: &mut [u64],
) -> CuResult {
    // A pointer to each value; on the stack for the usual number of parameters (a launch
    // allocates nothing here), in a vector beyond it.
    let mut on_stack = [std::ptr::null_mut::<c_void>(); 32];
    let mut on_heap = Vec::new();
    let params: &mut [*mut c_void] = if storage.len() <= on_stack.len() {
        &mut on_stack[..storage.len()]
    } else {
        on_heap.resize(storage.len(), std::ptr::null_mut());
        &mut on_heap
    };
    for (p, v) in params.iter_mut().zip(storage.iter_mut()) {
        *p = (v as *mut u64).cast();
    }
    let [gx, gy, gz] = config.workgroup_dim;
    let [bx, by, bz] = config.thread_dim;
    // SAFETY: the caller's promise; the driver copies the values before returning.
    unsafe {
        api.launch_kernel(
            function,
            gx,
            gy,
            gz,
            bx,
            by,
            bz,
            config.dyn_cache,
            stream,
            params.as_mut_ptr(),
            std::ptr::null_mut(),
        )
    }
}

/// Device buffers of one launch, freed when dropped (also when the launch fails half-way).
struct Buffers<'a> {
    api: &'a Api,
    ptrs: Vec<(usize, CuDevicePtr)>,
    /// The device's free buffers by size class (see `size_class`).
    pool: &'a mut Vec<(usize, CuDevicePtr)>,
    /// The argument whose copy back already sits in the staging memory, once the launch's
    /// synchronisation has put it there.
    staged: Option<Staged>,
    /// Where small arguments are copied in from, when the launch has it.
    staging_in: Option<StagingIn<'a>>,
}

/// Pinned memory for copies in: a synchronous copy from pageable memory costs a round trip
/// to the GPU per argument, where a copy into pinned memory and an asynchronous copy from
/// there on the default stream costs none. Each launch's copies in take the memory from its
/// start; the launch's own synchronisation (every launch that gets as far as its kernel ends
/// with one, before the next can start: the device's mutex is held throughout) is also
/// theirs, and sets `used` back to 0. A launch that fails before it (a later argument's
/// allocation, the launch call itself) leaves copies in flight: dropping its `Buffers`
/// waits for them, so that the next launch neither overwrites the staging memory under a
/// copy nor reuses a pooled buffer a copy is still writing.
struct StagingIn<'a> {
    base: *mut u8,
    used: usize,
    streams: &'a Calls<HipStreamCalls>,
}

/// An argument copied back into `Record::staging` by the launch's synchronising copy: its
/// index, its length, and the staging memory.
#[derive(Clone, Copy)]
struct Staged {
    k: usize,
    len: usize,
    staging: *mut u8,
}

/// Buffers up to 64 MiB are pooled in power-of-two size classes (at least 256 bytes);
/// larger ones are allocated at their size and freed after the launch, where the
/// allocation's cost is small against the copies.
const POOLED_MAX: usize = 64 << 20;
/// The most the pool keeps per device between launches.
const POOL_LIMIT: usize = 256 << 20;

fn size_class(len: usize) -> usize {
    if len > POOLED_MAX { len } else { len.max(256).next_power_of_two() }
}

impl Buffers<'_> {
    fn alloc(&mut self, len: usize) -> Result<CuDevicePtr, OffloadError> {
        let class = size_class(len);
        if let Some(k) = self.pool.iter().position(|(c, _)| *c == class) {
            let (_, p) = self.pool.swap_remove(k);
            self.ptrs.push((class, p));
            return Ok(p);
        }
        let mut p: CuDevicePtr = 0;
        // SAFETY: `p` is a live local; a zero-byte request is rounded up to 256 bytes.
        self.api.check("cuMemAlloc_v2", unsafe { self.api.mem_alloc(&mut p, class) })?;
        self.ptrs.push((class, p));
        Ok(p)
    }
}

impl crate::placement::ArgumentMemory for Buffers<'_> {
    unsafe fn put(
        &mut self,
        _: usize,
        host: *mut u8,
        len: usize,
        copy_in: bool,
    ) -> Result<u64, OffloadError> {
        let address = self.alloc(len)?;
        if !copy_in {
            return Ok(address);
        }
        if let Some(s) = &mut self.staging_in
            && s.used + len <= STAGING_BYTES
        {
            // SAFETY: `[used, used + len)` of the STAGING_BYTES of pinned memory at `base` is
            // free (see `StagingIn`); `host` has `len` readable bytes (the caller's promise).
            let at = unsafe { s.base.add(s.used) };
            unsafe { std::ptr::copy_nonoverlapping(host, at, len) };
            // Each argument's part 16-byte aligned, as the driver copies fastest.
            s.used += len.next_multiple_of(16);
            // SAFETY: the pinned source stays untouched until the launch's synchronisation;
            // the buffer was allocated with at least `len` bytes.
            return self
                .api
                .check("cuMemcpyHtoDAsync_v2", unsafe {
                    s.streams.memcpy_htod_async(address, at.cast(), len, std::ptr::null_mut())
                })
                .map(|()| address);
        }
        // SAFETY: `host` has `len` readable bytes (the caller's promise); the buffer was
        // allocated with at least `len`.
        self.api
            .check("cuMemcpyHtoD_v2", unsafe { self.api.memcpy_htod(address, host.cast(), len) })?;
        Ok(address)
    }

    unsafe fn take(
        &mut self,
        k: usize,
        host: *mut u8,
        address: u64,
        len: usize,
    ) -> Result<(), OffloadError> {
        if let Some(staged) = self.staged
            && staged.k == k
        {
            // SAFETY: the synchronising copy put the argument's `len` bytes in the staging
            // memory; `host` is writable for `len` bytes (the caller's promise), apart from it.
            unsafe { std::ptr::copy_nonoverlapping(staged.staging, host, len) };
            return Ok(());
        }
        // SAFETY: the caller's promise: `host` is writable for `len` bytes, which the buffer
        // at `address` holds.
        self.api
            .check("cuMemcpyDtoH_v2", unsafe { self.api.memcpy_dtoh(host.cast(), address, len) })
    }
}

impl Drop for Buffers<'_> {
    fn drop(&mut self) {
        if self.staging_in.as_ref().is_some_and(|s| s.used > 0) {
            // The launch failed before its synchronisation (see `StagingIn`). An error here
            // is the launch's own, already reported by the call that failed.
            // SAFETY: synchronising the current context has no preconditions.
            let _ = unsafe { self.api.ctx_synchronize() };
        }
        for (class, p) in self.ptrs.drain(..) {
            let pooled: usize = self.pool.iter().map(|(c, _)| c).sum();
            if class <= POOLED_MAX && pooled + class <= POOL_LIMIT {
                self.pool.push((class, p));
                continue;
            }
            // SAFETY: each pointer came from cuMemAlloc in this context and is freed once.
            unsafe {
                self.api.mem_free(p);
            }
        }
    }
}

/// One GPU, for the device layer (device.rs): the calls of `Cuda` on this device.
pub(crate) struct Gpu {
    ordinal: usize,
    /// The device's reset count (`Device::resets`), or `LOST` once it is lost: kept here too,
    /// where checking a buffer before a launch reads it without the device's mutex (a queued
    /// launch checks each of its device buffers).
    epoch: AtomicU64,
}

/// `Gpu::epoch` of a device that is lost: never a reset count.
const LOST: u64 = u64::MAX;

impl crate::device::Device for Gpu {
    fn launch(&self, l: &crate::device::Launch<'_>) -> Result<(), OffloadError> {
        crate::runtime::cuda()?.launch(self.ordinal, l.found, l.mappings, l.config)
    }
}

impl crate::device::DeviceMemory for Gpu {
    fn alloc(&'static self, bytes: usize) -> Result<Allocation, OffloadError> {
        let (address, resets) = crate::runtime::cuda()?.alloc(self.ordinal, bytes)?;
        Ok(Allocation::new(self, address, resets))
    }

    unsafe fn free(&self, address: u64, resets: u64) {
        if let Ok(cuda) = crate::runtime::cuda() {
            cuda.free(self.ordinal, address, resets);
        }
    }

    fn alive(&self, resets: u64) -> bool {
        self.epoch.load(Ordering::Acquire) == resets
    }

    unsafe fn upload(&self, to: u64, from: *const u8, bytes: usize) -> Result<(), OffloadError> {
        // SAFETY: the caller's promise.
        unsafe { crate::runtime::cuda()?.copy_in(self.ordinal, to, from, bytes) }
    }

    unsafe fn download(&self, to: *mut u8, from: u64, bytes: usize) -> Result<(), OffloadError> {
        // SAFETY: the caller's promise.
        unsafe { crate::runtime::cuda()?.copy_out(self.ordinal, to, from, bytes) }
    }

    unsafe fn copy_within(&self, to: u64, from: u64, bytes: usize) -> Result<(), OffloadError> {
        // SAFETY: the caller's promise.
        unsafe { crate::runtime::cuda()?.copy_within(self.ordinal, to, from, bytes) }
    }

    unsafe fn zero(&self, to: u64, bytes: usize) -> Result<(), OffloadError> {
        // SAFETY: the caller's promise.
        unsafe { crate::runtime::cuda()?.zero(self.ordinal, to, bytes) }
    }

    fn alloc_pinned(&'static self, bytes: usize) -> Result<PinnedAllocation, OffloadError> {
        let ptr = crate::runtime::cuda()?.pinned_alloc(self.ordinal, bytes)?;
        // SAFETY: the driver's page-locked memory has `bytes` (at least one) writable bytes.
        unsafe { std::ptr::write_bytes(ptr, 0, bytes) };
        Ok(PinnedAllocation::new(self, ptr))
    }

    unsafe fn free_pinned(&self, ptr: *mut u8) {
        if let Ok(cuda) = crate::runtime::cuda() {
            cuda.pinned_free(self.ordinal, ptr);
        }
    }
}

/// The size of a kernel's panic record: a claim flag, the site number, block and thread
/// indices (u32 words 0..8), two u64 values (bytes 32..48), the device address of a word of
/// mapped host memory the panicking thread sets to 1 (bytes 48..56; 0 for none), and the
/// device address of the launch's print buffer (bytes 56..64; 0 for none, see
/// `crate::print`). Prints read it from here so that kernels keep one hidden parameter.
pub(crate) const PANIC_RECORD_BYTES: usize = 64;

/// A panic record's contents between launches: zero, at byte 48 the device address of the
/// mapped flag the panicking thread sets, at byte 56 the print buffer's (0 for none).
pub(crate) fn initial_record(
    flag_address: Option<u64>,
    print_address: Option<u64>,
) -> [u8; PANIC_RECORD_BYTES] {
    let mut initial = [0u8; PANIC_RECORD_BYTES];
    initial[48..56].copy_from_slice(&flag_address.unwrap_or(0).to_le_bytes());
    initial[56..64].copy_from_slice(&print_address.unwrap_or(0).to_le_bytes());
    initial
}

/// Turns a filled panic record into the panic it describes, with Rust's message.
pub(crate) fn read_panic_record(
    raw: &[u8; PANIC_RECORD_BYTES],
    found: &Found,
) -> Option<OffloadError> {
    let word =
        |k: usize| u32::from_le_bytes([raw[4 * k], raw[4 * k + 1], raw[4 * k + 2], raw[4 * k + 3]]);
    let wide = |k: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&raw[32 + 8 * k..40 + 8 * k]);
        u64::from_le_bytes(b)
    };
    if word(0) == 0 {
        return None;
    }
    let info = &found.info;
    let site = info.panic_sites.get(word(1) as usize);
    let message = site.map_or_else(
        || format!("panic site {} (not in the fat binary's metadata)", word(1)),
        |s| s.message_with(wide(0), wide(1)),
    );
    let location = site.map_or(String::new(), |s| format!("{}:{}:{}", info.source, s.line, s.col));
    Some(OffloadError::KernelPanic {
        kernel: info.name.clone(),
        message,
        location,
        block: [word(2), word(3), word(4)],
        thread: [word(5), word(6), word(7)],
    })
}
