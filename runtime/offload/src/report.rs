//! What `OFFLOAD_INFO` reports (each launch's transfers and times, on stderr, like
//! `LIBOMPTARGET_INFO`) and the byte counts of launches' transfers: the one module every
//! backend writes its report through.

use crate::registry::Found;
use std::sync::OnceLock;

/// Whether `OFFLOAD_INFO` asks for a report of every launch's transfers on stderr (like
/// LIBOMPTARGET_INFO): each argument copied, its direction, bytes and time, and the kernel's
/// time.
pub(crate) fn info_enabled() -> bool {
    static INFO: OnceLock<bool> = OnceLock::new();
    *INFO.get_or_init(|| std::env::var("OFFLOAD_INFO").is_ok_and(|v| !v.is_empty() && v != "0"))
}

/// The time now when `OFFLOAD_INFO` reports launches, for the report's durations; `None`
/// otherwise, so that a launch without the report reads no clock (a sixth of the runtime's own
/// time per launch, measured).
pub(crate) fn clock() -> Option<std::time::Instant> {
    info_enabled().then(std::time::Instant::now)
}

/// Milliseconds since `start` (0 without a clock).
pub(crate) fn ms_since(start: Option<std::time::Instant>) -> f64 {
    start.map_or(0.0, |s| s.elapsed().as_secs_f64() * 1e3)
}

/// One line of the transfer report.
pub(crate) fn info(line: std::fmt::Arguments<'_>) {
    if info_enabled() {
        eprintln!("[offload] {line}");
    }
}

static BYTES_IN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static BYTES_OUT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Counts bytes that launches copied to (`to_device`) or from a device.
pub(crate) fn count_transfer(to_device: bool, bytes: usize) {
    let counter = if to_device { &BYTES_IN } else { &BYTES_OUT };
    counter.fetch_add(bytes as u64, std::sync::atomic::Ordering::Relaxed);
}

/// The bytes launches have copied to devices and back since the program started (resident
/// data's one-time copies are not launches' and not counted), for measuring what the mapping
/// costs.
pub fn transfer_totals() -> (u64, u64) {
    use std::sync::atomic::Ordering::Relaxed;
    (BYTES_IN.load(Relaxed), BYTES_OUT.load(Relaxed))
}

/// Reports one argument's copy when `OFFLOAD_INFO` is set.
pub(crate) fn info_copy(
    found: &Found,
    k: usize,
    what: &str,
    bytes: usize,
    start: Option<std::time::Instant>,
) {
    if let Some(start) = start {
        let p = found.info.params.get(k);
        crate::report::info(format_args!(
            "  {} ({}): {bytes} bytes {what} in {:.3} ms",
            p.map_or("?", |p| p.name.as_str()),
            p.map_or("?", |p| p.ty.as_str()),
            start.elapsed().as_secs_f64() * 1e3
        ));
    }
}
