//! The front end: Rust kernels (syn) to the rk dialect, with rustc-style diagnostics.
//!
//! The stages, each in its own module:
//!
//! 1. [`items`]: parse the user's file, rkc's device core (`core_lib`) and the impls that
//!    `#[derive]` writes; give every item an identity and resolve paths (modules, `use`,
//!    items in function bodies, the prelude, `core`/`std`/`rkc_offload`).
//! 2. [`hir`]: each body that a kernel reaches, desugared, with locals and labels resolved.
//! 3. [`typeck`]: type checking by unification, per body instance (a generic function once for
//!    each set of concrete arguments), with method resolution through impls and traits.
//! 4. [`lower`]: monomorphisation and lowering to rk, from the checked types only.
//!
//! `kernels.rs` is also a module of the host crate, so it may hold host code: only what the
//! kernels reach is compiled, and nothing else is ever reported. The front end never panics on
//! user input.

pub mod codes;
mod core_lib;
pub mod diag;
mod hir;
pub mod items;
mod lower;
mod mapping;
pub mod ty;
mod typeck;

pub use diag::{Diagnostic, Span, render};
pub use mapping::explain_mapping;

use codes::*;
use rkc_rk::Module;
use std::collections::HashMap;

/// Compiles the kernels of one source file to an rk module, or returns every error found.
///
/// The module holds the kernels and every function instance they reach, with the calls still
/// in place; `rkc_rk::passes::inline_calls` removes them.
///
/// Parsing, checking, lowering and dropping the syntax tree all recurse once per level of
/// nesting in the source, so a deeply nested file (the fuzzer makes them) would overflow an
/// ordinary thread's stack: the work runs on a thread of its own with a 512 MiB stack
/// (address space, committed only as used), and expressions nested deeper than the front
/// end's limit are an error.
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
    let sources = items::Sources::new(source).map_err(|d| vec![d])?;
    let items = items::collect(&sources)?;
    if items.kernels.is_empty() {
        // One line: the reason and what to do; `rkc --explain RK0002` shows an example.
        let what = if source.trim().is_empty() { "the file is empty" } else { "the file has no kernel" };
        return Err(vec![Diagnostic::new(RK_NO_KERNEL, format!("{what}: rkc compiles functions marked `#[offload_kernel]`, and found none"))]);
    }
    let tcx = typeck::Tcx::new(&items, source);
    let mut mono = lower::Mono::new(&tcx);
    let mut seen: HashMap<String, Span> = HashMap::new();
    for &k in &items.kernels {
        let name = items.name(k).to_string();
        let span = items.def(k).span;
        if let Some(first) = seen.get(&name) {
            tcx.report(
                items::FileId::User,
                Diagnostic::new(RK_DUPLICATE_KERNEL, format!("the kernel `{name}` is defined more than once"))
                    .at(span, "defined again here")
                    .with_secondary(*first, "first defined here"),
            );
            continue;
        }
        seen.insert(name.clone(), span);
        let before = tcx.error_count();
        let ok = mono.lower_kernel(k);
        mono.drain();
        if !ok && tcx.error_count() == before {
            // Every failure reports why; should one not, the kernel is not silently left out
            // of the fat binary.
            tcx.report(
                items::FileId::User,
                Diagnostic::new(RK_INTERNAL, format!("the kernel `{name}` could not be compiled")).at(span, "rkc stopped compiling this kernel without saying why"),
            );
        }
    }
    let module = Module { funcs: std::mem::take(&mut mono.funcs), tables: std::mem::take(&mut mono.tables) };
    if !tcx.has_errors()
        && let Some(cycle) = rkc_rk::passes::CallGraph::new(&module).cycle()
    {
        let first = mono.spans.get(&cycle[0]).copied().unwrap_or_default();
        let mut d = Diagnostic::new(RK_RECURSION, format!("recursion is not supported in kernels: {}", cycle.join(" → ")))
            .at(first, format!("`{}` calls itself through this cycle", cycle[0]))
            .help("rewrite the recursion as a loop");
        for name in cycle.iter().skip(1).take(cycle.len().saturating_sub(2)) {
            if let Some(s) = mono.spans.get(name) {
                d = d.with_secondary(*s, format!("`{name}` is part of the cycle"));
            }
        }
        tcx.report(items::FileId::User, d);
    }
    let diags = tcx.take_diags();
    if diags.is_empty() { Ok(module) } else { Err(diags) }
}

#[cfg(test)]
mod tests;
