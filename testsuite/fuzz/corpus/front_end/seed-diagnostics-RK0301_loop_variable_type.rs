#[offload_kernel]
fn kernel(n: usize, x: *mut [u32; 16]) {
    unsafe {
        for i in 0..n {
            (*x)[i] = i;
        }
    }
}
