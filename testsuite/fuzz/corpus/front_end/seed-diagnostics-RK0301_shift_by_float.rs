#[offload_kernel]
fn kernel(x: *mut u32) {
    unsafe { *x = *x << 1.5; }
}
