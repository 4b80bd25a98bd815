//! The example's kernel. This file is compiled twice: by rkc for the GPU (into a fat binary)
//! and by rustc as a module of this crate (the host's view, and the CPU simulator's code).
use rkc_offload::prelude::*;

/// Radius of the box: each output pixel is the mean of a 5×5 neighbourhood.
pub const RADIUS: usize = 2;

/// A 5×5 box blur of a `width × height` grey image, one thread per pixel (2D launch); the
/// image's edge pixels are repeated beyond it.
#[offload_kernel]
pub fn blur(width: usize, height: usize, input: &[f32], out: &mut [f32]) {
    // SAFETY: builtins only.
    let (x, y) = unsafe { (global_idx_x(), global_idx_y()) };
    if x < width && y < height {
        let mut sum = 0.0f32;
        for dy in 0..2 * RADIUS + 1 {
            let yy = (y + dy).saturating_sub(RADIUS).min(height - 1);
            for dx in 0..2 * RADIUS + 1 {
                let xx = (x + dx).saturating_sub(RADIUS).min(width - 1);
                sum += input[yy * width + xx];
            }
        }
        out[y * width + x] = sum / 25.0;
    }
}
