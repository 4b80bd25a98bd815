//! Two closures where one type is needed: rustc makes them function pointers, which kernels
//! cannot hold, and the error says so.
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn pick(xs: &[u32], out: &mut [u32]) {
    // SAFETY: reading the thread's index has no preconditions.
    let i = unsafe { thread_idx_x() } as usize;
    if let (Some(&a), Some(o)) = (xs.get(i), out.get_mut(i)) {
        let f = if a & 1 == 0 { |p: u32| p.wrapping_add(1) } else { |p: u32| p ^ 7 };
        *o = f(a);
    }
}
