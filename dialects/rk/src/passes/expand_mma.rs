//! `expand_mma`: each `rk.mma` becomes warp shuffles and `f64` arithmetic that compute what
//! `rkc_simt::mma` defines, for the GPU targets without a warp matrix instruction (AMD GPUs,
//! NVIDIA GPUs before sm_80). The host image does not use it: its block functions compute each
//! `rk.mma` for the whole warp between stretches.
//!
//! Lane `l` (group `g = l / 4`, thread `t = l % 4` in it) produces the `D` elements of rows `g`
//! and `g + 8` and columns `2t` and `2t + 1`. It needs rows `g` and `g + 8` of `A`, which lanes
//! `4g .. 4g + 4` hold, and columns `2t` and `2t + 1` of `B`, which lanes `8t .. 8t + 8` hold:
//! 64 shuffles of the fragments' elements widened to `f32` (exact for both 16-bit types), each
//! element taken once. Then each output adds the sixteen products to `C` in `k`'s order, in
//! `f64`, and rounds once, exactly as the interpreter and the simulator do.

use crate::ir::{BinOp, Literal, Loc, Op, OpKind, ValueId, WarpOp};
use crate::{FloatTy, Func, Module, ShuffleMode, Type};
use rkc_simt::mma::{K, a_owner, b_owner, c_index};

/// Expands every `rk.mma` of the module; returns how many there were.
pub fn expand_mma(module: &mut Module) -> usize {
    super::rewrite_ops(module, &mut |func, ops, op| {
        if !matches!(op.kind, OpKind::Mma(_)) {
            return false;
        }
        Expander { func, ops, loc: op.loc }.expand(op);
        true
    })
}

/// Whether the module has an `rk.mma`.
pub fn has_mma(module: &Module) -> bool {
    super::any_op(module, &|op| matches!(op.kind, OpKind::Mma(_)))
}

struct Expander<'a> {
    func: &'a mut Func,
    ops: &'a mut Vec<Op>,
    loc: Loc,
}

impl Expander<'_> {
    fn push(&mut self, kind: OpKind, operands: Vec<ValueId>, ty: Type) -> ValueId {
        let r = self.func.new_value(ty);
        self.ops.push(Op { kind, operands, results: vec![r], regions: vec![], loc: self.loc });
        r
    }

    fn u32(&mut self, v: u32) -> ValueId {
        self.push(OpKind::Const(Literal::Int(u128::from(v))), vec![], Type::U32)
    }

    fn binary(&mut self, op: BinOp, a: ValueId, b: ValueId, ty: Type) -> ValueId {
        self.push(OpKind::Binary(op), vec![a, b], ty)
    }

    fn cast(&mut self, v: ValueId, ty: Type) -> ValueId {
        self.push(OpKind::Cast, vec![v], ty)
    }

    /// Element `v` (already `f32`) of lane `src`.
    fn shuffle(&mut self, v: ValueId, src: ValueId) -> ValueId {
        self.push(OpKind::Warp(WarpOp::Shuffle(ShuffleMode::Idx)), vec![v, src], Type::F32)
    }

    fn expand(&mut self, op: &Op) {
        let f64_ty = Type::Float(FloatTy::F64);
        // The fragments widened to f32: every lane shuffles the same element from its source.
        let wide: Vec<ValueId> =
            op.operands[..12].iter().map(|&v| self.cast(v, Type::F32)).collect();
        let (a, b) = wide.split_at(8);
        let lane = self.push(OpKind::Warp(WarpOp::LaneId), vec![], Type::U32);
        let group_mask = self.u32(0b11100);
        let group4 = self.binary(BinOp::And, lane, group_mask, Type::U32);
        let three = self.u32(3);
        let t = self.binary(BinOp::And, lane, three, Type::U32);
        let eight = self.u32(8);
        let t8 = self.binary(BinOp::Mul, t, eight, Type::U32);
        // Lane 0's view of the layout: the owner lanes' offsets from this lane's group (A) or
        // from `8t` (B) are the same for every lane, so each is a constant added at run time.
        // Rows `g` and `g + 8` of A, column by column.
        let mut rows = [[ValueId(0); K]; 2];
        for (hi, row) in rows.iter_mut().enumerate() {
            for (k, slot) in row.iter_mut().enumerate() {
                let (owner, element) = a_owner(hi * 8, k);
                let off = self.u32(owner as u32);
                let src = self.binary(BinOp::Or, group4, off, Type::U32);
                let x = self.shuffle(a[element], src);
                *slot = self.cast(x, f64_ty.clone());
            }
        }
        // Columns `2t` and `2t + 1` of B, row by row.
        let mut cols = [[ValueId(0); K]; 2];
        for (j, col) in cols.iter_mut().enumerate() {
            for (k, slot) in col.iter_mut().enumerate() {
                let (owner, element) = b_owner(k, j);
                let off = self.u32(owner as u32);
                let src = self.binary(BinOp::Add, t8, off, Type::U32);
                let x = self.shuffle(b[element], src);
                *slot = self.cast(x, f64_ty.clone());
            }
        }
        for (i, &result) in op.results.iter().enumerate() {
            // Lane 0's element `i` is at row 8·hi, column j: the same hi and j for every lane.
            let (row, j) = c_index(0, i);
            let hi = row / 8;
            let mut acc = self.cast(op.operands[12 + i], f64_ty.clone());
            for k in 0..K {
                let p = self.binary(BinOp::Mul, rows[hi][k], cols[j][k], f64_ty.clone());
                acc = self.binary(BinOp::Add, acc, p, f64_ty.clone());
            }
            self.ops.push(Op {
                kind: OpKind::Cast,
                operands: vec![acc],
                results: vec![result],
                regions: vec![],
                loc: self.loc,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owner_offsets_are_the_same_for_every_lane() {
        // The expansion computes lane 0's owners and adds them to `4g` (A) or `8t` (B).
        for lane in 0..crate::WARP_SIZE {
            let (g, t) = (lane / 4, lane % 4);
            for k in 0..K {
                for hi in 0..2 {
                    let (o0, e0) = a_owner(hi * 8, k);
                    assert_eq!(a_owner(g + hi * 8, k), ((4 * g) | o0, e0));
                }
                for j in 0..2 {
                    let (o0, e0) = b_owner(k, j);
                    assert_eq!(b_owner(k, 2 * t + j), (8 * t + o0, e0));
                }
            }
            for i in 0..4 {
                let (row, col) = c_index(lane, i);
                let (row0, col0) = c_index(0, i);
                assert_eq!((row, col), (g + row0, 2 * t + col0));
            }
        }
    }
}
