//! Constant folding, bounds-check elimination under a dominating guard, dead-code
//! elimination, and then bounds-check hoisting (`hoist.rs`).
//!
//! Folding evaluates ops on constants with the interpreter's own functions
//! (`interp::eval_binary`, `compare`, `cast`), so a folded module means exactly what the
//! unfolded one meant; an op that would panic (a division by a constant zero) is left alone.
//!
//! A bounds check `rk.bounds_check %i, %n` is removed when an enclosing `rk.if` arm is
//! entered only if `%i < %m` (alone or as one side of a short-circuit `&&`) with `%m` the same
//! value as `%n`, or both constants with `m <= n`: the canonical kernel's
//! `if i < n { (*x)[i] = ... }` needs no check. It is removed too when `%n` is a constant
//! above the largest value `%i` can have (a constant, a mask `x & c`, a remainder `x % c`).
//!
//! Loads from private aggregates are forwarded first (`forward.rs`), so that an index kept in a
//! tuple is arithmetic again.

use crate::interp::{self, Bits};
use crate::ir::{
    BinOp, CmpOp, Func, Geometry, Literal, Module, Op, OpKind, Region, ValueId, WarpOp,
};
use crate::types::Type;
use std::collections::{HashMap, HashSet};

/// What the passes changed, for `--time-passes`-style reports and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub folded: usize,
    pub checks_removed: usize,
    pub ops_removed: usize,
    pub checks_hoisted: usize,
    pub loops_unwrapped: usize,
    pub loads_forwarded: usize,
    pub loops_versioned: usize,
    /// Loops marked `unroll` (see `passes::unroll`).
    pub loops_unrolled: usize,
}

/// Runs the three passes on every function, to a fixed point.
pub fn simplify(module: &mut Module) -> Stats {
    let mut stats = Stats::default();
    for func in &mut module.funcs {
        loop {
            let before = stats;
            let mut consts = HashMap::new();
            let mut body = std::mem::take(&mut func.body);
            let mut renames = HashMap::new();
            stats.loops_unwrapped += unwrap_one_trip_loops(&mut body, &mut renames);
            // The unwrapped loops' results are renamed before forwarding looks at the body:
            // a load whose address is still a removed loop's result would be invisible to it,
            // and the stores it reads could be taken for dead.
            if !renames.is_empty() {
                rename_operands(&mut body, &renames);
                renames.clear();
            }
            func.body = body;
            stats.loads_forwarded += super::forward::forward_locals(func);
            let mut body = std::mem::take(&mut func.body);
            double_negations(&body, &mut HashMap::new(), &mut HashMap::new(), &mut renames);
            if !renames.is_empty() {
                rename_operands(&mut body, &renames);
            }
            fold_region(func, &mut body, &mut consts, &mut stats);
            let mut lengths = HashMap::new();
            slice_lengths(&body, &mut lengths);
            eliminate_checks(
                func,
                &mut body,
                &consts,
                &lengths,
                &mut Guards::default(),
                &mut Vec::new(),
                &mut stats,
            );
            func.body = body;
            dce(func, &mut stats);
            if stats == before {
                break;
            }
        }
        stats.checks_hoisted += super::hoist::hoist_checks(func);
    }
    stats
}

/// Replaces each `rk.loop` that runs its body once (its body ends in a `rk.break` to it and
/// nothing else breaks to it or continues it) by its body: what the inliner makes of a device
/// function with one `return` at its end, and what `loop { ...; break x }` is. The loop's
/// result becomes the break's value (through `renames`), and breaks and continues to loops
/// around it count one loop fewer.
fn unwrap_one_trip_loops(region: &mut Region, renames: &mut HashMap<ValueId, ValueId>) -> usize {
    let mut unwrapped = 0;
    let mut ops = Vec::with_capacity(region.ops.len());
    for mut op in std::mem::take(&mut region.ops) {
        for r in &mut op.regions {
            unwrapped += unwrap_one_trip_loops(r, renames);
        }
        if op.kind.is_loop() && op.regions.len() == 1 && runs_once(&op.regions[0]) {
            let mut body = std::mem::take(&mut op.regions[0]);
            let exit = body.ops.pop().expect("runs_once saw the break");
            if let (Some(&result), Some(&value)) = (op.results.first(), exit.operands.first()) {
                renames.insert(result, value);
            }
            shift_exits(&mut body, 0);
            ops.extend(body.ops);
            unwrapped += 1;
        } else {
            ops.push(op);
        }
    }
    region.ops = ops;
    unwrapped
}

/// Whether a loop body ends in a break to its loop and has no other way back to it or out of
/// it by break or continue.
fn runs_once(body: &Region) -> bool {
    let Some((last, rest)) = body.ops.split_last() else { return false };
    last.kind == OpKind::Break { depth: 0 } && !rest.iter().any(|op| exits_to(op, 0))
}

/// Whether the op, at `level` loops inside the loop in question, breaks to it or continues it.
fn exits_to(op: &Op, level: u32) -> bool {
    match op.kind {
        OpKind::Break { depth } | OpKind::Continue { depth } if depth == level => true,
        _ => {
            let inner = if op.kind.is_loop() { level + 1 } else { level };
            op.regions.iter().any(|r| r.ops.iter().any(|o| exits_to(o, inner)))
        }
    }
}

/// Breaks and continues that leave the removed loop (deeper than `level`) lose one level.
fn shift_exits(region: &mut Region, level: u32) {
    for op in &mut region.ops {
        match &mut op.kind {
            OpKind::Break { depth } | OpKind::Continue { depth } if *depth > level => *depth -= 1,
            _ => {}
        }
        let inner = if op.kind.is_loop() { level + 1 } else { level };
        for r in &mut op.regions {
            shift_exits(r, inner);
        }
    }
}

/// Boolean identities: `!!x` is `x` (the lowering of `while` and of `if !c { break }` makes
/// them), and so are `x == true` and `x != false`. The result is renamed to `x`, and the ops
/// die.
fn double_negations(
    region: &Region,
    nots: &mut HashMap<ValueId, ValueId>,
    bools: &mut HashMap<ValueId, bool>,
    renames: &mut HashMap<ValueId, ValueId>,
) {
    for op in &region.ops {
        if op.kind == OpKind::Not
            && let (Some(&r), Some(&x)) = (op.results.first(), op.operands.first())
        {
            match nots.get(&x) {
                Some(&inner) => {
                    renames.insert(r, inner);
                }
                None => {
                    nots.insert(r, x);
                }
            }
        }
        // `x == true` and `x != false` are `x` (a `match` on a `bool` compares with its arms).
        if let (OpKind::Cmp(c @ (CmpOp::Eq | CmpOp::Ne)), Some(&r), [a, b]) =
            (&op.kind, op.results.first(), op.operands.as_slice())
            && let Some(&v) = bools.get(b)
            && (*c == CmpOp::Eq) == v
        {
            renames.insert(r, *a);
        }
        if let (OpKind::Const(Literal::Bool(v)), Some(&r)) = (&op.kind, op.results.first()) {
            bools.insert(r, *v);
        }
        for r in &op.regions {
            double_negations(r, nots, bools, renames);
        }
    }
}

/// Rewrites every use of a renamed value, following chains of renames.
pub(super) fn rename_operands(region: &mut Region, renames: &HashMap<ValueId, ValueId>) {
    for op in &mut region.ops {
        for v in &mut op.operands {
            while let Some(&to) = renames.get(v) {
                *v = to;
            }
        }
        for r in &mut op.regions {
            rename_operands(r, renames);
        }
    }
}

pub(crate) fn literal_bits(lit: &Literal, ty: &Type) -> Bits {
    match lit {
        Literal::Bool(b) => Bits::from(*b),
        Literal::Int(b) => *b,
        Literal::Float(x) => match ty {
            Type::Float(f) => f.bits_of(*x),
            _ => Bits::from(x.to_bits()),
        },
    }
}

fn bits_literal(bits: Bits, ty: &Type) -> Literal {
    match ty {
        Type::Bool => Literal::Bool(bits != 0),
        Type::Float(f) => Literal::Float(f.value_of(bits)),
        _ => Literal::Int(bits),
    }
}

/// Replaces ops whose operands are all constants with `rk.const`; `consts` collects every
/// constant value in scope (constants dominate their uses, so a flat map is sound).
fn fold_region(
    func: &Func,
    region: &mut Region,
    consts: &mut HashMap<ValueId, Bits>,
    stats: &mut Stats,
) {
    for op in &mut region.ops {
        for r in &mut op.regions {
            fold_region(func, r, consts, stats);
        }
        let ty = |v: ValueId| func.ty(v).cloned().unwrap_or(Type::Unit);
        if let OpKind::Const(lit) = &op.kind {
            if let Some(r) = op.results.first() {
                consts.insert(*r, literal_bits(lit, &ty(*r)));
            }
            continue;
        }
        let args: Option<Vec<Bits>> = op.operands.iter().map(|v| consts.get(v).copied()).collect();
        let (Some(args), Some(&result)) = (args, op.results.first()) else { continue };
        let rty = ty(result);
        let folded = match &op.kind {
            OpKind::Binary(b) => {
                interp::eval_binary(*b, &ty(op.operands[0]), &ty(op.operands[1]), args[0], args[1])
                    .ok()
            }
            OpKind::Cmp(c) => {
                Some(Bits::from(interp::compare(*c, &ty(op.operands[0]), args[0], args[1])))
            }
            // rk has no pointer literals: a cast to a pointer (the placeholder value after a
            // panic, `0 as *const T`) stays a cast.
            OpKind::Cast if !matches!(rty, Type::Ptr { .. }) => {
                Some(interp::cast(&ty(op.operands[0]), &rty, args[0]))
            }
            OpKind::Not if rty == Type::Bool => Some(args[0] ^ 1),
            OpKind::Not if matches!(rty, Type::Int(_)) => Some(!args[0]),
            _ => None,
        };
        if let Some(bits) = folded {
            let bits = match &rty {
                Type::Int(t) => bits & (Bits::MAX >> (128 - t.bits())),
                _ => bits,
            };
            op.kind = OpKind::Const(bits_literal(bits, &rty));
            op.operands.clear();
            consts.insert(result, bits);
            stats.folded += 1;
        }
    }
}

/// The most threads a block can have on any target rkc compiles for (NVIDIA and AMD GPUs, and
/// the runtime's CPU executors, which keep the GPUs' limit).
const MAX_BLOCK_THREADS: u128 = 1024;

/// A fact known inside a region: `lhs < rhs`, unsigned `usize`.
#[derive(Clone, Copy)]
struct Below {
    lhs: ValueId,
    rhs: ValueId,
}

/// What the walk of `eliminate_checks` has seen so far: each comparison's result →
/// (predicate, lhs, rhs), and each short-circuit `&&`'s result → its two sides.
#[derive(Default)]
struct Guards {
    cmps: HashMap<ValueId, (CmpOp, ValueId, ValueId)>,
    ands: HashMap<ValueId, (ValueId, ValueId)>,
    /// Upper bounds of unsigned values, known from their definitions: a mask `x & c`, a
    /// remainder `x % c`, a constant, a thread's index and lane, a block's size, casts of
    /// those (`(b & 255) as usize`) and their quotients by constants (`t / 32`, `t >> 5`).
    maxes: HashMap<ValueId, u128>,
}

impl Guards {
    fn record(&mut self, func: &Func, op: &Op, consts: &HashMap<ValueId, Bits>) {
        let Some(&r) = op.results.first() else { return };
        let unsigned = |v: ValueId| match func.ty(v) {
            Some(Type::Int(t)) if !t.is_signed() => Some(t.range().1),
            _ => None,
        };
        let Some(type_max) = unsigned(r) else { return };
        let max = |v: &ValueId| self.maxes.get(v).copied().or_else(|| consts.get(v).copied());
        let bound = match (&op.kind, op.operands.as_slice()) {
            (OpKind::Binary(BinOp::And), [x, y]) => match (max(x), max(y)) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            (OpKind::Binary(BinOp::Rem), [_, y]) => {
                consts.get(y).filter(|c| **c > 0).map(|c| c - 1)
            }
            (OpKind::Cast, [x]) if unsigned(*x).is_some() => max(x),
            (OpKind::Binary(BinOp::Div), [x, y]) => {
                max(x).zip(consts.get(y).filter(|c| **c > 0)).map(|(a, c)| a / c)
            }
            (OpKind::Binary(BinOp::Shr), [x, y]) => {
                max(x).zip(consts.get(y).filter(|c| **c < 128)).map(|(a, c)| a >> c)
            }
            // Every target, the simulator and the host image refuse a launch of more than
            // MAX_BLOCK_THREADS threads per block (`check_limits` in the runtime), so a thread's
            // index is below it in each dimension and a block's size at most it.
            (OpKind::Geometry(Geometry::ThreadId, _), []) => Some(MAX_BLOCK_THREADS - 1),
            (OpKind::Geometry(Geometry::BlockDim, _), []) => Some(MAX_BLOCK_THREADS),
            (OpKind::Warp(WarpOp::LaneId), []) => Some(crate::WARP_SIZE as u128 - 1),
            _ => None,
        };
        if let Some(b) = bound {
            // A truncation keeps a value that fits and wraps one that does not.
            self.maxes.insert(r, if b <= type_max { b } else { type_max });
        }
    }
}

/// Every `rk.slice_len` result with its slice: two lengths of one slice are equal.
fn slice_lengths(region: &Region, out: &mut HashMap<ValueId, ValueId>) {
    for op in &region.ops {
        if op.kind == OpKind::SliceLen
            && let (Some(r), Some(s)) = (op.results.first(), op.operands.first())
        {
            out.insert(*r, *s);
        }
        for r in &op.regions {
            slice_lengths(r, out);
        }
    }
}

fn eliminate_checks(
    func: &Func,
    region: &mut Region,
    consts: &HashMap<ValueId, Bits>,
    lengths: &HashMap<ValueId, ValueId>,
    guards: &mut Guards,
    facts: &mut Vec<Below>,
    stats: &mut Stats,
) {
    let mut removed = Vec::new();
    for (k, op) in region.ops.iter_mut().enumerate() {
        if let (OpKind::Cmp(c), Some(r)) = (&op.kind, op.results.first()) {
            guards.cmps.insert(*r, (*c, op.operands[0], op.operands[1]));
        }
        guards.record(func, op, consts);
        match &op.kind {
            OpKind::BoundsCheck => {
                let (i, n) = (op.operands[0], op.operands[1]);
                let same_length = |a: ValueId, b: ValueId| {
                    a == b
                        || matches!((lengths.get(&a), lengths.get(&b)), (Some(x), Some(y)) if x == y)
                };
                let proven = facts.iter().any(|f| {
                    f.lhs == i
                        && (same_length(f.rhs, n)
                            || matches!((consts.get(&f.rhs), consts.get(&n)), (Some(m), Some(n)) if m <= n))
                });
                // An index whose largest value is below a constant length needs no check
                // either: a constant, or a mask such as `(b & 255) as usize` into `[T; 256]`.
                let largest = consts.get(&i).or_else(|| guards.maxes.get(&i));
                let constant = matches!((largest, consts.get(&n)), (Some(i), Some(n)) if i < n);
                if proven || constant {
                    removed.push(k);
                }
            }
            OpKind::If => {
                let mut known = Vec::new();
                guard_facts(func, op.operands[0], guards, &mut known);
                if let Some((r, v)) = short_circuit_and(op) {
                    guards.ands.insert(r, (op.operands[0], v));
                }
                for (arm, r) in op.regions.iter_mut().enumerate() {
                    let pushed = if arm == 0 { known.len() } else { 0 };
                    facts.extend(known.iter().take(pushed).copied());
                    eliminate_checks(func, r, consts, lengths, guards, facts, stats);
                    facts.truncate(facts.len() - pushed);
                }
            }
            _ => {
                for r in &mut op.regions {
                    eliminate_checks(func, r, consts, lengths, guards, facts, stats);
                }
            }
        }
    }
    stats.checks_removed += removed.len();
    for k in removed.into_iter().rev() {
        region.ops.remove(k);
    }
}

/// The `usize` facts a condition establishes where it holds: `a < b` (or `b > a`), and both
/// sides of a short-circuit `&&` (see `short_circuit_and`), so that
/// `if i < a.len() && i < b.len() { b[i] = a[i] }` needs no check.
fn guard_facts(func: &Func, cond: ValueId, guards: &Guards, out: &mut Vec<Below>) {
    if let Some(&(x, y)) = guards.ands.get(&cond) {
        guard_facts(func, x, guards, out);
        guard_facts(func, y, guards, out);
        return;
    }
    let fact = guards.cmps.get(&cond).copied().and_then(|(pred, a, b)| match pred {
        CmpOp::Lt if func.ty(a) == Some(&Type::USIZE) => Some(Below { lhs: a, rhs: b }),
        CmpOp::Gt if func.ty(a) == Some(&Type::USIZE) => Some(Below { lhs: b, rhs: a }),
        _ => None,
    });
    out.extend(fact);
}

/// `%r = rk.if %c -> bool { ...; rk.yield %v } else { %f = rk.const false; rk.yield %f }`, what
/// the front end makes of `c && v`: `(r, v)`.
fn short_circuit_and(op: &Op) -> Option<(ValueId, ValueId)> {
    let ([r], [then, els]) = (op.results.as_slice(), op.regions.as_slice()) else { return None };
    let yielded = |region: &Region| match region.ops.last() {
        Some(y) if y.kind == OpKind::Yield && y.operands.len() == 1 => Some(y.operands[0]),
        _ => None,
    };
    let v = yielded(then)?;
    let f = yielded(els)?;
    let is_false = els
        .ops
        .iter()
        .any(|o| o.kind == OpKind::Const(Literal::Bool(false)) && o.results.first() == Some(&f));
    is_false.then_some((*r, v))
}

/// Whether an op can be removed when its results are unused: it has no effect but its value
/// (the ops that can be computed again anywhere, and those that read memory or make an address).
pub(super) fn is_pure(func: &Func, op: &Op) -> bool {
    op.kind.recomputable(func, &op.operands)
        || matches!(
            op.kind,
            OpKind::Neg
                | OpKind::PtrOffset
                | OpKind::ElemPtr
                | OpKind::Load
                | OpKind::Read
                | OpKind::Shared
                | OpKind::Local
                | OpKind::FieldPtr { .. }
                | OpKind::Table { .. }
                | OpKind::DynShared
                | OpKind::Warp(crate::ir::WarpOp::LaneId)
                | OpKind::Math(_)
        )
}

fn collect_uses(region: &Region, uses: &mut HashSet<ValueId>) {
    for op in &region.ops {
        uses.extend(op.operands.iter().copied());
        for r in &op.regions {
            collect_uses(r, uses);
        }
    }
}

fn dce(func: &mut Func, stats: &mut Stats) {
    loop {
        let mut uses = HashSet::new();
        collect_uses(&func.body, &mut uses);
        // A slot that is only written is dead with its writes.
        let mut read_slots = HashSet::new();
        collect_reads(&func.body, &mut read_slots);
        let mut body = std::mem::take(&mut func.body);
        let removed = remove_dead(func, &mut body, &uses, &read_slots);
        func.body = body;
        stats.ops_removed += removed;
        if removed == 0 {
            break;
        }
    }
}

fn collect_reads(region: &Region, out: &mut HashSet<ValueId>) {
    for op in &region.ops {
        if op.kind == OpKind::Read {
            out.extend(op.operands.first().copied());
        }
        for r in &op.regions {
            collect_reads(r, out);
        }
    }
}

fn remove_dead(
    func: &Func,
    region: &mut Region,
    uses: &HashSet<ValueId>,
    read_slots: &HashSet<ValueId>,
) -> usize {
    let mut removed = 0;
    for op in &mut region.ops {
        for r in &mut op.regions {
            removed += remove_dead(func, r, uses, read_slots);
        }
    }
    let before = region.ops.len();
    region.ops.retain(|op| {
        let unused = op.results.iter().all(|r| !uses.contains(r));
        let dead_value = !op.results.is_empty() && unused && is_pure(func, op);
        let dead_write =
            op.kind == OpKind::Write && op.operands.get(1).is_some_and(|s| !read_slots.contains(s));
        let dead_var = op.kind == OpKind::Var
            && op.results.first().is_some_and(|s| !read_slots.contains(s) && !uses.contains(s));
        // An `rk.if` whose arms are both empty does nothing (what or-patterns leave behind).
        let dead_if = op.kind == OpKind::If
            && op.results.is_empty()
            && op.regions.iter().all(|r| r.ops.is_empty());
        !(dead_value || dead_write || dead_var || dead_if)
    });
    removed + before - region.ops.len()
}
