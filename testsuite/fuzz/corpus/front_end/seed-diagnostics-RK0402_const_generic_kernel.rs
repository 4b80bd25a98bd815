#[offload_kernel]
fn kernel<const N: usize>(x: *mut [f32; N]) {
}
