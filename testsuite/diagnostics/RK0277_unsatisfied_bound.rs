trait Shape { fn area(&self) -> f32; }
struct Sq(f32);
struct Circle(f32);
impl Shape for Sq { fn area(&self) -> f32 { self.0 * self.0 } }
fn total<T: Shape>(s: &T) -> f32 { s.area() }

#[offload_kernel]
fn kernel(x: *mut f32) {
    unsafe { *x = total(&Sq(2.0)) + total(&Circle(1.0)); }
}
