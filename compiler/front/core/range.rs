//! Iteration over ranges of integers and `char`s (`a..b`, `a..=b`, `a..`), through the `Step` trait as in
//! `core`, so that `for k in 0..8` leaves `k`'s integer type to its uses.

use crate::ops::{Range, RangeFrom, RangeInclusive};
use crate::option::Option::{self, None, Some};

/// Types with successors and predecessors: the integers and `char`.
pub trait Step: Clone + PartialOrd + Sized {
    /// The number of steps from `start` to `end` (`start <= end`).
    fn steps_between(start: &Self, end: &Self) -> usize;
    /// `start` plus `n` steps, wrapping.
    fn forward(start: Self, n: usize) -> Self;
    /// `start` minus `n` steps, wrapping.
    fn backward(start: Self, n: usize) -> Self;
}

//@ for $T in u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize
impl Step for $T {
    fn steps_between(start: &$T, end: &$T) -> usize {
        (*end).wrapping_sub(*start) as $U as usize
    }

    fn forward(start: $T, n: usize) -> $T {
        start.wrapping_add(n as $T)
    }

    fn backward(start: $T, n: usize) -> $T {
        start.wrapping_sub(n as $T)
    }
}
//@ end

/// `char`s step over the surrogates (`0xD800..=0xDFFF`), which are not `char`s, as core's.
impl Step for char {
    fn steps_between(start: &char, end: &char) -> usize {
        let (s, e) = (*start as u32, *end as u32);
        let d = e.wrapping_sub(s);
        (if s < 0xD800 && 0xE000 <= e { d - 0x800 } else { d }) as usize
    }

    fn forward(start: char, n: usize) -> char {
        let s = start as u32;
        let mut r = s.wrapping_add(n as u32);
        if s < 0xD800 && 0xD800 <= r {
            r += 0x800;
        }
        // SAFETY: ranges step only between their bounds, which are `char`s, and the
        // surrogates are skipped.
        unsafe { crate::char::from_u32_unchecked(r) }
    }

    fn backward(start: char, n: usize) -> char {
        let s = start as u32;
        let mut r = s.wrapping_sub(n as u32);
        if s >= 0xE000 && r < 0xE000 {
            r -= 0x800;
        }
        // SAFETY: as in `forward`.
        unsafe { crate::char::from_u32_unchecked(r) }
    }
}

impl<A: Step + Copy> Iterator for Range<A> {
    type Item = A;

    fn next(&mut self) -> Option<A> {
        if self.start < self.end {
            let n = self.start;
            self.start = Step::forward(n, 1);
            Some(n)
        } else {
            None
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = if self.start < self.end { Step::steps_between(&self.start, &self.end) } else { 0 };
        (n, Some(n))
    }

    fn nth(&mut self, n: usize) -> Option<A> {
        if self.start < self.end {
            let len = Step::steps_between(&self.start, &self.end);
            if n < len {
                let v = Step::forward(self.start, n);
                self.start = Step::forward(v, 1);
                return Some(v);
            }
        }
        self.start = self.end;
        None
    }
}

impl<A: Step + Copy> DoubleEndedIterator for Range<A> {
    fn next_back(&mut self) -> Option<A> {
        if self.start < self.end {
            self.end = Step::backward(self.end, 1);
            Some(self.end)
        } else {
            None
        }
    }
}

impl<A: Step + Copy> ExactSizeIterator for Range<A> {}

impl<A: Step + Copy> Iterator for RangeInclusive<A> {
    type Item = A;

    fn next(&mut self) -> Option<A> {
        if self.exhausted || !(self.start <= self.end) {
            return None;
        }
        let n = self.start;
        if n < self.end {
            self.start = Step::forward(n, 1);
        } else {
            self.exhausted = true;
        }
        Some(n)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = if self.exhausted || !(self.start <= self.end) { 0 } else { Step::steps_between(&self.start, &self.end).wrapping_add(1) };
        (n, Some(n))
    }
}

impl<A: Step + Copy> DoubleEndedIterator for RangeInclusive<A> {
    fn next_back(&mut self) -> Option<A> {
        if self.exhausted || !(self.start <= self.end) {
            return None;
        }
        let n = self.end;
        if self.start < n {
            self.end = Step::backward(n, 1);
        } else {
            self.exhausted = true;
        }
        Some(n)
    }
}

impl<A: Step + Copy> ExactSizeIterator for RangeInclusive<A> {}

impl<A: Step + Copy> Iterator for RangeFrom<A> {
    type Item = A;

    fn next(&mut self) -> Option<A> {
        let n = self.start;
        self.start = Step::forward(n, 1);
        Some(n)
    }
}
