//! kernels.rs is also a module of the host crate: host code (a `Vec`, `println!`, a trait
//! and its impl, a `static mut`) sits beside kernels that call into an inline `mod` with its
//! own `use`, `const` and functions. rkc compiles what the kernels reach and ignores the rest.
use rkc_offload::prelude::*;

pub mod geometry {
    pub const ORIGIN: (i32, i32) = (3, -4);

    pub fn manhattan(a: (i32, i32), b: (i32, i32)) -> i32 {
        (a.0 - b.0).abs() + (a.1 - b.1).abs()
    }

    pub mod inner {
        pub fn square(x: i32) -> i32 {
            x * x
        }
    }

    pub fn euclid2(a: (i32, i32), b: (i32, i32)) -> i32 {
        inner::square(a.0 - b.0) + inner::square(a.1 - b.1)
    }
}

use geometry::{euclid2, manhattan};

/// Host code: never reached by a kernel, so rkc never looks at it.
pub trait Describe {
    fn describe(&self) -> String;
}

impl Describe for u32 {
    fn describe(&self) -> String {
        format!("u32 {self}")
    }
}

pub fn host_summary(values: &[u32]) -> Vec<String> {
    let v: Vec<String> = values.iter().map(|x| x.describe()).collect();
    println!("{} values", v.len());
    v
}

pub static mut HOST_COUNTER: u64 = 0;

/// Distances from the origin (a tuple constant of the module) in two metrics, through the
/// module's functions and a nested module's.
#[offload_kernel]
pub fn distances(xs: *const [i32; 64], out: *mut [i32; 64]) {
    // SAFETY: indices are checked.
    unsafe {
        let t = thread_idx_x() as usize;
        let p = ((*xs)[t] % 1000, (*xs)[63 - t] % 1000);
        (*out)[t] = manhattan(p, geometry::ORIGIN) * 3 + euclid2(p, geometry::ORIGIN) % 1000;
    }
}
