//! Iterator chains and closures as kernels in krnl, rust-gpu and cuda-oxide write them:
//! `zip`/`map`/`sum`, `enumerate`, `fold`, `filter`/`count`, `rev`, `step_by`, `chunks`,
//! `windows`, `any`/`all`/`position`/`max_by`, `take`/`skip`, `flat_map`, `chain`,
//! `iter_mut`, closures that capture by reference, by `move`, and mutably, and generic
//! helpers taking `impl Fn` and `F: FnMut`.
use rkc_offload::prelude::*;

/// A dot product over one row, the way safe Rust writes it.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn apply_twice(f: impl Fn(f32) -> f32, x: f32) -> f32 {
    f(f(x))
}

fn accumulate<F: FnMut(u32)>(n: u32, mut f: F) {
    for k in 0..n {
        f(k);
    }
}

/// Row-times-vector with an 8-wide row per thread, and statistics over the row.
#[offload_kernel]
pub fn rows(m: &[f32], v: &[f32], out: &mut [f32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let width = v.len();
    let Some(row) = m.get(i * width..(i + 1) * width) else { return };
    let scale = 0.5f32;
    let s = dot(row, v);
    let biggest = row.iter().copied().fold(f32::MIN, f32::max);
    let positives = row.iter().filter(|x| **x > 0.0).count() as f32;
    let first_negative = row.iter().position(|x| *x < 0.0).map_or(-1.0, |p| p as f32);
    let mirrored: f32 = row.iter().rev().enumerate().map(|(k, x)| x * k as f32).sum();
    let every_other: f32 = row.iter().step_by(2).sum();
    let pairs: f32 = row.chunks(2).map(|c| c[0] - c[c.len() - 1]).sum();
    let rising = row.windows(2).filter(|w| w[1] > w[0]).count() as f32;
    let capped = apply_twice(move |x| (x * scale).min(40.0), s);
    if let Some(o) = out.get_mut(i) {
        *o = s + biggest * 0.25 + positives + first_negative + mirrored * 0.125 + every_other
            - pairs
            + rising
            + capped;
    }
}

/// Integer chains: `take`/`skip`, `chain`, `flat_map`, `any`/`all`, `max_by_key`,
/// `min_by`, `last`, `nth`, and a closure that counts into a captured variable.
#[offload_kernel]
pub fn chains(xs: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: `xs` and `out` are mapped for the launch; the thread index is below 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let data: &[u32; 64] = &*xs;
        let window = &data[t / 2..t / 2 + 8];
        let head: u32 = window.iter().take(3).sum();
        let tail: u32 = window.iter().skip(5).map(|x| x % 97).sum();
        let joined =
            window[..2].iter().chain(window[6..].iter()).fold(0u32, |a, x| a.rotate_left(3) ^ x);
        let spread: u32 =
            (0..3u32).flat_map(|k| window.iter().skip(k as usize).take(2)).map(|x| x % 13).sum();
        let any_even = window.iter().any(|x| x % 2 == 0) as u32;
        let all_small = window.iter().all(|x| *x < u32::MAX / 2) as u32;
        let widest =
            window.iter().enumerate().max_by_key(|(_, x)| **x % 1000).map_or(99, |(k, _)| k as u32);
        let narrowest =
            window.iter().min_by(|a, b| (**a % 17).cmp(&(**b % 17))).copied().unwrap_or(0);
        let last = window.iter().last().copied().unwrap_or(0);
        let third = window.iter().nth(2).copied().unwrap_or(0);
        let mut count = 0u32;
        accumulate(t as u32 % 7, |k| count += k + 1);
        (*out)[t] = head
            ^ tail.wrapping_mul(3)
            ^ joined
            ^ spread
            ^ (any_even << 30)
            ^ (all_small << 31)
            ^ (widest << 24)
            ^ narrowest.wrapping_mul(5)
            ^ last
            ^ third.wrapping_mul(7)
            ^ count;
    }
}

/// `iter_mut` and `for_each` over a local array, `sort_unstable` on it, and `sum` of `u64`
/// widened from `u32`.
#[offload_kernel]
pub fn in_place(xs: *const [u32; 64], out: *mut [u64; 64]) {
    // SAFETY: `xs` and `out` are mapped for the launch; the thread index is below 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let mut v = [0u32; 6];
        for (k, slot) in v.iter_mut().enumerate() {
            *slot = (*xs)[(t * 5 + k * 11) % 64] % 10_000;
        }
        v.iter_mut().for_each(|x| *x = x.wrapping_mul(3) % 10_007);
        v.sort_unstable();
        let ordered = v.windows(2).all(|w| w[0] <= w[1]) as u64;
        let total: u64 = v.iter().map(|&x| u64::from(x)).sum();
        let weighted = v.iter().zip(1u64..).fold(0u64, |acc, (&x, w)| acc + u64::from(x) * w);
        (*out)[t] = total * 1_000_000 + weighted + (ordered << 62);
    }
}
