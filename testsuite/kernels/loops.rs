//! Loops: `for` over ranges (inclusive, reversed, stepped), `while`, `loop` with a break
//! value, labelled `break` and `continue`.
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn loops(out: *mut [u32; 64]) {
    // SAFETY: `out` is mapped for the launch; indices stay below 64 (checked).
    unsafe {
        let t = thread_idx_x();
        let i = t as usize;
        // Sum 0..=t, stepping by 1.
        let mut sum = 0u32;
        for k in 0..=t {
            sum += k;
        }
        // Count down from t to 0 in steps of 3 of a reversed range.
        let mut down = 0u32;
        for k in (0..t).rev() {
            if k % 3 == 0 {
                continue;
            }
            down += 1;
        }
        // Every 5th number below 40.
        let mut fives = 0u32;
        for _ in (0usize..40).step_by(5) {
            fives += 1;
        }
        // Collatz steps of t + 1, with `while`.
        let mut n = t + 1;
        let mut steps = 0u32;
        while n != 1 {
            n = if n % 2 == 0 { n / 2 } else { 3 * n + 1 };
            steps += 1;
        }
        // The first multiple of 7 above t, with `loop` and a break value.
        let mut m = t + 1;
        let first = loop {
            if m % 7 == 0 {
                break m;
            }
            m += 1;
        };
        // Labelled loops: count the pairs (a, b), a < b < 8, whose sum is t % 8, stopping
        // the outer loop at a == 6.
        let mut pairs = 0u32;
        'outer: for a in 0u32..8 {
            for b in 0u32..8 {
                if a == 6 {
                    break 'outer;
                }
                if b <= a {
                    continue;
                }
                if a + b == t % 8 {
                    pairs += 1;
                    continue 'outer;
                }
            }
        }
        (*out)[i] =
            sum ^ (down << 8) ^ (fives << 12) ^ (steps << 16) ^ (first << 20) ^ (pairs << 28);
    }
}
