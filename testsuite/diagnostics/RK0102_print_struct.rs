#[repr(C)]
#[derive(Clone, Copy)]
struct Point {
    x: f32,
    y: f32,
}

#[offload_kernel]
fn kernel(p: *const Point) {
    let p = unsafe { *p };
    println!("point {}", p);
}
