//! Slices as kernel parameters: passed as pointer and length, indexed with bounds checks in
//! safe code, `.len()`, and a guard on one slice's length that proves its own indexing.
use rkc_offload::prelude::*;

fn dot3(a: &[f32], b: &[f32], i: usize) -> f32 {
    let mut acc = 0.0f32;
    for k in 0..3usize {
        let j = (i + k) % a.len();
        acc = a[j].mul_add(b[j % b.len()], acc);
    }
    acc
}

#[offload_kernel]
pub fn slices(a: f32, x: &[f32], y: &mut [f32], lens: &mut [u32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    if i < y.len() {
        y[i] = a * x[i % x.len()] + y[i] + dot3(x, y, i) * 0.0;
    }
    if i == 0 && !lens.is_empty() {
        lens[0] = x.len() as u32;
        lens[lens.len() - 1] = y.len() as u32;
    }
}
