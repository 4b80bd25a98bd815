// Rust does not fix a tuple's layout, so the host and the device could disagree on it.
use rkc_offload::prelude::*;

#[offload_kernel]
fn kernel(p: (f32, u32), x: *mut f32) {
    unsafe { *x = p.0 * p.1 as f32 }
}

fn main() {}
