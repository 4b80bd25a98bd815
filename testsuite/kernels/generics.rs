//! Traits and generics as krnl and rust-gpu shaders write them: a `Monoid` trait with an
//! associated type, an associated constant and a default method, implemented by unit structs
//! and used through generic functions; a trait with an associated constant and a blanket
//! impl of a second trait for every implementor; `impl Iterator for` user types driven by
//! adapters; generic structs with `where` clauses; and const generics used as values.
use core::ops::{Add, Mul};
use rkc_offload::prelude::*;

/// An associative operation with an identity, so that a reduction can start anywhere.
trait Monoid {
    type Elem: Copy;
    const IDENTITY: Self::Elem;
    fn combine(a: Self::Elem, b: Self::Elem) -> Self::Elem;

    fn fold_all(xs: &[Self::Elem]) -> Self::Elem {
        xs.iter().fold(Self::IDENTITY, |acc, &x| Self::combine(acc, x))
    }
}

struct WrappingSum;
struct Max;
struct Xor;

impl Monoid for WrappingSum {
    type Elem = u32;
    const IDENTITY: u32 = 0;
    fn combine(a: u32, b: u32) -> u32 {
        a.wrapping_add(b)
    }
}

impl Monoid for Max {
    type Elem = u32;
    const IDENTITY: u32 = u32::MIN;
    fn combine(a: u32, b: u32) -> u32 {
        a.max(b)
    }

    /// A faster path than the default, as implementors are free to give.
    fn fold_all(xs: &[u32]) -> u32 {
        xs.iter().copied().max().unwrap_or(Self::IDENTITY)
    }
}

impl Monoid for Xor {
    type Elem = u32;
    const IDENTITY: u32 = 0;
    fn combine(a: u32, b: u32) -> u32 {
        a ^ b
    }
}

/// Reduces a window of the data that may run off the end: only what exists is combined.
fn reduce_window<M: Monoid>(xs: &[M::Elem], start: usize, len: usize) -> M::Elem {
    let end = (start + len).min(xs.len());
    match xs.get(start..end) {
        Some(window) => M::fold_all(window),
        None => M::IDENTITY,
    }
}

/// Each thread reduces an 8-element window with three monoids, each through the same generic
/// function.
#[offload_kernel]
pub fn monoids(xs: &[u32], out: &mut [u32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let start = i * 8;
    let s = reduce_window::<WrappingSum>(xs, start, 8);
    let m = reduce_window::<Max>(xs, start, 8);
    let x = reduce_window::<Xor>(xs, start, 8);
    if let Some(o) = out.get_mut(i) {
        *o = s.rotate_left(7) ^ m.wrapping_mul(3) ^ x;
    }
}

/// A polygon with a number of sides fixed by its type.
trait Polygon {
    const SIDES: u32;
    fn side(&self) -> f32;

    fn perimeter(&self) -> f32 {
        Self::SIDES as f32 * self.side()
    }

    fn area(&self) -> f32;
}

/// Something with a one-number summary; every polygon gets one through the blanket impl.
trait Summary {
    fn summary(&self) -> f32;
}

impl<P: Polygon> Summary for P {
    fn summary(&self) -> f32 {
        // The isoperimetric quotient: 1 for a circle, less for every polygon.
        let p = self.perimeter();
        if p == 0.0 { 0.0 } else { 4.0 * core::f32::consts::PI * self.area() / (p * p) }
    }
}

struct Square(f32);
struct Triangle(f32);
struct Hexagon {
    side: f32,
}

impl Polygon for Square {
    const SIDES: u32 = 4;
    fn side(&self) -> f32 {
        self.0
    }
    fn area(&self) -> f32 {
        self.0 * self.0
    }
}

impl Polygon for Triangle {
    const SIDES: u32 = 3;
    fn side(&self) -> f32 {
        self.0
    }
    fn area(&self) -> f32 {
        3.0f32.sqrt() / 4.0 * self.0 * self.0
    }
}

impl Polygon for Hexagon {
    const SIDES: u32 = 6;
    fn side(&self) -> f32 {
        self.side
    }
    fn area(&self) -> f32 {
        1.5 * 3.0f32.sqrt() * self.side * self.side
    }
}

fn describe<T: Summary + Polygon>(shape: &T) -> f32 {
    shape.summary() * 100.0 + T::SIDES as f32
}

fn total_area(a: &impl Polygon, b: &impl Polygon) -> f32 {
    a.area() + b.area()
}

#[offload_kernel]
pub fn polygons(sizes: *const [f32; 64], out: *mut [f32; 64]) {
    // SAFETY: the pointers are mapped for the launch; the thread index is below 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let s = (*sizes)[t].abs() / 10.0;
        let value = match t % 3 {
            0 => describe(&Square(s)),
            1 => describe(&Triangle(s)),
            _ => describe(&Hexagon { side: s }),
        };
        (*out)[t] = value + total_area(&Square(s), &Hexagon { side: s * 0.5 });
    }
}

/// The Collatz sequence from a start value, as an iterator: it ends after yielding 1.
struct Collatz {
    next: Option<u64>,
}

impl Iterator for Collatz {
    type Item = u64;
    fn next(&mut self) -> Option<u64> {
        let n = self.next?;
        self.next = match n {
            1 => None,
            n if n % 2 == 0 => Some(n / 2),
            n => Some(3 * n + 1),
        };
        Some(n)
    }
}

/// A linear congruential generator: an endless iterator, bounded by `take`.
#[derive(Clone, Copy)]
struct Lcg(u32);

impl Iterator for Lcg {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        self.0 = self.0.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        Some(self.0 >> 8)
    }
}

/// User iterators driven by the library's adapters: `count`, `max`, `take_while`, `zip`,
/// `skip`, `step_by`, `filter`, `sum` and `last`.
#[offload_kernel]
pub fn sequences(seeds: *const [u32; 64], out: *mut [u64; 64]) {
    // SAFETY: the pointers are mapped for the launch; the thread index is below 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let start = u64::from((*seeds)[t] % 1000 + 1);
        let steps = Collatz { next: Some(start) }.count() as u64;
        let peak = Collatz { next: Some(start) }.max().unwrap_or(0);
        let small = Collatz { next: Some(start) }.take_while(|&n| n >= start).count() as u64;
        let rng = Lcg((*seeds)[t]);
        let noise: u64 =
            rng.skip(3).step_by(2).take(10).filter(|v| v % 3 != 0).map(u64::from).sum();
        let paired = Collatz { next: Some(start) }
            .zip(rng)
            .map(|(c, r)| c ^ u64::from(r))
            .last()
            .unwrap_or(0);
        (*out)[t] = (steps | (peak << 8) | (small << 40)) ^ noise ^ paired;
    }
}

/// A running total that also tracks its largest input: generic over the element with the
/// bounds in a `where` clause.
#[derive(Clone, Copy, Debug, Default)]
struct Running<T> {
    total: T,
    largest: Option<T>,
    count: u32,
}

impl<T> Running<T>
where
    T: Copy + Default + Add<Output = T> + Mul<Output = T> + PartialOrd,
{
    fn push(&mut self, x: T) {
        self.total = self.total + x * x;
        self.largest = match self.largest {
            Some(m) if m >= x => Some(m),
            _ => Some(x),
        };
        self.count += 1;
    }
}

/// A ring buffer whose capacity is a const generic, used as a value for the average.
struct Ring<const N: usize> {
    buf: [f32; N],
    head: usize,
    filled: bool,
}

impl<const N: usize> Ring<N> {
    const fn new() -> Self {
        Ring { buf: [0.0; N], head: 0, filled: false }
    }

    fn push(&mut self, x: f32) {
        self.buf[self.head] = x;
        self.head = (self.head + 1) % N;
        self.filled |= self.head == 0;
    }

    fn mean(&self) -> f32 {
        let n = if self.filled { N } else { self.head };
        if n == 0 { 0.0 } else { self.buf[..n].iter().sum::<f32>() / n as f32 }
    }
}

fn smooth<const N: usize>(xs: &[f32]) -> f32 {
    let mut ring = Ring::<N>::new();
    let mut last = 0.0;
    for &x in xs {
        ring.push(x);
        last = ring.mean();
    }
    last + N as f32
}

/// Moving averages of two widths over the thread's 12 inputs, and a generic running
/// statistic instantiated at `f32` and `i64`.
#[offload_kernel]
pub fn ring_average(xs: *const [f32; 64], out: *mut [f32; 64]) {
    // SAFETY: the pointers are mapped for the launch; indices are taken modulo 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let mut window = [0.0f32; 12];
        for (k, w) in window.iter_mut().enumerate() {
            *w = (*xs)[(t + k * 5) % 64];
        }
        let a = smooth::<4>(&window);
        let b = smooth::<16>(&window[..t % 12]);
        let mut floats = Running::<f32>::default();
        let mut ints = Running::<i64>::default();
        for w in window {
            floats.push(w);
            ints.push(w as i64);
        }
        let largest = floats.largest.unwrap_or(-1.0) + ints.largest.map_or(0.0, |v| v as f32);
        (*out)[t] = a
            + b
            + floats.total * 0.001
            + (ints.total % 1000) as f32
            + largest
            + floats.count as f32;
    }
}
