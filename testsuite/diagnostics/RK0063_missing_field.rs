#[repr(C)]
#[derive(Clone, Copy)]
pub struct Point {
    x: f32,
    y: f32,
    z: f32,
}

#[offload_kernel]
fn kernel(p: *mut Point) {
    let q = Point { x: 1.0 };
    unsafe { *p = q; }
}
