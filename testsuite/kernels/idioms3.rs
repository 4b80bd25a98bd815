//! Kernels in the shapes public Rust GPU projects write them in: small vector types with
//! operator impls, a trait object-free shape trait, `let ... else`, `Option` and `Result`
//! chains with `?`, closures passed to generic functions, const-generic matrices, iterator
//! chains (`filter_map`, `fold`, `scan`, `take_while`, `max_by_key`, `flat_map`), slices split
//! and swapped, and labelled breaks.

use rkc_offload::prelude::*;

#[derive(Clone, Copy, Default, PartialEq, Debug)]
pub struct Vec3 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
}

impl core::ops::Add for Vec3 {
    type Output = Vec3;
    fn add(self, o: Vec3) -> Vec3 {
        Vec3 { x: self.x + o.x, y: self.y + o.y, z: self.z + o.z }
    }
}

impl core::ops::Sub for Vec3 {
    type Output = Vec3;
    fn sub(self, o: Vec3) -> Vec3 {
        Vec3 { x: self.x - o.x, y: self.y - o.y, z: self.z - o.z }
    }
}

impl core::ops::Mul<f32> for Vec3 {
    type Output = Vec3;
    fn mul(self, s: f32) -> Vec3 {
        Vec3 { x: self.x * s, y: self.y * s, z: self.z * s }
    }
}

impl core::ops::AddAssign for Vec3 {
    fn add_assign(&mut self, o: Vec3) {
        *self = *self + o;
    }
}

impl Vec3 {
    pub fn dot(&self, o: &Vec3) -> f32 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }
    pub fn length(&self) -> f32 {
        self.dot(self).sqrt()
    }
    pub fn normalized(self) -> Self {
        let l = self.length();
        if l > 0.0 { self * (1.0 / l) } else { self }
    }
}

trait Shape {
    fn hit(&self, origin: Vec3, dir: Vec3) -> Option<f32>;
}

struct Sphere {
    c: Vec3,
    r: f32,
}

impl Shape for Sphere {
    fn hit(&self, origin: Vec3, dir: Vec3) -> Option<f32> {
        let oc = origin - self.c;
        let b = oc.dot(&dir);
        let c = oc.dot(&oc) - self.r * self.r;
        let disc = b * b - c;
        if disc < 0.0 {
            return None;
        }
        let t = -b - disc.sqrt();
        (t > 0.0).then_some(t)
    }
}

/// One ray per pixel against every sphere (`x, y, z, r`), the nearest hit's shade.
#[offload_kernel]
pub fn trace(width: usize, spheres: &[[f32; 4]], out: &mut [f32]) {
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let Some(px) = out.get_mut(i) else { return };
    let (x, y) = ((i % width) as f32, (i / width) as f32);
    let mut dir = Vec3 { x: x / width as f32 - 0.5, y: y / width as f32 - 0.5, z: 0.0 };
    dir += Vec3 { x: 0.0, y: 0.0, z: 1.0 };
    let dir = dir.normalized();
    let nearest = spheres
        .iter()
        .map(|s| Sphere { c: Vec3 { x: s[0], y: s[1], z: s[2] + 2.0 }, r: s[3] })
        .filter_map(|s| s.hit(Vec3::default(), dir))
        .fold(f32::INFINITY, f32::min);
    *px = if nearest.is_finite() { 1.0 / (1.0 + nearest) } else { 0.0 };
}

/// Each thread counts the top two bits of one 64-byte chunk's bytes, then adds its counts to
/// the shared bins.
#[offload_kernel]
pub fn histogram_chunks(data: &[u8], bins: &mut [u32]) {
    let tid = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let mut local = [0u32; 4];
    for chunk in data.chunks(64).skip(tid).step_by(1024).take(1) {
        for &b in chunk {
            local[(b >> 6) as usize] += 1;
        }
    }
    for (k, v) in local.iter().enumerate() {
        if *v > 0 {
            unsafe {
                atomic_add(&mut bins[k], *v);
            }
        }
    }
}

#[derive(Clone, Copy)]
enum Step {
    Add(f32),
    Scale(f32),
    Clamp { lo: f32, hi: f32 },
    Nop,
}

fn apply(step: Step, v: f32) -> f32 {
    match step {
        Step::Add(a) => v + a,
        Step::Scale(s) => v * s,
        Step::Clamp { lo, hi } => v.clamp(lo, hi),
        Step::Nop => v,
    }
}

fn reduce_with<T: Copy, F: Fn(T, T) -> T>(xs: &[T], init: T, f: F) -> T {
    let mut acc = init;
    for &x in xs {
        acc = f(acc, x);
    }
    acc
}

struct Matrix<const N: usize> {
    data: [[f32; N]; N],
}

impl<const N: usize> Matrix<N> {
    fn identity() -> Self {
        let mut data = [[0.0; N]; N];
        for i in 0..N {
            data[i][i] = 1.0;
        }
        Matrix { data }
    }
    fn mul_vec(&self, v: [f32; N]) -> [f32; N] {
        let mut out = [0.0; N];
        for (o, row) in out.iter_mut().zip(self.data.iter()) {
            *o = row.iter().zip(v.iter()).map(|(a, b)| a * b).sum();
        }
        out
    }
}

/// A pipeline of steps chosen from the data, the spread of a window of three, and an identity
/// matrix's product with it, weighted from the end.
#[offload_kernel]
pub fn steps_and_windows(x: &[f32], y: &mut [f32]) {
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    if i + 3 <= x.len() && i < y.len() {
        let steps = [
            Step::Add(x[i]),
            if x[i + 1] > 0.0 { Step::Scale(x[i + 1]) } else { Step::Nop },
            Step::Clamp { lo: -0.5, hi: 0.75 },
        ];
        let w = &x[i..i + 3];
        let spread = reduce_with(w, f32::NEG_INFINITY, f32::max)
            - w.iter().copied().fold(f32::INFINITY, f32::min);
        let m = Matrix::<3>::identity();
        let r = m.mul_vec([w[0], w[1], w[2]]);
        let weighted = r.iter().rev().enumerate().map(|(k, v)| k as f32 * v).sum::<f32>();
        y[i] = steps.iter().fold(spread, |acc, &s| apply(s, acc)) + weighted;
    }
}

fn parse_digit(c: u8) -> Result<u32, ()> {
    if c.is_ascii_digit() { Ok((c - b'0') as u32) } else { Err(()) }
}

fn parse_num(s: &[u8]) -> Result<u32, ()> {
    let mut n = 0u32;
    for &c in s {
        n = n.checked_mul(10).ok_or(())?.checked_add(parse_digit(c)?).ok_or(())?;
    }
    Ok(n)
}

/// The number at each thread's start in a text of digits and spaces (`u32::MAX` where it does
/// not parse), then a labelled break out of two loops.
#[offload_kernel]
pub fn numbers(raw: &[u8], starts: &[u32], out: &mut [u32]) {
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let (Some(&s), Some(o)) = (starts.get(i), out.get_mut(i)) else { return };
    // Digits, spaces every few bytes, and now and then a letter, from the raw bytes.
    let mut text = [0u8; 48];
    for (t, &r) in text.iter_mut().zip(raw.iter().skip(i % 16)) {
        *t = match r % 16 {
            0..=9 => b'0' + r % 10,
            10..=13 => b' ',
            _ => b'x',
        };
    }
    let s = s as usize % text.len();
    let end = text[s..].iter().position(|&c| c == b' ').map_or(text.len(), |p| s + p);
    *o = match parse_num(&text[s..end]) {
        Ok(n) => n,
        Err(()) => u32::MAX,
    };
    'outer: for a in 0..3u32 {
        for b in 0..3u32 {
            if a * b == 4 {
                *o = o.wrapping_add(a + b);
                break 'outer;
            }
        }
    }
}

trait Eval {
    fn eval(&self, x: f32) -> f32;
    fn eval2(&self, x: f32) -> f32 {
        self.eval(self.eval(x))
    }
}

struct Poly<const N: usize>([f32; N]);

impl<const N: usize> Eval for Poly<N> {
    fn eval(&self, x: f32) -> f32 {
        self.0.iter().rev().fold(0.0, |acc, c| acc * x + c)
    }
}

fn run(k: &impl Eval, x: f32) -> f32 {
    k.eval2(x)
}

/// A trait's default method through `impl Trait`, a sorted array, a closure that mutates what
/// it captures, `scan`, `take_while`, `max_by_key`, `max_by`, a slice split in two and swapped
/// element by element, and `flat_map` over exact chunks of a read-only input.
#[offload_kernel]
pub fn library_mix(a: &mut [f32], keys: &mut [u32], table: &[u32]) {
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    if i >= a.len() {
        return;
    }
    let p = Poly([1.0, 0.5, 0.25]);
    a[i] = run(&p, a[i]);
    let mut arr = [(a[i].clamp(-1e6, 1e6) * 8.0) as i32, 3, -7, 12, 0];
    arr.sort_unstable();
    let best = arr.iter().copied().max_by_key(|v| v.abs_diff(2)).unwrap_or(0);
    let mut count = 0;
    let mut bump = |d: i32| count += d;
    for v in arr.iter().take_while(|v| **v < 5) {
        bump(*v);
    }
    let running = arr
        .iter()
        .scan(0, |s, &v| {
            *s += v;
            Some(*s)
        })
        .filter(|s| *s > 0)
        .count() as i32;
    let half = keys.len() / 2;
    let (lo, hi) = keys.split_at_mut(half);
    if let (Some(l), Some(h)) = (lo.get_mut(i), hi.get_mut(i)) {
        core::mem::swap(l, h);
        *l = l.rotate_left(3) ^ u32::from_le_bytes([1, 2, 3, 4]);
    }
    let m = arr.iter().map(|&v| v as f32).max_by(|x, y| x.partial_cmp(y).unwrap()).unwrap();
    let total = table
        .chunks_exact(4)
        .skip(i % 4)
        .flat_map(|c| c.iter())
        .take(8)
        .fold(0u32, |acc, v| acc.wrapping_add(*v));
    a[i] +=
        (best + count + running) as f32 + m + f32::from_bits(0x3f80_0000) + (total % 1000) as f32;
}
