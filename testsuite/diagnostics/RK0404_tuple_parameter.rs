#[offload_kernel]
fn kernel(pairs: *mut [(u32, f32); 16]) {
    unsafe { (*pairs)[0].0 = 1; }
}
