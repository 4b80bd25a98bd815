#[offload_kernel]
fn kernel(x: *mut u64) {
    unsafe {
        let wide = (*x as u128) * 3;
        *x = (wide >> 64) as u64;
    }
}
