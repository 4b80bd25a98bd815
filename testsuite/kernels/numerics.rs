//! The primitive types' methods as kernels call them, with local items in kernel bodies:
//! `div_ceil`, `next_multiple_of`, `is_multiple_of`, `checked_*`, `overflowing_*`,
//! `wrapping_*`, `saturating_*`, `abs_diff`, `clamp`, `rotate_left`, `count_ones`,
//! `leading_zeros`, `from_le_bytes`, `isqrt`, `ilog2`; float `mul_add`, `sqrt`, `exp`,
//! `hypot`-free norms, `copysign`, `total_cmp`; and a `const`, a `fn` and a `struct` declared
//! inside a kernel.
use rkc_offload::prelude::*;

/// Splits a 1-D problem into tiles, as a launch computation does on the host and a
/// persistent kernel does on the device: the tile count rounds up, and the last tile may be
/// short. Each thread walks the tiles grid-stride and sums what it covers.
#[offload_kernel]
pub fn tiling(xs: &[u32], out: &mut [u32]) {
    // A tile is a range of the input; declared here because only this kernel uses it.
    #[derive(Clone, Copy)]
    struct Tile {
        start: usize,
        len: usize,
    }
    const TILE: usize = 24;
    fn tile(k: usize, total: usize) -> Tile {
        let start = k * TILE;
        Tile { start, len: TILE.min(total - start) }
    }
    // SAFETY: the builtins only read the thread's position and the launch's shape.
    let (i, threads) = unsafe {
        (
            (block_idx_x() * block_dim_x() + thread_idx_x()) as usize,
            (grid_dim_x() * block_dim_x()) as usize,
        )
    };
    let tiles = xs.len().div_ceil(TILE);
    let mut acc = 0u32;
    let mut short = 0u32;
    for k in (i..tiles).step_by(threads) {
        let Tile { start, len } = tile(k, xs.len());
        short += u32::from(!len.is_multiple_of(TILE));
        acc = xs[start..start + len].iter().fold(acc, |a, &x| a.wrapping_add(x >> 8));
    }
    let padded = xs.len().next_multiple_of(TILE) as u32;
    if let Some(o) = out.get_mut(i) {
        *o = acc ^ short << 31 ^ padded << 20 ^ tiles as u32;
    }
}

/// Integer mixing and fixed-width arithmetic: a hash finaliser, checked and overflowing
/// arithmetic with the overflow recorded, saturation, and bit counts.
#[offload_kernel]
pub fn int_methods(xs: *const [u32; 64], out: *mut [u64; 64]) {
    // SAFETY: the pointers are mapped for the launch; indices are taken modulo 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let a = (*xs)[t];
        let b = (*xs)[(t + 1) % 64];
        // murmur3's 32-bit finaliser.
        let mut h = a ^ b.rotate_left(13);
        h ^= h >> 16;
        h = h.wrapping_mul(0x85eb_ca6b);
        h ^= h >> 13;
        h = h.wrapping_mul(0xc2b2_ae35);
        h ^= h >> 16;
        let (sum, carry) = a.overflowing_add(b);
        let (diff, borrow) = a.overflowing_sub(b);
        let product = u16::try_from(a >> 20).ok().and_then(|x| x.checked_mul((b >> 22) as u16));
        let signed = (a as i32).saturating_sub(b as i32).saturating_mul(2);
        let distance = a.abs_diff(b);
        let bytes = u32::from_le_bytes(a.to_be_bytes());
        let root = u64::from(a).isqrt();
        let log = b.checked_ilog2().unwrap_or(99);
        let clamped = (a as i32).clamp(-1000, 1000);
        let ones = a.count_ones() + b.leading_zeros() + a.trailing_zeros();
        let words = [
            sum,
            diff,
            u32::from(product.unwrap_or(7)),
            signed as u32,
            distance,
            bytes,
            root as u32,
            log,
            clamped as u32,
            ones,
            h,
        ];
        let folded = words.iter().fold(0u64, |acc, &w| acc.rotate_left(7) ^ u64::from(w));
        (*out)[t] = folded ^ u64::from(carry) << 62 ^ u64::from(borrow) << 63;
    }
}

/// Numerically stable softmax over each thread's eight logits: the maximum is subtracted
/// before `exp`, so that no term overflows; the entropy uses `ln`.
#[offload_kernel]
pub fn softmax(logits: &[f32], out: &mut [f32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let Some(row) = logits.get(8 * i..8 * i + 8) else { return };
    let scaled = row.iter().map(|x| x * 0.1);
    let max = scaled.clone().max_by(f32::total_cmp).unwrap_or(0.0);
    let mut probs = [0.0f32; 8];
    for (p, x) in probs.iter_mut().zip(scaled) {
        *p = (x - max).exp();
    }
    let total: f32 = probs.iter().sum();
    probs.iter_mut().for_each(|p| *p /= total);
    let entropy = -probs.iter().filter(|&&p| p > 0.0).map(|&p| p * p.ln()).sum::<f32>();
    let argmax = probs.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map_or(0, |(k, _)| k);
    let norm = probs.iter().fold(0.0f32, |acc, p| p.mul_add(*p, acc)).sqrt();
    if let Some(o) = out.get_mut(i) {
        *o = entropy + norm + argmax as f32 + 1.0f32.copysign(row[0]) * 100.0;
    }
}
