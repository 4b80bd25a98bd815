#[repr(C)]
#[derive(Clone, Copy)]
pub struct Point {
    x: f32,
    y: f32,
}

#[offload_kernel]
fn kernel(p: *mut Point, out: *mut f32) {
    let Point { x } = unsafe { *p };
    unsafe { *out = x; }
}
