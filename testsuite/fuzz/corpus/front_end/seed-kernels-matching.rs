//! `match` on integers and `bool`: literals, ranges, `|`, bindings, guards and `_`.
use rkc_offload::prelude::*;

const LIMIT: i32 = 40;

#[offload_kernel]
pub fn classify(out: *mut [i32; 128]) {
    // SAFETY: `out` is mapped for the launch; the thread index is below 128.
    unsafe {
        let i = thread_idx_x() as usize;
        let v = i as i32 - 64;
        let class = match v {
            -64..=-33 => 1,
            -32..-1 => 2,
            -1 | 0 | 1 => 3,
            2 | 4 | 8 | 16 | 32 => 4,
            x if x > LIMIT => x * 2,
            LIMIT => 100,
            _ => 5,
        };
        let even = match v % 2 == 0 {
            true => 1000,
            false => 2000,
        };
        (*out)[i] = class + even;
    }
}
