#[offload_kernel]
fn kernel(x: *mut u32) {
    unsafe {
        while *x > 3 {
            break 5;
        }
    }
}
