//! Idioms of the seventh and eighth porting rounds (2026-12-07): a trait implemented for a
//! type and for every reference to an implementor, called through generic functions (rustc
//! takes `T`'s own impl, `&u32`'s, not `u32`'s through auto-deref), `Clone` through a generic
//! function instantiated with a reference, a tuple's impl calling its fields' (`self.1.code()`
//! with `B = &u32`) and an iterator's items (`x.code()` for `for x in it`, in `it.map(|x| ..)`,
//! after `while let Some(x) = it.next()` or on `it.next().unwrap()` with `I::Item: Code` is
//! `<&u32 as Code>::code` when `it` iterates a slice; `into()` on such an item takes the
//! where-clause's target), an item of an associated type named through a qualified path
//! (`<T as Shape>::Out::from`), `Option::as_deref_mut`, arrays of length zero (indexed behind
//! a guard, sliced, iterated, through a const-generic helper), a `macro_rules!` repetition
//! separated by `||`, `rchunks_exact` with its remainder, and a chain of twelve iterator
//! adapters (whose type checking once took time exponential in its length).
use rkc_offload::prelude::*;

trait Code {
    fn code(&self) -> u32;
}

impl Code for u32 {
    fn code(&self) -> u32 {
        *self
    }
}

impl<T: Code + ?Sized> Code for &T {
    fn code(&self) -> u32 {
        (**self).code().wrapping_add(1000)
    }
}

impl<A: Code, B: Code> Code for (A, B) {
    fn code(&self) -> u32 {
        self.0.code() ^ self.1.code().rotate_left(1)
    }
}

fn via<T: Code>(t: T) -> u32 {
    t.code()
}

fn via_ref<T: Code>(t: &T) -> u32 {
    t.code()
}

#[derive(Clone, Copy)]
struct Pair {
    a: u32,
    b: u32,
}

fn dup<T: Clone>(t: T) -> (T, T) {
    (t.clone(), t)
}

#[offload_kernel]
pub fn dispatch_through_refs(xs: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: both pointers are mapped for the launch; the thread index is below 64.
    unsafe {
        let i = thread_idx_x() as usize;
        let x = (*xs)[i] % 100_000;
        let pair = Pair { a: x, b: i as u32 };
        let (p, q) = dup(&pair);
        let mut bumped = x;
        let mut slot = Some(&mut bumped);
        if let Some(v) = slot.as_deref_mut() {
            *v += 3;
        }
        let seen = slot.as_deref().copied().unwrap_or(0);
        (*out)[i] = via(x)
            ^ via(&x).rotate_left(3)
            ^ via(&&x).rotate_left(6)
            ^ via_ref(&x).rotate_left(9)
            ^ via_ref(&&x).rotate_left(12)
            ^ (&&x).code().rotate_left(15)
            ^ (p.a + q.b)
            ^ seen.rotate_left(18)
            ^ (x, &x).code().rotate_left(21)
            ^ bumped;
    }
}

/// Codes of an iterator's items through their declared bound: for `slice::Iter<u32>` the items
/// are `&u32`s and rustc calls `<&u32 as Code>::code`, also on a clone of one and on a `let`
/// that rebinds one.
fn item_codes<I: Iterator>(it: I) -> u32
where
    I::Item: Code + Clone,
{
    let mut s = 0u32;
    for x in it {
        let y = x.clone();
        s = s.rotate_left(5) ^ y.code() ^ x.clone().code().rotate_left(2);
    }
    s
}

/// The same through `IntoIterator`'s `Item`.
fn into_codes<I: IntoIterator>(it: I) -> u32
where
    I::Item: Code,
{
    let mut s = 0u32;
    for x in it {
        let z = x;
        s = s.wrapping_mul(31).wrapping_add(z.code());
    }
    s
}

/// The same through closures given the items (`map`, `fold`, `find`, an `Option`'s `map_or`),
/// through `while let` on `next()`, and on an `Option`'s item (`unwrap_or_else`).
fn closure_codes<I: Iterator + Clone>(it: I) -> u32
where
    I::Item: Code,
{
    let it0 = it.clone();
    let mapped: u32 = it.clone().map(|x| x.code()).fold(0, |s, c| s.rotate_left(3) ^ c);
    let folded = it.clone().fold(0u32, |s, x| s.wrapping_mul(7) ^ x.code());
    let mut it = it;
    let mut stepped = 0u32;
    while let Some(x) = it.next() {
        stepped = stepped.rotate_left(9) ^ x.code();
    }
    let first = it0.clone().next().map_or(1, |x| x.code());
    let last = it0.clone().last().unwrap_or_else(|| panic!("no items")).code();
    let found = it0.clone().find(|x| x.code() % 2 == 0).map(|x| x.code()).unwrap_or(3);
    mapped
        ^ folded.rotate_left(11)
        ^ stepped.rotate_left(22)
        ^ first
        ^ last.rotate_left(4)
        ^ found.rotate_left(15)
}

/// Items named through the iterator's binding (`Item = T`), whose bound is `T`'s.
fn bound_codes<T: Code, I: Iterator<Item = T>>(it: I) -> u32 {
    it.map(|x| x.code()).fold(5, u32::wrapping_add)
}

/// The product of the first two items through the where-clause's `Into<f64>`, which decides
/// what `into()` makes (rustc's candidate from the clause).
fn first_product<I: Iterator>(mut it: I) -> f64
where
    I::Item: Into<f64>,
{
    let x = it.next().unwrap();
    let y = it.next().unwrap();
    x.into() * y.into()
}

pub trait Shape {
    type Out: Default + Into<u32> + From<u8>;
}

pub struct Narrow;

impl Shape for Narrow {
    type Out = u16;
}

/// An item of an associated type named through a qualified path:
/// `<T as Shape>::Out::from(..)`.
fn through_assoc<T: Shape>(b: u8) -> u32 {
    <T as Shape>::Out::from(b).into() + <T as Shape>::Out::default().into()
}

#[offload_kernel]
pub fn dispatch_through_items(xs: &[u32], out: &mut [u32]) {
    // SAFETY: reading the thread's index has no preconditions.
    let i = unsafe { thread_idx_x() } as usize;
    if let Some(o) = out.get_mut(i) {
        let part = &xs[i % 8..i % 8 + 4];
        *o = item_codes(part.iter())
            ^ item_codes(part.iter().copied()).rotate_left(7)
            ^ into_codes(part).rotate_left(13)
            ^ into_codes([xs[i], 7]).rotate_left(19)
            ^ closure_codes(part.iter()).rotate_left(23)
            ^ closure_codes(part.iter().copied()).rotate_left(29)
            ^ bound_codes(part.iter()).rotate_left(31)
            ^ first_product(part.iter().map(|&v| (v % 1000) as f32)) as u32
            ^ through_assoc::<Narrow>(xs[i] as u8).rotate_left(8);
    }
}

fn first_or<const N: usize>(a: &[f32; N], k: usize) -> f32 {
    if k < a.len() { a[k] } else { 1.5 }
}

fn dot<const N: usize>(a: &[f32; N], b: &[f32; N]) -> f32 {
    let mut s = 0.0;
    for k in 0..N {
        s += a[k] * b[k];
    }
    s
}

macro_rules! out_of {
    ($i:expr, $($s:expr),+) => {
        $( $i >= $s.len() )||+
    };
}

#[offload_kernel]
pub fn zero_length_arrays(xs: &[f32], out: &mut [f32]) {
    // SAFETY: builtins only.
    let i = unsafe { global_idx_x() };
    if out_of!(i, xs, out) {
        return;
    }
    let empty: [f32; 0] = [];
    let mut scratch: [f32; 0] = [];
    scratch[..].fill(2.0);
    let none: &[u32; 0] = &[];
    let x = xs[i];
    out[i] = first_or(&empty, i)
        + first_or(&[x], i % 2)
        + dot::<0>(&[], &[])
        + dot(&[x, 2.0], &[0.5, x])
        + empty.iter().sum::<f32>()
        + empty[..].len() as f32
        + none.iter().count() as f32
        + empty.get(i).copied().unwrap_or(-1.0);
}

#[offload_kernel]
pub fn chunks_from_the_end(xs: &[u32], out: &mut [u32]) {
    // SAFETY: builtins only.
    let i = unsafe { global_idx_x() };
    let Some(o) = out.get_mut(i) else { return };
    let size = i % 7 + 1;
    let chunks = xs[..xs.len().min(i + 3)].rchunks_exact(size);
    let rest = chunks.remainder().iter().fold(0u32, |a, v| a.rotate_left(5) ^ v);
    let sums = chunks.clone().rev().map(|c| c.iter().fold(0u32, |a, v| a.wrapping_add(*v)));
    *o = sums.fold(rest, |a, s| a.rotate_left(3) ^ s) ^ chunks.len() as u32;
}

#[offload_kernel]
pub fn long_chain(xs: &[u32], out: &mut [u32]) {
    // SAFETY: builtins only.
    let i = unsafe { global_idx_x() };
    let Some(o) = out.get_mut(i) else { return };
    let n = xs.len().min(i % 9 + 4);
    *o = xs[..n]
        .iter()
        .copied()
        .map(|v| v.wrapping_mul(3))
        .map(|v| v ^ 5)
        .zip(xs.iter().rev())
        .map(|(a, b)| a.wrapping_add(*b))
        .enumerate()
        .map(|(k, v)| v.rotate_left(k as u32))
        .filter(|v| v % 3 != 1)
        .map(|v| v.wrapping_mul(7))
        .skip(1)
        .map(|v| v.wrapping_add(13))
        .map(|v| v >> 1)
        .map(|v| v | 1)
        .fold(0u32, |a, v| a.rotate_left(5) ^ v);
}
