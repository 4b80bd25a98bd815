//! `expand_ldmatrix`: each `rk.ldmatrix` becomes the loads of the lane's fragment elements,
//! one by one, for the targets without `ldmatrix` (AMD GPUs, NVIDIA GPUs before sm_80 in rkc's
//! grouping, the host image): the elements the instruction would give each lane, which is
//! what the interpreter and the simulator load.

use crate::ir::{BinOp, Literal, MatrixOperand, Op, OpKind, ValueId, WarpOp};
use crate::{Func, Loc, Module, Type};

/// Expands every `rk.ldmatrix` of the module; returns how many there were.
pub fn expand_ldmatrix(module: &mut Module) -> usize {
    super::rewrite_ops(module, &mut |func, ops, op| {
        let OpKind::LdMatrix(m) = op.kind else { return false };
        Loads { func, ops, loc: op.loc }.expand(m, op);
        true
    })
}

/// Whether the module has an `rk.ldmatrix`.
pub fn has_ldmatrix(module: &Module) -> bool {
    super::any_op(module, &|op| matches!(op.kind, OpKind::LdMatrix(_)))
}

struct Loads<'a> {
    func: &'a mut Func,
    ops: &'a mut Vec<Op>,
    loc: Loc,
}

impl Loads<'_> {
    fn push(&mut self, kind: OpKind, operands: Vec<ValueId>, ty: Type) -> ValueId {
        let r = self.func.new_value(ty);
        self.ops.push(Op { kind, operands, results: vec![r], regions: vec![], loc: self.loc });
        r
    }

    fn usize(&mut self, v: usize) -> ValueId {
        self.push(OpKind::Const(Literal::Int(v as u128)), vec![], Type::USIZE)
    }

    fn binary(&mut self, op: BinOp, a: ValueId, b: ValueId) -> ValueId {
        self.push(OpKind::Binary(op), vec![a, b], Type::USIZE)
    }

    /// `base + k`, where `k` is a constant, folded away when it is zero.
    fn plus(&mut self, base: ValueId, k: usize) -> ValueId {
        if k == 0 {
            return base;
        }
        let k = self.usize(k);
        self.binary(BinOp::Add, base, k)
    }

    fn expand(&mut self, m: MatrixOperand, op: &Op) {
        let (tile, stride) = (op.operands[0], op.operands[1]);
        let Some(tile_ty) = self.func.ty(tile).cloned() else { return };
        let lane32 = self.push(OpKind::Warp(WarpOp::LaneId), vec![], Type::U32);
        let lane = self.push(OpKind::Cast, vec![lane32], Type::USIZE);
        // `lane / 4` and `lane % 4` as a shift and a mask: an integer division is a panic site
        // (division by zero), and this expansion runs after the kernel's panic sites are
        // numbered for its metadata, so it must add none.
        let two = self.usize(2);
        let g = self.binary(BinOp::Shr, lane, two);
        let three = self.usize(3);
        let t = self.binary(BinOp::And, lane, three);
        let t2 = self.binary(BinOp::Mul, t, two);
        // Lane 0's element `i` is at (row0, col0); lane `l`'s is offset by its group `g` and
        // thread `t`: rows by `g` and columns by `2t` in `A`, rows by `2t` and columns by `g`
        // in `B`.
        let (row_base, col_base) = match m {
            MatrixOperand::A => (g, t2),
            MatrixOperand::B => (t2, g),
        };
        for (i, &result) in op.results.iter().enumerate() {
            let (row0, col0) = m.element(0, i);
            let row = self.plus(row_base, row0);
            let col = self.plus(col_base, col0);
            let scaled = self.binary(BinOp::Mul, row, stride);
            let index = self.binary(BinOp::Add, scaled, col);
            let at = self.push(OpKind::PtrOffset, vec![tile, index], tile_ty.clone());
            self.ops.push(Op {
                kind: OpKind::Load,
                operands: vec![at],
                results: vec![result],
                regions: vec![],
                loc: self.loc,
            });
        }
    }
}
