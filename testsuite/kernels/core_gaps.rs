//! Parts of `core` that the eighth porting round (2026-12-07) found missing from rkc's device
//! core: iterating from the back through `filter_map`, `inspect`, `fuse`, `peekable`,
//! `flat_map` and `flatten` (a peeked item and the inner iterators that both ends share
//! included) and `try_rfold`; `Result::iter`, `iter_mut` and `Result` as `IntoIterator` (by
//! value and by reference, flattened); `checked_ilog10`, `checked_ilog`, `checked_ilog2`,
//! `saturating_div`, `isqrt` and `checked_isqrt`; `Result::inspect_err` and `inspect`,
//! `Option::get_or_insert_default`; `core::num::Saturating` with every operator; and
//! `core::mem::discriminant`, compared on an enum without `PartialEq`, on `Option` and on a
//! `repr(i8)` enum with negative discriminants, directly and through a generic function.
use core::mem::{self, Discriminant};
use core::num::Saturating;
use rkc_offload::prelude::*;

/// Each kernel writes this many outputs per thread.
const OUTS: usize = 8;

/// An order-sensitive hash of what an iterator yields, so that an item out of its place shows.
fn mix(acc: u32, v: u32) -> u32 {
    acc.rotate_left(5) ^ v.wrapping_mul(0x9e37_79b9)
}

#[offload_kernel]
pub fn double_ended_adapters(xs: &[u32], out: &mut [u32]) {
    // SAFETY: builtins only.
    let i = unsafe { global_idx_x() };
    let n = i % 6 + 1;
    if i + n > xs.len() || (i + 1) * OUTS > out.len() {
        return;
    }
    let w = &xs[i..i + n];
    let o = &mut out[i * OUTS..(i + 1) * OUTS];

    // The items that pass, last first.
    o[0] = w.iter().filter_map(|&v| (v % 3 != 0).then_some(v >> 4)).rev().fold(1, mix);

    // `inspect` sees every item it yields from either end.
    let mut seen = 0u32;
    let tail = w.iter().inspect(|v| seen = mix(seen, **v)).rev().take(2).fold(0, |a, v| mix(a, *v));
    o[1] = tail ^ seen;

    // A fused iterator from both ends, past its end.
    let mut f = w.iter().copied().fuse();
    let back = f.next_back().unwrap_or(7);
    let front = f.next().unwrap_or(11);
    let mut rest = 0;
    while let Some(v) = f.next_back() {
        rest = mix(rest, v);
    }
    o[2] = mix(mix(back, front), rest) ^ f.next().unwrap_or(3) ^ f.next_back().unwrap_or(5);

    // A peeked item is the front one: from the back it comes last.
    let mut p = w.iter().map(|v| v & 0xffff).peekable();
    let first = p.peek().copied().unwrap_or(0);
    let mut from_back = 0;
    while let Some(v) = p.next_back() {
        from_back = mix(from_back, v);
    }
    o[3] = from_back ^ first.rotate_left(9) ^ p.next().map_or(13, |v| v + 1);

    // `flat_map` from both ends in turn: once the outer items run out, each end goes on into
    // the inner iterator the other end began.
    let mut fm = w.iter().flat_map(|&v| [v & 0xff, (v >> 8) & 0xff, v >> 24]);
    let mut h = 0;
    let mut k = 0u32;
    loop {
        let item = if (w[0] >> k) & 1 == 0 { fm.next() } else { fm.next_back() };
        match item {
            Some(v) => h = mix(h, v + k),
            None => break,
        }
        k += 1;
    }
    o[4] = h ^ k;

    // `flatten` over `Option`s and over arrays, from the back.
    let odd = w.iter().map(|&v| (v % 2 == 1).then_some(v >> 3)).flatten().rev().fold(0, mix);
    let mut pairs = w.iter().map(|&v| [v, v ^ 0x5555]).flatten();
    let last = pairs.next_back().unwrap_or(0);
    let first = pairs.next().unwrap_or(0);
    o[5] = odd ^ last.wrapping_sub(first) ^ pairs.rev().count() as u32;

    // `try_rfold` stops at the first overflow from the back (`None`), or at an item that is a
    // multiple of 7 (`Err` with the sum so far).
    let sum = w.iter().try_rfold(0u32, |acc, v| acc.checked_add(v >> 1));
    let until = w.iter().try_rfold(0u32, |acc, &v| if v % 7 == 0 { Err(acc) } else { Ok(acc ^ v) });
    o[6] = sum.map_or(1, |s| s | 2)
        ^ match until {
            Ok(x) => x,
            Err(x) => !x,
        };

    // The adapters inside one another, reversed.
    o[7] = w
        .iter()
        .copied()
        .fuse()
        .inspect(|_| ())
        .filter_map(|v| v.checked_sub(1 << 30))
        .flat_map(|v| [v >> 16, v & 0xffff])
        .peekable()
        .rev()
        .fold(0, mix);
}

/// What a `&Result` iterates as a collection: its `Ok` value, if any.
fn total<'a, I: IntoIterator<Item = &'a u32>>(items: I) -> u32 {
    let mut sum = 0;
    for v in items {
        sum += *v;
    }
    sum
}

fn flip<'a, I: IntoIterator<Item = &'a mut u32>>(items: I) {
    for v in items {
        *v ^= 0x55;
    }
}

#[offload_kernel]
pub fn result_iterators(xs: &[u32], out: &mut [u32]) {
    // SAFETY: builtins only.
    let i = unsafe { global_idx_x() };
    if i + 4 > xs.len() || (i + 1) * OUTS > out.len() {
        return;
    }
    let parse =
        |v: u32| -> Result<u32, u8> { if v % 3 == 0 { Err((v % 251) as u8) } else { Ok(v >> 8) } };
    let o = &mut out[i * OUTS..(i + 1) * OUTS];
    let mut r = parse(xs[i]);

    o[0] = r.iter().sum::<u32>() + r.iter().count() as u32;
    for v in r.iter_mut() {
        *v = v.wrapping_mul(3);
    }
    flip(&mut r);
    o[1] = total(&r) ^ r.iter().rev().next().map_or(17, |v| v + 1);
    o[2] = r.into_iter().chain(Ok::<u32, u8>(5)).chain(parse(xs[i + 1])).fold(0, mix);

    // The `Ok` values of a run of results, by reference and by value, from both ends.
    let rs = [parse(xs[i]), parse(xs[i + 1]), parse(xs[i + 2]), parse(xs[i + 3])];
    o[3] = rs.iter().flatten().fold(0, |a, v| mix(a, *v));
    o[4] = rs.into_iter().flatten().rev().fold(0, mix);
    let mut back = rs.iter().flat_map(|r| r.iter());
    o[5] = back.next_back().map_or(0, |v| *v) ^ back.next().map_or(0, |v| *v << 1);

    // `inspect_err` and `inspect` see the error and the value without taking them.
    let mut errs = 0u32;
    let mut oks = 0u32;
    let kept: u32 = rs
        .iter()
        .map(|r| r.inspect_err(|e| errs += u32::from(*e)).inspect(|v| oks ^= *v).unwrap_or(9))
        .fold(0, mix);
    o[6] = kept ^ errs ^ oks.rotate_left(3);
    let mut count = 0;
    let low = parse(xs[i + 2]).inspect_err(|_| count += 1).map_or(0, |v| v & 0xfff);
    o[7] = low + count;
}

#[offload_kernel]
pub fn integer_gaps(xs: &[u32], out: &mut [u32]) {
    // SAFETY: builtins only.
    let i = unsafe { global_idx_x() };
    if i >= xs.len() || (i + 1) * OUTS > out.len() {
        return;
    }
    let o = &mut out[i * OUTS..(i + 1) * OUTS];
    // Small values and zero often enough, besides the full range.
    let v = match i % 4 {
        0 => xs[i],
        1 => xs[i] >> 20,
        2 => xs[i] % 3,
        _ => xs[i] >> 9,
    };
    let base = (v >> 3) % 6; // 0 and 1 are no bases
    let digits = v.checked_ilog10().map_or(99, |d| d + 1);
    o[0] = digits
        + v.checked_ilog(base).unwrap_or(50) * 100
        + v.checked_ilog2().unwrap_or(31) * 10_000
        + u64::from(v).wrapping_mul(0x1_0000_0001).checked_ilog(7).unwrap_or(77) * 1_000_000;

    // Signed values: not positive gives `None`.
    let s = v as i32;
    let b = (v as i8).wrapping_sub(64);
    o[1] = s.checked_ilog10().map_or(1000, |d| d)
        + (b.checked_ilog(3).map_or(500, |d| d) << 12)
        + ((i64::from(s) - 5).checked_ilog2().map_or(200, |d| d) << 20);

    // `saturating_div`: only `MIN / -1` saturates; the divisor is never zero here.
    let d = match (v >> 4) % 5 {
        0 => -1i8,
        1 => 2,
        2 => -3,
        3 => 1,
        _ => -128,
    };
    let n = if v % 5 == 0 { i8::MIN } else { v as i8 };
    let q = n.saturating_div(d);
    let q32 = (if v % 7 == 0 { i32::MIN } else { v as i32 }).saturating_div(i32::from(d));
    let qu = (v as u16).saturating_div(((v >> 16) as u16) | 1);
    o[2] = (q as u8 as u32) | ((q32 as u32) << 8) ^ (u32::from(qu) << 16);

    // Square roots: negative signed values have none.
    let neg = (v as i32).wrapping_sub(1 << 30);
    o[3] = neg.checked_isqrt().map_or(u32::MAX, |r| r as u32)
        ^ ((v as i16).checked_isqrt().map_or(7, |r| r as u32) << 20);
    o[4] = v.isqrt() + (u64::from(v) << 20).isqrt() as u32 + i64::from(v >> 1).isqrt() as u32;

    // `get_or_insert_default` inserts zero only where there was nothing.
    let mut slot: Option<u32> = if v % 2 == 0 { Some(v) } else { None };
    *slot.get_or_insert_default() += 3;
    let mut pair: Option<(u8, u16)> = None;
    let p = pair.get_or_insert_default();
    p.0 = v as u8;
    p.1 = (v >> 8) as u16;
    o[5] = slot.unwrap_or(1) ^ pair.map_or(0, |(a, b)| u32::from(a) << 16 | u32::from(b));
    o[6] = (v as u64).saturating_div(u64::from(v % 13 + 1)) as u32;
    o[7] = (-(v as i64 % 40)).checked_ilog10().map_or(3, |d| d + 10);
}

#[offload_kernel]
pub fn saturating_math(xs: &[u32], out: &mut [u32]) {
    // SAFETY: builtins only.
    let i = unsafe { global_idx_x() };
    if i + 1 >= xs.len() || (i + 1) * OUTS > out.len() {
        return;
    }
    let o = &mut out[i * OUTS..(i + 1) * OUTS];
    let (x, y) = (xs[i], xs[i + 1]);

    // Unsigned bytes stop at 0 and 255.
    let a = Saturating(x as u8);
    let b = Saturating(y as u8);
    let sum = a + b;
    let diff = a - b;
    let prod = a * b;
    let quot = a / Saturating((y >> 8) as u8 | 1);
    let rem = a % Saturating((y >> 16) as u8 | 1);
    o[0] = u32::from_le_bytes([sum.0, diff.0, prod.0, quot.0]) ^ u32::from(rem.0);

    // Signed halves stop at `MIN` and `MAX`, negation and division included.
    let c = Saturating(if x % 9 == 0 { i16::MIN } else { x as i16 });
    let e = Saturating(y as i16 >> (y % 8));
    let divisor = Saturating(if y % 4 == 0 { -1 } else { (y >> 16) as i16 | 1 });
    let parts = [c + e, c - e, c * e, c / divisor, -c, -e, !c, c % Saturating(7)];
    o[1] = parts.iter().fold(0, |h, p| mix(h, p.0 as u16 as u32));

    // The assignment forms, with saturating and with plain right operands.
    let mut acc = Saturating(x as i32 >> 2);
    acc += Saturating(y as i32);
    acc *= Saturating(3);
    acc -= (y >> 1) as i32;
    acc /= Saturating(if x % 5 == 0 { -1 } else { 7 });
    acc += i32::MAX;
    o[2] = acc.0 as u32;
    let mut m = Saturating(x as i32);
    m *= i32::MAX;
    m %= 1000;
    m -= Saturating(i32::MIN);
    o[3] = m.0 as u32;

    // The bit operations are the plain ones.
    let mut bits = Saturating(x as u16);
    bits ^= Saturating(y as u16);
    bits &= (y >> 3) as u16;
    bits |= Saturating(0x8001);
    let masked = (Saturating(y as u64) ^ Saturating(u64::from(x) << 32)) & Saturating(!0xff00);
    o[4] = u32::from(bits.0)
        ^ (masked.0 >> 16) as u32
        ^ (Saturating(x as u64) | Saturating(0xf0)).0 as u32
        ^ ((!Saturating(y as u8)).0 as u32) << 24;

    // A running total that clamps at the type's bounds, as audio and image kernels keep.
    let mut level = Saturating::<u8>::MIN;
    let mut peak = Saturating(0u8);
    for k in 0..8 {
        let step = xs[(i + k) % xs.len()];
        if step % 3 == 0 {
            level -= (step >> 8) as u8;
        } else {
            level += (step >> 24) as u8;
        }
        peak = peak.max(level);
    }
    o[5] = u32::from(level.0) | u32::from(peak.0) << 8 | u32::from(Saturating::<u8>::MAX.0) << 16;
    let big = Saturating(u128::from(x) << 100) * Saturating(u128::from(y | 1) << 20);
    o[6] = (big.0 >> 96) as u32 ^ (Saturating(i64::MIN) - Saturating(x as i64)).0 as u32;
    o[7] = (Saturating(x as usize) + Saturating(usize::MAX)).0 as u32
        ^ (Saturating(i8::MIN) * Saturating(-1)).0 as u32
        ^ Saturating::<u32>::BITS;
}

/// Tokens of a little expression language: an enum with data and no `PartialEq`.
#[derive(Clone, Copy)]
enum Token {
    Num(u32),
    Op(u8),
    Sep,
    Group { depth: u16, open: bool },
}

#[derive(Clone, Copy)]
#[repr(i8)]
enum Level {
    Low = -3,
    Mid = 0,
    High = 100,
}

fn token(v: u32) -> Token {
    match v % 7 {
        0 | 1 | 2 => Token::Num(v >> 4),
        3 => Token::Op(v as u8),
        4 => Token::Sep,
        _ => Token::Group { depth: (v >> 8) as u16, open: v % 2 == 0 },
    }
}

fn same_kind<T>(a: &T, b: &T) -> bool {
    mem::discriminant(a) == mem::discriminant(b)
}

#[offload_kernel]
pub fn discriminants(xs: &[u32], out: &mut [u32]) {
    // SAFETY: builtins only.
    let i = unsafe { global_idx_x() };
    if i + 6 > xs.len() || (i + 1) * OUTS > out.len() {
        return;
    }
    let o = &mut out[i * OUTS..(i + 1) * OUTS];
    let tokens = [token(xs[i]), token(xs[i + 1]), token(xs[i + 2]), token(xs[i + 3])];

    // Runs of tokens of one kind, whatever they hold.
    let mut runs = 1;
    for w in tokens.windows(2) {
        if mem::discriminant(&w[0]) != mem::discriminant(&w[1]) {
            runs += 1;
        }
    }
    o[0] = runs;

    // A discriminant is a value of its own: copied, cloned, kept in an array.
    let kinds: [Discriminant<Token>; 4] = [
        mem::discriminant(&tokens[0]),
        mem::discriminant(&tokens[1]),
        mem::discriminant(&tokens[2]),
        mem::discriminant(&tokens[3]),
    ];
    let num = mem::discriminant(&Token::Num(0));
    let copy = kinds[0];
    let cloned = kinds[1].clone();
    o[1] = kinds.iter().filter(|k| **k == num).count() as u32
        | (kinds.iter().position(|k| *k == copy).unwrap_or(9) as u32) << 4
        | (kinds.iter().rposition(|k| *k == cloned).unwrap_or(9) as u32) << 8
        | u32::from(kinds[2] == mem::discriminant(&Token::Group { depth: 1, open: false })) << 12;

    // `Option`, a fieldless `repr(i8)` enum, and the generic function.
    let opt = if xs[i + 4] % 3 == 0 { None } else { Some(xs[i + 4]) };
    let level = match xs[i + 5] % 3 {
        0 => Level::Low,
        1 => Level::Mid,
        _ => Level::High,
    };
    o[2] = u32::from(mem::discriminant(&opt) == mem::discriminant(&Some(0)))
        | u32::from(same_kind(&level, &Level::Low)) << 1
        | u32::from(same_kind(&level, &Level::High)) << 2
        | u32::from(same_kind(&tokens[0], &tokens[3])) << 3
        | u32::from(same_kind(&Token::Op(1), &Token::Op(2))) << 4;
    o[3] = tokens
        .iter()
        .map(|t| kinds.iter().filter(|k| **k == mem::discriminant(t)).count() as u32)
        .fold(0, mix);
    o[4] = match tokens[0] {
        Token::Num(v) => v,
        Token::Op(b) => u32::from(b),
        Token::Sep => 5,
        Token::Group { depth, open } => u32::from(depth) + u32::from(open),
    };
    o[5] = level as i8 as u32;
    o[6] = u32::from(same_kind(&Some(Level::Mid), &Some(level)));
    o[7] = u32::from(same_kind(&Ok::<u32, u8>(1), &if xs[i] % 2 == 0 { Ok(3) } else { Err(4) }));
}
