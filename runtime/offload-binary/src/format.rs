//! Rust's `format!` for the values a kernel prints, defined once for the compiler and the
//! runtime.
//!
//! A kernel cannot format text on the GPU. A `println!` in a kernel writes a record instead:
//! its site number and its arguments' values as 64-bit words. The compiler parses the user's
//! format string with [`parse`], refuses what rustc would refuse (and what kernels cannot do),
//! formats string-literal arguments into the text with [`format_value`], and stores a
//! normalised format in the fat binary's metadata, every argument written `{k}` or `{k:spec}`
//! with `k` an index into the site's [`ValueKind`]s. After the launch the runtime turns each
//! record into text with [`render`].
//!
//! The text must be exactly what `format!` writes. Rust cannot be told a format spec at run
//! time (its `FormattingOptions` are unstable), so [`format_value`] takes the body of a value
//! from Rust's own formatting wherever that body does not depend on the width (digits,
//! exponents, escapes, rounding, the sign) and applies width, fill, alignment and zero padding
//! itself, the way `core::fmt::Formatter` does: `pad_integral` for integers, the padding of
//! formatted parts for floats and `pad` for `bool`, `char` and `str`. The unit tests compare
//! every combination against `format!`.
//!
//! The runtime reads formats from a file, so nothing here panics on any input.

use std::fmt;

/// The largest width or precision `format!` accepts: rustc refuses a larger literal and a
/// larger count given at run time panics, because the formatter keeps both in a `u16`.
const MAX_COUNT: usize = u16::MAX as usize;

/// The kind of a value a print shows, as the kernel's record carries it.
///
/// `usize` and `isize` are 64-bit integers on every target rkc compiles for, so they have no
/// kind of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// An integer of `bits` bits: 8, 16, 32, 64 or 128.
    Int {
        bits: u32,
        signed: bool,
    },
    /// The `half` crate's `f16`.
    F16,
    /// The `half` crate's `bf16`.
    Bf16,
    F32,
    F64,
    Bool,
    Char,
}

/// Every kind a kernel can print, for [`ValueKind::parse`] to look names up in.
const KINDS: [ValueKind; 16] = [
    ValueKind::Int { bits: 8, signed: false },
    ValueKind::Int { bits: 16, signed: false },
    ValueKind::Int { bits: 32, signed: false },
    ValueKind::Int { bits: 64, signed: false },
    ValueKind::Int { bits: 128, signed: false },
    ValueKind::Int { bits: 8, signed: true },
    ValueKind::Int { bits: 16, signed: true },
    ValueKind::Int { bits: 32, signed: true },
    ValueKind::Int { bits: 64, signed: true },
    ValueKind::Int { bits: 128, signed: true },
    ValueKind::F16,
    ValueKind::Bf16,
    ValueKind::F32,
    ValueKind::F64,
    ValueKind::Bool,
    ValueKind::Char,
];

impl ValueKind {
    /// The Rust spelling of the kind (`u8`, `i128`, `f16`, `bf16`, `bool`, `char`...), as the
    /// metadata writes it; integers by their fixed width, so `usize` is `u64`.
    pub fn name(self) -> String {
        match self {
            ValueKind::Int { bits, signed } => format!("{}{bits}", if signed { 'i' } else { 'u' }),
            ValueKind::F16 => "f16".into(),
            ValueKind::Bf16 => "bf16".into(),
            ValueKind::F32 => "f32".into(),
            ValueKind::F64 => "f64".into(),
            ValueKind::Bool => "bool".into(),
            ValueKind::Char => "char".into(),
        }
    }

    /// The kind [`ValueKind::name`] spells `s`; `None` for anything else (`usize` included).
    pub fn parse(s: &str) -> Option<Self> {
        KINDS.into_iter().find(|k| k.name() == s)
    }

    /// The 64-bit words a value of this kind takes in a record: two for a 128-bit integer (low
    /// word first), one for everything else.
    pub fn words(self) -> usize {
        match self {
            ValueKind::Int { bits, .. } if bits > 64 => 2,
            _ => 1,
        }
    }
}

/// A value to format.
///
/// An integer carries the width of its type because hexadecimal, octal and binary show a
/// negative number as its two's complement at that width (`{:x}` of `-1i8` is `ff`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value<'a> {
    /// A signed integer of a `bits`-bit type.
    Int {
        value: i128,
        bits: u32,
    },
    /// An unsigned integer of a `bits`-bit type.
    Uint {
        value: u128,
        bits: u32,
    },
    /// The bits of a `half::f16`.
    F16(u16),
    /// The bits of a `half::bf16`.
    Bf16(u16),
    F32(f32),
    F64(f64),
    Bool(bool),
    Char(char),
    /// A string, which only the compiler formats (a kernel's string-literal arguments).
    Str(&'a str),
}

/// A record's words as a value of `kind`: integers from the low bits (a 128-bit one from its
/// low word, then its high word), sign- or zero-extended as the kind says; floats from their bit
/// patterns (`f32` and the 16-bit ones in the low bits); a `bool` is true when its word is not
/// zero; a `char` is the low 32 bits, and one that is not a Unicode scalar value becomes
/// U+FFFD. `None` when `words` is too short for the kind.
///
/// Only the low bits count because the kernel widens a narrow value to a word however it
/// likes; what lies above the value's own bits carries no meaning.
pub fn decode(kind: ValueKind, words: &[u64]) -> Option<Value<'static>> {
    let first = *words.first()?;
    // The truncating casts below keep exactly the low bits that hold the value.
    Some(match kind {
        ValueKind::Int { bits, signed } => {
            let raw = if bits > 64 {
                u128::from(first) | (u128::from(*words.get(1)?) << 64)
            } else {
                u128::from(first)
            };
            if signed {
                Value::Int { value: sign_extend(raw, bits), bits }
            } else {
                Value::Uint { value: raw & mask(bits), bits }
            }
        }
        ValueKind::F16 => Value::F16(first as u16),
        ValueKind::Bf16 => Value::Bf16(first as u16),
        ValueKind::F32 => Value::F32(f32::from_bits(first as u32)),
        ValueKind::F64 => Value::F64(f64::from_bits(first)),
        ValueKind::Bool => Value::Bool(first != 0),
        ValueKind::Char => {
            Value::Char(char::from_u32(first as u32).unwrap_or(char::REPLACEMENT_CHARACTER))
        }
    })
}

/// An integer width that shifts cannot overflow on: a width outside `1..=128` (which no Rust
/// integer has, but a hand-built [`Value`] or a corrupt file may) counts as 128.
fn effective_bits(bits: u32) -> u32 {
    if bits == 0 || bits > 128 { 128 } else { bits }
}

/// The bits of a `bits`-bit integer.
fn mask(bits: u32) -> u128 {
    u128::MAX >> (128 - effective_bits(bits))
}

/// The low `bits` bits of `raw` as a signed `bits`-bit integer.
fn sign_extend(raw: u128, bits: u32) -> i128 {
    let shift = 128 - effective_bits(bits);
    ((raw << shift) as i128) >> shift
}

/// An alignment written in a format spec (`<`, `^`, `>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

/// The formatting trait a format spec asks for, by its type (`""`, `?`, `x`, `X`, `o`, `b`,
/// `e`, `E`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trait {
    Display,
    Debug,
    LowerHex,
    UpperHex,
    Octal,
    Binary,
    LowerExp,
    UpperExp,
}

/// A format spec, the part of `{0:>8.3}` after the colon.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The fill character; a space unless one is written before the alignment.
    pub fill: char,
    /// The alignment; `None` leaves the value's own default (numbers right, text left).
    pub align: Option<Align>,
    /// `+`: numbers show their sign when non-negative too.
    pub plus: bool,
    /// `-`: accepted by Rust and unused by every formatting trait.
    pub minus: bool,
    /// `#`: the alternate form (`0x`, `0o`, `0b` prefixes; pretty `Debug`).
    pub alternate: bool,
    /// `0`: numbers are padded with zeros after their sign and prefix.
    pub zero: bool,
    pub width: Option<usize>,
    pub precision: Option<usize>,
    pub trait_: Trait,
}

impl Default for Spec {
    /// The spec of `{}`.
    fn default() -> Self {
        Spec {
            fill: ' ',
            align: None,
            plus: false,
            minus: false,
            alternate: false,
            zero: false,
            width: None,
            precision: None,
            trait_: Trait::Display,
        }
    }
}

/// Which argument a `{...}` shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgRef {
    /// `{}` or `{:spec}`: the argument after the previous implicit one.
    Next,
    /// `{0}`: the argument at this position.
    Index(usize),
    /// `{name}`: a named argument or a captured variable.
    Name(String),
}

/// One part of a parsed format string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Text shown as it is, with `{{` and `}}` already turned into `{` and `}`.
    Text(String),
    /// An argument shown under a spec. `spec_text` is the spec as written after the colon
    /// (`""` when there is none), so that the compiler can write `{k:spec_text}` into the
    /// normalised format and have it parse to the same spec.
    Arg { arg: ArgRef, spec: Spec, spec_text: String },
}

/// Why a format string does not parse: a message naming the problem, and the byte offset in
/// the format string of the `{` or `}` that the problem belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    pub message: String,
    pub offset: usize,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for FormatError {}

/// Parses a format string with Rust's grammar (the `std::fmt` documentation, and rustc's
/// `rustc_parse_format`, whose corner cases this follows):
///
/// ```text
/// format      := '{' [argument] [ws] [':' format_spec] [ws] '}'
/// argument    := integer | identifier
/// format_spec := [[fill]align][sign]['#']['0'][width]['.' precision]type
/// type        := '' | '?' | 'x' | 'X' | 'o' | 'b' | 'e' | 'E'
/// ```
///
/// with `{{` and `}}` for literal braces. Besides what rustc refuses (an unmatched `{` or `}`,
/// a malformed spec, an unknown type, a number above 65535), kernels refuse what needs more
/// than the record's values: widths and precisions taken from arguments (`1$`, `name$`, `.*`),
/// the debug-hex types `x?` and `X?`, and pointers (`p`).
///
/// Identifiers are letters, digits and `_` as Unicode's alphabetic and numeric properties
/// define them, which agrees with rustc's XID rules on everything but rare combining marks.
pub fn parse(fmt: &str) -> Result<Vec<Piece>, FormatError> {
    let mut p = Parser { fmt, chars: fmt.char_indices().collect(), at: 0 };
    let mut pieces = Vec::new();
    let mut text = String::new();
    while let Some(c) = p.peek() {
        let offset = p.offset();
        p.at += 1;
        match c {
            '{' if p.eat('{') => text.push('{'),
            '{' => {
                let (arg, spec, spec_text) = p.argument(offset)?;
                if !text.is_empty() {
                    pieces.push(Piece::Text(std::mem::take(&mut text)));
                }
                pieces.push(Piece::Arg { arg, spec, spec_text });
            }
            '}' if p.eat('}') => text.push('}'),
            '}' => {
                return Err(FormatError {
                    message: "unmatched `}` found (write `}}` to show a `}`)".into(),
                    offset,
                });
            }
            _ => text.push(c),
        }
    }
    if !text.is_empty() {
        pieces.push(Piece::Text(text));
    }
    Ok(pieces)
}

/// The state of [`parse`]: the format's characters with their byte offsets, and the index of
/// the next one.
struct Parser<'a> {
    fmt: &'a str,
    chars: Vec<(usize, char)>,
    at: usize,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<char> {
        self.peek_nth(0)
    }

    fn peek_nth(&self, n: usize) -> Option<char> {
        self.chars.get(self.at + n).map(|&(_, c)| c)
    }

    /// The byte offset of the next character, or the length of the format at its end.
    fn offset(&self) -> usize {
        self.chars.get(self.at).map_or(self.fmt.len(), |&(o, _)| o)
    }

    fn eat(&mut self, c: char) -> bool {
        let found = self.peek() == Some(c);
        if found {
            self.at += 1;
        }
        found
    }

    /// Skips whitespace, which rustc allows after the argument and before the closing brace.
    fn ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    /// A decimal number (ASCII digits only, as rustc reads them), refused above 65535 because
    /// rustc keeps argument positions, widths and precisions in a `u16`.
    fn integer(&mut self, open: usize) -> Result<Option<usize>, FormatError> {
        let start = self.offset();
        let mut value: usize = 0;
        let mut found = false;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            self.at += 1;
            found = true;
            // Saturating keeps the arithmetic defined for any number of digits; anything
            // above the limit is refused below.
            value = value.saturating_mul(10).saturating_add(d as usize);
        }
        if value > MAX_COUNT {
            let digits = &self.fmt[start..self.offset()];
            return Err(FormatError {
                message: format!(
                    "integer `{digits}` does not fit into the type `u16` whose range is `0..={MAX_COUNT}`"
                ),
                offset: open,
            });
        }
        Ok(found.then_some(value))
    }

    /// An identifier at the next character, or `""` when none starts there.
    fn word(&mut self) -> &'a str {
        let start = self.offset();
        if !self.peek().is_some_and(|c| c == '_' || c.is_alphabetic()) {
            return "";
        }
        self.at += 1;
        while self.peek().is_some_and(|c| c == '_' || c.is_alphanumeric()) {
            self.at += 1;
        }
        &self.fmt[start..self.offset()]
    }

    /// The inside of `{...}` after the `{` at byte `open`, up to and including the `}`.
    fn argument(&mut self, open: usize) -> Result<(ArgRef, Spec, String), FormatError> {
        let err = |message: String| FormatError { message, offset: open };
        let arg = if let Some(i) = self.integer(open)? {
            ArgRef::Index(i)
        } else {
            let word = self.word();
            if word.is_empty() {
                ArgRef::Next
            } else if word == "_" {
                return Err(err("invalid argument name `_`".into()));
            } else if word == "r"
                && self.peek() == Some('#')
                && self.peek_nth(1).is_some_and(|c| c == '_' || c.is_alphabetic())
            {
                return Err(err("raw identifiers are not supported in format strings".into()));
            } else {
                ArgRef::Name(word.to_string())
            }
        };
        self.ws();
        let (spec, spec_text) = if self.eat(':') {
            let start = self.offset();
            let spec = self.spec(open)?;
            (spec, self.fmt[start..self.offset()].to_string())
        } else {
            (Spec::default(), String::new())
        };
        self.ws();
        if self.eat('}') {
            return Ok((arg, spec, spec_text));
        }
        Err(err(match self.peek() {
            Some(c) => format!("expected `}}`, found `{}`", c.escape_debug()),
            None => "expected `}` but string was terminated (write `{{` to show a `{`)".into(),
        }))
    }

    /// A format spec after its colon.
    fn spec(&mut self, open: usize) -> Result<Spec, FormatError> {
        let err = |message: String| FormatError { message, offset: open };
        let mut spec = Spec::default();
        // A fill is any character followed by an alignment, which is how rustc tells `{:<<5}`
        // (fill `<`) from `{:<5}`, and why `}` can be a fill.
        if let (Some(c), Some('<' | '^' | '>')) = (self.peek(), self.peek_nth(1)) {
            spec.fill = c;
            self.at += 1;
        }
        spec.align = if self.eat('<') {
            Some(Align::Left)
        } else if self.eat('^') {
            Some(Align::Center)
        } else if self.eat('>') {
            Some(Align::Right)
        } else {
            None
        };
        if self.eat('+') {
            spec.plus = true;
        } else if self.eat('-') {
            spec.minus = true;
        }
        spec.alternate = self.eat('#');
        let by_argument = |what: &str, text: &str| {
            err(format!("a {what} taken from an argument (`{text}`) is not supported in kernels"))
        };
        // rustc reads `0$` as a width taken from argument 0, not as the `0` flag.
        if self.eat('0') {
            if self.eat('$') {
                return Err(by_argument("width", "0$"));
            }
            spec.zero = true;
        }
        spec.width = self.count(open, "width", "")?;
        if self.eat('.') {
            if self.eat('*') {
                return Err(by_argument("precision", ".*"));
            }
            spec.precision = self.count(open, "precision", ".")?;
        }
        spec.trait_ = if self.eat('x') {
            if self.eat('?') {
                return Err(err("the debug-hex type `x?` is not supported in kernels".into()));
            }
            Trait::LowerHex
        } else if self.eat('X') {
            if self.eat('?') {
                return Err(err("the debug-hex type `X?` is not supported in kernels".into()));
            }
            Trait::UpperHex
        } else if self.eat('?') {
            Trait::Debug
        } else {
            match self.word() {
                "" => Trait::Display,
                "e" => Trait::LowerExp,
                "E" => Trait::UpperExp,
                "o" => Trait::Octal,
                "b" => Trait::Binary,
                "p" => {
                    return Err(err("pointers (type `p`) cannot be printed in kernels".into()));
                }
                other => return Err(err(format!("unknown format trait `{other}`"))),
            }
        };
        Ok(spec)
    }

    /// A width or a precision: a number, or (refused) a number or name followed by `$`. A
    /// word without `$` is not a count but the spec's type, and is left for it.
    fn count(&mut self, open: usize, what: &str, lead: &str) -> Result<Option<usize>, FormatError> {
        let refuse = |text: String| FormatError {
            message: format!(
                "a {what} taken from an argument (`{lead}{text}`) is not supported in kernels"
            ),
            offset: open,
        };
        if let Some(n) = self.integer(open)? {
            if self.eat('$') {
                return Err(refuse(format!("{n}$")));
            }
            return Ok(Some(n));
        }
        let before = self.at;
        let word = self.word();
        if !word.is_empty() && self.eat('$') {
            return Err(refuse(format!("{word}$")));
        }
        self.at = before;
        Ok(None)
    }
}

/// Whether Rust implements the formatting trait for values of this kind, that is whether
/// rustc accepts the spec for such an argument: `Display` and `Debug` for every kind;
/// hexadecimal, octal and binary for integers, and for `f16` and `bf16` because the `half`
/// crate implements them (as the bits); the exponent forms for integers and floats.
pub fn supports(t: Trait, kind: ValueKind) -> bool {
    match t {
        Trait::Display | Trait::Debug => true,
        Trait::LowerHex | Trait::UpperHex | Trait::Octal | Trait::Binary => {
            matches!(kind, ValueKind::Int { .. } | ValueKind::F16 | ValueKind::Bf16)
        }
        Trait::LowerExp | Trait::UpperExp => !matches!(kind, ValueKind::Bool | ValueKind::Char),
    }
}

/// Exactly the text `format!` writes for `value` under `spec`.
///
/// For a trait Rust does not implement on the value (see [`supports`]), which rustc would
/// refuse, the value is shown with `Display` rather than panicking. Widths and precisions
/// above 65535, which `format!` cannot express, count as 65535; the exponent form of a float
/// at precision 65535, where `format!` itself panics, is written at 65534.
pub fn format_value(spec: &Spec, value: Value<'_>) -> String {
    let spec = &Spec {
        width: spec.width.map(|w| w.min(MAX_COUNT)),
        precision: spec.precision.map(|p| p.min(MAX_COUNT)),
        ..spec.clone()
    };
    match value {
        Value::Int { value, bits } => {
            // A value outside its type's range cannot come from a kernel; reading it as the
            // type's bits keeps every trait showing the same number.
            let value = sign_extend(value as u128, bits);
            format_int(spec, value < 0, value.unsigned_abs(), (value as u128) & mask(bits))
        }
        Value::Uint { value, bits } => {
            let value = value & mask(bits);
            format_int(spec, false, value, value)
        }
        Value::F16(bits) => format_half(spec, bits, f16_to_f32(bits)),
        Value::Bf16(bits) => format_half(spec, bits, bf16_to_f32(bits)),
        Value::F32(v) => format_float(spec, v),
        Value::F64(v) => format_float(spec, v),
        // `bool`'s `Debug` is its `Display`, which pads the word like a string.
        Value::Bool(b) => pad_str(spec, if b { "true" } else { "false" }),
        // The `Debug` of `char` and `str` writes the quoted, escaped text straight out: width
        // and precision do not apply to it.
        Value::Char(c) if spec.trait_ == Trait::Debug => format!("{c:?}"),
        Value::Char(c) => pad_str(spec, c.encode_utf8(&mut [0; 4])),
        Value::Str(s) if spec.trait_ == Trait::Debug => format!("{s:?}"),
        Value::Str(s) => pad_str(spec, s),
    }
}

/// An integer: `negative` and `magnitude` are its sign and absolute value, `bits` its two's
/// complement at its type's width, which is what hexadecimal, octal and binary show (with no
/// sign of their own).
fn format_int(spec: &Spec, negative: bool, magnitude: u128, bits: u128) -> String {
    match spec.trait_ {
        Trait::LowerHex => pad_integral(spec, false, "0x", &format!("{bits:x}")),
        Trait::UpperHex => pad_integral(spec, false, "0x", &format!("{bits:X}")),
        Trait::Octal => pad_integral(spec, false, "0o", &format!("{bits:o}")),
        Trait::Binary => pad_integral(spec, false, "0b", &format!("{bits:b}")),
        // Rust formats the exponent form of every integer type by the same code on its
        // magnitude, and pads the result like a float's.
        Trait::LowerExp | Trait::UpperExp => {
            let upper = spec.trait_ == Trait::UpperExp;
            let body = match (upper, spec.precision) {
                (false, None) => format!("{magnitude:e}"),
                (false, Some(p)) => format!("{magnitude:.p$e}"),
                (true, None) => format!("{magnitude:E}"),
                (true, Some(p)) => format!("{magnitude:.p$E}"),
            };
            let sign = if negative {
                "-"
            } else if spec.plus {
                "+"
            } else {
                ""
            };
            pad_formatted(spec, sign, &body)
        }
        // `Debug` of an integer is its `Display` (without `x?`, which kernels refuse), and
        // neither uses the precision.
        Trait::Display | Trait::Debug => pad_integral(spec, negative, "", &magnitude.to_string()),
    }
}

/// A float: Rust writes the sign, digits and exponent; the padding is done here.
fn format_float<T>(spec: &Spec, v: T) -> String
where
    T: fmt::Display + fmt::Debug + fmt::LowerExp + fmt::UpperExp,
{
    // Rust's exponent form of a float counts the digits it writes, one more than the precision,
    // in a `u16`: at precision 65535 that count wraps to 0 and `format!` panics (rustc 1.95).
    // There is no text to match, so the longest one Rust can write stands in for it.
    let precision = match spec.trait_ {
        Trait::LowerExp | Trait::UpperExp => spec.precision.map(|p| p.min(MAX_COUNT - 1)),
        _ => spec.precision,
    };
    let text = float_body(v, spec.trait_, spec.plus, precision);
    // The sign is the only character of a float's text that is not a digit, a letter or a
    // point, and it comes first.
    let (sign, body) = match text.as_bytes().first() {
        Some(b'-' | b'+') => text.split_at(1),
        _ => ("", text.as_str()),
    };
    pad_formatted(spec, sign, body)
}

/// A float's text without padding, from Rust's own formatting. A trait Rust does not
/// implement for floats falls back to `Display`.
fn float_body<T>(v: T, t: Trait, plus: bool, precision: Option<usize>) -> String
where
    T: fmt::Display + fmt::Debug + fmt::LowerExp + fmt::UpperExp,
{
    match (t, plus, precision) {
        (Trait::Debug, false, None) => format!("{v:?}"),
        (Trait::Debug, true, None) => format!("{v:+?}"),
        (Trait::Debug, false, Some(p)) => format!("{v:.p$?}"),
        (Trait::Debug, true, Some(p)) => format!("{v:+.p$?}"),
        (Trait::LowerExp, false, None) => format!("{v:e}"),
        (Trait::LowerExp, true, None) => format!("{v:+e}"),
        (Trait::LowerExp, false, Some(p)) => format!("{v:.p$e}"),
        (Trait::LowerExp, true, Some(p)) => format!("{v:+.p$e}"),
        (Trait::UpperExp, false, None) => format!("{v:E}"),
        (Trait::UpperExp, true, None) => format!("{v:+E}"),
        (Trait::UpperExp, false, Some(p)) => format!("{v:.p$E}"),
        (Trait::UpperExp, true, Some(p)) => format!("{v:+.p$E}"),
        (_, false, None) => format!("{v}"),
        (_, true, None) => format!("{v:+}"),
        (_, false, Some(p)) => format!("{v:.p$}"),
        (_, true, Some(p)) => format!("{v:+.p$}"),
    }
}

/// An `f16` or a `bf16` as the `half` crate shows it (`half` 2.x, `binary16.rs` and
/// `bfloat.rs`). Its `Display` and `Debug` hand the value, converted to `f32` (which is
/// exact), to `f32`'s with the caller's formatter, so the spec applies as to an `f32`. Its
/// other traits `write!` a new format of their own into the formatter, which drops the
/// caller's spec entirely: `{:e}` and `{:E}` of the `f32`, and `{:x}`, `{:X}`, `{:o}` and
/// `{:b}` of the bits.
fn format_half(spec: &Spec, bits: u16, value: f32) -> String {
    match spec.trait_ {
        Trait::Display | Trait::Debug => format_float(spec, value),
        Trait::LowerExp => format!("{value:e}"),
        Trait::UpperExp => format!("{value:E}"),
        Trait::LowerHex => format!("{bits:x}"),
        Trait::UpperHex => format!("{bits:X}"),
        Trait::Octal => format!("{bits:o}"),
        Trait::Binary => format!("{bits:b}"),
    }
}

/// The `f32` with the value of the IEEE binary16 number `bits` (every one is exact in `f32`).
fn f16_to_f32(bits: u16) -> f32 {
    let sign = u32::from(bits & 0x8000) << 16;
    let exponent = u32::from((bits >> 10) & 0x1f);
    let mantissa = u32::from(bits & 0x3ff);
    if exponent == 0 {
        // Zero and the subnormals, mantissa * 2^-24: both factors and their product are exact
        // in f32, and f32::from_bits(0x3380_0000) is 2^-24.
        let magnitude = mantissa as f32 * f32::from_bits(0x3380_0000);
        return if sign != 0 { -magnitude } else { magnitude };
    }
    let bits32 = if exponent == 0x1f {
        // Infinities and NaNs keep their mantissa, so a NaN stays a NaN.
        sign | 0x7f80_0000 | (mantissa << 13)
    } else {
        // Rebias the exponent from 15 to 127.
        sign | ((exponent + 112) << 23) | (mantissa << 13)
    };
    f32::from_bits(bits32)
}

/// The `f32` with the value of the bfloat16 number `bits`: its upper half.
fn bf16_to_f32(bits: u16) -> f32 {
    f32::from_bits(u32::from(bits) << 16)
}

/// `fill` repeated `padding` times around `body`, split as `Formatter::padding` splits it:
/// all before for right alignment, all after for left, and for center half before with the
/// odd one after.
fn padded(fill: char, align: Align, padding: usize, body: &str) -> String {
    let before = match align {
        Align::Left => 0,
        Align::Right => padding,
        Align::Center => padding / 2,
    };
    let mut out = String::with_capacity(body.len() + padding * fill.len_utf8());
    out.extend(std::iter::repeat_n(fill, before));
    out.push_str(body);
    out.extend(std::iter::repeat_n(fill, padding - before));
    out
}

/// `Formatter::pad`, for `str`, `bool` and `char`: the precision cuts the text to that many
/// characters, the width pads it (left-aligned unless told otherwise), and the `0` flag and
/// the sign do nothing.
fn pad_str(spec: &Spec, s: &str) -> String {
    let s = match spec.precision.and_then(|p| s.char_indices().nth(p)) {
        Some((cut, _)) => &s[..cut],
        None => s,
    };
    let chars = s.chars().count();
    match spec.width {
        Some(width) if chars < width => {
            padded(spec.fill, spec.align.unwrap_or(Align::Left), width - chars, s)
        }
        _ => s.to_string(),
    }
}

/// `Formatter::pad_integral`: `digits` after the sign (`-` when `negative`, `+` under the `+`
/// flag) and, under `#`, the prefix. The width pads on the left by default; with the `0` flag
/// it puts zeros between the sign and prefix and the digits, whatever the fill and alignment.
fn pad_integral(spec: &Spec, negative: bool, prefix: &str, digits: &str) -> String {
    let sign = if negative {
        "-"
    } else if spec.plus {
        "+"
    } else {
        ""
    };
    let prefix = if spec.alternate { prefix } else { "" };
    // Every character here is ASCII, so bytes count characters.
    let len = sign.len() + prefix.len() + digits.len();
    let width = spec.width.unwrap_or(0);
    if len >= width {
        format!("{sign}{prefix}{digits}")
    } else if spec.zero {
        format!("{sign}{prefix}{}{digits}", "0".repeat(width - len))
    } else {
        let body = format!("{sign}{prefix}{digits}");
        padded(spec.fill, spec.align.unwrap_or(Align::Right), width - len, &body)
    }
}

/// `Formatter::pad_formatted_parts`, for floats and the exponent form of integers: `sign`
/// then `body`, padded on the left by default; with the `0` flag the sign goes first and
/// zeros fill the rest of the width before the body, whatever the fill and alignment (also
/// before `inf` and `NaN`, as Rust does).
fn pad_formatted(spec: &Spec, sign: &str, body: &str) -> String {
    let width = spec.width.unwrap_or(0);
    // Every character here is ASCII, so bytes count characters.
    if spec.zero {
        let zeros = width.saturating_sub(sign.len()).saturating_sub(body.len());
        return format!("{sign}{}{body}", "0".repeat(zeros));
    }
    let len = sign.len() + body.len();
    let text = format!("{sign}{body}");
    if len >= width {
        return text;
    }
    padded(spec.fill, spec.align.unwrap_or(Align::Right), width - len, &text)
}

/// The runtime's entry: one record's text. `format` is a normalised format (every argument
/// written `{k}` or `{k:spec}`, `k` an index into `kinds`), `kinds` the kinds of the print's
/// arguments and `words` the record's values, each argument's [`ValueKind::words`] words in
/// the order of `kinds`. Words beyond those are ignored.
///
/// An error names what is wrong when the format does not parse, refers to an argument other
/// than by an index into `kinds`, asks for a trait the kind does not support, or when the
/// record has too few words: all signs of a corrupt file or a compiler bug, which the caller
/// reports instead of printing something wrong.
pub fn render(format: &str, kinds: &[ValueKind], words: &[u64]) -> Result<String, String> {
    let pieces = parse(format).map_err(|e| format!("bad print format {format:?}: {e}"))?;
    // Where each argument's words start in the record.
    let mut starts = Vec::with_capacity(kinds.len());
    let mut needed = 0usize;
    for kind in kinds {
        starts.push(needed);
        needed = needed.saturating_add(kind.words());
    }
    if words.len() < needed {
        return Err(format!(
            "the record holds {} words where its {} values need {needed}",
            words.len(),
            kinds.len()
        ));
    }
    let mut out = String::new();
    for piece in &pieces {
        let (arg, spec) = match piece {
            Piece::Text(t) => {
                out.push_str(t);
                continue;
            }
            Piece::Arg { arg, spec, .. } => (arg, spec),
        };
        let ArgRef::Index(k) = *arg else {
            return Err(format!("bad print format {format:?}: an argument without an index"));
        };
        let (Some(&kind), Some(&start)) = (kinds.get(k), starts.get(k)) else {
            return Err(format!(
                "bad print format {format:?}: argument {k} of {} values",
                kinds.len()
            ));
        };
        if !supports(spec.trait_, kind) {
            return Err(format!(
                "bad print format {format:?}: {} cannot be shown with {:?}",
                kind.name(),
                spec.trait_
            ));
        }
        let value = words
            .get(start..)
            .and_then(|w| decode(kind, w))
            .ok_or_else(|| format!("the record has no words for argument {k}"))?;
        out.push_str(&format_value(spec, value));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::{bf16, f16};

    /// A Rust value as the [`Value`] it is formatted as.
    trait Arg {
        fn value(&self) -> Value<'_>;
    }

    macro_rules! int_args {
        ($($t:ty => $variant:ident),* $(,)?) => {$(
            impl Arg for $t {
                fn value(&self) -> Value<'_> {
                    Value::$variant { value: (*self).into(), bits: <$t>::BITS }
                }
            }
        )*};
    }
    int_args!(
        u8 => Uint, u16 => Uint, u32 => Uint, u64 => Uint, u128 => Uint,
        i8 => Int, i16 => Int, i32 => Int, i64 => Int, i128 => Int,
    );

    impl Arg for f32 {
        fn value(&self) -> Value<'_> {
            Value::F32(*self)
        }
    }
    impl Arg for f64 {
        fn value(&self) -> Value<'_> {
            Value::F64(*self)
        }
    }
    impl Arg for f16 {
        fn value(&self) -> Value<'_> {
            Value::F16(self.to_bits())
        }
    }
    impl Arg for bf16 {
        fn value(&self) -> Value<'_> {
            Value::Bf16(self.to_bits())
        }
    }
    impl Arg for bool {
        fn value(&self) -> Value<'_> {
            Value::Bool(*self)
        }
    }
    impl Arg for char {
        fn value(&self) -> Value<'_> {
            Value::Char(*self)
        }
    }
    impl Arg for &str {
        fn value(&self) -> Value<'_> {
            Value::Str(self)
        }
    }

    /// What this module writes for a format string whose every argument is `value`.
    fn ours(fmt: &str, value: Value<'_>) -> String {
        let pieces = match parse(fmt) {
            Ok(p) => p,
            Err(e) => return format!("<parse error: {e}>"),
        };
        let mut out = String::new();
        for piece in &pieces {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Arg { spec, .. } => out.push_str(&format_value(spec, value)),
            }
        }
        out
    }

    /// Compares this module with `format!` on every (format literal, value) pair, reporting
    /// all the differences at once.
    macro_rules! check {
        ($($fmt:literal => $v:expr),+ $(,)?) => {{
            let mut failures: Vec<String> = Vec::new();
            let mut cases = 0;
            $(
                cases += 1;
                let expected = format!($fmt, $v);
                let got = ours($fmt, Arg::value(&$v));
                if got != expected {
                    failures.push(format!(
                        "{:?} of {}: format! writes {:?}, we write {:?}",
                        $fmt, stringify!($v), expected, got
                    ));
                }
            )+
            assert!(
                failures.is_empty(),
                "{} of {} cases differ:\n{}",
                failures.len(),
                cases,
                failures.join("\n")
            );
        }};
    }

    #[test]
    fn integers_display_and_debug() {
        check!(
            "{}" => 0u8, "{}" => u8::MAX, "{}" => i8::MIN, "{}" => i8::MAX, "{}" => u16::MAX,
            "{}" => i16::MIN, "{}" => u32::MAX, "{}" => i32::MIN, "{}" => u64::MAX,
            "{}" => i64::MIN, "{}" => u128::MAX, "{}" => i128::MIN, "{}" => i128::MAX,
            "{}" => -1i32, "{:?}" => 42i32, "{:?}" => -7i64, "{:?}" => i128::MIN,
            "{:#?}" => 5u8, "{:5}" => 42u32, "{:<5}" => -42i32, "{:^5}" => 42u16,
            "{:^6}" => 42u16, "{:>5}" => 42u64, "{:*^7}" => -3i16, "{:→>6}" => 9u8,
            "{:→^6}" => -9i8, "{:→<4?}" => 7u8, "{:1}" => 12345u32, "{:3}" => i64::MIN,
            "{:+}" => 0i32, "{:+}" => 5u32, "{:+}" => -5i32, "{:+5}" => 5u8, "{:05}" => -5i32,
            "{:+05}" => 5i32, "{:<05}" => -5i32, "{:*<05}" => 7u8, "{:^05}" => 7u8,
            "{:02}" => 123u32, "{:00}" => 1u8, "{:0}" => 1u8, "{:.3}" => 5i32,
            "{:8.3}" => -5i32, "{:.0?}" => 77u8, "{:-}" => 5i32, "{:-}" => -5i32,
            "{:#}" => 5u8, "{:#5}" => 5u8, "{:40}" => u128::MAX, "{:>+45}" => i128::MIN,
            "{:<<5}" => 1u8, "{:}>5}" => 7u8, "{:{<5}" => 7u8, "{::^5}" => 7u8,
            "{:0<5}" => 25u8, "{: >4}" => 1u8, "{:\t>4}" => 1u8,
            "x{}y{0}z" => 3u8, "{ }" => 3u8, "{0 :>3}" => 3u8, "{:4 }" => 3u8,
        );
    }

    #[test]
    fn integers_hex_octal_binary() {
        check!(
            "{:x}" => 255u8, "{:x}" => -1i8, "{:x}" => i16::MIN, "{:x}" => -1i128,
            "{:x}" => u128::MAX, "{:x}" => 0u64, "{:X}" => 0xabcdu16, "{:X}" => -2i32,
            "{:X}" => i64::MIN, "{:#x}" => 0u8, "{:#X}" => 255u8, "{:#010x}" => 255u32,
            "{:#06x}" => -1i8, "{:+x}" => -1i8, "{:+#x}" => 1u8, "{:>#8x}" => 255u16,
            "{:<#8X}" => 255u16, "{:^#9b}" => 5u8, "{:#3x}" => 4096u32, "{:.5x}" => 255u8,
            "{:*^10x}" => -1i16, "{:→>#7x}" => 171u8, "{:<#010x}" => 255u8, "{:#x}" => i128::MIN,
            "{:o}" => 8u8, "{:o}" => -1i8, "{:#o}" => 8u32, "{:#012o}" => i64::MIN,
            "{:o}" => u128::MAX, "{:+o}" => 8i32, "{:5o}" => 8i32, "{:b}" => 5u8,
            "{:b}" => -1i16, "{:#b}" => 0u8, "{:#010b}" => 5u8, "{:b}" => i128::MIN,
            "{:+b}" => 3u16, "{:+#012b}" => 5i8, "{:b}" => i8::MIN, "{:x}" => i32::MIN,
            "{:X}" => u64::MAX, "{:#b}" => u8::MAX, "{:2x}" => 4095u16,
        );
    }

    #[test]
    fn integers_exponent() {
        check!(
            "{:e}" => 0u8, "{:e}" => 1u8, "{:e}" => 10u16, "{:e}" => 1234u32, "{:e}" => -1234i32,
            "{:e}" => u128::MAX, "{:e}" => i128::MIN, "{:e}" => u64::MAX, "{:e}" => i8::MIN,
            "{:E}" => 1500u16, "{:E}" => -100i64, "{:.0e}" => 25u8, "{:.0e}" => 35u8,
            "{:.0e}" => 15u8, "{:.1e}" => 1251u16, "{:.1e}" => 1250u16, "{:.2e}" => 1255u32,
            "{:.2e}" => 9999i32, "{:.10e}" => 7u8, "{:.3E}" => -123456i64, "{:+e}" => 12i32,
            "{:+e}" => 0u8, "{:12e}" => 1234u32, "{:<12e}" => -1234i32, "{:012e}" => -1234i64,
            "{:+012.2E}" => 98765u32, "{:^+12.1e}" => 5u8, "{:#e}" => 100u8,
            "{:→^9e}" => 1000u16, "{:2e}" => 123456u32, "{:.30e}" => i128::MAX,
            "{:.2e}" => i128::MIN, "{:.0e}" => u128::MAX, "{:05e}" => -1i8,
        );
    }

    #[test]
    fn floats() {
        check!(
            "{}" => 0.0f64, "{}" => -0.0f64, "{}" => 1.0f64, "{}" => 1.5f64, "{}" => 0.1f64,
            "{}" => 1e21f64, "{}" => 1e-7f64, "{}" => 123456789.125f64, "{}" => f64::MAX,
            "{}" => f64::MIN_POSITIVE, "{}" => 5e-324f64, "{}" => f64::NAN, "{}" => -f64::NAN,
            "{}" => f64::INFINITY, "{}" => f64::NEG_INFINITY, "{}" => f64::EPSILON,
            "{:?}" => 0.0f64, "{:?}" => -0.0f64, "{:?}" => 1.0f64, "{:?}" => 0.1f64,
            "{:?}" => 1e16f64, "{:?}" => 1e15f64, "{:?}" => 1e-5f64, "{:?}" => 1e-4f64,
            "{:?}" => 5e-324f64, "{:?}" => f64::NAN, "{:?}" => f64::INFINITY,
            "{:?}" => f64::NEG_INFINITY, "{:?}" => 1e300f64, "{:#?}" => 1.0f64,
            "{:+}" => 0.0f64, "{:+}" => -0.0f64, "{:+}" => 1.0f64, "{:+}" => f64::NAN,
            "{:+}" => f64::INFINITY, "{:+?}" => 1.0f64, "{:+?}" => f64::NAN, "{:+?}" => 1e20f64,
            "{:.2}" => 1234.5678f64, "{:.2}" => -0.001f64, "{:.2}" => 0.125f64,
            "{:.0}" => 2.5f64, "{:.0}" => 0.5f64, "{:.0}" => 1.5f64, "{:.0}" => -0.4f64,
            "{:.2}" => f64::NAN, "{:.2}" => f64::INFINITY, "{:.3?}" => 1.0f64,
            "{:.20}" => 0.1f64, "{:.1?}" => 1e20f64, "{:10.3}" => -1234.5678f64,
            "{:<10}" => 2.5f64, "{:^10}" => 2.5f64, "{:*^11.1}" => -2.25f64, "{:→>8}" => 1.5f64,
            "{:010.2}" => -1234.5678f64, "{:+010.2}" => 1234.5678f64, "{:^010}" => 1.5f64,
            "{:x<010}" => -1.5f64, "{:05}" => f64::NAN, "{:05}" => f64::INFINITY,
            "{:05}" => f64::NEG_INFINITY, "{:+05}" => f64::NAN, "{:+05}" => f64::INFINITY,
            "{:8}" => f64::NAN, "{:<8?}" => f64::NEG_INFINITY, "{:3}" => 12345.5f64,
            "{:02}" => -1.0f64, "{:#}" => 1.0f64, "{:-}" => -1.0f64, "{:x<9}" => 1.5f64,
            "{:e}" => 0.0f64, "{:e}" => -0.0f64, "{:e}" => 1234.5f64, "{:e}" => 1e-7f64,
            "{:e}" => f64::NAN, "{:e}" => f64::INFINITY, "{:e}" => f64::NEG_INFINITY,
            "{:e}" => 5e-324f64, "{:e}" => f64::MAX, "{:E}" => 1234.5f64, "{:.2e}" => 1234.5f64,
            "{:.2e}" => 0.0f64, "{:.2e}" => -1e-300f64, "{:+e}" => 1.0f64, "{:+E}" => -0.0f64,
            "{:012.3e}" => -1234.5f64, "{:>12e}" => 1.0f64, "{:.0e}" => 2.5f64,
            "{:#e}" => 1.0f64, "{:^+14.3E}" => 6.02214076e23f64, "{:05e}" => f64::NAN,
        );
        check!(
            "{}" => 0.1f32, "{}" => 16777216.0f32, "{}" => f32::MAX, "{}" => f32::MIN_POSITIVE,
            "{}" => f32::from_bits(1), "{}" => -0.0f32, "{}" => f32::NAN, "{}" => f32::INFINITY,
            "{:?}" => 0.1f32, "{:?}" => 1e16f32, "{:?}" => 1e-5f32, "{:?}" => 1e7f32,
            "{:?}" => f32::from_bits(1), "{:.3}" => 2.0f32 / 3.0, "{:.10}" => 0.1f32,
            "{:e}" => 0.1f32, "{:E}" => f32::MAX, "{:+010.1e}" => 12345.678f32,
            "{:x<9}" => 1.5f32, "{:<08}" => -2.5f32, "{:^9.1}" => -0.25f32, "{:+}" => 0.0f32,
            "{:+.0}" => -0.4f32, "{:10?}" => f32::NEG_INFINITY, "{:→^9?}" => 0.5f32,
        );
    }

    #[test]
    fn halfs_as_the_half_crate_shows_them() {
        check!(
            "{}" => f16::from_f32(0.1), "{}" => f16::MAX, "{}" => f16::MIN_POSITIVE_SUBNORMAL,
            "{}" => f16::NEG_INFINITY, "{}" => f16::NAN, "{}" => f16::NEG_ZERO,
            "{:?}" => f16::from_f32(0.1), "{:?}" => f16::MAX, "{:?}" => f16::MIN_POSITIVE,
            "{:?}" => f16::MIN_POSITIVE_SUBNORMAL, "{:.3}" => f16::from_f32(2.0 / 3.0),
            "{:>10}" => f16::ONE, "{:+010.2}" => f16::from_f32(-1.5), "{:^9?}" => f16::NAN,
            "{:e}" => f16::from_f32(0.1), "{:10.2e}" => f16::from_f32(1.5),
            "{:+E}" => f16::from_f32(1000.0), "{:012e}" => f16::from_f32(-3.0),
            "{:x}" => f16::ONE, "{:#010X}" => f16::NEG_ONE, "{:o}" => f16::ONE,
            "{:b}" => f16::from_f32(-2.0), "{:>8x}" => f16::MAX, "{:+}" => f16::ZERO,
            "{:.1}" => f16::from_f32(0.05),
        );
        check!(
            "{}" => bf16::from_f32(0.1), "{}" => bf16::MAX, "{}" => bf16::MIN_POSITIVE,
            "{}" => bf16::MIN_POSITIVE_SUBNORMAL, "{}" => bf16::NAN, "{}" => bf16::NEG_ZERO,
            "{:?}" => bf16::from_f32(0.1), "{:?}" => bf16::MAX, "{:.3}" => bf16::from_f32(3.3),
            "{:<10?}" => bf16::INFINITY, "{:08.1}" => bf16::from_f32(-1.25),
            "{:e}" => bf16::from_f32(1e30), "{:.1E}" => bf16::from_f32(1e-30),
            "{:x}" => bf16::ONE, "{:#X}" => bf16::NEG_ONE, "{:#o}" => bf16::ONE,
            "{:010b}" => bf16::from_f32(2.0), "{:+}" => bf16::from_f32(7.0),
        );
    }

    #[test]
    fn every_half_bit_pattern_matches_the_half_crate() {
        let mut failures = Vec::new();
        for bits in 0..=u16::MAX {
            let (h, b) = (f16::from_bits(bits), bf16::from_bits(bits));
            let pairs = [
                (format!("{h}"), ours("{}", Value::F16(bits))),
                (format!("{h:?}"), ours("{:?}", Value::F16(bits))),
                (format!("{h:+.3e}"), ours("{:+.3e}", Value::F16(bits))),
                (format!("{h:>12.2}"), ours("{:>12.2}", Value::F16(bits))),
                (format!("{b}"), ours("{}", Value::Bf16(bits))),
                (format!("{b:?}"), ours("{:?}", Value::Bf16(bits))),
                (format!("{b:E}"), ours("{:E}", Value::Bf16(bits))),
                (format!("{b:010}"), ours("{:010}", Value::Bf16(bits))),
            ];
            for (expected, got) in pairs {
                if expected != got && failures.len() < 20 {
                    failures.push(format!("bits {bits:#06x}: {expected:?} against {got:?}"));
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn random_floats_match_format() {
        // A fixed xorshift sequence of bit patterns: every class of float turns up (NaNs,
        // subnormals, huge and tiny exponents), and the test does not change from run to run.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut failures = Vec::new();
        for _ in 0..3000 {
            let word = next();
            let (d, s) = (f64::from_bits(word), f32::from_bits(word as u32));
            let pairs = [
                (format!("{d:+012.3}"), ours("{:+012.3}", Value::F64(d))),
                (format!("{d:<15?}"), ours("{:<15?}", Value::F64(d))),
                (format!("{d:^+14e}"), ours("{:^+14e}", Value::F64(d))),
                (format!("{d:→>30}"), ours("{:→>30}", Value::F64(d))),
                (format!("{s:010}"), ours("{:010}", Value::F32(s))),
                (format!("{s:?}"), ours("{:?}", Value::F32(s))),
                (format!("{s:*^16.4E}"), ours("{:*^16.4E}", Value::F32(s))),
            ];
            for (expected, got) in pairs {
                if expected != got && failures.len() < 20 {
                    failures.push(format!("{word:#018x}: {expected:?} against {got:?}"));
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn bools_chars_and_strings() {
        check!(
            "{}" => true, "{:?}" => false, "{:10}" => true, "{:>10}" => false,
            "{:^9}" => true, "{:*^10?}" => true, "{:.2}" => true, "{:6.2}" => false,
            "{:.0}" => true, "{:.9}" => false, "{:05}" => true, "{:+}" => true,
            "{:→<7}" => true, "{:2}" => false, "{:#?}" => true, "{:-^8}" => false,
        );
        check!(
            "{}" => 'a', "{}" => 'é', "{}" => '→', "{:?}" => '\n', "{:?}" => '\'',
            "{:?}" => '"', "{:?}" => '\\', "{:?}" => '\0', "{:?}" => '\u{7f}',
            "{:?}" => '\u{301}', "{:?}" => 'é', "{:?}" => '\u{200b}', "{:?}" => '\u{10ffff}',
            "{:5}" => 'x', "{:>5}" => 'x', "{:^5}" => '→', "{:*^6}" => 'x', "{:.0}" => 'x',
            "{:5.0}" => 'x', "{:05}" => 'x', "{:10?}" => '\n', "{:.0?}" => 'x',
            "{:#?}" => 'x', "{:+}" => 'x', "{:1}" => 'x', "{:é<3}" => 'x',
        );
        check!(
            "{}" => "hello", "{}" => "", "{:?}" => "a\"b\\c\n\t\r\u{0}é\u{301}",
            "{:?}" => "'", "{:?}" => "\u{1b}[0m", "{:10}" => "héllo", "{:>10}" => "héllo",
            "{:^10}" => "ab", "{:^11}" => "ab", "{:.3}" => "héllo", "{:8.3}" => "héllo",
            "{:→^9.2}" => "→→→→", "{:2}" => "hello", "{:12?}" => "ab", "{:.1?}" => "ab",
            "{:05}" => "ab", "{:+}" => "ab", "{:.0}" => "abc", "{:.10}" => "abc",
            "{:#?}" => "a\nb", "{:*<4}" => "",
        );
    }

    #[test]
    fn hand_built_values_do_not_panic() {
        // Widths outside 1..=128, values outside their width and counts beyond u16 cannot
        // come from `parse` or `decode`, but format_value must not panic on them.
        let huge = Spec {
            width: Some(usize::MAX),
            precision: Some(usize::MAX),
            zero: true,
            ..Spec::default()
        };
        for value in [
            Value::Int { value: 300, bits: 8 },
            Value::Int { value: -1, bits: 0 },
            Value::Uint { value: u128::MAX, bits: 200 },
            Value::F64(1.0),
            Value::Str("x"),
        ] {
            for trait_ in ALL_TRAITS {
                let spec = Spec { trait_, ..huge.clone() };
                let text = format_value(&spec, value);
                // The Debug of a str ignores the width, as Rust's does.
                let padded = !matches!((value, trait_), (Value::Str(_), Trait::Debug));
                assert!(!padded || text.chars().count() >= MAX_COUNT, "{value:?} {trait_:?}");
                let spec = Spec { trait_, ..Spec::default() };
                assert!(!format_value(&spec, value).is_empty());
            }
        }
        // An i8 holding 300 shows the i8 with the same bits, as the kernel would hold it.
        let spec = Spec::default();
        assert_eq!(format_value(&spec, Value::Int { value: 300, bits: 8 }), "44");
        assert_eq!(format_value(&spec, Value::Int { value: 200, bits: 8 }), "-56");
        assert_eq!(format_value(&spec, Value::Uint { value: 256, bits: 8 }), "0");
        // Unsupported traits fall back to Display.
        let hex = Spec { trait_: Trait::LowerHex, ..Spec::default() };
        assert_eq!(format_value(&hex, Value::F32(1.5)), "1.5");
        assert_eq!(format_value(&hex, Value::Bool(true)), "true");
    }

    const ALL_TRAITS: [Trait; 8] = [
        Trait::Display,
        Trait::Debug,
        Trait::LowerHex,
        Trait::UpperHex,
        Trait::Octal,
        Trait::Binary,
        Trait::LowerExp,
        Trait::UpperExp,
    ];

    #[test]
    fn parse_reads_pieces_and_specs() {
        let pieces = parse("a{{b}}c{}d{0}{name}{:>5}{1:x}{n:#?}").unwrap();
        let spec = |f: &dyn Fn(&mut Spec)| {
            let mut s = Spec::default();
            f(&mut s);
            s
        };
        assert_eq!(
            pieces,
            vec![
                Piece::Text("a{b}c".into()),
                Piece::Arg { arg: ArgRef::Next, spec: Spec::default(), spec_text: "".into() },
                Piece::Text("d".into()),
                Piece::Arg { arg: ArgRef::Index(0), spec: Spec::default(), spec_text: "".into() },
                Piece::Arg {
                    arg: ArgRef::Name("name".into()),
                    spec: Spec::default(),
                    spec_text: "".into()
                },
                Piece::Arg {
                    arg: ArgRef::Next,
                    spec: spec(&|s| {
                        s.align = Some(Align::Right);
                        s.width = Some(5);
                    }),
                    spec_text: ">5".into()
                },
                Piece::Arg {
                    arg: ArgRef::Index(1),
                    spec: spec(&|s| s.trait_ = Trait::LowerHex),
                    spec_text: "x".into()
                },
                Piece::Arg {
                    arg: ArgRef::Name("n".into()),
                    spec: spec(&|s| {
                        s.alternate = true;
                        s.trait_ = Trait::Debug;
                    }),
                    spec_text: "#?".into()
                },
            ]
        );
        let full = parse("{:→^+#012.5e}").unwrap();
        assert_eq!(
            full,
            vec![Piece::Arg {
                arg: ArgRef::Next,
                spec: Spec {
                    fill: '→',
                    align: Some(Align::Center),
                    plus: true,
                    minus: false,
                    alternate: true,
                    zero: true,
                    width: Some(12),
                    precision: Some(5),
                    trait_: Trait::LowerExp,
                },
                spec_text: "→^+#012.5e".into(),
            }]
        );
        // `-` is a flag of its own; a `0` after an alignment with a fill is a width.
        let Piece::Arg { spec, .. } = &parse("{:-}").unwrap()[0] else { panic!() };
        assert!(spec.minus && !spec.plus);
        let Piece::Arg { spec, .. } = &parse("{:0<5}").unwrap()[0] else { panic!() };
        assert_eq!(
            (spec.fill, spec.align, spec.zero, spec.width),
            ('0', Some(Align::Left), false, Some(5))
        );
        // Whitespace before the closing brace is not part of the spec's text.
        let Piece::Arg { spec_text, .. } = &parse("{0:x \n}").unwrap()[0] else { panic!() };
        assert_eq!(spec_text, "x");
        // Text only, and nothing at all.
        assert_eq!(parse("plain é").unwrap(), vec![Piece::Text("plain é".into())]);
        assert_eq!(parse("").unwrap(), vec![]);
        assert_eq!(parse("{{}}").unwrap(), vec![Piece::Text("{}".into())]);
    }

    #[test]
    fn parse_accepts_what_rustc_accepts() {
        // rustc 1.95 accepts each of these (checked one by one with `format!`; `{65535}` only
        // as far as its parser goes, since no call has that many arguments).
        for fmt in [
            "{ }",
            "{0 }",
            "{: }",
            "{:x }",
            "{:.}",
            "{:.x}",
            "{:}>5}",
            "{:{<5}",
            "{:-}",
            "{:0}",
            "{:00}",
            "{:#0}",
            "{:65535}",
            "{:.65535}",
            "{_a}",
            "{:#?}",
            "{:<}",
            "{:*<}",
            "{:→^9}",
            "{:<<5}",
            "{::<5}",
            "{:0<5}",
            "{é}",
            "{0:}",
            "{:>}",
            "{: >}",
            "{:\t>5}",
            "{:\n}",
            "{\n}",
            "{0\n}",
            "{0 :x}",
            "{ :x}",
            "{:5 }",
            "{:5.}",
            "{:5.x}",
            "{:+#08.3e}",
            "{:x\u{3000}}",
            "{\u{3000}}",
            "{65535}",
            "{:-^+#0.0E}",
        ] {
            assert!(parse(fmt).is_ok(), "{fmt:?}: {:?}", parse(fmt));
        }
    }

    #[test]
    fn parse_refuses_with_the_offending_brace() {
        let refused = |fmt: &str, offset: usize, words: &str| {
            let e = parse(fmt).expect_err(fmt);
            assert_eq!(e.offset, offset, "{fmt:?}: {e}");
            assert!(e.message.contains(words), "{fmt:?}: {e}");
        };
        refused("}", 0, "unmatched `}`");
        refused("ab}", 2, "unmatched `}`");
        refused("é}", 2, "unmatched `}`");
        refused("{:>}}", 4, "unmatched `}`");
        refused("{:x}}", 4, "unmatched `}`");
        refused("{", 0, "terminated");
        refused("ab{", 2, "terminated");
        refused("{}{:", 2, "terminated");
        refused("{0", 0, "terminated");
        refused("{:5", 0, "terminated");
        refused("ok {} then {:x", 11, "terminated");
        refused("{ 0}", 0, "expected `}`, found `0`");
        refused("{ a}", 0, "expected `}`, found `a`");
        refused("{a b}", 0, "expected `}`, found `b`");
        refused("{0x}", 0, "expected `}`, found `x`");
        refused("{:+-}", 0, "expected `}`, found `-`");
        refused("{:0#}", 0, "expected `}`, found `#`");
        refused("{:5.3.2}", 0, "expected `}`, found `.`");
        refused("{:?#}", 0, "expected `}`, found `#`");
        refused("{:?x}", 0, "expected `}`, found `x`");
        refused("{:x ?}", 0, "expected `}`, found `?`");
        refused("{:e?}", 0, "expected `}`, found `?`");
        refused("{:{}", 0, "expected `}`, found `{`");
        refused("{:ee}", 0, "unknown format trait `ee`");
        refused("{:é}", 0, "unknown format trait `é`");
        refused("{:_}", 0, "unknown format trait `_`");
        refused("{_}", 0, "invalid argument name `_`");
        refused("{r#type}", 0, "raw identifiers");
        refused("{:70000}", 0, "`70000` does not fit");
        refused("{:.70000}", 0, "`70000` does not fit");
        refused("{99999999999999999999999}", 0, "does not fit");
        refused("{65536}", 0, "does not fit");
        // What kernels cannot do.
        for (fmt, what) in [
            ("{:1$}", "`1$`"),
            ("{:0$}", "`0$`"),
            ("{:>0$}", "`0$`"),
            ("{:00$}", "`0$`"),
            ("{:w$}", "`w$`"),
            ("{:.*}", "`.*`"),
            ("{:.1$}", "`.1$`"),
            ("{:.p$}", "`.p$`"),
            ("{:5.p$e}", "`.p$`"),
            ("{:x?}", "`x?`"),
            ("{:#X?}", "`X?`"),
            ("{:08x?}", "`x?`"),
            ("{:p}", "pointers"),
        ] {
            refused(fmt, 0, what);
            let e = parse(fmt).unwrap_err();
            assert!(e.message.contains("kernels"), "{fmt:?}: {e}");
        }
        refused("ab{:.*}", 2, "not supported in kernels");
    }

    #[test]
    fn normalised_formats_parse_back_to_the_same_specs() {
        // The compiler writes every argument back as `{k:spec_text}`; that must read as the
        // same spec for every spec `parse` accepts.
        for fmt in [
            "{:→^+#012.5e}",
            "{:}>5}",
            "{:{<5}",
            "{: >4}",
            "{:-}",
            "{:0<5}",
            "{:.}",
            "{:5.x}",
            "{:x }",
            "{:\t>5?}",
            "{::<3b}",
            "{:0}",
            "{:00}",
        ] {
            let Piece::Arg { spec, spec_text, .. } = &parse(fmt).unwrap()[0] else { panic!() };
            let again = format!("{{0:{spec_text}}}");
            let Piece::Arg { spec: spec2, arg, .. } = &parse(&again).unwrap()[0] else { panic!() };
            assert_eq!((spec, &ArgRef::Index(0)), (spec2, arg), "{fmt:?} as {again:?}");
        }
    }

    #[test]
    fn kinds_have_names_and_words() {
        for kind in KINDS {
            assert_eq!(ValueKind::parse(&kind.name()), Some(kind));
        }
        let names: Vec<String> = KINDS.iter().map(|k| k.name()).collect();
        assert_eq!(
            names.join(" "),
            "u8 u16 u32 u64 u128 i8 i16 i32 i64 i128 f16 bf16 f32 f64 bool char"
        );
        for bad in ["", "usize", "isize", "u7", "F32", "f128", "i256", " u8", "str"] {
            assert_eq!(ValueKind::parse(bad), None, "{bad:?}");
        }
        assert_eq!(ValueKind::Int { bits: 128, signed: true }.words(), 2);
        assert_eq!(ValueKind::Int { bits: 128, signed: false }.words(), 2);
        assert_eq!(ValueKind::Int { bits: 64, signed: false }.words(), 1);
        assert_eq!(ValueKind::Char.words(), 1);
        assert_eq!(ValueKind::F64.words(), 1);
    }

    #[test]
    fn supports_follows_rust() {
        let int = ValueKind::Int { bits: 32, signed: true };
        for t in ALL_TRAITS {
            assert!(supports(t, int), "{t:?}");
            // `half` implements every trait for f16 and bf16 (the `check!` cases above
            // compile them all).
            assert!(supports(t, ValueKind::F16) && supports(t, ValueKind::Bf16), "{t:?}");
            let float =
                matches!(t, Trait::Display | Trait::Debug | Trait::LowerExp | Trait::UpperExp);
            assert_eq!(supports(t, ValueKind::F32), float, "{t:?}");
            assert_eq!(supports(t, ValueKind::F64), float, "{t:?}");
            let text = matches!(t, Trait::Display | Trait::Debug);
            assert_eq!(supports(t, ValueKind::Bool), text, "{t:?}");
            assert_eq!(supports(t, ValueKind::Char), text, "{t:?}");
        }
    }

    #[test]
    fn decode_reads_low_bits() {
        let int = |bits, signed| ValueKind::Int { bits, signed };
        assert_eq!(decode(int(8, true), &[0xff]), Some(Value::Int { value: -1, bits: 8 }));
        assert_eq!(decode(int(8, true), &[0x1_80]), Some(Value::Int { value: -128, bits: 8 }));
        assert_eq!(decode(int(8, false), &[0xffff]), Some(Value::Uint { value: 255, bits: 8 }));
        assert_eq!(decode(int(16, true), &[0x8000]), Some(Value::Int { value: -32768, bits: 16 }));
        assert_eq!(
            decode(int(32, true), &[0x1234_5678_ffff_fffb]),
            Some(Value::Int { value: -5, bits: 32 })
        );
        assert_eq!(
            decode(int(32, false), &[0xffff_ffff_ffff_ffff]),
            Some(Value::Uint { value: u128::from(u32::MAX), bits: 32 })
        );
        assert_eq!(decode(int(64, true), &[u64::MAX]), Some(Value::Int { value: -1, bits: 64 }));
        assert_eq!(
            decode(int(64, false), &[u64::MAX, 7]),
            Some(Value::Uint { value: u128::from(u64::MAX), bits: 64 })
        );
        let wide = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210u128;
        let halves = [wide as u64, (wide >> 64) as u64];
        assert_eq!(decode(int(128, false), &halves), Some(Value::Uint { value: wide, bits: 128 }));
        assert_eq!(
            decode(int(128, true), &[0, 1 << 63]),
            Some(Value::Int { value: i128::MIN, bits: 128 })
        );
        assert_eq!(decode(int(128, true), &[5]), None);
        assert_eq!(decode(ValueKind::F32, &[0xdead_0000_3fc0_0000]), Some(Value::F32(1.5)));
        assert_eq!(decode(ValueKind::F64, &[(-2.5f64).to_bits()]), Some(Value::F64(-2.5)));
        assert_eq!(decode(ValueKind::F16, &[0xffff_3c00]), Some(Value::F16(0x3c00)));
        assert_eq!(decode(ValueKind::Bf16, &[0x1_3f80]), Some(Value::Bf16(0x3f80)));
        assert_eq!(decode(ValueKind::Bool, &[0]), Some(Value::Bool(false)));
        assert_eq!(decode(ValueKind::Bool, &[2]), Some(Value::Bool(true)));
        assert_eq!(decode(ValueKind::Char, &['é' as u64]), Some(Value::Char('é')));
        assert_eq!(decode(ValueKind::Char, &[0xd800]), Some(Value::Char('\u{fffd}')));
        assert_eq!(decode(ValueKind::Char, &[0x11_0000]), Some(Value::Char('\u{fffd}')));
        assert_eq!(decode(ValueKind::Char, &[0x1_0000_0041]), Some(Value::Char('A')));
        for kind in KINDS {
            assert_eq!(decode(kind, &[]), None, "{kind:?}");
        }
        // NaN compares unequal to itself, so check its bits.
        let Some(Value::F32(nan)) = decode(ValueKind::F32, &[0x7fc0_0001]) else { panic!() };
        assert_eq!(nan.to_bits(), 0x7fc0_0001);
    }

    #[test]
    fn render_shows_a_record() {
        let kinds = [
            ValueKind::Int { bits: 32, signed: true },
            ValueKind::Char,
            ValueKind::Int { bits: 128, signed: false },
            ValueKind::F64,
            ValueKind::Bool,
            ValueKind::F16,
            ValueKind::Int { bits: 128, signed: true },
            ValueKind::Int { bits: 8, signed: false },
        ];
        let wide = 0xfedc_ba98_7654_3210_0123_4567_89ab_cdefu128;
        let words = [
            0xffff_ffff_ffff_fffb,
            'é' as u64,
            wide as u64,
            (wide >> 64) as u64,
            2.345f64.to_bits(),
            1,
            0x3c00,
            u64::MAX,
            u64::MAX,
            0x1ff,
        ];
        let got = render(
            "x={0} c={1:?}{1} w={2:#x} f={3:.2} b={4:>6} h={5:?} n={6} {0:+05} u={7:#b}{{}}\n",
            &kinds,
            &words,
        );
        let expected = format!(
            "x={} c={:?}{} w={:#x} f={:.2} b={:>6} h={:?} n={} {:+05} u={:#b}{{}}\n",
            -5i32,
            'é',
            'é',
            wide,
            2.345f64,
            true,
            f16::ONE,
            -1i128,
            -5i32,
            255u8
        );
        assert_eq!(got, Ok(expected));
        // Words beyond the values are ignored; a format without arguments needs none.
        assert_eq!(render("{0}", &[ValueKind::Bool], &[1, 2, 3]), Ok("true".into()));
        assert_eq!(render("done", &[], &[]), Ok("done".into()));
    }

    #[test]
    fn render_refuses_what_it_cannot_show() {
        let i32k = ValueKind::Int { bits: 32, signed: true };
        let u128k = ValueKind::Int { bits: 128, signed: false };
        let refused = |format: &str, kinds: &[ValueKind], words: &[u64]| {
            let e = render(format, kinds, words).expect_err(format);
            assert!(!e.is_empty());
        };
        refused("{0}", &[i32k], &[]);
        refused("{0}", &[u128k], &[1]);
        refused("{0}{1}", &[i32k, u128k], &[1, 2]);
        refused("{1}", &[i32k], &[1]);
        refused("{}", &[i32k], &[1]);
        refused("{x}", &[i32k], &[1]);
        refused("{0:x}", &[ValueKind::F32], &[1]);
        refused("{0:e}", &[ValueKind::Bool], &[1]);
        refused("{0", &[i32k], &[1]);
        refused("}", &[], &[]);
        refused("{0:.*}", &[i32k, i32k], &[1, 2]);
    }

    #[test]
    fn nothing_panics_on_garbage() {
        // A fixed pseudo-random stream of format strings built from the characters the
        // grammar cares about, each parsed and rendered against arbitrary kinds and words.
        const PARTS: [&str; 34] = [
            "{", "}", ":", "0", "1", "$", ".", "*", "#", "+", "-", "<", "^", ">", "x", "X", "?",
            "e", "E", "o", "b", "p", "é", "→", " ", "a", "_", "r#", "65535", "70000", "\n", "{0",
            "{1:", "\u{3000}",
        ];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut parsed = 0;
        for _ in 0..20_000 {
            let len = next() % 10;
            let fmt: String =
                (0..len).map(|_| PARTS[(next() % PARTS.len() as u64) as usize]).collect();
            let kinds: Vec<ValueKind> =
                (0..next() % 4).map(|_| KINDS[(next() % KINDS.len() as u64) as usize]).collect();
            let words: Vec<u64> = (0..next() % 6).map(|_| next()).collect();
            let _ = render(&fmt, &kinds, &words);
            match parse(&fmt) {
                Ok(pieces) => {
                    parsed += 1;
                    for piece in &pieces {
                        if let Piece::Arg { spec, .. } = piece {
                            for kind in KINDS {
                                let value = decode(kind, &[next(), next()]).unwrap();
                                let _ = format_value(spec, value);
                            }
                            let _ = format_value(spec, Value::Str("é→x"));
                        }
                    }
                }
                Err(e) => {
                    // The offset points at the brace the error is about.
                    let at = fmt.get(e.offset..).unwrap_or("");
                    assert!(at.starts_with(['{', '}']), "{fmt:?}: {e}");
                }
            }
        }
        assert!(parsed > 1000, "only {parsed} formats parsed");
    }
}
