fn apply(f: &dyn Fn(f32) -> f32, v: f32) -> f32 {
    f(v)
}

#[offload_kernel]
fn kernel(x: *mut f32) {
    unsafe { *x = apply(&|v| v * 2.0, *x); }
}
