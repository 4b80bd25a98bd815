//! The rkc session: runs the stages in order, keeps every stage's output for `--emit`, and
//! writes the fat binary.
//!
//! ```text
//! kernels.rs ─front─▶ rk ─verify─▶ rk (proof) ─lower─▶ gpu ─target pipeline─▶ nvvm / rocdl
//!   ─gpu-module-to-binary─▶ ptx / amdgcn / hsaco ─ptxas─▶ cubin ─▶ OffloadBinary (.fatbin)
//! ```

mod host;
pub mod metadata;
pub mod mlir;
pub mod tools;

use offload_binary::{Image, ImageKind, OffloadKind};
use rkc_front::Diagnostic;
pub use rkc_lower::TargetKind;
use rkc_lower::{ImageFormat, LowerOptions, Target};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

pub use rkc_front::codes;
pub use rkc_lower::{DEFAULT_OFFLOAD_ARCH, parse_offload_arch};

/// How to get a cubin for NVIDIA targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cubin {
    /// Make one when ptxas is found; otherwise the fat binary holds PTX only.
    WhenAvailable,
    /// Fail when ptxas is missing.
    Required,
    /// Never (PTX only).
    Off,
}

/// Everything that selects what a compilation produces.
#[derive(Debug)]
pub struct Options {
    pub targets: Vec<Box<dyn Target>>,
    pub opt_level: u8,
    pub bounds_checks: bool,
    pub cubin: Cubin,
    /// The kernel file's name as the user gave it, for panic locations.
    pub source_name: String,
    /// `-C fast-math`: approximate float functions and relaxed float semantics.
    pub fast_math: bool,
    /// Also make AMDGCN assembly (`--emit=amdgcn`). The fat binary needs only the code
    /// object, and each serialisation runs LLVM's whole code generation again.
    pub amd_assembly: bool,
    /// Also give each target's LLVM IR (`--emit=llvm`): one more serialisation per target.
    pub llvm_ir: bool,
    /// `--print-ir-after-all`: print the IR after every rk pass and every MLIR pass to stderr.
    pub print_ir_after_all: bool,
    /// `-g`: line information in every image (see `rkc_lower::LowerOptions::debug_file`),
    /// and `ptxas -lineinfo` for the cubins.
    pub debug_info: bool,
    /// The targets are rkc's default list rather than the user's: where LLVM's `ld.lld` (which
    /// links AMD code objects) is not installed, the AMD targets are left out with a warning
    /// instead of failing the build, so that an rkc installed without LLVM still compiles for
    /// NVIDIA GPUs.
    pub default_targets: bool,
    /// Keep each target's lowered module as text in [`TargetOutput::lowered`] (`--emit=nvvm`,
    /// `rocdl`, `host`, and the snapshot tests). Printing a large module costs a few percent
    /// of a build that never reads it, so the command line asks for it only with those stages.
    pub lowered_text: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            targets: parse_offload_arch(rkc_lower::DEFAULT_OFFLOAD_ARCH).unwrap_or_default(),
            opt_level: 3,
            bounds_checks: true,
            cubin: Cubin::WhenAvailable,
            source_name: "kernels.rs".into(),
            amd_assembly: false,
            fast_math: false,
            llvm_ir: false,
            print_ir_after_all: false,
            debug_info: false,
            default_targets: true,
            lowered_text: true,
        }
    }
}

/// The outputs of one target.
#[derive(Clone, Debug)]
pub struct TargetOutput {
    pub kind: TargetKind,
    pub arch: String,
    pub triple: &'static str,
    /// The `nvvm` or `rocdl` stage's name.
    pub dialect: &'static str,
    /// The module after the target's lowering pipeline (`--emit=nvvm` / `--emit=rocdl`);
    /// empty unless [`Options::lowered_text`] asked for it.
    pub lowered: String,
    /// PTX or AMDGCN assembly.
    pub assembly: Vec<u8>,
    /// The LLVM IR the back end received, as text, when `Options::llvm_ir` asked for it.
    pub llvm_ir: Option<String>,
    /// The cubin or HSACO code object, or the host's shared object, when one was made.
    pub binary: Option<Vec<u8>>,
    /// For a host image, the kernels it leaves out, each with the reason (it runs only
    /// kernels whose threads never wait for each other, and those whose library calls it can
    /// link); the runtime runs those on its simulator. Empty for the GPU targets.
    pub left_out: Vec<(String, String)>,
}

/// Every stage's output of one compilation.
#[derive(Clone, Debug)]
pub struct Output {
    /// The rk module as the front end made it.
    pub rk: String,
    /// The rk module after the rk passes (inlining), as lowered.
    pub rk_optimized: String,
    pub gpu: String,
    pub targets: Vec<TargetOutput>,
    pub kernels: Vec<offload_binary::KernelInfo>,
    pub fatbin: Vec<u8>,
    /// Graphviz: the call graph of the kernels and device functions (before inlining), and
    /// each kernel's control-flow graph (its blocks after lowering).
    pub dot_calls: String,
    pub dot_cfgs: Vec<(String, String)>,
    /// Notes for the user that are not errors (e.g. no ptxas, so no cubin).
    pub warnings: Vec<String>,
    pub timings: Vec<(String, Duration)>,
}

/// A failed compilation.
#[derive(Debug)]
pub enum Error {
    /// The kernels have errors; render them with [`rkc_front::render`].
    Source(Vec<Diagnostic>),
    /// A later stage failed; the diagnostic has no span but says which stage and why.
    Stage(Diagnostic),
}

pub const RK_INTERNAL_VERIFY: &str = "RK9001";
pub const RK_MLIR_FAILED: &str = "RK9002";
pub const RK_TOOL_FAILED: &str = "RK9003";
pub const RK_TOOL_MISSING: &str = "RK9004";

/// A scratch folder that is removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> std::io::Result<Scratch> {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("rkc-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn stage_error(code: &'static str, message: String, details: &[String]) -> Error {
    let mut d = Diagnostic::new(code, message);
    d.notes.extend(details.iter().cloned());
    Error::Stage(d)
}

/// The kernels' metadata (parameters with their access facts, panic sites) from the front end
/// and the rk passes alone, without MLIR: what `--explain-mapping` reports.
pub fn kernel_facts(
    source: &str,
    source_name: &str,
) -> Result<Vec<offload_binary::KernelInfo>, Vec<rkc_front::Diagnostic>> {
    let mut module = rkc_front::compile(source)?;
    // The front end reported recursion with its spans; without it, inlining succeeds.
    if rkc_rk::passes::inline_calls(&mut module).is_ok() {
        rkc_rk::passes::simplify(&mut module);
    }
    Ok(metadata::kernels(&module, source_name))
}

/// The mapping report of `rkc --explain-mapping`: for each kernel, how `offload!` will move
/// each argument and why, at the parameter's span.
pub fn explain_mapping(
    source: &str,
    path: &str,
    colour: bool,
) -> Result<String, Vec<rkc_front::Diagnostic>> {
    use offload_binary::{Access, ParamKind};
    let kernels = kernel_facts(source, path)?;
    let facts: Vec<(String, Vec<(String, String)>)> = kernels
        .iter()
        .map(|k| {
            let params = k
                .params
                .iter()
                .map(|p| {
                    let n = |b: u64| if b == 1 { "1 byte".to_string() } else { format!("{b} bytes") };
                    let bytes = match p.kind {
                        ParamKind::Pointer { pointee_size, .. } => n(pointee_size),
                        ParamKind::Slice { elem_size, .. } => format!("{} per element", n(elem_size)),
                        ParamKind::Value { size } => n(size),
                    };
                    let how = match (p.kind, p.access) {
                        (ParamKind::Value { .. }, _) => format!("passed by value ({bytes}); nothing to copy"),
                        (_, Access::Unused) => "never used by the kernel: not copied either way".to_string(),
                        (_, Access::Read) => format!("copied to the device ({bytes}) and not back: the kernel only reads it"),
                        (_, Access::Write) => format!("copied in and back ({bytes}): the kernel writes it, maybe not everywhere, so the rest is kept"),
                        (_, Access::ReadWrite) => format!("copied in and back ({bytes}): the kernel reads and writes it"),
                        (_, Access::Overwrite) => format!("only copied back ({bytes}): the kernel writes every element before reading any"),
                    };
                    (p.name.clone(), how)
                })
                .collect();
            (k.name.clone(), params)
        })
        .collect();
    Ok(rkc_front::explain_mapping(source, path, &facts, colour))
}

/// Compiles one kernel file's source through every stage.
pub fn compile(source: &str, options: &Options) -> Result<Output, Error> {
    let mut timings = Vec::new();
    let mut warnings = Vec::new();

    let t = Instant::now();
    // The front end runs on a thread of its own while this one waits: MLIR's pass registration
    // runs beside it. The scope joins it before anything returns, even on an error, so that
    // no registration is under way when the process exits.
    let rk_module = std::thread::scope(|s| {
        s.spawn(mlir::Mlir::register_passes);
        rkc_front::compile(source)
    })
    .map_err(Error::Source)?;
    timed(&mut timings, "front", t);

    let t = Instant::now();
    rkc_rk::verify(&rk_module)
        .map_err(|e| internal("the front end produced invalid rk", e.to_string()))?;
    let rk = rkc_rk::print_module(&rk_module);
    let dump = |stage: &str, text: &str| {
        if options.print_ir_after_all {
            eprintln!("// -----// IR Dump After {stage} //----- //\n{text}");
        }
    };
    dump("rkc-front (rk)", &rk);
    let dot_calls = rkc_rk::passes::CallGraph::new(&rk_module).to_dot();
    timed(&mut timings, "verify", t);

    let t = Instant::now();
    let mut optimized = rk_module;
    // The front end reported any recursion with its spans; a cycle here would be a bug.
    rkc_rk::passes::inline_calls(&mut optimized)
        .map_err(|r| internal("recursion reached the inliner", r.cycle.join(" → ")))?;
    if options.print_ir_after_all {
        dump("rk-inline", &rkc_rk::print_module(&optimized));
    }
    if options.opt_level > 0 {
        rkc_rk::passes::optimize(&mut optimized, options.bounds_checks, &mut |pass, m| {
            if options.print_ir_after_all {
                dump(pass, &rkc_rk::print_module(m));
            }
        });
    }
    let verified = rkc_rk::verify(&optimized)
        .map_err(|e| internal("inlining produced invalid rk", e.to_string()))?;
    let rk_optimized = rkc_rk::print_module(verified.module());
    let kernels = metadata::kernels(verified.module(), &options.source_name);
    timed(&mut timings, "rk passes", t);

    let t = Instant::now();
    let lower_options = LowerOptions {
        bounds_checks: options.bounds_checks,
        fast_math: options.fast_math,
        debug_file: options.debug_info.then(|| options.source_name.clone()),
        // The host stage finds out whether compiler-rt is there.
        compiler_rt: false,
        swizzled_tiles: rkc_rk::passes::has_swizzled_wgmma(verified.module()),
    };
    // A GPU target that lacks instructions the module uses takes a text with them rewritten
    // into ordinary rk that computes the same results: Hopper's warpgroup multiplies
    // (`rk.wgmma`, native on sm_90 only) by `expand_wgmma`, warp matrix multiplies and
    // asynchronous copies (native from sm_80) by `without_sm80`. Each distinct rewrite the
    // targets need is lowered once; the first text (the `rkc-lower (gpu)` stage) is the one
    // with the fewest rewrites. The host stage rewrites on its own.
    let module = verified.module();
    let (uses_wgmma, uses_sm80) =
        (rkc_rk::passes::has_wgmma(module), rkc_rk::passes::uses_sm80(module));
    let rewrite = |t: &dyn Target| Rewrite {
        wgmma: uses_wgmma && !t.has_wgmma(),
        sm80: uses_sm80 && !t.has_sm80_instructions(),
    };
    let mut rewrites: Vec<Rewrite> = options
        .targets
        .iter()
        .filter(|t| t.kind() != TargetKind::Host)
        .map(|t| rewrite(t.as_ref()))
        .collect();
    rewrites.sort_by_key(|r| (u8::from(r.wgmma) + u8::from(r.sm80), r.sm80));
    rewrites.dedup();
    if rewrites.is_empty() {
        rewrites.push(Rewrite::default());
    }
    let mlir = mlir::Mlir::new(options.print_ir_after_all);
    let lower_text =
        |module: &rkc_rk::Verified<'_>, stage: &str| -> Result<(String, String), Error> {
            let text = rkc_lower::lower(module, &lower_options)
                .map_err(|e| internal("lowering", e.to_string()))?;
            dump(stage, &text);
            let parsed = mlir.parse(&text, "lower").map_err(mlir_error)?;
            let printed = mlir::Mlir::print(&parsed, options.debug_info);
            Ok((text, printed))
        };
    let mut lowered: Vec<(Rewrite, String, String)> = Vec::with_capacity(rewrites.len());
    for (k, r) in rewrites.iter().enumerate() {
        let stage = match (k, r.sm80, r.wgmma) {
            (0, ..) => "rkc-lower (gpu)",
            (_, true, _) => "rkc-lower (gpu, without sm_80)",
            _ => "rkc-lower (gpu, without sm_90a)",
        };
        let (text, printed) = if r.wgmma || r.sm80 {
            let mut m = module.clone();
            if r.wgmma {
                rkc_rk::passes::expand_wgmma(&mut m);
            }
            if r.sm80 {
                rkc_rk::passes::without_sm80(&mut m);
            }
            let checked = rkc_rk::verify(&m)
                .map_err(|e| internal("a rewrite produced invalid rk", e.to_string()))?;
            lower_text(&checked, stage)?
        } else {
            lower_text(&verified, stage)?
        };
        lowered.push((*r, text, printed));
    }
    let gpu_text = lowered[0].1.clone();
    let texts = GpuTexts {
        texts: lowered.iter().map(|(r, _, printed)| (*r, printed.as_str())).collect(),
        rewrite: &rewrite,
        wgmma: uses_wgmma,
    };
    timed(&mut timings, "lower", t);

    let scratch = Scratch::new().map_err(|e| {
        stage_error(RK_TOOL_FAILED, format!("cannot create a scratch folder: {e}"), &[])
    })?;
    let ptxas = match options.cubin {
        Cubin::Off => None,
        _ => tools::find_ptxas(),
    };
    if ptxas.is_none()
        && options.cubin != Cubin::Off
        && options.targets.iter().any(|t| t.kind() == TargetKind::Nvidia)
    {
        let message = format!(
            "ptxas not found: NVIDIA images hold PTX only (the CUDA driver compiles it at load time); to add cubins, {}",
            tools::cuda_install_hint()
        );
        if options.cubin == Cubin::Required {
            return Err(stage_error(RK_TOOL_MISSING, message, &[]));
        }
        warnings.push(message);
    }

    // MLIR's AMD serializer reads device libraries from a toolkit folder even for assembly.
    let mut chosen: Vec<&dyn Target> = options.targets.iter().map(|t| t.as_ref()).collect();
    // The host image has its own back end, on a thread of its own beside the GPU targets.
    let host_targets: Vec<&dyn Target> =
        chosen.iter().copied().filter(|t| t.kind() == TargetKind::Host).collect();
    chosen.retain(|t| t.kind() != TargetKind::Host);
    let amd_toolkit = if chosen.iter().any(|t| t.kind() == TargetKind::Amd) {
        match tools::amd_toolkit(&scratch.0) {
            Ok(toolkit) => Some(toolkit),
            Err(e) if options.default_targets && tools::find_ld_lld().is_none() => {
                let amd: Vec<&str> = chosen
                    .iter()
                    .filter(|t| t.kind() == TargetKind::Amd)
                    .map(|t| t.arch())
                    .collect();
                warnings.push(format!(
                    "LLVM's ld.lld is not installed: the default AMD target{} {} left out (install lld-22, or give --offload-arch to choose the targets): {}",
                    if amd.len() == 1 { "" } else { "s" },
                    amd.join(", "),
                    e.message
                ));
                chosen.retain(|t| t.kind() != TargetKind::Amd);
                None
            }
            Err(e) => return Err(tool_error(e)),
        }
    } else {
        None
    };
    // libdevice, for the math functions that NVIDIA GPUs have no instruction for (MLIR's
    // `math` operations and a float's `%`, `arith.remf`, become calls of its `__nv_`
    // functions). Without it such a kernel would fail in serialisation with MLIR's message,
    // or, for `%`, get PTX that calls an undefined function. Only such kernels get the
    // toolkit: MLIR's serialiser reads and links libdevice whenever it has one, which cost
    // 2-3 ms per NVIDIA target of every compilation.
    let calls_libdevice = |text: &str| text.contains("= math.") || text.contains("= arith.remf");
    let needs_libdevice = texts.texts.iter().any(|(_, text)| calls_libdevice(text));
    let cuda_toolkit = tools::find_cuda_toolkit().filter(|_| needs_libdevice);
    if cuda_toolkit.is_none()
        && needs_libdevice
        && chosen.iter().any(|t| t.kind() == TargetKind::Nvidia)
    {
        return Err(stage_error(
            RK_TOOL_MISSING,
            "the kernels call math functions that need libdevice, and no CUDA toolkit with nvvm/libdevice was found".into(),
            &[format!(
                "{} (a folder holding nvvm/libdevice/libdevice.10.bc)",
                tools::cuda_install_hint()
            )],
        ));
    }
    // Each host image has a back end of its own (MLIR's translation to LLVM IR, then LLVM's
    // x86 or AArch64 back end), in a context of its own: it runs on a thread of its own while
    // the GPU targets are compiled. Under --print-ir-after-all the stages run one after
    // another, so that the dumps do not interleave.
    let host_stage =
        |target: &dyn Target| host_stage(target, &verified, &lower_options, &scratch.0, options);
    let (gpu_targets, hosts) = std::thread::scope(|scope| {
        let hosts: Vec<HostJob> = host_targets
            .iter()
            .map(|&target| match options.print_ir_after_all {
                false => HostJob::Running(scope.spawn(move || host_stage(target))),
                true => HostJob::Later(target),
            })
            .collect();
        let tools = TargetTools {
            amd: amd_toolkit.as_deref(),
            cuda: cuda_toolkit.as_deref(),
            ptxas: ptxas.as_deref(),
            scratch: &scratch.0,
        };
        let gpu = gpu_targets(&mlir, &texts, &chosen, tools, options, &mut timings, &mut warnings);
        let hosts: Vec<_> = hosts
            .into_iter()
            .map(|host| match host {
                HostJob::Running(job) => {
                    job.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
                }
                HostJob::Later(target) => host_stage(target),
            })
            .collect();
        (gpu, hosts)
    });
    let mut targets = gpu_targets?;
    for host in hosts {
        let host = host?;
        targets.extend(host.images);
        warnings.extend(host.warnings);
        timings.extend(host.timings);
    }

    let t = Instant::now();
    let fatbin = offload_binary::write(&images(&targets, &kernels));
    timed(&mut timings, "fatbin", t);
    let dot_cfgs = control_flow_graphs(&gpu_text);
    Ok(Output {
        rk,
        rk_optimized,
        dot_calls,
        dot_cfgs,
        gpu: lowered.swap_remove(0).2,
        targets,
        kernels,
        fatbin,
        warnings,
        timings,
    })
}

/// What a GPU target's text has rewritten (see `compile`): Hopper's warpgroup multiplies, and
/// the sm_80 instructions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Rewrite {
    wgmma: bool,
    sm80: bool,
}

/// The gpu-stage texts, one for each rewrite some target needs.
#[derive(Clone)]
struct GpuTexts<'t> {
    texts: Vec<(Rewrite, &'t str)>,
    rewrite: &'t (dyn Fn(&dyn Target) -> Rewrite + Sync),
    /// Whether the module has warpgroup multiplies.
    wgmma: bool,
}

impl<'t> GpuTexts<'t> {
    /// The target's text, and whether it holds warpgroup multiplies (which need the
    /// architecture-specific sm_90a).
    fn for_target(&self, target: &dyn Target) -> (&'t str, bool) {
        let want = (self.rewrite)(target);
        let text = self.texts.iter().find(|(r, _)| *r == want).map_or(self.texts[0].1, |t| t.1);
        (text, self.wgmma && !want.wgmma)
    }
}

/// What the GPU targets' serialisers and assemblers use: the toolkit folders they read device
/// libraries from, ptxas (when cubins are made) and the scratch folder.
#[derive(Clone, Copy)]
struct TargetTools<'p> {
    amd: Option<&'p std::path::Path>,
    cuda: Option<&'p std::path::Path>,
    ptxas: Option<&'p std::path::Path>,
    scratch: &'p std::path::Path,
}

impl<'p> TargetTools<'p> {
    fn toolkit(self, target: &dyn Target) -> Option<&'p std::path::Path> {
        match target.kind() {
            TargetKind::Amd => self.amd,
            TargetKind::Nvidia => self.cuda,
            // Compiled by `host_stage`.
            TargetKind::Host => None,
        }
    }
}

/// Compiles the GPU targets: one after another in `mlir`'s context under
/// `--print-ir-after-all` (so that the dumps do not interleave) or where only one worker would
/// run (one target, or one hardware thread), else on a pool of threads, one per hardware
/// thread, each with an MLIR context of its own. The
/// outputs and their timings come in the targets' order, and the first target's error (in
/// that order) is the one returned, as sequentially.
fn gpu_targets(
    mlir: &mlir::Mlir,
    texts: &GpuTexts<'_>,
    chosen: &[&dyn Target],
    tools: TargetTools<'_>,
    options: &Options,
    timings: &mut Vec<(String, Duration)>,
    warnings: &mut Vec<String>,
) -> Result<Vec<TargetOutput>, Error> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(chosen.len());
    if options.print_ir_after_all || workers <= 1 {
        return chosen
            .iter()
            .map(|target| {
                let gpu = texts.for_target(*target);
                gpu_target(mlir, gpu, *target, tools, options, timings, warnings)
            })
            .collect();
    }
    type Done = (Result<TargetOutput, Error>, Vec<(String, Duration)>, Vec<String>);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done: std::sync::Mutex<Vec<Option<Done>>> =
        std::sync::Mutex::new(chosen.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                // The pool runs the targets side by side; MLIR's own threads would only
                // compete with it (each target is one gpu.module).
                let mlir = mlir::Mlir::new(false);
                mlir.single_threaded();
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(target) = chosen.get(k) else { break };
                    let (mut own, mut said) = (Vec::new(), Vec::new());
                    let gpu = texts.for_target(*target);
                    let out = gpu_target(&mlir, gpu, *target, tools, options, &mut own, &mut said);
                    done.lock().unwrap_or_else(|e| e.into_inner())[k] = Some((out, own, said));
                }
            });
        }
    });
    let mut targets = Vec::new();
    for slot in done.into_inner().unwrap_or_else(|e| e.into_inner()) {
        // Every target was taken by a worker, and a worker that panicked has re-raised its
        // panic when the scope ended.
        let Some((out, own, said)) = slot else { continue };
        timings.extend(own);
        warnings.extend(said);
        targets.push(out?);
    }
    Ok(targets)
}

/// One GPU target: its lowering pipeline, then its serialisations (PTX or AMD assembly, LLVM
/// IR for `--emit=llvm`, the AMD code object) and, for NVIDIA, ptxas's cubin, so that a
/// target's ptxas runs while the other targets compile.
fn gpu_target(
    mlir: &mlir::Mlir,
    (gpu, wgmma): (&str, bool),
    target: &dyn Target,
    tools: TargetTools<'_>,
    options: &Options,
    timings: &mut Vec<(String, Duration)>,
    warnings: &mut Vec<String>,
) -> Result<TargetOutput, Error> {
    let toolkit = tools.toolkit(target);
    let t = Instant::now();
    let mut module =
        mlir.parse(&rkc_lower::specialize(gpu, target), "lower").map_err(mlir_error)?;
    // Warpgroup multiplies are an architecture-specific feature: the module is compiled for
    // sm_90a (PTX and cubin), which loads on the same GPUs as sm_90, and the image keeps the
    // target's name.
    let hopper = wgmma.then(|| rkc_lower::Nvvm { chip: "sm_90a".into() });
    let compiled: &dyn Target = match &hopper {
        Some(h) => h,
        None => target,
    };
    mlir.run(
        &mut module,
        &compiled.lowering_pipeline(options.opt_level, options.fast_math),
        target.dialect(),
    )
    .map_err(mlir_error)?;
    let lowered = if options.lowered_text {
        mlir::Mlir::print(&module, options.debug_info)
    } else {
        String::new()
    };
    timed(timings, &format!("{} {}", target.dialect(), target.arch()), t);

    // Each serialisation replaces the `gpu.module` by a `gpu.binary`, so it runs on a copy of
    // the lowered module (a copy in memory: printing and parsing the text again cost a tenth
    // of a large file's PTX time). The copy keeps the operations' locations, the line
    // information of `-g`.
    let serialize =
        |format: ImageFormat, toolkit: Option<&std::path::Path>| -> Result<Vec<u8>, Error> {
            let mut m = mlir::Mlir::duplicate(&module);
            let step = format!("serialize {}", target.arch());
            let pipeline = target.serialize_pipeline(format, toolkit).ok_or_else(|| {
                internal("serialisation", format!("{} has no serialiser", target.arch()))
            })?;
            mlir.run(&mut m, &pipeline, &step).map_err(mlir_error)?;
            mlir::Mlir::objects(&m).into_iter().next().map(|o| o.bytes).ok_or_else(|| {
                stage_error(RK_MLIR_FAILED, format!("{step}: MLIR produced no object"), &[])
            })
        };

    let t = Instant::now();
    // PTX is both an image and ptxas's input; AMD assembly is only for reading.
    let assembly = match target.kind() {
        TargetKind::Amd if !options.amd_assembly => Vec::new(),
        _ => serialize(ImageFormat::Assembly, toolkit)?,
    };
    timed(timings, &format!("assembly {}", target.arch()), t);
    let llvm_ir = if options.llvm_ir {
        let t = Instant::now();
        let bitcode = serialize(ImageFormat::Bitcode, toolkit)?;
        let dis = tools::find_llvm_dis().ok_or_else(|| {
            stage_error(
                RK_TOOL_MISSING,
                "llvm-dis-22 not found: --emit=llvm needs it".into(),
                &["run tools/setup.sh (it installs llvm-22)".into()],
            )
        })?;
        let text = tools::run(&dis, &["-o", "-"], Some(&bitcode)).map_err(tool_error)?;
        timed(timings, &format!("llvm {}", target.arch()), t);
        Some(String::from_utf8_lossy(&text).into_owned())
    } else {
        None
    };
    let binary = match target.kind() {
        TargetKind::Nvidia => match tools.ptxas {
            Some(ptxas) => {
                let t = Instant::now();
                let cubin =
                    cubin(ptxas, &assembly, compiled.arch(), options, tools.scratch, warnings)?;
                timed(timings, &format!("binary {}", target.arch()), t);
                cubin
            }
            None => None,
        },
        TargetKind::Host => None,
        TargetKind::Amd => {
            let t = Instant::now();
            let object = serialize(ImageFormat::Binary, toolkit)?;
            timed(timings, &format!("binary {}", target.arch()), t);
            Some(object)
        }
    };
    Ok(TargetOutput {
        kind: target.kind(),
        arch: target.arch().to_string(),
        triple: target.triple(),
        dialect: target.dialect(),
        lowered,
        assembly,
        llvm_ir,
        binary,
        left_out: Vec::new(),
    })
}

/// ptxas's cubin of one target's PTX; `None`, with a warning, where this ptxas is too new for
/// the architecture (CUDA 13 dropped sm_70): the PTX still runs there through the driver's JIT.
fn cubin(
    ptxas: &std::path::Path,
    ptx: &[u8],
    arch: &str,
    options: &Options,
    scratch: &std::path::Path,
    warnings: &mut Vec<String>,
) -> Result<Option<Vec<u8>>, Error> {
    match tools::ptxas(ptxas, ptx, arch, options.opt_level, options.debug_info, scratch) {
        Ok(cubin) => Ok(Some(cubin)),
        Err(e)
            if e.message.contains("is not defined for option 'gpu-name'")
                && options.cubin == Cubin::WhenAvailable =>
        {
            warnings.push(format!(
                "this ptxas cannot target {arch}: its image holds PTX only (the CUDA driver compiles it at load time)"
            ));
            Ok(None)
        }
        Err(e) => Err(tool_error(e)),
    }
}

/// Records how long a stage took since `start`, for `--time-passes`.
fn timed(timings: &mut Vec<(String, Duration)>, name: &str, start: Instant) {
    timings.push((name.to_string(), start.elapsed()));
}

/// What a host stage gives the fat binary.
#[derive(Default)]
struct HostStage {
    images: Vec<TargetOutput>,
    warnings: Vec<String>,
    timings: Vec<(String, Duration)>,
}

/// A host stage's place in a compilation: on a thread of its own, or after the GPU targets.
enum HostJob<'scope, 't> {
    Running(std::thread::ScopedJoinHandle<'scope, Result<HostStage, Error>>),
    Later(&'t dyn Target),
}

/// A host image: the kernels lowered for the host, in an MLIR context of its own (this runs
/// beside the GPU targets, after them under `--print-ir-after-all`), then an object and shared
/// object per level of the target's instruction set.
fn host_stage(
    target: &dyn Target,
    verified: &rkc_rk::Verified<'_>,
    lower_options: &LowerOptions,
    scratch: &std::path::Path,
    options: &Options,
) -> Result<HostStage, Error> {
    let mut out = HostStage::default();
    let t = Instant::now();
    let isa = rkc_lower::Host::from_arch(target.arch())
        .ok_or_else(|| internal("host stage", format!("`{}` is no host", target.arch())))?;
    let name = host_stage_name(target);
    // The C library the image links against, looked for before anything is compiled: a
    // cross target's is often not installed.
    let libraries = host::system_libraries(isa).map_err(|e| {
        stage_error(
            RK_TOOL_MISSING,
            format!("cannot link the `{}` host image", target.arch()),
            &[e],
        )
    })?;
    let compiler_rt = tools::find_compiler_rt(isa);
    let lower_options =
        LowerOptions { compiler_rt: compiler_rt.is_some(), ..lower_options.clone() };
    let host = rkc_lower::lower_host(verified, &lower_options)
        .map_err(|e| internal("lowering for the host", e.to_string()))?;
    if options.print_ir_after_all {
        eprintln!("// -----// IR Dump After rkc-lower ({name}) //----- //\n{}", host.text);
    }
    timed(&mut out.timings, &format!("lower {name}"), t);
    let ld_lld = tools::find_ld_lld();
    if ld_lld.is_none() && options.default_targets {
        out.warnings.push(
            "LLVM's ld.lld is not installed: the default host image is left out, and without a GPU the kernels run on the simulator (install lld-22, or give --offload-arch to choose the targets)".into(),
        );
        return Ok(out);
    }
    let ld_lld = ld_lld.ok_or_else(|| {
        stage_error(
            RK_TOOL_MISSING,
            "LLVM's ld.lld is not installed: it links the host image".into(),
            &[format!(
                "install lld-22 (tools/setup.sh does), or leave `{}` out of --offload-arch",
                target.arch()
            )],
        )
    })?;
    let mlir = mlir::Mlir::new(options.print_ir_after_all);
    let tools = HostTools {
        ld_lld: &ld_lld,
        libraries: &libraries,
        compiler_rt: compiler_rt.as_deref(),
        scratch,
    };
    // An image is written even when it leaves every kernel out: it tells the runtime why
    // each runs on the simulator.
    out.images = host_images(&mlir, target, isa, host, tools, options, &mut out.timings)?;
    Ok(out)
}

/// An error that is rkc's own bug, in the step `what`.
fn internal(what: &str, e: String) -> Error {
    stage_error(
        RK_INTERNAL_VERIFY,
        format!("internal error: {what}: {e}"),
        &["this is a bug in rkc; please report it with the kernel file".into()],
    )
}

fn mlir_error(e: mlir::MlirError) -> Error {
    stage_error(RK_MLIR_FAILED, format!("MLIR failed in the `{}` stage", e.step), &e.messages)
}

/// The host stage's name in dumps and timings: `host` for x86-64, `host aarch64` for aarch64.
fn host_stage_name(target: &dyn Target) -> String {
    match target.arch() {
        rkc_lower::Host::ARCH => "host".into(),
        other => format!("host {other}"),
    }
}

/// What a host image is linked with: `ld.lld`, the system's libc and libm, the builtins
/// archive (see `tools::find_compiler_rt`) and the scratch folder.
#[derive(Clone, Copy)]
struct HostTools<'p> {
    ld_lld: &'p std::path::Path,
    libraries: &'p [std::path::PathBuf; 2],
    compiler_rt: Option<&'p std::path::Path>,
    scratch: &'p std::path::Path,
}

/// The host images of one instruction set: the host stage through the LLVM dialect, then for
/// each of its levels LLVM's back end and `ld.lld`. The images share their lowered stage.
fn host_images(
    mlir: &mlir::Mlir,
    target: &dyn Target,
    isa: rkc_lower::Host,
    host: rkc_lower::HostModule,
    tools: HostTools<'_>,
    options: &Options,
    timings: &mut Vec<(String, Duration)>,
) -> Result<Vec<TargetOutput>, Error> {
    let t = Instant::now();
    let mut module = mlir.parse(&host.text, "lower host").map_err(mlir_error)?;
    mlir.run(
        &mut module,
        &target.lowering_pipeline(options.opt_level, options.fast_math),
        "llvm host",
    )
    .map_err(mlir_error)?;
    let lowered =
        if options.lowered_text { mlir::Mlir::print(&module, false) } else { String::new() };
    timed(timings, &format!("llvm {}", host_stage_name(target)), t);
    // One translation per level, here, where the MLIR context lives; LLVM's optimisation and
    // code generation, most of the host stage's time, then run for every level at once.
    let mut modules = Vec::new();
    for &cpu in isa.levels() {
        mlir.take_messages();
        let module = host::translate(&module).map_err(|e| {
            stage_error(RK_MLIR_FAILED, format!("host image ({cpu}): {e}"), &mlir.take_messages())
        })?;
        modules.push((cpu, module));
    }
    let compiled: Vec<_> = std::thread::scope(|scope| {
        let jobs: Vec<_> = modules
            .into_iter()
            .map(|(cpu, module)| {
                scope.spawn(move || {
                    let mut timings = Vec::new();
                    let t = Instant::now();
                    let compiled = host::compile(
                        module,
                        target.triple(),
                        rkc_lower::Host::llvm_cpu(cpu),
                        options.opt_level,
                        options.llvm_ir,
                    )
                    .map_err(|e| {
                        stage_error(RK_MLIR_FAILED, format!("host image ({cpu}): {e}"), &[])
                    })?;
                    timed(&mut timings, &format!("object host {cpu}"), t);
                    let t = Instant::now();
                    let shared = host::link(
                        tools.ld_lld,
                        tools.libraries,
                        &compiled.object,
                        tools.compiler_rt,
                        cpu,
                        tools.scratch,
                    )
                    .map_err(|e| {
                        stage_error(
                            RK_TOOL_FAILED,
                            "ld.lld failed to link the host image".into(),
                            &[e],
                        )
                    })?;
                    timed(&mut timings, &format!("binary host {cpu}"), t);
                    Ok((cpu, compiled.llvm_ir, shared, timings))
                })
            })
            .collect();
        jobs.into_iter()
            .map(|j| j.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    let mut images = Vec::new();
    for result in compiled {
        let (cpu, llvm_ir, shared, times): (&str, _, _, Vec<_>) = result?;
        timings.extend(times);
        images.push(TargetOutput {
            kind: TargetKind::Host,
            arch: cpu.to_string(),
            triple: target.triple(),
            dialect: target.dialect(),
            lowered: lowered.clone(),
            assembly: Vec::new(),
            llvm_ir,
            binary: Some(shared),
            left_out: host.left_out.clone(),
        });
    }
    Ok(images)
}

fn tool_error(e: tools::ToolError) -> Error {
    stage_error(RK_TOOL_FAILED, format!("{} failed", e.tool), &[e.message])
}

/// The images of the fat binary, each carrying the kernel metadata.
fn images(targets: &[TargetOutput], kernels: &[offload_binary::KernelInfo]) -> Vec<Image> {
    let meta = offload_binary::metadata::encode(kernels);
    let strings = |t: &TargetOutput| {
        vec![
            ("triple".to_string(), t.triple.to_string()),
            ("arch".to_string(), t.arch.clone()),
            (
                offload_binary::PRODUCER_KEY.to_string(),
                format!("rkc {}", env!("CARGO_PKG_VERSION")),
            ),
            (offload_binary::KERNELS_KEY.to_string(), meta.clone()),
        ]
    };
    let mut images = Vec::new();
    for t in targets {
        let mut strings = strings(t);
        if !t.left_out.is_empty() {
            let lines: Vec<String> =
                t.left_out.iter().map(|(k, why)| format!("{k}: {why}")).collect();
            strings.push((offload_binary::LEFT_OUT_KEY.to_string(), lines.join("\n")));
        }
        let (offload_kind, asm_kind, bin_kind) = match t.kind {
            TargetKind::Nvidia => (OffloadKind::Cuda, Some(ImageKind::Ptx), ImageKind::Cubin),
            // AMD assembly is not loadable; only the code object goes into the fat binary.
            TargetKind::Amd => (OffloadKind::Hip, None, ImageKind::Object),
            // A shared object for the CPU; no offload runtime of LLVM's claims it.
            TargetKind::Host => (OffloadKind::None, None, ImageKind::Object),
        };
        if let Some(kind) = asm_kind {
            images.push(Image {
                image_kind: kind,
                offload_kind,
                flags: 0,
                strings: strings.clone(),
                bytes: t.assembly.clone(),
            });
        }
        if let Some(bin) = &t.binary {
            images.push(Image {
                image_kind: bin_kind,
                offload_kind,
                flags: 0,
                strings,
                bytes: bin.clone(),
            });
        }
    }
    images
}

/// Each kernel's control-flow graph in Graphviz's dot language, read from the lowered text:
/// a node per block (`^bbN`, the entry, the panic block), an edge per `cf.br`/`cf.cond_br`
/// target.
fn control_flow_graphs(gpu_text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String, String)> = None; // (kernel, dot text, block)
    for line in gpu_text.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("gpu.func @") {
            if let Some((k, mut dot, _)) = current.take() {
                dot.push_str("}\n");
                out.push((k, dot));
            }
            let name = rest.split('(').next().unwrap_or("").to_string();
            let dot = format!("digraph \"{name}\" {{\n  node [shape=box];\n  \"entry\";\n");
            current = Some((name, dot, "entry".into()));
            continue;
        }
        let Some((_, dot, block)) = current.as_mut() else { continue };
        if t.starts_with('^') && t.ends_with(':') {
            let label =
                t.trim_start_matches('^').split(['(', ':']).next().unwrap_or("").to_string();
            dot.push_str(&format!("  \"{label}\";\n"));
            *block = label;
        } else if t.starts_with("cf.br") || t.starts_with("cf.cond_br") {
            for target in t.split('^').skip(1) {
                let target: String =
                    target.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                dot.push_str(&format!("  \"{block}\" -> \"{target}\";\n"));
            }
        } else if t == "gpu.return" {
            dot.push_str(&format!("  \"{block}\" -> \"return\";\n"));
        }
    }
    if let Some((k, mut dot, _)) = current.take() {
        dot.push_str("}\n");
        out.push((k, dot));
    }
    out
}
