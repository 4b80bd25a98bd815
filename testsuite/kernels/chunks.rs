//! Slice iteration as safe Rust kernels write it: `for x in slice` binding `&T`, `chunks`,
//! `chunks_exact` with its remainder, `windows`, `split_at`, `split_first`, `iter().rev()`,
//! `step_by`, `skip`/`take`, `chain`, `zip`, `enumerate`, `fold`, `any`/`all`, `min`/`max`,
//! `map(f32::abs)`, and a block-wide inclusive prefix scan in shared memory.
use rkc_offload::prelude::*;

/// Each thread summarises its 16-element row: chunk sums, the remainder of an exact chunking,
/// a windowed maximum, and the row's ends.
#[offload_kernel]
pub fn row_summary(xs: &[f32], out: &mut [f32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    const ROW: usize = 16;
    let Some(row) = xs.get(i * ROW..(i + 1) * ROW) else { return };
    // Chunks of 5 leave a short last chunk, which is weighted by its length.
    let mut weighted = 0.0f32;
    for (k, chunk) in row.chunks(5).enumerate() {
        let sum: f32 = chunk.iter().sum();
        weighted += sum * (k + 1) as f32 / chunk.len() as f32;
    }
    let exact = row.chunks_exact(3);
    let leftover: f32 = exact.remainder().iter().map(|x| x * 0.5).sum();
    let triples = exact.map(|c| c[0] * c[1] - c[2]).fold(0.0f32, |a, b| a + b);
    let peak =
        row.windows(4).map(|w| w.iter().copied().fold(f32::MIN, f32::max)).fold(f32::MAX, f32::min);
    let (head, tail) = row.split_at(ROW / 4);
    let head_max = head.iter().map(|x| x.abs()).fold(0.0, f32::max);
    let ends = match row.split_first() {
        Some((first, rest)) => first - rest.last().copied().unwrap_or(0.0),
        None => 0.0,
    };
    let all_small = tail.iter().all(|x| x.abs() < 90.0) as u32 as f32;
    if let Some(o) = out.get_mut(i) {
        *o = weighted + leftover + triples * 0.01 + peak + head_max + ends + all_small;
    }
}

/// Integer iteration: `for x in slice` binds `&u32`; reversed, strided, skipped and chained
/// walks over the same data; `zip` of a slice with a reversed copy of itself.
#[offload_kernel]
pub fn walks(xs: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: the pointers are mapped for the launch; the thread index is below 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let data = &*xs;
        let mine = &data[t / 8 * 8..t / 8 * 8 + 8];
        let mut mixed = 0u32;
        for x in mine {
            // `x` is a `&u32`; arithmetic on references works through the operator impls.
            mixed = mixed.rotate_left(5) ^ x;
        }
        let backwards = mine.iter().rev().fold(0u32, |h, &x| h.wrapping_mul(31).wrapping_add(x));
        let strided: u32 = data.iter().skip(t % 8).step_by(8).take(4).map(|x| x >> 28).sum();
        let chained = mine[..2]
            .iter()
            .chain(&mine[6..])
            .chain(core::iter::once(&data[t]))
            .filter(|&&x| x % 2 == 1)
            .count() as u32;
        let palindromic = mine.iter().zip(mine.iter().rev()).filter(|(a, b)| a == b).count() as u32;
        let smallest = mine.iter().min().copied().unwrap_or(0);
        let largest_low = mine.iter().map(|x| x & 0xffff).max().unwrap_or(0);
        let any_even = mine.iter().any(|x| x % 2 == 0) as u32;
        (*out)[t] = mixed
            ^ backwards
            ^ (strided << 3)
            ^ (chained << 24)
            ^ (palindromic << 28)
            ^ smallest.wrapping_sub(largest_low)
            ^ any_even;
    }
}

const BLOCK: usize = 128;

/// A block-wide inclusive prefix sum (Hillis and Steele): at each step every thread adds the
/// value `offset` places before it, with barriers between reading and writing. Integers keep
/// the result exact whatever the order of the additions.
#[offload_kernel]
pub fn block_scan(xs: &[u32], out: &mut [u32]) {
    // SAFETY: every thread of the block reaches each barrier; a thread writes only its own
    // shared element, after the barrier that ends the step's reads.
    unsafe {
        let t = thread_idx_x() as usize;
        let i = block_idx_x() as usize * BLOCK + t;
        let scratch = shared_array::<u32, BLOCK>();
        // Threads past the data scan zeros, so that every thread takes part in the barriers.
        (*scratch)[t] = xs.get(i).map_or(0, |x| x % 1000);
        sync_threads();
        let mut offset = 1;
        while offset < BLOCK {
            let add = if let Some(j) = t.checked_sub(offset) { (*scratch)[j] } else { 0 };
            sync_threads();
            (*scratch)[t] += add;
            sync_threads();
            offset *= 2;
        }
        if let Some(o) = out.get_mut(i) {
            *o = (*scratch)[t];
        }
    }
}

/// Run-length encoding of the thread's 16 quantised values: runs are found by comparing each
/// value with the one before it, and the encoded length and the longest run are written.
#[offload_kernel]
pub fn run_lengths(xs: *const [f32; 1024], out: *mut [u32; 64]) {
    // SAFETY: the pointers are mapped for the launch; thread t reads 16t..16t+16 < 1024.
    unsafe {
        let t = thread_idx_x() as usize;
        let xs = &*xs;
        let levels = xs[16 * t..16 * t + 16].iter().map(|x| (x.abs() / 40.0) as u8);
        let mut runs = [(0u8, 0u32); 16];
        let mut n = 0;
        for level in levels {
            match runs[..n].last_mut() {
                Some((value, count)) if *value == level => *count += 1,
                _ => {
                    runs[n] = (level, 1);
                    n += 1;
                }
            }
        }
        let longest = runs[..n].iter().map(|&(_, c)| c).max().unwrap_or(0);
        let checksum = runs[..n]
            .iter()
            .enumerate()
            .fold(0u32, |h, (k, &(v, c))| h ^ (u32::from(v) << (k % 4 * 8)).wrapping_add(c));
        (*out)[t] = (n as u32) | longest << 8 | checksum << 16;
    }
}
