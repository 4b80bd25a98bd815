//! Traits and operator impls on small structs, as the public projects write their math:
//! `Add`/`Sub`/`Mul`/`Neg`/`AddAssign`/`Index`/`IndexMut` on a `Vec3`, a `Complex` type,
//! a trait with a default method and an associated constant implemented for `f32` and
//! `f64`, generic functions over that trait, an associated type, `Default`, `From`,
//! derived `PartialEq`/`PartialOrd`, const generics (`Matrix<R, C>`, `[T; N]`), and bounds
//! declared on an associated type, used through the trait's bound.
use core::ops::{Add, AddAssign, Index, IndexMut, Mul, Neg, Sub};
use rkc_offload::prelude::*;

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vec3 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
}

impl Vec3 {
    pub const ZERO: Vec3 = Vec3 { x: 0.0, y: 0.0, z: 0.0 };

    pub const fn new(x: f32, y: f32, z: f32) -> Self {
        Vec3 { x, y, z }
    }

    pub fn dot(self, o: Self) -> f32 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    pub fn cross(self, o: Self) -> Self {
        Vec3::new(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
    }

    pub fn length(self) -> f32 {
        self.dot(self).sqrt()
    }
}

impl Add for Vec3 {
    type Output = Vec3;
    fn add(self, o: Vec3) -> Vec3 {
        Vec3::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

impl Sub for Vec3 {
    type Output = Vec3;
    fn sub(self, o: Vec3) -> Vec3 {
        Vec3::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}

impl Mul<f32> for Vec3 {
    type Output = Vec3;
    fn mul(self, k: f32) -> Vec3 {
        Vec3::new(self.x * k, self.y * k, self.z * k)
    }
}

impl Mul<Vec3> for f32 {
    type Output = Vec3;
    fn mul(self, v: Vec3) -> Vec3 {
        v * self
    }
}

impl Neg for Vec3 {
    type Output = Vec3;
    fn neg(self) -> Vec3 {
        Vec3::new(-self.x, -self.y, -self.z)
    }
}

impl AddAssign for Vec3 {
    fn add_assign(&mut self, o: Vec3) {
        self.x += o.x;
        self.y += o.y;
        self.z += o.z;
    }
}

impl Index<usize> for Vec3 {
    type Output = f32;
    fn index(&self, i: usize) -> &f32 {
        match i {
            0 => &self.x,
            1 => &self.y,
            _ => &self.z,
        }
    }
}

impl IndexMut<usize> for Vec3 {
    fn index_mut(&mut self, i: usize) -> &mut f32 {
        match i {
            0 => &mut self.x,
            1 => &mut self.y,
            _ => &mut self.z,
        }
    }
}

impl From<[f32; 3]> for Vec3 {
    fn from(a: [f32; 3]) -> Vec3 {
        Vec3::new(a[0], a[1], a[2])
    }
}

/// Particles pushed by a field: operators, `+=`, indexing a struct, `From`, and `==`.
#[offload_kernel]
pub fn vec3_ops(xs: *const [f32; 64], out: *mut [f32; 64]) {
    // SAFETY: `xs` and `out` are mapped for the launch; indices are taken modulo 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let p = Vec3::from([(*xs)[t], (*xs)[(t + 1) % 64], (*xs)[(t + 2) % 64]]);
        let v = Vec3::new(0.5, -1.0, 2.0);
        let mut q = p + v * 0.25 - (-p) * 0.5;
        q += 2.0 * v.cross(p);
        q[1] = q[0].max(q[2]);
        let same = (q == q) as u32 as f32;
        let zero = (Vec3::default() == Vec3::ZERO) as u32 as f32;
        (*out)[t] = q.dot(v) + q.length() * 0.01 + same + zero * 2.0 + q[1];
    }
}

/// A numeric trait in the style of `num-traits`: implemented for `f32` and `f64`, with a
/// default method and an associated constant; generic code calls it.
pub trait Real:
    Copy + Add<Output = Self> + Mul<Output = Self> + Sub<Output = Self> + PartialOrd
{
    const ONE: Self;
    fn from_f32(x: f32) -> Self;
    fn sqrt(self) -> Self;
    fn lerp(self, other: Self, t: Self) -> Self {
        self + (other - self) * t
    }
}

impl Real for f32 {
    const ONE: f32 = 1.0;
    fn from_f32(x: f32) -> f32 {
        x
    }
    fn sqrt(self) -> f32 {
        f32::sqrt(self)
    }
}

impl Real for f64 {
    const ONE: f64 = 1.0;
    fn from_f32(x: f32) -> f64 {
        f64::from(x)
    }
    fn sqrt(self) -> f64 {
        f64::sqrt(self)
    }
    fn lerp(self, other: f64, t: f64) -> f64 {
        self.mul_add(1.0 - t, other * t)
    }
}

fn norm<T: Real, const N: usize>(v: [T; N]) -> T {
    let mut acc = T::from_f32(0.0);
    for x in v {
        acc = acc + x * x;
    }
    acc.sqrt()
}

fn clamp_unit<T: Real>(x: T) -> T {
    let zero = T::from_f32(0.0);
    if x < zero {
        zero
    } else if x > T::ONE {
        T::ONE
    } else {
        x
    }
}

#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
struct Complex<T> {
    re: T,
    im: T,
}

impl<T: Real> Mul for Complex<T> {
    type Output = Self;
    fn mul(self, o: Self) -> Self {
        Complex { re: self.re * o.re - self.im * o.im, im: self.re * o.im + self.im * o.re }
    }
}

impl<T: Real> Add for Complex<T> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Complex { re: self.re + o.re, im: self.im + o.im }
    }
}

/// A fixed-size matrix with const generic dimensions and a generic product.
#[derive(Clone, Copy)]
struct Matrix<const R: usize, const C: usize> {
    m: [[f32; C]; R],
}

impl<const R: usize, const C: usize> Matrix<R, C> {
    fn mul_vec(&self, v: &[f32; C]) -> [f32; R] {
        let mut out = [0.0; R];
        for (o, row) in out.iter_mut().zip(&self.m) {
            *o = row.iter().zip(v).map(|(a, b)| a * b).sum();
        }
        out
    }

    fn transpose(&self) -> Matrix<C, R> {
        let mut m = [[0.0; R]; C];
        for r in 0..R {
            for c in 0..C {
                m[c][r] = self.m[r][c];
            }
        }
        Matrix { m }
    }
}

/// Generic numeric code instantiated at `f32` and `f64`, a generic struct with operator
/// impls (the Mandelbrot step on `Complex<f64>`), and const-generic matrices.
#[offload_kernel]
pub fn generic_math(xs: *const [f32; 64], out: *mut [f64; 64]) {
    // SAFETY: `xs` and `out` are mapped for the launch; indices are taken modulo 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let a = (*xs)[t] / 100.0;
        let b = (*xs)[(t + 7) % 64] / 100.0;
        let n32 = norm([a, b, 0.5f32]);
        let n64 = norm([f64::from(a), f64::from(b)]);
        let l32 = a.lerp(b, 0.25);
        let l64 = f64::from(a).lerp(f64::from(b), 0.25);
        let c = clamp_unit(a) + clamp_unit(b * 3.0);
        let z0 = Complex { re: f64::from(a), im: f64::from(b) };
        let mut z = Complex { re: 0.0, im: 0.0 };
        let mut steps = 0u32;
        while steps < 20 && z.re * z.re + z.im * z.im <= 4.0 {
            z = z * z + z0;
            steps += 1;
        }
        let bigger = (z0 > Complex { re: 0.0, im: 0.0 }) as u32;
        let m = Matrix::<2, 3> { m: [[a, b, 1.0], [b, -a, 0.5]] };
        let mv = m.mul_vec(&[1.0, 2.0, 3.0]);
        let tv = m.transpose().mul_vec(&[0.25, -0.5]);
        (*out)[t] = f64::from(n32 + l32 + c)
            + n64
            + l64
            + f64::from(steps)
            + f64::from(bigger) * 100.0
            + f64::from(mv[0] - mv[1] + tv[2]);
    }
}

/// An associated type: a trait that names what its implementors produce.
trait Sampler {
    type Sample: Copy + Into<f64>;
    fn sample(&self, i: u32) -> Self::Sample;
}

struct Stripes {
    width: u32,
}

struct Ramp {
    scale: f32,
}

impl Sampler for Stripes {
    type Sample = u32;
    fn sample(&self, i: u32) -> u32 {
        (i / self.width) % 2
    }
}

impl Sampler for Ramp {
    type Sample = f32;
    fn sample(&self, i: u32) -> f32 {
        i as f32 * self.scale
    }
}

fn average<S: Sampler>(s: &S, from: u32, n: u32) -> f64 {
    let mut total = 0.0f64;
    for i in from..from + n {
        total += s.sample(i).into();
    }
    total / f64::from(n)
}

#[offload_kernel]
pub fn samplers(out: *mut [f64; 64]) {
    // SAFETY: `out` is mapped for the launch; the thread index is below 64.
    unsafe {
        let t = thread_idx_x();
        let stripes = Stripes { width: 3 };
        let ramp = Ramp { scale: 0.5 };
        (*out)[t as usize] = average(&stripes, t, 10) * 1000.0 + average(&ramp, t, 4);
    }
}

/// Pixel formats whose channel type is bounded in the trait's declaration: generic code uses
/// those bounds (`c.into()` to `f32`, `Default`) through the `P: Pixel` bound alone.
pub trait Pixel {
    type Channel: Copy + Into<f32> + Default;
    const CHANNELS: usize;
}

pub struct Rgb8;
impl Pixel for Rgb8 {
    type Channel = u8;
    const CHANNELS: usize = 3;
}

pub struct Gray16;
impl Pixel for Gray16 {
    type Channel = u16;
    const CHANNELS: usize = 1;
}

fn luma<P: Pixel>(px: &[P::Channel]) -> f32 {
    let mut acc = 0.0;
    for &c in px.iter().take(P::CHANNELS) {
        let v: f32 = c.into();
        acc += v;
    }
    acc / P::CHANNELS as f32 + px.last().copied().unwrap_or_default().into()
}

#[offload_kernel]
pub fn pixels(rgb: &[u8], gray: &[u16], out: &mut [f32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let Some(o) = out.get_mut(i) else { return };
    let px = rgb.get(3 * i..3 * i + 3).unwrap_or(&[]);
    let g = gray.get(i..i + 1).unwrap_or(&[]);
    *o = luma::<Rgb8>(px) + luma::<Gray16>(g);
}

/// Sums widen through an associated type named by a two-segment path: `T::Acc::default()`
/// and `T::Acc::from(x)` are items of `<T as Widen>::Acc`.
pub trait Widen: Copy {
    type Acc: Default + From<Self> + Add<Output = Self::Acc> + Copy;
}

impl Widen for u8 {
    type Acc = u32;
}

impl Widen for u16 {
    type Acc = u64;
}

fn widened_sum<T: Widen>(xs: &[T]) -> T::Acc {
    xs.iter().fold(T::Acc::default(), |acc, &x| acc + T::Acc::from(x))
}

#[offload_kernel]
pub fn widened(bytes: &[u8], halves: &[u16], out: &mut [u64]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let Some(o) = out.get_mut(i) else { return };
    let b = bytes.get(i..(i + 5).min(bytes.len())).unwrap_or(&[]);
    let h = halves.get(i..(i + 3).min(halves.len())).unwrap_or(&[]);
    *o = u64::from(widened_sum(b)) * 100_000 + widened_sum(h);
}
