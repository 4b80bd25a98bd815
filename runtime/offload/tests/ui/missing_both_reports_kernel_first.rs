use rkc_offload::prelude::*;

#[offload_kernel]
fn kernel(x: *mut [f64; 256]) {
    unsafe {
        let i = thread_idx_x() as usize;
        (*x)[i] = 1.0;
    }
}

fn main() {
    let mut x = [0.0f64; 256];
    offload! { workgroup_dim = [1, 1, 1] }
}
