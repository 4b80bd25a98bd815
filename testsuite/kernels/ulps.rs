//! Every float function kernels can call, each into its own stretch of the output, so that the
//! GPU conformance run reports each one's error in ULPs against an `f64` reference (see
//! src/bin/conformance.rs). The differential test holds the interpreter to rustc exactly.
use rkc_offload::prelude::*;

/// The number of functions `ulps_f32` and `ulps_f64` compute.
pub const FUNCTIONS: usize = 32;

/// The functions' names, in the order of the outputs.
pub const NAMES: [&str; FUNCTIONS] = [
    "sqrt", "exp", "exp2", "ln", "log2", "log10", "sin", "cos", "tan", "tanh", "powf", "powi",
    "mul_add", "atan2", "hypot", "recip", "floor", "round", "abs", "min", "copysign", "asin",
    "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "cbrt", "exp_m1", "ln_1p",
];

#[offload_kernel]
pub fn ulps_f32(xs: &[f32], out: &mut [f32]) {
    // SAFETY: builtins only.
    let i = unsafe { global_idx_x() };
    let n = xs.len();
    if i < n && out.len() == FUNCTIONS * n {
        let x = xs[i];
        let a = x.abs();
        out[0 * n + i] = a.sqrt();
        out[1 * n + i] = x.exp();
        out[2 * n + i] = x.exp2();
        out[3 * n + i] = a.ln();
        out[4 * n + i] = a.log2();
        out[5 * n + i] = a.log10();
        out[6 * n + i] = x.sin();
        out[7 * n + i] = x.cos();
        out[8 * n + i] = x.tan();
        out[9 * n + i] = x.tanh();
        out[10 * n + i] = a.powf(0.7);
        out[11 * n + i] = x.powi(3);
        out[12 * n + i] = x.mul_add(1.5, -0.25);
        out[13 * n + i] = x.atan2(0.5);
        out[14 * n + i] = x.hypot(1.5);
        out[15 * n + i] = x.recip();
        out[16 * n + i] = x.floor();
        out[17 * n + i] = x.round();
        out[18 * n + i] = x.abs();
        out[19 * n + i] = x.min(0.5);
        out[20 * n + i] = x.copysign(-1.0);
        // x / 128 is exact, and in (-1, 1) where these are defined.
        let s = x * 0.0078125;
        out[21 * n + i] = s.asin();
        out[22 * n + i] = s.acos();
        out[23 * n + i] = x.atan();
        out[24 * n + i] = x.sinh();
        out[25 * n + i] = x.cosh();
        out[26 * n + i] = x.asinh();
        out[27 * n + i] = a.acosh();
        out[28 * n + i] = s.atanh();
        out[29 * n + i] = x.cbrt();
        out[30 * n + i] = x.exp_m1();
        out[31 * n + i] = a.ln_1p();
    }
}

#[offload_kernel]
pub fn ulps_f64(xs: &[f64], out: &mut [f64]) {
    // SAFETY: builtins only.
    let i = unsafe { global_idx_x() };
    let n = xs.len();
    if i < n && out.len() == FUNCTIONS * n {
        let x = xs[i];
        let a = x.abs();
        out[0 * n + i] = a.sqrt();
        out[1 * n + i] = x.exp();
        out[2 * n + i] = x.exp2();
        out[3 * n + i] = a.ln();
        out[4 * n + i] = a.log2();
        out[5 * n + i] = a.log10();
        out[6 * n + i] = x.sin();
        out[7 * n + i] = x.cos();
        out[8 * n + i] = x.tan();
        out[9 * n + i] = x.tanh();
        out[10 * n + i] = a.powf(0.7);
        out[11 * n + i] = x.powi(3);
        out[12 * n + i] = x.mul_add(1.5, -0.25);
        out[13 * n + i] = x.atan2(0.5);
        out[14 * n + i] = x.hypot(1.5);
        out[15 * n + i] = x.recip();
        out[16 * n + i] = x.floor();
        out[17 * n + i] = x.round();
        out[18 * n + i] = x.abs();
        out[19 * n + i] = x.min(0.5);
        out[20 * n + i] = x.copysign(-1.0);
        // x / 128 is exact, and in (-1, 1) where these are defined.
        let s = x * 0.0078125;
        out[21 * n + i] = s.asin();
        out[22 * n + i] = s.acos();
        out[23 * n + i] = x.atan();
        out[24 * n + i] = x.sinh();
        out[25 * n + i] = x.cosh();
        out[26 * n + i] = x.asinh();
        out[27 * n + i] = a.acosh();
        out[28 * n + i] = s.atanh();
        out[29 * n + i] = x.cbrt();
        out[30 * n + i] = x.exp_m1();
        out[31 * n + i] = a.ln_1p();
    }
}

/// Function `k` of `NAMES` in `f64`: the reference the GPU's `f32` results are measured
/// against (rounded to `f32`, it is the correctly rounded result but for rare double roundings).
pub fn reference(k: usize, x: f64) -> f64 {
    let a = x.abs();
    match k {
        0 => a.sqrt(),
        1 => x.exp(),
        2 => x.exp2(),
        3 => a.ln(),
        4 => a.log2(),
        5 => a.log10(),
        6 => x.sin(),
        7 => x.cos(),
        8 => x.tan(),
        9 => x.tanh(),
        10 => a.powf(0.7),
        11 => x.powi(3),
        12 => x.mul_add(1.5, -0.25),
        13 => x.atan2(0.5),
        14 => x.hypot(1.5),
        15 => x.recip(),
        16 => x.floor(),
        17 => x.round(),
        18 => x.abs(),
        19 => x.min(0.5),
        20 => x.copysign(-1.0),
        21 => (x * 0.0078125).asin(),
        22 => (x * 0.0078125).acos(),
        23 => x.atan(),
        24 => x.sinh(),
        25 => x.cosh(),
        26 => x.asinh(),
        27 => a.acosh(),
        28 => (x * 0.0078125).atanh(),
        29 => x.cbrt(),
        30 => x.exp_m1(),
        _ => a.ln_1p(),
    }
}
