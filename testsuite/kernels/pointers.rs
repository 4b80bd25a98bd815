//! Raw pointers: `*const T` and `*mut T` to scalars walked with `add` and `offset` (negative
//! offsets too), pointers to structs, a pointer to an array cast to its element pointer, and
//! whole `[f32; 4]`s moved through aligned slices and through misaligned pointers.
use rkc_offload::prelude::*;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Stats {
    pub count: u32,
    pub sum: f32,
    pub min: f32,
    pub max: f32,
}

/// Each thread reads its neighbours through `offset(-1)` and `add(1)` of a pointer to its own
/// element, and writes through a `*mut` it advanced.
#[offload_kernel]
pub fn neighbours(xs: *const [f32; 64], out: *mut [f32; 64]) {
    // SAFETY: the offsets stay inside the 64 elements: thread 0 and 63 skip the side that
    // would leave them.
    unsafe {
        let t = thread_idx_x() as usize;
        let base = xs as *const f32;
        let me = base.add(t);
        let left = if t > 0 { *me.offset(-1) } else { 0.0 };
        let right = if t < 63 { *me.add(1) } else { 0.0 };
        let dst = (out as *mut f32).add(t);
        *dst = left - 2.0 * *me + right;
    }
}

/// Statistics of each thread's eight values, accumulated through a `*mut Stats` into an
/// array of structs, field by field.
#[offload_kernel]
pub fn struct_pointers(xs: *const [f32; 64], stats: *mut [Stats; 8]) {
    // SAFETY: thread t < 8 owns stats[t]; the others do nothing.
    unsafe {
        let t = thread_idx_x() as usize;
        if t < 8 {
            let s = (stats as *mut Stats).add(t);
            (*s).count = 0;
            (*s).sum = 0.0;
            (*s).min = f32::MAX;
            (*s).max = f32::MIN;
            for k in 0..8 {
                let v = (*xs)[t * 8 + k];
                (*s).count += 1;
                (*s).sum += v;
                (*s).min = (*s).min.min(v);
                (*s).max = (*s).max.max(v);
            }
            let copy = *s;
            (*s).sum = copy.sum / copy.count as f32;
        }
    }
}

/// Whole `[f32; 4]`s, each rotated by one: through slices of them (16-byte aligned on a GPU, so
/// each is one 128-bit access), and through pointers one `f32` past the start of `f32` slices
/// (4-byte aligned, never 16: the accesses element by element).
#[offload_kernel]
pub fn quads(x: &[[f32; 4]], out: &mut [[f32; 4]], flat: &[f32], flat_out: &mut [f32]) {
    // SAFETY: builtins only.
    let i = unsafe { global_idx_x() };
    if i < x.len() && i < out.len() {
        let q = x[i];
        out[i] = [q[1], q[2], q[3], q[0]];
    }
    if 4 * i + 5 <= flat.len() && 4 * i + 5 <= flat_out.len() {
        // SAFETY: elements 1 + 4i to 4 + 4i are within both slices (tested above).
        unsafe {
            let q = *(flat.as_ptr().add(1 + 4 * i) as *const [f32; 4]);
            *(flat_out.as_mut_ptr().add(1 + 4 * i) as *mut [f32; 4]) = [q[1], q[2], q[3], q[0]];
        }
    }
}
