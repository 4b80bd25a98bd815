//! rkc's host library: `offload!` as upstream Rust's `core::offload` specifies it, on an NVIDIA
//! GPU through the CUDA driver (loaded at run time; nothing from CUDA is needed to build) or,
//! when there is no GPU, on the host's CPU: the fat binary's host image (rkc's compilation of
//! the kernels for the CPU) where it can run the kernel, else a CPU simulator that keeps the
//! GPU's contract.
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
//! Per launch, as upstream maps: scalars by value; arrays, structs and fieldless enums by value
//! copied in (the struct or enum derives [`DeviceCopy`]); `*const T` and `&T` copied in
//! (`size_of::<T>()` bytes); `*mut T` and `&mut T` copied in and back. rkc also accepts a slice where the
//! kernel takes a pointer (`&[T]` for `*const T`, `&mut [T]` for `*mut T`): the whole slice is
//! mapped and the kernel gets a pointer to its first element. The compiler's access facts in
//! the fat binary refine the copies: data a kernel never writes is not copied back.
//!
//! # Devices
//!
//! The default device is the first GPU; with none, the CPU: a kernel runs in its fat binary's
//! host image when the image has an entry for it (`__rkc_host_<kernel>`; kernels with 16-bit
//! floats or 128-bit division have none), else on the simulator.
//! `OFFLOAD_TARGET=mandatory|disabled|default` has the meaning of OpenMP's
//! `OMP_TARGET_OFFLOAD`: `mandatory` makes a missing GPU an error, `disabled` (or `simulator`)
//! always uses the simulator; `cpu` always uses the CPU, with host images where they run the
//! kernel. `OFFLOAD_INFO` says which each launch uses. With no GPU, `OFFLOAD_SIM_DEVICES=n` makes the simulator count as `n` devices,
//! so that code for several devices runs anywhere.

/// The user guide (docs/guide.md, linked into this crate as guide.md so that its package holds it),
/// kept here so that every code block in it is compiled and run by the test suite.
#[doc = include_str!("../guide.md")]
pub mod guide {}

mod args;
mod buffer;
pub mod builtins;
mod cuda;
mod device;
mod error;
mod home;
mod host;
mod host_memory;
mod nvtx;
mod placement;
mod print;
mod registry;
mod report;
mod resident;
mod resident_map;
mod runtime;
mod sim;
mod stream;
mod workers;

pub use args::{ArgMapping, DeviceCopy, IntoArgs, KernelArg};
pub use buffer::{CudarcView, CudarcViewMut, DeviceBuffer, DeviceSlice, DeviceSliceMut, Zeroable};
pub use builtins::*;
/// The cudarc release rkc's NVIDIA backend and its interop ([`CudarcView`],
/// [`DeviceSlice::from_cudarc`]) are built on, for programs that use both.
pub use cudarc;
pub use error::OffloadError;
pub use home::Location;
pub use print::{__print, Printed, capture_prints};
pub use registry::register_fatbin;
pub use report::transfer_totals;
pub use resident::{
    Preload, PreloadMut, offload_sync, preload, preload_mut, try_preload, try_preload_mut,
    try_preload_mut_on, try_preload_on,
};
pub use rkc_offload_macros::{DeviceCopy, offload, offload_async, offload_kernel, try_offload};
pub use runtime::{
    Backend, DeviceInfo, RawArg, default_device, devices, executor, launch_raw,
    offload_get_num_devices,
};
pub use sim::simulate_raw;
pub use stream::{Event, PinnedBuffer, Scope, Stream, scope};

/// What `#[offload_kernel]` generates for each kernel: the host's view of it, checked at
/// launch against the fat binary's metadata.
pub trait Kernel {
    /// The kernel's name, as in the fat binary.
    const NAME: &'static str;
    /// The signature as the kernel's source writes it, e.g. `saxpy(usize, f32, &[f32], &mut
    /// [f32])`, for messages only: the launch compares [`Kernel::PARAMS`], which rustc computes
    /// from the types themselves, so any spelling of a type (a path, an alias, a constant for
    /// an array length) checks the same.
    const SIGNATURE: &'static str;
    /// How each parameter crosses to the device, in order.
    const PARAMS: &'static [ParamShape];
    /// The parameter types, as a tuple. References and slices travel as raw pointers
    /// (`&T` as `*const T`, `&mut [T]` as `*mut [T]`), so that the tuple is `Copy` and has no
    /// lifetime; [`Kernel::run_on_host`] turns them back into references.
    type Params: Copy;
    /// Runs the kernel body for one thread on the host (the CPU simulator).
    fn run_on_host(params: Self::Params);
    /// [`Kernel::run_on_host`] with the parameters given as raw 64-bit values (see
    /// [`FromRawArg`]). Used by differential tests that drive every kernel the same way.
    fn run_raw(args: &[u64]);
}

/// How one kernel parameter crosses to the device, as rustc computes it from the parameter's
/// type ([`KernelParam::SHAPE`]). The launch compares it with the fat binary's
/// [`offload_binary::ParamKind`], so that a fat binary compiled from another version of the
/// kernel is refused instead of launched with wrong arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamShape {
    /// A scalar in the parameter itself: `size` bytes of the Rust scalar type `scalar` (`f32`,
    /// `bool`, `u8` for a `#[repr(u8)]` enum). The name is compared too, so that a kernel whose
    /// `f32` became a `u32` is not launched with the float's bits.
    Value { size: u64, scalar: &'static str },
    /// An array or struct by value: `size` bytes copied to the device for the launch, and the
    /// kernel reads them through a read-only pointer.
    ByValue { size: u64 },
    /// A raw pointer or a reference: `size_of::<T>()` bytes of the pointee are mapped,
    /// copied back when `mutable`.
    Pointer { pointee_size: u64, mutable: bool },
    /// A slice, passed as a pointer and a length in elements.
    Slice { elem_size: u64, mutable: bool },
}

impl ParamShape {
    /// Whether the fat binary's description of a parameter, `kind` spelled `ty`, is this shape:
    /// the same mapping with the same sizes, and for a scalar the same scalar type.
    pub fn matches(self, kind: offload_binary::ParamKind, ty: &str) -> bool {
        use offload_binary::ParamKind as K;
        match (self, kind) {
            (ParamShape::Value { size, scalar }, K::Value { size: s }) => size == s && scalar == ty,
            // The device reads a by-value aggregate through a pointer to its read-only copy.
            (ParamShape::ByValue { size }, K::Pointer { pointee_size, mutable }) => {
                size == pointee_size && !mutable
            }
            (
                ParamShape::Pointer { pointee_size, mutable },
                K::Pointer { pointee_size: p, mutable: m },
            ) => pointee_size == p && mutable == m,
            (ParamShape::Slice { elem_size, mutable }, K::Slice { elem_size: e, mutable: m }) => {
                elem_size == e && mutable == m
            }
            _ => false,
        }
    }
}

impl std::fmt::Display for ParamShape {
    /// The shape in words, for the stale-fat-binary message.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let access = |mutable: bool| if mutable { "writable" } else { "read-only" };
        match *self {
            ParamShape::Value { scalar, .. } => write!(f, "a `{scalar}` by value"),
            ParamShape::ByValue { size } => write!(f, "{size} bytes by value"),
            ParamShape::Pointer { pointee_size, mutable } => {
                write!(f, "a pointer to {pointee_size} {} bytes", access(mutable))
            }
            ParamShape::Slice { elem_size, mutable } => {
                write!(f, "a {} slice of {elem_size}-byte elements", access(mutable))
            }
        }
    }
}

/// A type a kernel parameter can have, as `Kernel::Params` holds it, with how it crosses to
/// the device. `#[offload_kernel]` takes each parameter's [`KernelParam::SHAPE`] for
/// [`Kernel::PARAMS`], so that rustc (not the parameter's spelling) decides sizes and kinds, and
/// so that a type that cannot cross is refused where it is written.
///
/// Implemented for every [`DeviceCopy`] type (scalars in the parameter, arrays and structs by
/// value), for `*const T` and `*mut T`, and for `*const [T]` and `*mut [T]`. A reference
/// parameter reaches this trait as the raw pointer that `Kernel::Params` holds for it (`&T` as
/// `*const T`, `&mut [T]` as `*mut [T]`): impls for `&T` itself could not sit beside the one
/// for every `DeviceCopy` type, since another crate may implement `DeviceCopy` for a reference
/// to its own type, and the mapping of a reference is that of the pointer anyway.
#[diagnostic::on_unimplemented(
    message = "type `{Self}` cannot be offloaded",
    label = "not a scalar, pointer, reference, slice or `DeviceCopy` value",
    note = "kernel parameters are scalars, raw pointers and references to sized data, slices, and arrays, `#[repr(C)]` structs and fieldless enums with an integer `repr` by value",
    note = "a struct or enum taken by value needs `#[derive(Clone, Copy, DeviceCopy)]` (and `#[repr(C)]`, or `#[repr(u8)]` and the like for an enum)"
)]
pub trait KernelParam: FromRawArg {
    /// How the parameter crosses to the device.
    const SHAPE: ParamShape;
}

// The impl is left out of "the trait is implemented for" hints so that a type that is not
// `DeviceCopy` is reported as one that cannot be offloaded (with this trait's notes), not as a
// missing `DeviceCopy` impl, which is only one of the ways to fix it.
#[diagnostic::do_not_recommend]
impl<T: DeviceCopy> KernelParam for T {
    const SHAPE: ParamShape = if T::IN_PARAMETER && size_of::<T>() <= 8 {
        ParamShape::Value { size: size_of::<T>() as u64, scalar: T::SCALAR }
    } else {
        ParamShape::ByValue { size: size_of::<T>() as u64 }
    };
}

// The pointer impls are left out of rustc's "the following other types implement" list too:
// for a parameter that cannot be offloaded it would suggest raw pointers only, while the
// trait's notes name everything a parameter may be.
#[diagnostic::do_not_recommend]
impl<T> KernelParam for *const T {
    const SHAPE: ParamShape =
        ParamShape::Pointer { pointee_size: size_of::<T>() as u64, mutable: false };
}

#[diagnostic::do_not_recommend]
impl<T> KernelParam for *mut T {
    const SHAPE: ParamShape =
        ParamShape::Pointer { pointee_size: size_of::<T>() as u64, mutable: true };
}

#[diagnostic::do_not_recommend]
impl<T> KernelParam for *const [T] {
    const SHAPE: ParamShape =
        ParamShape::Slice { elem_size: size_of::<T>() as u64, mutable: false };
}

#[diagnostic::do_not_recommend]
impl<T> KernelParam for *mut [T] {
    const SHAPE: ParamShape = ParamShape::Slice { elem_size: size_of::<T>() as u64, mutable: true };
}

/// A kernel parameter type that can be rebuilt from raw 64-bit arguments (see
/// [`Kernel::run_raw`]): one for a scalar (its bits, zero-extended) or a pointer (its
/// address), two for a slice (address, length in elements). Implemented for every type that
/// `Kernel::Params` can hold.
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
    /// Bytes of dynamic shared memory. Beyond the 48 KiB every CUDA kernel may use, the
    /// runtime asks the driver to allow the kernel more (`cuFuncSetAttribute`), up to the
    /// device's limit per workgroup.
    pub dyn_cache: u32,
    /// The device index; `None` for the default device.
    pub device: Option<i32>,
}

/// Embeds the fat binary that `rkc_build::Build::compile(name)` wrote to `OUT_DIR` and
/// registers it: `rkc_offload::include_fatbin!("kernels")?;`.
#[macro_export]
macro_rules! include_fatbin {
    ($name:literal) => {
        $crate::register_fatbin(
            include_bytes!(concat!(env!("OUT_DIR"), "/", $name, ".fatbin")).as_slice(),
        )
    };
}

/// Everything a kernel file needs: the macros and the builtins.
pub mod prelude {
    pub use crate::builtins::*;
    pub use crate::{
        DeviceCopy, gpu_print, gpu_println, offload, offload_get_num_devices, offload_kernel,
        try_offload,
    };
}

/// Used by the macros' expansions; not part of the public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::runtime::launch;
    pub use crate::stream::launch_async;

    /// Reads a parameter from `Kernel::run_raw`'s raw arguments (see `FromRawArg`).
    pub type ReadRaw<P> = fn(&mut dyn Iterator<Item = u64>) -> P;

    /// A kernel parameter type's shape (for `Kernel::PARAMS`) and its reader from raw
    /// arguments (for `Kernel::run_raw`). The descriptor's `PARAMS` and `run_raw` both call
    /// it with the parameter type's own span, so that a type that cannot be offloaded gets one
    /// error, at the type, in `KernelParam`'s words: rustc emits the two identical ones once.
    pub const fn param<P: crate::KernelParam>() -> (crate::ParamShape, ReadRaw<P>) {
        (P::SHAPE, P::from_raw_args)
    }

    /// `offload!` panics where `try_offload!` returns the error. A device index past the
    /// device count panics with upstream's exact message.
    #[track_caller]
    pub fn unwrap_launch(result: Result<(), crate::OffloadError>) {
        if let Err(e) = result {
            panic!("{e}");
        }
    }
}
