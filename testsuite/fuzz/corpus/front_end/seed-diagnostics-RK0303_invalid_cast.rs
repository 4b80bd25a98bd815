#[offload_kernel]
fn kernel(x: *mut u64) {
    unsafe { *x = x as u64; }
}
