#[offload_kernel]
fn kernel(x: *mut u32) {
    let ref a = 1u32;
    unsafe { *x = *a; }
}
