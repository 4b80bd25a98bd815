//! Control flow: early `return` from kernels and device functions, labelled `break` and
//! `continue` across nested loops, `loop` with `break value`, `match` on integers and bools
//! with ranges, `|` and `_`, blocks and `if` chains as values, shadowing.
use rkc_offload::prelude::*;

fn first_multiple(x: u32, of: u32, limit: u32) -> u32 {
    let mut k = 1;
    while k <= limit {
        if (x * k) % of == 0 {
            return k;
        }
        k += 1;
    }
    0
}

/// A kernel that returns early for some threads; a device function that returns from
/// inside a loop.
#[offload_kernel]
pub fn early_return(xs: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        (*out)[t] = 1;
        if t % 5 == 4 {
            return;
        }
        let x = (*xs)[t] % 100 + 1;
        (*out)[t] = first_multiple(x, 12, 20) * 1000 + x;
    }
}

/// Labelled loops: `continue 'outer` and `break 'outer` from an inner loop, and a `loop` whose
/// `break` carries the value.
#[offload_kernel]
pub fn labelled(xs: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*xs)[t] % 50 + 2;
        let mut pairs = 0u32;
        'outer: for a in 1..x {
            for b in 1..x {
                if a * b > x * 2 {
                    continue 'outer;
                }
                if a + b == x + 7 {
                    break 'outer;
                }
                pairs += 1;
            }
        }
        let mut n = x;
        let steps = loop {
            if n == 1 {
                break 0u32;
            }
            let mut s = 0;
            'walk: while n != 1 {
                n = if n % 2 == 0 { n / 2 } else { 3 * n + 1 };
                s += 1;
                if s > 500 {
                    break 'walk;
                }
            }
            break s;
        };
        (*out)[t] = pairs * 1000 + steps;
    }
}

/// `match` with integer ranges, alternatives and `_`, on signed and unsigned scrutinees, a
/// `match` on `bool`, and arms that are blocks.
#[offload_kernel]
pub fn matches(xs: *const [i32; 64], out: *mut [i32; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*xs)[t] % 300;
        let class = match x {
            i32::MIN..=-100 => -2,
            -99..=-1 => -1,
            0 => 0,
            1 | 2 | 3 | 5 | 7 | 11 | 13 => {
                let p = x * 10;
                p + 1
            }
            4..=99 if x % 2 == 0 => 2,
            4..=99 => 3,
            _ => 4,
        };
        let small = match (t as u8) % 16 {
            0..=3 => 10u8,
            4 | 8 | 12 => 20,
            _ => 30,
        };
        let sign = match x < 0 {
            true => -1,
            false => 1,
        };
        (*out)[t] = class * 100 + small as i32 + sign;
    }
}

/// Blocks and `if` chains as values, shadowing in nested scopes, and a block's `let`s that
/// end with it.
#[offload_kernel]
pub fn blocks(xs: *const [f32; 64], out: *mut [f32; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*xs)[t];
        let x = x * 2.0;
        let y = {
            let x = x + 1.0;
            let z = x * x;
            z - x
        };
        let grade = if y < 0.0 {
            0.0
        } else if y < 100.0 {
            1.0
        } else if y < 1000.0 {
            2.0
        } else {
            3.0
        };
        let x = if grade > 1.0 { x as f64 } else { -x as f64 };
        (*out)[t] = (x as f32) + y + grade;
    }
}

/// `while` with compound conditions, and `for` over inclusive, reversed and stepped ranges of
/// signed integers.
#[offload_kernel]
pub fn ranges(xs: *const [i64; 64], out: *mut [i64; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as i64;
        let x = (*xs)[t as usize] % 17;
        let mut acc = 0i64;
        for k in (-t..=x).rev() {
            acc = acc * 3 + k;
        }
        for k in (x - 20..x + 20).step_by(7) {
            acc ^= k;
        }
        let mut i = 0;
        while i < 40 && (acc & 1 == 0 || i % 3 != 0) {
            acc = acc.wrapping_mul(5).wrapping_add(i);
            i += 1;
        }
        (*out)[t as usize] = acc;
    }
}
