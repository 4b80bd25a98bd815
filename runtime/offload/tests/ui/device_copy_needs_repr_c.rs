use rkc_offload::prelude::*;

#[derive(Clone, Copy, DeviceCopy)]
struct Params {
    scale: f32,
}

fn main() {
    let _ = Params { scale: 1.0 }.scale;
}
