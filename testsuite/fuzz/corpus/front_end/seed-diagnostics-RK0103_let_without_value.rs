#[offload_kernel]
fn kernel(x: *mut u32) {
    let v: u32;
    unsafe { *x = 1; }
}
