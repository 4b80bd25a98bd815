//! The host image's text: each kernel the host can run as a plain function over its
//! threads.
//!
//! A kernel becomes two functions in a module of upstream dialects (no `gpu` ops):
//!
//! - `@__rkc_body_K`, internal: the kernel's body for one thread, as the GPU emitters write it,
//!   with twelve `index` parameters after the panic record for the thread's position
//!   (`thread_id`, `block_id`, `block_dim`, `grid_dim`, each x, y, z), and allocas for what
//!   is private memory on a GPU;
//! - `@__rkc_host_K(params: !llvm.ptr, dims: !llvm.ptr, begin: i64, end: i64)`, exported:
//!   runs the blocks whose linear index (`x + gx * (y + gy * z)`) is in `begin..end`, each
//!   block's threads in x-fastest order. `params` is the array `cuLaunchKernel` receives (a
//!   pointer to each parameter slot's value, the panic record's address last), `dims` seven
//!   u32: the grid's x, y, z, then the block's, then the launch's dynamic shared memory in
//!   bytes. It touches no state but its arguments, so the
//!   runtime calls it from several host threads at once with disjoint block ranges.
//!
//! Running a block's threads one after another is the GPU's semantics only for kernels whose
//! threads never wait for each other. A kernel with barriers, warp exchanges or shared arrays
//! becomes instead one function per block (`Block`: `@__rkc_body_K` then takes the block's
//! position and runs its threads itself, in loops between the barriers and exchanges). So does
//! a kernel with a grid-stride loop (`i += grid_dim * block_dim`), which the block function
//! runs in lockstep, as a GPU does (see `lockstep_loops`). Kernels with 16-bit floats, 128-bit
//! division or conversions between 128-bit integers and floats, which the x86-64 back end
//! lowers to calls of compiler-rt functions, are in the image when the driver links it with
//! compiler-rt's builtins (`LowerOptions::compiler_rt`), and left out otherwise (with the
//! reason, which the runtime shows, running them on its simulator): a loaded shared object
//! cannot count on finding those functions.

mod exchange;
mod plan;

use super::{FuncEmitter, mlir_type};
use crate::LowerOptions;
use plan::{Plan, at_block_level, inputs, lockstep_loops, uniform_slots, walk};
use rkc_rk::{BinOp, FloatTy, Func, IntTy, Module, Op, OpKind, Type, ValueId, WarpOp};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

/// The body's position parameters, in order.
pub(crate) const GEOMETRY: [&str; 12] = [
    "%host_thread_id_x",
    "%host_thread_id_y",
    "%host_thread_id_z",
    "%host_block_id_x",
    "%host_block_id_y",
    "%host_block_id_z",
    "%host_block_dim_x",
    "%host_block_dim_y",
    "%host_block_dim_z",
    "%host_grid_dim_x",
    "%host_grid_dim_y",
    "%host_grid_dim_z",
];

pub(crate) const BODY_PREFIX: &str = "__rkc_body_";

/// A block function's last parameter: the launch's dynamic shared memory in bytes.
pub(crate) const DYNAMIC_SHARED_BYTES: &str = "%host_dynamic_shared_bytes";

/// The exported entry's name is this prefix and the kernel's name; the runtime looks it up.
pub const ENTRY_PREFIX: &str = "__rkc_host_";

/// The host stage of a module.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostModule {
    /// The module's text, empty of functions when no kernel can run on the host.
    pub text: String,
    /// The kernels it holds, in module order.
    pub kernels: Vec<String>,
    /// The kernels left out, each with the reason in words.
    pub left_out: Vec<(String, String)>,
}

/// Emits the host stage of every kernel the host can run.
pub(crate) fn host_module(module: &Module, options: &LowerOptions) -> HostModule {
    // Line information is for the GPU images' tools; the host image carries none.
    let options = LowerOptions { debug_file: None, ..options.clone() };
    let mut out = HostModule::default();
    let mut funcs = String::new();
    let mut globals: Vec<String> = Vec::new();
    for func in module.kernels() {
        if let Some(reason) = unsupported(func).filter(|_| !options.compiler_rt) {
            out.left_out.push((func.name.clone(), reason));
            continue;
        }
        let mut emitter = FuncEmitter::new(func, module, &options);
        emitter.host = true;
        // Threads that wait for each other or share memory, or walk memory with the grid's
        // stride: one function per block.
        let lockstep = lockstep_loops(func);
        let mut block = !lockstep.is_empty();
        walk(&func.body.ops, &mut |o| {
            block |= matches!(
                o.kind,
                OpKind::Barrier
                    | OpKind::Shared
                    | OpKind::DynShared
                    | OpKind::Warp(_)
                    | OpKind::Mma(_)
            );
        });
        if block && let Err(reason) = emitter.plan_block(lockstep) {
            out.left_out.push((func.name.clone(), reason));
            continue;
        }
        for g in emitter.emit(&mut funcs) {
            if !globals.contains(&g) {
                globals.push(g);
            }
        }
        entry(func, block, &mut funcs);
        out.kernels.push(func.name.clone());
    }
    out.text.push_str("module {\n");
    for g in &globals {
        out.text.push_str(g);
    }
    out.text.push_str(&funcs);
    out.text.push_str("}\n");
    // Per-thread memory is in the default space on the host.
    out.text = out.text.replace(", #gpu.address_space<private>>", ">");
    out
}

/// Why the host image leaves a kernel out when it is linked without compiler-rt, if it does:
/// the x86-64 back end lowers these to compiler-rt calls (`__divti3`, `__floattisf`,
/// `__extendhfsf2`), which a loaded shared object cannot count on finding.
fn unsupported(func: &Func) -> Option<String> {
    let wide_int = |v: &ValueId| matches!(func.ty(*v), Some(Type::Int(IntTy::I128 | IntTy::U128)));
    let float = |v: &ValueId| matches!(func.ty(*v), Some(Type::Float(_)));
    let mut reason = None;
    walk(&func.body.ops, &mut |op| {
        let found = match op.kind {
            OpKind::Binary(BinOp::Div | BinOp::Rem) if op.operands.iter().any(wide_int) => {
                Some("it divides 128-bit integers")
            }
            OpKind::Cast
                if (op.operands.iter().any(wide_int) && op.results.iter().any(float))
                    || (op.operands.iter().any(float) && op.results.iter().any(wide_int)) =>
            {
                Some("it converts between 128-bit integers and floats")
            }
            _ => None,
        };
        reason = reason.or(found);
    });
    fn half(ty: &Type) -> bool {
        match ty {
            Type::Float(FloatTy::F16 | FloatTy::Bf16) => true,
            Type::Ptr { pointee, .. } => half(pointee),
            Type::Array { elem, .. } | Type::Slice { elem, .. } => half(elem),
            Type::Slot(t) => half(t),
            Type::Struct { fields, .. } => fields.iter().any(|(_, t)| half(t)),
            _ => false,
        }
    }
    reason
        .or_else(|| func.values.iter().any(half).then_some("it uses 16-bit floats"))
        .map(str::to_string)
}

/// Writes `@__rkc_host_K`, the exported loop over a range of blocks and their threads.
fn entry(func: &Func, block: bool, out: &mut String) {
    // The body's parameters after unpacking: one slot each, a slice two (address, length).
    let mut slots: Vec<String> = Vec::new();
    for p in &func.params {
        match func.ty(p.value) {
            Some(Type::Slice { .. }) => {
                slots.push("!llvm.ptr<1>".into());
                slots.push("i64".into());
            }
            Some(Type::Ptr { .. }) => slots.push("!llvm.ptr<1>".into()),
            Some(t) => slots.push(mlir_type(t)),
            None => slots.push("i64".into()),
        }
    }
    slots.push("!llvm.ptr<1>".into());
    let name = &func.name;
    let _ = writeln!(
        out,
        "  func.func @{ENTRY_PREFIX}{name}(%params: !llvm.ptr, %dims: !llvm.ptr, %begin: i64, %end: i64) {{"
    );
    let mut l = |s: String| {
        let _ = writeln!(out, "    {s}");
    };
    l("%c0 = arith.constant 0 : index".into());
    l("%c1 = arith.constant 1 : index".into());
    let mut args = Vec::new();
    for (k, ty) in slots.iter().enumerate() {
        l(format!(
            "%slot{k} = llvm.getelementptr %params[{k}] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr"
        ));
        l(format!("%at{k} = llvm.load %slot{k} : !llvm.ptr -> !llvm.ptr"));
        l(format!("%arg{k} = llvm.load %at{k} : !llvm.ptr -> {ty}"));
        args.push(format!("%arg{k}"));
    }
    for d in 0..6 {
        l(format!("%dim{d}_at = llvm.getelementptr %dims[{d}] : (!llvm.ptr) -> !llvm.ptr, i32"));
        l(format!("%dim{d}_word = llvm.load %dim{d}_at : !llvm.ptr -> i32"));
        l(format!("%dim{d} = arith.index_castui %dim{d}_word : i32 to index"));
    }
    if block {
        l("%dynamic_at = llvm.getelementptr %dims[6] : (!llvm.ptr) -> !llvm.ptr, i32".into());
        l("%dynamic_word = llvm.load %dynamic_at : !llvm.ptr -> i32".into());
        l("%dynamic_bytes = arith.extui %dynamic_word : i32 to i64".into());
    }
    l("%grid_xy = arith.muli %dim0, %dim1 : index".into());
    l("%first = arith.index_castui %begin : i64 to index".into());
    l("%last = arith.index_castui %end : i64 to index".into());
    l("scf.for %b = %first to %last step %c1 {".into());
    l("  %bx = arith.remui %b, %dim0 : index".into());
    l("  %b_yz = arith.divui %b, %dim0 : index".into());
    l("  %by = arith.remui %b_yz, %dim1 : index".into());
    l("  %bz = arith.divui %b, %grid_xy : index".into());
    if block {
        // A block function runs the block's threads itself; `dims[6]` is the launch's dynamic
        // shared memory in bytes.
        let geometry = "%bx, %by, %bz, %dim3, %dim4, %dim5, %dim0, %dim1, %dim2, %dynamic_bytes";
        let types: Vec<String> = slots
            .iter()
            .cloned()
            .chain(std::iter::repeat_n("index".to_string(), 9))
            .chain(["i64".to_string()])
            .collect();
        l(format!(
            "  func.call @{BODY_PREFIX}{name}({}, {geometry}) : ({}) -> ()",
            args.join(", "),
            types.join(", ")
        ));
    } else {
        l("  scf.for %tz = %c0 to %dim5 step %c1 {".into());
        l("    scf.for %ty = %c0 to %dim4 step %c1 {".into());
        l("      scf.for %tx = %c0 to %dim3 step %c1 {".into());
        let geometry = "%tx, %ty, %tz, %bx, %by, %bz, %dim3, %dim4, %dim5, %dim0, %dim1, %dim2";
        let types: Vec<String> =
            slots.iter().cloned().chain(std::iter::repeat_n("index".to_string(), 12)).collect();
        l(format!(
            "        func.call @{BODY_PREFIX}{name}({}, {geometry}) : ({}) -> ()",
            args.join(", "),
            types.join(", ")
        ));
        l("      }".into());
        l("    }".into());
        l("  }".into());
    }
    l("}".into());
    l("return".into());
    let _ = writeln!(out, "  }}");
}

/// The most threads a block has (the runtime's limit, every GPU's): per-thread storage in a
/// block function has this many elements.
const MAX_THREADS: u64 = 1024;

/// The iterations of a grid-stride loop each thread runs before the next thread runs its own
/// (see `FuncEmitter::strip`): enough to pay for the block function's bookkeeping, few enough
/// that the cache lines a strip reads, a grid's stride apart and so in one set of the caches,
/// stay there for the next threads (the L1 caches of x86-64 CPUs have 8 or 12 ways).
const STRIP: u64 = 8;

/// The most stack a block function may take (the runtime runs host images on threads with a
/// larger stack than this); a kernel that needs more is left to the simulator.
const MAX_BLOCK_FRAME: u64 = 32 << 20;

/// A kernel whose threads wait for each other, as one function per block (the technique of
/// pocl's work-group functions and of COX's hierarchical collapsing, over rk's structured
/// control flow): its stretches without barriers or warp exchanges become loops over the
/// block's threads, and the loops and `if`s that contain them run once for the block, between
/// them, with a mask per thread (SIMT's): an `if`'s arms run one after the other, each for the
/// threads whose condition chose it; a loop runs while a thread is in it, and a thread that
/// breaks or continues leaves it or its iteration. A barrier ends one stretch and starts the
/// next; a warp exchange (shuffle, vote, reduction) is computed between stretches for every
/// warp at once, in `rkc_simt`'s order. Values that live from one stretch into another are
/// kept per thread (arrays of `MAX_THREADS` elements), as are slots and local arrays; shared
/// arrays are the block's own. A thread that returns or panics is done and skips the rest.
pub(crate) struct Block<'f> {
    /// Per-thread storage of the values used in a stretch other than their own.
    cross: HashMap<ValueId, String>,
    /// Values made again in each stretch that uses them: constants and local arrays.
    remat: HashMap<ValueId, &'f Op>,
    /// The block function's control around the current stretch, outermost first.
    levels: Vec<Level>,
    names: usize,
    /// Addresses into the block's shared arrays, which only the host thread running the block
    /// touches: atomic operations on them need no atomic instruction.
    shared: HashSet<ValueId>,
    /// The loops run in lockstep (`lockstep_loops`).
    lockstep: HashSet<*const Op>,
    /// The loops (indices into `levels`) that a thread of the stretch being written may leave
    /// or end an iteration of: their `full` flags are recomputed after the stretch.
    raised: Vec<usize>,
    /// The slots whose value is the same in every thread whenever every thread runs
    /// (`uniform_slots`).
    uniform: HashSet<ValueId>,
    /// The slots that the stretch copy being written, the one for when every thread runs it,
    /// reads from thread 0's element: uniform ones the stretch does not write. The address of
    /// such a read is then the same in every iteration of the loop over the threads, which
    /// LLVM hoists, and what is computed from it (`a[row * n + k0 + tx]`) is affine in the
    /// thread's position: a vector load, where an index read from each thread's element was a
    /// gather to LLVM.
    pub(crate) fast_reads: HashSet<ValueId>,
}

/// A level of the block function's control around a stretch; each has a per-thread mask
/// (`memref<1024xi1>`) of the threads it runs, and a flag (`full`, `memref<1xi1>`) that is
/// true when that mask holds every thread of the block.
#[derive(Clone, Debug)]
enum Level {
    /// An arm of an `if`: the threads whose condition chose it.
    Arm { mask: String, full: String },
    /// A loop: the threads still in it (`live`, cleared by `break`), those in its current
    /// iteration (`iter`, cleared by `continue` and `break`), and its results.
    Loop { live: String, iter: String, full: String, results: Vec<ValueId> },
}

impl Level {
    /// The mask a thread must be in to run under this level, and its `full` flag.
    fn mask(&self) -> (&str, &str) {
        match self {
            Level::Arm { mask, full } => (mask, full),
            Level::Loop { iter, full, .. } => (iter, full),
        }
    }
}

impl Block<'_> {
    pub(crate) fn is_block_private(&self, address: ValueId) -> bool {
        self.shared.contains(&address)
    }

    /// The lines that mark the current thread done: its flag, and the block's flag that says
    /// every thread is still running.
    pub(crate) fn finish_thread(&self) -> [String; 2] {
        [
            "memref.store %blk_true, %blk_done[%blk_tid] : memref<1024xi1>".into(),
            "memref.store %blk_false, %blk_alive[%blk_c0] : memref<1xi1>".into(),
        ]
    }

    /// The block function's loop `depth` loops out of the current stretch.
    fn target(&self, depth: usize) -> Option<&Level> {
        self.levels.iter().rev().filter(|l| matches!(l, Level::Loop { .. })).nth(depth)
    }

    /// The lines by which the current thread leaves (`brk`) the block function's loop `depth`
    /// loops out, or its iteration.
    pub(crate) fn raise(&mut self, depth: usize, brk: bool) -> Vec<String> {
        let level = self
            .levels
            .iter()
            .enumerate()
            .rev()
            .filter(|(_, l)| matches!(l, Level::Loop { .. }))
            .nth(depth)
            .map(|(k, _)| k);
        if let Some(k) = level
            && !self.raised.contains(&k)
        {
            self.raised.push(k);
        }
        let Some(Level::Loop { live, iter, .. }) = self.target(depth) else { return Vec::new() };
        let mut lines =
            vec![format!("memref.store %blk_false, {iter}[%blk_tid] : memref<1024xi1>")];
        if brk {
            lines.push(format!("memref.store %blk_false, {live}[%blk_tid] : memref<1024xi1>"));
        }
        lines
    }

    /// The results of the block function's loop `depth` loops out of the current stretch.
    pub(crate) fn loop_results(&self, depth: usize) -> Vec<ValueId> {
        match self.target(depth) {
            Some(Level::Loop { results, .. }) => results.clone(),
            _ => Vec::new(),
        }
    }
}

impl<'f> FuncEmitter<'f> {
    /// Prepares `self` to write `func` as a block function, or says why it cannot be one.
    pub(crate) fn plan_block(&mut self, lockstep: HashSet<*const Op>) -> Result<(), String> {
        let func = self.func;
        let mut plan = Plan {
            defined_in: HashMap::new(),
            uses: Vec::new(),
            defining: HashMap::new(),
            forced: Vec::new(),
            stretches: 0,
            lockstep,
            func,
        };
        plan.region(&func.body.ops).map_err(str::to_string)?;
        let lockstep = std::mem::take(&mut plan.lockstep);
        let (cross, remat) = plan.finish();
        // The block function's frame: per-thread values, slots and local arrays, the block's
        // shared arrays.
        let mut frame: u64 = MAX_THREADS * 8 * cross.len() as u64;
        let mut shared_sites: Vec<String> = Vec::new();
        let mut dynamic = false;
        let mut lines: Vec<String> = vec![
            format!("%blk_threads = llvm.mlir.constant({MAX_THREADS} : i64) : i64"),
            "%blk_one = llvm.mlir.constant(1 : i64) : i64".into(),
            "%blk_warp = llvm.mlir.constant(32 : i64) : i64".into(),
            "%blk_done = memref.alloca() : memref<1024xi1>".into(),
            "%blk_alive = memref.alloca() : memref<1xi1>".into(),
        ];
        let mut keep: Vec<(&ValueId, &String)> = cross.iter().collect();
        keep.sort_by_key(|(x, _)| x.0);
        for (x, base) in keep {
            let ty = self.ty(*x);
            lines.push(format!(
                "{base} = llvm.alloca %blk_threads x {ty} {{alignment = 16 : i64}} : (i64) -> !llvm.ptr"
            ));
        }
        let mut shared = HashSet::new();
        walk(&func.body.ops, &mut |op| {
            let derived =
                matches!(op.kind, OpKind::ElemPtr | OpKind::PtrOffset | OpKind::FieldPtr { .. })
                    && op.operands.first().is_some_and(|p| shared.contains(p));
            if matches!(op.kind, OpKind::Shared | OpKind::DynShared) || derived {
                shared.extend(op.results.iter().copied());
            }
            let size = |t: Option<&Type>| t.map_or(0, Type::size_of);
            match op.kind {
                OpKind::Var => {
                    let slot = match self.func.ty(op.results[0]) {
                        Some(Type::Slot(t)) => Some(&**t),
                        _ => None,
                    };
                    frame += MAX_THREADS * size(slot).max(8);
                }
                OpKind::Local => {
                    let ty = self.rk_ty(op.results[0]).pointee();
                    frame += MAX_THREADS * size(ty);
                    let array = ty.filter(|t| t.is_storable()).map_or("i8".into(), mlir_type);
                    lines.push(format!(
                        "{}_base = llvm.alloca %blk_threads x {array} {{alignment = 16 : i64}} : (i64) -> !llvm.ptr",
                        super::v(op.results[0])
                    ));
                }
                OpKind::Shared => {
                    let ty = self.rk_ty(op.results[0]);
                    frame += size(ty.pointee());
                    let (elem, len, tag) = match ty.pointee() {
                        Some(Type::Array { elem, len }) => {
                            (mlir_type(elem), *len, super::shared_tag(elem))
                        }
                        _ => ("i8".into(), 0, String::new()),
                    };
                    // One array per source site and element type, as on a GPU (`emit`'s
                    // globals).
                    let site = format!("%blk_shared_{}_{}_{tag}_{len}", op.loc.line, op.loc.col);
                    if !shared_sites.contains(&site) {
                        // As on the GPU where a module has swizzled warpgroup multiplies
                        // (`LowerOptions::swizzled_tiles`); on the host stack it costs nothing.
                        let bytes = ty.pointee().map_or(0, Type::size_of);
                        let align = if bytes >= 1024 { 1024 } else { 16 };
                        lines.push(format!(
                            "{site} = llvm.alloca %blk_one x !llvm.array<{len} x {elem}> {{alignment = {align} : i64}} : (i64) -> !llvm.ptr"
                        ));
                        shared_sites.push(site.clone());
                    }
                    lines.push(format!(
                        "{} = llvm.getelementptr {site}[0] : (!llvm.ptr) -> !llvm.ptr, i8",
                        super::v(op.results[0])
                    ));
                }
                // A reduction's two buffers of a warp's values.
                OpKind::Warp(WarpOp::Reduce(_)) => {
                    let ty = self.ty(op.results[0]);
                    for buffer in ["a", "b"] {
                        lines.push(format!(
                            "%blk_lanes_{buffer}{} = llvm.alloca %blk_warp x {ty} {{alignment = 16 : i64}} : (i64) -> !llvm.ptr",
                            op.results[0].0
                        ));
                    }
                }
                OpKind::DynShared => {
                    // The launch's `dyn_cache` bytes, the block's own (the runtime's limit is
                    // 48 KiB, well inside a host thread's stack).
                    if !dynamic {
                        lines.push(format!(
                            "%blk_dynamic = llvm.alloca {DYNAMIC_SHARED_BYTES} x i8 {{alignment = 1024 : i64}} : (i64) -> !llvm.ptr"
                        ));
                        dynamic = true;
                    }
                    lines.push(format!(
                        "{} = llvm.getelementptr %blk_dynamic[0] : (!llvm.ptr) -> !llvm.ptr, i8",
                        super::v(op.results[0])
                    ));
                }
                _ => {}
            }
        });
        if frame > MAX_BLOCK_FRAME {
            return Err(format!(
                "its per-block state ({} MiB for {MAX_THREADS} threads) is too large for a host thread's stack",
                frame >> 20
            ));
        }
        self.allocas.extend(lines);
        self.block_fn = Some(Block {
            cross,
            remat,
            levels: Vec::new(),
            names: 0,
            shared,
            lockstep,
            raised: Vec::new(),
            uniform: uniform_slots(func),
            fast_reads: HashSet::new(),
        });
        Ok(())
    }

    /// The block function's body: the done flags cleared, then the kernel's region.
    pub(crate) fn block_body(&mut self) {
        self.line(format!("%blk_strip = arith.constant {STRIP} : index"));
        for l in [
            "%blk_c0 = arith.constant 0 : index",
            "%blk_c1 = arith.constant 1 : index",
            "%blk_c32 = arith.constant 32 : index",
            "%blk_true = arith.constant true",
            "%blk_false = arith.constant false",
            "%blk_xy = arith.muli %host_block_dim_x, %host_block_dim_y : index",
            "%blk_n = arith.muli %blk_xy, %host_block_dim_z : index",
            "memref.store %blk_true, %blk_alive[%blk_c0] : memref<1xi1>",
            "scf.for %blk_t = %blk_c0 to %blk_n step %blk_c1 {",
            "  memref.store %blk_false, %blk_done[%blk_t] : memref<1024xi1>",
            "}",
        ] {
            self.line(l.into());
        }
        let body = &self.func.body;
        self.block_region(&body.ops, &[]);
        self.line("func.return".into());
    }

    /// A region of the block function; `yields` are the results of the `if` whose arm it is,
    /// which the region's closing `rk.yield` gives each thread.
    fn block_region(&mut self, ops: &'f [Op], yields: &[ValueId]) {
        let mut start = 0;
        for (k, op) in ops.iter().enumerate() {
            let block_level =
                self.block_fn.as_ref().is_some_and(|b| at_block_level(op, &b.lockstep));
            if !block_level {
                continue;
            }
            self.stretch(&ops[start..k], &[]);
            start = k + 1;
            match op.kind {
                OpKind::Loop { .. } => self.block_loop(op),
                OpKind::If => self.block_if(op),
                OpKind::Warp(w) => self.exchange(w, op),
                OpKind::Mma(_) => self.mma_exchange(op),
                _ => {}
            }
        }
        self.stretch(&ops[start..], yields);
    }

    /// Stores `values` as the thread's elements of `results` (kept per thread).
    pub(crate) fn store_results(&mut self, results: &[ValueId], values: &[ValueId]) {
        for (r, x) in results.iter().zip(values) {
            let Some(base) = self.block_fn.as_ref().and_then(|b| b.cross.get(r)).cloned() else {
                continue;
            };
            let (ty, at) = (self.ty(*r), self.temp());
            self.line(format!(
                "{at} = llvm.getelementptr {base}[%blk_tid64] : (!llvm.ptr, i64) -> !llvm.ptr, {ty}"
            ));
            self.line(format!("llvm.store {}, {at} : {ty}, !llvm.ptr", super::v(*x)));
        }
    }

    fn block_name(&mut self, what: &str) -> String {
        let b = self.block_fn.as_mut().map_or(0, |b| {
            b.names += 1;
            b.names
        });
        format!("%blk_{what}{b}")
    }

    /// A new per-thread mask, at the block function's entry.
    fn new_mask(&mut self, what: &str) -> String {
        let mask = self.block_name(what);
        self.allocas.push(format!("{mask} = memref.alloca() : memref<1024xi1>"));
        mask
    }

    /// A new block-wide flag, at the block function's entry.
    fn new_flag(&mut self, what: &str) -> String {
        let flag = self.block_name(what);
        self.allocas.push(format!("{flag} = memref.alloca() : memref<1xi1>"));
        flag
    }

    /// Whether every thread of the block runs under `levels`: none is done, and every level's
    /// mask is full.
    fn all_active(&mut self, levels: &[Level]) -> String {
        let mut all = self.temp();
        self.line(format!("{all} = memref.load %blk_alive[%blk_c0] : memref<1xi1>"));
        for level in levels {
            let (f, next) = (self.temp(), self.temp());
            self.line(format!("{f} = memref.load {}[%blk_c0] : memref<1xi1>", level.mask().1));
            self.line(format!("{next} = arith.andi {all}, {f} : i1"));
            all = next;
        }
        all
    }

    /// Sets `full` to whether `mask` holds every thread of the block.
    fn fill_flag(&mut self, mask: &str, full: &str) {
        let all = self.temp();
        self.line(format!(
            "{all} = scf.for %blk_t = %blk_c0 to %blk_n step %blk_c1 iter_args(%blk_all = %blk_true) -> (i1) {{"
        ));
        let (m, next) = (self.temp(), self.temp());
        self.line(format!("{m} = memref.load {mask}[%blk_t] : memref<1024xi1>"));
        self.line(format!("{next} = arith.andi %blk_all, {m} : i1"));
        self.line(format!("scf.yield {next} : i1"));
        self.line("}".into());
        self.line(format!("memref.store {all}, {full}[%blk_c0] : memref<1xi1>"));
    }

    /// Whether thread `t` (an `index`) runs under `levels`: not done, and in every mask.
    fn active(&mut self, t: &str, levels: &[Level]) -> String {
        let done = self.temp();
        self.line(format!("{done} = memref.load %blk_done[{t}] : memref<1024xi1>"));
        let mut active = self.temp();
        self.line(format!("{active} = arith.xori {done}, %blk_true : i1"));
        for level in levels {
            let mask = level.mask().0;
            let (m, next) = (self.temp(), self.temp());
            self.line(format!("{m} = memref.load {mask}[{t}] : memref<1024xi1>"));
            self.line(format!("{next} = arith.andi {active}, {m} : i1"));
            active = next;
        }
        active
    }

    fn levels(&self) -> Vec<Level> {
        self.block_fn.as_ref().map(|b| b.levels.clone()).unwrap_or_default()
    }

    /// A loop around barriers or warp exchanges: once for the block, while a thread is in it.
    fn block_loop(&mut self, op: &'f Op) {
        let (header, body, exit) = (self.new_label(), self.new_label(), self.new_label());
        let (live, iter) = (self.new_mask("live"), self.new_mask("iter"));
        let full = self.new_flag("full");
        // Every thread enters the loop; whether all of them are still in it, and in the
        // iteration, is the loop's `full` flag.
        self.line("scf.for %blk_t = %blk_c0 to %blk_n step %blk_c1 {".into());
        self.line(format!("memref.store %blk_true, {live}[%blk_t] : memref<1024xi1>"));
        self.line(format!("memref.store %blk_true, {iter}[%blk_t] : memref<1024xi1>"));
        self.line("}".into());
        self.line(format!("memref.store %blk_true, {full}[%blk_c0] : memref<1xi1>"));
        self.line(format!("cf.br {header}"));
        self.start_block(format!("{header}:"));
        // Each iteration starts with the threads still in the loop; it runs when one of them
        // is active. While every thread runs and none has left the loop or an iteration of it
        // (the flags), both masks are still full and the iteration runs: no pass over the
        // threads, which a loop around barriers would otherwise make at every iteration.
        let outer = self.levels();
        let mut everyone = self.levels();
        everyone.push(Level::Arm { mask: iter.clone(), full: full.clone() });
        let fast = self.all_active(&everyone);
        let any = self.temp();
        self.line(format!("{any} = scf.if {fast} -> (i1) {{"));
        self.line("scf.yield %blk_true : i1".into());
        self.line("} else {".into());
        let pair = self.temp();
        self.line(format!(
            "{pair}:2 = scf.for %blk_t = %blk_c0 to %blk_n step %blk_c1 iter_args(%blk_any = %blk_false, %blk_all = %blk_true) -> (i1, i1) {{"
        ));
        let l = self.temp();
        self.line(format!("{l} = memref.load {live}[%blk_t] : memref<1024xi1>"));
        self.line(format!("memref.store {l}, {iter}[%blk_t] : memref<1024xi1>"));
        let active = self.active("%blk_t", &outer);
        let (both, next, all) = (self.temp(), self.temp(), self.temp());
        self.line(format!("{both} = arith.andi {l}, {active} : i1"));
        self.line(format!("{next} = arith.ori %blk_any, {both} : i1"));
        self.line(format!("{all} = arith.andi %blk_all, {l} : i1"));
        self.line(format!("scf.yield {next}, {all} : i1, i1"));
        self.line("}".into());
        self.line(format!("memref.store {pair}#1, {full}[%blk_c0] : memref<1xi1>"));
        self.line(format!("scf.yield {pair}#0 : i1"));
        self.line("}".into());
        self.line(format!("cf.cond_br {any}, {body}, {exit}"));
        self.start_block(format!("{body}:"));
        if let Some(b) = self.block_fn.as_mut() {
            b.levels.push(Level::Loop { live, iter, full, results: op.results.clone() });
        }
        // A loop run in lockstep only for the order of its memory accesses (no barrier or
        // warp exchange inside) runs each thread for a few iterations at a time.
        let strip = self.block_fn.as_ref().is_some_and(|b| {
            b.lockstep.contains(&(op as *const Op))
                && !op.regions.iter().flat_map(|r| &r.ops).any(|o| at_block_level(o, &b.lockstep))
        });
        match op.regions.first() {
            Some(r) if strip => self.strip(&r.ops),
            Some(r) => self.block_region(&r.ops, &[]),
            None => {}
        }
        self.line(format!("cf.br {header}"));
        if let Some(b) = self.block_fn.as_mut() {
            b.levels.pop();
        }
        self.start_block(format!("{exit}:"));
    }

    /// An `if` around barriers or warp exchanges: both arms once for the block, each for the
    /// threads whose condition chose it.
    fn block_if(&mut self, op: &'f Op) {
        let (then_mask, else_mask) = (self.new_mask("then"), self.new_mask("else"));
        let (then_full, else_full) = (self.new_flag("then_full"), self.new_flag("else_full"));
        let x = op.operands[0];
        let pair = self.temp();
        self.line(format!(
            "{pair}:2 = scf.for %blk_t = %blk_c0 to %blk_n step %blk_c1 iter_args(%blk_then = %blk_true, %blk_else = %blk_true) -> (i1, i1) {{"
        ));
        let cond = self.per_thread(x, "%blk_t");
        let (not, then_all, else_all) = (self.temp(), self.temp(), self.temp());
        self.line(format!("memref.store {cond}, {then_mask}[%blk_t] : memref<1024xi1>"));
        self.line(format!("{not} = arith.xori {cond}, %blk_true : i1"));
        self.line(format!("memref.store {not}, {else_mask}[%blk_t] : memref<1024xi1>"));
        self.line(format!("{then_all} = arith.andi %blk_then, {cond} : i1"));
        self.line(format!("{else_all} = arith.andi %blk_else, {not} : i1"));
        self.line(format!("scf.yield {then_all}, {else_all} : i1, i1"));
        self.line("}".into());
        self.line(format!("memref.store {pair}#0, {then_full}[%blk_c0] : memref<1xi1>"));
        self.line(format!("memref.store {pair}#1, {else_full}[%blk_c0] : memref<1xi1>"));
        for (region, (mask, full)) in
            op.regions.iter().zip([(then_mask, then_full), (else_mask, else_full)])
        {
            if let Some(b) = self.block_fn.as_mut() {
                b.levels.push(Level::Arm { mask, full });
            }
            self.block_region(&region.ops, &op.results);
            if let Some(b) = self.block_fn.as_mut() {
                b.levels.pop();
            }
        }
    }

    /// Thread `t`'s value of `x` (a value kept per thread, or a parameter), read at the block
    /// function's level.
    fn per_thread(&mut self, x: ValueId, t: &str) -> String {
        match self.block_fn.as_ref().and_then(|b| b.cross.get(&x)).cloned() {
            Some(base) => {
                let (ty, t64, at, value) = (self.ty(x), self.temp(), self.temp(), self.temp());
                self.line(format!("{t64} = arith.index_castui {t} : index to i64"));
                self.line(format!(
                    "{at} = llvm.getelementptr {base}[{t64}] : (!llvm.ptr, i64) -> !llvm.ptr, {ty}"
                ));
                self.line(format!("{value} = llvm.load {at} : !llvm.ptr -> {ty}"));
                value
            }
            None => super::v(x),
        }
    }

    /// Stores `value` as thread `t`'s element of the per-thread value `r`.
    fn set_per_thread(&mut self, r: ValueId, t: &str, value: &str) {
        let Some(base) = self.block_fn.as_ref().and_then(|b| b.cross.get(&r)).cloned() else {
            return;
        };
        let (ty, t64, at) = (self.ty(r), self.temp(), self.temp());
        self.line(format!("{t64} = arith.index_castui {t} : index to i64"));
        self.line(format!(
            "{at} = llvm.getelementptr {base}[{t64}] : (!llvm.ptr, i64) -> !llvm.ptr, {ty}"
        ));
        self.line(format!("llvm.store {value}, {at} : {ty}, !llvm.ptr"));
    }

    /// A stretch: a loop over the block's threads, each thread's part in a region of its own
    /// (so that each stretch defines its values anew), skipped for the threads that are done
    /// or outside the masks of the control around it.
    ///
    /// The loop is written twice: for when every thread of the block runs the stretch (no
    /// thread is done and every mask around it is full, which the block's flags say at once),
    /// without any test of the masks, and for the other cases with them. A loop whose every
    /// iteration starts with a load of the thread's masks and a branch on them is one that
    /// LLVM's vectorizer does not take (it finds masked loads and stores too costly); the
    /// first copy is the plain loop over the threads, which it vectorises across them as it
    /// would the loop a programmer writes for the CPU.
    fn stretch(&mut self, ops: &'f [Op], yields: &[ValueId]) {
        let closing = ops.last().filter(|o| o.kind == OpKind::Yield && !yields.is_empty());
        if closing.is_none() && ops.iter().all(|o| o.kind == OpKind::Yield) {
            return;
        }
        let inputs = inputs(ops);
        if let Some(b) = self.block_fn.as_mut() {
            b.raised.clear();
        }
        let levels = self.levels();
        let all = self.all_active(&levels);
        self.line(format!("scf.if {all} {{"));
        // Both copies number the same panic sites.
        let sites = self.n_sites;
        let mut written = HashSet::new();
        walk(ops, &mut |o| {
            if o.kind == OpKind::Write {
                written.insert(o.operands[1]);
            }
        });
        if let Some(b) = self.block_fn.as_mut() {
            b.fast_reads = b.uniform.difference(&written).copied().collect();
        }
        self.threads(ops, closing, yields, &inputs, None, false);
        if let Some(b) = self.block_fn.as_mut() {
            b.fast_reads.clear();
        }
        self.line("} else {".into());
        self.n_sites = sites;
        self.threads(ops, closing, yields, &inputs, Some(&levels), false);
        self.line("}".into());
        // A thread that left a loop, or its iteration, emptied that loop's mask.
        let raised = self.block_fn.as_mut().map(|b| std::mem::take(&mut b.raised));
        for k in raised.unwrap_or_default() {
            if let Some(Level::Loop { iter, full, .. }) = levels.get(k) {
                self.fill_flag(iter, full);
            }
        }
    }

    /// The body of a loop run in lockstep for the order of its memory accesses alone (a
    /// grid-stride loop without barriers or warp exchanges): each thread runs `STRIP`
    /// iterations, then the next thread, instead of one iteration of every thread at a time.
    ///
    /// Lockstep is there so that the threads' accesses of an iteration, consecutive elements,
    /// come together (see `lockstep_loops`); a strip keeps that (the lines the first thread of
    /// a strip brings into the cache are those the next threads read), and pays the block
    /// function's bookkeeping (the loop's header over every thread, each thread's masks) once
    /// per strip instead of once per iteration. Threads that run no barrier in the loop
    /// cannot tell the two orders apart.
    fn strip(&mut self, ops: &'f [Op]) {
        let inputs = inputs(ops);
        // Within a strip, a thread runs while it is in the loop (`live`): `continue` ends an
        // iteration, which the next one of the strip starts again.
        let mut levels = self.levels();
        if let Some(Level::Loop { live, full, .. }) = levels.last().cloned() {
            levels.pop();
            levels.push(Level::Arm { mask: live, full });
        }
        self.threads(ops, None, &[], &inputs, Some(&levels), true);
        // A thread that left an enclosing loop (`break 'outer`) emptied its mask there, as in
        // `stretch`; the strip's own loop is the last level, filled below.
        let raised = self.block_fn.as_mut().map(|b| std::mem::take(&mut b.raised));
        for k in raised.unwrap_or_default() {
            if let Some(Level::Loop { iter, full, .. }) = levels.get(k) {
                self.fill_flag(iter, full);
            }
        }
        // Whether every thread is still in the loop, for its header.
        if let Some(Level::Arm { mask, full }) = levels.last() {
            self.fill_flag(mask, full);
        }
    }

    /// The loops over the block's threads that run `ops` for each, testing each thread's
    /// masks under `masked` (else every thread runs); under `strip`, `STRIP` times.
    fn threads(
        &mut self,
        ops: &'f [Op],
        closing: Option<&'f Op>,
        yields: &[ValueId],
        inputs: &[ValueId],
        masked: Option<&[Level]>,
        strip: bool,
    ) {
        // The threads in x-fastest order, as three loops, so that a thread's position costs no
        // division by the block's sizes (a linear index took two per thread and stretch; sgemm
        // on 2 cores showed no change beyond the machine's noise, the divisions being 32-bit).
        for l in [
            "scf.for %blk_z = %blk_c0 to %host_block_dim_z step %blk_c1 {",
            "scf.for %blk_y = %blk_c0 to %host_block_dim_y step %blk_c1 {",
            "%blk_zy = arith.muli %blk_z, %host_block_dim_y : index",
            "%blk_plane = arith.addi %blk_zy, %blk_y : index",
            "%blk_row = arith.muli %blk_plane, %host_block_dim_x : index",
            "scf.for %blk_x = %blk_c0 to %host_block_dim_x step %blk_c1 {",
        ] {
            self.line(l.into());
        }
        if strip {
            self.line("scf.for %blk_j = %blk_c0 to %blk_strip step %blk_c1 {".into());
        }
        for l in [
            "scf.execute_region {",
            "%host_thread_id_x = arith.addi %blk_x, %blk_c0 : index",
            "%host_thread_id_y = arith.addi %blk_y, %blk_c0 : index",
            "%host_thread_id_z = arith.addi %blk_z, %blk_c0 : index",
            "%blk_tid = arith.addi %blk_row, %blk_x : index",
            "%blk_lane = arith.remui %blk_tid, %blk_c32 : index",
            "%zero_index = arith.addi %blk_tid, %blk_c0 : index",
            "%blk_tid64 = arith.index_castui %blk_tid : index to i64",
        ] {
            self.line(l.into());
        }
        if let Some(levels) = masked {
            let active = self.active("%blk_tid", levels);
            self.line(format!("cf.cond_br {active}, ^blk_run, ^blk_skip"));
            self.line("^blk_skip:".into());
            self.line("scf.yield".into());
            self.line("^blk_run:".into());
        }
        let mut present = HashSet::new();
        for x in inputs {
            self.bring(*x, &mut present);
        }
        let outer = std::mem::take(&mut self.loops);
        self.ops(ops);
        if let Some(y) = closing {
            self.store_results(yields, &y.operands);
        }
        if !ops.last().is_some_and(|o| o.kind.diverges()) {
            self.line("scf.yield".into());
        }
        if self.panics {
            self.panic_block();
            self.panics = false;
        }
        self.loops = outer;
        for _ in 0..4 + usize::from(strip) {
            self.line("}".into());
        }
    }

    /// Makes `x`, defined in another stretch, available in the current one: the thread's
    /// element of its per-thread storage, or computed again after its own operands.
    fn bring(&mut self, x: ValueId, present: &mut HashSet<ValueId>) {
        if !present.insert(x) {
            return;
        }
        let Some(block) = &self.block_fn else { return };
        if let Some(base) = block.cross.get(&x).cloned() {
            let (ty, at) = (self.ty(x), self.temp());
            self.line(format!(
                "{at} = llvm.getelementptr {base}[%blk_tid64] : (!llvm.ptr, i64) -> !llvm.ptr, {ty}"
            ));
            self.line(format!("{} = llvm.load {at} : !llvm.ptr -> {ty}", super::v(x)));
        } else if let Some(op) = block.remat.get(&x).copied() {
            for y in &op.operands {
                self.bring(*y, present);
            }
            self.op(op);
        }
    }

    /// An atomic read-modify-write of the block's shared memory, which one host thread runs
    /// alone: a load, the operation and a store (as fast as plain code; the histogram's shared
    /// counters took 5 ns per update as locked instructions).
    pub(crate) fn block_private_atomic(&mut self, kind: &str, op: &Op, ty: &str) {
        let (res, address, value) =
            (super::v(op.results[0]), super::v(op.operands[0]), super::v(op.operands[1]));
        self.line(format!("{res} = llvm.load {address} : !llvm.ptr -> {ty}"));
        let arith = match kind {
            "add" => "arith.addi",
            "sub" => "arith.subi",
            "_and" => "arith.andi",
            "_or" => "arith.ori",
            "_xor" => "arith.xori",
            "min" => "arith.minsi",
            "umin" => "arith.minui",
            "max" => "arith.maxsi",
            "umax" => "arith.maxui",
            "fadd" => "arith.addf",
            "fsub" => "arith.subf",
            // LLVM's atomicrmw fmin/fmax are minnum/maxnum.
            "fmin" => "arith.minnumf",
            "fmax" => "arith.maxnumf",
            _ => "",
        };
        let new = if arith.is_empty() {
            value
        } else {
            let t = self.temp();
            self.line(format!("{t} = {arith} {res}, {value} : {ty}"));
            t
        };
        self.line(format!("llvm.store {new}, {address} : {ty}, !llvm.ptr"));
    }

    /// A local array's address in a block function: the thread's element of its per-thread
    /// storage.
    pub(crate) fn block_local(&mut self, op: &Op) {
        let array = match self.rk_ty(op.results[0]).pointee() {
            Some(t) if t.is_storable() => mlir_type(t),
            _ => "i8".into(),
        };
        let res = super::v(op.results[0]);
        self.line(format!(
            "{res} = llvm.getelementptr {res}_base[%blk_tid64] : (!llvm.ptr, i64) -> !llvm.ptr, {array}"
        ));
    }

    /// Stores the values these ops define that a later stretch uses, in their per-thread
    /// storage.
    pub(crate) fn keep_for_later_stretches(&mut self, ops: &[Op]) {
        for op in ops {
            for r in &op.results {
                let Some(base) = self.block_fn.as_ref().and_then(|b| b.cross.get(r)).cloned()
                else {
                    continue;
                };
                let (ty, at) = (self.ty(*r), self.temp());
                self.line(format!(
                    "{at} = llvm.getelementptr {base}[%blk_tid64] : (!llvm.ptr, i64) -> !llvm.ptr, {ty}"
                ));
                self.line(format!("llvm.store {}, {at} : {ty}, !llvm.ptr", super::v(*r)));
            }
        }
    }
}
