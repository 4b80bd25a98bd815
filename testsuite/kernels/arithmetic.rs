//! Integer and float semantics of a Rust release build: wrapping arithmetic, shifts taken
//! modulo the width, signed and unsigned division and remainder, `as` casts (truncating,
//! extending, saturating float to int, NaN to 0), bitwise operators, unary minus and `!`.
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn arithmetic(
    xs: *const [i32; 64],
    fs: *const [f32; 64],
    out: *mut [i64; 64],
    fout: *mut [f64; 64],
) {
    // SAFETY: all pointers are mapped for the launch; the thread index is below 64.
    unsafe {
        let i = thread_idx_x() as usize;
        let x = (*xs)[i];
        let f = (*fs)[i];
        let wrapped = x * 65599 + 0x7fff_0000;
        let shifted = (x << (i as u32 + 30)) ^ (x >> (i as u32)) ^ ((x as u32 >> 3) as i32);
        let d = if x % 7 != 0 { x / (x % 7) + x % (x % 7) } else { -x };
        let u = x as u32;
        let ud = u / 3 + u % 5;
        let narrow = (x as i8) as i64 + (x as u16) as i64 + (x as u8 as i8) as i64;
        let saturated = (f * 1.0e10) as i32 as i64 + (f as u8) as i64 + ((f - f) / (f - f)) as i64;
        let bits = (!x & 0x0ff0) | (x ^ -x);
        let fl = -(f as f64) * 0.1 + (x as f64) / 3.0 + (u as f32 / 7.0) as f64;
        (*out)[i] = wrapped as i64
            + shifted as i64
            + d as i64
            + ud as i64
            + narrow
            + saturated
            + bits as i64;
        (*fout)[i] = fl;
    }
}
