// A trait method on an integer literal takes its type from the argument (`4.min(n)` is
// `Ord::min`); an inherent method needs the literal's type first, as in rustc.
use rkc_offload::prelude::*;
#[offload_kernel]
pub fn k(out: &mut [u32]) {
    let n = out.len() as u32;
    out[0] = 4.min(n) + 5.pow(2);
}
