//! `expand_wgmma`: each `rk.wgmma` becomes loads of its tiles and `f64` arithmetic that
//! compute what `rkc_simt::wgmma` defines, and each `rk.wgmma_sync` goes, for every target
//! without Hopper's warpgroup instruction (every GPU target but sm_90a, and the host image).
//!
//! Thread `t` of the warpgroup (warp `w = t / 32`, lane group `g = (t % 32) / 4`, `q = t % 4`)
//! holds rows `16w + g` and `16w + g + 8` of `D` and columns `8j + 2q` and `8j + 2q + 1` of
//! each column block `j`. Its `A` elements of row `16w + g` are at `g * 8 + 2w * a_m` plus the
//! column's part, those of the row below `a_m` on; the `B` element of column `8j + 2q + e` is at
//! `2q + e + j * b_n` plus the row's part. A loop over `k` (sixteen times) loads the two `A`
//! elements and the `N / 4` `B` elements of row `k` and adds their products to the thread's
//! `N / 2` sums, kept in `f64` slots that start at `D`'s values: each sum adds the products in
//! `k`'s order and is rounded to `f32` once, after the loop, as the interpreter computes it.
//! With 128-byte swizzling the offsets are computed in bytes, as `rkc_simt::wgmma` defines
//! them, and each is swizzled (`o ^ (((o >> 7) & 7) << 4)`) before it becomes an element's.
//! The checks the front end makes before each `rk.wgmma` (whole warpgroups, aligned tiles,
//! strides) stay; the multiply itself reads memory through ordinary loads.

use crate::ir::{BinOp, CmpOp, Dim, Geometry, Literal, Loc, LoopHint, Op, OpKind, Region, ValueId};
use crate::{FloatTy, Func, Module, Type};
use rkc_simt::wgmma::Swizzle;

/// Expands every `rk.wgmma` and removes every `rk.wgmma_sync`; returns how many ops it
/// replaced.
pub fn expand_wgmma(module: &mut Module) -> usize {
    super::rewrite_ops(module, &mut |func, ops, op| match op.kind {
        OpKind::Wgmma { n, swizzle, .. } => {
            Expander { func, ops, loc: op.loc }.expand(op, n as usize, swizzle);
            true
        }
        OpKind::WgmmaSync(_) => true,
        _ => false,
    })
}

/// Whether the module has an `rk.wgmma` on swizzled tiles.
pub fn has_swizzled_wgmma(module: &Module) -> bool {
    super::any_op(module, &|op| matches!(op.kind, OpKind::Wgmma { swizzle: Swizzle::B128, .. }))
}

/// Whether the module has an `rk.wgmma` or an `rk.wgmma_sync`.
pub fn has_wgmma(module: &Module) -> bool {
    super::any_op(module, &|op| matches!(op.kind, OpKind::Wgmma { .. } | OpKind::WgmmaSync(_)))
}

/// Whether an op is or holds an `rk.wgmma`, at any depth (the versioning of the loops around
/// warpgroup multiplies, and the GPU lowering's in-place panics before them, ask this).
pub fn holds_wgmma(op: &crate::Op) -> bool {
    matches!(op.kind, OpKind::Wgmma { .. })
        || op.regions.iter().any(|r| r.ops.iter().any(holds_wgmma))
}

struct Expander<'a> {
    func: &'a mut Func,
    ops: &'a mut Vec<Op>,
    loc: Loc,
}

impl Expander<'_> {
    fn push(&mut self, kind: OpKind, operands: Vec<ValueId>, results: Vec<ValueId>) {
        self.ops.push(Op { kind, operands, results, regions: vec![], loc: self.loc });
    }

    /// An op with one result of type `ty`.
    fn value(&mut self, kind: OpKind, operands: Vec<ValueId>, ty: Type) -> ValueId {
        let r = self.func.new_value(ty);
        self.push(kind, operands, vec![r]);
        r
    }

    /// `rk.write %value, %slot`.
    fn write(&mut self, value: ValueId, slot: ValueId) {
        self.push(OpKind::Write, vec![value, slot], vec![]);
    }

    fn usize(&mut self, v: u64) -> ValueId {
        self.value(OpKind::Const(Literal::Int(u128::from(v))), vec![], Type::USIZE)
    }

    fn binary(&mut self, op: BinOp, a: ValueId, b: ValueId) -> ValueId {
        let ty = self.func.ty(a).cloned().unwrap_or(Type::USIZE);
        self.value(OpKind::Binary(op), vec![a, b], ty)
    }

    fn cast(&mut self, v: ValueId, ty: Type) -> ValueId {
        self.value(OpKind::Cast, vec![v], ty)
    }

    /// The thread's index in the block's linear order, as a `usize`.
    fn linear_thread(&mut self) -> ValueId {
        let [x, y, z, bx, by] = [
            (Geometry::ThreadId, Dim::X),
            (Geometry::ThreadId, Dim::Y),
            (Geometry::ThreadId, Dim::Z),
            (Geometry::BlockDim, Dim::X),
            (Geometry::BlockDim, Dim::Y),
        ]
        .map(|(g, d)| {
            let v = self.value(OpKind::Geometry(g, d), vec![], Type::U32);
            self.cast(v, Type::USIZE)
        });
        let zy = self.binary(BinOp::Mul, by, z);
        let yz = self.binary(BinOp::Add, y, zy);
        let row = self.binary(BinOp::Mul, bx, yz);
        self.binary(BinOp::Add, x, row)
    }

    /// An element of a tile at `base + offset` widened to `f64`.
    fn element(&mut self, base: ValueId, offset: ValueId) -> ValueId {
        let ptr_ty = self.func.ty(base).cloned().unwrap_or(Type::USIZE);
        let elem = ptr_ty.pointee().cloned().unwrap_or(Type::Float(FloatTy::F16));
        let at = self.value(OpKind::PtrOffset, vec![base, offset], ptr_ty);
        let x = self.value(OpKind::Load, vec![at], elem);
        self.cast(x, Type::Float(FloatTy::F64))
    }

    /// The element offset of a byte offset in a swizzled tile.
    fn swizzled(&mut self, o: ValueId) -> ValueId {
        let (c7, c4, c1) = (self.usize(7), self.usize(4), self.usize(1));
        let row = self.binary(BinOp::Shr, o, c7);
        let row = self.binary(BinOp::And, row, c7);
        let flip = self.binary(BinOp::Shl, row, c4);
        let phys = self.binary(BinOp::Xor, o, flip);
        self.binary(BinOp::Shr, phys, c1)
    }

    fn expand(&mut self, op: &Op, n: usize, swizzle: Swizzle) {
        let f64_ty = Type::Float(FloatTy::F64);
        let [a, a_k, a_m, b, b_k, b_n] = [0, 1, 2, 3, 4, 5].map(|i| op.operands[i]);
        let linear = self.linear_thread();
        let c127 = self.usize(127);
        let t = self.binary(BinOp::And, linear, c127);
        let c5 = self.usize(5);
        let w = self.binary(BinOp::Shr, t, c5);
        let c31 = self.usize(31);
        let lane = self.binary(BinOp::And, t, c31);
        let c2 = self.usize(2);
        let g = self.binary(BinOp::Shr, lane, c2);
        let c3 = self.usize(3);
        let q = self.binary(BinOp::And, lane, c3);
        // Row 16w + g: its core-matrix row g, row group 2w (elements); with swizzling, row g
        // of atom 2w (bytes).
        let c8 = self.usize(8);
        let sw = swizzle == Swizzle::B128;
        let row_unit = self.usize(if sw { 128 } else { 8 });
        let g8 = self.binary(BinOp::Mul, g, row_unit);
        let w2 = self.binary(BinOp::Mul, w, c2);
        let a_m = if sw { self.binary(BinOp::Mul, a_m, c2) } else { a_m };
        let groups = self.binary(BinOp::Mul, w2, a_m);
        let a_row0 = self.binary(BinOp::Add, g8, groups);
        let a_row1 = self.binary(BinOp::Add, a_row0, a_m);
        let q_unit = self.usize(if sw { 4 } else { 2 });
        let q2 = self.binary(BinOp::Mul, q, q_unit);
        // The sums, starting at D's values.
        let mut sums = Vec::with_capacity(n / 2);
        for &d in &op.operands[6..] {
            let wide = self.cast(d, f64_ty.clone());
            let slot = self.value(OpKind::Var, vec![], Type::slot(f64_ty.clone()));
            self.write(wide, slot);
            sums.push(slot);
        }
        let zero = self.usize(0);
        let k_slot = self.value(OpKind::Var, vec![], Type::slot(Type::USIZE));
        self.write(zero, k_slot);
        // The loop's body, built in its own list of ops.
        let outer = std::mem::take(self.ops);
        let k = self.value(OpKind::Read, vec![k_slot], Type::USIZE);
        let c16 = self.usize(16);
        let done = self.value(OpKind::Cmp(CmpOp::Ge), vec![k, c16], Type::Bool);
        self.ops.push(Op {
            kind: OpKind::If,
            operands: vec![done],
            results: vec![],
            regions: vec![
                Region {
                    ops: vec![Op {
                        kind: OpKind::Break { depth: 0 },
                        operands: vec![],
                        results: vec![],
                        regions: vec![],
                        loc: self.loc,
                    }],
                },
                Region { ops: vec![] },
            ],
            loc: self.loc,
        });
        // Column k of A is at (k % 8) + (k / 8) * a_k; row k of B at (k % 8) * 8 + (k / 8) * b_k.
        // With swizzling, in bytes: column k of A at 2 (a_k0 + k), row k of B at
        // (k % 8) * 128 + (k / 8) * 2 b_k.
        let c7 = self.usize(7);
        let k_lo = self.binary(BinOp::And, k, c7);
        let k_hi = self.binary(BinOp::Shr, k, c3);
        let (a_col, b_row) = if sw {
            let k0 = self.binary(BinOp::Add, a_k, k);
            let a_col = self.binary(BinOp::Mul, k0, c2);
            let c128 = self.usize(128);
            let b_lo = self.binary(BinOp::Mul, k_lo, c128);
            let b_k2 = self.binary(BinOp::Mul, b_k, c2);
            let b_hi = self.binary(BinOp::Mul, k_hi, b_k2);
            (a_col, self.binary(BinOp::Add, b_lo, b_hi))
        } else {
            let a_hi = self.binary(BinOp::Mul, k_hi, a_k);
            let a_col = self.binary(BinOp::Add, k_lo, a_hi);
            let b_lo = self.binary(BinOp::Mul, k_lo, c8);
            let b_hi = self.binary(BinOp::Mul, k_hi, b_k);
            (a_col, self.binary(BinOp::Add, b_lo, b_hi))
        };
        let at = |me: &mut Self, o: ValueId| if sw { me.swizzled(o) } else { o };
        let at0 = self.binary(BinOp::Add, a_row0, a_col);
        let at0 = at(self, at0);
        let x0 = self.element(a, at0);
        let at1 = self.binary(BinOp::Add, a_row1, a_col);
        let at1 = at(self, at1);
        let x1 = self.element(a, at1);
        let b_thread = self.binary(BinOp::Add, b_row, q2);
        for j in 0..n / 8 {
            // Column block j: 8j columns on (elements); with swizzling, 16 (j % 8) bytes into
            // the 64-column block j / 8, which is b_n elements on.
            let block = if sw {
                let within = self.usize(16 * (j as u64 % 8));
                let jv = self.usize(j as u64 / 8);
                let b_n2 = self.binary(BinOp::Mul, b_n, c2);
                let across = self.binary(BinOp::Mul, jv, b_n2);
                self.binary(BinOp::Add, within, across)
            } else {
                let jv = self.usize(j as u64);
                self.binary(BinOp::Mul, jv, b_n)
            };
            let col = self.binary(BinOp::Add, b_thread, block);
            for e in 0..2 {
                let ev = self.usize(if sw { 2 * e as u64 } else { e as u64 });
                let o = self.binary(BinOp::Add, col, ev);
                let o = at(self, o);
                let y = self.element(b, o);
                // Element 4j + e is row 16w + g, element 4j + 2 + e the row 8 below.
                for (i, x) in [(4 * j + e, x0), (4 * j + 2 + e, x1)] {
                    let p = self.value(OpKind::Binary(BinOp::Mul), vec![x, y], f64_ty.clone());
                    let s = self.value(OpKind::Read, vec![sums[i]], f64_ty.clone());
                    let sum = self.value(OpKind::Binary(BinOp::Add), vec![s, p], f64_ty.clone());
                    self.write(sum, sums[i]);
                }
            }
        }
        let c1 = self.usize(1);
        let next = self.binary(BinOp::Add, k, c1);
        self.write(next, k_slot);
        let body = std::mem::replace(self.ops, outer);
        self.ops.push(Op {
            kind: OpKind::Loop { hint: LoopHint::Plain },
            operands: vec![],
            results: vec![],
            regions: vec![Region { ops: body }],
            loc: self.loc,
        });
        for (&slot, &result) in sums.iter().zip(&op.results) {
            let s = self.value(OpKind::Read, vec![slot], f64_ty.clone());
            self.push(OpKind::Cast, vec![s], vec![result]);
        }
    }
}
