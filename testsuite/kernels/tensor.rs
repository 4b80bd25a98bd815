//! Warp matrix multiplies, which NVIDIA GPUs from sm_80 run on their tensor cores: f16 and
//! bf16 tiles multiplied into f32 accumulators, fragments loaded straight from global memory
//! and through shared memory.

use half::{bf16, f16};
use rkc_offload::prelude::*;

/// `d = a·b + c` with `a` (M×K), `b` (K×N) in f16 and `c`, `d` (M×N) in f32, all row-major:
/// each warp computes one 16×8 tile of `d`, sixteen columns of `k` at a time.
#[offload_kernel]
pub fn hgemm_tiles(k: usize, n: usize, a: &[f16], b: &[f16], c: &[f32], d: &mut [f32]) {
    let warps = unsafe { block_dim_x() } as usize / 32;
    let warp = unsafe { thread_idx_x() } as usize / 32;
    let row = unsafe { block_idx_y() } as usize * 16;
    let col = (unsafe { block_idx_x() } as usize * warps + warp) * 8;
    let mut acc = unsafe { mma_load_c(&c[row * n + col..], n) };
    let mut k0 = 0;
    while k0 < k {
        let fa = unsafe { mma_load_a(&a[row * k + k0..], k) };
        let fb = unsafe { mma_load_b(&b[k0 * n + col..], n) };
        acc = unsafe { mma_m16n8k16_f16(fa, fb, acc) };
        k0 += 16;
    }
    unsafe { mma_store_d(&mut d[row * n + col..], n, acc) };
}

/// `d = a·b` in bf16 with f32 accumulation: a block of four warps stages a 16×16 tile of `a`
/// and a 16×32 tile of `b` in shared memory, then each warp multiplies its 16×8 part.
#[offload_kernel]
pub fn bf16_gemm_shared(k: usize, n: usize, a: &[bf16], b: &[bf16], d: &mut [f32]) {
    let tid = unsafe { thread_idx_x() } as usize;
    let warp = tid / 32;
    let row = unsafe { block_idx_y() } as usize * 16;
    let col = unsafe { block_idx_x() } as usize * 32;
    let sa = unsafe { shared_array::<bf16, 256>() };
    let sb = unsafe { shared_array::<bf16, 512>() };
    let mut acc = [0.0f32; 4];
    for k0 in (0..k).step_by(16) {
        for j in 0..2 {
            let e = tid + 128 * j;
            unsafe { (*sa)[e] = a[(row + e / 16) * k + k0 + e % 16] };
        }
        for j in 0..4 {
            let e = tid + 128 * j;
            unsafe { (*sb)[e] = b[(k0 + e / 32) * n + col + e % 32] };
        }
        unsafe { sync_threads() };
        let (tile_a, tile_b) = unsafe { (&*sa, &*sb) };
        let fa = unsafe { mma_load_a(tile_a, 16) };
        let fb = unsafe { mma_load_b(&tile_b[warp * 8..], 32) };
        acc = unsafe { mma_m16n8k16_bf16(fa, fb, acc) };
        unsafe { sync_threads() };
    }
    unsafe { mma_store_d(&mut d[row * n + col + warp * 8..], n, acc) };
}
