//! The device layer: what the runtime asks of a device, behind two traits with one
//! implementation per kind of device: [`DeviceMemory`] (allocation and copies) and [`Device`]
//! (launches). A GPU (`cuda::Gpu`, through the CUDA driver or HIP) has the driver's memory and
//! launches through it; the host CPU ([`Cpu`], one per simulated device) has host memory, on
//! which it runs kernels in the fat binary's host image or on the simulator. Typed buffers
//! (buffer.rs), resident copies (resident.rs), pinned buffers (stream.rs) and launches go
//! through `Home::memory` and `Home::device` (in runtime.rs, where the devices are known) and
//! never ask which kind of device they are on. The copies of one launch's arguments go through
//! `placement::ArgumentMemory` instead, which each backend implements for the buffers it keeps
//! for that launch (a GPU's come from a pool; a host image's are the host's own data).
//!
//! The implementations of `Device` live with their backends (cuda.rs, runtime.rs), above this
//! layer: a launch needs the backend's code, which itself uses the memory traits.

use crate::LaunchConfig;
use crate::args::ArgMapping;
use crate::error::OffloadError;
use crate::host_memory::HostBlock;
use crate::registry::Found;

/// A device that runs kernels, with its memory.
pub(crate) trait Device: DeviceMemory {
    /// Runs one launch with upstream's mapping: the arguments are placed on the device (or
    /// found there already), the kernel runs, the writable ones come back, and the launch's
    /// own memory is freed on every path.
    fn launch(&self, launch: &Launch<'_>) -> Result<(), OffloadError>;
}

/// What a launch asks of a device: the kernel as the fat binary describes it, its arguments'
/// mappings and the launch's shape; and, for the simulator, the kernel's Rust body with the
/// arguments it takes.
pub(crate) struct Launch<'a> {
    pub found: &'a Found,
    pub mappings: &'a [ArgMapping],
    pub config: &'a LaunchConfig,
    /// `None` where the launch has no Rust type for the kernel (`launch_raw`): then only a GPU
    /// or the host image can run it.
    pub body: Option<&'a dyn HostBody>,
}

/// A kernel's body as rustc compiled it for the host, with the launch's arguments: what the
/// simulator runs for each simulated thread. The kernel's and the arguments' types are erased
/// here, so that a launch reaches the simulator through a `dyn Device`.
pub(crate) trait HostBody {
    /// Calls `run` with the function that runs the simulated thread at the current position,
    /// its parameters made from the addresses the mapping gave the arguments.
    fn run_with(
        &self,
        addresses: &[u64],
        run: &mut dyn FnMut(&(dyn Fn() + Sync)) -> Result<(), OffloadError>,
    ) -> Result<(), OffloadError>;
}

/// A device's memory: allocation, the copies in, out and within, zeroing, and whether a reset
/// took memory allocated earlier.
///
/// Addresses are the device's, as kernels see them; on the CPU they are host addresses.
pub(crate) trait DeviceMemory: Sync {
    /// `bytes` bytes (at least one) of device memory, freed when the allocation drops. Its
    /// contents are unspecified: the CPU's memory is zeroed, a GPU's is not.
    fn alloc(&'static self, bytes: usize) -> Result<Allocation, OffloadError>;

    /// `bytes` zeroed bytes (at least one) of device memory, freed when the allocation drops.
    fn alloc_zeroed(&'static self, bytes: usize) -> Result<Allocation, OffloadError> {
        let allocation = self.alloc(bytes)?;
        // SAFETY: the allocation has `bytes` bytes.
        unsafe { self.zero(allocation.address, bytes)? };
        Ok(allocation)
    }

    /// Frees memory from `alloc` made under reset count `resets`; memory a reset already
    /// took is not freed again.
    ///
    /// # Safety
    ///
    /// `address` must come from this device's `alloc` and be freed once, by its
    /// `Allocation`.
    unsafe fn free(&self, address: u64, resets: u64);

    /// Whether memory allocated under reset count `resets` is still the device's.
    fn alive(&self, resets: u64) -> bool;

    /// Copies `bytes` host bytes at `from` to device memory at `to`.
    ///
    /// # Safety
    ///
    /// `from` must be readable for `bytes` bytes, `to` device memory of this device with room
    /// for them, the two apart.
    unsafe fn upload(&self, to: u64, from: *const u8, bytes: usize) -> Result<(), OffloadError>;

    /// Copies `bytes` bytes of device memory at `from` to the host at `to`.
    ///
    /// # Safety
    ///
    /// `to` must be writable for `bytes` bytes, `from` device memory of this device holding
    /// them, the two apart.
    unsafe fn download(&self, to: *mut u8, from: u64, bytes: usize) -> Result<(), OffloadError>;

    /// Copies `bytes` bytes between two non-overlapping ranges of this device's memory.
    ///
    /// # Safety
    ///
    /// Both ranges must be device memory of this device with `bytes` bytes, apart.
    unsafe fn copy_within(&self, to: u64, from: u64, bytes: usize) -> Result<(), OffloadError>;

    /// Sets `bytes` bytes of device memory to zero.
    ///
    /// # Safety
    ///
    /// `to` must be device memory of this device with `bytes` bytes.
    unsafe fn zero(&self, to: u64, bytes: usize) -> Result<(), OffloadError>;

    /// `bytes` zeroed bytes (at least one) of host memory that this device's copies read and
    /// write directly (page-locked for a GPU), 16-byte aligned, freed when dropped.
    fn alloc_pinned(&'static self, bytes: usize) -> Result<PinnedAllocation, OffloadError>;

    /// Frees memory from `alloc_pinned`.
    ///
    /// # Safety
    ///
    /// `ptr` must come from this device's `alloc_pinned` and be freed once, by its
    /// `PinnedAllocation`.
    unsafe fn free_pinned(&self, ptr: *mut u8);
}

/// Device memory, freed when dropped (a GPU's only while no reset has taken it).
pub(crate) struct Allocation {
    pub(crate) address: u64,
    /// The device's reset count when the memory was allocated.
    pub(crate) resets: u64,
    memory: &'static dyn DeviceMemory,
    /// The CPU's memory, which `address` points into (a GPU's is the driver's).
    _host: Option<HostBlock>,
}

impl Allocation {
    /// Memory that `memory`'s `free` gives back, made under reset count `resets`.
    pub(crate) fn new(memory: &'static dyn DeviceMemory, address: u64, resets: u64) -> Self {
        Allocation { address, resets, memory, _host: None }
    }
}

impl Drop for Allocation {
    fn drop(&mut self) {
        // SAFETY: the address came from this device's `alloc`, and only this value frees it.
        unsafe { self.memory.free(self.address, self.resets) };
    }
}

/// Host memory for a device's copies (see [`DeviceMemory::alloc_pinned`]), freed when
/// dropped.
pub(crate) struct PinnedAllocation {
    pub(crate) ptr: *mut u8,
    memory: &'static dyn DeviceMemory,
    /// The CPU's memory, which `ptr` points into (a GPU's is the driver's).
    _host: Option<HostBlock>,
}

// SAFETY: the allocation owns plain host memory, like a `Box<[u8]>`.
unsafe impl Send for PinnedAllocation {}
// SAFETY: as above; shared references hand out only the address.
unsafe impl Sync for PinnedAllocation {}

impl PinnedAllocation {
    /// Memory that `memory`'s `free_pinned` gives back.
    pub(crate) fn new(memory: &'static dyn DeviceMemory, ptr: *mut u8) -> Self {
        PinnedAllocation { ptr, memory, _host: None }
    }
}

impl Drop for PinnedAllocation {
    fn drop(&mut self) {
        // SAFETY: the pointer came from this device's `alloc_pinned`, freed only here.
        unsafe { self.memory.free_pinned(self.ptr) };
    }
}

/// The host's CPU as device `index` (of `OFFLOAD_SIM_DEVICES` simulated devices; 0 without).
/// Every one of them has the host's memory.
pub(crate) struct Cpu {
    pub index: usize,
}

impl DeviceMemory for Cpu {
    fn alloc(&'static self, bytes: usize) -> Result<Allocation, OffloadError> {
        let mut block = HostBlock::zeroed(bytes)?;
        let address = block.as_mut_ptr() as usize as u64;
        Ok(Allocation { address, resets: 0, memory: self, _host: Some(block) })
    }

    fn alloc_zeroed(&'static self, bytes: usize) -> Result<Allocation, OffloadError> {
        // Host blocks start zeroed (a large one lazily, page by page as it is first touched,
        // which writing zeros would defeat).
        self.alloc(bytes)
    }

    unsafe fn free(&self, _: u64, _: u64) {
        // The allocation's `HostBlock` frees the memory.
    }

    fn alive(&self, _: u64) -> bool {
        // Nothing resets the host's memory.
        true
    }

    unsafe fn upload(&self, to: u64, from: *const u8, bytes: usize) -> Result<(), OffloadError> {
        // SAFETY: the caller's promise: `from` is readable and `to` writable for `bytes` bytes,
        // apart.
        unsafe { std::ptr::copy_nonoverlapping(from, to as usize as *mut u8, bytes) };
        Ok(())
    }

    unsafe fn download(&self, to: *mut u8, from: u64, bytes: usize) -> Result<(), OffloadError> {
        // SAFETY: as above.
        unsafe { std::ptr::copy_nonoverlapping(from as usize as *const u8, to, bytes) };
        Ok(())
    }

    unsafe fn copy_within(&self, to: u64, from: u64, bytes: usize) -> Result<(), OffloadError> {
        // SAFETY: as above.
        unsafe {
            std::ptr::copy_nonoverlapping(from as usize as *const u8, to as usize as *mut u8, bytes)
        };
        Ok(())
    }

    unsafe fn zero(&self, to: u64, bytes: usize) -> Result<(), OffloadError> {
        // SAFETY: the caller's promise: `to` is writable for `bytes` bytes.
        unsafe { std::ptr::write_bytes(to as usize as *mut u8, 0, bytes) };
        Ok(())
    }

    fn alloc_pinned(&'static self, bytes: usize) -> Result<PinnedAllocation, OffloadError> {
        let mut block = HostBlock::zeroed(bytes)?;
        Ok(PinnedAllocation { ptr: block.as_mut_ptr(), memory: self, _host: Some(block) })
    }

    unsafe fn free_pinned(&self, _: *mut u8) {
        // The allocation's `HostBlock` frees the memory.
    }
}
