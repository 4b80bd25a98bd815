//! Tuple `let`s (also `mut` names, `_`, and a swap, which evaluates every element before
//! binding), and element addresses taken with `&mut place as *mut T` for atomics on slice
//! elements; byte-string patterns against arrays and slices, as a protocol parser writes them.
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn patterns(xs: &[u32], out: &mut [u32], counts: &mut [u32]) {
    // SAFETY: builtins and atomics on elements of `counts`, which the launch maps.
    unsafe {
        let i = global_idx_x();
        if i < xs.len() && i < out.len() {
            let (mut a, b, _) = (xs[i], xs[i] / 3, 7u32);
            let (a2, b2) = (b, a);
            a = a.wrapping_add(a2);
            out[i] = a ^ b2.rotate_left(5);
            atomic_add(&mut counts[(b % 8) as usize] as *mut u32, 1);
        }
    }
}

/// Pointers from slices (`as_ptr`, `as_mut_ptr`) and from a shared array (`as *mut u32`), with
/// pointer arithmetic and atomics through them. Blocks of 64 threads.
#[offload_kernel]
pub fn pointers(xs: &[u32], out: &mut [u32], counts: &mut [u32]) {
    // SAFETY: indices stay below the lengths the launch gives (64 per block, 8 counts); the
    // shared array's elements are updated atomically and read after the barrier.
    unsafe {
        let t = thread_idx_x() as usize;
        let i = global_idx_x();
        let bins = shared_array::<u32, 8>() as *mut u32;
        if t < 8 {
            *bins.add(t) = 0;
        }
        sync_threads();
        let src = xs.as_ptr();
        let v = *src.add(i % xs.len());
        atomic_add(bins.add((v % 8) as usize), 1);
        sync_threads();
        if t < 8 {
            atomic_add(counts.as_mut_ptr().add(t), *bins.add(t));
        }
        let dst = out.as_mut_ptr();
        *dst.add(i) = v.rotate_right(3);
    }
}

/// The text the `keywords` kernel looks at: request words, near misses and separators.
const TEXT: &[u8; 48] = b"GET /a PUT /b POST #c GE G P PE GET# POST PUTGET";

/// Each thread classifies the four bytes at a random position of `TEXT` with byte-string
/// patterns on the array, and a prefix of 0 to 3 bytes of it on the slice.
#[offload_kernel]
pub fn keywords(offsets: &[u32], out: &mut [u32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { thread_idx_x() } as usize;
    let at = offsets[i] as usize % (TEXT.len() - 4);
    let word = [TEXT[at], TEXT[at + 1], TEXT[at + 2], TEXT[at + 3]];
    let as_array = match &word {
        b"GET " => 1,
        b"PUT " | b"POST" => 2,
        [b'#', ..] => 3,
        [_, _, b' ', _] => 4,
        _ => 0,
    };
    let as_slice = match &TEXT[at..at + i % 4] {
        b"" => 10,
        b"G" | b"P" => 20,
        b"GE" => 30,
        [a, b'E', ..] if *a != b'P' => 40,
        b"PUT" => 50,
        _ => 60,
    };
    out[i] = as_array + as_slice;
}

#[derive(Clone, Copy)]
pub struct Pair {
    lo: u32,
    hi: u32,
}

pub struct Wrapped(pub u32, pub u32);

/// A conversion error of the kernel's own, converted from core's by `?`.
pub enum NarrowError {
    Range,
}

impl From<core::num::TryFromIntError> for NarrowError {
    fn from(_: core::num::TryFromIntError) -> Self {
        NarrowError::Range
    }
}

fn narrow(x: u32) -> Result<u8, NarrowError> {
    let v: u8 = (x >> 20).try_into()?;
    Ok(v)
}

/// Destructuring assignments (2026-12-06): a Fibonacci step `(a, b) = (b, a + b)`, into
/// slice elements, through arrays with `..`, structs, tuple structs and `_`, and into
/// variables declared without a value; slices compared with arrays both ways; `?` through a
/// `From` impl for `core::num::TryFromIntError`.
#[offload_kernel]
pub fn destructure(xs: &[u32], out: &mut [u32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let (Some(&x), Some(o)) = (xs.get(i), out.get_mut(i)) else { return };
    let (mut a, mut b) = (x % 7, 1u32);
    for _ in 0..(x % 13) {
        (a, b) = (b, a.wrapping_add(b));
    }
    let mut s = [x, x >> 8, x >> 16, x >> 24];
    (s[0], s[3]) = (s[3], s[0]);
    [s[1], .., s[2]] = [s[2] & 0xff, 0, 0, s[1] & 0xff];
    let mut p = Pair { lo: 0, hi: 0 };
    Pair { lo: p.hi, hi: p.lo } = Pair { lo: x & 0xffff, hi: x >> 16 };
    let (first, second);
    Wrapped(first, _) = Wrapped(p.lo ^ p.hi, 99);
    (second, _, ..) = (s.iter().sum::<u32>(), 5u8, 6u16);
    ((a, _), b) = ((a ^ first, 0u8), b.rotate_left(3));
    let bytes = x.to_le_bytes();
    let low: &[u8] = &bytes[..2];
    let pair = [bytes[0], bytes[1]];
    let eqs = (low == pair) as u32
        + (pair == *low) as u32 * 2
        + (*low == [0, 0]) as u32 * 4
        + (low == b"ab") as u32 * 8
        + bytes.windows(2).filter(|w| *w == [bytes[3], bytes[3]]).count() as u32 * 16;
    // The element type of `get` is known only once its projection is: `k == 0` must not
    // leave `k` an ambiguous integer for `count_ones`.
    let mut ones = 0;
    if let Some(&k) = xs.get(i + 1) {
        if k == 0 {
            ones = 99;
        } else {
            ones = k.count_ones();
        }
    }
    let narrowed = match narrow(x) {
        Ok(v) => v as u32,
        Err(NarrowError::Range) => 300,
    };
    *o = a.wrapping_mul(31)
        ^ b
        ^ second.wrapping_add(first)
        ^ eqs << 27
        ^ ones << 20
        ^ narrowed << 8;
}

/// Array lengths that only the pattern gives: `core::array::from_fn` and `[T; N]::map`
/// destructured by a slice pattern of fixed length, as rustc infers them; `cfg!`.
#[offload_kernel]
pub fn array_lengths(xs: &[u32], out: &mut [u32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let (Some(&x), Some(o)) = (xs.get(i), out.get_mut(i)) else { return };
    let [r, g, b] = core::array::from_fn(|k| (x >> (8 * k)) & 0xff);
    let [hi, lo] = [x >> 16, x & 0xffff].map(|v| v.count_ones());
    let [first, .., last] = x.to_be_bytes().map(u32::from);
    let sum = match core::array::from_fn(|k: usize| xs.get(i + k).copied().unwrap_or(0) % 3) {
        [0, 0, 0] => 1000,
        [a, b, c] => a * 9 + b * 3 + c,
    };
    // `cfg!` is a constant, the same for the device as for the host on these predicates.
    let little = cfg!(all(target_endian = "little", not(miri))) as u32;
    let wide = cfg!(target_pointer_width = "64") as u32;
    *o = (r * 3 + g * 5 + b * 7 + last + sum)
        ^ (hi << 12)
        ^ (lo << 18)
        ^ (first << 23)
        ^ (little << 30)
        ^ (wide << 31);
}
