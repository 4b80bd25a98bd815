//! External tools (`ptxas`, `ld.lld`) and where to find them. Every external program rkc runs
//! goes through [`run`], so every failure is reported the same way.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Why an external tool could not do its job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolError {
    pub tool: String,
    pub message: String,
}

/// The repository's own toolchain folder, made by tools/setup.sh; found relative to this
/// crate at build time, so that a workspace build of rkc finds it without configuration.
fn workspace_toolchain() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.toolchain")
}

/// The folder an installed rkc keeps its companions in: `<prefix>/lib/rkc` for an rkc at
/// `<prefix>/bin/rkc` (what tools/package.sh lays out), found from the running executable
/// the way rustc finds its sysroot.
fn installed_toolchain() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?.canonicalize().ok()?;
    let dir = exe.parent()?.parent()?.join("lib/rkc");
    dir.is_dir().then_some(dir)
}

/// How to get NVIDIA's ptxas and libdevice: into the installed rkc's folder with pip, or with
/// the repository's setup script for an rkc built from source.
pub fn cuda_install_hint() -> String {
    match installed_toolchain() {
        Some(dir) => format!(
            "install them with `python3 -m pip install --target {} nvidia-cuda-nvcc==13.0.88`, or set RKC_CUDA_TOOLKIT to a CUDA toolkit",
            dir.join("pypi").display()
        ),
        None => {
            "run tools/setup.sh in the rkc repository, or set RKC_CUDA_TOOLKIT to a CUDA toolkit"
                .into()
        }
    }
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

/// Finds `ptxas`: `$RKC_CUDA_TOOLKIT/bin`, the installed rkc's `lib/rkc`, the workspace's
/// `.toolchain`, `$CUDA_PATH/bin`, then `PATH`.
pub fn find_ptxas() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(dir) = std::env::var_os("RKC_CUDA_TOOLKIT") {
        candidates.push(PathBuf::from(dir).join("bin/ptxas"));
    }
    if let Some(dir) = installed_toolchain() {
        candidates.push(dir.join("pypi/nvidia/cu13/bin/ptxas"));
    }
    candidates.push(workspace_toolchain().join("pypi/nvidia/cu13/bin/ptxas"));
    if let Some(dir) = std::env::var_os("CUDA_PATH") {
        candidates.push(PathBuf::from(dir).join("bin/ptxas"));
    }
    candidates.into_iter().find(|p| p.is_file()).or_else(|| on_path("ptxas"))
}

/// Finds a CUDA toolkit folder holding `nvvm/libdevice/libdevice.10.bc`, which MLIR's NVVM
/// serializer links for the math functions that have no instruction (`exp`, `sin`...):
/// `$RKC_CUDA_TOOLKIT`, the installed rkc's `lib/rkc`, the workspace's `.toolchain`,
/// `$CUDA_PATH`, `/usr/local/cuda`.
pub fn find_cuda_toolkit() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(dir) = std::env::var_os("RKC_CUDA_TOOLKIT") {
        candidates.push(PathBuf::from(dir));
    }
    if let Some(dir) = installed_toolchain() {
        candidates.push(dir.join("pypi/nvidia/cu13"));
    }
    candidates.push(workspace_toolchain().join("pypi/nvidia/cu13"));
    if let Some(dir) = std::env::var_os("CUDA_PATH") {
        candidates.push(PathBuf::from(dir));
    }
    candidates.push(PathBuf::from("/usr/local/cuda"));
    candidates.into_iter().find(|d| d.join("nvvm/libdevice/libdevice.10.bc").is_file())
}

/// Finds LLVM 22's `llvm-dis`, which turns bitcode into LLVM IR's text (`--emit=llvm`).
pub fn find_llvm_dis() -> Option<PathBuf> {
    [PathBuf::from("/usr/lib/llvm-22/bin/llvm-dis")]
        .into_iter()
        .find(|p| p.is_file())
        .or_else(|| on_path("llvm-dis-22"))
}

/// Finds LLVM 22's `ld.lld`, which links AMD code objects: Debian's and apt.llvm.org's
/// place for it, the installed rkc's `lib/rkc/bin`, then `ld.lld-22` on `PATH`.
pub fn find_ld_lld() -> Option<PathBuf> {
    let mut candidates = vec![PathBuf::from("/usr/lib/llvm-22/bin/ld.lld")];
    candidates.extend(installed_toolchain().map(|d| d.join("bin/ld.lld")));
    candidates.into_iter().find(|p| p.is_file()).or_else(|| on_path("ld.lld-22"))
}

/// The archive of the functions the CPU back end calls instead of emitting instructions
/// (16-bit float conversions on x86-64, 128-bit division on both), which the host image links
/// statically. For x86-64, compiler-rt's builtins (`libclang_rt.builtins-x86_64.a`, Debian's
/// libclang-rt-22-dev, or the installed rkc's copy in `lib/rkc`); for aarch64, compiler-rt's
/// builtins for it where installed, else GCC's `libgcc.a` for aarch64 (Debian's
/// gcc-aarch64-linux-gnu, or the native compiler's on an Arm machine), which defines the same
/// functions with the same ABI.
pub fn find_compiler_rt(host: rkc_lower::Host) -> Option<PathBuf> {
    let name = match host {
        rkc_lower::Host::X86_64 => "libclang_rt.builtins-x86_64.a",
        rkc_lower::Host::Aarch64 => "libclang_rt.builtins-aarch64.a",
    };
    let mut candidates = vec![Path::new("/usr/lib/llvm-22/lib/clang/22/lib/linux").join(name)];
    candidates.extend(installed_toolchain().map(|d| d.join(name)));
    if host == rkc_lower::Host::Aarch64 {
        for gcc in ["/usr/lib/gcc-cross/aarch64-linux-gnu", "/usr/lib/gcc/aarch64-linux-gnu"] {
            // The newest GCC's, by its version folder.
            let mut versions: Vec<PathBuf> = std::fs::read_dir(gcc)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path().join("libgcc.a"))
                .collect();
            versions.sort_by_key(|p| {
                let version = p.parent().and_then(Path::file_name).unwrap_or_default();
                version
                    .to_string_lossy()
                    .split('.')
                    .map(|n| n.parse::<u32>().unwrap_or(0))
                    .collect::<Vec<_>>()
            });
            candidates.extend(versions.into_iter().rev());
        }
    }
    candidates.into_iter().find(|p| p.is_file())
}

/// The AMD device libraries (ockl, ocml): the ones Debian's rocm-device-libs installs, the
/// installed rkc's copy in `lib/rkc/amdgcn`, or ROCm's.
pub fn find_amd_bitcode() -> Option<PathBuf> {
    let mut candidates = vec![PathBuf::from("/usr/lib/x86_64-linux-gnu/amdgcn")];
    candidates.extend(installed_toolchain().map(|d| d.join("amdgcn")));
    candidates.push(PathBuf::from("/opt/rocm/amdgcn"));
    candidates.into_iter().find(|p| p.join("bitcode").is_dir())
}

/// MLIR's AMD serializer runs exactly `<toolkit>/llvm/bin/ld.lld` and reads device libraries
/// from `<toolkit>/amdgcn/bitcode`. This makes such a folder of links in `dir`, so that rkc
/// needs no ROCm install.
pub fn amd_toolkit(dir: &Path) -> Result<PathBuf, ToolError> {
    let err = |message: String| ToolError { tool: "ld.lld".into(), message };
    if let Some(rocm) = std::env::var_os("RKC_ROCM_TOOLKIT") {
        return Ok(PathBuf::from(rocm));
    }
    let lld = find_ld_lld().ok_or_else(|| {
        err("LLVM 22's ld.lld is needed for AMD code objects; install it with \
             `apt-get install lld-22` (or run tools/setup.sh), or leave AMD targets out of \
             --offload-arch"
            .into())
    })?;
    let toolkit = dir.join("rocm");
    let bin = toolkit.join("llvm/bin");
    std::fs::create_dir_all(&bin)
        .map_err(|e| err(format!("cannot create {}: {e}", bin.display())))?;
    let link = |from: &Path, to: &Path| -> Result<(), ToolError> {
        let _ = std::fs::remove_file(to);
        std::os::unix::fs::symlink(from, to)
            .map_err(|e| err(format!("cannot link {} to {}: {e}", to.display(), from.display())))
    };
    link(&lld, &bin.join("ld.lld"))?;
    if let Some(bitcode) = find_amd_bitcode() {
        link(&bitcode, &toolkit.join("amdgcn"))?;
    }
    Ok(toolkit)
}

/// Runs a tool with `input` on stdin and returns its stdout; a non-zero exit is an error
/// carrying the tool's stderr.
pub fn run(program: &Path, args: &[&str], input: Option<&[u8]>) -> Result<Vec<u8>, ToolError> {
    let name = program.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let err = |message: String| ToolError { tool: name.clone(), message };
    let mut child = Command::new(program)
        .args(args)
        .stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| err(format!("cannot run {}: {e}", program.display())))?;
    if let (Some(data), Some(mut stdin)) = (input, child.stdin.take()) {
        stdin.write_all(data).map_err(|e| err(format!("cannot write to {name}: {e}")))?;
    }
    let out = child.wait_with_output().map_err(|e| err(format!("{name} did not finish: {e}")))?;
    if !out.status.success() {
        return Err(err(format!(
            "{name} {} failed ({}):\n{}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim_end()
        )));
    }
    Ok(out.stdout)
}

/// Assembles PTX into a cubin for one architecture with ptxas.
pub fn ptxas(
    ptxas: &Path,
    ptx: &[u8],
    arch: &str,
    opt_level: u8,
    line_info: bool,
    dir: &Path,
) -> Result<Vec<u8>, ToolError> {
    let input = dir.join(format!("{arch}.ptx"));
    let output = dir.join(format!("{arch}.cubin"));
    let io = |e: std::io::Error| ToolError {
        tool: "ptxas".into(),
        message: format!("cannot use the scratch folder {}: {e}", dir.display()),
    };
    std::fs::write(&input, ptx).map_err(io)?;
    let (i, o) = (input.to_string_lossy(), output.to_string_lossy());
    let opt = format!("-O{}", opt_level.min(3));
    let arch = format!("-arch={arch}");
    let mut args = vec![arch.as_str(), &opt, "-o", &o, &i];
    if line_info {
        // The PTX's `.loc` lines become the cubin's line table (nvcc's -lineinfo).
        args.insert(0, "-lineinfo");
    }
    run(ptxas, &args, None)?;
    std::fs::read(&output).map_err(io)
}
