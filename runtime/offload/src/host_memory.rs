//! Zeroed host memory for the data of a simulated device: the simulator's copies of a
//! launch's arguments and `DeviceBuffer`s on the CPU.
//!
//! Large blocks are mapped by themselves with transparent huge pages asked for
//! (`MADV_HUGEPAGE`). The allocator's fresh memory is faulted in a 4 KiB page at a time when
//! it is first written: filling a 4 MiB argument took 1,024 page faults, about 2 ms on the
//! development machine (measured: 1.6–1.9 ms for a fresh 4 MiB copy, 0.6–0.9 ms with huge
//! pages), which was most of a one-launch saxpy's copies on the simulator.

use crate::error::OffloadError;

/// The size from which a block is mapped by itself: one huge page.
const MAPPED_FROM: usize = 2 << 20;

/// A block of zeroed host memory, 16-byte aligned at least, freed when dropped.
pub(crate) enum HostBlock {
    Heap(Box<[u128]>),
    Mapped { address: *mut u8, len: usize },
}

// SAFETY: the block is plain memory owned by this value; whoever holds it decides who
// touches it, as with a `Box<[u128]>`.
unsafe impl Send for HostBlock {}
// SAFETY: as above; shared references hand out only the address.
unsafe impl Sync for HostBlock {}

impl HostBlock {
    /// `len` zeroed bytes (at least 16).
    pub(crate) fn zeroed(len: usize) -> Result<HostBlock, OffloadError> {
        if len < MAPPED_FROM {
            return Ok(HostBlock::Heap(vec![0u128; len.div_ceil(16).max(1)].into_boxed_slice()));
        }
        // From a huge page's boundary: a mapping at an arbitrary page has at most its aligned
        // middle in huge pages (of a 4 MiB argument, one of two), the rest faulted in 4 KiB
        // at a time. So map a huge page more than needed and give back the ends. The part past
        // the last whole huge page stays in small pages, so that a few bytes past 4 MiB do not
        // zero a whole huge page.
        let len = len.next_multiple_of(4096);
        let over = len + MAPPED_FROM;
        // SAFETY: an anonymous private mapping of `over` bytes, whose ends are unmapped below
        // and whose rest the value returned owns (unmapped in `drop`); anonymous memory is
        // zeroed by the kernel.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                over,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            return Err(OffloadError::InvalidLaunch {
                kernel: "(simulated device memory)".into(),
                reason: format!(
                    "cannot map {len} bytes of host memory: {}",
                    std::io::Error::last_os_error()
                ),
            });
        }
        let head = (raw as usize).next_multiple_of(MAPPED_FROM) - raw as usize;
        // SAFETY: both ranges lie in the mapping just made, outside `[raw + head, + len)`;
        // the tail is `MAPPED_FROM - head > 0` bytes.
        unsafe {
            if head > 0 {
                libc::munmap(raw, head);
            }
            libc::munmap(raw.cast::<u8>().add(head + len).cast(), MAPPED_FROM - head);
        }
        // SAFETY: `head` is within the mapping.
        let address = unsafe { raw.cast::<u8>().add(head) }.cast::<libc::c_void>();
        // Only a request: where transparent huge pages are off, the mapping works as well.
        // SAFETY: the range is the mapping kept.
        unsafe { libc::madvise(address, len, libc::MADV_HUGEPAGE) };
        Ok(HostBlock::Mapped { address: address.cast(), len })
    }

    /// The block's first byte.
    pub(crate) fn as_mut_ptr(&mut self) -> *mut u8 {
        match self {
            HostBlock::Heap(memory) => memory.as_mut_ptr().cast(),
            HostBlock::Mapped { address, .. } => *address,
        }
    }
}

impl Drop for HostBlock {
    fn drop(&mut self) {
        if let HostBlock::Mapped { address, len } = *self {
            // SAFETY: the mapping was made in `zeroed` with this length, and nothing holds
            // its address past the block's life.
            unsafe { libc::munmap(address.cast(), len) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_zeroed_aligned_and_writable_on_both_sides_of_the_mapping_size() {
        for len in [1, 100, MAPPED_FROM - 1, MAPPED_FROM, 3 * MAPPED_FROM + 5] {
            let mut block = HostBlock::zeroed(len).unwrap();
            assert_eq!(matches!(block, HostBlock::Mapped { .. }), len >= MAPPED_FROM, "{len}");
            let p = block.as_mut_ptr();
            assert_eq!(p as usize % 16, 0, "{len}");
            if len >= MAPPED_FROM {
                assert_eq!(p as usize % MAPPED_FROM, 0, "{len}: a huge page's boundary");
            }
            // SAFETY: the block has `len` bytes.
            let bytes = unsafe { std::slice::from_raw_parts_mut(p, len) };
            assert!(bytes.iter().all(|&b| b == 0), "{len}");
            bytes[0] = 1;
            bytes[len - 1] = 7;
            assert_eq!((bytes[0], bytes[len - 1]), (if len == 1 { 7 } else { 1 }, 7));
        }
    }
}
