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

/// Integer division by zero (for the threads whose divisor is zero) and `i32::MIN / -1`,
/// both device panics with Rust's messages.
#[offload_kernel]
pub fn divide_by_zero(xs: *const [i32; 64], out: *mut [i32; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let i = thread_idx_x() as usize;
        let d = (*xs)[i] % 9;
        let q = if i == 63 { i32::MIN / -(d.abs() / 9 + 1) } else { 100 / d };
        (*out)[i] = q + 1000 % (d | 1);
    }
}

fn checked_index(i: usize) -> usize {
    if i > 60 {
        panic!("thread index past the data");
    }
    i
}

/// `panic!` with a literal message in a device function, reached by the last threads.
#[offload_kernel]
pub fn explicit_panic(xs: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let i = thread_idx_x() as usize;
        let j = checked_index(i);
        (*out)[j] = (*xs)[j] / 2;
    }
}
