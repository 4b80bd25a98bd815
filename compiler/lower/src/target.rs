//! Everything that differs between NVIDIA and AMD, behind one trait.

use rkc_rk::FenceScope;
use std::fmt;
use std::path::Path;

/// The vendor family of a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetKind {
    Nvidia,
    Amd,
    /// The CPU rkc runs on: a shared object the runtime loads where there is no GPU.
    Host,
}

/// What MLIR's `gpu-module-to-binary` is asked to produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    /// Target assembly: PTX for NVIDIA, AMDGCN assembly for AMD.
    Assembly,
    /// A loadable object: a cubin (made by ptxas) or an HSACO code object (linked by ld.lld).
    Binary,
    /// LLVM bitcode: the module the target's LLVM back end receives, with the device
    /// libraries linked (`--emit=llvm`).
    Bitcode,
}

/// A GPU target: one vendor and one architecture.
pub trait Target: fmt::Debug + Send + Sync {
    fn kind(&self) -> TargetKind;
    /// The architecture as users write it: `sm_90`, `gfx942`.
    fn arch(&self) -> &str;
    /// The LLVM target triple.
    fn triple(&self) -> &'static str;
    /// The MLIR passes from the gpu dialect to the target's LLVM dialect (nvvm or rocdl),
    /// as a pipeline string that runs on the top-level module.
    /// With `fast_math`, the device libraries' fast paths too (approximate functions, flushed
    /// denormals), for `-C fast-math`.
    fn lowering_pipeline(&self, opt_level: u8, fast_math: bool) -> String;
    /// The `gpu-module-to-binary` pass that serialises the lowered module; `None` for the
    /// host, whose module the driver hands to LLVM's own target machine (MLIR has no
    /// serialiser for CPU targets).
    fn serialize_pipeline(&self, format: ImageFormat, toolkit: Option<&Path>) -> Option<String>;
    /// The name of the lowered stage for `--emit` (`nvvm`, `rocdl`).
    fn dialect(&self) -> &'static str;
    /// The OffloadBinary offload kind's name (`cuda`, `hip`).
    fn offload_kind(&self) -> &'static str;
    /// The LLVM syncscope of a memory fence's scope (the back ends name them differently).
    fn fence_scope(&self, scope: FenceScope) -> &'static str;
    /// The address space in which a thread's local arrays and structs are allocated (see
    /// `rkc_lower::specialize`).
    fn alloca_address_space(&self) -> u32;
    /// Whether the target has the instructions that `rk.mma` and the asynchronous copies lower
    /// to (`mma.sync.aligned.m16n8k16` with f16 and bf16, `cp.async`: NVIDIA from sm_80); the
    /// other GPU targets take `rkc_rk::passes::without_sm80`'s rewrite, and the host stage
    /// computes `rk.mma` in its block functions and rewrites only the copies.
    fn has_sm80_instructions(&self) -> bool {
        false
    }
    /// Whether the target has Hopper's warpgroup multiply (`wgmma.mma_async`, which
    /// `rk.wgmma` lowers to): NVIDIA's sm_90, compiled as sm_90a where a kernel uses it. The
    /// other targets take `rkc_rk::passes::expand_wgmma`'s rewrite.
    fn has_wgmma(&self) -> bool {
        false
    }
    /// The assembly name of the register that holds a position value (`block_id` or
    /// `thread_id`, and a dimension), where the target can read it afresh at any point: the
    /// panic block reads the position there (see `rkc_lower::specialize`). `None` where the
    /// values arrive in registers at the kernel's start (AMD) or as parameters (the host).
    fn position_register(&self, op: &str, dim: &str) -> Option<String> {
        let _ = (op, dim);
        None
    }
}

/// A CPU: the kernels that can run with a block's threads one after another (see
/// `rkc_lower::lower_host`), compiled once for each of the instruction set's levels
/// ([`Host::levels`]). `host` is x86-64 Linux, the machine rkc runs on: the x86-64 baseline, so
/// that an image runs on any x86-64 Linux machine whatever the machine that built it, and
/// x86-64-v3, which the runtime chooses where the CPU has its features (hardware fused
/// multiply-add instead of a call to libm's `fmaf`, 256-bit vectors). `aarch64` is 64-bit Arm
/// Linux, a cross target (Graviton, Grace, Ampere servers): the Armv8-A baseline, whose
/// Advanced SIMD every such CPU has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Host {
    X86_64,
    Aarch64,
}

impl Host {
    /// The x86-64 host's name in `--offload-arch`.
    pub const ARCH: &'static str = "host";
    /// The aarch64 host's name in `--offload-arch`.
    pub const AARCH64_ARCH: &'static str = "aarch64";
    /// The x86-64 levels, each also its image's `arch` string and its LLVM CPU: the baseline
    /// first, then the levels the runtime prefers where the CPU has their features
    /// (x86-64-v3: AVX, AVX2, BMI1, BMI2, F16C, FMA, LZCNT, MOVBE, XSAVE).
    pub const CPUS: [&'static str; 2] = ["x86-64", "x86-64-v3"];
    /// The aarch64 levels, as `CPUS` (the image's `arch` string; LLVM's CPU is `generic`,
    /// Armv8-A with Advanced SIMD).
    pub const AARCH64_CPUS: [&'static str; 1] = ["aarch64"];

    /// The levels this instruction set's images are compiled for, the baseline first.
    pub fn levels(self) -> &'static [&'static str] {
        match self {
            Host::X86_64 => &Host::CPUS,
            Host::Aarch64 => &Host::AARCH64_CPUS,
        }
    }

    /// The host of an `--offload-arch` name (a host target's `arch()`).
    pub fn from_arch(arch: &str) -> Option<Host> {
        match arch {
            Host::ARCH => Some(Host::X86_64),
            Host::AARCH64_ARCH => Some(Host::Aarch64),
            _ => None,
        }
    }

    /// LLVM's name for the CPU of `level`.
    pub fn llvm_cpu(level: &str) -> &str {
        if level == "aarch64" { "generic" } else { level }
    }
}

/// NVIDIA GPUs through MLIR's NVVM dialect and the NVPTX back end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nvvm {
    pub chip: String,
}

/// AMD GPUs through MLIR's ROCDL dialect and the AMDGPU back end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rocdl {
    pub chip: String,
}

/// `gpu-module-to-binary`, the same for both vendors: the target attribute on the module
/// decides what it makes.
fn serialize(format: ImageFormat, toolkit: Option<&Path>) -> String {
    let f = match format {
        ImageFormat::Assembly => "isa",
        ImageFormat::Binary => "bin",
        ImageFormat::Bitcode => "llvm",
    };
    let toolkit = toolkit.map(|p| format!(" toolkit={}", p.display())).unwrap_or_default();
    format!("builtin.module(gpu-module-to-binary{{format={f}{toolkit}}})")
}

impl Target for Nvvm {
    fn kind(&self) -> TargetKind {
        TargetKind::Nvidia
    }
    fn arch(&self) -> &str {
        &self.chip
    }
    fn triple(&self) -> &'static str {
        "nvptx64-nvidia-cuda"
    }
    fn lowering_pipeline(&self, opt_level: u8, fast_math: bool) -> String {
        let fast = if fast_math { " ftz=true fast=true" } else { "" };
        format!(
            "builtin.module(nvvm-attach-target{{chip={} O={opt_level}{fast}}},gpu.module(convert-gpu-to-nvvm,reconcile-unrealized-casts))",
            self.chip
        )
    }
    fn serialize_pipeline(&self, format: ImageFormat, toolkit: Option<&Path>) -> Option<String> {
        Some(serialize(format, toolkit))
    }
    fn dialect(&self) -> &'static str {
        "nvvm"
    }
    fn offload_kind(&self) -> &'static str {
        "cuda"
    }
    fn fence_scope(&self, scope: FenceScope) -> &'static str {
        match scope {
            FenceScope::Block => "block",
            FenceScope::Device => "device",
        }
    }
    /// The generic space: NVPTX's own `NVPTXLowerAlloca` moves allocas to `.local` and
    /// addresses them from the local window. An alloca already in space 5 is addressed from the
    /// generic stack pointer by `ld.local`, an illegal address (measured on the H200).
    fn alloca_address_space(&self) -> u32 {
        0
    }
    fn has_sm80_instructions(&self) -> bool {
        // `sm_80`, `sm_90a`, `sm_120`...: the digits after `sm_`.
        let digits: String =
            self.chip.trim_start_matches("sm_").chars().take_while(char::is_ascii_digit).collect();
        digits.parse::<u32>().is_ok_and(|n| n >= 80)
    }
    fn has_wgmma(&self) -> bool {
        matches!(self.chip.as_str(), "sm_90" | "sm_90a")
    }
    fn position_register(&self, op: &str, dim: &str) -> Option<String> {
        let name = match op {
            "block_id" => "ctaid",
            "thread_id" => "tid",
            _ => return None,
        };
        Some(format!("%{name}.{dim}"))
    }
}

impl Target for Rocdl {
    fn kind(&self) -> TargetKind {
        TargetKind::Amd
    }
    fn arch(&self) -> &str {
        &self.chip
    }
    fn triple(&self) -> &'static str {
        "amdgcn-amd-amdhsa"
    }
    fn lowering_pipeline(&self, opt_level: u8, fast_math: bool) -> String {
        let fast = if fast_math { " fast=true daz=true unsafe-math=true" } else { "" };
        format!(
            // convert-math-to-rocdl turns the math ops into ocml calls first: left to
            // convert-gpu-to-rocdl, math.tanh reaches the AMDGPU back end as an intrinsic it
            // has no lowering for, and LLVM aborts.
            "builtin.module(rocdl-attach-target{{chip={chip} O={opt_level}{fast}}},convert-math-to-rocdl{{chipset={chip}}},gpu.module(convert-gpu-to-rocdl,reconcile-unrealized-casts))",
            chip = self.chip
        )
    }
    fn serialize_pipeline(&self, format: ImageFormat, toolkit: Option<&Path>) -> Option<String> {
        Some(serialize(format, toolkit))
    }
    fn dialect(&self) -> &'static str {
        "rocdl"
    }
    fn offload_kind(&self) -> &'static str {
        "hip"
    }
    fn fence_scope(&self, scope: FenceScope) -> &'static str {
        match scope {
            FenceScope::Block => "workgroup",
            FenceScope::Device => "agent",
        }
    }
    /// AMDGPU's private space, where its data layout (`A5`) requires allocas to be.
    fn alloca_address_space(&self) -> u32 {
        5
    }
}

impl Target for Host {
    fn kind(&self) -> TargetKind {
        TargetKind::Host
    }
    fn arch(&self) -> &str {
        match self {
            Host::X86_64 => Host::ARCH,
            Host::Aarch64 => Host::AARCH64_ARCH,
        }
    }
    fn triple(&self) -> &'static str {
        match self {
            Host::X86_64 => "x86_64-unknown-linux-gnu",
            Host::Aarch64 => "aarch64-unknown-linux-gnu",
        }
    }
    /// Math functions without an LLVM intrinsic become libm calls (`tanhf`), the functions
    /// rustc's code calls for them too; the rest are LLVM intrinsics, as on the GPUs.
    /// `canonicalize` drops the blocks without predecessors that the lowering of loops can
    /// leave: the conversion to LLVM skips them, and the translation then refuses their
    /// unconverted `cf.br`.
    fn lowering_pipeline(&self, _opt_level: u8, _fast_math: bool) -> String {
        "builtin.module(convert-math-to-libm,convert-scf-to-cf,canonicalize,convert-to-llvm,reconcile-unrealized-casts)".into()
    }
    fn serialize_pipeline(&self, _format: ImageFormat, _toolkit: Option<&Path>) -> Option<String> {
        None
    }
    fn dialect(&self) -> &'static str {
        "llvm"
    }
    fn offload_kind(&self) -> &'static str {
        "none"
    }
    /// No scope: `specialize` removes the syncscope, and the fence is a system-wide one, which
    /// on x86 costs the same as any other.
    fn fence_scope(&self, _scope: FenceScope) -> &'static str {
        ""
    }
    fn alloca_address_space(&self) -> u32 {
        0
    }
}

/// What rkc compiles for when no `--offload-arch` is given: a cubin for each NVIDIA
/// architecture whose cubins the others cannot run (a cubin for X.y runs on X.z for z ≥ y, so
/// sm_80's serves sm_87, sm_100's sm_103, sm_120's sm_121) plus sm_86 and sm_89, the common
/// consumer GPUs, for their own scheduling; the PTX of each, which the driver compiles for a
/// GPU newer than all of them; the AMD Instinct MI300 series; and, where rkc can build one,
/// the host image, which runs the kernels on the CPU where there is no GPU.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
pub const DEFAULT_OFFLOAD_ARCH: &str = "sm_75,sm_80,sm_86,sm_89,sm_90,sm_100,sm_120,gfx942,host";
#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
pub const DEFAULT_OFFLOAD_ARCH: &str = "sm_75,sm_80,sm_86,sm_89,sm_90,sm_100,sm_120,gfx942";

/// The architectures rkc supports.
pub const NVIDIA_ARCHS: &[&str] = &[
    "sm_70", "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_100", "sm_103", "sm_110",
    "sm_120", "sm_121",
];
pub const AMD_ARCHS: &[&str] = &["gfx90a", "gfx942", "gfx1100"];

/// Whether `host` is a target here: rkc compiles host images for x86-64 Linux, the host it
/// runs on; elsewhere `--offload-arch=host` is an unknown architecture. `aarch64` is a cross
/// target everywhere (it needs that system's C library to link against, see the driver).
pub const HOST_SUPPORTED: bool = cfg!(all(target_arch = "x86_64", target_os = "linux"));

/// Why an `--offload-arch` list was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetError {
    Empty,
    Unknown(String),
    Duplicate(String),
}

impl fmt::Display for TargetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetError::Empty => write!(f, "the list of offload architectures is empty"),
            TargetError::Unknown(a) => write!(
                f,
                "unknown offload architecture `{a}`; supported: {}, {}{}",
                NVIDIA_ARCHS.join(", "),
                AMD_ARCHS.join(", "),
                if HOST_SUPPORTED { ", host, aarch64" } else { ", aarch64" }
            ),
            TargetError::Duplicate(a) => {
                write!(f, "the offload architecture `{a}` is listed twice")
            }
        }
    }
}

impl std::error::Error for TargetError {}

/// Parses a comma-separated `--offload-arch` list such as `sm_90,gfx942`.
pub fn parse_offload_arch(list: &str) -> Result<Vec<Box<dyn Target>>, TargetError> {
    let mut targets: Vec<Box<dyn Target>> = Vec::new();
    let mut seen = Vec::new();
    for arch in list.split(',').map(str::trim).filter(|a| !a.is_empty()) {
        if seen.contains(&arch) {
            return Err(TargetError::Duplicate(arch.into()));
        }
        seen.push(arch);
        if NVIDIA_ARCHS.contains(&arch) {
            targets.push(Box::new(Nvvm { chip: arch.into() }));
        } else if AMD_ARCHS.contains(&arch) {
            targets.push(Box::new(Rocdl { chip: arch.into() }));
        } else if arch == Host::ARCH && HOST_SUPPORTED {
            targets.push(Box::new(Host::X86_64));
        } else if arch == Host::AARCH64_ARCH {
            targets.push(Box::new(Host::Aarch64));
        } else {
            return Err(TargetError::Unknown(arch.into()));
        }
    }
    if targets.is_empty() {
        return Err(TargetError::Empty);
    }
    Ok(targets)
}
