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
mod tests;
