use rkc_offload::prelude::*;

#[offload_kernel]
pub fn stage(src: &[f32]) {
    unsafe {
        let tile = shared_array::<f32, 32>();
        let i = thread_idx_x() as usize;
        cp_async(&mut (*tile)[i], &src[i]);
        cp_async_commit();
        cp_async_wait::<3_000_000_000>();
    }
}
