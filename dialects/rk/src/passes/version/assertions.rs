//! The assertions loop versioning proves with a loop's bounds checks (see the module comment
//! of `version`): conditions invariant in the loop, and tests of an expression's zero bits,
//! decided by its low bits (`low_bits`) and its range.

use super::{Context, Def, Induction, Proof, Scope};
use crate::ir::{BinOp, CmpOp, Func, OpKind, Region, ValueId};
use crate::types::Type;

impl Context<'_> {
    /// Adds to the proof that the assertion on `cond` holds in every iteration; `None` when it
    /// cannot: `cond` invariant, or `x == 0` with `x` zero in every iteration (see
    /// `prove_zero`).
    pub(super) fn prove_assert(
        &mut self,
        proof: &mut Proof,
        scope: &Scope,
        inds: &[Induction],
        cond: ValueId,
    ) -> Option<()> {
        if self.invariant(cond, scope) {
            let ok = self.materialise(proof, scope, cond)?;
            proof.conditions.push(ok);
            return Some(());
        }
        let Some(Def { kind: OpKind::Cmp(CmpOp::Eq), operands }) = self.defs.get(&cond).cloned()
        else {
            return None;
        };
        match operands.as_slice() {
            [x, z] | [z, x] if self.constant(*z) == Some(0) => {
                self.prove_zero(proof, scope, inds, *x)
            }
            _ => None,
        }
    }

    /// Adds to the proof that the unsigned `x` is zero in every iteration: a constant zero, an
    /// invariant value, an `|` of such, or `e & C` where `C`'s set bits are a run from bit 0
    /// (`m` bits) and a run from bit `h` to the top, which is zero exactly when `e`'s low `m`
    /// bits are (see `low_bits`) and `e < 2^h` (its range; see `range`). The warpgroup
    /// multiplies' checks have this shape: `(address & 1023) == 0` for a tile, and `(a_k0 &
    /// !48) == 0` for `a_k0` in 0, 16, 32, 48, which unrolling makes constant only later.
    fn prove_zero(
        &mut self,
        proof: &mut Proof,
        scope: &Scope,
        inds: &[Induction],
        x: ValueId,
    ) -> Option<()> {
        let ty = self.int_ty(x)?;
        if self.constant(x) == Some(0) {
            return Some(());
        }
        if self.invariant(x, scope) {
            let w = self.wide(proof, scope, x)?;
            let zero = proof.constant(self.func, 0);
            let ok = proof.cmp(self.func, CmpOp::Eq, w, zero);
            proof.conditions.push(ok);
            return Some(());
        }
        let Def { kind, operands } = self.defs.get(&x)?.clone();
        match (kind, operands.as_slice()) {
            (OpKind::Binary(BinOp::Or), [a, b]) => {
                self.prove_zero(proof, scope, inds, *a)?;
                self.prove_zero(proof, scope, inds, *b)
            }
            (OpKind::Binary(BinOp::And), [a, b]) => {
                let (e, mask) = match (self.constant(*a), self.constant(*b)) {
                    (_, Some(c)) => (*a, c),
                    (Some(c), _) => (*b, c),
                    _ => return None,
                };
                let width = ty.bits();
                let top = if width == 128 { u128::MAX } else { (1u128 << width) - 1 };
                let mask = mask & top;
                let m = mask.trailing_ones();
                let rest = mask & !((1u128 << m) - 1);
                let h = if rest == 0 { width } else { rest.trailing_zeros() };
                // Every bit from `h` up must be in the mask, or the test is not of this shape.
                if h < width && rest != top & !((1u128 << h) - 1) {
                    return None;
                }
                if m > 0 {
                    let low = self.low_bits(proof, scope, inds, e, m)?;
                    let lm = proof.constant(self.func, (1u128 << m) - 1);
                    let bits = proof.wrapping(self.func, BinOp::And, low, lm);
                    let zero = proof.constant(self.func, 0);
                    let ok = proof.cmp(self.func, CmpOp::Eq, bits, zero);
                    proof.conditions.push(ok);
                }
                if h < width {
                    let range = self.range(proof, scope, inds, e)?;
                    let bound = proof.constant(self.func, 1u128 << h);
                    proof.below(self.func, range.max, bound);
                }
                Some(())
            }
            _ => None,
        }
    }

    /// A value computed before the loop (a proof value) whose low `bits` bits are those of the
    /// unsigned integer `v` in every iteration, or `None`. Sums, differences, products and
    /// bitwise operations keep low bits from low bits; a product by a constant with `z`
    /// trailing zero bits needs `z` fewer bits of the other factor (so `s * 64` has no low
    /// six bits to know, whatever the induction variable `s` is); a shift right or a division
    /// by `2^e` needs `e` more. An address (a pointer cast to an integer) is its base's plus
    /// its offsets times their elements' sizes.
    fn low_bits(
        &mut self,
        proof: &mut Proof,
        scope: &Scope,
        inds: &[Induction],
        v: ValueId,
        bits: u32,
    ) -> Option<ValueId> {
        let ty = self.int_ty(v)?;
        let bits = bits.min(ty.bits());
        if bits == 0 {
            return Some(proof.constant(self.func, 0));
        }
        if self.invariant(v, scope) {
            return self.wide(proof, scope, v);
        }
        if inds.iter().any(|i| i.reads.contains(&v)) {
            return None;
        }
        let def = self.defs.get(&v)?.clone();
        let pow2 = |c: Option<u128>| c.filter(|c| c.is_power_of_two()).map(|c| c.trailing_zeros());
        match (&def.kind, def.operands.as_slice()) {
            (
                OpKind::Binary(b @ (BinOp::Add | BinOp::Sub | BinOp::And | BinOp::Or | BinOp::Xor)),
                [x, y],
            ) => {
                let x = self.low_bits(proof, scope, inds, *x, bits)?;
                let y = self.low_bits(proof, scope, inds, *y, bits)?;
                Some(proof.wrapping(self.func, *b, x, y))
            }
            (OpKind::Binary(BinOp::Mul), [x, y]) => {
                if let Some((c, other)) = self
                    .constant(*y)
                    .map(|c| (c, *x))
                    .or_else(|| self.constant(*x).map(|c| (c, *y)))
                {
                    self.scaled(proof, scope, inds, other, c, bits)
                } else {
                    let x = self.low_bits(proof, scope, inds, *x, bits)?;
                    let y = self.low_bits(proof, scope, inds, *y, bits)?;
                    Some(proof.wrapping(self.func, BinOp::Mul, x, y))
                }
            }
            (OpKind::Binary(BinOp::Shl), [x, k]) => {
                let k = self.constant(*k).filter(|k| *k < u128::from(ty.bits()))?;
                self.scaled(proof, scope, inds, *x, 1 << k, bits)
            }
            (OpKind::Binary(BinOp::Shr), [x, k]) => {
                let k = self.constant(*k).filter(|k| *k < u128::from(ty.bits()))?;
                self.shifted_down(proof, scope, inds, *x, k as u32, bits)
            }
            (OpKind::Binary(BinOp::Div), [x, d]) => {
                let e = pow2(self.constant(*d))?;
                self.shifted_down(proof, scope, inds, *x, e, bits)
            }
            (OpKind::Binary(BinOp::Rem), [x, d]) => {
                // `x % 2^e` is `x & (2^e - 1)`.
                let e = pow2(self.constant(*d))?;
                let x = self.low_bits(proof, scope, inds, *x, bits.min(e))?;
                if e >= bits {
                    return Some(x);
                }
                let m = proof.constant(self.func, (1u128 << e) - 1);
                Some(proof.wrapping(self.func, BinOp::And, x, m))
            }
            (OpKind::Cast, [x]) => match self.func.ty(*x) {
                // Truncating or widening an unsigned value keeps its low bits.
                Some(Type::Int(_)) => {
                    let from = self.int_ty(*x)?;
                    self.low_bits(proof, scope, inds, *x, bits.min(from.bits()))
                }
                Some(Type::Ptr { .. }) => self.address_low_bits(proof, scope, inds, *x, bits),
                _ => None,
            },
            _ => None,
        }
    }

    /// `low_bits` of `x * c`, `c` a constant.
    fn scaled(
        &mut self,
        proof: &mut Proof,
        scope: &Scope,
        inds: &[Induction],
        x: ValueId,
        c: u128,
        bits: u32,
    ) -> Option<ValueId> {
        let z = c.trailing_zeros();
        if z >= bits {
            return Some(proof.constant(self.func, 0));
        }
        let x = self.low_bits(proof, scope, inds, x, bits - z)?;
        let c = proof.constant(self.func, c);
        Some(proof.wrapping(self.func, BinOp::Mul, x, c))
    }

    /// `low_bits` of `x >> e`: `x`'s low `bits + e` bits, exactly, shifted.
    fn shifted_down(
        &mut self,
        proof: &mut Proof,
        scope: &Scope,
        inds: &[Induction],
        x: ValueId,
        e: u32,
        bits: u32,
    ) -> Option<ValueId> {
        let need = (bits + e).min(self.int_ty(x)?.bits());
        let low = self.low_bits(proof, scope, inds, x, need)?;
        let m = proof.constant(self.func, (1u128 << need) - 1);
        let exact = proof.wrapping(self.func, BinOp::And, low, m);
        Some(proof.shr(self.func, exact, e))
    }

    /// `low_bits` of a pointer's address.
    fn address_low_bits(
        &mut self,
        proof: &mut Proof,
        scope: &Scope,
        inds: &[Induction],
        p: ValueId,
        bits: u32,
    ) -> Option<ValueId> {
        if !scope.inside.contains(&p) {
            let address = proof.push(self.func, OpKind::Cast, vec![p], Type::USIZE);
            return Some(proof.widen(self.func, address, u128::from(u64::MAX)));
        }
        let def = self.defs.get(&p)?.clone();
        let elem = |func: &Func, p: ValueId, array: bool| {
            let pointee = func.ty(p)?.pointee()?;
            let elem = match (array, pointee) {
                (true, Type::Array { elem, .. }) => elem,
                (true, _) => return None,
                (false, t) => t,
            };
            Some(u128::from(elem.size_of()))
        };
        match (&def.kind, def.operands.as_slice()) {
            (OpKind::Cast, [q]) if matches!(self.func.ty(*q), Some(Type::Ptr { .. })) => {
                self.address_low_bits(proof, scope, inds, *q, bits)
            }
            (OpKind::PtrOffset | OpKind::ElemPtr, [q, i]) => {
                let size = elem(self.func, *q, def.kind == OpKind::ElemPtr)?;
                let base = self.address_low_bits(proof, scope, inds, *q, bits)?;
                let offset = self.scaled(proof, scope, inds, *i, size, bits)?;
                Some(proof.wrapping(self.func, BinOp::Add, base, offset))
            }
            _ => None,
        }
    }
}

/// The conditions of the assertions that every iteration reaches (those not inside an
/// `rk.if`). An assertion on a path of its own may never run: proving it would send the loop
/// to its checked copy for a condition it never tests (`Result::unwrap`'s `Err` arm asserts
/// `false`).
pub(super) fn collect_asserts(region: &Region, out: &mut Vec<ValueId>) {
    for op in &region.ops {
        if matches!(op.kind, OpKind::Assert { .. }) {
            out.push(op.operands[0]);
        }
        if op.kind != OpKind::If {
            for r in &op.regions {
                collect_asserts(r, out);
            }
        }
    }
}
