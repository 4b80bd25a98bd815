// A method of the file's own trait, called where the trait is not in scope (rustc's E0599):
// the help names the `use` that brings it in.
use rkc_offload::prelude::*;

mod ops {
    pub trait Twice {
        fn twice(&self) -> u32;
    }

    impl Twice for u32 {
        fn twice(&self) -> u32 {
            self * 2
        }
    }
}

#[offload_kernel]
pub fn doubled(x: &[u32], out: &mut [u32]) {
    out[0] = x[0].twice();
}
