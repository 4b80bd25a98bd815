#[offload_kernel]
fn kernel(x: *mut f32) {
    unsafe { *x = (*x).cube(); }
}
