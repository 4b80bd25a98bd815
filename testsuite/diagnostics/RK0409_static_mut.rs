static mut COUNTER: u32 = 0;

#[offload_kernel]
fn kernel(x: *mut u32) {
    unsafe { *x = COUNTER; }
}
