#[offload_kernel]
fn kernel(x: *mut u32) {
    let v: u32;
    for i in 0..4u32 {
        v = i;
    }
    unsafe { *x = 1; }
}
