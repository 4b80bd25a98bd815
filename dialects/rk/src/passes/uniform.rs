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

#[derive(Default)]
struct Analysis {
    /// Divergent values (slots included: a slot's value is divergent).
    values: Vec<bool>,
    /// For each pointer into a thread's own memory (`rk.local`), the local it points into.
    roots: HashMap<ValueId, ValueId>,
    /// Locals a divergent value was stored to.
    locals: Vec<ValueId>,
    /// Loops (by their position in the walk, as an op address) that threads leave at
    /// different iterations, with the divergent exit's location.
    loops: HashMap<usize, Loc>,
    reporting: bool,
    found: Vec<DivergentBarrier>,
}

impl Analysis {
    fn size(&self) -> usize {
        self.values.iter().filter(|d| **d).count() + self.locals.len() + self.loops.len()
    }

    fn is(&self, v: ValueId) -> bool {
        self.values.get(v.0 as usize).copied().unwrap_or(false)
    }

    fn mark(&mut self, v: ValueId) {
        let k = v.0 as usize;
        if self.values.len() <= k {
            self.values.resize(k + 1, false);
        }
        self.values[k] = true;
    }

    /// Walks a region under `ctrl` (the divergent condition that control here depends on, if
    /// any). `loops` holds the enclosing loops' keys, innermost last; `returned` is set by a
    /// `rk.return` under divergent control and stays set for the rest of the walk.
    fn region(
        &mut self,
        region: &Region,
        ctrl: Option<Divergence>,
        loops: &mut Vec<usize>,
        returned: &mut Option<Loc>,
    ) {
        for op in &region.ops {
            // A return under divergent control earlier in program order: the threads that
            // took it are gone from here on.
            let ctrl = ctrl.or(returned.map(Divergence::Return));
            self.op(op, ctrl, loops, returned);
        }
    }

    fn op(
        &mut self,
        op: &Op,
        ctrl: Option<Divergence>,
        loops: &mut Vec<usize>,
        returned: &mut Option<Loc>,
    ) {
        let any_operand = op.operands.iter().any(|v| self.is(*v));
        let divergent = match &op.kind {
            OpKind::Geometry(Geometry::ThreadId, _) => true,
            OpKind::Geometry(..) | OpKind::Const(_) => false,
            OpKind::Warp(_) | OpKind::Atomic(_) | OpKind::AtomicCas => true,
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
                // A result differs when the arm taken does, or a yielded value does.
                let yielded = op.regions.iter().any(|r| {
                    r.ops.last().is_some_and(|y| {
                        matches!(y.kind, OpKind::Yield) && y.operands.iter().any(|v| self.is(*v))
                    })
                });
                cond || yielded
            }
            OpKind::Loop { .. } => {
                let key = op as *const Op as usize;
                loops.push(key);
                let inner = ctrl.or(self.loops.get(&key).copied().map(Divergence::Loop));
                for r in &op.regions {
                    self.region(r, inner, loops, returned);
                }
                loops.pop();
                // The results come from breaks: they differ when a break's values do or when
                // threads leave at different iterations.
                self.loops.contains_key(&key) || self.break_values_diverge(op)
            }
            OpKind::Break { depth } | OpKind::Continue { depth } => {
                // Leaving or restarting a loop under divergent control makes that loop's
                // iterations differ between threads, and every loop between.
                if let Some(why) = ctrl {
                    let at = match why {
                        Divergence::Condition(l) | Divergence::Loop(l) | Divergence::Return(l) => l,
                    };
                    let n = loops.len();
                    for key in loops.iter().skip(n.saturating_sub(*depth as usize + 1)) {
                        self.loops.entry(*key).or_insert(at);
                    }
                }
                false
            }
            OpKind::Return => {
                if let Some(why) = ctrl {
                    let at = match why {
                        Divergence::Condition(l) | Divergence::Loop(l) | Divergence::Return(l) => l,
                    };
                    for key in loops.iter() {
                        self.loops.entry(*key).or_insert(at);
                    }
                    returned.get_or_insert(at);
                }
                false
            }
            _ => any_operand,
        };
        if divergent {
            for r in &op.results {
                self.mark(*r);
            }
        }
    }

    /// Whether a break of this loop (at any depth of nesting, targeting it) carries a
    /// divergent value.
    fn break_values_diverge(&self, lp: &Op) -> bool {
        fn walk(a: &Analysis, region: &Region, depth: u32) -> bool {
            region.ops.iter().any(|op| match op.kind {
                OpKind::Break { depth: d } if d == depth => {
                    op.operands.iter().any(|v| a.is(*v))
                }
                OpKind::Loop { .. } => op.regions.iter().any(|r| walk(a, r, depth + 1)),
                _ => op.regions.iter().any(|r| walk(a, r, depth)),
            })
        }
        lp.regions.iter().any(|r| walk(self, r, 0))
    }
}
