#[offload_kernel]
fn kernel(x: &mut [f32; 4]) {
    x[0] = 1.0;
}
