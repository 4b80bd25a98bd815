//! 16-bit floats as kernels use them, through the `half` crate's `f16` and `bf16`: arithmetic
//! in the 16-bit type itself (an fp16 axpy with the scale passed by value), mixed precision
//! (bf16 weights and f16 activations accumulated in f32), and the crate's methods, constants,
//! conversions and operator traits, with infinities, subnormals and signed zeros among the
//! inputs.
use core::cmp::Ordering;
use half::{bf16, f16};
use rkc_offload::prelude::*;

/// A constant computed at compile time from a `const fn` of the crate.
const HALF: f16 = f16::from_f32_const(0.5);

/// `y = a * x + y`, each operation rounded to f16.
#[offload_kernel]
pub fn half_axpy(a: f16, x: &[f16], y: &mut [f16]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { block_idx_x() * block_dim_x() + thread_idx_x() } as usize;
    if let (Some(&xi), Some(yi)) = (x.get(i), y.get_mut(i)) {
        *yi = a * xi + *yi;
    }
}

/// One output per thread: a row of 16 bf16 weights times the f16 activations, accumulated in
/// f32, plus a bias, through a ReLU; stored as bf16 and as f32.
#[offload_kernel]
pub fn mixed_gemv(w: &[bf16], x: &[f16], bias: &[f32], out: &mut [bf16], out32: &mut [f32]) {
    const K: usize = 16;
    // SAFETY: the builtins only read the thread's position.
    let row = unsafe { thread_idx_x() } as usize;
    let acc: f32 = w[row * K..(row + 1) * K]
        .iter()
        .zip(x.iter())
        .map(|(a, b)| a.to_f32() * f32::from(*b))
        .sum();
    let v = (acc + bias[row]).max(0.0);
    out[row] = bf16::from_f32(v);
    out32[row] = v;
}

/// The input with a few special values mixed in: infinities, NaN, subnormals, signed zeros and
/// the extremes.
fn special(h: f16, i: usize) -> f16 {
    match i % 16 {
        9 => f16::INFINITY,
        10 => f16::NEG_ZERO,
        11 => f16::MIN_POSITIVE_SUBNORMAL,
        12 => f16::MAX,
        13 => -f16::MIN_POSITIVE,
        14 => f16::NAN,
        _ => h,
    }
}

/// Status bits of one value: each comparison and classification `half` offers.
fn flags(h: f16, g: f16) -> u16 {
    let mut bits = h.is_finite() as u16;
    bits |= (h.is_nan() as u16) << 1;
    bits |= (h.is_infinite() as u16) << 2;
    bits |= (h.is_normal() as u16) << 3;
    bits |= (h.is_sign_negative() as u16) << 4;
    bits |= ((h < g) as u16) << 5;
    bits |= ((h <= g) as u16) << 6;
    bits |= ((h == -g) as u16) << 7;
    bits |= ((h != g) as u16) << 8;
    bits |= ((h >= f16::ZERO) as u16) << 9;
    bits |= match h.partial_cmp(&g) {
        Some(Ordering::Less) => 1,
        Some(Ordering::Equal) => 2,
        Some(Ordering::Greater) => 3,
        None => 0,
    } << 10;
    bits |= match h.total_cmp(&g) {
        Ordering::Less => 1,
        Ordering::Equal => 2,
        Ordering::Greater => 3,
    } << 12;
    bits
}

/// Twelve f16 results and four bf16 results per thread from the `half` API. Results are
/// stored as floats, so that a NaN compares as any NaN (its payload is the platform's).
#[offload_kernel]
pub fn half_methods(hs: &[f16], bs: &[bf16], out: &mut [f16], bout: &mut [bf16]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { thread_idx_x() } as usize;
    let h = special(hs[i], i);
    let g = special(hs[(i + 5) % hs.len()], i + 3);
    let b = bs[i];
    let o = &mut out[i * 12..(i + 1) * 12];
    o[0] = h * f16::from_f32(0.125) - g / f16::from(3u8);
    o[1] = f16::from_bits(h.max(g).to_bits() ^ h.min(g).to_bits().rotate_left(3));
    o[2] = h.clamp(f16::from(-50i8), f16::from(50u8));
    o[3] = h % g;
    o[4] = (-h).copysign(g).signum();
    o[5] = f16::from_f64(h.to_f64() * 1.000_001 + 1e-9);
    o[6] = f16::from_bits(flags(h, g));
    o[7] = [h, g, f16::ONE, f16::EPSILON].iter().sum::<f16>();
    o[8] = hs[i / 4 * 4..i / 4 * 4 + 4].iter().map(|v| *v * HALF * HALF * HALF).product::<f16>();
    o[9] = f16::from_le_bytes(h.to_be_bytes());
    let mut acc = f16::ZERO;
    for v in &hs[..8] {
        acc += *v * HALF;
        acc -= f16::from_bits(0x0001);
    }
    acc /= f16::PI;
    o[10] = acc;
    let widened: f32 = h.into();
    o[11] = f16::from_f32(widened * 3.0) + f16::default();

    let mut x = b;
    x -= bf16::ONE;
    x *= bf16::from(-2i8);
    x /= bf16::from_bits(0x4040);
    bout[i * 4] = b * bf16::from_f32(h.to_f32()) + bf16::PI;
    bout[i * 4 + 1] = bf16::from_f64(b.to_f64() / 7.0);
    bout[i * 4 + 2] = bf16::from_f32(g.to_f32()).max(b.signum());
    bout[i * 4 + 3] = x % bf16::E;
}
