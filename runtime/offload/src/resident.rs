//! Resident device data, after upstream's later design (rust-lang/rust#124509):
//! `preload(&x)` copies `x` to the default device once; `preload_mut(&mut x)` does the same and
//! copies it back when its guard is dropped. While a guard lives, any launch whose argument
//! points into that host data uses the device copy, with no transfer (the cost upstream's
//! implicit mapping admits), through a map from host ranges to device copies. The guard's
//! borrow keeps the host from touching the data meanwhile. Guards of the same data share one
//! device copy, freed when the last one drops.

use crate::args::{ArgMapping, KernelArg};
use crate::error::OffloadError;
use crate::home::Home;
use crate::resident_map::{Entry, table};

/// Makes (or shares) the resident copy of `len` bytes at `host` on `device` (the default
/// device when `None`).
///
/// The table's lock is never held across a call into a device: a launch holds its device's
/// lock while it looks its arguments up in the table, so the other order could deadlock.
fn acquire(host: *const u8, len: usize, device: Option<i32>) -> Result<(), OffloadError> {
    let home = crate::runtime::home_of(device)?;
    if share(&mut table(), host, len, home)? {
        return Ok(());
    }
    let (memory, _) = home.alloc(len, false)?;
    // SAFETY: `host` has `len` readable bytes (borrowed by the guard), the new memory as many.
    // On failure the memory is freed as it drops.
    unsafe { home.memory()?.upload(memory.address, host, len)? };
    let mut t = table();
    // Another thread may have made the same copy meanwhile: then this one goes, after the lock.
    if share(&mut t, host, len, home)? {
        drop(t);
        drop(memory);
        return Ok(());
    }
    crate::report::info(format_args!("preload: {len} bytes to {home}, resident"));
    t.push(Entry { host: host as usize, len, home, refs: 1, lost: false, memory });
    Ok(())
}

/// Takes one more reference to the resident copy of `[host, host + len)` on `home` when there
/// is one; refused when it is lost or on another device.
fn share(t: &mut [Entry], host: *const u8, len: usize, home: Home) -> Result<bool, OffloadError> {
    let Some(e) = t.iter_mut().find(|e| e.host == host as usize && e.len == len) else {
        return Ok(false);
    };
    if e.lost {
        return Err(OffloadError::ResidentLost {
            kernel: "preload".into(),
            param: "preload".into(),
            device: e.home.to_string(),
        });
    }
    if e.home != home {
        return Err(OffloadError::InvalidLaunch {
            kernel: "preload".into(),
            reason: format!("this data is already resident on {}, not on {home}", e.home),
        });
    }
    e.refs += 1;
    Ok(true)
}

/// Drops one reference; with `copy_back`, first copies the device data to `host`. As in
/// `acquire`, the table's lock is not held across the copy or the free.
fn release(host: *mut u8, len: usize, copy_back: bool) -> Result<(), OffloadError> {
    let found = |t: &[Entry]| t.iter().position(|e| e.host == host as usize && e.len == len);
    let (home, device, lost) = {
        let t = table();
        let Some(k) = found(&t) else { return Ok(()) };
        (t[k].home, t[k].memory.address, t[k].lost)
    };
    // The reference held until below keeps the copy alive.
    let result = if copy_back && lost {
        Err(OffloadError::ResidentLost {
            kernel: "preload".into(),
            param: "finish".into(),
            device: home.to_string(),
        })
    } else if copy_back {
        crate::report::info(format_args!("preload: {len} bytes back from {home}"));
        // SAFETY: the copy has `len` bytes; `host` is the guard's exclusive borrow.
        home.memory().and_then(|m| unsafe { m.download(host, device, len) })
    } else {
        Ok(())
    };
    let gone = {
        let mut t = table();
        found(&t).and_then(|k| {
            t[k].refs -= 1;
            (t[k].refs == 0).then(|| t.remove(k))
        })
    };
    // The device copy is freed here, outside the lock (a lost one is not freed again).
    drop(gone);
    result
}

/// A read-only resident copy of `T` on the default device.
pub struct Preload<'a, T: ?Sized> {
    host: &'a T,
}

/// A resident copy of `T` on the default device that is copied back when dropped.
pub struct PreloadMut<'a, T: ?Sized> {
    host: &'a mut T,
}

/// Copies `x` to the default device for as long as the guard lives; launches that pass it (or
/// anything pointing into it) use the device copy. Panics on a device error; see
/// [`try_preload`].
pub fn preload<T: ?Sized>(x: &T) -> Preload<'_, T> {
    match try_preload(x) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    }
}

/// The fallible form of [`preload`].
pub fn try_preload<T: ?Sized>(x: &T) -> Result<Preload<'_, T>, OffloadError> {
    try_preload_on(None, x)
}

/// [`try_preload`] on a chosen device (`None`: the default device).
pub fn try_preload_on<T: ?Sized>(
    device: Option<i32>,
    x: &T,
) -> Result<Preload<'_, T>, OffloadError> {
    acquire((x as *const T).cast(), size_of_val(x), device)?;
    Ok(Preload { host: x })
}

/// Like [`preload`], and copies the device data back when the guard is dropped (or by
/// [`PreloadMut::finish`], which reports errors).
pub fn preload_mut<T: ?Sized>(x: &mut T) -> PreloadMut<'_, T> {
    match try_preload_mut(x) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    }
}

/// The fallible form of [`preload_mut`].
pub fn try_preload_mut<T: ?Sized>(x: &mut T) -> Result<PreloadMut<'_, T>, OffloadError> {
    try_preload_mut_on(None, x)
}

/// [`try_preload_mut`] on a chosen device (`None`: the default device).
pub fn try_preload_mut_on<T: ?Sized>(
    device: Option<i32>,
    x: &mut T,
) -> Result<PreloadMut<'_, T>, OffloadError> {
    acquire((x as *const T).cast(), size_of_val(x), device)?;
    Ok(PreloadMut { host: x })
}

/// Waits for every kernel this host thread submitted. rkc's launches complete before
/// `offload!` returns, so there is never anything to wait for; the function exists so that
/// code written for upstream's API compiles unchanged.
pub fn offload_sync() -> Result<(), OffloadError> {
    Ok(())
}

impl<T: ?Sized> Drop for Preload<'_, T> {
    fn drop(&mut self) {
        let _ = release((self.host as *const T).cast_mut().cast(), size_of_val(self.host), false);
    }
}

impl<'a, T: ?Sized> PreloadMut<'a, T> {
    /// Copies the device data back now and ends the residency, reporting a device error
    /// (which `drop` can only ignore).
    pub fn finish(self) -> Result<(), OffloadError> {
        let this = std::mem::ManuallyDrop::new(self);
        let len = size_of_val(&*this.host);
        release((&*this.host as *const T).cast_mut().cast(), len, true)
    }
}

impl<T: ?Sized> Drop for PreloadMut<'_, T> {
    fn drop(&mut self) {
        let len = size_of_val(&*self.host);
        let _ = release((&*self.host as *const T).cast_mut().cast(), len, true);
    }
}

// A guard passes for the parameter its data would pass for: the launch finds the resident
// copy by the host address and moves nothing.
impl<T> KernelArg<*const T> for &Preload<'_, [T]> {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer {
            host: self.host.as_ptr().cast_mut().cast(),
            len: size_of_val(self.host),
            writable: false,
        }
    }
    fn param(&self, device_address: u64) -> *const T {
        device_address as usize as *const T
    }
}

impl<T> KernelArg<*const [T]> for &Preload<'_, [T]> {
    fn mapping(&self) -> ArgMapping {
        <Self as KernelArg<*const T>>::mapping(self)
    }
    fn param(&self, device_address: u64) -> *const [T] {
        std::ptr::slice_from_raw_parts(device_address as usize as *const T, self.host.len())
    }
}

impl<T> KernelArg<*mut T> for &PreloadMut<'_, [T]> {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer {
            host: self.host.as_ptr().cast_mut().cast(),
            len: size_of_val(&*self.host),
            writable: true,
        }
    }
    fn param(&self, device_address: u64) -> *mut T {
        device_address as usize as *mut T
    }
}

impl<T> KernelArg<*mut [T]> for &PreloadMut<'_, [T]> {
    fn mapping(&self) -> ArgMapping {
        <Self as KernelArg<*mut T>>::mapping(self)
    }
    fn param(&self, device_address: u64) -> *mut [T] {
        std::ptr::slice_from_raw_parts_mut(device_address as usize as *mut T, self.host.len())
    }
}

// A guard of sized data (an array, a struct) for a pointer or reference parameter to it
// (`*mut [f32; 256]`, `&Params`). `T` is sized, so these never overlap the slice guards above.
impl<T> KernelArg<*mut T> for &PreloadMut<'_, T> {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer {
            host: (&*self.host as *const T).cast_mut().cast(),
            len: size_of::<T>(),
            writable: true,
        }
    }
    fn param(&self, device_address: u64) -> *mut T {
        device_address as usize as *mut T
    }
}

impl<T> KernelArg<*const T> for &Preload<'_, T> {
    fn mapping(&self) -> ArgMapping {
        ArgMapping::Buffer {
            host: (self.host as *const T).cast_mut().cast(),
            len: size_of::<T>(),
            writable: false,
        }
    }
    fn param(&self, device_address: u64) -> *const T {
        device_address as usize as *const T
    }
}
