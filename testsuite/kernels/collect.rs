//! Compile-time lengths, `collect()` and other iterator idioms, as new users write them
//! (2026-12-06): array lengths from `const fn` calls, `size_of`, `if` and integer methods;
//! `collect()` into a kernel's own fixed-capacity vector (`FromIterator`, `Extend`), into an
//! `Option` of one, and into `()`; runs, orders and selections.
use rkc_offload::prelude::*;

const fn div_ceil(a: usize, b: usize) -> usize {
    (a + b - 1) / b
}

const fn tile(n: usize) -> usize {
    let t = if n > 64 { 16 } else { 8 };
    t * 2
}

const LANES: usize = core::mem::size_of::<[f32; 4]>() / size_of::<f32>();
const BITS: usize = u32::BITS as usize;
const WORDS: usize = div_ceil(100, BITS);
const WIDE: bool = !(BITS < 16) && LANES == 4;

struct Config;
impl Config {
    const TILE: usize = tile(100).next_power_of_two();
}

/// A vector with a fixed capacity, in registers (eight unless the type says otherwise).
struct ArrayVec<const N: usize = 8> {
    items: [u32; N],
    len: usize,
}

impl<const N: usize> ArrayVec<N> {
    fn as_slice(&self) -> &[u32] {
        &self.items[..self.len]
    }
}

impl<const N: usize> FromIterator<u32> for ArrayVec<N> {
    fn from_iter<T: IntoIterator<Item = u32>>(iter: T) -> Self {
        let mut v = ArrayVec { items: [0; N], len: 0 };
        v.extend(iter);
        v
    }
}

impl<const N: usize> Extend<u32> for ArrayVec<N> {
    fn extend<T: IntoIterator<Item = u32>>(&mut self, iter: T) {
        for x in iter {
            if self.len < N {
                self.items[self.len] = x;
                self.len += 1;
            }
        }
    }
}

#[offload_kernel]
pub fn lengths(out: &mut [u32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let Some(o) = out.get_mut(i) else { return };
    let words = [i as u32; WORDS];
    let lanes = [1u8; core::mem::size_of::<u64>()];
    let pick = [2u16; if BITS > 16 { 4 } else { 2 }];
    let tiles = [3u32; Config::TILE];
    let mixed = [0u8; usize::pow(2, 3) + 7usize.div_ceil(2) + (WIDE as usize)];
    *o = words.iter().sum::<u32>()
        + lanes.len() as u32 * 10
        + pick.iter().map(|&v| v as u32).sum::<u32>()
        + tiles.len() as u32 * 100
        + mixed.len() as u32 * 1000;
}

#[offload_kernel]
pub fn gather(xs: &[u32], out: &mut [u32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let Some(o) = out.get_mut(i) else { return };
    let window = xs.iter().skip(i).take(12).copied();
    let mut even: ArrayVec = window.clone().filter(|v| v % 2 == 0).collect();
    even.extend([i as u32, 7]);
    let small = window.clone().map(|v| v % 5).collect::<ArrayVec<4>>();
    let checked: Option<ArrayVec<6>> =
        window.clone().map(|v| if v % 97 != 0 { Some(v % 1000) } else { None }).collect();
    let mut visits = 0u32;
    let () = window.map(|_| visits += 1).collect();
    *o = even.as_slice().iter().fold(0u32, |a, &v| a.wrapping_mul(31).wrapping_add(v))
        ^ small.as_slice().iter().sum::<u32>() << 8
        ^ checked.map_or(u32::MAX, |c| c.as_slice().iter().sum())
        ^ visits << 24;
}

/// Runs, orders and selections over a thread's window of bytes: `chunk_by` (both ends),
/// lexicographic `cmp`/`partial_cmp`/`lt` of iterators, `next_if_eq` and `peek_mut`,
/// `repeat_n` and `repeat_with`, `select_nth_unstable`, and ranges of `char`s.
#[offload_kernel]
pub fn runs(bytes: &[u8], out: &mut [u32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let Some(o) = out.get_mut(i) else { return };
    let Some(w) = bytes.get(i..i + 10) else { return };
    let mut bins = [0u8; 10];
    for (b, &x) in bins.iter_mut().zip(w) {
        *b = x % 4;
    }
    let runs = bins.chunk_by(|a, b| a == b).count() as u32;
    let last_run = bins.chunk_by(|a, b| a <= b).next_back().map_or(0, |r| r.len()) as u32;
    let order = match w[..5].iter().cmp(w[5..].iter()) {
        core::cmp::Ordering::Less => 1,
        core::cmp::Ordering::Equal => 2,
        core::cmp::Ordering::Greater => 3,
    };
    let floats = w.iter().map(|&b| b as f32 - 100.0);
    let partial = floats.clone().partial_cmp(floats.clone().rev()).map_or(9, |o| o as i32 + 1);
    let before = w.iter().lt(w.iter().skip(1)) as u32;
    let mut it = bins.iter().copied().peekable();
    let mut zeros = 0;
    while it.next_if_eq(&0).is_some() {
        zeros += 1;
    }
    if let Some(p) = it.peek_mut() {
        *p += 10;
    }
    let bumped = it.next().unwrap_or(0) as u32;
    let pad: u32 = core::iter::repeat_n(w[0] as u32, i % 4).sum();
    let mut k = 1u32;
    let powers: u32 = core::iter::repeat_with(|| {
        k *= 3;
        k
    })
    .take(4)
    .sum();
    let mut sorted = [0u8; 10];
    sorted.copy_from_slice(w);
    let (left, median, right) = sorted.select_nth_unstable(4);
    let sides = left.iter().map(|&v| v as u32).sum::<u32>()
        + right.iter().map(|&v| v as u32).max().unwrap_or(0);
    let letters: u32 =
        ('a'..='z').filter(|c| (*c as u32 + i as u32) % 7 == 0).map(|c| c as u32).sum();
    let span =
        ('\u{D7FE}'..'\u{E002}').count() as u32 + ('x'..'{').rev().next().map_or(0, |c| c as u32);
    *o = runs
        + last_run * 11
        + order * 101
        + partial as u32 * 1009
        + before * 7
        + zeros * 13
        + bumped * 17
        + pad
        + powers
        + *median as u32 * 19
        + sides * 23
        + letters
        + span;
}

/// Library pieces a third round of new users reached for (2026-12-06): `from_be`/`from_le`,
/// unsigned `checked_rem_euclid`, sums and products of `Wrapping`, `RangeInclusive::
/// into_inner`, `convert::identity`, `ptr::read_unaligned`, `slice::from_ref`,
/// `Option::as_slice`, `each_mut`, `rsplitn`, and `next_up`/`next_down`/`classify` of floats.
#[offload_kernel]
pub fn library(xs: &[u32], fs: &[f32], out: &mut [u32]) {
    use core::num::{FpCategory, Wrapping};
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let (Some(&x), Some(&f), Some(o)) = (xs.get(i), fs.get(i), out.get_mut(i)) else { return };
    let swapped = u32::from_be(x) ^ u32::from_le(x >> 3);
    let rem = x.checked_rem_euclid(x % 5).unwrap_or(77);
    let w: Wrapping<u32> = xs.iter().skip(i).take(5).map(|&v| Wrapping(v)).sum();
    let p: Wrapping<u32> = xs.iter().skip(i).take(3).map(|&v| Wrapping(v | 1)).product();
    let (lo, hi) = (x % 10..=x % 10 + 3).into_inner();
    let picked =
        [Some(x), None, Some(x >> 1)].into_iter().filter_map(core::convert::identity).count()
            as u32;
    let bytes = x.to_le_bytes();
    // SAFETY: two bytes of a four-byte array, read without alignment.
    let half = unsafe { core::ptr::read_unaligned(bytes.as_ptr().add(1) as *const u16) } as u32;
    let one = core::slice::from_ref(&x).len() as u32
        + Some(x).as_slice().len() as u32
        + None::<u32>.as_slice().len() as u32;
    let mut arr = [x, x >> 4, x >> 8];
    for r in arr.each_mut() {
        *r = r.wrapping_mul(3);
    }
    let parts = bytes.rsplitn(2, |&b| b % 3 == 0).map(|s| s.len() as u32).fold(0, |a, l| a * 5 + l);
    let kind = match f.classify() {
        FpCategory::Nan => 1,
        FpCategory::Infinite => 2,
        FpCategory::Zero => 3,
        FpCategory::Subnormal => 4,
        FpCategory::Normal => 5,
    };
    let up = f.next_up().to_bits()
        ^ f.next_down().to_bits()
        ^ 0.0f32.next_up().to_bits()
        ^ (-0.0f32).next_down().to_bits();
    *o = swapped
        ^ rem
        ^ w.0
        ^ p.0.rotate_left(7)
        ^ (lo * 100 + hi) << 3
        ^ picked << 9
        ^ half << 11
        ^ one << 27
        ^ arr.iter().fold(0u32, |a, &v| a.wrapping_mul(31) ^ v)
        ^ parts << 13
        ^ kind << 29
        ^ up;
}
