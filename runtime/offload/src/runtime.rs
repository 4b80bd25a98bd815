//! Device selection and the launch path shared by every backend.

use crate::args::IntoArgs;
use crate::cuda::Cuda;
use crate::device::{Allocation, Cpu, Device, DeviceMemory, HostBody, Launch};
use crate::error::OffloadError;
use crate::home::{Home, Location};
use crate::host::HostEntry;
use crate::{Kernel, LaunchConfig, host, registry, sim};
use std::sync::OnceLock;

/// Where kernels run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// An NVIDIA GPU through the CUDA driver API.
    Cuda,
    /// An AMD GPU through HIP.
    Hip,
    /// The host's CPU running the fat binary's host image, rkc's compilation of the kernels
    /// for this CPU; kernels the image leaves out (16-bit floats, 128-bit division), and fat
    /// binaries without one, run on the simulator.
    CpuHost,
    /// The host's CPU running the kernels' Rust bodies as rustc compiled them, one simulated
    /// thread after another (`OFFLOAD_TARGET=simulator`, or a host that cannot load host
    /// images).
    CpuSimulator,
}

impl Backend {
    /// Whether kernels run on a GPU (not on the host's CPU).
    pub fn is_gpu(self) -> bool {
        matches!(self, Backend::Cuda | Backend::Hip)
    }
}

/// A device as the runtime sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    pub backend: Backend,
    pub name: String,
    /// `sm_90` for CUDA devices; for host images the level of the CPU (on x86-64 `x86-64-v3`
    /// where it has AVX2 and FMA, else `x86-64`; on 64-bit Arm `aarch64`); `host` for the
    /// simulator.
    pub arch: String,
    /// The CUDA driver's version (`13.0`), or the CPU backend's description.
    pub driver: String,
}

/// `OFFLOAD_TARGET`, with OpenMP's `OMP_TARGET_OFFLOAD` meanings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// A GPU when there is one, else the CPU: the host image where it runs the kernel, else
    /// the simulator.
    Default,
    /// A GPU, or an error.
    Mandatory,
    /// Always the CPU, even where a GPU is: the host image where it runs the kernel, else the
    /// simulator (`OFFLOAD_TARGET=cpu`).
    Cpu,
    /// Always the CPU simulator, even where a GPU is and for kernels a host image could run.
    Disabled,
}

struct Runtime {
    mode: Mode,
    cuda: Option<Cuda>,
    /// `OFFLOAD_SIM_DEVICES`: with no GPU, the simulator counts as that many devices, so that
    /// code for several devices runs (and is tested) anywhere.
    sim_devices: usize,
    /// The host's CPU as each simulated device (one where `OFFLOAD_SIM_DEVICES` is unset).
    cpus: Vec<Cpu>,
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
                    "cpu" => Mode::Cpu,
                    // `simulator` names the executor, as `cpu` does the host image's
                    // (`disabled` is OpenMP's word for the same).
                    "disabled" | "simulator" => Mode::Disabled,
                    _ => return Err(OffloadError::BadOffloadTarget { value: v }),
                },
            };
            let cuda = match mode {
                Mode::Disabled | Mode::Cpu => None,
                Mode::Default | Mode::Mandatory => Cuda::new()?,
            };
            let sim_devices = match std::env::var("OFFLOAD_SIM_DEVICES") {
                Err(_) => 0,
                Ok(v) => v.parse::<usize>().map_err(|_| OffloadError::BadEnvironment {
                    variable: "OFFLOAD_SIM_DEVICES",
                    value: v.clone(),
                    expected: "a number of simulated devices",
                })?,
            };
            let cpus = (0..sim_devices.max(1)).map(|index| Cpu { index }).collect();
            Ok(Runtime { mode, cuda, sim_devices, cpus })
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

    /// The backend of launches on the CPU: host images unless `OFFLOAD_TARGET` asks for the
    /// simulator or this host cannot load them.
    fn cpu_backend(&self) -> Backend {
        if host::SUPPORTED && self.mode != Mode::Disabled {
            Backend::CpuHost
        } else {
            Backend::CpuSimulator
        }
    }
}

/// The number of offload devices (GPUs); 0 when there is none (or `OFFLOAD_SIM_DEVICES`),
/// in which case launches without `device` run on the CPU. Valid `device` indices are `0..n`.
pub fn offload_get_num_devices() -> i32 {
    runtime().map_or(0, |r| r.device_count() as i32)
}

/// Every device, in device-index order: the GPUs, or the simulated devices of
/// `OFFLOAD_SIM_DEVICES` when there is no GPU (each the host's CPU, as [`default_device`]
/// describes it).
pub fn devices() -> Vec<DeviceInfo> {
    let Ok(rt) = runtime() else { return Vec::new() };
    if rt.gpu_count() == 0 {
        return (0..rt.sim_devices)
            .map(|k| {
                let cpu = cpu_device(rt.cpu_backend());
                DeviceInfo { name: format!("{}, simulated device {k}", cpu.name), ..cpu }
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

/// The host's CPU as a device: [`Backend::CpuHost`] where launches use host images (each
/// kernel a fat binary's host image cannot run still runs on the simulator), else
/// [`Backend::CpuSimulator`].
fn cpu_device(backend: Backend) -> DeviceInfo {
    let threads = crate::workers::host_threads();
    let (name, arch, driver) = match backend {
        Backend::CpuHost => (
            "rkc CPU (host image)",
            crate::host::cpu_level(),
            format!(
                "{threads} host threads; host images, else the simulator (kernels the image \
                 leaves out, or a fat binary without one)"
            ),
        ),
        _ => ("rkc CPU simulator", "host", format!("{threads} host threads")),
    };
    DeviceInfo { backend, name: name.into(), arch: arch.into(), driver }
}

/// The device a launch without `device` uses.
pub fn default_device() -> Result<DeviceInfo, OffloadError> {
    let rt = runtime()?;
    match devices().into_iter().next() {
        Some(d) if d.backend.is_gpu() => Ok(d),
        _ if rt.mode == Mode::Mandatory => Err(OffloadError::NoDeviceMandatory),
        _ => Ok(cpu_device(rt.cpu_backend())),
    }
}

/// The device a launch of kernel `K` without `device` runs on: the default GPU; else the
/// CPU, which is [`Backend::CpuHost`] when the registered fat binary's host image has the
/// kernel and [`Backend::CpuSimulator`] otherwise, its `driver` then saying why. For programs
/// that report where their kernels ran.
pub fn executor<K: Kernel>() -> Result<DeviceInfo, OffloadError> {
    let device = default_device()?;
    if device.backend != Backend::CpuHost {
        return Ok(device);
    }
    let found = registry::find(K::NAME, K::SIGNATURE, K::PARAMS)?;
    Ok(match host::entry(&found)? {
        HostEntry::Ready(_) => device,
        HostEntry::Missing(why) => {
            let simulator = cpu_device(Backend::CpuSimulator);
            DeviceInfo { driver: format!("{}; {why}", simulator.driver), ..simulator }
        }
    })
}

/// Launches a kernel: the path behind `offload!` and `try_offload!`.
pub fn launch<K: Kernel, A: IntoArgs<K::Params>>(
    config: LaunchConfig,
    args: A,
) -> Result<(), OffloadError> {
    // The runtime's start-up errors (a bad `OFFLOAD_TARGET`) come before any other.
    runtime()?;
    // Named after the kernel, for Nsight Systems and `ncu --nvtx-include "name/"`.
    let _range = crate::nvtx::Range::new(|| K::NAME.to_string());
    let found = registry::find(K::NAME, K::SIGNATURE, K::PARAMS)?;
    let mappings = args.mappings();
    let home = home_of(config.device)?;
    crate::placement::check_pointer_reach(&found, &mappings, home)?;
    let body = sim::Body::<K, A>::new(&args);
    home.device()?.launch(&Launch {
        found: &found,
        mappings: &mappings,
        config: &config,
        body: Some(&body),
    })
}

/// A launch on the host's CPU runs in the fat binary's host image where it has the kernel and
/// `OFFLOAD_TARGET` allows it, else on the simulator, saying why under `OFFLOAD_INFO`. Both run
/// on host memory, so data placed for one is placed for the other.
impl Device for Cpu {
    fn launch(&self, launch: &Launch<'_>) -> Result<(), OffloadError> {
        let Launch { found, mappings, config, body } = *launch;
        let rt = runtime()?;
        if rt.cpu_backend() == Backend::CpuHost {
            match (host::entry(found)?, body) {
                (HostEntry::Ready(entry), _) => {
                    return host::launch(found, entry, mappings, config, self.index);
                }
                (HostEntry::Missing(why), Some(_)) => crate::report::info(format_args!(
                    "{} runs on the CPU simulator: {why}",
                    found.info.name
                )),
                (HostEntry::Missing(reason), None) => {
                    return Err(OffloadError::NotInHostImage {
                        kernel: found.info.name.clone(),
                        reason,
                    });
                }
            }
        }
        let body: &dyn HostBody = body.ok_or_else(|| OffloadError::InvalidLaunch {
            kernel: found.info.name.clone(),
            reason: "the simulator runs a kernel's Rust body, which a launch by name lacks".into(),
        })?;
        sim::launch(found, body, mappings, config, self.index)
    }
}

/// Where a launch (or a preload) with this `device` field runs: `None` is the default device
/// (the first GPU; else the CPU, device 0); `Some(n)` must name one of
/// `offload_get_num_devices()`'s devices, with upstream's message otherwise.
pub(crate) fn home_of(device: Option<i32>) -> Result<crate::home::Home, OffloadError> {
    use crate::home::Home;
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

// The device layer's entry (device.rs), here where the devices are known.
impl Home {
    /// This device: a GPU through its driver, or the host's CPU.
    pub(crate) fn device(self) -> Result<&'static dyn Device, OffloadError> {
        match self {
            Home::Cuda(d) => Ok(cuda()?.device(d)?),
            Home::Simulator(d) => runtime()?
                .cpus
                .get(d)
                .map(|c| c as &dyn Device)
                .ok_or(OffloadError::DeviceUnavailable { device: d as i32 }),
        }
    }

    /// The memory of this device: the GPU's through its driver, or the host's.
    pub(crate) fn memory(self) -> Result<&'static dyn DeviceMemory, OffloadError> {
        Ok(self.device()?)
    }

    /// `bytes` bytes of this device's memory, `zeroed` or of unspecified contents (see
    /// `DeviceMemory::alloc`), and where it lives.
    pub(crate) fn alloc(
        self,
        bytes: usize,
        zeroed: bool,
    ) -> Result<(Allocation, Location), OffloadError> {
        let memory = self.memory()?;
        let allocation = if zeroed { memory.alloc_zeroed(bytes)? } else { memory.alloc(bytes)? };
        let location = Location { home: self, resets: allocation.resets };
        Ok((allocation, location))
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

/// Launches a kernel of a registered fat binary by name on a GPU (where there is none, in the
/// fat binary's host image: an error for a kernel it leaves out), with raw arguments and
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
    let launch = Launch { found: &found, mappings: &mappings, config: &config, body: None };
    if rt.gpu_count() == 0 && rt.mode != Mode::Mandatory && rt.cpu_backend() == Backend::CpuHost {
        // The host image, or `NotInHostImage` for a kernel it leaves out.
        return Home::Simulator(0).device()?.launch(&launch);
    }
    let device = match config.device {
        Some(d) if d < 0 || d as usize >= rt.gpu_count() => {
            return Err(OffloadError::DeviceUnavailable { device: d });
        }
        Some(d) => d as usize,
        None if rt.gpu_count() > 0 => 0,
        None => return Err(OffloadError::NoDeviceMandatory),
    };
    Home::Cuda(device).device()?.launch(&launch)
}

/// The CUDA backend, for resident data on a GPU.
pub(crate) fn cuda() -> Result<&'static Cuda, OffloadError> {
    runtime()?.cuda.as_ref().ok_or(OffloadError::NoDeviceMandatory)
}
