//! The kernel builtins, host side. rkc compiles calls to them into `gpu.thread_id` and its
//! siblings; on the CPU simulator they read the simulated thread's position. They are
//! `unsafe fn`s, like upstream's arch intrinsics, so that kernels type-check the same way under
//! rustc and rkc.

use std::cell::Cell;

/// Where the current simulated thread is in its launch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ThreadPosition {
    pub thread_idx: [u32; 3],
    pub block_idx: [u32; 3],
    pub block_dim: [u32; 3],
    pub grid_dim: [u32; 3],
}

thread_local! {
    static POSITION: Cell<Option<ThreadPosition>> = const { Cell::new(None) };
}

/// Sets the simulated position of the calling host thread (`None` outside a kernel).
pub(crate) fn set_position(position: Option<ThreadPosition>) {
    POSITION.with(|p| p.set(position));
}

/// Whether the calling host thread is running a simulated kernel thread.
pub(crate) fn in_kernel() -> bool {
    POSITION.with(Cell::get).is_some()
}

#[track_caller]
fn position(builtin: &str) -> ThreadPosition {
    match POSITION.with(Cell::get) {
        Some(p) => p,
        None => panic!("{builtin}() was called outside a kernel launch"),
    }
}

macro_rules! geometry {
    ($($name:ident, $field:ident, $dim:expr, $doc:literal;)*) => {$(
        #[doc = $doc]
        ///
        /// # Safety
        ///
        /// Only meaningful inside a kernel; called elsewhere it panics.
        #[track_caller]
        #[inline]
        pub unsafe fn $name() -> u32 {
            position(stringify!($name)).$field[$dim]
        }
    )*};
}

geometry! {
    thread_idx_x, thread_idx, 0, "The thread's index in its workgroup, x (CUDA's threadIdx.x).";
    thread_idx_y, thread_idx, 1, "The thread's index in its workgroup, y (CUDA's threadIdx.y).";
    thread_idx_z, thread_idx, 2, "The thread's index in its workgroup, z (CUDA's threadIdx.z).";
    block_idx_x, block_idx, 0, "The workgroup's index in the grid, x (CUDA's blockIdx.x).";
    block_idx_y, block_idx, 1, "The workgroup's index in the grid, y (CUDA's blockIdx.y).";
    block_idx_z, block_idx, 2, "The workgroup's index in the grid, z (CUDA's blockIdx.z).";
    block_dim_x, block_dim, 0, "Threads per workgroup, x (CUDA's blockDim.x).";
    block_dim_y, block_dim, 1, "Threads per workgroup, y (CUDA's blockDim.y).";
    block_dim_z, block_dim, 2, "Threads per workgroup, z (CUDA's blockDim.z).";
    grid_dim_x, grid_dim, 0, "Workgroups in the grid, x (CUDA's gridDim.x).";
    grid_dim_y, grid_dim, 1, "Workgroups in the grid, y (CUDA's gridDim.y).";
    grid_dim_z, grid_dim, 2, "Workgroups in the grid, z (CUDA's gridDim.z).";
}
