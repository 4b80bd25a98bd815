//! Small algorithms as users write them: integer square roots and GCDs, fixed-point
//! arithmetic, a Mandelbrot escape count, a hash, a matrix-vector product against a `const`
//! table, and a sorting network over a local array.
use rkc_offload::prelude::*;

fn isqrt(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let mut x = n;
    let mut y = (x + 1) / 2;
    while y < x {
        x = y;
        y = (x + n / x) / 2;
    }
    x
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let r = a % b;
        a = b;
        b = r;
    }
    a
}

/// Newton's integer square root and Euclid's GCD on 64-bit values.
#[offload_kernel]
pub fn number_theory(xs: *const [u64; 64], out: *mut [u64; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*xs)[t] >> (t % 40);
        let y = (*xs)[(t * 7 + 3) % 64] >> 20;
        (*out)[t] = isqrt(x) ^ gcd(x, y) << 40;
    }
}

const FRAC: u32 = 16;

fn fx_mul(a: i32, b: i32) -> i32 {
    ((a as i64 * b as i64) >> FRAC) as i32
}

fn fx_div(a: i32, b: i32) -> i32 {
    (((a as i64) << FRAC) / b as i64) as i32
}

/// 16.16 fixed point: a polynomial and a quotient, with the shifts and widenings it needs.
#[offload_kernel]
pub fn fixed_point(xs: *const [i32; 64], out: *mut [i32; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*xs)[t] >> 12;
        let one = 1 << FRAC;
        let p = fx_mul(fx_mul(x, x), x) - 3 * fx_mul(x, x) + 2 * x - one;
        let q = fx_div(p, (x.abs() | one) + one);
        (*out)[t] = p ^ q;
    }
}

/// The escape count of the Mandelbrot iteration at 64 points of a line, with a `loop` that
/// breaks with the count.
#[offload_kernel]
pub fn mandelbrot(out: *mut [u32; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let cx = -2.0f32 + t as f32 * (2.5 / 64.0);
        let cy = 0.3f32 + (t % 7) as f32 * 0.05;
        let (mut x, mut y) = (0.0f32, 0.0f32);
        let mut n = 0u32;
        let count = loop {
            if x * x + y * y > 4.0 || n == 200 {
                break n;
            }
            let xt = x * x - y * y + cx;
            y = 2.0 * x * y + cy;
            x = xt;
            n += 1;
        };
        (*out)[t] = count;
    }
}

/// FNV-1a over the bytes of each element, then a xorshift finaliser: wrapping 64-bit
/// arithmetic and byte extraction.
#[offload_kernel]
pub fn hash(xs: *const [u64; 64], out: *mut [u64; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*xs)[t];
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for k in 0..8 {
            h ^= (x >> (8 * k)) & 0xff;
            h = h.wrapping_mul(0x100_0000_01b3);
        }
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        (*out)[t] = h;
    }
}

const WEIGHTS: [[f32; 4]; 4] = [
    [0.5, -1.0, 0.25, 2.0],
    [1.5, 0.0, -0.5, 1.0],
    [-2.0, 0.75, 1.0, 0.5],
    [0.125, 0.25, 0.5, 1.0],
];

/// A 4×4 matrix (a `const` array of arrays) times each thread's 4-vector.
#[offload_kernel]
pub fn matvec(xs: *const [f32; 64], out: *mut [f32; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let base = t / 4 * 4;
        let v = [(*xs)[base], (*xs)[base + 1], (*xs)[base + 2], (*xs)[base + 3]];
        let row = WEIGHTS[t % 4];
        let mut acc = 0.0f32;
        for k in 0..4 {
            acc += row[k] * v[k];
        }
        (*out)[t] = acc;
    }
}

/// Bitonic sorting network over eight values in a local array, with `swap` of elements
/// written as a tuple exchange.
#[offload_kernel]
pub fn sorting_network(xs: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let mut v = [0u32; 8];
        for k in 0..8 {
            v[k] = (*xs)[(t * 8 + k) % 64] % 1000;
        }
        let mut size = 2;
        while size <= 8 {
            let mut stride = size / 2;
            while stride > 0 {
                for i in 0..8 {
                    let j = i ^ stride;
                    if j > i {
                        let up = i & size == 0;
                        if (v[i] > v[j]) == up {
                            let (a, b) = (v[i], v[j]);
                            v[i] = b;
                            v[j] = a;
                        }
                    }
                }
                stride /= 2;
            }
            size *= 2;
        }
        (*out)[t] = v[t % 8] * 1000 + v[0];
    }
}
