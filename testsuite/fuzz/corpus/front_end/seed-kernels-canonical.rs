//! The canonical kernel of upstream Rust's `core::offload` documentation.
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn kernel(x: *mut [f64; 256]) {
    // SAFETY: calling our arch functions and dereferencing a raw pointer is unsafe
    unsafe {
        let n = (*x).len();
        let i = (thread_idx_x() + block_idx_x() * block_dim_x()) as usize;
        if i < n {
            (*x)[i] = i as f64;
        }
    }
}
