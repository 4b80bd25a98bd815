//! Comparison: `PartialEq`, `Eq`, `PartialOrd`, `Ord`, `Ordering`, and `min`/`max`.

use crate::option::Option::{self, None, Some};

#[lang = "PartialEq"]
pub trait PartialEq<Rhs = Self> {
    fn eq(&self, other: &Rhs) -> bool;

    fn ne(&self, other: &Rhs) -> bool {
        !self.eq(other)
    }
}

#[lang = "Eq"]
pub trait Eq: PartialEq<Self> {}

#[lang = "Ordering"]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(i8)]
pub enum Ordering {
    Less = -1,
    Equal = 0,
    Greater = 1,
}

impl Ordering {
    pub const fn is_eq(self) -> bool {
        matches!(self, Ordering::Equal)
    }

    pub const fn is_ne(self) -> bool {
        !matches!(self, Ordering::Equal)
    }

    pub const fn is_lt(self) -> bool {
        matches!(self, Ordering::Less)
    }

    pub const fn is_gt(self) -> bool {
        matches!(self, Ordering::Greater)
    }

    pub const fn is_le(self) -> bool {
        !matches!(self, Ordering::Greater)
    }

    pub const fn is_ge(self) -> bool {
        !matches!(self, Ordering::Less)
    }

    pub const fn reverse(self) -> Ordering {
        match self {
            Ordering::Less => Ordering::Greater,
            Ordering::Equal => Ordering::Equal,
            Ordering::Greater => Ordering::Less,
        }
    }

    pub const fn then(self, other: Ordering) -> Ordering {
        match self {
            Ordering::Equal => other,
            _ => self,
        }
    }

    pub fn then_with<F: FnOnce() -> Ordering>(self, f: F) -> Ordering {
        match self {
            Ordering::Equal => f(),
            _ => self,
        }
    }
}

#[lang = "PartialOrd"]
pub trait PartialOrd<Rhs = Self>: PartialEq<Rhs> {
    fn partial_cmp(&self, other: &Rhs) -> Option<Ordering>;

    fn lt(&self, other: &Rhs) -> bool {
        matches!(self.partial_cmp(other), Some(Ordering::Less))
    }

    fn le(&self, other: &Rhs) -> bool {
        matches!(self.partial_cmp(other), Some(Ordering::Less | Ordering::Equal))
    }

    fn gt(&self, other: &Rhs) -> bool {
        matches!(self.partial_cmp(other), Some(Ordering::Greater))
    }

    fn ge(&self, other: &Rhs) -> bool {
        matches!(self.partial_cmp(other), Some(Ordering::Greater | Ordering::Equal))
    }
}

#[lang = "Ord"]
pub trait Ord: Eq + PartialOrd<Self> {
    fn cmp(&self, other: &Self) -> Ordering;

    fn max(self, other: Self) -> Self
    where
        Self: Sized,
    {
        match self.cmp(&other) {
            Ordering::Greater => self,
            _ => other,
        }
    }

    fn min(self, other: Self) -> Self
    where
        Self: Sized,
    {
        match self.cmp(&other) {
            Ordering::Greater => other,
            _ => self,
        }
    }

    #[track_caller]
    fn clamp(self, min: Self, max: Self) -> Self
    where
        Self: Sized,
    {
        assert!(min <= max);
        if self < min {
            min
        } else if self > max {
            max
        } else {
            self
        }
    }
}

//@ for $T in u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize f32 f64 f16 bf16 bool char
impl PartialEq for $T {
    fn eq(&self, other: &$T) -> bool {
        *self == *other
    }

    fn ne(&self, other: &$T) -> bool {
        *self != *other
    }
}

impl PartialOrd for $T {
    fn partial_cmp(&self, other: &$T) -> Option<Ordering> {
        if *self < *other {
            Some(Ordering::Less)
        } else if *self > *other {
            Some(Ordering::Greater)
        } else if *self == *other {
            Some(Ordering::Equal)
        } else {
            None
        }
    }

    fn lt(&self, other: &$T) -> bool {
        *self < *other
    }

    fn le(&self, other: &$T) -> bool {
        *self <= *other
    }

    fn gt(&self, other: &$T) -> bool {
        *self > *other
    }

    fn ge(&self, other: &$T) -> bool {
        *self >= *other
    }
}
//@ end

//@ for $T in u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize bool char
impl Eq for $T {}

impl Ord for $T {
    fn cmp(&self, other: &$T) -> Ordering {
        if *self < *other {
            Ordering::Less
        } else if *self == *other {
            Ordering::Equal
        } else {
            Ordering::Greater
        }
    }
}
//@ end

impl PartialEq for () {
    fn eq(&self, _other: &()) -> bool {
        true
    }
}

impl<A: PartialEq<B>, B> PartialEq<&B> for &A {
    fn eq(&self, other: &&B) -> bool {
        PartialEq::eq(*self, *other)
    }
}

impl<A: PartialEq<B>, B> PartialEq<&mut B> for &mut A {
    fn eq(&self, other: &&mut B) -> bool {
        PartialEq::eq(*self, *other)
    }
}

impl<A: PartialOrd<B>, B> PartialOrd<&B> for &A {
    fn partial_cmp(&self, other: &&B) -> Option<Ordering> {
        PartialOrd::partial_cmp(*self, *other)
    }
}

impl<A: Eq> Eq for &A {}

impl<A: Ord> Ord for &A {
    fn cmp(&self, other: &&A) -> Ordering {
        Ord::cmp(*self, *other)
    }
}

impl<A: PartialEq, B: PartialEq> PartialEq for (A, B) {
    fn eq(&self, other: &(A, B)) -> bool {
        self.0 == other.0 && self.1 == other.1
    }
}

impl<A: PartialEq, B: PartialEq, C: PartialEq> PartialEq for (A, B, C) {
    fn eq(&self, other: &(A, B, C)) -> bool {
        self.0 == other.0 && self.1 == other.1 && self.2 == other.2
    }
}

impl<A: PartialOrd, B: PartialOrd> PartialOrd for (A, B) {
    fn partial_cmp(&self, other: &(A, B)) -> Option<Ordering> {
        match self.0.partial_cmp(&other.0) {
            Some(Ordering::Equal) => self.1.partial_cmp(&other.1),
            c => c,
        }
    }
}

impl<A: Eq, B: Eq> Eq for (A, B) {}

impl<A: Ord, B: Ord> Ord for (A, B) {
    fn cmp(&self, other: &(A, B)) -> Ordering {
        match self.0.cmp(&other.0) {
            Ordering::Equal => self.1.cmp(&other.1),
            c => c,
        }
    }
}

impl<T: PartialEq, const N: usize> PartialEq for [T; N] {
    fn eq(&self, other: &[T; N]) -> bool {
        let mut i = 0;
        while i < N {
            if self[i] != other[i] {
                return false;
            }
            i += 1;
        }
        true
    }
}

impl<T: PartialEq> PartialEq for [T] {
    fn eq(&self, other: &[T]) -> bool {
        if self.len() != other.len() {
            return false;
        }
        let mut i = 0;
        while i < self.len() {
            if self[i] != other[i] {
                return false;
            }
            i += 1;
        }
        true
    }
}

/// Slices and arrays compare with each other by elements (`w == b"\r\n"` with `w` a
/// window of a slice), as in core.
impl<T: PartialEq, const N: usize> PartialEq<[T; N]> for [T] {
    fn eq(&self, other: &[T; N]) -> bool {
        let o: &[T] = other;
        *self == *o
    }
}

impl<T: PartialEq, const N: usize> PartialEq<[T]> for [T; N] {
    fn eq(&self, other: &[T]) -> bool {
        let s: &[T] = self;
        *s == *other
    }
}

impl<'b, T: PartialEq, const N: usize> PartialEq<&'b [T]> for [T; N] {
    fn eq(&self, other: &&'b [T]) -> bool {
        let s: &[T] = self;
        *s == **other
    }
}

impl<'b, T: PartialEq, const N: usize> PartialEq<[T; N]> for &'b [T] {
    fn eq(&self, other: &[T; N]) -> bool {
        let o: &[T] = other;
        **self == *o
    }
}

impl<T: Eq, const N: usize> Eq for [T; N] {}

impl<T: Eq> Eq for [T] {}

/// Slices compare lexicographically: the first pair of elements that differ decides, and a
/// slice that is a prefix of the other is the smaller, as in core.
impl<T: PartialOrd> PartialOrd for [T] {
    fn partial_cmp(&self, other: &[T]) -> Option<Ordering> {
        let n = if self.len() < other.len() { self.len() } else { other.len() };
        let mut i = 0;
        while i < n {
            match self[i].partial_cmp(&other[i]) {
                Some(Ordering::Equal) => {}
                decided => return decided,
            }
            i += 1;
        }
        self.len().partial_cmp(&other.len())
    }
}

impl<T: Ord> Ord for [T] {
    fn cmp(&self, other: &[T]) -> Ordering {
        let n = if self.len() < other.len() { self.len() } else { other.len() };
        let mut i = 0;
        while i < n {
            match self[i].cmp(&other[i]) {
                Ordering::Equal => {}
                decided => return decided,
            }
            i += 1;
        }
        self.len().cmp(&other.len())
    }
}

impl<T: PartialOrd, const N: usize> PartialOrd for [T; N] {
    fn partial_cmp(&self, other: &[T; N]) -> Option<Ordering> {
        let (s, o): (&[T], &[T]) = (self, other);
        s.partial_cmp(o)
    }
}

impl<T: Ord, const N: usize> Ord for [T; N] {
    fn cmp(&self, other: &[T; N]) -> Ordering {
        let (s, o): (&[T], &[T]) = (self, other);
        s.cmp(o)
    }
}

impl<A: PartialOrd, B: PartialOrd, C: PartialOrd> PartialOrd for (A, B, C) {
    fn partial_cmp(&self, other: &(A, B, C)) -> Option<Ordering> {
        match self.0.partial_cmp(&other.0) {
            Some(Ordering::Equal) => {}
            decided => return decided,
        }
        match self.1.partial_cmp(&other.1) {
            Some(Ordering::Equal) => self.2.partial_cmp(&other.2),
            decided => decided,
        }
    }
}

impl<A: Eq, B: Eq, C: Eq> Eq for (A, B, C) {}

impl<A: Ord, B: Ord, C: Ord> Ord for (A, B, C) {
    fn cmp(&self, other: &(A, B, C)) -> Ordering {
        match self.0.cmp(&other.0) {
            Ordering::Equal => {}
            decided => return decided,
        }
        match self.1.cmp(&other.1) {
            Ordering::Equal => self.2.cmp(&other.2),
            decided => decided,
        }
    }
}

pub fn max<T: Ord>(v1: T, v2: T) -> T {
    v1.max(v2)
}

pub fn min<T: Ord>(v1: T, v2: T) -> T {
    v1.min(v2)
}

pub fn max_by<T, F: FnOnce(&T, &T) -> Ordering>(v1: T, v2: T, compare: F) -> T {
    match compare(&v1, &v2) {
        Ordering::Greater => v1,
        _ => v2,
    }
}

pub fn min_by<T, F: FnOnce(&T, &T) -> Ordering>(v1: T, v2: T, compare: F) -> T {
    match compare(&v1, &v2) {
        Ordering::Greater => v2,
        _ => v1,
    }
}

pub fn max_by_key<T, K: Ord, F: FnMut(&T) -> K>(v1: T, v2: T, f: F) -> T {
    let mut f = f;
    let (k1, k2) = (f(&v1), f(&v2));
    if k2 >= k1 { v2 } else { v1 }
}

pub fn min_by_key<T, K: Ord, F: FnMut(&T) -> K>(v1: T, v2: T, f: F) -> T {
    let mut f = f;
    let (k1, k2) = (f(&v1), f(&v2));
    if k2 < k1 { v2 } else { v1 }
}

/// `Reverse(x)` orders the other way round.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct Reverse<T>(pub T);

impl<T: PartialOrd> PartialOrd for Reverse<T> {
    fn partial_cmp(&self, other: &Reverse<T>) -> Option<Ordering> {
        other.0.partial_cmp(&self.0)
    }
}

impl<T: Ord> Ord for Reverse<T> {
    fn cmp(&self, other: &Reverse<T>) -> Ordering {
        other.0.cmp(&self.0)
    }
}
