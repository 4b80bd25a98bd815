//! Raw pointers: their methods, and `null`, `read`, `write`, `swap`, `copy_nonoverlapping`.

use crate::intrinsics;
use crate::option::Option::{self, None, Some};

impl<T> *const T {
    /// The distance to `origin` in elements (both point into one allocation).
    pub const unsafe fn offset_from(self, origin: *const T) -> isize {
        (self as isize - origin as isize) / crate::mem::size_of::<T>() as isize
    }

    pub const unsafe fn offset_from_unsigned(self, origin: *const T) -> usize {
        (self as usize - origin as usize) / crate::mem::size_of::<T>()
    }

    pub const unsafe fn byte_offset_from<U>(self, origin: *const U) -> isize {
        self as isize - origin as isize
    }

    pub const unsafe fn byte_offset_from_unsigned<U>(self, origin: *const U) -> usize {
        self as usize - origin as usize
    }

    pub const unsafe fn add(self, count: usize) -> *const T {
        intrinsics::ptr_add(self, count)
    }

    pub const unsafe fn offset(self, count: isize) -> *const T {
        intrinsics::ptr_offset(self, count)
    }

    pub const unsafe fn sub(self, count: usize) -> *const T {
        intrinsics::ptr_offset(self, 0 - count as isize)
    }

    pub const fn wrapping_add(self, count: usize) -> *const T {
        intrinsics::ptr_add(self, count)
    }

    pub const fn wrapping_sub(self, count: usize) -> *const T {
        intrinsics::ptr_offset(self, 0 - count as isize)
    }

    pub const fn wrapping_offset(self, count: isize) -> *const T {
        intrinsics::ptr_offset(self, count)
    }

    pub const unsafe fn read(self) -> T {
        intrinsics::read(self)
    }

    pub unsafe fn read_volatile(self) -> T {
        intrinsics::read(self)
    }

    pub unsafe fn read_unaligned(self) -> T {
        intrinsics::read(self)
    }

    pub fn is_null(self) -> bool {
        self as usize == 0
    }

    pub const fn cast<U>(self) -> *const U {
        self as *const U
    }

    pub const fn cast_mut(self) -> *mut T {
        self as *mut T
    }

    pub unsafe fn as_ref<'a>(self) -> Option<&'a T> {
        if self.is_null() { None } else { unsafe { Some(&*self) } }
    }

    pub fn addr(self) -> usize {
        self as usize
    }
}

impl<T> *mut T {
    pub const unsafe fn offset_from(self, origin: *const T) -> isize {
        unsafe { (self as *const T).offset_from(origin) }
    }

    pub const unsafe fn offset_from_unsigned(self, origin: *const T) -> usize {
        unsafe { (self as *const T).offset_from_unsigned(origin) }
    }

    pub const unsafe fn byte_offset_from<U>(self, origin: *const U) -> isize {
        unsafe { (self as *const T).byte_offset_from(origin) }
    }

    pub const unsafe fn byte_offset_from_unsigned<U>(self, origin: *const U) -> usize {
        unsafe { (self as *const T).byte_offset_from_unsigned(origin) }
    }

    pub const unsafe fn add(self, count: usize) -> *mut T {
        intrinsics::ptr_add(self, count)
    }

    pub const unsafe fn offset(self, count: isize) -> *mut T {
        intrinsics::ptr_offset(self, count)
    }

    pub const unsafe fn sub(self, count: usize) -> *mut T {
        intrinsics::ptr_offset(self, 0 - count as isize)
    }

    pub const fn wrapping_add(self, count: usize) -> *mut T {
        intrinsics::ptr_add(self, count)
    }

    pub const fn wrapping_sub(self, count: usize) -> *mut T {
        intrinsics::ptr_offset(self, 0 - count as isize)
    }

    pub const fn wrapping_offset(self, count: isize) -> *mut T {
        intrinsics::ptr_offset(self, count)
    }

    pub const unsafe fn read(self) -> T {
        intrinsics::read(self)
    }

    pub unsafe fn read_volatile(self) -> T {
        intrinsics::read(self)
    }

    pub unsafe fn read_unaligned(self) -> T {
        intrinsics::read(self)
    }

    pub unsafe fn write(self, val: T) {
        intrinsics::write(self, val)
    }

    pub unsafe fn write_volatile(self, val: T) {
        intrinsics::write(self, val)
    }

    pub unsafe fn write_unaligned(self, val: T) {
        intrinsics::write(self, val)
    }

    pub unsafe fn write_bytes(self, val: u8, count: usize) {
        write_bytes(self, val, count)
    }

    pub unsafe fn replace(self, src: T) -> T {
        let old = intrinsics::read(self);
        intrinsics::write(self, src);
        old
    }

    pub unsafe fn swap(self, with: *mut T) {
        let t = intrinsics::read(self);
        intrinsics::write(self, intrinsics::read(with));
        intrinsics::write(with, t);
    }

    pub fn is_null(self) -> bool {
        self as usize == 0
    }

    pub const fn cast<U>(self) -> *mut U {
        self as *mut U
    }

    pub const fn cast_const(self) -> *const T {
        self as *const T
    }

    pub unsafe fn as_ref<'a>(self) -> Option<&'a T> {
        if self.is_null() { None } else { unsafe { Some(&*self) } }
    }

    pub unsafe fn as_mut<'a>(self) -> Option<&'a mut T> {
        if self.is_null() { None } else { unsafe { Some(&mut *self) } }
    }

    pub fn addr(self) -> usize {
        self as usize
    }
}

pub const fn null<T>() -> *const T {
    0 as *const T
}

pub const fn null_mut<T>() -> *mut T {
    0 as *mut T
}

pub const unsafe fn read<T>(src: *const T) -> T {
    intrinsics::read(src)
}

pub unsafe fn read_unaligned<T>(src: *const T) -> T {
    intrinsics::read(src)
}

pub unsafe fn write_unaligned<T>(dst: *mut T, src: T) {
    intrinsics::write(dst, src)
}

pub unsafe fn read_volatile<T>(src: *const T) -> T {
    intrinsics::read(src)
}

pub unsafe fn write<T>(dst: *mut T, src: T) {
    intrinsics::write(dst, src)
}

/// Sets `count * size_of::<T>()` bytes from `dst` to `val`, a byte at a time.
pub unsafe fn write_bytes<T>(dst: *mut T, val: u8, count: usize) {
    let bytes = dst as *mut u8;
    let n = count * intrinsics::size_of::<T>();
    let mut i = 0;
    while i < n {
        intrinsics::write(bytes.add(i), val);
        i += 1;
    }
}

pub unsafe fn write_volatile<T>(dst: *mut T, src: T) {
    intrinsics::write(dst, src)
}

pub unsafe fn swap<T>(x: *mut T, y: *mut T) {
    let t = intrinsics::read(x);
    intrinsics::write(x, intrinsics::read(y));
    intrinsics::write(y, t);
}

pub unsafe fn replace<T>(dst: *mut T, src: T) -> T {
    let old = intrinsics::read(dst);
    intrinsics::write(dst, src);
    old
}

pub unsafe fn copy_nonoverlapping<T>(src: *const T, dst: *mut T, count: usize) {
    let mut i = 0;
    while i < count {
        intrinsics::write(dst.add(i), intrinsics::read(src.add(i)));
        i += 1;
    }
}

pub unsafe fn copy<T>(src: *const T, dst: *mut T, count: usize) {
    if (dst as usize) < (src as usize) {
        let mut i = 0;
        while i < count {
            intrinsics::write(dst.add(i), intrinsics::read(src.add(i)));
            i += 1;
        }
    } else {
        let mut i = count;
        while i > 0 {
            i -= 1;
            intrinsics::write(dst.add(i), intrinsics::read(src.add(i)));
        }
    }
}

pub fn eq<T>(a: *const T, b: *const T) -> bool {
    a == b
}

pub const fn slice_from_raw_parts<T>(data: *const T, len: usize) -> *const [T] {
    intrinsics::slice_from_raw_parts(data, len)
}

pub fn slice_from_raw_parts_mut<T>(data: *mut T, len: usize) -> *mut [T] {
    intrinsics::slice_from_raw_parts_mut(data, len)
}

/// A `*mut T` that is never null.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct NonNull<T> {
    pointer: *const T,
}

impl<T> NonNull<T> {
    pub const unsafe fn new_unchecked(ptr: *mut T) -> NonNull<T> {
        NonNull { pointer: ptr as *const T }
    }

    pub fn new(ptr: *mut T) -> crate::option::Option<NonNull<T>> {
        if ptr.is_null() {
            crate::option::Option::None
        } else {
            crate::option::Option::Some(NonNull { pointer: ptr as *const T })
        }
    }

    pub const fn dangling() -> NonNull<T> {
        NonNull { pointer: crate::mem::align_of::<T>() as *const T }
    }

    pub const fn as_ptr(self) -> *mut T {
        self.pointer as *mut T
    }

    pub const unsafe fn as_ref<'a>(&self) -> &'a T {
        unsafe { &*self.pointer }
    }

    pub unsafe fn as_mut<'a>(&mut self) -> &'a mut T {
        unsafe { &mut *(self.pointer as *mut T) }
    }

    pub const fn cast<U>(self) -> NonNull<U> {
        NonNull { pointer: self.pointer as *const U }
    }

    pub const unsafe fn add(self, count: usize) -> NonNull<T> {
        NonNull { pointer: unsafe { self.pointer.add(count) } }
    }

    pub const unsafe fn offset(self, count: isize) -> NonNull<T> {
        NonNull { pointer: unsafe { self.pointer.offset(count) } }
    }

    pub const unsafe fn read(self) -> T {
        unsafe { intrinsics::read(self.pointer) }
    }

    pub unsafe fn write(self, val: T) {
        unsafe { intrinsics::write(self.pointer as *mut T, val) }
    }

    pub unsafe fn offset_from(self, origin: NonNull<T>) -> isize {
        unsafe { self.pointer.offset_from(origin.pointer) }
    }
}

impl<'a, T> crate::convert::From<&'a mut T> for NonNull<T> {
    fn from(r: &'a mut T) -> NonNull<T> {
        NonNull { pointer: r as *mut T as *const T }
    }
}

impl<'a, T> crate::convert::From<&'a T> for NonNull<T> {
    fn from(r: &'a T) -> NonNull<T> {
        NonNull { pointer: r as *const T }
    }
}
