#[offload_kernel]
fn helper(x: *mut u32) {
    unsafe { *x = 1; }
}

#[offload_kernel]
fn kernel(x: *mut u32) {
    helper(x);
}
