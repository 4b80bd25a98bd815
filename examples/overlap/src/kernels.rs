//! The overlap example's kernel: a few hundred steps of the logistic map per element, so that
//! the kernel takes about as long as moving its data, and overlapping the two pays.
use rkc_offload::prelude::*;

/// Iterates `v = 3.9 v (1 - v)` `steps` times on every element.
#[offload_kernel]
pub fn logistic(x: &mut [f32], steps: u32) {
    // SAFETY: the builtin only reads this thread's position.
    let i = unsafe { global_idx_x() };
    if i < x.len() {
        let mut v = x[i];
        for _ in 0..steps {
            v = 3.9 * v * (1.0 - v);
        }
        x[i] = v;
    }
}
