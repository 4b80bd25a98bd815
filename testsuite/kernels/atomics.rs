//! Atomics on floats and warp operations on narrow integers, as CUDA programs and Rust-CUDA's
//! tests use them: float minimum and maximum per block, float subtraction of values whose sums
//! are exact in any order (so the result does not depend on the GPU's order), exchanges and
//! compare-exchanges on floats by their bits, and shuffles and reductions of `i8` and `u16`.
use rkc_offload::prelude::*;

/// Per block: the minimum and maximum of its values (f32 and f64), and a countdown from 1000
/// by each thread's small whole number. `stats` holds 4 blocks × 6 values.
#[offload_kernel]
pub fn float_extremes(xs: *const [f32; 512], stats: *mut [f64; 24], lows: *mut [f32; 8]) {
    // SAFETY: 4 blocks of 128 threads; every shared update is atomic; thread 0 of each block
    // seeds its block's slots before the barrier and nobody reads them before the launch ends.
    unsafe {
        let b = block_idx_x() as usize;
        let i = global_idx_x();
        let x = (*xs)[i];
        if thread_idx_x() == 0 {
            (*lows)[2 * b] = f32::INFINITY;
            (*lows)[2 * b + 1] = f32::NEG_INFINITY;
            (*stats)[6 * b] = f64::INFINITY;
            (*stats)[6 * b + 1] = f64::NEG_INFINITY;
            (*stats)[6 * b + 2] = 1000.0;
            (*stats)[6 * b + 3] = 0.0;
        }
        sync_threads();
        let lows = lows as *mut f32;
        let stats = stats as *mut f64;
        atomic_min(lows.add(2 * b), x);
        atomic_max(lows.add(2 * b + 1), x);
        atomic_min(stats.add(6 * b), x as f64 * 0.5);
        atomic_max(stats.add(6 * b + 1), x as f64 * 0.5);
        // Whole numbers below 2^24: every order of subtraction gives the same f64.
        let whole = (x.abs() as i32 % 7) as f64;
        atomic_sub(stats.add(6 * b + 2), whole);
        atomic_sub(stats.add(6 * b + 3), -1.0f64);
        let _ = atomic_sub(stats.add(6 * b + 4), 0.0f64);
        let _ = atomic_add(stats.add(6 * b + 5), 2.0f64);
    }
}

/// Exchanges and compare-exchanges on each thread's own float: the compare-exchange compares
/// bits, so `-0.0` does not match a stored `0.0`, and a NaN matches itself.
#[offload_kernel]
pub fn float_exchanges(xs: *const [f32; 256], out: *mut [f32; 256], old: *mut [f32; 768]) {
    // SAFETY: 2 blocks of 128 threads; thread i works on out[i] and old[3i..3i + 3] only.
    unsafe {
        let i = global_idx_x();
        let x = (*xs)[i];
        let slot = (out as *mut f32).add(i);
        *slot = if i % 4 == 0 { f32::NAN } else { 0.0 };
        (*old)[3 * i] = atomic_exchange(slot, *slot);
        // No match for -0.0 against 0.0 (by bits), then a match for what is there.
        let before = atomic_compare_exchange(slot, -0.0, x);
        let current = *slot;
        (*old)[3 * i + 1] = before;
        (*old)[3 * i + 2] = atomic_compare_exchange(slot, current, x * 2.0);
    }
}

/// Shuffles and warp reductions of narrow integers: each lane's `i8` from the lane above, a
/// `u16` butterfly, and the wrapping sum, minimum and maximum of both across the warp.
#[offload_kernel]
pub fn narrow_warps(xs: *const [u32; 256], bytes: *mut [i8; 768], halves: *mut [u16; 768]) {
    // SAFETY: 2 blocks of 128 threads; thread i writes elements 3i..3i + 3 only.
    unsafe {
        let i = global_idx_x();
        let v = (*xs)[i];
        let b = v as i8;
        let h = (v >> 8) as u16;
        (*bytes)[3 * i] = warp_shuffle_down(b, 1);
        (*bytes)[3 * i + 1] = warp_reduce_add(b);
        (*bytes)[3 * i + 2] = warp_reduce_min(b).wrapping_add(warp_reduce_max(b));
        (*halves)[3 * i] = warp_shuffle_xor(h, lane_id() % 5 + 1);
        (*halves)[3 * i + 1] = warp_reduce_add(h);
        (*halves)[3 * i + 2] = warp_reduce_max(h) - warp_reduce_min(h);
    }
}

/// 128-bit shuffles: each lane's `u128` (and its `i128` negation) from another lane, moved as
/// two 64-bit halves.
#[offload_kernel]
pub fn wide_shuffles(xs: *const [u64; 256], out: *mut [u128; 256], signed: *mut [i128; 256]) {
    // SAFETY: 2 blocks of 128 threads; thread i writes element i of each output only.
    unsafe {
        let i = global_idx_x();
        let x = (*xs)[i];
        let wide = (u128::from(x) << 64) | u128::from(x.rotate_left(17));
        (*out)[i] = warp_shuffle_xor(wide, 3);
        (*signed)[i] = warp_shuffle(-(wide as i128), lane_id() * 5 + 1);
    }
}

/// 16-bit floats shuffled as their bits: an `f16` from the neighbouring lane and a `bf16` from
/// two lanes up, added in `f32`.
#[offload_kernel]
pub fn half_shuffles(xs: &[half::f16], out: &mut [half::bf16]) {
    // SAFETY: 2 blocks of 128 threads, every lane reaches both shuffles; thread i writes out[i].
    let i = unsafe { global_idx_x() };
    let x = xs[i % xs.len()];
    let (s, b) = unsafe {
        (warp_shuffle_xor(x, 1), warp_shuffle_up(half::bf16::from_f32(x.to_f32() * 3.0), 2))
    };
    if let Some(o) = out.get_mut(i) {
        *o = half::bf16::from_f32(s.to_f32() + b.to_f32());
    }
}
