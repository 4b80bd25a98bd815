#[offload_kernel]
fn kernel(x: *mut u32) {
    unsafe {
        *x = match *x {
            0 => 10,
            1..=9 => 20,
        };
    }
}
