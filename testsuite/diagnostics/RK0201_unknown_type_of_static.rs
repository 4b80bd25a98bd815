use rkc_offload::prelude::*;

// A static whose type does not exist, used through a method call: reported, not silently
// dropped with the statement that uses it.
static SCALE: Missing = Missing::UNINIT;

#[offload_kernel]
pub fn k(out: &mut [f32]) {
    let i = unsafe { global_idx_x() };
    if let Some(o) = out.get_mut(i) {
        *o = SCALE.get() + 1.0;
    }
}
