//! Byte and slice idioms from hashing, parsing and segment kernels (the sha2 crate's message
//! schedule as Rust-CUDA's sha2 example runs it, base58 and CSV-style field splitting), tried
//! as a new user writes them (2026-12-06): `try_into()` from a slice to an array and to a
//! reference to one, `<[u8; 4]>::try_from`, `chunks_exact(_mut)`, `rchunks`, `split` on a
//! predicate, `trim_ascii`, `ends_with`, `eq_ignore_ascii_case`, `partition_point`,
//! `copy_within`, `is_sorted`, `as_flattened`, slice patterns on what `get(a..b)` returns,
//! `try_fold` and `try_for_each` (with `Option`, `Result` and `ControlFlow`), sums of
//! `Option`s and `Result`s, and `rev()` after `chunks`, `windows`, `zip`, `skip`, `take` and
//! `step_by`.
use core::ops::ControlFlow;
use rkc_offload::prelude::*;

/// Each thread reads a 16-byte record: four little-endian words, a checksum with early exit,
/// and the record's text-like fields.
#[offload_kernel]
pub fn records(bytes: &[u8], out: &mut [u32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let Some(o) = out.get_mut(i) else { return };
    let Some(rec) = bytes.get(i * 16..i * 16 + 16) else {
        *o = u32::MAX;
        return;
    };
    let w: [u32; 4] =
        core::array::from_fn(|k| u32::from_le_bytes(rec[4 * k..4 * k + 4].try_into().unwrap()));
    let first = <[u8; 4]>::try_from(&rec[..4]).map_or(0, u32::from_be_bytes);
    let head: &[u8; 2] = rec[..2].try_into().unwrap();
    let too_long: Result<[u8; 3], _> = rec.try_into();
    let lead = match rec {
        [a, b, rest @ ..] => (*a as u32) * 3 + (*b as u32) + rest.len() as u32,
        [] | [_] => 0,
    };
    // Letters, digits and spaces, from the random bytes.
    let mut text = [0u8; 16];
    for (t, &b) in text.iter_mut().zip(rec) {
        *t = match b % 8 {
            0 => b' ',
            1 => b',',
            2..=4 => b'a' + b % 26,
            5 => b'A' + b % 26,
            _ => b'0' + b % 10,
        };
    }
    let fields = text.split(|&c| c == b',').filter(|f| !f.trim_ascii().is_empty()).count() as u32;
    let longest =
        text.split(|&c| c == b',').map(|f| f.trim_ascii().len()).max().unwrap_or(0) as u32;
    let last_field = text.split(|&c| c == b',').next_back().map_or(0, |f| f.len() as u32);
    let same = text[..4].eq_ignore_ascii_case(&text[4..8]) as u32 + text.ends_with(b"0") as u32;
    let digits: Option<u32> = text.iter().try_fold(0u32, |acc, &c| {
        if c.is_ascii_digit() {
            acc.checked_mul(10)?.checked_add((c - b'0') as u32)
        } else {
            Some(acc)
        }
    });
    let sum_small: Option<u32> =
        rec.iter().map(|&b| if b < 250 { Some(b as u32) } else { None }).sum();
    let parsed: Result<u32, u8> =
        rec.iter().map(|&b| if b != 7 { Ok(b as u32 % 10) } else { Err(b) }).product();
    let mut seen = 0u32;
    let stopped = rec.iter().try_for_each(|&b| {
        if b > 240 {
            return ControlFlow::Break(b);
        }
        seen += 1;
        ControlFlow::Continue(())
    });
    *o = w[0]
        ^ w[1].rotate_left(7)
        ^ w[2].wrapping_mul(3)
        ^ w[3]
        ^ first.wrapping_add(u16::from_le_bytes(*head) as u32)
        ^ (too_long.is_err() as u32) << 31
        ^ lead << 8
        ^ fields << 3
        ^ longest << 12
        ^ last_field << 20
        ^ same << 24
        ^ digits.unwrap_or(1).wrapping_mul(31)
        ^ sum_small.map_or(0xdead, |s| s << 2)
        ^ parsed.unwrap_or_else(|e| e as u32 * 1000).wrapping_mul(17)
        ^ stopped.break_value().map_or(seen, |b| b as u32 + 100 * seen);
}

/// Iterating from the back: `rev()` over chunks, windows, zips, skips, takes and steps, and
/// `rchunks`, checked against the same walks from the front.
#[offload_kernel]
pub fn backwards(xs: &[u32], out: &mut [u32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let Some(o) = out.get_mut(i) else { return };
    let n = i % 13 + 3;
    let Some(xs) = xs.get(i..i + n) else {
        *o = 0;
        return;
    };
    // Horner's rule over chunks from the most significant end.
    let mut h = 0u32;
    for c in xs.chunks(3).rev() {
        h = h.wrapping_mul(1_000_003).wrapping_add(c.iter().fold(0u32, |a, &v| a ^ v));
    }
    let exact_back = xs
        .chunks_exact(2)
        .rev()
        .map(|c| c[0].wrapping_sub(c[1]))
        .fold(0u32, |a, d| a.wrapping_mul(5).wrapping_add(d));
    let windows_back = xs.windows(2).rev().position(|w| w[0] < w[1]).map_or(99, |p| p as u32);
    let rchunk_first = xs.rchunks(4).next().map_or(0, |c| c.len() as u32);
    let rchunk_last = xs.rchunks(4).next_back().map_or(0, |c| c.len() as u32);
    let zipped: u32 = xs
        .iter()
        .zip(xs.iter().skip(1))
        .rev()
        .take(3)
        .map(|(a, b)| a ^ b)
        .fold(7, |a, v| a.wrapping_mul(3) ^ v);
    let skipped: u32 = xs.iter().skip(2).rev().map(|v| v % 1000).sum();
    let taken = xs.iter().take(5).rev().copied().reduce(|a, b| a.wrapping_mul(7) ^ b).unwrap_or(0);
    let stepped: u32 =
        xs.iter().step_by(3).rev().enumerate().map(|(k, &v)| (k as u32 + 1) * (v % 100)).sum();
    let stepped_len = xs.iter().step_by(4).len() as u32;
    let mut scratch = [0u32; 16];
    scratch[..n].copy_from_slice(xs);
    scratch.copy_within(0..4, 2);
    scratch.copy_within(n / 2..n, 1);
    for pair in scratch.chunks_exact_mut(2).rev() {
        pair.swap(0, 1);
    }
    scratch[..n].sort_unstable();
    let sorted = scratch[..n].is_sorted() as u32 + xs.is_sorted_by_key(|v| v / 1000) as u32;
    let below = scratch[..n].partition_point(|&v| v < u32::MAX / 2) as u32;
    let grid = [[1u32, 2, 3], [4, 5, 6]];
    let flat: u32 = grid.as_flattened().iter().rev().fold(0, |a, &v| a * 10 + v);
    *o = h
        ^ exact_back.rotate_left(3)
        ^ windows_back << 1
        ^ rchunk_first << 5
        ^ rchunk_last << 9
        ^ zipped.rotate_left(11)
        ^ skipped
        ^ taken.rotate_left(17)
        ^ stepped << 2
        ^ stepped_len << 26
        ^ scratch.iter().fold(0u32, |a, &v| a.rotate_left(5) ^ v)
        ^ sorted << 28
        ^ below << 20
        ^ flat;
}

/// A mean over any slice whose elements widen to `f64`, called with two element types: the
/// `T: Into<f64>` bound decides what `into()` makes, as in rustc.
fn mean<T: Copy + Into<f64>>(xs: &[T]) -> f64 {
    xs.iter().map(|&v| v.into()).sum::<f64>() / xs.len().max(1) as f64
}

/// Anything that views as a slice of floats.
fn total<S: AsRef<[f32]>>(s: S) -> f32 {
    s.as_ref().iter().sum()
}

/// Pointer sentinels, literals as method receivers, generic conversions, and the in-place
/// slice methods of segment kernels (`split_first_mut`, `rotate_right`, `swap_with_slice`,
/// `strip_prefix`, `first_chunk`, `split_inclusive`, `rsplit`, `splitn`).
#[offload_kernel]
pub fn segments(xs: &[u32], fs: &[f32], hs: &[u16], out: &mut [u32]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    let Some(o) = out.get_mut(i) else { return };
    let n = i % 9 + 2;
    let Some(seg) = xs.get(i..i + n) else {
        *o = 1;
        return;
    };
    let none: *const u32 = core::ptr::null();
    let chosen = if i % 2 == 0 { seg.as_ptr() } else { none };
    // SAFETY: a non-null `chosen` points at `seg`'s first element.
    let via_null = if chosen.is_null() { 7 } else { (unsafe { *chosen }) % 100 };
    let low = 4.min(n) as u32;
    let (mn, mx) = seg.iter().fold((u32::MAX, 0), |(a, b), &v| (a.min(v), b.max(v)));
    let m = mean(&fs[..(i % 5 + 1).min(fs.len())]) + mean(&hs[..(i % 3 + 1).min(hs.len())]);
    let t = total(&fs[..2]) + total([0.5f32, 0.25]);
    let mut w = [0u32; 12];
    w[..n].copy_from_slice(seg);
    if let Some((first, rest)) = w[..n].split_first_mut() {
        *first = first.wrapping_add(rest.len() as u32);
    }
    if let Some((last, _)) = w[..n].split_last_mut() {
        *last ^= 0xff;
    }
    w[..n].rotate_right(i % n);
    let (a, b) = w.split_at_mut(6);
    a.swap_with_slice(&mut b[..6]);
    let marks: [u32; 9] =
        core::array::from_fn(|k| if (seg[k % n] + k as u32) % 3 == 0 { 0 } else { k as u32 + 1 });
    let parts = marks.split_inclusive(|&v| v == 0).count() as u32;
    let back = marks.rsplit(|&v| v == 0).next().map_or(0, |p| p.len() as u32);
    let first_two =
        marks.splitn(2, |&v| v == 0).map(|p| p.len() as u32).fold(0, |acc, l| acc * 16 + l);
    let stripped = marks.strip_prefix(&[0]).map_or(99, |r| r.len() as u32)
        + marks.strip_suffix(&[9]).map_or(50, |r| r.len() as u32);
    let chunk = seg.first_chunk::<2>().map_or(0, |c| c[0] ^ c[1])
        ^ seg.last_chunk::<2>().map_or(0, |c| c[1])
        ^ seg.split_first_chunk::<1>().map_or(0, |(c, r)| c[0].wrapping_add(r.len() as u32));
    // A hash step as PCG and xorshift ports write it.
    let mut h = core::num::Wrapping(i as u32);
    h ^= h >> 16;
    h *= core::num::Wrapping(0x7feb_352d);
    h ^= h >> 15;
    h += core::num::Wrapping(seg[0]);
    h = -h - core::num::Wrapping(3) << 1;
    let mut sorted = w;
    sorted.sort_unstable();
    let found = match sorted.binary_search_by_key(&(w[3] / 2), |v| v / 2) {
        Ok(_) => 1,
        Err(k) => k as u32 + 2,
    };
    *o = via_null
        ^ low << 3
        ^ mn.rotate_left(5)
        ^ mx.rotate_left(9)
        ^ (m as f32).to_bits()
        ^ t.to_bits().rotate_left(1)
        ^ w.iter().fold(0u32, |acc, &v| acc.rotate_left(3) ^ v)
        ^ parts << 20
        ^ back << 24
        ^ first_two << 12
        ^ stripped << 16
        ^ chunk
        ^ found << 28
        ^ h.0;
}
