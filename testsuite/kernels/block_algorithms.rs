//! Block-level algorithms in shared memory: an inclusive scan (Hillis–Steele, a barrier
//! between steps) and a tiled transpose over a 2-D block.
use rkc_offload::prelude::*;

/// The inclusive prefix sum of each block's 128 values.
#[offload_kernel]
pub fn scan(xs: *const [u32; 256], out: *mut [u32; 256]) {
    // SAFETY: 2 blocks of 128 threads; each thread writes its own shared element and reads
    // another's only between barriers.
    unsafe {
        let t = thread_idx_x() as usize;
        let i = block_idx_x() as usize * 128 + t;
        let buf = shared_array::<u32, 128>();
        (*buf)[t] = (*xs)[i] % 1000;
        sync_threads();
        let mut offset = 1;
        while offset < 128 {
            let add = if t >= offset { (*buf)[t - offset] } else { 0 };
            sync_threads();
            (*buf)[t] += add;
            sync_threads();
            offset *= 2;
        }
        (*out)[i] = (*buf)[t];
    }
}

/// A 16×16 tile transposed through shared memory (with a padding column against bank
/// conflicts), over a 2×2 grid of tiles.
#[offload_kernel]
pub fn transpose(a: *const [f32; 1024], b: *mut [f32; 1024]) {
    // SAFETY: 32×32 matrix, blocks of 16×16 threads; every index is below 1024.
    unsafe {
        let (tx, ty) = (thread_idx_x() as usize, thread_idx_y() as usize);
        let (bx, by) = (block_idx_x() as usize, block_idx_y() as usize);
        let tile = shared_array::<f32, { 16 * 17 }>();
        (*tile)[ty * 17 + tx] = (*a)[(by * 16 + ty) * 32 + bx * 16 + tx];
        sync_threads();
        (*b)[(bx * 16 + ty) * 32 + by * 16 + tx] = (*tile)[tx * 17 + ty];
    }
}
