#[offload_kernel]
fn kernel(x: *mut u8) {
    unsafe { *x = 256; }
}
