//! `format`'s tests: every case against `format!` itself (and the `half` crate).
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
        let float = matches!(t, Trait::Display | Trait::Debug | Trait::LowerExp | Trait::UpperExp);
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
        "{", "}", ":", "0", "1", "$", ".", "*", "#", "+", "-", "<", "^", ">", "x", "X", "?", "e",
        "E", "o", "b", "p", "é", "→", " ", "a", "_", "r#", "65535", "70000", "\n", "{0", "{1:",
        "\u{3000}",
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
        let fmt: String = (0..len).map(|_| PARTS[(next() % PARTS.len() as u64) as usize]).collect();
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
