#[offload_kernel]
fn kernel(x: *mut u32) {
    while let Some(v) = None::<u32> {
    }
}
