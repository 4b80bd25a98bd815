//! Inherent `impl` blocks of `#[repr(C)]` structs: associated functions (`Vec2::new`, with
//! `Self`), methods taking `self`, `&self` and `&mut self` (which changes the caller's value,
//! also through a `*mut` pointer), chained calls, and methods returning structs.
use rkc_offload::prelude::*;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Vec2 {
    pub x: f32,
    pub y: f32,
}

impl Vec2 {
    pub const fn new(x: f32, y: f32) -> Self {
        Self { x, y }
    }

    pub fn dot(self, o: Vec2) -> f32 {
        self.x * o.x + self.y * o.y
    }

    pub fn scaled(&self, k: f32) -> Vec2 {
        Vec2::new(self.x * k, self.y * k)
    }

    pub fn add(self, o: Self) -> Self {
        Self { x: self.x + o.x, y: self.y + o.y }
    }

    pub fn normalize(&mut self) {
        let n = self.dot(*self).sqrt();
        if n > 0.0 {
            self.x /= n;
            self.y /= n;
        }
    }
}

/// Vector arithmetic through methods, and a `&mut self` method on a local.
#[offload_kernel]
pub fn vectors(xs: *const [f32; 64], out: *mut [f32; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let mut v = Vec2::new((*xs)[t], (*xs)[63 - t]);
        let w = v.scaled(0.5).add(Vec2 { x: 1.0, y: -1.0 });
        v.normalize();
        (*out)[t] = v.dot(w) + w.x;
    }
}

/// Welford's running mean and variance: a struct that a `&mut self` method updates.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Running {
    pub n: u32,
    pub mean: f64,
    pub m2: f64,
}

impl Running {
    pub fn empty() -> Running {
        Running { n: 0, mean: 0.0, m2: 0.0 }
    }

    pub fn push(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

    pub fn variance(&self) -> f64 {
        if self.n < 2 { 0.0 } else { self.m2 / (self.n - 1) as f64 }
    }
}

/// Each thread's statistics of eight values, kept in a local and in an array of structs
/// behind a `*mut` (whose elements the `&mut self` method changes in place).
#[offload_kernel]
pub fn statistics(xs: *const [f64; 64], stats: *mut [Running; 64], out: *mut [f64; 64]) {
    // SAFETY: indices are checked; each thread owns its element of `stats`.
    unsafe {
        let t = thread_idx_x() as usize;
        let mut r = Running::empty();
        (*stats)[t] = Running::empty();
        for k in 0..8 {
            let x = (*xs)[(t + k * 9) % 64];
            r.push(x);
            (*stats)[t].push(x * 2.0);
        }
        (*out)[t] = r.mean + r.variance();
    }
}
