#[offload_kernel]
fn kernel(x: *mut f32) {
    let big = [0.0f32; 100000];
    unsafe { *x = big[7]; }
}
