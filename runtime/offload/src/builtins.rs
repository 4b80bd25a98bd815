//! The kernel builtins: what a kernel calls to learn where it runs and to cooperate with other
//! threads. rkc compiles each call into the MLIR op named here; rustc compiles these
//! definitions, which the CPU simulator runs. They are `unsafe fn`s, like upstream's arch
//! intrinsics, so that kernels type-check the same way under rustc and rkc.
//!
//! | family | builtins | rkc lowers to |
//! |---|---|---|
//! | geometry | `thread_idx_{x,y,z}`, `block_idx_*`, `block_dim_*`, `grid_dim_*`, `global_idx_*` | `gpu.thread_id`, `gpu.block_id`, `gpu.block_dim`, `gpu.grid_dim` |
//! | synchronisation | `sync_threads`, `thread_fence_block`, `thread_fence` | `gpu.barrier`, `llvm.fence` at block / device scope |
//! | shared memory | `shared_array::<T, N>()`, `dynamic_shared::<T>()` | workgroup-memory globals; the dynamic one sized by `dyn_cache` |
//! | atomics | `atomic_{add,sub,and,or,xor,min,max,exchange}`, `atomic_compare_exchange` | `llvm.atomicrmw`, `llvm.cmpxchg` (relaxed) |
//! | warps (32 lanes) | `lane_id`, `warp_size`, `warp_shuffle{,_xor,_up,_down}`, `warp_any`, `warp_all`, `warp_ballot`, `warp_reduce_{add,min,max}` | `gpu.lane_id`, `gpu.shuffle` |
//! | asynchronous copies | `cp_async`, `cp_async_commit`, `cp_async_wait::<N>` | `nvvm.cp.async.*` (sm_80 on), else plain loads and stores |
//! | warp matrices (tensor cores) | `mma_m16n8k16_f16`, `mma_m16n8k16_bf16`; fragments: `mma_load_a`, `mma_load_b`, `mma_load_c`, `mma_store_d`, from shared memory `mma_ldmatrix_a`, `mma_ldmatrix_b` | `nvvm.mma.sync` (sm_80 on), else shuffles and arithmetic; `nvvm.ldmatrix`, else loads |
//! | warpgroup matrices (Hopper) | `wgmma_m64n{64,128,256}k16_{f16,bf16}`, `wgmma_sw128_...` (128-byte swizzled tiles); `fence_proxy_async`, `wgmma_fence`, `wgmma_commit`, `wgmma_wait::<N>` | `wgmma.mma_async` and its fences as inline PTX (sm_90, compiled as sm_90a), else loads and arithmetic |

use corosensei::Yielder;
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

/// Moves the calling host thread's simulated position to thread `thread` of the same block:
/// the one store per simulated thread that the simulator's loop over a block without barriers
/// makes, instead of storing the whole position (block, dimensions) again each time. Does
/// nothing outside a kernel.
#[inline]
pub(crate) fn set_thread_idx(thread: [u32; 3]) {
    POSITION.with(|p| {
        // SAFETY: the cell is this host thread's own and never lends a reference to its
        // contents, so nothing else reads or writes it during this store.
        if let Some(position) = unsafe { &mut *p.as_ptr() } {
            position.thread_idx = thread;
        }
    });
}

/// The simulated thread the calling host thread runs, if it runs one.
pub(crate) fn thread_idx() -> Option<[u32; 3]> {
    POSITION.with(Cell::get).map(|p| p.thread_idx)
}

/// Whether the calling host thread is running a simulated kernel thread.
pub(crate) fn in_kernel() -> bool {
    POSITION.with(Cell::get).is_some()
}

// Inlined: every geometry builtin is this one thread-local read, and the simulator runs
// barrier-free kernels at the speed of their calls.
#[track_caller]
#[inline]
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

/// The state the threads of one simulated block share: their barrier and warp exchanges,
/// shared arrays and dynamic shared memory.
pub(crate) struct BlockState {
    /// `None` when the block's threads run one after another (kernels whose metadata says
    /// they never synchronise): a barrier or warp operation then cannot be kept.
    sync: Option<rkc_simt::BlockSync>,
    arrays: std::sync::Mutex<Vec<(SharedKey, SharedBytes)>>,
    /// The launch's `dyn_cache` bytes, 1024-byte aligned, zeroed.
    dynamic: std::cell::UnsafeCell<SharedBytes>,
}

/// Zeroed shared memory, 16-byte aligned, and 1024-byte aligned from 1024 bytes on: rkc aligns
/// the dynamic shared memory and the shared arrays of 1024 bytes or more so on a GPU where a
/// module uses swizzled warpgroup multiplies, whose tiles must start at multiples of 1024.
pub(crate) struct SharedBytes {
    storage: Box<[u128]>,
    /// The first element of the aligned bytes.
    start: usize,
}

impl SharedBytes {
    fn zeroed(bytes: usize) -> SharedBytes {
        let atom = bytes >= 1024;
        let mut storage =
            vec![0u128; bytes.div_ceil(16).max(1) + if atom { 64 } else { 0 }].into_boxed_slice();
        let at = storage.as_mut_ptr() as usize;
        let start = if atom { (at.next_multiple_of(1024) - at) / 16 } else { 0 };
        SharedBytes { storage, start }
    }

    fn as_mut_ptr(&mut self) -> *mut u8 {
        self.storage[self.start..].as_mut_ptr().cast()
    }
}

// SAFETY: `dynamic` is only handed out as a raw pointer (`dynamic_shared`); the kernel's
// accesses through it are its own business, exactly as on a GPU.
unsafe impl Sync for BlockState {}

type SharedKey = (&'static str, u32, u32, usize, &'static str);

impl BlockState {
    /// A block of `threads` threads, run together as coroutines (`together`; see
    /// `sim::suspend`) or one after another.
    pub(crate) fn new(threads: usize, together: bool, dyn_cache: u32) -> BlockState {
        BlockState {
            sync: together.then(|| rkc_simt::BlockSync::cooperative(threads, suspend)),
            arrays: std::sync::Mutex::new(Vec::new()),
            // At least one atom where there is any, so that the alignment holds for every
            // launch that has dynamic shared memory (and nothing to zero for the others).
            dynamic: std::cell::UnsafeCell::new(SharedBytes::zeroed(match dyn_cache {
                0 => 0,
                bytes => (bytes as usize).max(1024),
            })),
        }
    }

    /// A thread left the kernel.
    pub(crate) fn exit(&self) {
        if let Some(s) = &self.sync {
            s.exit();
        }
    }

    #[track_caller]
    fn sync(&self, builtin: &str) -> &rkc_simt::BlockSync {
        match &self.sync {
            Some(s) => s,
            None => panic!(
                "{builtin}() in a kernel that the fat binary's metadata says never synchronises: rebuild the fat binary with this rkc"
            ),
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

/// The simulated thread the calling host thread runs now: its position and its block, which a
/// coroutine saves when it suspends and restores when it is resumed.
pub(crate) fn current_thread() -> (Option<ThreadPosition>, *const BlockState) {
    (POSITION.with(Cell::get), BLOCK.with(Cell::get))
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
    if let Err(stuck) = block("sync_threads").sync("sync_threads").barrier() {
        panic!("{stuck}");
    }
}

/// A memory fence for the threads of the workgroup (CUDA's `__threadfence_block()`): this
/// thread's writes before it are seen before its writes after it.
///
/// # Safety
///
/// Only meaningful inside a kernel.
pub unsafe fn thread_fence_block() {
    std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
}

/// A memory fence for every thread of the device (CUDA's `__threadfence()`).
///
/// # Safety
///
/// Only meaningful inside a kernel.
pub unsafe fn thread_fence() {
    std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
}

/// The launch's dynamic shared memory (`offload!`'s `dyn_cache` bytes) as an array of `T`,
/// 16-byte aligned (1024-byte where the kernel file uses swizzled warpgroup multiplies, and
/// on the simulator); one per block, shared by its threads. CUDA's `extern __shared__ T a[]`.
///
/// # Safety
///
/// Accesses must stay within `dyn_cache` bytes, and the usual rules of shared memory hold.
pub unsafe fn dynamic_shared<T: Copy>() -> *mut T {
    // SAFETY: the block state outlives its threads; only a raw pointer escapes.
    unsafe { (*block("dynamic_shared").dynamic.get()).as_mut_ptr().cast() }
}

/// Lanes per warp: 32, on every target rkc supports (AMD's 64-wide wavefronts are used as two
/// warps of 32).
pub const fn warp_size() -> u32 {
    rkc_simt::WARP_SIZE as u32
}

/// The thread's lane in its warp, `0..32`: its linear index in the block (x fastest) modulo 32.
///
/// # Safety
///
/// Only meaningful inside a kernel; called elsewhere it panics.
#[track_caller]
pub unsafe fn lane_id() -> u32 {
    (linear_thread(position("lane_id")) % rkc_simt::WARP_SIZE) as u32
}

fn linear_thread(p: ThreadPosition) -> usize {
    let [x, y, z] = p.thread_idx.map(|i| i as usize);
    let [bx, by, _] = p.block_dim.map(|i| i as usize);
    x + bx * (y + by * z)
}

/// One exchange of the warp: this lane's bits in, every lane's bits out.
#[track_caller]
fn exchange(builtin: &str, bits: u64) -> (usize, Vec<u64>) {
    let thread = linear_thread(position(builtin));
    match block(builtin).sync(builtin).exchange(thread, bits) {
        Ok(values) => (thread % rkc_simt::WARP_SIZE, values),
        Err(stuck) => panic!("{stuck}"),
    }
}

/// A value that warp operations move between lanes and reduce: 8- to 64-bit integers and
/// floats.
pub trait WarpValue: Copy {
    #[doc(hidden)]
    fn to_bits64(self) -> u64;
    #[doc(hidden)]
    fn from_bits64(bits: u64) -> Self;
    #[doc(hidden)]
    fn reduce(self, o: Self, op: u8) -> Self;
}

macro_rules! warp_value {
    ($($t:ty => $bits:ty, |$a:ident, $b:ident| $add:expr, $min:expr, $max:expr;)*) => {$(
        impl WarpValue for $t {
            fn to_bits64(self) -> u64 {
                <$bits>::from_ne_bytes(self.to_ne_bytes()) as u64
            }
            fn from_bits64(bits: u64) -> Self {
                <$t>::from_ne_bytes((bits as $bits).to_ne_bytes())
            }
            fn reduce(self, o: Self, op: u8) -> Self {
                let ($a, $b) = (self, o);
                match op {
                    0 => $add,
                    1 => $min,
                    _ => $max,
                }
            }
        }
    )*};
}

warp_value! {
    i8 => u8, |a, b| a.wrapping_add(b), Ord::min(a, b), Ord::max(a, b);
    u8 => u8, |a, b| a.wrapping_add(b), Ord::min(a, b), Ord::max(a, b);
    i16 => u16, |a, b| a.wrapping_add(b), Ord::min(a, b), Ord::max(a, b);
    u16 => u16, |a, b| a.wrapping_add(b), Ord::min(a, b), Ord::max(a, b);
    i32 => u32, |a, b| a.wrapping_add(b), Ord::min(a, b), Ord::max(a, b);
    u32 => u32, |a, b| a.wrapping_add(b), Ord::min(a, b), Ord::max(a, b);
    i64 => u64, |a, b| a.wrapping_add(b), Ord::min(a, b), Ord::max(a, b);
    u64 => u64, |a, b| a.wrapping_add(b), Ord::min(a, b), Ord::max(a, b);
    f32 => u32, |a, b| a + b, f32::min(a, b), f32::max(a, b);
    f64 => u64, |a, b| a + b, f64::min(a, b), f64::max(a, b);
}

/// A value that warp shuffles move: the [`WarpValue`]s; 128-bit integers, which move as two
/// 64-bit words (as rkc compiles them: two shuffles from the same lane); and, with the `half`
/// feature, `f16` and `bf16` as their bits.
pub trait ShuffleValue: Copy {
    #[doc(hidden)]
    const WORDS: usize;
    #[doc(hidden)]
    fn to_words(self) -> [u64; 2];
    #[doc(hidden)]
    fn from_words(words: [u64; 2]) -> Self;
}

impl<T: WarpValue> ShuffleValue for T {
    const WORDS: usize = 1;
    fn to_words(self) -> [u64; 2] {
        [self.to_bits64(), 0]
    }
    fn from_words(words: [u64; 2]) -> Self {
        T::from_bits64(words[0])
    }
}

macro_rules! wide_shuffle_value {
    ($($t:ty),*) => {$(
        impl ShuffleValue for $t {
            const WORDS: usize = 2;
            fn to_words(self) -> [u64; 2] {
                [self as u64, (self as u128 >> 64) as u64]
            }
            fn from_words(words: [u64; 2]) -> Self {
                ((u128::from(words[1]) << 64) | u128::from(words[0])) as $t
            }
        }
    )*};
}

wide_shuffle_value!(i128, u128);

/// The `half` crate's 16-bit floats move as their bits (warp reductions do not take them).
#[cfg(feature = "half")]
macro_rules! half_shuffle_value {
    ($($t:ty),*) => {$(
        impl ShuffleValue for $t {
            const WORDS: usize = 1;
            fn to_words(self) -> [u64; 2] {
                [u64::from(self.to_bits()), 0]
            }
            fn from_words(words: [u64; 2]) -> Self {
                <$t>::from_bits(words[0] as u16)
            }
        }
    )*};
}

#[cfg(feature = "half")]
half_shuffle_value!(half::f16, half::bf16);

macro_rules! shuffles {
    ($($name:ident, $mode:ident, $doc:literal;)*) => {$(
        #[doc = $doc]
        ///
        /// Only the low five bits of the lane argument count. Every lane of the warp must call
        /// it (the simulator reports a warp where some lanes never do).
        ///
        /// # Safety
        ///
        /// Only meaningful inside a kernel whose block size is a multiple of 32.
        #[track_caller]
        pub unsafe fn $name<T: ShuffleValue>(v: T, k: u32) -> T {
            let mut words = v.to_words();
            for word in words.iter_mut().take(T::WORDS) {
                let (lane, values) = exchange(stringify!($name), *word);
                *word = values[rkc_simt::shuffle_source(rkc_simt::ShuffleMode::$mode, lane, k)];
            }
            T::from_words(words)
        }
    )*};
}

shuffles! {
    warp_shuffle, Idx, "The value `v` of lane `k` (CUDA's `__shfl_sync`).";
    warp_shuffle_xor, Xor, "The value `v` of lane `lane_id() ^ k` (CUDA's `__shfl_xor_sync`).";
    warp_shuffle_up, Up, "The value `v` of lane `lane_id() - k`; lanes below `k` get their own (CUDA's `__shfl_up_sync`).";
    warp_shuffle_down, Down, "The value `v` of lane `lane_id() + k`; lanes past 31 - `k` get their own (CUDA's `__shfl_down_sync`).";
}

macro_rules! votes {
    ($($name:ident -> $t:ty, |$m:ident| $e:expr, $doc:literal;)*) => {$(
        #[doc = $doc]
        ///
        /// Every lane of the warp must call it.
        ///
        /// # Safety
        ///
        /// Only meaningful inside a kernel whose block size is a multiple of 32.
        #[track_caller]
        pub unsafe fn $name(p: bool) -> $t {
            let (_, values) = exchange(stringify!($name), u64::from(p));
            let $m = rkc_simt::ballot(&values);
            $e
        }
    )*};
}

votes! {
    warp_any -> bool, |m| m != 0, "Whether `p` holds in any lane of the warp (CUDA's `__any_sync`).";
    warp_all -> bool, |m| m == u32::MAX, "Whether `p` holds in every lane of the warp (CUDA's `__all_sync`).";
    warp_ballot -> u32, |m| m, "The lanes where `p` holds, bit `l` for lane `l` (CUDA's `__ballot_sync`).";
}

macro_rules! reductions {
    ($($name:ident, $op:expr, $doc:literal;)*) => {$(
        #[doc = $doc]
        ///
        /// Computed as on the GPU, in five butterfly steps (`v = op(v, warp_shuffle_xor(v, k))`
        /// for k = 16, 8, 4, 2, 1), so float results are bit-identical across backends. Every
        /// lane gets the result; every lane of the warp must call it.
        ///
        /// # Safety
        ///
        /// Only meaningful inside a kernel whose block size is a multiple of 32.
        #[track_caller]
        pub unsafe fn $name<T: WarpValue>(v: T) -> T {
            let (lane, values) = exchange(stringify!($name), v.to_bits64());
            let op = |a: u64, b: u64| T::from_bits64(a).reduce(T::from_bits64(b), $op).to_bits64();
            T::from_bits64(rkc_simt::butterfly(&values, lane, &op))
        }
    )*};
}

reductions! {
    warp_reduce_add, 0, "The sum of `v` over the warp's lanes (wrapping for integers).";
    warp_reduce_min, 1, "The least `v` of the warp's lanes (`f32::min`'s rule for floats).";
    warp_reduce_max, 2, "The greatest `v` of the warp's lanes (`f32::max`'s rule for floats).";
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
    let key: SharedKey =
        (at.file(), at.line(), at.column(), size_of::<[T; N]>(), std::any::type_name::<T>());
    let state = block("shared_array");
    let mut arrays = state.arrays.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, a)) = arrays.iter_mut().find(|(k, _)| *k == key) {
        return a.as_mut_ptr().cast();
    }
    let mut storage = SharedBytes::zeroed(size_of::<[T; N]>());
    let p = storage.as_mut_ptr().cast();
    arrays.push((key, storage));
    p
}

/// A number that kernels can update atomically: 32- and 64-bit integers and floats.
pub trait AtomicValue: Copy {
    #[doc(hidden)]
    fn update(p: *mut Self, f: &dyn Fn(Self) -> Self) -> Self;
    /// Whether two values have the same bits: what `atomic_compare_exchange` compares, on the
    /// GPU as CUDA's `atomicCAS` does (for floats, `-0.0` is not `0.0` and a NaN equals itself).
    #[doc(hidden)]
    fn same_bits(self, other: Self) -> bool;
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
            fn same_bits(self, other: Self) -> bool {
                self.to_ne_bytes() == other.to_ne_bytes()
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
    ($($name:ident: $bound:ident, $doc:literal, |$x:ident, $v:ident| $body:expr;)*) => {$(
        #[doc = $doc]
        ///
        /// Relaxed ordering, as CUDA's atomics; returns the old value.
        ///
        /// # Safety
        ///
        /// `p` must be valid for reads and writes and aligned.
        pub unsafe fn $name<T: AtomicValue + $bound>(p: *mut T, v: T) -> T {
            progress();
            T::update(p, &|$x| { let $v = v; $body })
        }
    )*};
}

/// The arithmetic the atomics need, per type: integers and floats. (The methods have names of
/// their own so that the prelude's glob import of this trait does not make `x.min(y)`
/// ambiguous in kernels.)
pub trait AtomicOps: AtomicValue {
    #[doc(hidden)]
    fn atomic_add(self, o: Self) -> Self;
    /// `atomic_add` itself: the integers' is one `fetch_add` (the simulator's histograms spend
    /// their time here), the floats' a compare-exchange loop.
    ///
    /// # Safety
    ///
    /// As for `atomic_add`.
    #[doc(hidden)]
    unsafe fn atomic_fetch_add(p: *mut Self, v: Self) -> Self {
        Self::update(p, &|x| x.atomic_add(v))
    }
    #[doc(hidden)]
    fn atomic_sub(self, o: Self) -> Self;
    #[doc(hidden)]
    fn atomic_min(self, o: Self) -> Self;
    #[doc(hidden)]
    fn atomic_max(self, o: Self) -> Self;
}

/// The bitwise atomics' operations: integers only, as on GPUs (so `atomic_and` on a float is
/// an error of rustc's as much as rkc's).
pub trait AtomicBits: Copy {
    #[doc(hidden)]
    fn atomic_and(self, o: Self) -> Self;
    #[doc(hidden)]
    fn atomic_or(self, o: Self) -> Self;
    #[doc(hidden)]
    fn atomic_xor(self, o: Self) -> Self;
}

macro_rules! int_ops {
    ($($t:ty => $a:ty),*) => {$(
        impl AtomicOps for $t {
            fn atomic_add(self, o: Self) -> Self { self.wrapping_add(o) }
            unsafe fn atomic_fetch_add(p: *mut Self, v: Self) -> Self {
                // SAFETY: as in `AtomicValue::update`: the kernel's pointer is valid and
                // aligned, and every concurrent access through it is atomic.
                unsafe { <$a>::from_ptr(p) }.fetch_add(v, std::sync::atomic::Ordering::Relaxed)
            }
            fn atomic_sub(self, o: Self) -> Self { self.wrapping_sub(o) }
            fn atomic_min(self, o: Self) -> Self { Ord::min(self, o) }
            fn atomic_max(self, o: Self) -> Self { Ord::max(self, o) }
        }
        impl AtomicBits for $t {
            fn atomic_and(self, o: Self) -> Self { self & o }
            fn atomic_or(self, o: Self) -> Self { self | o }
            fn atomic_xor(self, o: Self) -> Self { self ^ o }
        }
    )*};
}

int_ops!(
    i32 => std::sync::atomic::AtomicI32,
    u32 => std::sync::atomic::AtomicU32,
    i64 => std::sync::atomic::AtomicI64,
    u64 => std::sync::atomic::AtomicU64
);

macro_rules! float_ops {
    ($($t:ty),*) => {$(
        // `min`/`max` ignore a NaN operand, as the GPU's `atomicrmw fmin/fmax` do.
        impl AtomicOps for $t {
            fn atomic_add(self, o: Self) -> Self { self + o }
            fn atomic_sub(self, o: Self) -> Self { self - o }
            fn atomic_min(self, o: Self) -> Self { <$t>::min(self, o) }
            fn atomic_max(self, o: Self) -> Self { <$t>::max(self, o) }
        }
    )*};
}

float_ops!(f32, f64);

/// `*p += v`, atomically.
///
/// Relaxed ordering, as CUDA's atomics; returns the old value.
///
/// # Safety
///
/// `p` must be valid for reads and writes and aligned.
pub unsafe fn atomic_add<T: AtomicOps>(p: *mut T, v: T) -> T {
    progress();
    // SAFETY: the caller's promise.
    unsafe { T::atomic_fetch_add(p, v) }
}

atomics! {
    atomic_sub: AtomicOps, "`*p -= v`, atomically.", |x, v| x.atomic_sub(v);
    atomic_and: AtomicBits, "`*p &= v`, atomically.", |x, v| x.atomic_and(v);
    atomic_or: AtomicBits, "`*p |= v`, atomically.", |x, v| x.atomic_or(v);
    atomic_xor: AtomicBits, "`*p ^= v`, atomically.", |x, v| x.atomic_xor(v);
    atomic_min: AtomicOps, "`*p = min(*p, v)`, atomically.", |x, v| x.atomic_min(v);
    atomic_max: AtomicOps, "`*p = max(*p, v)`, atomically.", |x, v| x.atomic_max(v);
    atomic_exchange: AtomicValue, "`*p = v`, atomically.", |_x, v| v;
}

/// `if *p == current { *p = new }`, atomically, comparing bits (for floats: `-0.0` is not
/// `0.0`, a NaN with the same bits matches); returns the old value.
///
/// # Safety
///
/// `p` must be valid for reads and writes and aligned.
pub unsafe fn atomic_compare_exchange<T: AtomicValue>(p: *mut T, current: T, new: T) -> T {
    progress();
    T::update(p, &|x| if x.same_bits(current) { new } else { x })
}

// The simulator's coroutines (sim.rs runs the threads of a block that synchronises as
// coroutines on one host thread): the hooks by which a simulated thread gives control back.
// They live here, with the thread-local position they save and restore, so that the builtins
// and the simulator do not depend on each other both ways.

thread_local! {
    /// The coroutine of the simulated thread this host thread runs now (null outside one),
    /// and the atomic operations since the last switch (see `progress`). One cell, so that the
    /// check in every atomic operation is one thread-local access.
    static COROUTINE: Cell<(*const Yielder<(), ()>, u32)> = const { Cell::new((std::ptr::null(), 0)) };
}

/// Gives control back to the block's scheduler (a simulated thread waits at a barrier or a
/// warp operation, or lets others make progress), and resumes with this thread's position and
/// block, which the threads that ran meanwhile changed on this host thread.
pub(crate) fn suspend() {
    let (yielder, _) = COROUTINE.with(Cell::get);
    if yielder.is_null() {
        return;
    }
    let (position, block) = current_thread();
    // SAFETY: the pointer is the running coroutine's own yielder, which lives on its stack for
    // as long as the coroutine runs, and this is that coroutine (it set the pointer when it
    // started and sets it again after every switch).
    unsafe { (*yielder).suspend(()) };
    COROUTINE.with(|c| c.set((yielder, 0)));
    set_position(position);
    set_block(block);
}

/// Called by every atomic operation: a simulated thread that waits for another thread of its
/// block by spinning on an atomic (a lock, a flag) must let that thread run, as a GPU's
/// scheduler does. Every 64th atomic operation of a coroutine switches to the next thread,
/// which keeps atomic-heavy kernels (histograms) from switching at each one.
#[inline]
pub(crate) fn progress() {
    let switch = COROUTINE.with(|c| {
        let (yielder, n) = c.get();
        c.set((yielder, n.wrapping_add(1)));
        !yielder.is_null() && n % 64 == 63
    });
    if switch {
        suspend();
    }
}

/// Marks the calling host thread as running the coroutine of `yielder` (null: none), with no
/// atomic operations counted yet.
pub(crate) fn enter_coroutine(yielder: *const Yielder<(), ()>) {
    COROUTINE.with(|c| c.set((yielder, 0)));
}

/// The warp's `D = A·B + C` on one 16×8×16 tile, each lane giving its fragments of `A` (eight
/// elements of the 16×16 matrix), `B` (four of the 16×8) and `C` (four of the 16×8 `f32`
/// accumulator) and getting its four elements of `D`, in PTX's layouts for
/// `mma.sync.aligned.m16n8k16.row.col` ([`mma_load_a`], [`mma_load_b`], [`mma_load_c`] and
/// [`mma_store_d`] move fragments to and from row-major tiles). rkc compiles it to the tensor
/// cores' instruction on NVIDIA GPUs from sm_80, to warp shuffles and arithmetic on the other
/// GPUs, and computes it for the whole warp on the CPU. Each element is `C` plus the sixteen
/// products added in order in `f64` and rounded once (see `rkc_simt::mma`); tensor cores add
/// in their own, unspecified way, so their results equal these where the sums are exact and
/// otherwise differ by the hardware's rounding (rkc states no bound).
///
/// # Safety
///
/// Every lane of the warp must call it, with the same code path (as `mma.sync.aligned`
/// requires); only meaningful inside a kernel whose block size is a multiple of 32.
#[cfg(feature = "half")]
#[track_caller]
pub unsafe fn mma_m16n8k16_f16(a: [half::f16; 8], b: [half::f16; 4], c: [f32; 4]) -> [f32; 4] {
    mma(
        "mma_m16n8k16_f16",
        rkc_simt::mma::MmaType::F16,
        a.map(half::f16::to_bits),
        b.map(half::f16::to_bits),
        c,
    )
}

/// [`mma_m16n8k16_f16`] with bfloat16 `A` and `B`.
///
/// # Safety
///
/// As for [`mma_m16n8k16_f16`].
#[cfg(feature = "half")]
#[track_caller]
pub unsafe fn mma_m16n8k16_bf16(a: [half::bf16; 8], b: [half::bf16; 4], c: [f32; 4]) -> [f32; 4] {
    mma(
        "mma_m16n8k16_bf16",
        rkc_simt::mma::MmaType::Bf16,
        a.map(half::bf16::to_bits),
        b.map(half::bf16::to_bits),
        c,
    )
}

/// The warp matrix multiply as rkc's interpreter computes it: the fragments' elements in three
/// exchanges of four, then this lane's `D`.
#[cfg(feature = "half")]
#[track_caller]
fn mma(
    builtin: &str,
    ty: rkc_simt::mma::MmaType,
    a: [u16; 8],
    b: [u16; 4],
    c: [f32; 4],
) -> [f32; 4] {
    use rkc_simt::mma::{pack, unpack};
    let (lane, a_low) = exchange(builtin, pack(&a[..4]));
    let (_, a_high) = exchange(builtin, pack(&a[4..]));
    let (_, b_all) = exchange(builtin, pack(&b));
    let a: [[u16; 8]; rkc_simt::WARP_SIZE] = std::array::from_fn(|l| {
        std::array::from_fn(|i| unpack(if i < 4 { a_low[l] } else { a_high[l] }, i % 4))
    });
    let b = std::array::from_fn(|l| std::array::from_fn(|i| unpack(b_all[l], i)));
    rkc_simt::mma::mma(ty, &a, &b, c, lane)
}

/// The calling lane's fragment of a 16×16 `A` tile for [`mma_m16n8k16_f16`]: `a` holds the
/// tile row-major, row `r` starting at `a[r * stride]`.
///
/// # Safety
///
/// Only meaningful inside a kernel; it panics where an index is past `a`'s end.
#[track_caller]
pub unsafe fn mma_load_a<T: Copy>(a: &[T], stride: usize) -> [T; 8] {
    let lane = unsafe { lane_id() } as usize;
    let (g, t) = (lane / 4, lane % 4);
    let mut f = [a[0]; 8];
    for (i, x) in f.iter_mut().enumerate() {
        let row = if i & 2 == 0 { g } else { g + 8 };
        let col = t * 2 + (i & 1) + if i >= 4 { 8 } else { 0 };
        *x = a[row * stride + col];
    }
    f
}

/// The calling lane's fragment of a 16×8 `B` tile: `b` holds the tile row-major (16 rows of 8
/// columns), row `k` starting at `b[k * stride]`.
///
/// # Safety
///
/// Only meaningful inside a kernel; it panics where an index is past `b`'s end.
#[track_caller]
pub unsafe fn mma_load_b<T: Copy>(b: &[T], stride: usize) -> [T; 4] {
    let lane = unsafe { lane_id() } as usize;
    let (g, t) = (lane / 4, lane % 4);
    let mut f = [b[0]; 4];
    for (i, x) in f.iter_mut().enumerate() {
        let k = t * 2 + (i & 1) + if i >= 2 { 8 } else { 0 };
        *x = b[k * stride + g];
    }
    f
}

/// The calling lane's fragment of a 16×8 `C` tile, row-major from `c` (row `r` at
/// `c[r * stride]`).
///
/// # Safety
///
/// Only meaningful inside a kernel; it panics where an index is past `c`'s end.
#[track_caller]
pub unsafe fn mma_load_c(c: &[f32], stride: usize) -> [f32; 4] {
    let lane = unsafe { lane_id() } as usize;
    let (g, t) = (lane / 4, lane % 4);
    let mut f = [0.0; 4];
    for (i, x) in f.iter_mut().enumerate() {
        let row = if i < 2 { g } else { g + 8 };
        *x = c[row * stride + t * 2 + (i & 1)];
    }
    f
}

/// Stores the calling lane's fragment of a 16×8 `D` tile row-major into `d` (row `r` at
/// `d[r * stride]`).
///
/// # Safety
///
/// Only meaningful inside a kernel; it panics where an index is past `d`'s end.
#[track_caller]
pub unsafe fn mma_store_d(d: &mut [f32], stride: usize, frag: [f32; 4]) {
    let lane = unsafe { lane_id() } as usize;
    let (g, t) = (lane / 4, lane % 4);
    for (i, x) in frag.into_iter().enumerate() {
        let row = if i < 2 { g } else { g + 8 };
        d[row * stride + t * 2 + (i & 1)] = x;
    }
}

/// The calling lane's fragment of a 16×16 `A` tile for [`mma_m16n8k16_f16`] from shared
/// memory, through NVIDIA's `ldmatrix` (one instruction for the eight elements, where
/// [`mma_load_a`] makes eight loads): the tile is row-major at `tile`, row `r` starting at
/// `tile.add(r * stride)`. Elsewhere (other GPUs, the CPU) the elements are loaded one by one,
/// with the same result. `T` is `f16` or `bf16`.
///
/// # Safety
///
/// `tile` must point into shared memory at a tile of 16 rows of 16 elements, each row
/// 16-byte aligned (`tile` aligned and `stride` a multiple of 8), and every lane of the warp
/// must make the call with the same `tile` and `stride`. The alignment is checked on every
/// target (a misaligned row panics, where `ldmatrix` would fault); the sameness is not.
#[track_caller]
pub unsafe fn mma_ldmatrix_a<T: Copy>(tile: *const T, stride: usize) -> [T; 8] {
    // SAFETY: the caller's contract.
    unsafe { ldmatrix(tile, stride, rkc_simt::mma::a_index) }
}

/// The calling lane's fragment of a 16×8 `B` tile (16 rows `k` of 8 columns `n`, row-major at
/// `tile`, row `k` starting at `tile.add(k * stride)`) from shared memory, through NVIDIA's
/// `ldmatrix` with its transposition, as [`mma_load_b`] loads it element by element.
///
/// # Safety
///
/// As for [`mma_ldmatrix_a`], for a tile of 16 rows of 8 elements.
#[track_caller]
pub unsafe fn mma_ldmatrix_b<T: Copy>(tile: *const T, stride: usize) -> [T; 4] {
    // SAFETY: the caller's contract.
    unsafe { ldmatrix(tile, stride, rkc_simt::mma::b_index) }
}

/// The elements `ldmatrix` gives the calling lane, loaded one by one.
#[track_caller]
unsafe fn ldmatrix<T: Copy, const N: usize>(
    tile: *const T,
    stride: usize,
    index: fn(usize, usize) -> (usize, usize),
) -> [T; N] {
    const { assert!(size_of::<T>() == 2, "ldmatrix loads 16-bit elements") };
    // SAFETY: the caller's contract.
    unsafe { fragment(tile, stride, index, lane_id() as usize) }
}

/// Lane `lane`'s elements of the tile, loaded one by one, after the check of the alignment
/// `ldmatrix` needs for every row the warp reads (not only the lane's own rows), which is what
/// rkc's compilation checks too.
#[track_caller]
unsafe fn fragment<T: Copy, const N: usize>(
    tile: *const T,
    stride: usize,
    index: fn(usize, usize) -> (usize, usize),
    lane: usize,
) -> [T; N] {
    assert!(
        (tile as usize | stride.wrapping_mul(2)).is_multiple_of(16),
        "{}",
        rkc_simt::MISALIGNED_LDMATRIX
    );
    std::array::from_fn(|i| {
        let (row, col) = index(lane, i);
        // SAFETY: the caller's contract: the element is in the tile.
        unsafe { *tile.add(row * stride + col) }
    })
}

macro_rules! wgmma_variants {
    ($($(#[$doc:meta])* $name:ident, $elem:ty, $ty:ident, $n:literal, $swizzle:ident, $first:ident;)*) => {$(
        $(#[$doc])*
        #[cfg(feature = "half")]
        #[track_caller]
        pub unsafe fn $name(
            a: *const $elem,
            $first: usize,
            a_m: usize,
            b: *const $elem,
            b_k: usize,
            b_n: usize,
            d: [f32; $n / 2],
        ) -> [f32; $n / 2] {
            // SAFETY: the caller's contract.
            unsafe {
                wgmma(
                    rkc_simt::mma::MmaType::$ty,
                    Swizzle::$swizzle,
                    a.cast(),
                    b.cast(),
                    [$first, a_m, b_k, b_n],
                    d,
                )
            }
        }
    )*};
}

wgmma_variants! {
    /// The warpgroup's matrix multiply-accumulate on a 64×N×16 tile, `D = A·B + D`, with `A`
    /// (64×16) at `a` and `B` (16×N) at `b` in shared memory: Hopper's `wgmma.mma_async`
    /// (`m64nNk16.f32`, f16 or bf16 inputs), which rkc compiles to the instruction on sm_90 (as sm_90a) and
    /// to loads and arithmetic on every other target. The tiles are in the canonical layouts
    /// without swizzling, made of 8×8 core matrices of 128 contiguous bytes, placed by the strides
    /// in elements: `A[m][k]` at `a[(m % 8) * 8 + k % 8 + (k / 8) * a_k + (m / 8) * a_m]`,
    /// `B[k][n]` at `b[(k % 8) * 8 + n % 8 + (k / 8) * b_k + (n / 8) * b_n]`. The four warps of
    /// an aligned group of four (thread `t`'s index in it `t % 128`) hold `D`'s 64 rows, 16 each,
    /// in `mma_m16n8k16_f16`'s `C` layout repeated over the `N / 8` column blocks
    /// (`rkc_simt::wgmma::d_index`). Each element is `D` plus the sixteen products added in order
    /// in `f64` and rounded once, as for [`mma_m16n8k16_f16`].
    ///
    /// On a GPU the instruction runs asynchronously: call [`wgmma_fence`] before the first of a
    /// batch, [`wgmma_commit`] after it, and read `D` (or change the tiles) only after a
    /// [`wgmma_wait`] has seen the batch complete. Shared memory written by the threads or by
    /// [`cp_async`] must be made visible to it by [`fence_proxy_async`] and a barrier first. The
    /// CPU executors compute `D` at once.
    ///
    /// # Safety
    ///
    /// Every thread of the warpgroup must call it with the same tiles and strides; the tiles must
    /// be in shared memory and start at multiples of 16 bytes, and the strides be multiples of 8
    /// below 131072 (checked: a violation panics, as rkc's compilation does).
    wgmma_m64n64k16_f16, half::f16, F16, 64, None, a_k;
    /// [`wgmma_m64n64k16_f16`] with a 128-column `D`.
    ///
    /// # Safety
    ///
    /// As for [`wgmma_m64n64k16_f16`].
    wgmma_m64n128k16_f16, half::f16, F16, 128, None, a_k;
    /// [`wgmma_m64n64k16_f16`] with a 256-column `D`.
    ///
    /// # Safety
    ///
    /// As for [`wgmma_m64n64k16_f16`].
    wgmma_m64n256k16_f16, half::f16, F16, 256, None, a_k;
    /// [`wgmma_m64n64k16_f16`] with bf16 tiles.
    ///
    /// # Safety
    ///
    /// As for [`wgmma_m64n64k16_f16`].
    wgmma_m64n64k16_bf16, half::bf16, Bf16, 64, None, a_k;
    /// [`wgmma_m64n64k16_f16`] with bf16 tiles and a 128-column `D`.
    ///
    /// # Safety
    ///
    /// As for [`wgmma_m64n64k16_f16`].
    wgmma_m64n128k16_bf16, half::bf16, Bf16, 128, None, a_k;
    /// [`wgmma_m64n64k16_f16`] with bf16 tiles and a 256-column `D`.
    ///
    /// # Safety
    ///
    /// As for [`wgmma_m64n64k16_f16`].
    wgmma_m64n256k16_bf16, half::bf16, Bf16, 256, None, a_k;
    /// [`wgmma_m64n64k16_f16`] on tiles with 128-byte swizzling, the layout the tensor cores read
    /// without bank conflicts (about three times as fast on an H100). `A`'s rows are 128 bytes
    /// (64 `k`), `B`'s 64-column blocks rows of 128 bytes; eight rows make an atom of 1024 bytes,
    /// in which row `r`'s 16-byte chunk `c` is stored at chunk `c ^ (r % 8)`. `a` and `b` start at
    /// multiples of 1024 bytes (rkc aligns dynamic shared memory and large shared arrays so where
    /// a module uses this); `a_k0` is the multiply's first `k` in `A`'s rows (0, 16, 32 or 48),
    /// `a_m` the stride between `A`'s atoms down `m`, `b_k` between `B`'s atoms down `k`, `b_n`
    /// between its 64-column blocks, all in elements (`rkc_simt::wgmma` defines the offsets).
    ///
    /// # Safety
    ///
    /// As for [`wgmma_m64n64k16_f16`]; the tiles start at multiples of 1024 bytes, `a_k0` is 0, 16,
    /// 32 or 48 and the strides multiples of 512 below 131072 (checked: a violation panics, as
    /// rkc's compilation does).
    wgmma_sw128_m64n64k16_f16, half::f16, F16, 64, B128, a_k0;
    /// [`wgmma_sw128_m64n64k16_f16`] with a 128-column `D`.
    ///
    /// # Safety
    ///
    /// As for [`wgmma_sw128_m64n64k16_f16`].
    wgmma_sw128_m64n128k16_f16, half::f16, F16, 128, B128, a_k0;
    /// [`wgmma_sw128_m64n64k16_f16`] with a 256-column `D`.
    ///
    /// # Safety
    ///
    /// As for [`wgmma_sw128_m64n64k16_f16`].
    wgmma_sw128_m64n256k16_f16, half::f16, F16, 256, B128, a_k0;
    /// [`wgmma_sw128_m64n64k16_f16`] with bf16 tiles.
    ///
    /// # Safety
    ///
    /// As for [`wgmma_sw128_m64n64k16_f16`].
    wgmma_sw128_m64n64k16_bf16, half::bf16, Bf16, 64, B128, a_k0;
    /// [`wgmma_sw128_m64n64k16_f16`] with bf16 tiles and a 128-column `D`.
    ///
    /// # Safety
    ///
    /// As for [`wgmma_sw128_m64n64k16_f16`].
    wgmma_sw128_m64n128k16_bf16, half::bf16, Bf16, 128, B128, a_k0;
    /// [`wgmma_sw128_m64n64k16_f16`] with bf16 tiles and a 256-column `D`.
    ///
    /// # Safety
    ///
    /// As for [`wgmma_sw128_m64n64k16_f16`].
    wgmma_sw128_m64n256k16_bf16, half::bf16, Bf16, 256, B128, a_k0;
}

#[cfg(feature = "half")]
use rkc_simt::wgmma::Swizzle;

/// This thread's `D` of a warpgroup matrix multiply, read from the tiles one element at a
/// time, after one exchange of the warp (every lane must reach it, as the instruction needs).
#[cfg(feature = "half")]
#[track_caller]
unsafe fn wgmma<const H: usize>(
    ty: rkc_simt::mma::MmaType,
    swizzle: Swizzle,
    a: *const u16,
    b: *const u16,
    strides: [usize; 4],
    d: [f32; H],
) -> [f32; H] {
    let builtin = "wgmma";
    let p = position(builtin);
    let threads = p.block_dim.iter().map(|&d| d as usize).product::<usize>();
    assert!(
        threads.is_multiple_of(rkc_simt::wgmma::THREADS),
        "{}",
        rkc_simt::wgmma::PARTIAL_WARPGROUP
    );
    let (misaligned, align, bad) = rkc_simt::wgmma::checks(swizzle);
    assert!((a as usize | b as usize).is_multiple_of(align as usize), "{misaligned}");
    assert!(rkc_simt::wgmma::strides_ok(strides, swizzle), "{bad}");
    let t = linear_thread(p) % rkc_simt::wgmma::THREADS;
    exchange(builtin, 0);
    // SAFETY: the caller's contract: the tiles hold every element the strides place.
    let out = rkc_simt::wgmma::wgmma(
        ty,
        2 * H,
        swizzle,
        t,
        strides,
        |o| unsafe { a.add(o).read() },
        |o| unsafe { b.add(o).read() },
        &d,
    );
    std::array::from_fn(|i| out[i])
}

/// Orders the thread's earlier writes of shared memory (its stores and its completed
/// [`cp_async`] copies) before the tensor cores' reads of [`wgmma_m64n64k16_f16`]
/// (`fence.proxy.async.shared::cta`): each writer calls it, then a barrier, then the
/// multiplies. Nothing on the CPU.
///
/// # Safety
///
/// Only meaningful inside a kernel.
pub unsafe fn fence_proxy_async() {}

/// Orders the thread's earlier accesses of `D`'s registers before the next warpgroup
/// multiply (`wgmma.fence.sync.aligned`): called by every thread of the warpgroup before a
/// batch of [`wgmma_m64n64k16_f16`]. Nothing on the CPU, which computes at once.
///
/// # Safety
///
/// Only meaningful inside a kernel.
pub unsafe fn wgmma_fence() {}

/// Closes the batch of the warpgroup's multiplies started since the last one
/// (`wgmma.commit_group.sync.aligned`).
///
/// # Safety
///
/// Only meaningful inside a kernel.
pub unsafe fn wgmma_commit() {}

/// Waits until at most `N` of the warpgroup's committed batches are still running
/// (`wgmma.wait_group.sync.aligned N`): their `D`s are then defined and their tiles free.
///
/// # Safety
///
/// Only meaningful inside a kernel.
pub unsafe fn wgmma_wait<const N: usize>() {
    // The instruction's count is an immediate of at most 7; rkc refuses more (RK0101).
    const { assert!(N <= 7, "wgmma_wait waits for at most 7 pending batches") };
}

/// Starts an asynchronous copy of the `T` at `src` (global memory) into `dst` (shared memory),
/// CUDA's `cp.async` (NVIDIA from sm_80; elsewhere rkc compiles a plain copy). `T` is 4, 8 or
/// 16 bytes, and both addresses are aligned to its size (checked: a misaligned copy panics).
/// `dst`'s bytes are defined only after a [`cp_async_wait`] has seen the copy's group
/// complete; a barrier after the wait makes them visible to the block's other threads. The
/// simulator copies at once.
///
/// # Safety
///
/// `src` must be valid for reads and `dst` for writes of a `T`, and point into global and
/// shared memory respectively; nothing may read `dst` before the wait.
#[track_caller]
pub unsafe fn cp_async<T>(dst: *mut T, src: *const T) {
    const { assert!(matches!(size_of::<T>(), 4 | 8 | 16), "cp_async copies 4, 8 or 16 bytes") };
    // A misaligned `cp.async` would fault on the GPU: rkc's compilation checks first and
    // panics with this message on every target, and so does the simulator.
    let size = size_of::<T>();
    assert!(
        (dst as usize).is_multiple_of(size) && (src as usize).is_multiple_of(size),
        "{}",
        rkc_simt::misaligned_async_copy(size)
    );
    // SAFETY: the caller's contract.
    unsafe { std::ptr::copy_nonoverlapping(src, dst, 1) };
}

/// Closes the group of this thread's asynchronous copies started since the last commit
/// (`cp.async.commit_group`).
///
/// # Safety
///
/// Only meaningful inside a kernel.
pub unsafe fn cp_async_commit() {}

/// Waits until at most `N` of this thread's committed groups of asynchronous copies are still
/// in flight (`cp.async.wait_group`): `cp_async_wait::<0>()` waits for all of them.
///
/// # Safety
///
/// Only meaningful inside a kernel.
pub unsafe fn cp_async_wait<const N: usize>() {}

#[cfg(test)]
mod tests {
    use super::{cp_async, fragment};

    /// `cp_async` copies its value; an address that is not a multiple of the copy's size (a
    /// misaligned-address fault on the GPU) panics instead of copying.
    #[test]
    fn asynchronous_copies_need_aligned_addresses() {
        let src: [u128; 2] = [0x0f0e_0d0c_0b0a_0908_0706_0504_0302_0100, 0];
        let mut dst = [0u128; 2];
        let (s, d) = (src.as_ptr().cast::<[u32; 4]>(), dst.as_mut_ptr().cast::<[u32; 4]>());
        // SAFETY: both arrays hold 32 bytes, 16-byte aligned.
        unsafe { cp_async(d, s) };
        assert_eq!(dst[0], src[0]);
        for (d, s) in [
            (d, s.cast::<u32>().wrapping_add(1).cast()),
            (d.cast::<u32>().wrapping_add(1).cast(), s),
        ] {
            // SAFETY: both pointers stay inside their arrays; the call panics before copying.
            let e = std::panic::catch_unwind(|| unsafe { cp_async::<[u32; 4]>(d, s) }).unwrap_err();
            let message = e.downcast_ref::<String>().map_or("", |m| m.as_str());
            assert!(message.contains("misaligned access of 16 bytes"), "{message}");
        }
    }

    /// The simulator's `ldmatrix` gives a lane its fragment elements of the row-major tile (lane
    /// 5, group 1 and thread 1: `A` from rows 1 and 9, columns 2, 3, 10, 11; `B` from rows 2, 3,
    /// 10, 11 of column 1), and panics on rows that do not start 16-byte aligned.
    #[test]
    fn ldmatrix_fragments_and_row_alignment() {
        // Element `e` of the 16 × 24 tile holds `e`; u128 storage keeps it 16-byte aligned.
        let mut storage = [0u128; 16 * 24 / 8];
        let tile = storage.as_mut_ptr().cast::<u16>();
        for e in 0..16 * 24 {
            // SAFETY: `e` is inside the storage.
            unsafe { *tile.add(e) = e as u16 };
        }
        let at = |row: u16, col: u16| row * 24 + col;
        // SAFETY: every element read is inside the tile.
        let a: [u16; 8] = unsafe { fragment(tile, 24, rkc_simt::mma::a_index, 5) };
        assert_eq!(
            a,
            [at(1, 2), at(1, 3), at(9, 2), at(9, 3), at(1, 10), at(1, 11), at(9, 10), at(9, 11)]
        );
        let b: [u16; 4] = unsafe { fragment(tile, 24, rkc_simt::mma::b_index, 5) };
        assert_eq!(b, [at(2, 1), at(3, 1), at(10, 1), at(11, 1)]);
        // Rows of 20 elements (40 bytes): row 1 starts 8 bytes past a multiple of 16. Lane 0
        // reads rows 0 and 8 only, both aligned, and panics too: the warp's `ldmatrix` reads
        // every row.
        for lane in [5, 0] {
            let e = std::panic::catch_unwind(|| unsafe {
                fragment::<u16, 8>(tile, 20, rkc_simt::mma::a_index, lane)
            })
            .unwrap_err();
            let message = e.downcast_ref::<String>().map_or("", |m| m.as_str());
            assert_eq!(message, rkc_simt::MISALIGNED_LDMATRIX);
        }
    }
}
