// An impl that defines a method its trait does not declare (rustc's E0407). An impl of one
// of core's traits with methods of its own is left to rustc: rkc's core declares only the
// items kernels use.
use rkc_offload::prelude::*;

trait Scale {
    fn scale(&self, k: f32) -> f32;
}

#[derive(Clone, Copy)]
struct Len(f32);

impl Scale for Len {
    fn scale(&self, k: f32) -> f32 {
        self.0 * k
    }
    fn halve(&self) -> f32 {
        self.0 / 2.0
    }
}

#[offload_kernel]
pub fn scaled(out: &mut [f32]) {
    out[0] = Len(3.0).scale(2.0);
}
