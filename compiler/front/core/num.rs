//! The methods and associated constants of the integer and float types.

use crate::intrinsics;
use crate::option::Option::{self, None, Some};

/// What kind of number a float is (`f32::classify`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum FpCategory {
    Nan,
    Infinite,
    Zero,
    Subnormal,
    Normal,
}

/// The error of a failed integer conversion (`core::num::TryFromIntError`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct TryFromIntError(pub(crate) ());

//@ for $T in u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize
impl $T {
    pub const BITS: u32 = $BITS;

    pub const fn count_ones(self) -> u32 {
        intrinsics::math_count_ones(self)
    }

    pub const fn count_zeros(self) -> u32 {
        intrinsics::math_count_ones(!self)
    }

    pub const fn leading_zeros(self) -> u32 {
        intrinsics::math_leading_zeros(self)
    }

    pub const fn trailing_zeros(self) -> u32 {
        intrinsics::math_trailing_zeros(self)
    }

    pub const fn leading_ones(self) -> u32 {
        intrinsics::math_leading_zeros(!self)
    }

    pub const fn trailing_ones(self) -> u32 {
        intrinsics::math_trailing_zeros(!self)
    }

    pub const fn rotate_left(self, n: u32) -> $T {
        intrinsics::math_rotate_left(self, n)
    }

    pub const fn rotate_right(self, n: u32) -> $T {
        intrinsics::math_rotate_right(self, n)
    }

    pub const fn swap_bytes(self) -> $T {
        let mut v = self as $U;
        let mut out: $U = 0;
        let mut i = 0;
        while i < $BITS / 8 {
            out = (out << 8) | (v & 0xff);
            v = v >> 8;
            i += 1;
        }
        out as $T
    }

    pub const fn reverse_bits(self) -> $T {
        let mut v = self as $U;
        let mut out: $U = 0;
        let mut i = 0;
        while i < $BITS {
            out = (out << 1) | (v & 1);
            v = v >> 1;
            i += 1;
        }
        out as $T
    }

    pub const fn to_be(self) -> $T {
        self.swap_bytes()
    }

    pub const fn to_le(self) -> $T {
        self
    }

    pub const fn from_be(x: $T) -> $T {
        x.swap_bytes()
    }

    pub const fn from_le(x: $T) -> $T {
        x
    }

    pub const fn min(self, other: $T) -> $T {
        intrinsics::math_min(self, other)
    }

    pub const fn max(self, other: $T) -> $T {
        intrinsics::math_max(self, other)
    }

    #[track_caller]
    pub const fn clamp(self, min: $T, max: $T) -> $T {
        assert!(min <= max);
        if self < min {
            min
        } else if self > max {
            max
        } else {
            self
        }
    }

    pub const fn wrapping_add(self, rhs: $T) -> $T {
        self + rhs
    }

    pub const fn wrapping_sub(self, rhs: $T) -> $T {
        self - rhs
    }

    pub const fn wrapping_mul(self, rhs: $T) -> $T {
        self * rhs
    }

    pub const fn wrapping_neg(self) -> $T {
        (0 as $T) - self
    }

    pub const fn wrapping_shl(self, rhs: u32) -> $T {
        self << rhs
    }

    pub const fn wrapping_shr(self, rhs: u32) -> $T {
        self >> rhs
    }

    pub const fn saturating_add(self, rhs: $T) -> $T {
        intrinsics::math_saturating_add(self, rhs)
    }

    pub const fn saturating_sub(self, rhs: $T) -> $T {
        intrinsics::math_saturating_sub(self, rhs)
    }

    pub const fn pow(self, exp: u32) -> $T {
        let mut base = self;
        let mut acc: $T = 1;
        let mut exp = exp;
        while exp != 0 {
            if exp & 1 != 0 {
                acc = acc * base;
            }
            exp = exp >> 1;
            base = base * base;
        }
        acc
    }

    pub const fn wrapping_pow(self, exp: u32) -> $T {
        self.pow(exp)
    }

    pub const fn overflowing_add(self, rhs: $T) -> ($T, bool) {
        let r = self + rhs;
        (r, self.add_overflows(rhs, r))
    }

    pub const fn overflowing_sub(self, rhs: $T) -> ($T, bool) {
        let r = self - rhs;
        (r, self.sub_overflows(rhs, r))
    }

    pub const fn overflowing_mul(self, rhs: $T) -> ($T, bool) {
        let r = self * rhs;
        (r, self.mul_overflows(rhs, r))
    }

    pub const fn overflowing_neg(self) -> ($T, bool) {
        let r = (0 as $T) - self;
        (r, (0 as $T).sub_overflows(self, r))
    }

    pub const fn overflowing_pow(self, exp: u32) -> ($T, bool) {
        let mut base = self;
        let mut acc: $T = 1;
        let mut exp = exp;
        let mut over = false;
        while exp != 0 {
            if exp & 1 != 0 {
                let (r, o) = acc.overflowing_mul(base);
                acc = r;
                over = over || o;
            }
            exp = exp >> 1;
            if exp != 0 {
                let (r, o) = base.overflowing_mul(base);
                base = r;
                over = over || o;
            }
        }
        (acc, over)
    }

    pub const fn checked_add(self, rhs: $T) -> Option<$T> {
        let (r, o) = self.overflowing_add(rhs);
        if o { None } else { Some(r) }
    }

    pub const fn checked_sub(self, rhs: $T) -> Option<$T> {
        let (r, o) = self.overflowing_sub(rhs);
        if o { None } else { Some(r) }
    }

    pub const fn checked_mul(self, rhs: $T) -> Option<$T> {
        let (r, o) = self.overflowing_mul(rhs);
        if o { None } else { Some(r) }
    }

    pub const fn checked_pow(self, exp: u32) -> Option<$T> {
        let (r, o) = self.overflowing_pow(exp);
        if o { None } else { Some(r) }
    }

    pub const fn checked_div(self, rhs: $T) -> Option<$T> {
        if rhs == 0 || self.div_overflows(rhs) { None } else { Some(self / rhs) }
    }

    pub const fn checked_rem(self, rhs: $T) -> Option<$T> {
        if rhs == 0 || self.div_overflows(rhs) { None } else { Some(self % rhs) }
    }

    pub const fn checked_neg(self) -> Option<$T> {
        let (r, o) = self.overflowing_neg();
        if o { None } else { Some(r) }
    }

    pub const fn unbounded_shl(self, rhs: u32) -> $T {
        if rhs < $BITS { self << rhs } else { 0 }
    }

    /// Past the width, zero for unsigned types and the sign in every bit for signed ones.
    pub const fn unbounded_shr(self, rhs: u32) -> $T {
        if rhs < $BITS { self >> rhs } else if (0 as $T) < !(0 as $T) { 0 } else { self >> ($BITS - 1) }
    }

    pub const fn checked_shl(self, rhs: u32) -> Option<$T> {
        if rhs < $BITS { Some(self << rhs) } else { None }
    }

    pub const fn checked_shr(self, rhs: u32) -> Option<$T> {
        if rhs < $BITS { Some(self >> rhs) } else { None }
    }

    pub const fn saturating_mul(self, rhs: $T) -> $T {
        match self.checked_mul(rhs) {
            Some(x) => x,
            None => {
                if (self < (0 as $T)) != (rhs < (0 as $T)) {
                    <$T>::MIN
                } else {
                    <$T>::MAX
                }
            }
        }
    }

    /// Only `MIN / -1` overflows, to `MAX`; a zero divisor still panics.
    #[track_caller]
    pub const fn saturating_div(self, rhs: $T) -> $T {
        if self.div_overflows(rhs) { <$T>::MAX } else { self / rhs }
    }

    pub const fn saturating_pow(self, exp: u32) -> $T {
        match self.checked_pow(exp) {
            Some(x) => x,
            None => {
                if self < (0 as $T) && exp % 2 == 1 {
                    <$T>::MIN
                } else {
                    <$T>::MAX
                }
            }
        }
    }

    pub const fn abs_diff(self, other: $T) -> $U {
        if self < other { (other as $U).wrapping_sub(self as $U) } else { (self as $U).wrapping_sub(other as $U) }
    }

    pub const fn is_multiple_of(self, rhs: $T) -> bool {
        if rhs == 0 { self == 0 } else { self % rhs == 0 }
    }

    pub const fn ilog2(self) -> u32 {
        assert!(self > 0, "argument of integer logarithm must be positive");
        $BITS - 1 - self.leading_zeros()
    }

    pub const fn checked_ilog2(self) -> Option<u32> {
        if self > 0 { Some($BITS - 1 - self.leading_zeros()) } else { None }
    }

    pub const fn ilog10(self) -> u32 {
        assert!(self > 0, "argument of integer logarithm must be positive");
        let mut n = 0;
        let mut v = self;
        while v >= 10 {
            v = v / 10;
            n += 1;
        }
        n
    }

    pub const fn checked_ilog10(self) -> Option<u32> {
        self.checked_ilog(10)
    }

    /// `None` where `ilog` panics: a value that is not positive, or a base below 2.
    pub const fn checked_ilog(self, base: $T) -> Option<u32> {
        if self <= 0 || base < 2 {
            return None;
        }
        let mut n = 0;
        let mut v = self;
        while v >= base {
            v = v / base;
            n += 1;
        }
        Some(n)
    }

    pub const fn ilog(self, base: $T) -> u32 {
        // std checks the base first; a base below 2 would never end the division below.
        assert!(base >= 2, "base of integer logarithm must be at least 2");
        assert!(self > 0, "argument of integer logarithm must be positive");
        let mut n = 0;
        let mut v = self;
        while v >= base {
            v = v / base;
            n += 1;
        }
        n
    }

    pub const fn to_le_bytes(self) -> [u8; $BITS / 8] {
        let mut out = [0u8; $BITS / 8];
        let mut v = self as $U;
        let mut i = 0;
        while i < $BITS / 8 {
            out[i] = (v & 0xff) as u8;
            v = v >> 8;
            i += 1;
        }
        out
    }

    pub const fn from_le_bytes(bytes: [u8; $BITS / 8]) -> $T {
        let mut v: $U = 0;
        let mut i = $BITS / 8;
        while i > 0 {
            i -= 1;
            v = (v << 8) | (bytes[i] as $U);
        }
        v as $T
    }

    pub const fn to_be_bytes(self) -> [u8; $BITS / 8] {
        self.swap_bytes().to_le_bytes()
    }

    pub const fn from_be_bytes(bytes: [u8; $BITS / 8]) -> $T {
        <$T>::from_le_bytes(bytes).swap_bytes()
    }

    /// The GPUs rkc targets are little-endian, so native order is little-endian order.
    pub const fn to_ne_bytes(self) -> [u8; $BITS / 8] {
        self.to_le_bytes()
    }

    pub const fn from_ne_bytes(bytes: [u8; $BITS / 8]) -> $T {
        <$T>::from_le_bytes(bytes)
    }
}
//@ end

//@ for $T in u8 u16 u32 u64 u128 usize
impl $T {
    pub const MIN: $T = 0;
    pub const MAX: $T = !0;

    const fn add_overflows(self, _rhs: $T, r: $T) -> bool {
        r < self
    }

    const fn sub_overflows(self, rhs: $T, _r: $T) -> bool {
        self < rhs
    }

    const fn mul_overflows(self, rhs: $T, r: $T) -> bool {
        self != 0 && r / self != rhs
    }

    const fn div_overflows(self, _rhs: $T) -> bool {
        false
    }

    pub const fn is_power_of_two(self) -> bool {
        self.count_ones() == 1
    }

    pub const fn next_power_of_two(self) -> $T {
        if self <= 1 {
            1
        } else {
            let p = self - 1;
            let z = p.leading_zeros();
            if z == 0 { 0 } else { (1 as $T) << ($BITS - z) }
        }
    }

    pub const fn checked_next_power_of_two(self) -> Option<$T> {
        if self <= 1 {
            Some(1)
        } else {
            let p = self - 1;
            let z = p.leading_zeros();
            if z == 0 { None } else { Some((1 as $T) << ($BITS - z)) }
        }
    }

    #[track_caller]
    pub const fn div_ceil(self, rhs: $T) -> $T {
        let d = self / rhs;
        let r = self % rhs;
        if r > 0 { d + 1 } else { d }
    }

    #[track_caller]
    pub const fn next_multiple_of(self, rhs: $T) -> $T {
        match self % rhs {
            0 => self,
            r => self + (rhs - r),
        }
    }

    pub const fn checked_next_multiple_of(self, rhs: $T) -> Option<$T> {
        if rhs == 0 {
            return None;
        }
        match self % rhs {
            0 => Some(self),
            r => self.checked_add(rhs - r),
        }
    }

    pub const fn div_euclid(self, rhs: $T) -> $T {
        self / rhs
    }

    pub const fn rem_euclid(self, rhs: $T) -> $T {
        self % rhs
    }

    pub const fn checked_div_euclid(self, rhs: $T) -> Option<$T> {
        if rhs == 0 { None } else { Some(self / rhs) }
    }

    pub const fn checked_rem_euclid(self, rhs: $T) -> Option<$T> {
        if rhs == 0 { None } else { Some(self % rhs) }
    }

    #[track_caller]
    pub const fn wrapping_div_euclid(self, rhs: $T) -> $T {
        self / rhs
    }

    #[track_caller]
    pub const fn wrapping_rem_euclid(self, rhs: $T) -> $T {
        self % rhs
    }

    #[track_caller]
    pub const fn overflowing_div_euclid(self, rhs: $T) -> ($T, bool) {
        (self / rhs, false)
    }

    #[track_caller]
    pub const fn overflowing_rem_euclid(self, rhs: $T) -> ($T, bool) {
        (self % rhs, false)
    }

    pub const fn wrapping_div(self, rhs: $T) -> $T {
        self / rhs
    }

    pub const fn wrapping_rem(self, rhs: $T) -> $T {
        self % rhs
    }

    pub const fn checked_add_signed(self, rhs: $S) -> Option<$T> {
        let (r, o) = self.overflowing_add_signed(rhs);
        if o { None } else { Some(r) }
    }

    pub const fn overflowing_add_signed(self, rhs: $S) -> ($T, bool) {
        let (res, overflowed) = self.overflowing_add(rhs as $T);
        (res, overflowed ^ (rhs < 0))
    }

    pub const fn wrapping_add_signed(self, rhs: $S) -> $T {
        self.wrapping_add(rhs as $T)
    }

    pub const fn saturating_add_signed(self, rhs: $S) -> $T {
        let (res, overflow) = self.overflowing_add(rhs as $T);
        if overflow == (rhs < 0) {
            res
        } else if overflow {
            <$T>::MAX
        } else {
            0
        }
    }

    pub const fn checked_sub_signed(self, rhs: $S) -> Option<$T> {
        if rhs >= 0 { self.checked_sub(rhs as $T) } else { self.checked_add(rhs.unsigned_abs()) }
    }

    pub const fn isqrt(self) -> $T {
        if self < 2 {
            return self;
        }
        // The first Newton step from `self`, `(self + self / self) / 2`, written so that it
        // cannot overflow at `MAX`.
        let mut x = self;
        let mut y = self / 2 + (self & 1);
        while y < x {
            x = y;
            y = (x + self / x) / 2;
        }
        x
    }

    pub const fn midpoint(self, rhs: $T) -> $T {
        (self & rhs) + ((self ^ rhs) >> 1)
    }

    pub const fn cast_signed(self) -> $S {
        self as $S
    }
}
//@ end

//@ for $T in i8 i16 i32 i64 i128 isize
impl $T {
    pub const MIN: $T = (1 as $T) << ($BITS - 1);
    pub const MAX: $T = !((1 as $T) << ($BITS - 1));

    const fn add_overflows(self, rhs: $T, r: $T) -> bool {
        (rhs > 0 && r < self) || (rhs < 0 && r > self)
    }

    const fn sub_overflows(self, rhs: $T, r: $T) -> bool {
        (rhs > 0 && r > self) || (rhs < 0 && r < self)
    }

    const fn mul_overflows(self, rhs: $T, r: $T) -> bool {
        (self == -1 && rhs == <$T>::MIN) || (rhs == -1 && self == <$T>::MIN) || (self != 0 && self != -1 && r / self != rhs)
    }

    const fn div_overflows(self, rhs: $T) -> bool {
        self == <$T>::MIN && rhs == -1
    }

    pub const fn abs(self) -> $T {
        intrinsics::math_wrapping_abs(self)
    }

    pub const fn wrapping_abs(self) -> $T {
        intrinsics::math_wrapping_abs(self)
    }

    pub const fn unsigned_abs(self) -> $U {
        intrinsics::math_wrapping_abs(self) as $U
    }

    pub const fn checked_abs(self) -> Option<$T> {
        if self == <$T>::MIN { None } else { Some(self.abs()) }
    }

    pub const fn overflowing_abs(self) -> ($T, bool) {
        (self.wrapping_abs(), self == <$T>::MIN)
    }

    pub const fn saturating_abs(self) -> $T {
        if self == <$T>::MIN { <$T>::MAX } else { self.abs() }
    }

    pub const fn saturating_neg(self) -> $T {
        if self == <$T>::MIN { <$T>::MAX } else { -self }
    }

    pub const fn signum(self) -> $T {
        if self > 0 {
            1
        } else if self < 0 {
            -1
        } else {
            0
        }
    }

    pub const fn is_positive(self) -> bool {
        self > 0
    }

    pub const fn is_negative(self) -> bool {
        self < 0
    }

    pub const fn wrapping_div(self, rhs: $T) -> $T {
        if rhs == -1 { (0 as $T) - self } else { self / rhs }
    }

    pub const fn wrapping_rem(self, rhs: $T) -> $T {
        if rhs == -1 { 0 } else { self % rhs }
    }

    #[track_caller]
    pub const fn div_euclid(self, rhs: $T) -> $T {
        let q = self / rhs;
        if self % rhs < 0 {
            return if rhs > 0 { q - 1 } else { q + 1 };
        }
        q
    }

    #[track_caller]
    pub const fn rem_euclid(self, rhs: $T) -> $T {
        let r = self % rhs;
        if r < 0 { r.wrapping_add(rhs.wrapping_abs()) } else { r }
    }

    pub const fn checked_div_euclid(self, rhs: $T) -> Option<$T> {
        if rhs == 0 || self.div_overflows(rhs) { None } else { Some(self.div_euclid(rhs)) }
    }

    pub const fn checked_rem_euclid(self, rhs: $T) -> Option<$T> {
        if rhs == 0 || self.div_overflows(rhs) { None } else { Some(self.rem_euclid(rhs)) }
    }

    #[track_caller]
    pub const fn wrapping_div_euclid(self, rhs: $T) -> $T {
        if rhs == -1 { self.wrapping_neg() } else { self.div_euclid(rhs) }
    }

    #[track_caller]
    pub const fn wrapping_rem_euclid(self, rhs: $T) -> $T {
        if rhs == -1 { 0 } else { self.rem_euclid(rhs) }
    }

    #[track_caller]
    pub const fn overflowing_div_euclid(self, rhs: $T) -> ($T, bool) {
        (self.wrapping_div_euclid(rhs), rhs == -1 && self == <$T>::MIN)
    }

    #[track_caller]
    pub const fn overflowing_rem_euclid(self, rhs: $T) -> ($T, bool) {
        (self.wrapping_rem_euclid(rhs), rhs == -1 && self == <$T>::MIN)
    }

    pub const fn wrapping_add_unsigned(self, rhs: $U) -> $T {
        self.wrapping_add(rhs as $T)
    }

    pub const fn checked_add_unsigned(self, rhs: $U) -> Option<$T> {
        let (res, overflowed) = self.overflowing_add(rhs as $T);
        if overflowed ^ ((rhs as $T) < 0) { None } else { Some(res) }
    }

    pub const fn isqrt(self) -> $T {
        assert!(self >= 0, "argument of integer square root cannot be negative");
        (self as $U).isqrt() as $T
    }

    pub const fn checked_isqrt(self) -> Option<$T> {
        if self < 0 { None } else { Some((self as $U).isqrt() as $T) }
    }

    pub const fn cast_unsigned(self) -> $U {
        self as $U
    }
    /// `(self + rhs) / 2` as if computed without overflow, rounded towards zero: the floor
    /// average of Hacker's Delight, plus one where the sum is odd and negative.
    pub const fn midpoint(self, rhs: $T) -> $T {
        let t = ((self ^ rhs) >> 1) + (self & rhs);
        t + (if t < 0 { 1 } else { 0 } & (self ^ rhs))
    }
}
//@ end

//@ for $T in f32 f64
impl $T {
    pub const RADIX: u32 = 2;

    pub fn sqrt(self) -> $T {
        intrinsics::math_sqrt(self)
    }

    pub fn exp(self) -> $T {
        intrinsics::math_exp(self)
    }

    pub fn exp2(self) -> $T {
        intrinsics::math_exp2(self)
    }

    pub fn ln(self) -> $T {
        intrinsics::math_ln(self)
    }

    pub fn log2(self) -> $T {
        intrinsics::math_log2(self)
    }

    pub fn log10(self) -> $T {
        intrinsics::math_log10(self)
    }

    pub fn log(self, base: $T) -> $T {
        self.ln() / base.ln()
    }

    pub fn sin(self) -> $T {
        intrinsics::math_sin(self)
    }

    pub fn cos(self) -> $T {
        intrinsics::math_cos(self)
    }

    pub fn tan(self) -> $T {
        intrinsics::math_tan(self)
    }

    pub fn sin_cos(self) -> ($T, $T) {
        (self.sin(), self.cos())
    }

    pub fn tanh(self) -> $T {
        intrinsics::math_tanh(self)
    }

    pub fn asin(self) -> $T {
        intrinsics::math_asin(self)
    }

    pub fn acos(self) -> $T {
        intrinsics::math_acos(self)
    }

    pub fn atan(self) -> $T {
        intrinsics::math_atan(self)
    }

    pub fn sinh(self) -> $T {
        intrinsics::math_sinh(self)
    }

    pub fn cosh(self) -> $T {
        intrinsics::math_cosh(self)
    }

    // The inverse hyperbolic functions as std computes them (from `hypot`, `ln_1p`, `sqrt`
    // and `ln`, not libm's own), so that they give std's results wherever those do.
    pub fn asinh(self) -> $T {
        let ax = self.abs();
        let ix = 1.0 / ax;
        (ax + (ax / (<$T>::hypot(1.0, ix) + ix))).ln_1p().copysign(self)
    }

    pub fn acosh(self) -> $T {
        if self < 1.0 {
            <$T>::NAN
        } else {
            (self + ((self - 1.0).sqrt() * (self + 1.0).sqrt())).ln()
        }
    }

    pub fn atanh(self) -> $T {
        0.5 * ((2.0 * self) / (1.0 - self)).ln_1p()
    }

    pub fn cbrt(self) -> $T {
        intrinsics::math_cbrt(self)
    }

    pub fn exp_m1(self) -> $T {
        intrinsics::math_exp_m1(self)
    }

    pub fn ln_1p(self) -> $T {
        intrinsics::math_ln_1p(self)
    }

    pub fn floor(self) -> $T {
        intrinsics::math_floor(self)
    }

    pub fn ceil(self) -> $T {
        intrinsics::math_ceil(self)
    }

    pub fn round(self) -> $T {
        intrinsics::math_round(self)
    }

    pub fn trunc(self) -> $T {
        intrinsics::math_trunc(self)
    }

    pub fn fract(self) -> $T {
        self - self.trunc()
    }

    pub fn abs(self) -> $T {
        intrinsics::math_abs(self)
    }

    pub fn signum(self) -> $T {
        if self.is_nan() { <$T>::NAN } else { intrinsics::math_copysign(1.0, self) }
    }

    pub fn copysign(self, sign: $T) -> $T {
        intrinsics::math_copysign(self, sign)
    }

    pub fn mul_add(self, a: $T, b: $T) -> $T {
        intrinsics::math_mul_add(self, a, b)
    }

    pub fn powf(self, n: $T) -> $T {
        intrinsics::math_powf(self, n)
    }

    /// `powi` as compiler-rt's `__powisf2` computes it (what rustc's `powi` calls on the
    /// host): square-and-multiply, then a reciprocal for a negative exponent.
    pub fn powi(self, n: i32) -> $T {
        let mut a = self;
        let mut b = n;
        let mut r: $T = 1.0;
        loop {
            if b & 1 != 0 {
                r *= a;
            }
            b /= 2;
            if b == 0 {
                break;
            }
            a *= a;
        }
        if n < 0 { 1.0 / r } else { r }
    }

    pub fn hypot(self, other: $T) -> $T {
        intrinsics::math_hypot(self, other)
    }

    pub fn atan2(self, other: $T) -> $T {
        intrinsics::math_atan2(self, other)
    }

    pub fn recip(self) -> $T {
        1.0 / self
    }

    pub fn to_degrees(self) -> $T {
        self * crate::$T::DEGREES_PER_RADIAN
    }

    pub fn to_radians(self) -> $T {
        self * (crate::$T::consts::PI / 180.0)
    }

    pub fn min(self, other: $T) -> $T {
        intrinsics::math_min(self, other)
    }

    pub fn max(self, other: $T) -> $T {
        intrinsics::math_max(self, other)
    }

    #[track_caller]
    pub fn clamp(self, min: $T, max: $T) -> $T {
        assert!(min <= max, "min > max, or either was NaN");
        let mut x = self;
        if x < min {
            x = min;
        }
        if x > max {
            x = max;
        }
        x
    }

    pub const fn is_nan(self) -> bool {
        self != self
    }

    pub fn is_infinite(self) -> bool {
        self.abs() == <$T>::INFINITY
    }

    pub fn is_finite(self) -> bool {
        self.abs() < <$T>::INFINITY
    }

    /// The least number greater than `self` (NaN and infinity stay).
    pub fn next_up(self) -> $T {
        let bits = self.to_bits();
        if self.is_nan() || bits == <$T>::INFINITY.to_bits() {
            return self;
        }
        let sign: $U = 1 << ($BITS - 1);
        let abs = bits & !sign;
        let next = if abs == 0 { 1 } else if bits == abs { bits + 1 } else { bits - 1 };
        <$T>::from_bits(next)
    }

    /// The greatest number less than `self` (NaN and negative infinity stay).
    pub fn next_down(self) -> $T {
        -(-self).next_up()
    }

    pub fn classify(self) -> FpCategory {
        if self.is_nan() {
            FpCategory::Nan
        } else if self.is_infinite() {
            FpCategory::Infinite
        } else if self == 0.0 {
            FpCategory::Zero
        } else if self.is_subnormal() {
            FpCategory::Subnormal
        } else {
            FpCategory::Normal
        }
    }

    pub fn is_normal(self) -> bool {
        let a = self.abs();
        a >= <$T>::MIN_POSITIVE && a < <$T>::INFINITY
    }

    pub fn is_subnormal(self) -> bool {
        let a = self.abs();
        a > 0.0 && a < <$T>::MIN_POSITIVE
    }

    pub fn is_sign_negative(self) -> bool {
        (self.to_bits() >> ($BITS - 1)) != 0
    }

    pub fn is_sign_positive(self) -> bool {
        !self.is_sign_negative()
    }

    pub fn to_bits(self) -> $U {
        intrinsics::math_to_bits(self)
    }

    pub fn from_bits(v: $U) -> $T {
        intrinsics::math_from_bits(v)
    }

    pub fn to_le_bytes(self) -> [u8; $BITS / 8] {
        self.to_bits().to_le_bytes()
    }

    pub fn to_be_bytes(self) -> [u8; $BITS / 8] {
        self.to_bits().to_be_bytes()
    }

    pub fn to_ne_bytes(self) -> [u8; $BITS / 8] {
        self.to_bits().to_ne_bytes()
    }

    pub fn from_le_bytes(bytes: [u8; $BITS / 8]) -> $T {
        <$T>::from_bits(<$U>::from_le_bytes(bytes))
    }

    pub fn from_be_bytes(bytes: [u8; $BITS / 8]) -> $T {
        <$T>::from_bits(<$U>::from_be_bytes(bytes))
    }

    pub fn from_ne_bytes(bytes: [u8; $BITS / 8]) -> $T {
        <$T>::from_bits(<$U>::from_ne_bytes(bytes))
    }

    pub fn round_ties_even(self) -> $T {
        intrinsics::math_round_ties_even(self)
    }

    /// The midpoint as core computes it: for f32, exactly through f64 and rounded once; for
    /// f64, halving first where the sum could overflow or lose a subnormal.
    pub fn midpoint(self, other: $T) -> $T {
        if $BITS == 32 {
            return ((self as f64 + other as f64) / 2.0) as $T;
        }
        let lo: $T = <$T>::MIN_POSITIVE * 2.0;
        let hi: $T = <$T>::MAX / 2.0;
        let (a, b) = (self, other);
        let (abs_a, abs_b) = (a.abs(), b.abs());
        if abs_a <= hi && abs_b <= hi {
            (a + b) / 2.0
        } else if abs_a < lo {
            a + (b / 2.0)
        } else if abs_b < lo {
            (a / 2.0) + b
        } else {
            (a / 2.0) + (b / 2.0)
        }
    }

    pub fn rem_euclid(self, rhs: $T) -> $T {
        let r = self % rhs;
        if r < 0.0 { r + rhs.abs() } else { r }
    }

    pub fn div_euclid(self, rhs: $T) -> $T {
        let q = (self / rhs).trunc();
        if self % rhs < 0.0 {
            return if rhs > 0.0 { q - 1.0 } else { q + 1.0 };
        }
        q
    }

    pub fn total_cmp(&self, other: &$T) -> crate::cmp::Ordering {
        let mut left = self.to_bits() as $S;
        let mut right = other.to_bits() as $S;
        left ^= (((left >> ($BITS - 1)) as $U) >> 1) as $S;
        right ^= (((right >> ($BITS - 1)) as $U) >> 1) as $S;
        left.cmp(&right)
    }
}
//@ end

impl f32 {
    pub const MAX: f32 = crate::f32::MAX;
    pub const MIN: f32 = crate::f32::MIN;
    pub const MIN_POSITIVE: f32 = crate::f32::MIN_POSITIVE;
    pub const EPSILON: f32 = crate::f32::EPSILON;
    pub const INFINITY: f32 = crate::f32::INFINITY;
    pub const NEG_INFINITY: f32 = crate::f32::NEG_INFINITY;
    pub const NAN: f32 = crate::f32::NAN;
    pub const MANTISSA_DIGITS: u32 = 24;
    pub const DIGITS: u32 = 6;
    pub const MIN_EXP: i32 = -125;
    pub const MAX_EXP: i32 = 128;
}

impl f64 {
    pub const MAX: f64 = crate::f64::MAX;
    pub const MIN: f64 = crate::f64::MIN;
    pub const MIN_POSITIVE: f64 = crate::f64::MIN_POSITIVE;
    pub const EPSILON: f64 = crate::f64::EPSILON;
    pub const INFINITY: f64 = crate::f64::INFINITY;
    pub const NEG_INFINITY: f64 = crate::f64::NEG_INFINITY;
    pub const NAN: f64 = crate::f64::NAN;
    pub const MANTISSA_DIGITS: u32 = 53;
    pub const DIGITS: u32 = 15;
    pub const MIN_EXP: i32 = -1021;
    pub const MAX_EXP: i32 = 1024;
}

impl bool {
    pub fn then_some<T>(self, t: T) -> Option<T> {
        if self { Some(t) } else { None }
    }

    pub fn then<T, F: FnOnce() -> T>(self, f: F) -> Option<T> {
        if self { Some(f()) } else { None }
    }
}

/// Arithmetic that wraps around on overflow, as `core::num::Wrapping` (hashes and random
/// number generators): `Wrapping(a) * Wrapping(b)` is `a.wrapping_mul(b)`. Kernels' integer
/// arithmetic wraps already (Rust's release semantics, shift amounts modulo the width), so the
/// operators are the plain ones, for every integer type at once.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Wrapping<T>(pub T);

impl<T: crate::ops::Add<Output = T> + crate::default::Default> crate::iter::Sum for Wrapping<T> {
    fn sum<I: crate::iter::Iterator<Item = Wrapping<T>>>(iter: I) -> Wrapping<T> {
        iter.fold(Wrapping(T::default()), |a, b| a + b)
    }
}

impl<T: crate::ops::Mul<Output = T> + crate::convert::From<u8>> crate::iter::Product for Wrapping<T> {
    fn product<I: crate::iter::Iterator<Item = Wrapping<T>>>(iter: I) -> Wrapping<T> {
        iter.fold(Wrapping(T::from(1u8)), |a, b| a * b)
    }
}

impl<T: crate::ops::Add<Output = T>> crate::ops::Add for Wrapping<T> {
    type Output = Wrapping<T>;
    fn add(self, rhs: Wrapping<T>) -> Wrapping<T> {
        Wrapping(crate::ops::Add::add(self.0, rhs.0))
    }
}

impl<T: crate::ops::Sub<Output = T>> crate::ops::Sub for Wrapping<T> {
    type Output = Wrapping<T>;
    fn sub(self, rhs: Wrapping<T>) -> Wrapping<T> {
        Wrapping(crate::ops::Sub::sub(self.0, rhs.0))
    }
}

impl<T: crate::ops::Mul<Output = T>> crate::ops::Mul for Wrapping<T> {
    type Output = Wrapping<T>;
    fn mul(self, rhs: Wrapping<T>) -> Wrapping<T> {
        Wrapping(crate::ops::Mul::mul(self.0, rhs.0))
    }
}

impl<T: crate::ops::BitXor<Output = T>> crate::ops::BitXor for Wrapping<T> {
    type Output = Wrapping<T>;
    fn bitxor(self, rhs: Wrapping<T>) -> Wrapping<T> {
        Wrapping(crate::ops::BitXor::bitxor(self.0, rhs.0))
    }
}

impl<T: crate::ops::BitAnd<Output = T>> crate::ops::BitAnd for Wrapping<T> {
    type Output = Wrapping<T>;
    fn bitand(self, rhs: Wrapping<T>) -> Wrapping<T> {
        Wrapping(crate::ops::BitAnd::bitand(self.0, rhs.0))
    }
}

impl<T: crate::ops::BitOr<Output = T>> crate::ops::BitOr for Wrapping<T> {
    type Output = Wrapping<T>;
    fn bitor(self, rhs: Wrapping<T>) -> Wrapping<T> {
        Wrapping(crate::ops::BitOr::bitor(self.0, rhs.0))
    }
}

impl<T: Copy + crate::ops::Add<Output = T>> crate::ops::AddAssign for Wrapping<T> {
    fn add_assign(&mut self, rhs: Wrapping<T>) {
        self.0 = crate::ops::Add::add(self.0, rhs.0);
    }
}

impl<T: Copy + crate::ops::Sub<Output = T>> crate::ops::SubAssign for Wrapping<T> {
    fn sub_assign(&mut self, rhs: Wrapping<T>) {
        self.0 = crate::ops::Sub::sub(self.0, rhs.0);
    }
}

impl<T: Copy + crate::ops::Mul<Output = T>> crate::ops::MulAssign for Wrapping<T> {
    fn mul_assign(&mut self, rhs: Wrapping<T>) {
        self.0 = crate::ops::Mul::mul(self.0, rhs.0);
    }
}

impl<T: Copy + crate::ops::BitXor<Output = T>> crate::ops::BitXorAssign for Wrapping<T> {
    fn bitxor_assign(&mut self, rhs: Wrapping<T>) {
        self.0 = crate::ops::BitXor::bitxor(self.0, rhs.0);
    }
}

impl<T: Copy + crate::ops::BitAnd<Output = T>> crate::ops::BitAndAssign for Wrapping<T> {
    fn bitand_assign(&mut self, rhs: Wrapping<T>) {
        self.0 = crate::ops::BitAnd::bitand(self.0, rhs.0);
    }
}

impl<T: Copy + crate::ops::BitOr<Output = T>> crate::ops::BitOrAssign for Wrapping<T> {
    fn bitor_assign(&mut self, rhs: Wrapping<T>) {
        self.0 = crate::ops::BitOr::bitor(self.0, rhs.0);
    }
}

/// `-Wrapping(x)` is `0 - x`, wrapped: unsigned types too.
impl<T: Default + crate::ops::Sub<Output = T>> crate::ops::Neg for Wrapping<T> {
    type Output = Wrapping<T>;
    fn neg(self) -> Wrapping<T> {
        Wrapping(T::default() - self.0)
    }
}

/// Shifts by a `usize` amount, taken modulo the width (the integers' shifts by a `u32`, which
/// wrap the amount already).
impl<T: crate::ops::Shl<u32, Output = T>> crate::ops::Shl<usize> for Wrapping<T> {
    type Output = Wrapping<T>;
    fn shl(self, rhs: usize) -> Wrapping<T> {
        Wrapping(self.0 << (rhs as u32))
    }
}

impl<T: crate::ops::Shr<u32, Output = T>> crate::ops::Shr<usize> for Wrapping<T> {
    type Output = Wrapping<T>;
    fn shr(self, rhs: usize) -> Wrapping<T> {
        Wrapping(self.0 >> (rhs as u32))
    }
}

impl<T: Copy + crate::ops::Shl<u32, Output = T>> crate::ops::ShlAssign<usize> for Wrapping<T> {
    fn shl_assign(&mut self, rhs: usize) {
        self.0 = self.0 << (rhs as u32);
    }
}

impl<T: Copy + crate::ops::Shr<u32, Output = T>> crate::ops::ShrAssign<usize> for Wrapping<T> {
    fn shr_assign(&mut self, rhs: usize) {
        self.0 = self.0 >> (rhs as u32);
    }
}

/// Arithmetic that stops at the type's bounds, as `core::num::Saturating`: `Saturating(a) +
/// Saturating(b)` is `a.saturating_add(b)`. The saturating methods are each integer type's
/// own, so the operators are written for each type, not once over `T` as `Wrapping`'s are;
/// division saturates only at `MIN / -1` and panics on a zero divisor, and the remainder and
/// the bit operations are the plain ones. There are no shifts: core's are not stable.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Saturating<T>(pub T);

//@ for $T in u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize
impl Saturating<$T> {
    pub const MIN: Saturating<$T> = Saturating(<$T>::MIN);
    pub const MAX: Saturating<$T> = Saturating(<$T>::MAX);
    pub const BITS: u32 = $BITS;
}

impl crate::ops::Add for Saturating<$T> {
    type Output = Saturating<$T>;
    fn add(self, rhs: Saturating<$T>) -> Saturating<$T> {
        Saturating(self.0.saturating_add(rhs.0))
    }
}

impl crate::ops::Sub for Saturating<$T> {
    type Output = Saturating<$T>;
    fn sub(self, rhs: Saturating<$T>) -> Saturating<$T> {
        Saturating(self.0.saturating_sub(rhs.0))
    }
}

impl crate::ops::Mul for Saturating<$T> {
    type Output = Saturating<$T>;
    fn mul(self, rhs: Saturating<$T>) -> Saturating<$T> {
        Saturating(self.0.saturating_mul(rhs.0))
    }
}

impl crate::ops::Div for Saturating<$T> {
    type Output = Saturating<$T>;
    #[track_caller]
    fn div(self, rhs: Saturating<$T>) -> Saturating<$T> {
        Saturating(self.0.saturating_div(rhs.0))
    }
}

impl crate::ops::Rem for Saturating<$T> {
    type Output = Saturating<$T>;
    #[track_caller]
    fn rem(self, rhs: Saturating<$T>) -> Saturating<$T> {
        Saturating(self.0 % rhs.0)
    }
}

impl crate::ops::Not for Saturating<$T> {
    type Output = Saturating<$T>;
    fn not(self) -> Saturating<$T> {
        Saturating(!self.0)
    }
}

impl crate::ops::BitXor for Saturating<$T> {
    type Output = Saturating<$T>;
    fn bitxor(self, rhs: Saturating<$T>) -> Saturating<$T> {
        Saturating(self.0 ^ rhs.0)
    }
}

impl crate::ops::BitAnd for Saturating<$T> {
    type Output = Saturating<$T>;
    fn bitand(self, rhs: Saturating<$T>) -> Saturating<$T> {
        Saturating(self.0 & rhs.0)
    }
}

impl crate::ops::BitOr for Saturating<$T> {
    type Output = Saturating<$T>;
    fn bitor(self, rhs: Saturating<$T>) -> Saturating<$T> {
        Saturating(self.0 | rhs.0)
    }
}

impl crate::ops::AddAssign for Saturating<$T> {
    fn add_assign(&mut self, rhs: Saturating<$T>) {
        *self = *self + rhs;
    }
}

impl crate::ops::SubAssign for Saturating<$T> {
    fn sub_assign(&mut self, rhs: Saturating<$T>) {
        *self = *self - rhs;
    }
}

impl crate::ops::MulAssign for Saturating<$T> {
    fn mul_assign(&mut self, rhs: Saturating<$T>) {
        *self = *self * rhs;
    }
}

impl crate::ops::DivAssign for Saturating<$T> {
    #[track_caller]
    fn div_assign(&mut self, rhs: Saturating<$T>) {
        *self = *self / rhs;
    }
}

impl crate::ops::RemAssign for Saturating<$T> {
    #[track_caller]
    fn rem_assign(&mut self, rhs: Saturating<$T>) {
        *self = *self % rhs;
    }
}

impl crate::ops::BitXorAssign for Saturating<$T> {
    fn bitxor_assign(&mut self, rhs: Saturating<$T>) {
        *self = *self ^ rhs;
    }
}

impl crate::ops::BitAndAssign for Saturating<$T> {
    fn bitand_assign(&mut self, rhs: Saturating<$T>) {
        *self = *self & rhs;
    }
}

impl crate::ops::BitOrAssign for Saturating<$T> {
    fn bitor_assign(&mut self, rhs: Saturating<$T>) {
        *self = *self | rhs;
    }
}

/// `x += 5` on a `Saturating<u8>`: the plain integer as the right operand of an assignment.
impl crate::ops::AddAssign<$T> for Saturating<$T> {
    fn add_assign(&mut self, rhs: $T) {
        *self = *self + Saturating(rhs);
    }
}

impl crate::ops::SubAssign<$T> for Saturating<$T> {
    fn sub_assign(&mut self, rhs: $T) {
        *self = *self - Saturating(rhs);
    }
}

impl crate::ops::MulAssign<$T> for Saturating<$T> {
    fn mul_assign(&mut self, rhs: $T) {
        *self = *self * Saturating(rhs);
    }
}

impl crate::ops::DivAssign<$T> for Saturating<$T> {
    #[track_caller]
    fn div_assign(&mut self, rhs: $T) {
        *self = *self / Saturating(rhs);
    }
}

impl crate::ops::RemAssign<$T> for Saturating<$T> {
    #[track_caller]
    fn rem_assign(&mut self, rhs: $T) {
        *self = *self % Saturating(rhs);
    }
}

impl crate::ops::BitXorAssign<$T> for Saturating<$T> {
    fn bitxor_assign(&mut self, rhs: $T) {
        *self = *self ^ Saturating(rhs);
    }
}

impl crate::ops::BitAndAssign<$T> for Saturating<$T> {
    fn bitand_assign(&mut self, rhs: $T) {
        *self = *self & Saturating(rhs);
    }
}

impl crate::ops::BitOrAssign<$T> for Saturating<$T> {
    fn bitor_assign(&mut self, rhs: $T) {
        *self = *self | Saturating(rhs);
    }
}
//@ end

//@ for $T in i8 i16 i32 i64 i128 isize
/// `-Saturating(MIN)` is `MAX`.
impl crate::ops::Neg for Saturating<$T> {
    type Output = Saturating<$T>;
    fn neg(self) -> Saturating<$T> {
        Saturating(self.0.saturating_neg())
    }
}
//@ end
