#[offload_kernel]
fn kernel(x: *mut u8) {
    let s = "hello";
    unsafe { *x = 1; }
}
