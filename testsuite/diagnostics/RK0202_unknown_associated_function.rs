#[repr(C)]
#[derive(Clone, Copy)]
pub struct Point {
    x: f32,
    y: f32,
}

#[offload_kernel]
fn kernel(p: *mut Point) {
    unsafe { *p = Point::origin(); }
}
