//! Closures and the code organisation of real kernel files: closures stored in locals and
//! passed to generic helpers (`Fn`, `FnMut`, `FnOnce`), closures capturing by reference, by
//! `move` and mutably, closures returning closures' results, `macro_rules!` macros that
//! write expressions, statements and items, nested modules with `use super::*`, `pub(crate)`
//! items, local items inside a kernel, shadowing and labelled blocks.
use rkc_offload::prelude::*;

macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}

macro_rules! clamp_all {
    ($lo:expr, $hi:expr; $($v:ident),+) => {
        $( let $v = $v.clamp($lo, $hi); )+
    };
}

macro_rules! unit_fns {
    ($($name:ident => $k:expr),* $(,)?) => {
        $( fn $name(x: f32) -> f32 { x * $k } )*
    };
}

unit_fns!(to_mm => 10.0, to_cm => 1.0, to_m => 0.01);

mod physics {
    pub(crate) const G: f32 = 9.81;

    pub fn fall(t: f32) -> f32 {
        0.5 * G * square!(t)
    }

    pub mod drag {
        pub fn terminal(mass: f32, k: f32) -> f32 {
            (mass * super::G / k).sqrt()
        }
    }
}

use physics::drag;

fn integrate<F: Fn(f32) -> f32>(f: F, a: f32, b: f32, steps: u32) -> f32 {
    let h = (b - a) / steps as f32;
    (0..steps).map(|k| f(a + (k as f32 + 0.5) * h)).sum::<f32>() * h
}

fn run_n(n: u32, mut step: impl FnMut()) {
    for _ in 0..n {
        step();
    }
}

fn consume<T, R>(value: T, f: impl FnOnce(T) -> R) -> R {
    f(value)
}

#[offload_kernel]
pub fn closures(xs: *const [f32; 64], out: *mut [f32; 64]) {
    // SAFETY: `xs` and `out` are mapped for the launch; the thread index is below 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*xs)[t] / 50.0;
        let k = 1.5f32;
        let poly = |v: f32| k * v * v - v + 0.25;
        let area = integrate(poly, 0.0, x, 8);
        let area2 = integrate(|v| poly(v) * 2.0 + square!(v), -1.0, 1.0, 4);
        let mut total = 0.0f32;
        let mut calls = 0u32;
        run_n(t as u32 % 5, || {
            total += x;
            calls += 1;
        });
        let scale = 3.0f32;
        let scaled = consume([x, k, scale], move |a| a.iter().map(|v| v * scale).sum::<f32>());
        let pick = if t % 2 == 0 { to_mm(x) } else { to_m(x) + to_cm(x) };
        let x = x * 2.0;
        let (a, b) = (x, area);
        clamp_all!(-10.0, 10.0; a, b);
        let shadowed = {
            fn local_helper(v: f32) -> f32 {
                v.abs() + 1.0
            }
            local_helper(a - b)
        };
        let labelled = 'found: {
            for (i, v) in [a, b, pick].iter().enumerate() {
                if *v > 1.0 {
                    break 'found i as f32;
                }
            }
            -1.0
        };
        let phys = physics::fall(x.abs()) + drag::terminal(2.0, 0.5);
        (*out)[t] = area
            + area2
            + total
            + calls as f32
            + scaled
            + pick
            + shadowed
            + labelled
            + phys * 0.001;
    }
}

/// Return-position `impl Trait`: a closure and an iterator returned from helpers, and a
/// closure kept in a generic struct through a trait whose supertrait is `Fn` (rust-gpu's
/// difftests write their task blocks this way).
fn scaler(k: f32) -> impl Fn(f32) -> f32 {
    move |x| x * k + 1.0
}

fn evens(n: u32) -> impl Iterator<Item = u32> {
    (0..n).filter(|x| x % 2 == 0)
}

pub trait Step: Fn(u32, f32) -> f32 {}

impl<T: Fn(u32, f32) -> f32> Step for T {}

struct Task<F: Step> {
    rounds: core::ops::Range<u32>,
    step: F,
}

impl<F: Step> Task<F> {
    fn run(&self, mut x: f32) -> f32 {
        for i in self.rounds.clone() {
            x = (self.step)(i, x);
        }
        x
    }
}

fn task(bias: f32) -> Task<impl Step> {
    Task { rounds: 0..4, step: move |i, x| x * 0.5 + i as f32 + bias }
}

#[offload_kernel]
pub fn returned(xs: *const [f32; 64], out: *mut [f32; 64]) {
    // SAFETY: `xs` and `out` are mapped for the launch; the thread index is below 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*xs)[t];
        let f = scaler(0.25);
        let s: u32 = evens(t as u32).sum();
        (*out)[t] = f(x) + s as f32 + task(x).run(1.0);
    }
}
