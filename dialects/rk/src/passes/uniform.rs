//! Which values and which control flow may differ between the threads of a block (a
//! uniformity analysis, as GPU compilers run one), and the barriers that such divergent
//! control flow reaches. Every thread of a block must reach the same barriers (rk's rule for
//! `rk.barrier`): a barrier under a condition that differs between threads makes some wait
//! for others that never come, which hangs or corrupts a GPU and which the simulator reports
//! at run time. The front end refuses such kernels with the analysis's locations.
//!
//! A value is divergent when it depends on the thread's position (`rk.thread_id`, a warp's
//! lane), on a warp exchange or an atomic's result, on a load through a divergent address or
//! from the thread's own memory that a divergent value was stored to, on a slot written with
//! a divergent value or under divergent control, or on an `rk.if` or `rk.loop` whose choice
//! is divergent. Control is divergent inside an `rk.if` with a divergent condition, inside a
//! loop that some threads may leave (or restart) at other iterations than others, and after a
//! `rk.return` under divergent control. Memory the threads share (shared arrays, parameters)
//! read at a uniform address is taken to be uniform: a kernel without data races reads the
//! same value in every thread there. Where the analysis cannot tell, it calls the value
//! uniform, so that only kernels whose barriers are certainly reached by some threads and not
//! others are refused.
//!
//! One comparison is taken as uniform on purpose: the thread's position (an *index*: computed
//! from `thread_id` or the lane by arithmetic alone, also through slots) against a uniform
//! value that is not a constant (`i < n`, `i < out.len()`, `t < block_dim_x() / 2`). That is
//! the guard of nearly every kernel, and it is the same in every thread of a block whenever the
//! launch's sizes cover whole blocks, which the compiler cannot know; the simulator checks such
//! launches at run time. Against a constant (`t < 128`, `lane == 0`), or data that differs
//! between threads (`k < data[t]`), the comparison is divergent.

use crate::ir::{Func, Geometry, Loc, Op, OpKind, Region, ValueId};
use std::collections::HashMap;

/// Why a barrier is reached by some threads of a block and not by others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Divergence {
    /// Inside an `if` whose condition differs between threads (at `Loc`).
    Condition(Loc),
    /// Inside a loop that threads leave at different iterations: the exit (or `continue`)
    /// under a divergent condition is at `Loc`.
    Loop(Loc),
    /// After a `return` under a divergent condition (at `Loc`): the threads that returned
    /// never arrive.
    Return(Loc),
}

impl Divergence {
    /// Where the divergence comes from.
    pub fn loc(self) -> Loc {
        match self {
            Divergence::Condition(l) | Divergence::Loop(l) | Divergence::Return(l) => l,
        }
    }
}

/// A barrier that divergent control flow reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DivergentBarrier {
    pub barrier: Loc,
    pub why: Divergence,
}

/// The barriers of `func` (inlined: calls are not followed) that divergent control reaches,
/// each source location once, in program order.
pub fn divergent_barriers(func: &Func) -> Vec<DivergentBarrier> {
    let mut a = Analysis::default();
    // The facts only grow; a few rounds reach the fixed point (each round can carry
    // divergence through one more slot, local or loop).
    loop {
        let before = a.size();
        a.region(&func.body, None, &mut Vec::new(), &mut None);
        if a.size() == before {
            break;
        }
    }
    a.reporting = true;
    a.region(&func.body, None, &mut Vec::new(), &mut None);
    a.found
}

/// An enclosing loop during the walk.
struct Frame {
    /// The loop op's address, the key of [`Analysis::loops`].
    key: usize,
    /// Whether the loop's body runs once (it ends in a `break` and nothing continues it): an
    /// inlined call, or a labelled block. Threads that leave it early skip only the rest of
    /// its body, as after a `return`, not iterations.
    once: bool,
    /// For a loop that runs once: where threads left it under divergent control, in this walk.
    left: Option<Loc>,
}

#[derive(Default)]
struct Analysis {
    /// Divergent values (slots included: a slot's value is divergent).
    values: Vec<bool>,
    /// For each pointer into a thread's own memory (`rk.local`), the local it points into.
    roots: HashMap<ValueId, ValueId>,
    /// Locals a divergent value was stored to.
    locals: Vec<ValueId>,
    /// Values computed from constants alone.
    constants: Vec<bool>,
    /// Divergent values (and slots) that are not indices: they come from memory, an atomic, a
    /// warp exchange, or a slot written under divergent control.
    data: Vec<bool>,
    /// Loops (by their position in the walk, as an op address) that threads leave at
    /// different iterations, with the divergent exit's location.
    loops: HashMap<usize, Loc>,
    reporting: bool,
    found: Vec<DivergentBarrier>,
}

impl Analysis {
    fn size(&self) -> usize {
        let count = |v: &Vec<bool>| v.iter().filter(|d| **d).count();
        count(&self.values) + count(&self.data) + self.locals.len() + self.loops.len()
    }

    /// Whether `v` is the thread's position computed by arithmetic (see the module's
    /// documentation).
    fn index(&self, v: ValueId) -> bool {
        self.is(v) && !self.data.get(v.0 as usize).copied().unwrap_or(false)
    }

    fn mark_data(&mut self, v: ValueId) {
        set(&mut self.data, v);
    }

    fn is(&self, v: ValueId) -> bool {
        self.values.get(v.0 as usize).copied().unwrap_or(false)
    }

    fn constant(&self, v: ValueId) -> bool {
        self.constants.get(v.0 as usize).copied().unwrap_or(false)
    }

    fn mark(&mut self, v: ValueId) {
        set(&mut self.values, v);
    }

    /// Walks a region under `ctrl` (the divergent condition that control here depends on, if
    /// any). `loops` holds the enclosing loops' keys, innermost last; `returned` is set by a
    /// `rk.return` under divergent control and stays set for the rest of the walk.
    fn region(
        &mut self,
        region: &Region,
        ctrl: Option<Divergence>,
        loops: &mut Vec<Frame>,
        returned: &mut Option<Loc>,
    ) {
        for op in &region.ops {
            // A return under divergent control earlier in program order, or a divergent exit
            // from an enclosing loop that runs once: the threads that took it are gone from
            // here on.
            let left = loops.iter().find_map(|f| f.left);
            let ctrl = ctrl.or(returned.or(left).map(Divergence::Return));
            self.op(op, ctrl, loops, returned);
        }
    }

    fn op(
        &mut self,
        op: &Op,
        ctrl: Option<Divergence>,
        loops: &mut Vec<Frame>,
        returned: &mut Option<Loc>,
    ) {
        let any_operand = op.operands.iter().any(|v| self.is(*v));
        let folds = match &op.kind {
            OpKind::Const(_) => true,
            OpKind::Binary(_) | OpKind::Cmp(_) | OpKind::Cast | OpKind::Neg | OpKind::Not => {
                op.operands.iter().all(|v| self.constant(*v))
            }
            _ => false,
        };
        if folds && let Some(r) = op.results.first() {
            set(&mut self.constants, *r);
        }
        // Set by `rk.if` and `rk.loop` when a divergent result is not an index.
        let mut result_is_data = false;
        let divergent = match &op.kind {
            // A guard: see the module's documentation.
            OpKind::Cmp(_) => match (op.operands.first(), op.operands.get(1)) {
                (Some(a), Some(b)) => {
                    let bound = |x: &ValueId, y: &ValueId| {
                        self.index(*x) && !self.is(*y) && !self.constant(*y)
                    };
                    any_operand && !bound(a, b) && !bound(b, a)
                }
                _ => any_operand,
            },
            OpKind::Geometry(Geometry::ThreadId, _) => true,
            OpKind::Geometry(..) | OpKind::Const(_) => false,
            OpKind::Warp(_)
            | OpKind::Mma(_)
            | OpKind::LdMatrix(_)
            | OpKind::Wgmma { .. }
            | OpKind::Atomic(_)
            | OpKind::AtomicCas => true,
            OpKind::Local => {
                if let Some(r) = op.results.first() {
                    self.roots.insert(*r, *r);
                }
                false
            }
            OpKind::ElemPtr | OpKind::FieldPtr { .. } | OpKind::PtrOffset | OpKind::Cast => {
                if let (Some(p), Some(r)) = (op.operands.first(), op.results.first())
                    && let Some(root) = self.roots.get(p).copied()
                {
                    self.roots.insert(*r, root);
                }
                any_operand
            }
            OpKind::Load => {
                let from_divergent_local = op
                    .operands
                    .first()
                    .and_then(|p| self.roots.get(p))
                    .is_some_and(|root| self.locals.contains(root));
                any_operand || from_divergent_local
            }
            OpKind::Store => {
                // `rk.store value, pointer`: the thread's own memory keeps what it was given, and
                // an element chosen by a divergent index differs between threads.
                if let (Some(v), Some(p)) = (op.operands.first(), op.operands.get(1))
                    && let Some(root) = self.roots.get(p).copied()
                    && (self.is(*v) || self.is(*p) || ctrl.is_some())
                    && !self.locals.contains(&root)
                {
                    self.locals.push(root);
                }
                false
            }
            OpKind::Read => any_operand,
            OpKind::Write => {
                // `rk.write value, slot`.
                if let (Some(v), Some(slot)) = (op.operands.first(), op.operands.get(1))
                    && (self.is(*v) || ctrl.is_some())
                {
                    self.mark(*slot);
                    if ctrl.is_some() || !self.index(*v) {
                        self.mark_data(*slot);
                    }
                }
                false
            }
            OpKind::Barrier => {
                if self.reporting
                    && let Some(why) = ctrl
                    && !self.found.iter().any(|f| f.barrier == op.loc)
                {
                    self.found.push(DivergentBarrier { barrier: op.loc, why });
                }
                false
            }
            OpKind::If => {
                let cond = op.operands.first().is_some_and(|c| self.is(*c));
                let inner = ctrl.or(cond.then_some(Divergence::Condition(op.loc)));
                for r in &op.regions {
                    self.region(r, inner, loops, returned);
                }
                // A result differs when the arm taken does, or a yielded value does; it is an
                // index when the arm taken is the same for all and what it yields is an index.
                let mut values = Vec::new();
                for r in &op.regions {
                    if let Some(y) = r.ops.last().filter(|y| matches!(y.kind, OpKind::Yield)) {
                        values.extend(y.operands.iter().copied());
                    }
                }
                let (diverges, data) = self.carried(&values);
                if cond || data {
                    result_is_data = true;
                }
                cond || diverges
            }
            OpKind::Loop { .. } => {
                let key = op as *const Op as usize;
                loops.push(Frame { key, once: runs_once(op), left: None });
                let inner = ctrl.or(self.loops.get(&key).copied().map(Divergence::Loop));
                for r in &op.regions {
                    self.region(r, inner, loops, returned);
                }
                let left_early = loops.pop().is_some_and(|f| f.left.is_some());
                // The results come from breaks: they differ when a break's values do or when
                // threads leave at different iterations (an inlined call is a loop that
                // breaks once with the result, which keeps an index an index).
                let mut values = Vec::new();
                break_values(op, &mut values);
                let (diverges, data) = self.carried(&values);
                let leaves = self.loops.contains_key(&key) || left_early;
                if leaves || data {
                    result_is_data = true;
                }
                leaves || diverges
            }
            OpKind::Break { depth } | OpKind::Continue { depth } => {
                // Leaving or restarting a loop under divergent control makes that loop's
                // iterations differ between threads, and every loop between.
                if let Some(why) = ctrl {
                    let at = why.loc();
                    let n = loops.len();
                    for f in loops.iter_mut().skip(n.saturating_sub(*depth as usize + 1)) {
                        if f.once {
                            f.left.get_or_insert(at);
                        } else {
                            self.loops.entry(f.key).or_insert(at);
                        }
                    }
                }
                false
            }
            OpKind::Return => {
                if let Some(why) = ctrl {
                    let at = why.loc();
                    for f in loops.iter().filter(|f| !f.once) {
                        self.loops.entry(f.key).or_insert(at);
                    }
                    returned.get_or_insert(at);
                }
                false
            }
            _ => any_operand,
        };
        if divergent {
            // Arithmetic on indices (and uniform values) gives indices, and a slot read gives
            // what the slot holds; every other divergent result is data.
            let arithmetic = matches!(
                op.kind,
                OpKind::Geometry(..)
                    | OpKind::Binary(_)
                    | OpKind::Cast
                    | OpKind::Neg
                    | OpKind::Not
                    | OpKind::Warp(crate::ir::WarpOp::LaneId)
            ) && op.operands.iter().all(|v| !self.is(*v) || self.index(*v));
            let structured = matches!(op.kind, OpKind::If | OpKind::Loop { .. }) && !result_is_data;
            let read_index = matches!(op.kind, OpKind::Read)
                && op.operands.first().is_some_and(|s| self.index(*s));
            for r in &op.results {
                self.mark(*r);
                if !(arithmetic || read_index || structured) {
                    self.mark_data(*r);
                }
            }
        }
    }

    /// Whether any of `values` is divergent, and whether any divergent one is data.
    fn carried(&self, values: &[ValueId]) -> (bool, bool) {
        let diverges = values.iter().any(|v| self.is(*v));
        let data = values.iter().any(|v| self.is(*v) && !self.index(*v));
        (diverges, data)
    }
}

/// Sets a value's flag in a table indexed by value, growing it as needed.
fn set(flags: &mut Vec<bool>, v: ValueId) {
    let k = v.0 as usize;
    if flags.len() <= k {
        flags.resize(k + 1, false);
    }
    flags[k] = true;
}

/// Whether a loop's body runs once: it ends in a `break` of this loop, and no `continue`
/// restarts it.
fn runs_once(lp: &Op) -> bool {
    fn continues(region: &Region, depth: u32) -> bool {
        region.ops.iter().any(|op| match op.kind {
            OpKind::Continue { depth: d } => d == depth,
            OpKind::Loop { .. } => op.regions.iter().any(|r| continues(r, depth + 1)),
            _ => op.regions.iter().any(|r| continues(r, depth)),
        })
    }
    let ends_in_break = lp
        .regions
        .first()
        .and_then(|r| r.ops.last())
        .is_some_and(|last| matches!(last.kind, OpKind::Break { depth: 0 }));
    ends_in_break && !lp.regions.iter().any(|r| continues(r, 0))
}

/// The values the breaks of loop `lp` (at any depth of nesting, targeting it) carry.
fn break_values(lp: &Op, out: &mut Vec<ValueId>) {
    fn walk(region: &Region, depth: u32, out: &mut Vec<ValueId>) {
        for op in &region.ops {
            match op.kind {
                OpKind::Break { depth: d } if d == depth => out.extend(op.operands.iter().copied()),
                OpKind::Loop { .. } => op.regions.iter().for_each(|r| walk(r, depth + 1, out)),
                _ => op.regions.iter().for_each(|r| walk(r, depth, out)),
            }
        }
    }
    lp.regions.iter().for_each(|r| walk(r, 0, out));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_module;

    /// The kernel's divergent barriers as (barrier line, why), from rk text where `EXIT` is
    /// the value compared with the loop's counter to leave it and `GUARD` the value that the
    /// `if` around the second barrier tests.
    fn found(exit: &str, guard: &str) -> Vec<(u32, Divergence)> {
        let text = r#"rk.func @k(out %0: *mut [u32; 64]) kernel {
  %1 = rk.thread_id x : u32
  %2 = rk.var : u32
  %3 = rk.const 32 : u32
  rk.write %3, %2 : u32
  %10 = rk.local : *mut [u32; 1]
  %11 = rk.const 0 : usize
  %12 = rk.elem_ptr %10, %11 : *mut [u32; 1] to *mut u32
  rk.store %1, %12 : *mut u32
  %13 = rk.load %12 : *mut u32
  rk.loop {
    %4 = rk.read %2 : u32
    %5 = rk.const 0 : u32
    %6 = rk.cmp eq %4, EXIT : u32
    rk.if %6 {
      rk.break
    } else {
    }
    %7 = rk.cmp lt %1, %4 : u32
    rk.if %7 {
      rk.yield
    } else {
      rk.yield
    }
    rk.barrier
    %8 = rk.const 2 : u32
    %9 = rk.div %4, %8 : u32
    rk.write %9, %2 : u32
  }
  %14 = rk.cmp eq GUARD, %3 : u32
  rk.if %14 {
    rk.barrier
  } else {
  }
  rk.return
}
"#
        .replace("EXIT", exit)
        .replace("GUARD", guard);
        let mut m = parse_module(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        // The text has no locations for barriers: number them 1 and 2 in program order.
        fn number(region: &mut Region, next: &mut u32) {
            for op in &mut region.ops {
                if op.kind == OpKind::Barrier {
                    *next += 1;
                    op.loc = Loc { line: *next, col: 5 };
                }
                for r in &mut op.regions {
                    number(r, next);
                }
            }
        }
        number(&mut m.funcs[0].body, &mut 0);
        divergent_barriers(&m.funcs[0]).into_iter().map(|b| (b.barrier.line, b.why)).collect()
    }

    /// A loop whose trip count all threads share, with a thread-dependent `if` beside the
    /// barrier (a tree reduction's shape), and an `if` on a block-wide value: nothing found.
    /// Nor when the loop ends by comparing the thread's index with a uniform counter: a guard,
    /// uniform when the launch covers whole blocks.
    #[test]
    fn uniform_loops_conditions_and_guards_are_accepted() {
        assert_eq!(found("%5", "%3"), vec![]);
        assert_eq!(found("%1", "%3"), vec![]);
    }

    /// An inlined call (a loop that runs once) that some threads leave early: what it wrote
    /// before the early exit is the same for all, and only a barrier after the exit inside it
    /// is divergent.
    #[test]
    fn an_early_exit_from_a_call_poisons_only_what_follows_it() {
        let text = |inside: &str| {
            format!(
                r#"rk.func @k(out %0: *mut [u32; 64]) kernel {{
  %1 = rk.thread_id x : u32
  %2 = rk.const 3 : u32
  %5 = rk.var : u32
  rk.loop {{
    rk.write %2, %5 : u32
    %4 = rk.cmp lt %1, %2 : u32
    rk.if %4 {{
      rk.break
    }} else {{
    }}
    {inside}
    rk.break
  }}
  rk.loop {{
    %6 = rk.read %5 : u32
    %7 = rk.cmp eq %6, %2 : u32
    rk.if %7 {{
      rk.break
    }} else {{
    }}
    rk.barrier
  }}
  rk.return
}}
"#
            )
        };
        let run = |inside: &str| {
            let t = text(inside);
            let m = parse_module(&t).unwrap_or_else(|e| panic!("{e}\n{t}"));
            divergent_barriers(&m.funcs[0]).into_iter().map(|b| b.why).collect::<Vec<_>>()
        };
        assert_eq!(run(""), vec![]);
        let inside = run("rk.barrier");
        assert!(matches!(inside.as_slice(), [Divergence::Return(_)]), "{inside:?}");
    }

    /// Leaving the loop by a test on data that differs between threads (here read back from
    /// the thread's own memory) makes its barrier divergent; so does that value in the `if`.
    #[test]
    fn thread_dependent_exits_and_values_through_memory_are_found() {
        let exits = found("%13", "%3");
        assert_eq!(exits.len(), 1, "{exits:?}");
        assert!(matches!(exits[0], (1, Divergence::Loop(_))), "{exits:?}");
        let through_memory = found("%5", "%13");
        assert_eq!(through_memory.len(), 1, "{through_memory:?}");
        assert!(matches!(through_memory[0], (2, Divergence::Condition(_))), "{through_memory:?}");
    }
}
