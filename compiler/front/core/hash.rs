//! `core::hash`: the `Hasher` trait, which kernels implement for their own hash functions
//! (FNV, murmur), and `Hash` for the primitive types, references, slices, arrays, tuples and
//! `Option`, feeding a hasher exactly the calls core's impls make (`#[derive(Hash)]` is written
//! by rkc's derives, as rustc's derive writes it).

pub trait Hasher {
    fn finish(&self) -> u64;

    fn write(&mut self, bytes: &[u8]);

    fn write_u8(&mut self, i: u8) {
        self.write(&[i])
    }

    fn write_u16(&mut self, i: u16) {
        self.write(&i.to_ne_bytes())
    }

    fn write_u32(&mut self, i: u32) {
        self.write(&i.to_ne_bytes())
    }

    fn write_u64(&mut self, i: u64) {
        self.write(&i.to_ne_bytes())
    }

    fn write_u128(&mut self, i: u128) {
        self.write(&i.to_ne_bytes())
    }

    fn write_usize(&mut self, i: usize) {
        self.write(&i.to_ne_bytes())
    }

    fn write_i8(&mut self, i: i8) {
        self.write_u8(i as u8)
    }

    fn write_i16(&mut self, i: i16) {
        self.write_u16(i as u16)
    }

    fn write_i32(&mut self, i: i32) {
        self.write_u32(i as u32)
    }

    fn write_i64(&mut self, i: i64) {
        self.write_u64(i as u64)
    }

    fn write_i128(&mut self, i: i128) {
        self.write_u128(i as u128)
    }

    fn write_isize(&mut self, i: isize) {
        self.write_usize(i as usize)
    }
}

/// Every method forwarded, so that a hasher's own `write_u32` is the one called through a
/// reference, as in `core`.
impl<H: Hasher + ?Sized> Hasher for &mut H {
    fn finish(&self) -> u64 {
        (**self).finish()
    }

    fn write(&mut self, bytes: &[u8]) {
        (**self).write(bytes)
    }

    fn write_u8(&mut self, i: u8) {
        (**self).write_u8(i)
    }

    fn write_u16(&mut self, i: u16) {
        (**self).write_u16(i)
    }

    fn write_u32(&mut self, i: u32) {
        (**self).write_u32(i)
    }

    fn write_u64(&mut self, i: u64) {
        (**self).write_u64(i)
    }

    fn write_u128(&mut self, i: u128) {
        (**self).write_u128(i)
    }

    fn write_usize(&mut self, i: usize) {
        (**self).write_usize(i)
    }

    fn write_i8(&mut self, i: i8) {
        (**self).write_i8(i)
    }

    fn write_i16(&mut self, i: i16) {
        (**self).write_i16(i)
    }

    fn write_i32(&mut self, i: i32) {
        (**self).write_i32(i)
    }

    fn write_i64(&mut self, i: i64) {
        (**self).write_i64(i)
    }

    fn write_i128(&mut self, i: i128) {
        (**self).write_i128(i)
    }

    fn write_isize(&mut self, i: isize) {
        (**self).write_isize(i)
    }
}

pub trait Hash {
    fn hash<H: Hasher>(&self, state: &mut H);

    fn hash_slice<H: Hasher>(data: &[Self], state: &mut H)
    where
        Self: Sized,
    {
        let mut i = 0;
        while i < data.len() {
            data[i].hash(state);
            i += 1;
        }
    }
}

/// A slice of `u8`s is one `write` of its bytes, as in core.
impl Hash for u8 {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u8(*self)
    }

    fn hash_slice<H: Hasher>(data: &[u8], state: &mut H) {
        // SAFETY: the bytes of initialised integers, as many as the slice holds.
        let bytes =
            unsafe { crate::slice::from_raw_parts(data.as_ptr().cast::<u8>(), data.len() * 1) };
        state.write(bytes)
    }
}

/// A slice of `u16`s is one `write` of its bytes, as in core.
impl Hash for u16 {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u16(*self)
    }

    fn hash_slice<H: Hasher>(data: &[u16], state: &mut H) {
        // SAFETY: the bytes of initialised integers, as many as the slice holds.
        let bytes =
            unsafe { crate::slice::from_raw_parts(data.as_ptr().cast::<u8>(), data.len() * 2) };
        state.write(bytes)
    }
}

/// A slice of `u32`s is one `write` of its bytes, as in core.
impl Hash for u32 {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u32(*self)
    }

    fn hash_slice<H: Hasher>(data: &[u32], state: &mut H) {
        // SAFETY: the bytes of initialised integers, as many as the slice holds.
        let bytes =
            unsafe { crate::slice::from_raw_parts(data.as_ptr().cast::<u8>(), data.len() * 4) };
        state.write(bytes)
    }
}

/// A slice of `u64`s is one `write` of its bytes, as in core.
impl Hash for u64 {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(*self)
    }

    fn hash_slice<H: Hasher>(data: &[u64], state: &mut H) {
        // SAFETY: the bytes of initialised integers, as many as the slice holds.
        let bytes =
            unsafe { crate::slice::from_raw_parts(data.as_ptr().cast::<u8>(), data.len() * 8) };
        state.write(bytes)
    }
}

/// A slice of `u128`s is one `write` of its bytes, as in core.
impl Hash for u128 {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u128(*self)
    }

    fn hash_slice<H: Hasher>(data: &[u128], state: &mut H) {
        // SAFETY: the bytes of initialised integers, as many as the slice holds.
        let bytes =
            unsafe { crate::slice::from_raw_parts(data.as_ptr().cast::<u8>(), data.len() * 16) };
        state.write(bytes)
    }
}

/// A slice of `usize`s is one `write` of its bytes, as in core.
impl Hash for usize {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(*self)
    }

    fn hash_slice<H: Hasher>(data: &[usize], state: &mut H) {
        // SAFETY: the bytes of initialised integers, as many as the slice holds.
        let bytes =
            unsafe { crate::slice::from_raw_parts(data.as_ptr().cast::<u8>(), data.len() * 8) };
        state.write(bytes)
    }
}

/// A slice of `i8`s is one `write` of its bytes, as in core.
impl Hash for i8 {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_i8(*self)
    }

    fn hash_slice<H: Hasher>(data: &[i8], state: &mut H) {
        // SAFETY: the bytes of initialised integers, as many as the slice holds.
        let bytes =
            unsafe { crate::slice::from_raw_parts(data.as_ptr().cast::<u8>(), data.len() * 1) };
        state.write(bytes)
    }
}

/// A slice of `i16`s is one `write` of its bytes, as in core.
impl Hash for i16 {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_i16(*self)
    }

    fn hash_slice<H: Hasher>(data: &[i16], state: &mut H) {
        // SAFETY: the bytes of initialised integers, as many as the slice holds.
        let bytes =
            unsafe { crate::slice::from_raw_parts(data.as_ptr().cast::<u8>(), data.len() * 2) };
        state.write(bytes)
    }
}

/// A slice of `i32`s is one `write` of its bytes, as in core.
impl Hash for i32 {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_i32(*self)
    }

    fn hash_slice<H: Hasher>(data: &[i32], state: &mut H) {
        // SAFETY: the bytes of initialised integers, as many as the slice holds.
        let bytes =
            unsafe { crate::slice::from_raw_parts(data.as_ptr().cast::<u8>(), data.len() * 4) };
        state.write(bytes)
    }
}

/// A slice of `i64`s is one `write` of its bytes, as in core.
impl Hash for i64 {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_i64(*self)
    }

    fn hash_slice<H: Hasher>(data: &[i64], state: &mut H) {
        // SAFETY: the bytes of initialised integers, as many as the slice holds.
        let bytes =
            unsafe { crate::slice::from_raw_parts(data.as_ptr().cast::<u8>(), data.len() * 8) };
        state.write(bytes)
    }
}

/// A slice of `i128`s is one `write` of its bytes, as in core.
impl Hash for i128 {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_i128(*self)
    }

    fn hash_slice<H: Hasher>(data: &[i128], state: &mut H) {
        // SAFETY: the bytes of initialised integers, as many as the slice holds.
        let bytes =
            unsafe { crate::slice::from_raw_parts(data.as_ptr().cast::<u8>(), data.len() * 16) };
        state.write(bytes)
    }
}

/// A slice of `isize`s is one `write` of its bytes, as in core.
impl Hash for isize {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_isize(*self)
    }

    fn hash_slice<H: Hasher>(data: &[isize], state: &mut H) {
        // SAFETY: the bytes of initialised integers, as many as the slice holds.
        let bytes =
            unsafe { crate::slice::from_raw_parts(data.as_ptr().cast::<u8>(), data.len() * 8) };
        state.write(bytes)
    }
}

impl Hash for bool {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u8(*self as u8)
    }
}

impl Hash for char {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u32(*self as u32)
    }
}

impl Hash for () {
    fn hash<H: Hasher>(&self, _state: &mut H) {}
}

impl<T: Hash + ?Sized> Hash for &T {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self).hash(state)
    }
}

impl<T: Hash + ?Sized> Hash for &mut T {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self).hash(state)
    }
}

/// A slice is its length, then its elements (`hash_slice`), as in core.
impl<T: Hash> Hash for [T] {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.len());
        Hash::hash_slice(self, state)
    }
}

impl<T: Hash, const N: usize> Hash for [T; N] {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let s: &[T] = self;
        Hash::hash(s, state)
    }
}

impl<A: Hash, B: Hash> Hash for (A, B) {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
        self.1.hash(state);
    }
}

impl<A: Hash, B: Hash, C: Hash> Hash for (A, B, C) {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
        self.1.hash(state);
        self.2.hash(state);
    }
}

/// The discriminant as an `isize`, then the value: what core's derive writes for `Option`.
impl<T: Hash> Hash for crate::option::Option<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self {
            crate::option::Option::None => state.write_isize(0),
            crate::option::Option::Some(v) => {
                state.write_isize(1);
                v.hash(state);
            }
        }
    }
}
