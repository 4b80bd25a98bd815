// An impl of the file's trait that leaves out a method without a default body (rustc's
// E0046): the provided method may be left out, the required one may not.
use rkc_offload::prelude::*;

trait Shape {
    fn area(&self) -> f32;
    fn name(&self) -> u32;
    fn scaled(&self, k: f32) -> f32 {
        self.area() * k
    }
}

struct Square(f32);

impl Shape for Square {
    fn area(&self) -> f32 {
        self.0 * self.0
    }
}

#[offload_kernel]
pub fn areas(out: &mut [f32]) {
    out[0] = Square(2.0).scaled(0.5);
}
