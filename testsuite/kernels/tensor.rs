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

/// `d = a·b` in f16 with f32 accumulation, as `bf16_gemm_shared` stages it, with the warps'
/// fragments loaded from shared memory by `ldmatrix` (the `B` tile transposed on the way).
#[offload_kernel]
pub fn ldmatrix_gemm(k: usize, n: usize, a: &[f16], b: &[f16], d: &mut [f32]) {
    let tid = unsafe { thread_idx_x() } as usize;
    let warp = tid / 32;
    let row = unsafe { block_idx_y() } as usize * 16;
    let col = unsafe { block_idx_x() } as usize * 32;
    let sa = unsafe { shared_array::<f16, 256>() };
    let sb = unsafe { shared_array::<f16, 512>() };
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
        // Rows of 16 and 32 elements (32 and 64 bytes) and the warp's columns at 8·warp keep
        // every row 16-byte aligned, as `ldmatrix` needs.
        let fa = unsafe { mma_ldmatrix_a(sa as *const f16, 16) };
        let fb = unsafe { mma_ldmatrix_b((sb as *const f16).add(warp * 8), 32) };
        acc = unsafe { mma_m16n8k16_f16(fa, fb, acc) };
        unsafe { sync_threads() };
    }
    unsafe { mma_store_d(&mut d[row * n + col + warp * 8..], n, acc) };
}

/// `d = a·b` in f16 with f32 accumulation, the tiles staged in shared memory by asynchronous
/// copies of 16 bytes, two steps in flight: while the warps multiply one step's tiles, the
/// copies of the next step's land in the other half of the buffers.
#[offload_kernel]
pub fn hgemm_async(k: usize, n: usize, a: &[f16], b: &[f16], d: &mut [f32]) {
    let tid = unsafe { thread_idx_x() } as usize;
    let warp = tid / 32;
    let row = unsafe { block_idx_y() } as usize * 16;
    let col = unsafe { block_idx_x() } as usize * 32;
    let sa = unsafe { shared_array::<f16, 512>() } as *mut f16;
    let sb = unsafe { shared_array::<f16, 1024>() } as *mut f16;
    let tiles = Tiles { a, b, k, n, row, col, tid };
    let steps = k / 16;
    let mut acc = [0.0f32; 4];
    unsafe { tiles.stage(0, sa, sb) };
    for s in 0..steps {
        let buf = s % 2;
        unsafe {
            if s + 1 < steps {
                let next = 1 - buf;
                tiles.stage((s + 1) * 16, sa.add(next * 256), sb.add(next * 512));
                cp_async_wait::<1>();
            } else {
                cp_async_wait::<0>();
            }
            sync_threads();
            let tile_a = core::slice::from_raw_parts(sa.add(buf * 256), 256);
            let tile_b = core::slice::from_raw_parts(sb.add(buf * 512), 512);
            let fa = mma_load_a(tile_a, 16);
            let fb = mma_load_b(&tile_b[warp * 8..], 32);
            acc = mma_m16n8k16_f16(fa, fb, acc);
            sync_threads();
        }
    }
    unsafe { mma_store_d(&mut d[row * n + col + warp * 8..], n, acc) };
}

/// Where a block of `hgemm_async` reads its tiles.
struct Tiles<'a> {
    a: &'a [f16],
    b: &'a [f16],
    k: usize,
    n: usize,
    row: usize,
    col: usize,
    tid: usize,
}

impl Tiles<'_> {
    /// Starts the copies of step `k0`'s 16×16 tile of `a` (32 chunks of eight) and 16×32 tile
    /// of `b` (64 chunks) into `ta` and `tb`, one chunk per thread, and commits them as one
    /// group (every thread commits, copying or not).
    unsafe fn stage(&self, k0: usize, ta: *mut f16, tb: *mut f16) {
        let t = self.tid;
        unsafe {
            if t < 32 {
                let (r, c) = (t / 2, t % 2 * 8);
                let src = &self.a[(self.row + r) * self.k + k0 + c] as *const f16;
                cp_async(ta.add(r * 16 + c) as *mut [f16; 8], src as *const [f16; 8]);
            } else if t < 96 {
                let (r, c) = ((t - 32) / 4, (t - 32) % 4 * 8);
                let src = &self.b[(k0 + r) * self.n + self.col + c] as *const f16;
                cp_async(tb.add(r * 32 + c) as *mut [f16; 8], src as *const [f16; 8]);
            }
            cp_async_commit();
        }
    }
}
