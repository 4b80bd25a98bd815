//! Byte images as image-processing kernels handle them: RGBA pixels in a `&[u8]`,
//! `chunks_exact(4)`, `[u8; 4]` pixels built with `from_fn` and `map`, saturating `u8`
//! arithmetic, `u16` widening with `From`, `clamp`, a 3×3 box blur over a grey image with
//! `checked_sub` at the borders, and a lookup table in a `const`.
use rkc_offload::prelude::*;

const WIDTH: usize = 16;
const HEIGHT: usize = 8;

/// Gamma-like curve, evaluated when the kernel is compiled.
const CURVE: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = (i * i) as u8;
        i += 1;
    }
    t
};

#[derive(Clone, Copy)]
struct Rgba([u8; 4]);

impl Rgba {
    fn luma(self) -> u8 {
        let [r, g, b, _] = self.0;
        ((u16::from(r) * 77 + u16::from(g) * 150 + u16::from(b) * 29) >> 8) as u8
    }

    fn brighten(self, by: u8) -> Rgba {
        let mut c = self.0;
        for ch in &mut c[..3] {
            *ch = ch.saturating_add(by);
        }
        Rgba(c)
    }
}

/// One thread per pixel of a 16×8 RGBA image: grey, brightened, inverted and curved
/// channels, written back as bytes.
#[offload_kernel]
pub fn rgba(pixels: &[u8], out: &mut [u8]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let Some(px) = pixels.chunks_exact(4).nth(i) else { return };
    let c = Rgba([px[0], px[1], px[2], px[3]]);
    let grey = c.luma();
    let bright = c.brighten(40);
    let inverted: [u8; 4] = core::array::from_fn(|k| if k == 3 { c.0[k] } else { 255 - c.0[k] });
    let curved = bright.0.map(|v| CURVE[(v >> 4) as usize]);
    if let Some(dst) = out.get_mut(i * 4..i * 4 + 4) {
        dst[0] = grey;
        dst[1] = bright.0[1].wrapping_add(inverted[0]);
        dst[2] = curved[2] ^ inverted[1];
        dst[3] = (u16::from(grey) + u16::from(curved[0])).clamp(16, 235) as u8;
    }
}

/// A 3×3 box blur over a grey 16×8 image: neighbours found with `checked_sub` and
/// `get`, their count as the divisor.
#[offload_kernel]
pub fn box_blur(grey: &[u8], out: &mut [u8]) {
    // SAFETY: the builtins only read the thread's position.
    let (x, y) = unsafe { (thread_idx_x() as usize, thread_idx_y() as usize) };
    if x >= WIDTH || y >= HEIGHT {
        return;
    }
    let mut sum = 0u32;
    let mut n = 0u32;
    for dy in [-1isize, 0, 1] {
        for dx in [-1isize, 0, 1] {
            let (Some(nx), Some(ny)) = (x.checked_add_signed(dx), y.checked_add_signed(dy)) else {
                continue;
            };
            if nx >= WIDTH {
                continue;
            }
            if let Some(&v) = grey.get(ny * WIDTH + nx) {
                sum += u32::from(v);
                n += 1;
            }
        }
    }
    out[y * WIDTH + x] = ((sum + n / 2) / n) as u8;
}
