//! Per-parameter access analysis: what a kernel does through each pointer parameter, for the
//! fat binary's metadata, so that the runtime copies only what it must (a `*mut` that is
//! never written is not copied back; an unused pointer is not copied at all).
//!
//! A pointer derived from a parameter (`rk.ptr_offset`, `rk.elem_ptr`, `rk.field_ptr`) counts as the
//! parameter. Any other use of such a pointer (yielded out of an `rk.if`, passed to a call)
//! is an escape, and the parameter is then taken to be read and written, as far as its type
//! allows. "Fully overwritten" is never claimed: whether every element is written depends on
//! the launch shape, which the compiler does not know.

use crate::ir::{Func, OpKind, Region, ValueId};
use crate::types::Type;
use std::collections::HashMap;

/// What a kernel does through one parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamAccess {
    Unused,
    Read,
    Write,
    ReadWrite,
}

impl ParamAccess {
    fn join(self, other: ParamAccess) -> ParamAccess {
        use ParamAccess::*;
        match (self, other) {
            (Unused, x) | (x, Unused) => x,
            (Read, Read) => Read,
            (Write, Write) => Write,
            _ => ReadWrite,
        }
    }
}

/// The access of every parameter of `func` (scalars are `Read` when used, `Unused` when not).
pub fn access_of_params(func: &Func) -> Vec<ParamAccess> {
    // Which parameter each pointer value derives from.
    let mut origin: HashMap<ValueId, usize> = HashMap::new();
    for (k, p) in func.params.iter().enumerate() {
        origin.insert(p.value, k);
    }
    let mut access = vec![ParamAccess::Unused; func.params.len()];
    walk(func, &func.body, &mut origin, &mut access);
    for (k, p) in func.params.iter().enumerate() {
        // A `*const` can only be read through, whatever the analysis saw.
        if let Some(Type::Ptr { mutable: false, .. } | Type::Slice { mutable: false, .. }) =
            func.ty(p.value)
            && access[k] != ParamAccess::Unused
        {
            access[k] = ParamAccess::Read;
        }
    }
    access
}

fn walk(
    func: &Func,
    region: &Region,
    origin: &mut HashMap<ValueId, usize>,
    access: &mut [ParamAccess],
) {
    for op in &region.ops {
        let mut mark = |v: ValueId, a: ParamAccess| {
            if let Some(&k) = origin.get(&v) {
                access[k] = access[k].join(a);
            }
        };
        match &op.kind {
            OpKind::PtrOffset | OpKind::ElemPtr | OpKind::FieldPtr { .. } | OpKind::SlicePtr => {
                if let (Some(&k), Some(r)) =
                    (op.operands.first().and_then(|p| origin.get(p)), op.results.first())
                {
                    origin.insert(*r, k);
                }
                // The index operand is a scalar; a pointer cannot be one.
            }
            OpKind::Load | OpKind::LdMatrix(_) => mark(op.operands[0], ParamAccess::Read),
            OpKind::Wgmma { .. } => {
                mark(op.operands[0], ParamAccess::Read);
                mark(op.operands[3], ParamAccess::Read);
            }
            OpKind::CopyAsync => {
                mark(op.operands[0], ParamAccess::Write);
                mark(op.operands[1], ParamAccess::Read);
            }
            // The length is not data behind the pointer.
            OpKind::SliceLen => {}
            OpKind::Store => {
                mark(op.operands[1], ParamAccess::Write);
                // Storing a pointer's value somewhere is an escape of it.
                mark(op.operands[0], ParamAccess::ReadWrite);
            }
            _ => {
                for v in &op.operands {
                    let is_pointer = func.ty(*v).is_some_and(|t| t.pointee().is_some());
                    mark(*v, if is_pointer { ParamAccess::ReadWrite } else { ParamAccess::Read });
                }
            }
        }
        for r in &op.regions {
            walk(func, r, origin, access);
        }
    }
}

/// For each parameter, where the kernel first offsets it past its pointee, if it does: a
/// `rk.ptr_offset` by anything but a constant 0 applied to the parameter itself or to a pointer
/// offset from it. A raw pointer argument maps one pointee (upstream's `size_of::<T>()`
/// bytes), so such a kernel reads or writes memory a one-element mapping does not hold; the
/// runtime refuses that launch instead of letting the kernel run off the copy. Only offsets
/// that certainly step over the pointee count: a pointer that escapes (a yield, a store) is not
/// followed, so the answer is `None` where the analysis cannot tell.
pub fn offsets_past_pointee(func: &Func) -> Vec<Option<crate::ir::Loc>> {
    let mut origin: HashMap<ValueId, usize> = HashMap::new();
    for (k, p) in func.params.iter().enumerate() {
        if matches!(func.ty(p.value), Some(Type::Ptr { .. })) {
            origin.insert(p.value, k);
        }
    }
    let mut zero = std::collections::HashSet::new();
    let mut found = vec![None; func.params.len()];
    offsets_in(&func.body, &mut origin, &mut zero, &mut found);
    found
}

fn offsets_in(
    region: &Region,
    origin: &mut HashMap<ValueId, usize>,
    zero: &mut std::collections::HashSet<ValueId>,
    found: &mut [Option<crate::ir::Loc>],
) {
    for op in &region.ops {
        match &op.kind {
            OpKind::Const(crate::ir::Literal::Int(0)) => {
                zero.extend(op.results.first().copied());
            }
            OpKind::PtrOffset => {
                if let (Some(&k), Some(r)) =
                    (op.operands.first().and_then(|p| origin.get(p)), op.results.first())
                {
                    origin.insert(*r, k);
                    let by_zero = op.operands.get(1).is_some_and(|n| zero.contains(n));
                    if !by_zero && found[k].is_none() {
                        found[k] = Some(op.loc);
                    }
                }
            }
            _ => {}
        }
        for r in &op.regions {
            offsets_in(r, origin, zero, found);
        }
    }
}
