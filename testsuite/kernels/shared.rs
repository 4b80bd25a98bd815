//! Shared memory, barriers and atomics: a block sum by a tree in shared memory (every step
//! separated by a barrier, so the order of additions is fixed and the result exact), a
//! histogram with atomics on global memory, and a reversal through dynamic shared memory.
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
