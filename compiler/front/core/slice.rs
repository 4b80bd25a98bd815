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

    #[track_caller]
    pub fn rotate_left(&mut self, mid: usize) {
        assert!(mid <= self.len());
        self[..mid].reverse();
        self[mid..].reverse();
        self.reverse();
    }

    #[track_caller]
    pub fn rotate_right(&mut self, k: usize) {
        assert!(k <= self.len());
        let mid = self.len() - k;
        self[..mid].reverse();
        self[mid..].reverse();
        self.reverse();
    }

    pub fn split_first_mut(&mut self) -> Option<(&mut T, &mut [T])> {
        if self.is_empty() {
            None
        } else {
            let (first, rest) = self.split_at_mut(1);
            Some((&mut first[0], rest))
        }
    }

    pub fn split_last_mut(&mut self) -> Option<(&mut T, &mut [T])> {
        let n = self.len();
        if n == 0 {
            None
        } else {
            let (rest, last) = self.split_at_mut(n - 1);
            Some((&mut last[0], rest))
        }
    }

    #[track_caller]
    pub fn swap_with_slice(&mut self, other: &mut [T]) {
        assert!(self.len() == other.len(), "destination and source slices have different lengths");
        let mut i = 0;
        while i < self.len() {
            crate::mem::swap(&mut self[i], &mut other[i]);
            i += 1;
        }
    }

    pub fn binary_search_by_key<B: Ord, F: FnMut(&T) -> B>(&self, b: &B, f: F) -> crate::result::Result<usize, usize> {
        let mut f = f;
        self.binary_search_by(|k| f(k).cmp(b))
    }

    /// The slice without `prefix`, if it starts with it.
    pub fn strip_prefix(&self, prefix: &[T]) -> Option<&[T]>
    where
        T: PartialEq,
    {
        if self.starts_with(prefix) { Some(&self[prefix.len()..]) } else { None }
    }

    pub fn strip_suffix(&self, suffix: &[T]) -> Option<&[T]>
    where
        T: PartialEq,
    {
        if self.ends_with(suffix) { Some(&self[..self.len() - suffix.len()]) } else { None }
    }

    pub fn first_chunk<const N: usize>(&self) -> Option<&[T; N]> {
        if self.len() < N { None } else { Some(unsafe { &*(self.as_ptr() as *const [T; N]) }) }
    }

    pub fn last_chunk<const N: usize>(&self) -> Option<&[T; N]> {
        if self.len() < N {
            None
        } else {
            Some(unsafe { &*(self.as_ptr().add(self.len() - N) as *const [T; N]) })
        }
    }

    pub fn split_first_chunk<const N: usize>(&self) -> Option<(&[T; N], &[T])> {
        if self.len() < N {
            None
        } else {
            let (first, rest) = self.split_at(N);
            Some((unsafe { &*(first.as_ptr() as *const [T; N]) }, rest))
        }
    }

    /// The subslices between the elements that match `pred`, each with the element that ends
    /// it.
    pub fn split_inclusive<F: FnMut(&T) -> bool>(&self, pred: F) -> SplitInclusive<'_, T, F> {
        SplitInclusive { v: self, pred, finished: self.is_empty() }
    }

    /// `split` from the end.
    pub fn rsplit<F: FnMut(&T) -> bool>(&self, pred: F) -> crate::iter::Rev<Split<'_, T, F>> {
        self.split(pred).rev()
    }

    /// At most `n` subslices from the end: the last one holds the start, separators and all.
    pub fn rsplitn<F: FnMut(&T) -> bool>(&self, n: usize, pred: F) -> RSplitN<'_, T, F> {
        RSplitN { inner: self.split(pred), count: n }
    }

    /// At most `n` subslices: the last one holds the rest, separators and all.
    pub fn splitn<F: FnMut(&T) -> bool>(&self, n: usize, pred: F) -> SplitN<'_, T, F> {
        SplitN { inner: self.split(pred), count: n }
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

    /// Reorders the slice so that the element at `index` is where a sort would put it, the
    /// ones before it no greater and the ones after it no smaller. rkc sorts the slice to do
    /// so (kernels select in small arrays); which order the sides are in is unspecified, as
    /// in core.
    pub fn select_nth_unstable(&mut self, index: usize) -> (&mut [T], &mut T, &mut [T])
    where
        T: Ord,
    {
        self.select_nth_unstable_by(index, |a, b| a.cmp(b))
    }

    pub fn select_nth_unstable_by_key<K: Ord, F: FnMut(&T) -> K>(
        &mut self,
        index: usize,
        f: F,
    ) -> (&mut [T], &mut T, &mut [T]) {
        let mut f = f;
        self.select_nth_unstable_by(index, |a, b| f(a).cmp(&f(b)))
    }

    pub fn select_nth_unstable_by<F: FnMut(&T, &T) -> crate::cmp::Ordering>(
        &mut self,
        index: usize,
        compare: F,
    ) -> (&mut [T], &mut T, &mut [T]) {
        if index >= self.len() {
            panic!("partition_at_index index {} greater than length of slice {}", index, self.len());
        }
        self.sort_unstable_by(compare);
        let (left, rest) = self.split_at_mut(index);
        let (nth, right) = rest.split_first_mut().unwrap();
        (left, nth, right)
    }

    /// Runs of consecutive elements for which `pred` holds pairwise.
    pub fn chunk_by<F: FnMut(&T, &T) -> bool>(&self, pred: F) -> ChunkBy<'_, T, F> {
        ChunkBy { v: self, pred }
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

    pub fn ends_with(&self, needle: &[T]) -> bool
    where
        T: PartialEq,
    {
        let (m, n) = (self.len(), needle.len());
        m >= n && needle == &self[m - n..]
    }

    /// The index of the first element for which `pred` is false, the slice being partitioned
    /// (all the trues first), found by binary search as core does.
    pub fn partition_point<P: FnMut(&T) -> bool>(&self, pred: P) -> usize {
        let mut pred = pred;
        match self.binary_search_by(|x| if pred(x) { crate::cmp::Ordering::Less } else { crate::cmp::Ordering::Greater }) {
            crate::result::Result::Ok(i) => i,
            crate::result::Result::Err(i) => i,
        }
    }

    /// Copies `src`'s elements to `dest` and on, within the slice; the ranges may overlap.
    #[track_caller]
    pub fn copy_within<R: crate::ops::RangeBounds<usize>>(&mut self, src: R, dest: usize)
    where
        T: Copy,
    {
        let len = self.len();
        // core's `slice::range`, with its messages: the checks of `&self[start..end]`.
        let start = match src.start_bound() {
            crate::ops::Bound::Included(&s) => s,
            crate::ops::Bound::Excluded(&s) => match s.checked_add(1) {
                Some(s) => s,
                None => panic!("attempted to index slice from after maximum usize"),
            },
            crate::ops::Bound::Unbounded => 0,
        };
        let end = match src.end_bound() {
            crate::ops::Bound::Included(&e) => match e.checked_add(1) {
                Some(e) => e,
                None => panic!("attempted to index slice up to maximum usize"),
            },
            crate::ops::Bound::Excluded(&e) => e,
            crate::ops::Bound::Unbounded => len,
        };
        let _ = &self[start..end];
        let count = end - start;
        assert!(dest <= len - count, "dest is out of bounds");
        if dest <= start {
            let mut k = 0;
            while k < count {
                self[dest + k] = self[start + k];
                k += 1;
            }
        } else {
            let mut k = count;
            while k > 0 {
                k -= 1;
                self[dest + k] = self[start + k];
            }
        }
    }

    pub fn is_sorted(&self) -> bool
    where
        T: PartialOrd,
    {
        self.iter().is_sorted()
    }

    pub fn is_sorted_by<F: FnMut(&T, &T) -> bool>(&self, compare: F) -> bool {
        self.iter().is_sorted_by(|a, b| compare(*a, *b))
    }

    pub fn is_sorted_by_key<K: PartialOrd, F: FnMut(&T) -> K>(&self, f: F) -> bool {
        self.iter().is_sorted_by_key(f)
    }

    #[track_caller]
    pub fn chunks_exact_mut(&mut self, chunk_size: usize) -> ChunksExactMut<'_, T> {
        assert!(chunk_size != 0, "chunk size must be non-zero");
        let len = self.len() - self.len() % chunk_size;
        let ptr = self.as_mut_ptr();
        let rem = unsafe { intrinsics::slice_from_raw_parts_mut(ptr.add(len), self.len() - len) };
        ChunksExactMut { ptr, len, rem, chunk_size, marker: crate::marker::PhantomData }
    }

    #[track_caller]
    pub fn rchunks(&self, chunk_size: usize) -> RChunks<'_, T> {
        assert!(chunk_size != 0, "chunk size must be non-zero");
        RChunks { v: self, chunk_size }
    }

    #[track_caller]
    pub fn rchunks_exact(&self, chunk_size: usize) -> RChunksExact<'_, T> {
        assert!(chunk_size != 0, "chunk size must be non-zero");
        let (rem, v) = self.split_at(self.len() % chunk_size);
        RChunksExact { v, rem, chunk_size }
    }

    /// The subslices between the elements that match `pred` (which are left out).
    pub fn split<F: FnMut(&T) -> bool>(&self, pred: F) -> Split<'_, T, F> {
        Split { v: self, pred, finished: false }
    }

    pub fn as_chunks<const N: usize>(&self) -> (&[[T; N]], &[T]) {
        let len = self.len() / N;
        let (multiple, remainder) = self.split_at(len * N);
        let chunks = unsafe { intrinsics::slice_from_raw_parts(multiple.as_ptr() as *const [T; N], len) };
        (chunks, remainder)
    }
}

impl<T, const N: usize> [[T; N]] {
    /// The arrays' elements as one slice.
    pub fn as_flattened(&self) -> &[T] {
        unsafe { intrinsics::slice_from_raw_parts(self.as_ptr() as *const T, self.len() * N) }
    }

    pub fn as_flattened_mut(&mut self) -> &mut [T] {
        let len = self.len() * N;
        unsafe { intrinsics::slice_from_raw_parts_mut(self.as_mut_ptr() as *mut T, len) }
    }
}

/// The ASCII methods of byte slices.
impl [u8] {
    pub fn is_ascii(&self) -> bool {
        self.iter().all(|b| b.is_ascii())
    }

    pub fn eq_ignore_ascii_case(&self, other: &[u8]) -> bool {
        self.len() == other.len() && self.iter().zip(other.iter()).all(|(a, b)| a.eq_ignore_ascii_case(b))
    }

    pub fn make_ascii_uppercase(&mut self) {
        for b in self.iter_mut() {
            b.make_ascii_uppercase();
        }
    }

    pub fn make_ascii_lowercase(&mut self) {
        for b in self.iter_mut() {
            b.make_ascii_lowercase();
        }
    }

    pub fn trim_ascii_start(&self) -> &[u8] {
        let mut start = 0;
        while start < self.len() && self[start].is_ascii_whitespace() {
            start += 1;
        }
        &self[start..]
    }

    pub fn trim_ascii_end(&self) -> &[u8] {
        let mut end = self.len();
        while end > 0 && self[end - 1].is_ascii_whitespace() {
            end -= 1;
        }
        &self[..end]
    }

    pub fn trim_ascii(&self) -> &[u8] {
        self.trim_ascii_start().trim_ascii_end()
    }
}

impl<'a, T> Default for &'a [T] {
    fn default() -> &'a [T] {
        unsafe { intrinsics::slice_from_raw_parts(crate::ptr::NonNull::<T>::dangling().as_ptr(), 0) }
    }
}

impl<'a, T> Default for &'a mut [T] {
    fn default() -> &'a mut [T] {
        unsafe { intrinsics::slice_from_raw_parts_mut(crate::ptr::NonNull::<T>::dangling().as_ptr(), 0) }
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

impl<'a, T> Clone for Chunks<'a, T> {
    fn clone(&self) -> Chunks<'a, T> {
        Chunks { v: self.v, chunk_size: self.chunk_size }
    }
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

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.v.len().div_ceil(self.chunk_size);
        (n, Some(n))
    }
}

impl<'a, T> ExactSizeIterator for Chunks<'a, T> {}

/// From the back, the last chunk is the short one.
impl<'a, T> DoubleEndedIterator for Chunks<'a, T> {
    fn next_back(&mut self) -> Option<&'a [T]> {
        if self.v.is_empty() {
            None
        } else {
            let rem = self.v.len() % self.chunk_size;
            let n = if rem != 0 { rem } else { self.chunk_size };
            let (fst, snd) = self.v.split_at(self.v.len() - n);
            self.v = fst;
            Some(snd)
        }
    }
}

/// `slice.rchunks(n)`: chunks from the end, the first one (at the slice's start) the short one.
pub struct RChunks<'a, T> {
    v: &'a [T],
    chunk_size: usize,
}

impl<'a, T> Clone for RChunks<'a, T> {
    fn clone(&self) -> RChunks<'a, T> {
        RChunks { v: self.v, chunk_size: self.chunk_size }
    }
}

impl<'a, T> Iterator for RChunks<'a, T> {
    type Item = &'a [T];

    fn next(&mut self) -> Option<&'a [T]> {
        if self.v.is_empty() {
            None
        } else {
            let n = if self.v.len() < self.chunk_size { self.v.len() } else { self.chunk_size };
            let (fst, snd) = self.v.split_at(self.v.len() - n);
            self.v = fst;
            Some(snd)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.v.len().div_ceil(self.chunk_size);
        (n, Some(n))
    }
}

impl<'a, T> ExactSizeIterator for RChunks<'a, T> {}

impl<'a, T> DoubleEndedIterator for RChunks<'a, T> {
    fn next_back(&mut self) -> Option<&'a [T]> {
        if self.v.is_empty() {
            None
        } else {
            let rem = self.v.len() % self.chunk_size;
            let n = if rem != 0 { rem } else { self.chunk_size };
            let (fst, snd) = self.v.split_at(n);
            self.v = snd;
            Some(fst)
        }
    }
}

/// `slice.split_inclusive(pred)`.
pub struct SplitInclusive<'a, T, P> {
    v: &'a [T],
    pred: P,
    finished: bool,
}

impl<'a, T, P: Clone> Clone for SplitInclusive<'a, T, P> {
    fn clone(&self) -> SplitInclusive<'a, T, P> {
        SplitInclusive { v: self.v, pred: self.pred.clone(), finished: self.finished }
    }
}

impl<'a, T, P: FnMut(&T) -> bool> Iterator for SplitInclusive<'a, T, P> {
    type Item = &'a [T];

    fn next(&mut self) -> Option<&'a [T]> {
        if self.finished {
            return None;
        }
        let mut i = 0;
        while i < self.v.len() {
            if (self.pred)(&self.v[i]) {
                break;
            }
            i += 1;
        }
        let end = if i < self.v.len() { i + 1 } else { self.v.len() };
        let head = &self.v[..end];
        self.v = &self.v[end..];
        if self.v.is_empty() {
            self.finished = true;
        }
        Some(head)
    }
}

impl<'a, T, P: FnMut(&T) -> bool> Split<'a, T, P> {
    /// Counts a piece of `splitn` or `rsplitn` off `count`: the last piece is what remains
    /// of the slice, separators and all, and after it there is none (`Some` of either);
    /// `None` while more are left, when the piece is the split's next (or next from the back).
    fn last_of_n(&mut self, count: &mut usize) -> Option<Option<&'a [T]>> {
        match *count {
            0 => Some(None),
            1 => {
                *count = 0;
                if self.finished {
                    Some(None)
                } else {
                    self.finished = true;
                    Some(Some(self.v))
                }
            }
            _ => {
                *count -= 1;
                None
            }
        }
    }
}

/// `slice.rsplitn(n, pred)`.
pub struct RSplitN<'a, T, P> {
    inner: Split<'a, T, P>,
    count: usize,
}

impl<'a, T, P: FnMut(&T) -> bool> Iterator for RSplitN<'a, T, P> {
    type Item = &'a [T];

    fn next(&mut self) -> Option<&'a [T]> {
        match self.inner.last_of_n(&mut self.count) {
            Some(last) => last,
            None => self.inner.next_back(),
        }
    }
}

/// `slice.splitn(n, pred)`.
pub struct SplitN<'a, T, P> {
    inner: Split<'a, T, P>,
    count: usize,
}

impl<'a, T, P: FnMut(&T) -> bool> Iterator for SplitN<'a, T, P> {
    type Item = &'a [T];

    fn next(&mut self) -> Option<&'a [T]> {
        match self.inner.last_of_n(&mut self.count) {
            Some(last) => last,
            None => self.inner.next(),
        }
    }
}

/// `slice.split(pred)`.
pub struct Split<'a, T, P> {
    v: &'a [T],
    pred: P,
    finished: bool,
}

impl<'a, T, P: Clone> Clone for Split<'a, T, P> {
    fn clone(&self) -> Split<'a, T, P> {
        Split { v: self.v, pred: self.pred.clone(), finished: self.finished }
    }
}

impl<'a, T, P: FnMut(&T) -> bool> Iterator for Split<'a, T, P> {
    type Item = &'a [T];

    fn next(&mut self) -> Option<&'a [T]> {
        if self.finished {
            return None;
        }
        let mut i = 0;
        while i < self.v.len() {
            if (self.pred)(&self.v[i]) {
                let head = &self.v[..i];
                self.v = &self.v[i + 1..];
                return Some(head);
            }
            i += 1;
        }
        self.finished = true;
        Some(self.v)
    }
}

impl<'a, T, P: FnMut(&T) -> bool> DoubleEndedIterator for Split<'a, T, P> {
    fn next_back(&mut self) -> Option<&'a [T]> {
        if self.finished {
            return None;
        }
        let mut i = self.v.len();
        while i > 0 {
            if (self.pred)(&self.v[i - 1]) {
                let tail = &self.v[i..];
                self.v = &self.v[..i - 1];
                return Some(tail);
            }
            i -= 1;
        }
        self.finished = true;
        Some(self.v)
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

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.len.div_ceil(self.chunk_size);
        (n, Some(n))
    }
}

impl<'a, T> ExactSizeIterator for ChunksMut<'a, T> {}

impl<'a, T> DoubleEndedIterator for ChunksMut<'a, T> {
    fn next_back(&mut self) -> Option<&'a mut [T]> {
        if self.len == 0 {
            None
        } else {
            let rem = self.len % self.chunk_size;
            let n = if rem != 0 { rem } else { self.chunk_size };
            self.len -= n;
            Some(unsafe { intrinsics::slice_from_raw_parts_mut(self.ptr.add(self.len), n) })
        }
    }
}

/// `slice.chunks_exact_mut(n)`.
pub struct ChunksExactMut<'a, T> {
    ptr: *mut T,
    len: usize,
    rem: &'a mut [T],
    chunk_size: usize,
    marker: crate::marker::PhantomData<&'a mut T>,
}

impl<'a, T> ChunksExactMut<'a, T> {
    pub fn into_remainder(self) -> &'a mut [T] {
        self.rem
    }
}

impl<'a, T> Iterator for ChunksExactMut<'a, T> {
    type Item = &'a mut [T];

    fn next(&mut self) -> Option<&'a mut [T]> {
        if self.len < self.chunk_size {
            None
        } else {
            let chunk = unsafe { intrinsics::slice_from_raw_parts_mut(self.ptr, self.chunk_size) };
            self.ptr = unsafe { self.ptr.add(self.chunk_size) };
            self.len -= self.chunk_size;
            Some(chunk)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.len / self.chunk_size;
        (n, Some(n))
    }
}

impl<'a, T> ExactSizeIterator for ChunksExactMut<'a, T> {}

impl<'a, T> DoubleEndedIterator for ChunksExactMut<'a, T> {
    fn next_back(&mut self) -> Option<&'a mut [T]> {
        if self.len < self.chunk_size {
            None
        } else {
            self.len -= self.chunk_size;
            Some(unsafe { intrinsics::slice_from_raw_parts_mut(self.ptr.add(self.len), self.chunk_size) })
        }
    }
}

/// `slice.chunk_by(pred)`.
pub struct ChunkBy<'a, T, P> {
    v: &'a [T],
    pred: P,
}

impl<'a, T, P: FnMut(&T, &T) -> bool> Iterator for ChunkBy<'a, T, P> {
    type Item = &'a [T];

    fn next(&mut self) -> Option<&'a [T]> {
        if self.v.is_empty() {
            return None;
        }
        let mut len = 1;
        while len < self.v.len() && (self.pred)(&self.v[len - 1], &self.v[len]) {
            len += 1;
        }
        let (head, tail) = self.v.split_at(len);
        self.v = tail;
        Some(head)
    }
}

impl<'a, T, P: FnMut(&T, &T) -> bool> DoubleEndedIterator for ChunkBy<'a, T, P> {
    fn next_back(&mut self) -> Option<&'a [T]> {
        if self.v.is_empty() {
            return None;
        }
        let n = self.v.len();
        let mut len = 1;
        while len < n && (self.pred)(&self.v[n - len - 1], &self.v[n - len]) {
            len += 1;
        }
        let (head, tail) = self.v.split_at(n - len);
        self.v = head;
        Some(tail)
    }
}

/// `slice.chunks_exact(n)`.
pub struct ChunksExact<'a, T> {
    v: &'a [T],
    rem: &'a [T],
    chunk_size: usize,
}

impl<'a, T> Clone for ChunksExact<'a, T> {
    fn clone(&self) -> ChunksExact<'a, T> {
        ChunksExact { v: self.v, rem: self.rem, chunk_size: self.chunk_size }
    }
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

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.v.len() / self.chunk_size;
        (n, Some(n))
    }
}

impl<'a, T> ExactSizeIterator for ChunksExact<'a, T> {}

impl<'a, T> DoubleEndedIterator for ChunksExact<'a, T> {
    fn next_back(&mut self) -> Option<&'a [T]> {
        if self.v.len() < self.chunk_size {
            None
        } else {
            let (fst, snd) = self.v.split_at(self.v.len() - self.chunk_size);
            self.v = fst;
            Some(snd)
        }
    }
}

/// `slice.rchunks_exact(n)`: whole chunks from the end; the elements left over at the start
/// are the remainder.
pub struct RChunksExact<'a, T> {
    v: &'a [T],
    rem: &'a [T],
    chunk_size: usize,
}

impl<'a, T> Clone for RChunksExact<'a, T> {
    fn clone(&self) -> RChunksExact<'a, T> {
        RChunksExact { v: self.v, rem: self.rem, chunk_size: self.chunk_size }
    }
}

impl<'a, T> RChunksExact<'a, T> {
    pub fn remainder(&self) -> &'a [T] {
        self.rem
    }
}

impl<'a, T> Iterator for RChunksExact<'a, T> {
    type Item = &'a [T];

    fn next(&mut self) -> Option<&'a [T]> {
        if self.v.len() < self.chunk_size {
            None
        } else {
            let (fst, snd) = self.v.split_at(self.v.len() - self.chunk_size);
            self.v = fst;
            Some(snd)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.v.len() / self.chunk_size;
        (n, Some(n))
    }
}

impl<'a, T> ExactSizeIterator for RChunksExact<'a, T> {}

impl<'a, T> DoubleEndedIterator for RChunksExact<'a, T> {
    fn next_back(&mut self) -> Option<&'a [T]> {
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

impl<'a, T> Clone for Windows<'a, T> {
    fn clone(&self) -> Windows<'a, T> {
        Windows { v: self.v, size: self.size }
    }
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

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = if self.size > self.v.len() { 0 } else { self.v.len() - self.size + 1 };
        (n, Some(n))
    }
}

impl<'a, T> ExactSizeIterator for Windows<'a, T> {}

impl<'a, T> DoubleEndedIterator for Windows<'a, T> {
    fn next_back(&mut self) -> Option<&'a [T]> {
        if self.size > self.v.len() {
            None
        } else {
            let n = self.v.len();
            let w = &self.v[n - self.size..];
            self.v = &self.v[..n - 1];
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

/// A one-element slice of a reference's value.
pub const fn from_ref<T>(s: &T) -> &[T] {
    // SAFETY: one `T` lives at `s` for the borrow's lifetime.
    unsafe { from_raw_parts(s as *const T, 1) }
}

pub fn from_mut<T>(s: &mut T) -> &mut [T] {
    // SAFETY: as in `from_ref`, and the borrow is unique.
    unsafe { from_raw_parts_mut(s as *mut T, 1) }
}

/// Constructs a slice from a pointer and a length.
pub unsafe fn from_raw_parts<'a, T>(data: *const T, len: usize) -> &'a [T] {
    intrinsics::slice_from_raw_parts(data, len)
}

/// Constructs a mutable slice from a pointer and a length.
pub unsafe fn from_raw_parts_mut<'a, T>(data: *mut T, len: usize) -> &'a mut [T] {
    intrinsics::slice_from_raw_parts_mut(data, len)
}
