//! The kernel builtins, host side. rkc compiles calls to them into `gpu.thread_id` and its
//! siblings; on the CPU simulator they read the simulated thread's position. They are
//! `unsafe fn`s, like upstream's arch intrinsics, so that kernels type-check the same way under
//! rustc and rkc.

use std::cell::Cell;

/// Where the current simulated thread is in its launch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ThreadPosition {
    pub thread_idx: [u32; 3],
    pub block_idx: [u32; 3],
    pub block_dim: [u32; 3],
    pub grid_dim: [u32; 3],
}

thread_local! {
    static POSITION: Cell<Option<ThreadPosition>> = const { Cell::new(None) };
}

/// Sets the simulated position of the calling host thread (`None` outside a kernel).
pub(crate) fn set_position(position: Option<ThreadPosition>) {
    POSITION.with(|p| p.set(position));
}

/// Whether the calling host thread is running a simulated kernel thread.
pub(crate) fn in_kernel() -> bool {
    POSITION.with(Cell::get).is_some()
}

#[track_caller]
fn position(builtin: &str) -> ThreadPosition {
    match POSITION.with(Cell::get) {
        Some(p) => p,
        None => panic!("{builtin}() was called outside a kernel launch"),
    }
}

macro_rules! geometry {
    ($($name:ident, $field:ident, $dim:expr, $doc:literal;)*) => {$(
        #[doc = $doc]
        ///
        /// # Safety
        ///
        /// Only meaningful inside a kernel; called elsewhere it panics.
        #[track_caller]
        #[inline]
        pub unsafe fn $name() -> u32 {
            position(stringify!($name)).$field[$dim]
        }
    )*};
}

geometry! {
    thread_idx_x, thread_idx, 0, "The thread's index in its workgroup, x (CUDA's threadIdx.x).";
    thread_idx_y, thread_idx, 1, "The thread's index in its workgroup, y (CUDA's threadIdx.y).";
    thread_idx_z, thread_idx, 2, "The thread's index in its workgroup, z (CUDA's threadIdx.z).";
    block_idx_x, block_idx, 0, "The workgroup's index in the grid, x (CUDA's blockIdx.x).";
    block_idx_y, block_idx, 1, "The workgroup's index in the grid, y (CUDA's blockIdx.y).";
    block_idx_z, block_idx, 2, "The workgroup's index in the grid, z (CUDA's blockIdx.z).";
    block_dim_x, block_dim, 0, "Threads per workgroup, x (CUDA's blockDim.x).";
    block_dim_y, block_dim, 1, "Threads per workgroup, y (CUDA's blockDim.y).";
    block_dim_z, block_dim, 2, "Threads per workgroup, z (CUDA's blockDim.z).";
    grid_dim_x, grid_dim, 0, "Workgroups in the grid, x (CUDA's gridDim.x).";
    grid_dim_y, grid_dim, 1, "Workgroups in the grid, y (CUDA's gridDim.y).";
    grid_dim_z, grid_dim, 2, "Workgroups in the grid, z (CUDA's gridDim.z).";
}

macro_rules! global_index {
    ($($name:ident, $k:expr;)*) => {$(
        /// The thread's index in the whole grid in this dimension, as a `usize`:
        /// `block_idx * block_dim + thread_idx`.
        ///
        /// # Safety
        ///
        /// Only meaningful inside a kernel; called elsewhere it panics.
        #[track_caller]
        #[inline]
        pub unsafe fn $name() -> usize {
            let p = position(stringify!($name));
            p.block_idx[$k] as usize * p.block_dim[$k] as usize + p.thread_idx[$k] as usize
        }
    )*};
}

global_index! {
    global_idx_x, 0;
    global_idx_y, 1;
    global_idx_z, 2;
}

/// The state the threads of one simulated block share: their barrier and shared arrays.
pub(crate) struct BlockState {
    barrier: std::sync::Mutex<BarrierState>,
    wake: std::sync::Condvar,
    arrays: std::sync::Mutex<Vec<(SharedKey, Box<[u128]>)>>,
}

type SharedKey = (&'static str, u32, u32, usize, &'static str);

struct BarrierState {
    threads: usize,
    arrived: usize,
    exited: usize,
    generation: u64,
    divergent: bool,
}

impl BlockState {
    pub(crate) fn new(threads: usize) -> BlockState {
        BlockState {
            barrier: std::sync::Mutex::new(BarrierState { threads, arrived: 0, exited: 0, generation: 0, divergent: false }),
            wake: std::sync::Condvar::new(),
            arrays: std::sync::Mutex::new(Vec::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BarrierState> {
        self.barrier.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether some threads wait at a barrier that the others have left the kernel without
    /// reaching: on a GPU, undefined behaviour (a hang or worse); here, an error.
    fn check_divergence(s: &mut BarrierState) -> bool {
        if s.arrived > 0 && s.exited > 0 && s.arrived + s.exited == s.threads {
            s.divergent = true;
        }
        s.divergent
    }

    fn wait(&self) -> Result<(), (usize, usize)> {
        let mut s = self.lock();
        s.arrived += 1;
        if Self::check_divergence(&mut s) {
            self.wake.notify_all();
            return Err((s.arrived, s.exited));
        }
        if s.arrived == s.threads {
            s.arrived = 0;
            s.generation += 1;
            self.wake.notify_all();
            return Ok(());
        }
        let generation = s.generation;
        while s.generation == generation && !s.divergent {
            s = self.wake.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        if s.divergent { Err((s.arrived, s.exited)) } else { Ok(()) }
    }

    /// A thread left the kernel.
    pub(crate) fn exit(&self) {
        let mut s = self.lock();
        s.exited += 1;
        if Self::check_divergence(&mut s) {
            self.wake.notify_all();
        }
    }
}

thread_local! {
    static BLOCK: Cell<*const BlockState> = const { Cell::new(std::ptr::null()) };
}

/// Sets the block whose threads the calling host thread simulates (null outside a kernel).
pub(crate) fn set_block(block: *const BlockState) {
    BLOCK.with(|b| b.set(block));
}

fn block(builtin: &str) -> &'static BlockState {
    let p = BLOCK.with(Cell::get);
    if p.is_null() {
        panic!("{builtin}() was called outside a kernel launch");
    }
    // SAFETY: the simulator sets the pointer while the block's state is alive (its scoped
    // threads end before the state is dropped) and clears it afterwards.
    unsafe { &*p }
}

/// Waits until every thread of the workgroup has reached this barrier (CUDA's
/// `__syncthreads()`). Every thread of the block must reach the same barriers.
///
/// # Safety
///
/// Only meaningful inside a kernel; a barrier that some threads never reach is undefined
/// behaviour on a GPU (the simulator reports it as a panic instead).
pub unsafe fn sync_threads() {
    if let Err((arrived, exited)) = block("sync_threads").wait() {
        panic!(
            "divergent barrier: {arrived} threads of the block wait at sync_threads() that {exited} threads left the kernel without reaching"
        );
    }
}

/// The workgroup's shared array of this call site: one per block, shared by its threads,
/// uninitialised on a GPU (zeroed on the simulator). CUDA's `__shared__ T a[N]`.
///
/// # Safety
///
/// The usual rules of shared memory: threads must synchronise (`sync_threads()`) between
/// writing and reading each other's elements.
#[track_caller]
pub unsafe fn shared_array<T: Copy, const N: usize>() -> *mut [T; N] {
    let at = std::panic::Location::caller();
    let key: SharedKey = (at.file(), at.line(), at.column(), size_of::<[T; N]>(), std::any::type_name::<T>());
    let state = block("shared_array");
    let mut arrays = state.arrays.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, a)) = arrays.iter_mut().find(|(k, _)| *k == key) {
        return a.as_mut_ptr().cast();
    }
    let mut storage = vec![0u128; size_of::<[T; N]>().div_ceil(16).max(1)].into_boxed_slice();
    let p = storage.as_mut_ptr().cast();
    arrays.push((key, storage));
    p
}

/// A number that kernels can update atomically: 32- and 64-bit integers (and floats, for
/// `atomic_add`).
pub trait AtomicValue: Copy {
    #[doc(hidden)]
    fn update(p: *mut Self, f: &dyn Fn(Self) -> Self) -> Self;
}

macro_rules! atomic_value {
    ($($t:ty => $a:ty, $raw:ty),*) => {$(
        impl AtomicValue for $t {
            fn update(p: *mut Self, f: &dyn Fn(Self) -> Self) -> Self {
                // SAFETY: kernels pass pointers into their mapped buffers, aligned for the
                // type; every concurrent access through them is atomic.
                let a = unsafe { <$a>::from_ptr(p.cast()) };
                let mut old = a.load(std::sync::atomic::Ordering::Relaxed);
                loop {
                    let new = f(<$t>::from_ne_bytes(old.to_ne_bytes())).to_ne_bytes();
                    match a.compare_exchange_weak(old, <$raw>::from_ne_bytes(new), std::sync::atomic::Ordering::Relaxed, std::sync::atomic::Ordering::Relaxed) {
                        Ok(prev) => return <$t>::from_ne_bytes(prev.to_ne_bytes()),
                        Err(now) => old = now,
                    }
                }
            }
        }
    )*};
}

atomic_value!(
    i32 => std::sync::atomic::AtomicI32, i32,
    u32 => std::sync::atomic::AtomicU32, u32,
    i64 => std::sync::atomic::AtomicI64, i64,
    u64 => std::sync::atomic::AtomicU64, u64,
    f32 => std::sync::atomic::AtomicU32, u32,
    f64 => std::sync::atomic::AtomicU64, u64
);

macro_rules! atomics {
    ($($name:ident, $doc:literal, |$x:ident, $v:ident| $body:expr;)*) => {$(
        #[doc = $doc]
        ///
        /// Relaxed ordering, as CUDA's atomics; returns the old value.
        ///
        /// # Safety
        ///
        /// `p` must be valid for reads and writes and aligned.
        pub unsafe fn $name<T: AtomicValue + AtomicOps>(p: *mut T, v: T) -> T {
            T::update(p, &|$x| { let $v = v; $body })
        }
    )*};
}

/// The arithmetic the atomics need, per type.
pub trait AtomicOps: Copy {
    #[doc(hidden)]
    fn add(self, o: Self) -> Self;
    #[doc(hidden)]
    fn sub(self, o: Self) -> Self;
    #[doc(hidden)]
    fn and(self, o: Self) -> Self;
    #[doc(hidden)]
    fn or(self, o: Self) -> Self;
    #[doc(hidden)]
    fn xor(self, o: Self) -> Self;
    #[doc(hidden)]
    fn min(self, o: Self) -> Self;
    #[doc(hidden)]
    fn max(self, o: Self) -> Self;
}

macro_rules! int_ops {
    ($($t:ty),*) => {$(
        impl AtomicOps for $t {
            fn add(self, o: Self) -> Self { self.wrapping_add(o) }
            fn sub(self, o: Self) -> Self { self.wrapping_sub(o) }
            fn and(self, o: Self) -> Self { self & o }
            fn or(self, o: Self) -> Self { self | o }
            fn xor(self, o: Self) -> Self { self ^ o }
            fn min(self, o: Self) -> Self { Ord::min(self, o) }
            fn max(self, o: Self) -> Self { Ord::max(self, o) }
        }
    )*};
}

int_ops!(i32, u32, i64, u64);

macro_rules! float_ops {
    ($($t:ty),*) => {$(
        // Only `atomic_add` is offered on floats by rkc (the compiler refuses the others).
        impl AtomicOps for $t {
            fn add(self, o: Self) -> Self { self + o }
            fn sub(self, o: Self) -> Self { self - o }
            fn and(self, _: Self) -> Self { self }
            fn or(self, _: Self) -> Self { self }
            fn xor(self, _: Self) -> Self { self }
            fn min(self, o: Self) -> Self { <$t>::min(self, o) }
            fn max(self, o: Self) -> Self { <$t>::max(self, o) }
        }
    )*};
}

float_ops!(f32, f64);

atomics! {
    atomic_add, "`*p += v`, atomically.", |x, v| x.add(v);
    atomic_sub, "`*p -= v`, atomically.", |x, v| x.sub(v);
    atomic_and, "`*p &= v`, atomically.", |x, v| x.and(v);
    atomic_or, "`*p |= v`, atomically.", |x, v| x.or(v);
    atomic_xor, "`*p ^= v`, atomically.", |x, v| x.xor(v);
    atomic_min, "`*p = min(*p, v)`, atomically.", |x, v| x.min(v);
    atomic_max, "`*p = max(*p, v)`, atomically.", |x, v| x.max(v);
    atomic_exchange, "`*p = v`, atomically.", |_x, v| v;
}

/// `if *p == current { *p = new }`, atomically; returns the old value.
///
/// # Safety
///
/// `p` must be valid for reads and writes and aligned.
pub unsafe fn atomic_compare_exchange<T: AtomicValue + PartialEq>(p: *mut T, current: T, new: T) -> T {
    T::update(p, &|x| if x == current { new } else { x })
}
