//! Rust's `as` between numeric types, pointers and slices, with the integer resizing the
//! other emitters share, and the 128-bit integer ↔ float conversions that LLVM's GPU back ends
//! have no instruction for.

use super::{FuncEmitter, constant, mlir_type, v};
use rkc_rk::{FloatTy, Literal, Op, Type};

impl<'f> FuncEmitter<'f> {
    /// Truncates or extends an integer value to another integer type's width.
    pub(super) fn resize_int(&mut self, value: &str, from: &Type, to: &Type) -> String {
        let (fb, tb) = (from.size_of() * 8, to.size_of() * 8);
        if fb == tb {
            return value.to_string();
        }
        let t = self.temp();
        let signed = matches!(from, Type::Int(i) if i.is_signed());
        let op = if fb > tb {
            "trunci"
        } else if signed {
            "extsi"
        } else {
            "extui"
        };
        self.line(format!("{t} = arith.{op} {value} : i{fb} to i{tb}"));
        t
    }

    /// Rust's `as` between numeric types: integers truncate or extend by the source's
    /// signedness, float to integer saturates (NaN to 0, through LLVM's `fpto[su]i.sat`),
    /// integer to float rounds to nearest, float to float rounds or extends.
    pub(super) fn cast(&mut self, op: &Op) {
        let res = v(op.results[0]);
        let x = v(op.operands[0]);
        let (from, to) = (self.rk_ty(op.operands[0]), self.rk_ty(op.results[0]));
        // Coercions change no bits: a slice's result aliases its parts; a pointer is copied.
        match (from, to) {
            (Type::Slice { .. }, _) => {
                if let Some(parts) = self.slices.get(&op.operands[0]).cloned() {
                    self.slices.insert(op.results[0], parts);
                }
                return;
            }
            (Type::Ptr { .. }, Type::Ptr { .. }) => {
                self.line(format!(
                    "{res} = llvm.getelementptr {x}[0] : (!llvm.ptr) -> !llvm.ptr, i8"
                ));
                return;
            }
            (Type::Ptr { .. }, Type::Int(_)) => {
                self.line(format!("{res} = llvm.ptrtoint {x} : !llvm.ptr to i64"));
                return;
            }
            (Type::Int(_), Type::Ptr { .. }) => {
                self.line(format!("{res} = llvm.inttoptr {x} : i64 to !llvm.ptr"));
                return;
            }
            _ => {}
        }
        let (ft, tt) = (mlir_type(from), mlir_type(to));
        let from_signed = matches!(from, Type::Int(i) if i.is_signed());
        let to_signed = matches!(to, Type::Int(i) if i.is_signed());
        let line = match (from, to) {
            (Type::Int(_) | Type::Bool, Type::Int(_)) => {
                let (fb, tb) =
                    (if *from == Type::Bool { 1 } else { from.size_of() * 8 }, to.size_of() * 8);
                if fb == tb {
                    // Same width, other signedness: the bits are the value. MLIR has no
                    // identity cast, so emit `x | 0`, which folds away.
                    let zero = self.temp();
                    self.line(format!("{zero} = arith.constant 0 : {tt}"));
                    format!("{res} = arith.ori {x}, {zero} : {tt}")
                } else if fb > tb {
                    format!("{res} = arith.trunci {x} : {ft} to {tt}")
                } else if from_signed {
                    format!("{res} = arith.extsi {x} : {ft} to {tt}")
                } else {
                    format!("{res} = arith.extui {x} : {ft} to {tt}")
                }
            }
            // NVPTX has no library to call for 128-bit conversions: rkc expands them.
            (Type::Int(i), Type::Float(f)) if i.bits() == 128 => {
                self.wide_int_to_float(&res, &x, i.is_signed(), *f);
                return;
            }
            (Type::Float(f), Type::Int(i)) if i.bits() == 128 => {
                self.float_to_wide_int(&res, &x, *f, i.is_signed());
                return;
            }
            (Type::Int(_) | Type::Bool, Type::Float(_)) => {
                let op = if from_signed { "sitofp" } else { "uitofp" };
                format!("{res} = arith.{op} {x} : {ft} to {tt}")
            }
            (Type::Float(_), Type::Int(_)) => {
                let op = if to_signed { "fptosi" } else { "fptoui" };
                format!(
                    "{res} = llvm.call_intrinsic \"llvm.{op}.sat.{tt}.{ft}\"({x}) : ({ft}) -> {tt}"
                )
            }
            (Type::Float(a), Type::Float(b)) if a == b => {
                // The front end drops identity casts; should one arrive, `x + -0.0` is `x` for
                // every x, signed zeros and NaN included.
                let minus_zero = self.temp();
                let zero = constant(&Literal::Float(-0.0), to);
                self.line(format!("{minus_zero} = {zero}"));
                format!("{res} = arith.addf {x}, {minus_zero} : {tt}")
            }
            (Type::Float(a), Type::Float(b)) if a.bits() < b.bits() => {
                format!("{res} = arith.extf {x} : {ft} to {tt}")
            }
            (Type::Float(a), Type::Float(b)) if a.bits() > b.bits() => {
                format!("{res} = arith.truncf {x} : {ft} to {tt}")
            }
            (Type::Float(_), Type::Float(_)) => {
                // f16 and bf16 into each other: through f32, which holds both exactly, so
                // the one rounding is the last.
                let wide = self.temp();
                self.line(format!("{wide} = arith.extf {x} : {ft} to f32"));
                format!("{res} = arith.truncf {wide} : f32 to {tt}")
            }
            _ => format!("{res} = arith.bitcast {x} : {ft} to {tt}"),
        };
        self.line(line);
    }

    /// `x as f32` / `x as f64` for a 128-bit `x`, correctly rounded as Rust's `as` is. The
    /// magnitude is shifted right until it fits in 64 bits, with every bit shifted out ORed
    /// into bit 0 (a sticky bit, below any float's rounding position, so the one rounding of
    /// the 64-bit conversion is the rounding of the whole value), then scaled back by the
    /// shift, a power of two: exact, or infinity where Rust's result is infinity too.
    pub(super) fn wide_int_to_float(&mut self, res: &str, x: &str, signed: bool, f: FloatTy) {
        let t = |e: &mut Self| e.temp();
        let magnitude = if signed {
            let (zero, neg, abs) = (t(self), t(self), t(self));
            self.line(format!("{zero} = arith.constant 0 : i128"));
            self.line(format!("{neg} = arith.subi {zero}, {x} : i128"));
            let is_neg = t(self);
            self.line(format!("{is_neg} = arith.cmpi slt, {x}, {zero} : i128"));
            self.line(format!("{abs} = arith.select {is_neg}, {neg}, {x} : i128"));
            Some((abs, is_neg))
        } else {
            None
        };
        let u = magnitude.as_ref().map_or(x.to_string(), |(abs, _)| abs.clone());
        let (c64, hi, hi64, lz, lz128, shift) =
            (t(self), t(self), t(self), t(self), t(self), t(self));
        self.line(format!("{c64} = arith.constant 64 : i128"));
        self.line(format!("{hi} = arith.shrui {u}, {c64} : i128"));
        self.line(format!("{hi64} = arith.trunci {hi} : i128 to i64"));
        let no_poison = t(self);
        self.line(format!("{no_poison} = llvm.mlir.constant(false) : i1"));
        self.line(format!(
            "{lz} = llvm.call_intrinsic \"llvm.ctlz.i64\"({hi64}, {no_poison}) : (i64, i1) -> i64"
        ));
        self.line(format!("{lz128} = arith.extui {lz} : i64 to i128"));
        self.line(format!("{shift} = arith.subi {c64}, {lz128} : i128"));
        let (top, one, bit, mask, rest, zero, sticky, sticky64, top64, packed) = (
            t(self),
            t(self),
            t(self),
            t(self),
            t(self),
            t(self),
            t(self),
            t(self),
            t(self),
            t(self),
        );
        self.line(format!("{top} = arith.shrui {u}, {shift} : i128"));
        self.line(format!("{one} = arith.constant 1 : i128"));
        self.line(format!("{bit} = arith.shli {one}, {shift} : i128"));
        self.line(format!("{mask} = arith.subi {bit}, {one} : i128"));
        self.line(format!("{rest} = arith.andi {u}, {mask} : i128"));
        self.line(format!("{zero} = arith.constant 0 : i128"));
        self.line(format!("{sticky} = arith.cmpi ne, {rest}, {zero} : i128"));
        self.line(format!("{sticky64} = arith.extui {sticky} : i1 to i64"));
        self.line(format!("{top64} = arith.trunci {top} : i128 to i64"));
        self.line(format!("{packed} = arith.ori {top64}, {sticky64} : i64"));
        let ft = f.name();
        let (approx, exp, bias, biased, scale_bits, scale, scaled) =
            (t(self), t(self), t(self), t(self), t(self), t(self), t(self));
        self.line(format!("{approx} = arith.uitofp {packed} : i64 to {ft}"));
        // 2^shift, built from its exponent field: shift is 0..=64, always a normal float.
        let (ib, mantissa, exp_bias) =
            if f == FloatTy::F32 { ("i32", 23, 127) } else { ("i64", 52, 1023) };
        self.line(format!("{exp} = arith.trunci {shift} : i128 to {ib}"));
        self.line(format!("{bias} = arith.constant {exp_bias} : {ib}"));
        self.line(format!("{biased} = arith.addi {exp}, {bias} : {ib}"));
        let m = t(self);
        self.line(format!("{m} = arith.constant {mantissa} : {ib}"));
        self.line(format!("{scale_bits} = arith.shli {biased}, {m} : {ib}"));
        self.line(format!("{scale} = arith.bitcast {scale_bits} : {ib} to {ft}"));
        match magnitude {
            Some((_, is_neg)) => {
                let negated = t(self);
                self.line(format!("{scaled} = arith.mulf {approx}, {scale} : {ft}"));
                self.line(format!("{negated} = arith.negf {scaled} : {ft}"));
                self.line(format!("{res} = arith.select {is_neg}, {negated}, {scaled} : {ft}"));
            }
            None => self.line(format!("{res} = arith.mulf {approx}, {scale} : {ft}")),
        }
    }

    /// `x as u128` / `x as i128` for a float `x`, saturating with NaN to 0 as Rust's `as`
    /// is. The truncated magnitude is split into its high and low 64 bits in the float's own
    /// arithmetic, which is exact: `|x| / 2^64` only moves the exponent, and `|x|` less that
    /// part's multiple of 2^64 is representable.
    pub(super) fn float_to_wide_int(&mut self, res: &str, x: &str, f: FloatTy, signed: bool) {
        let t = |e: &mut Self| e.temp();
        let ft = f.name();
        let float = |e: &mut Self, v: f64| {
            let c = e.temp();
            e.line(format!("{c} = {}", constant(&Literal::Float(v), &Type::Float(f))));
            c
        };
        let abs = t(self);
        self.line(format!("{abs} = llvm.call_intrinsic \"llvm.fabs.{ft}\"({x}) : ({ft}) -> {ft}"));
        let trunc = t(self);
        self.line(format!(
            "{trunc} = llvm.call_intrinsic \"llvm.trunc.{ft}\"({abs}) : ({ft}) -> {ft}"
        ));
        let (inv, hi_f, hi_fl, two64, hi_part, lo_f) = (
            float(self, 2f64.powi(-64)),
            t(self),
            t(self),
            float(self, 2f64.powi(64)),
            t(self),
            t(self),
        );
        self.line(format!("{hi_f} = arith.mulf {trunc}, {inv} : {ft}"));
        self.line(format!(
            "{hi_fl} = llvm.call_intrinsic \"llvm.floor.{ft}\"({hi_f}) : ({ft}) -> {ft}"
        ));
        self.line(format!("{hi_part} = arith.mulf {hi_fl}, {two64} : {ft}"));
        self.line(format!("{lo_f} = arith.subf {trunc}, {hi_part} : {ft}"));
        let (hi, lo, hi128, lo128, c64, shifted, magnitude) =
            (t(self), t(self), t(self), t(self), t(self), t(self), t(self));
        // Both halves are below 2^64 when the value is in range; out of range is selected away.
        self.line(format!(
            "{hi} = llvm.call_intrinsic \"llvm.fptoui.sat.i64.{ft}\"({hi_fl}) : ({ft}) -> i64"
        ));
        self.line(format!(
            "{lo} = llvm.call_intrinsic \"llvm.fptoui.sat.i64.{ft}\"({lo_f}) : ({ft}) -> i64"
        ));
        self.line(format!("{hi128} = arith.extui {hi} : i64 to i128"));
        self.line(format!("{lo128} = arith.extui {lo} : i64 to i128"));
        self.line(format!("{c64} = arith.constant 64 : i128"));
        self.line(format!("{shifted} = arith.shli {hi128}, {c64} : i128"));
        self.line(format!("{magnitude} = arith.ori {shifted}, {lo128} : i128"));
        // Saturation: at or past the bound the result is the type's extreme; NaN is 0.
        let bound = float(self, if signed { 2f64.powi(127) } else { 2f64.powi(128) });
        let (too_big, is_nan, neg) = (t(self), t(self), t(self));
        self.line(format!("{too_big} = arith.cmpf oge, {abs}, {bound} : {ft}"));
        self.line(format!("{is_nan} = arith.cmpf uno, {x}, {x} : {ft}"));
        let zero_f = float(self, 0.0);
        self.line(format!("{neg} = arith.cmpf olt, {x}, {zero_f} : {ft}"));
        let (zero, max) = (t(self), t(self));
        self.line(format!("{zero} = arith.constant 0 : i128"));
        let value = if signed {
            let (min, negated, signed_v, extreme, clamped) =
                (t(self), t(self), t(self), t(self), t(self));
            self.line(format!("{max} = arith.constant {} : i128", i128::MAX));
            self.line(format!("{min} = arith.constant {} : i128", i128::MIN));
            self.line(format!("{negated} = arith.subi {zero}, {magnitude} : i128"));
            self.line(format!("{signed_v} = arith.select {neg}, {negated}, {magnitude} : i128"));
            self.line(format!("{extreme} = arith.select {neg}, {min}, {max} : i128"));
            self.line(format!("{clamped} = arith.select {too_big}, {extreme}, {signed_v} : i128"));
            clamped
        } else {
            let (positive, clamped) = (t(self), t(self));
            self.line(format!("{max} = arith.constant -1 : i128"));
            self.line(format!("{positive} = arith.select {neg}, {zero}, {magnitude} : i128"));
            self.line(format!("{clamped} = arith.select {too_big}, {max}, {positive} : i128"));
            // A negative value below the bound saturates to 0, not to the maximum.
            let out = t(self);
            self.line(format!("{out} = arith.select {neg}, {zero}, {clamped} : i128"));
            out
        };
        self.line(format!("{res} = arith.select {is_nan}, {zero}, {value} : i128"));
    }
}
