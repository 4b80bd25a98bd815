//! Kernel parameters as the public projects declare them: references to arrays and to a
//! `#[repr(C)]` parameter struct (`&mut [f32; N]`, `&Params`), array lengths named by
//! constants, a struct named through its module path, and a `#[repr(u8)]` enum by value.
use rkc_offload::prelude::*;

pub const N: usize = 64;

pub mod types {
    #[repr(C)]
    #[derive(Clone, Copy, Debug, Default, rkc_offload::DeviceCopy)]
    pub struct Params {
        pub scale: f32,
        pub offset: f32,
        pub rounds: u32,
    }
}

#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, rkc_offload::DeviceCopy)]
pub enum Mode {
    Add = 0,
    Mul = 1,
    Max = 2,
}

/// `&mut [f32; N]` and `&[f32; N]` written with a named length, a parameter struct behind a
/// reference, and helpers that take references to elements and to the struct.
#[offload_kernel]
pub fn references(xs: &[f32; N], p: &types::Params, out: &mut [f32; N]) {
    // SAFETY: the builtin only reads the thread's position.
    let t = unsafe { thread_idx_x() } as usize;
    fn apply(x: &f32, p: &types::Params) -> f32 {
        let mut v = *x;
        for _ in 0..p.rounds % 4 {
            v = v * p.scale + p.offset;
        }
        v
    }
    if let (Some(x), Some(o)) = (xs.get(t), out.get_mut(t)) {
        *o = apply(x, p) + xs.iter().take(t % 4).sum::<f32>();
    }
}

/// A fieldless `#[repr(u8)]` enum passed by value chooses the operation.
#[offload_kernel]
pub fn by_mode(mode: Mode, a: &[u32; N], b: &[u32; N], out: &mut [u32; N]) {
    // SAFETY: the builtin only reads the thread's position.
    let t = unsafe { thread_idx_x() } as usize;
    out[t] = match mode {
        Mode::Add => a[t].wrapping_add(b[t]),
        Mode::Mul => a[t].wrapping_mul(b[t]),
        Mode::Max => a[t].max(b[t]),
    };
}
