#[offload_kernel]
fn kernel(x: *mut u32) {
    let [a, b] = [1u32, 2u32];
    unsafe { *x = a + b; }
}
