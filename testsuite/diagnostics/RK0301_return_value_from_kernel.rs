#[offload_kernel]
fn kernel(x: *mut u32) {
    return 5;
}
