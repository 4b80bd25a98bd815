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

    pub fn each_mut(&mut self) -> [&mut T; N] {
        let p = self as *mut [T; N] as *mut T;
        let mut out: [&mut T; N] = unsafe { intrinsics::uninit() };
        let mut i = 0;
        while i < N {
            // SAFETY: each element is borrowed once, for the array's borrow.
            out[i] = unsafe { &mut *p.add(i) };
            i += 1;
        }
        out
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

impl<T: Clone, const N: usize> Clone for IntoIter<T, N> {
    fn clone(&self) -> IntoIter<T, N> {
        IntoIter { data: self.data.clone(), front: self.front, back: self.back }
    }
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

/// The error of converting a slice to an array (or a reference to one) of another length.
#[derive(Clone, Copy)]
pub struct TryFromSliceError(());

/// `<[T; N]>::try_from(slice)`, `slice.try_into()`: a copy of the slice's elements when it
/// has exactly `N` of them.
impl<T: Copy, const N: usize> crate::convert::TryFrom<&[T]> for [T; N] {
    type Error = TryFromSliceError;

    fn try_from(slice: &[T]) -> crate::result::Result<[T; N], TryFromSliceError> {
        if slice.len() == N {
            crate::result::Result::Ok(unsafe { *(slice.as_ptr() as *const [T; N]) })
        } else {
            crate::result::Result::Err(TryFromSliceError(()))
        }
    }
}

impl<T: Copy, const N: usize> crate::convert::TryFrom<&mut [T]> for [T; N] {
    type Error = TryFromSliceError;

    fn try_from(slice: &mut [T]) -> crate::result::Result<[T; N], TryFromSliceError> {
        if slice.len() == N {
            crate::result::Result::Ok(unsafe { *(slice.as_ptr() as *const [T; N]) })
        } else {
            crate::result::Result::Err(TryFromSliceError(()))
        }
    }
}

/// A reference to the slice's elements as an array, when it has exactly `N` of them.
impl<'a, T, const N: usize> crate::convert::TryFrom<&'a [T]> for &'a [T; N] {
    type Error = TryFromSliceError;

    fn try_from(slice: &'a [T]) -> crate::result::Result<&'a [T; N], TryFromSliceError> {
        if slice.len() == N {
            crate::result::Result::Ok(unsafe { &*(slice.as_ptr() as *const [T; N]) })
        } else {
            crate::result::Result::Err(TryFromSliceError(()))
        }
    }
}

impl<'a, T, const N: usize> crate::convert::TryFrom<&'a mut [T]> for &'a mut [T; N] {
    type Error = TryFromSliceError;

    fn try_from(slice: &'a mut [T]) -> crate::result::Result<&'a mut [T; N], TryFromSliceError> {
        if slice.len() == N {
            crate::result::Result::Ok(unsafe { &mut *(slice.as_mut_ptr() as *mut [T; N]) })
        } else {
            crate::result::Result::Err(TryFromSliceError(()))
        }
    }
}
