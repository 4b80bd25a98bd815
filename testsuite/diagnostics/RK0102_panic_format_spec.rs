#[offload_kernel]
fn kernel(x: *mut u32) {
    unsafe {
        if *x > 3 {
            panic!("too big: {:>8}", *x);
        }
    }
}
