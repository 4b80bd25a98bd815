//! The example's kernel. This file is compiled twice: by rkc for the GPU (into a fat binary)
//! and by rustc as a module of this crate (the host's view, and the CPU simulator's code).
use rkc_offload::prelude::*;

/// Tile width: each block computes a 16×16 tile of `c`, one element per thread.
pub const TILE: usize = 16;

/// `c = a·b` for `n × n` row-major matrices, `n` a multiple of 16: each block walks the
/// tiles of `a`'s rows and `b`'s columns through shared memory.
#[offload_kernel]
pub fn matmul(n: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    // SAFETY: each thread loads one element of each tile; barriers separate the loads from
    // the reads of other threads' elements.
    unsafe {
        let ta = shared_array::<f32, 256>();
        let tb = shared_array::<f32, 256>();
        let (tx, ty) = (thread_idx_x() as usize, thread_idx_y() as usize);
        let row = block_idx_y() as usize * TILE + ty;
        let col = block_idx_x() as usize * TILE + tx;
        let mut acc = 0.0f32;
        let mut k0 = 0usize;
        while k0 < n {
            (*ta)[ty * TILE + tx] = a[row * n + k0 + tx];
            (*tb)[ty * TILE + tx] = b[(k0 + ty) * n + col];
            sync_threads();
            for k in 0..TILE {
                acc = (*ta)[ty * TILE + k].mul_add((*tb)[k * TILE + tx], acc);
            }
            sync_threads();
            k0 += TILE;
        }
        c[row * n + col] = acc;
    }
}
