//! y = a·x + y over n elements, one thread per element, with a bounds guard.
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn saxpy(n: usize, a: f32, x: *const f32, y: *mut f32) {
    // SAFETY: the launch maps n elements behind x and y; the guard keeps i below n.
    unsafe {
        let i = (block_idx_x() * block_dim_x() + thread_idx_x()) as usize;
        if i < n {
            *y.add(i) = a * *x.add(i) + *y.add(i);
        }
    }
}
