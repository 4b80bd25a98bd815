//! Tuple `let`s (also `mut` names, `_`, and a swap, which evaluates every element before
//! binding), and element addresses taken with `&mut place as *mut T` for atomics on slice
//! elements.
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn patterns(xs: &[u32], out: &mut [u32], counts: &mut [u32]) {
    // SAFETY: builtins and atomics on elements of `counts`, which the launch maps.
    unsafe {
        let i = global_idx_x();
        if i < xs.len() && i < out.len() {
            let (mut a, b, _) = (xs[i], xs[i] / 3, 7u32);
            let (a2, b2) = (b, a);
            a = a.wrapping_add(a2);
            out[i] = a ^ b2.rotate_left(5);
            atomic_add(&mut counts[(b % 8) as usize] as *mut u32, 1);
        }
    }
}
