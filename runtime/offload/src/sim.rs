//! The CPU simulator: runs a kernel's body (compiled by rustc for the host) once per
//! simulated thread, with the same mapping as the GPU: arguments are copied into separate
//! "device" buffers, the kernel sees only those, and writable ones are copied back.
//!
//! Blocks run in parallel on every host core; the threads of one block run one after another
//! on one host thread, in x-fastest order. A panic in a kernel thread (Rust's own bounds check,
//! division by zero, `assert!`) stops the launch and becomes [`OffloadError::KernelPanic`]
//! naming the block and thread.

use crate::args::{ArgMapping, IntoArgs};
use crate::builtins::{BlockState, ThreadPosition, set_block, set_position};
use crate::cuda::check_limits;
use crate::error::OffloadError;
use crate::registry::Found;
use crate::{Kernel, LaunchConfig};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The simulator's limits: those of current NVIDIA GPUs, so that a launch that works here also
/// launches there.
pub(crate) const MAX_THREADS_PER_BLOCK: u32 = 1024;
pub(crate) const MAX_BLOCK_DIM: [u32; 3] = [1024, 1024, 64];
pub(crate) const MAX_GRID_DIM: [u32; 3] = [i32::MAX as u32, 65535, 65535];
pub(crate) const MAX_SHARED_PER_BLOCK: u32 = 48 * 1024;

/// The kernel's parameters, shared by the host threads that run its simulated threads.
struct Shared<P>(P);

// SAFETY: the parameters are scalars and pointers into the launch's own device buffers, which
// outlive the scoped worker threads. Concurrent access through them is the kernel's own
// business, exactly as on a GPU.
unsafe impl<P> Sync for Shared<P> {}

pub(crate) fn launch<K: Kernel, A: IntoArgs<K::Params>>(
    found: &Found,
    args: &A,
    mappings: &[ArgMapping],
    config: &LaunchConfig,
    device: usize,
) -> Result<(), OffloadError> {
    let name = found.info.name.as_str();
    check_limits(
        name,
        config,
        MAX_THREADS_PER_BLOCK,
        MAX_BLOCK_DIM,
        MAX_GRID_DIM,
        MAX_SHARED_PER_BLOCK,
    )?;
    crate::runtime::info(format_args!(
        "launch {name} on the CPU simulator, workgroups {:?}, threads {:?}",
        config.workgroup_dim, config.thread_dim
    ));

    // Device buffers, 16-byte aligned like cudaMalloc's (which gives at least 256).
    let mut buffers: Vec<Vec<u128>> = Vec::with_capacity(mappings.len());
    let mut addresses = Vec::with_capacity(mappings.len());
    for (k, m) in mappings.iter().enumerate() {
        let copy = match *m {
            ArgMapping::Buffer { host, len, .. } => crate::resident::device_copy(
                host,
                len,
                crate::resident::Home::Simulator(device),
                found,
                k,
            )?,
            ArgMapping::Value { .. } => None,
        };
        match (*m, copy) {
            (ArgMapping::Value { .. }, _) => {
                buffers.push(Vec::new());
                addresses.push(0);
            }
            (ArgMapping::Buffer { len, .. }, Some(address)) => {
                crate::cuda::info_copy(
                    found,
                    k,
                    "resident, not copied",
                    len,
                    std::time::Instant::now(),
                );
                buffers.push(Vec::new());
                addresses.push(address);
            }
            (ArgMapping::Buffer { host, len, .. }, None) => {
                let mut buf = vec![0u128; len.div_ceil(16).max(1)];
                let t = std::time::Instant::now();
                if found.info.params.get(k).is_none_or(|p| p.access.needs_copy_in()) {
                    // SAFETY: `host` points at `len` readable bytes borrowed for the launch;
                    // `buf` has at least `len` bytes and does not overlap host memory.
                    unsafe {
                        std::ptr::copy_nonoverlapping(host, buf.as_mut_ptr().cast::<u8>(), len)
                    };
                    crate::cuda::info_copy(found, k, "to device", len, t);
                    crate::runtime::count_transfer(true, len);
                } else {
                    crate::cuda::info_copy(
                        found,
                        k,
                        "not copied in (the kernel does not read it)",
                        len,
                        t,
                    );
                }
                addresses.push(buf.as_mut_ptr() as usize as u64);
                buffers.push(buf);
            }
        }
    }
    let params = Shared(args.params(&addresses));
    let kernel_start = std::time::Instant::now();
    let shared = &params;
    // Binding `shared` whole inside the closure makes it capture the `Sync` wrapper, not the
    // (raw-pointer) field that edition 2024's disjoint captures would take.
    run_grid(name, config, found.info.barriers, &|| {
        let p: &Shared<K::Params> = shared;
        K::run_on_host(p.0)
    })?;
    crate::runtime::info(format_args!(
        "  kernel {name}: {:.3} ms",
        kernel_start.elapsed().as_secs_f64() * 1e3
    ));
    for (k, m) in mappings.iter().enumerate() {
        if let ArgMapping::Buffer { host, len, writable: true } = *m
            && !buffers[k].is_empty()
            && found.info.params.get(k).is_none_or(|p| p.access.needs_copy_back())
        {
            let t = std::time::Instant::now();
            // SAFETY: `host` points at `len` writable bytes (a `*mut`/`&mut` argument borrowed
            // for the launch); the buffer holds at least `len` bytes.
            unsafe { std::ptr::copy_nonoverlapping(buffers[k].as_ptr().cast::<u8>(), host, len) };
            crate::cuda::info_copy(found, k, "from device", len, t);
            crate::runtime::count_transfer(false, len);
        }
    }
    Ok(())
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
    check_limits(
        K::NAME,
        config,
        MAX_THREADS_PER_BLOCK,
        MAX_BLOCK_DIM,
        MAX_GRID_DIM,
        MAX_SHARED_PER_BLOCK,
    )?;
    // Raw runs do not know whether the kernel synchronises: run block threads together.
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
    let workers =
        std::thread::available_parallelism().map_or(1, |n| n.get() as u64).min(total).max(1);
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let failure: Mutex<Option<OffloadError>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
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
            });
        }
    });
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
    set_position(Some(ThreadPosition {
        thread_idx: thread,
        block_idx: block,
        block_dim: config.thread_dim,
        grid_dim: config.workgroup_dim,
    }));
    set_block(state);
    let result = catch_unwind(AssertUnwindSafe(body));
    set_block(std::ptr::null());
    set_position(None);
    result.map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".into());
        let location = PANIC_LOCATION.with(|p| std::mem::take(&mut *p.borrow_mut()));
        OffloadError::KernelPanic { kernel: name.into(), message, location, block, thread }
    })
}

fn threads_of(config: &LaunchConfig) -> Vec<[u32; 3]> {
    let [bx, by, bz] = config.thread_dim;
    (0..bz).flat_map(|z| (0..by).flat_map(move |y| (0..bx).map(move |x| [x, y, z]))).collect()
}

/// The threads of a block one after another (kernels without barriers or warp operations).
fn run_block(
    name: &str,
    config: &LaunchConfig,
    block: [u32; 3],
    body: &(dyn Fn() + Sync),
) -> Result<(), OffloadError> {
    install_panic_hook();
    let threads = threads_of(config);
    let state = BlockState::new(threads.len(), false, config.dyn_cache);
    for thread in threads {
        run_thread(name, config, block, thread, &state, body)?;
    }
    Ok(())
}

/// The threads of a block on host threads of their own, so that every thread of the block is
/// live at a barrier or warp operation; one that some threads never reach is reported, not
/// a hang.
fn run_block_together(
    name: &str,
    config: &LaunchConfig,
    block: [u32; 3],
    body: &(dyn Fn() + Sync),
) -> Result<(), OffloadError> {
    install_panic_hook();
    let threads = threads_of(config);
    let state = BlockState::new(threads.len(), true, config.dyn_cache);
    let failure: Mutex<Option<OffloadError>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for &thread in &threads {
            let (state, failure) = (&state, &failure);
            scope.spawn(move || {
                let result = run_thread(name, config, block, thread, state, body);
                state.exit();
                if let Err(e) = result {
                    failure.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert(e);
                }
            });
        }
    });
    match failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
