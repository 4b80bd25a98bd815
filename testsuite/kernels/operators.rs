//! Every arithmetic, bitwise, shift, comparison and logical operator on the narrow and wide
//! integer types and on floats, with a release build's semantics: integers wrap, shift
//! amounts are taken modulo the width, float `%` is C's `fmod`.
use rkc_offload::prelude::*;

/// `i8`, `u8`, `i16`, `u16`: wrapping arithmetic, division towards zero, shifts by amounts
/// past the width.
#[offload_kernel]
pub fn narrow_ints(xs: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*xs)[t];
        let a = x as i8;
        let b = (x >> 8) as u8 | 1;
        let c = (x >> 16) as i16;
        let d = (x >> 24) as u16 | 3;
        let sh = (x % 23) as u32;
        let r8 = a.wrapping_mul(3) - (a / (b as i8 | 1)) + (a % 7) + (a << sh) + (a >> sh);
        let u8s = b * 7 + b / 3 - b % 5 + (b << sh) + (b >> (sh % 8));
        let r16 = c * 3 - c / (d as i16 | 1) + (c << sh) + (c >> sh) - c % 11;
        let u16s = d.wrapping_mul(d) + d / 7 + (d << sh) + (d >> sh) ^ (d & 0x0f0f) | 0x100;
        (*out)[t] = (r8 as u8 as u32) | (u8s as u32) << 8 | (r16 as u16 as u32 ^ u16s as u32) << 16;
    }
}

/// `i64`, `u64`, `isize`, `usize`: wrapping arithmetic, signed division of negatives,
/// bitwise operators and comparisons.
#[offload_kernel]
pub fn wide_ints(xs: *const [u64; 64], out: *mut [u64; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*xs)[t];
        let y = (*xs)[(t + 1) % 64] | 1;
        let s = x as i64;
        let q = (y >> 3) as i64 | 1;
        let z = (x / y) ^ (x % y) ^ x.wrapping_mul(y) ^ (x + y) ^ (x - y);
        let w = (s / -q) ^ (s % q) ^ (-s).wrapping_mul(q) ^ (s >> 7) ^ (s << 9);
        let sz = (x as isize) / (q as isize) - (t as isize);
        let us = (x as usize) % 1000 + t;
        let cmp = (x < y) as u64
            | ((s <= q) as u64) << 1
            | ((x > y) as u64) << 2
            | ((s >= -q) as u64) << 3
            | ((x == y) as u64) << 4
            | ((x != y) as u64) << 5;
        (*out)[t] = z ^ (w as u64) ^ (sz as u64) ^ (us as u64) ^ (!x & y | x & !y) ^ cmp;
    }
}

/// `f32` and `f64`: the four operations, `%`, negation, and comparisons that NaN makes false
/// (except `!=`).
#[offload_kernel]
pub fn float_ops(xs: *const [f32; 64], out: *mut [f64; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let a = (*xs)[t];
        let b = (*xs)[63 - t];
        let nan = if t % 9 == 0 { f32::NAN } else { a };
        let f = a * b - a / b + a % b - -b;
        let d = a as f64 * 1.5 - b as f64 / 3.0 + (a as f64) % 2.5;
        let flags = (nan < b) as u32
            + ((nan > b) as u32) * 2
            + ((nan <= b) as u32) * 4
            + ((nan >= b) as u32) * 8
            + ((nan == nan) as u32) * 16
            + ((nan != nan) as u32) * 32;
        (*out)[t] = f as f64 + d + flags as f64;
    }
}

fn expensive(x: u32) -> bool {
    100 / (x % 5) > 30
}

/// `&&` and `||` short-circuit (the right side would divide by zero), `!`, and `&`, `|`, `^`
/// on `bool`.
#[offload_kernel]
pub fn logic(xs: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*xs)[t];
        let a = x % 5 != 0 && expensive(x);
        let b = x % 5 == 0 || expensive(x);
        let c = !a ^ b;
        let d = (a & b) | (c & !b);
        let e = if a { !d } else { d ^ c };
        (*out)[t] =
            a as u32 | (b as u32) << 1 | (c as u32) << 2 | (d as u32) << 3 | (e as u32) << 4;
    }
}

/// Every compound assignment, on locals, array elements behind pointers and slots.
#[offload_kernel]
pub fn compound(xs: *const [i32; 64], out: *mut [i32; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let mut v = (*xs)[t];
        let k = (v & 15) | 1;
        v += 7;
        v -= k;
        v *= 3;
        v /= k;
        v %= 1000;
        v &= 0x7fff;
        v |= 0x10;
        v ^= k;
        v <<= k as u32;
        v >>= 3u32;
        let mut f = v as f32;
        f += 0.5;
        f *= 1.25;
        f -= 2.0;
        f /= 3.0;
        f %= 100.0;
        (*out)[t] = v;
        (*out)[t] += f as i32;
        (*out)[t] ^= k;
    }
}
