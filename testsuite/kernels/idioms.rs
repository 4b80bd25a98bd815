//! Idioms a new user mixes in one kernel, tried together as such a user would write them
//! (2026-12-06): an operator-carrying struct with an associated constant and `&self` methods, a
//! trait with a default method used through a generic function, an enum with tuple, struct and
//! unit variants matched by value, `Option` through `get`, `get_mut`, `copied`, `and_then`,
//! `map_or`, `let ... else` and `?` in a helper, closures that capture by reference and by
//! mutable reference, `impl Fn` and const-generic parameters, iterator chains (`skip`, `take`,
//! `enumerate`, `zip`, `rev`, `step_by`, `fold`, `position`, `filter().count()`,
//! `chunks_exact`, `sum::<f32>()`), `split_at`, `swap`, `iter_mut`, `matches!` with a guard,
//! struct-update syntax, `while let` over an iterator, labelled `break`, and slices of a range
//! through `get(a..b)`.
use core::ops::{Add, Mul};
use rkc_offload::prelude::*;

#[derive(Clone, Copy, Default)]
struct Vec3 {
    x: f32,
    y: f32,
    z: f32,
}

impl Add for Vec3 {
    type Output = Vec3;
    fn add(self, o: Vec3) -> Vec3 {
        Vec3 { x: self.x + o.x, y: self.y + o.y, z: self.z + o.z }
    }
}

impl Mul<f32> for Vec3 {
    type Output = Vec3;
    fn mul(self, s: f32) -> Vec3 {
        Vec3 { x: self.x * s, y: self.y * s, z: self.z * s }
    }
}

impl Vec3 {
    const ZERO: Vec3 = Vec3 { x: 0.0, y: 0.0, z: 0.0 };

    fn dot(&self, o: &Vec3) -> f32 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    fn length(self) -> f32 {
        self.dot(&self).sqrt()
    }
}

trait Shape {
    fn area(&self) -> f32;
    fn scaled(&self, k: f32) -> f32 {
        self.area() * k
    }
}

struct Square(f32);

struct Circle {
    r: f32,
}

impl Shape for Square {
    fn area(&self) -> f32 {
        self.0 * self.0
    }
}

impl Shape for Circle {
    fn area(&self) -> f32 {
        3.14159 * self.r * self.r
    }
}

fn total<S: Shape>(shapes: &[S]) -> f32 {
    shapes.iter().map(|s| s.area()).sum()
}

enum Op {
    Add(f32),
    Scale(f32),
    Clamp { lo: f32, hi: f32 },
    Nothing,
}

fn apply(op: &Op, v: f32) -> f32 {
    match *op {
        Op::Add(a) => v + a,
        Op::Scale(s) => v * s,
        Op::Clamp { lo, hi } => v.clamp(lo, hi),
        Op::Nothing => v,
    }
}

/// Operators, traits and enums on floats; `vs` holds three floats per thread.
#[offload_kernel]
pub fn shapes_and_ops(xs: &[f32], out: &mut [f32], vs: &[f32], lens: &mut [f32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    if let Some(o) = out.get_mut(i) {
        let x = xs.get(i).copied().unwrap_or(0.0);
        let ops = [Op::Add(1.0), Op::Scale(2.0), Op::Clamp { lo: -5.0, hi: 5.0 }, Op::Nothing];
        let mut v = x;
        for op in ops.iter() {
            v = apply(op, v);
        }
        let window: f32 =
            xs.iter().skip(i).take(4).enumerate().map(|(k, &y)| y * (k as f32 + 1.0)).sum();
        let squares = [Square(x), Square(1.0)];
        let best = xs.iter().take(8).fold(f32::MIN, |m, &y| m.max(y));
        *o = v + window + total(&squares) + Circle { r: 1.0 }.scaled(0.5) + best;
    }
    if let (Some(v), Some(l)) = (vs.get(3 * i..3 * i + 3), lens.get_mut(i)) {
        let p = Vec3 { x: v[0], y: v[1], z: v[2] };
        let q = (p + Vec3::ZERO) * 2.0;
        *l = q.length();
    }
}

/// Dot products over zipped iterators, `while let` and a labelled break.
#[offload_kernel]
pub fn zipped(a: &[f32], b: &[f32], out: &mut [f32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let mut acc = 0.0f32;
    for (x, y) in a.iter().zip(b.iter()).skip(i * 4).take(4) {
        acc += x * y;
    }
    let mut n = 0;
    let mut it = a.iter();
    while let Some(&x) = it.next() {
        if x > 0.5 {
            n += 1;
        }
        if n > 3 {
            break;
        }
    }
    'outer: for r in 0..4usize {
        for c in 0..4usize {
            if r * c > 6 {
                break 'outer;
            }
            acc += (r + c) as f32;
        }
    }
    if let Some(slot) = out.get_mut(i) {
        *slot = acc + n as f32;
    }
}

#[derive(Clone, Copy, Default, PartialEq)]
struct Tally {
    a: u32,
    b: u32,
    c: f32,
}

fn dot<T: Copy + Default + Add<Output = T> + Mul<Output = T>>(x: &[T], y: &[T]) -> T {
    let mut s = T::default();
    for k in 0..x.len().min(y.len()) {
        s = s + x[k] * y[k];
    }
    s
}

fn find_first(xs: &[u32], target: u32) -> Option<usize> {
    let p = xs.iter().position(|&v| v == target)?;
    Some(p + 1)
}

fn sum_n<const N: usize>(xs: [u32; N]) -> u32 {
    xs.iter().sum()
}

fn apply_twice(f: impl Fn(u32) -> u32, v: u32) -> u32 {
    f(f(v))
}

/// Integer idioms: closures, `?`, const generics, `checked_mul`, `matches!`, struct update.
#[offload_kernel]
pub fn integers(xs: &[u32], fs: &[f32], out: &mut [u32], fout: &mut [f32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { global_idx_x() } as usize;
    let Some(o) = out.get_mut(i) else { return };
    let k = 3u32;
    let add_k = |v: u32| v.wrapping_add(k);
    let mut counter = 0u32;
    let mut bump = |d: u32| counter += d;
    bump(2);
    bump(5);
    let arr = [1u32, 2, 3, 4];
    let t = Tally { a: 7, ..Default::default() };
    let (lo, hi) = xs.split_at(xs.len() / 2);
    let m = lo.iter().copied().max().unwrap_or(0) % 1000
        + hi.iter().rev().step_by(2).copied().min().unwrap_or(0) % 1000;
    let found = find_first(xs, 5).map_or(0, |p| p as u32);
    let chk = xs.get(i).and_then(|&v| v.checked_mul(1000)).unwrap_or(u32::MAX);
    let mut tmp = [0u32; 8];
    for (j, t) in tmp.iter_mut().enumerate() {
        *t = j as u32 * 2;
    }
    tmp.swap(0, 7);
    let even = tmp.iter().filter(|&&t| t % 4 == 0).count() as u32;
    let is_big = matches!(xs.get(i), Some(&v) if v > 100);
    *o = apply_twice(add_k, m)
        + counter
        + sum_n(arr)
        + t.a
        + found
        + (chk % 7)
        + even
        + is_big as u32
        + tmp[0];
    if let Some(f) = fout.get_mut(i) {
        let d = dot(&fs[..fs.len().min(4)], &[1.0f32, 2.0, 3.0, 4.0]);
        *f = f32::from_bits(d.to_bits()) + fs.chunks_exact(2).map(|c| c[0] - c[1]).sum::<f32>();
    }
}

/// A filter's taps, sized by an associated constant that the impl names through `Self`.
struct Taps;

impl Taps {
    const N: usize = 4;

    fn weights() -> [i32; Self::N] {
        let mut w = [0; Self::N];
        for (k, x) in w.iter_mut().enumerate() {
            *x = k as i32 * 2 - 3;
        }
        w
    }
}

/// `Err(e)?;` and `None?;` as early returns: their value type is left to inference's fallback.
fn checked(v: i32) -> Result<i32, i32> {
    if v % 5 == 0 {
        Err(v)?;
    }
    Ok(v / 2)
}

fn halved(v: Option<i32>) -> Option<i32> {
    if v.is_some_and(|x| x < -100) {
        None?;
    }
    Some(v? / 2)
}

/// The trial-4 idioms (2026-12-06): `size_of_val` of a slice, `ptr::write_bytes`, `Self::N`
/// as a length, `Err(e)?;`, signed `midpoint`, `is_ascii_graphic`, `Option::unzip` and
/// `as_deref`.
#[offload_kernel]
pub fn small_library(xs: &[i32], out: &mut [i32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let (Some(&x), Some(o)) = (xs.get(i), out.get_mut(i)) else { return };
    let window = xs.get(i..(i + 3).min(xs.len())).unwrap_or(&[]);
    let bytes = core::mem::size_of_val(window) as i32 + core::mem::align_of_val(window) as i32;
    let mut scratch = [x; 3];
    // SAFETY: `scratch` holds three `i32`s; two are cleared.
    unsafe { core::ptr::write_bytes(scratch.as_mut_ptr(), 0, 2) };
    let taps: i32 = Taps::weights().iter().zip(window).map(|(w, v)| w.wrapping_mul(*v)).sum();
    let early = checked(x).unwrap_or(-1) ^ halved(Some(x)).unwrap_or(-2);
    let mid = x.midpoint(-x / 3 - 7) + (x / 2).midpoint(i32::MIN / 2);
    let graphic = (x as u8).is_ascii_graphic() as i32
        + ((x >> 8) as u8 as char).is_ascii_control() as i32 * 2;
    let (a, b) = Some((x, x.rotate_left(3))).filter(|p| p.0 % 3 != 0).unzip();
    let boxed = Some(Pair(x)).as_deref().copied().unwrap_or(0);
    *o = bytes
        ^ scratch[2].wrapping_add(scratch[0])
        ^ taps
        ^ early.wrapping_mul(7)
        ^ mid
        ^ graphic << 20
        ^ a.unwrap_or(1).wrapping_sub(b.unwrap_or(2))
        ^ boxed.wrapping_mul(3);
}

/// A newtype that dereferences to its value.
struct Pair(i32);

impl core::ops::Deref for Pair {
    type Target = i32;
    fn deref(&self) -> &i32 {
        &self.0
    }
}
