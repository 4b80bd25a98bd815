// A string slice's methods: kernels have none, and the error says what to write instead.
use rkc_offload::prelude::*;
#[offload_kernel]
pub fn k(out: &mut [u32]) {
    let s = "abc";
    out[0] = s.len() as u32;
}
