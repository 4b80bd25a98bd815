//! The checked conversions between the integer types (`TryFrom`, and the `From` impls that sit
//! among them in `core`'s tables), kept apart from `convert`'s traits for the length of the
//! table: a module of impls only, with no items to name.

use crate::convert::{From, Infallible, TryFrom};
use crate::num::TryFromIntError;
use crate::result::Result::{self, Err, Ok};

impl TryFrom<u8> for u16 {
    type Error = Infallible;

    fn try_from(v: u8) -> Result<u16, Infallible> {
        Ok(v as u16)
    }
}

impl TryFrom<u8> for u32 {
    type Error = Infallible;

    fn try_from(v: u8) -> Result<u32, Infallible> {
        Ok(v as u32)
    }
}

impl TryFrom<u8> for u64 {
    type Error = Infallible;

    fn try_from(v: u8) -> Result<u64, Infallible> {
        Ok(v as u64)
    }
}

impl TryFrom<u8> for usize {
    type Error = Infallible;

    fn try_from(v: u8) -> Result<usize, Infallible> {
        Ok(v as usize)
    }
}

impl TryFrom<u8> for i8 {
    type Error = TryFromIntError;

    fn try_from(v: u8) -> Result<i8, TryFromIntError> {
        let w = v as i8;
        if w as u8 == v && ((v < (0 as u8)) == (w < (0 as i8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u8> for i16 {
    type Error = Infallible;

    fn try_from(v: u8) -> Result<i16, Infallible> {
        Ok(v as i16)
    }
}

impl TryFrom<u8> for i32 {
    type Error = Infallible;

    fn try_from(v: u8) -> Result<i32, Infallible> {
        Ok(v as i32)
    }
}

impl TryFrom<u8> for i64 {
    type Error = Infallible;

    fn try_from(v: u8) -> Result<i64, Infallible> {
        Ok(v as i64)
    }
}

impl TryFrom<u8> for isize {
    type Error = Infallible;

    fn try_from(v: u8) -> Result<isize, Infallible> {
        Ok(v as isize)
    }
}

impl TryFrom<u16> for u8 {
    type Error = TryFromIntError;

    fn try_from(v: u16) -> Result<u8, TryFromIntError> {
        let w = v as u8;
        if w as u16 == v && ((v < (0 as u16)) == (w < (0 as u8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u16> for u32 {
    type Error = Infallible;

    fn try_from(v: u16) -> Result<u32, Infallible> {
        Ok(v as u32)
    }
}

impl TryFrom<u16> for u64 {
    type Error = Infallible;

    fn try_from(v: u16) -> Result<u64, Infallible> {
        Ok(v as u64)
    }
}

impl TryFrom<u16> for usize {
    type Error = Infallible;

    fn try_from(v: u16) -> Result<usize, Infallible> {
        Ok(v as usize)
    }
}

impl TryFrom<u16> for i8 {
    type Error = TryFromIntError;

    fn try_from(v: u16) -> Result<i8, TryFromIntError> {
        let w = v as i8;
        if w as u16 == v && ((v < (0 as u16)) == (w < (0 as i8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u16> for i16 {
    type Error = TryFromIntError;

    fn try_from(v: u16) -> Result<i16, TryFromIntError> {
        let w = v as i16;
        if w as u16 == v && ((v < (0 as u16)) == (w < (0 as i16))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u16> for i32 {
    type Error = Infallible;

    fn try_from(v: u16) -> Result<i32, Infallible> {
        Ok(v as i32)
    }
}

impl TryFrom<u16> for i64 {
    type Error = Infallible;

    fn try_from(v: u16) -> Result<i64, Infallible> {
        Ok(v as i64)
    }
}

impl TryFrom<u16> for isize {
    type Error = TryFromIntError;

    fn try_from(v: u16) -> Result<isize, TryFromIntError> {
        let w = v as isize;
        if w as u16 == v && ((v < (0 as u16)) == (w < (0 as isize))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u32> for u8 {
    type Error = TryFromIntError;

    fn try_from(v: u32) -> Result<u8, TryFromIntError> {
        let w = v as u8;
        if w as u32 == v && ((v < (0 as u32)) == (w < (0 as u8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u32> for u16 {
    type Error = TryFromIntError;

    fn try_from(v: u32) -> Result<u16, TryFromIntError> {
        let w = v as u16;
        if w as u32 == v && ((v < (0 as u32)) == (w < (0 as u16))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u32> for u64 {
    type Error = Infallible;

    fn try_from(v: u32) -> Result<u64, Infallible> {
        Ok(v as u64)
    }
}

impl TryFrom<u32> for usize {
    type Error = TryFromIntError;

    fn try_from(v: u32) -> Result<usize, TryFromIntError> {
        let w = v as usize;
        if w as u32 == v && ((v < (0 as u32)) == (w < (0 as usize))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u32> for i8 {
    type Error = TryFromIntError;

    fn try_from(v: u32) -> Result<i8, TryFromIntError> {
        let w = v as i8;
        if w as u32 == v && ((v < (0 as u32)) == (w < (0 as i8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u32> for i16 {
    type Error = TryFromIntError;

    fn try_from(v: u32) -> Result<i16, TryFromIntError> {
        let w = v as i16;
        if w as u32 == v && ((v < (0 as u32)) == (w < (0 as i16))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u32> for i32 {
    type Error = TryFromIntError;

    fn try_from(v: u32) -> Result<i32, TryFromIntError> {
        let w = v as i32;
        if w as u32 == v && ((v < (0 as u32)) == (w < (0 as i32))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u32> for i64 {
    type Error = Infallible;

    fn try_from(v: u32) -> Result<i64, Infallible> {
        Ok(v as i64)
    }
}

impl TryFrom<u32> for isize {
    type Error = TryFromIntError;

    fn try_from(v: u32) -> Result<isize, TryFromIntError> {
        let w = v as isize;
        if w as u32 == v && ((v < (0 as u32)) == (w < (0 as isize))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u64> for u8 {
    type Error = TryFromIntError;

    fn try_from(v: u64) -> Result<u8, TryFromIntError> {
        let w = v as u8;
        if w as u64 == v && ((v < (0 as u64)) == (w < (0 as u8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u64> for u16 {
    type Error = TryFromIntError;

    fn try_from(v: u64) -> Result<u16, TryFromIntError> {
        let w = v as u16;
        if w as u64 == v && ((v < (0 as u64)) == (w < (0 as u16))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u64> for u32 {
    type Error = TryFromIntError;

    fn try_from(v: u64) -> Result<u32, TryFromIntError> {
        let w = v as u32;
        if w as u64 == v && ((v < (0 as u64)) == (w < (0 as u32))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u64> for usize {
    type Error = TryFromIntError;

    fn try_from(v: u64) -> Result<usize, TryFromIntError> {
        let w = v as usize;
        if w as u64 == v && ((v < (0 as u64)) == (w < (0 as usize))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u64> for i8 {
    type Error = TryFromIntError;

    fn try_from(v: u64) -> Result<i8, TryFromIntError> {
        let w = v as i8;
        if w as u64 == v && ((v < (0 as u64)) == (w < (0 as i8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u64> for i16 {
    type Error = TryFromIntError;

    fn try_from(v: u64) -> Result<i16, TryFromIntError> {
        let w = v as i16;
        if w as u64 == v && ((v < (0 as u64)) == (w < (0 as i16))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u64> for i32 {
    type Error = TryFromIntError;

    fn try_from(v: u64) -> Result<i32, TryFromIntError> {
        let w = v as i32;
        if w as u64 == v && ((v < (0 as u64)) == (w < (0 as i32))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u64> for i64 {
    type Error = TryFromIntError;

    fn try_from(v: u64) -> Result<i64, TryFromIntError> {
        let w = v as i64;
        if w as u64 == v && ((v < (0 as u64)) == (w < (0 as i64))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u64> for isize {
    type Error = TryFromIntError;

    fn try_from(v: u64) -> Result<isize, TryFromIntError> {
        let w = v as isize;
        if w as u64 == v && ((v < (0 as u64)) == (w < (0 as isize))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<usize> for u8 {
    type Error = TryFromIntError;

    fn try_from(v: usize) -> Result<u8, TryFromIntError> {
        let w = v as u8;
        if w as usize == v && ((v < (0 as usize)) == (w < (0 as u8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<usize> for u16 {
    type Error = TryFromIntError;

    fn try_from(v: usize) -> Result<u16, TryFromIntError> {
        let w = v as u16;
        if w as usize == v && ((v < (0 as usize)) == (w < (0 as u16))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<usize> for u32 {
    type Error = TryFromIntError;

    fn try_from(v: usize) -> Result<u32, TryFromIntError> {
        let w = v as u32;
        if w as usize == v && ((v < (0 as usize)) == (w < (0 as u32))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<usize> for u64 {
    type Error = TryFromIntError;

    fn try_from(v: usize) -> Result<u64, TryFromIntError> {
        let w = v as u64;
        if w as usize == v && ((v < (0 as usize)) == (w < (0 as u64))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<usize> for i8 {
    type Error = TryFromIntError;

    fn try_from(v: usize) -> Result<i8, TryFromIntError> {
        let w = v as i8;
        if w as usize == v && ((v < (0 as usize)) == (w < (0 as i8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<usize> for i16 {
    type Error = TryFromIntError;

    fn try_from(v: usize) -> Result<i16, TryFromIntError> {
        let w = v as i16;
        if w as usize == v && ((v < (0 as usize)) == (w < (0 as i16))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<usize> for i32 {
    type Error = TryFromIntError;

    fn try_from(v: usize) -> Result<i32, TryFromIntError> {
        let w = v as i32;
        if w as usize == v && ((v < (0 as usize)) == (w < (0 as i32))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<usize> for i64 {
    type Error = TryFromIntError;

    fn try_from(v: usize) -> Result<i64, TryFromIntError> {
        let w = v as i64;
        if w as usize == v && ((v < (0 as usize)) == (w < (0 as i64))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<usize> for isize {
    type Error = TryFromIntError;

    fn try_from(v: usize) -> Result<isize, TryFromIntError> {
        let w = v as isize;
        if w as usize == v && ((v < (0 as usize)) == (w < (0 as isize))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i8> for u8 {
    type Error = TryFromIntError;

    fn try_from(v: i8) -> Result<u8, TryFromIntError> {
        let w = v as u8;
        if w as i8 == v && ((v < (0 as i8)) == (w < (0 as u8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i8> for u16 {
    type Error = TryFromIntError;

    fn try_from(v: i8) -> Result<u16, TryFromIntError> {
        let w = v as u16;
        if w as i8 == v && ((v < (0 as i8)) == (w < (0 as u16))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i8> for u32 {
    type Error = TryFromIntError;

    fn try_from(v: i8) -> Result<u32, TryFromIntError> {
        let w = v as u32;
        if w as i8 == v && ((v < (0 as i8)) == (w < (0 as u32))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i8> for u64 {
    type Error = TryFromIntError;

    fn try_from(v: i8) -> Result<u64, TryFromIntError> {
        let w = v as u64;
        if w as i8 == v && ((v < (0 as i8)) == (w < (0 as u64))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i8> for usize {
    type Error = TryFromIntError;

    fn try_from(v: i8) -> Result<usize, TryFromIntError> {
        let w = v as usize;
        if w as i8 == v && ((v < (0 as i8)) == (w < (0 as usize))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i8> for i16 {
    type Error = Infallible;

    fn try_from(v: i8) -> Result<i16, Infallible> {
        Ok(v as i16)
    }
}

impl TryFrom<i8> for i32 {
    type Error = Infallible;

    fn try_from(v: i8) -> Result<i32, Infallible> {
        Ok(v as i32)
    }
}

impl TryFrom<i8> for i64 {
    type Error = Infallible;

    fn try_from(v: i8) -> Result<i64, Infallible> {
        Ok(v as i64)
    }
}

impl TryFrom<i8> for isize {
    type Error = Infallible;

    fn try_from(v: i8) -> Result<isize, Infallible> {
        Ok(v as isize)
    }
}

impl TryFrom<i16> for u8 {
    type Error = TryFromIntError;

    fn try_from(v: i16) -> Result<u8, TryFromIntError> {
        let w = v as u8;
        if w as i16 == v && ((v < (0 as i16)) == (w < (0 as u8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i16> for u16 {
    type Error = TryFromIntError;

    fn try_from(v: i16) -> Result<u16, TryFromIntError> {
        let w = v as u16;
        if w as i16 == v && ((v < (0 as i16)) == (w < (0 as u16))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i16> for u32 {
    type Error = TryFromIntError;

    fn try_from(v: i16) -> Result<u32, TryFromIntError> {
        let w = v as u32;
        if w as i16 == v && ((v < (0 as i16)) == (w < (0 as u32))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i16> for u64 {
    type Error = TryFromIntError;

    fn try_from(v: i16) -> Result<u64, TryFromIntError> {
        let w = v as u64;
        if w as i16 == v && ((v < (0 as i16)) == (w < (0 as u64))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i16> for usize {
    type Error = TryFromIntError;

    fn try_from(v: i16) -> Result<usize, TryFromIntError> {
        let w = v as usize;
        if w as i16 == v && ((v < (0 as i16)) == (w < (0 as usize))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i16> for i8 {
    type Error = TryFromIntError;

    fn try_from(v: i16) -> Result<i8, TryFromIntError> {
        let w = v as i8;
        if w as i16 == v && ((v < (0 as i16)) == (w < (0 as i8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i16> for i32 {
    type Error = Infallible;

    fn try_from(v: i16) -> Result<i32, Infallible> {
        Ok(v as i32)
    }
}

impl TryFrom<i16> for i64 {
    type Error = Infallible;

    fn try_from(v: i16) -> Result<i64, Infallible> {
        Ok(v as i64)
    }
}

impl TryFrom<i16> for isize {
    type Error = Infallible;

    fn try_from(v: i16) -> Result<isize, Infallible> {
        Ok(v as isize)
    }
}

impl TryFrom<i32> for u8 {
    type Error = TryFromIntError;

    fn try_from(v: i32) -> Result<u8, TryFromIntError> {
        let w = v as u8;
        if w as i32 == v && ((v < (0 as i32)) == (w < (0 as u8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i32> for u16 {
    type Error = TryFromIntError;

    fn try_from(v: i32) -> Result<u16, TryFromIntError> {
        let w = v as u16;
        if w as i32 == v && ((v < (0 as i32)) == (w < (0 as u16))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i32> for u32 {
    type Error = TryFromIntError;

    fn try_from(v: i32) -> Result<u32, TryFromIntError> {
        let w = v as u32;
        if w as i32 == v && ((v < (0 as i32)) == (w < (0 as u32))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i32> for u64 {
    type Error = TryFromIntError;

    fn try_from(v: i32) -> Result<u64, TryFromIntError> {
        let w = v as u64;
        if w as i32 == v && ((v < (0 as i32)) == (w < (0 as u64))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i32> for usize {
    type Error = TryFromIntError;

    fn try_from(v: i32) -> Result<usize, TryFromIntError> {
        let w = v as usize;
        if w as i32 == v && ((v < (0 as i32)) == (w < (0 as usize))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i32> for i8 {
    type Error = TryFromIntError;

    fn try_from(v: i32) -> Result<i8, TryFromIntError> {
        let w = v as i8;
        if w as i32 == v && ((v < (0 as i32)) == (w < (0 as i8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i32> for i16 {
    type Error = TryFromIntError;

    fn try_from(v: i32) -> Result<i16, TryFromIntError> {
        let w = v as i16;
        if w as i32 == v && ((v < (0 as i32)) == (w < (0 as i16))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i32> for i64 {
    type Error = Infallible;

    fn try_from(v: i32) -> Result<i64, Infallible> {
        Ok(v as i64)
    }
}

impl TryFrom<i32> for isize {
    type Error = TryFromIntError;

    fn try_from(v: i32) -> Result<isize, TryFromIntError> {
        let w = v as isize;
        if w as i32 == v && ((v < (0 as i32)) == (w < (0 as isize))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i64> for u8 {
    type Error = TryFromIntError;

    fn try_from(v: i64) -> Result<u8, TryFromIntError> {
        let w = v as u8;
        if w as i64 == v && ((v < (0 as i64)) == (w < (0 as u8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i64> for u16 {
    type Error = TryFromIntError;

    fn try_from(v: i64) -> Result<u16, TryFromIntError> {
        let w = v as u16;
        if w as i64 == v && ((v < (0 as i64)) == (w < (0 as u16))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i64> for u32 {
    type Error = TryFromIntError;

    fn try_from(v: i64) -> Result<u32, TryFromIntError> {
        let w = v as u32;
        if w as i64 == v && ((v < (0 as i64)) == (w < (0 as u32))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i64> for u64 {
    type Error = TryFromIntError;

    fn try_from(v: i64) -> Result<u64, TryFromIntError> {
        let w = v as u64;
        if w as i64 == v && ((v < (0 as i64)) == (w < (0 as u64))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i64> for usize {
    type Error = TryFromIntError;

    fn try_from(v: i64) -> Result<usize, TryFromIntError> {
        let w = v as usize;
        if w as i64 == v && ((v < (0 as i64)) == (w < (0 as usize))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i64> for i8 {
    type Error = TryFromIntError;

    fn try_from(v: i64) -> Result<i8, TryFromIntError> {
        let w = v as i8;
        if w as i64 == v && ((v < (0 as i64)) == (w < (0 as i8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i64> for i16 {
    type Error = TryFromIntError;

    fn try_from(v: i64) -> Result<i16, TryFromIntError> {
        let w = v as i16;
        if w as i64 == v && ((v < (0 as i64)) == (w < (0 as i16))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i64> for i32 {
    type Error = TryFromIntError;

    fn try_from(v: i64) -> Result<i32, TryFromIntError> {
        let w = v as i32;
        if w as i64 == v && ((v < (0 as i64)) == (w < (0 as i32))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i64> for isize {
    type Error = TryFromIntError;

    fn try_from(v: i64) -> Result<isize, TryFromIntError> {
        let w = v as isize;
        if w as i64 == v && ((v < (0 as i64)) == (w < (0 as isize))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<isize> for u8 {
    type Error = TryFromIntError;

    fn try_from(v: isize) -> Result<u8, TryFromIntError> {
        let w = v as u8;
        if w as isize == v && ((v < (0 as isize)) == (w < (0 as u8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<isize> for u16 {
    type Error = TryFromIntError;

    fn try_from(v: isize) -> Result<u16, TryFromIntError> {
        let w = v as u16;
        if w as isize == v && ((v < (0 as isize)) == (w < (0 as u16))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<isize> for u32 {
    type Error = TryFromIntError;

    fn try_from(v: isize) -> Result<u32, TryFromIntError> {
        let w = v as u32;
        if w as isize == v && ((v < (0 as isize)) == (w < (0 as u32))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<isize> for u64 {
    type Error = TryFromIntError;

    fn try_from(v: isize) -> Result<u64, TryFromIntError> {
        let w = v as u64;
        if w as isize == v && ((v < (0 as isize)) == (w < (0 as u64))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<isize> for usize {
    type Error = TryFromIntError;

    fn try_from(v: isize) -> Result<usize, TryFromIntError> {
        let w = v as usize;
        if w as isize == v && ((v < (0 as isize)) == (w < (0 as usize))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<isize> for i8 {
    type Error = TryFromIntError;

    fn try_from(v: isize) -> Result<i8, TryFromIntError> {
        let w = v as i8;
        if w as isize == v && ((v < (0 as isize)) == (w < (0 as i8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<isize> for i16 {
    type Error = TryFromIntError;

    fn try_from(v: isize) -> Result<i16, TryFromIntError> {
        let w = v as i16;
        if w as isize == v && ((v < (0 as isize)) == (w < (0 as i16))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<isize> for i32 {
    type Error = TryFromIntError;

    fn try_from(v: isize) -> Result<i32, TryFromIntError> {
        let w = v as i32;
        if w as isize == v && ((v < (0 as isize)) == (w < (0 as i32))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<isize> for i64 {
    type Error = TryFromIntError;

    fn try_from(v: isize) -> Result<i64, TryFromIntError> {
        let w = v as i64;
        if w as isize == v && ((v < (0 as isize)) == (w < (0 as i64))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

// 128-bit integers: `From` where core has it (from the fixed-width types narrower than the
// target, `bool` and, for `u128`, `char`), `TryFrom` for every other pair.

impl From<i16> for i128 {
    fn from(v: i16) -> i128 {
        v as i128
    }
}

impl From<i32> for i128 {
    fn from(v: i32) -> i128 {
        v as i128
    }
}

impl From<i64> for i128 {
    fn from(v: i64) -> i128 {
        v as i128
    }
}

impl From<i8> for i128 {
    fn from(v: i8) -> i128 {
        v as i128
    }
}

impl From<u16> for i128 {
    fn from(v: u16) -> i128 {
        v as i128
    }
}

impl From<u32> for i128 {
    fn from(v: u32) -> i128 {
        v as i128
    }
}

impl From<u64> for i128 {
    fn from(v: u64) -> i128 {
        v as i128
    }
}

impl From<u8> for i128 {
    fn from(v: u8) -> i128 {
        v as i128
    }
}

impl From<u16> for u128 {
    fn from(v: u16) -> u128 {
        v as u128
    }
}

impl From<u32> for u128 {
    fn from(v: u32) -> u128 {
        v as u128
    }
}

impl From<u64> for u128 {
    fn from(v: u64) -> u128 {
        v as u128
    }
}

impl From<u8> for u128 {
    fn from(v: u8) -> u128 {
        v as u128
    }
}

impl From<bool> for u128 {
    fn from(v: bool) -> u128 {
        v as u128
    }
}

impl From<bool> for i128 {
    fn from(v: bool) -> i128 {
        v as i128
    }
}

impl From<char> for u128 {
    fn from(v: char) -> u128 {
        v as u128
    }
}

impl TryFrom<u8> for u128 {
    type Error = Infallible;

    fn try_from(v: u8) -> Result<u128, Infallible> {
        Ok(v as u128)
    }
}

impl TryFrom<u8> for i128 {
    type Error = Infallible;

    fn try_from(v: u8) -> Result<i128, Infallible> {
        Ok(v as i128)
    }
}

impl TryFrom<u16> for u128 {
    type Error = Infallible;

    fn try_from(v: u16) -> Result<u128, Infallible> {
        Ok(v as u128)
    }
}

impl TryFrom<u16> for i128 {
    type Error = Infallible;

    fn try_from(v: u16) -> Result<i128, Infallible> {
        Ok(v as i128)
    }
}

impl TryFrom<u32> for u128 {
    type Error = Infallible;

    fn try_from(v: u32) -> Result<u128, Infallible> {
        Ok(v as u128)
    }
}

impl TryFrom<u32> for i128 {
    type Error = Infallible;

    fn try_from(v: u32) -> Result<i128, Infallible> {
        Ok(v as i128)
    }
}

impl TryFrom<u64> for u128 {
    type Error = Infallible;

    fn try_from(v: u64) -> Result<u128, Infallible> {
        Ok(v as u128)
    }
}

impl TryFrom<u64> for i128 {
    type Error = Infallible;

    fn try_from(v: u64) -> Result<i128, Infallible> {
        Ok(v as i128)
    }
}

impl TryFrom<usize> for u128 {
    type Error = TryFromIntError;

    fn try_from(v: usize) -> Result<u128, TryFromIntError> {
        let w = v as u128;
        if w as usize == v && ((v < (0 as usize)) == (w < (0 as u128))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<usize> for i128 {
    type Error = TryFromIntError;

    fn try_from(v: usize) -> Result<i128, TryFromIntError> {
        let w = v as i128;
        if w as usize == v && ((v < (0 as usize)) == (w < (0 as i128))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i8> for u128 {
    type Error = TryFromIntError;

    fn try_from(v: i8) -> Result<u128, TryFromIntError> {
        let w = v as u128;
        if w as i8 == v && ((v < (0 as i8)) == (w < (0 as u128))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i8> for i128 {
    type Error = Infallible;

    fn try_from(v: i8) -> Result<i128, Infallible> {
        Ok(v as i128)
    }
}

impl TryFrom<i16> for u128 {
    type Error = TryFromIntError;

    fn try_from(v: i16) -> Result<u128, TryFromIntError> {
        let w = v as u128;
        if w as i16 == v && ((v < (0 as i16)) == (w < (0 as u128))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i16> for i128 {
    type Error = Infallible;

    fn try_from(v: i16) -> Result<i128, Infallible> {
        Ok(v as i128)
    }
}

impl TryFrom<i32> for u128 {
    type Error = TryFromIntError;

    fn try_from(v: i32) -> Result<u128, TryFromIntError> {
        let w = v as u128;
        if w as i32 == v && ((v < (0 as i32)) == (w < (0 as u128))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i32> for i128 {
    type Error = Infallible;

    fn try_from(v: i32) -> Result<i128, Infallible> {
        Ok(v as i128)
    }
}

impl TryFrom<i64> for u128 {
    type Error = TryFromIntError;

    fn try_from(v: i64) -> Result<u128, TryFromIntError> {
        let w = v as u128;
        if w as i64 == v && ((v < (0 as i64)) == (w < (0 as u128))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i64> for i128 {
    type Error = Infallible;

    fn try_from(v: i64) -> Result<i128, Infallible> {
        Ok(v as i128)
    }
}

impl TryFrom<isize> for u128 {
    type Error = TryFromIntError;

    fn try_from(v: isize) -> Result<u128, TryFromIntError> {
        let w = v as u128;
        if w as isize == v && ((v < (0 as isize)) == (w < (0 as u128))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<isize> for i128 {
    type Error = TryFromIntError;

    fn try_from(v: isize) -> Result<i128, TryFromIntError> {
        let w = v as i128;
        if w as isize == v && ((v < (0 as isize)) == (w < (0 as i128))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u128> for u8 {
    type Error = TryFromIntError;

    fn try_from(v: u128) -> Result<u8, TryFromIntError> {
        let w = v as u8;
        if w as u128 == v && ((v < (0 as u128)) == (w < (0 as u8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u128> for u16 {
    type Error = TryFromIntError;

    fn try_from(v: u128) -> Result<u16, TryFromIntError> {
        let w = v as u16;
        if w as u128 == v && ((v < (0 as u128)) == (w < (0 as u16))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u128> for u32 {
    type Error = TryFromIntError;

    fn try_from(v: u128) -> Result<u32, TryFromIntError> {
        let w = v as u32;
        if w as u128 == v && ((v < (0 as u128)) == (w < (0 as u32))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u128> for u64 {
    type Error = TryFromIntError;

    fn try_from(v: u128) -> Result<u64, TryFromIntError> {
        let w = v as u64;
        if w as u128 == v && ((v < (0 as u128)) == (w < (0 as u64))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u128> for usize {
    type Error = TryFromIntError;

    fn try_from(v: u128) -> Result<usize, TryFromIntError> {
        let w = v as usize;
        if w as u128 == v && ((v < (0 as u128)) == (w < (0 as usize))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u128> for i8 {
    type Error = TryFromIntError;

    fn try_from(v: u128) -> Result<i8, TryFromIntError> {
        let w = v as i8;
        if w as u128 == v && ((v < (0 as u128)) == (w < (0 as i8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u128> for i16 {
    type Error = TryFromIntError;

    fn try_from(v: u128) -> Result<i16, TryFromIntError> {
        let w = v as i16;
        if w as u128 == v && ((v < (0 as u128)) == (w < (0 as i16))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u128> for i32 {
    type Error = TryFromIntError;

    fn try_from(v: u128) -> Result<i32, TryFromIntError> {
        let w = v as i32;
        if w as u128 == v && ((v < (0 as u128)) == (w < (0 as i32))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u128> for i64 {
    type Error = TryFromIntError;

    fn try_from(v: u128) -> Result<i64, TryFromIntError> {
        let w = v as i64;
        if w as u128 == v && ((v < (0 as u128)) == (w < (0 as i64))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u128> for isize {
    type Error = TryFromIntError;

    fn try_from(v: u128) -> Result<isize, TryFromIntError> {
        let w = v as isize;
        if w as u128 == v && ((v < (0 as u128)) == (w < (0 as isize))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<u128> for i128 {
    type Error = TryFromIntError;

    fn try_from(v: u128) -> Result<i128, TryFromIntError> {
        let w = v as i128;
        if w as u128 == v && ((v < (0 as u128)) == (w < (0 as i128))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i128> for u8 {
    type Error = TryFromIntError;

    fn try_from(v: i128) -> Result<u8, TryFromIntError> {
        let w = v as u8;
        if w as i128 == v && ((v < (0 as i128)) == (w < (0 as u8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i128> for u16 {
    type Error = TryFromIntError;

    fn try_from(v: i128) -> Result<u16, TryFromIntError> {
        let w = v as u16;
        if w as i128 == v && ((v < (0 as i128)) == (w < (0 as u16))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i128> for u32 {
    type Error = TryFromIntError;

    fn try_from(v: i128) -> Result<u32, TryFromIntError> {
        let w = v as u32;
        if w as i128 == v && ((v < (0 as i128)) == (w < (0 as u32))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i128> for u64 {
    type Error = TryFromIntError;

    fn try_from(v: i128) -> Result<u64, TryFromIntError> {
        let w = v as u64;
        if w as i128 == v && ((v < (0 as i128)) == (w < (0 as u64))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i128> for usize {
    type Error = TryFromIntError;

    fn try_from(v: i128) -> Result<usize, TryFromIntError> {
        let w = v as usize;
        if w as i128 == v && ((v < (0 as i128)) == (w < (0 as usize))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i128> for i8 {
    type Error = TryFromIntError;

    fn try_from(v: i128) -> Result<i8, TryFromIntError> {
        let w = v as i8;
        if w as i128 == v && ((v < (0 as i128)) == (w < (0 as i8))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i128> for i16 {
    type Error = TryFromIntError;

    fn try_from(v: i128) -> Result<i16, TryFromIntError> {
        let w = v as i16;
        if w as i128 == v && ((v < (0 as i128)) == (w < (0 as i16))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i128> for i32 {
    type Error = TryFromIntError;

    fn try_from(v: i128) -> Result<i32, TryFromIntError> {
        let w = v as i32;
        if w as i128 == v && ((v < (0 as i128)) == (w < (0 as i32))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i128> for i64 {
    type Error = TryFromIntError;

    fn try_from(v: i128) -> Result<i64, TryFromIntError> {
        let w = v as i64;
        if w as i128 == v && ((v < (0 as i128)) == (w < (0 as i64))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i128> for isize {
    type Error = TryFromIntError;

    fn try_from(v: i128) -> Result<isize, TryFromIntError> {
        let w = v as isize;
        if w as i128 == v && ((v < (0 as i128)) == (w < (0 as isize))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}

impl TryFrom<i128> for u128 {
    type Error = TryFromIntError;

    fn try_from(v: i128) -> Result<u128, TryFromIntError> {
        let w = v as u128;
        if w as i128 == v && ((v < (0 as i128)) == (w < (0 as u128))) { Ok(w) } else { Err(TryFromIntError(())) }
    }
}
