use rkc_offload::prelude::*;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Params {
    scale: f32,
}

#[offload_kernel]
fn kernel(p: Params, x: *mut f32) {
    unsafe { *x = p.scale }
}

fn main() {}
