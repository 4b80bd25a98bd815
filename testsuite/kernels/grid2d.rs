//! A 2D launch: `global_idx_x/y()`, the y and z geometry builtins, and `grid_dim`, writing a
//! 2D 5-point stencil of a 32×32 image (edges clamped).
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn stencil(src: *const [f32; 1024], dst: *mut [f32; 1024], dims: *mut [u32; 8]) {
    // SAFETY: the indices are clamped into the 32x32 image.
    unsafe {
        let x = global_idx_x();
        let y = global_idx_y();
        if x < 32 && y < 32 {
            let l = if x > 0 { x - 1 } else { x };
            let r = if x < 31 { x + 1 } else { x };
            let u = if y > 0 { y - 1 } else { y };
            let d = if y < 31 { y + 1 } else { y };
            let v = 0.5 * (*src)[y * 32 + x]
                + 0.125
                    * ((*src)[y * 32 + l]
                        + (*src)[y * 32 + r]
                        + (*src)[u * 32 + x]
                        + (*src)[d * 32 + x]);
            (*dst)[y * 32 + x] = v;
        }
        if x == 0 && y == 0 {
            (*dims)[0] = grid_dim_x();
            (*dims)[1] = grid_dim_y();
            (*dims)[2] = grid_dim_z();
            (*dims)[3] = block_dim_y();
            (*dims)[4] = block_dim_z();
            (*dims)[5] = thread_idx_z() + block_idx_z();
        }
    }
}
