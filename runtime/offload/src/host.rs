//! The host image: the kernels of a fat binary compiled by rkc for the host CPU, an x86-64 or
//! aarch64 ELF shared object that the runtime loads and calls directly, so that a machine
//! without a GPU runs compiled kernels instead of simulating them.
//!
//! The image's ABI is fixed by the compiler. For each kernel it can run, it exports
//! `__rkc_host_<kernel>(params, dims, block_begin, block_end)`:
//! - `params` is the array `cuLaunchKernel` gets: one pointer per parameter slot, each to a
//!   u64 that holds the value in its low bytes (a slice takes two slots, its address and its
//!   length in elements), the last one to the address of the panic record;
//! - `dims` points at the grid's x, y, z, the block's x, y, z, and the launch's dynamic shared
//!   memory in bytes;
//! - the call runs every thread of the blocks whose linear index (x + gx·(y + gy·z)) lies in
//!   `block_begin..block_end`, and may be made from several host threads at once for
//!   disjoint ranges.
//!
//! A kernel without such a symbol (one with 16-bit floats or 128-bit division, in this
//! version; the image's `rkc.left-out` string says why) runs on the simulator. A panicking kernel thread fills the panic
//! record as on a GPU, so the launch reports the same error as the GPU path.
//!
//! The image runs on host memory: arguments are passed by their host address and nothing is
//! copied. Only images of fat binaries the program registered itself are ever loaded.

use crate::LaunchConfig;
use crate::args::ArgMapping;
use crate::cuda::{PANIC_RECORD_BYTES, initial_record, read_panic_record};
use crate::error::OffloadError;
use crate::registry::{FatBinary, Found};
use offload_binary::{Image, ImageKind};
use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// The worker threads that run host images' blocks (and the simulator's), with their error.
fn pool() -> Result<&'static rayon_core::ThreadPool, OffloadError> {
    crate::workers::pool().map_err(|e| OffloadError::HostImage {
        reason: format!("its worker threads could not be started: {e}"),
    })
}

/// A kernel's entry point in a host image (see the module's documentation).
pub(crate) type Entry = unsafe extern "C" fn(*const *mut c_void, *const u32, u64, u64);

/// Whether a launch can run in the host image, and if not, why.
#[derive(Clone, Debug)]
pub(crate) enum HostEntry {
    /// The kernel's entry in the fat binary's host image, loaded.
    Ready(Entry),
    /// The kernel runs on the simulator; the reason, for `OFFLOAD_INFO`.
    Missing(String),
}

/// Whether this host can run host images at all: rkc writes them for x86-64 and aarch64 Linux.
pub(crate) const SUPPORTED: bool =
    cfg!(all(target_os = "linux", any(target_arch = "x86_64", target_arch = "aarch64")));

/// Why a host that is not one of those runs no host image.
const UNSUPPORTED: &str = "this host does not run host images (x86-64 and aarch64 Linux only)";

/// The ELF machine number of x86-64 (`EM_X86_64`).
#[cfg(not(target_arch = "aarch64"))]
const EM_X86_64: u16 = 62;
/// The ELF machine number and name of this host's images: x86-64, or AArch64 on 64-bit Arm.
/// (Elsewhere no image is loaded; x86-64's, for the tests of `check_elf`.)
#[cfg(not(target_arch = "aarch64"))]
const MACHINE: (u16, &str) = (EM_X86_64, "x86-64");
#[cfg(target_arch = "aarch64")]
const MACHINE: (u16, &str) = (183, "AArch64");
/// The ELF type of a shared object (`ET_DYN`).
const ET_DYN: u16 = 3;
/// The sizes of an ELF64 file header and program header.
const EHDR_BYTES: usize = 64;
const PHDR_BYTES: usize = 56;
/// The program header type of a loadable segment.
const PT_LOAD: u32 = 1;

/// The levels of this host's instruction set that rkc compiles host images for, the baseline
/// first: a fat binary holds one image for each, and the runtime loads the last one this CPU
/// runs. Each is also the image's `arch` string.
#[cfg(not(target_arch = "aarch64"))]
const LEVELS: &[&str] = &["x86-64", "x86-64-v3"];
#[cfg(target_arch = "aarch64")]
const LEVELS: &[&str] = &["aarch64"];

/// Whether this CPU has the features of level `arch` (std's run-time detection, which also
/// asks the operating system whether it saves the AVX registers). Every 64-bit Arm CPU runs
/// Armv8-A's baseline.
fn runs_level(arch: &str) -> bool {
    match arch {
        "x86-64" => cfg!(target_arch = "x86_64"),
        "aarch64" => cfg!(target_arch = "aarch64"),
        #[cfg(target_arch = "x86_64")]
        "x86-64-v3" => {
            std::arch::is_x86_feature_detected!("avx")
                && std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("f16c")
                && std::arch::is_x86_feature_detected!("fma")
                && std::arch::is_x86_feature_detected!("lzcnt")
                && std::arch::is_x86_feature_detected!("movbe")
                && std::arch::is_x86_feature_detected!("xsave")
        }
        _ => false,
    }
}

/// The best level of this CPU among those rkc compiles for (the device's `arch`).
pub(crate) fn cpu_level() -> &'static str {
    LEVELS.iter().rev().copied().find(|l| runs_level(l)).unwrap_or(LEVELS[0])
}

/// The fat binary's image for this host, if it has one: the ELF object for Linux on this
/// host's instruction set, of the highest level this CPU runs. An image of a level this
/// runtime does not know (made by a later rkc) is never chosen: its instructions might not run
/// here.
pub(crate) fn host_image(fatbin: &FatBinary) -> Option<&Image> {
    let rank = |i: &Image| LEVELS.iter().position(|&l| l == i.arch());
    fatbin
        .images
        .iter()
        .filter(|i| {
            let mut parts = i.triple().split('-');
            i.image_kind == ImageKind::Object
                && parts.next() == Some(std::env::consts::ARCH)
                && parts.any(|p| p == "linux")
                && rank(i).is_some_and(|k| runs_level(LEVELS[k]))
        })
        .max_by_key(|i| rank(i))
}

/// Checks that `bytes` are an ELF64 little-endian shared object for this host's machine
/// (`MACHINE`: x86-64 or AArch64) whose program headers,
/// and the file contents of every segment they describe, lie inside the bytes, so that the
/// dynamic loader neither rejects it with a less clear message nor maps pages past its end
/// (which would fault when touched). The error says what is wrong.
#[cfg_attr(
    not(all(target_os = "linux", any(target_arch = "x86_64", target_arch = "aarch64"))),
    allow(
        dead_code,
        reason = "only Linux on x86-64 and aarch64 loads host images; the tests check it anywhere"
    )
)]
pub(crate) fn check_elf(bytes: &[u8]) -> Result<(), String> {
    let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    let u32_at = |at: usize| {
        let mut b = [0u8; 4];
        b.copy_from_slice(&bytes[at..at + 4]);
        u32::from_le_bytes(b)
    };
    let u64_at = |at: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(b)
    };
    if !bytes.starts_with(b"\x7fELF") {
        return Err("it is not an ELF file (no \\x7fELF magic)".into());
    }
    if bytes.len() < EHDR_BYTES {
        return Err(format!(
            "it is truncated: {} bytes, fewer than an ELF64 header's {EHDR_BYTES}",
            bytes.len()
        ));
    }
    if bytes[4] != 2 {
        return Err(format!("its ELF class is {}, not ELFCLASS64 (2)", bytes[4]));
    }
    if bytes[5] != 1 {
        return Err(format!("its data encoding is {}, not little-endian (1)", bytes[5]));
    }
    if bytes[6] != 1 {
        return Err(format!("its ELF version is {}, not 1", bytes[6]));
    }
    let machine = u16_at(18);
    if machine != MACHINE.0 {
        let name = match machine {
            3 => " (x86, 32-bit)",
            40 => " (ARM)",
            62 => " (x86-64)",
            183 => " (AArch64)",
            190 => " (NVIDIA CUDA)",
            224 => " (AMD GPU)",
            243 => " (RISC-V)",
            _ => "",
        };
        return Err(format!("its machine is {machine}{name}, not {} ({})", MACHINE.1, MACHINE.0));
    }
    let ty = u16_at(16);
    if ty != ET_DYN {
        return Err(format!("its ELF type is {ty}, not a shared object (ET_DYN, {ET_DYN})"));
    }
    let (phoff, phentsize, phnum) = (u64_at(32), u16_at(54), u16_at(56));
    if phnum == 0 {
        return Err("it has no program headers".into());
    }
    if usize::from(phentsize) != PHDR_BYTES {
        return Err(format!("its program headers are {phentsize} bytes, not {PHDR_BYTES}"));
    }
    let table_end = phoff.checked_add(u64::from(phnum) * PHDR_BYTES as u64);
    let Some(table_end) = table_end.filter(|&end| end <= bytes.len() as u64) else {
        return Err(format!(
            "its program header table ({phnum} entries at byte {phoff}) ends past its {} bytes",
            bytes.len()
        ));
    };
    let mut loadable = false;
    for at in (phoff..table_end).step_by(PHDR_BYTES) {
        // The table lies inside the bytes, so every header's offset fits a usize.
        let at = at as usize;
        let (kind, offset, filesz) = (u32_at(at), u64_at(at + 8), u64_at(at + 32));
        loadable |= kind == PT_LOAD;
        if offset.checked_add(filesz).is_none_or(|end| end > bytes.len() as u64) {
            return Err(format!(
                "it is truncated: a segment's {filesz} bytes at byte {offset} end past its {} bytes",
                bytes.len()
            ));
        }
    }
    if !loadable {
        return Err("it has no loadable segment".into());
    }
    Ok(())
}

/// The entry of `found`'s kernel in its fat binary's host image: the image is loaded on the
/// first call for that fat binary, and each kernel's symbol looked up once.
pub(crate) fn entry(found: &Found) -> Result<HostEntry, OffloadError> {
    if !SUPPORTED {
        return Ok(HostEntry::Missing(UNSUPPORTED.into()));
    }
    if host_image(&found.fatbin).is_none() {
        return Ok(HostEntry::Missing("the fat binary has no host image".into()));
    }
    loader::entry(found)
}

#[cfg(all(target_os = "linux", any(target_arch = "x86_64", target_arch = "aarch64")))]
mod loader {
    use super::{Entry, HostEntry, check_elf, host_image};
    use crate::error::OffloadError;
    use crate::registry::Found;
    use libloading::os::unix::{Library, RTLD_LOCAL, RTLD_NOW};
    use std::collections::{BTreeMap, HashMap};
    use std::fs::File;
    use std::io::Write as _;
    use std::os::fd::{AsRawFd as _, FromRawFd as _};
    use std::sync::{Arc, Mutex};

    /// A loaded host image, kept for the life of the process.
    struct Loaded {
        library: Library,
        /// The memory file the library was loaded from, kept open as long as the library is
        /// loaded. glibc's `dlopen` finds an already loaded library by the path it was opened
        /// with: were this descriptor closed, a later image loaded through the same
        /// `/proc/self/fd/<n>` would be given this library instead (measured on glibc 2.36).
        _file: File,
        /// Each kernel's entry, or why the image has none, as looked up.
        entries: Mutex<HashMap<String, Result<Entry, String>>>,
        /// The image's `rkc.left-out` lines (`name: reason`), the compiler's reasons for the
        /// kernels it has no entry for.
        left_out: String,
    }

    /// The host images loaded so far, by fat-binary id; a failure to load is kept too, so
    /// that every launch reports it without trying again.
    static LOADED: Mutex<BTreeMap<usize, Result<Arc<Loaded>, OffloadError>>> =
        Mutex::new(BTreeMap::new());

    pub(super) fn entry(found: &Found) -> Result<HostEntry, OffloadError> {
        let loaded = {
            let mut all = LOADED.lock().unwrap_or_else(|e| e.into_inner());
            all.entry(found.fatbin.id).or_insert_with(|| load(found).map(Arc::new)).clone()?
        };
        let name = found.info.name.as_str();
        let mut entries = loaded.entries.lock().unwrap_or_else(|e| e.into_inner());
        let entry = entries.entry(name.to_string()).or_insert_with(|| {
            let symbol = format!("__rkc_host_{name}");
            // SAFETY: every `__rkc_host_*` symbol of a host image is a function of the type
            // `Entry` (the compiler's fixed ABI). A kernel name that is no symbol name (a NUL
            // in it) finds nothing.
            match unsafe { loaded.library.get::<Entry>(symbol.as_bytes()) } {
                Ok(symbol) => Ok(*symbol),
                Err(_) => Err(left_out_reason(&loaded.left_out, name)),
            }
        });
        Ok(match entry {
            Ok(entry) => HostEntry::Ready(*entry),
            Err(why) => HostEntry::Missing(why.clone()),
        })
    }

    /// Why the host image has no entry for `kernel`: the compiler's reason where the image
    /// records one, else the reason of this first version of host images.
    fn left_out_reason(left_out: &str, kernel: &str) -> String {
        let recorded = left_out.lines().find_map(|line| {
            let (name, reason) = line.split_once(':')?;
            (name.trim() == kernel).then(|| reason.trim())
        });
        match recorded {
            Some(reason) if !reason.is_empty() => format!("the host image leaves it out: {reason}"),
            _ => "the host image has no entry for it (kernels with 16-bit floats or 128-bit \
                  division run on the simulator)"
                .into(),
        }
    }

    /// Loads the host image of `found`'s fat binary: checked as ELF, written to an anonymous
    /// memory file (no path on disk that another user could replace between the write and
    /// the load), and opened through `/proc/self/fd`.
    fn load(found: &Found) -> Result<Loaded, OffloadError> {
        let bad = |reason: String| OffloadError::HostImage { reason };
        let Some(image) = host_image(&found.fatbin) else {
            return Err(bad("the fat binary has no host image".into()));
        };
        check_elf(&image.bytes).map_err(bad)?;
        // SAFETY: the name is a NUL-terminated literal.
        // `MFD_CLOEXEC` keeps the descriptor out of child processes.
        let fd = unsafe { libc::memfd_create(c"rkc-host-image".as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            let e = std::io::Error::last_os_error();
            return Err(bad(format!("memfd_create failed: {e}")));
        }
        // SAFETY: `fd` is a new descriptor that nothing else owns; the `File` closes it.
        let mut file = unsafe { File::from_raw_fd(fd) };
        file.write_all(&image.bytes)
            .map_err(|e| bad(format!("cannot write it to a memory file: {e}")))?;
        let path = format!("/proc/self/fd/{}", file.as_raw_fd());
        // SAFETY: loading runs the image's initialisers. The image comes from a fat binary
        // the program registered itself, made by rkc, whose images hold only kernels.
        let library = unsafe { Library::open(Some(&path), RTLD_NOW | RTLD_LOCAL) }
            .map_err(|e| bad(format!("the dynamic loader refused it: {e}")))?;
        crate::report::info(format_args!(
            "loaded the host image of a fat binary ({}, {} bytes)",
            image.arch(),
            image.bytes.len()
        ));
        Ok(Loaded {
            library,
            _file: file,
            entries: Mutex::new(HashMap::new()),
            left_out: image.string(offload_binary::LEFT_OUT_KEY).unwrap_or_default().to_string(),
        })
    }
}

#[cfg(not(all(target_os = "linux", any(target_arch = "x86_64", target_arch = "aarch64"))))]
mod loader {
    use super::{HostEntry, UNSUPPORTED};
    use crate::error::OffloadError;
    use crate::registry::Found;

    pub(super) fn entry(_: &Found) -> Result<HostEntry, OffloadError> {
        Ok(HostEntry::Missing(UNSUPPORTED.into()))
    }
}

/// A launch's panic record: PANIC_RECORD_BYTES bytes as u32 words, 8-byte aligned for its
/// u64 fields, written by the kernel's threads through atomic and plain stores.
#[repr(C, align(8))]
struct Record([AtomicU32; PANIC_RECORD_BYTES / 4]);

/// What the worker threads share: the entry and the pointers it is called with.
struct Call {
    entry: Entry,
    params: *const *mut c_void,
    dims: *const u32,
}

// SAFETY: the pointers are to the launch's parameter array and dimensions, which live (and
// are not written) until the scoped workers have finished; the entry is thread-safe for
// disjoint block ranges (the ABI's promise).
unsafe impl Sync for Call {}

/// Runs a launch in the host image: every argument by its host address, the blocks spread
/// over the host's cores, and a panic reported as on a GPU.
pub(crate) fn launch(
    found: &Found,
    entry: Entry,
    mappings: &[ArgMapping],
    config: &LaunchConfig,
    device: usize,
) -> Result<(), OffloadError> {
    let name = found.info.name.as_str();
    let placements =
        crate::sim::cpu_launch(found, mappings, config, device, "the CPU (host image)")?;
    // Host data is the kernel's memory here: no copy in, none back.
    let addresses = crate::placement::map_in(found, &placements, &mut crate::placement::InPlace)?;
    let mut storage = crate::cuda::parameters(found, &placements, &addresses);
    // A print buffer for a kernel that prints: the launch's own, in host memory, which the
    // kernel's threads fill with atomic claims and plain stores, read after they are joined.
    let mut prints: Vec<u64> = Vec::new();
    if !found.info.print_sites.is_empty() {
        let bytes = crate::print::buffer_bytes();
        prints = vec![0u64; bytes / 8];
        let header = crate::print::initial_header(bytes);
        for (k, w) in prints.iter_mut().take(crate::print::HEADER_BYTES / 8).enumerate() {
            let mut b = [0u8; 8];
            b.copy_from_slice(&header[8 * k..8 * k + 8]);
            *w = u64::from_le_bytes(b);
        }
    }
    let print_address = (!prints.is_empty()).then_some(prints.as_mut_ptr() as usize as u64);
    let initial = initial_record(None, print_address);
    let record = Record(std::array::from_fn(|k| {
        AtomicU32::new(u32::from_le_bytes([
            initial[4 * k],
            initial[4 * k + 1],
            initial[4 * k + 2],
            initial[4 * k + 3],
        ]))
    }));
    storage.push(record.0.as_ptr() as usize as u64);
    let params: Vec<*mut c_void> = storage.iter_mut().map(|v| (v as *mut u64).cast()).collect();
    let [gx, gy, gz] = config.workgroup_dim;
    let [bx, by, bz] = config.thread_dim;
    let dims = [gx, gy, gz, bx, by, bz, config.dyn_cache];
    let call = Call { entry, params: params.as_ptr(), dims: dims.as_ptr() };

    let kernel_start = crate::report::clock();
    let blocks = u64::from(gx) * u64::from(gy) * u64::from(gz);
    let pool = pool()?;
    let workers = (pool.current_num_threads() as u64).min(blocks).max(1);
    // Chunks of about an eighth of a worker's share: few enough that taking one costs
    // nothing, many enough that workers finishing early take over the rest.
    let chunk = (blocks / (workers * 8)).max(1);
    let next = AtomicU64::new(0);
    let work = || {
        let call: &Call = &call;
        // After a panic the other blocks need not run (on a GPU, what they write is
        // unspecified then too), so each chunk starts only while the record is unclaimed.
        while record.0[0].load(Ordering::Relaxed) == 0 {
            let begin = next.fetch_add(chunk, Ordering::Relaxed);
            if begin >= blocks {
                break;
            }
            let end = begin.saturating_add(chunk).min(blocks);
            // SAFETY: `params` has one pointer per parameter slot of the kernel, to values the
            // placements made (host addresses borrowed for the launch, device buffers' memory,
            // scalars), the panic record last, as the metadata checked against the host
            // describes; `dims` holds 7 values; the ranges of the workers are disjoint.
            unsafe { (call.entry)(call.params, call.dims, begin, end) };
        }
    };
    // The workers are the pool's threads, whose large stacks a kernel that waits at barriers
    // needs: it runs as one function per block that keeps each thread's values in its frame
    // (up to 32 MiB, the compiler's limit), more than a default thread's or the caller's
    // stack holds. The stacks are reserved, not touched, so a kernel that needs little costs
    // little. Launches from several host threads share the pool.
    pool.scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|_| work());
        }
    });
    crate::report::info(format_args!(
        "  kernel {name}: {:.3} ms on {workers} host threads",
        crate::report::ms_since(kernel_start)
    ));
    let mut raw = [0u8; PANIC_RECORD_BYTES];
    for (k, word) in record.0.iter().enumerate() {
        raw[4 * k..4 * k + 4].copy_from_slice(&word.load(Ordering::Relaxed).to_le_bytes());
    }
    if let [claimed, usable, lost, records @ ..] = prints.as_slice() {
        let mut header = [0u8; crate::print::HEADER_BYTES];
        for (k, w) in [claimed, usable, lost].into_iter().enumerate() {
            header[8 * k..8 * k + 8].copy_from_slice(&w.to_le_bytes());
        }
        let (n, lost) = crate::print::written(&header);
        let bytes: Vec<u8> = records.iter().take(n / 8).flat_map(|w| w.to_le_bytes()).collect();
        crate::print::emit(&bytes, lost, &[&found.info]);
    }
    match read_panic_record(&raw, found) {
        Some(panic) => Err(panic),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use offload_binary::{KernelInfo, OffloadKind};
    use std::path::{Path, PathBuf};
    use std::sync::Arc;

    /// The smallest image `check_elf` accepts: an ELF64 header and one loadable segment
    /// covering the file.
    fn minimal_elf() -> Vec<u8> {
        let mut b = vec![0u8; EHDR_BYTES + PHDR_BYTES];
        b[..4].copy_from_slice(b"\x7fELF");
        b[4] = 2;
        b[5] = 1;
        b[6] = 1;
        b[16..18].copy_from_slice(&ET_DYN.to_le_bytes());
        b[18..20].copy_from_slice(&MACHINE.0.to_le_bytes());
        b[32..40].copy_from_slice(&(EHDR_BYTES as u64).to_le_bytes());
        b[54..56].copy_from_slice(&(PHDR_BYTES as u16).to_le_bytes());
        b[56..58].copy_from_slice(&1u16.to_le_bytes());
        let ph = EHDR_BYTES;
        b[ph..ph + 4].copy_from_slice(&PT_LOAD.to_le_bytes());
        b[ph + 32..ph + 40].copy_from_slice(&((EHDR_BYTES + PHDR_BYTES) as u64).to_le_bytes());
        b
    }

    /// Another machine's number and what `check_elf` says of it: AArch64 on x86-64, x86-64 on
    /// AArch64.
    fn foreign_machine() -> (u16, String) {
        let (number, name) = if MACHINE.0 == 183 { (62, "x86-64") } else { (183, "AArch64") };
        (number, format!("its machine is {number} ({name}), not {} ({})", MACHINE.1, MACHINE.0))
    }

    /// The Linux triple of this host's instruction set, as rkc writes it.
    fn triple() -> String {
        format!("{}-unknown-linux-gnu", std::env::consts::ARCH)
    }

    fn refused(bytes: &[u8], expected: &str) {
        match check_elf(bytes) {
            Ok(()) => panic!("accepted an image that should fail with `{expected}`"),
            Err(e) => assert!(e.contains(expected), "`{e}` does not say `{expected}`"),
        }
    }

    #[test]
    fn elf_checks() {
        let good = minimal_elf();
        assert_eq!(check_elf(&good), Ok(()));
        refused(b"", "not an ELF file");
        refused(b"\x10\xff\x10\xad not an ELF file at all", "not an ELF file");
        refused(&good[..40], "truncated: 40 bytes");
        // Every truncation is refused, never read past.
        for cut in 0..good.len() {
            assert!(check_elf(&good[..cut]).is_err(), "accepted {cut} bytes");
        }
        let with = |at: usize, value: &[u8]| {
            let mut b = good.clone();
            b[at..at + value.len()].copy_from_slice(value);
            b
        };
        let (foreign, says) = foreign_machine();
        refused(&with(18, &foreign.to_le_bytes()), &says);
        refused(&with(18, &3u16.to_le_bytes()), "machine is 3 (x86, 32-bit)");
        refused(&with(4, &[1]), "not ELFCLASS64");
        refused(&with(5, &[2]), "not little-endian");
        refused(&with(16, &2u16.to_le_bytes()), "not a shared object");
        refused(&with(56, &0u16.to_le_bytes()), "no program headers");
        refused(&with(56, &2u16.to_le_bytes()), "program header table (2 entries");
        refused(&with(32, &u64::MAX.to_le_bytes()), "program header table");
        refused(&with(54, &32u16.to_le_bytes()), "program headers are 32 bytes");
        refused(&with(EHDR_BYTES, &6u32.to_le_bytes()), "no loadable segment");
        // A segment whose file contents end past the image: a shared object cut short.
        refused(&with(EHDR_BYTES + 32, &1000u64.to_le_bytes()), "a segment's 1000 bytes");
        refused(&with(EHDR_BYTES + 8, &u64::MAX.to_le_bytes()), "truncated");
    }

    /// The toy kernels' C source: `toy` writes `y[i] = scale * sinf(x[i])` for the global
    /// index `i < n` (1-D, x only) and panics like rkc's bounds check where `i` is past either
    /// slice; `VALUE` is the scale, so that two builds differ.
    const TOY_C: &str = r#"
typedef unsigned long long u64;
typedef unsigned int u32;
extern float sinf(float);
void __rkc_host_toy(void *const *params, const u32 *dims, u64 begin, u64 end) {
    u64 n = *(const u64 *)params[0];
    const float *x = (const float *)*(const u64 *)params[1];
    u64 xlen = *(const u64 *)params[2];
    float *y = (float *)*(const u64 *)params[3];
    u64 ylen = *(const u64 *)params[4];
    u32 *record = (u32 *)*(const u64 *)params[5];
    u64 gx = dims[0], gy = dims[1];
    for (u64 b = begin; b < end; b++) {
        u32 block[3] = {(u32)(b % gx), (u32)(b / gx % gy), (u32)(b / (gx * gy))};
        for (u32 tz = 0; tz < dims[5]; tz++)
        for (u32 ty = 0; ty < dims[4]; ty++)
        for (u32 tx = 0; tx < dims[3]; tx++) {
            u64 i = (u64)block[0] * dims[3] + tx;
            if (i >= n) continue;
            u64 len = i >= xlen ? xlen : ylen;
            if (i >= len) {
                u32 unclaimed = 0;
                if (__atomic_compare_exchange_n(&record[0], &unclaimed, 1, 0,
                                                __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
                    record[1] = 0;
                    record[2] = block[0]; record[3] = block[1]; record[4] = block[2];
                    record[5] = tx; record[6] = ty; record[7] = tz;
                    ((u64 *)record)[4] = i;
                    ((u64 *)record)[5] = len;
                }
                return;
            }
            y[i] = VALUE * sinf(x[i]);
        }
    }
}
"#;

    const TOY_METADATA: &str = "rkc-kernels 1\nkernel\ttoy\nsource\ttoy.rs\n\
        param\tn\tusize\tvalue\t8\tread\n\
        param\tx\t&[f32]\tslice\t4\tread\n\
        param\ty\t&mut [f32]\tslice-mut\t4\twrite\n\
        panic\t3\t9\tindex out of bounds: the len is {len} but the index is {index}\n\
        kernel\tother\nsource\ttoy.rs\n";

    /// A C compiler for the toy image: LLVM 22's clang, as the toolchain installs it, else
    /// the system's.
    fn c_compiler() -> Option<&'static str> {
        ["clang-22", "/usr/lib/llvm-22/bin/clang", "clang", "cc"].into_iter().find(|c| {
            std::process::Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
    }

    /// Builds the toy image with `VALUE` = `value`, as rkc's are built: position-independent,
    /// with libm as its only dependency (`sinf` comes from it).
    fn toy_image(cc: &str, dir: &Path, value: &str) -> Vec<u8> {
        let source = dir.join("toy.c");
        let image = dir.join(format!("toy-{value}.so"));
        std::fs::write(&source, TOY_C).expect("write the toy source");
        let status = std::process::Command::new(cc)
            .args(["-shared", "-fPIC", "-O2", "-nostdlib", &format!("-DVALUE={value}f"), "-o"])
            .arg(&image)
            .arg(&source)
            // libm as a dependency of the image, as rkc's images have it (`sinf` comes from it).
            .arg("-lm")
            .status()
            .expect("run the C compiler");
        assert!(status.success(), "{cc} could not build the toy image");
        std::fs::read(&image).expect("read the toy image")
    }

    /// A fat binary with a GPU image (metadata only) and the host image `bytes`, under an id
    /// no registered fat binary has.
    fn toy_fatbin(id: usize, bytes: Vec<u8>) -> Arc<FatBinary> {
        let kernels: Vec<Arc<KernelInfo>> = offload_binary::metadata::decode(TOY_METADATA)
            .expect("toy metadata")
            .into_iter()
            .map(Arc::new)
            .collect();
        let host = Image {
            image_kind: ImageKind::Object,
            offload_kind: OffloadKind::None,
            flags: 0,
            strings: vec![
                ("triple".into(), triple()),
                ("arch".into(), LEVELS[0].into()),
                (offload_binary::KERNELS_KEY.into(), TOY_METADATA.into()),
                (offload_binary::LEFT_OUT_KEY.into(), "other: it waits at a barrier\n".into()),
            ],
            bytes,
        };
        let gpu = offload_binary::metadata::metadata_only_image(&[]);
        Arc::new(FatBinary { id, images: vec![gpu, host], kernels: vec![Vec::new(), kernels] })
    }

    /// Of a fat binary's host images, the one of the highest level this CPU runs is loaded,
    /// never one of a level this runtime does not know.
    #[test]
    fn chooses_the_best_level_this_cpu_runs() {
        let image = |arch: &str| Image {
            image_kind: ImageKind::Object,
            offload_kind: OffloadKind::None,
            flags: 0,
            strings: vec![("triple".into(), triple()), ("arch".into(), arch.into())],
            bytes: arch.as_bytes().to_vec(),
        };
        let fatbin = |archs: &[&str]| FatBinary {
            id: usize::MAX,
            images: archs.iter().map(|a| image(a)).collect(),
            kernels: vec![Vec::new(); archs.len()],
        };
        // A level a later rkc might add, between the known ones.
        let unknown = format!("{}-v9", LEVELS[0]);
        let mut archs: Vec<&str> = LEVELS.iter().rev().copied().collect();
        archs.insert(1, &unknown);
        let all = fatbin(&archs);
        let chosen = host_image(&all).expect("an image").arch();
        #[cfg(target_arch = "x86_64")]
        assert_eq!(chosen, if runs_level("x86-64-v3") { "x86-64-v3" } else { "x86-64" });
        assert_eq!(chosen, cpu_level());
        assert_eq!(host_image(&fatbin(&[LEVELS[0]])).expect("the baseline").arch(), LEVELS[0]);
        assert!(host_image(&fatbin(&[&unknown])).is_none());
    }

    fn found(fatbin: &Arc<FatBinary>, kernel: &str) -> Found {
        let info = fatbin.kernels[1].iter().find(|k| k.name == kernel).expect("kernel");
        Found { fatbin: Arc::clone(fatbin), info: Arc::clone(info) }
    }

    fn scratch() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("rkc-host-image-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        dir
    }

    fn run(
        found: &Found,
        n: usize,
        x: &mut [f32],
        y: &mut [f32],
        blocks: u32,
    ) -> Result<(), OffloadError> {
        let HostEntry::Ready(entry) = entry(found)? else { panic!("no entry for toy") };
        let mappings = [
            ArgMapping::Value { bytes: (n as u64).to_le_bytes(), len: 8 },
            ArgMapping::Buffer { host: x.as_mut_ptr().cast(), len: x.len() * 4, writable: false },
            ArgMapping::Buffer { host: y.as_mut_ptr().cast(), len: y.len() * 4, writable: true },
        ];
        let config = LaunchConfig {
            workgroup_dim: [blocks, 1, 1],
            thread_dim: [32, 1, 1],
            dyn_cache: 0,
            device: None,
        };
        launch(found, entry, &mappings, &config, 0)
    }

    /// A launch through a host image built here from C: every element computed in place,
    /// libm resolved from the process, a missing entry reported as such, a bounds panic
    /// reported as the GPU path reports it, and two images loaded one after the other each
    /// used for its own fat binary.
    #[test]
    fn launch_through_a_host_image() {
        if !SUPPORTED {
            eprintln!("skipped: {UNSUPPORTED}");
            return;
        }
        let Some(cc) = c_compiler() else {
            eprintln!("skipped: no C compiler (clang-22, clang or cc) to build the toy image");
            return;
        };
        let dir = scratch();
        let first = toy_fatbin(usize::MAX, toy_image(cc, &dir, "2.0"));
        let second = toy_fatbin(usize::MAX - 1, toy_image(cc, &dir, "3.0"));
        let _ = std::fs::remove_dir_all(&dir);

        let n = 5000;
        let mut x: Vec<f32> = (0..n).map(|i| i as f32 * 0.001).collect();
        let mut y = vec![0.0f32; n];
        let blocks = n.div_ceil(32) as u32;
        run(&found(&first, "toy"), n, &mut x, &mut y, blocks).expect("the launch");
        for i in 0..n {
            assert_eq!(y[i], 2.0 * x[i].sin(), "element {i}");
        }
        run(&found(&second, "toy"), n, &mut x, &mut y, blocks).expect("the second image");
        assert_eq!(y[n - 1], 3.0 * x[n - 1].sin(), "the second image runs its own code");

        match entry(&found(&first, "other")) {
            Ok(HostEntry::Missing(why)) => {
                assert_eq!(why, "the host image leaves it out: it waits at a barrier");
            }
            other => panic!("`other` has no entry, but the lookup gave {other:?}"),
        }

        // Thread 3 of block 2 (index 67) is the first past the slices' 67 elements.
        let (mut x, mut y) = (vec![1.0f32; 67], vec![0.0f32; 67]);
        // Three blocks, so that only block 2 panics and the first of its threads to do so is
        // the one the record names, however the blocks are spread over host threads.
        let e = run(&found(&first, "toy"), 100, &mut x, &mut y, 3).expect_err("a panic");
        assert_eq!(
            e,
            OffloadError::KernelPanic {
                kernel: "toy".into(),
                message: "index out of bounds: the len is 67 but the index is 67".into(),
                location: "toy.rs:3:9".into(),
                block: [2, 0, 0],
                thread: [3, 0, 0],
            }
        );
    }

    /// A fat binary whose host image is not a shared object is refused with the reason.
    #[test]
    fn a_bad_host_image_is_refused() {
        if !SUPPORTED {
            return;
        }
        let mut elf = minimal_elf();
        let (foreign, says) = foreign_machine();
        elf[18..20].copy_from_slice(&foreign.to_le_bytes());
        let fatbin = toy_fatbin(usize::MAX - 2, elf);
        let e = entry(&found(&fatbin, "toy")).expect_err("refused");
        assert!(e.to_string().contains(&says), "{e}");
        let fatbin = toy_fatbin(usize::MAX - 3, b"not an ELF file".to_vec());
        let e = entry(&found(&fatbin, "toy")).expect_err("refused");
        assert!(e.to_string().contains("not an ELF file"), "{e}");
    }
}
