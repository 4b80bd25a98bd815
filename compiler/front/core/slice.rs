//! Slices: their methods, iterators and indexing by position or range.

use crate::intrinsics;
use crate::ops::{Range, RangeFrom, RangeFull, RangeInclusive, RangeTo, RangeToInclusive};
use crate::option::Option::{self, None, Some};

#[lang = "slice"]
impl<T> [T] {
    pub const fn len(&self) -> usize {
        intrinsics::slice_len(self)
    }

    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub const fn as_ptr(&self) -> *const T {
        intrinsics::slice_ptr(self)
    }

    pub fn as_mut_ptr(&mut self) -> *mut T {
        intrinsics::slice_ptr(self) as *mut T
    }

    pub fn get<I: SliceIndex<[T]>>(&self, index: I) -> Option<&I::Output> {
        index.get(self)
    }

    pub fn get_mut<I: SliceIndex<[T]>>(&mut self, index: I) -> Option<&mut I::Output> {
        index.get_mut(self)
    }

    pub unsafe fn get_unchecked<I: SliceIndex<[T]>>(&self, index: I) -> &I::Output {
        unsafe { &*index.get_unchecked(self) }
    }

    pub unsafe fn get_unchecked_mut<I: SliceIndex<[T]>>(&mut self, index: I) -> &mut I::Output {
        unsafe { &mut *index.get_unchecked_mut(self) }
    }

    pub fn first(&self) -> Option<&T> {
        self.get(0)
    }

    pub fn first_mut(&mut self) -> Option<&mut T> {
        self.get_mut(0)
    }

    pub fn last(&self) -> Option<&T> {
        if self.is_empty() { None } else { self.get(self.len() - 1) }
    }

    pub fn last_mut(&mut self) -> Option<&mut T> {
        let n = self.len();
        if n == 0 { None } else { self.get_mut(n - 1) }
    }

    pub fn split_first(&self) -> Option<(&T, &[T])> {
        if self.is_empty() {
            None
        } else {
            Some((&self[0], &self[1..]))
        }
    }

    pub fn split_last(&self) -> Option<(&T, &[T])> {
        let n = self.len();
        if n == 0 {
            None
        } else {
            Some((&self[n - 1], &self[..n - 1]))
        }
    }

    pub fn iter(&self) -> Iter<'_, T> {
        Iter { ptr: self.as_ptr(), front: 0, back: self.len(), marker: crate::marker::PhantomData }
    }

    pub fn iter_mut(&mut self) -> IterMut<'_, T> {
        let back = self.len();
        IterMut { ptr: self.as_mut_ptr(), front: 0, back, marker: crate::marker::PhantomData }
    }

    #[track_caller]
    pub fn split_at(&self, mid: usize) -> (&[T], &[T]) {
        assert!(mid <= self.len(), "mid > len");
        unsafe { (intrinsics::slice_from_raw_parts(self.as_ptr(), mid), intrinsics::slice_from_raw_parts(self.as_ptr().add(mid), self.len() - mid)) }
    }

    #[track_caller]
    pub fn split_at_mut(&mut self, mid: usize) -> (&mut [T], &mut [T]) {
        let len = self.len();
        assert!(mid <= len, "mid > len");
        let p = self.as_mut_ptr();
        unsafe { (intrinsics::slice_from_raw_parts_mut(p, mid), intrinsics::slice_from_raw_parts_mut(p.add(mid), len - mid)) }
    }

    pub fn split_at_checked(&self, mid: usize) -> Option<(&[T], &[T])> {
        if mid <= self.len() { Some(self.split_at(mid)) } else { None }
    }

    pub fn split_at_mut_checked(&mut self, mid: usize) -> Option<(&mut [T], &mut [T])> {
        if mid <= self.len() { Some(self.split_at_mut(mid)) } else { None }
    }

    #[track_caller]
    pub fn chunks(&self, chunk_size: usize) -> Chunks<'_, T> {
        assert!(chunk_size != 0, "chunk size must be non-zero");
        Chunks { v: self, chunk_size }
    }

    #[track_caller]
    pub fn chunks_mut(&mut self, chunk_size: usize) -> ChunksMut<'_, T> {
        assert!(chunk_size != 0, "chunk size must be non-zero");
        let len = self.len();
        ChunksMut { ptr: self.as_mut_ptr(), len, chunk_size, marker: crate::marker::PhantomData }
    }

    #[track_caller]
    pub fn chunks_exact(&self, chunk_size: usize) -> ChunksExact<'_, T> {
        assert!(chunk_size != 0, "chunk size must be non-zero");
        let rem = self.len() % chunk_size;
        let fst_len = self.len() - rem;
        let (fst, snd) = self.split_at(fst_len);
        ChunksExact { v: fst, rem: snd, chunk_size }
    }

    #[track_caller]
    pub fn windows(&self, size: usize) -> Windows<'_, T> {
        assert!(size != 0, "window size must be non-zero");
        Windows { v: self, size }
    }

    #[track_caller]
    pub fn swap(&mut self, a: usize, b: usize) {
        let pa: *mut T = &mut self[a];
        let pb: *mut T = &mut self[b];
        unsafe {
            let t = intrinsics::read(pa);
            intrinsics::write(pa, intrinsics::read(pb));
            intrinsics::write(pb, t);
        }
    }

    pub fn reverse(&mut self) {
        let n = self.len();
        let mut i = 0;
        while i < n / 2 {
            self.swap(i, n - 1 - i);
            i += 1;
        }
    }

    pub fn fill(&mut self, value: T)
    where
        T: Clone,
    {
        let mut i = 0;
        while i < self.len() {
            self[i] = value.clone();
            i += 1;
        }
    }

    pub fn fill_with<F: FnMut() -> T>(&mut self, f: F) {
        let mut f = f;
        let mut i = 0;
        while i < self.len() {
            self[i] = f();
            i += 1;
        }
    }

    #[track_caller]
    pub fn copy_from_slice(&mut self, src: &[T])
    where
        T: Copy,
    {
        assert!(self.len() == src.len(), "destination and source slices have different lengths");
        let mut i = 0;
        while i < src.len() {
            self[i] = src[i];
            i += 1;
        }
    }

    #[track_caller]
    pub fn clone_from_slice(&mut self, src: &[T])
    where
        T: Clone,
    {
        assert!(self.len() == src.len(), "destination and source slices have different lengths");
        let mut i = 0;
        while i < src.len() {
            self[i] = src[i].clone();
            i += 1;
        }
    }

    pub fn contains(&self, x: &T) -> bool
    where
        T: PartialEq,
    {
        let mut i = 0;
        while i < self.len() {
            if self[i] == *x {
                return true;
            }
            i += 1;
        }
        false
    }

    pub fn starts_with(&self, needle: &[T]) -> bool
    where
        T: PartialEq,
    {
        let n = needle.len();
        self.len() >= n && needle == &self[..n]
    }

    pub fn rotate_left(&mut self, mid: usize) {
        let n = self.len();
        if n == 0 {
            return;
        }
        self[..mid].reverse();
        self[mid..].reverse();
        self.reverse();
        let _ = n;
    }

    pub fn sort_unstable(&mut self)
    where
        T: Ord,
    {
        self.sort_unstable_by(|a, b| a.cmp(b));
    }

    pub fn sort_unstable_by<F: FnMut(&T, &T) -> crate::cmp::Ordering>(&mut self, compare: F) {
        // Insertion sort: kernels sort small arrays, where it is the fastest and needs no
        // extra memory.
        let mut compare = compare;
        let n = self.len();
        let mut i = 1;
        while i < n {
            let mut j = i;
            while j > 0 && compare(&self[j - 1], &self[j]) == crate::cmp::Ordering::Greater {
                self.swap(j - 1, j);
                j -= 1;
            }
            i += 1;
        }
    }

    pub fn sort_unstable_by_key<K: Ord, F: FnMut(&T) -> K>(&mut self, f: F) {
        let mut f = f;
        self.sort_unstable_by(|a, b| f(a).cmp(&f(b)));
    }

    pub fn binary_search_by<F: FnMut(&T) -> crate::cmp::Ordering>(&self, f: F) -> crate::result::Result<usize, usize> {
        let mut f = f;
        let mut size = self.len();
        let mut left = 0;
        let mut right = size;
        while left < right {
            let mid = left + size / 2;
            let cmp = f(&self[mid]);
            if cmp == crate::cmp::Ordering::Less {
                left = mid + 1;
            } else if cmp == crate::cmp::Ordering::Greater {
                right = mid;
            } else {
                return crate::result::Result::Ok(mid);
            }
            size = right - left;
        }
        crate::result::Result::Err(left)
    }

    pub fn binary_search(&self, x: &T) -> crate::result::Result<usize, usize>
    where
        T: Ord,
    {
        self.binary_search_by(|p| p.cmp(x))
    }

    pub fn as_chunks<const N: usize>(&self) -> (&[[T; N]], &[T]) {
        let len = self.len() / N;
        let (multiple, remainder) = self.split_at(len * N);
        let chunks = unsafe { intrinsics::slice_from_raw_parts(multiple.as_ptr() as *const [T; N], len) };
        (chunks, remainder)
    }
}

/// Indexing a slice by a position or a range: `get`, `get_mut` and the unchecked forms.
pub trait SliceIndex<T: ?Sized> {
    type Output: ?Sized;
    fn get(self, slice: &T) -> Option<&Self::Output>;
    fn get_mut(self, slice: &mut T) -> Option<&mut Self::Output>;
    unsafe fn get_unchecked(self, slice: *const T) -> *const Self::Output;
    unsafe fn get_unchecked_mut(self, slice: *mut T) -> *mut Self::Output;
}

impl<T> SliceIndex<[T]> for usize {
    type Output = T;

    fn get(self, slice: &[T]) -> Option<&T> {
        if self < slice.len() { unsafe { Some(&*slice.as_ptr().add(self)) } } else { None }
    }

    fn get_mut(self, slice: &mut [T]) -> Option<&mut T> {
        if self < slice.len() { unsafe { Some(&mut *slice.as_mut_ptr().add(self)) } } else { None }
    }

    unsafe fn get_unchecked(self, slice: *const [T]) -> *const T {
        unsafe { intrinsics::slice_ptr(slice).add(self) }
    }

    unsafe fn get_unchecked_mut(self, slice: *mut [T]) -> *mut T {
        unsafe { (intrinsics::slice_ptr(slice) as *mut T).add(self) }
    }
}

impl<T> SliceIndex<[T]> for Range<usize> {
    type Output = [T];

    fn get(self, slice: &[T]) -> Option<&[T]> {
        if self.start > self.end || self.end > slice.len() {
            None
        } else {
            unsafe { Some(intrinsics::slice_from_raw_parts(slice.as_ptr().add(self.start), self.end - self.start)) }
        }
    }

    fn get_mut(self, slice: &mut [T]) -> Option<&mut [T]> {
        if self.start > self.end || self.end > slice.len() {
            None
        } else {
            unsafe { Some(intrinsics::slice_from_raw_parts_mut(slice.as_mut_ptr().add(self.start), self.end - self.start)) }
        }
    }

    unsafe fn get_unchecked(self, slice: *const [T]) -> *const [T] {
        unsafe { intrinsics::slice_from_raw_parts(intrinsics::slice_ptr(slice).add(self.start), self.end - self.start) }
    }

    unsafe fn get_unchecked_mut(self, slice: *mut [T]) -> *mut [T] {
        unsafe { intrinsics::slice_from_raw_parts_mut((intrinsics::slice_ptr(slice) as *mut T).add(self.start), self.end - self.start) }
    }
}

impl<T> SliceIndex<[T]> for RangeInclusive<usize> {
    type Output = [T];

    fn get(self, slice: &[T]) -> Option<&[T]> {
        if self.end == usize::MAX { None } else { (self.start..self.end + 1).get(slice) }
    }

    fn get_mut(self, slice: &mut [T]) -> Option<&mut [T]> {
        if self.end == usize::MAX { None } else { (self.start..self.end + 1).get_mut(slice) }
    }

    unsafe fn get_unchecked(self, slice: *const [T]) -> *const [T] {
        unsafe { (self.start..self.end + 1).get_unchecked(slice) }
    }

    unsafe fn get_unchecked_mut(self, slice: *mut [T]) -> *mut [T] {
        unsafe { (self.start..self.end + 1).get_unchecked_mut(slice) }
    }
}

impl<T> SliceIndex<[T]> for RangeFrom<usize> {
    type Output = [T];

    fn get(self, slice: &[T]) -> Option<&[T]> {
        (self.start..slice.len()).get(slice)
    }

    fn get_mut(self, slice: &mut [T]) -> Option<&mut [T]> {
        let n = slice.len();
        (self.start..n).get_mut(slice)
    }

    unsafe fn get_unchecked(self, slice: *const [T]) -> *const [T] {
        unsafe { (self.start..intrinsics::slice_len(slice)).get_unchecked(slice) }
    }

    unsafe fn get_unchecked_mut(self, slice: *mut [T]) -> *mut [T] {
        unsafe { (self.start..intrinsics::slice_len(slice)).get_unchecked_mut(slice) }
    }
}

impl<T> SliceIndex<[T]> for RangeTo<usize> {
    type Output = [T];

    fn get(self, slice: &[T]) -> Option<&[T]> {
        (0..self.end).get(slice)
    }

    fn get_mut(self, slice: &mut [T]) -> Option<&mut [T]> {
        (0..self.end).get_mut(slice)
    }

    unsafe fn get_unchecked(self, slice: *const [T]) -> *const [T] {
        unsafe { (0..self.end).get_unchecked(slice) }
    }

    unsafe fn get_unchecked_mut(self, slice: *mut [T]) -> *mut [T] {
        unsafe { (0..self.end).get_unchecked_mut(slice) }
    }
}

impl<T> SliceIndex<[T]> for RangeFull {
    type Output = [T];

    fn get(self, slice: &[T]) -> Option<&[T]> {
        Some(slice)
    }

    fn get_mut(self, slice: &mut [T]) -> Option<&mut [T]> {
        Some(slice)
    }

    unsafe fn get_unchecked(self, slice: *const [T]) -> *const [T] {
        slice
    }

    unsafe fn get_unchecked_mut(self, slice: *mut [T]) -> *mut [T] {
        slice
    }
}

/// `slice.iter()`.
pub struct Iter<'a, T> {
    ptr: *const T,
    front: usize,
    back: usize,
    marker: crate::marker::PhantomData<&'a T>,
}

impl<'a, T> Clone for Iter<'a, T> {
    fn clone(&self) -> Iter<'a, T> {
        Iter { ptr: self.ptr, front: self.front, back: self.back, marker: crate::marker::PhantomData }
    }
}

impl<'a, T> Iter<'a, T> {
    pub fn as_slice(&self) -> &'a [T] {
        unsafe { intrinsics::slice_from_raw_parts(self.ptr.add(self.front), self.back - self.front) }
    }
}

impl<'a, T> Iterator for Iter<'a, T> {
    type Item = &'a T;

    fn next(&mut self) -> Option<&'a T> {
        if self.front < self.back {
            let r = unsafe { &*self.ptr.add(self.front) };
            self.front += 1;
            Some(r)
        } else {
            None
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }

    fn nth(&mut self, n: usize) -> Option<&'a T> {
        if n < self.back - self.front {
            self.front += n;
            self.next()
        } else {
            self.front = self.back;
            None
        }
    }
}

impl<'a, T> DoubleEndedIterator for Iter<'a, T> {
    fn next_back(&mut self) -> Option<&'a T> {
        if self.front < self.back {
            self.back -= 1;
            Some(unsafe { &*self.ptr.add(self.back) })
        } else {
            None
        }
    }
}

impl<'a, T> ExactSizeIterator for Iter<'a, T> {}

/// `slice.iter_mut()`.
pub struct IterMut<'a, T> {
    ptr: *mut T,
    front: usize,
    back: usize,
    marker: crate::marker::PhantomData<&'a mut T>,
}

impl<'a, T> Iterator for IterMut<'a, T> {
    type Item = &'a mut T;

    fn next(&mut self) -> Option<&'a mut T> {
        if self.front < self.back {
            let r = unsafe { &mut *self.ptr.add(self.front) };
            self.front += 1;
            Some(r)
        } else {
            None
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl<'a, T> DoubleEndedIterator for IterMut<'a, T> {
    fn next_back(&mut self) -> Option<&'a mut T> {
        if self.front < self.back {
            self.back -= 1;
            Some(unsafe { &mut *self.ptr.add(self.back) })
        } else {
            None
        }
    }
}

impl<'a, T> ExactSizeIterator for IterMut<'a, T> {}

/// `slice.chunks(n)`.
pub struct Chunks<'a, T> {
    v: &'a [T],
    chunk_size: usize,
}

impl<'a, T> Iterator for Chunks<'a, T> {
    type Item = &'a [T];

    fn next(&mut self) -> Option<&'a [T]> {
        if self.v.is_empty() {
            None
        } else {
            let n = if self.v.len() < self.chunk_size { self.v.len() } else { self.chunk_size };
            let (fst, snd) = self.v.split_at(n);
            self.v = snd;
            Some(fst)
        }
    }
}

/// `slice.chunks_mut(n)`.
pub struct ChunksMut<'a, T> {
    ptr: *mut T,
    len: usize,
    chunk_size: usize,
    marker: crate::marker::PhantomData<&'a mut T>,
}

impl<'a, T> Iterator for ChunksMut<'a, T> {
    type Item = &'a mut [T];

    fn next(&mut self) -> Option<&'a mut [T]> {
        if self.len == 0 {
            None
        } else {
            let n = if self.len < self.chunk_size { self.len } else { self.chunk_size };
            let chunk = unsafe { intrinsics::slice_from_raw_parts_mut(self.ptr, n) };
            self.ptr = unsafe { self.ptr.add(n) };
            self.len -= n;
            Some(chunk)
        }
    }
}

/// `slice.chunks_exact(n)`.
pub struct ChunksExact<'a, T> {
    v: &'a [T],
    rem: &'a [T],
    chunk_size: usize,
}

impl<'a, T> ChunksExact<'a, T> {
    pub fn remainder(&self) -> &'a [T] {
        self.rem
    }
}

impl<'a, T> Iterator for ChunksExact<'a, T> {
    type Item = &'a [T];

    fn next(&mut self) -> Option<&'a [T]> {
        if self.v.len() < self.chunk_size {
            None
        } else {
            let (fst, snd) = self.v.split_at(self.chunk_size);
            self.v = snd;
            Some(fst)
        }
    }
}

/// `slice.windows(n)`.
pub struct Windows<'a, T> {
    v: &'a [T],
    size: usize,
}

impl<'a, T> Iterator for Windows<'a, T> {
    type Item = &'a [T];

    fn next(&mut self) -> Option<&'a [T]> {
        if self.size > self.v.len() {
            None
        } else {
            let w = &self.v[..self.size];
            self.v = &self.v[1..];
            Some(w)
        }
    }
}

impl<'a, T> IntoIterator for &'a [T] {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;

    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<'a, T> IntoIterator for &'a mut [T] {
    type Item = &'a mut T;
    type IntoIter = IterMut<'a, T>;

    fn into_iter(self) -> IterMut<'a, T> {
        self.iter_mut()
    }
}

impl<'a, T, const N: usize> IntoIterator for &'a [T; N] {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;

    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<'a, T, const N: usize> IntoIterator for &'a mut [T; N] {
    type Item = &'a mut T;
    type IntoIter = IterMut<'a, T>;

    fn into_iter(self) -> IterMut<'a, T> {
        self.iter_mut()
    }
}

/// Constructs a slice from a pointer and a length.
pub unsafe fn from_raw_parts<'a, T>(data: *const T, len: usize) -> &'a [T] {
    intrinsics::slice_from_raw_parts(data, len)
}

/// Constructs a mutable slice from a pointer and a length.
pub unsafe fn from_raw_parts_mut<'a, T>(data: *mut T, len: usize) -> &'a mut [T] {
    intrinsics::slice_from_raw_parts_mut(data, len)
}
