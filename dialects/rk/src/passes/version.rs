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
//! **Checks first.** A loop whose only effects are its checks' panics and writes to slots (it
//! stores nothing, calls nothing, exchanges nothing between threads), and whose branches do not
//! depend on memory, takes another shape:
//!
//! ```text
//!     rk.if !%ok { save the slots it writes; rk.loop { ...as before... }; restore them }
//!     rk.loop { ...without the check... }
//! ```
//!
//! The checked copy runs only for its panics: it panics where the loop would (what it did
//! before is invisible: it wrote only slots, which get their values back), and if it does not
//! panic, every check the fast copy leaves out has held, at the same indices, since the fast
//! copy takes the same branches. The point is the code ptxas writes: two loops side by side
//! join before the code after them, where softmax's warp reductions are, and ptxas guards
//! that code with more convergence barriers; one after the other they do not join, and LLVM
//! strips the checked copy down to its indices and checks (softmax's SASS: 1,040 instructions
//! and 14 convergence barriers with the copies side by side, 984 and 10 with checks first).
//! The price is that both copies run when the proof fails and no check does.
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
//! where its bound allows, else in `u128`; see `Proof`), and requires each to fit its type
//! (no wrapping inside the loop either) and the largest index to be below the length. Invariant values are recomputed before the loop
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
mod proof;
#[cfg(test)]
mod tests;

use super::holds_wgmma;
use super::simplify::is_pure;
use crate::ir::{BinOp, CmpOp, Func, Literal, LoopHint, Op, OpKind, Region, ValueId};
use crate::types::{IntTy, Type};
use assertions::collect_asserts;
use proof::Proof;
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
                        // The largest value the proven checks used (every used variable has
                        // its range), the same value, so that `all` can tell when a check
                        // implies this.
                        let t = proof.inductions.get(&ind.id())?.max;
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
        let checks_first =
            sync == Sync::None && only_checks_have_effects(self.func, &lp.regions[0]);
        let mut fast = self.copy_without(lp, &proven, &proven_asserts);
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
        if checks_first {
            // `if !ok { checked copy }; fast copy` (see the module's doc): the checked copy
            // runs for its panics alone, so the slots it writes get their values back after it,
            // and its results are fresh values that nothing uses.
            let mut saved = Vec::new();
            let mut restore = Vec::new();
            let mut slots: Vec<ValueId> = written.difference(&inside).copied().collect();
            slots.sort();
            for slot in slots {
                let content = match self.func.ty(slot) {
                    Some(Type::Slot(t)) => (**t).clone(),
                    _ => return None,
                };
                let value = self.func.new_value(content);
                saved.push(Op {
                    kind: OpKind::Read,
                    operands: vec![slot],
                    results: vec![value],
                    regions: vec![],
                    loc,
                });
                restore.push(Op {
                    kind: OpKind::Write,
                    operands: vec![value, slot],
                    results: vec![],
                    regions: vec![],
                    loc,
                });
            }
            slow.results = fresh_values(self.func, &slow.results);
            fast.results = results;
            let ops = saved.into_iter().chain([slow]).chain(restore).collect();
            let not_ok = proof.push(self.func, OpKind::Not, vec![ok], Type::Bool);
            let check = Op {
                kind: OpKind::If,
                operands: vec![not_ok],
                results: vec![],
                regions: vec![Region { ops }, Region::default()],
                loc,
            };
            let mut before = proof.ops;
            before.push(check);
            return Some((before, fast));
        }
        let arm = |func: &mut Func, mut lp: Op| {
            let fresh = fresh_values(func, &lp.results);
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

/// New values of the types of `values`.
fn fresh_values(func: &mut Func, values: &[ValueId]) -> Vec<ValueId> {
    values.iter().map(|v| func.new_value(func.ty(*v).cloned().unwrap_or(Type::Unit))).collect()
}

/// Whether a loop may run first for its checks alone (the module's doc, "checks first"): its
/// only effects are its checks' panics and writes to slots, and which way its branches go does
/// not depend on memory. Then running it before the fast copy panics where the loop would, and
/// when it does not panic, the fast copy takes the same branches and reaches the same indices,
/// all of which the checked copy has just checked: even if another thread changes the memory
/// the loop reads in between (a data race, which Rust does not define), the indices cannot
/// change.
fn only_checks_have_effects(func: &Func, region: &Region) -> bool {
    if !effects_are_checks(func, region) {
        return false;
    }
    // Values computed from memory: loads, and reads of slots that such values were written to,
    // to a fixed point (a slot may be read before the write that taints it, in an earlier op).
    let mut tainted = HashSet::new();
    let mut slots = HashSet::new();
    loop {
        let before = (tainted.len(), slots.len());
        taint(region, &mut tainted, &mut slots);
        if (tainted.len(), slots.len()) == before {
            break;
        }
    }
    !branches_on(region, &tainted)
}

/// Whether every op of a region is free of effects but for panics (bounds checks,
/// assertions, integer division) and writes to slots: `simplify`'s pure ops, and these.
fn effects_are_checks(func: &Func, region: &Region) -> bool {
    region.ops.iter().all(|op| {
        let allowed = is_pure(func, op)
            || matches!(
                op.kind,
                OpKind::Binary(_)
                    | OpKind::BoundsCheck
                    | OpKind::Assert { .. }
                    | OpKind::If
                    | OpKind::Yield
                    | OpKind::Var
                    | OpKind::Write
                    | OpKind::Loop { .. }
                    | OpKind::Break { .. }
                    | OpKind::Continue { .. }
            );
        allowed && op.regions.iter().all(|r| effects_are_checks(func, r))
    })
}

/// One pass of `only_checks_have_effects`'s taint: an op's results are tainted when it loads,
/// reads a tainted slot, or has a tainted operand; an op with regions (`rk.if`, `rk.loop`)
/// also when anything inside it is, which covers the values its branches yield. Returns
/// whether anything in the region is tainted.
fn taint(region: &Region, tainted: &mut HashSet<ValueId>, slots: &mut HashSet<ValueId>) -> bool {
    let mut any = false;
    for op in &region.ops {
        let mut inside = false;
        for r in &op.regions {
            inside |= taint(r, tainted, slots);
        }
        let is_tainted = match op.kind {
            OpKind::Load => true,
            OpKind::Read => slots.contains(&op.operands[0]),
            OpKind::Write => {
                if tainted.contains(&op.operands[0]) {
                    slots.insert(op.operands[1]);
                }
                false
            }
            _ => inside || op.operands.iter().any(|v| tainted.contains(v)),
        };
        if is_tainted {
            tainted.extend(op.results.iter().copied());
        }
        any |= inside || is_tainted;
    }
    any
}

/// Whether an `rk.if` in the region branches on a tainted value.
fn branches_on(region: &Region, tainted: &HashSet<ValueId>) -> bool {
    region.ops.iter().any(|op| {
        (op.kind == OpKind::If && tainted.contains(&op.operands[0]))
            || op.regions.iter().any(|r| branches_on(r, tainted))
    })
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
