//! `as` casts with Rust's semantics: float to integer saturates (NaN becomes 0), integer to
//! integer truncates or extends by the source's signedness, integer to float rounds to
//! nearest, `bool` to integer; and bit-level conversions.
use rkc_offload::prelude::*;

/// Floats far outside every integer range, NaN and infinities, cast to each integer type.
#[offload_kernel]
pub fn float_to_int(xs: *const [f32; 64], out: *mut [u64; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*xs)[t] * 1.0e8 * (t as f32 - 30.0);
        let v = match t % 8 {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => -f32::INFINITY,
            _ => x,
        };
        let d = v as f64 * 1.0e12;
        let parts = (v as i8 as u8 as u64)
            ^ (v as u8 as u64) << 8
            ^ (v as i16 as u16 as u64) << 16
            ^ (v as u16 as u64) << 24
            ^ (v as i32 as u32 as u64) << 32
            ^ (v as u32 as u64)
            ^ (v as i64 as u64).rotate_left(7)
            ^ (v as u64).rotate_left(13)
            ^ (d as i64 as u64).rotate_left(17)
            ^ (d as u64).rotate_left(19)
            ^ (d as usize as u64)
            ^ (d as isize as u64).rotate_left(23);
        (*out)[t] = parts;
    }
}

/// Truncation and sign or zero extension between every pair of integer widths.
#[offload_kernel]
pub fn int_to_int(xs: *const [u64; 64], out: *mut [u64; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*xs)[t];
        let a = x as i8 as i64 as u64;
        let b = x as u8 as i16 as u64;
        let c = x as i16 as u32 as u64;
        let d = x as u16 as i32 as i64 as u64;
        let e = x as i32 as u64;
        let f = x as u32 as i64 as u64;
        let g = (x as i64 >> 40) as i8 as u8 as u64;
        let h = x as isize as i16 as usize as u64;
        (*out)[t] = a
            ^ b.rotate_left(8)
            ^ c.rotate_left(16)
            ^ d.rotate_left(24)
            ^ e.rotate_left(32)
            ^ f.rotate_left(40)
            ^ g
            ^ h.rotate_left(3);
    }
}

/// Integers to floats (rounding to nearest, ties to even), `bool` to integers, and float
/// widening and narrowing.
#[offload_kernel]
pub fn to_float(xs: *const [u64; 64], out: *mut [f64; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*xs)[t];
        let a = x as f32 as f64;
        let b = (x as i64) as f64;
        let c = (x as u32) as f32 as f64;
        let d = (x as i16) as f64;
        let e = (x & 1 == 0) as u8 as f64 + (x & 2 == 0) as i32 as f64;
        let f = (x as f64 * 3.0e-310) as f32 as f64;
        (*out)[t] = a - b + c * 0.5 + d + e + f * 1.0e300;
    }
}

/// Bits: `to_bits`/`from_bits` round trips, the sign, NaN and infinity tests.
#[offload_kernel]
pub fn bits(xs: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let raw = (*xs)[t];
        let f = f32::from_bits(raw);
        let d = f64::from_bits((raw as u64) << 32 | raw as u64);
        let flags = f.is_nan() as u32
            | (f.is_infinite() as u32) << 1
            | (f.is_finite() as u32) << 2
            | (d.is_nan() as u32) << 3;
        let back = if f.is_nan() { 0 } else { (f * 2.0).to_bits() };
        (*out)[t] = back ^ flags ^ (d.to_bits() >> 32) as u32 ^ (-f).to_bits().rotate_left(1);
    }
}
