//! Iterators: the `Iterator` trait with its adapters and consumers, `IntoIterator`,
//! `DoubleEndedIterator`, `Sum` and `Product`, and `repeat`, `once`, `from_fn`, `successors`.

use crate::cmp::{Ordering, PartialOrd};
use crate::ops::{ControlFlow, Try};
use crate::option::Option::{self, None, Some};

#[lang = "Iterator"]
pub trait Iterator {
    type Item;

    fn next(&mut self) -> Option<Self::Item>;

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, None)
    }

    fn count(self) -> usize
    where
        Self: Sized,
    {
        let mut it = self;
        let mut n = 0;
        while let Some(_) = it.next() {
            n += 1;
        }
        n
    }

    fn last(self) -> Option<Self::Item>
    where
        Self: Sized,
    {
        let mut it = self;
        let mut last = None;
        while let Some(x) = it.next() {
            last = Some(x);
        }
        last
    }

    fn nth(&mut self, n: usize) -> Option<Self::Item> {
        let mut n = n;
        while let Some(x) = self.next() {
            if n == 0 {
                return Some(x);
            }
            n -= 1;
        }
        None
    }

    #[track_caller]
    fn step_by(self, step: usize) -> StepBy<Self>
    where
        Self: Sized,
    {
        assert!(step != 0);
        StepBy { iter: self, step_minus_one: step - 1, first_take: true }
    }

    fn chain<U: IntoIterator<Item = Self::Item>>(self, other: U) -> Chain<Self, U::IntoIter>
    where
        Self: Sized,
    {
        Chain { a: Some(self), b: Some(other.into_iter()) }
    }

    fn zip<U: IntoIterator>(self, other: U) -> Zip<Self, U::IntoIter>
    where
        Self: Sized,
    {
        Zip { a: self, b: other.into_iter() }
    }

    fn map<B, F: FnMut(Self::Item) -> B>(self, f: F) -> Map<Self, F>
    where
        Self: Sized,
    {
        Map { iter: self, f }
    }

    fn for_each<F: FnMut(Self::Item)>(self, f: F)
    where
        Self: Sized,
    {
        let mut it = self;
        let mut f = f;
        while let Some(x) = it.next() {
            f(x);
        }
    }

    fn filter<P: FnMut(&Self::Item) -> bool>(self, predicate: P) -> Filter<Self, P>
    where
        Self: Sized,
    {
        Filter { iter: self, predicate }
    }

    fn filter_map<B, F: FnMut(Self::Item) -> Option<B>>(self, f: F) -> FilterMap<Self, F>
    where
        Self: Sized,
    {
        FilterMap { iter: self, f }
    }

    fn enumerate(self) -> Enumerate<Self>
    where
        Self: Sized,
    {
        Enumerate { iter: self, count: 0 }
    }

    fn peekable(self) -> Peekable<Self>
    where
        Self: Sized,
    {
        Peekable { iter: self, peeked: None }
    }

    fn skip_while<P: FnMut(&Self::Item) -> bool>(self, predicate: P) -> SkipWhile<Self, P>
    where
        Self: Sized,
    {
        SkipWhile { iter: self, flag: false, predicate }
    }

    fn take_while<P: FnMut(&Self::Item) -> bool>(self, predicate: P) -> TakeWhile<Self, P>
    where
        Self: Sized,
    {
        TakeWhile { iter: self, flag: false, predicate }
    }

    fn map_while<B, P: FnMut(Self::Item) -> Option<B>>(self, predicate: P) -> MapWhile<Self, P>
    where
        Self: Sized,
    {
        MapWhile { iter: self, predicate }
    }

    fn skip(self, n: usize) -> Skip<Self>
    where
        Self: Sized,
    {
        Skip { iter: self, n }
    }

    fn take(self, n: usize) -> Take<Self>
    where
        Self: Sized,
    {
        Take { iter: self, n }
    }

    fn scan<St, B, F: FnMut(&mut St, Self::Item) -> Option<B>>(self, initial_state: St, f: F) -> Scan<Self, St, F>
    where
        Self: Sized,
    {
        Scan { iter: self, f, state: initial_state }
    }

    fn fuse(self) -> Fuse<Self>
    where
        Self: Sized,
    {
        Fuse { iter: Some(self) }
    }

    fn inspect<F: FnMut(&Self::Item)>(self, f: F) -> Inspect<Self, F>
    where
        Self: Sized,
    {
        Inspect { iter: self, f }
    }

    fn by_ref(&mut self) -> &mut Self
    where
        Self: Sized,
    {
        self
    }

    fn fold<B, F: FnMut(B, Self::Item) -> B>(self, init: B, f: F) -> B
    where
        Self: Sized,
    {
        let mut it = self;
        let mut f = f;
        let mut accum = init;
        while let Some(x) = it.next() {
            accum = f(accum, x);
        }
        accum
    }

    /// `fold` that stops at the first `None`, `Err` or `ControlFlow::Break` the closure
    /// returns, and returns it; else the last accumulator, wrapped.
    fn try_fold<B, F: FnMut(B, Self::Item) -> R, R: Try<Output = B>>(&mut self, init: B, f: F) -> R
    where
        Self: Sized,
    {
        let mut f = f;
        let mut accum = init;
        while let Some(x) = self.next() {
            match f(accum, x).branch() {
                ControlFlow::Continue(c) => accum = c,
                ControlFlow::Break(r) => return R::from_residual(r),
            }
        }
        R::from_output(accum)
    }

    /// `for_each` that stops at the first `None`, `Err` or `ControlFlow::Break`.
    fn try_for_each<F: FnMut(Self::Item) -> R, R: Try<Output = ()>>(&mut self, f: F) -> R
    where
        Self: Sized,
    {
        let mut f = f;
        while let Some(x) = self.next() {
            match f(x).branch() {
                ControlFlow::Continue(()) => {}
                ControlFlow::Break(r) => return R::from_residual(r),
            }
        }
        R::from_output(())
    }

    fn is_sorted(self) -> bool
    where
        Self: Sized,
        Self::Item: PartialOrd,
    {
        self.is_sorted_by(|a, b| a <= b)
    }

    fn is_sorted_by<F: FnMut(&Self::Item, &Self::Item) -> bool>(self, compare: F) -> bool
    where
        Self: Sized,
    {
        let mut it = self;
        let mut compare = compare;
        let Some(mut last) = it.next() else { return true };
        while let Some(x) = it.next() {
            if !compare(&last, &x) {
                return false;
            }
            last = x;
        }
        true
    }

    fn is_sorted_by_key<K: PartialOrd, F: FnMut(Self::Item) -> K>(self, f: F) -> bool
    where
        Self: Sized,
    {
        self.map(f).is_sorted()
    }

    fn reduce<F: FnMut(Self::Item, Self::Item) -> Self::Item>(self, f: F) -> Option<Self::Item>
    where
        Self: Sized,
    {
        let mut it = self;
        let first = it.next()?;
        Some(it.fold(first, f))
    }

    fn all<F: FnMut(Self::Item) -> bool>(&mut self, f: F) -> bool
    where
        Self: Sized,
    {
        let mut f = f;
        while let Some(x) = self.next() {
            if !f(x) {
                return false;
            }
        }
        true
    }

    fn any<F: FnMut(Self::Item) -> bool>(&mut self, f: F) -> bool
    where
        Self: Sized,
    {
        let mut f = f;
        while let Some(x) = self.next() {
            if f(x) {
                return true;
            }
        }
        false
    }

    fn find<P: FnMut(&Self::Item) -> bool>(&mut self, predicate: P) -> Option<Self::Item>
    where
        Self: Sized,
    {
        let mut predicate = predicate;
        while let Some(x) = self.next() {
            if predicate(&x) {
                return Some(x);
            }
        }
        None
    }

    fn find_map<B, F: FnMut(Self::Item) -> Option<B>>(&mut self, f: F) -> Option<B>
    where
        Self: Sized,
    {
        let mut f = f;
        while let Some(x) = self.next() {
            if let Some(b) = f(x) {
                return Some(b);
            }
        }
        None
    }

    fn position<P: FnMut(Self::Item) -> bool>(&mut self, predicate: P) -> Option<usize>
    where
        Self: Sized,
    {
        let mut predicate = predicate;
        let mut i = 0;
        while let Some(x) = self.next() {
            if predicate(x) {
                return Some(i);
            }
            i += 1;
        }
        None
    }

    fn max(self) -> Option<Self::Item>
    where
        Self: Sized,
        Self::Item: Ord,
    {
        self.reduce(|x, y| match Ord::cmp(&x, &y) {
            Ordering::Greater => x,
            _ => y,
        })
    }

    fn min(self) -> Option<Self::Item>
    where
        Self: Sized,
        Self::Item: Ord,
    {
        self.reduce(|x, y| match Ord::cmp(&x, &y) {
            Ordering::Greater => y,
            _ => x,
        })
    }

    fn max_by_key<B: Ord, F: FnMut(&Self::Item) -> B>(self, f: F) -> Option<Self::Item>
    where
        Self: Sized,
    {
        let mut f = f;
        let mut it = self;
        let mut best = it.next()?;
        let mut best_key = f(&best);
        while let Some(x) = it.next() {
            let k = f(&x);
            if !(best_key > k) {
                best = x;
                best_key = k;
            }
        }
        Some(best)
    }

    fn min_by_key<B: Ord, F: FnMut(&Self::Item) -> B>(self, f: F) -> Option<Self::Item>
    where
        Self: Sized,
    {
        let mut f = f;
        let mut it = self;
        let mut best = it.next()?;
        let mut best_key = f(&best);
        while let Some(x) = it.next() {
            let k = f(&x);
            if best_key > k {
                best = x;
                best_key = k;
            }
        }
        Some(best)
    }

    fn max_by<F: FnMut(&Self::Item, &Self::Item) -> Ordering>(self, compare: F) -> Option<Self::Item>
    where
        Self: Sized,
    {
        let mut compare = compare;
        self.reduce(|x, y| match compare(&x, &y) {
            Ordering::Greater => x,
            _ => y,
        })
    }

    fn min_by<F: FnMut(&Self::Item, &Self::Item) -> Ordering>(self, compare: F) -> Option<Self::Item>
    where
        Self: Sized,
    {
        let mut compare = compare;
        self.reduce(|x, y| match compare(&x, &y) {
            Ordering::Greater => y,
            _ => x,
        })
    }

    fn rev(self) -> Rev<Self>
    where
        Self: Sized + DoubleEndedIterator,
    {
        Rev { iter: self }
    }

    fn flat_map<U: IntoIterator, F: FnMut(Self::Item) -> U>(self, f: F) -> FlatMap<Self, U::IntoIter, F>
    where
        Self: Sized,
    {
        FlatMap { iter: self, f, front: None, back: None }
    }

    fn flatten(self) -> Flatten<Self, <Self::Item as IntoIterator>::IntoIter>
    where
        Self: Sized,
        Self::Item: IntoIterator,
    {
        Flatten { iter: self, front: None, back: None }
    }

    fn cycle(self) -> Cycle<Self>
    where
        Self: Sized + Clone,
    {
        Cycle { orig: self.clone(), iter: self }
    }

    fn rposition<P: FnMut(Self::Item) -> bool>(&mut self, predicate: P) -> Option<usize>
    where
        Self: Sized + ExactSizeIterator + DoubleEndedIterator,
    {
        let mut predicate = predicate;
        let mut i = self.len();
        while let Some(x) = self.next_back() {
            i -= 1;
            if predicate(x) {
                return Some(i);
            }
        }
        None
    }

    fn ne<I: IntoIterator>(self, other: I) -> bool
    where
        Self: Sized,
        Self::Item: PartialEq<I::Item>,
    {
        !self.eq(other)
    }

    fn copied<'a, T: 'a + Copy>(self) -> Copied<Self>
    where
        Self: Sized + Iterator<Item = &'a T>,
    {
        Copied { it: self }
    }

    fn cloned<'a, T: 'a + Clone>(self) -> Cloned<Self>
    where
        Self: Sized + Iterator<Item = &'a T>,
    {
        Cloned { it: self }
    }

    fn sum<S: Sum<Self::Item>>(self) -> S
    where
        Self: Sized,
    {
        <S as Sum<Self::Item>>::sum(self)
    }

    fn collect<B: FromIterator<Self::Item>>(self) -> B
    where
        Self: Sized,
    {
        <B as FromIterator<Self::Item>>::from_iter(self)
    }

    fn product<P: Product<Self::Item>>(self) -> P
    where
        Self: Sized,
    {
        <P as Product<Self::Item>>::product(self)
    }

    fn eq<I: IntoIterator>(self, other: I) -> bool
    where
        Self: Sized,
        Self::Item: PartialEq<I::Item>,
    {
        let mut a = self;
        let mut b = other.into_iter();
        loop {
            match (a.next(), b.next()) {
                (None, None) => return true,
                (Some(x), Some(y)) => {
                    if x != y {
                        return false;
                    }
                }
                _ => return false,
            }
        }
    }

    /// Lexicographic comparison, as slices compare.
    fn cmp<I>(self, other: I) -> Ordering
    where
        I: IntoIterator<Item = Self::Item>,
        Self::Item: Ord,
        Self: Sized,
    {
        let mut a = self;
        let mut b = other.into_iter();
        loop {
            match (a.next(), b.next()) {
                (None, None) => return Ordering::Equal,
                (None, Some(_)) => return Ordering::Less,
                (Some(_), None) => return Ordering::Greater,
                (Some(x), Some(y)) => match x.cmp(&y) {
                    Ordering::Equal => {}
                    non_eq => return non_eq,
                },
            }
        }
    }

    /// Lexicographic comparison; `None` at the first pair without an order.
    fn partial_cmp<I>(self, other: I) -> Option<Ordering>
    where
        I: IntoIterator,
        Self::Item: PartialOrd<I::Item>,
        Self: Sized,
    {
        let mut a = self;
        let mut b = other.into_iter();
        loop {
            match (a.next(), b.next()) {
                (None, None) => return Some(Ordering::Equal),
                (None, Some(_)) => return Some(Ordering::Less),
                (Some(_), None) => return Some(Ordering::Greater),
                (Some(x), Some(y)) => match x.partial_cmp(&y) {
                    Some(Ordering::Equal) => {}
                    non_eq => return non_eq,
                },
            }
        }
    }

    fn lt<I>(self, other: I) -> bool
    where
        I: IntoIterator,
        Self::Item: PartialOrd<I::Item>,
        Self: Sized,
    {
        self.partial_cmp(other) == Some(Ordering::Less)
    }

    fn le<I>(self, other: I) -> bool
    where
        I: IntoIterator,
        Self::Item: PartialOrd<I::Item>,
        Self: Sized,
    {
        matches!(self.partial_cmp(other), Some(Ordering::Less | Ordering::Equal))
    }

    fn gt<I>(self, other: I) -> bool
    where
        I: IntoIterator,
        Self::Item: PartialOrd<I::Item>,
        Self: Sized,
    {
        self.partial_cmp(other) == Some(Ordering::Greater)
    }

    fn ge<I>(self, other: I) -> bool
    where
        I: IntoIterator,
        Self::Item: PartialOrd<I::Item>,
        Self: Sized,
    {
        matches!(self.partial_cmp(other), Some(Ordering::Greater | Ordering::Equal))
    }
}

#[lang = "DoubleEndedIterator"]
pub trait DoubleEndedIterator: Iterator {
    fn next_back(&mut self) -> Option<Self::Item>;

    fn rfold<B, F: FnMut(B, Self::Item) -> B>(self, init: B, f: F) -> B
    where
        Self: Sized,
    {
        let mut it = self;
        let mut f = f;
        let mut accum = init;
        while let Some(x) = it.next_back() {
            accum = f(accum, x);
        }
        accum
    }

    /// `try_fold` from the back: stops at the first `None`, `Err` or `ControlFlow::Break`
    /// the closure returns, and returns it; else the last accumulator, wrapped.
    fn try_rfold<B, F: FnMut(B, Self::Item) -> R, R: Try<Output = B>>(&mut self, init: B, f: F) -> R
    where
        Self: Sized,
    {
        let mut f = f;
        let mut accum = init;
        while let Some(x) = self.next_back() {
            match f(accum, x).branch() {
                ControlFlow::Continue(c) => accum = c,
                ControlFlow::Break(r) => return R::from_residual(r),
            }
        }
        R::from_output(accum)
    }

    fn rfind<P: FnMut(&Self::Item) -> bool>(&mut self, predicate: P) -> Option<Self::Item>
    where
        Self: Sized,
    {
        let mut predicate = predicate;
        while let Some(x) = self.next_back() {
            if predicate(&x) {
                return Some(x);
            }
        }
        None
    }

    fn nth_back(&mut self, n: usize) -> Option<Self::Item> {
        let mut n = n;
        while let Some(x) = self.next_back() {
            if n == 0 {
                return Some(x);
            }
            n -= 1;
        }
        None
    }
}

pub trait ExactSizeIterator: Iterator {
    fn len(&self) -> usize {
        match self.size_hint() {
            (lo, _) => lo,
        }
    }
}

#[lang = "IntoIterator"]
pub trait IntoIterator {
    type Item;
    type IntoIter: Iterator<Item = Self::Item>;

    fn into_iter(self) -> Self::IntoIter;
}

impl<I: Iterator> IntoIterator for I {
    type Item = I::Item;
    type IntoIter = I;

    fn into_iter(self) -> I {
        self
    }
}

pub trait Extend<A> {
    fn extend<T: IntoIterator<Item = A>>(&mut self, iter: T);
}

impl<I: Iterator> Iterator for &mut I {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        (**self).next()
    }
}

/// What `collect` builds. Kernels have no heap, so core's own impls are `()` and `Option`s
/// and `Result`s of those; a kernel's types implement it for their own uses.
pub trait FromIterator<A>: Sized {
    fn from_iter<T: IntoIterator<Item = A>>(iter: T) -> Self;
}

impl FromIterator<()> for () {
    fn from_iter<T: IntoIterator<Item = ()>>(iter: T) {
        let mut it = iter.into_iter();
        while it.next().is_some() {}
    }
}

/// `None` if any item is `None`, else what the values collect into.
impl<A, V: FromIterator<A>> FromIterator<Option<A>> for Option<V> {
    fn from_iter<T: IntoIterator<Item = Option<A>>>(iter: T) -> Option<V> {
        let mut failed = false;
        let v = V::from_iter(OptionShunt { iter: iter.into_iter(), failed: &mut failed });
        if failed { None } else { Some(v) }
    }
}

/// The first `Err` if any, else what the values collect into.
impl<A, E, V: FromIterator<A>> FromIterator<crate::result::Result<A, E>> for crate::result::Result<V, E> {
    fn from_iter<T: IntoIterator<Item = crate::result::Result<A, E>>>(iter: T) -> crate::result::Result<V, E> {
        let mut error = None;
        let v = V::from_iter(ResultShunt { iter: iter.into_iter(), error: &mut error });
        match error {
            Some(e) => crate::result::Result::Err(e),
            None => crate::result::Result::Ok(v),
        }
    }
}

pub trait Sum<A = Self>: Sized {
    fn sum<I: Iterator<Item = A>>(iter: I) -> Self;
}

pub trait Product<A = Self>: Sized {
    fn product<I: Iterator<Item = A>>(iter: I) -> Self;
}

//@ for $T in u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize
impl Sum for $T {
    fn sum<I: Iterator<Item = $T>>(iter: I) -> $T {
        iter.fold(0, |a, b| a + b)
    }
}

impl<'a> Sum<&'a $T> for $T {
    fn sum<I: Iterator<Item = &'a $T>>(iter: I) -> $T {
        iter.fold(0, |a, b| a + *b)
    }
}

impl Product for $T {
    fn product<I: Iterator<Item = $T>>(iter: I) -> $T {
        iter.fold(1, |a, b| a * b)
    }
}

impl<'a> Product<&'a $T> for $T {
    fn product<I: Iterator<Item = &'a $T>>(iter: I) -> $T {
        iter.fold(1, |a, b| a * *b)
    }
}
//@ end

//@ for $T in f32 f64
impl Sum for $T {
    fn sum<I: Iterator<Item = $T>>(iter: I) -> $T {
        iter.fold(-0.0, |a, b| a + b)
    }
}

impl<'a> Sum<&'a $T> for $T {
    fn sum<I: Iterator<Item = &'a $T>>(iter: I) -> $T {
        iter.fold(-0.0, |a, b| a + *b)
    }
}

impl Product for $T {
    fn product<I: Iterator<Item = $T>>(iter: I) -> $T {
        iter.fold(1.0, |a, b| a * b)
    }
}

impl<'a> Product<&'a $T> for $T {
    fn product<I: Iterator<Item = &'a $T>>(iter: I) -> $T {
        iter.fold(1.0, |a, b| a * *b)
    }
}
//@ end

/// The items of an iterator of `Option`s up to the first `None`, unwrapped; `failed` says
/// whether it met one. Sums and products of `Option`s add these up.
struct OptionShunt<'a, I> {
    iter: I,
    failed: &'a mut bool,
}

impl<'a, U, I: Iterator<Item = Option<U>>> Iterator for OptionShunt<'a, I> {
    type Item = U;

    fn next(&mut self) -> Option<U> {
        match self.iter.next() {
            Some(Some(x)) => Some(x),
            Some(None) => {
                *self.failed = true;
                None
            }
            None => None,
        }
    }
}

/// The items of an iterator of `Result`s up to the first `Err`, unwrapped; `error` keeps it.
struct ResultShunt<'a, I, E> {
    iter: I,
    error: &'a mut Option<E>,
}

impl<'a, U, E, I: Iterator<Item = crate::result::Result<U, E>>> Iterator for ResultShunt<'a, I, E> {
    type Item = U;

    fn next(&mut self) -> Option<U> {
        match self.iter.next() {
            Some(crate::result::Result::Ok(x)) => Some(x),
            Some(crate::result::Result::Err(e)) => {
                *self.error = Some(e);
                None
            }
            None => None,
        }
    }
}

/// `None` if any item is `None`, else the sum of the values.
impl<T: Sum<U>, U> Sum<Option<U>> for Option<T> {
    fn sum<I: Iterator<Item = Option<U>>>(iter: I) -> Option<T> {
        let mut failed = false;
        let v = T::sum(OptionShunt { iter, failed: &mut failed });
        if failed { None } else { Some(v) }
    }
}

impl<T: Product<U>, U> Product<Option<U>> for Option<T> {
    fn product<I: Iterator<Item = Option<U>>>(iter: I) -> Option<T> {
        let mut failed = false;
        let v = T::product(OptionShunt { iter, failed: &mut failed });
        if failed { None } else { Some(v) }
    }
}

/// The first `Err` if any, else the sum of the values.
impl<T: Sum<U>, U, E> Sum<crate::result::Result<U, E>> for crate::result::Result<T, E> {
    fn sum<I: Iterator<Item = crate::result::Result<U, E>>>(iter: I) -> crate::result::Result<T, E> {
        let mut error = None;
        let v = T::sum(ResultShunt { iter, error: &mut error });
        match error {
            Some(e) => crate::result::Result::Err(e),
            None => crate::result::Result::Ok(v),
        }
    }
}

impl<T: Product<U>, U, E> Product<crate::result::Result<U, E>> for crate::result::Result<T, E> {
    fn product<I: Iterator<Item = crate::result::Result<U, E>>>(iter: I) -> crate::result::Result<T, E> {
        let mut error = None;
        let v = T::product(ResultShunt { iter, error: &mut error });
        match error {
            Some(e) => crate::result::Result::Err(e),
            None => crate::result::Result::Ok(v),
        }
    }
}

/// `Iterator::map`.
#[derive(Clone)]
pub struct Map<I, F> {
    iter: I,
    f: F,
}

impl<B, I: Iterator, F: FnMut(I::Item) -> B> Iterator for Map<I, F> {
    type Item = B;

    fn next(&mut self) -> Option<B> {
        match self.iter.next() {
            Some(x) => Some((self.f)(x)),
            None => None,
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }
}

impl<B, I: DoubleEndedIterator, F: FnMut(I::Item) -> B> DoubleEndedIterator for Map<I, F> {
    fn next_back(&mut self) -> Option<B> {
        match self.iter.next_back() {
            Some(x) => Some((self.f)(x)),
            None => None,
        }
    }
}

impl<B, I: ExactSizeIterator, F: FnMut(I::Item) -> B> ExactSizeIterator for Map<I, F> {}

/// `Iterator::filter`.
#[derive(Clone)]
pub struct Filter<I, P> {
    iter: I,
    predicate: P,
}

impl<I: Iterator, P: FnMut(&I::Item) -> bool> Iterator for Filter<I, P> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        while let Some(x) = self.iter.next() {
            if (self.predicate)(&x) {
                return Some(x);
            }
        }
        None
    }
}

impl<I: DoubleEndedIterator, P: FnMut(&I::Item) -> bool> DoubleEndedIterator for Filter<I, P> {
    fn next_back(&mut self) -> Option<I::Item> {
        while let Some(x) = self.iter.next_back() {
            if (self.predicate)(&x) {
                return Some(x);
            }
        }
        None
    }
}

/// `Iterator::filter_map`.
#[derive(Clone)]
pub struct FilterMap<I, F> {
    iter: I,
    f: F,
}

impl<B, I: Iterator, F: FnMut(I::Item) -> Option<B>> Iterator for FilterMap<I, F> {
    type Item = B;

    fn next(&mut self) -> Option<B> {
        while let Some(x) = self.iter.next() {
            if let Some(y) = (self.f)(x) {
                return Some(y);
            }
        }
        None
    }
}

impl<B, I: DoubleEndedIterator, F: FnMut(I::Item) -> Option<B>> DoubleEndedIterator for FilterMap<I, F> {
    fn next_back(&mut self) -> Option<B> {
        while let Some(x) = self.iter.next_back() {
            if let Some(y) = (self.f)(x) {
                return Some(y);
            }
        }
        None
    }
}

/// `Iterator::enumerate`.
#[derive(Clone)]
pub struct Enumerate<I> {
    iter: I,
    count: usize,
}

impl<I: Iterator> Iterator for Enumerate<I> {
    type Item = (usize, I::Item);

    fn next(&mut self) -> Option<(usize, I::Item)> {
        let a = self.iter.next()?;
        let i = self.count;
        self.count += 1;
        Some((i, a))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }
}

impl<I: ExactSizeIterator + DoubleEndedIterator> DoubleEndedIterator for Enumerate<I> {
    fn next_back(&mut self) -> Option<(usize, I::Item)> {
        let len = self.iter.len();
        let a = self.iter.next_back()?;
        Some((self.count + len - 1, a))
    }
}

impl<I: ExactSizeIterator> ExactSizeIterator for Enumerate<I> {}

/// `Iterator::zip`.
#[derive(Clone)]
pub struct Zip<A, B> {
    a: A,
    b: B,
}

impl<A: Iterator, B: Iterator> Iterator for Zip<A, B> {
    type Item = (A::Item, B::Item);

    fn next(&mut self) -> Option<(A::Item, B::Item)> {
        let x = self.a.next()?;
        let y = self.b.next()?;
        Some((x, y))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let (a, _) = self.a.size_hint();
        let (b, _) = self.b.size_hint();
        let lo = if a < b { a } else { b };
        (lo, Some(lo))
    }
}

impl<A: ExactSizeIterator, B: ExactSizeIterator> ExactSizeIterator for Zip<A, B> {}

/// From the back, as core does it: the longer side is first cut to the shorter one's length.
impl<A: DoubleEndedIterator + ExactSizeIterator, B: DoubleEndedIterator + ExactSizeIterator> DoubleEndedIterator for Zip<A, B> {
    fn next_back(&mut self) -> Option<(A::Item, B::Item)> {
        let a_len = self.a.len();
        let b_len = self.b.len();
        let mut extra = if a_len > b_len { a_len - b_len } else { 0 };
        while extra > 0 {
            self.a.next_back();
            extra -= 1;
        }
        let mut extra = if b_len > a_len { b_len - a_len } else { 0 };
        while extra > 0 {
            self.b.next_back();
            extra -= 1;
        }
        let x = self.a.next_back()?;
        let y = self.b.next_back()?;
        Some((x, y))
    }
}

/// `Iterator::chain`.
#[derive(Clone)]
pub struct Chain<A, B> {
    a: Option<A>,
    b: Option<B>,
}

impl<A: Iterator, B: Iterator<Item = A::Item>> Iterator for Chain<A, B> {
    type Item = A::Item;

    fn next(&mut self) -> Option<A::Item> {
        if let Some(a) = &mut self.a {
            match a.next() {
                None => self.a = None,
                item => return item,
            }
        }
        match &mut self.b {
            Some(b) => b.next(),
            None => None,
        }
    }
}

impl<A: DoubleEndedIterator, B: DoubleEndedIterator<Item = A::Item>> DoubleEndedIterator for Chain<A, B> {
    fn next_back(&mut self) -> Option<A::Item> {
        if let Some(b) = &mut self.b {
            match b.next_back() {
                None => self.b = None,
                item => return item,
            }
        }
        match &mut self.a {
            Some(a) => a.next_back(),
            None => None,
        }
    }
}

/// `Iterator::flat_map`: the iterator each item maps to, drained in turn. `front` is the
/// inner iterator `next` drains and `back` the one `next_back` drains: when the outer
/// iterator is done, each side goes on into the other's, as core's does.
#[derive(Clone)]
pub struct FlatMap<I, U, F> {
    iter: I,
    f: F,
    front: Option<U>,
    back: Option<U>,
}

impl<I: Iterator, U: Iterator, F: FnMut(I::Item) -> V, V: IntoIterator<IntoIter = U, Item = U::Item>> Iterator for FlatMap<I, U, F> {
    type Item = U::Item;

    fn next(&mut self) -> Option<U::Item> {
        loop {
            if let Some(inner) = &mut self.front {
                match inner.next() {
                    None => self.front = None,
                    item => return item,
                }
            }
            match self.iter.next() {
                Some(x) => self.front = Some((self.f)(x).into_iter()),
                None => return next_or_clear(&mut self.back),
            }
        }
    }
}

impl<I: DoubleEndedIterator, U: DoubleEndedIterator, F: FnMut(I::Item) -> V, V: IntoIterator<IntoIter = U, Item = U::Item>> DoubleEndedIterator for FlatMap<I, U, F> {
    fn next_back(&mut self) -> Option<U::Item> {
        loop {
            if let Some(inner) = &mut self.back {
                match inner.next_back() {
                    None => self.back = None,
                    item => return item,
                }
            }
            match self.iter.next_back() {
                Some(x) => self.back = Some((self.f)(x).into_iter()),
                None => return next_back_or_clear(&mut self.front),
            }
        }
    }
}

/// `Iterator::flatten`: each item's iterator, drained in turn, from the front and from the
/// back as `FlatMap`'s.
#[derive(Clone)]
pub struct Flatten<I, U> {
    iter: I,
    front: Option<U>,
    back: Option<U>,
}

impl<I: Iterator, U: Iterator> Iterator for Flatten<I, U>
where
    I::Item: IntoIterator<IntoIter = U, Item = U::Item>,
{
    type Item = U::Item;

    fn next(&mut self) -> Option<U::Item> {
        loop {
            if let Some(inner) = &mut self.front {
                match inner.next() {
                    None => self.front = None,
                    item => return item,
                }
            }
            match self.iter.next() {
                Some(x) => self.front = Some(x.into_iter()),
                None => return next_or_clear(&mut self.back),
            }
        }
    }
}

impl<I: DoubleEndedIterator, U: DoubleEndedIterator> DoubleEndedIterator for Flatten<I, U>
where
    I::Item: IntoIterator<IntoIter = U, Item = U::Item>,
{
    fn next_back(&mut self) -> Option<U::Item> {
        loop {
            if let Some(inner) = &mut self.back {
                match inner.next_back() {
                    None => self.back = None,
                    item => return item,
                }
            }
            match self.iter.next_back() {
                Some(x) => self.back = Some(x.into_iter()),
                None => return next_back_or_clear(&mut self.front),
            }
        }
    }
}

/// The next item of the inner iterator the other end of a `FlatMap` or `Flatten` has begun,
/// once the outer iterator is done; the inner iterator is dropped when it has no more.
fn next_or_clear<U: Iterator>(inner: &mut Option<U>) -> Option<U::Item> {
    let item = match inner {
        Some(it) => it.next(),
        None => return None,
    };
    if item.is_none() {
        *inner = None;
    }
    item
}

fn next_back_or_clear<U: DoubleEndedIterator>(inner: &mut Option<U>) -> Option<U::Item> {
    let item = match inner {
        Some(it) => it.next_back(),
        None => return None,
    };
    if item.is_none() {
        *inner = None;
    }
    item
}

/// `Iterator::cycle`: the iterator again from a copy of its start, forever (or never, when
/// it is empty).
#[derive(Clone)]
pub struct Cycle<I> {
    orig: I,
    iter: I,
}

impl<I: Iterator + Clone> Iterator for Cycle<I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        match self.iter.next() {
            None => {
                self.iter = self.orig.clone();
                self.iter.next()
            }
            item => item,
        }
    }
}

/// `Iterator::rev`.
#[derive(Clone)]
pub struct Rev<I> {
    iter: I,
}

impl<I: DoubleEndedIterator> Iterator for Rev<I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        self.iter.next_back()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }
}

impl<I: DoubleEndedIterator> DoubleEndedIterator for Rev<I> {
    fn next_back(&mut self) -> Option<I::Item> {
        self.iter.next()
    }
}

impl<I: DoubleEndedIterator + ExactSizeIterator> ExactSizeIterator for Rev<I> {}

/// `Iterator::take`.
#[derive(Clone)]
pub struct Take<I> {
    iter: I,
    n: usize,
}

impl<I: Iterator> Iterator for Take<I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        if self.n != 0 {
            self.n -= 1;
            self.iter.next()
        } else {
            None
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.n == 0 {
            return (0, Some(0));
        }
        let (lo, hi) = self.iter.size_hint();
        let lo = if lo < self.n { lo } else { self.n };
        let hi = match hi {
            Some(x) if x < self.n => Some(x),
            _ => Some(self.n),
        };
        (lo, hi)
    }
}

impl<I: ExactSizeIterator> ExactSizeIterator for Take<I> {}

/// From the back: the `n`-th element from the front is the last one taken, so what lies
/// beyond it is skipped first.
impl<I: DoubleEndedIterator + ExactSizeIterator> DoubleEndedIterator for Take<I> {
    fn next_back(&mut self) -> Option<I::Item> {
        if self.n == 0 {
            None
        } else {
            let n = self.n;
            self.n -= 1;
            let len = self.iter.len();
            self.iter.nth_back(if len > n { len - n } else { 0 })
        }
    }
}

/// `Iterator::skip`.
#[derive(Clone)]
pub struct Skip<I> {
    iter: I,
    n: usize,
}

impl<I: Iterator> Iterator for Skip<I> {
    type Item = I::Item;

    // One call, `nth(0)` being `next()`: with a call in each arm of an `if`, each arm's
    // `Option` had a local of its own and the `if` yielded a pointer to one of them, which LLVM
    // could not promote: `a.iter().zip(b).skip(k)` kept its state in local memory (a 96-byte
    // stack frame in testsuite/kernels/idioms.rs's `zipped`; none now, and 22 registers for 30).
    fn next(&mut self) -> Option<I::Item> {
        let n = self.n;
        self.n = 0;
        self.iter.nth(n)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let (lo, hi) = self.iter.size_hint();
        let lo = if lo > self.n { lo - self.n } else { 0 };
        let hi = match hi {
            Some(x) => Some(if x > self.n { x - self.n } else { 0 }),
            None => None,
        };
        (lo, hi)
    }
}

impl<I: ExactSizeIterator> ExactSizeIterator for Skip<I> {}

/// From the back: the elements past the skipped ones, while there are any.
impl<I: DoubleEndedIterator + ExactSizeIterator> DoubleEndedIterator for Skip<I> {
    fn next_back(&mut self) -> Option<I::Item> {
        if self.len() > 0 { self.iter.next_back() } else { None }
    }
}

/// `Iterator::step_by`: the first element, then every `step_minus_one + 1`-th.
#[derive(Clone)]
pub struct StepBy<I> {
    iter: I,
    step_minus_one: usize,
    first_take: bool,
}

impl<I: Iterator> Iterator for StepBy<I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        let step = if self.first_take { 0 } else { self.step_minus_one };
        self.first_take = false;
        self.iter.nth(step)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let step = self.step_minus_one + 1;
        let (lo, hi) = self.iter.size_hint();
        if self.first_take {
            let f = |n: usize| if n == 0 { 0 } else { 1 + (n - 1) / step };
            (f(lo), match hi { Some(x) => Some(f(x)), None => None })
        } else {
            (lo / step, match hi { Some(x) => Some(x / step), None => None })
        }
    }
}

impl<I: ExactSizeIterator> ExactSizeIterator for StepBy<I> {}

impl<I: DoubleEndedIterator + ExactSizeIterator> StepBy<I> {
    /// How many elements from the back to pass over to reach the last one the steps land on.
    fn next_back_index(&self) -> usize {
        let rem = self.iter.len() % (self.step_minus_one + 1);
        if self.first_take {
            if rem == 0 { self.step_minus_one } else { rem - 1 }
        } else {
            rem
        }
    }
}

impl<I: DoubleEndedIterator + ExactSizeIterator> DoubleEndedIterator for StepBy<I> {
    fn next_back(&mut self) -> Option<I::Item> {
        let n = self.next_back_index();
        self.iter.nth_back(n)
    }
}

/// `Iterator::take_while`.
#[derive(Clone)]
pub struct TakeWhile<I, P> {
    iter: I,
    flag: bool,
    predicate: P,
}

impl<I: Iterator, P: FnMut(&I::Item) -> bool> Iterator for TakeWhile<I, P> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        if self.flag {
            return None;
        }
        let x = self.iter.next()?;
        if (self.predicate)(&x) {
            Some(x)
        } else {
            self.flag = true;
            None
        }
    }
}

/// `Iterator::skip_while`.
#[derive(Clone)]
pub struct SkipWhile<I, P> {
    iter: I,
    flag: bool,
    predicate: P,
}

impl<I: Iterator, P: FnMut(&I::Item) -> bool> Iterator for SkipWhile<I, P> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        loop {
            let x = self.iter.next()?;
            if self.flag || !(self.predicate)(&x) {
                self.flag = true;
                return Some(x);
            }
        }
    }
}

/// `Iterator::map_while`.
#[derive(Clone)]
pub struct MapWhile<I, P> {
    iter: I,
    predicate: P,
}

impl<B, I: Iterator, P: FnMut(I::Item) -> Option<B>> Iterator for MapWhile<I, P> {
    type Item = B;

    fn next(&mut self) -> Option<B> {
        let x = self.iter.next()?;
        (self.predicate)(x)
    }
}

/// `Iterator::scan`.
#[derive(Clone)]
pub struct Scan<I, St, F> {
    iter: I,
    f: F,
    state: St,
}

impl<B, I: Iterator, St, F: FnMut(&mut St, I::Item) -> Option<B>> Iterator for Scan<I, St, F> {
    type Item = B;

    fn next(&mut self) -> Option<B> {
        let a = self.iter.next()?;
        (self.f)(&mut self.state, a)
    }
}

/// `Iterator::fuse`.
#[derive(Clone)]
pub struct Fuse<I> {
    iter: Option<I>,
}

impl<I: Iterator> Iterator for Fuse<I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        let item = match &mut self.iter {
            Some(it) => it.next(),
            None => return None,
        };
        if item.is_none() {
            self.iter = None;
        }
        item
    }
}

impl<I: DoubleEndedIterator> DoubleEndedIterator for Fuse<I> {
    fn next_back(&mut self) -> Option<I::Item> {
        let item = match &mut self.iter {
            Some(it) => it.next_back(),
            None => return None,
        };
        if item.is_none() {
            self.iter = None;
        }
        item
    }
}

/// `Iterator::inspect`.
#[derive(Clone)]
pub struct Inspect<I, F> {
    iter: I,
    f: F,
}

impl<I: Iterator, F: FnMut(&I::Item)> Iterator for Inspect<I, F> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        let x = self.iter.next()?;
        (self.f)(&x);
        Some(x)
    }
}

impl<I: DoubleEndedIterator, F: FnMut(&I::Item)> DoubleEndedIterator for Inspect<I, F> {
    fn next_back(&mut self) -> Option<I::Item> {
        let x = self.iter.next_back()?;
        (self.f)(&x);
        Some(x)
    }
}

/// `Iterator::peekable`.
#[derive(Clone)]
pub struct Peekable<I: Iterator> {
    iter: I,
    peeked: Option<Option<I::Item>>,
}

impl<I: Iterator> Iterator for Peekable<I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        match self.peeked.take() {
            Some(v) => v,
            None => self.iter.next(),
        }
    }
}

/// A peeked item is the front one, so it comes last from the back: after every other item,
/// when it is taken, the peek is left as one that met the end (`Some(None)`), as core's is.
impl<I: DoubleEndedIterator> DoubleEndedIterator for Peekable<I> {
    fn next_back(&mut self) -> Option<I::Item> {
        match self.peeked {
            Some(Some(_)) => match self.iter.next_back() {
                None => self.peeked.replace(None).flatten(),
                item => item,
            },
            Some(None) => None,
            None => self.iter.next_back(),
        }
    }
}

impl<I: Iterator> Peekable<I> {
    pub fn peek(&mut self) -> Option<&I::Item> {
        if self.peeked.is_none() {
            self.peeked = Some(self.iter.next());
        }
        match &self.peeked {
            Some(Some(v)) => Some(v),
            _ => None,
        }
    }

    pub fn next_if<F: FnOnce(&I::Item) -> bool>(&mut self, func: F) -> Option<I::Item> {
        let next = self.next()?;
        if func(&next) {
            Some(next)
        } else {
            self.peeked = Some(Some(next));
            None
        }
    }

    pub fn next_if_eq<T: ?Sized>(&mut self, expected: &T) -> Option<I::Item>
    where
        I::Item: PartialEq<T>,
    {
        self.next_if(|next| next == expected)
    }

    pub fn peek_mut(&mut self) -> Option<&mut I::Item> {
        if self.peeked.is_none() {
            self.peeked = Some(self.iter.next());
        }
        match &mut self.peeked {
            Some(Some(v)) => Some(v),
            _ => None,
        }
    }
}

/// `Iterator::copied`.
#[derive(Clone)]
pub struct Copied<I> {
    it: I,
}

impl<'a, T: 'a + Copy, I: Iterator<Item = &'a T>> Iterator for Copied<I> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        match self.it.next() {
            Some(&v) => Some(v),
            None => None,
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.it.size_hint()
    }
}

impl<'a, T: 'a + Copy, I: DoubleEndedIterator<Item = &'a T>> DoubleEndedIterator for Copied<I> {
    fn next_back(&mut self) -> Option<T> {
        match self.it.next_back() {
            Some(&v) => Some(v),
            None => None,
        }
    }
}

impl<'a, T: 'a + Copy, I: ExactSizeIterator<Item = &'a T>> ExactSizeIterator for Copied<I> {}

/// `Iterator::cloned`.
#[derive(Clone)]
pub struct Cloned<I> {
    it: I,
}

impl<'a, T: 'a + Clone, I: Iterator<Item = &'a T>> Iterator for Cloned<I> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        match self.it.next() {
            Some(v) => Some(v.clone()),
            None => None,
        }
    }
}

impl<'a, T: 'a + Clone, I: DoubleEndedIterator<Item = &'a T>> DoubleEndedIterator for Cloned<I> {
    fn next_back(&mut self) -> Option<T> {
        match self.it.next_back() {
            Some(v) => Some(v.clone()),
            None => None,
        }
    }
}

/// `iter::repeat`.
#[derive(Clone)]
pub struct Repeat<A> {
    element: A,
}

pub fn repeat<T: Clone>(elt: T) -> Repeat<T> {
    Repeat { element: elt }
}

impl<A: Clone> Iterator for Repeat<A> {
    type Item = A;

    fn next(&mut self) -> Option<A> {
        Some(self.element.clone())
    }
}

/// `iter::repeat_n`: `count` clones of an element (the last one moved).
#[derive(Clone)]
pub struct RepeatN<A> {
    element: Option<A>,
    count: usize,
}

pub fn repeat_n<T: Clone>(element: T, count: usize) -> RepeatN<T> {
    RepeatN { element: if count == 0 { None } else { Some(element) }, count }
}

impl<A: Clone> Iterator for RepeatN<A> {
    type Item = A;

    fn next(&mut self) -> Option<A> {
        if self.count == 0 {
            return None;
        }
        self.count -= 1;
        if self.count == 0 { self.element.take() } else { self.element.clone() }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.count, Some(self.count))
    }
}

impl<A: Clone> ExactSizeIterator for RepeatN<A> {}

/// `iter::repeat_with`.
#[derive(Clone)]
pub struct RepeatWith<F> {
    f: F,
}

pub fn repeat_with<A, F: FnMut() -> A>(f: F) -> RepeatWith<F> {
    RepeatWith { f }
}

impl<A, F: FnMut() -> A> Iterator for RepeatWith<F> {
    type Item = A;

    fn next(&mut self) -> Option<A> {
        Some((self.f)())
    }
}

/// `iter::once`.
#[derive(Clone)]
pub struct Once<T> {
    inner: Option<T>,
}

pub fn once<T>(value: T) -> Once<T> {
    Once { inner: Some(value) }
}

impl<T> Iterator for Once<T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        self.inner.take()
    }
}

/// `iter::empty`.
#[derive(Clone)]
pub struct Empty<T> {
    marker: crate::marker::PhantomData<T>,
}

pub fn empty<T>() -> Empty<T> {
    Empty { marker: crate::marker::PhantomData }
}

impl<T> Iterator for Empty<T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        None
    }
}

/// `iter::from_fn`.
#[derive(Clone)]
pub struct FromFn<F> {
    f: F,
}

pub fn from_fn<T, F: FnMut() -> Option<T>>(f: F) -> FromFn<F> {
    FromFn { f }
}

impl<T, F: FnMut() -> Option<T>> Iterator for FromFn<F> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        (self.f)()
    }
}

/// `iter::successors`.
#[derive(Clone)]
pub struct Successors<T, F> {
    next: Option<T>,
    succ: F,
}

pub fn successors<T, F: FnMut(&T) -> Option<T>>(first: Option<T>, succ: F) -> Successors<T, F> {
    Successors { next: first, succ }
}

impl<T, F: FnMut(&T) -> Option<T>> Iterator for Successors<T, F> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        let item = self.next.take()?;
        self.next = (self.succ)(&item);
        Some(item)
    }
}

/// `iter::zip`.
pub fn zip<A: IntoIterator, B: IntoIterator>(a: A, b: B) -> Zip<A::IntoIter, B::IntoIter> {
    Zip { a: a.into_iter(), b: b.into_iter() }
}
