//! Device panics with Rust's messages: a failed bounds check and a failed `assert!`, reached
//! by some threads only (which ones depends on the data).
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn out_of_bounds(idx: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: both pointers are mapped for the launch; the index is checked (and may fail).
    unsafe {
        let i = thread_idx_x() as usize;
        let j = ((*idx)[i] % 80) as usize;
        (*out)[j] = i as u32;
    }
}

#[offload_kernel]
pub fn failed_assert(xs: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: both pointers are mapped for the launch; the thread index is below 64.
    unsafe {
        let i = thread_idx_x() as usize;
        let x = (*xs)[i];
        assert!(x % 16 != 3);
        (*out)[i] = x / (x % 7 + 1);
    }
}
