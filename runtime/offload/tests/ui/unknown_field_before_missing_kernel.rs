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
    offload! { bogus = 1, args = (&mut x as *mut [f64; 256],) }
}
