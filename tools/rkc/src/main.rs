//! The `rkc` command: compiles the `#[offload_kernel]` functions of a Rust file into one LLVM
//! OffloadBinary, and can write every intermediate stage.

use clap::{Parser, Subcommand, ValueEnum};
use rkc_driver::{Cubin, Error, Options, Output, TargetKind};
use std::io::{IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::OnceLock;

/// The process's allocator for Rust's allocations. The front end builds syn's trees of the
/// device core at every run, millions of small allocations; with glibc's allocator they and
/// the page faults of its fresh heap were about a third of a one-kernel compilation
/// (testsuite/bench/compile-speed.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Whether diagnostics are coloured, decided once from `--color` and the terminal.
static COLOUR: OnceLock<bool> = OnceLock::new();

fn colour() -> bool {
    *COLOUR.get_or_init(|| std::io::stderr().is_terminal())
}

/// Whether errors are written as rustc's JSON diagnostics (`--error-format=json`).
static JSON: OnceLock<bool> = OnceLock::new();

/// Compiles Rust GPU kernels (`#[offload_kernel]` functions) to an LLVM OffloadBinary holding
/// PTX and cubins for NVIDIA and code objects for AMD.
#[derive(Parser, Debug)]
#[command(
    name = "rkc",
    version,
    about,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    /// The kernel file, e.g. kernels.rs.
    #[arg(required_unless_present = "explain")]
    input: Option<PathBuf>,

    /// Where to write the fat binary [default: <input stem>.fatbin in the current folder]; `-`
    /// writes it to standard output (not to a terminal), and `--emit` stages are then named
    /// after the input's stem.
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,

    /// Comma-separated architectures: the GPUs sm_70, sm_75, sm_80, sm_86, sm_87, sm_89,
    /// sm_90, sm_100, sm_103, sm_110, sm_120, sm_121, gfx90a, gfx942, gfx1100, `host` (the
    /// x86-64 CPU image that runs kernels without a GPU) and `aarch64` (the same for 64-bit Arm
    /// Linux, cross-compiled; needs aarch64's C library to link against). Default:
    /// sm_75,sm_80,sm_86,sm_89,sm_90,sm_100,sm_120,gfx942,host (without LLVM's ld.lld
    /// installed, the AMD one and the host image are left out with a warning).
    #[arg(long = "offload-arch")]
    offload_arch: Option<String>,

    /// Also write these stages, next to the output, named by stage: rk, rk-opt, gpu, nvvm,
    /// rocdl, llvm (each target's LLVM IR), ptx, cubin, amdgcn, hsaco, host (the host image's
    /// LLVM-dialect module and shared object), fatbin, dot (the call graph and each kernel's
    /// control-flow graph, for Graphviz).
    #[arg(long = "emit", value_delimiter = ',')]
    emit: Vec<Stage>,

    /// Optimisation level for LLVM and ptxas (0 to 3).
    #[arg(short = 'O', default_value_t = 3, value_parser = clap::value_parser!(u8).range(0..=3))]
    opt_level: u8,

    /// Code-generation switches: `checks=on|off` (bounds checks, default on), `fast-math`
    /// (approximate float functions and relaxed float semantics; off by default, which keeps
    /// Rust's: correctly rounded sqrt and division, no flush-to-zero).
    #[arg(short = 'C', value_name = "OPTION=VALUE")]
    codegen: Vec<String>,

    /// Do not run ptxas: NVIDIA images carry PTX only.
    #[arg(long = "no-cubin")]
    no_cubin: bool,

    /// Print the time each stage took, their sum, and the compilation's wall-clock time
    /// (usually less than the sum: the GPU targets, their ptxas runs and the host image are
    /// compiled on several threads).
    #[arg(long = "time-passes")]
    time_passes: bool,

    /// Line information: each instruction of the PTX (`.loc`, kept in the cubin) and the AMD
    /// code objects maps to its Rust line, for Nsight Compute's source view, cuda-gdb and
    /// compute-sanitizer. The code stays optimised. Same as `-C debuginfo=1`.
    #[arg(short = 'g')]
    debug_info: bool,

    /// Print the IR after every rk pass and every MLIR pass to stderr.
    #[arg(long = "print-ir-after-all")]
    print_ir_after_all: bool,

    /// Instead of compiling, explain how `offload!` will move each kernel argument and why (the
    /// compiler's access facts), at each parameter's source span.
    #[arg(long = "explain-mapping")]
    explain_mapping: bool,

    /// Explain an error code, e.g. RK0133.
    #[arg(long = "explain", value_name = "CODE")]
    explain: Option<String>,

    /// Colour diagnostics: auto (when stderr is a terminal), always or never.
    #[arg(long = "color", value_enum, default_value_t = Colour::Auto)]
    color: Colour,

    /// How errors are written to stderr: human (rustc's text) or json (rustc's JSON
    /// diagnostics, one object per line, each with its human rendering in `rendered`).
    #[arg(long = "error-format", value_enum, default_value_t = ErrorFormat::Human)]
    error_format: ErrorFormat,

    /// Write source paths in outputs (panic locations in the fat binary) with the prefix FROM
    /// replaced by TO; the last matching one applies. Without one, an input path under the
    /// current folder is written relative to it, so that checkouts in different folders give
    /// identical fat binaries.
    #[arg(long = "remap-path-prefix", value_name = "FROM=TO")]
    remap_path_prefix: Vec<String>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print what a fat binary holds (images, kernels, parameters), without compiling anything.
    Inspect {
        /// The fat binary, e.g. kernels.fatbin.
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ErrorFormat {
    Human,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Colour {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Stage {
    Rk,
    RkOpt,
    Dot,
    Gpu,
    Nvvm,
    Rocdl,
    Llvm,
    Ptx,
    Cubin,
    Amdgcn,
    Hsaco,
    Host,
    Fatbin,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let _ = COLOUR.set(match cli.color {
        Colour::Auto => std::io::stderr().is_terminal(),
        Colour::Always => true,
        Colour::Never => false,
    });
    let _ = JSON.set(cli.error_format == ErrorFormat::Json);
    if let Some(Command::Inspect { file, json }) = &cli.command {
        return inspect(file, *json);
    }
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            if !message.is_empty() {
                eprint!("{message}");
                if !message.ends_with('\n') {
                    eprintln!();
                }
            }
            ExitCode::FAILURE
        }
    }
}

fn inspect(file: &Path, json: bool) -> ExitCode {
    let file = file.display();
    let bytes = match std::fs::read(file.to_string()) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{}", error_line(&format!("cannot read `{file}`: {e}")));
            return ExitCode::FAILURE;
        }
    };
    match offload_binary::read(&bytes) {
        Ok(images) if json => print!("{}", offload_binary::inspect::json(&images)),
        Ok(images) => print!("{}", offload_binary::inspect::text(&images)),
        Err(e) => {
            eprintln!("{}", error_line(&format!("`{file}`: {e}")));
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// A diagnostic with neither a code nor a span: an error about the command or a file.
fn code_less(message: &str) -> rkc_front::Diagnostic {
    rkc_front::Diagnostic::new("", message)
}

fn error_line(text: &str) -> String {
    if JSON.get().copied().unwrap_or(false) {
        // An error about the command, a file or a tool: rustc's JSON without a code or spans.
        return rkc_front::render_json(&[code_less(text)], "", "").trim_end().to_string();
    }
    if colour() {
        format!("\x1b[1;31merror\x1b[0m\x1b[1m: {text}\x1b[0m")
    } else {
        format!("error: {text}")
    }
}

fn run(cli: &Cli) -> Result<(), String> {
    if let Some(code) = &cli.explain {
        return match rkc_driver::codes::explain(code) {
            Some((title, text)) => {
                println!("{}: {title}\n\n{text}", code.to_ascii_uppercase());
                Ok(())
            }
            None => Err(error_line(&format!("no error code `{code}`; codes look like RK0133"))),
        };
    }
    let Some(input) = &cli.input else {
        return Err(error_line("no input file"));
    };
    let mut options = options(cli)?;
    options.source_name = source_name(input, &cli.remap_path_prefix)?;
    let source = std::fs::read(input)
        .map_err(|e| error_line(&format!("cannot read `{}`: {e}", input.display())))?;
    let source = String::from_utf8(source)
        .map_err(|_| error_line(&format!("`{}` is not UTF-8 text", input.display())))?;
    let output = match &cli.output {
        Some(o) => o.clone(),
        None => PathBuf::from(format!("{}.fatbin", stem(input))),
    };
    // `-o -`: the fat binary goes to standard output, as Unix tools do; a terminal would only
    // show bytes, so that is refused before compiling.
    let to_stdout = output.as_os_str() == "-";
    if to_stdout && std::io::stdout().is_terminal() {
        return Err(error_line(
            "refusing to write the fat binary to a terminal: redirect standard output, or give a file with -o",
        ));
    }
    if !to_stdout && same_file(input, &output) {
        return Err(error_line(&format!(
            "the output `{}` is the input file; refusing to overwrite it",
            output.display()
        )));
    }

    let colour = colour();
    if cli.explain_mapping {
        let stdout_colour = match cli.color {
            Colour::Auto => std::io::stdout().is_terminal(),
            other => other == Colour::Always,
        };
        return explain_mapping(input, &source, stdout_colour);
    }
    let start = std::time::Instant::now();
    let compiled = rkc_driver::compile(&source, &options);
    let wall = start.elapsed();
    let out = match compiled {
        Ok(out) => out,
        Err(Error::Source(diags)) if cli.error_format == ErrorFormat::Json => {
            let path = input.display().to_string();
            let n = diags.len();
            let summary = format!(
                "could not compile `{path}` due to {n} previous error{}",
                if n == 1 { "" } else { "s" }
            );
            let mut text = rkc_front::render_json(&diags, &path, &source);
            text.push_str(&rkc_front::render_json(&[code_less(&summary)], "", ""));
            return Err(text.trim_end().to_string());
        }
        Err(Error::Stage(d)) if cli.error_format == ErrorFormat::Json => {
            return Err(rkc_front::render_json(&[d], "", "").trim_end().to_string());
        }
        Err(Error::Source(diags)) => {
            let path = input.display().to_string();
            let mut text = rkc_front::render(&diags, &path, &source, colour);
            // A file-level error is its own one-line summary; errors in the code get rustc's.
            if diags.iter().any(|d| d.primary.is_some()) {
                let n = diags.len();
                text.push_str(&error_line(&format!(
                    "could not compile `{path}` due to {n} previous error{}",
                    if n == 1 { "" } else { "s" }
                )));
            }
            return Err(text);
        }
        Err(Error::Stage(d)) => return Err(rkc_front::render(&[d], "", "", colour)),
    };
    for w in &out.warnings {
        eprintln!("warning: {w}");
    }
    if to_stdout {
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(&out.fatbin).and_then(|()| stdout.flush()).map_err(|e| {
            error_line(&format!("cannot write the fat binary to standard output: {e}"))
        })?;
        emit_stages(cli, Path::new(&format!("{}.fatbin", stem(input))), &out)?;
    } else {
        write_file(&output, &out.fatbin)?;
        emit_stages(cli, &output, &out)?;
        if let Some(w) = output_name_warning(&output) {
            eprintln!("warning: {w}");
        }
    }
    if cli.time_passes {
        let sum: f64 = out.timings.iter().map(|(_, d)| d.as_secs_f64()).sum();
        eprintln!("{:<24} {:>10}", "stage", "ms");
        for (name, d) in &out.timings {
            eprintln!("{name:<24} {:>10.2}", d.as_secs_f64() * 1e3);
        }
        // The stages run on several threads (the GPU targets' pool, the host image's): the
        // compilation's wall-clock time is usually less than the sum of its stages.
        eprintln!("{:<24} {:>10.2}", "sum of the stages", sum * 1e3);
        eprintln!("{:<24} {:>10.2}", "total (wall clock)", wall.as_secs_f64() * 1e3);
    }
    Ok(())
}

fn options(cli: &Cli) -> Result<Options, String> {
    let targets = rkc_driver::parse_offload_arch(
        cli.offload_arch.as_deref().unwrap_or(rkc_driver::DEFAULT_OFFLOAD_ARCH),
    )
    .map_err(|e| error_line(&format!("--offload-arch: {e}")))?;
    let mut bounds_checks = true;
    let mut fast_math = false;
    let mut opt_level = cli.opt_level;
    let mut debug_info = cli.debug_info;
    for c in &cli.codegen {
        match c.as_str() {
            // rustc's `-C debuginfo`: rkc writes line tables (no variables), so every level
            // above none is that.
            "debuginfo=0" | "debuginfo=none" => debug_info = false,
            "debuginfo=1"
            | "debuginfo=2"
            | "debuginfo=limited"
            | "debuginfo=full"
            | "debuginfo=line-tables-only"
            | "debuginfo=line-directives-only" => debug_info = true,
            "checks=on" => bounds_checks = true,
            "checks=off" => bounds_checks = false,
            "fast-math" | "fast-math=on" => fast_math = true,
            "fast-math=off" => fast_math = false,
            // rustc's spelling of -O: `-C opt-level=N`, the later of the two winning.
            other if other.starts_with("opt-level=") => {
                opt_level = match &other["opt-level=".len()..] {
                    "0" => 0,
                    "1" => 1,
                    "2" => 2,
                    "3" => 3,
                    level => {
                        return Err(error_line(&format!(
                            "`-C opt-level={level}`: rkc's levels are 0, 1, 2 and 3 (it has no size levels `s` and `z`)"
                        )));
                    }
                };
            }
            other => {
                return Err(error_line(&format!(
                    "unknown codegen option `-C {other}`; known: checks=on, checks=off, fast-math, opt-level=N, debuginfo=N"
                )));
            }
        }
    }
    Ok(Options {
        targets,
        opt_level,
        bounds_checks,
        cubin: if cli.no_cubin { Cubin::Off } else { Cubin::WhenAvailable },
        source_name: String::new(),
        amd_assembly: cli.emit.contains(&Stage::Amdgcn),
        fast_math,
        llvm_ir: cli.emit.contains(&Stage::Llvm),
        print_ir_after_all: cli.print_ir_after_all,
        debug_info,
        default_targets: cli.offload_arch.is_none(),
        lowered_text: cli
            .emit
            .iter()
            .any(|s| matches!(s, Stage::Nvvm | Stage::Rocdl | Stage::Host)),
    })
}

/// `--explain-mapping`: one report per kernel with a sentence at each parameter.
fn explain_mapping(input: &Path, source: &str, colour: bool) -> Result<(), String> {
    let path = input.display().to_string();
    let text = rkc_driver::explain_mapping(source, &path, colour)
        .map_err(|diags| rkc_front::render(&diags, &path, source, colour))?;
    print!("{text}");
    Ok(())
}

/// The input's path as outputs spell it: remapped by the last matching `--remap-path-prefix`,
/// else relative to the current folder when it lies under it, else as given.
fn source_name(input: &Path, remaps: &[String]) -> Result<String, String> {
    let mut name = None;
    for r in remaps {
        let Some((from, to)) = r.split_once('=') else {
            return Err(error_line(&format!("`--remap-path-prefix {r}`: expected FROM=TO")));
        };
        if let Ok(rest) = input.strip_prefix(from) {
            name = Some(if to.is_empty() { rest.to_path_buf() } else { Path::new(to).join(rest) });
        }
    }
    let name = name.or_else(|| {
        let cwd = std::env::current_dir().ok()?;
        input.is_absolute().then(|| input.strip_prefix(&cwd).ok().map(Path::to_path_buf)).flatten()
    });
    Ok(name.as_deref().unwrap_or(input).display().to_string())
}

fn stem(path: &Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "kernels".into())
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Writes through a temporary file and a rename, so that a failed write never leaves a
/// half-written output in place of a good one.
fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension(format!(
        "{}.tmp{}",
        path.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default(),
        std::process::id()
    ));
    let fail = |e: std::io::Error| error_line(&format!("cannot write `{}`: {e}", path.display()));
    std::fs::write(&tmp, bytes).map_err(fail)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        fail(e)
    })
}

/// `-o kernels.ptx` (as with `nvcc -ptx -o`) names the fat binary all the same: said once, with
/// where the stage's own files go, so that nobody feeds an OffloadBinary to a PTX tool.
fn output_name_warning(output: &Path) -> Option<String> {
    let ext = output.extension()?.to_str()?;
    let base = output.with_extension("");
    let b = base.display();
    let (stage, file) = match ext {
        "ptx" => ("ptx", format!("{b}.<target>.ptx")),
        "cubin" => ("cubin", format!("{b}.<target>.cubin")),
        "s" => ("amdgcn", format!("{b}.<target>.s")),
        "hsaco" | "co" => ("hsaco", format!("{b}.<target>.hsaco")),
        "ll" => ("llvm", format!("{b}.<target>.ll")),
        "mlir" => ("gpu", format!("{b}.gpu.mlir")),
        "rk" => ("rk", format!("{b}.rk")),
        _ => return None,
    };
    Some(format!(
        "`{}` holds the fat binary (an LLVM OffloadBinary), whatever its extension; `--emit {stage}` writes that stage next to it, as `{file}`",
        output.display()
    ))
}

fn emit_stages(cli: &Cli, output: &Path, out: &Output) -> Result<(), String> {
    let base = output.with_extension("");
    let named = |suffix: &str| PathBuf::from(format!("{}.{suffix}", base.display()));
    for stage in &cli.emit {
        match stage {
            Stage::Rk => write_file(&named("rk"), out.rk.as_bytes())?,
            Stage::RkOpt => write_file(&named("opt.rk"), out.rk_optimized.as_bytes())?,
            Stage::Dot => {
                write_file(&named("calls.dot"), out.dot_calls.as_bytes())?;
                for (kernel, dot) in &out.dot_cfgs {
                    write_file(&named(&format!("{kernel}.cfg.dot")), dot.as_bytes())?;
                }
            }
            Stage::Gpu => write_file(&named("gpu.mlir"), out.gpu.as_bytes())?,
            Stage::Fatbin => {}
            Stage::Host => {
                for t in out.targets.iter().filter(|t| t.kind == TargetKind::Host) {
                    write_file(&named(&format!("{}.llvm.mlir", t.arch)), t.lowered.as_bytes())?;
                    if let Some(so) = &t.binary {
                        write_file(&named(&format!("{}.so", t.arch)), so)?;
                    }
                }
            }
            Stage::Nvvm
            | Stage::Rocdl
            | Stage::Llvm
            | Stage::Ptx
            | Stage::Cubin
            | Stage::Amdgcn
            | Stage::Hsaco => {
                for t in &out.targets {
                    let nvidia = t.kind == TargetKind::Nvidia;
                    let amd = t.kind == TargetKind::Amd;
                    let (bytes, suffix): (Option<&[u8]>, String) = match stage {
                        Stage::Nvvm if nvidia => {
                            (Some(t.lowered.as_bytes()), format!("{}.nvvm.mlir", t.arch))
                        }
                        Stage::Rocdl if amd => {
                            (Some(t.lowered.as_bytes()), format!("{}.rocdl.mlir", t.arch))
                        }
                        Stage::Llvm => {
                            (t.llvm_ir.as_ref().map(String::as_bytes), format!("{}.ll", t.arch))
                        }
                        Stage::Ptx if nvidia => (Some(&t.assembly), format!("{}.ptx", t.arch)),
                        Stage::Amdgcn if amd => (Some(&t.assembly), format!("{}.s", t.arch)),
                        Stage::Cubin if nvidia => {
                            (t.binary.as_deref(), format!("{}.cubin", t.arch))
                        }
                        Stage::Hsaco if amd => (t.binary.as_deref(), format!("{}.hsaco", t.arch)),
                        _ => (None, String::new()),
                    };
                    if let Some(bytes) = bytes {
                        write_file(&named(&suffix), bytes)?;
                    }
                }
            }
        }
    }
    Ok(())
}
