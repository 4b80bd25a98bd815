// A parameter type that is not a scalar, pointer, reference, slice or `DeviceCopy` value is
// refused where it is written, in upstream's words.
use rkc_offload::prelude::*;

#[offload_kernel]
fn kernel(b: Box<f32>, x: *mut f32) {
    unsafe { *x = *b }
}

fn main() {}
