// rkc's own errors reach `cargo check` through #[offload_kernel]: one inside the kernel at
// the token rkc points to, and one in a helper function, reported at the kernel's name.
use rkc_offload::prelude::*;

fn helper(x: u32) -> String {
    x.to_string()
}

#[offload_kernel]
pub fn kernel(out: &mut [u32]) {
    let v: Vec<u32> = Vec::new();
    out[0] = v.len() as u32 + helper(1).len() as u32;
}

fn main() {}
