//! The example's kernel. This file is compiled twice: by rkc for the GPU (into a fat binary)
//! and by rustc as a module of this crate (the host's view, and the CPU simulator's code).
use rkc_offload::prelude::*;

/// Counts the bytes of `data` into 256 bins: each block counts into its own bins in shared
/// memory with atomics, then adds them to the global bins with one atomic per bin. Blocks of
/// 256 threads.
#[offload_kernel]
pub fn histogram(data: &[u8], bins: &mut [u32]) {
    // SAFETY: every update of a shared or a global bin is atomic; barriers separate zeroing,
    // counting and publishing.
    unsafe {
        let local = shared_array::<u32, 256>();
        let t = thread_idx_x() as usize;
        (*local)[t] = 0;
        sync_threads();
        let stride = (grid_dim_x() * block_dim_x()) as usize;
        let mut i = global_idx_x();
        while i < data.len() {
            atomic_add(&mut (*local)[data[i] as usize] as *mut u32, 1);
            i += stride;
        }
        sync_threads();
        atomic_add(&mut bins[t] as *mut u32, (*local)[t]);
    }
}
