//! `expand_async_copies`: each `rk.copy_async` becomes the loads and stores of its 32-bit
//! words, and `rk.async_commit` and `rk.async_wait` go away, for the targets without
//! asynchronous copies (AMD GPUs, NVIDIA GPUs before sm_80, the host image). The copy then
//! happens at once, which is what the interpreter and the simulator do. Word accesses are
//! aligned because `cp.async` requires addresses aligned to the copy's size, 4 bytes or more.

use crate::ir::{Literal, Op, OpKind, ValueId};
use crate::{Func, IntTy, Module, Type};

/// Expands every asynchronous copy of the module; returns how many ops it rewrote.
pub fn expand_async_copies(module: &mut Module) -> usize {
    super::rewrite_ops(module, &mut |func, ops, op| match op.kind {
        OpKind::CopyAsync => {
            copy_words(func, ops, op);
            true
        }
        OpKind::AsyncCommit | OpKind::AsyncWait { .. } => true,
        _ => false,
    })
}

/// Whether the module has an asynchronous copy, commit or wait.
pub fn has_async_copies(module: &Module) -> bool {
    super::any_op(module, &|op| {
        matches!(op.kind, OpKind::CopyAsync | OpKind::AsyncCommit | OpKind::AsyncWait { .. })
    })
}

fn copy_words(func: &mut Func, ops: &mut Vec<Op>, copy: &Op) {
    let loc = copy.loc;
    let mut push = |func: &mut Func, kind: OpKind, operands: Vec<ValueId>, ty: Option<Type>| {
        let results = ty.map(|t| vec![func.new_value(t)]).unwrap_or_default();
        let r = results.first().copied();
        ops.push(Op { kind, operands, results, regions: vec![], loc });
        r
    };
    let (dst, src) = (copy.operands[0], copy.operands[1]);
    let size = func.ty(dst).and_then(Type::pointee).map_or(0, Type::size_of);
    let word = Type::Int(IntTy::U32);
    let d = push(func, OpKind::Cast, vec![dst], Some(Type::ptr(true, word.clone())));
    let s = push(func, OpKind::Cast, vec![src], Some(Type::ptr(false, word.clone())));
    let (Some(d), Some(s)) = (d, s) else { return };
    for k in 0..size / 4 {
        let at = push(func, OpKind::Const(Literal::Int(u128::from(k))), vec![], Some(Type::USIZE));
        let Some(at) = at else { return };
        let sp = push(func, OpKind::PtrOffset, vec![s, at], Some(Type::ptr(false, word.clone())));
        let dp = push(func, OpKind::PtrOffset, vec![d, at], Some(Type::ptr(true, word.clone())));
        let (Some(sp), Some(dp)) = (sp, dp) else { return };
        let x = push(func, OpKind::Load, vec![sp], Some(word.clone()));
        let Some(x) = x else { return };
        push(func, OpKind::Store, vec![x, dp], None);
    }
}
