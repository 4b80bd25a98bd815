#[offload_kernel]
fn kernel<T: Copy>(x: *mut T) {
}
