//! Small-vector math as ray tracers and graphics kernels write it: `Vec2`/`Vec4`/`Quat` structs
//! without `repr(C)` carrying operator impls (`Add`, `Sub`, `Mul<f32>`, `Mul<Vec4>`, `Neg`,
//! `AddAssign`, `SubAssign`, `MulAssign`, `Index`, `IndexMut`), `Default`, `From`/`Into`
//! between a pixel type and a vector, derived `PartialEq`/`PartialOrd`, `Sum` for a user type,
//! and results written through `if let Some(x) = out.get_mut(i)`.
use core::ops::{Add, AddAssign, Index, IndexMut, Mul, MulAssign, Neg, Sub, SubAssign};
use rkc_offload::prelude::*;

#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
struct Vec2 {
    x: f32,
    y: f32,
}

impl Vec2 {
    const fn new(x: f32, y: f32) -> Self {
        Self { x, y }
    }

    fn dot(self, o: Self) -> f32 {
        self.x * o.x + self.y * o.y
    }

    fn length(self) -> f32 {
        self.dot(self).sqrt()
    }

    /// The unit vector, or `None` for the zero vector (the caller decides what that means).
    fn try_normalize(self) -> Option<Self> {
        let len = self.length();
        (len > 0.0).then(|| self * (1.0 / len))
    }

    fn perp(self) -> Self {
        Self::new(-self.y, self.x)
    }
}

impl Add for Vec2 {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Self::new(self.x + o.x, self.y + o.y)
    }
}

impl Sub for Vec2 {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        Self::new(self.x - o.x, self.y - o.y)
    }
}

impl Mul<f32> for Vec2 {
    type Output = Self;
    fn mul(self, k: f32) -> Self {
        Self::new(self.x * k, self.y * k)
    }
}

impl Neg for Vec2 {
    type Output = Self;
    fn neg(self) -> Self {
        Self::new(-self.x, -self.y)
    }
}

impl AddAssign for Vec2 {
    fn add_assign(&mut self, o: Self) {
        *self = *self + o;
    }
}

impl SubAssign for Vec2 {
    fn sub_assign(&mut self, o: Self) {
        self.x -= o.x;
        self.y -= o.y;
    }
}

impl MulAssign<f32> for Vec2 {
    fn mul_assign(&mut self, k: f32) {
        self.x *= k;
        self.y *= k;
    }
}

/// Summing vectors with `Iterator::sum` needs `Sum` for the vector type, as glam provides.
impl core::iter::Sum for Vec2 {
    fn sum<I: Iterator<Item = Vec2>>(iter: I) -> Vec2 {
        iter.fold(Vec2::default(), |a, b| a + b)
    }
}

/// Reflects each 2-D direction off a wall whose normal comes from the neighbouring element,
/// then takes a few steps of a ray marching towards the origin: operators, compound
/// assignment, `Option` from `try_normalize`, `PartialOrd` on the struct, and `Sum`.
#[offload_kernel]
pub fn reflect(dirs: &[f32], normals: &[f32], out: &mut [f32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let (Some(&dx), Some(&dy)) = (dirs.get(2 * i), dirs.get(2 * i + 1)) else { return };
    let d = Vec2::new(dx, dy);
    let n = Vec2::new(normals[i % normals.len()], normals[(i + 1) % normals.len()])
        .try_normalize()
        .unwrap_or(Vec2::new(0.0, 1.0));
    // The reflection r = d - 2 (d . n) n.
    let r = d - n * (2.0 * d.dot(n));
    let mut p = r;
    for _ in 0..3 {
        let mut towards = -p;
        towards *= 0.25;
        p += towards;
        p -= p.perp() * 0.125;
    }
    let path: Vec2 = [d, r, p].into_iter().sum();
    let ordered = (d < r) as u32 as f32 + (d == d) as u32 as f32 * 2.0;
    if let Some(o) = out.get_mut(i) {
        *o = path.x * 3.0 + path.y + p.length() + ordered;
    }
}

/// A 4-component vector indexed like an array, as colour and homogeneous-coordinate code
/// does.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Vec4([f32; 4]);

impl Index<usize> for Vec4 {
    type Output = f32;
    fn index(&self, i: usize) -> &f32 {
        &self.0[i]
    }
}

impl IndexMut<usize> for Vec4 {
    fn index_mut(&mut self, i: usize) -> &mut f32 {
        &mut self.0[i]
    }
}

impl Mul<Vec4> for f32 {
    type Output = Vec4;
    fn mul(self, v: Vec4) -> Vec4 {
        Vec4(v.0.map(|c| c * self))
    }
}

impl Add for Vec4 {
    type Output = Vec4;
    fn add(self, o: Vec4) -> Vec4 {
        let mut r = self;
        for k in 0..4 {
            r[k] += o[k];
        }
        r
    }
}

/// An 8-bit RGBA pixel, converted to and from a linear float vector with `From`/`Into`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Rgba8 {
    r: u8,
    g: u8,
    b: u8,
    a: u8,
}

impl From<u32> for Rgba8 {
    fn from(packed: u32) -> Self {
        let [r, g, b, a] = packed.to_le_bytes();
        Rgba8 { r, g, b, a }
    }
}

impl From<Rgba8> for Vec4 {
    fn from(p: Rgba8) -> Vec4 {
        Vec4([p.r, p.g, p.b, p.a].map(|c| f32::from(c) / 255.0))
    }
}

impl From<Vec4> for Rgba8 {
    fn from(v: Vec4) -> Rgba8 {
        // `as u8` saturates, and the clamp keeps the rounding in range as well.
        let q = |c: f32| (c.clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
        Rgba8 { r: q(v[0]), g: q(v[1]), b: q(v[2]), a: q(v[3]) }
    }
}

impl From<Rgba8> for u32 {
    fn from(p: Rgba8) -> u32 {
        u32::from_le_bytes([p.r, p.g, p.b, p.a])
    }
}

/// Blends each pixel over its neighbour with its alpha ("over" compositing), converts it to
/// luma and back to a grey pixel when the colour is nearly grey: `From`/`Into` both ways,
/// `Index`/`IndexMut`, `f32 * Vec4`, and `u8`/`u32` byte conversions.
#[offload_kernel]
pub fn composite(pixels: &[u32], out: &mut [u32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let Some(&top) = pixels.get(i) else { return };
    let bottom = pixels[(i + 1) % pixels.len()];
    let src: Vec4 = Rgba8::from(top).into();
    let dst = Vec4::from(Rgba8::from(bottom));
    let alpha = src[3];
    let mut blended = alpha * src + (1.0 - alpha) * dst;
    blended[3] = alpha + dst[3] * (1.0 - alpha);
    let luma = 0.2126f32.mul_add(blended[0], 0.7152f32.mul_add(blended[1], 0.0722 * blended[2]));
    let spread = blended.0[..3].iter().fold(0.0f32, |m, c| m.max((c - luma).abs()));
    if spread < 0.25 {
        for k in 0..3 {
            blended[k] = luma;
        }
    }
    let pixel: Rgba8 = blended.into();
    if let Some(o) = out.get_mut(i) {
        *o = pixel.into();
    }
}

/// A unit quaternion rotating vectors: `Mul` between quaternions, `Neg` as the conjugate's
/// sign flip, and an associated constant for the identity.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Quat {
    w: f32,
    v: [f32; 3],
}

impl Quat {
    const IDENTITY: Quat = Quat { w: 1.0, v: [0.0; 3] };

    fn conjugate(self) -> Quat {
        Quat { w: self.w, v: self.v.map(Neg::neg) }
    }

    fn normalized(self) -> Quat {
        let n = (self.w * self.w + self.v.iter().map(|c| c * c).sum::<f32>()).sqrt();
        if n == 0.0 {
            return Quat::IDENTITY;
        }
        Quat { w: self.w / n, v: self.v.map(|c| c / n) }
    }

    fn rotate(self, p: [f32; 3]) -> [f32; 3] {
        (self * Quat { w: 0.0, v: p } * self.conjugate()).v
    }
}

impl Mul for Quat {
    type Output = Quat;
    fn mul(self, o: Quat) -> Quat {
        let [a, b, c] = self.v;
        let [x, y, z] = o.v;
        Quat {
            w: self.w * o.w - (a * x + b * y + c * z),
            v: [
                self.w * x + o.w * a + (b * z - c * y),
                self.w * y + o.w * b + (c * x - a * z),
                self.w * z + o.w * c + (a * y - b * x),
            ],
        }
    }
}

/// Rotates each point by the composition of two rotations built from the inputs, and checks
/// that rotating back by the conjugate is close to where it started.
#[offload_kernel]
pub fn rotate(points: *const [f32; 96], axes: *const [f32; 8], out: *mut [f32; 32]) {
    // SAFETY: the pointers are mapped for the launch; thread t reads points 3t..3t+3 < 96 and
    // writes out[t] with t < 32.
    unsafe {
        let t = thread_idx_x() as usize;
        let p = [(*points)[3 * t], (*points)[3 * t + 1], (*points)[3 * t + 2]];
        let a = &*axes;
        let q1 = Quat { w: a[0], v: [a[1], a[2], a[3]] }.normalized();
        let q2 = Quat { w: a[4], v: [a[5], a[6], a[7]] }.normalized();
        let q = q2 * q1;
        let r = q.rotate(p);
        let back = q.conjugate().rotate(r);
        let error: f32 = back.iter().zip(&p).map(|(x, y)| (x - y).abs()).sum();
        let same_as_identity = (Quat::IDENTITY * q == q) as u32 as f32;
        (*out)[t] = r[0] + 2.0 * r[1] - r[2]
            + (error < 0.01) as u32 as f32 * 1000.0
            + same_as_identity * 10_000.0;
    }
}
