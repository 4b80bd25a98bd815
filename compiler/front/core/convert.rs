//! Conversions: `From`/`Into` (the lossless numeric conversions of `core`), `TryFrom`/`TryInto`
//! between integer types, `AsRef`/`AsMut`.

use crate::result::Result::{self, Err, Ok};

#[lang = "From"]
pub trait From<T>: Sized {
    fn from(value: T) -> Self;
}

pub trait Into<T>: Sized {
    fn into(self) -> T;
}

impl<T, U: From<T>> Into<U> for T {
    fn into(self) -> U {
        U::from(self)
    }
}

impl<T> From<T> for T {
    fn from(t: T) -> T {
        t
    }
}

pub trait TryFrom<T>: Sized {
    type Error;
    fn try_from(value: T) -> Result<Self, Self::Error>;
}

pub trait TryInto<T>: Sized {
    type Error;
    fn try_into(self) -> Result<T, Self::Error>;
}

impl<T, U: TryFrom<T>> TryInto<U> for T {
    type Error = U::Error;

    fn try_into(self) -> Result<U, U::Error> {
        U::try_from(self)
    }
}

pub trait AsRef<T: ?Sized> {
    fn as_ref(&self) -> &T;
}

pub trait AsMut<T: ?Sized> {
    fn as_mut(&mut self) -> &mut T;
}

impl<T> AsRef<[T]> for [T] {
    fn as_ref(&self) -> &[T] {
        self
    }
}

impl<T> AsMut<[T]> for [T] {
    fn as_mut(&mut self) -> &mut [T] {
        self
    }
}

/// References pass `as_ref` and `as_mut` through, as core's blanket impls do: a `&[f32]`
/// is an `AsRef<[f32]>`.
impl<'a, T: ?Sized + AsRef<U>, U: ?Sized> AsRef<U> for &'a T {
    fn as_ref(&self) -> &U {
        (**self).as_ref()
    }
}

impl<'a, T: ?Sized + AsRef<U>, U: ?Sized> AsRef<U> for &'a mut T {
    fn as_ref(&self) -> &U {
        (**self).as_ref()
    }
}

impl<'a, T: ?Sized + AsMut<U>, U: ?Sized> AsMut<U> for &'a mut T {
    fn as_mut(&mut self) -> &mut U {
        (**self).as_mut()
    }
}

impl<T, const N: usize> AsRef<[T]> for [T; N] {
    fn as_ref(&self) -> &[T] {
        self
    }
}

impl<T, const N: usize> AsMut<[T]> for [T; N] {
    fn as_mut(&mut self) -> &mut [T] {
        self
    }
}

pub enum Infallible {}

/// Returns its argument: the function to pass where a closure `|x| x` would go.
pub const fn identity<T>(x: T) -> T {
    x
}

impl From<u8> for u16 {
    fn from(v: u8) -> u16 {
        v as u16
    }
}

impl From<u8> for u32 {
    fn from(v: u8) -> u32 {
        v as u32
    }
}

impl From<u8> for u64 {
    fn from(v: u8) -> u64 {
        v as u64
    }
}

impl From<u8> for usize {
    fn from(v: u8) -> usize {
        v as usize
    }
}

impl From<u8> for i16 {
    fn from(v: u8) -> i16 {
        v as i16
    }
}

impl From<u8> for i32 {
    fn from(v: u8) -> i32 {
        v as i32
    }
}

impl From<u8> for i64 {
    fn from(v: u8) -> i64 {
        v as i64
    }
}

impl From<u8> for isize {
    fn from(v: u8) -> isize {
        v as isize
    }
}

impl From<u16> for u32 {
    fn from(v: u16) -> u32 {
        v as u32
    }
}

impl From<u16> for u64 {
    fn from(v: u16) -> u64 {
        v as u64
    }
}

impl From<u16> for usize {
    fn from(v: u16) -> usize {
        v as usize
    }
}

impl From<u16> for i32 {
    fn from(v: u16) -> i32 {
        v as i32
    }
}

impl From<u16> for i64 {
    fn from(v: u16) -> i64 {
        v as i64
    }
}

impl From<u32> for u64 {
    fn from(v: u32) -> u64 {
        v as u64
    }
}

impl From<u32> for i64 {
    fn from(v: u32) -> i64 {
        v as i64
    }
}

impl From<i8> for i16 {
    fn from(v: i8) -> i16 {
        v as i16
    }
}

impl From<i8> for i32 {
    fn from(v: i8) -> i32 {
        v as i32
    }
}

impl From<i8> for i64 {
    fn from(v: i8) -> i64 {
        v as i64
    }
}

impl From<i8> for isize {
    fn from(v: i8) -> isize {
        v as isize
    }
}

impl From<i16> for i32 {
    fn from(v: i16) -> i32 {
        v as i32
    }
}

impl From<i16> for i64 {
    fn from(v: i16) -> i64 {
        v as i64
    }
}

impl From<i16> for isize {
    fn from(v: i16) -> isize {
        v as isize
    }
}

impl From<i32> for i64 {
    fn from(v: i32) -> i64 {
        v as i64
    }
}

impl From<u8> for f32 {
    fn from(v: u8) -> f32 {
        v as f32
    }
}

impl From<u16> for f32 {
    fn from(v: u16) -> f32 {
        v as f32
    }
}

impl From<i8> for f32 {
    fn from(v: i8) -> f32 {
        v as f32
    }
}

impl From<i16> for f32 {
    fn from(v: i16) -> f32 {
        v as f32
    }
}

impl From<u8> for f64 {
    fn from(v: u8) -> f64 {
        v as f64
    }
}

impl From<u16> for f64 {
    fn from(v: u16) -> f64 {
        v as f64
    }
}

impl From<i8> for f64 {
    fn from(v: i8) -> f64 {
        v as f64
    }
}

impl From<i16> for f64 {
    fn from(v: i16) -> f64 {
        v as f64
    }
}

impl From<u32> for f64 {
    fn from(v: u32) -> f64 {
        v as f64
    }
}

impl From<i32> for f64 {
    fn from(v: i32) -> f64 {
        v as f64
    }
}

impl From<f32> for f64 {
    fn from(v: f32) -> f64 {
        v as f64
    }
}

impl From<bool> for u8 {
    fn from(v: bool) -> u8 {
        v as u8
    }
}

impl From<bool> for u16 {
    fn from(v: bool) -> u16 {
        v as u16
    }
}

impl From<bool> for u32 {
    fn from(v: bool) -> u32 {
        v as u32
    }
}

impl From<bool> for u64 {
    fn from(v: bool) -> u64 {
        v as u64
    }
}

impl From<bool> for usize {
    fn from(v: bool) -> usize {
        v as usize
    }
}

impl From<bool> for i8 {
    fn from(v: bool) -> i8 {
        v as i8
    }
}

impl From<bool> for i16 {
    fn from(v: bool) -> i16 {
        v as i16
    }
}

impl From<bool> for i32 {
    fn from(v: bool) -> i32 {
        v as i32
    }
}

impl From<bool> for i64 {
    fn from(v: bool) -> i64 {
        v as i64
    }
}

impl From<bool> for isize {
    fn from(v: bool) -> isize {
        v as isize
    }
}

impl From<char> for u32 {
    fn from(v: char) -> u32 {
        v as u32
    }
}

impl From<char> for u64 {
    fn from(v: char) -> u64 {
        v as u64
    }
}

impl From<u8> for char {
    fn from(v: u8) -> char {
        v as char
    }
}
