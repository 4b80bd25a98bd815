//! Loop versioning for bounds checks: the checks of a loop whose indices are monotone in the
//! loop's induction variables are proven once, before the loop, for every iteration at once,
//! and the loop runs in a copy without them; when the proof fails, the original loop runs, so
//! a kernel panics exactly where and how it did (the site, the message and the values).
//!
//! ```text
//! rk.loop { i: first..=last; rk.bounds_check f(i), n; ... }
//!   ⇒ %ok = f(last) < n && (no wrap in f between first and last) && ...
//!     rk.if %ok { rk.loop { ...without the check... } } else { rk.loop { ...as before... } }
//! ```
//!
//! This is what LLVM's inductive range check elimination and loop versioning do, done on rk
//! because rk still knows the loops' shapes. On a GPU a check per iteration costs more than its
//! compare: each unrolled iteration's load waits behind the branch before it, while the
//! unchecked copy issues all of them at once (transpose and softmax in testsuite/bench/).
//!
//! **Induction variables.** Two loop shapes are recognised, and each is checked, not trusted,
//! so the pass is sound on any verified rk:
//!
//! - `while` (a slot `j`): the loop begins with pure ops and `rk.if %exit { rk.break }`, where
//!   the test leaves `j < U` (or `j <= U`) with `U` invariant; `j` is written once in the loop,
//!   at its top level, with `j + K` (`K` invariant); its value on entry is the last write before
//!   the loop. Reads of `j` before that write see a value in `[first, hi]` (`hi = U - 1` or
//!   `U`; the last value of the progression when `K` is a constant), provided `hi + K` does not
//!   wrap, which the proof includes.
//! - counted (what the front end makes of `for i in a..b`, `..=`, `.rev()`, `.step_by(k)`):
//!   the loop begins `rk.if (rk.read done) { rk.break }; %i = rk.read next` (pure ops may
//!   come before the read), and sets
//!   `done = (H - i) < K` and `next = i + K'` (`K' <= K`), or for `.rev()`
//!   `done = (i - A) < K` and `next = i - K'`. Then `%i` lies in `[first, H]` (`[A, first]`)
//!   whenever the loop runs, given `first <= H` (`A <= first`), which the proof includes.
//!
//! Loops nested in the versioned loop contribute their induction variables when their bounds
//! are invariant in it, so a check in an inner loop is proven before the outer one.
//!
//! **Indices.** An index is an unsigned expression of induction variables and invariant values
//! built from `+`, `*`, `-` (by an invariant), widening casts and `/ c` (a nonzero constant),
//! each monotone, so that its largest value is its value at the variables' largest values, and
//! `& c` and `% c` (constants), which are bounded by `c` whatever their operand is. The
//! proof computes the smallest and largest value of every subexpression exactly (in `u64`
//! where its bound allows, else in `u128`; see `Proof`), and requires each to fit its type (no wrapping inside the loop either) and the
//! largest index to be below the length. Invariant values are recomputed before the loop
//! (pure ops, and slot reads of slots the loop does not write).
//!
//! **Assertions.** The same proof also decides the `rk.assert`s every iteration reaches (not
//! those inside an `rk.if`): one whose condition is invariant is tested as it is; one that
//! tests `x == 0` is proven where `x` is an `|` of zero parts, each invariant or `e & C` with
//! `C` a low run of set bits and a run from bit `h` up, decided by `e`'s low bits (which sums,
//! products, bitwise operations and shifts by constants carry over from invariant values, and
//! which a product by a multiple of `2^m` clears) and by `e`'s range. Alignment checks
//! (`(address & 15) == 0`) and the warpgroup multiplies' parameter checks have these shapes.
//! A loop with warpgroup multiplies is versioned for its assertions alone, also without
//! bounds checks: on a GPU any check before a multiply costs its pipelining.
//!
//! **Loops that synchronise** take the same copy in every thread that must meet: the proof is
//! combined over the warp (`rk.warp all`) when the loop exchanges values between lanes, and
//! over the block (through a word of shared memory between two barriers) when it waits at
//! barriers, so that no thread waits at a barrier instruction of the other copy.
//!
//! Only loops that no other loop encloses are versioned; see `Context::region`. The loops
//! nested in the checked copy are marked `cold`, which keeps the back ends from unrolling them
//! (see `OpKind::Loop`: unrolled, their checks raised sgemm's register count from 32 to 61),
//! except those marked `unroll` (see `passes::unroll`).

mod assertions;
#[cfg(test)]
mod tests;

use super::holds_wgmma;
use crate::ir::{BinOp, CmpOp, Func, Literal, Loc, LoopHint, Op, OpKind, Region, ValueId};
use crate::types::{IntTy, Type};
use assertions::collect_asserts;
use std::collections::{HashMap, HashSet};

/// Versions the loops of every function; returns how many loops were versioned. Without
/// `bounds_checks` (`-C checks=off`, where the lowering drops them) the bounds checks are
/// neither proven nor a reason to version: only loops with warpgroup multiplies are, for
/// their assertions.
pub fn version_loops(module: &mut crate::Module, bounds_checks: bool) -> usize {
    module.funcs.iter_mut().map(|f| version_func(f, bounds_checks)).sum()
}

fn version_func(func: &mut Func, bounds_checks: bool) -> usize {
    let mut body = std::mem::take(&mut func.body);
    let mut cx = Context::new(func, &body, bounds_checks);
    let n = cx.region(&mut body, false);
    func.body = body;
    n
}

/// What a region-free op computes, for looking through definitions.
#[derive(Clone)]
struct Def {
    kind: OpKind,
    operands: Vec<ValueId>,
}

struct Context<'f> {
    func: &'f mut Func,
    defs: HashMap<ValueId, Def>,
    /// Slots used only by `rk.read` and `rk.write` (their contents change only by writes).
    plain_slots: HashSet<ValueId>,
    /// `static_max`'s answers (expressions may share subexpressions).
    maxes: std::cell::RefCell<HashMap<ValueId, u128>>,
    /// Whether the bounds checks are proven (see `version_loops`).
    bounds_checks: bool,
}

/// An induction variable's values: every read in `reads` is in `[lo, hi]` whenever it runs.
struct Induction {
    reads: HashSet<ValueId>,
    /// Invariant values and what the proof must also establish, as ops computed before the
    /// loop (see `Proof`).
    lo: Term,
    hi: Term,
    conditions: Vec<Condition>,
    /// Whether the loop runs at least once, from values known before it.
    runs: Runs,
}

/// How to tell, before a loop, whether it runs at least once.
#[derive(Clone, Copy)]
enum Runs {
    /// Unless this `bool` (a counted loop's initial `done`) holds.
    Unless(ValueId),
    /// If `first < bound` (`<=` when inclusive), for a `while` loop.
    Below { first: ValueId, bound: ValueId, inclusive: bool },
}

/// An invariant value the proof recomputes, or a value it derives (see `Proof`).
#[derive(Clone)]
enum Term {
    /// An invariant value of the loop, of an unsigned type of at most 64 bits.
    Value(ValueId),
    /// `first + ((hi - first) & !(K - 1))`: the last value of a progression whose constant
    /// step `K` is a power of two (a mask, so that the proof has no division that could panic).
    Last { first: ValueId, hi: Box<Term>, step: u128 },
    /// `v - 1` (the largest value below an exclusive bound).
    Pred(ValueId),
}

/// A condition the proof must establish, over invariant values.
enum Condition {
    /// `a <= b`.
    Le(Term, Term),
    /// The induction variable's largest value plus `k` fits the type `ty` (a progression does
    /// not wrap past its last value, and so leaves the loop).
    AddFits(ValueId, IntTy),
}

impl<'f> Context<'f> {
    fn new(func: &'f mut Func, body: &Region, bounds_checks: bool) -> Context<'f> {
        let mut defs = HashMap::new();
        let mut slots = HashSet::new();
        let mut other_uses = HashSet::new();
        scan(body, &mut defs, &mut slots, &mut other_uses);
        let plain_slots = slots.difference(&other_uses).copied().collect();
        Context { func, defs, plain_slots, maxes: Default::default(), bounds_checks }
    }

    fn int_ty(&self, v: ValueId) -> Option<IntTy> {
        match self.func.ty(v) {
            Some(Type::Int(t)) if !t.is_signed() && t.bits() <= 64 => Some(*t),
            _ => None,
        }
    }

    /// Versions the loops of a region; returns how many. Only loops that no other loop
    /// encloses are versioned (an enclosed loop's checks are proven with its enclosing loop's,
    /// which sees its induction variables). A loop versioned inside a loop that could not be
    /// (sgemm's inner loop, in a loop with barriers) costs registers: LLVM hoists the checked
    /// copy's invariant indices out of the outer loop and keeps them live through it for the
    /// panic path (sgemm: 44 registers became 59, which costs occupancy).
    fn region(&mut self, region: &mut Region, in_loop: bool) -> usize {
        let mut n = 0;
        let mut k = 0;
        while k < region.ops.len() {
            if region.ops[k].kind.is_loop()
                && !in_loop
                && let Some((before, versioned)) = self.version(&region.ops, k)
            {
                n += 1;
                let skip = before.len() + 1;
                region.ops.splice(k..=k, before.into_iter().chain([versioned]));
                k += skip;
                continue;
            }
            let inner = in_loop || region.ops[k].kind.is_loop();
            for r in &mut region.ops[k].regions {
                n += self.region(r, inner);
            }
            k += 1;
        }
        n
    }

    /// Tries to version the loop at `ops[at]`: the ops that compute the proof, and the
    /// `rk.if` holding both copies.
    fn version(&mut self, ops: &[Op], at: usize) -> Option<(Vec<Op>, Op)> {
        let lp = &ops[at];
        let sync = synchronisation(&lp.regions[0])?;
        let inside = defined_in(&lp.regions[0]);
        let written = written_slots(&lp.regions[0]);
        let scope = Scope { inside: &inside, written: &written, invariant: Default::default() };
        let own = self.counted(ops, at, &scope).or_else(|| self.while_loop(ops, at, &scope));
        let runs = own.as_ref().map(|i| i.runs);
        let mut inductions: Vec<Induction> = own.into_iter().collect();
        visit_loops(&lp.regions[0], &mut |ops, k| {
            self.inductions_nested(ops, k, &scope, &mut inductions)
        });
        let mut checks = Vec::new();
        if self.bounds_checks {
            collect_checks(&lp.regions[0], &mut checks);
        }
        let mut proof = Proof::new(lp.loc);
        let mut proven: HashSet<(ValueId, ValueId)> = HashSet::new();
        for (index, len) in checks {
            if proven.contains(&(index, len)) {
                continue;
            }
            // A check that cannot be proven leaves the proof as it was.
            let saved = proof.save();
            if self.prove(&mut proof, &scope, &inductions, index, len).is_some() {
                proven.insert((index, len));
            } else {
                proof.restore(saved);
            }
        }
        // Assertions whose condition the same proof decides (see `prove_assert`). They are
        // proven with the bounds checks; a loop is versioned for them alone only where it has
        // warpgroup multiplies, where any check that can end a thread costs the multiplies'
        // pipelining, so elsewhere a loop without proven bounds checks is left at once.
        let wgmma = holds_wgmma(lp);
        if proven.is_empty() && !wgmma {
            return None;
        }
        let mut asserts = Vec::new();
        collect_asserts(&lp.regions[0], &mut asserts);
        let mut proven_asserts: HashSet<ValueId> = HashSet::new();
        for cond in asserts {
            if proven_asserts.contains(&cond) {
                continue;
            }
            let saved = proof.save();
            if self.prove_assert(&mut proof, &scope, &inductions, cond).is_some() {
                proven_asserts.insert(cond);
            } else {
                proof.restore(saved);
            }
        }
        if proven.is_empty() && proven_asserts.is_empty() {
            return None;
        }
        // The ranges of the variables the proven checks used.
        let used = proof.used.clone();
        for ind in inductions.iter().filter(|i| used.contains(&i.id())) {
            for c in &ind.conditions {
                let ok = match c {
                    Condition::Le(a, b) => {
                        let (a, b) =
                            (self.term(&mut proof, &scope, a)?, self.term(&mut proof, &scope, b)?);
                        if proof.bound(a) == 0 {
                            // Nothing is below zero.
                            continue;
                        }
                        proof.cmp(self.func, CmpOp::Le, a, b)
                    }
                    Condition::AddFits(k, ty) => {
                        // The largest value the proven checks used (the same value, so that
                        // `all` can tell when a check implies this), or computed now.
                        let t = match proof.inductions.get(&ind.id()) {
                            Some(r) => r.max,
                            None => self.term(&mut proof, &scope, &ind.hi)?,
                        };
                        let k = self.wide(&mut proof, &scope, *k)?;
                        let sum = proof.binary(self.func, BinOp::Add, t, k);
                        proof.at_most(sum, ty.range().1);
                        continue;
                    }
                };
                proof.conditions.push(ok);
            }
        }
        let ok = proof.all(self.func);
        let ok = match sync {
            Sync::None => ok,
            // Threads that must meet take one copy; the vote runs only where the loop runs at
            // least once, so that a loop that does not run adds no barrier or exchange that
            // the kernel did not have (where it runs, every thread that must meet runs it too,
            // or the kernel is wrong already).
            _ => {
                let runs = match runs? {
                    Runs::Unless(done) => {
                        proof.push(self.func, OpKind::Not, vec![done], Type::Bool)
                    }
                    Runs::Below { first, bound, inclusive } => {
                        let bound = self.materialise(&mut proof, &scope, bound)?;
                        let pred = if inclusive { CmpOp::Le } else { CmpOp::Lt };
                        proof.push(self.func, OpKind::Cmp(pred), vec![first, bound], Type::Bool)
                    }
                };
                proof.uniform(self.func, ok, runs, sync)
            }
        };
        let fast = self.copy_without(lp, &proven, &proven_asserts);
        let loc = lp.loc;
        let results = lp.results.clone();
        // The checked copy's inner loops stay rolled (see `OpKind::Loop`); the copy itself may
        // be unrolled, as before versioning: no loop encloses it to hoist its checks out of.
        let mut slow = lp.clone();
        for r in &mut slow.regions {
            for inner in &mut r.ops {
                make_cold(inner);
            }
        }
        let arm = |func: &mut Func, mut lp: Op| {
            let fresh: Vec<ValueId> = lp
                .results
                .iter()
                .map(|r| func.new_value(func.ty(*r).cloned().unwrap_or(Type::Unit)))
                .collect();
            lp.results = fresh.clone();
            let mut ops = vec![lp];
            if !fresh.is_empty() {
                ops.push(Op {
                    kind: OpKind::Yield,
                    operands: fresh,
                    results: vec![],
                    regions: vec![],
                    loc,
                });
            }
            Region { ops }
        };
        let then = arm(self.func, fast);
        let els = arm(self.func, slow);
        let versioned =
            Op { kind: OpKind::If, operands: vec![ok], results, regions: vec![then, els], loc };
        Some((proof.ops, versioned))
    }

    fn inductions_nested(&self, ops: &[Op], at: usize, scope: &Scope, out: &mut Vec<Induction>) {
        if let Some(ind) = self.counted(ops, at, scope).or_else(|| self.while_loop(ops, at, scope))
        {
            out.push(ind);
        }
    }

    /// The `while j < U { ...; j += K }` shape (see the module comment).
    fn while_loop(&self, ops: &[Op], at: usize, scope: &Scope) -> Option<Induction> {
        let body = &ops[at].regions[0].ops;
        let exit = body.iter().position(|op| !op.regions.is_empty() || !is_plain(&op.kind))?;
        // The loop stops if `cond`; the comparison that holds after the test is its negation.
        let cond = breaks_if(&body[exit])?;
        let (pred, a, b) = match self.defs.get(&cond).map(|d| (&d.kind, d.operands.as_slice())) {
            Some((OpKind::Not, [c])) => {
                match self.defs.get(c).map(|d| (&d.kind, d.operands.as_slice())) {
                    Some((OpKind::Cmp(p), [a, b])) => (*p, *a, *b),
                    _ => return None,
                }
            }
            Some((OpKind::Cmp(p), [a, b])) => (negate(*p), *a, *b),
            _ => return None,
        };
        let (read, bound, inclusive) = match pred {
            CmpOp::Lt => (a, b, false),
            CmpOp::Le => (a, b, true),
            CmpOp::Gt => (b, a, false),
            CmpOp::Ge => (b, a, true),
            _ => return None,
        };
        let slot = self.read_of(read)?;
        let ty = self.int_ty(read)?;
        if !self.plain_slots.contains(&slot) || !self.invariant(bound, scope) {
            return None;
        }
        // The one write of the slot in the loop, at its top level, of `j + K`.
        let writes: Vec<usize> = (0..body.len()).filter(|&k| writes_slot(&body[k], slot)).collect();
        let [w] = writes.as_slice() else { return None };
        let write = &body[*w];
        if write.kind != OpKind::Write || *w <= exit {
            return None;
        }
        let (step, stepped) = match self.defs.get(&write.operands[0]) {
            Some(Def { kind: OpKind::Binary(BinOp::Add), operands }) => {
                let (x, k) = (operands[0], operands[1]);
                if self.read_of(x) == Some(slot) && self.invariant(k, scope) {
                    (k, x)
                } else if self.read_of(k) == Some(slot) && self.invariant(x, scope) {
                    (x, k)
                } else {
                    return None;
                }
            }
            _ => return None,
        };
        let first = self.entry_value(ops, at, slot)?;
        // Reads before the write see the current value.
        let mut reads = HashSet::new();
        for op in &body[..*w] {
            collect_reads_of(op, slot, &mut reads);
        }
        if !reads.contains(&stepped) {
            return None;
        }
        let hi = if inclusive { Term::Value(bound) } else { Term::Pred(bound) };
        let hi_exact = match self.constant(step) {
            Some(k) if k > 1 && k.is_power_of_two() => {
                Term::Last { first, hi: Box::new(hi), step: k }
            }
            _ => hi,
        };
        Some(Induction {
            reads,
            lo: Term::Value(first),
            hi: hi_exact,
            conditions: vec![Condition::AddFits(step, ty)],
            runs: Runs::Below { first, bound, inclusive },
        })
    }

    /// The front end's counted loop (see the module comment).
    fn counted(&self, ops: &[Op], at: usize, scope: &Scope) -> Option<Induction> {
        let body = &ops[at].regions[0].ops;
        let [read_done, test, rest @ ..] = body.as_slice() else { return None };
        // The front end may compute operands of the body's first statement before it reads the
        // variable (`acc[m][j]` checks `m` first): the read is the first op after the test
        // that reads a slot, with only ops before it that have no regions and write nothing.
        let at_read = rest.iter().position(|op| {
            op.kind == OpKind::Read || op.kind == OpKind::Write || !op.regions.is_empty()
        })?;
        let read_next = &rest[at_read];
        if read_done.kind != OpKind::Read || read_next.kind != OpKind::Read {
            return None;
        }
        let (done, next) = (read_done.operands[0], read_next.operands[0]);
        if breaks_if(test) != Some(read_done.results[0]) {
            return None;
        }
        let i = read_next.results[0];
        self.int_ty(i)?;
        if !self.plain_slots.contains(&done) || !self.plain_slots.contains(&next) {
            return None;
        }
        let writes_of =
            |slot| (0..body.len()).filter(|&k| writes_slot(&body[k], slot)).collect::<Vec<_>>();
        let (wd, wn) = (writes_of(done), writes_of(next));
        let ([wd], [wn]) = (wd.as_slice(), wn.as_slice()) else { return None };
        let (wd, wn) = (&body[*wd], &body[*wn]);
        if wd.kind != OpKind::Write || wn.kind != OpKind::Write {
            return None;
        }
        // `done = R < Kc`, `R = (H - i)` or `(i - A)`, possibly widened.
        let (remaining, kc) = match self.defs.get(&wd.operands[0]) {
            Some(Def { kind: OpKind::Cmp(CmpOp::Lt), operands }) => (operands[0], operands[1]),
            _ => return None,
        };
        let remaining = self.strip_widening(remaining);
        let (forward, other) = match self.defs.get(&remaining) {
            Some(Def { kind: OpKind::Binary(BinOp::Sub), operands }) if operands[1] == i => {
                (true, operands[0])
            }
            Some(Def { kind: OpKind::Binary(BinOp::Sub), operands }) if operands[0] == i => {
                (false, operands[1])
            }
            _ => return None,
        };
        if self.func.ty(other) != self.func.ty(i) || !self.invariant(other, scope) {
            return None;
        }
        // `next = i ± Kn` with `Kn <= Kc`.
        let want = if forward { BinOp::Add } else { BinOp::Sub };
        let kn = match self.defs.get(&wn.operands[0]) {
            Some(Def { kind: OpKind::Binary(b), operands }) if *b == want && operands[0] == i => {
                operands[1]
            }
            Some(Def { kind: OpKind::Binary(BinOp::Add), operands })
                if forward && operands[1] == i =>
            {
                operands[0]
            }
            _ => return None,
        };
        if !self.step_at_most(kn, kc) {
            return None;
        }
        let first = self.entry_value(ops, at, next)?;
        let runs = Runs::Unless(self.entry_value(ops, at, done)?);
        let reads = HashSet::from([i]);
        if forward {
            let hi = match self.constant(kn) {
                Some(k) if k > 1 && k.is_power_of_two() => {
                    Term::Last { first, hi: Box::new(Term::Value(other)), step: k }
                }
                _ => Term::Value(other),
            };
            Some(Induction {
                reads,
                lo: Term::Value(first),
                hi,
                conditions: vec![Condition::Le(Term::Value(first), Term::Value(other))],
                runs,
            })
        } else {
            Some(Induction {
                reads,
                lo: Term::Value(other),
                hi: Term::Value(first),
                conditions: vec![Condition::Le(Term::Value(other), Term::Value(first))],
                runs,
            })
        }
    }

    /// Whether `kn <= kc` always (the step taken is at most the step the exit test assumes).
    fn step_at_most(&self, kn: ValueId, kc: ValueId) -> bool {
        if kn == kc {
            return true;
        }
        if let (Some(a), Some(b)) = (self.constant(kn), self.constant(kc)) {
            return a <= b;
        }
        // A cast of `kc` to a type no wider (a truncation never grows a value), or `kc` a
        // widening of `kn`.
        match (self.defs.get(&kn), self.defs.get(&kc)) {
            (Some(Def { kind: OpKind::Cast, operands }), _) if operands[0] == kc => {
                matches!((self.int_ty(kn), self.int_ty(kc)), (Some(_), Some(_)))
            }
            (_, Some(Def { kind: OpKind::Cast, operands })) if operands[0] == kn => {
                matches!((self.int_ty(kn), self.int_ty(kc)), (Some(a), Some(b)) if a.bits() <= b.bits())
            }
            _ => false,
        }
    }

    /// Looks through casts that keep an unsigned value (to an unsigned type at least as wide).
    fn strip_widening(&self, mut v: ValueId) -> ValueId {
        while let Some(Def { kind: OpKind::Cast, operands }) = self.defs.get(&v) {
            match (self.int_ty(operands[0]), self.int_ty(v)) {
                (Some(from), Some(to)) if from.bits() <= to.bits() => v = operands[0],
                _ => break,
            }
        }
        v
    }

    /// The slot an `rk.read` result reads.
    fn read_of(&self, v: ValueId) -> Option<ValueId> {
        match self.defs.get(&v) {
            Some(Def { kind: OpKind::Read, operands }) => operands.first().copied(),
            _ => None,
        }
    }

    fn constant(&self, v: ValueId) -> Option<u128> {
        match self.defs.get(&v) {
            Some(Def { kind: OpKind::Const(Literal::Int(b)), .. }) => Some(*b),
            _ => None,
        }
    }

    /// The value a slot holds when the loop at `ops[at]` starts: the last write before it in
    /// the same region, with nothing between that could write the slot.
    fn entry_value(&self, ops: &[Op], at: usize, slot: ValueId) -> Option<ValueId> {
        for op in ops[..at].iter().rev() {
            if op.kind == OpKind::Write && op.operands.get(1) == Some(&slot) {
                return op.operands.first().copied();
            }
            if writes_slot(op, slot) {
                return None;
            }
        }
        None
    }

    /// Whether a value is the same in every iteration of the loop and can be recomputed before
    /// it: defined outside it, or by pure ops (and reads of slots it never writes) inside.
    fn invariant(&self, v: ValueId, scope: &Scope) -> bool {
        if !scope.inside.contains(&v) {
            return true;
        }
        if let Some(&known) = scope.invariant.borrow().get(&v) {
            return known;
        }
        let answer = match self.defs.get(&v) {
            Some(Def { kind: OpKind::Read, operands }) => {
                self.plain_slots.contains(&operands[0]) && !scope.written.contains(&operands[0])
            }
            Some(Def { kind, operands }) if kind.recomputable(self.func, operands) => {
                operands.iter().all(|o| self.invariant(*o, scope))
            }
            _ => false,
        };
        scope.invariant.borrow_mut().insert(v, answer);
        answer
    }

    /// Recomputes an invariant value before the loop (memoised).
    fn materialise(&mut self, proof: &mut Proof, scope: &Scope, v: ValueId) -> Option<ValueId> {
        if !scope.inside.contains(&v) {
            return Some(v);
        }
        if let Some(&m) = proof.copies.get(&v) {
            return Some(m);
        }
        let def = self.defs.get(&v)?.clone();
        let operands: Option<Vec<ValueId>> =
            def.operands.iter().map(|o| self.materialise(proof, scope, *o)).collect();
        let ty = self.func.ty(v)?.clone();
        let r = self.func.new_value(ty);
        proof.ops.push(Op {
            kind: def.kind,
            operands: operands?,
            results: vec![r],
            regions: vec![],
            loc: proof.loc,
        });
        proof.copies.insert(v, r);
        Some(r)
    }

    /// An invariant unsigned value, recomputed, as a proof value (see `Proof`).
    fn wide(&mut self, proof: &mut Proof, scope: &Scope, v: ValueId) -> Option<ValueId> {
        self.int_ty(v)?;
        if let Some(c) = self.constant(v) {
            return Some(proof.constant(self.func, c));
        }
        if !self.invariant(v, scope) {
            return None;
        }
        let bound = self.static_max(v);
        let m = self.materialise(proof, scope, v)?;
        Some(proof.widen(self.func, m, bound))
    }

    /// An upper bound of an unsigned value known at compile time: its type's largest value,
    /// or less where its definition says so (a widened narrower value, a constant, a mask).
    fn static_max(&self, v: ValueId) -> u128 {
        if let Some(&known) = self.maxes.borrow().get(&v) {
            return known;
        }
        let type_max = self.int_ty(v).map_or(u128::MAX, |t| t.range().1);
        let known = match self.defs.get(&v) {
            Some(Def { kind: OpKind::Const(Literal::Int(c)), .. }) => *c,
            // A slice spans at most `isize::MAX` bytes (Rust's rule for every slice, which the
            // runtime's buffers keep).
            Some(Def { kind: OpKind::SliceLen, operands }) => {
                let size = match self.func.ty(operands[0]) {
                    Some(Type::Slice { elem, .. }) => elem.size_of().max(1),
                    _ => 1,
                };
                (isize::MAX as u128) / u128::from(size)
            }
            Some(Def { kind: OpKind::Cast, operands }) if self.int_ty(operands[0]).is_some() => {
                self.static_max(operands[0])
            }
            Some(Def { kind: OpKind::Binary(BinOp::And), operands }) => {
                self.static_max(operands[0]).min(self.static_max(operands[1]))
            }
            Some(Def { kind: OpKind::Binary(b @ (BinOp::Add | BinOp::Mul)), operands }) => {
                let (x, y) = (self.static_max(operands[0]), self.static_max(operands[1]));
                if *b == BinOp::Add { x.saturating_add(y) } else { x.saturating_mul(y) }
            }
            _ => type_max,
        };
        // An addition or product that may wrap in its type has no better bound than the type's.
        let bound = if known > type_max { type_max } else { known };
        self.maxes.borrow_mut().insert(v, bound);
        bound
    }

    fn term(&mut self, proof: &mut Proof, scope: &Scope, t: &Term) -> Option<ValueId> {
        match t {
            Term::Value(v) => self.wide(proof, scope, *v),
            Term::Pred(v) => {
                let w = self.wide(proof, scope, *v)?;
                let one = proof.constant(self.func, 1);
                Some(proof.binary(self.func, BinOp::Sub, w, one))
            }
            Term::Last { first, hi, step } => {
                let f = self.wide(proof, scope, *first)?;
                let h = self.term(proof, scope, hi)?;
                let mask = proof.constant(self.func, !(*step - 1));
                let span = proof.binary(self.func, BinOp::Sub, h, f);
                let whole = proof.binary(self.func, BinOp::And, span, mask);
                // At most `h` where the loop runs (see `Proof`), so in `u64` where `h` is.
                let bound = proof.bound(h);
                Some(proof.binary_within(self.func, BinOp::Add, f, whole, bound))
            }
        }
    }

    /// Adds to the proof that `index < len` in every iteration; `None` when it cannot.
    fn prove(
        &mut self,
        proof: &mut Proof,
        scope: &Scope,
        inductions: &[Induction],
        index: ValueId,
        len: ValueId,
    ) -> Option<()> {
        if !self.invariant(len, scope) {
            return None;
        }
        let range = self.range(proof, scope, inductions, index)?;
        let n = self.wide(proof, scope, len)?;
        proof.below(self.func, range.max, n);
        Some(())
    }

    /// The smallest and largest value of `v` over the induction variables' ranges, exactly,
    /// adding to the proof that no subexpression wraps.
    fn range(
        &mut self,
        proof: &mut Proof,
        scope: &Scope,
        inds: &[Induction],
        v: ValueId,
    ) -> Option<Range> {
        if let Some(&r) = proof.ranges.get(&v) {
            return Some(r);
        }
        let r = self.range_of(proof, scope, inds, v)?;
        proof.ranges.insert(v, r);
        Some(r)
    }

    /// `range` without its memo (subexpressions may be shared).
    fn range_of(
        &mut self,
        proof: &mut Proof,
        scope: &Scope,
        inds: &[Induction],
        v: ValueId,
    ) -> Option<Range> {
        let ty = self.int_ty(v)?;
        if self.invariant(v, scope) {
            let w = self.wide(proof, scope, v)?;
            return Some(Range { min: w, max: w });
        }
        if let Some(ind) = inds.iter().find(|i| i.reads.contains(&v)) {
            proof.used.insert(ind.id());
            // One range for all of the variable's reads, so that `all` can recognise its
            // largest value in every condition.
            if let Some(&r) = proof.inductions.get(&ind.id()) {
                return Some(r);
            }
            let min = self.term(proof, scope, &ind.lo)?;
            let max = self.term(proof, scope, &ind.hi)?;
            proof.inductions.insert(ind.id(), Range { min, max });
            return Some(Range { min, max });
        }
        let def = self.defs.get(&v)?.clone();
        match (&def.kind, def.operands.as_slice()) {
            (OpKind::Binary(b @ (BinOp::Add | BinOp::Mul)), [x, y]) => {
                let (x, y) =
                    (self.range(proof, scope, inds, *x)?, self.range(proof, scope, inds, *y)?);
                let limit = ty.range().1;
                // A product by a constant `c` fits its type where its other factor is at most
                // `limit / c`: one comparison with a constant, after which the product is
                // computed in the type's width (see `Proof`).
                let by_constant = [(x, y), (y, x)].into_iter().find_map(|(f, c)| {
                    let k = proof.constant_of(c.max).filter(|k| *k > 0 && c.min == c.max)?;
                    Some((f, c.max, k))
                });
                if *b == BinOp::Mul
                    && let Some((f, c, k)) = by_constant
                    && proof.bound(f.max).saturating_mul(k) > limit
                {
                    let m = proof.constant(self.func, limit / k);
                    proof.le_sum(self.func, f.max, m, false);
                    let min = proof.binary_within(self.func, BinOp::Mul, f.min, c, limit);
                    let max = proof.binary_within(self.func, BinOp::Mul, f.max, c, limit);
                    return Some(Range { min, max });
                }
                let min = proof.binary(self.func, *b, x.min, y.min);
                let max = proof.binary(self.func, *b, x.max, y.max);
                proof.at_most(max, limit);
                Some(Range { min, max })
            }
            (OpKind::Binary(BinOp::Sub), [x, y]) if self.invariant(*y, scope) => {
                let x = self.range(proof, scope, inds, *x)?;
                let y = self.wide(proof, scope, *y)?;
                let ok = proof.cmp(self.func, CmpOp::Le, y, x.min);
                proof.conditions.push(ok);
                let min = proof.binary(self.func, BinOp::Sub, x.min, y);
                let max = proof.binary(self.func, BinOp::Sub, x.max, y);
                Some(Range { min, max })
            }
            (OpKind::Binary(BinOp::And), [x, y]) => {
                // `x & c` lies in `[0, c]` whatever `x` is.
                let c = [*x, *y].into_iter().find_map(|o| self.constant(o))?;
                let (min, max) = (proof.constant(self.func, 0), proof.constant(self.func, c));
                Some(Range { min, max })
            }
            (OpKind::Binary(BinOp::Div), [x, y]) => {
                // `x / c` (unsigned, `c` a nonzero constant) is monotone in `x`. The proof
                // divides by shifting, because a division is a panic site of its own: exactly
                // when `c` is a power of two, else by the powers of two on either side of `c`,
                // which bound the quotient from below and above.
                let c = self.constant(*y).filter(|c| *c > 0)?;
                let x = self.range(proof, scope, inds, *x)?;
                let down = c.ilog2();
                let up = if c.is_power_of_two() { down } else { down + 1 };
                let min = proof.shr(self.func, x.min, up);
                let max = proof.shr(self.func, x.max, down);
                Some(Range { min, max })
            }
            (OpKind::Binary(BinOp::Rem), [_, y]) => {
                let c = self.constant(*y).filter(|c| *c > 0)?;
                let (min, max) = (proof.constant(self.func, 0), proof.constant(self.func, c - 1));
                Some(Range { min, max })
            }
            (OpKind::Cast, [x]) => match self.int_ty(*x) {
                Some(from) if from.bits() <= ty.bits() => self.range(proof, scope, inds, *x),
                _ => None,
            },
            _ => None,
        }
    }

    /// A copy of the loop with fresh values, without the proven checks.
    fn copy_without(
        &mut self,
        lp: &Op,
        proven: &HashSet<(ValueId, ValueId)>,
        proven_asserts: &HashSet<ValueId>,
    ) -> Op {
        let mut map = HashMap::new();
        let mut copy = copy_op(self.func, lp, &mut map);
        for (v, c) in &map {
            if let Some(d) = self.defs.get(v).cloned() {
                let operands = d.operands.iter().map(|o| *map.get(o).unwrap_or(o)).collect();
                self.defs.insert(*c, Def { kind: d.kind, operands });
            }
            if self.plain_slots.contains(v) {
                self.plain_slots.insert(*c);
            }
        }
        let mapped: HashSet<(ValueId, ValueId)> = proven
            .iter()
            .map(|(i, n)| (*map.get(i).unwrap_or(i), *map.get(n).unwrap_or(n)))
            .collect();
        let asserts: HashSet<ValueId> =
            proven_asserts.iter().map(|c| *map.get(c).unwrap_or(c)).collect();
        drop_checks(&mut copy.regions[0], &mapped, &asserts);
        copy
    }
}

/// What the loop defines and writes, for invariance.
struct Scope<'a> {
    inside: &'a HashSet<ValueId>,
    written: &'a HashSet<ValueId>,
    /// `Context::invariant`'s answers: an expression may share subexpressions (`let b = a + a;
    /// let c = b + b; ...`), and without them each walk would take time exponential in its depth.
    invariant: std::cell::RefCell<HashMap<ValueId, bool>>,
}

impl Induction {
    /// A stable identity: the smallest read.
    fn id(&self) -> ValueId {
        self.reads.iter().min().copied().unwrap_or(ValueId(u32::MAX))
    }
}

#[derive(Clone, Copy)]
struct Range {
    min: ValueId,
    max: ValueId,
}

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
struct Proof {
    ops: Vec<Op>,
    conditions: Vec<ValueId>,
    /// An upper bound of each value the proof computes, known at compile time, so that a
    /// condition that always holds is not computed at all.
    bounds: HashMap<ValueId, u128>,
    copies: HashMap<ValueId, ValueId>,
    /// Each invariant value as a proof value (`u64`).
    widened: HashMap<ValueId, ValueId>,
    /// Each `u64` proof value that was needed in `u128`.
    wide: HashMap<ValueId, ValueId>,
    /// The low 64 bits of `u128` values (see `truncated`).
    truncations: HashMap<ValueId, ValueId>,
    /// The operands of each sum the proof computed in `u128` (see `le_sum`).
    sums: HashMap<ValueId, (ValueId, ValueId)>,
    /// Values that must not exceed a constant (see `at_most`), checked in `all`.
    fits: Vec<(ValueId, u128)>,
    /// The pairs `(x, n)` the proof requires `x < n` of.
    below: Vec<(ValueId, ValueId)>,
    /// The proof's constants and their values.
    constants: HashMap<ValueId, u128>,
    /// The ranges computed so far (their conditions are already in `conditions`).
    ranges: HashMap<ValueId, Range>,
    /// The induction variables' ranges, by `Induction::id`.
    inductions: HashMap<ValueId, Range>,
    used: HashSet<ValueId>,
    loc: Loc,
}

/// A proof's state, to return to when a check cannot be proven.
struct Saved {
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
    fn new(loc: Loc) -> Proof {
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

    fn save(&self) -> Saved {
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

    fn restore(&mut self, saved: Saved) {
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

    fn push(&mut self, func: &mut Func, kind: OpKind, operands: Vec<ValueId>, ty: Type) -> ValueId {
        let r = func.new_value(ty);
        self.ops.push(Op { kind, operands, results: vec![r], regions: vec![], loc: self.loc });
        r
    }

    /// An unsigned value of at most 64 bits as a proof value (in `u64`, once); `bound` is what
    /// is known of it statically.
    fn widen(&mut self, func: &mut Func, v: ValueId, bound: u128) -> ValueId {
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

    fn is_narrow(func: &Func, v: ValueId) -> bool {
        func.ty(v) == Some(&NARROW)
    }

    /// A proof value in `u128`.
    fn in_wide(&mut self, func: &mut Func, v: ValueId) -> ValueId {
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
        r
    }

    fn constant(&mut self, func: &mut Func, c: u128) -> ValueId {
        let ty = if c <= NARROW_MAX { NARROW } else { WIDE };
        let r = self.push(func, OpKind::Const(Literal::Int(c)), vec![], ty);
        self.bounds.insert(r, c);
        self.constants.insert(r, c);
        r
    }

    /// The constant a proof value is, if it is one.
    fn constant_of(&self, v: ValueId) -> Option<u128> {
        self.constants.get(&v).copied()
    }

    fn bound(&self, v: ValueId) -> u128 {
        self.bounds.get(&v).copied().unwrap_or(u128::MAX)
    }

    /// `x op y`, in `u64` where both operands are and the result's bound fits (see `Proof`).
    fn binary(&mut self, func: &mut Func, b: BinOp, x: ValueId, y: ValueId) -> ValueId {
        self.binary_within(func, b, x, y, u128::MAX)
    }

    /// `binary`, for a result known to be at most `known` wherever the proof's answer matters.
    fn binary_within(
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
            // Below the next power of two above both.
            BinOp::Or | BinOp::Xor => {
                bx.max(by).checked_add(1).map_or(u128::MAX, |m| m.next_power_of_two() - 1)
            }
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
    fn narrow_operands(
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
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Or | BinOp::Xor => {
                Some((self.narrowed(func, x)?, self.narrowed(func, y)?))
            }
            _ => None,
        }
    }

    /// A proof value in `u64`, where its bound says it fits.
    fn narrowed(&mut self, func: &mut Func, v: ValueId) -> Option<ValueId> {
        (self.bound(v) <= NARROW_MAX).then(|| self.truncated(func, v))
    }

    /// A proof value's low 64 bits: the `u64` value it was widened from, a constant's low
    /// bits, or a truncation (once).
    fn truncated(&mut self, func: &mut Func, v: ValueId) -> ValueId {
        if Proof::is_narrow(func, v) {
            return v;
        }
        if let Some(c) = self.constant_of(v) {
            return self.constant(func, c & NARROW_MAX);
        }
        let n = self.narrow_of(func, v);
        if n != v {
            return n;
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
    fn wrapping(&mut self, func: &mut Func, b: BinOp, x: ValueId, y: ValueId) -> ValueId {
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
    fn shr(&mut self, func: &mut Func, x: ValueId, k: u32) -> ValueId {
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
    fn at_most(&mut self, x: ValueId, max: u128) {
        if self.bound(x) > max {
            self.fits.push((x, max));
        }
    }

    /// Whether the proof's `y < n` conditions already say that `x <= max`: where `x`'s
    /// variable terms are among some `y`'s (all are unsigned), `x` is at most `y` plus `x`'s
    /// constant terms, and `y` at most `n`'s largest value less one. So a progression's
    /// `last + step` fits `usize` wherever an index `base + last` is below a slice's length,
    /// which is at most `isize::MAX`.
    fn implied_at_most(&self, func: &Func, x: ValueId, max: u128) -> bool {
        let mut xs = Vec::new();
        self.terms(func, x, &mut xs);
        let (constants, variables): (Vec<_>, Vec<_>) =
            xs.into_iter().partition(|t| self.constant_of(*t).is_some());
        let k =
            constants.iter().filter_map(|t| self.constant_of(*t)).fold(0u128, u128::saturating_add);
        self.below.iter().any(|&(y, n)| {
            let mut ys = Vec::new();
            self.terms(func, y, &mut ys);
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
    fn below(&mut self, func: &mut Func, x: ValueId, n: ValueId) {
        self.below.push((x, n));
        self.le_sum(func, x, n, true);
    }

    /// Requires `x < n` (`strict`) or `x <= n`. Where `x` is a sum computed in `u128` of
    /// values in `u64` and `n` is in `u64`, the sum is not used: its constant terms are taken
    /// from `n` first (a constant, where `n` is one), and then each other term must be at most
    /// what is left, which it is then taken from, the last below it (`strict`) or at most it.
    /// Every difference is then of a larger value and a smaller one, and every value fits 64
    /// bits.
    fn le_sum(&mut self, func: &mut Func, x: ValueId, n: ValueId, strict: bool) {
        let pred = if strict { CmpOp::Lt } else { CmpOp::Le };
        let mut terms = Vec::new();
        self.terms(func, x, &mut terms);
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
        let (constants, mut variables): (Vec<_>, Vec<_>) =
            terms.into_iter().partition(|t| self.constant_of(*t).is_some());
        let k = constants.iter().map(|t| self.constant_of(*t).unwrap_or(0)).sum::<u128>();
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
    fn terms(&self, func: &Func, x: ValueId, out: &mut Vec<ValueId>) {
        match self.sums.get(&x) {
            Some(&(a, b)) => {
                self.terms(func, self.narrow_of(func, a), out);
                self.terms(func, self.narrow_of(func, b), out);
            }
            None => out.push(x),
        }
    }

    /// The `u64` value a `u128` one was widened from, or the value.
    fn narrow_of(&self, func: &Func, w: ValueId) -> ValueId {
        if Proof::is_narrow(func, w) {
            return w;
        }
        self.wide.iter().find(|(_, v)| **v == w).map_or(w, |(n, _)| *n)
    }

    fn cmp(&mut self, func: &mut Func, c: CmpOp, x: ValueId, y: ValueId) -> ValueId {
        let (x, y) = match (self.narrowed(func, x), self.narrowed(func, y)) {
            (Some(x), Some(y)) => (x, y),
            _ => (self.in_wide(func, x), self.in_wide(func, y)),
        };
        self.push(func, OpKind::Cmp(c), vec![x, y], Type::Bool)
    }

    /// `ok` agreed on by the threads that must meet (see `warp_all`, `block_all`), where the
    /// loop runs; `false` (the checked copy, which then does nothing) where it does not.
    fn uniform(&mut self, func: &mut Func, ok: ValueId, runs: ValueId, sync: Sync) -> ValueId {
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
    fn warp_all(&mut self, func: &mut Func, ok: ValueId) -> ValueId {
        self.push(func, OpKind::Warp(crate::ir::WarpOp::All), vec![ok], Type::Bool)
    }

    /// The proof for the whole block, for a loop with barriers, which every live thread of the
    /// block reaches (or the kernel is wrong already): a word of shared memory that every
    /// thread clears, a barrier, a thread whose proof failed sets it, a barrier, every thread
    /// reads it. Only loops that no loop encloses are versioned, so this runs at most once per
    /// thread and the word needs no third barrier before it is reused. The shared word belongs to the
    /// loop's site (a `shared_array` call cannot start where a loop does).
    fn block_all(&mut self, func: &mut Func, ok: ValueId) -> ValueId {
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
    fn all(&mut self, func: &mut Func) -> ValueId {
        for (x, max) in std::mem::take(&mut self.fits) {
            if !self.implied_at_most(func, x, max) {
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

fn negate(p: CmpOp) -> CmpOp {
    match p {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
        CmpOp::Ge => CmpOp::Lt,
    }
}

/// Ops allowed before a `while` loop's exit test (no effects: the test is the first thing the
/// loop does).
fn is_plain(kind: &OpKind) -> bool {
    matches!(
        kind,
        OpKind::Read
            | OpKind::Const(_)
            | OpKind::Cmp(_)
            | OpKind::Not
            | OpKind::Cast
            | OpKind::SliceLen
    ) || matches!(kind, OpKind::Binary(b) if !matches!(b, BinOp::Div | BinOp::Rem))
}

/// `rk.if %x { rk.break } else { }`: the loop stops if `%x`.
fn breaks_if(op: &Op) -> Option<ValueId> {
    let [then, els] = op.regions.as_slice() else { return None };
    (op.kind == OpKind::If && op.results.is_empty() && els.ops.is_empty() && is_plain_break(then))
        .then(|| op.operands[0])
}

fn is_plain_break(r: &Region) -> bool {
    matches!(r.ops.as_slice(), [b] if b.kind == OpKind::Break { depth: 0 } && b.operands.is_empty())
}

fn scan(
    region: &Region,
    defs: &mut HashMap<ValueId, Def>,
    slots: &mut HashSet<ValueId>,
    other_uses: &mut HashSet<ValueId>,
) {
    for op in &region.ops {
        if op.regions.is_empty() {
            for r in &op.results {
                defs.insert(*r, Def { kind: op.kind.clone(), operands: op.operands.clone() });
            }
        }
        if op.kind == OpKind::Var {
            slots.extend(op.results.iter().copied());
        }
        for (k, v) in op.operands.iter().enumerate() {
            let slot_use =
                (op.kind == OpKind::Read && k == 0) || (op.kind == OpKind::Write && k == 1);
            if !slot_use {
                other_uses.insert(*v);
            }
        }
        for r in &op.regions {
            scan(r, defs, slots, other_uses);
        }
    }
}

/// Every value defined inside a region (results of its ops, at any depth).
fn defined_in(region: &Region) -> HashSet<ValueId> {
    fn walk(r: &Region, out: &mut HashSet<ValueId>) {
        for op in &r.ops {
            out.extend(op.results.iter().copied());
            for inner in &op.regions {
                walk(inner, out);
            }
        }
    }
    let mut out = HashSet::new();
    walk(region, &mut out);
    out
}

/// Every slot written inside a region.
fn written_slots(region: &Region) -> HashSet<ValueId> {
    fn walk(r: &Region, out: &mut HashSet<ValueId>) {
        for op in &r.ops {
            if op.kind == OpKind::Write {
                out.extend(op.operands.get(1).copied());
            }
            for inner in &op.regions {
                walk(inner, out);
            }
        }
    }
    let mut out = HashSet::new();
    walk(region, &mut out);
    out
}

/// Whether an op writes a slot (itself or anywhere inside it).
fn writes_slot(op: &Op, slot: ValueId) -> bool {
    (op.kind == OpKind::Write && op.operands.get(1) == Some(&slot))
        || op.regions.iter().any(|r| r.ops.iter().any(|o| writes_slot(o, slot)))
}

fn collect_reads_of(op: &Op, slot: ValueId, out: &mut HashSet<ValueId>) {
    if op.kind == OpKind::Read && op.operands.first() == Some(&slot) {
        out.extend(op.results.iter().copied());
    }
    for r in &op.regions {
        for o in &r.ops {
            collect_reads_of(o, slot, out);
        }
    }
}

/// How the threads running a loop wait for each other, which decides how uniform the choice
/// between its copies must be.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Sync {
    /// Not at all: each thread may take its own copy.
    None,
    /// In warp exchanges: the lanes of a warp must take the same copy.
    Warp,
    /// At barriers: the threads of a block must take the same copy.
    Block,
}

/// How a region synchronises; `None` (no answer) when it calls a function, which the inliner
/// has normally removed.
fn synchronisation(region: &Region) -> Option<Sync> {
    let mut sync = Sync::None;
    for op in &region.ops {
        match op.kind {
            OpKind::Call { .. } => return None,
            OpKind::Barrier => sync = Sync::Block,
            OpKind::Warp(w) if w.exchanges() => sync = sync.max(Sync::Warp),
            // `ldmatrix` is per lane on the CPU, but on the GPU every lane must execute it.
            OpKind::Mma(_) | OpKind::LdMatrix(_) => sync = sync.max(Sync::Warp),
            // A warpgroup is four warps: the block's threads are the smallest unit this knows
            // that holds it.
            OpKind::Wgmma { .. } | OpKind::WgmmaSync(_) => sync = Sync::Block,
            _ => {}
        }
        for r in &op.regions {
            sync = sync.max(synchronisation(r)?);
        }
    }
    Some(sync)
}

/// Calls `f(ops, k)` for every loop `ops[k]` inside a region, at any depth.
fn visit_loops(region: &Region, f: &mut impl FnMut(&[Op], usize)) {
    for (k, op) in region.ops.iter().enumerate() {
        if op.kind.is_loop() {
            f(&region.ops, k);
        }
        for r in &op.regions {
            visit_loops(r, f);
        }
    }
}

fn collect_checks(region: &Region, out: &mut Vec<(ValueId, ValueId)>) {
    for op in &region.ops {
        if op.kind == OpKind::BoundsCheck {
            out.push((op.operands[0], op.operands[1]));
        }
        for r in &op.regions {
            collect_checks(r, out);
        }
    }
}

fn drop_checks(
    region: &mut Region,
    proven: &HashSet<(ValueId, ValueId)>,
    asserts: &HashSet<ValueId>,
) {
    region.ops.retain(|op| match op.kind {
        OpKind::BoundsCheck => !proven.contains(&(op.operands[0], op.operands[1])),
        OpKind::Assert { .. } => !asserts.contains(&op.operands[0]),
        _ => true,
    });
    for op in &mut region.ops {
        for r in &mut op.regions {
            drop_checks(r, proven, asserts);
        }
    }
}

/// Marks a loop of a checked copy, and every loop inside it, cold (see `OpKind::Loop`), except
/// a loop marked `unroll`: a thread-private array that one rolled loop indexes stays in local
/// memory for the whole kernel, the fast copy included, because the two copies share it.
fn make_cold(op: &mut Op) {
    if op.kind == (OpKind::Loop { hint: LoopHint::Plain }) {
        op.kind = OpKind::Loop { hint: LoopHint::Cold };
    }
    for r in &mut op.regions {
        for inner in &mut r.ops {
            make_cold(inner);
        }
    }
}

/// A copy of an op with fresh result values (operands defined inside it renamed).
fn copy_op(func: &mut Func, op: &Op, map: &mut HashMap<ValueId, ValueId>) -> Op {
    let operands = op.operands.iter().map(|v| *map.get(v).unwrap_or(v)).collect();
    let results = op
        .results
        .iter()
        .map(|r| {
            let new = func.new_value(func.ty(*r).cloned().unwrap_or(Type::Unit));
            map.insert(*r, new);
            new
        })
        .collect();
    let regions = op
        .regions
        .iter()
        .map(|r| Region { ops: r.ops.iter().map(|o| copy_op(func, o, map)).collect() })
        .collect();
    Op { kind: op.kind.clone(), operands, results, regions, loc: op.loc }
}
