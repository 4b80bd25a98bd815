// A fieldless enum crosses by value only with an explicit integer `repr` or `repr(C)`, which
// fix its size.
use rkc_offload::prelude::*;

#[derive(Clone, Copy, DeviceCopy)]
enum Mode {
    Add,
    Mul,
}

fn main() {
    let _ = (Mode::Add, Mode::Mul);
}
