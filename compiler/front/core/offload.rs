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
    pub fn mma_m16n8k16_f16(a: [f16; 8], b: [f16; 4], c: [f32; 4]) -> [f32; 4];
    pub fn mma_m16n8k16_bf16(a: [bf16; 8], b: [bf16; 4], c: [f32; 4]) -> [f32; 4];
    pub fn mma_ldmatrix_a<T>(tile: *const T, stride: usize) -> [T; 8];
    pub fn mma_ldmatrix_b<T>(tile: *const T, stride: usize) -> [T; 4];
    pub fn cp_async<T>(dst: *mut T, src: *const T);
    pub fn cp_async_commit();
    pub fn cp_async_wait<const N: usize>();
    pub fn wgmma_m64n64k16_f16(a: *const f16, a_k: usize, a_m: usize, b: *const f16, b_k: usize, b_n: usize, d: [f32; 32]) -> [f32; 32];
    pub fn wgmma_m64n128k16_f16(a: *const f16, a_k: usize, a_m: usize, b: *const f16, b_k: usize, b_n: usize, d: [f32; 64]) -> [f32; 64];
    pub fn wgmma_m64n256k16_f16(a: *const f16, a_k: usize, a_m: usize, b: *const f16, b_k: usize, b_n: usize, d: [f32; 128]) -> [f32; 128];
    pub fn wgmma_m64n64k16_bf16(a: *const bf16, a_k: usize, a_m: usize, b: *const bf16, b_k: usize, b_n: usize, d: [f32; 32]) -> [f32; 32];
    pub fn wgmma_m64n128k16_bf16(a: *const bf16, a_k: usize, a_m: usize, b: *const bf16, b_k: usize, b_n: usize, d: [f32; 64]) -> [f32; 64];
    pub fn wgmma_m64n256k16_bf16(a: *const bf16, a_k: usize, a_m: usize, b: *const bf16, b_k: usize, b_n: usize, d: [f32; 128]) -> [f32; 128];
    pub fn wgmma_sw128_m64n64k16_f16(a: *const f16, a_k0: usize, a_m: usize, b: *const f16, b_k: usize, b_n: usize, d: [f32; 32]) -> [f32; 32];
    pub fn wgmma_sw128_m64n128k16_f16(a: *const f16, a_k0: usize, a_m: usize, b: *const f16, b_k: usize, b_n: usize, d: [f32; 64]) -> [f32; 64];
    pub fn wgmma_sw128_m64n256k16_f16(a: *const f16, a_k0: usize, a_m: usize, b: *const f16, b_k: usize, b_n: usize, d: [f32; 128]) -> [f32; 128];
    pub fn wgmma_sw128_m64n64k16_bf16(a: *const bf16, a_k0: usize, a_m: usize, b: *const bf16, b_k: usize, b_n: usize, d: [f32; 32]) -> [f32; 32];
    pub fn wgmma_sw128_m64n128k16_bf16(a: *const bf16, a_k0: usize, a_m: usize, b: *const bf16, b_k: usize, b_n: usize, d: [f32; 64]) -> [f32; 64];
    pub fn wgmma_sw128_m64n256k16_bf16(a: *const bf16, a_k0: usize, a_m: usize, b: *const bf16, b_k: usize, b_n: usize, d: [f32; 128]) -> [f32; 128];
    pub fn fence_proxy_async();
    pub fn wgmma_fence();
    pub fn wgmma_commit();
    pub fn wgmma_wait<const N: usize>();
}

// The fragments of `mma_m16n8k16_*` in PTX's layouts (lane `l` is thread `l % 4` of group
// `l / 4`), read and written in the host crate's order, so that an index past a slice's end
// panics at the same element.

/// The calling lane's fragment of a 16×16 `A` tile, row-major from `a`.
pub unsafe fn mma_load_a<T: Copy>(a: &[T], stride: usize) -> [T; 8] {
    let lane = unsafe { lane_id() } as usize;
    let (g, t) = (lane / 4, lane % 4);
    let mut f = [a[0]; 8];
    for i in 0..8 {
        let row = if i & 2 == 0 { g } else { g + 8 };
        let col = t * 2 + (i & 1) + if i >= 4 { 8 } else { 0 };
        f[i] = a[row * stride + col];
    }
    f
}

/// The calling lane's fragment of a 16×8 `B` tile, row-major from `b`.
pub unsafe fn mma_load_b<T: Copy>(b: &[T], stride: usize) -> [T; 4] {
    let lane = unsafe { lane_id() } as usize;
    let (g, t) = (lane / 4, lane % 4);
    let mut f = [b[0]; 4];
    for i in 0..4 {
        let k = t * 2 + (i & 1) + if i >= 2 { 8 } else { 0 };
        f[i] = b[k * stride + g];
    }
    f
}

/// The calling lane's fragment of a 16×8 `C` tile, row-major from `c`.
pub unsafe fn mma_load_c(c: &[f32], stride: usize) -> [f32; 4] {
    let lane = unsafe { lane_id() } as usize;
    let (g, t) = (lane / 4, lane % 4);
    let mut f = [0.0; 4];
    for i in 0..4 {
        let row = if i < 2 { g } else { g + 8 };
        f[i] = c[row * stride + t * 2 + (i & 1)];
    }
    f
}

/// Stores the calling lane's fragment of a 16×8 `D` tile row-major into `d`.
pub unsafe fn mma_store_d(d: &mut [f32], stride: usize, frag: [f32; 4]) {
    let lane = unsafe { lane_id() } as usize;
    let (g, t) = (lane / 4, lane % 4);
    for i in 0..4 {
        let row = if i < 2 { g } else { g + 8 };
        d[row * stride + t * 2 + (i & 1)] = frag[i];
    }
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
