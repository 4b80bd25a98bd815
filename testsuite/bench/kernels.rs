//! The benchmark kernels, as a user writes them for rkc. `kernels.cu` holds the same
//! algorithms in CUDA C++ for nvcc, with the same parameters (a slice is a pointer and a
//! length, as rkc passes it), so that one harness launches both alike.
use half::f16;
use rkc_offload::prelude::*;

/// `c = a + b`.
#[offload_kernel]
pub fn vec_add(a: &[f32], b: &[f32], c: &mut [f32]) {
    // SAFETY: builtins only.
    let i = unsafe { global_idx_x() };
    if i < c.len() {
        c[i] = a[i] + b[i];
    }
}

/// `y = a·x + y`.
#[offload_kernel]
pub fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
    // SAFETY: builtins only.
    let i = unsafe { global_idx_x() };
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

/// `c = a + b`, four elements per thread: each element of the slices is an `[f32; 4]`, moved
/// with one 128-bit access where it is 16-byte aligned (as every device allocation is).
#[offload_kernel]
pub fn vec_add4(a: &[[f32; 4]], b: &[[f32; 4]], c: &mut [[f32; 4]]) {
    // SAFETY: builtins only.
    let i = unsafe { global_idx_x() };
    if i < c.len() {
        let (x, y) = (a[i], b[i]);
        c[i] = [x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3]];
    }
}

/// `y = a·x + y`, four elements per thread (see `vec_add4`).
#[offload_kernel]
pub fn saxpy4(a: f32, x: &[[f32; 4]], y: &mut [[f32; 4]]) {
    // SAFETY: builtins only.
    let i = unsafe { global_idx_x() };
    if i < y.len() {
        let (xv, yv) = (x[i], y[i]);
        y[i] = [a * xv[0] + yv[0], a * xv[1] + yv[1], a * xv[2] + yv[2], a * xv[3] + yv[3]];
    }
}

/// Upstream's canonical kernel at a large N: `x[i] = i`.
#[offload_kernel]
pub fn canonical(x: &mut [f64]) {
    // SAFETY: builtins only.
    let i = unsafe { global_idx_x() };
    if i < x.len() {
        x[i] = i as f64;
    }
}

/// Each block sums a grid-stride share of `x` into `partial[block]`: per-thread sums, a warp
/// reduction, the warps' sums through shared memory, a last warp reduction.
#[offload_kernel]
pub fn reduce(x: &[f32], partial: &mut [f32]) {
    // SAFETY: the shared array holds one sum per warp (at most 32); the barrier orders the
    // writes before the reads.
    unsafe {
        let t = thread_idx_x() as usize;
        let stride = (grid_dim_x() * block_dim_x()) as usize;
        let mut i = global_idx_x();
        let mut s = 0.0f32;
        while i < x.len() {
            s += x[i];
            i += stride;
        }
        s = warp_reduce_add(s);
        let sums = shared_array::<f32, 32>();
        if lane_id() == 0 {
            (*sums)[t / 32] = s;
        }
        sync_threads();
        if t < 32 {
            let warps = (block_dim_x() / 32) as usize;
            let v = if t < warps { (*sums)[t] } else { 0.0 };
            let total = warp_reduce_add(v);
            if t == 0 {
                partial[block_idx_x() as usize] = total;
            }
        }
    }
}

/// `out = inputᵀ` for a `height × width` matrix, through a 32×33 shared tile (padded against
/// bank conflicts); blocks of 32×8 threads.
#[offload_kernel]
pub fn transpose(width: usize, height: usize, input: &[f32], out: &mut [f32]) {
    // SAFETY: each thread writes its own tile elements before the barrier and reads after.
    unsafe {
        let tile = shared_array::<f32, 1056>();
        let tx = thread_idx_x() as usize;
        let ty = thread_idx_y() as usize;
        let bx = block_idx_x() as usize * 32;
        let by = block_idx_y() as usize * 32;
        let mut j = 0usize;
        while j < 32 {
            let (x, y) = (bx + tx, by + ty + j);
            if x < width && y < height {
                (*tile)[(ty + j) * 33 + tx] = input[y * width + x];
            }
            j += 8;
        }
        sync_threads();
        let mut j = 0usize;
        while j < 32 {
            let (x, y) = (by + tx, bx + ty + j);
            if x < height && y < width {
                out[y * height + x] = (*tile)[tx * 33 + ty + j];
            }
            j += 8;
        }
    }
}

/// `c = a·b` for `n × n` matrices (`n` a multiple of 16), with 16×16 shared tiles.
#[offload_kernel]
pub fn sgemm(n: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    // SAFETY: each thread loads one element of each tile between barriers.
    unsafe {
        let ta = shared_array::<f32, 256>();
        let tb = shared_array::<f32, 256>();
        let tx = thread_idx_x() as usize;
        let ty = thread_idx_y() as usize;
        let row = block_idx_y() as usize * 16 + ty;
        let col = block_idx_x() as usize * 16 + tx;
        let mut acc = 0.0f32;
        let mut k0 = 0usize;
        while k0 < n {
            (*ta)[ty * 16 + tx] = a[row * n + k0 + tx];
            (*tb)[ty * 16 + tx] = b[(k0 + ty) * n + col];
            sync_threads();
            let mut k = 0usize;
            while k < 16 {
                acc = (*ta)[ty * 16 + k].mul_add((*tb)[k * 16 + tx], acc);
                k += 1;
            }
            sync_threads();
            k0 += 16;
        }
        c[row * n + col] = acc;
    }
}

/// `c = a·b` for `n × n` matrices, register-tiled: each block of 256 threads computes a 128×128
/// tile of `c`, staging 128×8 slices of `a` (transposed) and 8×128 slices of `b` in shared
/// memory; each thread keeps an 8×8 tile of `c` in a local array, and per step of `k` one
/// column of its rows of `a` and one row of its columns of `b` in two more. Every access to
/// global memory and every read of shared memory moves four floats (the matrices are slices
/// of `[f32; 4]`, `n / 4` of them per row). A thread's rows and columns are two groups of four,
/// 64 apart, so that the sixteen threads that read one row of a staged slice read 256
/// consecutive bytes: 128-bit shared loads without bank conflicts. `n` is a multiple of 128.
#[offload_kernel]
pub fn sgemm_tiled(n: usize, a: &[[f32; 4]], b: &[[f32; 4]], c: &mut [[f32; 4]]) {
    const TILE: usize = 128;
    const STEP: usize = 8;
    // Row and column groups of four in a staged slice's row (TILE / 4).
    const QUADS: usize = TILE / 4;
    // SAFETY: each thread writes its own elements of the staging tiles between barriers.
    unsafe {
        let ta = shared_array::<[f32; 4], { STEP * QUADS }>();
        let tb = shared_array::<[f32; 4], { STEP * QUADS }>();
        let t = thread_idx_x() as usize;
        let (tr, tc) = (t / 16, t % 16);
        let (brow, bcol) = (block_idx_y() as usize * TILE, block_idx_x() as usize * TILE);
        let row4 = n / 4;
        let mut acc = [[0.0f32; 8]; 8];
        let mut k0 = 0;
        while k0 < n {
            // One quad of `a` per thread (row t / 2, columns k0 + t % 2 * 4..), stored
            // transposed; one quad of `b` (row k0 + t / 32, columns t % 32 * 4..) as it is.
            let (m, kq) = (t / 2, t % 2);
            let [q0, q1, q2, q3] = a[(brow + m) * row4 + k0 / 4 + kq];
            let at = kq * 4 * QUADS + m / 4;
            (*ta)[at][m % 4] = q0;
            (*ta)[at + QUADS][m % 4] = q1;
            (*ta)[at + 2 * QUADS][m % 4] = q2;
            (*ta)[at + 3 * QUADS][m % 4] = q3;
            let (kb, jq) = (t / QUADS, t % QUADS);
            (*tb)[kb * QUADS + jq] = b[(k0 + kb) * row4 + bcol / 4 + jq];
            sync_threads();
            for k in 0..STEP {
                let (a0, a1) = ((*ta)[k * QUADS + tr], (*ta)[k * QUADS + 16 + tr]);
                let (b0, b1) = ((*tb)[k * QUADS + tc], (*tb)[k * QUADS + 16 + tc]);
                let ra = [a0[0], a0[1], a0[2], a0[3], a1[0], a1[1], a1[2], a1[3]];
                let rb = [b0[0], b0[1], b0[2], b0[3], b1[0], b1[1], b1[2], b1[3]];
                for i in 0..8 {
                    for j in 0..8 {
                        acc[i][j] = ra[i].mul_add(rb[j], acc[i][j]);
                    }
                }
            }
            sync_threads();
            k0 += STEP;
        }
        for i in 0..8 {
            let r = brow + (i / 4) * 64 + tr * 4 + i % 4;
            let at = r * row4 + bcol / 4 + tc;
            let q = &acc[i];
            c[at] = [q[0], q[1], q[2], q[3]];
            c[at + 16] = [q[4], q[5], q[6], q[7]];
        }
    }
}

/// A 5-point stencil on a `height × width` grid; the border is left alone.
#[offload_kernel]
pub fn stencil(width: usize, height: usize, input: &[f32], out: &mut [f32]) {
    // SAFETY: builtins only.
    let (x, y) = unsafe { (global_idx_x(), global_idx_y()) };
    if x > 0 && y > 0 && x + 1 < width && y + 1 < height {
        let i = y * width + x;
        out[i] =
            0.2 * (input[i] + input[i - 1] + input[i + 1] + input[i - width] + input[i + width]);
    }
}

/// A 256-bin histogram of the low bytes: per-block bins in shared memory, then one atomic per
/// bin and block into global memory. Blocks of 256 threads.
#[offload_kernel]
pub fn histogram(data: &[u32], bins: &mut [u32]) {
    // SAFETY: every update of a shared or global bin is atomic; barriers separate the phases.
    unsafe {
        let local = shared_array::<u32, 256>();
        let t = thread_idx_x() as usize;
        (*local)[t] = 0;
        sync_threads();
        let stride = (grid_dim_x() * block_dim_x()) as usize;
        let mut i = global_idx_x();
        while i < data.len() {
            atomic_add(&mut (*local)[(data[i] & 255) as usize] as *mut u32, 1);
            i += stride;
        }
        sync_threads();
        atomic_add(&mut bins[t] as *mut u32, (*local)[t]);
    }
}

/// Softmax of each `cols`-long row (one block of 256 threads per row): the row's maximum and
/// the sum of exponentials by warp and block reductions.
#[offload_kernel]
pub fn softmax(cols: usize, x: &[f32], y: &mut [f32]) {
    // SAFETY: the shared array holds one value per warp; barriers order its uses.
    unsafe {
        let t = thread_idx_x() as usize;
        let base = block_idx_x() as usize * cols;
        let scratch = shared_array::<f32, 32>();
        let warps = (block_dim_x() / 32) as usize;
        let mut m = f32::NEG_INFINITY;
        let mut j = t;
        while j < cols {
            m = m.max(x[base + j]);
            j += 256;
        }
        m = warp_reduce_max(m);
        if lane_id() == 0 {
            (*scratch)[t / 32] = m;
        }
        sync_threads();
        let mut row_max = f32::NEG_INFINITY;
        let mut w = 0usize;
        while w < warps {
            row_max = row_max.max((*scratch)[w]);
            w += 1;
        }
        sync_threads();
        let mut s = 0.0f32;
        let mut j = t;
        while j < cols {
            s += (x[base + j] - row_max).exp();
            j += 256;
        }
        s = warp_reduce_add(s);
        if lane_id() == 0 {
            (*scratch)[t / 32] = s;
        }
        sync_threads();
        let mut total = 0.0f32;
        let mut w = 0usize;
        while w < warps {
            total += (*scratch)[w];
            w += 1;
        }
        let mut j = t;
        while j < cols {
            y[base + j] = (x[base + j] - row_max).exp() / total;
            j += 256;
        }
    }
}

/// All-pairs gravitational accelerations (softened), bodies as `x, y, z, mass` in `pos`,
/// tiles of 256 bodies through shared memory; compute-bound.
#[offload_kernel]
pub fn nbody(n: usize, pos: &[f32], acc: &mut [f32]) {
    // SAFETY: each thread loads one body of the tile between barriers.
    unsafe {
        let tile = shared_array::<f32, 1024>();
        let t = thread_idx_x() as usize;
        let i = global_idx_x();
        let (px, py, pz) = (pos[4 * i], pos[4 * i + 1], pos[4 * i + 2]);
        let (mut ax, mut ay, mut az) = (0.0f32, 0.0f32, 0.0f32);
        let mut base = 0usize;
        while base < n {
            let k = base + t;
            (*tile)[4 * t] = pos[4 * k];
            (*tile)[4 * t + 1] = pos[4 * k + 1];
            (*tile)[4 * t + 2] = pos[4 * k + 2];
            (*tile)[4 * t + 3] = pos[4 * k + 3];
            sync_threads();
            let mut j = 0usize;
            while j < 256 {
                let dx = (*tile)[4 * j] - px;
                let dy = (*tile)[4 * j + 1] - py;
                let dz = (*tile)[4 * j + 2] - pz;
                let d2 = dx.mul_add(dx, dy.mul_add(dy, dz.mul_add(dz, 0.01)));
                let inv = 1.0 / d2.sqrt();
                let s = (*tile)[4 * j + 3] * inv * inv * inv;
                ax = dx.mul_add(s, ax);
                ay = dy.mul_add(s, ay);
                az = dz.mul_add(s, az);
                j += 1;
            }
            sync_threads();
            base += 256;
        }
        acc[4 * i] = ax;
        acc[4 * i + 1] = ay;
        acc[4 * i + 2] = az;
        acc[4 * i + 3] = 0.0;
    }
}

/// Rows of `c` one block of `hgemm` computes.
pub const HGEMM_BLOCK_M: usize = 128;
/// Columns of `c` one block of `hgemm` computes.
pub const HGEMM_BLOCK_N: usize = 128;
/// Columns of `a` (rows of `b`) one step of `hgemm` stages: two tensor-core steps.
pub const HGEMM_STEP: usize = 32;
/// The warps of one block of `hgemm` split its tile into `HGEMM_WARPS_M × HGEMM_WARPS_N`
/// parts of 64×64: four warps, each with 32 accumulator tiles in registers.
const HGEMM_WARPS_M: usize = 2;
const HGEMM_WARPS_N: usize = 2;
/// The threads of one block of `hgemm`.
pub const HGEMM_THREADS: usize = 32 * HGEMM_WARPS_M * HGEMM_WARPS_N;
/// How many steps' tiles `hgemm` keeps in shared memory at once: the one the warps multiply
/// and the copies of the next three, in flight meanwhile.
pub const HGEMM_STAGES: usize = 4;
/// The rows of `hgemm`'s staged tiles in shared memory, in elements: eight more than the
/// tiles' widths, so that the eight rows one `ldmatrix` phase reads lie in different banks.
const HGEMM_ROW_A: usize = HGEMM_STEP + 8;
const HGEMM_ROW_B: usize = HGEMM_BLOCK_N + 8;
/// The elements of one stage of each staged tile.
const HGEMM_TILE_A: usize = HGEMM_BLOCK_M * HGEMM_ROW_A;
const HGEMM_TILE_B: usize = HGEMM_STEP * HGEMM_ROW_B;
/// The 16-row and 8-column tensor-core tiles of one warp's part of the block's tile.
const HGEMM_WARP_TILES_M: usize = HGEMM_BLOCK_M / HGEMM_WARPS_M / 16;
const HGEMM_WARP_TILES_N: usize = HGEMM_BLOCK_N / HGEMM_WARPS_N / 8;
/// The dynamic shared memory `hgemm` needs (`dyn_cache`): every stage of both tiles, 75,776
/// bytes, beyond the 48 KiB a kernel has without asking.
pub const HGEMM_SHARED_BYTES: usize = HGEMM_STAGES * (HGEMM_TILE_A + HGEMM_TILE_B) * 2;

/// `c = a·b` for row-major `a` (`k` columns, 128 rows per block of the grid's y) and `k × n`
/// `b` in f16, accumulated in f32; `n` a multiple of 128, `k` of 32. Each step's 128×32 tile
/// of `a` and 32×128 tile of `b` are copied into shared memory asynchronously, three steps
/// ahead, into a ring of four stages in dynamic shared memory: one barrier per step both
/// publishes the step's tiles and tells every thread that the stage the next copies overwrite
/// has been read. The four warps split the block's tile 2×2; each multiplies its 64×64 part
/// as 4×8 tensor-core tiles of 16×8, whose thirty-two accumulators stay in registers, with
/// fragments loaded by `ldmatrix` (four of `A` and eight of `B` for thirty-two multiplies,
/// per 16-wide half of the step).
#[offload_kernel]
pub fn hgemm(n: usize, k: usize, a: &[f16], b: &[f16], c: &mut [f32]) {
    // SAFETY: each thread copies its own chunks of the tiles; the wait and the barrier at the
    // top of each step separate the copies from the warps' reads of the whole tiles, and the
    // reads of a stage from the copies that later overwrite it; every lane of a warp reaches
    // each mma. The launch gives `HGEMM_SHARED_BYTES` of dynamic shared memory.
    unsafe {
        let sa = dynamic_shared::<f16>();
        let sb = sa.add(HGEMM_STAGES * HGEMM_TILE_A);
        let warp = thread_idx_x() as usize / 32;
        let (wm, wn) = (
            warp / HGEMM_WARPS_N * (HGEMM_BLOCK_M / HGEMM_WARPS_M),
            warp % HGEMM_WARPS_N * (HGEMM_BLOCK_N / HGEMM_WARPS_N),
        );
        let tiles = HgemmTiles {
            a,
            b,
            n,
            k,
            row: block_idx_y() as usize * HGEMM_BLOCK_M,
            col: block_idx_x() as usize * HGEMM_BLOCK_N,
        };
        let mut acc = [[0.0f32; 4]; HGEMM_WARP_TILES_M * HGEMM_WARP_TILES_N];
        let steps = k / HGEMM_STEP;
        // The first three steps' copies, one group each (an empty group past the last step).
        for s in 0..HGEMM_STAGES - 1 {
            if s < steps {
                tiles.copy(s, sa, sb);
            }
            cp_async_commit();
        }
        // Each step waits for its own group (the two after it may still be in flight) and
        // starts the copies of the step three ahead; the last three steps have none left and
        // commit an empty group, so that every wait counts the same. Two loops rather than a
        // guard in one: the first one's bounds keep every copied step below `steps`, which is
        // what lets loop versioning prove the copies' indices once before it.
        let steady = steps - steps.min(HGEMM_STAGES - 1);
        for s in 0..steady {
            cp_async_wait::<{ HGEMM_STAGES - 2 }>();
            sync_threads();
            tiles.copy(s + HGEMM_STAGES - 1, sa, sb);
            cp_async_commit();
            hgemm_step(&mut acc, sa, sb, s % HGEMM_STAGES, wm, wn);
        }
        for s in steady..steps {
            cp_async_wait::<{ HGEMM_STAGES - 2 }>();
            sync_threads();
            cp_async_commit();
            hgemm_step(&mut acc, sa, sb, s % HGEMM_STAGES, wm, wn);
        }
        for mi in 0..HGEMM_WARP_TILES_M {
            for ni in 0..HGEMM_WARP_TILES_N {
                let at = (tiles.row + wm + mi * 16) * n + tiles.col + wn + ni * 8;
                mma_store_d(&mut c[at..], n, acc[mi * HGEMM_WARP_TILES_N + ni]);
            }
        }
    }
}

/// One step of `hgemm`'s warp: the products of the staged tiles in ring stage `stage` added to
/// the warp's accumulators, as two tensor-core steps of sixteen.
///
/// # Safety
///
/// `sa` and `sb` are `hgemm`'s rings of staged tiles, the stage's copies landed and visible.
unsafe fn hgemm_step(
    acc: &mut [[f32; 4]; HGEMM_WARP_TILES_M * HGEMM_WARP_TILES_N],
    sa: *mut f16,
    sb: *mut f16,
    stage: usize,
    wm: usize,
    wn: usize,
) {
    // SAFETY: the caller's promise; every lane of the warp reaches each mma.
    unsafe {
        for kk in 0..HGEMM_STEP / 16 {
            let tile_a = sa.add(stage * HGEMM_TILE_A + kk * 16) as *const f16;
            let tile_b = sb.add(stage * HGEMM_TILE_B + kk * 16 * HGEMM_ROW_B) as *const f16;
            let fb: [[f16; 4]; HGEMM_WARP_TILES_N] =
                core::array::from_fn(|ni| mma_ldmatrix_b(tile_b.add(wn + ni * 8), HGEMM_ROW_B));
            for mi in 0..HGEMM_WARP_TILES_M {
                let fa = mma_ldmatrix_a(tile_a.add((wm + mi * 16) * HGEMM_ROW_A), HGEMM_ROW_A);
                for ni in 0..HGEMM_WARP_TILES_N {
                    let at = mi * HGEMM_WARP_TILES_N + ni;
                    acc[at] = mma_m16n8k16_f16(fa, fb[ni], acc[at]);
                }
            }
        }
    }
}

/// Rows of `c` one block of `hgemm_wgmma` computes: 64 for each of its two warpgroups.
pub const WGMMA_BLOCK_M: usize = 128;
/// Columns of `c` one block of `hgemm_wgmma` computes: one warpgroup multiply's width, two
/// 64-column blocks of the swizzled layout.
pub const WGMMA_BLOCK_N: usize = 128;
/// Columns of `a` (rows of `b`) one step of `hgemm_wgmma` stages: one 128-byte row of `a`'s
/// swizzled tile, four 16-deep multiplies.
pub const WGMMA_STEP: usize = 64;
/// How many steps' tiles `hgemm_wgmma` keeps in shared memory: the one the tensor cores read,
/// the one the previous step's multiplies may still read, and the copies of the next four.
pub const WGMMA_STAGES: usize = 6;
/// The threads of one block of `hgemm_wgmma`: two warpgroups.
pub const WGMMA_THREADS: usize = 128 * WGMMA_BLOCK_M / 64;
/// The elements of one stage of each staged tile, and of one 64-column block of `b`'s.
const WGMMA_TILE_A: usize = WGMMA_BLOCK_M * WGMMA_STEP;
const WGMMA_TILE_B: usize = WGMMA_STEP * WGMMA_BLOCK_N;
const WGMMA_B_BLOCK: usize = WGMMA_STEP * 64;
/// The dynamic shared memory `hgemm_wgmma` needs (`dyn_cache`): 196,608 bytes.
pub const WGMMA_SHARED_BYTES: usize = WGMMA_STAGES * (WGMMA_TILE_A + WGMMA_TILE_B) * 2;

/// `c = a·b` as `hgemm` computes it, on Hopper's warpgroup multiplies (`wgmma`, sm_90; other
/// targets compute the same with loads and arithmetic): `n` a multiple of 128, `k` of 64,
/// 128 rows per block. Each step's 128×64 tile of `a` and 64×128 tile of `b` are copied into
/// shared memory by `cp_async`, four steps ahead, in the layout with 128-byte swizzling that
/// the tensor cores read without bank conflicts: rows of 128 bytes (64 elements: a row of
/// `a`'s tile, or a `k` row of one of `b`'s two 64-column blocks) whose eight 16-byte chunks
/// are permuted by the row's index (`chunk ^ row % 8`). Each warpgroup multiplies its 64 rows
/// by all 128 columns as four multiples of 64×128×16 a step, whose 64 accumulators per thread
/// stay in registers; they run while the next steps' copies land, and the barrier of each
/// step both publishes its tiles and tells every thread that the stage the next copies
/// overwrite, read two steps before, has been read (each warpgroup waits for all but its last
/// batch).
#[offload_kernel]
pub fn hgemm_wgmma(n: usize, k: usize, a: &[f16], b: &[f16], c: &mut [f32]) {
    // SAFETY: each thread copies its own chunks of the tiles; the waits, the proxy fence and
    // the barrier at the top of each step order the copies before the multiplies' reads and
    // those reads before the copies that later overwrite their stage; every thread of each
    // warpgroup reaches every multiply. The launch gives `WGMMA_SHARED_BYTES` of dynamic
    // shared memory (1024-byte aligned, as the swizzled tiles need) and 256 threads.
    unsafe {
        let sa = dynamic_shared::<f16>();
        let sb = sa.add(WGMMA_STAGES * WGMMA_TILE_A);
        let t = thread_idx_x() as usize;
        let group = t / 128;
        let tiles = WgmmaTiles {
            a,
            b,
            n,
            k,
            row: block_idx_y() as usize * WGMMA_BLOCK_M,
            col: block_idx_x() as usize * WGMMA_BLOCK_N,
        };
        let mut acc = [0.0f32; WGMMA_BLOCK_N / 2];
        let steps = k / WGMMA_STEP;
        for s in 0..WGMMA_STAGES - 2 {
            if s < steps {
                tiles.copy(s, sa, sb);
            }
            cp_async_commit();
        }
        // As in `hgemm`: two loops, so that the first one's bounds prove the copies' indices.
        let steady = steps - steps.min(WGMMA_STAGES - 2);
        for s in 0..steady {
            cp_async_wait::<{ WGMMA_STAGES - 3 }>();
            fence_proxy_async();
            sync_threads();
            tiles.copy(s + WGMMA_STAGES - 2, sa, sb);
            cp_async_commit();
            acc = wgmma_step(acc, sa, sb, s % WGMMA_STAGES, group);
        }
        for s in steady..steps {
            cp_async_wait::<{ WGMMA_STAGES - 3 }>();
            fence_proxy_async();
            sync_threads();
            cp_async_commit();
            acc = wgmma_step(acc, sa, sb, s % WGMMA_STAGES, group);
        }
        wgmma_wait::<0>();
        let (warp, lane) = (t % 128 / 32, t % 32);
        let r0 = tiles.row + group * 64 + warp * 16 + lane / 4;
        for j in 0..WGMMA_BLOCK_N / 8 {
            let at = r0 * n + tiles.col + j * 8 + lane % 4 * 2;
            c[at] = acc[4 * j];
            c[at + 1] = acc[4 * j + 1];
            c[at + 8 * n] = acc[4 * j + 2];
            c[at + 8 * n + 1] = acc[4 * j + 3];
        }
    }
}

/// One step of `hgemm_wgmma`'s warpgroup: the products of ring stage `stage`'s tiles added to
/// its accumulators, as one batch of four multiplies, then a wait for the previous batch.
///
/// # Safety
///
/// `sa` and `sb` are `hgemm_wgmma`'s rings, the stage's copies landed, fenced and published.
unsafe fn wgmma_step(
    mut acc: [f32; WGMMA_BLOCK_N / 2],
    sa: *mut f16,
    sb: *mut f16,
    stage: usize,
    group: usize,
) -> [f32; WGMMA_BLOCK_N / 2] {
    // SAFETY: the caller's promise; every thread of the warpgroup reaches each multiply.
    unsafe {
        let ta = sa.add(stage * WGMMA_TILE_A + group * 64 * WGMMA_STEP) as *const f16;
        let tb = sb.add(stage * WGMMA_TILE_B) as *const f16;
        wgmma_fence();
        for kk in 0..WGMMA_STEP / 16 {
            // `a`: sixteen elements further along its rows, atoms of eight rows 512 elements
            // apart; `b`: sixteen rows further down, atoms 512 apart, 64-column blocks a
            // block apart.
            acc = wgmma_sw128_m64n128k16_f16(
                ta,
                kk * 16,
                8 * WGMMA_STEP,
                tb.add(kk * 16 * 64),
                8 * 64,
                WGMMA_B_BLOCK,
                acc,
            );
        }
        wgmma_commit();
        wgmma_wait::<1>();
        acc
    }
}

/// Where a block of `hgemm_wgmma` reads its tiles.
struct WgmmaTiles<'a> {
    a: &'a [f16],
    b: &'a [f16],
    n: usize,
    k: usize,
    row: usize,
    col: usize,
}

impl WgmmaTiles<'_> {
    /// Starts the copies of step `s`'s tiles into their stage of the rings, in 16-byte
    /// chunks: eight consecutive threads copy one 128-byte row, each chunk to its swizzled
    /// place in the row, so that each phase of a warp's shared-memory writes covers one row
    /// and each eight threads read 128 contiguous bytes of global memory.
    unsafe fn copy(&self, s: usize, sa: *mut f16, sb: *mut f16) {
        unsafe {
            let t = thread_idx_x() as usize;
            let k0 = s * WGMMA_STEP;
            let ta = sa.add(s % WGMMA_STAGES * WGMMA_TILE_A);
            let tb = sb.add(s % WGMMA_STAGES * WGMMA_TILE_B);
            for j in 0..WGMMA_TILE_A / 8 / WGMMA_THREADS {
                let p = t + j * WGMMA_THREADS;
                let (r, chunk) = (p / 8, p % 8);
                let from = &self.a[(self.row + r) * self.k + k0 + chunk * 8] as *const f16;
                let to = ta.add(r * 64 + (chunk ^ r % 8) * 8);
                cp_async(to as *mut [f16; 8], from as *const [f16; 8]);
            }
            for j in 0..WGMMA_TILE_B / 8 / WGMMA_THREADS {
                let p = t + j * WGMMA_THREADS;
                let (chunk, block, r) =
                    (p % 8, p / 8 % (WGMMA_BLOCK_N / 64), p / (WGMMA_BLOCK_N / 8));
                let from =
                    &self.b[(k0 + r) * self.n + self.col + block * 64 + chunk * 8] as *const f16;
                let to = tb.add(block * WGMMA_B_BLOCK + r * 64 + (chunk ^ r % 8) * 8);
                cp_async(to as *mut [f16; 8], from as *const [f16; 8]);
            }
        }
    }
}

/// Where a block reads its tiles: the matrices, their widths and the block's first row and
/// column of `c`.
struct HgemmTiles<'a> {
    a: &'a [f16],
    b: &'a [f16],
    n: usize,
    k: usize,
    row: usize,
    col: usize,
}

impl HgemmTiles<'_> {
    /// Starts the copies of step `s`'s tiles into their stage of the rings `sa` (128×32 tiles)
    /// and `sb` (32×128): chunks of eight f16 (16 bytes), four of each per thread.
    unsafe fn copy(&self, s: usize, sa: *mut f16, sb: *mut f16) {
        unsafe {
            let t = thread_idx_x() as usize;
            let k0 = s * HGEMM_STEP;
            let ta = sa.add(s % HGEMM_STAGES * HGEMM_TILE_A);
            let tb = sb.add(s % HGEMM_STAGES * HGEMM_TILE_B);
            for j in 0..HGEMM_BLOCK_M * HGEMM_STEP / 8 / HGEMM_THREADS {
                let chunk = t + j * HGEMM_THREADS;
                let (ar, ac) = (chunk / (HGEMM_STEP / 8), chunk % (HGEMM_STEP / 8) * 8);
                let from_a = &self.a[(self.row + ar) * self.k + k0 + ac] as *const f16;
                cp_async(ta.add(ar * HGEMM_ROW_A + ac) as *mut [f16; 8], from_a as *const [f16; 8]);
            }
            for j in 0..HGEMM_STEP * HGEMM_BLOCK_N / 8 / HGEMM_THREADS {
                let chunk = t + j * HGEMM_THREADS;
                let (br, bc) = (chunk / (HGEMM_BLOCK_N / 8), chunk % (HGEMM_BLOCK_N / 8) * 8);
                let from_b = &self.b[(k0 + br) * self.n + self.col + bc] as *const f16;
                cp_async(tb.add(br * HGEMM_ROW_B + bc) as *mut [f16; 8], from_b as *const [f16; 8]);
            }
        }
    }
}
