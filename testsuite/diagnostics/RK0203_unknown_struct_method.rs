#[repr(C)]
#[derive(Clone, Copy)]
pub struct Vec2 {
    x: f32,
    y: f32,
}

impl Vec2 {
    fn dot(self, o: Vec2) -> f32 {
        self.x * o.x + self.y * o.y
    }
}

#[offload_kernel]
fn kernel(out: *mut f32) {
    let v = Vec2 { x: 3.0, y: 4.0 };
    unsafe { *out = v.length() + v.dot(v); }
}
