//! `size_of`, `swap`, `replace`, `take` and friends.

use crate::intrinsics;

pub const fn size_of<T>() -> usize {
    intrinsics::size_of::<T>()
}

pub const fn size_of_val<T>(_val: &T) -> usize {
    intrinsics::size_of::<T>()
}

pub const fn align_of<T>() -> usize {
    intrinsics::align_of::<T>()
}

pub const fn align_of_val<T>(_val: &T) -> usize {
    intrinsics::align_of::<T>()
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

pub fn drop<T>(_x: T) {}

pub fn forget<T>(_t: T) {}
