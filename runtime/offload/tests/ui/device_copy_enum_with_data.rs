// Only fieldless enums cross by value: Rust does not fix where an enum keeps its data.
use rkc_offload::prelude::*;

#[repr(u8)]
#[derive(Clone, Copy, DeviceCopy)]
enum Shape {
    Circle(f32),
    Square,
}

fn main() {
    let _ = Shape::Square;
    let _ = Shape::Circle(1.0);
}
