//! The primitive types' methods as kernels call them, with local items in kernel bodies:
//! `div_ceil`, `next_multiple_of`, `is_multiple_of`, `checked_*`, `overflowing_*`,
//! `wrapping_*`, `saturating_*`, `abs_diff`, `clamp`, `rotate_left`, `count_ones`,
//! `leading_zeros`, `from_le_bytes`, `isqrt`, `ilog2`; float `mul_add`, `sqrt`, `exp`,
//! `hypot`-free norms, `copysign`, `total_cmp`; a `const`, a `fn` and a `struct` declared
//! inside a kernel; a hash function written as a `core::hash::Hasher`, fed by `Hash` impls and
//! `#[derive(Hash)]`; and constants that
//! `const fn`s compute with loops, recursion and `match`, used as values and array lengths.
use core::hash::{Hash, Hasher};
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
        // Square roots near each width's maximum too, where a Newton step can overflow.
        let root = u64::from(a).isqrt()
            + u64::from((u32::MAX - (a & 3)).isqrt())
            + (u64::MAX - u64::from(b & 3)).isqrt();
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

/// FNV-1a as a `Hasher`: the trait's `write_*` methods feed integers through `write` as their
/// native-endian bytes, and a hasher's own `write_u16` is the one called through `&mut H`.
struct Fnv1a(u64);

impl Hasher for Fnv1a {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn write_u16(&mut self, i: u16) {
        self.0 = self.0.rotate_left(7) ^ u64::from(i);
    }
}

fn hash_pair<H: Hasher>(mut h: H, a: u32, b: i16) -> u64 {
    h.write_u32(a);
    h.write_i16(b);
    h.write_u16(b as u16);
    h.write_i64(-i64::from(a));
    h.finish()
}

#[offload_kernel]
pub fn hashes(xs: *const [u32; 64], out: *mut [u64; 64]) {
    // SAFETY: the pointers are mapped for the launch; indices are taken modulo 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let mut h = Fnv1a(0xcbf2_9ce4_8422_2325);
        h.write(&(*xs)[t].to_le_bytes()[..(t % 5)]);
        let through_ref = hash_pair(&mut h, (*xs)[t], (*xs)[(t + 1) % 64] as i16);
        (*out)[t] = through_ref ^ h.finish().rotate_left(17);
    }
}

const TILE: usize = 16;
const LOG_TILE: usize = TILE.trailing_zeros() as usize;

const fn log2(mut n: usize) -> usize {
    let mut r = 0;
    while n > 1 {
        n >>= 1;
        r += 1;
    }
    r
}

const LEVELS: usize = log2(256);

const fn factorial(n: u64) -> u64 {
    if n == 0 { 1 } else { n * factorial(n - 1) }
}

const fn fib(n: u32) -> u32 {
    match n {
        0 | 1 => n,
        _ => fib(n - 1) + fib(n - 2),
    }
}

/// The lowest set bit's position, by a `loop` that breaks with a value.
const fn lowest_bit(x: u32) -> u32 {
    let mut i = 0;
    loop {
        if x & (1 << i) != 0 {
            break i;
        }
        i += 1;
    }
}

/// FNV-1a over a number's bytes: wrapping multiplication at the type's width.
const fn fnv(mut x: u64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut k = 0;
    while k < 8 {
        h = (h ^ (x & 0xff)).wrapping_mul(0x0100_0000_01b3);
        x >>= 8;
        k += 1;
    }
    h
}

const fn squares_below(n: u32) -> u32 {
    let mut s = 0;
    let mut i = 0;
    while i < n {
        i += 1;
        if i % 3 == 0 {
            continue;
        }
        s += i * i;
    }
    s
}

const FACT: u64 = factorial(20);
const FIB: u32 = fib(20);
const MASK: u32 = !0 << 4;
const HIGH: u8 = (0x1234u16 >> 8) as u8;
const NEAR_MIN: i32 = -(7 % 3) - i32::MAX;
const BITS: u32 = (i8::MIN as u8).count_ones() + (-1i16).count_zeros() + 1u32.leading_zeros();
const ROTATED: u8 = 200u8.rotate_left(3);
const SMALL: bool = LEVELS > 4 && !(LOG_TILE == 3);

#[repr(u8)]
enum Level {
    Low = 1 << 3,
    High,
}

#[offload_kernel]
pub fn const_fns(seed: *const [u32; 64], out: *mut [u64; 64]) {
    let levels = [1u64; LEVELS];
    let tile = [2u64; LOG_TILE];
    let fibs = [0u8; { fib(7) as usize }];
    // SAFETY: the pointers are mapped for the launch; indices are taken modulo 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let table = [
            levels.iter().sum::<u64>(),
            tile.len() as u64,
            fibs.len() as u64,
            FACT,
            u64::from(FIB),
            u64::from(MASK),
            u64::from(HIGH),
            NEAR_MIN as u64,
            u64::from(BITS),
            u64::from(ROTATED),
            u64::from(SMALL),
            Level::High as u64 + Level::Low as u64,
            u64::from(lowest_bit(40)),
            fnv(0x0123_4567_89ab_cdef),
            u64::from(squares_below(10)),
        ];
        (*out)[t] = table[t % table.len()] ^ u64::from((*seed)[t]);
    }
}

/// A hasher that mixes eight bytes at a time: one `write` of a slice's bytes and a `write` per
/// element give different results, so the `Hash` impls must make core's calls.
struct Chunked(u64);

impl Hasher for Chunked {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut w = 0u64;
            for (k, &b) in c.iter().enumerate() {
                w |= u64::from(b) << (8 * k);
            }
            self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }
}

#[derive(Hash, Clone, Copy)]
struct HashKey {
    a: u32,
    b: i16,
    c: [u8; 3],
}

#[derive(Hash)]
enum HashShape {
    Dot,
    Line(u32),
    Box { w: u16, h: u16 },
}

#[derive(Hash, Clone, Copy)]
#[repr(u8)]
enum HashMode {
    Fast = 3,
    Slow,
}

#[offload_kernel]
pub fn derived_hashes(xs: *const [u32; 64], out: *mut [u64; 64]) {
    // SAFETY: the pointers are mapped for the launch; indices are taken modulo 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*xs)[t];
        let mut h = Chunked(t as u64);
        HashKey { a: x, b: -(x as i16), c: [1, 2, x as u8] }.hash(&mut h);
        let shape = match x % 3 {
            0 => HashShape::Dot,
            1 => HashShape::Line(x),
            _ => HashShape::Box { w: x as u16, h: 7 },
        };
        shape.hash(&mut h);
        (if x % 2 == 0 { HashMode::Fast } else { HashMode::Slow }).hash(&mut h);
        let seen: &[u32; 64] = &*xs;
        seen[..t % 6].hash(&mut h);
        (x, x % 5 == 0, 'z').hash(&mut h);
        Some(x as u8).hash(&mut h);
        (*out)[t] = h.finish();
    }
}
