//! Warpgroup matrix multiplies (Hopper's `wgmma`, which sm_90a GPUs run on their tensor cores
//! and every other target computes with loads and arithmetic): tiles of `A` and `B` staged in
//! shared memory in the instruction's core-matrix layout, `D` in the four warps' registers.

use half::{bf16, f16};
use rkc_offload::prelude::*;

/// Where element `i` of thread `t`'s `D` of a 64-row warpgroup tile lies: (row, column).
fn d_at(t: usize, i: usize) -> (usize, usize) {
    let (w, lane) = (t / 32, t % 32);
    (16 * w + lane / 4 + 8 * ((i / 2) % 2), 8 * (i / 4) + 2 * (lane % 4) + i % 2)
}

/// `d = a·b` in f16 with f32 accumulation (row-major, `a` M×K, `b` K×N): a block of 128
/// threads, one warpgroup, computes a 64×64 tile of `d`, sixteen columns of `k` at a time,
/// staging 64×16 of `a` and 16×64 of `b` in shared memory by plain stores.
#[offload_kernel]
pub fn wgmma_gemm(k: usize, n: usize, a: &[f16], b: &[f16], d: &mut [f32]) {
    let t = unsafe { thread_idx_x() } as usize;
    let row = unsafe { block_idx_y() } as usize * 64;
    let col = unsafe { block_idx_x() } as usize * 64;
    let sa = unsafe { shared_array::<f16, 1024>() };
    let sb = unsafe { shared_array::<f16, 1024>() };
    let mut acc = [0.0f32; 32];
    for k0 in (0..k).step_by(16) {
        for j in 0..8 {
            let e = t + 128 * j;
            // A's core matrices: two along k (64 elements apart), eight down m (128 apart).
            let (r, c) = (e / 16, e % 16);
            let at = r / 8 * 128 + c / 8 * 64 + r % 8 * 8 + c % 8;
            unsafe { (*sa)[at] = a[(row + r) * k + k0 + c] };
            // B's: eight along n (64 apart), two down k (512 apart).
            let (kr, c) = (e / 64, e % 64);
            let at = kr / 8 * 512 + c / 8 * 64 + kr % 8 * 8 + c % 8;
            unsafe { (*sb)[at] = b[(k0 + kr) * n + col + c] };
        }
        unsafe {
            fence_proxy_async();
            sync_threads();
            wgmma_fence();
            acc = wgmma_m64n64k16_f16(sa as *const f16, 64, 128, sb as *const f16, 512, 64, acc);
            wgmma_commit();
            wgmma_wait::<0>();
            // Nothing overwrites the tiles before every warp's multiply has read them.
            sync_threads();
        }
    }
    for (i, x) in acc.into_iter().enumerate() {
        let (r, c) = d_at(t, i);
        d[(row + r) * n + col + c] = x;
    }
}

/// `d = a·b` in bf16 with f32 accumulation: one warpgroup per 64×128 tile of `d`, 32-wide
/// steps of `k` copied by `cp_async` into two stages of dynamic shared memory, the next
/// step's copies in flight while the tensor cores multiply this one's (two 16-deep multiplies
/// a step).
#[offload_kernel]
pub fn wgmma_pipelined(k: usize, n: usize, a: &[bf16], b: &[bf16], d: &mut [f32]) {
    const STAGE: usize = 64 * 32 + 32 * 128;
    let t = unsafe { thread_idx_x() } as usize;
    let row = unsafe { block_idx_y() } as usize * 64;
    let col = unsafe { block_idx_x() } as usize * 128;
    let s = unsafe { dynamic_shared::<bf16>() };
    let copy = |step: usize| {
        let (k0, base) = (step * 32, step % 2 * STAGE);
        // Each 16-byte piece is one row of a core matrix; eight consecutive threads fill one.
        for j in 0..2 {
            let p = t + 128 * j;
            let (r, c8) = (p / 32 * 8 + p % 8, p / 8 % 4);
            let to = base + p / 32 * 256 + c8 * 64 + p % 8 * 8;
            let from = &a[(row + r) * k + k0 + c8 * 8] as *const bf16;
            unsafe { cp_async(s.add(to) as *mut [bf16; 8], from as *const [bf16; 8]) };
        }
        for j in 0..4 {
            let p = t + 128 * j;
            let (kr, n8) = (p / 128 * 8 + p % 8, p / 8 % 16);
            let to = base + 2048 + p / 128 * 1024 + n8 * 64 + p % 8 * 8;
            let from = &b[(k0 + kr) * n + col + n8 * 8] as *const bf16;
            unsafe { cp_async(s.add(to) as *mut [bf16; 8], from as *const [bf16; 8]) };
        }
    };
    let steps = k / 32;
    let mut acc = [0.0f32; 64];
    copy(0);
    unsafe { cp_async_commit() };
    for step in 0..steps {
        if step + 1 < steps {
            copy(step + 1);
        }
        unsafe {
            cp_async_commit();
            cp_async_wait::<1>();
            fence_proxy_async();
            sync_threads();
            wgmma_fence();
            let base = step % 2 * STAGE;
            for kk in 0..2 {
                let ta = s.add(base + kk * 128) as *const bf16;
                let tb = s.add(base + 2048 + kk * 2048) as *const bf16;
                acc = wgmma_m64n128k16_bf16(ta, 64, 256, tb, 1024, 64, acc);
            }
            wgmma_commit();
            wgmma_wait::<0>();
            sync_threads();
        }
    }
    for (i, x) in acc.into_iter().enumerate() {
        let (r, c) = d_at(t, i);
        d[(row + r) * n + col + c] = x;
    }
}

/// `d = a·b` in f16 with f32 accumulation, as `wgmma_gemm`, on tiles with 128-byte swizzling:
/// each 64-wide step of `k` stages 64×64 of `a` (rows of 128 bytes) and 64×64 of `b` (one
/// 64-column block) in dynamic shared memory, each row's 16-byte chunks permuted by the row's
/// index, then multiplies them as four 16-deep steps along the rows.
#[offload_kernel]
pub fn wgmma_swizzled(k: usize, n: usize, a: &[f16], b: &[f16], d: &mut [f32]) {
    let t = unsafe { thread_idx_x() } as usize;
    let row = unsafe { block_idx_y() } as usize * 64;
    let col = unsafe { block_idx_x() } as usize * 64;
    let s = unsafe { dynamic_shared::<f16>() };
    let mut acc = [0.0f32; 32];
    for k0 in (0..k).step_by(64) {
        for j in 0..32 {
            let e = t + 128 * j;
            let (r, c) = (e / 64, e % 64);
            let at = r * 64 + (c / 8 ^ r % 8) * 8 + c % 8;
            unsafe {
                *s.add(at) = a[(row + r) * k + k0 + c];
                *s.add(4096 + at) = b[(k0 + r) * n + col + c];
            }
        }
        unsafe {
            fence_proxy_async();
            sync_threads();
            wgmma_fence();
            for kk in 0..4 {
                let tb = s.add(4096 + kk * 1024) as *const f16;
                acc = wgmma_sw128_m64n64k16_f16(s as *const f16, kk * 16, 512, tb, 512, 4096, acc);
            }
            wgmma_commit();
            wgmma_wait::<0>();
            sync_threads();
        }
    }
    for (i, x) in acc.into_iter().enumerate() {
        let (r, c) = d_at(t, i);
        d[(row + r) * n + col + c] = x;
    }
}
