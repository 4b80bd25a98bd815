//! Closures and function items as values, in the shapes krnl and rust-gpu kernels use:
//! generic helpers taking `F: Fn`, `FnMut` and `FnOnce`, closures returned as `impl Fn`
//! and composed, closures kept in a generic struct, `move` closures capturing copies, and
//! function items and methods passed by name (`.map(f32::sqrt)`, `.fold(0.0, f32::max)`,
//! `.map(u32::count_ones)`).
use rkc_offload::prelude::*;

fn compose<A, B, C>(f: impl Fn(A) -> B, g: impl Fn(B) -> C) -> impl Fn(A) -> C {
    move |x| g(f(x))
}

fn affine(scale: f32, shift: f32) -> impl Fn(f32) -> f32 {
    move |x| x.mul_add(scale, shift)
}

/// A tone curve: a closure in a generic struct, applied with a clamp around it.
struct Curve<F: Fn(f32) -> f32> {
    f: F,
    lo: f32,
    hi: f32,
}

impl<F: Fn(f32) -> f32> Curve<F> {
    fn apply(&self, x: f32) -> f32 {
        (self.f)(x).clamp(self.lo, self.hi)
    }
}

/// Tone mapping: composed closures and function items applied over each thread's four
/// samples.
#[offload_kernel]
pub fn tone_map(xs: &[f32], out: &mut [f32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let Some(samples) = xs.get(4 * i..4 * i + 4) else { return };
    let exposure = 0.02f32;
    let normalise = compose(f32::abs, affine(exposure, 0.0));
    // Reinhard's operator, x / (1 + x), as a capturing closure composed with the rest.
    let reinhard = compose(normalise, |x: f32| x / (1.0 + x));
    let curve = Curve { f: compose(reinhard, f32::sqrt), lo: 0.0, hi: 0.95 };
    let mapped = samples.iter().copied().map(|x| curve.apply(x));
    let brightest = samples.iter().copied().map(f32::abs).fold(0.0, f32::max);
    let total: f32 = mapped.sum();
    if let Some(o) = out.get_mut(i) {
        *o = total + curve.apply(brightest) * 10.0;
    }
}

/// Newton's method for a root of `f`, with its derivative `df`: both closures, monomorphised.
fn newton<F, D>(f: F, df: D, mut x: f64, steps: u32) -> f64
where
    F: Fn(f64) -> f64,
    D: Fn(f64) -> f64,
{
    for _ in 0..steps {
        let slope = df(x);
        if slope == 0.0 {
            break;
        }
        x -= f(x) / slope;
    }
    x
}

/// Cube roots and a root of a cubic whose coefficients the closures capture.
#[offload_kernel]
pub fn roots(xs: *const [f32; 64], out: *mut [f64; 64]) {
    // SAFETY: the pointers are mapped for the launch; indices are taken modulo 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let a = f64::from((*xs)[t]);
        let b = f64::from((*xs)[(t + 3) % 64]) / 10.0;
        let cube_root = newton(|x| x * x * x - a, |x| 3.0 * x * x, a.signum() * 2.0, 20);
        // x^3 + b x + 1 has one real root for b > 0; take |b| so that it does.
        let c = b.abs();
        let cubic = newton(move |x| x * x * x + c * x + 1.0, move |x| 3.0 * x * x + c, 0.0, 12);
        (*out)[t] = cube_root * 1000.0 + cubic;
    }
}

fn repeat_with<F: FnMut() -> u32>(n: usize, mut f: F) -> u32 {
    (0..n).map(|_| f()).fold(0, |a, b| a ^ b)
}

fn finish<F: FnOnce() -> [u32; 4]>(f: F) -> u32 {
    let parts = f();
    parts.iter().map(|p| p.count_ones()).sum()
}

/// State carried in closures: an `FnMut` generator mutating a captured seed, an `FnOnce`
/// consuming a captured array, a sort key closure, and `u32` methods passed by name.
#[offload_kernel]
pub fn generators(seeds: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: the pointers are mapped for the launch; indices are taken modulo 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let mut seed = (*seeds)[t] | 1;
        let mut draws = 0u32;
        let mixed = repeat_with(t % 7 + 1, || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            draws += 1;
            seed
        });
        let mut picks =
            [(*seeds)[(t + 1) % 64], (*seeds)[(t + 2) % 64], (*seeds)[(t + 3) % 64], seed];
        // The value breaks ties, so that the order does not depend on the sort's algorithm.
        picks.sort_unstable_by_key(|&p| (p.count_ones(), p));
        let owned = picks;
        let bits = finish(move || owned.map(u32::reverse_bits));
        let zeros: u32 = picks.iter().copied().map(u32::leading_zeros).sum();
        let is_odd = |x: &u32| x % 2 == 1;
        let odd = picks.iter().filter(|p| is_odd(p)).count() as u32;
        (*out)[t] = mixed ^ draws << 28 ^ bits << 16 ^ zeros << 8 ^ odd ^ picks[0];
    }
}
