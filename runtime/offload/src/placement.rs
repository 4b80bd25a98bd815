//! Where each argument of a launch comes from on the device, decided once for every backend:
//! by value, already on the device (resident data, device buffers), or copied by the launch;
//! and the check that a raw pointer argument maps what the kernel reaches through it.

use crate::error::OffloadError;
use crate::registry;

/// Where one argument of a launch comes from on the device.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Placement {
    /// A value in the parameter itself: its bits.
    Value(u64),
    /// Already in the device's memory (a resident copy or a device buffer), `len` bytes at
    /// `address`; `how` says which, for `OFFLOAD_INFO`.
    OnDevice { address: u64, len: usize, how: &'static str },
    /// Host memory the launch copies to a buffer of its own (and back when `writable`).
    Copy { host: *mut u8, len: usize, writable: bool },
}

/// Places every argument of a launch on `here`, the one decision both backends share: a
/// value travels in its parameter; host data resident on the device, and device buffers, are
/// passed by address; other host data is copied. Device data of another device, or lost in
/// a reset, is refused naming the parameter. `alive` says whether a device buffer's memory
/// is still there; the CUDA backend answers it from the device it holds locked (asking the
/// runtime would lock it again).
pub(crate) fn place(
    found: &registry::Found,
    mappings: &[crate::ArgMapping],
    here: crate::home::Home,
    alive: impl Fn(crate::home::Location) -> bool,
) -> Result<Vec<Placement>, OffloadError> {
    let mut placements = Vec::with_capacity(mappings.len());
    place_into(found, mappings, here, alive, &mut placements)?;
    Ok(placements)
}

/// `place` into `placements` (cleared first), for a caller that keeps the vector between
/// launches.
pub(crate) fn place_into(
    found: &registry::Found,
    mappings: &[crate::ArgMapping],
    here: crate::home::Home,
    alive: impl Fn(crate::home::Location) -> bool,
    placements: &mut Vec<Placement>,
) -> Result<(), OffloadError> {
    let param =
        |k: usize| found.info.params.get(k).map_or_else(|| k.to_string(), |p| p.name.clone());
    placements.clear();
    for (k, m) in mappings.iter().enumerate() {
        placements.push(match *m {
            crate::ArgMapping::Value { bytes, .. } => {
                Ok(Placement::Value(u64::from_le_bytes(bytes)))
            }
            crate::ArgMapping::Buffer { host, len, writable } => {
                Ok(match crate::resident_map::device_copy(host, len, here, found, k)? {
                    Some(address) => Placement::OnDevice {
                        address,
                        len,
                        how: "resident on the device, not copied",
                    },
                    None => Placement::Copy { host, len, writable },
                })
            }
            crate::ArgMapping::Device { address, len, location, .. } => {
                if location.home != here {
                    Err(OffloadError::BufferElsewhere {
                        kernel: found.info.name.clone(),
                        param: param(k),
                        buffer: location.to_string(),
                        launch: here.to_string(),
                    })
                } else if !alive(location) {
                    Err(OffloadError::BufferLost { device: location.to_string() })
                } else {
                    Ok(Placement::OnDevice { address, len, how: "a device buffer, not copied" })
                }
            }
        }?);
    }
    Ok(())
}

/// A raw pointer argument maps one pointee, `size_of::<T>()` bytes, as upstream's `offload!`
/// does; a kernel that offsets the pointer past it (the compiler records where, in the fat
/// binary) would read or write memory the launch never mapped: garbage or a fault on a GPU, a
/// crash of the process on the simulator. Such a launch is refused, naming the parameter, the
/// place and the fix, unless the argument maps more than one pointee (a slice or an array
/// passed for the pointer) or is resident data.
pub(crate) fn check_pointer_reach(
    found: &registry::Found,
    mappings: &[crate::ArgMapping],
    home: crate::home::Home,
) -> Result<(), OffloadError> {
    for (k, (param, mapping)) in found.info.params.iter().zip(mappings).enumerate() {
        let (offload_binary::ParamKind::Pointer { pointee_size, .. }, Some((line, col))) =
            (param.kind, param.past_pointee)
        else {
            continue;
        };
        // A device buffer (or a view) of one pointee is as short as a pointer to one.
        let (crate::ArgMapping::Buffer { len, .. } | crate::ArgMapping::Device { len, .. }) =
            *mapping
        else {
            continue;
        };
        if len as u64 > pointee_size {
            continue;
        }
        if let crate::ArgMapping::Buffer { host, .. } = *mapping
            && crate::resident_map::device_copy(host, len, home, found, k)?.is_some()
        {
            continue;
        }
        return Err(OffloadError::PointerPastMapping {
            kernel: found.info.name.clone(),
            param: param.name.clone(),
            ty: param.ty.clone(),
            bytes: len,
            location: format!("{}:{line}:{col}", found.info.source),
        });
    }
    Ok(())
}

/// The error for host memory passed to an asynchronous launch.
pub(crate) fn host_memory_refused(found: &registry::Found, k: usize) -> OffloadError {
    let param = found.info.params.get(k).map_or_else(|| k.to_string(), |p| p.name.clone());
    OffloadError::InvalidLaunch {
        kernel: found.info.name.clone(),
        reason: format!(
            "the argument `{param}` is host memory, which an asynchronous launch does not copy; \
             put it in a DeviceBuffer (Stream::copy_to_device queues the copy)"
        ),
    }
}

/// Where a device keeps the arguments a launch copies, and how they get there and back: the
/// one part of the mapping that differs between devices. The GPUs copy through the driver
/// into device memory, the simulator into buffers of its own in host memory (so that a
/// kernel sees only what the mapping gives it, as on a GPU), and the host image runs on host
/// memory in place.
pub(crate) trait ArgumentMemory {
    /// Whether the device runs on the host's memory itself: nothing is copied, and
    /// `OFFLOAD_INFO` says so.
    const IN_PLACE: bool = false;

    /// Room for argument `k`, `len` bytes of host memory at `host`, holding a copy of it when
    /// `copy_in`: its address on the device.
    ///
    /// # Safety
    ///
    /// `host` must be readable for `len` bytes, and writable when the argument is.
    unsafe fn put(
        &mut self,
        k: usize,
        host: *mut u8,
        len: usize,
        copy_in: bool,
    ) -> Result<u64, OffloadError>;

    /// Copies argument `k`'s `len` bytes at `address` on the device back to `host`.
    ///
    /// # Safety
    ///
    /// `host` must be writable for `len` bytes, and `address` what `put` gave for `k`.
    unsafe fn take(
        &mut self,
        k: usize,
        host: *mut u8,
        address: u64,
        len: usize,
    ) -> Result<(), OffloadError>;
}

/// Each argument's address on the device (0 for a value): device data's own, and for host
/// data the copy `memory` makes of it (only when the kernel reads it, by the compiler's access
/// facts). Every argument is reported under `OFFLOAD_INFO`.
pub(crate) fn map_in<M: ArgumentMemory>(
    found: &registry::Found,
    placements: &[Placement],
    memory: &mut M,
) -> Result<Vec<u64>, OffloadError> {
    let mut addresses = Vec::with_capacity(placements.len());
    map_in_into(found, placements, memory, &mut addresses)?;
    Ok(addresses)
}

/// `map_in` into `addresses` (cleared first), for a caller that keeps the vector between
/// launches (a stream's queued launches allocate nothing for it).
pub(crate) fn map_in_into<M: ArgumentMemory>(
    found: &registry::Found,
    placements: &[Placement],
    memory: &mut M,
    addresses: &mut Vec<u64>,
) -> Result<(), OffloadError> {
    addresses.clear();
    for (k, placement) in placements.iter().enumerate() {
        addresses.push(match *placement {
            Placement::Value(_) => 0,
            Placement::OnDevice { address, len, how } => {
                crate::report::info_copy(found, k, how, len, crate::report::clock());
                address
            }
            Placement::Copy { host, len, .. } => {
                let t = crate::report::clock();
                let copy_in = found.info.params.get(k).is_none_or(|p| p.access.needs_copy_in())
                    && len > 0
                    && !M::IN_PLACE;
                // SAFETY: `host` is an argument of the launch, borrowed for it: `len`
                // readable bytes, writable when the argument is.
                let address = unsafe { memory.put(k, host, len, copy_in)? };
                let what = if M::IN_PLACE {
                    "used in place (host image)"
                } else if copy_in {
                    crate::report::count_transfer(true, len);
                    "to device"
                } else {
                    "not copied in (the kernel does not read it)"
                };
                crate::report::info_copy(found, k, what, len, t);
                address
            }
        });
    }
    Ok(())
}

/// Copies back each writable argument the kernel may write (by the compiler's access facts)
/// from the address `map_in` gave it. Nothing moves on a device that runs in place.
pub(crate) fn map_back<M: ArgumentMemory>(
    found: &registry::Found,
    placements: &[Placement],
    addresses: &[u64],
    memory: &mut M,
) -> Result<(), OffloadError> {
    if M::IN_PLACE {
        return Ok(());
    }
    for (k, placement) in placements.iter().enumerate() {
        if let Placement::Copy { host, len, writable: true } = *placement
            && copies_back(found, k)
            && len > 0
        {
            let t = crate::report::clock();
            // SAFETY: `host` is a writable argument of the launch, `len` bytes, and
            // `addresses[k]` its copy on the device.
            unsafe { memory.take(k, host, addresses[k], len)? };
            crate::report::info_copy(found, k, "from device", len, t);
            crate::report::count_transfer(false, len);
        }
    }
    Ok(())
}

/// Whether the kernel may write argument `k`, so that the launch copies it back (when the
/// argument is writable).
pub(crate) fn copies_back(found: &registry::Found, k: usize) -> bool {
    found.info.params.get(k).is_none_or(|p| p.access.needs_copy_back())
}

/// The memory of a device that runs on host memory itself (the host image): an argument's
/// address is its host address.
pub(crate) struct InPlace;

impl ArgumentMemory for InPlace {
    const IN_PLACE: bool = true;

    unsafe fn put(
        &mut self,
        _: usize,
        host: *mut u8,
        _: usize,
        _: bool,
    ) -> Result<u64, OffloadError> {
        Ok(host as usize as u64)
    }

    unsafe fn take(&mut self, _: usize, _: *mut u8, _: u64, _: usize) -> Result<(), OffloadError> {
        Ok(())
    }
}

/// The memory of an asynchronous launch, which copies nothing: host data is refused, naming
/// the argument.
pub(crate) struct NoCopies<'a>(pub &'a registry::Found);

impl ArgumentMemory for NoCopies<'_> {
    unsafe fn put(&mut self, k: usize, _: *mut u8, _: usize, _: bool) -> Result<u64, OffloadError> {
        Err(host_memory_refused(self.0, k))
    }

    unsafe fn take(&mut self, _: usize, _: *mut u8, _: u64, _: usize) -> Result<(), OffloadError> {
        Ok(())
    }
}
