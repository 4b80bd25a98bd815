//! `Default` and its impls for the primitive types.

#[lang = "Default"]
pub trait Default: Sized {
    fn default() -> Self;
}

//@ for $T in u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize
impl Default for $T {
    fn default() -> $T {
        0
    }
}
//@ end

//@ for $T in f32 f64 f16 bf16
impl Default for $T {
    fn default() -> $T {
        0.0
    }
}
//@ end

impl Default for bool {
    fn default() -> bool {
        false
    }
}

impl Default for char {
    fn default() -> char {
        '\0'
    }
}

impl Default for () {
    fn default() -> () {}
}

impl<A: Default, B: Default> Default for (A, B) {
    fn default() -> (A, B) {
        (A::default(), B::default())
    }
}

impl<A: Default, B: Default, C: Default> Default for (A, B, C) {
    fn default() -> (A, B, C) {
        (A::default(), B::default(), C::default())
    }
}

impl<T: Default + Copy, const N: usize> Default for [T; N] {
    fn default() -> [T; N] {
        [T::default(); N]
    }
}
