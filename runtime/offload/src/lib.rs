//! rkc's host library: `offload!` as upstream Rust's `core::offload` specifies it, on an NVIDIA
//! GPU through the CUDA driver (loaded at run time; nothing from CUDA is needed to build) or,
//! when there is no GPU, on a CPU simulator that keeps the GPU's contract.
//!
//! ```ignore
//! use rkc_offload::prelude::*;
//!
//! #[offload_kernel]
//! fn kernel(x: *mut [f64; 256]) {
//!     // SAFETY: calling our arch functions and dereferencing a raw pointer is unsafe
//!     unsafe {
//!         let n = (*x).len();
//!         let i = (thread_idx_x() + block_idx_x() * block_dim_x()) as usize;
//!         if i < n {
//!             (*x)[i] = i as f64;
//!         }
//!     }
//! }
//!
//! rkc_offload::register_fatbin(std::fs::read("kernels.fatbin")?)?;
//! let mut x = [0.0f64; 256];
//! offload! {
//!     kernel = kernel,
//!     workgroup_dim = [256, 1, 1],
//!     args = (&mut x as *mut [f64; 256],),
//! }
//! ```
//!
//! # Argument mapping
//!
//! Per launch, as upstream maps: scalars by value; arrays and structs by value copied in
//! (a struct derives [`DeviceCopy`]); `*const T` copied in (`size_of::<T>()` bytes); `*mut T`
//! copied in and back. rkc also accepts a slice where the
//! kernel takes a pointer (`&[T]` for `*const T`, `&mut [T]` for `*mut T`): the whole slice is
//! mapped and the kernel gets a pointer to its first element. The compiler's access facts in
//! the fat binary refine the copies: data a kernel never writes is not copied back.
//!
//! # Devices
//!
//! The default device is the first GPU; with none, the CPU simulator.
//! `OFFLOAD_TARGET=mandatory|disabled|default` has the meaning of OpenMP's
//! `OMP_TARGET_OFFLOAD`: `mandatory` makes a missing GPU an error, `disabled` always uses the
//! simulator. With no GPU, `OFFLOAD_SIM_DEVICES=n` makes the simulator count as `n` devices,
//! so that code for several devices runs anywhere.

/// The user guide (docs/guide.md), kept here so that every code block in it is compiled and
/// run by the test suite.
#[doc = include_str!("../../../docs/guide.md")]
pub mod guide {}

mod args;
pub mod builtins;
mod cuda;
mod error;
mod registry;
mod resident;
mod runtime;
mod sim;

pub use args::{ArgMapping, DeviceCopy, IntoArgs, KernelArg};
pub use builtins::*;
pub use error::OffloadError;
pub use registry::register_fatbin;
pub use resident::{Preload, PreloadMut, offload_sync, preload, preload_mut, try_preload, try_preload_mut, try_preload_mut_on, try_preload_on};
pub use rkc_offload_macros::{DeviceCopy, offload, offload_kernel, try_offload};
pub use runtime::{Backend, DeviceInfo, RawArg, default_device, devices, launch_raw, offload_get_num_devices, transfer_totals};
pub use sim::simulate_raw;

/// What `#[offload_kernel]` generates for each kernel: the host's view of it, checked at
/// launch against the fat binary's metadata.
pub trait Kernel {
    /// The kernel's name, as in the fat binary.
    const NAME: &'static str;
    /// The signature as the compiler spells it, e.g. `saxpy(usize, f32, *const f32, *mut f32)`.
    const SIGNATURE: &'static str;
    /// The parameter types, as a tuple.
    type Params: Copy;
    /// Runs the kernel body for one thread on the host (the CPU simulator).
    fn run_on_host(params: Self::Params);
    /// [`Kernel::run_on_host`] with the parameters given as raw 64-bit values (see
    /// [`FromRawArg`]). Used by differential tests that drive every kernel the same way.
    fn run_raw(args: &[u64]);
}

/// A kernel parameter type that can be rebuilt from raw 64-bit arguments (see
/// [`Kernel::run_raw`]): one for a scalar (its bits, zero-extended) or a pointer (its
/// address), two for a slice (address, length in elements).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a kernel parameter",
    label = "not a scalar, pointer, slice or `DeviceCopy` value",
    note = "a struct taken by value needs `#[repr(C)]` and `#[derive(Clone, Copy, DeviceCopy)]`"
)]
pub trait FromRawArg: Copy {
    fn from_raw_args(args: &mut dyn Iterator<Item = u64>) -> Self;
}

/// A value parameter: a scalar's bits zero-extended, or an aggregate's address (it was
/// copied to a buffer, as on a device).
impl<T: DeviceCopy> FromRawArg for T {
    fn from_raw_args(args: &mut dyn Iterator<Item = u64>) -> Self {
        let raw = args.next().unwrap_or(0);
        if T::IN_PARAMETER && size_of::<T>() <= 8 {
            let bytes = raw.to_le_bytes();
            // SAFETY: a scalar is its low `size_of::<T>()` bytes, and the harness passes the
            // bits of a valid value (a `bool` as 0 or 1).
            unsafe { std::ptr::read_unaligned(bytes.as_ptr().cast::<T>()) }
        } else {
            // SAFETY: for an aggregate the harness passes the address of a buffer holding a
            // valid value of `T`.
            unsafe { std::ptr::read_unaligned(raw as usize as *const T) }
        }
    }
}

impl<T> FromRawArg for *const T {
    fn from_raw_args(args: &mut dyn Iterator<Item = u64>) -> Self {
        args.next().unwrap_or(0) as usize as *const T
    }
}

impl<T> FromRawArg for *mut T {
    fn from_raw_args(args: &mut dyn Iterator<Item = u64>) -> Self {
        args.next().unwrap_or(0) as usize as *mut T
    }
}

impl<T> FromRawArg for *const [T] {
    fn from_raw_args(args: &mut dyn Iterator<Item = u64>) -> Self {
        let (address, len) = (args.next().unwrap_or(0), args.next().unwrap_or(0));
        std::ptr::slice_from_raw_parts(address as usize as *const T, len as usize)
    }
}

impl<T> FromRawArg for *mut [T] {
    fn from_raw_args(args: &mut dyn Iterator<Item = u64>) -> Self {
        let (address, len) = (args.next().unwrap_or(0), args.next().unwrap_or(0));
        std::ptr::slice_from_raw_parts_mut(address as usize as *mut T, len as usize)
    }
}

/// The launch shape and device of one `offload!`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchConfig {
    /// Number of workgroups (blocks) in x, y, z.
    pub workgroup_dim: [u32; 3],
    /// Threads per workgroup in x, y, z.
    pub thread_dim: [u32; 3],
    /// Bytes of dynamic shared memory.
    pub dyn_cache: u32,
    /// The device index; `None` for the default device.
    pub device: Option<i32>,
}

/// Embeds the fat binary that `rkc_build::Build::compile(name)` wrote to `OUT_DIR` and
/// registers it: `rkc_offload::include_fatbin!("kernels")?;`.
#[macro_export]
macro_rules! include_fatbin {
    ($name:literal) => {
        $crate::register_fatbin(include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".fatbin")).as_slice())
    };
}

/// Everything a kernel file needs: the macros and the builtins.
pub mod prelude {
    pub use crate::builtins::*;
    pub use crate::{DeviceCopy, offload, offload_get_num_devices, offload_kernel, try_offload};
}

/// Used by the macros' expansions; not part of the public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::runtime::launch;

    /// `offload!` panics where `try_offload!` returns the error. A device index past the
    /// device count panics with upstream's exact message.
    #[track_caller]
    pub fn unwrap_launch(result: Result<(), crate::OffloadError>) {
        if let Err(e) = result {
            panic!("{e}");
        }
    }
}
