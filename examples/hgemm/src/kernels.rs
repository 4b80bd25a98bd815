//! The example's kernel. This file is compiled twice: by rkc for the GPU (into a fat binary)
//! and by rustc as a module of this crate (the host's view, and the CPU simulator's code).
use half::f16;
use rkc_offload::prelude::*;

/// Rows and columns of `c` one block computes.
pub const BLOCK: usize = 64;
/// Columns of `a` (rows of `b`) each step stages in shared memory: one tensor-core step.
pub const STEP: usize = 16;
/// Threads per block: four warps, each computing a 32×32 quarter of the block's tile.
pub const THREADS: usize = 128;

/// `c = a·b` for row-major `a` (`k` columns, 64 rows per block of the grid's y) and `k × n`
/// `b` in f16, accumulated in f32; `n` a multiple of 64, `k` of 16. Each block stages a 64×16 tile of `a` and a 16×64 tile of `b`
/// in shared memory per step; each warp multiplies its 32×32 quarter as 2×4 tensor-core tiles
/// of 16×8, whose accumulators stay in registers.
#[offload_kernel]
pub fn hgemm(n: usize, k: usize, a: &[f16], b: &[f16], c: &mut [f32]) {
    // SAFETY: each thread stages its own elements of the tiles; barriers separate the staging
    // from the warps' reads of the whole tiles, and every lane of a warp reaches each mma.
    unsafe {
        let ta = shared_array::<f16, 1024>();
        let tb = shared_array::<f16, 1024>();
        let t = thread_idx_x() as usize;
        let warp = t / 32;
        let (wm, wn) = (warp / 2 * 32, warp % 2 * 32);
        let row = block_idx_y() as usize * BLOCK;
        let col = block_idx_x() as usize * BLOCK;
        let mut acc = [[0.0f32; 4]; 8];
        for k0 in (0..k).step_by(STEP) {
            for j in 0..8 {
                let e = t + THREADS * j;
                (*ta)[e] = a[(row + e / STEP) * k + k0 + e % STEP];
                (*tb)[e] = b[(k0 + e / BLOCK) * n + col + e % BLOCK];
            }
            sync_threads();
            let (tile_a, tile_b) = (&*ta, &*tb);
            for mi in 0..2 {
                let fa = mma_load_a(&tile_a[(wm + mi * 16) * STEP..], STEP);
                for ni in 0..4 {
                    let fb = mma_load_b(&tile_b[wn + ni * 8..], BLOCK);
                    acc[mi * 4 + ni] = mma_m16n8k16_f16(fa, fb, acc[mi * 4 + ni]);
                }
            }
            sync_threads();
        }
        for mi in 0..2 {
            for ni in 0..4 {
                let at = (row + wm + mi * 16) * n + col + wn + ni * 8;
                mma_store_d(&mut c[at..], n, acc[mi * 4 + ni]);
            }
        }
    }
}
