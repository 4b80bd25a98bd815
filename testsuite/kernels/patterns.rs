//! Tuple `let`s (also `mut` names, `_`, and a swap, which evaluates every element before
//! binding), and element addresses taken with `&mut place as *mut T` for atomics on slice
//! elements; byte-string patterns against arrays and slices, as a protocol parser writes them.
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn patterns(xs: &[u32], out: &mut [u32], counts: &mut [u32]) {
    // SAFETY: builtins and atomics on elements of `counts`, which the launch maps.
    unsafe {
        let i = global_idx_x();
        if i < xs.len() && i < out.len() {
            let (mut a, b, _) = (xs[i], xs[i] / 3, 7u32);
            let (a2, b2) = (b, a);
            a = a.wrapping_add(a2);
            out[i] = a ^ b2.rotate_left(5);
            atomic_add(&mut counts[(b % 8) as usize] as *mut u32, 1);
        }
    }
}

/// Pointers from slices (`as_ptr`, `as_mut_ptr`) and from a shared array (`as *mut u32`), with
/// pointer arithmetic and atomics through them. Blocks of 64 threads.
#[offload_kernel]
pub fn pointers(xs: &[u32], out: &mut [u32], counts: &mut [u32]) {
    // SAFETY: indices stay below the lengths the launch gives (64 per block, 8 counts); the
    // shared array's elements are updated atomically and read after the barrier.
    unsafe {
        let t = thread_idx_x() as usize;
        let i = global_idx_x();
        let bins = shared_array::<u32, 8>() as *mut u32;
        if t < 8 {
            *bins.add(t) = 0;
        }
        sync_threads();
        let src = xs.as_ptr();
        let v = *src.add(i % xs.len());
        atomic_add(bins.add((v % 8) as usize), 1);
        sync_threads();
        if t < 8 {
            atomic_add(counts.as_mut_ptr().add(t), *bins.add(t));
        }
        let dst = out.as_mut_ptr();
        *dst.add(i) = v.rotate_right(3);
    }
}

/// The text the `keywords` kernel looks at: request words, near misses and separators.
const TEXT: &[u8; 48] = b"GET /a PUT /b POST #c GE G P PE GET# POST PUTGET";

/// Each thread classifies the four bytes at a random position of `TEXT` with byte-string
/// patterns on the array, and a prefix of 0 to 3 bytes of it on the slice.
#[offload_kernel]
pub fn keywords(offsets: &[u32], out: &mut [u32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { thread_idx_x() } as usize;
    let at = offsets[i] as usize % (TEXT.len() - 4);
    let word = [TEXT[at], TEXT[at + 1], TEXT[at + 2], TEXT[at + 3]];
    let as_array = match &word {
        b"GET " => 1,
        b"PUT " | b"POST" => 2,
        [b'#', ..] => 3,
        [_, _, b' ', _] => 4,
        _ => 0,
    };
    let as_slice = match &TEXT[at..at + i % 4] {
        b"" => 10,
        b"G" | b"P" => 20,
        b"GE" => 30,
        [a, b'E', ..] if *a != b'P' => 40,
        b"PUT" => 50,
        _ => 60,
    };
    out[i] = as_array + as_slice;
}
