//! Methods of the primitive types on the widths the other kernels leave out, `core::mem::swap`
//! and `size_of`.
use core::mem::size_of;
use rkc_offload::prelude::*;

/// `i16` and `u64` methods: `min`, `max`, `clamp`, `abs`, `pow`, the wrapping and saturating
/// families, bit counts and rotations.
#[offload_kernel]
pub fn int_methods_wide(xs: *const [u64; 64], out: *mut [u64; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*xs)[t];
        let h = x as i16;
        let hs = h.min(100).max(-100).abs() as u64
            ^ (h.clamp(-7, 9) as u64) << 8
            ^ (h.wrapping_mul(h) as u16 as u64) << 16
            ^ (h.saturating_add(20000) as u16 as u64) << 32
            ^ (h.saturating_sub(20000) as u16 as u64) << 48;
        let w = x
            .wrapping_add(x.rotate_left(13))
            .wrapping_sub(t as u64)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let bits = x.count_ones() as u64
            | (x.leading_zeros() as u64) << 8
            | (x.trailing_zeros() as u64) << 16
            | ((x >> 60).pow(3) as u64) << 24;
        let sat =
            x.saturating_add(x) ^ x.saturating_sub(w) ^ (x % 13).pow(5) ^ x.rotate_right(t as u32);
        (*out)[t] = hs
            ^ w
            ^ bits
            ^ sat
            ^ (x as i64).wrapping_neg() as u64
            ^ (x as i32).wrapping_abs() as u64;
    }
}

/// `f64` methods: rounding, `sqrt`, `mul_add`, `abs`, `min`/`max`/`clamp` (which ignore NaN as
/// Rust's do), `powi`, `recip`, `copysign`.
#[offload_kernel]
pub fn float_methods_f64(xs: *const [f64; 64], out: *mut [f64; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*xs)[t];
        let y = if t % 11 == 0 { f64::NAN } else { (*xs)[(t + 5) % 64] };
        let r = x.floor() + x.ceil() * 2.0 + x.round() * 4.0 + x.trunc() * 8.0;
        let s = x.abs().sqrt() + x.mul_add(y, 1.5) + x.min(y) - x.max(y) + x.clamp(-10.0, 10.0);
        let p = (x / 50.0).powi(3) + x.recip() + x.copysign(y) + (x * 0.5).round();
        (*out)[t] = r + s + p;
    }
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Header {
    pub kind: u8,
    pub len: u32,
    pub total: u64,
}

/// `core::mem::swap` on locals and on elements behind pointers, and `size_of` of scalars,
/// arrays and a struct.
#[offload_kernel]
pub fn swap_and_size(xs: *mut [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: indices are checked; `j != t` keeps the two elements apart.
    unsafe {
        let t = thread_idx_x() as usize;
        let mut a = (*xs)[t];
        let mut b = t as u32;
        core::mem::swap(&mut a, &mut b);
        let sizes = size_of::<u8>()
            + size_of::<f64>() * 2
            + size_of::<[u16; 5]>() * 3
            + size_of::<Header>() * 5
            + size_of::<usize>();
        (*out)[t] = a * 100000 + b % 1000 + sizes as u32;
    }
}
