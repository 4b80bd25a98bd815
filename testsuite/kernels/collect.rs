//! Compile-time lengths and `collect()`, as new users write them (2026-12-06): array lengths
//! from `const fn` calls, `size_of`, `if` and integer methods; `collect()` into a kernel's own
//! fixed-capacity vector (`FromIterator`, `Extend`), into an `Option` of one, and into `()`.
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

/// A vector with a fixed capacity, in registers.
struct ArrayVec<const N: usize> {
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
    let mut even: ArrayVec<8> = window.clone().filter(|v| v % 2 == 0).collect();
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
