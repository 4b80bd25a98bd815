#[offload_kernel]
fn kernel(x: *mut u32) {
    let f = async { 1u32 };
    unsafe { *x = 1; }
}
