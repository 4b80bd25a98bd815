//! The compiler's intrinsics: functions without a body that rkc lowers to rk operations.
//! Every other function of the core is ordinary Rust built on these.

extern "rkc-intrinsic" {
    /// `size_of::<T>()` and `align_of::<T>()` as rkc lays `T` out.
    pub fn size_of<T>() -> usize;
    pub fn align_of<T>() -> usize;
    /// `size_of_val` and `align_of_val` of what `v` points at (a slice's from its length).
    pub fn size_of_val<T: ?Sized>(v: *const T) -> usize;
    pub fn align_of_val<T: ?Sized>(v: *const T) -> usize;
    /// A typed copy out of and into memory.
    pub fn read<T>(p: *const T) -> T;
    pub fn write<T>(p: *mut T, value: T);
    /// A value of `T` whose contents are not set (every byte is written before it is read).
    pub fn uninit<T>() -> T;
    /// `p + n` elements, for `*const T` and `*mut T` alike.
    pub fn ptr_add<P>(p: P, n: usize) -> P;
    pub fn ptr_offset<P>(p: P, n: isize) -> P;
    /// A slice's parts, and a slice from parts.
    pub fn slice_len<T>(s: *const [T]) -> usize;
    pub fn slice_ptr<T>(s: *const [T]) -> *const T;
    pub fn slice_from_raw_parts<'a, T>(p: *const T, len: usize) -> &'a [T];
    pub fn slice_from_raw_parts_mut<'a, T>(p: *mut T, len: usize) -> &'a mut [T];
    /// A device panic with a message known at compile time.
    pub fn panic_str(message: &'static str) -> !;
    /// Code that cannot run: a device panic.
    pub fn unreachable() -> !;
    /// The value, hidden from the optimiser.
    pub fn black_box<T>(x: T) -> T;
    /// A copy of the value behind a reference (`Clone` of a `Copy` type).
    pub fn copy<T>(x: &T) -> T;
    /// The discriminant of the enum value `v` points at, as an `i128` (a `u128` above
    /// `i128::MAX` keeps its bits), so that any enum's discriminants fit one type; 0 for a
    /// value of any other type, as rustc's `discriminant_value` gives.
    pub fn discriminant_value<T>(v: *const T) -> i128;

    // The operations of `rk.math`, on the operand's type.
    pub fn math_sqrt<T>(x: T) -> T;
    pub fn math_exp<T>(x: T) -> T;
    pub fn math_exp2<T>(x: T) -> T;
    pub fn math_ln<T>(x: T) -> T;
    pub fn math_log2<T>(x: T) -> T;
    pub fn math_log10<T>(x: T) -> T;
    pub fn math_sin<T>(x: T) -> T;
    pub fn math_cos<T>(x: T) -> T;
    pub fn math_tan<T>(x: T) -> T;
    pub fn math_tanh<T>(x: T) -> T;
    pub fn math_asin<T>(x: T) -> T;
    pub fn math_acos<T>(x: T) -> T;
    pub fn math_atan<T>(x: T) -> T;
    pub fn math_sinh<T>(x: T) -> T;
    pub fn math_cosh<T>(x: T) -> T;
    pub fn math_asinh<T>(x: T) -> T;
    pub fn math_acosh<T>(x: T) -> T;
    pub fn math_atanh<T>(x: T) -> T;
    pub fn math_cbrt<T>(x: T) -> T;
    pub fn math_exp_m1<T>(x: T) -> T;
    pub fn math_ln_1p<T>(x: T) -> T;
    pub fn math_floor<T>(x: T) -> T;
    pub fn math_ceil<T>(x: T) -> T;
    pub fn math_round<T>(x: T) -> T;
    pub fn math_round_ties_even<T>(x: T) -> T;
    pub fn math_trunc<T>(x: T) -> T;
    pub fn math_abs<T>(x: T) -> T;
    pub fn math_powf<T>(x: T, y: T) -> T;
    pub fn math_hypot<T>(x: T, y: T) -> T;
    pub fn math_atan2<T>(x: T, y: T) -> T;
    pub fn math_copysign<T>(x: T, y: T) -> T;
    pub fn math_min<T>(x: T, y: T) -> T;
    pub fn math_max<T>(x: T, y: T) -> T;
    pub fn math_mul_add<T>(x: T, y: T, z: T) -> T;
    pub fn math_wrapping_abs<T>(x: T) -> T;
    pub fn math_saturating_add<T>(x: T, y: T) -> T;
    pub fn math_saturating_sub<T>(x: T, y: T) -> T;
    pub fn math_rotate_left<T>(x: T, n: u32) -> T;
    pub fn math_rotate_right<T>(x: T, n: u32) -> T;
    pub fn math_count_ones<T>(x: T) -> u32;
    pub fn math_leading_zeros<T>(x: T) -> u32;
    pub fn math_trailing_zeros<T>(x: T) -> u32;
    pub fn math_to_bits<T, U>(x: T) -> U;
    pub fn math_from_bits<U, T>(x: U) -> T;
}
