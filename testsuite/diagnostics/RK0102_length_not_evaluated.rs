// An array length that rustc evaluates and rkc does not (float arithmetic): the error says
// which part of the expression rkc could not compute.
use rkc_offload::prelude::*;

const SCALE: f32 = 2.5;

#[offload_kernel]
pub fn fill(out: &mut [f32]) {
    let samples = [1.0f32; (SCALE * 4.0) as usize];
    if let Some(o) = out.first_mut() {
        *o = samples.iter().sum();
    }
}
