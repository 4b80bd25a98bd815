//! `core::hash`: the `Hasher` trait, which kernels implement for their own hash functions
//! (FNV, murmur) and call through its `write_*` methods. `Hash` and `#[derive(Hash)]` are not
//! in the device core.

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
