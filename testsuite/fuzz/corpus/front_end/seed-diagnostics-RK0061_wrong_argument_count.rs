fn add(a: f32, b: f32) -> f32 {
    a + b
}

#[offload_kernel]
fn kernel(x: *mut f32) {
    unsafe { *x = add(*x); }
}
