use rkc_offload::prelude::*;

#[offload_kernel]
fn kernel(data: &[u32], out: *mut [u32; 64]) {
    unsafe {
        let t = thread_idx_x() as usize;
        let s = shared_array::<u32, 64>();
        let mut k = 0;
        while k < data[t] {
            (*s)[t] = k;
            sync_threads();
            k += 1;
        }
        (*out)[t] = (*s)[63 - t];
    }
}
