#[offload_kernel]
fn kernel(x: *mut u32) {
    fn helper() -> u32 { 3 }
    unsafe { *x = helper(); }
}
