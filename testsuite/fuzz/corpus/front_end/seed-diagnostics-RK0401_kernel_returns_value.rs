#[offload_kernel]
fn kernel(x: *mut f32) -> f32 {
    unsafe { *x }
}
