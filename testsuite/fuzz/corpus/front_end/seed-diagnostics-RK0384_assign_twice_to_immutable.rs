#[offload_kernel]
fn kernel(x: *mut u32) {
    let total = 0u32;
    for i in 0..4u32 {
        total += i;
    }
    unsafe { *x = total; }
}
