//! What a block function's plan needs to know of a kernel: which ops are block-level control
//! (barriers, warp exchanges, lockstep loops), which slots hold one value for the whole block,
//! and which values each stretch between them recomputes or keeps per thread.

use rkc_rk::{BinOp, Func, Geometry, Op, OpKind, ValueId, WarpOp};
use std::collections::{HashMap, HashSet};

/// Whether an op is block-level control or holds some: it waits for other threads (a barrier,
/// or a warp exchange) or is a loop the block runs in lockstep, itself or inside its regions.
pub(super) fn at_block_level(op: &Op, lockstep: &HashSet<*const Op>) -> bool {
    matches!(op.kind, OpKind::Barrier)
        || matches!(op.kind, OpKind::Warp(w) if w != WarpOp::LaneId)
        || matches!(op.kind, OpKind::Mma(_))
        || lockstep.contains(&(op as *const Op))
        || op.regions.iter().any(|r| r.ops.iter().any(|o| at_block_level(o, lockstep)))
}

/// The grid-stride loops of `func`: loops that add a stride made of the launch's geometry
/// (`grid_dim`, `block_dim`, constants) to a slot each iteration, `i += grid_dim * block_dim`.
///
/// On a GPU a warp's threads run such a loop together, each iteration reading consecutive
/// elements. Run one thread after another, each thread walks memory with the grid's stride, a
/// power of two bytes apart as often as not: every address falls into the same set of the
/// CPU's caches, which then hold a handful of the lines the next threads need (the reduction
/// example's 2^24 floats took 7× as long as reading them in order). The block function runs
/// these loops in lockstep instead, as it runs a loop around a barrier, a strip of a few
/// iterations of each thread at a time (`FuncEmitter::strip`), so that the threads' accesses
/// come together.
pub(super) fn lockstep_loops(func: &Func) -> HashSet<*const Op> {
    let mut defs: HashMap<ValueId, &Op> = HashMap::new();
    walk(&func.body.ops, &mut |o| {
        for r in &o.results {
            defs.insert(*r, o);
        }
    });
    // Whether `x` is computed from the launch's geometry and constants alone, through casts
    // and integer arithmetic, with the geometry in it (a bounded search: strides are short
    // expressions).
    fn geometric(x: ValueId, defs: &HashMap<ValueId, &Op>, depth: u32) -> Option<bool> {
        let op = defs.get(&x)?;
        if depth > 8 {
            return None;
        }
        match &op.kind {
            OpKind::Geometry(Geometry::GridDim | Geometry::BlockDim, _) => Some(true),
            OpKind::Const(_) => Some(false),
            OpKind::Cast | OpKind::Binary(BinOp::Add | BinOp::Mul | BinOp::Shl) => {
                let mut any = false;
                for y in &op.operands {
                    any |= geometric(*y, defs, depth + 1)?;
                }
                Some(any)
            }
            _ => None,
        }
    }
    let mut loops = HashSet::new();
    walk(&func.body.ops, &mut |op| {
        if !matches!(op.kind, OpKind::Loop { .. }) {
            return;
        }
        let strided = op.regions.iter().flat_map(|r| &r.ops).any(|o| {
            let (OpKind::Write, [value, slot]) = (&o.kind, o.operands.as_slice()) else {
                return false;
            };
            let Some(add) = defs.get(value).filter(|d| d.kind == OpKind::Binary(BinOp::Add)) else {
                return false;
            };
            let reads_slot = |x: &ValueId| {
                defs.get(x).is_some_and(|d| d.kind == OpKind::Read && d.operands[0] == *slot)
            };
            match add.operands.as_slice() {
                [a, b] => {
                    (reads_slot(a) && geometric(*b, &defs, 0) == Some(true))
                        || (reads_slot(b) && geometric(*a, &defs, 0) == Some(true))
                }
                _ => false,
            }
        });
        if strided {
            loops.insert(op as *const Op);
        }
    });
    loops
}

/// The slots that hold the same value in every thread of a block whenever every thread is
/// running (none has returned or panicked): each write to them stores a value that is the
/// same in every thread, under control that every thread takes alike.
///
/// This is stricter than `rkc_rk::passes::uniform`, which serves diagnostics and calls a value
/// uniform where it cannot tell: here a wrong answer is a wrong result. A value is the same in
/// every thread when it is a constant, a parameter, a block's position or the launch's sizes,
/// a shared array's address, a read of such a slot, a load through such an address (a kernel
/// without data races reads the same value in every thread there, as the GPU's own uniformity
/// analyses assume), or computed from such values; never a thread's index, the address of its
/// private memory, a warp exchange or an atomic's result. Control
/// is alike in every thread outside `if`s whose condition is not the same in every thread and
/// loops that a thread may leave or restart under such a condition. A `return` or a panic
/// under divergent control is no concern: after one, not every thread is running.
pub(super) fn uniform_slots(func: &Func) -> HashSet<ValueId> {
    struct Walk {
        slots: HashSet<ValueId>,
        divergent: HashSet<ValueId>,
    }
    impl Walk {
        pub(super) fn region(&mut self, ops: &[Op], diverged: bool) {
            for op in ops {
                self.op(op, diverged);
            }
        }
        fn op(&mut self, op: &Op, diverged: bool) {
            let any = |w: &Walk, xs: &[ValueId]| xs.iter().any(|x| w.divergent.contains(x));
            let result_divergent = match &op.kind {
                OpKind::Write => {
                    if diverged || any(self, &op.operands[..1]) {
                        self.slots.remove(&op.operands[1]);
                    }
                    false
                }
                OpKind::Read => !self.slots.contains(&op.operands[0]),
                OpKind::Geometry(Geometry::ThreadId, _)
                | OpKind::Warp(_)
                | OpKind::Mma(_)
                | OpKind::Atomic(_)
                | OpKind::AtomicCas
                | OpKind::Local
                | OpKind::Call { .. } => true,
                OpKind::If => {
                    let inner = diverged || any(self, &op.operands[..1]);
                    self.region_all(op, inner);
                    inner || op.regions.iter().any(|r| self.yields_divergent(&r.ops))
                }
                OpKind::Loop { .. } => {
                    let inner = diverged || self.leaves_divergently(op);
                    self.region_all(op, inner);
                    inner || self.breaks_divergent(op)
                }
                _ => {
                    if !op.regions.is_empty() {
                        self.region_all(op, true);
                    }
                    any(self, &op.operands)
                }
            };
            if result_divergent {
                self.divergent.extend(op.results.iter().copied());
            }
        }
        fn region_all(&mut self, op: &Op, diverged: bool) {
            for r in &op.regions {
                self.region(&r.ops, diverged);
            }
        }
        fn yields_divergent(&self, ops: &[Op]) -> bool {
            ops.iter().any(|o| {
                o.kind == OpKind::Yield && o.operands.iter().any(|x| self.divergent.contains(x))
            })
        }
        /// Whether a thread may leave `lp`, or end an iteration of it, where another does not:
        /// a `break` or `continue` (to it or further out) inside an `if` whose condition
        /// differs between threads, at any depth.
        fn leaves_divergently(&self, lp: &Op) -> bool {
            fn exits(ops: &[Op]) -> bool {
                let mut found = false;
                walk(ops, &mut |o| {
                    found |= matches!(o.kind, OpKind::Break { .. } | OpKind::Continue { .. })
                });
                found
            }
            let mut found = false;
            walk(lp.regions.first().map_or(&[][..], |r| &r.ops), &mut |o| {
                found |= o.kind == OpKind::If
                    && self.divergent.contains(&o.operands[0])
                    && o.regions.iter().any(|r| exits(&r.ops));
            });
            found
        }
        /// Whether a `break` inside `lp` gives its results a value that differs between
        /// threads.
        fn breaks_divergent(&self, lp: &Op) -> bool {
            let mut found = false;
            walk(lp.regions.first().map_or(&[][..], |r| &r.ops), &mut |o| {
                found |= matches!(o.kind, OpKind::Break { .. })
                    && o.operands.iter().any(|x| self.divergent.contains(x));
            });
            found
        }
    }
    let mut slots = HashSet::new();
    walk(&func.body.ops, &mut |o| {
        if o.kind == OpKind::Var {
            slots.extend(o.results.iter().copied());
        }
    });
    let mut w = Walk { slots, divergent: HashSet::new() };
    // The facts only shrink the set of slots and grow the divergent values; a few rounds
    // reach the fixed point (each carries divergence through one more slot or loop).
    loop {
        let before = (w.slots.len(), w.divergent.len());
        w.region(&func.body.ops, false);
        if (w.slots.len(), w.divergent.len()) == before {
            break;
        }
    }
    w.slots
}

/// The values `ops` use and do not define.
pub(super) fn inputs(ops: &[Op]) -> Vec<ValueId> {
    let mut defined = HashSet::new();
    walk(ops, &mut |o| defined.extend(o.results.iter().copied()));
    let mut inputs: Vec<ValueId> = Vec::new();
    walk(ops, &mut |o| {
        for x in &o.operands {
            if !defined.contains(x) && !inputs.contains(x) {
                inputs.push(*x);
            }
        }
    });
    inputs
}

/// Every op of a region, nested ones included, in walk order.
pub(super) fn walk<'f>(ops: &'f [Op], f: &mut dyn FnMut(&'f Op)) {
    for op in ops {
        f(op);
        for r in &op.regions {
            walk(&r.ops, f);
        }
    }
}

/// What a block function needs to know before it is written: which values cross from one
/// stretch to another, or why the kernel cannot be written as one.
pub(super) struct Plan<'f> {
    /// The stretch that defines each value (values of the function's entry, parameters, slots
    /// and shared arrays, are in none).
    pub(super) defined_in: HashMap<ValueId, usize>,
    /// Each use: the value and the stretch using it (`None`: the block function's control).
    pub(super) uses: Vec<(ValueId, Option<usize>)>,
    pub(super) defining: HashMap<ValueId, &'f Op>,
    /// Values the block function's control defines, kept per thread whatever their uses.
    pub(super) forced: Vec<ValueId>,
    pub(super) stretches: usize,
    pub(super) lockstep: HashSet<*const Op>,
    pub(super) func: &'f Func,
}

impl<'f> Plan<'f> {
    pub(super) fn region(&mut self, ops: &'f [Op]) -> Result<(), &'static str> {
        let mut current: Option<usize> = None;
        for op in ops {
            if !at_block_level(op, &self.lockstep) {
                let id = *current.get_or_insert_with(|| {
                    self.stretches += 1;
                    self.stretches - 1
                });
                let mut in_stretch = |o: &'f Op| {
                    for x in &o.operands {
                        self.uses.push((*x, Some(id)));
                    }
                    // Slots and shared arrays are made at the block function's entry.
                    if !matches!(o.kind, OpKind::Var | OpKind::Shared | OpKind::DynShared) {
                        for r in &o.results {
                            self.defined_in.insert(*r, id);
                            self.defining.insert(*r, o);
                        }
                    }
                };
                in_stretch(op);
                for r in &op.regions {
                    walk(&r.ops, &mut in_stretch);
                }
                continue;
            }
            current = None;
            // Results of the block's own loops and `if`s: each thread stores its own (at its
            // `break` or `yield`), and every use reads the thread's element.
            self.forced.extend(op.results.iter().copied());
            match op.kind {
                OpKind::Barrier => {}
                OpKind::Loop { .. } => {
                    for r in &op.regions {
                        self.region(&r.ops)?;
                    }
                }
                OpKind::If => {
                    self.uses.push((op.operands[0], None));
                    for r in &op.regions {
                        self.region(&r.ops)?;
                    }
                }
                // A warp exchange reads every thread's operands.
                OpKind::Warp(_) | OpKind::Mma(_) => {
                    self.uses.extend(op.operands.iter().map(|x| (*x, None)));
                }
                _ => return Err("a barrier is inside an operation the host image cannot split"),
            }
        }
        Ok(())
    }

    /// The values kept per thread, and those made again where used.
    pub(super) fn finish(self) -> (HashMap<ValueId, String>, HashMap<ValueId, &'f Op>) {
        let mut cross: HashMap<ValueId, String> =
            self.forced.iter().map(|x| (*x, format!("%blk_keep{}", x.0))).collect();
        let mut remat = HashMap::new();
        let mut at_control = HashSet::new();
        for (x, at) in &self.uses {
            if at.is_none() {
                at_control.insert(*x);
            }
        }
        let mut memo = HashMap::new();
        for (x, at) in &self.uses {
            let Some(&def) = self.defined_in.get(x) else { continue };
            if *at == Some(def) {
                continue;
            }
            if !at_control.contains(x) && self.recomputed(*x, &mut memo, 0) {
                self.chain(*x, &mut remat);
            } else {
                cross.entry(*x).or_insert_with(|| format!("%blk_keep{}", x.0));
            }
        }
        (cross, remat)
    }

    /// Whether a stretch that uses `x`, defined in another, can compute it again rather than
    /// read it from per-thread storage: constants, local arrays, and pure arithmetic whose
    /// operands are the function's (parameters, slots) or can be computed again themselves,
    /// such as a thread's index into a tile (`ty * 16 + k`). Besides saving a store and loads
    /// per thread, this keeps addresses affine in the thread's position, which lets LLVM
    /// vectorise a stretch's loop over the threads (an address read from memory is a gather).
    fn recomputed(&self, x: ValueId, memo: &mut HashMap<ValueId, bool>, depth: u32) -> bool {
        if !self.defined_in.contains_key(&x) {
            return true;
        }
        if let Some(&known) = memo.get(&x) {
            return known;
        }
        let op = self.defining[&x];
        let pure = op.regions.is_empty()
            && (matches!(
                op.kind,
                OpKind::Local | OpKind::PtrOffset | OpKind::ElemPtr | OpKind::FieldPtr { .. }
            ) || op.kind.recomputable(self.func, &op.operands));
        // Chains are short in practice; a bound keeps a pathological one from costing more
        // than the storage it saves.
        let ok =
            pure && depth < 16 && op.operands.iter().all(|y| self.recomputed(*y, memo, depth + 1));
        memo.insert(x, ok);
        ok
    }

    /// Marks `x` and the values of other stretches it is computed from as computed again.
    pub(super) fn chain(&self, x: ValueId, remat: &mut HashMap<ValueId, &'f Op>) {
        let Some(&op) = self.defining.get(&x) else { return };
        if !self.defined_in.contains_key(&x) || remat.insert(x, op).is_some() {
            return;
        }
        for y in &op.operands {
            self.chain(*y, remat);
        }
    }
}
