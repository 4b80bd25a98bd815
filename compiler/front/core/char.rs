//! The methods of `char` that kernels use (ASCII classification and digit conversion), and
//! the ASCII methods of `u8`, which core gives bytes as well.

use crate::option::Option::{self, None, Some};

impl char {
    pub const MAX: char = '\u{10FFFF}';
    pub const MIN: char = '\0';
    pub const REPLACEMENT_CHARACTER: char = '\u{FFFD}';

    pub const fn is_ascii(&self) -> bool {
        (*self as u32) < 128
    }

    pub const fn is_ascii_digit(&self) -> bool {
        matches!(*self, '0'..='9')
    }

    pub const fn is_ascii_hexdigit(&self) -> bool {
        matches!(*self, '0'..='9' | 'a'..='f' | 'A'..='F')
    }

    pub const fn is_ascii_alphabetic(&self) -> bool {
        matches!(*self, 'a'..='z' | 'A'..='Z')
    }

    pub const fn is_ascii_alphanumeric(&self) -> bool {
        matches!(*self, '0'..='9' | 'a'..='z' | 'A'..='Z')
    }

    pub const fn is_ascii_uppercase(&self) -> bool {
        matches!(*self, 'A'..='Z')
    }

    pub const fn is_ascii_lowercase(&self) -> bool {
        matches!(*self, 'a'..='z')
    }

    pub const fn is_ascii_whitespace(&self) -> bool {
        matches!(*self, '\t' | '\n' | '\x0C' | '\r' | ' ')
    }

    pub const fn is_ascii_punctuation(&self) -> bool {
        matches!(*self, '!'..='/' | ':'..='@' | '['..='`' | '{'..='~')
    }

    pub const fn is_ascii_graphic(&self) -> bool {
        matches!(*self, '!'..='~')
    }

    pub const fn is_ascii_control(&self) -> bool {
        matches!(*self, '\0'..='\x1F' | '\x7F')
    }

    pub fn make_ascii_uppercase(&mut self) {
        *self = self.to_ascii_uppercase();
    }

    pub fn make_ascii_lowercase(&mut self) {
        *self = self.to_ascii_lowercase();
    }

    pub const fn to_ascii_uppercase(&self) -> char {
        if self.is_ascii_lowercase() { ((*self as u32) - 32) as u8 as char } else { *self }
    }

    pub const fn to_ascii_lowercase(&self) -> char {
        if self.is_ascii_uppercase() { ((*self as u32) + 32) as u8 as char } else { *self }
    }

    pub const fn eq_ignore_ascii_case(&self, other: &char) -> bool {
        self.to_ascii_lowercase() == other.to_ascii_lowercase()
    }

    #[track_caller]
    pub const fn to_digit(self, radix: u32) -> Option<u32> {
        assert!(radix >= 2 && radix <= 36, "to_digit: invalid radix -- radix must be in the range 2 to 36 inclusive");
        let c = self as u32;
        let d = if c >= 48 && c <= 57 {
            c - 48
        } else if c >= 97 && c <= 122 {
            c - 87
        } else if c >= 65 && c <= 90 {
            c - 55
        } else {
            return None;
        };
        if d < radix { Some(d) } else { None }
    }

    pub const fn is_digit(self, radix: u32) -> bool {
        self.to_digit(radix).is_some()
    }

    pub const fn from_u32(i: u32) -> Option<char> {
        if i > 0x10FFFF || (i >= 0xD800 && i <= 0xDFFF) { None } else { Some(unsafe { crate::char::from_u32_unchecked(i) }) }
    }

    #[track_caller]
    pub const fn from_digit(num: u32, radix: u32) -> Option<char> {
        assert!(radix >= 2 && radix <= 36, "from_digit: radix is too high (maximum 36)");
        if num < radix {
            let n = num as u8;
            Some(if n < 10 { (b'0' + n) as char } else { (b'a' + n - 10) as char })
        } else {
            None
        }
    }

    pub const fn len_utf8(self) -> usize {
        let c = self as u32;
        if c < 0x80 {
            1
        } else if c < 0x800 {
            2
        } else if c < 0x10000 {
            3
        } else {
            4
        }
    }
}

/// A byte's ASCII methods: the same classification as `char`'s, for text held as bytes.
impl u8 {
    pub const fn is_ascii(&self) -> bool {
        *self < 128
    }

    pub const fn is_ascii_digit(&self) -> bool {
        matches!(*self, b'0'..=b'9')
    }

    pub const fn is_ascii_hexdigit(&self) -> bool {
        matches!(*self, b'0'..=b'9' | b'a'..=b'f' | b'A'..=b'F')
    }

    pub const fn is_ascii_alphabetic(&self) -> bool {
        matches!(*self, b'a'..=b'z' | b'A'..=b'Z')
    }

    pub const fn is_ascii_alphanumeric(&self) -> bool {
        matches!(*self, b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z')
    }

    pub const fn is_ascii_uppercase(&self) -> bool {
        matches!(*self, b'A'..=b'Z')
    }

    pub const fn is_ascii_lowercase(&self) -> bool {
        matches!(*self, b'a'..=b'z')
    }

    pub const fn is_ascii_whitespace(&self) -> bool {
        matches!(*self, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
    }

    pub const fn is_ascii_punctuation(&self) -> bool {
        matches!(*self, b'!'..=b'/' | b':'..=b'@' | b'['..=b'`' | b'{'..=b'~')
    }

    pub const fn is_ascii_control(&self) -> bool {
        matches!(*self, 0..=0x1f | 0x7f)
    }

    pub const fn is_ascii_graphic(&self) -> bool {
        matches!(*self, b'!'..=b'~')
    }

    pub const fn to_ascii_uppercase(&self) -> u8 {
        if self.is_ascii_lowercase() { *self - 32 } else { *self }
    }

    pub const fn to_ascii_lowercase(&self) -> u8 {
        if self.is_ascii_uppercase() { *self + 32 } else { *self }
    }

    pub const fn eq_ignore_ascii_case(&self, other: &u8) -> bool {
        self.to_ascii_lowercase() == other.to_ascii_lowercase()
    }

    pub fn make_ascii_uppercase(&mut self) {
        *self = self.to_ascii_uppercase();
    }

    pub fn make_ascii_lowercase(&mut self) {
        *self = self.to_ascii_lowercase();
    }
}

/// A `char` from a `u32` the caller knows is a Unicode scalar value.
pub const unsafe fn from_u32_unchecked(i: u32) -> char {
    crate::intrinsics::math_from_bits(i)
}

pub const fn from_u32(i: u32) -> Option<char> {
    char::from_u32(i)
}

pub const fn from_digit(num: u32, radix: u32) -> Option<char> {
    char::from_digit(num, radix)
}
