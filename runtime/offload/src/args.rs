//! Argument mapping: how each value of an `args` tuple reaches the kernel's parameter.

/// How one argument travels to the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgMapping {
    /// Passed by value: the parameter's bytes (at most 8 for the scalars kernels take).
    Value { bytes: [u8; 8], len: usize },
    /// A host buffer that the device gets a copy of; `writable` when the kernel may write it
    /// (upstream copies it back).
    Buffer {
        host: *mut u8,
        len: usize,
        writable: bool,
    },
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
            unsafe { std::ptr::copy_nonoverlapping((self as *const T).cast::<u8>(), bytes.as_mut_ptr(), len) };
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
        ArgMapping::Buffer {
            host: self.cast_mut().cast(),
            len: size_of::<T>(),
            writable: false,
        }
    }
    fn param(&self, device_address: u64) -> *const T {
        device_address as usize as *const T
    }
}

impl<T> KernelArg<*mut T> for *mut T {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer {
            host: self.cast(),
            len: size_of::<T>(),
            writable: true,
        }
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
        ArgMapping::Buffer { host: (*self as *const T).cast_mut().cast(), len: size_of::<T>(), writable: false }
    }
    fn param(&self, device_address: u64) -> *const T {
        device_address as usize as *const T
    }
}

/// `&mut x` for a `&T` parameter: the kernel only reads it, so it is copied in and never back,
/// as `&mut [T]` for a `&[T]` parameter is.
impl<T> KernelArg<*const T> for &mut T {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer { host: (&**self as *const T).cast_mut().cast(), len: size_of::<T>(), writable: false }
    }
    fn param(&self, device_address: u64) -> *const T {
        device_address as usize as *const T
    }
}

/// `&mut x` for a `&mut T` (or `*mut T`) parameter: copied in and back.
impl<T> KernelArg<*mut T> for &mut T {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer { host: (&**self as *const T).cast_mut().cast(), len: size_of::<T>(), writable: true }
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
        ArgMapping::Buffer { host: self.as_ptr().cast_mut().cast(), len: size_of_val(*self), writable: false }
    }
    fn param(&self, device_address: u64) -> *const [T] {
        std::ptr::slice_from_raw_parts(device_address as usize as *const T, self.len())
    }
}

impl<T> KernelArg<*const [T]> for &mut [T] {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer { host: self.as_ptr().cast_mut().cast(), len: size_of_val(&**self), writable: false }
    }
    fn param(&self, device_address: u64) -> *const [T] {
        std::ptr::slice_from_raw_parts(device_address as usize as *const T, self.len())
    }
}

impl<T> KernelArg<*mut [T]> for &mut [T] {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer { host: self.as_ptr().cast_mut().cast(), len: size_of_val(&**self), writable: true }
    }
    fn param(&self, device_address: u64) -> *mut [T] {
        std::ptr::slice_from_raw_parts_mut(device_address as usize as *mut T, self.len())
    }
}

/// A tuple of arguments for a kernel whose parameters are the tuple `P`.
pub trait IntoArgs<P> {
    fn mappings(&self) -> Vec<ArgMapping>;
    /// The kernel's parameters, given the device address of each argument (0 for values).
    fn params(&self, device_addresses: &[u64]) -> P;
}

macro_rules! tuple_args {
    ($(($($a:ident $p:ident $k:tt),*)),*) => {$(
        impl<$($a: KernelArg<$p>, $p,)*> IntoArgs<($($p,)*)> for ($($a,)*) {
            fn mappings(&self) -> Vec<ArgMapping> {
                vec![$(self.$k.mapping()),*]
            }
            #[allow(unused_variables, reason = "a kernel without parameters ignores the addresses")]
            fn params(&self, device_addresses: &[u64]) -> ($($p,)*) {
                ($(self.$k.param(device_addresses.get($k).copied().unwrap_or(0)),)*)
            }
        }
    )*};
}

impl IntoArgs<()> for () {
    fn mappings(&self) -> Vec<ArgMapping> {
        Vec::new()
    }
    fn params(&self, _: &[u64]) {}
}

tuple_args!(
    (A0 P0 0),
    (A0 P0 0, A1 P1 1),
    (A0 P0 0, A1 P1 1, A2 P2 2),
    (A0 P0 0, A1 P1 1, A2 P2 2, A3 P3 3),
    (A0 P0 0, A1 P1 1, A2 P2 2, A3 P3 3, A4 P4 4),
    (A0 P0 0, A1 P1 1, A2 P2 2, A3 P3 3, A4 P4 4, A5 P5 5),
    (A0 P0 0, A1 P1 1, A2 P2 2, A3 P3 3, A4 P4 4, A5 P5 5, A6 P6 6),
    (A0 P0 0, A1 P1 1, A2 P2 2, A3 P3 3, A4 P4 4, A5 P5 5, A6 P6 6, A7 P7 7),
    (A0 P0 0, A1 P1 1, A2 P2 2, A3 P3 3, A4 P4 4, A5 P5 5, A6 P6 6, A7 P7 7, A8 P8 8),
    (A0 P0 0, A1 P1 1, A2 P2 2, A3 P3 3, A4 P4 4, A5 P5 5, A6 P6 6, A7 P7 7, A8 P8 8, A9 P9 9),
    (A0 P0 0, A1 P1 1, A2 P2 2, A3 P3 3, A4 P4 4, A5 P5 5, A6 P6 6, A7 P7 7, A8 P8 8, A9 P9 9, A10 P10 10),
    (A0 P0 0, A1 P1 1, A2 P2 2, A3 P3 3, A4 P4 4, A5 P5 5, A6 P6 6, A7 P7 7, A8 P8 8, A9 P9 9, A10 P10 10, A11 P11 11)
);
