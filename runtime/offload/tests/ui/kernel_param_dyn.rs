// A trait object has no device form, behind a reference or not.
use rkc_offload::prelude::*;

#[offload_kernel]
fn kernel(f: &dyn Fn(f32) -> f32, x: *mut f32) {
    unsafe { *x = f(1.0) }
}

fn main() {}
