//! The offload builtins (`rkc_offload::prelude::*` in a kernel file): the launch geometry,
//! barriers, fences, shared memory, warps and atomics. Each is an intrinsic that rkc lowers to
//! an rk operation; they are `unsafe` to call, as in the host crate.

extern "rkc-intrinsic" {
    pub fn thread_idx_x() -> u32;
    pub fn thread_idx_y() -> u32;
    pub fn thread_idx_z() -> u32;
    pub fn block_idx_x() -> u32;
    pub fn block_idx_y() -> u32;
    pub fn block_idx_z() -> u32;
    pub fn block_dim_x() -> u32;
    pub fn block_dim_y() -> u32;
    pub fn block_dim_z() -> u32;
    pub fn grid_dim_x() -> u32;
    pub fn grid_dim_y() -> u32;
    pub fn grid_dim_z() -> u32;
    pub fn sync_threads();
    pub fn thread_fence_block();
    pub fn thread_fence();
    pub fn shared_array<T, const N: usize>() -> *mut [T; N];
    pub fn dynamic_shared<T>() -> *mut T;
    pub fn lane_id() -> u32;
    pub fn warp_shuffle<T>(v: T, k: u32) -> T;
    pub fn warp_shuffle_xor<T>(v: T, k: u32) -> T;
    pub fn warp_shuffle_up<T>(v: T, k: u32) -> T;
    pub fn warp_shuffle_down<T>(v: T, k: u32) -> T;
    pub fn warp_any(p: bool) -> bool;
    pub fn warp_all(p: bool) -> bool;
    pub fn warp_ballot(p: bool) -> u32;
    pub fn warp_reduce_add<T>(v: T) -> T;
    pub fn warp_reduce_min<T>(v: T) -> T;
    pub fn warp_reduce_max<T>(v: T) -> T;
    pub fn atomic_add<T>(p: *mut T, v: T) -> T;
    pub fn atomic_sub<T>(p: *mut T, v: T) -> T;
    pub fn atomic_and<T>(p: *mut T, v: T) -> T;
    pub fn atomic_or<T>(p: *mut T, v: T) -> T;
    pub fn atomic_xor<T>(p: *mut T, v: T) -> T;
    pub fn atomic_min<T>(p: *mut T, v: T) -> T;
    pub fn atomic_max<T>(p: *mut T, v: T) -> T;
    pub fn atomic_exchange<T>(p: *mut T, v: T) -> T;
    pub fn atomic_compare_exchange<T>(p: *mut T, current: T, new: T) -> T;
}

/// The thread's index in the whole grid in dimension x, as a `usize`.
pub unsafe fn global_idx_x() -> usize {
    unsafe { block_idx_x() as usize * block_dim_x() as usize + thread_idx_x() as usize }
}

/// The thread's index in the whole grid in dimension y, as a `usize`.
pub unsafe fn global_idx_y() -> usize {
    unsafe { block_idx_y() as usize * block_dim_y() as usize + thread_idx_y() as usize }
}

/// The thread's index in the whole grid in dimension z, as a `usize`.
pub unsafe fn global_idx_z() -> usize {
    unsafe { block_idx_z() as usize * block_dim_z() as usize + thread_idx_z() as usize }
}

/// Warps are 32 lanes on every target.
pub const fn warp_size() -> u32 {
    32
}

/// `use rkc_offload::prelude::*;`
pub mod prelude {
    pub use super::*;
}

/// `use rkc_offload::builtins::*;`
pub mod builtins {
    pub use super::*;
}
