use rkc_offload::prelude::*;

#[offload_kernel]
pub fn stage(src: &[f32]) {
    unsafe {
        let tile = shared_array::<[f32; 3], 32>();
        let i = thread_idx_x() as usize;
        cp_async(&mut (*tile)[i], &src[3 * i] as *const f32 as *const [f32; 3]);
        cp_async_commit();
        cp_async_wait::<0>();
    }
}
