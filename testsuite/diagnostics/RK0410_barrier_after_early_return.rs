use rkc_offload::prelude::*;

fn stage(tile: *mut [f32; 128], t: usize) {
    unsafe {
        sync_threads();
        (*tile)[t] *= 2.0;
    }
}

#[offload_kernel]
fn kernel(x: &[f32], out: &mut [f32]) {
    unsafe {
        let i = global_idx_x();
        let t = thread_idx_x() as usize;
        if t >= 100 {
            return;
        }
        let tile = shared_array::<f32, 128>();
        (*tile)[t] = x[i];
        stage(tile, t);
        out[i] = (*tile)[127 - t];
    }
}
