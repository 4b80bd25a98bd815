//! The CPU simulator: runs a kernel's body (compiled by rustc for the host) once per
//! simulated thread, with the same mapping as the GPU: arguments are copied into separate
//! "device" buffers, the kernel sees only those, and writable ones are copied back.
//!
//! Blocks run in parallel on every host core. The threads of one block run on one host thread:
//! one after another in x-fastest order when the kernel never synchronises (one loop that moves
//! the thread's position), else as stackful coroutines (`corosensei`) that switch at each
//! barrier and warp operation, and every 64th atomic operation so that a thread spinning on a
//! flag lets the others run. A panic in a kernel thread (Rust's own bounds check,
//! division by zero, `assert!`) stops the launch and becomes [`OffloadError::KernelPanic`]
//! naming the block and thread.

use crate::args::{ArgMapping, IntoArgs};
use crate::builtins::{
    BlockState, ThreadPosition, set_block, set_position, set_thread_idx, thread_idx,
};
use crate::cuda::check_limits;
use crate::device::HostBody;
use crate::error::OffloadError;
use crate::placement::Placement;
use crate::registry::Found;
use crate::{Kernel, LaunchConfig};
use corosensei::stack::{Stack, StackPointer};
use corosensei::{Coroutine, CoroutineResult, Yielder};
use std::cell::RefCell;
use std::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The simulator's limits: those of current NVIDIA GPUs, so that a launch that works here also
/// launches there (shared memory: what a kernel may ask for on sm_90, which the CUDA backend
/// asks for when a launch's `dyn_cache` needs it).
pub(crate) const MAX_THREADS_PER_BLOCK: u32 = 1024;
pub(crate) const MAX_BLOCK_DIM: [u32; 3] = [1024, 1024, 64];
pub(crate) const MAX_GRID_DIM: [u32; 3] = [i32::MAX as u32, 65535, 65535];
pub(crate) const MAX_SHARED_PER_BLOCK: u32 = 227 * 1024;

/// The kernel's parameters, shared by the host threads that run its simulated threads.
struct Shared<P>(P);

// SAFETY: the parameters are scalars and pointers into the launch's own device buffers, which
// outlive the scoped worker threads. Concurrent access through them is the kernel's own
// business, exactly as on a GPU.
unsafe impl<P> Sync for Shared<P> {}

/// A kernel `K`'s Rust body with the arguments of one launch, for [`launch`].
pub(crate) struct Body<'a, K, A> {
    args: &'a A,
    kernel: PhantomData<K>,
}

impl<'a, K: Kernel, A: IntoArgs<K::Params>> Body<'a, K, A> {
    pub(crate) fn new(args: &'a A) -> Self {
        Body { args, kernel: PhantomData }
    }
}

impl<K: Kernel, A: IntoArgs<K::Params>> HostBody for Body<'_, K, A> {
    fn run_with(
        &self,
        addresses: &[u64],
        run: &mut dyn FnMut(&(dyn Fn() + Sync)) -> Result<(), OffloadError>,
    ) -> Result<(), OffloadError> {
        let params = Shared(self.args.params(addresses));
        let shared = &params;
        // Binding `shared` whole inside the closure makes it capture the `Sync` wrapper, not
        // the (raw-pointer) field that edition 2024's disjoint captures would take.
        run(&|| {
            let p: &Shared<K::Params> = shared;
            K::run_on_host(p.0)
        })
    }
}

/// Runs a launch on the simulator (simulated device `device`): each thread runs `body`.
pub(crate) fn launch(
    found: &Found,
    body: &dyn HostBody,
    mappings: &[ArgMapping],
    config: &LaunchConfig,
    device: usize,
) -> Result<(), OffloadError> {
    let name = found.info.name.as_str();
    let placements = cpu_launch(found, mappings, config, device, "the CPU simulator")?;
    let mut memory = Buffers(Vec::new());
    let addresses = crate::placement::map_in(found, &placements, &mut memory)?;
    let kernel_start = crate::report::clock();
    body.run_with(&addresses, &mut |thread| run_grid(name, config, found.info.barriers, thread))?;
    crate::report::info(format_args!(
        "  kernel {name}: {:.3} ms",
        crate::report::ms_since(kernel_start)
    ));
    crate::placement::map_back(found, &placements, &addresses, &mut memory)?;
    Ok(())
}

/// A launch's own buffers for the arguments it copies, 16-byte aligned like cudaMalloc's
/// (which gives at least 256), apart from host memory: the kernel sees only what the mapping
/// gives it, as on a GPU.
struct Buffers(Vec<crate::host_memory::HostBlock>);

impl crate::placement::ArgumentMemory for Buffers {
    unsafe fn put(
        &mut self,
        _: usize,
        host: *mut u8,
        len: usize,
        copy_in: bool,
    ) -> Result<u64, OffloadError> {
        let mut buffer = crate::host_memory::HostBlock::zeroed(len)?;
        if copy_in {
            // SAFETY: `host` has `len` readable bytes (the caller's promise); the buffer has
            // at least `len` bytes and does not overlap host memory.
            unsafe { std::ptr::copy_nonoverlapping(host, buffer.as_mut_ptr(), len) };
        }
        let address = buffer.as_mut_ptr() as usize as u64;
        // Moving the block keeps its memory where it is: the address stays valid until the
        // launch drops its buffers.
        self.0.push(buffer);
        Ok(address)
    }

    unsafe fn take(
        &mut self,
        _: usize,
        host: *mut u8,
        address: u64,
        len: usize,
    ) -> Result<(), OffloadError> {
        // SAFETY: `address` is one of this launch's buffers, of at least `len` bytes; `host`
        // is writable for `len` bytes (the caller's promise), apart from it.
        unsafe { std::ptr::copy_nonoverlapping(address as usize as *const u8, host, len) };
        Ok(())
    }
}

/// The CPU's launch limits, those of current NVIDIA GPUs (see `MAX_THREADS_PER_BLOCK`).
fn check_cpu_limits(name: &str, config: &LaunchConfig) -> Result<(), OffloadError> {
    check_limits(
        name,
        config,
        MAX_THREADS_PER_BLOCK,
        MAX_BLOCK_DIM,
        MAX_GRID_DIM,
        MAX_SHARED_PER_BLOCK,
    )
}

/// What every launch on the CPU (the simulator's, the host image's) does first: the GPU's
/// limits checked, the launch reported under `OFFLOAD_INFO` as running on `executor`, and
/// each argument placed for the CPU (simulated) device `device`.
pub(crate) fn cpu_launch(
    found: &Found,
    mappings: &[ArgMapping],
    config: &LaunchConfig,
    device: usize,
    executor: &str,
) -> Result<Vec<Placement>, OffloadError> {
    let name = found.info.name.as_str();
    check_cpu_limits(name, config)?;
    crate::report::info(format_args!(
        "launch {name} on {executor}, workgroups {:?}, threads {:?}",
        config.workgroup_dim, config.thread_dim
    ));
    crate::placement::place(found, mappings, crate::home::Home::Simulator(device), |_| true)
}

/// Runs a kernel over raw arguments (scalar bits, buffer addresses) on the simulator: the
/// same threads, positions and panic capture as a launch, without mapping. The caller owns
/// the buffers the addresses point into.
///
/// # Safety
///
/// Every pointer argument must be the address of memory that is valid for everything the
/// kernel does through it.
pub unsafe fn simulate_raw<K: Kernel>(
    config: &LaunchConfig,
    args: &[u64],
) -> Result<(), OffloadError> {
    check_cpu_limits(K::NAME, config)?;
    // Raw runs do not know whether the kernel synchronises: run block threads together (as
    // coroutines, which costs little more than running them one after another).
    run_grid(K::NAME, config, true, &|| K::run_raw(args))
}

/// Runs `body` once per simulated thread of the grid.
fn run_grid(
    name: &str,
    config: &LaunchConfig,
    barriers: bool,
    body: &(dyn Fn() + Sync),
) -> Result<(), OffloadError> {
    let [gx, gy, gz] = config.workgroup_dim.map(u64::from);
    let total = gx * gy * gz;
    // The host's worker threads (shared with the host image, started once): a launch of one
    // block runs on the calling thread instead, and so does every launch if the workers could
    // not be started.
    let pool = if total > 1 { crate::workers::pool().ok() } else { None };
    let workers = pool.map_or(1, |p| (p.current_num_threads() as u64).min(total));
    if barriers && !guard_markers() {
        // Every worker needs a stack per thread of its block at once. Mapped here, by one
        // thread, before the workers start: mapped by the workers at their first block, the
        // stacks' `mprotect` calls contend for the process's memory-map lock. With guard
        // markers each worker maps its own at its first block, all of them at once: the
        // markers take the lock only for reading.
        let [bx, by, bz] = config.thread_dim.map(|d| d as usize);
        fill_stacks(name, workers as usize * bx * by * bz)?;
    }
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let failure: Mutex<Option<OffloadError>> = Mutex::new(None);
    let work = || {
        while !stop.load(Ordering::Relaxed) {
            let b = next.fetch_add(1, Ordering::Relaxed);
            if b >= total {
                break;
            }
            let block = [(b % gx) as u32, (b / gx % gy) as u32, (b / (gx * gy)) as u32];
            let result = if barriers {
                run_block_together(name, config, block, body)
            } else {
                run_block(name, config, block, body)
            };
            if let Err(e) = result {
                stop.store(true, Ordering::Relaxed);
                let mut slot = failure.lock().unwrap_or_else(|p| p.into_inner());
                slot.get_or_insert(e);
            }
        }
        set_position(None);
    };
    match pool {
        // The scope's own closure runs on a worker too, and works beside the ones it starts.
        Some(pool) if workers > 1 => pool.scope(|scope| {
            for _ in 1..workers {
                scope.spawn(|_| work());
            }
            work();
        }),
        _ => work(),
    }
    match failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

thread_local! {
    /// Where the current simulated thread's last panic happened.
    static PANIC_LOCATION: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Installs, once, a panic hook that records the location of panics in simulated threads (and
/// keeps them off stderr: they become `OffloadError::KernelPanic`) and leaves every other
/// panic to the hook that was there before.
fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if crate::builtins::in_kernel() {
                let location = info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
                    .unwrap_or_default();
                PANIC_LOCATION.with(|p| *p.borrow_mut() = location);
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs one thread of a block on the calling host thread, turning its panic into the error.
fn run_thread(
    name: &str,
    config: &LaunchConfig,
    block: [u32; 3],
    thread: [u32; 3],
    state: &BlockState,
    body: &(dyn Fn() + Sync),
) -> Result<(), OffloadError> {
    set_position(Some(position(config, block, thread)));
    set_block(state);
    let result = catch_unwind(AssertUnwindSafe(body));
    set_block(std::ptr::null());
    set_position(None);
    result.map_err(|payload| kernel_panic(name, payload, block, thread))
}

fn position(config: &LaunchConfig, block: [u32; 3], thread: [u32; 3]) -> ThreadPosition {
    ThreadPosition {
        thread_idx: thread,
        block_idx: block,
        block_dim: config.thread_dim,
        grid_dim: config.workgroup_dim,
    }
}

/// The error for a simulated thread's panic, with the message and the place the panic hook
/// recorded.
fn kernel_panic(
    name: &str,
    payload: Box<dyn std::any::Any + Send>,
    block: [u32; 3],
    thread: [u32; 3],
) -> OffloadError {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into());
    let location = PANIC_LOCATION.with(|p| std::mem::take(&mut *p.borrow_mut()));
    OffloadError::KernelPanic { kernel: name.into(), message, location, block, thread }
}

/// The threads of a block in x-fastest order.
fn threads_of(config: &LaunchConfig) -> impl Iterator<Item = [u32; 3]> {
    let [bx, by, bz] = config.thread_dim;
    (0..bz).flat_map(move |z| (0..by).flat_map(move |y| (0..bx).map(move |x| [x, y, z])))
}

/// The threads of a block one after another (kernels without barriers or warp operations):
/// one loop that only moves the thread's position, inside one `catch_unwind` for the block,
/// so that a short kernel body is most of the time spent.
fn run_block(
    name: &str,
    config: &LaunchConfig,
    block: [u32; 3],
    body: &(dyn Fn() + Sync),
) -> Result<(), OffloadError> {
    install_panic_hook();
    let [bx, by, bz] = config.thread_dim;
    let state = BlockState::new((bx * by * bz) as usize, false, config.dyn_cache);
    set_block(&state);
    set_position(Some(position(config, block, [0; 3])));
    let result = catch_unwind(AssertUnwindSafe(|| {
        for z in 0..bz {
            for y in 0..by {
                for x in 0..bx {
                    set_thread_idx([x, y, z]);
                    body();
                }
            }
        }
    }));
    // The thread that panicked is the position the loop left behind.
    let thread = thread_idx().unwrap_or_default();
    set_block(std::ptr::null());
    set_position(None);
    result.map_err(|payload| kernel_panic(name, payload, block, thread))
}

/// The stack of a simulated thread that runs as a coroutine: 2 MiB of address space (what a
/// host thread gets by default, so that a kernel that ran on host threads of their own still
/// has room), of which only the pages the thread touches take memory.
const STACK_BYTES: usize = 2 << 20;

/// Coroutine stacks, kept between blocks and launches: creating one maps memory, which costs
/// more than running a short kernel thread.
static STACKS: Mutex<Vec<SimStack>> = Mutex::new(Vec::new());

/// The most stacks kept: a full block (1024 threads) for each of 16 host threads.
const STACKS_KEPT: usize = 16 * 1024;

/// The threads of a block as coroutines on the calling host thread, so that every thread of
/// the block is live at a barrier or warp operation: each runs until it must wait, then the
/// next one runs, round after round, until all have left the kernel. A barrier or warp
/// operation that some threads never reach is reported (by `rkc_simt::BlockSync`), not a hang.
fn run_block_together(
    name: &str,
    config: &LaunchConfig,
    block: [u32; 3],
    body: &(dyn Fn() + Sync),
) -> Result<(), OffloadError> {
    install_panic_hook();
    let threads: Vec<[u32; 3]> = threads_of(config).collect();
    let state = BlockState::new(threads.len(), true, config.dyn_cache);
    let failure: RefCell<Option<OffloadError>> = RefCell::new(None);
    let mut stacks = take_stacks(name, threads.len())?;
    let mut coroutines = Vec::with_capacity(threads.len());
    for &thread in &threads {
        let (state, failure) = (&state, &failure);
        let Some(stack) = stacks.pop() else { break };
        let run = move |yielder: &Yielder<(), ()>, ()| {
            crate::builtins::enter_coroutine(yielder);
            let result = run_thread(name, config, block, thread, state, body);
            state.exit();
            crate::builtins::enter_coroutine(std::ptr::null());
            if let Err(e) = result {
                failure.borrow_mut().get_or_insert(e);
            }
        };
        // SAFETY: the coroutine borrows `state`, `failure`, `config` and `body`, which live
        // until this function returns; every coroutine is run to completion below (a thread
        // that panics is caught inside `run_thread`, and one stuck at a barrier is released
        // with an error) and is gone by then.
        coroutines.push(unsafe { Coroutine::with_stack_unchecked(stack, run) });
    }
    let mut live: Vec<usize> = (0..coroutines.len()).collect();
    while !live.is_empty() {
        live.retain(|&k| matches!(coroutines[k].resume(()), CoroutineResult::Yield(())));
    }
    let mut pool = STACKS.lock().unwrap_or_else(|p| p.into_inner());
    let room = STACKS_KEPT.saturating_sub(pool.len());
    pool.extend(coroutines.into_iter().map(Coroutine::into_stack).take(room));
    drop(pool);
    match failure.into_inner() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Maps stacks until the pool holds `n` (or as many as it keeps).
fn fill_stacks(kernel: &str, n: usize) -> Result<(), OffloadError> {
    let mut pool = STACKS.lock().unwrap_or_else(|p| p.into_inner());
    let missing = n.min(STACKS_KEPT).saturating_sub(pool.len());
    pool.extend(map_stacks(kernel, missing)?);
    Ok(())
}

/// `n` coroutine stacks, from those kept or newly mapped.
fn take_stacks(kernel: &str, n: usize) -> Result<Vec<SimStack>, OffloadError> {
    let mut stacks = {
        let mut pool = STACKS.lock().unwrap_or_else(|p| p.into_inner());
        let at = pool.len().saturating_sub(n);
        pool.split_off(at)
    };
    let missing = n - stacks.len();
    stacks.extend(map_stacks(kernel, missing)?);
    Ok(stacks)
}

/// A coroutine stack carved from a region mapped for a batch of them: `STACK_BYTES` usable,
/// below them a guard page that stays inaccessible, so that an overflow faults instead of
/// writing into the next stack. One `mmap` per batch, where corosensei's `DefaultStack` makes
/// an `mmap` and an `mprotect` per stack: with 256 threads a block and a block per host
/// thread, a first launch maps thousands. The guard pages are Linux's guard markers where the
/// kernel has them (`MADV_GUARD_INSTALL`, 6.13), which leave the batch one mapping; else each
/// stack's usable part is made accessible by an `mprotect` of its own, which splits the
/// mapping in two per stack and takes the process's memory-map lock for writing (about 2 µs a
/// stack on the development machine).
struct SimStack {
    base: usize,
    limit: usize,
    /// The batch's mapping, unmapped when its last stack is dropped.
    _region: Arc<Region>,
}

// SAFETY: `base` is the top of `STACK_BYTES` of readable and writable memory owned by the
// region the stack keeps alive, aligned to a page (more than `STACK_ALIGNMENT`); `limit` is
// the bottom of its guard page, which is mapped without access. Nothing else uses the range.
unsafe impl Stack for SimStack {
    fn base(&self) -> StackPointer {
        StackPointer::new(self.base).expect("a mapped stack's top is not null")
    }
    fn limit(&self) -> StackPointer {
        StackPointer::new(self.limit).expect("a mapped stack's bottom is not null")
    }
}

/// A batch of stacks' mapping.
struct Region {
    address: usize,
    len: usize,
}

impl Drop for Region {
    fn drop(&mut self) {
        // SAFETY: the mapping was made by `map_stacks` with this length, and its last stack
        // is gone.
        unsafe { libc::munmap(self.address as *mut libc::c_void, self.len) };
    }
}

/// `n` new stacks in one mapping.
fn map_stacks(kernel: &str, n: usize) -> Result<Vec<SimStack>, OffloadError> {
    if n == 0 {
        return Ok(Vec::new());
    }
    let fail = |what: &str| OffloadError::InvalidLaunch {
        kernel: kernel.into(),
        reason: format!(
            "cannot map the stacks of {n} simulated threads ({what}: {})",
            std::io::Error::last_os_error()
        ),
    };
    let page = page_size();
    let slot = STACK_BYTES + page;
    let len = slot.checked_mul(n).ok_or_else(|| fail("too much address space"))?;
    // SAFETY: a new private anonymous mapping without access, owned by the region below;
    // `MAP_NORESERVE`, as a thread's stack, takes memory only where it is touched.
    let address = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_NONE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if address == libc::MAP_FAILED {
        return Err(fail("mmap"));
    }
    let region = Arc::new(Region { address: address as usize, len });
    let guard_markers = guard_markers();
    if guard_markers {
        install_guards(region.address, len, slot, page, n).map_err(fail)?;
    }
    let mut stacks = Vec::with_capacity(n);
    for k in 0..n {
        let limit = region.address + k * slot;
        // SAFETY: the stack's usable part of the region above, past its guard page.
        let usable = guard_markers
            || unsafe {
                libc::mprotect(
                    (limit + page) as *mut libc::c_void,
                    STACK_BYTES,
                    libc::PROT_READ | libc::PROT_WRITE,
                )
            } == 0;
        if !usable {
            return Err(fail("mprotect"));
        }
        stacks.push(SimStack { base: limit + slot, limit, _region: Arc::clone(&region) });
    }
    Ok(stacks)
}

/// Linux's `madvise` advice that turns pages into guard pages in the page tables (6.13; the
/// `libc` crate does not name it yet).
const MADV_GUARD_INSTALL: libc::c_int = 102;
/// Whether this kernel has guard markers: unknown (0) until `guard_markers` probes, then one
/// of these.
static GUARD_MARKERS: AtomicU8 = AtomicU8::new(0);
const HAS_GUARD_MARKERS: u8 = 1;
const NO_GUARD_MARKERS: u8 = 2;

/// Whether this kernel has guard markers, found out once with a mapping of two pages.
fn guard_markers() -> bool {
    match GUARD_MARKERS.load(Ordering::Relaxed) {
        HAS_GUARD_MARKERS => return true,
        NO_GUARD_MARKERS => return false,
        _ => {}
    }
    let page = page_size();
    // SAFETY: a new private anonymous mapping of two pages, unmapped below; nothing else
    // uses it.
    let probe = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            2 * page,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if probe == libc::MAP_FAILED {
        return false;
    }
    // SAFETY: the probe's first page, which nothing uses; then the whole probe, once.
    let has = unsafe { libc::madvise(probe, page, MADV_GUARD_INSTALL) } == 0;
    unsafe { libc::munmap(probe, 2 * page) };
    GUARD_MARKERS.store(if has { HAS_GUARD_MARKERS } else { NO_GUARD_MARKERS }, Ordering::Relaxed);
    has
}

/// Makes a fresh batch's region (`n` slots of `slot` bytes from `address`, without access)
/// accessible with a guard marker on each slot's first page; on failure, the call that failed.
fn install_guards(
    address: usize,
    len: usize,
    slot: usize,
    page: usize,
    n: usize,
) -> Result<(), &'static str> {
    // SAFETY: the region is this batch's own mapping of `len` bytes; nothing uses it yet.
    if unsafe {
        libc::mprotect(address as *mut libc::c_void, len, libc::PROT_READ | libc::PROT_WRITE)
    } != 0
    {
        return Err("mprotect");
    }
    for k in 0..n {
        // SAFETY: the first page of slot `k` of the region, which nothing uses yet.
        if unsafe {
            libc::madvise((address + k * slot) as *mut libc::c_void, page, MADV_GUARD_INSTALL)
        } != 0
        {
            return Err("madvise(MADV_GUARD_INSTALL)");
        }
    }
    Ok(())
}

/// The size of a memory page.
fn page_size() -> usize {
    // SAFETY: `sysconf` has no preconditions.
    usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(4096)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the kernel can read the byte at `address` on this process's behalf: a write
    /// from it into a pipe fails with `EFAULT` where the page is inaccessible, where touching
    /// it here would end the test with a fault.
    fn readable(address: usize) -> bool {
        let mut fds = [0; 2];
        // SAFETY: `fds` has room for the two descriptors.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        // SAFETY: the kernel checks the source address itself; the descriptors are this
        // test's own and closed once.
        let written = unsafe { libc::write(fds[1], address as *const libc::c_void, 1) };
        let error = std::io::Error::last_os_error().raw_os_error();
        unsafe {
            libc::close(fds[0]);
            libc::close(fds[1]);
        }
        assert!(written == 1 || error == Some(libc::EFAULT), "{written} {error:?}");
        written == 1
    }

    fn check_guards(stacks: &[SimStack]) {
        let page = page_size();
        for s in stacks {
            assert_eq!(s.base - s.limit, STACK_BYTES + page);
            assert!(!readable(s.limit) && !readable(s.limit + page - 1), "the guard page");
            assert!(readable(s.limit + page) && readable(s.base - 1), "the usable stack");
        }
    }

    #[test]
    fn every_stack_has_an_inaccessible_page_below_it() {
        // With guard markers where the kernel has them, and with an `mprotect` per stack as
        // on older kernels.
        check_guards(&map_stacks("guards", 3).unwrap());
        let had = GUARD_MARKERS.swap(NO_GUARD_MARKERS, Ordering::Relaxed);
        check_guards(&map_stacks("guards", 3).unwrap());
        GUARD_MARKERS.store(had, Ordering::Relaxed);
    }
}
