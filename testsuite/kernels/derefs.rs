//! Newtypes and views used as what they wrap, through `Deref` and `DerefMut` (2026-12-06): method
//! calls, indexing and fields through auto-deref, `&Row` passed where `&[f32]` is expected (deref
//! coercion), mutation through `deref_mut`, and a generic wrapper nested twice.
use core::ops::{Deref, DerefMut};
use rkc_offload::prelude::*;

/// A read-only row of a matrix.
struct Row<'a>(&'a [f32]);
impl<'a> Deref for Row<'a> {
    type Target = [f32];
    fn deref(&self) -> &[f32] {
        self.0
    }
}

/// A row being written.
struct RowMut<'a> {
    data: &'a mut [f32],
    written: u32,
}
impl<'a> Deref for RowMut<'a> {
    type Target = [f32];
    fn deref(&self) -> &[f32] {
        self.data
    }
}
impl<'a> DerefMut for RowMut<'a> {
    fn deref_mut(&mut self) -> &mut [f32] {
        self.written += 1;
        self.data
    }
}

#[derive(Clone, Copy, Default)]
struct Particle {
    x: f32,
    v: f32,
}
/// A particle with a tag, used as the particle itself.
#[derive(Clone, Copy)]
struct Tagged<T> {
    tag: u32,
    inner: T,
}
impl<T> Deref for Tagged<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner
    }
}
impl<T> DerefMut for Tagged<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.inner
    }
}
impl Particle {
    fn energy(&self) -> f32 {
        0.5 * self.v * self.v
    }
    fn step(&mut self, dt: f32) {
        self.x += self.v * dt;
    }
}

fn total(xs: &[f32]) -> f32 {
    xs.iter().sum()
}

fn peak<R: Deref<Target = [f32]>>(r: &R) -> f32 {
    r.iter().fold(f32::MIN, |m, &v| m.max(v))
}

#[offload_kernel]
pub fn rows(m: &[f32], out: &mut [f32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let cols = 8;
    if (i + 1) * cols > m.len() || (i + 1) * 4 > out.len() {
        return;
    }
    let row = Row(&m[i * cols..(i + 1) * cols]);
    let mut o = RowMut { data: &mut out[i * 4..(i + 1) * 4], written: 0 };
    o[0] = row.len() as f32 + row[1] + (*row)[2];
    o[1] = total(&row) + peak(&row);
    let firsts = row.first().copied().unwrap_or(0.0) + row.iter().rev().take(2).sum::<f32>();
    o.iter_mut().skip(2).for_each(|v| *v = firsts);
    o[3] += row.chunks(2).map(|c| c[0] * c[1]).sum::<f32>();
    let w = o.written;
    o[2] -= w as f32;
}

#[offload_kernel]
pub fn particles(xs: &[f32], out: &mut [f32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let (Some(&x), Some(o)) = (xs.get(i), out.get_mut(i)) else { return };
    let mut p = Tagged { tag: i as u32, inner: Particle { x, v: x * 0.5 } };
    p.step(0.25);
    p.v -= 1.0;
    let e = p.energy();
    let q: &Particle = &p;
    let mut nested = Tagged { tag: 7, inner: Tagged { tag: 9, inner: Particle::default() } };
    nested.x = p.x + q.v;
    nested.step(2.0);
    *o = e + nested.x + (p.tag + nested.tag + nested.inner.tag) as f32;
}
