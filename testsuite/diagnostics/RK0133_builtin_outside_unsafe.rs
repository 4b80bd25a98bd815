use rkc_offload::prelude::*;

#[offload_kernel]
fn kernel(x: *mut [u32; 32]) {
    let i = thread_idx_x() as usize;
    unsafe { (*x)[i] = 1; }
}
