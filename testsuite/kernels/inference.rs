//! Integer literals typed by their later uses, as rustc types them: a counter compared with a
//! `.len()` is a `usize`, an accumulator added to `u64` elements a `u64`, a literal compared
//! with a `usize` constant a `usize`; one no use decides stays `i32`.
use rkc_offload::prelude::*;

const N: usize = 4;

#[offload_kernel]
pub fn inference(xs: &[u64], out: &mut [u64]) {
    let mut k = 0;
    let mut s = 0;
    while k < xs.len() {
        s += xs[k];
        k += 1;
    }
    let mut j = 0;
    while j < N {
        out[j] = s ^ (j as u64);
        j += 1;
    }
    let z = -7;
    let w: u8 = 250;
    let big = 3_000_000_000;
    let t = big + (w as u64);
    out[N] = s.wrapping_add(z as u64) ^ t;
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Item {
    pub weight: f32,
    pub count: u32,
}

/// Literals typed by uses the first kernel does not show: a float accumulator added to `f32`
/// elements, counters added to slice elements met in a `for` and to struct fields, a literal
/// stored into a `u64` slice, and `let _ = ...`.
#[offload_kernel]
pub fn inference_uses(xs: *const [f32; 64], items: *const [Item; 8], s: &[u32], out: &mut [u64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let mut acc = 0.0;
        for k in 0..8 {
            acc += (*xs)[(t + k) % 64];
        }
        let mut c = 0;
        for &v in s {
            c += v % 1000;
        }
        let mut w = 0.5;
        w += (*items)[t % 8].weight;
        let mut n = 0;
        n += (*items)[t % 8].count % 1000;
        let seed = 12345;
        let _ = acc.max(w);
        if t < out.len() {
            out[t] = seed;
            out[t] ^= (acc * 8.0) as u64 ^ (w as u64) << 20 ^ (c as u64) << 32 ^ (n as u64) << 48;
        }
    }
}
