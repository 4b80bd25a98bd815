//! `Result`, `?` and ordering as parsers and sorting kernels use them: a fixed-point number
//! parser over bytes with a custom error enum, `?` converting one error type into another
//! through `From`, `map_err`/`ok_or`/`and_then`/`unwrap_or_else`/`map_or_else`/`is_ok_and`,
//! `match` with guards on errors, and `Ordering` from `cmp`/`partial_cmp`/`total_cmp`, with
//! `then_with`, `reverse`, `max_by`, `min_by_key`, `cmp::Reverse` and `sort_unstable_by`.
use core::cmp::{Ordering, Reverse};
use rkc_offload::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ParseError {
    Empty,
    BadByte { at: usize, byte: u8 },
    TwoPoints,
    Overflow,
}

/// What the kernel reports: a parse error, or a value out of the accepted range.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Rejected {
    Parse(ParseError),
    OutOfRange(i64),
}

impl From<ParseError> for Rejected {
    fn from(e: ParseError) -> Self {
        Rejected::Parse(e)
    }
}

/// Parses `-?digits(.digits)?` into thousandths: "12.5" is 12500.
fn parse_fixed(text: &[u8]) -> Result<i64, ParseError> {
    let (negative, digits) = match text.split_first() {
        None => return Err(ParseError::Empty),
        Some((b'-', rest)) => (true, rest),
        Some(_) => (false, text),
    };
    if digits.is_empty() {
        return Err(ParseError::Empty);
    }
    let mut value: i64 = 0;
    let mut scale: Option<u32> = None;
    for (at, &byte) in digits.iter().enumerate() {
        match byte {
            b'.' if scale.is_some() => return Err(ParseError::TwoPoints),
            b'.' => scale = Some(0),
            b'0'..=b'9' => {
                // Digits past the third decimal are dropped, as a fixed-point reader does.
                if scale.is_some_and(|s| s >= 3) {
                    continue;
                }
                let d = i64::from(byte - b'0');
                value = value
                    .checked_mul(10)
                    .and_then(|v| v.checked_add(d))
                    .ok_or(ParseError::Overflow)?;
                if let Some(s) = scale.as_mut() {
                    *s += 1;
                }
            }
            _ => return Err(ParseError::BadByte { at, byte }),
        }
    }
    let shift = 3 - scale.unwrap_or(0);
    let value = value.checked_mul(10i64.pow(shift)).ok_or(ParseError::Overflow)?;
    Ok(if negative { -value } else { value })
}

/// `?` on a `Result<_, ParseError>` inside a function returning `Result<_, Rejected>` goes
/// through `From`.
fn parse_in_range(text: &[u8], limit: i64) -> Result<i64, Rejected> {
    let v = parse_fixed(text)?;
    if v.abs() > limit { Err(Rejected::OutOfRange(v)) } else { Ok(v) }
}

fn error_code(e: Rejected) -> i64 {
    match e {
        Rejected::Parse(ParseError::Empty) => -1,
        Rejected::Parse(ParseError::BadByte { at, byte }) if byte.is_ascii_alphabetic() => {
            -1000 - at as i64
        }
        Rejected::Parse(ParseError::BadByte { byte, .. }) => -2000 - i64::from(byte),
        Rejected::Parse(ParseError::TwoPoints) => -3,
        Rejected::Parse(ParseError::Overflow) => -4,
        Rejected::OutOfRange(v) => -5_000_000 - v.signum(),
    }
}

/// Each thread spells a short number from its random bytes (mostly digits, sometimes a sign,
/// a point, a space or a letter), parses it, and writes the value or an error code.
#[offload_kernel]
pub fn parse_numbers(noise: &[u8], out: &mut [i64]) {
    // SAFETY: the builtins only read the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    const ALPHABET: &[u8; 16] = b"0123456789.-0 x7";
    let Some(source) = noise.get(i * 8..i * 8 + 8) else { return };
    let mut text = [0u8; 8];
    for (c, &n) in text.iter_mut().zip(source) {
        *c = ALPHABET[usize::from(n % 16)];
    }
    // Keep the sign only in front, and vary the length from 0 to 7.
    let len = usize::from(source[0] % 8);
    let text = &text[..len];
    let limit = 50_000;
    let result = parse_in_range(text, limit).map_err(|e| match e {
        Rejected::OutOfRange(v) if v > 0 => Rejected::OutOfRange(limit),
        other => other,
    });
    let ok = result.is_ok_and(|v| v % 2 == 0) as i64;
    if let Some(o) = out.get_mut(i) {
        *o = result.map_or_else(error_code, |v| v * 2 + ok);
    }
}

/// A candidate in a ranking: compared by score (a float, so by `partial_cmp`/`total_cmp`),
/// then by a priority, then by the id.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Candidate {
    id: u32,
    score: f32,
    priority: u8,
}

fn by_rank(a: &Candidate, b: &Candidate) -> Ordering {
    b.score
        .partial_cmp(&a.score)
        .unwrap_or(Ordering::Equal)
        .then_with(|| a.priority.cmp(&b.priority).reverse())
        .then(a.id.cmp(&b.id))
}

/// Sorts eight candidates per thread with a comparator, and picks winners several ways.
#[offload_kernel]
pub fn ranking(scores: *const [f32; 64], tags: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: the pointers are mapped for the launch; indices are taken modulo 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let mut pool: [Candidate; 8] = core::array::from_fn(|k| {
            let j = (t + k * 9) % 64;
            // Rounded scores so that ties happen and the later keys decide.
            Candidate {
                id: j as u32,
                score: ((*scores)[j] / 25.0).round(),
                priority: ((*tags)[j] % 4) as u8,
            }
        });
        pool.sort_unstable_by(by_rank);
        let best = pool[0].id;
        let loudest = pool.iter().max_by(|a, b| a.score.total_cmp(&b.score)).map_or(99, |c| c.id);
        let calmest = pool.iter().min_by_key(|c| (c.priority, Reverse(c.id))).map_or(99, |c| c.id);
        let order = match by_rank(&pool[0], &pool[7]) {
            Ordering::Less => 1,
            Ordering::Equal => 2,
            Ordering::Greater => 3,
        };
        let sorted = pool.windows(2).all(|w| by_rank(&w[0], &w[1]) != Ordering::Greater) as u32;
        let clamped = core::cmp::max(pool[3].priority, 2).min(3) as u32;
        (*out)[t] =
            best | loudest << 6 | calmest << 12 | order << 18 | sorted << 20 | clamped << 21;
    }
}

/// A fixed-size budget that arithmetic may exhaust: every step is checked, and the first
/// overflow decides the outcome.
fn budget(base: u32, factor: u32, extra: u32) -> Option<u32> {
    let scaled = base.checked_mul(factor)?;
    let with_extra = scaled.checked_add(extra)?;
    let halved = with_extra.checked_div(factor.checked_sub(1)?)?;
    halved.checked_next_power_of_two()
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Stage {
    Budget,
    Shift,
}

fn staged(base: u32, factor: u32, extra: u32) -> Result<u32, Stage> {
    let b = budget(base, factor, extra).ok_or(Stage::Budget)?;
    b.checked_shl(factor % 40).ok_or(Stage::Shift)
}

/// `Option` and `Result` pipelines over checked arithmetic: `?` on `Option`, `ok_or`,
/// `and_then`, `or_else`, `unwrap_or_else`, `overflowing_*` and `wrapping_*`.
#[offload_kernel]
pub fn checked_pipeline(xs: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: the pointers are mapped for the launch; indices are taken modulo 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let a = (*xs)[t] >> (t % 24);
        let b = (*xs)[(t + 1) % 64] % 64;
        let c = (*xs)[(t + 2) % 64] >> 4;
        let primary = staged(a, b, c);
        let fallback = primary.or_else(|stage| match stage {
            Stage::Budget => staged(a >> 8, b, c >> 8),
            Stage::Shift => Err(Stage::Shift),
        });
        let value = fallback.unwrap_or_else(|stage| 0xdead_0000 | stage as u32);
        let (sum, carried) = a.overflowing_add(c << 4);
        let (product, wrapped) = b.overflowing_mul(a);
        let tail = sum.wrapping_sub(product).wrapping_mul(0x9e37_79b9);
        (*out)[t] = value ^ tail ^ ((carried as u32) << 30) ^ ((wrapped as u32) << 31);
    }
}
