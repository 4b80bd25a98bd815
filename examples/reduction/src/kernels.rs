//! The example's kernel. This file is compiled twice: by rkc for the GPU (into a fat binary)
//! and by rustc as a module of this crate (the host's view, and the CPU simulator's code).
use rkc_offload::prelude::*;

/// Each block sums a grid-stride share of `x` into `partial[block]`: every thread sums its
/// elements, each warp adds its 32 sums with shuffles (`warp_reduce_add`), the warps' sums
/// meet in shared memory, and the first warp adds those the same way.
#[offload_kernel]
pub fn block_sums(x: &[f32], partial: &mut [f32]) {
    // SAFETY: the shared array holds one sum per warp (a block has at most 32 warps); the
    // barrier orders its writes before its reads.
    unsafe {
        let t = thread_idx_x() as usize;
        let stride = (grid_dim_x() * block_dim_x()) as usize;
        let mut i = global_idx_x();
        let mut s = 0.0f32;
        while i < x.len() {
            s += x[i];
            i += stride;
        }
        let s = warp_reduce_add(s);
        let sums = shared_array::<f32, 32>();
        if lane_id() == 0 {
            (*sums)[t / 32] = s;
        }
        sync_threads();
        if t < 32 {
            let warps = (block_dim_x() / warp_size()) as usize;
            let total = warp_reduce_add(if t < warps { (*sums)[t] } else { 0.0 });
            if t == 0 {
                partial[block_idx_x() as usize] = total;
            }
        }
    }
}
