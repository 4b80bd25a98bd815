//! Printing from kernels: `gpu_println!` (compiled by rkc exactly as std's `println!`) with
//! every kind of value a kernel can show and Rust's format specs (width, fill, alignment,
//! sign, `#`, zero padding, precision, `?`, `x`, `o`, `b`, `e`), string literal arguments,
//! captured variables, values through references, and prints in loops and branches. The
//! conformance run compares the text the GPU or the host image writes with what rustc's
//! `format!` writes on the simulator, line for line (in any order).
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn print_values(xs: *const [f32; 64], out: *mut [u32; 64]) {
    // SAFETY: both pointers are mapped for the launch; the thread index is below 64.
    unsafe {
        let i = thread_idx_x() as usize;
        let x = (*xs)[i];
        let bits = x.to_bits();
        let n = i as i32 - 40;
        let c = char::from(b'a' + (i % 26) as u8);
        let wide = (bits as i128) * -(1i128 << 70) + i as i128;
        let d = x as f64 / 3.0;
        let ok = x > 0.5;
        gpu_println!(
            "thread {i:>3}: x = {x} {x:?} {x:.3} {x:e} {x:10.2E}| bits {bits:#010x} {bits:o} {:b}",
            bits >> 24
        );
        gpu_println!(
            "  n = {n:+} {n:05} {n:<6}| {n:^7}| {n:*>8} c = {c} {c:?} {c:>3} ok = {ok:?} {ok:>6}",
        );
        gpu_println!("  wide = {wide} {:x} d = {d} {d:.10} {:e}", wide as u128, d);
        let r = &x;
        let rr = &r;
        gpu_println!("  through references: {} {:.1} {}", rr, *r, "a literal");
        (*out)[i] = bits;
    }
}

/// Prints in a loop and under a condition, from every block of the grid, with the block's
/// and thread's positions; `{{` and `}}` escape braces.
#[offload_kernel]
pub fn print_loop(xs: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: both pointers are mapped for the launch; the thread index is below 64.
    unsafe {
        let i = thread_idx_x() as usize;
        let b = block_idx_x();
        let mut acc = 0u32;
        for k in 0..(*xs)[i] % 4 {
            acc = acc.wrapping_mul(31).wrapping_add(k);
            gpu_println!("{{block {b}, thread {i}}} step {k}: {acc:>10} {acc:#x}");
        }
        if acc % 3 == 0 {
            gpu_println!(
                "block {b} thread {i}: {} {:>8}|{:<8}|{:^8}|",
                "done",
                "right",
                "left",
                "mid"
            );
        }
        if b == 0 {
            (*out)[i] = acc;
        }
    }
}

/// 16-bit floats, shown as the `half` crate shows them.
#[offload_kernel]
pub fn print_halfs(xs: *const [f32; 64], out: *mut [u32; 64]) {
    // SAFETY: both pointers are mapped for the launch; the thread index is below 64.
    unsafe {
        let i = thread_idx_x() as usize;
        let h = half::f16::from_f32((*xs)[i] * 1000.0);
        let b = half::bf16::from_f32((*xs)[i] - 0.5);
        gpu_println!("{i}: {h} {h:?} {h:.2} {b} {b:e}");
        (*out)[i] = u32::from(h.to_bits());
    }
}
