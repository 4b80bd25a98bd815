// Two impls of one trait that apply to the same type (rustc's E0119): the impl for `f32`
// and the generic impl, whose bound `Copy` `f32` meets. Which one `x.twice()` would call is
// undecided, so rustc refuses both; rkc used to pick one silently.
use rkc_offload::prelude::*;

trait Twice {
    fn twice(self) -> Self;
}

impl<T: Copy> Twice for T {
    fn twice(self) -> T {
        self
    }
}

impl Twice for f32 {
    fn twice(self) -> f32 {
        self * 2.0
    }
}

#[offload_kernel]
pub fn doubled(out: &mut [f32]) {
    out[0] = out[0].twice();
}
