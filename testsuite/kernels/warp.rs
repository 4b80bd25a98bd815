//! Warp operations: every shuffle mode on 32- and 64-bit values (lane arguments past 31
//! included), the three votes, the three reductions, and a block reduction that combines warp
//! sums through dynamic shared memory.
use rkc_offload::prelude::*;

/// Each thread writes what four shuffles of a `u32` and two of an `f64` gave it.
#[offload_kernel]
pub fn shuffles(
    xs: *const [u32; 256],
    fs: *const [f64; 256],
    out: *mut [u32; 1024],
    fout: *mut [f64; 512],
) {
    // SAFETY: 2 blocks of 128 threads; thread i writes elements 4i..4i+4 and 2i..2i+2 only.
    unsafe {
        let i = global_idx_x();
        let lane = lane_id();
        let v = (*xs)[i];
        (*out)[4 * i] = warp_shuffle(v, lane * 7 + 3);
        (*out)[4 * i + 1] = warp_shuffle_xor(v, lane % 5 + 1);
        (*out)[4 * i + 2] = warp_shuffle_up(v, 3);
        (*out)[4 * i + 3] = warp_shuffle_down(v, lane % 7);
        let f = (*fs)[i];
        (*fout)[2 * i] = warp_shuffle_down(f, 1);
        (*fout)[2 * i + 1] = warp_shuffle_xor(f, 31) + warp_size() as f64;
    }
}

/// Votes: whether any lane is lane 5 with a positive value, whether every value differs from a
/// sentinel, and the ballot of the positive values.
#[offload_kernel]
pub fn votes(xs: *const [i32; 256], out: *mut [u32; 768]) {
    // SAFETY: 2 blocks of 128 threads; thread i writes elements 3i..3i+3 only.
    unsafe {
        let i = global_idx_x();
        let x = (*xs)[i];
        let lane = lane_id();
        (*out)[3 * i] = warp_any(x > 0 && lane == 5) as u32;
        (*out)[3 * i + 1] = warp_all(x != 12345) as u32 + 2 * warp_all(x > 0) as u32;
        (*out)[3 * i + 2] = warp_ballot(x > 0);
    }
}

/// The warp reductions: an `f32` sum (bit-identical to the butterfly order on every
/// backend), and an `i64` min and max; lane 0 of each warp writes them.
#[offload_kernel]
pub fn reductions(
    xs: *const [f32; 256],
    ys: *const [i64; 256],
    sums: *mut [f32; 8],
    extremes: *mut [i64; 16],
) {
    // SAFETY: 2 blocks of 128 threads, 8 warps; lane 0 of warp w writes elements w and 2w, 2w+1.
    unsafe {
        let i = global_idx_x();
        let warp = i / 32;
        let s = warp_reduce_add((*xs)[i]);
        let lo = warp_reduce_min((*ys)[i]);
        let hi = warp_reduce_max((*ys)[i]);
        if lane_id() == 0 {
            (*sums)[warp] = s;
            (*extremes)[2 * warp] = lo;
            (*extremes)[2 * warp + 1] = hi;
        }
    }
}

/// A block's sum: each warp reduces its values, lane 0 puts the warp's sum in dynamic shared
/// memory (one `f32` per warp: the launch gives `dyn_cache` = 4 × warps), and the first warp
/// reduces those. Elements past `n` count as zero.
#[offload_kernel]
pub fn block_reduce(n: usize, xs: &[f32], out: &mut [f32]) {
    // SAFETY: dyn_cache holds one f32 per warp of the block; the barrier orders the writes
    // before the reads.
    unsafe {
        let i = global_idx_x();
        let t = thread_idx_x();
        let warps = block_dim_x() / warp_size();
        let partial = dynamic_shared::<f32>();
        let v = if i < n { xs[i] } else { 0.0 };
        let s = warp_reduce_add(v);
        if lane_id() == 0 {
            *partial.add((t / warp_size()) as usize) = s;
        }
        thread_fence_block();
        sync_threads();
        if t < warp_size() {
            let w = if t < warps { *partial.add(t as usize) } else { 0.0 };
            let total = warp_reduce_add(w);
            if t == 0 {
                out[block_idx_x() as usize] = total;
            }
        }
    }
}
