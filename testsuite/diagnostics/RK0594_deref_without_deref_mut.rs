// A newtype with `Deref` but no `DerefMut` is read through, never written through (rustc's
// E0594 and E0596): an assignment to a field, an index, and a `&mut self` method.
use core::ops::Deref;
use rkc_offload::prelude::*;

struct Pos {
    x: f32,
}
struct Tagged(Pos);
impl Deref for Tagged {
    type Target = Pos;
    fn deref(&self) -> &Pos {
        &self.0
    }
}
struct View<'a>(&'a [f32]);
impl<'a> Deref for View<'a> {
    type Target = [f32];
    fn deref(&self) -> &[f32] {
        self.0
    }
}

#[offload_kernel]
pub fn k(x: &[f32], out: &mut [f32]) {
    let mut t = Tagged(Pos { x: 1.0 });
    t.x = 2.0;
    let mut v = View(x);
    v[0] = 1.0;
    v.fill(0.0);
    out[0] = t.x + v[1];
}
