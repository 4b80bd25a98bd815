//! Idioms met in kernels ported from public Rust GPU projects (Rust-CUDA, cuda-oxide, rust-gpu,
//! krnl, upstream's offload tests), each written the way those projects write it: bit casts
//! through `transmute` and byte arrays, `MaybeUninit` and `NonNull`, pointer distances, the
//! newer float and integer methods, `*slice.first().unwrap()`, a module that imports
//! `core::f32`, and a 32-byte-aligned vector type crossing to the host.
use rkc_offload::prelude::*;

/// Uses `f32` both as the module `core::f32` and as the type, as rust-gpu's shaders do.
mod shading {
    use core::f32;

    pub fn falloff(d: f32) -> f32 {
        let k = f32::consts::PI * d;
        if k > f32::MAX / 4.0 { 0.0 } else { f32::from_bits(k.to_bits() & !1) }
    }
}

/// A vector aligned to 32 bytes, as cuda-oxide's vectorisation examples declare theirs.
#[repr(C, align(32))]
#[derive(Clone, Copy, DeviceCopy)]
pub struct V4([f64; 4]);

/// A struct holding one: its field starts at byte 32, and it is 64 bytes long.
#[repr(C)]
#[derive(Clone, Copy, DeviceCopy)]
pub struct Tagged {
    pub tag: u8,
    pub v: V4,
}

/// Bit casts, bytes and the newer methods of the primitive types, one result per line.
#[offload_kernel]
pub fn bit_tricks(xs: &[f32], out: &mut [u32]) {
    // SAFETY: the builtin only reads this thread's position; transmutes are between types of
    // equal size.
    let i = unsafe { global_idx_x() };
    if let (Some(&x), Some(o)) = (xs.get(i), out.get_mut(8 * i..8 * i + 8)) {
        let halves: [u16; 2] = unsafe { core::mem::transmute(x) };
        o[0] = unsafe { core::mem::transmute::<[u16; 2], u32>([halves[1], halves[0]]) };
        let bytes = x.to_ne_bytes();
        o[1] = u32::from_le_bytes(bytes) ^ f32::from_be_bytes(x.to_be_bytes()).to_bits();
        let back: f32 = unsafe { core::mem::transmute(halves) };
        o[2] = (back.round_ties_even() as i32) as u32;
        o[3] = x.midpoint(1.5).to_bits();
        o[4] = 1u32.unbounded_shl(i as u32 % 40) | 0x8000_0000u32.unbounded_shr(i as u32 % 36);
        o[5] = core::hint::select_unpredictable(x > 0.0, 7, 9);
        o[6] = shading::falloff(x.abs()).to_bits();
        o[7] = ((i as i32).unbounded_shr(40) as u32) ^ (-(i as i64)).unbounded_shr(70) as u32;
    }
}

/// `MaybeUninit`, `NonNull` and pointer distances, the way Rust-CUDA's tests use them.
#[offload_kernel]
pub fn raw_parts(xs: &mut [u32], out: &mut [i64]) {
    // SAFETY: thread i touches xs[i] and out[2i..2i + 2] only; every pointer stays inside xs.
    let i = unsafe { global_idx_x() };
    if i < xs.len() && 2 * i + 1 < out.len() {
        let mut slot: core::mem::MaybeUninit<[u32; 3]> = core::mem::MaybeUninit::uninit();
        slot.write([xs[i], 2, 3]);
        let v = unsafe { slot.assume_init() };
        let mut p = core::ptr::NonNull::from(&mut xs[i]);
        unsafe { *p.as_mut() = v[0] + v[1] * v[2] };
        let base = xs.as_ptr();
        let here = p.as_ptr() as *const u32;
        out[2 * i] = unsafe { p.as_ptr().offset_from(base) } as i64;
        out[2 * i + 1] =
            unsafe { here.offset_from_unsigned(base) } as i64 + unsafe { p.read() } as i64;
    }
}

/// The first, last and largest elements through `unwrap` on `Option<&T>`, and a row of
/// 32-byte-aligned vectors summed into a struct that holds one.
#[offload_kernel]
pub fn aligned_rows(rows: &[V4], firsts: &mut [f64], out: &mut [Tagged]) {
    // SAFETY: thread i writes firsts[i] and out[i] only.
    let i = unsafe { global_idx_x() };
    if let (Some(row), Some(f), Some(o)) = (rows.get(i), firsts.get_mut(i), out.get_mut(i)) {
        let r = &row.0;
        *f = *r.first().unwrap()
            + *r.last().unwrap() * 2.0
            + *r.iter().max_by(|a, b| a.total_cmp(b)).expect("four elements");
        let mut sum = [0.0f64; 4];
        for (k, s) in sum.iter_mut().enumerate() {
            *s = r[k] + rows[(i + 1) % rows.len()].0[k];
        }
        *o = Tagged { tag: (i % 251) as u8, v: V4(sum) };
    }
}

/// A struct holding the struct that holds the aligned vector: aligned to 32 bytes too, so its
/// `inner` starts at byte 32 and it is 96 bytes long, as rustc lays it out.
#[repr(C)]
#[derive(Clone, Copy, DeviceCopy)]
pub struct Row {
    pub flag: u16,
    pub inner: Tagged,
}

#[offload_kernel]
pub fn nested_aligned(rows: &[V4], out: &mut [Row]) {
    // SAFETY: thread i writes out[i] only.
    let i = unsafe { global_idx_x() };
    if let (Some(row), Some(o)) = (rows.get(i), out.get_mut(i)) {
        let doubled = V4(row.0.map(|x| 2.0 * x));
        *o = Row { flag: 0xa5a5 ^ i as u16, inner: Tagged { tag: (i % 7) as u8, v: doubled } };
    }
}
