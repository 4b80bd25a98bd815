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
        // SAFETY: an anonymous private mapping of `len` bytes, owned by the value returned
        // (unmapped in `drop`); anonymous memory is zeroed by the kernel.
        let address = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if address == libc::MAP_FAILED {
            return Err(OffloadError::InvalidLaunch {
                kernel: "(simulated device memory)".into(),
                reason: format!(
                    "cannot map {len} bytes of host memory: {}",
                    std::io::Error::last_os_error()
                ),
            });
        }
        // Only a request: where transparent huge pages are off, the mapping works as well.
        // SAFETY: the range is the mapping just made.
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
            // SAFETY: the block has `len` bytes.
            let bytes = unsafe { std::slice::from_raw_parts_mut(p, len) };
            assert!(bytes.iter().all(|&b| b == 0), "{len}");
            bytes[0] = 1;
            bytes[len - 1] = 7;
            assert_eq!((bytes[0], bytes[len - 1]), (if len == 1 { 7 } else { 1 }, 7));
        }
    }
}
