//! Argument mapping: how each value of an `args` tuple reaches the kernel's parameter.

/// How one argument travels to the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgMapping {
    /// Passed by value: the parameter's bytes (at most 8 for the scalars kernels take).
    Value { bytes: [u8; 8], len: usize },
    /// A host buffer that the device gets a copy of; `writable` when the kernel may write it
    /// (upstream copies it back).
    Buffer { host: *mut u8, len: usize, writable: bool },
    /// `len` bytes already in a device's memory (a [`crate::DeviceBuffer`] or a view of one),
    /// passed by address: nothing is copied.
    Device { address: u64, len: usize, writable: bool, location: crate::home::Location },
}

/// A value that can be passed for a kernel parameter of type `P`.
///
/// `P` is the parameter as `Kernel::Params` holds it: a reference parameter is the raw
/// pointer of the same mutability (`&T` is `*const T`), a slice parameter the raw slice
/// pointer. Implemented for each [`DeviceCopy`] type (scalars by value; arrays and
/// `#[repr(C)]` structs copied in), for `*const T` and `*mut T` (upstream's mapping of
/// `size_of::<T>()` bytes), for references to sized data (the same mapping), and for slices
/// and arrays behind references (the whole slice is mapped, an rkc extension).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be passed for a kernel parameter of type `{P}`",
    label = "this argument does not match the kernel's parameter",
    note = "a `*const T` or `&T` parameter takes a `*const T`, `&T` or `&mut T`; a `*mut T` or `&mut T` parameter takes a `*mut T` or `&mut T`; a pointer to elements also takes a whole slice or array of them (`&[T]`, `&mut [T]` or `&[T; N]` for `*const T`; `&mut [T]` or `&mut [T; N]` for `*mut T`); scalars, arrays and `#[derive(DeviceCopy)]` types are passed by value"
)]
pub trait KernelArg<P> {
    /// How the argument is moved.
    fn mapping(&self) -> ArgMapping;
    /// The parameter value the kernel sees when its buffer lives at `device_address` (ignored
    /// for values).
    fn param(&self, device_address: u64) -> P;
}

/// A type whose values a kernel may take by value: the scalars, arrays of such values,
/// `#[repr(C)]` structs of them, and fieldless enums with an integer `repr` or `repr(C)`
/// (`#[derive(DeviceCopy)]`, which checks the `repr` and the fields).
///
/// # Safety
///
/// The type's bytes must be its whole value, laid out as C lays it out (so that the device
/// reads the fields where the host wrote them), with no pointers or references; a type with
/// [`DeviceCopy::IN_PARAMETER`] must be, byte for byte, the scalar [`DeviceCopy::SCALAR`]
/// names.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be passed to a kernel by value",
    label = "not `DeviceCopy`",
    note = "a struct passed by value (or held in one) needs `#[repr(C)]` and `#[derive(Clone, Copy, DeviceCopy)]`"
)]
pub unsafe trait DeviceCopy: Copy {
    /// Whether the value travels in the kernel's parameter itself (the scalars); otherwise
    /// it is copied to the device and the kernel gets its address, as upstream maps a struct
    /// or an array passed by value (copied in, never back).
    const IN_PARAMETER: bool = false;
    /// For a value that travels in the parameter, the Rust scalar type the device sees it as,
    /// as rkc's metadata spells it: the type itself for the scalars, the `repr` integer for a
    /// fieldless enum (`i32` for `repr(C)`, C's `int`). The launch compares it with the fat
    /// binary's, so that a parameter that changed from `f32` to `u32` is caught. Empty for
    /// values copied to the device.
    const SCALAR: &'static str = "";
}

macro_rules! scalar_copy {
    ($($t:ident),*) => {$(
        // SAFETY: a scalar is its bytes.
        unsafe impl DeviceCopy for $t {
            const IN_PARAMETER: bool = true;
            const SCALAR: &'static str = stringify!($t);
        }
    )*};
}

// `u128` and `i128` are wider than a parameter slot: they are mapped by value, like arrays.
scalar_copy!(bool, i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64);

// SAFETY: `half`'s types are `repr(transparent)` over their `u16` bits, which are the IEEE
// binary16 and bfloat16 encodings that rkc's `f16` and `bf16` have on the device.
#[cfg(feature = "half")]
unsafe impl DeviceCopy for half::f16 {
    const IN_PARAMETER: bool = true;
    const SCALAR: &'static str = "f16";
}

// SAFETY: as for `f16` above.
#[cfg(feature = "half")]
unsafe impl DeviceCopy for half::bf16 {
    const IN_PARAMETER: bool = true;
    const SCALAR: &'static str = "bf16";
}

// SAFETY: an array of `DeviceCopy` elements is their bytes in order, as in C.
unsafe impl<T: DeviceCopy, const N: usize> DeviceCopy for [T; N] {}

impl<T: DeviceCopy> KernelArg<T> for T {
    fn mapping(&self) -> ArgMapping {
        let len = size_of::<T>();
        if T::IN_PARAMETER && len <= 8 {
            let mut bytes = [0u8; 8];
            // SAFETY: `self` is `len` readable bytes (a scalar, so all of them initialised),
            // and `bytes` has room for them.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    (self as *const T).cast::<u8>(),
                    bytes.as_mut_ptr(),
                    len,
                )
            };
            ArgMapping::Value { bytes, len }
        } else {
            ArgMapping::Buffer { host: (self as *const T).cast_mut().cast(), len, writable: false }
        }
    }
    fn param(&self, _: u64) -> T {
        *self
    }
}

impl<T> KernelArg<*const T> for *const T {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer { host: self.cast_mut().cast(), len: size_of::<T>(), writable: false }
    }
    fn param(&self, device_address: u64) -> *const T {
        device_address as usize as *const T
    }
}

impl<T> KernelArg<*mut T> for *mut T {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer { host: self.cast(), len: size_of::<T>(), writable: true }
    }
    fn param(&self, device_address: u64) -> *mut T {
        device_address as usize as *mut T
    }
}

// References to sized data, for reference parameters (`&T` travels as `*const T`, `&mut T`
// as `*mut T`) and, since the two are mapped alike, for raw-pointer parameters too: the
// argument `&x` or `&mut x` maps `size_of::<T>()` bytes, as upstream maps `&T` and `&mut T`.
// They do not overlap the slice and array impls below: `T` is sized here, so `&T` is never
// `&[U]`, and for `&[U; N]` the parameter would be `*const [U; N]`, never `*const U`.

/// `&x` for a `&T` (or `*const T`) parameter: copied in, never back.
impl<T> KernelArg<*const T> for &T {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer {
            host: (*self as *const T).cast_mut().cast(),
            len: size_of::<T>(),
            writable: false,
        }
    }
    fn param(&self, device_address: u64) -> *const T {
        device_address as usize as *const T
    }
}

/// `&mut x` for a `&T` parameter: the kernel only reads it, so it is copied in and never back,
/// as `&mut [T]` for a `&[T]` parameter is.
impl<T> KernelArg<*const T> for &mut T {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer {
            host: (&**self as *const T).cast_mut().cast(),
            len: size_of::<T>(),
            writable: false,
        }
    }
    fn param(&self, device_address: u64) -> *const T {
        device_address as usize as *const T
    }
}

/// `&mut x` for a `&mut T` (or `*mut T`) parameter: copied in and back.
impl<T> KernelArg<*mut T> for &mut T {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer {
            host: (&**self as *const T).cast_mut().cast(),
            len: size_of::<T>(),
            writable: true,
        }
    }
    fn param(&self, device_address: u64) -> *mut T {
        device_address as usize as *mut T
    }
}

// Slices and arrays for a pointer to their element type: the whole slice is mapped and the
// kernel gets a pointer to its first element (an rkc extension; upstream maps one element).
impl<T> KernelArg<*const T> for &[T] {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer {
            host: self.as_ptr().cast_mut().cast(),
            len: size_of_val(*self),
            writable: false,
        }
    }
    fn param(&self, device_address: u64) -> *const T {
        device_address as usize as *const T
    }
}

impl<T> KernelArg<*const T> for &mut [T] {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer {
            host: self.as_ptr().cast_mut().cast(),
            len: size_of_val(&**self),
            writable: false,
        }
    }
    fn param(&self, device_address: u64) -> *const T {
        device_address as usize as *const T
    }
}

impl<T> KernelArg<*mut T> for &mut [T] {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer {
            host: self.as_ptr().cast_mut().cast(),
            len: size_of_val(&**self),
            writable: true,
        }
    }
    fn param(&self, device_address: u64) -> *mut T {
        device_address as usize as *mut T
    }
}

impl<T, const N: usize> KernelArg<*const T> for &[T; N] {
    fn mapping(&self) -> ArgMapping {
        <&[T] as KernelArg<*const T>>::mapping(&&self[..])
    }
    fn param(&self, device_address: u64) -> *const T {
        device_address as usize as *const T
    }
}

impl<T, const N: usize> KernelArg<*mut T> for &mut [T; N] {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer {
            host: self.as_ptr().cast_mut().cast(),
            len: size_of::<[T; N]>(),
            writable: true,
        }
    }
    fn param(&self, device_address: u64) -> *mut T {
        device_address as usize as *mut T
    }
}

// Slice parameters: the kernel's `&[T]` / `&mut [T]` travel as raw fat pointers in
// `Kernel::Params` (so that the tuple is `Copy` and has no lifetime); the launch borrows the
// host slice for its duration.
impl<T> KernelArg<*const [T]> for &[T] {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer {
            host: self.as_ptr().cast_mut().cast(),
            len: size_of_val(*self),
            writable: false,
        }
    }
    fn param(&self, device_address: u64) -> *const [T] {
        std::ptr::slice_from_raw_parts(device_address as usize as *const T, self.len())
    }
}

impl<T> KernelArg<*const [T]> for &mut [T] {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer {
            host: self.as_ptr().cast_mut().cast(),
            len: size_of_val(&**self),
            writable: false,
        }
    }
    fn param(&self, device_address: u64) -> *const [T] {
        std::ptr::slice_from_raw_parts(device_address as usize as *const T, self.len())
    }
}

impl<T> KernelArg<*mut [T]> for &mut [T] {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer {
            host: self.as_ptr().cast_mut().cast(),
            len: size_of_val(&**self),
            writable: true,
        }
    }
    fn param(&self, device_address: u64) -> *mut [T] {
        std::ptr::slice_from_raw_parts_mut(device_address as usize as *mut T, self.len())
    }
}

/// A tuple of arguments for a kernel whose parameters are the tuple `P`.
#[diagnostic::on_unimplemented(
    message = "the `args` tuple `{Self}` does not fit the kernel's parameters `{P}`",
    label = "these arguments do not match the kernel's parameters",
    note = "`args` needs one argument per kernel parameter, in order (at most 64), each fitting its parameter; a one-argument tuple needs a trailing comma: `args = (x,)`"
)]
pub trait IntoArgs<P> {
    fn mappings(&self) -> Vec<ArgMapping>;
    /// `mappings` into `out` (cleared first), which a caller keeps between launches.
    fn mappings_into(&self, out: &mut Vec<ArgMapping>) {
        out.clear();
        out.extend(self.mappings());
    }
    /// The kernel's parameters, given the device address of each argument (0 for values).
    fn params(&self, device_addresses: &[u64]) -> P;
}

// A launch takes up to 64 arguments: CUDA allows 32 KiB of parameters, 64 covers upstream's
// own 33-pointer test with room to spare, and each arity is one impl.
macro_rules! tuple_args {
    ($($a:ident $p:ident $k:tt,)*) => {
        impl<$($a: KernelArg<$p>, $p,)*> IntoArgs<($($p,)*)> for ($($a,)*) {
            fn mappings(&self) -> Vec<ArgMapping> {
                vec![$(self.$k.mapping()),*]
            }
            fn mappings_into(&self, out: &mut Vec<ArgMapping>) {
                out.clear();
                out.extend([$(self.$k.mapping()),*]);
            }
            #[allow(unused_variables, reason = "a kernel without parameters ignores the addresses")]
            fn params(&self, device_addresses: &[u64]) -> ($($p,)*) {
                ($(self.$k.param(device_addresses.get($k).copied().unwrap_or(0)),)*)
            }
        }
    };
}

/// One `IntoArgs` impl for every tuple length from 1 to the number of triples given: each
/// step implements the prefix seen so far and moves one triple into it.
macro_rules! tuple_args_up_to {
    ([$($seen:tt)*]) => {};
    ([$($seen:tt)*] ($a:ident $p:ident $k:tt) $($rest:tt)*) => {
        tuple_args!($($seen)* $a $p $k,);
        tuple_args_up_to!([$($seen)* $a $p $k,] $($rest)*);
    };
}

impl IntoArgs<()> for () {
    fn mappings(&self) -> Vec<ArgMapping> {
        Vec::new()
    }
    fn params(&self, _: &[u64]) {}
}

tuple_args_up_to!([] (A0 P0 0) (A1 P1 1) (A2 P2 2) (A3 P3 3) (A4 P4 4) (A5 P5 5) (A6 P6 6) (A7 P7 7) (A8 P8 8) (A9 P9 9) (A10 P10 10) (A11 P11 11) (A12 P12 12) (A13 P13 13) (A14 P14 14) (A15 P15 15) (A16 P16 16) (A17 P17 17) (A18 P18 18) (A19 P19 19) (A20 P20 20) (A21 P21 21) (A22 P22 22) (A23 P23 23) (A24 P24 24) (A25 P25 25) (A26 P26 26) (A27 P27 27) (A28 P28 28) (A29 P29 29) (A30 P30 30) (A31 P31 31) (A32 P32 32) (A33 P33 33) (A34 P34 34) (A35 P35 35) (A36 P36 36) (A37 P37 37) (A38 P38 38) (A39 P39 39) (A40 P40 40) (A41 P41 41) (A42 P42 42) (A43 P43 43) (A44 P44 44) (A45 P45 45) (A46 P46 46) (A47 P47 47) (A48 P48 48) (A49 P49 49) (A50 P50 50) (A51 P51 51) (A52 P52 52) (A53 P53 53) (A54 P54 54) (A55 P55 55) (A56 P56 56) (A57 P57 57) (A58 P58 58) (A59 P59 59) (A60 P60 60) (A61 P61 61) (A62 P62 62) (A63 P63 63));
