pub struct Point {
    x: f32,
    y: f32,
}

#[offload_kernel]
fn kernel(points: *mut [Point; 64]) {
    unsafe { (*points)[0].x = 1.0; }
}
