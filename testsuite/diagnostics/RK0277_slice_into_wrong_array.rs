// A slice converts to an array of its element type only: one error, at the conversion.
use rkc_offload::prelude::*;
#[offload_kernel]
pub fn k(xs: &[u32], out: &mut [f32]) {
    let i = unsafe { global_idx_x() };
    if let Some(o) = out.get_mut(i) {
        let a: [f32; 2] = xs[..2].try_into().unwrap();
        *o = a[0];
    }
}
