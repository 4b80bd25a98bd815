//! `rkc-opt`: runs the front end or parses rk text, then the rk passes asked for, and prints
//! the result at the stage asked for. It links neither MLIR nor LLVM: the `gpu` stage is the
//! lowering's text before MLIR parses it.
//!
//! ```text
//! rkc-opt kernels.rs --passes=inline,simplify          # rk after the passes
//! rkc-opt module.rk --passes=simplify --emit=access    # per-parameter access facts
//! rkc-opt module.rk --emit=gpu                         # lowered MLIR text
//! rkc-opt kernels.rs --passes=inline --emit=host        # the host image's MLIR text
//! ```

use clap::Parser;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "rkc-opt", version, about)]
struct Cli {
    /// A kernel file (.rs) or rk text (.rk); `-` reads rk text from stdin.
    input: String,
    /// Comma-separated rk passes to run, in order: inline, simplify, unroll, unroll-steps, version, expand-mma, expand-wgmma, expand-async-copies, expand-ldmatrix.
    #[arg(long, value_delimiter = ',')]
    passes: Vec<String>,
    /// What to print: rk (default), gpu, host (the host image's text before MLIR parses it,
    /// as for an image linked without compiler-rt: kernels with 16-bit floats or 128-bit
    /// division are left out, with the reason), access, sites.
    #[arg(long, default_value = "rk")]
    emit: String,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {}", e.trim_end());
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli) -> Result<String, String> {
    let text = if cli.input == "-" {
        std::io::read_to_string(std::io::stdin()).map_err(|e| format!("cannot read stdin: {e}"))?
    } else {
        std::fs::read_to_string(&cli.input)
            .map_err(|e| format!("cannot read `{}`: {e}", cli.input))?
    };
    let mut module = if cli.input.ends_with(".rs") {
        rkc_front::compile(&text).map_err(|d| rkc_front::render(&d, &cli.input, &text, false))?
    } else {
        rkc_rk::parse_module(&text).map_err(|e| format!("{}: {e}", cli.input))?
    };
    rkc_rk::verify(&module).map_err(|e| format!("the input does not verify: {e}"))?;
    for pass in &cli.passes {
        match pass.as_str() {
            "inline" => rkc_rk::passes::inline_calls(&mut module)
                .map_err(|r| format!("recursion: {}", r.cycle.join(" → ")))?,
            "simplify" => {
                rkc_rk::passes::simplify(&mut module);
            }
            "version" => {
                rkc_rk::passes::version_loops(&mut module, true);
            }
            "expand-mma" => {
                rkc_rk::passes::expand_mma(&mut module);
            }
            "expand-wgmma" => {
                rkc_rk::passes::expand_wgmma(&mut module);
            }
            "expand-async-copies" => {
                rkc_rk::passes::expand_async_copies(&mut module);
            }
            "expand-ldmatrix" => {
                rkc_rk::passes::expand_ldmatrix(&mut module);
            }
            "unroll" => {
                rkc_rk::passes::unroll_private_loops(&mut module);
            }
            "unroll-steps" => {
                rkc_rk::passes::unroll_tile_steps(&mut module);
            }
            other => {
                return Err(format!(
                    "unknown pass `{other}`; passes: inline, simplify, unroll, unroll-steps, version, expand-mma, expand-wgmma, expand-async-copies, expand-ldmatrix"
                ));
            }
        }
        rkc_rk::verify(&module).map_err(|e| format!("after `{pass}`: {e}"))?;
    }
    let verified = rkc_rk::verify(&module).map_err(|e| e.to_string())?;
    Ok(match cli.emit.as_str() {
        "rk" => rkc_rk::print_module(&module),
        "gpu" => rkc_lower::lower(&verified, &rkc_lower::LowerOptions::default())
            .map_err(|e| format!("{e} (add --passes=inline)"))?,
        "host" => {
            let host = rkc_lower::lower_host(&verified, &rkc_lower::LowerOptions::default())
                .map_err(|e| format!("{e} (add --passes=inline)"))?;
            let mut out = host.text;
            for (kernel, reason) in host.left_out {
                out.push_str(&format!("// left out: @{kernel}: {reason}\n"));
            }
            out
        }
        "access" => {
            let mut out = String::new();
            for f in module.kernels() {
                let facts = rkc_rk::passes::access_of_params(f);
                for (p, a) in f.params.iter().zip(facts) {
                    out.push_str(&format!("@{} {}: {a:?}\n", f.name, p.name));
                }
            }
            out
        }
        "sites" => {
            let mut out = String::new();
            for f in module.kernels() {
                for (k, s) in rkc_rk::panics::panic_sites(f).iter().enumerate() {
                    out.push_str(&format!(
                        "@{} site {k} at {}:{}: {}\n",
                        f.name, s.loc.line, s.loc.col, s.message
                    ));
                }
                for (k, s) in rkc_rk::prints::print_sites(f).iter().enumerate() {
                    let kinds: Vec<String> = s.kinds.iter().map(|k| k.name()).collect();
                    out.push_str(&format!(
                        "@{} print {k} at {}:{} to {} ({}): {:?}\n",
                        f.name,
                        s.line,
                        s.col,
                        if s.stderr { "stderr" } else { "stdout" },
                        kinds.join(", "),
                        s.format
                    ));
                }
            }
            out
        }
        other => {
            return Err(format!("unknown --emit `{other}`; one of rk, gpu, host, access, sites"));
        }
    })
}
