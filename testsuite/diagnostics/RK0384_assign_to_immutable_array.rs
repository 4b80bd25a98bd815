#[offload_kernel]
fn kernel(x: *mut u32) {
    let counts = [0u32; 4];
    counts[1] = 7;
    unsafe { *x = counts[1]; }
}
