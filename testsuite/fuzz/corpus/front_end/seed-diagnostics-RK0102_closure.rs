#[offload_kernel]
fn kernel(x: *mut f32) {
    let f = |v: f32| v * 2.0;
}
