#[offload_kernel]
fn kernel(x: *mut f32 {
}
