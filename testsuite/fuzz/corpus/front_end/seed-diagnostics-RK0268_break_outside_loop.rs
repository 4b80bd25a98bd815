#[offload_kernel]
fn kernel(x: *mut u32) {
    unsafe {
        if *x > 3 {
            break;
        }
    }
}
