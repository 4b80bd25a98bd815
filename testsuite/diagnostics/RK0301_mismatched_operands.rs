use rkc_offload::prelude::*;

#[offload_kernel]
fn kernel(n: usize, x: *mut f32) {
    unsafe {
        let i = thread_idx_x();
        if i < n {
            *x = 1.0;
        }
    }
}
