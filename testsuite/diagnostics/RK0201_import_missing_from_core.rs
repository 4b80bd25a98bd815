// A name imported from a part of `core` that rkc's device core does not have: the error says
// so at the use, instead of only "not found".
use core::cell::Cell;
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn count(x: &[f32], out: &mut [u32]) {
    let calls = Cell::new(0u32);
    let n = x.iter().filter(|v| {
        calls.set(calls.get() + 1);
        **v > 1.0
    });
    out[0] = n.count() as u32 + calls.get();
}
