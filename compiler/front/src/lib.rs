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

pub use diag::{Diagnostic, Span, render, render_json};
pub use mapping::explain_mapping;

use codes::*;
use rkc_rk::Module;
use std::collections::HashMap;

/// Compiles the kernels of one source file to an rk module, or returns every error found.
///
/// The module holds the kernels and every function instance they reach, with the calls still
/// in place; `rkc_rk::passes::inline_calls` removes them.
///
/// The work runs on the front end's own thread, which keeps the parsed device core between
/// compilations (parsing it is most of the cost of a small kernel file; syntax trees cannot
/// leave the thread that parsed them). That thread has a 512 MiB stack (address space,
/// committed only as used): checking, lowering and dropping syntax trees recurse once per
/// level of nesting in the source, and expressions nested deeper than the front end's limit
/// are an error. It is replaced after it has read 64 MiB of user text, which the parser's
/// thread-local source map keeps.
pub fn compile(source: &str) -> Result<Module, Vec<Diagnostic>> {
    static WORKER: std::sync::Mutex<FrontThread> = std::sync::Mutex::new(FrontThread::new());
    WORKER.lock().unwrap_or_else(|e| e.into_inner()).compile(source)
}

/// A thread that runs the front end (see [`compile`]): it keeps its parsed device core between
/// compilations and is replaced after it has read 64 MiB of user text. Each `FrontThread` has a
/// thread of its own, so that several can compile side by side (the no-panic test does).
struct FrontThread {
    jobs: Option<std::sync::mpsc::Sender<FrontJob>>,
    /// Bytes of user text the current thread has read.
    read: usize,
}

type FrontReply = std::thread::Result<Result<Module, Vec<Diagnostic>>>;
type FrontJob = (String, std::sync::mpsc::Sender<FrontReply>);

impl FrontThread {
    const fn new() -> FrontThread {
        FrontThread { jobs: None, read: 0 }
    }

    fn compile(&mut self, source: &str) -> Result<Module, Vec<Diagnostic>> {
        if self.jobs.is_none() || self.read > 64 << 20 {
            self.jobs = Self::spawn();
            self.read = 0;
        }
        self.read += source.len();
        let (reply_tx, reply_rx) = std::sync::mpsc::channel();
        if let Some(tx) = &self.jobs
            && tx.send((source.to_string(), reply_tx)).is_ok()
            && let Ok(out) = reply_rx.recv()
        {
            return out.unwrap_or_else(|p| std::panic::resume_unwind(p));
        }
        // No thread to be had: compile on this one.
        compile_here(source)
    }

    fn spawn() -> Option<std::sync::mpsc::Sender<FrontJob>> {
        let (tx, rx) = std::sync::mpsc::channel::<FrontJob>();
        std::thread::Builder::new()
            .name("rkc-front".into())
            .stack_size(512 << 20)
            .spawn(move || {
                for (text, reply) in rx {
                    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        compile_here(&text)
                    }));
                    let _ = reply.send(out);
                }
            })
            .ok()?;
        Some(tx)
    }
}

fn compile_here(source: &str) -> Result<Module, Vec<Diagnostic>> {
    let timing = std::env::var_os("RKC_TIME_FRONT").is_some();
    let t0 = std::time::Instant::now();
    let sources = items::Sources::new(source).map_err(|d| vec![d])?;
    let t1 = std::time::Instant::now();
    let items = items::collect(&sources)?;
    let t2 = std::time::Instant::now();
    if timing {
        eprintln!("front: parse {:?}, collect {:?}", t1 - t0, t2 - t1);
    }
    if items.kernels.is_empty() {
        // One line: the reason and what to do; `rkc --explain RK0002` shows an example.
        let what =
            if source.trim().is_empty() { "the file is empty" } else { "the file has no kernel" };
        return Err(vec![Diagnostic::new(
            RK_NO_KERNEL,
            format!("{what}: rkc compiles functions marked `#[offload_kernel]`, and found none"),
        )]);
    }
    let tcx = typeck::Tcx::new(&items, source);
    tcx.check_trait_impls();
    tcx.check_impl_overlap();
    tcx.check_inherent_duplicates();
    let mut mono = lower::Mono::new(&tcx);
    let mut seen: HashMap<String, Span> = HashMap::new();
    for &k in &items.kernels {
        let name = items.name(k).to_string();
        let span = items.def(k).span;
        if let Some(first) = seen.get(&name) {
            tcx.report(
                items::FileId::User,
                Diagnostic::new(
                    RK_DUPLICATE_KERNEL,
                    format!("the kernel `{name}` is defined more than once"),
                )
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
                Diagnostic::new(RK_INTERNAL, format!("the kernel `{name}` could not be compiled"))
                    .at(span, "rkc stopped compiling this kernel without saying why"),
            );
        }
    }
    let module =
        Module { funcs: std::mem::take(&mut mono.funcs), tables: std::mem::take(&mut mono.tables) };
    if !tcx.has_errors()
        && let Some(cycle) = rkc_rk::passes::CallGraph::new(&module).cycle()
    {
        let first = mono.spans.get(&cycle[0]).copied().unwrap_or_default();
        let mut d = Diagnostic::new(
            RK_RECURSION,
            format!("recursion is not supported in kernels: {}", cycle.join(" → ")),
        )
        .at(first, format!("`{}` calls itself through this cycle", cycle[0]))
        .help("rewrite the recursion as a loop");
        for name in cycle.iter().skip(1).take(cycle.len().saturating_sub(2)) {
            if let Some(s) = mono.spans.get(name) {
                d = d.with_secondary(*s, format!("`{name}` is part of the cycle"));
            }
        }
        tcx.report(items::FileId::User, d);
    }
    if !tcx.has_errors() {
        for d in divergent_barriers(&module, source) {
            tcx.report(items::FileId::User, d);
        }
    }
    if timing {
        eprintln!("front: check and lower {:?}", t2.elapsed());
    }
    let diags = tcx.take_diags();
    if diags.is_empty() { Ok(module) } else { Err(diags) }
}

/// The barriers that some threads of a block reach and others do not (see
/// `rkc_rk::passes::uniform`), as errors at the barrier with the condition that divergence
/// comes from. The analysis runs on each kernel with its calls inlined (a copy of the
/// module), so that a barrier in a device function is judged where it is called.
fn divergent_barriers(module: &Module, source: &str) -> Vec<Diagnostic> {
    use rkc_rk::passes::uniform::{Divergence, divergent_barriers};
    // Most kernels never wait at a barrier: no copy to inline then.
    if !module.kernels().any(|k| rkc_rk::interp::synchronises(module, k, &mut Vec::new())) {
        return Vec::new();
    }
    let mut inlined = module.clone();
    if rkc_rk::passes::inline_calls(&mut inlined).is_err() {
        return Vec::new();
    }
    let mut out: Vec<Diagnostic> = Vec::new();
    for k in inlined.kernels() {
        for b in divergent_barriers(k) {
            let label = match b.why {
                Divergence::Condition(_) => "this condition differs between the threads of a block",
                Divergence::Loop(_) => {
                    "threads leave the loop around the barrier at different iterations here"
                }
                Divergence::Return(_) => "threads that return here never reach the barrier",
            };
            let at = b.why.loc();
            let d = Diagnostic::new(
                RK_DIVERGENT_BARRIER,
                "`sync_threads()` is reached by some threads of a block and not by others",
            )
            .at(loc_span(source, b.barrier), "this barrier waits for every thread of the block")
            .with_secondary(loc_span(source, at), label)
            .help("move the barrier out of the condition, or make the condition one that every thread of the block computes alike (from block indices, parameters, or shared memory read after a barrier)");
            if !out.contains(&d) {
                out.push(d);
            }
        }
    }
    out
}

/// The span of the word that starts at `loc` in `source` (`if`, `while`, `sync_threads`...),
/// at least one character.
fn loc_span(source: &str, loc: rkc_rk::Loc) -> Span {
    let (line, col) = (loc.line as usize, (loc.col as usize).saturating_sub(1));
    let text = source.lines().nth(line.saturating_sub(1)).unwrap_or("");
    let len =
        text.chars().skip(col).take_while(|c| c.is_alphanumeric() || *c == '_').count().max(1);
    Span { start: (line, col), end: (line, col + len) }
}

#[cfg(test)]
mod tests;

/// The test binary's allocator, the one the compiler (tools/rkc) runs with: the no-panic test
/// compiles some forty thousand files, and with glibc's allocator a third of its time was
/// allocating and freeing syntax trees.
#[cfg(test)]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
