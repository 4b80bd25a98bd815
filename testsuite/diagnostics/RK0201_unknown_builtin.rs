use rkc_offload::prelude::*;

#[offload_kernel]
fn kernel(x: *mut u32) {
    unsafe { *x = warp_idx_x(); }
}
