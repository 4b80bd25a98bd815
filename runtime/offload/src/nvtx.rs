//! NVTX ranges around launches and their copies, so that Nsight Systems and Nsight Compute
//! show (and `ncu --nvtx-include` selects) rkc's work by kernel name.
//!
//! NVTX 3 is a header-only C library: a program's `nvtxRangePushA` finds the profiler through
//! the `NVTX_INJECTION64_PATH` environment variable, which the profilers set, loads that
//! library and lets it fill a table of function pointers. This module implements that
//! protocol (`nvtxInitDefs.h`, `nvToolsExt.h`: the export tables `CALLBACKS` (1) and
//! `VERSIONINFO` (3), the `CORE` module's callback ids) so that nothing from CUDA is needed to
//! build, and nothing is loaded or called when no profiler is attached: then a range costs
//! one atomic load.

use std::ffi::{CString, c_char, c_int, c_uint, c_void};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicPtr, Ordering};

/// The slots the injection library fills: `nvtxRangePushA` and `nvtxRangePop` (CORE
/// callback ids 9 and 11).
static RANGE_PUSH: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());
static RANGE_POP: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());

/// One slot per CORE callback id (1..=15), the ones rkc does not use included, because the
/// injection library writes every slot the table lists.
struct Slots([AtomicPtr<c_void>; 16]);

static CORE_SLOTS: Slots = Slots([const { AtomicPtr::new(std::ptr::null_mut()) }; 16]);

/// The CORE module's function table as NVTX lays it out: pointers to the slots, index 0 and the
/// last unused (null).
struct Table([*mut *mut c_void; 17]);

// SAFETY: the table only holds addresses of static atomics.
unsafe impl Sync for Table {}
// SAFETY: as above.
unsafe impl Send for Table {}

static CORE_TABLE: OnceLock<Table> = OnceLock::new();

fn core_table() -> &'static Table {
    CORE_TABLE.get_or_init(|| {
        let mut t = [std::ptr::null_mut(); 17];
        for (id, slot) in t.iter_mut().enumerate().take(16).skip(1) {
            *slot = CORE_SLOTS.0[id].as_ptr();
        }
        Table(t)
    })
}

/// `NvtxExportTableCallbacks`.
#[repr(C)]
struct Callbacks {
    struct_size: usize,
    get_module_function_table: unsafe extern "C" fn(
        module: c_int,
        table: *mut *mut *mut *mut c_void,
        size: *mut c_uint,
    ) -> c_int,
}

/// `NvtxExportTableVersionInfo`.
#[repr(C)]
struct VersionInfo {
    struct_size: usize,
    version: u32,
    reserved0: u32,
    set_injection_nvtx_version: unsafe extern "C" fn(u32),
}

static CALLBACKS: Callbacks =
    Callbacks { struct_size: size_of::<Callbacks>(), get_module_function_table };

static VERSION_INFO: VersionInfo = VersionInfo {
    struct_size: size_of::<VersionInfo>(),
    version: 3,
    reserved0: 0,
    set_injection_nvtx_version,
};

unsafe extern "C" fn set_injection_nvtx_version(_: u32) {}

/// The number of callback ids of each module NVTX 3 defines (`NVTX_CBID_*_SIZE`): CORE,
/// CUDA, OPENCL, CUDART, CORE2, SYNC. An injection library asks for each and may give up when
/// one is missing, so the modules rkc does not call get tables too, whose slots it ignores.
const MODULE_SIZES: [c_uint; 6] = [16, 9, 15, 7, 16, 7];

/// The slots of the modules other than CORE, filled by the injection library and never used.
static OTHER_SLOTS: [[AtomicPtr<c_void>; 17]; 5] =
    [const { [const { AtomicPtr::new(std::ptr::null_mut()) }; 17] }; 5];

static OTHER_TABLES: OnceLock<[Table; 5]> = OnceLock::new();

fn module_table(module: c_int) -> Option<(&'static Table, c_uint)> {
    let size = *MODULE_SIZES.get(usize::try_from(module).ok()?.checked_sub(1)?)?;
    if module == 1 {
        return Some((core_table(), size));
    }
    let tables = OTHER_TABLES.get_or_init(|| {
        std::array::from_fn(|m| {
            let mut t = [std::ptr::null_mut(); 17];
            for (id, slot) in t.iter_mut().enumerate().take(MODULE_SIZES[m + 1] as usize).skip(1) {
                *slot = OTHER_SLOTS[m][id].as_ptr();
            }
            Table(t)
        })
    });
    Some((&tables[module as usize - 2], size))
}

/// `GetModuleFunctionTable`: the table of a module NVTX defines, and its callback count.
unsafe extern "C" fn get_module_function_table(
    module: c_int,
    table: *mut *mut *mut *mut c_void,
    size: *mut c_uint,
) -> c_int {
    let Some((t, n)) = module_table(module) else { return 0 };
    // SAFETY: the injection library passes valid out-pointers (or null ones, skipped).
    unsafe {
        if !table.is_null() {
            *table = t.0.as_ptr().cast_mut();
        }
        if !size.is_null() {
            *size = n;
        }
    }
    1
}

unsafe extern "C" fn get_export_table(id: u32) -> *const c_void {
    match id {
        1 => (&raw const CALLBACKS).cast(),
        3 => (&raw const VERSION_INFO).cast(),
        _ => std::ptr::null(),
    }
}

/// Loads the profiler's injection library once, when `NVTX_INJECTION64_PATH` names one, and
/// takes the range functions it installs.
fn init() -> bool {
    static READY: OnceLock<bool> = OnceLock::new();
    *READY.get_or_init(|| {
        let Some(path) = std::env::var_os("NVTX_INJECTION64_PATH") else { return false };
        let outcome = load(&path);
        crate::report::info(format_args!(
            "NVTX: injection library {}: {}",
            path.to_string_lossy(),
            match outcome {
                Ok(()) => "ranges on",
                Err(why) => why,
            }
        ));
        outcome.is_ok()
    })
}

fn load(path: &std::ffi::OsStr) -> Result<(), &'static str> {
    // SAFETY: the profiler set the variable to its own injection library, built to be loaded
    // into the profiled process; its entry point has NVTX's documented signature.
    unsafe {
        let lib = libloading::Library::new(path).map_err(|_| "cannot be loaded")?;
        type Init = unsafe extern "C" fn(unsafe extern "C" fn(u32) -> *const c_void) -> c_int;
        let entry = lib
            .get::<Init>(b"InitializeInjectionNvtx2\0")
            .map_err(|_| "has no InitializeInjectionNvtx2")?;
        if entry(get_export_table) == 0 {
            return Err("InitializeInjectionNvtx2 failed");
        }
        // The library stays loaded for the life of the process, as NVTX's own loader leaves it.
        std::mem::forget(lib);
    }
    let (push, pop) =
        (CORE_SLOTS.0[9].load(Ordering::Acquire), CORE_SLOTS.0[11].load(Ordering::Acquire));
    if push.is_null() || pop.is_null() {
        return Err("installed no nvtxRangePushA / nvtxRangePop");
    }
    RANGE_PUSH.store(push, Ordering::Release);
    RANGE_POP.store(pop, Ordering::Release);
    Ok(())
}

/// An NVTX range, open until dropped; nothing when no profiler is attached.
pub(crate) struct Range(bool);

impl Range {
    /// Opens a range named `name`.
    pub(crate) fn new(name: impl FnOnce() -> String) -> Range {
        if !init() {
            return Range(false);
        }
        let push = RANGE_PUSH.load(Ordering::Acquire);
        if push.is_null() {
            return Range(false);
        }
        let Ok(name) = CString::new(name()) else { return Range(false) };
        // SAFETY: the injection library installed `nvtxRangePushA(const char*) -> int`.
        let push: unsafe extern "C" fn(*const c_char) -> c_int =
            unsafe { std::mem::transmute(push) };
        // SAFETY: `name` is NUL-terminated and lives for the call.
        unsafe { push(name.as_ptr()) };
        Range(true)
    }
}

impl Drop for Range {
    fn drop(&mut self) {
        let pop = RANGE_POP.load(Ordering::Acquire);
        if self.0 && !pop.is_null() {
            // SAFETY: the injection library installed `nvtxRangePop() -> int`.
            let pop: unsafe extern "C" fn() -> c_int = unsafe { std::mem::transmute(pop) };
            // SAFETY: a range was pushed on this thread by `new`.
            unsafe { pop() };
        }
    }
}
