//! The map from host ranges to their resident device copies (see `resident.rs`), which a
//! launch consults for every argument and a device reset marks lost.

use crate::error::OffloadError;
use crate::home::Home;
use std::sync::Mutex;

pub(crate) struct Entry {
    pub host: usize,
    pub len: usize,
    pub home: Home,
    pub refs: usize,
    /// The device was reset after a trap: the device copy is gone.
    pub lost: bool,
    /// The device copy (its address is that of `host`), freed when the entry goes.
    pub memory: crate::device::Allocation,
}

static RESIDENT: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

pub(crate) fn table() -> std::sync::MutexGuard<'static, Vec<Entry>> {
    RESIDENT.lock().unwrap_or_else(|e| e.into_inner())
}

/// The resident copy holding `[host, host + len)`, if any: its home and the device address of
/// `host`.
fn lookup(host: *const u8, len: usize) -> Option<(Home, u64, bool)> {
    let host = host as usize;
    table()
        .iter()
        .find(|e| host >= e.host && host + len <= e.host + e.len)
        .map(|e| (e.home, e.memory.address + (host - e.host) as u64, e.lost))
}

/// Marks every resident copy on `home` as lost (its device was reset after a trap).
pub(crate) fn lose_device(home: Home) {
    for e in table().iter_mut().filter(|e| e.home == home) {
        e.lost = true;
    }
}

/// For a launch on `here`: the device address of the resident copy holding an argument's
/// `[host, host + len)`, `None` when it is not resident, or the error when it is resident on
/// another device. One lookup per argument.
pub(crate) fn device_copy(
    host: *const u8,
    len: usize,
    here: Home,
    found: &crate::registry::Found,
    k: usize,
) -> Result<Option<u64>, OffloadError> {
    let param = || found.info.params.get(k).map_or_else(|| k.to_string(), |p| p.name.clone());
    match lookup(host, len) {
        None => Ok(None),
        Some((home, _, true)) => Err(OffloadError::ResidentLost {
            kernel: found.info.name.clone(),
            param: param(),
            device: home.to_string(),
        }),
        Some((home, address, false)) if home == here => Ok(Some(address)),
        Some((home, _, false)) => Err(OffloadError::ResidentElsewhere {
            kernel: found.info.name.clone(),
            param: param(),
            resident: home.to_string(),
            launch: here.to_string(),
        }),
    }
}
