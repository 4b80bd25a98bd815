// A generic function compares values of a type parameter that has no `PartialOrd` bound
// (rustc's E0369). rkc checks each instance with its types substituted, where `u32 > u32`
// holds; the parameter's bounds are checked as rustc would.
use rkc_offload::prelude::*;

fn larger<T: Copy>(a: T, b: T) -> T {
    if a > b { a } else { b }
}

#[offload_kernel]
pub fn largest(x: &[u32], out: &mut [u32]) {
    out[0] = larger(x[0], x[1]);
}
