// A type with a `Drop` impl: rkc runs no destructors, so a kernel that holds one would skip
// its `drop` silently; it is refused at its first use instead.
use rkc_offload::prelude::*;

struct Counted(*mut u32);

impl Drop for Counted {
    fn drop(&mut self) {
        unsafe { *self.0 += 1 };
    }
}

#[offload_kernel]
pub fn count(out: &mut [u32]) {
    let p: *mut u32 = &mut out[0];
    let _guard = Counted(p);
}
