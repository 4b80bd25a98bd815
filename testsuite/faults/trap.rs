//! A kernel that traps on a GPU: it writes far outside its buffer through a raw pointer,
//! which nothing checks (an illegal address). Run by the conformance binary on the GPU only:
//! on the CPU simulator the same write would corrupt the host process.
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn wild_write(x: *mut u32) {
    // SAFETY: none — this is the fault under test.
    unsafe {
        *x.add(1 << 40) = 1;
    }
}
