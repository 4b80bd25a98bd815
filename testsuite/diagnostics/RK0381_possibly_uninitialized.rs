#[offload_kernel]
fn kernel(x: *mut u32) {
    let v: u32;
    unsafe {
        if *x > 3 {
            v = 1;
        }
        *x = v;
    }
}
