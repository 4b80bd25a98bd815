#[repr(C)]
#[derive(Clone, Copy)]
pub struct Point {
    x: f32,
    y: f32,
}

#[offload_kernel]
fn kernel(p: *mut Point, out: *mut u32) {
    unsafe { *out = *p as u32; }
}
