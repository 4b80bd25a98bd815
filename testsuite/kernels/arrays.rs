//! Local arrays `[T; N]` as values (literals, `[x; N]`, copies, whole-array assignment,
//! indexing with bounds checks, `len`, `as_ptr`) and read-only tables (`static` and `const`
//! arrays, and a `static` scalar).
use rkc_offload::prelude::*;

static PRIMES: [u32; 8] = [2, 3, 5, 7, 11, 13, 17, 19];
const STENCIL: [f32; 5] = [0.0625, 0.25, 0.375, 0.25, 0.0625];
static BIAS: f32 = 0.5;

/// Per-thread arrays: a literal, a zeroed histogram filled in a loop, a copy that is then
/// changed (the original keeps its values), and a whole-array assignment.
#[offload_kernel]
pub fn local_arrays(xs: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: `xs` and `out` are mapped for the launch; indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*xs)[t];
        let digits = [x % 10, x / 10 % 10, x / 100 % 10, x / 1000 % 10];
        let mut counts = [0u32; 10];
        for k in 0..digits.len() {
            counts[digits[k] as usize] += 1;
        }
        let mut copy = digits;
        copy[0] = 99;
        let mut swapped = [1u32; 4];
        let before = swapped[2];
        swapped = [digits[3], digits[2], digits[1], digits[0]];
        let first = *digits.as_ptr();
        (*out)[t] = counts[(x % 10) as usize] * 1000
            + copy[0]
            + digits[0] * 7
            + swapped[0]
            + before
            + first
            + counts.len() as u32;
    }
}

/// Sorts eight values per thread in a local array (insertion sort with dynamic indices),
/// then writes their spread and median.
#[offload_kernel]
pub fn local_sort(xs: *const [i32; 64], out: *mut [i32; 64]) {
    // SAFETY: indices stay below 64 and 8 (checked).
    unsafe {
        let t = thread_idx_x() as usize;
        let mut v = [0i32; 8];
        for k in 0..8 {
            v[k] = (*xs)[(t + k * 7) % 64] >> 8;
        }
        let mut i = 1;
        while i < v.len() {
            let key = v[i];
            let mut j = i;
            while j > 0 && v[j - 1] > key {
                v[j] = v[j - 1];
                j -= 1;
            }
            v[j] = key;
            i += 1;
        }
        (*out)[t] = v[7].wrapping_sub(v[0]) ^ v[3];
    }
}

/// Tables: a `static` array indexed by a computed index, a `const` stencil applied as a
/// 5-point filter, and a `static` scalar; a large zeroed array filled by a loop.
#[offload_kernel]
pub fn tables(xs: *const [f32; 64], primes: *mut [u32; 64], out: *mut [f32; 64]) {
    // SAFETY: indices stay in bounds (checked); each thread writes its own element.
    unsafe {
        let t = thread_idx_x() as usize;
        let mut acc = BIAS;
        for k in 0..STENCIL.len() {
            acc += STENCIL[k] * (*xs)[(t + k) % 64];
        }
        (*out)[t] = acc;
        let mut sieve = [1u8; 100];
        sieve[0] = 0;
        let mut p = 2;
        while p * p < 100 {
            let mut m = p * p;
            while m < 100 {
                sieve[m] = 0;
                m += p;
            }
            p += 1;
        }
        let mut below = 0u32;
        for k in 0..t + 30 {
            below += sieve[k % 100] as u32;
        }
        (*primes)[t] = PRIMES[t % PRIMES.len()] * 100 + below;
    }
}

/// `for` over arrays and slices: an array by value, `&x` over `iter()`, `iter().copied()`
/// over a `static`, `&x` over a slice, `.enumerate()`, with `continue` and `break`.
#[offload_kernel]
pub fn iteration(xs: &[u32], out: &mut [u32]) {
    // SAFETY: builtins only; the slices are checked.
    let i = unsafe { thread_idx_x() } as usize;
    let row = [xs[i % xs.len()], 3, 5, 7];
    let mut sum = 0u32;
    for x in row {
        sum = sum.wrapping_add(x);
    }
    for &x in row.iter() {
        if x == 5 {
            continue;
        }
        sum ^= x << 3;
    }
    for p in PRIMES.iter().copied() {
        sum = sum.wrapping_mul(p) ^ (sum >> 7);
    }
    let table = PRIMES.as_ptr();
    // SAFETY: the offset stays below the table's 8 elements.
    sum ^= unsafe { *table.add(i % 8) };
    for (k, &x) in row.iter().enumerate() {
        sum = sum.rotate_left(k as u32) ^ x;
    }
    for (k, p) in PRIMES.iter().copied().enumerate() {
        if k % 2 == 1 {
            sum ^= p << k;
        }
    }
    let mut count = 0u32;
    for &x in xs {
        if x == row[0] {
            break;
        }
        if x > row[0] {
            count += 1;
        }
    }
    if i < out.len() {
        out[i] = sum ^ count;
    }
}
