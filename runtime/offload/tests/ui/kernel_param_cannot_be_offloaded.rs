use rkc_offload::prelude::*;

#[offload_kernel]
fn kernel(f: Box<dyn Fn(f32) -> f32>, x: *mut f32) {
    unsafe { *x = f(1.0) }
}

fn main() {}
