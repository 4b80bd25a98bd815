// A generic function calls a trait's method on a value of a type parameter that the trait
// does not bound (rustc's E0599): the instance's type has the method, the bounds do not.
use rkc_offload::prelude::*;

trait Shape {
    fn area(&self) -> f32;
}

struct Square(f32);

impl Shape for Square {
    fn area(&self) -> f32 {
        self.0 * self.0
    }
}

fn total<S>(s: &S) -> f32 {
    s.area()
}

#[offload_kernel]
pub fn areas(out: &mut [f32]) {
    out[0] = total(&Square(2.0));
}
