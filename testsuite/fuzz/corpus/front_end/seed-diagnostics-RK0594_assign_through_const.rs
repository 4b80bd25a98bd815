#[offload_kernel]
fn kernel(x: *const f32) {
    unsafe { *x = 1.0; }
}
