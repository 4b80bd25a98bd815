#[offload_kernel]
fn kernel(x: *mut f32) {
    *x = 1.0;
}
