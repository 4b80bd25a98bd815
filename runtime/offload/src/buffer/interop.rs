//! Device memory shared with cudarc, the CUDA crate most of Rust's GPU code builds on (cuBLAS
//! and cuDNN bindings, candle, ...): rkc's device buffers lent to cudarc's operations, and
//! cudarc's slices passed to rkc's kernels, with nothing copied.
//!
//! Both sides use the device's primary context (cudarc's `CudaContext::new` retains it, as
//! rkc does), so an address of one is valid for the other. What has to be kept straight is
//! ordering: cudarc queues work on its streams, while `offload!` runs on the legacy default
//! stream and has finished when it returns. So each hand-over waits for cudarc's stream: a
//! view lent to cudarc synchronises its stream when it is dropped, and a cudarc slice lent to
//! rkc waits for its stream first. The borrows do the rest: memory lent mutably is not used
//! by anyone else until the loan ends.

use super::{DeviceBuffer, DeviceSlice, DeviceSliceMut, View};
use crate::args::DeviceCopy;
use crate::error::OffloadError;
use crate::home::{Home, Location};
use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DevicePtrMut, SyncOnDrop, sys};
use std::marker::PhantomData;
use std::sync::Arc;

/// A range of a [`DeviceBuffer`] lent to cudarc for reading, on one of its streams: pass it
/// where cudarc takes a `&impl DevicePtr<T>` (copies to the host, cuBLAS inputs, kernel
/// arguments). Dropping it waits for the work the stream has queued.
pub struct CudarcView<'a, T> {
    address: u64,
    len: usize,
    stream: Arc<CudaStream>,
    _borrow: PhantomData<&'a [T]>,
}

/// A range of a [`DeviceBuffer`] lent to cudarc for reading and writing, on one of its
/// streams: pass it where cudarc takes a `&mut impl DevicePtrMut<T>`. Dropping it waits for
/// the work the stream has queued, so that rkc's next use sees what cudarc wrote.
pub struct CudarcViewMut<'a, T> {
    address: u64,
    len: usize,
    stream: Arc<CudaStream>,
    _borrow: PhantomData<&'a mut [T]>,
}

/// Checks that `view` is NVIDIA memory of the context `stream` belongs to.
fn lend<T: DeviceCopy>(
    op: &'static str,
    view: View<T>,
    stream: &CudaStream,
) -> Result<(), OffloadError> {
    view.check_alive()?;
    let refuse = |reason: String| Err(OffloadError::Cudarc { op, reason });
    let Home::Cuda(d) = view.location.home else {
        return refuse(format!(
            "the buffer lives on {}, not on an NVIDIA GPU; cudarc drives only CUDA devices",
            view.location
        ));
    };
    match crate::runtime::cuda()?.nvidia_context(d) {
        Some((context, _)) if context == stream.context().cu_ctx() => Ok(()),
        Some(_) => refuse(format!(
            "the buffer lives on device {d}, but the stream belongs to a context of device {}; \
             use a stream of `CudaContext::new({d})` (rkc's and cudarc's device ordinals agree \
             for NVIDIA GPUs)",
            stream.context().ordinal()
        )),
        None => refuse(format!("device {d} is not a usable NVIDIA GPU")),
    }
}

impl<'a, T: DeviceCopy> DeviceSlice<'a, T> {
    /// Lends the view to cudarc for reading on `stream`, which must belong to the primary
    /// context of the view's device (`CudaContext::new(ordinal)`).
    pub fn to_cudarc(self, stream: &Arc<CudaStream>) -> Result<CudarcView<'a, T>, OffloadError> {
        lend("DeviceSlice::to_cudarc", self.view, stream)?;
        Ok(CudarcView {
            address: self.view.address,
            len: self.view.len,
            stream: stream.clone(),
            _borrow: PhantomData,
        })
    }

    /// A cudarc slice as a read-only argument of rkc's kernels and copies, after the work
    /// queued on its stream (which may write it) has finished.
    pub fn from_cudarc(slice: &'a CudaSlice<T>) -> Result<Self, OffloadError> {
        let view = adopt("DeviceSlice::from_cudarc", slice)?;
        Ok(DeviceSlice { view, _borrow: PhantomData })
    }
}

impl<'a, T: DeviceCopy> DeviceSliceMut<'a, T> {
    /// Lends the view to cudarc for reading and writing on `stream`, which must belong to the
    /// primary context of the view's device (`CudaContext::new(ordinal)`).
    pub fn into_cudarc(
        self,
        stream: &Arc<CudaStream>,
    ) -> Result<CudarcViewMut<'a, T>, OffloadError> {
        lend("DeviceSliceMut::into_cudarc", self.view, stream)?;
        Ok(CudarcViewMut {
            address: self.view.address,
            len: self.view.len,
            stream: stream.clone(),
            _borrow: PhantomData,
        })
    }

    /// A cudarc slice as a writable argument of rkc's kernels and copies, after the work
    /// queued on its stream has finished.
    pub fn from_cudarc(slice: &'a mut CudaSlice<T>) -> Result<Self, OffloadError> {
        let view = adopt("DeviceSliceMut::from_cudarc", slice)?;
        Ok(DeviceSliceMut { view, _borrow: PhantomData })
    }
}

impl<T: DeviceCopy> DeviceBuffer<T> {
    /// The whole buffer lent to cudarc for reading on `stream` (see [`DeviceSlice::to_cudarc`]).
    pub fn cudarc_view(&self, stream: &Arc<CudaStream>) -> Result<CudarcView<'_, T>, OffloadError> {
        self.as_slice().to_cudarc(stream)
    }

    /// The whole buffer lent to cudarc for reading and writing on `stream` (see
    /// [`DeviceSliceMut::into_cudarc`]).
    pub fn cudarc_view_mut(
        &mut self,
        stream: &Arc<CudaStream>,
    ) -> Result<CudarcViewMut<'_, T>, OffloadError> {
        self.as_slice_mut().into_cudarc(stream)
    }
}

/// A cudarc slice's memory as a view of rkc's, once its stream has finished its queued work.
fn adopt<T: DeviceCopy>(op: &'static str, slice: &CudaSlice<T>) -> Result<View<T>, OffloadError> {
    let refuse = |reason: String| OffloadError::Cudarc { op, reason };
    let ordinal = slice.context().ordinal();
    let (context, resets) = crate::runtime::cuda()?
        .nvidia_context(ordinal)
        .ok_or_else(|| refuse(format!("device {ordinal} is not a usable NVIDIA GPU for rkc")))?;
    if context != slice.context().cu_ctx() {
        return Err(refuse(format!(
            "the slice belongs to a context of device {ordinal} other than its primary one, \
             which rkc's launches use; allocate it through `CudaContext::new({ordinal})`"
        )));
    }
    slice
        .stream()
        .synchronize()
        .map_err(|e| refuse(format!("waiting for the slice's stream failed: {e}")))?;
    // The slice's address, without cudarc's event bookkeeping: its stream has just finished.
    let (address, _sync) = slice.device_ptr(slice.stream());
    Ok(View {
        address,
        len: slice.len(),
        location: Location { home: Home::Cuda(ordinal), resets },
        _values: PhantomData,
    })
}

// cudarc's traits: the length, the stream, and the address. Work on another stream than the
// view's waits for the view's stream before, and is waited for after, so that the view's
// stream order holds for all the work done through it.
macro_rules! cudarc_view {
    ($view:ident) => {
        impl<T> cudarc::driver::DeviceSlice<T> for $view<'_, T> {
            fn len(&self) -> usize {
                self.len
            }
            fn stream(&self) -> &Arc<CudaStream> {
                &self.stream
            }
        }

        impl<T> DevicePtr<T> for $view<'_, T> {
            fn device_ptr<'b>(
                &'b self,
                stream: &'b CudaStream,
            ) -> (sys::CUdeviceptr, SyncOnDrop<'b>) {
                (self.address, self.order(stream))
            }
        }

        impl<T> $view<'_, T> {
            fn order<'b>(&'b self, stream: &'b CudaStream) -> SyncOnDrop<'b> {
                if stream.cu_stream() == self.stream.cu_stream() {
                    return SyncOnDrop::Sync(None);
                }
                // An error is the stream's (cudarc records it in the context) and comes back
                // from its next operation.
                let _ = self.stream.synchronize();
                SyncOnDrop::sync_stream(stream)
            }
        }

        impl<T> std::fmt::Debug for $view<'_, T> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(
                    f,
                    "{}<{}>[{}] at {:#x}",
                    stringify!($view),
                    std::any::type_name::<T>(),
                    self.len,
                    self.address
                )
            }
        }

        impl<T> Drop for $view<'_, T> {
            fn drop(&mut self) {
                // As above: a failure of the stream's work is reported by its next use.
                let _ = self.stream.synchronize();
            }
        }
    };
}

cudarc_view!(CudarcView);
cudarc_view!(CudarcViewMut);

impl<T> DevicePtrMut<T> for CudarcViewMut<'_, T> {
    fn device_ptr_mut<'b>(
        &'b mut self,
        stream: &'b CudaStream,
    ) -> (sys::CUdeviceptr, SyncOnDrop<'b>) {
        (self.address, self.order(stream))
    }
}
