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
