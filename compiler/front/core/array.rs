//! Arrays `[T; N]`: by-value iteration and the methods of arrays themselves. Slice methods
//! reach arrays by auto-ref and unsizing (`arr.iter()`, `arr.len()`).

use crate::intrinsics;
use crate::option::Option::{self, None, Some};

impl<T, const N: usize> [T; N] {
    pub fn map<U, F: FnMut(T) -> U>(self, f: F) -> [U; N] {
        let mut f = f;
        let mut out: [U; N] = unsafe { intrinsics::uninit() };
        let mut i = 0;
        while i < N {
            out[i] = f(unsafe { intrinsics::read(&self[i]) });
            i += 1;
        }
        out
    }

    pub const fn as_slice(&self) -> &[T] {
        self
    }

    pub fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }

    pub fn each_ref(&self) -> [&T; N] {
        let mut out: [&T; N] = unsafe { intrinsics::uninit() };
        let mut i = 0;
        while i < N {
            out[i] = &self[i];
            i += 1;
        }
        out
    }
}

/// `[T; N]` iterated by value.
pub struct IntoIter<T, const N: usize> {
    data: [T; N],
    front: usize,
    back: usize,
}

impl<T, const N: usize> Iterator for IntoIter<T, N> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        if self.front < self.back {
            let v = unsafe { intrinsics::read(&self.data[self.front]) };
            self.front += 1;
            Some(v)
        } else {
            None
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl<T, const N: usize> DoubleEndedIterator for IntoIter<T, N> {
    fn next_back(&mut self) -> Option<T> {
        if self.front < self.back {
            self.back -= 1;
            Some(unsafe { intrinsics::read(&self.data[self.back]) })
        } else {
            None
        }
    }
}

impl<T, const N: usize> ExactSizeIterator for IntoIter<T, N> {}

impl<T, const N: usize> IntoIterator for [T; N] {
    type Item = T;
    type IntoIter = IntoIter<T, N>;

    fn into_iter(self) -> IntoIter<T, N> {
        IntoIter { data: self, front: 0, back: N }
    }
}

/// `core::array::from_fn`.
pub fn from_fn<T, const N: usize, F: FnMut(usize) -> T>(cb: F) -> [T; N] {
    let mut cb = cb;
    let mut out: [T; N] = unsafe { intrinsics::uninit() };
    let mut i = 0;
    while i < N {
        out[i] = cb(i);
        i += 1;
    }
    out
}
