//! Operator traits, the function traits, `Deref`, `Index`, and the range types.

use crate::option::Option::{self, None, Some};

#[lang = "Add"]
pub trait Add<Rhs = Self> {
    type Output;
    fn add(self, rhs: Rhs) -> Self::Output;
}

#[lang = "AddAssign"]
pub trait AddAssign<Rhs = Self> {
    fn add_assign(&mut self, rhs: Rhs);
}

#[lang = "Sub"]
pub trait Sub<Rhs = Self> {
    type Output;
    fn sub(self, rhs: Rhs) -> Self::Output;
}

#[lang = "SubAssign"]
pub trait SubAssign<Rhs = Self> {
    fn sub_assign(&mut self, rhs: Rhs);
}

#[lang = "Mul"]
pub trait Mul<Rhs = Self> {
    type Output;
    fn mul(self, rhs: Rhs) -> Self::Output;
}

#[lang = "MulAssign"]
pub trait MulAssign<Rhs = Self> {
    fn mul_assign(&mut self, rhs: Rhs);
}

#[lang = "Div"]
pub trait Div<Rhs = Self> {
    type Output;
    fn div(self, rhs: Rhs) -> Self::Output;
}

#[lang = "DivAssign"]
pub trait DivAssign<Rhs = Self> {
    fn div_assign(&mut self, rhs: Rhs);
}

#[lang = "Rem"]
pub trait Rem<Rhs = Self> {
    type Output;
    fn rem(self, rhs: Rhs) -> Self::Output;
}

#[lang = "RemAssign"]
pub trait RemAssign<Rhs = Self> {
    fn rem_assign(&mut self, rhs: Rhs);
}

#[lang = "BitAnd"]
pub trait BitAnd<Rhs = Self> {
    type Output;
    fn bitand(self, rhs: Rhs) -> Self::Output;
}

#[lang = "BitAndAssign"]
pub trait BitAndAssign<Rhs = Self> {
    fn bitand_assign(&mut self, rhs: Rhs);
}

#[lang = "BitOr"]
pub trait BitOr<Rhs = Self> {
    type Output;
    fn bitor(self, rhs: Rhs) -> Self::Output;
}

#[lang = "BitOrAssign"]
pub trait BitOrAssign<Rhs = Self> {
    fn bitor_assign(&mut self, rhs: Rhs);
}

#[lang = "BitXor"]
pub trait BitXor<Rhs = Self> {
    type Output;
    fn bitxor(self, rhs: Rhs) -> Self::Output;
}

#[lang = "BitXorAssign"]
pub trait BitXorAssign<Rhs = Self> {
    fn bitxor_assign(&mut self, rhs: Rhs);
}

#[lang = "Shl"]
pub trait Shl<Rhs = Self> {
    type Output;
    fn shl(self, rhs: Rhs) -> Self::Output;
}

#[lang = "ShlAssign"]
pub trait ShlAssign<Rhs = Self> {
    fn shl_assign(&mut self, rhs: Rhs);
}

#[lang = "Shr"]
pub trait Shr<Rhs = Self> {
    type Output;
    fn shr(self, rhs: Rhs) -> Self::Output;
}

#[lang = "ShrAssign"]
pub trait ShrAssign<Rhs = Self> {
    fn shr_assign(&mut self, rhs: Rhs);
}

#[lang = "Neg"]
pub trait Neg {
    type Output;
    fn neg(self) -> Self::Output;
}

#[lang = "Not"]
pub trait Not {
    type Output;
    fn not(self) -> Self::Output;
}

#[lang = "Index"]
pub trait Index<Idx> {
    type Output;
    fn index(&self, index: Idx) -> &Self::Output;
}

#[lang = "IndexMut"]
pub trait IndexMut<Idx>: Index<Idx> {
    fn index_mut(&mut self, index: Idx) -> &mut Self::Output;
}

#[lang = "Deref"]
pub trait Deref {
    type Target;
    fn deref(&self) -> &Self::Target;
}

#[lang = "DerefMut"]
pub trait DerefMut: Deref {
    fn deref_mut(&mut self) -> &mut Self::Target;
}

// References dereference to what they point to (the language's own `*r`; these impls are for
// generic code that asks for the traits, such as `Option::as_deref`).
impl<T: ?Sized> Deref for &T {
    type Target = T;
    fn deref(&self) -> &T {
        *self
    }
}

impl<T: ?Sized> Deref for &mut T {
    type Target = T;
    fn deref(&self) -> &T {
        &**self
    }
}

impl<T: ?Sized> DerefMut for &mut T {
    fn deref_mut(&mut self) -> &mut T {
        &mut **self
    }
}

#[lang = "Drop"]
pub trait Drop {
    fn drop(&mut self);
}

/// The function traits: closures and function items implement them (the language's impls);
/// `Fn(A) -> B` in a bound is `Fn<(A,), Output = B>`.
#[lang = "fn_once"]
pub trait FnOnce<Args> {
    type Output;
    fn call_once(self, args: Args) -> Self::Output;
}

#[lang = "fn_mut"]
pub trait FnMut<Args>: FnOnce<Args> {
    fn call_mut(&mut self, args: Args) -> Self::Output;
}

#[lang = "fn"]
pub trait Fn<Args>: FnMut<Args> {
    fn call(&self, args: Args) -> Self::Output;
}

/// `a..b`.
#[lang = "Range"]
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Range<Idx> {
    pub start: Idx,
    pub end: Idx,
}

/// `a..=b`; `exhausted` is set once iteration has yielded `b`.
#[lang = "RangeInclusive"]
#[derive(Clone, PartialEq, Eq)]
pub struct RangeInclusive<Idx> {
    pub start: Idx,
    pub end: Idx,
    pub exhausted: bool,
}

/// `a..`.
#[lang = "RangeFrom"]
#[derive(Clone, PartialEq, Eq)]
pub struct RangeFrom<Idx> {
    pub start: Idx,
}

/// `..b`.
#[lang = "RangeTo"]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct RangeTo<Idx> {
    pub end: Idx,
}

/// `..=b`.
#[lang = "RangeToInclusive"]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct RangeToInclusive<Idx> {
    pub end: Idx,
}

/// `..`.
#[lang = "RangeFull"]
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct RangeFull;

impl<Idx: PartialOrd<Idx>> Range<Idx> {
    pub fn contains(&self, item: &Idx) -> bool {
        self.start <= *item && *item < self.end
    }

    pub fn is_empty(&self) -> bool {
        !(self.start < self.end)
    }
}

impl<Idx> RangeInclusive<Idx> {
    pub const fn new(start: Idx, end: Idx) -> RangeInclusive<Idx> {
        RangeInclusive { start, end, exhausted: false }
    }

    pub const fn start(&self) -> &Idx {
        &self.start
    }

    pub const fn end(&self) -> &Idx {
        &self.end
    }

    pub fn into_inner(self) -> (Idx, Idx) {
        (self.start, self.end)
    }
}

impl<Idx: PartialOrd<Idx>> RangeInclusive<Idx> {
    pub fn contains(&self, item: &Idx) -> bool {
        self.start <= *item && *item <= self.end
    }

    pub fn is_empty(&self) -> bool {
        self.exhausted || !(self.start <= self.end)
    }
}

impl<Idx: PartialOrd<Idx>> RangeFrom<Idx> {
    pub fn contains(&self, item: &Idx) -> bool {
        self.start <= *item
    }
}

impl<Idx: PartialOrd<Idx>> RangeTo<Idx> {
    pub fn contains(&self, item: &Idx) -> bool {
        *item < self.end
    }
}

impl<Idx: PartialOrd<Idx>> RangeToInclusive<Idx> {
    pub fn contains(&self, item: &Idx) -> bool {
        *item <= self.end
    }
}

//@ for $T in u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize f32 f64 f16 bf16
impl Add for $T {
    type Output = $T;
    fn add(self, rhs: $T) -> $T {
        self + rhs
    }
}

impl Add<&$T> for $T {
    type Output = $T;
    fn add(self, rhs: &$T) -> $T {
        self + *rhs
    }
}

impl Add<$T> for &$T {
    type Output = $T;
    fn add(self, rhs: $T) -> $T {
        *self + rhs
    }
}

impl Add<&$T> for &$T {
    type Output = $T;
    fn add(self, rhs: &$T) -> $T {
        *self + *rhs
    }
}

impl AddAssign for $T {
    fn add_assign(&mut self, rhs: $T) {
        *self = *self + rhs;
    }
}

impl AddAssign<&$T> for $T {
    fn add_assign(&mut self, rhs: &$T) {
        *self = *self + *rhs;
    }
}

impl Sub for $T {
    type Output = $T;
    fn sub(self, rhs: $T) -> $T {
        self - rhs
    }
}

impl Sub<&$T> for $T {
    type Output = $T;
    fn sub(self, rhs: &$T) -> $T {
        self - *rhs
    }
}

impl Sub<$T> for &$T {
    type Output = $T;
    fn sub(self, rhs: $T) -> $T {
        *self - rhs
    }
}

impl Sub<&$T> for &$T {
    type Output = $T;
    fn sub(self, rhs: &$T) -> $T {
        *self - *rhs
    }
}

impl SubAssign for $T {
    fn sub_assign(&mut self, rhs: $T) {
        *self = *self - rhs;
    }
}

impl SubAssign<&$T> for $T {
    fn sub_assign(&mut self, rhs: &$T) {
        *self = *self - *rhs;
    }
}

impl Mul for $T {
    type Output = $T;
    fn mul(self, rhs: $T) -> $T {
        self * rhs
    }
}

impl Mul<&$T> for $T {
    type Output = $T;
    fn mul(self, rhs: &$T) -> $T {
        self * *rhs
    }
}

impl Mul<$T> for &$T {
    type Output = $T;
    fn mul(self, rhs: $T) -> $T {
        *self * rhs
    }
}

impl Mul<&$T> for &$T {
    type Output = $T;
    fn mul(self, rhs: &$T) -> $T {
        *self * *rhs
    }
}

impl MulAssign for $T {
    fn mul_assign(&mut self, rhs: $T) {
        *self = *self * rhs;
    }
}

impl MulAssign<&$T> for $T {
    fn mul_assign(&mut self, rhs: &$T) {
        *self = *self * *rhs;
    }
}

impl Div for $T {
    type Output = $T;
    fn div(self, rhs: $T) -> $T {
        self / rhs
    }
}

impl Div<&$T> for $T {
    type Output = $T;
    fn div(self, rhs: &$T) -> $T {
        self / *rhs
    }
}

impl Div<$T> for &$T {
    type Output = $T;
    fn div(self, rhs: $T) -> $T {
        *self / rhs
    }
}

impl Div<&$T> for &$T {
    type Output = $T;
    fn div(self, rhs: &$T) -> $T {
        *self / *rhs
    }
}

impl DivAssign for $T {
    fn div_assign(&mut self, rhs: $T) {
        *self = *self / rhs;
    }
}

impl DivAssign<&$T> for $T {
    fn div_assign(&mut self, rhs: &$T) {
        *self = *self / *rhs;
    }
}

impl Rem for $T {
    type Output = $T;
    fn rem(self, rhs: $T) -> $T {
        self % rhs
    }
}

impl Rem<&$T> for $T {
    type Output = $T;
    fn rem(self, rhs: &$T) -> $T {
        self % *rhs
    }
}

impl Rem<$T> for &$T {
    type Output = $T;
    fn rem(self, rhs: $T) -> $T {
        *self % rhs
    }
}

impl Rem<&$T> for &$T {
    type Output = $T;
    fn rem(self, rhs: &$T) -> $T {
        *self % *rhs
    }
}

impl RemAssign for $T {
    fn rem_assign(&mut self, rhs: $T) {
        *self = *self % rhs;
    }
}

impl RemAssign<&$T> for $T {
    fn rem_assign(&mut self, rhs: &$T) {
        *self = *self % *rhs;
    }
}

//@ end

//@ for $T in u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize
impl BitAnd for $T {
    type Output = $T;
    fn bitand(self, rhs: $T) -> $T {
        self & rhs
    }
}

impl BitAnd<&$T> for $T {
    type Output = $T;
    fn bitand(self, rhs: &$T) -> $T {
        self & *rhs
    }
}

impl BitAnd<$T> for &$T {
    type Output = $T;
    fn bitand(self, rhs: $T) -> $T {
        *self & rhs
    }
}

impl BitAnd<&$T> for &$T {
    type Output = $T;
    fn bitand(self, rhs: &$T) -> $T {
        *self & *rhs
    }
}

impl BitAndAssign for $T {
    fn bitand_assign(&mut self, rhs: $T) {
        *self = *self & rhs;
    }
}

impl BitAndAssign<&$T> for $T {
    fn bitand_assign(&mut self, rhs: &$T) {
        *self = *self & *rhs;
    }
}

impl BitOr for $T {
    type Output = $T;
    fn bitor(self, rhs: $T) -> $T {
        self | rhs
    }
}

impl BitOr<&$T> for $T {
    type Output = $T;
    fn bitor(self, rhs: &$T) -> $T {
        self | *rhs
    }
}

impl BitOr<$T> for &$T {
    type Output = $T;
    fn bitor(self, rhs: $T) -> $T {
        *self | rhs
    }
}

impl BitOr<&$T> for &$T {
    type Output = $T;
    fn bitor(self, rhs: &$T) -> $T {
        *self | *rhs
    }
}

impl BitOrAssign for $T {
    fn bitor_assign(&mut self, rhs: $T) {
        *self = *self | rhs;
    }
}

impl BitOrAssign<&$T> for $T {
    fn bitor_assign(&mut self, rhs: &$T) {
        *self = *self | *rhs;
    }
}

impl BitXor for $T {
    type Output = $T;
    fn bitxor(self, rhs: $T) -> $T {
        self ^ rhs
    }
}

impl BitXor<&$T> for $T {
    type Output = $T;
    fn bitxor(self, rhs: &$T) -> $T {
        self ^ *rhs
    }
}

impl BitXor<$T> for &$T {
    type Output = $T;
    fn bitxor(self, rhs: $T) -> $T {
        *self ^ rhs
    }
}

impl BitXor<&$T> for &$T {
    type Output = $T;
    fn bitxor(self, rhs: &$T) -> $T {
        *self ^ *rhs
    }
}

impl BitXorAssign for $T {
    fn bitxor_assign(&mut self, rhs: $T) {
        *self = *self ^ rhs;
    }
}

impl BitXorAssign<&$T> for $T {
    fn bitxor_assign(&mut self, rhs: &$T) {
        *self = *self ^ *rhs;
    }
}

//@ end

//@ for $T in u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize
impl Shl<u32> for $T {
    type Output = $T;
    fn shl(self, rhs: u32) -> $T {
        self << rhs
    }
}

impl ShlAssign<u32> for $T {
    fn shl_assign(&mut self, rhs: u32) {
        *self = *self << rhs;
    }
}

impl Shr<u32> for $T {
    type Output = $T;
    fn shr(self, rhs: u32) -> $T {
        self >> rhs
    }
}

impl ShrAssign<u32> for $T {
    fn shr_assign(&mut self, rhs: u32) {
        *self = *self >> rhs;
    }
}

// Shifts of and by references, for closures over `iter()`. rustc's core has these for every
// integer type on the right; here the amount is a `u32`, which is also what an unsuffixed
// literal amount becomes (the shift is the same whatever the amount's type).
impl Shl<u32> for &$T {
    type Output = $T;
    fn shl(self, rhs: u32) -> $T {
        *self << rhs
    }
}

impl Shl<&u32> for $T {
    type Output = $T;
    fn shl(self, rhs: &u32) -> $T {
        self << *rhs
    }
}

impl Shl<&u32> for &$T {
    type Output = $T;
    fn shl(self, rhs: &u32) -> $T {
        *self << *rhs
    }
}

impl Shr<u32> for &$T {
    type Output = $T;
    fn shr(self, rhs: u32) -> $T {
        *self >> rhs
    }
}

impl Shr<&u32> for $T {
    type Output = $T;
    fn shr(self, rhs: &u32) -> $T {
        self >> *rhs
    }
}

impl Shr<&u32> for &$T {
    type Output = $T;
    fn shr(self, rhs: &u32) -> $T {
        *self >> *rhs
    }
}

impl Not for &$T {
    type Output = $T;
    fn not(self) -> $T {
        !*self
    }
}

impl Not for $T {
    type Output = $T;
    fn not(self) -> $T {
        !self
    }
}
//@ end

//@ for $T in i8 i16 i32 i64 i128 isize f32 f64 f16 bf16
impl Neg for $T {
    type Output = $T;
    fn neg(self) -> $T {
        -self
    }
}

impl Neg for &$T {
    type Output = $T;
    fn neg(self) -> $T {
        -*self
    }
}
//@ end

impl Not for bool {
    type Output = bool;
    fn not(self) -> bool {
        !self
    }
}

impl BitAnd for bool {
    type Output = bool;
    fn bitand(self, rhs: bool) -> bool {
        self & rhs
    }
}

impl BitOr for bool {
    type Output = bool;
    fn bitor(self, rhs: bool) -> bool {
        self | rhs
    }
}

impl BitXor for bool {
    type Output = bool;
    fn bitxor(self, rhs: bool) -> bool {
        self ^ rhs
    }
}

/// Whether an operation should exit early (`Break`) or go on as usual (`Continue`): what
/// `try_for_each` and `try_fold` closures may return, besides `Option` and `Result`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ControlFlow<B, C = ()> {
    Continue(C),
    Break(B),
}

impl<B, C> ControlFlow<B, C> {
    pub fn is_break(&self) -> bool {
        matches!(*self, ControlFlow::Break(_))
    }

    pub fn is_continue(&self) -> bool {
        matches!(*self, ControlFlow::Continue(_))
    }

    pub fn break_value(self) -> Option<B> {
        match self {
            ControlFlow::Continue(..) => None,
            ControlFlow::Break(x) => Some(x),
        }
    }

    pub fn continue_value(self) -> Option<C> {
        match self {
            ControlFlow::Continue(x) => Some(x),
            ControlFlow::Break(..) => None,
        }
    }
}

/// What `try_fold` and `try_for_each` need of their closures' results: split one into the
/// value to go on with or the reason to stop (`branch`), and rebuild one from either. Core's
/// own `Try` is unstable and kernels cannot name it; this one is the device core's, with the
/// residual of each type being what its early exit carries (`()` for `None`, the error of an
/// `Err`), and it serves the same three types.
pub trait Try {
    type Output;
    type Residual;
    fn from_output(output: Self::Output) -> Self;
    fn from_residual(residual: Self::Residual) -> Self;
    fn branch(self) -> ControlFlow<Self::Residual, Self::Output>;
}

impl<T> Try for Option<T> {
    type Output = T;
    type Residual = ();
    fn from_output(output: T) -> Option<T> {
        Some(output)
    }
    fn from_residual(_residual: ()) -> Option<T> {
        None
    }
    fn branch(self) -> ControlFlow<(), T> {
        match self {
            Some(v) => ControlFlow::Continue(v),
            None => ControlFlow::Break(()),
        }
    }
}

impl<T, E> Try for crate::result::Result<T, E> {
    type Output = T;
    type Residual = E;
    fn from_output(output: T) -> crate::result::Result<T, E> {
        crate::result::Result::Ok(output)
    }
    fn from_residual(residual: E) -> crate::result::Result<T, E> {
        crate::result::Result::Err(residual)
    }
    fn branch(self) -> ControlFlow<E, T> {
        match self {
            crate::result::Result::Ok(v) => ControlFlow::Continue(v),
            crate::result::Result::Err(e) => ControlFlow::Break(e),
        }
    }
}

impl<B, C> Try for ControlFlow<B, C> {
    type Output = C;
    type Residual = B;
    fn from_output(output: C) -> ControlFlow<B, C> {
        ControlFlow::Continue(output)
    }
    fn from_residual(residual: B) -> ControlFlow<B, C> {
        ControlFlow::Break(residual)
    }
    fn branch(self) -> ControlFlow<B, C> {
        self
    }
}

/// An end of a range: `copy_within` and other methods that take any range read them.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Bound<T> {
    Included(T),
    Excluded(T),
    Unbounded,
}

/// The ends of a range, whatever its syntax.
pub trait RangeBounds<T> {
    fn start_bound(&self) -> Bound<&T>;
    fn end_bound(&self) -> Bound<&T>;

    fn contains(&self, item: &T) -> bool
    where
        T: PartialOrd<T>,
    {
        (match self.start_bound() {
            Bound::Included(start) => *start <= *item,
            Bound::Excluded(start) => *start < *item,
            Bound::Unbounded => true,
        }) && (match self.end_bound() {
            Bound::Included(end) => *item <= *end,
            Bound::Excluded(end) => *item < *end,
            Bound::Unbounded => true,
        })
    }
}

impl<T> RangeBounds<T> for Range<T> {
    fn start_bound(&self) -> Bound<&T> {
        Bound::Included(&self.start)
    }
    fn end_bound(&self) -> Bound<&T> {
        Bound::Excluded(&self.end)
    }
}

impl<T> RangeBounds<T> for RangeInclusive<T> {
    fn start_bound(&self) -> Bound<&T> {
        Bound::Included(&self.start)
    }
    /// An exhausted range (iterated to its end) is empty: core says `Excluded` then.
    fn end_bound(&self) -> Bound<&T> {
        if self.exhausted { Bound::Excluded(&self.end) } else { Bound::Included(&self.end) }
    }
}

impl<T> RangeBounds<T> for RangeFrom<T> {
    fn start_bound(&self) -> Bound<&T> {
        Bound::Included(&self.start)
    }
    fn end_bound(&self) -> Bound<&T> {
        Bound::Unbounded
    }
}

impl<T> RangeBounds<T> for RangeTo<T> {
    fn start_bound(&self) -> Bound<&T> {
        Bound::Unbounded
    }
    fn end_bound(&self) -> Bound<&T> {
        Bound::Excluded(&self.end)
    }
}

impl<T> RangeBounds<T> for RangeToInclusive<T> {
    fn start_bound(&self) -> Bound<&T> {
        Bound::Unbounded
    }
    fn end_bound(&self) -> Bound<&T> {
        Bound::Included(&self.end)
    }
}

impl<T> RangeBounds<T> for RangeFull {
    fn start_bound(&self) -> Bound<&T> {
        Bound::Unbounded
    }
    fn end_bound(&self) -> Bound<&T> {
        Bound::Unbounded
    }
}
