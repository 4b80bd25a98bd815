use rkc_offload::prelude::*;

#[offload_kernel]
fn kernel(out: *mut [f32; 256]) {
    unsafe {
        let t = thread_idx_x() as usize;
        let tile = shared_array::<f32, 256>();
        (*tile)[t] = t as f32;
        if t < 128 {
            sync_threads();
            (*out)[t] = (*tile)[t + 128];
        }
    }
}
