//! The emitters: one function per rk op family, each writing the upstream MLIR it documents.
//!
//! Structured rk control flow becomes `cf` branches between blocks: an `rk.if` ends the
//! current block with `cf.cond_br` and continues in a join block whose arguments carry the
//! `if`'s results. An `rk.return` inside an arm becomes `gpu.return` in that arm's block.

use crate::LowerOptions;
use rkc_rk::AtomicOp;
use rkc_rk::math::MathFn;
use rkc_rk::{
    BinOp, CmpOp, FloatTy, Func, Literal, LoopHint, Module, Op, OpKind, Region, Type, ValueId,
};
use std::fmt::Write as _;

mod cast;
mod host;
mod panic;
mod print;
mod vector;
mod warp;

use warp::shared_twin;

pub(crate) use host::host_module;
pub use host::{ENTRY_PREFIX, HostModule};

pub(crate) use warp::scope_placeholder;

/// The type of a private-memory pointer: an alloca's, before `specialize` gives it the
/// target's address space.
pub(crate) const PRIVATE_POINTER: &str = "!llvm.ptr<5>";

/// Emits the whole module.
pub fn module(module: &Module, options: &LowerOptions) -> String {
    let mut funcs = String::new();
    let mut globals: Vec<String> = Vec::new();
    let mut header = String::new();
    if let Some(file) = &options.debug_file {
        // The debug-info attributes the kernels' locations refer to (see `LowerOptions`).
        let file = mlir_string(file);
        let _ = writeln!(header, "#rkc_file = #llvm.di_file<{file} in \"\">");
        let _ = writeln!(
            header,
            "#rkc_unit = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_Rust, file = #rkc_file, producer = \"rkc\", isOptimized = true, emissionKind = DebugDirectivesOnly>"
        );
        let _ = writeln!(
            header,
            "#rkc_type = #llvm.di_subroutine_type<callingConvention = DW_CC_normal>"
        );
        for (k, func) in module.kernels().enumerate() {
            let _ = writeln!(
                header,
                "#rkc_kernel{k} = #llvm.di_subprogram<id = distinct[{}]<>, compileUnit = #rkc_unit, scope = #rkc_file, name = {name}, linkageName = {name}, file = #rkc_file, line = {line}, scopeLine = {line}, subprogramFlags = \"Definition|Optimized\", type = #rkc_type>",
                k + 1,
                name = mlir_string(&func.name),
                line = func.loc.line,
            );
        }
    }
    for (k, func) in module.kernels().enumerate() {
        let mut emitter = FuncEmitter::new(func, module, options);
        emitter.index = k;
        for g in emitter.emit(&mut funcs) {
            if !globals.contains(&g) {
                globals.push(g);
            }
        }
    }
    let mut out = header;
    out.push_str("module attributes {gpu.container_module} {\n  gpu.module @kernels {\n");
    for g in &globals {
        out.push_str(g);
    }
    out.push_str(&funcs);
    out.push_str("  }\n}\n");
    out
}

/// A string literal in MLIR's syntax.
fn mlir_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The MLIR type of an rk type. Pointers are global-memory LLVM pointers (address space 1):
/// every pointer a kernel receives points at memory the runtime allocated on the device.
pub fn mlir_type(ty: &Type) -> String {
    match ty {
        Type::Unit => "none".into(),
        Type::Bool => "i1".into(),
        Type::Int(t) => format!("i{}", t.bits()),
        Type::Float(f) => f.name().into(),
        // Generic pointers, as clang emits for CUDA: a kernel's pointer parameters are cast
        // from the global address space at entry and shared memory from its own, and LLVM's
        // address-space inference gives the loads and stores their specific space back.
        Type::Ptr { .. } => "!llvm.ptr".into(),
        Type::Array { elem, len } => format!("!llvm.array<{len} x {}>", mlir_type(elem)),
        // A memref cannot hold `!llvm.ptr`: a slot of a pointer holds its address as an i64.
        Type::Slot(t) if matches!(**t, Type::Ptr { .. }) => {
            "memref<1xi64, #gpu.address_space<private>>".into()
        }
        Type::Slot(t) => format!("memref<1x{}, #gpu.address_space<private>>", mlir_type(t)),
        Type::Slice { .. } => "!llvm.ptr".into(),
        // LLVM's default struct layout is C's on both targets (the data layouts give each
        // scalar its natural alignment), which is what `Type::field_offset` computes.
        Type::Struct { fields, .. } => {
            let fields: Vec<String> = fields.iter().map(|(_, t)| mlir_type(t)).collect();
            format!("!llvm.struct<({})>", fields.join(", "))
        }
    }
}

struct FuncEmitter<'f> {
    func: &'f Func,
    /// The module, for its tables.
    module: &'f Module,
    options: &'f LowerOptions,
    /// Finished text of the blocks before the current one.
    text: String,
    /// The current block's label (`None` for the entry block) and its lines.
    block: Vec<String>,
    n_blocks: usize,
    n_temps: usize,
    /// `gpu.func` private attributions, one per `rk.var`: per-thread memory that each target
    /// places in its own private address space, and that LLVM promotes to registers.
    private: Vec<String>,
    /// The enclosing loops' header and exit labels and result types, innermost last.
    loops: Vec<(String, String, Vec<String>, LoopHint)>,
    /// The kernel's position in the module (its debug-info subprogram under `-g`).
    index: usize,
    /// The Rust location of the op being emitted, for `-g`.
    loc: Option<rkc_rk::Loc>,
    /// Under `-g`, the source file's name as an MLIR string literal, escaped once.
    debug_file: Option<String>,
    /// Panic sites used so far; they are numbered in the walk order of
    /// `rkc_rk::panics::panic_sites`.
    n_sites: usize,
    /// Whether any check branches to the panic block.
    panics: bool,
    /// On a GPU, the ops after which a warpgroup multiply may still run (see
    /// `before_wgmma`): their checks panic in place (see `panic_in_place`) instead of
    /// branching to the panic block.
    before_wgmma: std::collections::HashSet<*const Op>,
    /// Whether the op being emitted is one of `before_wgmma`.
    in_place_now: bool,
    /// The kernel's print sites in the metadata's order, found at its first print.
    print_sites: Option<Vec<offload_binary::PrintSite>>,
    /// Module-level definitions this kernel needs (shared arrays).
    globals: Vec<String>,
    /// The entry block's allocations of local arrays (`rk.local`), which go before every
    /// other line: LLVM promotes only entry-block allocas to registers, and an alloca in a
    /// loop would grow the stack on every iteration.
    allocas: Vec<String>,
    /// The MLIR names of each slice value's pointer and length: the parameters', and those of
    /// the coercions (`&mut [T]` to `&[T]`) that alias them.
    slices: std::collections::HashMap<ValueId, (String, String)>,
    /// Emitting the host image's body function (see [`host`]) instead of a `gpu.func`: the
    /// thread's position comes from parameters, and per-thread memory from allocas.
    host: bool,
    /// On the host, for a kernel whose threads wait at barriers: the whole block in one
    /// function, its barrier-free stretches as loops over the threads (see `host::Block`).
    block_fn: Option<host::Block<'f>>,
    /// On a GPU, the pointers known to point into shared memory (a shared array, the dynamic
    /// shared memory, and the elements and fields computed from them): each also has a
    /// workgroup-space twin, `shared_twin` (in `warp`), that loads and stores use. LLVM's alignment
    /// inference sees through it to the array's 16-byte alignment (not through the generic
    /// pointer's address-space cast), so that its load/store vectorizer can merge neighbouring
    /// accesses into `ld.shared.v4`; address-space inference comes after that pass, too late.
    shared: std::collections::HashSet<ValueId>,
    /// The defining op of every value an op without regions defines.
    defs: std::collections::HashMap<ValueId, &'f Op>,
    /// The pointers known to point into global memory: pointer parameters, slices' pointers,
    /// and the elements, fields, offsets and pointer casts computed from them (see `vector`).
    global: std::collections::HashSet<ValueId>,
}

impl<'f> FuncEmitter<'f> {
    fn new(func: &'f Func, module: &'f Module, options: &'f LowerOptions) -> Self {
        let mut emitter = FuncEmitter {
            func,
            module,
            options,
            text: String::new(),
            block: Vec::new(),
            n_blocks: 0,
            n_temps: 0,
            private: Vec::new(),
            loops: Vec::new(),
            index: 0,
            loc: None,
            debug_file: options.debug_file.as_deref().map(mlir_string),
            n_sites: 0,
            panics: false,
            before_wgmma: Default::default(),
            in_place_now: false,
            print_sites: None,
            globals: Vec::new(),
            allocas: Vec::new(),
            slices: func
                .params
                .iter()
                .filter(|p| matches!(func.ty(p.value), Some(Type::Slice { .. })))
                .map(|p| (p.value, (v(p.value), format!("{}_len", v(p.value)))))
                .collect(),
            host: false,
            block_fn: None,
            shared: Default::default(),
            defs: Default::default(),
            global: func
                .params
                .iter()
                .filter(|p| matches!(func.ty(p.value), Some(Type::Ptr { .. })))
                .map(|p| p.value)
                .collect(),
        };
        emitter.scan(&func.body);
        if func.body.ops.iter().any(rkc_rk::passes::holds_wgmma) {
            panic::before_wgmma(&func.body, false, &mut emitter.before_wgmma);
        }
        emitter
    }

    /// Writes the kernel and returns the module-level globals it needs (shared arrays).
    fn emit(mut self, out: &mut String) -> Vec<String> {
        // A slice parameter is two: the pointer and the length in elements (i64), in that
        // order, which is how the runtime passes `&[T]` and `&mut [T]`.
        let params: Vec<String> = self
            .func
            .params
            .iter()
            .map(|p| match self.rk_ty(p.value) {
                Type::Slice { .. } => {
                    format!("{}_global: !llvm.ptr<1>, {}_len: i64", v(p.value), v(p.value))
                }
                Type::Ptr { .. } => format!("{}_global: !llvm.ptr<1>", v(p.value)),
                _ => format!("{}: {}", v(p.value), self.ty(p.value)),
            })
            .collect();
        // Pointer parameters arrive in the global address space; the body uses generic ones.
        for p in &self.func.params {
            if matches!(self.rk_ty(p.value), Type::Slice { .. } | Type::Ptr { .. }) {
                let name = v(p.value);
                self.line(format!(
                    "{name} = llvm.addrspacecast {name}_global : !llvm.ptr<1> to !llvm.ptr"
                ));
            }
        }
        if self.block_fn.is_some() {
            // Every slot access indexes the thread's element, defined in each stretch.
            self.block_body();
        } else {
            // The index 0 that every slot access uses; folded away when unused.
            self.line(format!("{ZERO_INDEX} = arith.constant 0 : index"));
            self.region(&self.func.body);
        }
        self.flush();
        let private = if self.private.is_empty() {
            String::new()
        } else {
            format!(" private({})", self.private.join(", "))
        };
        if self.panics {
            self.panic_block();
            self.flush();
        }
        // The hidden last parameter: the panic record (see `panic_block`). Every kernel has
        // it, so that the runtime passes it the same way to all.
        if !self.allocas.is_empty() {
            let mut entry = String::new();
            // A block function writes each stretch twice (`host::Block`), and the slots the
            // stretch declares with it: each allocation is made once.
            let mut made = std::collections::HashSet::new();
            for l in self.allocas.iter().filter(|l| made.insert(*l)) {
                let _ = writeln!(entry, "      {l}");
            }
            self.text.insert_str(0, &entry);
        }
        let mut params = params;
        params.push(format!("{PANIC_RECORD}: !llvm.ptr<1>"));
        if self.host {
            // A block function takes the block's position; a thread's body the thread's too.
            let skip = if self.block_fn.is_some() { 3 } else { 0 };
            params.extend(host::GEOMETRY[skip..].iter().map(|g| format!("{g}: index")));
            if self.block_fn.is_some() {
                // The launch's dynamic shared memory, in bytes.
                params.push(format!("{}: i64", host::DYNAMIC_SHARED_BYTES));
            }
            // Internal: the host entry that loops over the threads is its only caller, and
            // LLVM inlines it there.
            let _ = writeln!(
                out,
                "  func.func @{}{}({}) attributes {{llvm.linkage = #llvm.linkage<internal>}} {{",
                host::BODY_PREFIX,
                self.func.name,
                params.join(", ")
            );
            out.push_str(&self.text);
            out.push_str("  }\n");
            return self.globals;
        }
        let _ = writeln!(
            out,
            "    gpu.func @{}({}){private} kernel {{",
            self.func.name,
            params.join(", ")
        );
        out.push_str(&self.text);
        match &self.debug_file {
            Some(file) => {
                let _ = writeln!(
                    out,
                    "    }} loc(fused<#rkc_kernel{}>[{}:{}:{}])",
                    self.index, file, self.func.loc.line, self.func.loc.col
                );
            }
            None => out.push_str("    }\n"),
        }
        self.globals
    }

    /// The SSA name of an index-typed position value (`thread_id`, `block_id`, `block_dim`,
    /// `grid_dim` and a dimension): a `gpu` op on a GPU, the body's parameter on the host.
    fn geometry(&mut self, name: &str, dim: &str) -> String {
        if self.host {
            return format!("%host_{name}_{dim}");
        }
        let t = self.temp();
        self.line(format!("{t} = gpu.{name} {dim}"));
        t
    }

    /// Ends the thread: a return on a GPU and in a thread's body on the host; in a block
    /// function, the thread is marked done and its stretch ends.
    fn emit_return(&mut self) {
        if let Some(block) = &self.block_fn {
            for line in block.finish_thread() {
                self.line(line);
            }
            self.line("scf.yield".into());
        } else if self.host {
            self.line("func.return".into());
        } else {
            self.line("gpu.return".into());
        }
    }

    /// The fast-math attribute of float ops under `-C fast-math`, else nothing.
    fn fast(&self) -> &'static str {
        if self.options.fast_math { " fastmath<fast>" } else { "" }
    }

    fn slot_of_pointer(&self, slot: ValueId) -> bool {
        matches!(self.rk_ty(slot), Type::Slot(t) if matches!(**t, Type::Ptr { .. }))
    }

    /// The element of `slot` a read takes: the thread's own (in a block function, thread 0's
    /// where every thread holds the same value, `host::Block::fast_reads`).
    fn read_index(&self, slot: ValueId) -> &'static str {
        match &self.block_fn {
            Some(b) if b.fast_reads.contains(&slot) => "%blk_c0",
            _ => ZERO_INDEX,
        }
    }

    fn slot_type(&self, slot: ValueId) -> String {
        let ty = mlir_type(self.rk_ty(slot));
        if self.block_fn.is_some() {
            // A block function's slot holds one element per thread (`host::Block`).
            return ty.replacen("memref<1x", "memref<1024x", 1);
        }
        ty
    }

    fn ty(&self, value: ValueId) -> String {
        mlir_type(self.rk_ty(value))
    }

    fn rk_ty(&self, value: ValueId) -> &'f Type {
        // The verifier proved every value has a type.
        self.func.ty(value).unwrap_or(&Type::Unit)
    }

    fn line(&mut self, s: String) {
        match (&self.debug_file, self.loc) {
            (Some(file), Some(loc)) if loc.line > 0 => {
                let loc = format!(" loc({file}:{}:{})", loc.line, loc.col);
                self.block.push(s + &loc);
            }
            _ => self.block.push(s),
        }
    }

    fn temp(&mut self) -> String {
        self.n_temps += 1;
        format!("%t{}", self.n_temps)
    }

    fn new_label(&mut self) -> String {
        self.n_blocks += 1;
        format!("^bb{}", self.n_blocks)
    }

    /// Writes the current block out.
    fn flush(&mut self) {
        for l in self.block.drain(..) {
            if l.starts_with('^') {
                let _ = writeln!(self.text, "    {l}");
            } else {
                let _ = writeln!(self.text, "      {l}");
            }
        }
    }

    /// Starts a new block with the given header line (`^bb3:` or `^bb3(%v4: f32):`).
    fn start_block(&mut self, header: String) {
        self.flush();
        self.block.push(header);
    }

    fn region(&mut self, region: &'f Region) {
        self.ops(&region.ops);
    }

    /// A region's operations, or a stretch of them (a block function's, `host::Block`).
    fn ops(&mut self, ops: &'f [Op]) {
        let mut k = 0;
        while k < ops.len() {
            // Inside loops the groups cost more than they save: LLVM hoists the invariant parts
            // of a group's re-test path out of the loop and keeps them live through it (sgemm:
            // 44 registers became 72; with its inner loop versioned as well, a launch took
            // 29.8 ms instead of 20.2 on the H200).
            let group = self.options.bounds_checks
                && self.loops.is_empty()
                && !self.before_wgmma.contains(&(&ops[k] as *const Op));
            let end = if group { check_group_end(ops, k) } else { k };
            let start = k;
            if end > k {
                self.check_group(&ops[k..end]);
                k = end;
            } else if let Some(end) = self.vector_access(ops, k) {
                k = end;
            } else {
                self.op(&ops[k]);
                k += 1;
            }
            if self.block_fn.is_some() {
                self.keep_for_later_stretches(&ops[start..k]);
            }
        }
    }

    /// Bounds checks in a row (after `hoist`, a statement's checks come together, with the
    /// pure arithmetic of their indices between them) take one branch: the compares are
    /// combined, and only when one fails does a second path test them again in order, so that
    /// the first failing site is the one reported, with its own index and length. A statement
    /// such as the 5-point stencil's, with six checks, then costs one branch instead of six.
    fn check_group(&mut self, ops: &'f [Op]) {
        for op in ops.iter().filter(|op| op.kind != OpKind::BoundsCheck) {
            self.op(op);
        }
        let mut tests = Vec::new();
        for op in ops.iter().filter(|op| op.kind == OpKind::BoundsCheck) {
            self.loc = Some(op.loc);
            let ok = self.temp();
            let (i, n) = (v(op.operands[0]), v(op.operands[1]));
            self.line(format!("{ok} = arith.cmpi ult, {i}, {n} : i64"));
            tests.push((ok, i, n, op.loc));
        }
        let mut all = tests[0].0.clone();
        for (ok, ..) in &tests[1..] {
            let both = self.temp();
            self.line(format!("{both} = arith.andi {all}, {ok} : i1"));
            all = both;
        }
        let (cont, slow) = (self.new_label(), self.new_label());
        self.line(format!("cf.cond_br {all}, {cont}, {slow}"));
        self.start_block(format!("{slow}:"));
        for (ok, i, n, loc) in &tests {
            self.loc = Some(*loc);
            self.check(ok, Some((i, n)));
        }
        self.line(format!("cf.br {cont}"));
        self.start_block(format!("{cont}:"));
    }

    /// For an access to a thread's private aggregate (an `rk.local`, through its fields,
    /// elements and casts), an attribute naming that local; empty for any other pointer.
    /// MLIR's region simplification, which `convert-gpu-to-nvvm` and `convert-gpu-to-rocdl` run
    /// through their greedy rewrites, merges blocks that differ only in their operands and
    /// passes the differing operands as block arguments. Two arms of an `if` that each copy a
    /// temporary of their own into the `if`'s result would become one block reading through a
    /// pointer argument (a `phi` of two allocas in LLVM), which SROA cannot split: the locals
    /// stay in local memory. With the local named on each access such blocks differ, and stay
    /// apart; blocks that touch the same locals still merge. The attribute is discarded by the
    /// translation to LLVM IR (no dialect named `rk` is loaded).
    fn local_mark(&self, pointer: ValueId) -> String {
        let mut at = pointer;
        loop {
            let Some(def) = self.defs.get(&at) else { return String::new() };
            match def.kind {
                OpKind::Local => return format!(", rk.local = {} : i64", at.0),
                OpKind::FieldPtr { .. } | OpKind::ElemPtr | OpKind::PtrOffset | OpKind::Cast => {
                    at = def.operands[0];
                }
                _ => return String::new(),
            }
        }
    }

    fn op(&mut self, op: &'f Op) {
        self.loc = Some(op.loc);
        self.in_place_now = !self.host && self.before_wgmma.contains(&(op as *const Op));
        let res = op.results.first().map(|r| v(*r)).unwrap_or_default();
        let arg = |k: usize| v(op.operands[k]);
        match &op.kind {
            OpKind::Const(lit) => {
                let ty = self.rk_ty(op.results[0]);
                self.line(format!("{res} = {}", constant(lit, ty)));
            }
            OpKind::Geometry(g, dim) => {
                let t = self.geometry(g.name(), dim.name());
                self.line(format!("{res} = arith.index_castui {t} : index to i32"));
            }
            OpKind::Binary(b) => self.binary(*b, op),
            OpKind::Cmp(c) => {
                let ty = self.rk_ty(op.operands[0]);
                let (dialect, pred) = cmp_predicate(*c, ty);
                self.line(format!(
                    "{res} = arith.{dialect} {pred}, {}, {} : {}",
                    arg(0),
                    arg(1),
                    mlir_type(ty)
                ));
            }
            OpKind::Neg => {
                let ty = self.rk_ty(op.operands[0]);
                let t = mlir_type(ty);
                if ty.is_float() {
                    self.line(format!("{res} = arith.negf {}{} : {t}", arg(0), self.fast()));
                } else {
                    let zero = self.temp();
                    self.line(format!("{zero} = arith.constant 0 : {t}"));
                    self.line(format!("{res} = arith.subi {zero}, {} : {t}", arg(0)));
                }
            }
            OpKind::Not => {
                let t = self.ty(op.operands[0]);
                let ones = self.temp();
                let all = if t == "i1" { "true".to_string() } else { format!("-1 : {t}") };
                self.line(format!("{ones} = arith.constant {all}"));
                self.line(format!("{res} = arith.xori {}, {ones} : {t}", arg(0)));
            }
            OpKind::Cast => self.cast(op),
            OpKind::PtrOffset | OpKind::ElemPtr => {
                let elem = match self.rk_ty(op.results[0]).pointee() {
                    Some(t) => mlir_type(t),
                    None => "i8".into(),
                };
                if self.shared.contains(&op.operands[0]) {
                    let twin = shared_twin(op.results[0]);
                    self.line(format!(
                        "{twin} = llvm.getelementptr inbounds {}[{}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, {elem}",
                        shared_twin(op.operands[0]),
                        arg(1)
                    ));
                    self.shared_result(op.results[0]);
                } else {
                    self.line(format!(
                        "{res} = llvm.getelementptr inbounds {}[{}] : (!llvm.ptr, i64) -> !llvm.ptr, {elem}",
                        arg(0),
                        arg(1)
                    ));
                }
            }
            OpKind::Load => {
                let ty = self.rk_ty(op.results[0]);
                let (ptr, space) = self.access_pointer(op.operands[0]);
                let mark = self.local_mark(op.operands[0]);
                self.line(format!(
                    "{res} = llvm.load {ptr} {{alignment = {} : i64{mark}}} : {space} -> {}",
                    ty.size_of().max(1),
                    mlir_type(ty)
                ));
            }
            OpKind::Store => {
                let ty = self.rk_ty(op.operands[0]);
                let (ptr, space) = self.access_pointer(op.operands[1]);
                let mark = self.local_mark(op.operands[1]);
                self.line(format!(
                    "llvm.store {}, {ptr} {{alignment = {} : i64{mark}}} : {}, {space}",
                    arg(0),
                    ty.size_of().max(1),
                    mlir_type(ty)
                ));
            }
            OpKind::BoundsCheck => {
                if !self.options.bounds_checks {
                    // The site keeps its number, so that the numbering matches the metadata's.
                    self.n_sites += 1;
                } else {
                    let ok = self.temp();
                    self.line(format!("{ok} = arith.cmpi ult, {}, {} : i64", arg(0), arg(1)));
                    self.check(&ok, Some((&arg(0), &arg(1))));
                }
            }
            OpKind::If => self.if_op(op),
            OpKind::Yield => {
                // Handled by `if_op`, which knows the join block.
            }
            OpKind::Return => self.emit_return(),
            OpKind::Var if self.host => {
                // The host has no private address space: an alloca in the entry block, which
                // LLVM promotes to registers as the GPU back ends do with the attribution.
                let ty = self.slot_type(op.results[0]);
                self.allocas.push(format!("{res} = memref.alloca() : {ty}"));
            }
            OpKind::Var => {
                let ty = self.slot_type(op.results[0]);
                self.private.push(format!("{res}: {ty}"));
            }
            OpKind::Read if self.slot_of_pointer(op.operands[0]) => {
                let (ty, at) = (self.slot_type(op.operands[0]), self.read_index(op.operands[0]));
                let bits = self.temp();
                self.line(format!("{bits} = memref.load {}[{at}] : {ty}", arg(0)));
                self.line(format!("{res} = llvm.inttoptr {bits} : i64 to !llvm.ptr"));
            }
            OpKind::Read => {
                let (ty, at) = (self.slot_type(op.operands[0]), self.read_index(op.operands[0]));
                self.line(format!("{res} = memref.load {}[{at}] : {ty}", arg(0)));
            }
            OpKind::Write if self.slot_of_pointer(op.operands[1]) => {
                let ty = self.slot_type(op.operands[1]);
                let bits = self.temp();
                self.line(format!("{bits} = llvm.ptrtoint {} : !llvm.ptr to i64", arg(0)));
                self.line(format!("memref.store {bits}, {}[{ZERO_INDEX}] : {ty}", arg(1)));
            }
            OpKind::Write => {
                let ty = self.slot_type(op.operands[1]);
                self.line(format!("memref.store {}, {}[{ZERO_INDEX}] : {ty}", arg(0), arg(1)));
            }
            OpKind::Loop { .. } => self.loop_op(op),
            OpKind::Break { depth } | OpKind::Continue { depth }
                if self.block_fn.is_some() && *depth as usize >= self.loops.len() =>
            {
                // A loop of the block function, outside this stretch: every thread sets its
                // flag (the loop is uniform), and the block tests it after the stretch.
                let target = *depth as usize - self.loops.len();
                let brk = matches!(op.kind, OpKind::Break { .. });
                if brk {
                    let results =
                        self.block_fn.as_ref().map(|b| b.loop_results(target)).unwrap_or_default();
                    self.store_results(&results, &op.operands);
                }
                let lines =
                    self.block_fn.as_mut().map(|b| b.raise(target, brk)).unwrap_or_default();
                for line in lines {
                    self.line(line);
                }
                self.line("scf.yield".into());
            }
            OpKind::Break { depth } | OpKind::Continue { depth } => {
                let Some((header, exit, tys, hint)) = self
                    .loops
                    .len()
                    .checked_sub(*depth as usize + 1)
                    .map(|k| self.loops[k].clone())
                else {
                    return;
                };
                if matches!(op.kind, OpKind::Continue { .. }) {
                    self.line(back_edge(&header, hint));
                } else if op.operands.is_empty() {
                    self.line(format!("cf.br {exit}"));
                } else {
                    let vals: Vec<String> = op.operands.iter().map(|x| v(*x)).collect();
                    self.line(format!("cf.br {exit}({} : {})", vals.join(", "), tys.join(", ")));
                }
            }
            OpKind::Math(f) => self.math(*f, op),
            OpKind::Barrier => self.line("gpu.barrier".into()),
            // In a block function: the lane from the thread's index; the exchanges are the
            // block's (`host::Block`), between stretches.
            OpKind::Warp(rkc_rk::WarpOp::LaneId) if self.block_fn.is_some() => {
                self.line(format!("{res} = arith.index_castui %blk_lane : index to i32"));
            }
            OpKind::Warp(_) if self.block_fn.is_some() => {}
            OpKind::Warp(w) => self.warp(*w, op),
            // In a block function, the block computes it between stretches (`host::Block`).
            OpKind::Mma(_) if self.block_fn.is_some() => {}
            OpKind::Mma(t) => self.mma(*t, op),
            OpKind::Wgmma { ty, n, swizzle } => self.wgmma(*ty, *n, *swizzle, op),
            OpKind::WgmmaSync(s) => self.wgmma_sync(*s),
            OpKind::CopyAsync => self.copy_async(op),
            OpKind::LdMatrix(m) => self.ldmatrix(*m, op),
            OpKind::AsyncCommit => self.line("nvvm.cp.async.commit.group".into()),
            OpKind::AsyncWait { pending } => {
                self.line(format!("nvvm.cp.async.wait.group {pending}"));
            }
            // In a block function, the dynamic shared array is the block's alloca.
            OpKind::DynShared if self.block_fn.is_some() => {}
            OpKind::DynShared => self.dyn_shared(op),
            OpKind::Fence(scope) => self.fence(*scope),
            // In a block function, shared arrays are the block's allocas, made at its entry.
            OpKind::Shared if self.block_fn.is_some() => {}
            OpKind::Shared => {
                // One workgroup-memory global per source site and element type, shared by
                // every kernel of the module that reaches the site; each block has its own.
                let ty = self.rk_ty(op.results[0]);
                let (elem, len, tag) = match ty.pointee() {
                    Some(Type::Array { elem, len }) => (mlir_type(elem), *len, shared_tag(elem)),
                    _ => ("i8".into(), 0, String::new()),
                };
                let name = format!("shared_{}_{}_{tag}_{len}", op.loc.line, op.loc.col);
                let array = format!("!llvm.array<{len} x {elem}>");
                let bytes = ty.pointee().map_or(0, Type::size_of);
                let align = if self.options.swizzled_tiles && bytes >= 1024 { 1024 } else { 16 };
                self.globals.push(format!(
                    "    llvm.mlir.global internal @{name}() {{addr_space = 3 : i32, alignment = {align} : i64}} : {array} {{\n      %0 = llvm.mlir.undef : {array}\n      llvm.return %0 : {array}\n    }}\n"
                ));
                let twin = shared_twin(op.results[0]);
                self.line(format!("{twin} = llvm.mlir.addressof @{name} : !llvm.ptr<3>"));
                self.shared_result(op.results[0]);
            }
            OpKind::Table { name } => {
                // A constant global of the device's global memory: loads of it are cached and
                // may take the read-only path (`ld.global.nc`), whatever the index pattern.
                let Some(table) = self.module.table(name) else { return };
                let global = format!(
                    "rkc_table_{}",
                    name.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
                );
                let elem = table.elem();
                let mut hex = String::new();
                for byte in table.bytes() {
                    let _ = write!(hex, "{byte:02X}");
                }
                let mut dims = Vec::new();
                let mut t = &table.ty;
                while let Type::Array { elem, len } = t {
                    dims.push(len.to_string());
                    t = elem;
                }
                let tensor = format!("tensor<{}x{}>", dims.join("x"), mlir_type(elem));
                let array = mlir_type(&table.ty);
                self.globals.push(format!(
                    "    llvm.mlir.global internal constant @{global}(dense<\"0x{hex}\"> : {tensor}) {{addr_space = 1 : i32, alignment = 16 : i64}} : {array}\n"
                ));
                let t = self.temp();
                self.line(format!("{t} = llvm.mlir.addressof @{global} : !llvm.ptr<1>"));
                self.line(format!("{res} = llvm.addrspacecast {t} : !llvm.ptr<1> to !llvm.ptr"));
            }
            OpKind::FieldPtr { index } => {
                let record = self
                    .rk_ty(op.operands[0])
                    .pointee()
                    .map(mlir_type)
                    .unwrap_or_else(|| "i8".into());
                if self.shared.contains(&op.operands[0]) {
                    let twin = shared_twin(op.results[0]);
                    let base = shared_twin(op.operands[0]);
                    self.line(format!("{twin} = llvm.getelementptr inbounds {base}[0, {index}] : (!llvm.ptr<3>) -> !llvm.ptr<3>, {record}"));
                    self.shared_result(op.results[0]);
                } else {
                    self.line(format!("{res} = llvm.getelementptr inbounds {}[0, {index}] : (!llvm.ptr) -> !llvm.ptr, {record}", arg(0)));
                }
            }
            OpKind::Local if self.block_fn.is_some() => self.block_local(op),
            OpKind::Local => {
                // Written in AMD's private space (5) and cast to the generic pointer that the
                // body uses; `specialize` moves the alloca to the generic space where a back
                // end wants it there (NVPTX). SROA promotes constant-indexed elements to
                // registers; address-space inference gives the rest `ld.local`/`st.local`.
                let array = match self.rk_ty(op.results[0]).pointee() {
                    Some(t) if t.is_storable() => mlir_type(t),
                    _ => "i8".into(),
                };
                let (one, private) = (self.temp(), self.temp());
                self.allocas.push(format!("{one} = llvm.mlir.constant(1 : i64) : i64"));
                self.allocas.push(format!("{private} = llvm.alloca {one} x {array} {{alignment = 16 : i64}} : (i64) -> {PRIVATE_POINTER}"));
                self.allocas.push(format!(
                    "{res} = llvm.addrspacecast {private} : {PRIVATE_POINTER} to !llvm.ptr"
                ));
            }
            OpKind::Atomic(a) => {
                let ty = self.rk_ty(op.operands[1]);
                let t = mlir_type(ty);
                let signed = matches!(ty, Type::Int(i) if i.is_signed());
                let kind = match a {
                    AtomicOp::Add if ty.is_float() => "fadd",
                    AtomicOp::Sub if ty.is_float() => "fsub",
                    AtomicOp::Min if ty.is_float() => "fmin",
                    AtomicOp::Max if ty.is_float() => "fmax",
                    AtomicOp::Add => "add",
                    AtomicOp::Sub => "sub",
                    AtomicOp::And => "_and",
                    AtomicOp::Or => "_or",
                    AtomicOp::Xor => "_xor",
                    AtomicOp::Min if signed => "min",
                    AtomicOp::Min => "umin",
                    AtomicOp::Max if signed => "max",
                    AtomicOp::Max => "umax",
                    AtomicOp::Exchange => "xchg",
                };
                if self.block_fn.as_ref().is_some_and(|b| b.is_block_private(op.operands[0])) {
                    self.block_private_atomic(kind, op, &t);
                } else {
                    self.line(format!(
                        "{res} = llvm.atomicrmw {kind} {}, {} monotonic : !llvm.ptr, {t}",
                        arg(0),
                        arg(1)
                    ));
                }
            }
            OpKind::AtomicCas => {
                let ty = self.rk_ty(op.operands[1]).clone();
                let t = self.ty(op.operands[1]);
                let pair = self.temp();
                // LLVM's cmpxchg takes integers: a float is compared by its bits, as CUDA's
                // atomicCAS on a reinterpreted float does.
                let (current, new, it) = if ty.is_float() {
                    let i = format!("i{}", ty.size_of() * 8);
                    let (current, new) = (self.temp(), self.temp());
                    self.line(format!("{current} = llvm.bitcast {} : {t} to {i}", arg(1)));
                    self.line(format!("{new} = llvm.bitcast {} : {t} to {i}", arg(2)));
                    (current, new, i)
                } else {
                    (arg(1), arg(2), t.clone())
                };
                self.line(format!(
                    "{pair} = llvm.cmpxchg {}, {current}, {new} monotonic monotonic : !llvm.ptr, {it}",
                    arg(0)
                ));
                let old = if ty.is_float() { self.temp() } else { res.clone() };
                self.line(format!(
                    "{old} = llvm.extractvalue {pair}[0] : !llvm.struct<({it}, i1)>"
                ));
                if ty.is_float() {
                    self.line(format!("{res} = llvm.bitcast {old} : {it} to {t}"));
                }
            }
            // Slices are kernel parameters only (the verifier keeps them out of yields and
            // breaks, and calls are inlined), so each names its two MLIR parameters.
            OpKind::SliceLen => {
                let (_, len) = self.slices.get(&op.operands[0]).cloned().unwrap_or_default();
                let zero = self.temp();
                self.line(format!("{zero} = arith.constant 0 : i64"));
                self.line(format!("{res} = arith.addi {len}, {zero} : i64"));
            }
            OpKind::SlicePtr => {
                let (ptr, _) = self.slices.get(&op.operands[0]).cloned().unwrap_or_default();
                self.line(format!(
                    "{res} = llvm.getelementptr {ptr}[0] : (!llvm.ptr) -> !llvm.ptr, i8"
                ));
            }
            OpKind::Assert { .. } => {
                let ok = arg(0);
                if op.operands.len() == 3 {
                    // The message's `{index}` and `{len}` travel in the panic record.
                    self.check(&ok, Some((&arg(1), &arg(2))));
                } else {
                    self.check(&ok, None);
                }
            }
            OpKind::Print { .. } => self.print(op),
            // `lower` refuses kernels that still call; calls never reach the emitters.
            OpKind::Call { .. } => {}
        }
    }

    /// `hypot`, which MLIR's math dialect lacks. `f32`: glibc's `hypotf` exactly (the sum of
    /// the squares in `f64`, where they are exact, one `f64` square root, one rounding to
    /// `f32`; infinity if either operand is infinite, even with a NaN). `f64`: the scaled form
    /// `a·sqrt(1 + (b/a)²)` with `a = max(|x|, |y|)`, within 2 ulp of glibc's correctly rounded
    /// `hypot`, with the same infinities, NaNs and zeros.
    fn hypot(&mut self, res: &str, x: &str, y: &str, t: &str) {
        let inf = self.temp();
        self.line(format!(
            "{inf} = arith.constant 0x{} : {t}",
            if t == "f32" { "7F800000" } else { "7FF0000000000000" }
        ));
        let (ax, ay) = (self.temp(), self.temp());
        self.line(format!("{ax} = llvm.call_intrinsic \"llvm.fabs.{t}\"({x}) : ({t}) -> {t}"));
        self.line(format!("{ay} = llvm.call_intrinsic \"llvm.fabs.{t}\"({y}) : ({t}) -> {t}"));
        let (xi, yi, any_inf) = (self.temp(), self.temp(), self.temp());
        self.line(format!("{xi} = arith.cmpf oeq, {ax}, {inf} : {t}"));
        self.line(format!("{yi} = arith.cmpf oeq, {ay}, {inf} : {t}"));
        self.line(format!("{any_inf} = arith.ori {xi}, {yi} : i1"));
        let finite = self.temp();
        if t == "f32" {
            let (xd, yd, xx, yy, sum, root) =
                (self.temp(), self.temp(), self.temp(), self.temp(), self.temp(), self.temp());
            self.line(format!("{xd} = arith.extf {x} : f32 to f64"));
            self.line(format!("{yd} = arith.extf {y} : f32 to f64"));
            self.line(format!("{xx} = arith.mulf {xd}, {xd} : f64"));
            self.line(format!("{yy} = arith.mulf {yd}, {yd} : f64"));
            self.line(format!("{sum} = arith.addf {xx}, {yy} : f64"));
            self.line(format!(
                "{root} = llvm.call_intrinsic \"llvm.sqrt.f64\"({sum}) : (f64) -> f64"
            ));
            self.line(format!("{finite} = arith.truncf {root} : f64 to f32"));
        } else {
            let (a, b, r, one, rr, root, h) = (
                self.temp(),
                self.temp(),
                self.temp(),
                self.temp(),
                self.temp(),
                self.temp(),
                self.temp(),
            );
            self.line(format!(
                "{a} = llvm.call_intrinsic \"llvm.maxnum.f64\"({ax}, {ay}) : (f64, f64) -> f64"
            ));
            self.line(format!(
                "{b} = llvm.call_intrinsic \"llvm.minnum.f64\"({ax}, {ay}) : (f64, f64) -> f64"
            ));
            self.line(format!("{r} = arith.divf {b}, {a} : f64"));
            self.line(format!("{one} = arith.constant 1.0 : f64"));
            self.line(format!("{rr} = llvm.call_intrinsic \"llvm.fma.f64\"({r}, {r}, {one}) : (f64, f64, f64) -> f64"));
            self.line(format!(
                "{root} = llvm.call_intrinsic \"llvm.sqrt.f64\"({rr}) : (f64) -> f64"
            ));
            self.line(format!("{h} = arith.mulf {a}, {root} : f64"));
            // Both zero: 0 (the division gave NaN). Either NaN (and neither infinite): NaN.
            let (zero, is_zero, nan, is_nan, z) =
                (self.temp(), self.temp(), self.temp(), self.temp(), self.temp());
            self.line(format!("{zero} = arith.constant 0.0 : f64"));
            self.line(format!("{is_zero} = arith.cmpf oeq, {a}, {zero} : f64"));
            self.line(format!("{nan} = arith.constant 0x7FF8000000000000 : f64"));
            self.line(format!("{is_nan} = arith.cmpf uno, {x}, {y} : f64"));
            self.line(format!("{z} = arith.select {is_zero}, {zero}, {h} : f64"));
            self.line(format!("{finite} = arith.select {is_nan}, {nan}, {z} : f64"));
        }
        self.line(format!("{res} = arith.select {any_inf}, {inf}, {finite} : {t}"));
    }

    /// `rk.math`: LLVM intrinsics where the targets have instructions (correctly rounded
    /// `sqrt`, `fma`, `floor`..., bit counts, rotates, saturation), MLIR's `math` ops
    /// otherwise, which `convert-gpu-to-nvvm` / `-rocdl` turn into libdevice / ocml calls.
    fn math(&mut self, f: MathFn, op: &Op) {
        use MathFn::*;
        let res = v(op.results[0]);
        let args: Vec<String> = op.operands.iter().map(|x| v(*x)).collect();
        let ty = self.rk_ty(op.operands[0]);
        let t = mlir_type(ty);
        let rt = self.ty(op.results[0]);
        let flags = if self.options.fast_math && ty.is_float() {
            " {fastmathFlags = #llvm.fastmath<fast>}"
        } else {
            ""
        };
        let intrinsic = |me: &mut Self, name: &str, args: &[String], arg_tys: &[String]| {
            me.line(format!(
                "{res} = llvm.call_intrinsic \"llvm.{name}.{t}\"({}){flags} : ({}) -> {t}",
                args.join(", "),
                arg_tys.join(", ")
            ));
        };
        let signed = matches!(ty, Type::Int(i) if i.is_signed());
        match f {
            Sqrt | Floor | Ceil | Trunc | Round | RoundTiesEven | Abs => {
                let name = match f {
                    Sqrt => "sqrt",
                    Floor => "floor",
                    Ceil => "ceil",
                    Trunc => "trunc",
                    RoundTiesEven => "roundeven",
                    Round => "round",
                    _ => "fabs",
                };
                intrinsic(self, name, &args, std::slice::from_ref(&t));
            }
            Copysign => intrinsic(self, "copysign", &args, &[t.clone(), t.clone()]),
            Min | Max if ty.is_float() => {
                let name = if f == Min { "minnum" } else { "maxnum" };
                intrinsic(self, name, &args, &[t.clone(), t.clone()]);
            }
            MulAdd => intrinsic(self, "fma", &args, &[t.clone(), t.clone(), t.clone()]),
            Exp | Exp2 | Ln | Log2 | Log10 | Sin | Cos | Tan | Tanh | Asin | Acos | Atan | Sinh
            | Cosh | Asinh | Acosh | Atanh | Cbrt | ExpM1 | Ln1p => {
                let name = match f {
                    Exp => "exp",
                    Exp2 => "exp2",
                    Ln => "log",
                    Log2 => "log2",
                    Log10 => "log10",
                    Sin => "sin",
                    Cos => "cos",
                    Tan => "tan",
                    Asin => "asin",
                    Acos => "acos",
                    Atan => "atan",
                    Sinh => "sinh",
                    Cosh => "cosh",
                    Asinh => "asinh",
                    Acosh => "acosh",
                    Atanh => "atanh",
                    Cbrt => "cbrt",
                    ExpM1 => "expm1",
                    Ln1p => "log1p",
                    _ => "tanh",
                };
                self.line(format!("{res} = math.{name} {}{} : {t}", args[0], self.fast()));
            }
            Hypot => self.hypot(&res, &args[0], &args[1], &t),
            Powf | Atan2 => {
                let name = match f {
                    Powf => "powf",
                    _ => "atan2",
                };
                self.line(format!(
                    "{res} = math.{name} {}, {}{} : {t}",
                    args[0],
                    args[1],
                    self.fast()
                ));
            }
            Min | Max => {
                let name = match (f, signed) {
                    (Min, true) => "minsi",
                    (Min, false) => "minui",
                    (_, true) => "maxsi",
                    _ => "maxui",
                };
                self.line(format!("{res} = arith.{name} {}, {} : {t}", args[0], args[1]));
            }
            WrappingAbs => {
                let no_poison = self.temp();
                self.line(format!("{no_poison} = llvm.mlir.constant(false) : i1"));
                intrinsic(self, "abs", &[args[0].clone(), no_poison], &[t.clone(), "i1".into()]);
            }
            SaturatingAdd | SaturatingSub => {
                let name = match (f, signed) {
                    (SaturatingAdd, true) => "sadd.sat",
                    (SaturatingAdd, false) => "uadd.sat",
                    (_, true) => "ssub.sat",
                    _ => "usub.sat",
                };
                intrinsic(self, name, &args, &[t.clone(), t.clone()]);
            }
            RotateLeft | RotateRight => {
                // A funnel shift of x with itself is a rotate; the amount is taken modulo the
                // width by the intrinsic, as Rust's rotate does.
                let amount = self.resize_int(&args[1], &Type::U32, ty);
                let name = if f == RotateLeft { "fshl" } else { "fshr" };
                intrinsic(
                    self,
                    name,
                    &[args[0].clone(), args[0].clone(), amount],
                    &[t.clone(), t.clone(), t.clone()],
                );
            }
            CountOnes | LeadingZeros | TrailingZeros => {
                let width = ty.size_of() * 8;
                let wide = if width == 32 { res.clone() } else { self.temp() };
                let name = match f {
                    CountOnes => "ctpop",
                    LeadingZeros => "ctlz",
                    _ => "cttz",
                };
                if f == CountOnes {
                    self.line(format!(
                        "{wide} = llvm.call_intrinsic \"llvm.{name}.{t}\"({}) : ({t}) -> {t}",
                        args[0]
                    ));
                } else {
                    // A zero input gives the width, as Rust's methods do.
                    let no_poison = self.temp();
                    self.line(format!("{no_poison} = llvm.mlir.constant(false) : i1"));
                    self.line(format!(
                        "{wide} = llvm.call_intrinsic \"llvm.{name}.{t}\"({}, {no_poison}) : ({t}, i1) -> {t}",
                        args[0]
                    ));
                }
                if width > 32 {
                    self.line(format!("{res} = arith.trunci {wide} : {t} to i32"));
                } else if width < 32 {
                    self.line(format!("{res} = arith.extui {wide} : {t} to i32"));
                }
            }
            ToBits | FromBits => {
                self.line(format!("{res} = arith.bitcast {} : {t} to {rt}", args[0]))
            }
        }
    }

    /// `rk.loop`: a header block that the body re-enters, and an exit block whose arguments
    /// are the loop's results.
    fn loop_op(&mut self, op: &'f Op) {
        let (header, exit) = (self.new_label(), self.new_label());
        let tys: Vec<String> = op.results.iter().map(|r| self.ty(*r)).collect();
        self.line(format!("cf.br {header}"));
        self.start_block(format!("{header}:"));
        let hint = match op.kind {
            OpKind::Loop { hint } => hint,
            _ => LoopHint::Plain,
        };
        self.loops.push((header.clone(), exit.clone(), tys.clone(), hint));
        if let Some(body) = op.regions.first() {
            self.region(body);
            if body.falls_through() {
                self.line(back_edge(&header, hint));
            }
        }
        self.loops.pop();
        let header_line = if op.results.is_empty() {
            format!("{exit}:")
        } else {
            let args: Vec<String> =
                op.results.iter().zip(&tys).map(|(r, t)| format!("{}: {t}", v(*r))).collect();
            format!("{exit}({}):", args.join(", "))
        };
        self.start_block(header_line);
    }

    /// Integer and float arithmetic. Integers wrap (Rust's release build); shifts take their
    /// amount modulo the width, as Rust's release build does; integer division and remainder
    /// panic on a zero divisor and on `MIN / -1`, as Rust always does.
    fn binary(&mut self, b: BinOp, op: &Op) {
        let res = v(op.results[0]);
        let (l, r) = (v(op.operands[0]), v(op.operands[1]));
        let ty = self.rk_ty(op.operands[0]);
        let t = mlir_type(ty);
        if let Type::Float(_) = ty {
            let name = match b {
                BinOp::Add => "addf",
                BinOp::Sub => "subf",
                BinOp::Mul => "mulf",
                BinOp::Div => "divf",
                _ => "remf",
            };
            self.line(format!("{res} = arith.{name} {l}, {r}{} : {t}", self.fast()));
            return;
        }
        let signed = matches!(ty, Type::Int(i) if i.is_signed());
        let name = match b {
            BinOp::Add => "addi",
            BinOp::Sub => "subi",
            BinOp::Mul => "muli",
            BinOp::Div if signed => "divsi",
            BinOp::Div => "divui",
            BinOp::Rem if signed => "remsi",
            BinOp::Rem => "remui",
            BinOp::And => "andi",
            BinOp::Or => "ori",
            BinOp::Xor => "xori",
            BinOp::Shl => "shli",
            BinOp::Shr if signed => "shrsi",
            BinOp::Shr => "shrui",
        };
        match b {
            BinOp::Div | BinOp::Rem => {
                // A constant divisor needs neither check where checks panic in place: LLVM
                // would fold a branch on them, but not the inline assembly (the sites keep
                // their numbers, so that the numbering matches the metadata's).
                let ones = u128::MAX >> (128 - ty.size_of() * 8);
                let safe = match self.defs.get(&op.operands[1]).map(|d| &d.kind) {
                    Some(OpKind::Const(Literal::Int(c))) => {
                        *c & ones != 0 && (!signed || *c & ones != ones)
                    }
                    _ => false,
                };
                if safe && self.in_place_now {
                    self.n_sites += if signed { 2 } else { 1 };
                    self.line(format!("{res} = arith.{name} {l}, {r} : {t}"));
                    return;
                }
                let zero = self.temp();
                let nonzero = self.temp();
                self.line(format!("{zero} = arith.constant 0 : {t}"));
                self.line(format!("{nonzero} = arith.cmpi ne, {r}, {zero} : {t}"));
                self.check(&nonzero, None);
                if signed {
                    // MIN / -1 overflows: Rust panics, LLVM would be undefined.
                    let bits = ty.size_of() * 8;
                    let (min, m1, is_min, is_m1, both, ok) = (
                        self.temp(),
                        self.temp(),
                        self.temp(),
                        self.temp(),
                        self.temp(),
                        self.temp(),
                    );
                    self.line(format!(
                        "{min} = arith.constant {} : {t}",
                        i128::MIN >> (128 - bits)
                    ));
                    self.line(format!("{m1} = arith.constant -1 : {t}"));
                    self.line(format!("{is_min} = arith.cmpi eq, {l}, {min} : {t}"));
                    self.line(format!("{is_m1} = arith.cmpi eq, {r}, {m1} : {t}"));
                    self.line(format!("{both} = arith.andi {is_min}, {is_m1} : i1"));
                    let tru = self.temp();
                    self.line(format!("{tru} = arith.constant true"));
                    self.line(format!("{ok} = arith.xori {both}, {tru} : i1"));
                    self.check(&ok, None);
                }
                self.line(format!("{res} = arith.{name} {l}, {r} : {t}"));
            }
            BinOp::Shl | BinOp::Shr => {
                // Bring the amount to the shifted type's width, then mask it.
                let rt = self.rk_ty(op.operands[1]);
                let amount = self.resize_int(&r, rt, ty);
                let mask = self.temp();
                let masked = self.temp();
                self.line(format!("{mask} = arith.constant {} : {t}", ty.size_of() * 8 - 1));
                self.line(format!("{masked} = arith.andi {amount}, {mask} : {t}"));
                self.line(format!("{res} = arith.{name} {l}, {masked} : {t}"));
            }
            _ => self.line(format!("{res} = arith.{name} {l}, {r} : {t}")),
        }
    }

    fn if_op(&mut self, op: &'f Op) {
        let (then_label, else_label, join_label) =
            (self.new_label(), self.new_label(), self.new_label());
        self.line(format!("cf.cond_br {}, {then_label}, {else_label}", v(op.operands[0])));
        let result_tys: Vec<String> = op.results.iter().map(|r| self.ty(*r)).collect();
        for (region, label) in op.regions.iter().zip([&then_label, &else_label]) {
            self.start_block(format!("{label}:"));
            self.region(region);
            match region.ops.last() {
                Some(last) if last.kind.diverges() => {}
                Some(last) if last.kind == OpKind::Yield && !last.operands.is_empty() => {
                    let vals: Vec<String> = last.operands.iter().map(|x| v(*x)).collect();
                    self.line(format!(
                        "cf.br {join_label}({} : {})",
                        vals.join(", "),
                        result_tys.join(", ")
                    ));
                }
                _ => self.line(format!("cf.br {join_label}")),
            }
        }
        let header = if op.results.is_empty() {
            format!("{join_label}:")
        } else {
            let args: Vec<String> = op
                .results
                .iter()
                .zip(&result_tys)
                .map(|(r, t)| format!("{}: {t}", v(*r)))
                .collect();
            format!("{join_label}({}):", args.join(", "))
        };
        self.start_block(header);
    }
}

/// The hidden last parameter of every kernel: the panic record.
const PANIC_RECORD: &str = "%panic_record";
/// The block every failed check branches to.
const PANIC_BLOCK: &str = "^panic";
/// The attribute that marks the panic block's reads of the block and thread indices (see
/// `rkc_lower::specialize`); a discardable attribute, which survives MLIR's printing.
pub(crate) const PANIC_POSITION: &str = "rk.panic_position";

/// The name of the `index` constant 0 defined at the top of every kernel.
const ZERO_INDEX: &str = "%zero_index";

/// A branch back to a loop's header. The back edges of a loop with a hint (all of them: LLVM
/// reads a loop's metadata only when every latch carries the same) say not to unroll it
/// (`cold`), or to unroll it completely when its trip count is a constant (`unroll`).
fn back_edge(header: &str, hint: LoopHint) -> String {
    let unroll = match hint {
        LoopHint::Plain => return format!("cf.br {header}"),
        LoopHint::Cold => "disable = true",
        LoopHint::Unroll => "full = true",
    };
    format!(
        "llvm.br {header} {{loop_annotation = #llvm.loop_annotation<unroll = #llvm.loop_unroll<{unroll}>>}}"
    )
}

/// The end of a group of two or more bounds checks starting at `ops[start]`, for
/// `check_group`, or `start` when there is none: checks with only ops between them that
/// cannot panic, touch no memory but the thread's own slots (never written in a group), and
/// have no regions, so that computing them all before one branch changes nothing observable.
fn check_group_end(ops: &[Op], start: usize) -> usize {
    if ops[start].kind != OpKind::BoundsCheck {
        return start;
    }
    let (mut checks, mut end) = (0, start);
    for (k, op) in ops.iter().enumerate().skip(start) {
        let free = match &op.kind {
            OpKind::BoundsCheck => {
                checks += 1;
                end = k + 1;
                continue;
            }
            OpKind::Binary(BinOp::Div | BinOp::Rem) => false,
            OpKind::Const(_)
            | OpKind::Geometry(..)
            | OpKind::Binary(_)
            | OpKind::Cmp(_)
            | OpKind::Not
            | OpKind::Neg
            | OpKind::Cast
            | OpKind::ElemPtr
            | OpKind::PtrOffset
            | OpKind::FieldPtr { .. }
            | OpKind::SliceLen
            | OpKind::SlicePtr
            | OpKind::Read => true,
            _ => false,
        };
        if !free || !op.regions.is_empty() {
            break;
        }
    }
    if checks >= 2 { end } else { start }
}

fn v(id: ValueId) -> String {
    format!("%v{}", id.0)
}

/// `arith.constant` of a literal. Floats are written as their exact bit pattern, so that no
/// decimal rounding can change a value on its way through MLIR's parser.
fn constant(lit: &Literal, ty: &Type) -> String {
    match (lit, ty) {
        (Literal::Bool(b), _) => format!("arith.constant {b}"),
        (Literal::Int(bits), Type::Int(t)) => {
            let shift = 128 - t.bits();
            let signed = ((*bits << shift) as i128) >> shift;
            format!("arith.constant {signed} : i{}", t.bits())
        }
        (Literal::Float(x), Type::Float(f @ (FloatTy::F16 | FloatTy::Bf16 | FloatTy::F32))) => {
            let digits = (f.bits() / 4) as usize;
            format!("arith.constant 0x{:0digits$X} : {}", f.bits_of(*x), f.name())
        }
        (Literal::Float(x), _) => format!("arith.constant 0x{:016X} : f64", x.to_bits()),
        (Literal::Int(bits), _) => format!("arith.constant {bits} : i64"),
    }
}

fn cmp_predicate(c: CmpOp, ty: &Type) -> (&'static str, &'static str) {
    if ty.is_float() {
        // Rust's float comparisons are false when either side is NaN, except `!=`.
        let p = match c {
            CmpOp::Eq => "oeq",
            CmpOp::Ne => "une",
            CmpOp::Lt => "olt",
            CmpOp::Le => "ole",
            CmpOp::Gt => "ogt",
            CmpOp::Ge => "oge",
        };
        return ("cmpf", p);
    }
    let signed = matches!(ty, Type::Int(i) if i.is_signed());
    let p = match (c, signed) {
        (CmpOp::Eq, _) => "eq",
        (CmpOp::Ne, _) => "ne",
        (CmpOp::Lt, true) => "slt",
        (CmpOp::Le, true) => "sle",
        (CmpOp::Gt, true) => "sgt",
        (CmpOp::Ge, true) => "sge",
        (CmpOp::Lt, false) => "ult",
        (CmpOp::Le, false) => "ule",
        (CmpOp::Gt, false) => "ugt",
        (CmpOp::Ge, false) => "uge",
    };
    ("cmpi", p)
}

/// The element type of a shared array as a name part: rk's type, which tells `u32` from `i32`
/// and one struct from another of the same fields (MLIR's `i32` and `!llvm.struct` would not),
/// so that a generic function's array is one per Rust type it is instantiated with, as in the
/// simulator (which keys shared arrays by site and `type_name`).
pub(crate) fn shared_tag(elem: &Type) -> String {
    elem.to_string().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect()
}
