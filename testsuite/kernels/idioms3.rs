//! Kernels in the shapes public Rust GPU projects write them in: small vector types with
//! operator impls, a `Shape` trait, `let ... else`, `Option` and `Result`
//! chains with `?`, closures passed to generic functions, const-generic matrices, iterator
//! chains (`filter_map`, `fold`, `scan`, `take_while`, `max_by_key`, `flat_map`), slices split
//! and swapped, labelled breaks, and (`odds_and_ends`) lookup tables, `impl Iterator` and `impl Fn`
//! returns and the patterns and slice methods a port meets.

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

const LUT: [u8; 8] = [3, 1, 4, 1, 5, 9, 2, 6];
static WEIGHTS: [f32; 3] = [0.25, 0.5, 0.25];

struct Counter {
    n: u32,
    limit: u32,
}
impl Iterator for Counter {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.n < self.limit {
            self.n += 1;
            Some(self.n)
        } else {
            None
        }
    }
}

fn evens(limit: u32) -> impl Iterator<Item = u32> {
    Counter { n: 0, limit }.filter(|x| x % 2 == 0)
}
fn scaler(k: f32) -> impl Fn(f32) -> f32 {
    move |x| x * k
}

#[derive(Clone, Copy, PartialEq, PartialOrd, Debug, Default)]
struct Meters(f32);

struct Stats<T> {
    min: T,
    max: T,
}
impl<T> Stats<T>
where
    T: PartialOrd + Copy,
{
    fn of(xs: &[T]) -> Option<Self> {
        let (&first, rest) = xs.split_first()?;
        Some(rest.iter().fold(Stats { min: first, max: first }, |s, &x| Stats {
            min: if x < s.min { x } else { s.min },
            max: if x > s.max { x } else { s.max },
        }))
    }
}

enum Figure {
    Circle(f32),
    Rect { w: f32, h: f32 },
    Tri(f32, f32, f32),
}
fn area(s: &Figure) -> f32 {
    match *s {
        Figure::Circle(r) if r > 0.0 => 3.14159 * r * r,
        Figure::Circle(_) => 0.0,
        Figure::Rect { w, h } => w * h,
        Figure::Tri(a, b, c) => {
            let s = (a + b + c) / 2.0;
            (s * (s - a) * (s - b) * (s - c)).max(0.0).sqrt()
        }
    }
}

fn classify(v: u32) -> u32 {
    match v {
        0 => 100,
        x @ 1..=5 => x * 10,
        6 | 7 => 7,
        _ if v.is_power_of_two() => v.trailing_zeros(),
        _ => v.leading_zeros(),
    }
}

/// Constants and statics as lookup tables, an `Iterator` impl behind `impl Iterator`, a closure
/// returned as `impl Fn`, `array::from_fn` and `array::map`, a generic struct with a `where`
/// clause built by `split_first` and `?`, a newtype compared by its derived `PartialOrd`, match
/// guards, `x @ a..=b` bindings and `|` patterns, `matches!`, `else if let`, `windows`, `all`,
/// `position`, `binary_search` and an enumerated iterator walked backwards.
#[offload_kernel]
pub fn odds_and_ends(x: &[f32], out: &mut [f32], codes: &mut [u32]) {
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    if i >= out.len() || i >= codes.len() {
        return;
    }
    let s: u32 = evens(10).map(|e| e * LUT[(e as usize) % LUT.len()] as u32).sum();
    let f = scaler(0.5);
    let window: [f32; 3] = core::array::from_fn(|k| x.get(i + k).copied().unwrap_or(0.0));
    let smooth: f32 = window.iter().zip(WEIGHTS.iter()).map(|(a, w)| a * w).sum();
    let stats = Stats::of(&window).map_or(0.0, |st| st.max - st.min);
    let m = [Meters(window[0]), Meters(window[1])];
    let longer = if m[0] > m[1] { m[0] } else { m[1] };
    let shapes = [
        Figure::Circle(window[0].abs()),
        Figure::Rect { w: window[1], h: 2.0 },
        Figure::Tri(3.0, 4.0, 5.0),
    ];
    let total_area: f32 = shapes.iter().map(area).sum();
    let squares = window.map(|v| v.powi(2));
    let sorted = window.windows(2).all(|w| w[0] <= w[1]);
    let pos = window.iter().position(|&v| v > 0.0).map(|p| p as f32).unwrap_or(-1.0);
    out[i] = f(smooth)
        + stats
        + longer.0
        + total_area
        + squares[2].mul_add(0.5, 1.0)
        + pos
        + if sorted { 1.0 } else { 0.0 };
    let v = (x[i].abs() as u32) % 40;
    codes[i] = classify(v)
        + s
        + if matches!(v, 10..=19) { 1 } else { 0 }
        + ((i as i32 - 3).signum() + 1) as u32
        + 2u32.pow(3);
    if let Some(&w) = x.get(i + 1) {
        if w > 0.0 {
            codes[i] += 1
        }
    } else if let Some(&w) = x.first() {
        codes[i] += w as u32 % 3
    }
    for (k, v) in window.iter().enumerate().rev() {
        if *v > 50.0 {
            codes[i] ^= k as u32;
            break;
        }
    }
    let sorted_keys = [1u32, 4, 9, 16, 25];
    codes[i] += match sorted_keys.binary_search(&(v % 26)) {
        Ok(p) => p as u32,
        Err(p) => 10 + p as u32,
    };
}
