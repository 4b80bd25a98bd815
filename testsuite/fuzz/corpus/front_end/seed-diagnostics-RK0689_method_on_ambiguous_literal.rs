#[offload_kernel]
fn kernel(x: *mut f32) {
    unsafe { *x = 2.0.sqrt(); }
}
