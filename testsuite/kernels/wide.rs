//! 128-bit integers as kernels use them: the full product of two `u64`s (the high half is
//! what hash functions and Montgomery multiplication keep), fixed-point sums in `i128`,
//! division and remainder of 128-bit values, their conversions to and from floats, the
//! checked and overflowing forms, bit counts, local arrays of `u128`, and literals beyond
//! `i128::MAX`.
use rkc_offload::prelude::*;

/// The wyhash "mum" step: the 128-bit product folded into 64 bits.
fn mum(a: u64, b: u64) -> u64 {
    let r = (a as u128) * (b as u128);
    (r as u64) ^ ((r >> 64) as u64)
}

/// `a * b mod m` without overflow, through the 128-bit product.
fn mul_mod(a: u64, b: u64, m: u64) -> u64 {
    ((a as u128 * b as u128) % m as u128) as u64
}

/// Eight results per thread from two random `u64` inputs.
#[offload_kernel]
pub fn wide_integers(xs: &[u64], ys: &[u64], out: &mut [u64]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { thread_idx_x() } as usize;
    let (x, y) = (xs[i], ys[i]);
    let wide = (x as u128) << 64 | y as u128;
    let m = (y | 1) % 1_000_000_007 + 2;
    let mut acc: i128 = 0;
    for k in 0..4u32 {
        // Signed fixed point with 64 fraction bits: products of values near 1.0.
        let a = ((x >> 4) as i128) - (1i128 << 59);
        let b = ((y >> (4 + k)) as i128) - (1i128 << 58);
        acc = acc.wrapping_add((a * b) >> 32);
    }
    let divisor = (y as u128 | 1) * 3 + (x as u128 >> 7);
    let limit = u128::MAX - 5;
    let (sum, carried) = wide.overflowing_add(limit);
    out[i * 8] = mum(x, y);
    out[i * 8 + 1] = mul_mod(x, y, m);
    out[i * 8 + 2] = acc as u64 ^ (acc >> 64) as u64;
    out[i * 8 + 3] = (wide / divisor) as u64 ^ (wide % divisor) as u64;
    out[i * 8 + 4] = (sum >> 3) as u64 + carried as u64;
    out[i * 8 + 5] = match (x as u128).checked_mul(u64::MAX as u128 + (y as u128) * (y as u128)) {
        Some(v) => v.leading_zeros() as u64 + (v.count_ones() as u64) * 1000,
        None => 7,
    };
    out[i * 8 + 6] = wide.rotate_left(x as u32 % 128) as u64 ^ wide.trailing_zeros() as u64;
    let signed = (wide as i128).wrapping_neg() / ((y as i128 % 1000) - 500 | 1);
    out[i * 8 + 7] = (signed as u64) ^ (signed.signum() as u64) ^ (wide > limit >> 1) as u64;
}

/// Conversions between 128-bit integers and floats, both ways, with values that round, that
/// saturate and that fit exactly.
#[offload_kernel]
pub fn wide_floats(xs: &[u64], ys: &[u64], out: &mut [f64], back: &mut [u64]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { thread_idx_x() } as usize;
    let (x, y) = (xs[i], ys[i]);
    let wide = (x as u128) << (y % 65) | y as u128;
    let signed = -(wide as i128 >> 1);
    out[i * 4] = wide as f64;
    out[i * 4 + 1] = (wide as f32) as f64;
    out[i * 4 + 2] = signed as f64;
    out[i * 4 + 3] = (signed as f32) as f64;
    // Float to 128 bits: large, negative (saturating to 0 for u128), NaN and infinite values.
    let f = (x as f64) * (y as f64) * if y % 5 == 0 { 1e20 } else { 1.0 };
    let g = -(x as f32) * 1e10;
    let specials = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 3.9e38];
    let s = specials[(y % 4) as usize];
    let u = f as u128;
    let v = g as i128;
    let w = s as u128;
    let z = s as i128;
    let words: [u128; 4] = [u, v as u128, w, z as u128];
    let mut folded = 0u64;
    for (k, word) in words.iter().enumerate() {
        folded ^= (*word as u64).rotate_left(k as u32 * 7) ^ (*word >> 64) as u64;
    }
    back[i] = folded;
}

/// A `u128` and an `i128` kernel parameter, which the runtime copies to the device by value.
#[offload_kernel]
pub fn wide_params(seed: u128, bias: i128, xs: &[u64], out: &mut [u64]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { thread_idx_x() } as usize;
    let mixed = (seed ^ xs[i] as u128).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835);
    out[i] = ((mixed >> 64) as i128 + bias) as u64;
}
