//! The host threads that run launches on the CPU: one pool, started at the first launch that
//! needs it and kept for the process, shared by the host image and the simulator, so that a
//! launch starts no thread (starting one per worker per launch cost more than a short
//! kernel: 156–290 µs a one-block launch on the simulator, on 2 cores).

use std::sync::OnceLock;

/// The stack of each worker thread. The host image's kernels that wait at barriers run as one
/// function per block that keeps each thread's values in its frame (up to 32 MiB, the
/// compiler's limit), more than a default thread's stack holds. The stacks are reserved, not
/// touched, so a kernel that needs little costs little.
const WORKER_STACK: usize = 64 << 20;

/// The host's hardware threads, asked once: `available_parallelism` reads the process's
/// cgroup files at every call, which cost a launch of one block on the simulator a fifth of
/// its time.
pub(crate) fn host_threads() -> usize {
    static THREADS: OnceLock<usize> = OnceLock::new();
    *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The worker threads: one per hardware thread, each with a stack of `WORKER_STACK` bytes; on
/// failure, why they could not be started.
pub(crate) fn pool() -> Result<&'static rayon_core::ThreadPool, String> {
    static POOL: OnceLock<Result<rayon_core::ThreadPool, String>> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon_core::ThreadPoolBuilder::new()
            .num_threads(host_threads())
            .stack_size(WORKER_STACK)
            .thread_name(|k| format!("rkc-cpu-{k}"))
            .build()
            .map_err(|e| e.to_string())
    })
    .as_ref()
    .map_err(Clone::clone)
}
