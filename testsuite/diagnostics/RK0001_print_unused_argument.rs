use rkc_offload::prelude::*;

#[offload_kernel]
fn kernel(x: *const f32) {
    let v = unsafe { *x };
    let i = unsafe { thread_idx_x() };
    println!("value {}", v, i);
}
