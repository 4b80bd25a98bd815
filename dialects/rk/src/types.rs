//! The types of rk values: Rust's own primitive, pointer and array types.

use std::fmt;

/// An integer type, with Rust's width and signedness. `isize`/`usize` are 64 bits on every
/// target rkc supports (nvptx64, amdgcn, and the 64-bit hosts the simulator runs on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IntTy {
    I8,
    I16,
    I32,
    I64,
    I128,
    Isize,
    U8,
    U16,
    U32,
    U64,
    U128,
    Usize,
}

impl IntTy {
    pub const ALL: [IntTy; 12] = [
        IntTy::I8,
        IntTy::I16,
        IntTy::I32,
        IntTy::I64,
        IntTy::I128,
        IntTy::Isize,
        IntTy::U8,
        IntTy::U16,
        IntTy::U32,
        IntTy::U64,
        IntTy::U128,
        IntTy::Usize,
    ];

    pub fn bits(self) -> u32 {
        match self {
            IntTy::I8 | IntTy::U8 => 8,
            IntTy::I16 | IntTy::U16 => 16,
            IntTy::I32 | IntTy::U32 => 32,
            IntTy::I64 | IntTy::U64 | IntTy::Isize | IntTy::Usize => 64,
            IntTy::I128 | IntTy::U128 => 128,
        }
    }

    /// The unsigned type of the same width (`i32` → `u32`); an unsigned type itself.
    pub fn unsigned(self) -> IntTy {
        match self {
            IntTy::I8 => IntTy::U8,
            IntTy::I16 => IntTy::U16,
            IntTy::I32 => IntTy::U32,
            IntTy::I64 => IntTy::U64,
            IntTy::I128 => IntTy::U128,
            IntTy::Isize => IntTy::Usize,
            t => t,
        }
    }

    pub fn is_signed(self) -> bool {
        matches!(
            self,
            IntTy::I8 | IntTy::I16 | IntTy::I32 | IntTy::I64 | IntTy::I128 | IntTy::Isize
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            IntTy::I8 => "i8",
            IntTy::I16 => "i16",
            IntTy::I32 => "i32",
            IntTy::I64 => "i64",
            IntTy::I128 => "i128",
            IntTy::Isize => "isize",
            IntTy::U8 => "u8",
            IntTy::U16 => "u16",
            IntTy::U32 => "u32",
            IntTy::U64 => "u64",
            IntTy::U128 => "u128",
            IntTy::Usize => "usize",
        }
    }

    pub fn from_name(name: &str) -> Option<IntTy> {
        IntTy::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The smallest and largest value of the type: the smallest as an i128 and the largest as
    /// a u128, which hold those of every Rust integer type, `i128` and `u128` included.
    pub fn range(self) -> (i128, u128) {
        let bits = self.bits();
        if self.is_signed() {
            (i128::MIN >> (128 - bits), u128::MAX >> (129 - bits))
        } else {
            (0, u128::MAX >> (128 - bits))
        }
    }

    /// Whether a mathematical integer, given as its magnitude and sign, is a value of the type.
    pub fn contains(self, magnitude: u128, negative: bool) -> bool {
        let (lo, hi) = self.range();
        if negative { magnitude <= lo.unsigned_abs() } else { magnitude <= hi }
    }
}

/// A floating-point type. `f16` is IEEE 754 binary16 and `bf16` is bfloat16 (the `half`
/// crate's types on the host); their arithmetic is IEEE's, each operation rounded to nearest
/// with ties to even, as on the GPU and as `half` computes it on the host.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FloatTy {
    F16,
    Bf16,
    F32,
    F64,
}

impl FloatTy {
    pub fn bits(self) -> u32 {
        match self {
            FloatTy::F16 | FloatTy::Bf16 => 16,
            FloatTy::F32 => 32,
            FloatTy::F64 => 64,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            FloatTy::F16 => "f16",
            FloatTy::Bf16 => "bf16",
            FloatTy::F32 => "f32",
            FloatTy::F64 => "f64",
        }
    }

    /// Whether this is one of the 16-bit storage-and-arithmetic types, which have no library
    /// functions of their own (only conversions, arithmetic and comparisons).
    pub fn is_half(self) -> bool {
        self.bits() == 16
    }

    /// The bits of `x` rounded to this type (to nearest, ties to even). Literals are kept
    /// as `f64`, which holds every value of every float type exactly.
    pub fn bits_of(self, x: f64) -> u128 {
        match self {
            FloatTy::F16 => u128::from(half::f16::from_f32(round_to_odd_f32(x)).to_bits()),
            FloatTy::Bf16 => u128::from(half::bf16::from_f32(round_to_odd_f32(x)).to_bits()),
            FloatTy::F32 => u128::from((x as f32).to_bits()),
            FloatTy::F64 => u128::from(x.to_bits()),
        }
    }

    /// The value of a bit pattern of this type, exactly.
    pub fn value_of(self, bits: u128) -> f64 {
        match self {
            FloatTy::F16 => half::f16::from_bits(bits as u16).to_f64(),
            FloatTy::Bf16 => half::bf16::from_bits(bits as u16).to_f64(),
            FloatTy::F32 => f64::from(f32::from_bits(bits as u32)),
            FloatTy::F64 => f64::from_bits(bits as u64),
        }
    }

    /// Whether `x` is a value of this type (NaN counts: it is one in every float type).
    pub fn holds(self, x: f64) -> bool {
        x.is_nan() || self.value_of(self.bits_of(x)) == x
    }
}

/// `x` rounded to f32 toward zero, with the lowest significand bit set when that was
/// inexact ("round to odd"). Rounding this once more, to nearest, into a type with at most
/// 22 significand bits gives exactly the nearest-rounding of `x` itself: the sticky bit keeps
/// a value that was not a tie from looking like one. (`half`'s own `from_f64` does not round
/// `x` once: it either truncates `x` to 52 - 32 significand bits first or, on x86 with F16C,
/// rounds through f32 to nearest; the device core reproduces what the host crate does, and
/// this conversion is rk's exact `as`.)
fn round_to_odd_f32(x: f64) -> f32 {
    if x.is_nan() {
        return x as f32;
    }
    let mut r = x as f32;
    if f64::from(r).abs() > x.abs() {
        // Rounded away from zero (possibly to infinity): one step back toward zero.
        r = f32::from_bits(r.to_bits() - 1);
    }
    if f64::from(r) != x {
        r = f32::from_bits(r.to_bits() | 1);
    }
    r
}

/// The type of an rk value. Spelled exactly as Rust spells it, so that the kernel metadata,
/// the host macro and the diagnostics all agree on one text.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    Unit,
    Bool,
    Int(IntTy),
    Float(FloatTy),
    /// `*const T` or `*mut T`, pointing into the device's global memory.
    Ptr {
        mutable: bool,
        pointee: Box<Type>,
    },
    /// `[T; N]`, reached through pointers.
    Array {
        elem: Box<Type>,
        len: u64,
    },
    /// A function-local, mutable storage slot holding a `T` (a `let mut` variable). Slots are
    /// an IR notion: they never appear in a kernel's signature.
    Slot(Box<Type>),
    /// `&[T]` or `&mut [T]`: a parameter only, passed to the device as a pointer and a length.
    Slice {
        mutable: bool,
        elem: Box<Type>,
    },
    /// A `#[repr(C)]` struct (`name` and its fields in order) or, with an empty name, a tuple
    /// (fields `0`, `1`, ...). Laid out as C lays out a struct: each field at the next
    /// multiple of its alignment, the size a multiple of the largest alignment. Like arrays,
    /// structs live in memory (locals and pointees), never in SSA values.
    Struct {
        name: String,
        fields: Vec<(String, Type)>,
    },
}

impl Type {
    pub const USIZE: Type = Type::Int(IntTy::Usize);
    pub const U32: Type = Type::Int(IntTy::U32);
    pub const F32: Type = Type::Float(FloatTy::F32);
    pub const I32: Type = Type::Int(IntTy::I32);

    pub fn ptr(mutable: bool, pointee: Type) -> Type {
        Type::Ptr { mutable, pointee: Box::new(pointee) }
    }

    pub fn is_int(&self) -> bool {
        matches!(self, Type::Int(_))
    }

    pub fn is_float(&self) -> bool {
        matches!(self, Type::Float(_))
    }

    pub fn is_numeric(&self) -> bool {
        self.is_int() || self.is_float()
    }

    pub fn is_scalar(&self) -> bool {
        matches!(self, Type::Bool | Type::Int(_) | Type::Float(_))
    }

    /// Whether values of the type are loaded and stored whole: scalars and pointers.
    pub fn is_loadable(&self) -> bool {
        self.is_scalar() || matches!(self, Type::Ptr { .. })
    }

    pub fn slot(content: Type) -> Type {
        Type::Slot(Box::new(content))
    }

    pub fn pointee(&self) -> Option<&Type> {
        match self {
            Type::Ptr { pointee, .. } => Some(pointee),
            _ => None,
        }
    }

    /// Whether values of the type can sit in memory that kernels read and write: scalars,
    /// and arrays and structs of them.
    pub fn is_storable(&self) -> bool {
        match self {
            Type::Bool | Type::Int(_) | Type::Float(_) | Type::Ptr { .. } => true,
            Type::Array { elem, .. } => elem.is_storable(),
            Type::Struct { fields, .. } => {
                !fields.is_empty() && fields.iter().all(|(_, t)| t.is_storable())
            }
            _ => false,
        }
    }

    /// The type in the rk text, which spells out each struct's fields so that the text
    /// stands alone (`Vec3{x: f32, y: f32, z: f32}`); `Display` spells a struct by its name,
    /// as Rust source and diagnostics do.
    pub fn ir(&self) -> IrType<'_> {
        IrType(self)
    }

    /// A tuple type of these elements.
    pub fn tuple(elems: Vec<Type>) -> Type {
        Type::Struct {
            name: String::new(),
            fields: elems.into_iter().enumerate().map(|(k, t)| (k.to_string(), t)).collect(),
        }
    }

    /// `align_of::<T>()` on every rkc target (and on the 64-bit host).
    pub fn align_of(&self) -> u64 {
        match self {
            Type::Unit | Type::Bool => 1,
            Type::Int(_) | Type::Float(_) => self.size_of(),
            Type::Ptr { .. } | Type::Slice { .. } => 8,
            Type::Array { elem, .. } => elem.align_of(),
            Type::Slot(t) => t.align_of(),
            Type::Struct { fields, .. } => {
                fields.iter().map(|(_, t)| t.align_of()).max().unwrap_or(1)
            }
        }
    }

    /// The byte offset of field `k` of a struct (C's layout).
    pub fn field_offset(&self, k: usize) -> Option<u64> {
        let Type::Struct { fields, .. } = self else { return None };
        let mut offset = 0u64;
        for (i, (_, t)) in fields.iter().enumerate() {
            let align = t.align_of();
            offset = offset.div_ceil(align).saturating_mul(align);
            if i == k {
                return Some(offset);
            }
            offset = offset.saturating_add(t.size_of());
        }
        None
    }

    /// `size_of::<T>()` on every rkc target (and on the 64-bit host).
    pub fn size_of(&self) -> u64 {
        match self {
            Type::Struct { fields, .. } => {
                let Some(last) = fields.len().checked_sub(1) else { return 0 };
                let end =
                    self.field_offset(last).unwrap_or(0).saturating_add(fields[last].1.size_of());
                let align = self.align_of();
                end.div_ceil(align).saturating_mul(align)
            }
            Type::Unit => 0,
            Type::Bool => 1,
            Type::Int(t) => u64::from(t.bits() / 8),
            Type::Float(t) => u64::from(t.bits() / 8),
            Type::Ptr { .. } => 8,
            Type::Array { elem, len } => elem.size_of().saturating_mul(*len),
            Type::Slot(t) => t.size_of(),
            Type::Slice { .. } => 16,
        }
    }
}

/// A type as the rk text spells it (see [`Type::ir`]).
pub struct IrType<'a>(&'a Type);

impl fmt::Display for IrType<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.spell(f, true)
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.spell(f, false)
    }
}

impl Type {
    /// Writes the type as Rust spells it; with `fields`, each struct with its fields.
    fn spell(&self, f: &mut fmt::Formatter<'_>, fields: bool) -> fmt::Result {
        match self {
            Type::Unit => f.write_str("()"),
            Type::Bool => f.write_str("bool"),
            Type::Int(t) => f.write_str(t.name()),
            Type::Float(t) => f.write_str(t.name()),
            Type::Ptr { mutable, pointee } => {
                write!(f, "*{} ", if *mutable { "mut" } else { "const" })?;
                pointee.spell(f, fields)
            }
            Type::Array { elem, len } => {
                f.write_str("[")?;
                elem.spell(f, fields)?;
                write!(f, "; {len}]")
            }
            Type::Slot(t) => {
                f.write_str("slot<")?;
                t.spell(f, fields)?;
                f.write_str(">")
            }
            Type::Slice { mutable, elem } => {
                write!(f, "&{}[", if *mutable { "mut " } else { "" })?;
                elem.spell(f, fields)?;
                f.write_str("]")
            }
            Type::Struct { name, fields: fs } if name.is_empty() => {
                f.write_str("(")?;
                for (k, (_, t)) in fs.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    t.spell(f, fields)?;
                }
                f.write_str(if fs.len() == 1 { ",)" } else { ")" })
            }
            Type::Struct { name, .. } if !fields => f.write_str(name),
            Type::Struct { name, fields: fs } => {
                write!(f, "{name}{{")?;
                for (k, (n, t)) in fs.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{n}: ")?;
                    t.spell(f, fields)?;
                }
                f.write_str("}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spells_types_as_rust_does() {
        let t =
            Type::ptr(true, Type::Array { elem: Box::new(Type::Float(FloatTy::F64)), len: 256 });
        assert_eq!(t.to_string(), "*mut [f64; 256]");
        assert_eq!(t.pointee().unwrap().size_of(), 2048);
        assert_eq!(Type::ptr(false, Type::U32).to_string(), "*const u32");
    }

    #[test]
    fn lays_out_structs_as_c_does() {
        let s = Type::Struct {
            name: "S".into(),
            fields: vec![
                ("a".into(), Type::Int(IntTy::U8)),
                ("b".into(), Type::Float(FloatTy::F64)),
                ("c".into(), Type::Int(IntTy::U16)),
            ],
        };
        assert_eq!(
            (s.field_offset(0), s.field_offset(1), s.field_offset(2)),
            (Some(0), Some(8), Some(16))
        );
        assert_eq!((s.size_of(), s.align_of()), (24, 8));
        assert_eq!(s.to_string(), "S");
        assert_eq!(Type::ptr(true, s.clone()).ir().to_string(), "*mut S{a: u8, b: f64, c: u16}");
        let t = Type::tuple(vec![Type::U32, Type::Bool]);
        assert_eq!((t.to_string(), t.size_of()), ("(u32, bool)".to_string(), 8));
    }

    #[test]
    fn integer_ranges() {
        assert_eq!(IntTy::I8.range(), (-128, 127));
        assert_eq!(IntTy::U64.range(), (0, u128::from(u64::MAX)));
        assert_eq!(IntTy::I128.range(), (i128::MIN, i128::MAX as u128));
        assert_eq!(IntTy::U128.range(), (0, u128::MAX));
        assert!(IntTy::I8.contains(128, true) && !IntTy::I8.contains(128, false));
        assert_eq!(IntTy::from_name("usize"), Some(IntTy::Usize));
        assert_eq!(IntTy::from_name("u128"), Some(IntTy::U128));
        assert_eq!(IntTy::from_name("u256"), None);
    }
}
