//! Streams: copies and launches queued on a device and run in order, while the host goes on,
//! so that transfers overlap kernels. An rkc extension; upstream's `offload!` stays
//! synchronous.
//!
//! Streams live in a [`scope`], as threads live in `std::thread::scope`: the scope waits for
//! every stream before it returns, also when its closure fails or panics, and host memory that
//! a queued copy reads or writes is borrowed until then (`&'scope [T]`, `&'scope mut [T]`), so
//! that the borrow checker, not the programmer, keeps the host from freeing or touching it
//! while the device may still use it. Forgetting a stream handle does not end the scope's wait.
//!
//! What a queued operation uses on the device is device memory ([`DeviceBuffer`]s and their
//! views); an asynchronous launch copies nothing, so its host arguments are values only.
//! Device buffers are borrowed only for the call that queues the operation: work queued on two
//! streams that use one buffer without ordering them by an [`Event`] races on the device (as
//! in CUDA), which gives wrong values but cannot touch host memory.
//!
//! ```ignore
//! rkc_offload::scope(|s| {
//!     let (a, b) = (s.stream()?, s.stream()?);
//!     a.copy_to_device(&mut dx, &host[..n])?;
//!     offload_async! { stream = a, kernel = scale, workgroup_dim = [n / 256, 1, 1],
//!                      thread_dim = [256, 1, 1], args = (&mut dx, 2.0f32) }?;
//!     a.copy_to_host(&dx, &mut out[..n])?;
//!     // ... the next chunk on `b` meanwhile.
//!     Ok(())
//! })?;
//! ```
//!
//! On the CPU simulator every operation runs when it is queued; errors (a kernel's panic)
//! are reported where a GPU reports them: by `synchronize` or at the end of the scope.

use crate::args::{DeviceCopy, IntoArgs};
use crate::buffer::{DeviceSlice, DeviceSliceMut, Zeroable};
use crate::error::OffloadError;
use crate::home::{Home, Location};
use crate::placement::Placement;
use crate::{Kernel, LaunchConfig};
use std::marker::PhantomData;
use std::sync::{Arc, Mutex};

/// Runs `f` with a scope for streams, and waits for all of them before returning: the first
/// error of `f` or of the queued work.
pub fn scope<'env, T>(
    f: impl for<'scope> FnOnce(&'scope Scope<'scope, 'env>) -> Result<T, OffloadError>,
) -> Result<T, OffloadError> {
    let scope = Scope { streams: Mutex::new(Vec::new()), _scope: PhantomData, _env: PhantomData };
    // A closure that panics still waits for its streams before the borrows end (as
    // `std::thread::scope` joins its threads), then the panic goes on.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&scope)));
    let waited = scope.finish();
    match result {
        Err(panic) => std::panic::resume_unwind(panic),
        Ok(result) => {
            let value = result?;
            waited.map(|()| value)
        }
    }
}

/// The streams of one [`scope`]. `'scope` is the scope's own lifetime, `'env` that of what
/// it borrows from outside.
pub struct Scope<'scope, 'env: 'scope> {
    streams: Mutex<Vec<Arc<Inner>>>,
    _scope: PhantomData<&'scope mut &'scope ()>,
    _env: PhantomData<&'env mut &'env ()>,
}

impl<'scope> Scope<'scope, '_> {
    /// A new stream on the default device.
    pub fn stream(&'scope self) -> Result<Stream<'scope>, OffloadError> {
        self.stream_on(None)
    }

    /// A new stream on device `device` (`None`: the default device).
    pub fn stream_on(&'scope self, device: Option<i32>) -> Result<Stream<'scope>, OffloadError> {
        let home = crate::runtime::home_of(device)?;
        let queue = match home {
            Home::Cuda(d) => Queue::Gpu(crate::runtime::cuda()?.stream_create(d)?),
            Home::Simulator(_) => Queue::Simulator(None),
        };
        let inner = Arc::new(Inner { home, queue: Mutex::new(Some(queue)) });
        self.streams.lock().unwrap_or_else(|p| p.into_inner()).push(Arc::clone(&inner));
        Ok(Stream { inner, _scope: PhantomData })
    }

    /// Waits for every stream and destroys it: the first error.
    fn finish(&self) -> Result<(), OffloadError> {
        let streams = std::mem::take(&mut *self.streams.lock().unwrap_or_else(|p| p.into_inner()));
        let mut first = Ok(());
        for s in streams {
            let result = s.synchronize();
            s.destroy();
            if first.is_ok() {
                first = result;
            }
        }
        first
    }
}

/// A stream's queue on its device.
enum Queue {
    Gpu(crate::cuda::StreamState),
    /// The simulator runs work when it is queued; the first error waits here for
    /// `synchronize`.
    Simulator(Option<OffloadError>),
}

struct Inner {
    home: Home,
    /// `None` once destroyed.
    queue: Mutex<Option<Queue>>,
}

impl Inner {
    fn with<R>(
        &self,
        f: impl FnOnce(Home, &mut Queue) -> Result<R, OffloadError>,
    ) -> Result<R, OffloadError> {
        let mut queue = self.queue.lock().unwrap_or_else(|p| p.into_inner());
        match queue.as_mut() {
            Some(q) => f(self.home, q),
            None => Err(OffloadError::InvalidLaunch {
                kernel: "(stream)".into(),
                reason: "the stream's scope has ended".into(),
            }),
        }
    }

    fn synchronize(&self) -> Result<(), OffloadError> {
        self.with(|home, q| match (home, q) {
            (Home::Cuda(d), Queue::Gpu(state)) => {
                crate::runtime::cuda()?.stream_synchronize(d, state)
            }
            (_, Queue::Simulator(error)) => error.take().map_or(Ok(()), Err),
            _ => Ok(()),
        })
    }

    fn destroy(&self) {
        let queue = self.queue.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let (Home::Cuda(d), Some(Queue::Gpu(state))) = (self.home, queue)
            && let Ok(cuda) = crate::runtime::cuda()
        {
            cuda.stream_destroy(d, state);
        }
    }
}

/// A queue of copies and launches on one device, run in order; see the module's documentation.
pub struct Stream<'scope> {
    inner: Arc<Inner>,
    /// Invariant in `'scope`: a covariant stream could be shortened to a local lifetime, and
    /// its copies would then borrow host memory only for that long.
    _scope: PhantomData<&'scope mut &'scope ()>,
}

impl<'scope> Stream<'scope> {
    /// Queues a copy of `source` into `destination` (of the same length). `source` stays
    /// borrowed until the scope ends.
    pub fn copy_to_device<'d, T: DeviceCopy + 'd>(
        &self,
        destination: impl Into<DeviceSliceMut<'d, T>>,
        source: &'scope [T],
    ) -> Result<(), OffloadError> {
        let (address, len, location) = destination.into().raw();
        check_copy("copy_to_device", len, source.len(), location, self.inner.home)?;
        let bytes = len * size_of::<T>();
        self.inner.with(|home, q| match (home, q) {
            // SAFETY: `source` is borrowed until the scope has waited for this stream; the
            // destination has `bytes` bytes on this device.
            (Home::Cuda(d), Queue::Gpu(state)) => unsafe {
                crate::runtime::cuda()?.copy_in_async(
                    d,
                    state,
                    address,
                    source.as_ptr().cast(),
                    bytes,
                )
            },
            (_, Queue::Simulator(_)) => {
                // SAFETY: the simulator's device memory has `bytes` bytes at `address`, apart
                // from host memory.
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        source.as_ptr().cast::<u8>(),
                        address as usize as *mut u8,
                        bytes,
                    )
                };
                Ok(())
            }
            _ => Ok(()),
        })
    }

    /// Queues a copy of `source` into `destination` (of the same length). `destination`
    /// stays borrowed until the scope ends, and holds the values once the stream has run the
    /// copy (after `synchronize`, or the scope's end).
    pub fn copy_to_host<'d, T: DeviceCopy + 'd>(
        &self,
        source: impl Into<DeviceSlice<'d, T>>,
        destination: &'scope mut [T],
    ) -> Result<(), OffloadError> {
        let (address, len, location) = source.into().raw();
        check_copy("copy_to_host", len, destination.len(), location, self.inner.home)?;
        let bytes = len * size_of::<T>();
        self.inner.with(|home, q| match (home, q) {
            // SAFETY: `destination` is borrowed (exclusively) until the scope has waited for
            // this stream; the source has `bytes` bytes on this device.
            (Home::Cuda(d), Queue::Gpu(state)) => unsafe {
                crate::runtime::cuda()?.copy_out_async(
                    d,
                    state,
                    destination.as_mut_ptr().cast(),
                    address,
                    bytes,
                )
            },
            (_, Queue::Simulator(_)) => {
                // SAFETY: as above, in the simulator's memory.
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        address as usize as *const u8,
                        destination.as_mut_ptr().cast::<u8>(),
                        bytes,
                    )
                };
                Ok(())
            }
            _ => Ok(()),
        })
    }

    /// An event recorded at the current end of the stream: it completes when the work
    /// queued so far has run. For ordering other streams ([`Stream::wait_for`]) and timing.
    pub fn record(&self) -> Result<Event, OffloadError> {
        self.inner.with(|home, q| match (home, q) {
            (Home::Cuda(d), Queue::Gpu(state)) => {
                let cuda = crate::runtime::cuda()?;
                let event = cuda.event_create(d)?;
                if let Err(e) = cuda.event_record(d, event, state.stream) {
                    cuda.event_destroy(d, event);
                    return Err(e);
                }
                Ok(Event { home, kind: EventKind::Gpu(event) })
            }
            _ => Ok(Event { home, kind: EventKind::Simulator(std::time::Instant::now()) }),
        })
    }

    /// Makes the work queued on this stream from now on wait until `event` completes.
    pub fn wait_for(&self, event: &Event) -> Result<(), OffloadError> {
        self.inner.with(|home, q| match (home, q, &event.kind) {
            (Home::Cuda(d), Queue::Gpu(state), EventKind::Gpu(e)) if event.home == home => {
                crate::runtime::cuda()?.stream_wait_event(d, state.stream, *e)
            }
            (_, Queue::Simulator(_), EventKind::Simulator(_)) => Ok(()),
            _ => Err(OffloadError::InvalidLaunch {
                kernel: "(stream)".into(),
                reason: format!("an event of {} cannot order a stream of {home}", event.home),
            }),
        })
    }

    /// Waits until the stream has run everything queued, and reports the first panic or
    /// trap of its kernels since the last call.
    pub fn synchronize(&self) -> Result<(), OffloadError> {
        self.inner.synchronize()
    }

    /// Where the stream's work runs.
    pub fn location(&self) -> String {
        self.inner.home.to_string()
    }
}

/// A copy's two sides: the same length, and device memory of the stream's device.
fn check_copy(
    op: &'static str,
    device_len: usize,
    host_len: usize,
    location: Location,
    home: Home,
) -> Result<(), OffloadError> {
    if device_len != host_len {
        return Err(OffloadError::BufferLength { op, buffer: device_len, other: host_len });
    }
    if location.home != home {
        return Err(OffloadError::InvalidLaunch {
            kernel: "(stream)".into(),
            reason: format!("{op}: the device buffer lives on {location}, the stream on {home}"),
        });
    }
    if !location.alive() {
        return Err(OffloadError::BufferLost { device: location.to_string() });
    }
    Ok(())
}

/// A point in a stream's work (see [`Stream::record`]).
pub struct Event {
    home: Home,
    kind: EventKind,
}

enum EventKind {
    Gpu(usize),
    /// When the simulator reached it (it runs work when queued).
    Simulator(std::time::Instant),
}

impl Event {
    /// Waits until the event completes.
    pub fn synchronize(&self) -> Result<(), OffloadError> {
        match (self.home, &self.kind) {
            (Home::Cuda(d), EventKind::Gpu(e)) => crate::runtime::cuda()?.event_synchronize(d, *e),
            _ => Ok(()),
        }
    }

    /// The device time from `start` to this event, both recorded on streams of one device;
    /// waits for this event.
    pub fn elapsed_since(&self, start: &Event) -> Result<std::time::Duration, OffloadError> {
        match (self.home, &self.kind, &start.kind) {
            (Home::Cuda(d), EventKind::Gpu(end), EventKind::Gpu(begin))
                if start.home == self.home =>
            {
                let cuda = crate::runtime::cuda()?;
                cuda.event_synchronize(d, *end)?;
                let ms = cuda.event_elapsed(d, *begin, *end)?;
                Ok(std::time::Duration::from_secs_f64(f64::from(ms.max(0.0)) / 1e3))
            }
            (_, EventKind::Simulator(end), EventKind::Simulator(begin)) => {
                Ok(end.saturating_duration_since(*begin))
            }
            _ => Err(OffloadError::InvalidLaunch {
                kernel: "(event)".into(),
                reason: "the two events are of different devices".into(),
            }),
        }
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        if let (Home::Cuda(d), EventKind::Gpu(e)) = (self.home, &self.kind)
            && let Ok(cuda) = crate::runtime::cuda()
        {
            cuda.event_destroy(d, *e);
        }
    }
}

/// Queues a launch on a stream: the path behind `offload_async!`. Every argument must already
/// be on the stream's device (values, device buffers, resident data).
pub fn launch_async<K: Kernel, A: IntoArgs<K::Params>>(
    stream: &Stream<'_>,
    config: LaunchConfig,
    args: A,
) -> Result<(), OffloadError> {
    let _range = crate::nvtx::Range::new(|| format!("{} (queued)", K::NAME));
    let found = crate::registry::find(K::NAME, K::SIGNATURE, K::PARAMS)?;
    // The argument lists of this thread's last queued launch, reused (taken out for the
    // launch, so that a launch inside this one would only allocate its own).
    let (mut mappings, mut placements) = SCRATCH.take();
    let queued = queue::<K, A>(stream, config, &args, &found, &mut mappings, &mut placements);
    mappings.clear();
    placements.clear();
    SCRATCH.set((mappings, placements));
    queued
}

thread_local! {
    static SCRATCH: std::cell::Cell<(Vec<crate::ArgMapping>, Vec<Placement>)> =
        const { std::cell::Cell::new((Vec::new(), Vec::new())) };
}

/// `launch_async` with its argument lists.
fn queue<K: Kernel, A: IntoArgs<K::Params>>(
    stream: &Stream<'_>,
    config: LaunchConfig,
    args: &A,
    found: &crate::registry::Found,
    mappings: &mut Vec<crate::ArgMapping>,
    placements: &mut Vec<Placement>,
) -> Result<(), OffloadError> {
    args.mappings_into(mappings);
    let home = stream.inner.home;
    crate::placement::check_pointer_reach(found, mappings, home)?;
    crate::placement::place_into(found, mappings, home, |l| l.alive(), placements)?;
    if let Some(k) = placements.iter().position(|p| matches!(p, Placement::Copy { .. })) {
        return Err(crate::placement::host_memory_refused(found, k));
    }
    stream.inner.with(|home, q| match (home, q) {
        (Home::Cuda(d), Queue::Gpu(state)) => {
            crate::runtime::cuda()?.launch_async(d, state, found, placements, &config)
        }
        (Home::Simulator(d), Queue::Simulator(error)) => {
            let body = crate::sim::Body::<K, A>::new(args);
            let launched = Home::Simulator(d).device().and_then(|cpu| {
                cpu.launch(&crate::device::Launch {
                    found,
                    mappings,
                    config: &config,
                    body: Some(&body),
                })
            });
            if let Err(e) = launched {
                error.get_or_insert(e);
            }
            Ok(())
        }
        _ => Ok(()),
    })
}

/// Page-locked host memory for `len` values of `T`, which a GPU's copies read and write
/// directly (a stream's copies of ordinary memory go through the driver's own staging and do
/// not overlap kernels). Dereferences to `[T]`. On the simulator, ordinary memory.
pub struct PinnedBuffer<T> {
    ptr: *mut T,
    len: usize,
    /// The memory, which `ptr` points into, freed when the buffer drops.
    _memory: crate::device::PinnedAllocation,
}

// SAFETY: the buffer owns its memory like a `Box<[T]>`.
unsafe impl<T: Send> Send for PinnedBuffer<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for PinnedBuffer<T> {}

impl<T: DeviceCopy> PinnedBuffer<T> {
    /// `len` zeroed values, pinned for the default device.
    pub fn zeroed(len: usize) -> Result<Self, OffloadError>
    where
        T: Zeroable,
    {
        let bytes = crate::buffer::bytes_of::<T>("PinnedBuffer", len)?;
        // Zeroed, which is a valid `T`.
        let memory = crate::runtime::home_of(None)?.memory()?.alloc_pinned(bytes)?;
        Ok(PinnedBuffer { ptr: memory.ptr.cast(), len, _memory: memory })
    }

    /// A pinned copy of `values`.
    pub fn from_slice(values: &[T]) -> Result<Self, OffloadError>
    where
        T: Zeroable,
    {
        let mut b = Self::zeroed(values.len())?;
        b.copy_from_slice(values);
        Ok(b)
    }
}

impl<T> std::ops::Deref for PinnedBuffer<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised values, owned by the buffer.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl<T> std::ops::DerefMut for PinnedBuffer<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as above, borrowed exclusively.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}
