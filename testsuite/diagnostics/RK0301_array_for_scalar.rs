fn first(x: f32) -> f32 {
    x
}

#[offload_kernel]
fn kernel(out: *mut f32) {
    let weights = [0.25f32, 0.5, 0.25];
    unsafe { *out = first(weights); }
}
