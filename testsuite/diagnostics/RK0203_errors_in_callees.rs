// An error in a function does not hide the errors of the functions it calls: both are
// reported at once, as rustc reports them.
use rkc_offload::prelude::*;

fn inner(c: &[u8]) -> u32 {
    c.no_such_inner() as u32
}

fn outer(c: &[u8]) -> u32 {
    c.no_such_outer().len() as u32 + inner(c)
}

#[offload_kernel]
pub fn k(xs: &[u8], out: &mut [u32]) {
    let i = unsafe { global_idx_x() };
    if let Some(o) = out.get_mut(i) {
        *o = outer(xs);
    }
}
