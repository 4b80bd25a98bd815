//! Marks the loops that step through a small thread-private array `unroll` (see
//! [`LoopHint::Unroll`]), so that the back ends unroll them completely, and (after loop
//! versioning, [`unroll_tile_steps`]) the short loops around them: a register tile's steps of
//! `k`, see `mark`.
//!
//! ```text
//! %acc = rk.local : *mut [f32; 8]
//! rk.loop { %j = rk.read %next; ...; rk.elem_ptr %acc, %j ... }
//!   ⇒ rk.loop unroll { ... }
//! ```
//!
//! A register tile (`let mut acc = [[0.0f32; 8]; 8]`, indexed by the loops that compute it) is
//! what every fast GEMM keeps per thread. A GPU has no indexed registers: an array stays in
//! registers only when every index into it is a constant, that is when every loop that indexes
//! it is unrolled; one loop left rolled, anywhere in the kernel, puts the whole array in local
//! memory (a load and a store per use, through the cache). nvcc unrolls such loops by default
//! and AMDGPU's LLVM back end raises its unrolling threshold for them; NVPTX's does not, and
//! loop versioning's checked copies (`rk.loop cold`) would keep them rolled on purpose. The
//! hint asks LLVM for a complete unrolling, so only loops whose trip count is a constant that
//! the pass finds itself are marked (see [`constant_trips`]): LLVM warns about a loop it was
//! asked to unroll and could not, and a loop bounded by a parameter or by data (an insertion
//! sort's inner loop) is left to LLVM's heuristics.
//!
//! Only arrays of at most [`PRIVATE_LIMIT`] bytes count: a larger one cannot live in the 255
//! registers a thread has, and unrolling the loops over it would only grow the code.

use crate::interp::{self, Bits};
use crate::ir::{Func, LoopHint, Op, OpKind, Region, ValueId};
use crate::types::Type;
use std::collections::{HashMap, HashSet};

/// The largest thread-private array, in bytes, whose loops are unrolled: 128 32-bit registers,
/// half of what a thread can have.
pub const PRIVATE_LIMIT: u64 = 512;

/// The most iterations, and ops times iterations, of a loop the pass asks to unroll: well
/// below what LLVM's complete unrolling of a hinted loop accepts (it warns above that).
const MAX_TRIPS: usize = 128;
const MAX_UNROLLED_OPS: usize = 4096;

/// Marks the loops of every function that step through a small private array; returns how
/// many it marked.
pub fn unroll_private_loops(module: &mut crate::Module) -> usize {
    module.funcs.iter_mut().map(|f| unroll_func(f, false)).sum()
}

/// Marks the short loops around marked ones (a register tile's steps of `k`, see `mark`);
/// returns how many. Run after loop versioning, which keeps a loop marked `unroll` so in a
/// checked copy (its private arrays must stay in registers there too): these loops index no
/// private array themselves, so their checked copies stay rolled (`cold`) and only the fast
/// copies grow.
pub fn unroll_tile_steps(module: &mut crate::Module) -> usize {
    module.funcs.iter_mut().map(|f| unroll_func(f, true)).sum()
}

fn unroll_func(func: &mut Func, tile_steps: bool) -> usize {
    let mut private = HashSet::new();
    private_pointers(func, &func.body, &mut private);
    let mut consts = HashMap::new();
    constants(func, &func.body, &mut consts);
    let mut body = std::mem::take(&mut func.body);
    let n = mark(func, &mut body, &private, &consts, tile_steps);
    func.body = body;
    n
}

/// The value of every `rk.const` of the function.
fn constants(func: &Func, region: &Region, out: &mut HashMap<ValueId, Bits>) {
    for op in &region.ops {
        if let (OpKind::Const(lit), Some(r)) = (&op.kind, op.results.first()) {
            let ty = func.ty(*r).cloned().unwrap_or(Type::Unit);
            out.insert(*r, super::simplify::literal_bits(lit, &ty));
        }
        for r in &op.regions {
            constants(func, r, out);
        }
    }
}

/// Every pointer into a small `rk.local`: the local's address and the element and field
/// addresses computed from it (definitions come before uses, so one walk in order finds all).
fn private_pointers(func: &Func, region: &Region, out: &mut HashSet<ValueId>) {
    for op in &region.ops {
        let small_local = op.kind == OpKind::Local
            && op.results.first().and_then(|r| func.ty(*r)).is_some_and(
                |t| matches!(t, Type::Ptr { pointee, .. } if pointee.size_of() <= PRIVATE_LIMIT),
            );
        let derived = matches!(op.kind, OpKind::ElemPtr | OpKind::FieldPtr { .. })
            && op.operands.first().is_some_and(|base| out.contains(base));
        if small_local || derived {
            out.extend(op.results.iter().copied());
        }
        for r in &op.regions {
            private_pointers(func, r, out);
        }
    }
}

/// The most iterations of a loop around a register tile's loops that the pass asks to unroll
/// (see `mark`).
const MAX_TILE_STEPS: usize = 8;

/// Marks the loops of `region`, inner ones first: without `tile_steps`, the loops that step
/// through a private array; with it, the loops of at most [`MAX_TILE_STEPS`] iterations that
/// hold a marked loop: the steps of `k` around a register tile's loops, which every GEMM
/// unrolls (`#pragma unroll` in CUDA). Each step's reads of the staged tiles then have
/// constant offsets, and the scheduler overlaps one step's loads with the previous step's
/// multiply-adds (the register-tiled SGEMM of testsuite/bench ran 4–8 % slower than nvcc's
/// with the loop rolled, on an H100).
fn mark(
    func: &Func,
    region: &mut Region,
    private: &HashSet<ValueId>,
    consts: &HashMap<ValueId, Bits>,
    tile_steps: bool,
) -> usize {
    let mut n = 0;
    for k in 0..region.ops.len() {
        for r in &mut region.ops[k].regions {
            n += mark(func, r, private, consts, tile_steps);
        }
        let op = &region.ops[k];
        if op.kind != (OpKind::Loop { hint: LoopHint::Plain }) {
            continue;
        }
        // The shape first, then the trip count, which runs the loop's induction on constants.
        let marked = if tile_steps {
            op.regions.iter().any(holds_unrolled_loop)
                && constant_trips(func, &region.ops[..k], op, consts)
                    .is_some_and(|trips| trips <= MAX_TILE_STEPS)
        } else {
            steps_through(op, private)
                && constant_trips(func, &region.ops[..k], op, consts).is_some()
        };
        if marked {
            region.ops[k].kind = OpKind::Loop { hint: LoopHint::Unroll };
            n += 1;
        }
    }
    n
}

/// Whether a region holds, at any depth, a loop marked `unroll`.
fn holds_unrolled_loop(region: &Region) -> bool {
    region.ops.iter().any(|op| {
        op.kind == (OpKind::Loop { hint: LoopHint::Unroll })
            || op.regions.iter().any(holds_unrolled_loop)
    })
}

/// Whether a loop indexes a private array with a value that changes from one of its
/// iterations to the next: one computed from a slot read in the loop's own region (its
/// induction variable, or a counter it keeps), used at any depth below it. A value that only an
/// inner loop's reads make vary belongs to that inner loop, so the loop around a register
/// tile's loops is not marked (unrolling it too would multiply the code for nothing).
fn steps_through(lp: &Op, private: &HashSet<ValueId>) -> bool {
    let Some(body) = lp.regions.first() else { return false };
    let mut varying: HashSet<ValueId> = body
        .ops
        .iter()
        .filter(|op| op.kind == OpKind::Read)
        .flat_map(|op| op.results.iter().copied())
        .collect();
    indexes(body, private, &mut varying)
}

fn indexes(region: &Region, private: &HashSet<ValueId>, varying: &mut HashSet<ValueId>) -> bool {
    for op in &region.ops {
        if let [base, index] = op.operands[..]
            && op.kind == OpKind::ElemPtr
            && private.contains(&base)
            && varying.contains(&index)
        {
            return true;
        }
        if op.operands.iter().any(|v| varying.contains(v)) {
            varying.extend(op.results.iter().copied());
        }
        for r in &op.regions {
            if indexes(r, private, varying) {
                return true;
            }
        }
    }
    false
}

/// How many times a loop runs, when the pass can count it and it is at most [`MAX_TRIPS`]:
/// its ops at the top level are run on constants, from the values its slots have on entry
/// (their last writes among `before`, the ops ahead of it in its region), until a `rk.break`
/// at the top level or an `rk.if` that only breaks, with a known condition, ends it. What the
/// loop computes otherwise (loads, nested loops, slots written in nested regions) is unknown;
/// an exit that depends on something unknown, or a nested region that could leave the loop,
/// means `None`. This is constant folding of the loop's induction, enough for the `for` ranges
/// and `while i < N { ...; i += K }` loops that step through a local array.
fn constant_trips(
    func: &Func,
    before: &[Op],
    lp: &Op,
    consts: &HashMap<ValueId, Bits>,
) -> Option<usize> {
    let body = lp.regions.first()?;
    let mut slots: HashMap<ValueId, Bits> = HashMap::new();
    for op in before {
        if let [value, slot] = op.operands[..]
            && op.kind == OpKind::Write
        {
            match consts.get(&value) {
                Some(bits) => slots.insert(slot, *bits),
                None => slots.remove(&slot),
            };
        }
        // A slot written under an `rk.if` (or in a loop) before this one has no known value.
        for r in &op.regions {
            forget_written(r, &mut slots);
        }
    }
    let size = count_ops(body);
    for trips in 0..=MAX_TRIPS {
        if trips * size > MAX_UNROLLED_OPS {
            return None;
        }
        match iterate(func, body, &mut slots, consts) {
            Step::Exit => return Some(trips),
            Step::Again => {}
            Step::Unknown => return None,
        }
    }
    None
}

enum Step {
    Exit,
    Again,
    Unknown,
}

/// Runs one iteration of a loop's top level on what is known (see `constant_trips`).
fn iterate(
    func: &Func,
    body: &Region,
    slots: &mut HashMap<ValueId, Bits>,
    consts: &HashMap<ValueId, Bits>,
) -> Step {
    let mut values: HashMap<ValueId, Bits> = HashMap::new();
    let known = |v: &ValueId, values: &HashMap<ValueId, Bits>| {
        values.get(v).or_else(|| consts.get(v)).copied()
    };
    for op in &body.ops {
        match &op.kind {
            OpKind::Break { depth: 0 } => return Step::Exit,
            OpKind::Continue { depth: 0 } => return Step::Again,
            OpKind::Break { .. } | OpKind::Continue { .. } | OpKind::Return => {
                return Step::Unknown;
            }
            OpKind::If if exits_only(op).is_some() => {
                let Some(cond) = known(&op.operands[0], &values) else { return Step::Unknown };
                if (cond != 0) == exits_only(op).unwrap_or(true) {
                    return Step::Exit;
                }
            }
            _ if !op.regions.is_empty() => {
                let depth = u32::from(op.kind.is_loop());
                if op.regions.iter().any(|r| leaves(r, depth)) {
                    return Step::Unknown;
                }
                for r in &op.regions {
                    forget_written(r, slots);
                }
            }
            OpKind::Read => {
                if let Some(bits) = slots.get(&op.operands[0]) {
                    values.insert(op.results[0], *bits);
                }
            }
            OpKind::Write => match known(&op.operands[0], &values) {
                Some(bits) => {
                    slots.insert(op.operands[1], bits);
                }
                None => {
                    slots.remove(&op.operands[1]);
                }
            },
            kind => {
                let args: Option<Vec<Bits>> =
                    op.operands.iter().map(|v| known(v, &values)).collect();
                if let (Some(args), Some(&result)) = (args, op.results.first())
                    && let Some(bits) = fold(func, kind, op, &args, result)
                {
                    values.insert(result, bits);
                }
            }
        }
    }
    Step::Again
}

/// An op's value from known operands, as `simplify` folds it (the interpreter's arithmetic).
fn fold(func: &Func, kind: &OpKind, op: &Op, args: &[Bits], result: ValueId) -> Option<Bits> {
    let ty = |v: ValueId| func.ty(v).cloned().unwrap_or(Type::Unit);
    let rty = ty(result);
    let bits = match kind {
        OpKind::Binary(b) => {
            interp::eval_binary(*b, &ty(op.operands[0]), &ty(op.operands[1]), args[0], args[1])
                .ok()?
        }
        OpKind::Cmp(c) => Bits::from(interp::compare(*c, &ty(op.operands[0]), args[0], args[1])),
        OpKind::Cast if !matches!(rty, Type::Ptr { .. }) => {
            interp::cast(&ty(op.operands[0]), &rty, args[0])
        }
        OpKind::Not if rty == Type::Bool => args[0] ^ 1,
        OpKind::Not if matches!(rty, Type::Int(_)) => !args[0],
        _ => return None,
    };
    Some(match &rty {
        Type::Int(t) => bits & (Bits::MAX >> (128 - t.bits())),
        _ => bits,
    })
}

/// For `rk.if %c { rk.break } else { }`: `Some(true)` (the loop ends when `%c` holds); for the
/// break in the else arm, `Some(false)`; `None` for any other `rk.if`.
fn exits_only(op: &Op) -> Option<bool> {
    let is_break = |r: &Region| matches!(r.ops[..], [Op { kind: OpKind::Break { depth: 0 }, .. }]);
    match &op.regions[..] {
        [then, other] if is_break(then) && other.ops.is_empty() => Some(true),
        [then, other] if then.ops.is_empty() && is_break(other) => Some(false),
        _ => None,
    }
}

/// Whether a region nested `depth` loops deep inside the loop can leave it (a `rk.break` or
/// `rk.continue` of it or of a loop around it, or a `rk.return`).
fn leaves(region: &Region, depth: u32) -> bool {
    region.ops.iter().any(|op| match op.kind {
        OpKind::Break { depth: d } | OpKind::Continue { depth: d } => d >= depth,
        OpKind::Return => true,
        _ => {
            let inner = if op.kind.is_loop() { depth + 1 } else { depth };
            op.regions.iter().any(|r| leaves(r, inner))
        }
    })
}

/// Forgets the values of the slots a region writes.
fn forget_written(region: &Region, slots: &mut HashMap<ValueId, Bits>) {
    for op in &region.ops {
        if op.kind == OpKind::Write {
            slots.remove(&op.operands[1]);
        }
        for r in &op.regions {
            forget_written(r, slots);
        }
    }
}

fn count_ops(region: &Region) -> usize {
    region.ops.iter().map(|op| 1 + op.regions.iter().map(count_ops).sum::<usize>()).sum()
}
