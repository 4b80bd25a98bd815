//! The slice's kernels. This file is compiled twice: by rkc for the GPU (into a fat binary)
//! and by rustc as a module of this crate (the host's view, and the CPU simulator's code).
use rkc_offload::prelude::*;

/// The canonical kernel of upstream Rust's `core::offload` documentation.
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

/// y = a·x + y over n elements, one thread per element.
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
