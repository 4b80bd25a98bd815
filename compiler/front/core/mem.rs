//! `size_of`, `swap`, `replace`, `take` and friends.

use crate::intrinsics;

pub const fn size_of<T>() -> usize {
    intrinsics::size_of::<T>()
}

pub const fn size_of_val<T: ?Sized>(val: &T) -> usize {
    intrinsics::size_of_val::<T>(val)
}

pub const fn align_of<T>() -> usize {
    intrinsics::align_of::<T>()
}

pub const fn align_of_val<T: ?Sized>(val: &T) -> usize {
    intrinsics::align_of_val::<T>(val)
}

pub fn swap<T>(x: &mut T, y: &mut T) {
    unsafe {
        let t = intrinsics::read(x);
        intrinsics::write(x, intrinsics::read(y));
        intrinsics::write(y, t);
    }
}

pub fn replace<T>(dest: &mut T, src: T) -> T {
    unsafe {
        let old = intrinsics::read(dest);
        intrinsics::write(dest, src);
        old
    }
}

pub fn take<T: Default>(dest: &mut T) -> T {
    replace(dest, T::default())
}

/// Which variant of an enum a value is, as `core::mem::discriminant` gives it: two values
/// of one enum have equal `Discriminant`s when they are of the same variant, whatever their
/// fields hold.
pub struct Discriminant<T> {
    value: i128,
    marker: crate::marker::PhantomData<T>,
}

/// Written out, not derived: a derive would ask `T: Clone` (and `T: PartialEq`), which core's
/// `Discriminant` does not, since it copies and compares the discriminant only.
impl<T> Clone for Discriminant<T> {
    fn clone(&self) -> Discriminant<T> {
        Discriminant { value: self.value, marker: crate::marker::PhantomData }
    }
}

impl<T> Copy for Discriminant<T> {}

impl<T> crate::cmp::PartialEq for Discriminant<T> {
    fn eq(&self, rhs: &Discriminant<T>) -> bool {
        self.value == rhs.value
    }
}

impl<T> crate::cmp::Eq for Discriminant<T> {}

pub const fn discriminant<T>(v: &T) -> Discriminant<T> {
    Discriminant { value: intrinsics::discriminant_value::<T>(v), marker: crate::marker::PhantomData }
}

pub fn drop<T>(_x: T) {}

pub fn forget<T>(_t: T) {}

/// The bits of `src` read as a `Dst` (rustc has checked that the sizes are equal). Through a
/// local, which rkc aligns to 16 bytes, so a `Dst` more aligned than `Src` is read aligned.
pub const unsafe fn transmute<Src, Dst>(src: Src) -> Dst {
    let value = src;
    unsafe { intrinsics::read(&value as *const Src as *const Dst) }
}

pub unsafe fn transmute_copy<Src, Dst>(src: &Src) -> Dst {
    unsafe { intrinsics::read(src as *const Src as *const Dst) }
}

/// A `T` that may not be initialised yet: a `T` whose bytes are not set until written (rkc
/// has no unions; this has `T`'s layout, as `MaybeUninit` does).
#[derive(Clone, Copy)]
pub struct MaybeUninit<T> {
    value: T,
}

impl<T> MaybeUninit<T> {
    pub const fn new(val: T) -> MaybeUninit<T> {
        MaybeUninit { value: val }
    }

    pub const fn uninit() -> MaybeUninit<T> {
        MaybeUninit { value: intrinsics::uninit() }
    }

    pub fn write(&mut self, val: T) -> &mut T {
        self.value = val;
        &mut self.value
    }

    pub const fn as_ptr(&self) -> *const T {
        &self.value as *const T
    }

    pub fn as_mut_ptr(&mut self) -> *mut T {
        &mut self.value as *mut T
    }

    pub const unsafe fn assume_init(self) -> T {
        self.value
    }

    pub const unsafe fn assume_init_read(&self) -> T {
        unsafe { intrinsics::read(&self.value as *const T) }
    }

    pub const unsafe fn assume_init_ref(&self) -> &T {
        &self.value
    }

    pub unsafe fn assume_init_mut(&mut self) -> &mut T {
        &mut self.value
    }
}
