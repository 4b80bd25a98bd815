//! The front end: parses `kernels.rs` with syn, finds the `#[offload_kernel]` functions and
//! lowers each to an rk function, reporting everything it cannot take as a rustc-style
//! diagnostic with a code and a span. It never panics on user input.
//!
//! `kernels.rs` is also a module of the host crate, so it may hold host code; only the
//! kernels (and, later, what they call) are compiled, everything else is ignored.

pub mod codes;
pub mod diag;
mod lower;
mod mapping;
mod program;

pub use diag::{Diagnostic, Span, render};
pub use mapping::explain_mapping;
pub use lower::{geometry_builtin, lower_type};

use codes::*;
use program::Program;
use rkc_rk::Module;
use std::collections::HashMap;

/// Compiles the kernels of one source file to an rk module, or returns every error found.
///
/// The module holds the kernels and every device function instance they reach, with the
/// calls still in place; `rkc_rk::passes::inline_calls` removes them.
///
/// Parsing, lowering and dropping the syntax tree all recurse once per level of nesting in the
/// source, so a deeply nested file (the fuzzer makes them) would overflow an ordinary thread's
/// stack: the work runs on a thread of its own with a 512 MiB stack (address space, committed
/// only as used), and expressions nested deeper than the front end's limit are an error.
pub fn compile(source: &str) -> Result<Module, Vec<Diagnostic>> {
    std::thread::scope(|scope| {
        match std::thread::Builder::new().name("rkc-front".into()).stack_size(512 << 20).spawn_scoped(scope, || compile_here(source)) {
            Ok(handle) => handle.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            // No thread to be had: compile on this one.
            Err(_) => compile_here(source),
        }
    })
}

fn compile_here(source: &str) -> Result<Module, Vec<Diagnostic>> {
    let file = syn::parse_file(source).map_err(|e| vec![syntax_error(&e)])?;
    let kernels = Program::kernels(&file);
    if kernels.is_empty() {
        // One line: the reason and what to do; `rkc --explain RK0002` shows an example.
        let what = if source.trim().is_empty() { "the file is empty" } else { "the file has no kernel" };
        return Err(vec![Diagnostic::new(
            RK_NO_KERNEL,
            format!("{what}: rkc compiles functions marked `#[offload_kernel]`, and found none"),
        )]);
    }
    let methods = program::impl_methods(&file);
    let mut prog = Program::new(source, &file, &methods);
    let mut seen: HashMap<String, Span> = HashMap::new();
    for item in kernels {
        let name = item.sig.ident.to_string();
        let span = Span::from_pm2(item.sig.ident.span());
        if let Some(first) = seen.get(&name) {
            prog.diags.push(
                Diagnostic::new(RK_DUPLICATE_KERNEL, format!("the kernel `{name}` is defined more than once"))
                    .at(span, "defined again here")
                    .with_secondary(*first, "first defined here"),
            );
            continue;
        }
        seen.insert(name.clone(), span);
        let before = prog.diags.len();
        if prog.lower_kernel(item).is_err() && prog.diags.len() == before {
            // Every failure must have been reported; should one not be, say so rather than
            // leave the kernel out of the fat binary silently.
            prog.diags.push(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, format!("the kernel `{name}` could not be compiled"))
                    .at(span, "rkc found an unsupported construct here without a specific message; please report it"),
            );
        }
        prog.drain();
    }
    let module = Module { funcs: std::mem::take(&mut prog.funcs), tables: std::mem::take(&mut prog.tables) };
    if prog.diags.is_empty()
        && let Some(cycle) = rkc_rk::passes::CallGraph::new(&module).cycle()
    {
        let first = prog.spans.get(&cycle[0]).copied().unwrap_or_default();
        let mut d = Diagnostic::new(RK_RECURSION, format!("recursion is not supported in kernels: {}", cycle.join(" → ")))
            .at(first, format!("`{}` calls itself through this cycle", cycle[0]))
            .help("rewrite the recursion as a loop");
        for name in cycle.iter().skip(1).take(cycle.len().saturating_sub(2)) {
            if let Some(s) = prog.spans.get(name) {
                d = d.with_secondary(*s, format!("`{name}` is part of the cycle"));
            }
        }
        prog.diags.push(d);
    }
    if prog.diags.is_empty() { Ok(module) } else { Err(prog.diags) }
}

fn syntax_error(e: &syn::Error) -> Diagnostic {
    Diagnostic::new(RK_SYNTAX, format!("this file is not valid Rust: {e}"))
        .at(Span::from_pm2(e.span()), e.to_string())
}

#[cfg(test)]
mod tests;
