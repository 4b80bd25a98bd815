// A trait derived and also implemented by hand (rustc's E0119): `#[derive(Clone)]` writes an
// impl of `Clone` for `Pair`, and the file writes another.
use rkc_offload::prelude::*;

#[derive(Clone, Copy)]
struct Pair {
    a: f32,
    b: f32,
}

impl Clone for Pair {
    fn clone(&self) -> Pair {
        Pair { a: self.b, b: self.a }
    }
}

#[offload_kernel]
pub fn swapped(out: &mut [f32]) {
    let p = Pair { a: out[0], b: out[1] };
    let q = p.clone();
    out[0] = q.a;
}
