#[offload_kernel]
fn kernel(x: *mut f32) {
    unsafe {
        let v = if *x > 0.0 { 1.0f32 } else { 2u32 };
        *x = v;
    }
}
