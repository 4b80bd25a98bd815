// A `let` whose pattern leaves out a variant of the value's enum (rustc's E0005): rkc used
// to accept it and bind garbage when the value was the other variant.
use rkc_offload::prelude::*;

enum Reading {
    Valid(u32),
    Missing,
}

#[offload_kernel]
pub fn readings(x: &[u32], out: &mut [u32]) {
    let r = if x[0] > 0 { Reading::Valid(x[0]) } else { Reading::Missing };
    let Reading::Valid(v) = r;
    out[0] = v;
}
