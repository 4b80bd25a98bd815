//! Streams, asynchronous copies and launches, events and pinned host memory on a GPU: the
//! driver side of `crate::stream`. Loaded apart from the entry points every launch needs, so
//! that a driver without them (an old HIP) still runs `offload!`.

use super::driver::{Calls, HipStreamCalls};
use super::{Api, CuDevicePtr, CuEvent, CuStream, Cuda, PANIC_RECORD_BYTES, Placement};
use crate::LaunchConfig;
use crate::error::OffloadError;
use crate::registry::Found;
use std::ffi::c_void;

/// What a GPU stream keeps between its launches and its synchronisation: a panic record per
/// launch (kernels of one stream may panic in any of them), and a mapped flag all of them set.
pub(crate) struct StreamState {
    pub stream: usize,
    flag: Option<(*mut u32, u64)>,
    /// A record's contents between launches (zero, and the flag's device address).
    initial: [u8; PANIC_RECORD_BYTES],
    /// Records of launches not yet synchronised, with their kernels.
    pending: Vec<(CuDevicePtr, Found)>,
    /// Records ready for the next launches (zero, with the flag's address).
    free: Vec<CuDevicePtr>,
    /// The print buffer of the stream's launches, whose records name their kernels.
    print: CuDevicePtr,
    /// A launch's argument addresses and parameter values, kept between launches so that a
    /// queued launch allocates neither.
    addresses: Vec<u64>,
    storage: Vec<u64>,
}

// SAFETY: the flag is mapped host memory used only under the stream's owner's lock.
unsafe impl Send for StreamState {}

impl Cuda {
    /// Runs `f` with the device's library and its stream entry points.
    fn with_streams<R>(
        &self,
        ordinal: usize,
        f: impl FnOnce(&Api, &Calls<HipStreamCalls>) -> Result<R, OffloadError>,
    ) -> Result<R, OffloadError> {
        self.with_device(ordinal, |api, _| f(api, api.streams()?))
    }

    /// A new non-blocking stream on a device, with its mapped panic flag.
    pub fn stream_create(&self, ordinal: usize) -> Result<StreamState, OffloadError> {
        self.with_streams(ordinal, |api, s| {
            let mut stream: CuStream = std::ptr::null_mut();
            // SAFETY: a live out-pointer; flag 1 is CU_STREAM_NON_BLOCKING (hipStreamNonBlocking).
            api.check("cuStreamCreate", unsafe { s.stream_create(&mut stream, 1) })?;
            let flag = api.mapped_word();
            let print = api.new_print_buffer()?;
            Ok(StreamState {
                stream: stream as usize,
                flag,
                initial: super::initial_record(flag.map(|(_, address)| address), Some(print)),
                pending: Vec::new(),
                free: Vec::new(),
                print,
                addresses: Vec::new(),
                storage: Vec::new(),
            })
        })
    }

    /// Waits for a stream and reports the first panic or trap of its kernels since the last
    /// time; the stream's records are ready for reuse afterwards.
    pub fn stream_synchronize(
        &self,
        ordinal: usize,
        state: &mut StreamState,
    ) -> Result<(), OffloadError> {
        let trapped = self.with_streams(ordinal, |api, s| {
            // SAFETY: the stream is this device's.
            let synced = unsafe { s.stream_synchronize(state.stream as CuStream) };
            if matches!(
                synced,
                super::CUDA_ERROR_ILLEGAL_INSTRUCTION
                    | super::CUDA_ERROR_LAUNCH_FAILED
                    | super::CUDA_ERROR_ILLEGAL_ADDRESS
            ) {
                return Ok(Some(api.check("cuStreamSynchronize", synced).err()));
            }
            api.check("cuStreamSynchronize", synced)?;
            Ok(None)
        })?;
        if let Some(detail) = trapped {
            // A trap leaves the context unusable, with the streams in it: unlike a synchronous
            // launch's, it is not reset here (the scope's other streams live in the context),
            // and the device reports itself lost from now on.
            let kernel =
                state.pending.first().map_or_else(String::new, |(_, f)| f.info.name.clone());
            state.pending.clear();
            if let Some(device) = self.devices.get(ordinal) {
                let mut device = device.lock().unwrap_or_else(|e| e.into_inner());
                self.lose(&mut device, ordinal, kernel.clone());
            }
            return Err(OffloadError::KernelTrapped {
                kernel,
                detail: detail.map(|e| e.to_string()).unwrap_or_default(),
                recovered: false,
            });
        }
        self.with_streams(ordinal, |api, _| {
            // SAFETY: the flag is mapped host memory that the finished kernels may have set.
            let flagged =
                state.flag.is_none_or(|(f, _)| unsafe { std::ptr::read_volatile(f) } != 0);
            let mut first = None;
            if flagged && !state.pending.is_empty() {
                if let Some((f, _)) = state.flag {
                    // SAFETY: as above.
                    unsafe { std::ptr::write_volatile(f, 0) };
                }
                for (record, found) in &state.pending {
                    let mut raw = [0u8; PANIC_RECORD_BYTES];
                    // SAFETY: the record has PANIC_RECORD_BYTES bytes; the stream is idle.
                    api.check("cuMemcpyDtoH_v2", unsafe {
                        api.memcpy_dtoh(raw.as_mut_ptr().cast(), *record, PANIC_RECORD_BYTES)
                    })?;
                    if let Some(panic) = super::read_panic_record(&raw, found) {
                        first.get_or_insert(panic);
                        // SAFETY: as above.
                        api.check("cuMemcpyHtoD_v2", unsafe {
                            api.memcpy_htod(
                                *record,
                                state.initial.as_ptr().cast(),
                                PANIC_RECORD_BYTES,
                            )
                        })?;
                    }
                }
            }
            let printing: Vec<&offload_binary::KernelInfo> = state
                .pending
                .iter()
                .map(|(_, f)| &*f.info)
                .filter(|i| !i.print_sites.is_empty())
                .collect();
            if !printing.is_empty() {
                api.drain_prints(state.print, &printing)?;
            }
            state.free.extend(state.pending.drain(..).map(|(r, _)| r));
            first.map_or(Ok(()), Err)
        })
    }

    /// Destroys a stream after waiting for it, and frees its records and flag.
    pub fn stream_destroy(&self, ordinal: usize, mut state: StreamState) {
        let _ = self.stream_synchronize(ordinal, &mut state);
        let _ = self.with_streams(ordinal, |api, s| {
            // SAFETY: the stream is idle and used no more; the records and the flag are its.
            unsafe {
                s.stream_destroy(state.stream as CuStream);
                for r in state.free.drain(..) {
                    api.mem_free(r);
                }
                api.mem_free(state.print);
                if let Some((f, _)) = state.flag {
                    s.mem_free_host(f.cast());
                }
            }
            Ok(())
        });
    }

    /// Queues a copy of `len` host bytes to device memory.
    ///
    /// # Safety
    ///
    /// `host` must stay readable for `len` bytes until the stream has run the copy, and
    /// `device_ptr` must be an allocation of this device with room for them.
    pub unsafe fn copy_in_async(
        &self,
        ordinal: usize,
        state: &StreamState,
        device_ptr: u64,
        host: *const u8,
        len: usize,
    ) -> Result<(), OffloadError> {
        self.with_streams(ordinal, |api, s| {
            // SAFETY: the caller's promise.
            api.check("cuMemcpyHtoDAsync_v2", unsafe {
                s.memcpy_htod_async(device_ptr, host.cast(), len, state.stream as CuStream)
            })
        })
    }

    /// Queues a copy of `len` device bytes to host memory.
    ///
    /// # Safety
    ///
    /// `host` must stay writable for `len` bytes, and untouched by the host, until the stream
    /// has run the copy.
    pub unsafe fn copy_out_async(
        &self,
        ordinal: usize,
        state: &StreamState,
        host: *mut u8,
        device_ptr: u64,
        len: usize,
    ) -> Result<(), OffloadError> {
        self.with_streams(ordinal, |api, s| {
            // SAFETY: the caller's promise.
            api.check("cuMemcpyDtoHAsync_v2", unsafe {
                s.memcpy_dtoh_async(host.cast(), device_ptr, len, state.stream as CuStream)
            })
        })
    }

    /// Queues a kernel on a stream. Every argument must already be on the device (values,
    /// device buffers, resident data): an asynchronous launch copies nothing.
    pub fn launch_async(
        &self,
        ordinal: usize,
        state: &mut StreamState,
        found: &Found,
        placements: &[Placement],
        config: &LaunchConfig,
    ) -> Result<(), OffloadError> {
        let (device, function) = self.prepare_launch(ordinal, found, config)?;
        let api = &self.apis[device.api].0;
        api.streams()?;
        let mut no_copies = crate::placement::NoCopies(found);
        crate::placement::map_in_into(found, placements, &mut no_copies, &mut state.addresses)?;
        super::parameters_into(found, placements, &state.addresses, &mut state.storage);
        let record = match state.free.pop() {
            Some(r) => r,
            None => api.new_record(&state.initial)?,
        };
        state.storage.push(record);
        // SAFETY: the function is this context's; `storage` has one value per parameter.
        let launched = unsafe {
            super::launch_kernel(
                api,
                function,
                config,
                state.stream as CuStream,
                &mut state.storage,
            )
        };
        if let Err(e) = api.check("cuLaunchKernel", launched) {
            state.free.push(record);
            return Err(e);
        }
        state.pending.push((record, found.clone()));
        Ok(())
    }

    /// A new event on a device (with timing).
    pub fn event_create(&self, ordinal: usize) -> Result<usize, OffloadError> {
        self.with_streams(ordinal, |api, s| {
            let mut e: CuEvent = std::ptr::null_mut();
            // SAFETY: a live out-pointer; flags 0 is the default (timing on).
            api.check("cuEventCreate", unsafe { s.event_create(&mut e, 0) })?;
            Ok(e as usize)
        })
    }

    /// Records an event at the current end of a stream.
    pub fn event_record(
        &self,
        ordinal: usize,
        event: usize,
        stream: usize,
    ) -> Result<(), OffloadError> {
        self.with_streams(ordinal, |api, s| {
            // SAFETY: both are this device's.
            api.check("cuEventRecord", unsafe {
                s.event_record(event as CuEvent, stream as CuStream)
            })
        })
    }

    /// Makes a stream wait for an event before its later work.
    pub fn stream_wait_event(
        &self,
        ordinal: usize,
        stream: usize,
        event: usize,
    ) -> Result<(), OffloadError> {
        self.with_streams(ordinal, |api, s| {
            // SAFETY: both are this device's.
            api.check("cuStreamWaitEvent", unsafe {
                s.stream_wait_event(stream as CuStream, event as CuEvent, 0)
            })
        })
    }

    /// Waits for an event.
    pub fn event_synchronize(&self, ordinal: usize, event: usize) -> Result<(), OffloadError> {
        self.with_streams(ordinal, |api, s| {
            // SAFETY: the event is this device's.
            api.check("cuEventSynchronize", unsafe { s.event_synchronize(event as CuEvent) })
        })
    }

    /// Milliseconds between two recorded events (both complete).
    pub fn event_elapsed(
        &self,
        ordinal: usize,
        start: usize,
        end: usize,
    ) -> Result<f32, OffloadError> {
        self.with_streams(ordinal, |api, s| {
            let mut ms = 0.0f32;
            // SAFETY: a live out-pointer; both events are this device's.
            api.check("cuEventElapsedTime", unsafe {
                s.event_elapsed(&mut ms, start as CuEvent, end as CuEvent)
            })?;
            Ok(ms)
        })
    }

    /// Destroys an event.
    pub fn event_destroy(&self, ordinal: usize, event: usize) {
        let _ = self.with_streams(ordinal, |_, s| {
            // SAFETY: the event is this device's and used no more.
            unsafe { s.event_destroy(event as CuEvent) };
            Ok(())
        });
    }

    /// `len` bytes of pinned host memory (at least one).
    pub fn pinned_alloc(&self, ordinal: usize, len: usize) -> Result<*mut u8, OffloadError> {
        self.with_streams(ordinal, |api, _| {
            let mut p: *mut c_void = std::ptr::null_mut();
            api.alloc_host(&mut p, len.max(1))?;
            Ok(p.cast())
        })
    }

    /// Frees pinned host memory from `pinned_alloc`.
    pub fn pinned_free(&self, ordinal: usize, p: *mut u8) {
        let _ = self.with_streams(ordinal, |_, s| {
            // SAFETY: `p` came from `pinned_alloc` on this device and is freed once.
            unsafe { s.mem_free_host(p.cast()) };
            Ok(())
        });
    }
}
