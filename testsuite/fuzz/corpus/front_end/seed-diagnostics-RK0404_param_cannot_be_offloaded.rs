#[offload_kernel]
fn kernel(f: Box<dyn Fn(f32) -> f32>, x: *mut f32) {
}
