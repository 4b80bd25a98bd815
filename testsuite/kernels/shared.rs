//! Shared memory, barriers and atomics: a block sum by a tree in shared memory (every step
//! separated by a barrier, so the order of additions is fixed and the result exact), a
//! histogram with atomics on global memory, a reversal through dynamic shared memory, and a
//! register-tiled matrix product (local arrays indexed by unrolled loops), and which shared
//! array a call gets: one per call site and element type, through generic and
//! `#[track_caller]` helpers.
use rkc_offload::prelude::*;

/// Each block sums its 256 elements: a tree in a shared array.
#[offload_kernel]
pub fn block_sum(x: *const [f32; 1024], sums: *mut [f32; 4]) {
    // SAFETY: x holds 4 blocks of 256 elements; each thread writes its own shared element and
    // reads others' only after a barrier.
    unsafe {
        let t = thread_idx_x() as usize;
        let b = block_idx_x() as usize;
        let s = shared_array::<f32, 256>();
        (*s)[t] = (*x)[b * 256 + t];
        sync_threads();
        let mut stride = 128usize;
        while stride > 0 {
            if t < stride {
                (*s)[t] = (*s)[t] + (*s)[t + stride];
            }
            sync_threads();
            stride /= 2;
        }
        if t == 0 {
            (*sums)[b] = (*s)[0];
        }
    }
}

/// Counts values into 16 bins, and keeps the smallest and largest value and how many times
/// a flag was claimed (once).
#[offload_kernel]
pub fn histogram(
    data: *const [u32; 1024],
    bins: *mut u32,
    extremes: *mut u32,
    ones: *mut f32,
    claims: *mut u32,
) {
    // SAFETY: bins has 16 elements, extremes 2, ones 1, claims 2; every update is atomic.
    unsafe {
        let i = (block_idx_x() * block_dim_x() + thread_idx_x()) as usize;
        let v = (*data)[i];
        atomic_add(bins.add((v % 16) as usize), 1);
        atomic_min(extremes, v);
        atomic_max(extremes.add(1), v);
        atomic_add(ones, 1.0f32);
        let old = atomic_compare_exchange(claims, 0u32, 7u32);
        if old == 0 {
            atomic_add(claims.add(1), 1);
        }
    }
}

/// Each block reverses its elements through dynamic shared memory (the launch's `dyn_cache`
/// holds one float per thread) and adds each to its mirror image.
#[offload_kernel]
pub fn dynamic_reverse(x: &[f32], out: &mut [f32]) {
    // SAFETY: the launch gives each block `block_dim_x()` floats of dynamic shared memory;
    // each thread writes its own element and reads another only after the barrier.
    unsafe {
        let t = thread_idx_x() as usize;
        let n = block_dim_x() as usize;
        let i = block_idx_x() as usize * n + t;
        let s = dynamic_shared::<f32>();
        *s.add(t) = if i < x.len() { x[i] } else { -1.0 };
        sync_threads();
        if i < out.len() {
            out[i] = *s.add(n - 1 - t) + *s.add(t) * 0.5;
        }
    }
}

/// `c = a·b` for `n × n` matrices (`n` a multiple of 32), tiled as fast GEMMs are: each block of
/// 64 threads computes a 32×32 tile of `c` from 32×4 slices of `a` (stored transposed) and 4×32
/// slices of `b` staged in shared memory, and each thread a 4×4 tile kept in a local array,
/// with its rows of `a` and columns of `b` for one step in two more. The multiply-adds run in
/// the same order everywhere, so the results are exact.
#[offload_kernel]
pub fn register_tile(n: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    // SAFETY: each thread writes its own elements of the staging tiles between barriers.
    unsafe {
        let ta = shared_array::<f32, 128>();
        let tb = shared_array::<f32, 128>();
        let t = thread_idx_x() as usize;
        let (trow, tcol) = (t / 8 * 4, t % 8 * 4);
        let (brow, bcol) = (block_idx_y() as usize * 32, block_idx_x() as usize * 32);
        let mut acc = [[0.0f32; 4]; 4];
        let mut ra = [0.0f32; 4];
        let mut rb = [0.0f32; 4];
        let mut k0 = 0;
        while k0 < n {
            for i in 0..2 {
                let idx = t + i * 64;
                let (m, k) = (idx / 4, idx % 4);
                (*ta)[k * 32 + m] = a[(brow + m) * n + k0 + k];
                let (k, j) = (idx / 32, idx % 32);
                (*tb)[k * 32 + j] = b[(k0 + k) * n + bcol + j];
            }
            sync_threads();
            for k in 0..4 {
                for m in 0..4 {
                    ra[m] = (*ta)[k * 32 + trow + m];
                }
                for j in 0..4 {
                    rb[j] = (*tb)[k * 32 + tcol + j];
                }
                for m in 0..4 {
                    for j in 0..4 {
                        acc[m][j] = ra[m].mul_add(rb[j], acc[m][j]);
                    }
                }
            }
            sync_threads();
            k0 += 4;
        }
        for m in 0..4 {
            for j in 0..4 {
                c[(brow + trow + m) * n + bcol + tcol + j] = acc[m][j];
            }
        }
    }
}

/// Slots that live across barriers, some alike in every thread and some not: `k0` every
/// thread advances alike (the host image reads it once per block where every thread runs),
/// `k1` the even threads advance further under a condition on their index, and `acc` differs
/// by thread. Each pass reads a tile that another thread wrote, through `k1`.
#[offload_kernel]
pub fn uniform_slots(n: usize, x: &[u32], out: &mut [u32]) {
    // SAFETY: each thread writes its own element of the tile between barriers.
    unsafe {
        let tile = shared_array::<u32, 64>();
        let t = thread_idx_x() as usize;
        let mut k0 = 0usize;
        let mut k1 = 0usize;
        let mut acc = 0u32;
        while k0 < n {
            (*tile)[t] = x[k0 + t];
            sync_threads();
            acc = acc.wrapping_add((*tile)[(t + k1) % 64]).wrapping_mul(3);
            if t % 2 == 0 {
                k1 += 1;
            }
            k1 += 1;
            sync_threads();
            k0 += 64;
        }
        out[block_idx_x() as usize * 64 + t] = acc.wrapping_add(k1 as u32);
    }
}

/// A generic helper's shared array: one per type it is instantiated with (`u32` and `i32` are
/// two arrays although their bits are alike).
fn typed_tile<T: Copy>() -> *mut [T; 64] {
    // SAFETY: a shared array is valid for the block's lifetime.
    unsafe { shared_array::<T, 64>() }
}

/// A `#[track_caller]` helper's shared array: one per call site of the helper, as its
/// location is its caller's.
#[track_caller]
fn site_tile() -> *mut [u32; 64] {
    // SAFETY: as above.
    unsafe { shared_array::<u32, 64>() }
}

#[offload_kernel]
pub fn shared_sites(x: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: each thread writes its own element of each array and reads its own after the
    // barrier; the pointers are mapped for the launch.
    unsafe {
        let t = thread_idx_x() as usize;
        let a = typed_tile::<u32>();
        let b = typed_tile::<i32>();
        let c = site_tile();
        let d = site_tile();
        (*a)[t] = (*x)[t];
        (*b)[t] = -((*x)[t] as i32 & 0xff);
        (*c)[t] = 3;
        (*d)[t] = 5;
        sync_threads();
        (*out)[t] = (*a)[t] ^ ((*b)[t] as u32) ^ ((*c)[t] << 8) ^ ((*d)[t] << 12);
    }
}
