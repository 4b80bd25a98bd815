use rkc_offload::prelude::*;

#[offload_kernel]
fn scale(a: f32, x: *mut [f32; 4]) {
    unsafe {
        let i = thread_idx_x() as usize;
        (*x)[i] *= a;
    }
}

fn main() {
    let mut x = [1.0f32; 4];
    offload! { kernel = scale, args = (&mut x as *mut [f32; 4],) }
}
