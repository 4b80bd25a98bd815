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

/// Traits whose methods are found only where the trait is in scope, as in rustc: imported
/// by name, as `_`, through a glob, or named by a bound of the calling function.
pub mod shapes {
    pub trait Twice {
        fn twice(&self) -> u32;
    }

    impl Twice for u32 {
        fn twice(&self) -> u32 {
            self.wrapping_mul(2)
        }
    }

    pub trait Quad: Twice {
        fn quad(&self) -> u32 {
            self.twice().wrapping_mul(2)
        }
    }

    impl Quad for u32 {}
}

mod unnamed {
    use super::shapes::Twice as _;

    pub fn doubled(x: u32) -> u32 {
        x.twice()
    }
}

mod globbed {
    use super::shapes::*;

    pub fn sum(x: u32) -> u32 {
        x.twice() ^ x.quad()
    }
}

fn through_bound<T: shapes::Quad>(x: &T) -> u32 {
    x.twice().wrapping_add(x.quad())
}

#[offload_kernel]
pub fn traits_in_scope(xs: &[u32], out: &mut [u32]) {
    use shapes::Quad;
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let (Some(&x), Some(o)) = (xs.get(i), out.get_mut(i)) else { return };
    *o = unnamed::doubled(x) ^ globbed::sum(x >> 1) ^ through_bound(&(x >> 2)) ^ x.quad() << 3;
}
