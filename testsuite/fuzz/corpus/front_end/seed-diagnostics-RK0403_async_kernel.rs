#[offload_kernel]
async fn kernel(x: *mut u32) {
}
