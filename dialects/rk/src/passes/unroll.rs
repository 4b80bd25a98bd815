//! Marks the loops that step through a small thread-private array `unroll` (see
//! [`LoopHint::Unroll`]), so that the back ends unroll them completely.
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
//! hint asks LLVM for a complete unrolling, which it does only when the trip count is a
//! constant, so a loop bounded by a parameter is left as it was.
//!
//! Only arrays of at most [`PRIVATE_LIMIT`] bytes count: a larger one cannot live in the 255
//! registers a thread has, and unrolling the loops over it would only grow the code.

use crate::ir::{Func, LoopHint, Op, OpKind, Region, ValueId};
use crate::types::Type;
use std::collections::HashSet;

/// The largest thread-private array, in bytes, whose loops are unrolled: 128 32-bit registers,
/// half of what a thread can have.
pub const PRIVATE_LIMIT: u64 = 512;

/// Marks the loops of every function that step through a small private array; returns how
/// many it marked.
pub fn unroll_private_loops(module: &mut crate::Module) -> usize {
    module.funcs.iter_mut().map(unroll_func).sum()
}

fn unroll_func(func: &mut Func) -> usize {
    let mut private = HashSet::new();
    private_pointers(func, &func.body, &mut private);
    let mut body = std::mem::take(&mut func.body);
    let n = mark(&mut body, &private);
    func.body = body;
    n
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

fn mark(region: &mut Region, private: &HashSet<ValueId>) -> usize {
    let mut n = 0;
    for op in &mut region.ops {
        if op.kind == (OpKind::Loop { hint: LoopHint::Plain }) && steps_through(op, private) {
            op.kind = OpKind::Loop { hint: LoopHint::Unroll };
            n += 1;
        }
        for r in &mut op.regions {
            n += mark(r, private);
        }
    }
    n
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
