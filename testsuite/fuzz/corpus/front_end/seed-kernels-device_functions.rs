//! Device functions: plain, generic over types and consts, with `mut` parameters and early
//! `return`, called from a kernel and from each other; `const` items.
use rkc_offload::prelude::*;

const SCALE: f32 = 0.5;

fn clamp_index(i: usize, n: usize) -> usize {
    if i >= n {
        return n - 1;
    }
    i
}

fn square<T: Copy + core::ops::Mul<Output = T>>(x: T) -> T {
    x * x
}

fn sum_first<const N: usize>(p: *const [f32; N], count: usize) -> f32 {
    let mut acc = 0.0f32;
    let mut k = 0usize;
    // SAFETY: k < count <= N is checked by the bounds check of the indexing.
    unsafe {
        while k < count {
            acc += (*p)[k];
            k += 1;
        }
    }
    acc
}

fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

#[offload_kernel]
pub fn device_functions(x: *const [f32; 32], out: *mut [f32; 32], g: *mut [u32; 32]) {
    // SAFETY: all pointers are mapped for the launch; indices are clamped below 32.
    unsafe {
        let i = clamp_index(thread_idx_x() as usize, 32);
        let s = sum_first(x, i + 1);
        (*out)[i] = square(s) * SCALE + square(2.0f32);
        (*g)[i] = gcd(square(i as u32 + 6), 48) + square(3u32);
    }
}
