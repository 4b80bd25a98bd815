//! Bounds-check hoisting: within a straight-line stretch of a region, each `rk.bounds_check`
//! moves up, with the pure ops that compute its operands, to just after the last op it must
//! follow. A statement such as `tile[t] = a[i]; tile2[t] = b[j];` then checks all four
//! indices before its first memory access, so the loads of `a` and `b` sit in one basic block
//! and the GPU overlaps their latencies instead of waiting for the first before it may issue
//! the second (measured on sgemm and transpose: see testsuite/bench/).
//!
//! What a check may pass, and why:
//!
//! - stores, slot writes, loads and pure ops: a failed check ends the launch with a device
//!   panic, after which nothing the kernel wrote is copied back (device memory that the
//!   launch wrote, such as resident buffers, is unspecified after a panic, as documented);
//!   a store that a thread no longer makes before panicking changes nothing observable.
//! - never: another check, an `assert`, an integer division (each can panic, and the first
//!   failing site in program order is the one reported), barriers, fences, atomics and warp
//!   operations (other threads observe them), calls, and ops with regions.
//!
//! A moved operand computation must be pure and read no memory: loads stay where they are,
//! and a slot read does not move above a write to the same slot.

use crate::ir::{BinOp, Func, Op, OpKind, Region, ValueId};
use std::collections::HashSet;

/// Hoists the bounds checks of every region of every function; returns how many moved.
pub fn hoist_checks(func: &mut Func) -> usize {
    let mut body = std::mem::take(&mut func.body);
    let moved = region(func, &mut body);
    func.body = body;
    moved
}

fn region(func: &Func, r: &mut Region) -> usize {
    let mut moved = 0;
    for op in &mut r.ops {
        for inner in &mut op.regions {
            moved += region(func, inner);
        }
    }
    let mut p = 0;
    while p < r.ops.len() {
        if r.ops[p].kind == OpKind::BoundsCheck && hoist(func, &mut r.ops, p) {
            moved += 1;
        }
        p += 1;
    }
    moved
}

/// Ops that a check must stay after.
fn is_anchor(func: &Func, op: &Op) -> bool {
    match &op.kind {
        OpKind::BoundsCheck
        | OpKind::Assert { .. }
        | OpKind::Print { .. }
        | OpKind::Barrier
        | OpKind::Fence(_)
        | OpKind::Atomic(_)
        | OpKind::AtomicCas
        | OpKind::Warp(_)
        | OpKind::Mma(_)
        | OpKind::LdMatrix(_)
        | OpKind::Wgmma { .. }
        | OpKind::WgmmaSync(_)
        | OpKind::CopyAsync
        | OpKind::AsyncCommit
        | OpKind::AsyncWait { .. }
        | OpKind::Call { .. }
        | OpKind::If
        | OpKind::Loop { .. }
        | OpKind::Var => true,
        OpKind::Binary(BinOp::Div | BinOp::Rem) => {
            !op.operands.first().and_then(|v| func.ty(*v)).is_some_and(crate::Type::is_float)
        }
        _ => op.kind.is_terminator(),
    }
}

/// Ops that may move up together with the check: pure and reading no memory (slot reads are
/// checked against writes separately).
fn is_movable(func: &Func, op: &Op) -> bool {
    !op.results.is_empty()
        && op.regions.is_empty()
        && !is_anchor(func, op)
        && !matches!(op.kind, OpKind::Load | OpKind::Store | OpKind::Write)
}

/// Moves the check at `p` up; returns whether it moved.
fn hoist(func: &Func, ops: &mut Vec<Op>, p: usize) -> bool {
    // The earliest place: after the last anchor before the check.
    let floor = ops[..p].iter().rposition(|op| is_anchor(func, op)).map_or(0, |a| a + 1);
    // The check's operand computations between `floor` and `p`, transitively.
    let defined_at = |v: ValueId, ops: &[Op]| (floor..p).find(|&k| ops[k].results.contains(&v));
    let mut take: HashSet<usize> = HashSet::new();
    let mut stack: Vec<ValueId> = ops[p].operands.clone();
    let mut lowest = floor;
    while let Some(v) = stack.pop() {
        let Some(k) = defined_at(v, ops) else { continue };
        if take.contains(&k) {
            continue;
        }
        if !is_movable(func, &ops[k]) {
            lowest = lowest.max(k + 1);
            continue;
        }
        take.insert(k);
        stack.extend(ops[k].operands.iter().copied());
    }
    // A slot read must stay after every write to its slot.
    for &k in &take {
        if ops[k].kind == OpKind::Read {
            let slot = ops[k].operands[0];
            if let Some(w) = (floor..k)
                .rev()
                .find(|&w| ops[w].kind == OpKind::Write && ops[w].operands.get(1) == Some(&slot))
            {
                lowest = lowest.max(w + 1);
            }
        }
    }
    // Dependencies below `lowest` stay where they are; recompute what moves from there.
    let take: Vec<usize> = {
        let mut t: Vec<usize> = take.into_iter().filter(|&k| k >= lowest).collect();
        t.sort_unstable();
        t
    };
    // Nothing crossed: the check and its computations already follow `lowest` directly.
    let crossing = (lowest..p).any(|k| !take.contains(&k));
    if !crossing {
        return false;
    }
    // A moved op must not use a value defined by an op that stays between `lowest` and `p`.
    let staying: HashSet<ValueId> = (lowest..p)
        .filter(|k| !take.contains(k))
        .flat_map(|k| ops[k].results.iter().copied())
        .collect();
    if take.iter().any(|&k| ops[k].operands.iter().any(|v| staying.contains(v)))
        || ops[p].operands.iter().any(|v| staying.contains(v))
    {
        return false;
    }
    let segment: Vec<Op> = ops.drain(lowest..=p).collect();
    let (mut first, mut rest) = (Vec::new(), Vec::new());
    let last = segment.len() - 1;
    for (i, op) in segment.into_iter().enumerate() {
        if i == last || take.contains(&(lowest + i)) {
            first.push(op);
        } else {
            rest.push(op);
        }
    }
    // The check now sits earlier; the caller's cursor moves on past `p`.
    ops.splice(lowest..lowest, first.into_iter().chain(rest));
    true
}
