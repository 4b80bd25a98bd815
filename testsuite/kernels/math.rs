//! The float methods kernels use, with Rust's semantics: correctly rounded `sqrt`, fused
//! `mul_add`, NaN-ignoring `min`/`max`, `powi` by square-and-multiply, `clamp`, the
//! classifications, bit casts, `hypot` (`f32`: glibc's result exactly), and the transcendental
//! functions (within the GPU's ULPs).
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn exact_math(
    xs: *const [f32; 64],
    ys: *const [f64; 64],
    out: *mut [f32; 64],
    dout: *mut [f64; 64],
    bits: *mut [u32; 64],
) {
    // SAFETY: all pointers are mapped for the launch; the thread index is below 64.
    unsafe {
        let i = thread_idx_x() as usize;
        let x = (*xs)[i];
        let y = (*ys)[i];
        let a = x.abs().sqrt() + x.floor() - x.ceil() * 0.5 + x.round() + x.trunc();
        let b = x.mul_add(1.5, -2.0) + x.min(a) - x.max(0.25) + x.copysign(-1.0) + x.recip();
        let c = x.powi(i as i32 - 32) + x.clamp(-3.0, 3.0);
        let flags =
            (x.is_nan() as u32) | ((x.is_finite() as u32) << 1) | ((c.is_infinite() as u32) << 2);
        (*out)[i] = a + b + c + x.hypot(b);
        (*dout)[i] = y.abs().sqrt()
            + y.mul_add(y, 1.0)
            + y.powi(3)
            + y.round()
            + f64::from_bits(y.to_bits() ^ 1);
        // `to_degrees` multiplies by one constant, rounded once on every device: core's
        // literal for `f32`, `180 / π` for `f64`.
        let degrees = x.to_degrees().to_bits() ^ (y.to_degrees().to_bits() >> 17) as u32;
        (*bits)[i] = a.to_bits()
            ^ flags
            ^ f32::from_bits(0x3f80_0000).to_bits()
            ^ f32::MAX.to_bits()
            ^ degrees.rotate_left(7)
            ^ (x * 0.01).to_radians().to_bits();
    }
}

#[offload_kernel]
pub fn integer_methods(xs: *const [i32; 64], us: *const [u32; 64], out: *mut [i64; 64]) {
    // SAFETY: all pointers are mapped for the launch; the thread index is below 64.
    unsafe {
        let i = thread_idx_x() as usize;
        let x = (*xs)[i];
        let u = (*us)[i];
        let a = x.abs() as i64 + x.min(7) as i64 + x.max(-7) as i64 + x.clamp(-100, 100) as i64;
        let b = x.wrapping_add(i32::MAX).wrapping_mul(3) as i64
            + x.saturating_add(i32::MAX) as i64
            + x.saturating_sub(i32::MAX) as i64;
        let c = u.count_ones() as i64
            + u.leading_zeros() as i64 * 100
            + u.trailing_zeros() as i64 * 10000;
        let d = u.rotate_left(i as u32) as i64
            + x.rotate_right(3) as i64
            + u.saturating_sub(1000) as i64
            + u.pow(i as u32 % 5) as i64;
        let e = (u.is_power_of_two() as i64)
            + (3i64).pow(i as u32 % 20)
            + u32::BITS as i64
            + i32::MIN as i64;
        let mut p = x;
        let mut q = u as i32;
        core::mem::swap(&mut p, &mut q);
        (*out)[i] = a ^ b ^ c ^ d ^ e ^ (p as i64 - q as i64);
    }
}

#[offload_kernel]
pub fn transcendental(xs: *const [f32; 64], out: *mut [f32; 64]) {
    // SAFETY: both pointers are mapped for the launch; the thread index is below 64.
    unsafe {
        let i = thread_idx_x() as usize;
        let x = (*xs)[i] * 0.03;
        (*out)[i] = x.exp()
            + x.abs().ln()
            + x.sin() * x.cos()
            + x.tanh()
            + x.exp2()
            + x.abs().log2()
            + x.abs().log10()
            + x.tan()
            + x.abs().powf(0.7)
            + x.atan2(0.5)
            + core::f32::consts::PI
            + (x as f64).hypot(1.5) as f32;
    }
}

/// The inverse hyperbolic functions, which std computes from `hypot`, `ln_1p`, `sqrt` and
/// `ln` (so does rkc's core), in both widths.
#[offload_kernel]
pub fn inverse_hyperbolic(
    xs: *const [f32; 64],
    ys: *const [f64; 64],
    out: *mut [f32; 64],
    dout: *mut [f64; 64],
) {
    // SAFETY: all pointers are mapped for the launch; the thread index is below 64.
    unsafe {
        let i = thread_idx_x() as usize;
        let (x, y) = ((*xs)[i], (*ys)[i]);
        (*out)[i] = x.asinh() + (x.abs() + 1.0).acosh() + (x * 0.009).atanh();
        (*dout)[i] = y.asinh() + (y.abs() + 1.0).acosh() + (y * 0.009).atanh();
    }
}

#[offload_kernel]
pub fn checked(xs: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: both pointers are mapped for the launch; the thread index is below 64.
    unsafe {
        let i = thread_idx_x() as usize;
        let x = (*xs)[i];
        assert!(i < 64, "thread index within the data");
        debug_assert!(x == x);
        if i == 1000 {
            panic!("unreachable thread");
        }
        (*out)[i] = x / 3;
    }
}
