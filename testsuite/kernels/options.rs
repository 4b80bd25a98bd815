//! `Option` and `Result` as public Rust GPU projects use them: `if let Some(x) =
//! out.get_mut(i)`, `get`, combinators (`map`, `and_then`, `filter`, `unwrap_or`, `zip`,
//! `ok_or`), `?` in helpers returning `Option` and `Result`, a custom error enum, `match`
//! on both, `while let` over `Option`s, and `matches!`.
use rkc_offload::prelude::*;

/// A helper in the style of Rust-CUDA's examples: `None` outside the data.
fn neighbour(xs: &[f32], i: usize, offset: isize) -> Option<f32> {
    let j = i.checked_add_signed(offset)?;
    xs.get(j).copied()
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum StepError {
    Negative,
    TooLarge(u32),
}

fn checked_step(v: f32) -> Result<u32, StepError> {
    if v < 0.0 {
        return Err(StepError::Negative);
    }
    let n = v as u32;
    if n > 50 { Err(StepError::TooLarge(n)) } else { Ok(n * 2) }
}

fn two_steps(a: f32, b: f32) -> Result<u32, StepError> {
    let x = checked_step(a)?;
    let y = checked_step(b)?;
    Ok(x + y)
}

fn code(e: StepError) -> u32 {
    match e {
        StepError::Negative => 1000,
        StepError::TooLarge(n) if n > 90 => 2000 + n,
        StepError::TooLarge(_) => 3000,
    }
}

/// A three-point average where the edges only see their inner neighbour, written with
/// `Option` the way safe kernels are written; the result goes through `get_mut`.
#[offload_kernel]
pub fn smooth(xs: &[f32], out: &mut [f32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let Some(&here) = xs.get(i) else { return };
    let left = neighbour(xs, i, -1);
    let right = neighbour(xs, i, 1);
    let (sum, n) =
        [left, Some(here), right].iter().flatten().fold((0.0f32, 0u32), |(s, n), x| (s + x, n + 1));
    if let Some(slot) = out.get_mut(i) {
        *slot = sum / n as f32;
    }
}

/// Combinators and `?` over `Option` and `Result`.
#[offload_kernel]
pub fn combinators(xs: *const [f32; 64], out: *mut [u32; 64]) {
    // SAFETY: `xs` and `out` are mapped for the launch; the thread index is below 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*xs)[t];
        let half = Some(x).filter(|v| *v > -50.0).map(|v| v / 2.0);
        let a = half.map_or(7, |h| h as i32 as u32);
        let b = half.and_then(|h| if h > 0.0 { Some(h as u32) } else { None }).unwrap_or(99);
        let c = Some(t).zip(half).map(|(i, h)| i as u32 + (h.abs() as u32 % 5)).unwrap_or_default();
        let d = match two_steps(x, (*xs)[(t + 1) % 64]) {
            Ok(v) => v,
            Err(e) => code(e),
        };
        let e = checked_step(x).ok().is_some_and(|v| v % 4 == 0) as u32;
        let f = half.ok_or(StepError::Negative).map(|h| h.is_sign_negative() as u32).unwrap_or(5);
        let g = u32::from(matches!(checked_step(x), Err(StepError::TooLarge(n)) if n % 2 == 0));
        let h = if let Err(StepError::TooLarge(n)) = checked_step(x.abs()) { n } else { 0 };
        (*out)[t] = a.wrapping_mul(31)
            ^ b.wrapping_mul(17)
            ^ c.wrapping_mul(7)
            ^ d
            ^ (e << 20)
            ^ (f << 21)
            ^ (g << 24)
            ^ (h << 25);
    }
}

/// A tiny stack of `Option`s walked with `while let`, `take`, `replace` and `as_mut`.
#[offload_kernel]
pub fn option_slots(xs: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: `xs` and `out` are mapped for the launch; the thread index is below 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let mut slots: [Option<u32>; 4] = [None; 4];
        for k in 0..4 {
            let v = (*xs)[(t + k * 3) % 64];
            if v % 3 != 0 {
                slots[k] = Some(v % 1000);
            }
        }
        if let Some(first) = slots[0].as_mut() {
            *first += 1;
        }
        let taken = slots[1].take().unwrap_or(0);
        let old = slots[2].replace(5).map_or(0, |v| v * 2);
        let mut sum = taken + old;
        let mut k = 0;
        while let Some(slot) = slots.get(k) {
            sum = sum.wrapping_mul(3).wrapping_add(slot.unwrap_or(1));
            k += 1;
        }
        let present = slots.iter().filter(|s| s.is_some()).count() as u32;
        (*out)[t] = sum ^ (present << 28);
    }
}
