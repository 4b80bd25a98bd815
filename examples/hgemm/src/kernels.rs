//! The example's kernel. This file is compiled twice: by rkc for the GPU (into a fat binary)
//! and by rustc as a module of this crate (the host's view, and the CPU simulator's code).
use half::f16;
use rkc_offload::prelude::*;

/// Rows and columns of `c` one block computes.
pub const BLOCK: usize = 64;
/// Columns of `a` (rows of `b`) one step stages in shared memory: one tensor-core step.
pub const STEP: usize = 16;
/// Threads per block: four warps, each computing a 32×32 quarter of the block's tile.
pub const THREADS: usize = 128;
/// The rows of the staged tiles in shared memory, in elements: eight more than the tiles'
/// widths (48 and 144 bytes), so that the eight rows one `ldmatrix` phase reads lie in
/// different banks, and every row still starts 16-byte aligned.
const ROW_A: usize = STEP + 8;
const ROW_B: usize = BLOCK + 8;
/// The elements of one buffer of each staged tile.
const TILE_A: usize = BLOCK * ROW_A;
const TILE_B: usize = STEP * ROW_B;

/// `c = a·b` for row-major `a` (`k` columns, 64 rows per block of the grid's y) and `k × n`
/// `b` in f16, accumulated in f32; `n` a multiple of 64, `k` of 16. Each step's 64×16 tile of
/// `a` and 16×64 tile of `b` are copied into shared memory asynchronously, one step ahead: while
/// the warps multiply one step's tiles, the next step's copies land in the other buffers. Each
/// warp multiplies its 32×32 quarter as 2×4 tensor-core tiles of 16×8, whose accumulators stay
/// in registers, with its fragments loaded from the staged tiles by `ldmatrix`: per step two of
/// `A` and four of `B`, each one instruction.
#[offload_kernel]
pub fn hgemm(n: usize, k: usize, a: &[f16], b: &[f16], c: &mut [f32]) {
    // SAFETY: each thread copies its own chunks of the tiles; waits and barriers separate the
    // copies from the warps' reads of the whole tiles and the reads from the next copies into
    // the same buffers; every lane of a warp reaches each mma.
    unsafe {
        let sa = shared_array::<f16, { 2 * TILE_A }>() as *mut f16;
        let sb = shared_array::<f16, { 2 * TILE_B }>() as *mut f16;
        let warp = thread_idx_x() as usize / 32;
        let (wm, wn) = (warp / 2 * 32, warp % 2 * 32);
        let tiles = Tiles {
            a,
            b,
            n,
            k,
            row: block_idx_y() as usize * BLOCK,
            col: block_idx_x() as usize * BLOCK,
        };
        let mut acc = [[0.0f32; 4]; 8];
        let steps = k / STEP;
        tiles.stage(0, sa, sb);
        for s in 0..steps {
            let buf = s % 2;
            if s + 1 < steps {
                let next = 1 - buf;
                tiles.stage((s + 1) * STEP, sa.add(next * TILE_A), sb.add(next * TILE_B));
                // This step's group has landed; the next one may still be in flight.
                cp_async_wait::<1>();
            } else {
                cp_async_wait::<0>();
            }
            sync_threads();
            let tile_a = sa.add(buf * TILE_A) as *const f16;
            let tile_b = sb.add(buf * TILE_B) as *const f16;
            let fb: [[f16; 4]; 4] =
                core::array::from_fn(|ni| mma_ldmatrix_b(tile_b.add(wn + ni * 8), ROW_B));
            for mi in 0..2 {
                let fa = mma_ldmatrix_a(tile_a.add((wm + mi * 16) * ROW_A), ROW_A);
                for ni in 0..4 {
                    acc[mi * 4 + ni] = mma_m16n8k16_f16(fa, fb[ni], acc[mi * 4 + ni]);
                }
            }
            sync_threads();
        }
        for mi in 0..2 {
            for ni in 0..4 {
                let at = (tiles.row + wm + mi * 16) * n + tiles.col + wn + ni * 8;
                mma_store_d(&mut c[at..], n, acc[mi * 4 + ni]);
            }
        }
    }
}

/// Where a block reads its tiles: the matrices, their widths and the block's first row and
/// column of `c`.
struct Tiles<'a> {
    a: &'a [f16],
    b: &'a [f16],
    n: usize,
    k: usize,
    row: usize,
    col: usize,
}

impl Tiles<'_> {
    /// Starts the copies of step `k0`'s tiles into `ta` (64×16) and `tb` (16×64): one chunk of
    /// eight f16 (16 bytes) of each per thread, committed as one group.
    unsafe fn stage(&self, k0: usize, ta: *mut f16, tb: *mut f16) {
        unsafe {
            let t = thread_idx_x() as usize;
            let (ar, ac) = (t / 2, t % 2 * 8);
            let (br, bc) = (t / 8, t % 8 * 8);
            let from_a = &self.a[(self.row + ar) * self.k + k0 + ac] as *const f16;
            let from_b = &self.b[(k0 + br) * self.n + self.col + bc] as *const f16;
            cp_async(ta.add(ar * ROW_A + ac) as *mut [f16; 8], from_a as *const [f16; 8]);
            cp_async(tb.add(br * ROW_B + bc) as *mut [f16; 8], from_b as *const [f16; 8]);
            cp_async_commit();
        }
    }
}
