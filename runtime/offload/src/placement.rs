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
    let param =
        |k: usize| found.info.params.get(k).map_or_else(|| k.to_string(), |p| p.name.clone());
    mappings
        .iter()
        .enumerate()
        .map(|(k, m)| match *m {
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
        })
        .collect()
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
