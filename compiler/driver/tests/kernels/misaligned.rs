//! A kernel whose `cp_async` reads from an address 4 bytes past a 16-byte boundary when
//! `offset` is 1: a misaligned-address fault on a GPU with `cp.async`, a panic everywhere else.
use rkc_offload::prelude::*;

/// Thread 0 copies four words from `src[offset..]` into shared memory and back out to `out`.
#[offload_kernel]
pub fn staged_copy(offset: usize, src: &[u32], out: &mut [u32]) {
    // SAFETY: `src` holds at least `offset + 4` words (the test's arrays hold 8); the shared
    // tile holds four words; the copy is waited for before the tile is read.
    unsafe {
        if thread_idx_x() == 0 {
            let tile = shared_array::<u32, 4>();
            cp_async(tile, &src[offset] as *const u32 as *const [u32; 4]);
            cp_async_commit();
            cp_async_wait::<0>();
            let mut k = 0;
            while k < 4 {
                out[k] = (*tile)[k];
                k += 1;
            }
        }
    }
}
