//! Typed device memory: [`DeviceBuffer<T>`] holds `len` values of `T` on one device (a GPU, or
//! the CPU simulator's memory when there is none), and passes for a kernel's pointer or slice
//! parameter with no transfer. Where `preload` keeps a copy of host data for a while, a
//! `DeviceBuffer` is data that lives on the device: the results of one kernel that the next
//! one reads, copied to the host only when the program asks.
//!
//! Borrowing follows Rust's rules: a launch that reads a buffer takes `&buf` (or a
//! [`DeviceSlice`] view of a range), one that writes it `&mut buf` (or a [`DeviceSliceMut`]),
//! so that a buffer is never written by one argument while another reads it.

use crate::args::{ArgMapping, DeviceCopy, KernelArg};
use crate::device::Allocation;
use crate::error::OffloadError;
use crate::home::Location;
use std::marker::PhantomData;
use std::ops::{Bound, RangeBounds};

mod interop;
pub use interop::{CudarcView, CudarcViewMut};

impl Location {
    /// Whether the memory is still there (no reset took it).
    pub(crate) fn alive(self) -> bool {
        self.home.memory().is_ok_and(|m| m.alive(self.resets))
    }

    /// The error for memory a reset took.
    fn lost(self) -> OffloadError {
        OffloadError::BufferLost { device: self.home.to_string() }
    }
}

/// A type whose all-zero bytes are a valid value, so that [`DeviceBuffer::zeroed`] may make
/// one: the integers, the floats (zero), `bool` (`false`), and arrays of them.
///
/// # Safety
///
/// Every value of the type must be allowed to have all its bytes zero.
pub unsafe trait Zeroable: DeviceCopy {}

macro_rules! zeroable {
    ($($t:ty),*) => {$(
        // SAFETY: zero bytes are the number zero (or `false`).
        unsafe impl Zeroable for $t {}
    )*};
}

zeroable!(bool, i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64);

// SAFETY: zero bytes are +0.0 in binary16 and bfloat16.
#[cfg(feature = "half")]
unsafe impl Zeroable for half::f16 {}
// SAFETY: as above.
#[cfg(feature = "half")]
unsafe impl Zeroable for half::bf16 {}
// SAFETY: an array of zeroable elements is zeroable.
unsafe impl<T: Zeroable, const N: usize> Zeroable for [T; N] {}

/// `len` values of `T` in one device's memory; freed when dropped.
///
/// ```ignore
/// let x = DeviceBuffer::from_slice(&host_x)?;
/// let mut y = DeviceBuffer::<f32>::zeroed(n)?;
/// offload! { kernel = saxpy, workgroup_dim = [blocks, 1, 1], thread_dim = [256, 1, 1],
///            args = (n, 2.0f32, &x, &mut y) }
/// let result: Vec<f32> = y.to_vec()?;
/// ```
pub struct DeviceBuffer<T> {
    /// The device memory, freed when the buffer drops.
    memory: Allocation,
    len: usize,
    location: Location,
    _values: PhantomData<T>,
}

// SAFETY: the buffer owns device memory, which any host thread may use through the driver (the
// runtime serialises calls per device) or, on the simulator, plain memory it owns; it holds no
// `T` on the host, so only `T: Send` matters for moving the values between threads.
unsafe impl<T: Send> Send for DeviceBuffer<T> {}
// SAFETY: shared references only read (copies out, launches with read-only parameters).
unsafe impl<T: Sync> Sync for DeviceBuffer<T> {}

impl<T: DeviceCopy> DeviceBuffer<T> {
    /// `len` zeroed values on the default device.
    pub fn zeroed(len: usize) -> Result<Self, OffloadError>
    where
        T: Zeroable,
    {
        Self::zeroed_on(None, len)
    }

    /// `len` zeroed values on device `device` (`None`: the default device).
    pub fn zeroed_on(device: Option<i32>, len: usize) -> Result<Self, OffloadError>
    where
        T: Zeroable,
    {
        Self::alloc(device, len, true)
    }

    /// A copy of `values` on the default device.
    pub fn from_slice(values: &[T]) -> Result<Self, OffloadError> {
        Self::from_slice_on(None, values)
    }

    /// A copy of `values` on device `device` (`None`: the default device).
    pub fn from_slice_on(device: Option<i32>, values: &[T]) -> Result<Self, OffloadError> {
        let mut buffer = Self::alloc(device, values.len(), false)?;
        buffer.copy_from_slice(values)?;
        Ok(buffer)
    }

    /// Memory for `len` values, zeroed or of unspecified contents; every constructor fills
    /// the latter before the buffer is handed out.
    fn alloc(device: Option<i32>, len: usize, zeroed: bool) -> Result<Self, OffloadError> {
        let home = crate::runtime::home_of(device)?;
        let bytes = bytes_of::<T>("DeviceBuffer", len)?;
        let (memory, location) = home.alloc(bytes, zeroed)?;
        Ok(DeviceBuffer { memory, len, location, _values: PhantomData })
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer holds no values.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The device the buffer lives on, as `OFFLOAD_INFO` names it.
    pub fn location(&self) -> Location {
        self.location
    }

    /// Copies `values` (exactly `len()` of them) into the buffer.
    pub fn copy_from_slice(&mut self, values: &[T]) -> Result<(), OffloadError> {
        self.as_slice_mut().copy_from_slice(values)
    }

    /// Copies the buffer into `out` (exactly `len()` values).
    pub fn copy_to_slice(&self, out: &mut [T]) -> Result<(), OffloadError> {
        self.as_slice().copy_to_slice(out)
    }

    /// The buffer's values, copied to the host.
    pub fn to_vec(&self) -> Result<Vec<T>, OffloadError> {
        self.as_slice().to_vec()
    }

    /// Copies `source` (of the same length) into this buffer: on the device when both live
    /// on the same one, through the host otherwise.
    pub fn copy_from(&mut self, source: &DeviceBuffer<T>) -> Result<(), OffloadError> {
        self.as_slice_mut().copy_from(source.as_slice())
    }

    /// A copy of the buffer on device `device` (`None`: the default device).
    pub fn to_device(&self, device: Option<i32>) -> Result<DeviceBuffer<T>, OffloadError> {
        let mut copy = Self::alloc(device, self.len, false)?;
        copy.copy_from(self)?;
        Ok(copy)
    }

    /// A read-only view of the whole buffer.
    pub fn as_slice(&self) -> DeviceSlice<'_, T> {
        DeviceSlice { view: self.view(0, self.len), _borrow: PhantomData }
    }

    /// A writable view of the whole buffer.
    pub fn as_slice_mut(&mut self) -> DeviceSliceMut<'_, T> {
        DeviceSliceMut { view: self.view(0, self.len), _borrow: PhantomData }
    }

    /// A read-only view of `range` of the values. Panics when the range is out of bounds, as
    /// slicing a `[T]` does.
    #[track_caller]
    pub fn slice(&self, range: impl RangeBounds<usize>) -> DeviceSlice<'_, T> {
        let (start, end) = bounds(range, self.len);
        DeviceSlice { view: self.view(start, end - start), _borrow: PhantomData }
    }

    /// A writable view of `range` of the values. Panics when the range is out of bounds.
    #[track_caller]
    pub fn slice_mut(&mut self, range: impl RangeBounds<usize>) -> DeviceSliceMut<'_, T> {
        let (start, end) = bounds(range, self.len);
        DeviceSliceMut { view: self.view(start, end - start), _borrow: PhantomData }
    }

    fn view(&self, start: usize, len: usize) -> View<T> {
        View {
            address: self.memory.address + (start * size_of::<T>()) as u64,
            len,
            location: self.location,
            _values: PhantomData,
        }
    }
}

impl<T> std::fmt::Debug for DeviceBuffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DeviceBuffer<{}>[{}] on {}", std::any::type_name::<T>(), self.len, self.location)
    }
}

/// The bytes of `len` values of `T`, refused when they overflow the address space.
pub(crate) fn bytes_of<T>(what: &str, len: usize) -> Result<usize, OffloadError> {
    len.checked_mul(size_of::<T>()).ok_or_else(|| OffloadError::InvalidLaunch {
        kernel: what.into(),
        reason: format!("{len} values of {} bytes overflow the address space", size_of::<T>()),
    })
}

/// The start and end of `range` in `0..len`, with slicing's panics.
#[track_caller]
fn bounds(range: impl RangeBounds<usize>, len: usize) -> (usize, usize) {
    let start = match range.start_bound() {
        Bound::Included(&s) => s,
        Bound::Excluded(&s) => s.checked_add(1).expect("range start overflows usize"),
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(&e) => e.checked_add(1).expect("range end overflows usize"),
        Bound::Excluded(&e) => e,
        Bound::Unbounded => len,
    };
    assert!(start <= end, "device buffer range starts at {start} but ends at {end}");
    assert!(
        end <= len,
        "device buffer range end {end} is out of range for a buffer of {len} values"
    );
    (start, end)
}

/// A range of a buffer's values: what the views share.
struct View<T> {
    address: u64,
    len: usize,
    location: Location,
    _values: PhantomData<T>,
}

impl<T> Clone for View<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for View<T> {}

impl<T: DeviceCopy> View<T> {
    fn bytes(self) -> usize {
        self.len * size_of::<T>()
    }

    fn check_len(self, op: &'static str, other: usize) -> Result<(), OffloadError> {
        if other == self.len {
            Ok(())
        } else {
            Err(OffloadError::BufferLength { op, buffer: self.len, other })
        }
    }

    fn check_alive(self) -> Result<(), OffloadError> {
        if self.location.alive() { Ok(()) } else { Err(self.location.lost()) }
    }

    fn copy_in(self, values: &[T]) -> Result<(), OffloadError> {
        self.check_len("copy_from_slice", values.len())?;
        self.check_alive()?;
        let host = values.as_ptr().cast::<u8>();
        // SAFETY: `values` has `bytes()` readable bytes, the view as many writable ones, apart
        // (host data never lies in a device's memory, the simulator's included).
        unsafe { self.location.home.memory()?.upload(self.address, host, self.bytes()) }
    }

    fn copy_out(self, out: &mut [T]) -> Result<(), OffloadError> {
        self.check_len("copy_to_slice", out.len())?;
        // SAFETY: `out` has `bytes()` writable bytes.
        unsafe { self.read_into(out.as_mut_ptr().cast()) }
    }

    fn to_vec(self) -> Result<Vec<T>, OffloadError> {
        let mut out: Vec<T> = Vec::with_capacity(self.len);
        // SAFETY: `out` has room for `len` values, `bytes()` bytes.
        unsafe { self.read_into(out.as_mut_ptr().cast())? };
        // SAFETY: the copy initialised `len` values with the bytes of values of `T`.
        unsafe { out.set_len(self.len) };
        Ok(out)
    }

    /// Copies the view's bytes to `host`.
    ///
    /// # Safety
    ///
    /// `host` must be writable for `bytes()` bytes, apart from device memory.
    unsafe fn read_into(self, host: *mut u8) -> Result<(), OffloadError> {
        self.check_alive()?;
        // SAFETY: the caller's promise; the view has `bytes()` readable bytes.
        unsafe { self.location.home.memory()?.download(host, self.address, self.bytes()) }
    }

    /// Copies `source` into this view (the borrow rules keep them from overlapping).
    fn copy_from(self, source: View<T>) -> Result<(), OffloadError> {
        self.check_len("copy_from", source.len)?;
        self.check_alive()?;
        source.check_alive()?;
        if self.location.home.shares_memory_with(source.location.home) {
            // SAFETY: both views have `bytes()` bytes of this memory; the borrow of the
            // destination is exclusive, so they do not overlap.
            unsafe {
                self.location.home.memory()?.copy_within(self.address, source.address, self.bytes())
            }
        } else {
            // Between devices, through the host.
            self.copy_in(&source.to_vec()?)
        }
    }

    fn mapping(self, writable: bool) -> ArgMapping {
        ArgMapping::Device {
            address: self.address,
            len: self.bytes(),
            writable,
            location: self.location,
        }
    }
}

/// A read-only view of a range of a [`DeviceBuffer`]'s values, passed by value for a
/// `*const T` or `&[T]` parameter.
pub struct DeviceSlice<'a, T> {
    view: View<T>,
    _borrow: PhantomData<&'a [T]>,
}

impl<T> Clone for DeviceSlice<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for DeviceSlice<'_, T> {}

/// A writable view of a range of a [`DeviceBuffer`]'s values, passed by value for a `*mut T`
/// or `&mut [T]` parameter (or a read-only one).
pub struct DeviceSliceMut<'a, T> {
    view: View<T>,
    _borrow: PhantomData<&'a mut [T]>,
}

// What both views read: their length, their place, and their values copied to the host.
macro_rules! view_reads {
    ($($view:ident),*) => {$(
        impl<T: DeviceCopy> $view<'_, T> {
            /// The view's device address, length in values and device, for a stream's copies.
            pub(crate) fn raw(&self) -> (u64, usize, Location) {
                (self.view.address, self.view.len, self.view.location)
            }

            /// The number of values.
            pub fn len(&self) -> usize {
                self.view.len
            }

            /// Whether the view holds no values.
            pub fn is_empty(&self) -> bool {
                self.view.len == 0
            }

            /// Copies the view into `out` (exactly `len()` values).
            pub fn copy_to_slice(&self, out: &mut [T]) -> Result<(), OffloadError> {
                self.view.copy_out(out)
            }

            /// The view's values, copied to the host.
            pub fn to_vec(&self) -> Result<Vec<T>, OffloadError> {
                self.view.to_vec()
            }
        }
    )*};
}

view_reads!(DeviceSlice, DeviceSliceMut);

impl<T: DeviceCopy> DeviceSliceMut<'_, T> {
    /// Copies `values` (exactly `len()` of them) into the view.
    pub fn copy_from_slice(&mut self, values: &[T]) -> Result<(), OffloadError> {
        self.view.copy_in(values)
    }

    /// Copies `source` (of the same length) into the view.
    pub fn copy_from(&mut self, source: DeviceSlice<'_, T>) -> Result<(), OffloadError> {
        self.view.copy_from(source.view)
    }
}

// As kernel arguments: the kernel gets the device address (and for a slice parameter the
// length), and nothing is copied. A shared borrow passes for read-only parameters only; a
// writable one for both, mapped read-only for a read-only parameter as `&mut [T]` is.
macro_rules! device_arg {
    ($arg:ty, $view:ident, $writable:literal, $param:ty, |$v:ident| $make:expr) => {
        impl<'a, T: DeviceCopy> KernelArg<$param> for $arg {
            fn mapping(&self) -> ArgMapping {
                device_arg!(@view self, $view).mapping($writable)
            }
            fn param(&self, device_address: u64) -> $param {
                let $v = (device_address as usize, device_arg!(@view self, $view).len);
                $make
            }
        }
    };
    (@view $self:ident, buffer) => { $self.view(0, $self.len) };
    (@view $self:ident, view) => { $self.view };
}

macro_rules! device_args {
    ($($arg:ty, $view:ident, $writable:tt;)*) => {$(
        device_arg!($arg, $view, false, *const T, |v| v.0 as *const T);
        device_arg!($arg, $view, false, *const [T], |v| std::ptr::slice_from_raw_parts(v.0 as *const T, v.1));
        device_args!(@mut $writable, $arg, $view);
    )*};
    (@mut true, $arg:ty, $view:ident) => {
        device_arg!($arg, $view, true, *mut T, |v| v.0 as *mut T);
        device_arg!($arg, $view, true, *mut [T], |v| std::ptr::slice_from_raw_parts_mut(v.0 as *mut T, v.1));
    };
    (@mut false, $arg:ty, $view:ident) => {};
}

device_args! {
    &'a DeviceBuffer<T>, buffer, false;
    &'a mut DeviceBuffer<T>, buffer, true;
    DeviceSlice<'a, T>, view, false;
    DeviceSliceMut<'a, T>, view, true;
}

// A buffer passes where a view of all of it does (a stream's copies take views).
impl<'a, T> From<&'a mut DeviceBuffer<T>> for DeviceSliceMut<'a, T>
where
    T: DeviceCopy,
{
    fn from(b: &'a mut DeviceBuffer<T>) -> Self {
        b.as_slice_mut()
    }
}

impl<'a, T> From<&'a DeviceBuffer<T>> for DeviceSlice<'a, T>
where
    T: DeviceCopy,
{
    fn from(b: &'a DeviceBuffer<T>) -> Self {
        b.as_slice()
    }
}

impl<'a, T> From<&'a mut DeviceBuffer<T>> for DeviceSlice<'a, T>
where
    T: DeviceCopy,
{
    fn from(b: &'a mut DeviceBuffer<T>) -> Self {
        b.as_slice()
    }
}
