//! The proof's values and arithmetic (see `Proof`): the ops loop versioning computes before a
//! loop, in `u64` where their bounds allow, and the conditions they establish.

use super::{Range, Sync};
use crate::ir::{BinOp, CmpOp, Func, Literal, Loc, Op, OpKind, Region, ValueId};
use crate::types::{IntTy, Type};
use std::collections::{HashMap, HashSet};

/// The ops that compute the proof, before the loop.
///
/// **Arithmetic.** The proof's values are unsigned integers, each with an upper bound known at
/// compile time (`bounds`). A value whose bound fits 64 bits is computed in `u64`, the rest in
/// `u128`, where no sum or product of 64-bit values wraps. Both are exact wherever the proof's
/// answer matters: a difference is taken only where the minuend is the larger (a range's lower
/// bound against what it subtracts, which the proof requires; the last value of a progression
/// against its first, which holds whenever the loop runs; `n - 1` for a loop that runs only if
/// `n > 0`), and where the loop does not run, either copy does nothing. On a GPU, `u128`
/// arithmetic costs two to four instructions for each one in `u64`, and the proof runs in every
/// thread before the loop. (softmax's proofs were 37 instructions a warp in `u128`; in `u64`
/// the kernel has fewer instructions and registers, but its time did not change, as
/// testsuite/bench/gpu-vs-nvcc.md reports.)
///
/// **Sums that may exceed 64 bits** (`base + j`, two `usize` values) are compared without
/// computing them: `a + b < n` is `a <= n && b < n - a`, all in `u64` when `a`, `b` and `n`
/// are (see `le_sum`); and the requirement that such a sum fit its type is dropped where the
/// proof also requires it to be below a length of that type (see `all`).
pub(super) struct Proof {
    pub(super) ops: Vec<Op>,
    pub(super) conditions: Vec<ValueId>,
    /// An upper bound of each value the proof computes, known at compile time, so that a
    /// condition that always holds is not computed at all.
    pub(super) bounds: HashMap<ValueId, u128>,
    pub(super) copies: HashMap<ValueId, ValueId>,
    /// Each invariant value as a proof value (`u64`).
    pub(super) widened: HashMap<ValueId, ValueId>,
    /// Each `u64` proof value that was needed in `u128`.
    pub(super) wide: HashMap<ValueId, ValueId>,
    /// The low 64 bits of `u128` values (see `truncated`): the values `wide` widened, and
    /// truncations.
    pub(super) truncations: HashMap<ValueId, ValueId>,
    /// The operands of each sum the proof computed in `u128` (see `le_sum`).
    pub(super) sums: HashMap<ValueId, (ValueId, ValueId)>,
    /// Values that must not exceed a constant (see `at_most`), checked in `all`.
    pub(super) fits: Vec<(ValueId, u128)>,
    /// The pairs `(x, n)` the proof requires `x < n` of.
    pub(super) below: Vec<(ValueId, ValueId)>,
    /// The proof's constants and their values.
    pub(super) constants: HashMap<ValueId, u128>,
    /// The ranges computed so far (their conditions are already in `conditions`).
    pub(super) ranges: HashMap<ValueId, Range>,
    /// The induction variables' ranges, by `Induction::id`.
    pub(super) inductions: HashMap<ValueId, Range>,
    pub(super) used: HashSet<ValueId>,
    pub(super) loc: Loc,
}

/// A proof's state, to return to when a check cannot be proven.
pub(super) struct Saved {
    ops: usize,
    conditions: usize,
    fits: usize,
    below: usize,
    copies: HashMap<ValueId, ValueId>,
    widened: HashMap<ValueId, ValueId>,
    wide: HashMap<ValueId, ValueId>,
    truncations: HashMap<ValueId, ValueId>,
    ranges: HashMap<ValueId, Range>,
    inductions: HashMap<ValueId, Range>,
    used: HashSet<ValueId>,
}

const WIDE: Type = Type::Int(IntTy::U128);
const NARROW: Type = Type::Int(IntTy::U64);
const NARROW_MAX: u128 = u64::MAX as u128;

impl Proof {
    pub(super) fn new(loc: Loc) -> Proof {
        Proof {
            ops: Vec::new(),
            conditions: Vec::new(),
            bounds: HashMap::new(),
            copies: HashMap::new(),
            widened: HashMap::new(),
            wide: HashMap::new(),
            truncations: HashMap::new(),
            sums: HashMap::new(),
            fits: Vec::new(),
            below: Vec::new(),
            constants: HashMap::new(),
            ranges: HashMap::new(),
            inductions: HashMap::new(),
            used: HashSet::new(),
            loc,
        }
    }

    pub(super) fn save(&self) -> Saved {
        Saved {
            ops: self.ops.len(),
            conditions: self.conditions.len(),
            fits: self.fits.len(),
            below: self.below.len(),
            copies: self.copies.clone(),
            widened: self.widened.clone(),
            wide: self.wide.clone(),
            truncations: self.truncations.clone(),
            ranges: self.ranges.clone(),
            inductions: self.inductions.clone(),
            used: self.used.clone(),
        }
    }

    pub(super) fn restore(&mut self, saved: Saved) {
        self.ops.truncate(saved.ops);
        self.conditions.truncate(saved.conditions);
        self.fits.truncate(saved.fits);
        self.below.truncate(saved.below);
        self.copies = saved.copies;
        self.widened = saved.widened;
        self.wide = saved.wide;
        self.truncations = saved.truncations;
        self.ranges = saved.ranges;
        self.inductions = saved.inductions;
        self.used = saved.used;
    }

    pub(super) fn push(
        &mut self,
        func: &mut Func,
        kind: OpKind,
        operands: Vec<ValueId>,
        ty: Type,
    ) -> ValueId {
        let r = func.new_value(ty);
        self.ops.push(Op { kind, operands, results: vec![r], regions: vec![], loc: self.loc });
        r
    }

    /// An unsigned value of at most 64 bits as a proof value (in `u64`, once); `bound` is what
    /// is known of it statically.
    pub(super) fn widen(&mut self, func: &mut Func, v: ValueId, bound: u128) -> ValueId {
        if let Some(&w) = self.widened.get(&v) {
            return w;
        }
        let r = if func.ty(v) == Some(&NARROW) {
            v
        } else {
            self.push(func, OpKind::Cast, vec![v], NARROW)
        };
        self.bounds.insert(r, bound.min(self.bound(r)));
        self.widened.insert(v, r);
        r
    }

    pub(super) fn is_narrow(func: &Func, v: ValueId) -> bool {
        func.ty(v) == Some(&NARROW)
    }

    /// A proof value in `u128`.
    pub(super) fn in_wide(&mut self, func: &mut Func, v: ValueId) -> ValueId {
        if !Proof::is_narrow(func, v) {
            return v;
        }
        if let Some(&w) = self.wide.get(&v) {
            return w;
        }
        let bound = self.bound(v);
        let r = self.push(func, OpKind::Cast, vec![v], WIDE);
        self.bounds.insert(r, bound);
        self.wide.insert(v, r);
        self.truncations.insert(r, v);
        r
    }

    pub(super) fn constant(&mut self, func: &mut Func, c: u128) -> ValueId {
        let ty = if c <= NARROW_MAX { NARROW } else { WIDE };
        let r = self.push(func, OpKind::Const(Literal::Int(c)), vec![], ty);
        self.bounds.insert(r, c);
        self.constants.insert(r, c);
        r
    }

    /// The constant a proof value is, if it is one.
    pub(super) fn constant_of(&self, v: ValueId) -> Option<u128> {
        self.constants.get(&v).copied()
    }

    pub(super) fn bound(&self, v: ValueId) -> u128 {
        self.bounds.get(&v).copied().unwrap_or(u128::MAX)
    }

    /// `x op y`, in `u64` where both operands are and the result's bound fits (see `Proof`).
    pub(super) fn binary(&mut self, func: &mut Func, b: BinOp, x: ValueId, y: ValueId) -> ValueId {
        self.binary_within(func, b, x, y, u128::MAX)
    }

    /// `binary`, for a result known to be at most `known` wherever the proof's answer matters.
    pub(super) fn binary_within(
        &mut self,
        func: &mut Func,
        b: BinOp,
        x: ValueId,
        y: ValueId,
        known: u128,
    ) -> ValueId {
        let (bx, by) = (self.bound(x), self.bound(y));
        let bound = match b {
            BinOp::Add => bx.saturating_add(by),
            BinOp::Mul => bx.saturating_mul(by),
            BinOp::Sub => bx,
            BinOp::And => bx.min(by),
            _ => u128::MAX,
        }
        .min(known);
        let narrow = self.narrow_operands(func, b, x, y, bound);
        let r = if let Some((x, y)) = narrow {
            self.push(func, OpKind::Binary(b), vec![x, y], NARROW)
        } else {
            let (x, y) = (self.in_wide(func, x), self.in_wide(func, y));
            let r = self.push(func, OpKind::Binary(b), vec![x, y], WIDE);
            if b == BinOp::Add {
                self.sums.insert(r, (x, y));
            }
            r
        };
        self.bounds.insert(r, bound);
        r
    }

    /// The operands of `x op y` in `u64`, where the result (at most `bound`) can be computed
    /// there exactly.
    pub(super) fn narrow_operands(
        &mut self,
        func: &mut Func,
        b: BinOp,
        x: ValueId,
        y: ValueId,
        bound: u128,
    ) -> Option<(ValueId, ValueId)> {
        if bound > NARROW_MAX {
            return None;
        }
        match b {
            // A mask keeps only the bits both operands have: where one of them fits 64 bits,
            // the other's bits above them do not matter.
            BinOp::And if self.bound(x) <= NARROW_MAX => {
                Some((self.truncated(func, x), self.truncated(func, y)))
            }
            BinOp::And => Some((self.truncated(func, x), self.narrowed(func, y)?)),
            BinOp::Add | BinOp::Sub | BinOp::Mul => {
                Some((self.narrowed(func, x)?, self.narrowed(func, y)?))
            }
            _ => None,
        }
    }

    /// A proof value in `u64`, where its bound says it fits.
    pub(super) fn narrowed(&mut self, func: &mut Func, v: ValueId) -> Option<ValueId> {
        (self.bound(v) <= NARROW_MAX).then(|| self.truncated(func, v))
    }

    /// A proof value's low 64 bits: the `u64` value it was widened from, a constant's low
    /// bits, or a truncation (once).
    pub(super) fn truncated(&mut self, func: &mut Func, v: ValueId) -> ValueId {
        if Proof::is_narrow(func, v) {
            return v;
        }
        if let Some(c) = self.constant_of(v) {
            return self.constant(func, c & NARROW_MAX);
        }
        if let Some(&t) = self.truncations.get(&v) {
            return t;
        }
        let bound = self.bound(v).min(NARROW_MAX);
        let t = self.push(func, OpKind::Cast, vec![v], NARROW);
        self.bounds.insert(t, bound);
        self.truncations.insert(v, t);
        t
    }

    /// `x op y` where only the low 64 bits of the result are used (`low_bits`): in `u64`,
    /// wrapping, which keeps the low bits of sums, differences, products and bitwise
    /// operations.
    pub(super) fn wrapping(
        &mut self,
        func: &mut Func,
        b: BinOp,
        x: ValueId,
        y: ValueId,
    ) -> ValueId {
        let (x, y) = (self.truncated(func, x), self.truncated(func, y));
        let bound = match b {
            BinOp::And => self.bound(x).min(self.bound(y)).min(NARROW_MAX),
            _ => NARROW_MAX,
        };
        let r = self.push(func, OpKind::Binary(b), vec![x, y], NARROW);
        self.bounds.insert(r, bound);
        r
    }

    /// `x >> k`, for a constant `k` below 128.
    pub(super) fn shr(&mut self, func: &mut Func, x: ValueId, k: u32) -> ValueId {
        if k == 0 {
            return x;
        }
        let amount = self.constant(func, u128::from(k));
        let bound = self.bound(x) >> k;
        let (x, amount, ty) = if Proof::is_narrow(func, x) && k < 64 {
            (x, amount, NARROW)
        } else {
            (self.in_wide(func, x), self.in_wide(func, amount), WIDE)
        };
        let r = self.push(func, OpKind::Binary(BinOp::Shr), vec![x, amount], ty);
        self.bounds.insert(r, bound);
        r
    }

    /// Requires `x <= max`, unless its bound already says so. The comparison is made in `all`,
    /// where it is left out if the proof also requires `x` to be below a value no greater than
    /// `max + 1`.
    pub(super) fn at_most(&mut self, x: ValueId, max: u128) {
        if self.bound(x) > max {
            self.fits.push((x, max));
        }
    }

    /// Whether the proof's `y < n` conditions already say that `x <= max`: where `x`'s
    /// variable terms are among some `y`'s (all are unsigned), `x` is at most `y` plus `x`'s
    /// constant terms, and `y` at most `n`'s largest value less one. So a progression's
    /// `last + step` fits `usize` wherever an index `base + last` is below a slice's length,
    /// which is at most `isize::MAX`.
    pub(super) fn implied_at_most(&self, x: ValueId, max: u128) -> bool {
        let mut xs = Vec::new();
        self.terms(x, &mut xs);
        let (k, variables) = self.split_constants(xs);
        self.below.iter().any(|&(y, n)| {
            let mut ys = Vec::new();
            self.terms(y, &mut ys);
            let mut contained = true;
            for v in &variables {
                match ys.iter().position(|t| t == v) {
                    Some(at) => {
                        ys.swap_remove(at);
                    }
                    None => contained = false,
                }
            }
            contained && self.bound(n).saturating_sub(1).saturating_add(k) <= max
        })
    }

    /// Requires `x < n`.
    pub(super) fn below(&mut self, func: &mut Func, x: ValueId, n: ValueId) {
        self.below.push((x, n));
        self.le_sum(func, x, n, true);
    }

    /// Requires `x < n` (`strict`) or `x <= n`. Where `x` is a sum computed in `u128` of
    /// values in `u64` and `n` is in `u64`, the sum is not used: its constant terms are taken
    /// from `n` first (a constant, where `n` is one), and then each other term must be at most
    /// what is left, which it is then taken from, the last below it (`strict`) or at most it.
    /// Every difference is then of a larger value and a smaller one, and every value fits 64
    /// bits.
    pub(super) fn le_sum(&mut self, func: &mut Func, x: ValueId, n: ValueId, strict: bool) {
        let pred = if strict { CmpOp::Lt } else { CmpOp::Le };
        let mut terms = Vec::new();
        self.terms(x, &mut terms);
        let narrow = if terms.len() < 2 {
            None
        } else {
            terms.iter().map(|t| self.narrowed(func, *t)).collect::<Option<Vec<_>>>()
        };
        let (Some(terms), Some(n)) = (narrow, self.narrowed(func, n)) else {
            let ok = self.cmp(func, pred, x, n);
            self.conditions.push(ok);
            return;
        };
        let (k, mut variables) = self.split_constants(terms);
        let mut rest = n;
        if k > 0 {
            match self.constant_of(n) {
                Some(c) if c < k || (c == k && strict && variables.is_empty()) => {
                    let no =
                        self.push(func, OpKind::Const(Literal::Bool(false)), vec![], Type::Bool);
                    self.conditions.push(no);
                    return;
                }
                Some(c) => rest = self.constant(func, c - k),
                None => {
                    let kv = self.constant(func, k);
                    let last = variables.is_empty();
                    let ok = self.cmp(func, if last { pred } else { CmpOp::Le }, kv, n);
                    self.conditions.push(ok);
                    if last {
                        return;
                    }
                    rest = self.binary(func, BinOp::Sub, n, kv);
                }
            }
        }
        let Some(last) = variables.pop() else {
            // Only constants, all taken from `n`: what is left must be positive for `<`.
            if strict && self.constant_of(rest).is_none_or(|r| r == 0) {
                let zero = self.constant(func, 0);
                let ok = self.cmp(func, CmpOp::Lt, zero, rest);
                self.conditions.push(ok);
            }
            return;
        };
        for t in variables {
            if self.constant_of(rest).is_none_or(|r| self.bound(t) > r) {
                let ok = self.cmp(func, CmpOp::Le, t, rest);
                self.conditions.push(ok);
            }
            rest = self.binary(func, BinOp::Sub, rest, t);
        }
        let ok = self.cmp(func, pred, last, rest);
        self.conditions.push(ok);
    }

    /// The terms of a sum computed in `u128` (see `le_sum`): its operands' terms, or the value
    /// itself.
    pub(super) fn terms(&self, x: ValueId, out: &mut Vec<ValueId>) {
        match self.sums.get(&x) {
            Some(&(a, b)) => {
                self.terms(self.narrow_of(a), out);
                self.terms(self.narrow_of(b), out);
            }
            None => out.push(x),
        }
    }

    /// A sum's terms as the sum of its constant terms and its other terms.
    pub(super) fn split_constants(&self, terms: Vec<ValueId>) -> (u128, Vec<ValueId>) {
        let (constants, variables): (Vec<_>, Vec<_>) =
            terms.into_iter().partition(|t| self.constant_of(*t).is_some());
        let k = constants.iter().filter_map(|t| self.constant_of(*t)).fold(0, u128::saturating_add);
        (k, variables)
    }

    /// The `u64` value a `u128` one was widened from, or the value.
    pub(super) fn narrow_of(&self, w: ValueId) -> ValueId {
        self.truncations.get(&w).copied().unwrap_or(w)
    }

    pub(super) fn cmp(&mut self, func: &mut Func, c: CmpOp, x: ValueId, y: ValueId) -> ValueId {
        let (x, y) = match (self.narrowed(func, x), self.narrowed(func, y)) {
            (Some(x), Some(y)) => (x, y),
            _ => (self.in_wide(func, x), self.in_wide(func, y)),
        };
        self.push(func, OpKind::Cmp(c), vec![x, y], Type::Bool)
    }

    /// `ok` agreed on by the threads that must meet (see `warp_all`, `block_all`), where the
    /// loop runs; `false` (the checked copy, which then does nothing) where it does not.
    pub(super) fn uniform(
        &mut self,
        func: &mut Func,
        ok: ValueId,
        runs: ValueId,
        sync: Sync,
    ) -> ValueId {
        let outer = std::mem::take(&mut self.ops);
        let agreed =
            if sync == Sync::Warp { self.warp_all(func, ok) } else { self.block_all(func, ok) };
        let loc = self.loc;
        let yield_op = |v| Op {
            kind: OpKind::Yield,
            operands: vec![v],
            results: vec![],
            regions: vec![],
            loc,
        };
        let mut then = std::mem::replace(&mut self.ops, outer);
        then.push(yield_op(agreed));
        let no = func.new_value(Type::Bool);
        let els = vec![
            Op {
                kind: OpKind::Const(Literal::Bool(false)),
                operands: vec![],
                results: vec![no],
                regions: vec![],
                loc,
            },
            yield_op(no),
        ];
        let r = func.new_value(Type::Bool);
        self.ops.push(Op {
            kind: OpKind::If,
            operands: vec![runs],
            results: vec![r],
            regions: vec![Region { ops: then }, Region { ops: els }],
            loc,
        });
        r
    }

    /// The proof for the whole warp: every lane of a warp that exchanges values in the loop
    /// reaches the loop (or the kernel is wrong already), so all of them can vote.
    pub(super) fn warp_all(&mut self, func: &mut Func, ok: ValueId) -> ValueId {
        self.push(func, OpKind::Warp(crate::ir::WarpOp::All), vec![ok], Type::Bool)
    }

    /// The proof for the whole block, for a loop with barriers, which every live thread of the
    /// block reaches (or the kernel is wrong already): a word of shared memory that every
    /// thread clears, a barrier, a thread whose proof failed sets it, a barrier, every thread
    /// reads it. Only loops that no loop encloses are versioned, so this runs at most once per
    /// thread and the word needs no third barrier before it is reused. The shared word belongs to the
    /// loop's site (a `shared_array` call cannot start where a loop does).
    pub(super) fn block_all(&mut self, func: &mut Func, ok: ValueId) -> ValueId {
        let word = Type::Int(IntTy::U32);
        let array = Type::ptr(true, Type::Array { elem: Box::new(word.clone()), len: 1 });
        let shared = self.push(func, OpKind::Shared, vec![], array);
        let zero_index = self.push(func, OpKind::Const(Literal::Int(0)), vec![], Type::USIZE);
        let at = self.push(
            func,
            OpKind::ElemPtr,
            vec![shared, zero_index],
            Type::ptr(true, word.clone()),
        );
        let (clear, set) = (
            self.push(func, OpKind::Const(Literal::Int(0)), vec![], word.clone()),
            self.push(func, OpKind::Const(Literal::Int(1)), vec![], word.clone()),
        );
        let loc = self.loc;
        let op = |kind, operands, regions| Op { kind, operands, results: vec![], regions, loc };
        self.ops.push(op(OpKind::Store, vec![clear, at], vec![]));
        self.ops.push(op(OpKind::Barrier, vec![], vec![]));
        let failed = self.push(func, OpKind::Not, vec![ok], Type::Bool);
        let mark = Region { ops: vec![op(OpKind::Store, vec![set, at], vec![])] };
        self.ops.push(op(OpKind::If, vec![failed], vec![mark, Region::default()]));
        self.ops.push(op(OpKind::Barrier, vec![], vec![]));
        let seen = self.push(func, OpKind::Load, vec![at], word);
        self.push(func, OpKind::Cmp(CmpOp::Eq), vec![seen, clear], Type::Bool)
    }

    /// The conjunction of every condition (`true` for none).
    pub(super) fn all(&mut self, func: &mut Func) -> ValueId {
        for (x, max) in std::mem::take(&mut self.fits) {
            if !self.implied_at_most(x, max) {
                let m = self.constant(func, max);
                self.le_sum(func, x, m, false);
            }
        }
        let conditions = std::mem::take(&mut self.conditions);
        let Some((&first, rest)) = conditions.split_first() else {
            return self.push(func, OpKind::Const(Literal::Bool(true)), vec![], Type::Bool);
        };
        rest.iter().fold(first, |acc, &c| {
            self.push(func, OpKind::Binary(BinOp::And), vec![acc, c], Type::Bool)
        })
    }
}
