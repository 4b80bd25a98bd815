// Methods that do not exist: each is one error, and nothing that uses their results is
// reported again (not the closure's unknown parameter, not the mutability of a loop variable
// whose type is unknown).
use rkc_offload::prelude::*;
#[offload_kernel]
pub fn k(line: &[u8], out: &mut [u32]) {
    let i = unsafe { global_idx_x() };
    let mut w = [0u32; 8];
    for (d, c) in w.chunks_nope_mut(2).zip(line.iter()) {
        d[0] = *c as u32;
    }
    let total = line.iter().fold_nope(0u32, |acc, &b| acc.checked_mul(10).unwrap_or(0) + b as u32);
    if let Some(o) = out.get_mut(i) { *o = w[0] + total; }
}
