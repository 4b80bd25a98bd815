//! The `half` crate (version 2) as kernels use it: `f16` (IEEE binary16) and `bf16`
//! (bfloat16), the types stable Rust has for 16-bit floats on the host. On the device they are
//! rk's 16-bit float types, so arithmetic and comparisons are single instructions where the GPU
//! has them; here is the rest of `half`'s API, written to give what `half` gives on the host.
//!
//! `half` computes `+ - * / %` in f32 and rounds once, which is exactly the IEEE operation of
//! the 16-bit type (f32 has more than twice the bits plus two), so the built-in operators of
//! the device, which round each operation to the 16-bit type, agree with it. `Sum` and
//! `Product` are different: `half` adds up in f32 and rounds only the total, and so does this
//! module. (On Arm CPUs with FP16 arithmetic `half` 2.7 takes another path: it adds and
//! multiplies in f16, and its `product` starts from 0, so it always gives 0; rkc keeps the
//! portable behaviour.) `f16::from_f64` is rounded
//! through f32, which is what `half` does on x86-64 hosts with F16C (every x86-64 CPU since
//! 2013); `bf16::from_f64` drops the low 32 bits of the f64 before rounding, as `half` does.

pub use bf16;
pub use f16;

use crate::cmp::Ordering;
use crate::intrinsics;

//@ for $T in f16 bf16
impl $T {
    pub const fn from_bits(bits: u16) -> $T {
        intrinsics::math_from_bits(bits)
    }

    pub const fn to_bits(self) -> u16 {
        intrinsics::math_to_bits(self)
    }

    pub fn from_f32(value: f32) -> $T {
        value as $T
    }

    pub const fn from_f32_const(value: f32) -> $T {
        value as $T
    }

    pub fn to_f32(self) -> f32 {
        self as f32
    }

    pub const fn to_f32_const(self) -> f32 {
        self as f32
    }

    pub fn to_f64(self) -> f64 {
        self as f64
    }

    pub const fn to_f64_const(self) -> f64 {
        self as f64
    }

    pub const fn to_le_bytes(self) -> [u8; 2] {
        self.to_bits().to_le_bytes()
    }

    pub const fn to_be_bytes(self) -> [u8; 2] {
        self.to_bits().to_be_bytes()
    }

    pub const fn to_ne_bytes(self) -> [u8; 2] {
        self.to_bits().to_ne_bytes()
    }

    pub const fn from_le_bytes(bytes: [u8; 2]) -> $T {
        <$T>::from_bits(u16::from_le_bytes(bytes))
    }

    pub const fn from_be_bytes(bytes: [u8; 2]) -> $T {
        <$T>::from_bits(u16::from_be_bytes(bytes))
    }

    pub const fn from_ne_bytes(bytes: [u8; 2]) -> $T {
        <$T>::from_bits(u16::from_ne_bytes(bytes))
    }

    pub const fn is_nan(self) -> bool {
        self.to_bits() & 0x7FFF > <$T>::INFINITY.to_bits()
    }

    pub const fn is_infinite(self) -> bool {
        self.to_bits() & 0x7FFF == <$T>::INFINITY.to_bits()
    }

    pub const fn is_finite(self) -> bool {
        self.to_bits() & <$T>::INFINITY.to_bits() != <$T>::INFINITY.to_bits()
    }

    pub const fn is_normal(self) -> bool {
        let exp = self.to_bits() & <$T>::INFINITY.to_bits();
        exp != <$T>::INFINITY.to_bits() && exp != 0
    }

    pub const fn signum(self) -> $T {
        if self.is_nan() {
            self
        } else if self.to_bits() & 0x8000 != 0 {
            <$T>::NEG_ONE
        } else {
            <$T>::ONE
        }
    }

    pub const fn is_sign_positive(self) -> bool {
        self.to_bits() & 0x8000 == 0
    }

    pub const fn is_sign_negative(self) -> bool {
        self.to_bits() & 0x8000 != 0
    }

    pub const fn copysign(self, sign: $T) -> $T {
        <$T>::from_bits((sign.to_bits() & 0x8000) | (self.to_bits() & 0x7FFF))
    }

    pub fn max(self, other: $T) -> $T {
        if self.is_nan() || other > self { other } else { self }
    }

    pub fn min(self, other: $T) -> $T {
        if self.is_nan() || other < self { other } else { self }
    }

    pub fn clamp(self, min: $T, max: $T) -> $T {
        assert!(min <= max);
        let mut x = self;
        if x < min {
            x = min;
        }
        if x > max {
            x = max;
        }
        x
    }

    pub fn total_cmp(&self, other: &Self) -> Ordering {
        let mut left = self.to_bits() as i16;
        let mut right = other.to_bits() as i16;
        left ^= (((left >> 15) as u16) >> 1) as i16;
        right ^= (((right >> 15) as u16) >> 1) as i16;
        left.cmp(&right)
    }
}

impl From<$T> for f32 {
    fn from(x: $T) -> f32 {
        x as f32
    }
}

impl From<$T> for f64 {
    fn from(x: $T) -> f64 {
        x as f64
    }
}

impl From<i8> for $T {
    fn from(x: i8) -> $T {
        x as $T
    }
}

impl From<u8> for $T {
    fn from(x: u8) -> $T {
        x as $T
    }
}

impl crate::iter::Sum for $T {
    fn sum<I: Iterator<Item = $T>>(iter: I) -> $T {
        <$T>::from_f32(iter.map(|x| x.to_f32()).sum::<f32>())
    }
}

impl<'a> crate::iter::Sum<&'a $T> for $T {
    fn sum<I: Iterator<Item = &'a $T>>(iter: I) -> $T {
        <$T>::from_f32(iter.map(|x| x.to_f32()).sum::<f32>())
    }
}

impl crate::iter::Product for $T {
    fn product<I: Iterator<Item = $T>>(iter: I) -> $T {
        <$T>::from_f32(iter.map(|x| x.to_f32()).product::<f32>())
    }
}

impl<'a> crate::iter::Product<&'a $T> for $T {
    fn product<I: Iterator<Item = &'a $T>>(iter: I) -> $T {
        <$T>::from_f32(iter.map(|x| x.to_f32()).product::<f32>())
    }
}
//@ end

impl f16 {
    /// Rounded through f32, as `half` does on x86-64 hosts (see the module's documentation).
    pub fn from_f64(value: f64) -> f16 {
        (value as f32) as f16
    }

    pub const fn from_f64_const(value: f64) -> f16 {
        (value as f32) as f16
    }

    pub const DIGITS: u32 = 3;
    pub const EPSILON: f16 = f16::from_bits(0x1400);
    pub const INFINITY: f16 = f16::from_bits(0x7C00);
    pub const MANTISSA_DIGITS: u32 = 11;
    pub const MAX: f16 = f16::from_bits(0x7BFF);
    pub const MAX_10_EXP: i32 = 4;
    pub const MAX_EXP: i32 = 16;
    pub const MIN: f16 = f16::from_bits(0xFBFF);
    pub const MIN_10_EXP: i32 = -4;
    pub const MIN_EXP: i32 = -13;
    pub const MIN_POSITIVE: f16 = f16::from_bits(0x0400);
    pub const NAN: f16 = f16::from_bits(0x7E00);
    pub const NEG_INFINITY: f16 = f16::from_bits(0xFC00);
    pub const RADIX: u32 = 2;
    pub const MIN_POSITIVE_SUBNORMAL: f16 = f16::from_bits(0x0001);
    pub const MAX_SUBNORMAL: f16 = f16::from_bits(0x03FF);
    pub const ONE: f16 = f16::from_bits(0x3C00);
    pub const ZERO: f16 = f16::from_bits(0x0000);
    pub const NEG_ZERO: f16 = f16::from_bits(0x8000);
    pub const NEG_ONE: f16 = f16::from_bits(0xBC00);
    pub const E: f16 = f16::from_bits(0x4170);
    pub const PI: f16 = f16::from_bits(0x4248);
    pub const FRAC_1_PI: f16 = f16::from_bits(0x3518);
    pub const FRAC_1_SQRT_2: f16 = f16::from_bits(0x39A8);
    pub const FRAC_2_PI: f16 = f16::from_bits(0x3918);
    pub const FRAC_2_SQRT_PI: f16 = f16::from_bits(0x3C83);
    pub const FRAC_PI_2: f16 = f16::from_bits(0x3E48);
    pub const FRAC_PI_3: f16 = f16::from_bits(0x3C30);
    pub const FRAC_PI_4: f16 = f16::from_bits(0x3A48);
    pub const FRAC_PI_6: f16 = f16::from_bits(0x3830);
    pub const FRAC_PI_8: f16 = f16::from_bits(0x3648);
    pub const LN_10: f16 = f16::from_bits(0x409B);
    pub const LN_2: f16 = f16::from_bits(0x398C);
    pub const LOG10_E: f16 = f16::from_bits(0x36F3);
    pub const LOG10_2: f16 = f16::from_bits(0x34D1);
    pub const LOG2_E: f16 = f16::from_bits(0x3DC5);
    pub const LOG2_10: f16 = f16::from_bits(0x42A5);
    pub const SQRT_2: f16 = f16::from_bits(0x3DA8);
}

impl bf16 {
    /// The f64's low 32 bits are dropped before rounding, as `half` does.
    pub fn from_f64(value: f64) -> bf16 {
        f64::from_bits(value.to_bits() & 0xFFFF_FFFF_0000_0000) as bf16
    }

    pub const fn from_f64_const(value: f64) -> bf16 {
        f64::from_bits(value.to_bits() & 0xFFFF_FFFF_0000_0000) as bf16
    }

    pub const DIGITS: u32 = 2;
    pub const EPSILON: bf16 = bf16::from_bits(0x3C00);
    pub const INFINITY: bf16 = bf16::from_bits(0x7F80);
    pub const MANTISSA_DIGITS: u32 = 8;
    pub const MAX: bf16 = bf16::from_bits(0x7F7F);
    pub const MAX_10_EXP: i32 = 38;
    pub const MAX_EXP: i32 = 128;
    pub const MIN: bf16 = bf16::from_bits(0xFF7F);
    pub const MIN_10_EXP: i32 = -37;
    pub const MIN_EXP: i32 = -125;
    pub const MIN_POSITIVE: bf16 = bf16::from_bits(0x0080);
    pub const NAN: bf16 = bf16::from_bits(0x7FC0);
    pub const NEG_INFINITY: bf16 = bf16::from_bits(0xFF80);
    pub const RADIX: u32 = 2;
    pub const MIN_POSITIVE_SUBNORMAL: bf16 = bf16::from_bits(0x0001);
    pub const MAX_SUBNORMAL: bf16 = bf16::from_bits(0x007F);
    pub const ONE: bf16 = bf16::from_bits(0x3F80);
    pub const ZERO: bf16 = bf16::from_bits(0x0000);
    pub const NEG_ZERO: bf16 = bf16::from_bits(0x8000);
    pub const NEG_ONE: bf16 = bf16::from_bits(0xBF80);
    pub const E: bf16 = bf16::from_bits(0x402E);
    pub const PI: bf16 = bf16::from_bits(0x4049);
    pub const FRAC_1_PI: bf16 = bf16::from_bits(0x3EA3);
    pub const FRAC_1_SQRT_2: bf16 = bf16::from_bits(0x3F35);
    pub const FRAC_2_PI: bf16 = bf16::from_bits(0x3F23);
    pub const FRAC_2_SQRT_PI: bf16 = bf16::from_bits(0x3F90);
    pub const FRAC_PI_2: bf16 = bf16::from_bits(0x3FC9);
    pub const FRAC_PI_3: bf16 = bf16::from_bits(0x3F86);
    pub const FRAC_PI_4: bf16 = bf16::from_bits(0x3F49);
    pub const FRAC_PI_6: bf16 = bf16::from_bits(0x3F06);
    pub const FRAC_PI_8: bf16 = bf16::from_bits(0x3EC9);
    pub const LN_10: bf16 = bf16::from_bits(0x4013);
    pub const LN_2: bf16 = bf16::from_bits(0x3F31);
    pub const LOG10_E: bf16 = bf16::from_bits(0x3EDE);
    pub const LOG10_2: bf16 = bf16::from_bits(0x3E9A);
    pub const LOG2_E: bf16 = bf16::from_bits(0x3FB9);
    pub const LOG2_10: bf16 = bf16::from_bits(0x4055);
    pub const SQRT_2: bf16 = bf16::from_bits(0x3FB5);
}
