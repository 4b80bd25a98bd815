//! The runtime's errors: every way a launch can fail, with what the user needs to fix it.

use std::fmt;

/// Why a launch (or loading a fat binary) failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OffloadError {
    /// The fat binary could not be read.
    BadFatBinary { reason: String },
    /// No registered fat binary has the kernel.
    KernelNotFound { kernel: String },
    /// The fat binary's kernel takes other parameters than the host's `#[offload_kernel]`.
    StaleFatBinary {
        kernel: String,
        /// The signature as the host's source writes it.
        host: String,
        /// The signature as the fat binary's metadata spells it.
        fatbin: String,
        /// What differs: the number of parameters, or the first parameter whose mapping
        /// (kind, size, mutability, scalar type) differs. The two signatures can read alike
        /// (a struct that changed size keeps its name), so this says which it is.
        difference: String,
    },
    /// The fat binary's host image (its kernels compiled for this CPU) cannot be loaded: it is
    /// no shared object for this CPU, or the dynamic loader refused it.
    HostImage { reason: String },
    /// [`crate::launch_raw`] on the CPU, for a kernel the fat binary's host image leaves out
    /// (`offload!` runs such kernels on the simulator instead).
    NotInHostImage { kernel: String, reason: String },
    /// The fat binary has no image this device can run.
    NoImageForDevice { kernel: String, device: String, arch: String, available: Vec<String> },
    /// `device = n` names no device. The text is upstream's.
    DeviceUnavailable { device: i32 },
    /// `OFFLOAD_TARGET=mandatory` and there is no GPU.
    NoDeviceMandatory,
    /// `OFFLOAD_TARGET` has a value we do not know.
    BadOffloadTarget { value: String },
    /// Another environment variable has a value we cannot use.
    BadEnvironment { variable: &'static str, value: String, expected: &'static str },
    /// The launch shape is invalid for the device.
    InvalidLaunch { kernel: String, reason: String },
    /// A CUDA driver call failed.
    Driver { call: &'static str, code: i32, name: String, message: String },
    /// A thread of the kernel panicked (bounds check, assert, division by zero).
    KernelPanic {
        kernel: String,
        message: String,
        /// `file:line:col` in the kernel file, when known.
        location: String,
        block: [u32; 3],
        thread: [u32; 3],
    },
    /// The kernel stopped on the device (a trap: failed bounds check, division by zero).
    KernelTrapped { kernel: String, detail: String, recovered: bool },
    /// A launch on a device that an earlier trap left unusable.
    DeviceLost { device: i32, kernel: String, trapped: String },
    /// A resident copy was lost when its device was reset after a trap.
    ResidentLost { kernel: String, param: String, device: String },
    /// A raw pointer argument maps one pointee (upstream's `size_of::<T>()` bytes), and the
    /// kernel offsets the pointer past it.
    PointerPastMapping {
        kernel: String,
        param: String,
        /// The parameter's type as the kernel writes it.
        ty: String,
        /// What the argument maps.
        bytes: usize,
        /// Where the kernel first steps past the pointee, `file:line:col`.
        location: String,
    },
    /// An argument's data is resident on another device than the launch's.
    ResidentElsewhere { kernel: String, param: String, resident: String, launch: String },
    /// A `DeviceBuffer` passed to a launch on another device than its own.
    BufferElsewhere { kernel: String, param: String, buffer: String, launch: String },
    /// A `DeviceBuffer`'s memory was freed when its device was reset after a trap.
    BufferLost { device: String },
    /// A copy between a `DeviceBuffer` (or a view of one) and data of another length.
    BufferLength { op: &'static str, buffer: usize, other: usize },
    /// Device memory handed between rkc and cudarc that the other side cannot use: another
    /// device or context, an AMD or simulated device, or a failure of cudarc's stream.
    Cudarc { op: &'static str, reason: String },
}

impl fmt::Display for OffloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OffloadError::BadFatBinary { reason } => write!(f, "invalid fat binary: {reason}"),
            OffloadError::KernelNotFound { kernel } => write!(
                f,
                "no registered fat binary holds the kernel `{kernel}`; compile kernels.rs with rkc \
                 and register the output with rkc_offload::register_fatbin"
            ),
            OffloadError::StaleFatBinary { kernel, host, fatbin, difference } => write!(
                f,
                "the fat binary is stale for kernel `{kernel}`: the host declares `{host}` but the \
                 fat binary was compiled for `{fatbin}` ({difference}); recompile kernels.rs with rkc"
            ),
            OffloadError::HostImage { reason } => write!(
                f,
                "cannot load the fat binary's host image (its kernels compiled for this CPU): \
                 {reason}; OFFLOAD_TARGET=simulator runs the kernels on the CPU simulator instead"
            ),
            OffloadError::NoImageForDevice { kernel, device, arch, available } => write!(
                f,
                "the fat binary has no image of kernel `{kernel}` for {device} ({arch}); it has: {}; \
                 add the arch with `rkc --offload-arch`",
                if available.is_empty() { "none".to_string() } else { available.join(", ") }
            ),
            OffloadError::PointerPastMapping { kernel, param, ty, bytes, location } => write!(
                f,
                "kernel `{kernel}` offsets its parameter `{param}: {ty}` past the pointee ({location}), \
                 but a raw pointer argument maps only the {bytes} bytes of one pointee, as upstream's \
                 `offload!` does; pass the whole data instead (a slice `&x[..]` or an array for the \
                 pointer, or a slice parameter `&[T]`), a `DeviceBuffer`, or `preload` it"
            ),
            OffloadError::DeviceUnavailable { device } if *device < 0 => write!(
                f,
                "offload device must be non-negative; omit `device` to use the default device"
            ),
            OffloadError::DeviceUnavailable { device } => {
                write!(f, "offload device {device} is not available")
            }
            OffloadError::NoDeviceMandatory => write!(
                f,
                "OFFLOAD_TARGET=mandatory but no GPU is available (no CUDA driver, or it reports no device)"
            ),
            OffloadError::BadOffloadTarget { value } => {
                write!(
                    f,
                    "OFFLOAD_TARGET=`{value}` is not one of default, mandatory, cpu, disabled, simulator"
                )
            }
            OffloadError::BadEnvironment { variable, value, expected } => {
                write!(f, "{variable}=`{value}` is not {expected}")
            }
            OffloadError::NotInHostImage { kernel, reason } => {
                write!(f, "kernel `{kernel}` has no entry in the host image: {reason}")
            }
            OffloadError::InvalidLaunch { kernel, reason } => {
                write!(f, "invalid launch of kernel `{kernel}`: {reason}")
            }
            OffloadError::Driver { call, code, name, message } => {
                write!(f, "CUDA driver call {call} failed: {name} ({code}): {message}")
            }
            OffloadError::KernelPanic { kernel, message, location, block, thread } => {
                write!(f, "kernel `{kernel}` panicked")?;
                if !location.is_empty() {
                    write!(f, " at {location}")?;
                }
                write!(f, " in block {block:?}, thread {thread:?}: {message}")
            }
            OffloadError::ResidentElsewhere { kernel, param, resident, launch } => write!(
                f,
                "the argument `{param}` of kernel `{kernel}` is resident on {resident}, but the launch is on {launch}; \
                 preload it for that device, or launch there"
            ),
            OffloadError::KernelTrapped { kernel, detail, recovered } => write!(
                f,
                "kernel `{kernel}` trapped on the device (an illegal address or instruction): {detail}; {}",
                if *recovered {
                    "the device was reset: later launches work, and data that was resident on it is lost"
                } else {
                    "the device could not be reset: later launches on it report that it is lost"
                }
            ),
            OffloadError::DeviceLost { device, kernel, trapped } => write!(
                f,
                "cannot launch kernel `{kernel}` on device {device}: the device has been unusable since kernel `{trapped}` trapped on it (the CUDA driver keeps an illegal address for the life of the process); other devices and the CPU simulator still work"
            ),
            OffloadError::BufferElsewhere { kernel, param, buffer, launch } => write!(
                f,
                "the device buffer passed for `{param}` of kernel `{kernel}` lives on {buffer}, but the launch is on {launch}; \
                 copy it there with `DeviceBuffer::to_device`, or launch there"
            ),
            OffloadError::BufferLost { device } => write!(
                f,
                "a device buffer on {device} was lost when the device was reset after a kernel trapped; allocate it again"
            ),
            OffloadError::BufferLength { op, buffer, other } => write!(
                f,
                "DeviceBuffer::{op}: the device side holds {buffer} values but the other side {other}; the lengths must be equal"
            ),
            OffloadError::Cudarc { op, reason } => write!(f, "{op}: {reason}"),
            OffloadError::ResidentLost { kernel, param, device } => write!(
                f,
                "the argument `{param}` of kernel `{kernel}` was resident on {device}, which was reset after a kernel trapped: its device copy is lost; drop the guard and preload it again"
            ),
        }
    }
}

impl std::error::Error for OffloadError {}
