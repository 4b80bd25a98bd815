//! Device selection and the launch path shared by every backend.

use crate::args::IntoArgs;
use crate::cuda::Cuda;
use crate::error::OffloadError;
use crate::{Kernel, LaunchConfig, registry, sim};
use std::sync::OnceLock;

/// Where kernels run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// An NVIDIA GPU through the CUDA driver API.
    Cuda,
    /// An AMD GPU through HIP.
    Hip,
    CpuSimulator,
}

/// A device as the runtime sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    pub backend: Backend,
    pub name: String,
    /// `sm_90` for CUDA devices, `host` for the simulator.
    pub arch: String,
    /// The CUDA driver's version (`13.0`), or the simulator's description.
    pub driver: String,
}

/// `OFFLOAD_TARGET`, with OpenMP's `OMP_TARGET_OFFLOAD` meanings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// A GPU when there is one, else the CPU simulator.
    Default,
    /// A GPU, or an error.
    Mandatory,
    /// Always the CPU simulator; no devices are counted.
    Disabled,
}

struct Runtime {
    mode: Mode,
    cuda: Option<Cuda>,
    /// `OFFLOAD_SIM_DEVICES`: with no GPU, the simulator counts as that many devices, so that
    /// code for several devices runs (and is tested) anywhere.
    sim_devices: usize,
}

fn runtime() -> Result<&'static Runtime, OffloadError> {
    static RUNTIME: OnceLock<Result<Runtime, OffloadError>> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            let mode = match std::env::var("OFFLOAD_TARGET") {
                Err(_) => Mode::Default,
                Ok(v) => match v.to_ascii_lowercase().as_str() {
                    "" | "default" => Mode::Default,
                    "mandatory" => Mode::Mandatory,
                    "disabled" => Mode::Disabled,
                    _ => return Err(OffloadError::BadOffloadTarget { value: v }),
                },
            };
            let cuda = if mode == Mode::Disabled { None } else { Cuda::new()? };
            let sim_devices = match std::env::var("OFFLOAD_SIM_DEVICES") {
                Err(_) => 0,
                Ok(v) => v.parse::<usize>().map_err(|_| OffloadError::BadEnvironment {
                    variable: "OFFLOAD_SIM_DEVICES",
                    value: v.clone(),
                    expected: "a number of simulated devices",
                })?,
            };
            Ok(Runtime { mode, cuda, sim_devices })
        })
        .as_ref()
        .map_err(Clone::clone)
}

impl Runtime {
    fn gpu_count(&self) -> usize {
        self.cuda.as_ref().map_or(0, Cuda::device_count)
    }

    /// The devices `device = n` can name: the GPUs, or else the simulated ones.
    fn device_count(&self) -> usize {
        match self.gpu_count() {
            0 => self.sim_devices,
            n => n,
        }
    }
}

/// The number of offload devices (GPUs); 0 when there is none, in which case launches without
/// `device` run on the CPU simulator. Valid `device` indices are `0..n`.
pub fn offload_get_num_devices() -> i32 {
    runtime().map_or(0, |r| r.device_count() as i32)
}

/// Every device, in device-index order: the GPUs, or the simulated devices of
/// `OFFLOAD_SIM_DEVICES` when there is no GPU.
pub fn devices() -> Vec<DeviceInfo> {
    let Ok(rt) = runtime() else { return Vec::new() };
    if rt.gpu_count() == 0 {
        return (0..rt.sim_devices)
            .map(|k| DeviceInfo {
                backend: Backend::CpuSimulator,
                name: format!("rkc CPU simulator, simulated device {k}"),
                arch: "host".into(),
                driver: "simulated".into(),
            })
            .collect();
    }
    let Some(cuda) = &rt.cuda else { return Vec::new() };
    (0..cuda.device_count())
        .filter_map(|k| Some((k, cuda.device_info(k)?)))
        .map(|(k, d)| DeviceInfo {
            backend: match d.kind {
                crate::cuda::Kind::Cuda => Backend::Cuda,
                crate::cuda::Kind::Hip => Backend::Hip,
            },
            name: d.name,
            arch: d.arch,
            driver: cuda.driver_description(k),
        })
        .collect()
}

/// The device a launch without `device` uses.
pub fn default_device() -> Result<DeviceInfo, OffloadError> {
    let rt = runtime()?;
    match devices().into_iter().next() {
        Some(d) if d.backend != Backend::CpuSimulator => Ok(d),
        _ if rt.mode == Mode::Mandatory => Err(OffloadError::NoDeviceMandatory),
        _ => Ok(DeviceInfo {
            backend: Backend::CpuSimulator,
            name: "rkc CPU simulator".into(),
            arch: "host".into(),
            driver: format!(
                "{} host threads",
                std::thread::available_parallelism().map_or(1, |n| n.get())
            ),
        }),
    }
}

/// Launches a kernel: the path behind `offload!` and `try_offload!`.
pub fn launch<K: Kernel, A: IntoArgs<K::Params>>(
    config: LaunchConfig,
    args: A,
) -> Result<(), OffloadError> {
    let rt = runtime()?;
    // Named after the kernel, for Nsight Systems and `ncu --nvtx-include "name/"`.
    let _range = crate::nvtx::Range::new(|| K::NAME.to_string());
    let found = registry::find(K::NAME, K::SIGNATURE, K::PARAMS)?;
    let mappings = args.mappings();
    let home = home_of(config.device)?;
    check_pointer_reach(&found, &mappings, home)?;
    match home {
        crate::resident::Home::Cuda(d) => match &rt.cuda {
            Some(cuda) => cuda.launch(d, &found, &mappings, &config),
            None => Err(OffloadError::NoDeviceMandatory),
        },
        crate::resident::Home::Simulator(d) => {
            sim::launch::<K, A>(&found, &args, &mappings, &config, d)
        }
    }
}

/// Where one argument of a launch comes from on the device.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Placement {
    /// A value in the parameter itself: its bits.
    Value(u64),
    /// Already in the device's memory (a resident copy or a device buffer), `len` bytes at
    /// `address`; `how` says which, for `OFFLOAD_INFO`.
    OnDevice { address: u64, len: usize, how: &'static str },
    /// Host memory the launch copies to a buffer of its own (and back when `writable`).
    Copy { host: *mut u8, len: usize, writable: bool },
}

/// Places every argument of a launch on `here`, the one decision both backends share: a
/// value travels in its parameter; host data resident on the device, and device buffers, are
/// passed by address; other host data is copied. Device data of another device, or lost in
/// a reset, is refused naming the parameter. `alive` says whether a device buffer's memory
/// is still there; the CUDA backend answers it from the device it holds locked (asking the
/// runtime would lock it again).
pub(crate) fn place(
    found: &registry::Found,
    mappings: &[crate::ArgMapping],
    here: crate::resident::Home,
    alive: impl Fn(crate::buffer::Location) -> bool,
) -> Result<Vec<Placement>, OffloadError> {
    let param =
        |k: usize| found.info.params.get(k).map_or_else(|| k.to_string(), |p| p.name.clone());
    mappings
        .iter()
        .enumerate()
        .map(|(k, m)| match *m {
            crate::ArgMapping::Value { bytes, .. } => {
                Ok(Placement::Value(u64::from_le_bytes(bytes)))
            }
            crate::ArgMapping::Buffer { host, len, writable } => {
                Ok(match crate::resident::device_copy(host, len, here, found, k)? {
                    Some(address) => Placement::OnDevice {
                        address,
                        len,
                        how: "resident on the device, not copied",
                    },
                    None => Placement::Copy { host, len, writable },
                })
            }
            crate::ArgMapping::Device { address, len, location, .. } => {
                if location.home != here {
                    Err(OffloadError::BufferElsewhere {
                        kernel: found.info.name.clone(),
                        param: param(k),
                        buffer: location.to_string(),
                        launch: here.to_string(),
                    })
                } else if !alive(location) {
                    Err(OffloadError::BufferLost { device: location.to_string() })
                } else {
                    Ok(Placement::OnDevice { address, len, how: "a device buffer, not copied" })
                }
            }
        })
        .collect()
}

/// A raw pointer argument maps one pointee, `size_of::<T>()` bytes, as upstream's `offload!`
/// does; a kernel that offsets the pointer past it (the compiler records where, in the fat
/// binary) would read or write memory the launch never mapped: garbage or a fault on a GPU, a
/// crash of the process on the simulator. Such a launch is refused, naming the parameter, the
/// place and the fix, unless the argument maps more than one pointee (a slice or an array
/// passed for the pointer) or is resident data.
pub(crate) fn check_pointer_reach(
    found: &registry::Found,
    mappings: &[crate::ArgMapping],
    home: crate::resident::Home,
) -> Result<(), OffloadError> {
    for (k, (param, mapping)) in found.info.params.iter().zip(mappings).enumerate() {
        let (offload_binary::ParamKind::Pointer { pointee_size, .. }, Some((line, col))) =
            (param.kind, param.past_pointee)
        else {
            continue;
        };
        // A device buffer (or a view) of one pointee is as short as a pointer to one.
        let (crate::ArgMapping::Buffer { len, .. } | crate::ArgMapping::Device { len, .. }) =
            *mapping
        else {
            continue;
        };
        if len as u64 > pointee_size {
            continue;
        }
        if let crate::ArgMapping::Buffer { host, .. } = *mapping
            && crate::resident::device_copy(host, len, home, found, k)?.is_some()
        {
            continue;
        }
        return Err(OffloadError::PointerPastMapping {
            kernel: found.info.name.clone(),
            param: param.name.clone(),
            ty: param.ty.clone(),
            bytes: len,
            location: format!("{}:{line}:{col}", found.info.source),
        });
    }
    Ok(())
}

/// Where a launch (or a preload) with this `device` field runs: `None` is the default device
/// (the first GPU; else the simulator, device 0); `Some(n)` must name one of
/// `offload_get_num_devices()`'s devices, with upstream's message otherwise.
pub(crate) fn home_of(device: Option<i32>) -> Result<crate::resident::Home, OffloadError> {
    use crate::resident::Home;
    let rt = runtime()?;
    let gpus = rt.gpu_count();
    match device {
        Some(d) if d < 0 || d as usize >= rt.device_count() => {
            Err(OffloadError::DeviceUnavailable { device: d })
        }
        Some(d) if gpus > 0 => Ok(Home::Cuda(d as usize)),
        Some(d) => Ok(Home::Simulator(d as usize)),
        None if gpus > 0 => Ok(Home::Cuda(0)),
        None if rt.mode == Mode::Mandatory => Err(OffloadError::NoDeviceMandatory),
        None => Ok(Home::Simulator(0)),
    }
}

/// A raw argument of [`launch_raw`].
#[derive(Debug)]
pub enum RawArg<'a> {
    /// A scalar's bits, zero-extended to 64.
    Scalar(u64),
    /// A host buffer mapped for the launch; copied back when `writable`.
    Buffer { bytes: &'a mut [u8], writable: bool },
}

/// Launches a kernel of a registered fat binary by name on a GPU, with raw arguments and
/// without the host-side signature check (the caller vouches for the arguments; the fat
/// binary's metadata still decides the copies). For conformance and differential tests that
/// drive many kernels the same way; programs use `offload!`.
pub fn launch_raw(
    kernel: &str,
    config: LaunchConfig,
    args: &mut [RawArg<'_>],
) -> Result<(), OffloadError> {
    let rt = runtime()?;
    let found = registry::find_by_name(kernel)?;
    if found.info.params.len() != args.len() {
        return Err(OffloadError::InvalidLaunch {
            kernel: kernel.into(),
            reason: format!("{} arguments for {} parameters", args.len(), found.info.params.len()),
        });
    }
    let mappings: Vec<crate::ArgMapping> = args
        .iter_mut()
        .map(|a| match a {
            RawArg::Scalar(bits) => crate::ArgMapping::Value { bytes: bits.to_le_bytes(), len: 8 },
            RawArg::Buffer { bytes, writable } => crate::ArgMapping::Buffer {
                host: bytes.as_mut_ptr(),
                len: bytes.len(),
                writable: *writable,
            },
        })
        .collect();
    let device = match config.device {
        Some(d) if d < 0 || d as usize >= rt.gpu_count() => {
            return Err(OffloadError::DeviceUnavailable { device: d });
        }
        Some(d) => d as usize,
        None if rt.gpu_count() > 0 => 0,
        None => return Err(OffloadError::NoDeviceMandatory),
    };
    match &rt.cuda {
        Some(cuda) => cuda.launch(device, &found, &mappings, &config),
        None => Err(OffloadError::NoDeviceMandatory),
    }
}

/// Whether `OFFLOAD_INFO` asks for a report of every launch's transfers on stderr (like
/// LIBOMPTARGET_INFO): each argument copied, its direction, bytes and time, and the kernel's
/// time.
pub(crate) fn info_enabled() -> bool {
    static INFO: OnceLock<bool> = OnceLock::new();
    *INFO.get_or_init(|| std::env::var("OFFLOAD_INFO").is_ok_and(|v| !v.is_empty() && v != "0"))
}

/// The time now when `OFFLOAD_INFO` reports launches, for the report's durations; `None`
/// otherwise, so that a launch without the report reads no clock (a sixth of the runtime's own
/// time per launch, measured).
pub(crate) fn clock() -> Option<std::time::Instant> {
    info_enabled().then(std::time::Instant::now)
}

/// Milliseconds since `start` (0 without a clock).
pub(crate) fn ms_since(start: Option<std::time::Instant>) -> f64 {
    start.map_or(0.0, |s| s.elapsed().as_secs_f64() * 1e3)
}

/// One line of the transfer report.
pub(crate) fn info(line: std::fmt::Arguments<'_>) {
    if info_enabled() {
        eprintln!("[offload] {line}");
    }
}

/// The CUDA backend, for resident data on a GPU.
pub(crate) fn cuda() -> Result<&'static Cuda, OffloadError> {
    runtime()?.cuda.as_ref().ok_or(OffloadError::NoDeviceMandatory)
}

static BYTES_IN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static BYTES_OUT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Counts bytes that launches copied to (`to_device`) or from a device.
pub(crate) fn count_transfer(to_device: bool, bytes: usize) {
    let counter = if to_device { &BYTES_IN } else { &BYTES_OUT };
    counter.fetch_add(bytes as u64, std::sync::atomic::Ordering::Relaxed);
}

/// The bytes launches have copied to devices and back since the program started (resident
/// data's one-time copies are not launches' and not counted), for measuring what the mapping
/// costs.
pub fn transfer_totals() -> (u64, u64) {
    use std::sync::atomic::Ordering::Relaxed;
    (BYTES_IN.load(Relaxed), BYTES_OUT.load(Relaxed))
}
