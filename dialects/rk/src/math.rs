//! The functions of `rk.math`: the methods of Rust's primitive types that kernels call, each
//! with Rust's semantics (the interpreter runs Rust's own methods).

use crate::types::Type;

/// A function of `rk.math`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathFn {
    // Float → float, one operand.
    Sqrt,
    Exp,
    Exp2,
    Ln,
    Log2,
    Log10,
    Sin,
    Cos,
    Tan,
    Tanh,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Asinh,
    Acosh,
    Atanh,
    Cbrt,
    ExpM1,
    Ln1p,
    Floor,
    Ceil,
    Round,
    RoundTiesEven,
    Trunc,
    Abs,
    // Float, two operands.
    Powf,
    Hypot,
    Atan2,
    Copysign,
    // `f.min(g)`/`f.max(g)` (NaN-ignoring) and the integer min/max.
    Min,
    Max,
    // Float, three operands: `a.mul_add(b, c)`, fused.
    MulAdd,
    // Integer → integer.
    WrappingAbs,
    SaturatingAdd,
    SaturatingSub,
    RotateLeft,
    RotateRight,
    // Integer → u32.
    CountOnes,
    LeadingZeros,
    TrailingZeros,
    // Reinterpretation: `f32::to_bits` and `f32::from_bits` (and f64).
    ToBits,
    FromBits,
}

impl MathFn {
    pub const ALL: [MathFn; 44] = [
        MathFn::Sqrt,
        MathFn::Exp,
        MathFn::Exp2,
        MathFn::Ln,
        MathFn::Log2,
        MathFn::Log10,
        MathFn::Sin,
        MathFn::Cos,
        MathFn::Tan,
        MathFn::Tanh,
        MathFn::Asin,
        MathFn::Acos,
        MathFn::Atan,
        MathFn::Sinh,
        MathFn::Cosh,
        MathFn::Asinh,
        MathFn::Acosh,
        MathFn::Atanh,
        MathFn::Cbrt,
        MathFn::ExpM1,
        MathFn::Ln1p,
        MathFn::Floor,
        MathFn::Ceil,
        MathFn::Round,
        MathFn::RoundTiesEven,
        MathFn::Trunc,
        MathFn::Abs,
        MathFn::Powf,
        MathFn::Hypot,
        MathFn::Atan2,
        MathFn::Copysign,
        MathFn::Min,
        MathFn::Max,
        MathFn::MulAdd,
        MathFn::WrappingAbs,
        MathFn::SaturatingAdd,
        MathFn::SaturatingSub,
        MathFn::RotateLeft,
        MathFn::RotateRight,
        MathFn::CountOnes,
        MathFn::LeadingZeros,
        MathFn::TrailingZeros,
        MathFn::ToBits,
        MathFn::FromBits,
    ];

    /// The name in rk's text, which is also the Rust method's name.
    pub fn name(self) -> &'static str {
        match self {
            MathFn::Sqrt => "sqrt",
            MathFn::Exp => "exp",
            MathFn::Exp2 => "exp2",
            MathFn::Ln => "ln",
            MathFn::Log2 => "log2",
            MathFn::Log10 => "log10",
            MathFn::Sin => "sin",
            MathFn::Cos => "cos",
            MathFn::Tan => "tan",
            MathFn::Tanh => "tanh",
            MathFn::Asin => "asin",
            MathFn::Acos => "acos",
            MathFn::Atan => "atan",
            MathFn::Sinh => "sinh",
            MathFn::Cosh => "cosh",
            MathFn::Asinh => "asinh",
            MathFn::Acosh => "acosh",
            MathFn::Atanh => "atanh",
            MathFn::Cbrt => "cbrt",
            MathFn::ExpM1 => "exp_m1",
            MathFn::Ln1p => "ln_1p",
            MathFn::Floor => "floor",
            MathFn::Ceil => "ceil",
            MathFn::Round => "round",
            MathFn::RoundTiesEven => "round_ties_even",
            MathFn::Trunc => "trunc",
            MathFn::Abs => "abs",
            MathFn::Powf => "powf",
            MathFn::Hypot => "hypot",
            MathFn::Atan2 => "atan2",
            MathFn::Copysign => "copysign",
            MathFn::Min => "min",
            MathFn::Max => "max",
            MathFn::MulAdd => "mul_add",
            MathFn::WrappingAbs => "wrapping_abs",
            MathFn::SaturatingAdd => "saturating_add",
            MathFn::SaturatingSub => "saturating_sub",
            MathFn::RotateLeft => "rotate_left",
            MathFn::RotateRight => "rotate_right",
            MathFn::CountOnes => "count_ones",
            MathFn::LeadingZeros => "leading_zeros",
            MathFn::TrailingZeros => "trailing_zeros",
            MathFn::ToBits => "to_bits",
            MathFn::FromBits => "from_bits",
        }
    }

    pub fn from_name(name: &str) -> Option<MathFn> {
        MathFn::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The result type for these operand types, or `None` when the typing rule is broken.
    ///
    /// Float functions take and give one float type. `min`/`max` also take two integers of one
    /// type. `wrapping_abs` needs a signed integer; `saturating_*` two integers of one type;
    /// `rotate_*` an integer and a `u32`; the bit counts an integer, giving `u32`. `to_bits`
    /// takes a float to the unsigned integer of its width; `from_bits` the other way (the result type decides).
    pub fn result_type(self, operands: &[&Type], result: &Type) -> Option<Type> {
        use MathFn::*;
        let all_same = |n: usize| operands.len() == n && operands.iter().all(|t| *t == operands[0]);
        // The 16-bit floats have no functions of their own (the `half` crate computes them in
        // f32, and so does the device core).
        let float = |t: &Type| matches!(t, Type::Float(f) if !f.is_half());
        match self {
            Sqrt | Exp | Exp2 | Ln | Log2 | Log10 | Sin | Cos | Tan | Tanh | Asin | Acos | Atan
            | Sinh | Cosh | Asinh | Acosh | Atanh | Cbrt | ExpM1 | Ln1p | Floor | Ceil | Round
            | RoundTiesEven | Trunc | Abs => {
                (all_same(1) && float(operands[0])).then(|| operands[0].clone())
            }
            Powf | Hypot | Atan2 | Copysign => {
                (all_same(2) && float(operands[0])).then(|| operands[0].clone())
            }
            Min | Max => (all_same(2) && (operands[0].is_int() || float(operands[0])))
                .then(|| operands[0].clone()),
            MulAdd => (all_same(3) && float(operands[0])).then(|| operands[0].clone()),
            WrappingAbs => (all_same(1) && matches!(operands[0], Type::Int(t) if t.is_signed()))
                .then(|| operands[0].clone()),
            SaturatingAdd | SaturatingSub => {
                (all_same(2) && operands[0].is_int()).then(|| operands[0].clone())
            }
            RotateLeft | RotateRight => {
                (operands.len() == 2 && operands[0].is_int() && *operands[1] == Type::U32)
                    .then(|| operands[0].clone())
            }
            CountOnes | LeadingZeros | TrailingZeros => {
                (all_same(1) && operands[0].is_int()).then_some(Type::U32)
            }
            ToBits | FromBits => {
                let (from, to) = (operands.first()?, result);
                let ok = operands.len() == 1
                    && from.size_of() == to.size_of()
                    && if self == ToBits {
                        from.is_float() && to.is_int()
                    } else {
                        from.is_int() && to.is_float()
                    };
                ok.then(|| to.clone())
            }
        }
    }
}
