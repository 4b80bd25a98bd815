//! The SIMT execution model that both CPU executors of rkc share: the rk interpreter
//! (`rkc-rk`) and the runtime's simulator (`rkc-offload`). One definition keeps them in step
//! with each other and with the GPU.
//!
//! A block's threads run on host threads of their own. They meet at two kinds of points:
//!
//! - block barriers (`sync_threads()`), which every thread of the block must reach;
//! - warp exchanges, which every lane of a warp must reach: the warp operations (shuffles,
//!   votes, reductions) are each one exchange of a 64-bit value per lane, after which every
//!   lane sees the values of all 32 lanes and computes its own result with the functions of
//!   this crate ([`shuffle_source`], [`ballot`], [`butterfly`]).
//!
//! A warp is 32 threads in the block's linear order (x fastest), as on NVIDIA GPUs; rkc gives
//! AMD's 64-wide wavefronts the same 32-lane model. Warp operations in a partial warp (a
//! block whose thread count is not a multiple of 32) are undefined on a GPU; here they are an
//! error.
//!
//! A block's threads may instead run as coroutines on one host thread
//! ([`BlockSync::cooperative`]): a thread that must wait hands control back to the executor's
//! scheduler, which resumes the others. The counting below is the same for both.
//!
//! On a GPU, threads that wait at different points forever are a hang. Here, every wait is
//! counted: when all the threads of the block that have not left the kernel are waiting and
//! no group can complete, the block is stuck, and every waiter gets [`Stuck`] instead.

pub mod mma;
pub mod wgmma;

/// The panic message of an `ldmatrix` whose rows do not all start 16-byte aligned (which
/// faults on a GPU): rkc's compiled check and the simulator's say the same.
pub const MISALIGNED_LDMATRIX: &str =
    "misaligned access of 16 bytes: ldmatrix's rows must start at multiples of 16";

/// The panic message of an asynchronous copy of `size` bytes from or to an address that is not
/// a multiple of `size` (which faults on a GPU): rkc's compiled check and the simulator's say
/// the same.
pub fn misaligned_async_copy(size: usize) -> String {
    format!("misaligned access of {size} bytes: cp_async's addresses must be multiples of {size}")
}

use std::sync::{Condvar, Mutex, MutexGuard};

/// Lanes per warp, on every target.
pub const WARP_SIZE: usize = 32;

/// Why a wait could not complete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stuck {
    /// Some threads wait at a block barrier that the others never reach.
    Barrier { waiting: usize, exited: usize },
    /// Some lanes of a warp wait at a warp operation that the others never reach.
    Warp { warp: usize, waiting: usize },
    /// A warp operation in a warp of fewer than 32 threads.
    PartialWarp { warp: usize, lanes: usize },
}

impl std::fmt::Display for Stuck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stuck::Barrier { waiting, exited } => write!(
                f,
                "divergent barrier: {waiting} threads of the block wait at sync_threads() that {exited} threads left the kernel without reaching"
            ),
            Stuck::Warp { warp, waiting } => write!(
                f,
                "divergent warp operation: {waiting} lanes of warp {warp} wait at a warp operation that the other lanes of the warp never reach"
            ),
            Stuck::PartialWarp { warp, lanes } => write!(
                f,
                "warp operation in warp {warp}, which has {lanes} threads: warp operations need whole warps of 32 (make the block's thread count a multiple of 32)"
            ),
        }
    }
}

impl std::error::Error for Stuck {}

/// One meeting point: a barrier or a warp's exchange.
#[derive(Default)]
struct Group {
    /// Threads that must arrive.
    size: usize,
    arrived: usize,
    generation: u64,
    /// The arriving lanes' values (warps only), and the completed exchange's.
    values: Vec<u64>,
    done: Vec<u64>,
}

struct State {
    threads: usize,
    exited: usize,
    /// Threads blocked in a barrier or an exchange that has not completed.
    waiting: usize,
    barrier: Group,
    warps: Vec<Group>,
    stuck: Option<Stuck>,
}

/// The meeting points of one block's threads.
pub struct BlockSync {
    state: Mutex<State>,
    wake: Condvar,
    /// For threads that run as coroutines on one host thread: gives control back to the
    /// executor, which resumes the other threads and this one again later. `None` for threads
    /// on host threads of their own, which block on `wake`.
    suspend: Option<fn()>,
}

impl BlockSync {
    /// The sync state of a block of `threads` threads, each on a host thread of its own.
    pub fn new(threads: usize) -> BlockSync {
        BlockSync::with_wait(threads, None)
    }

    /// The sync state of a block of `threads` threads that run as coroutines on one host
    /// thread: a thread that waits calls `suspend`, which must let the block's other threads
    /// run before it returns (the wait is then checked again).
    pub fn cooperative(threads: usize, suspend: fn()) -> BlockSync {
        BlockSync::with_wait(threads, Some(suspend))
    }

    fn with_wait(threads: usize, suspend: Option<fn()>) -> BlockSync {
        let warps = (0..threads.div_ceil(WARP_SIZE))
            .map(|w| Group {
                size: (threads - w * WARP_SIZE).min(WARP_SIZE),
                values: vec![0; WARP_SIZE],
                ..Group::default()
            })
            .collect();
        BlockSync {
            state: Mutex::new(State {
                threads,
                exited: 0,
                waiting: 0,
                barrier: Group { size: threads, ..Group::default() },
                warps,
                stuck: None,
            }),
            wake: Condvar::new(),
            suspend,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for another thread to change the state: blocks on the condition variable, or, for
    /// coroutines, lets the others run.
    fn wait<'a>(&'a self, s: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        match self.suspend {
            None => self.wake.wait(s).unwrap_or_else(|e| e.into_inner()),
            Some(suspend) => {
                drop(s);
                suspend();
                self.lock()
            }
        }
    }

    /// Waits until every thread of the block has reached a barrier.
    pub fn barrier(&self) -> Result<(), Stuck> {
        let mut s = self.lock();
        if let Some(e) = &s.stuck {
            return Err(e.clone());
        }
        s.barrier.arrived += 1;
        if s.barrier.arrived == s.barrier.size {
            let released = s.barrier.size - 1;
            complete(&mut s.barrier);
            s.waiting -= released;
            self.wake.notify_all();
            return Ok(());
        }
        let generation = s.barrier.generation;
        s.waiting += 1;
        self.check_stuck(&mut s);
        while s.barrier.generation == generation && s.stuck.is_none() {
            s = self.wait(s);
        }
        if s.barrier.generation != generation {
            Ok(())
        } else {
            Err(s.stuck.clone().unwrap_or(Stuck::Barrier { waiting: 0, exited: 0 }))
        }
    }

    /// Gives `value` for lane `thread % 32` of warp `thread / 32` (`thread` is the linear
    /// index in the block) and waits until every lane of the warp has given its own; returns
    /// all 32 values, indexed by lane.
    pub fn exchange(&self, thread: usize, value: u64) -> Result<Vec<u64>, Stuck> {
        let (w, lane) = (thread / WARP_SIZE, thread % WARP_SIZE);
        let mut s = self.lock();
        if let Some(e) = &s.stuck {
            return Err(e.clone());
        }
        let Some(warp) = s.warps.get_mut(w) else {
            return Err(Stuck::PartialWarp { warp: w, lanes: 0 });
        };
        if warp.size < WARP_SIZE {
            return Err(Stuck::PartialWarp { warp: w, lanes: warp.size });
        }
        warp.values[lane] = value;
        warp.arrived += 1;
        if warp.arrived == warp.size {
            let released = warp.size - 1;
            complete(warp);
            let values = warp.done.clone();
            s.waiting -= released;
            self.wake.notify_all();
            return Ok(values);
        }
        let generation = warp.generation;
        s.waiting += 1;
        self.check_stuck(&mut s);
        while s.warps[w].generation == generation && s.stuck.is_none() {
            s = self.wait(s);
        }
        if s.warps[w].generation != generation {
            Ok(s.warps[w].done.clone())
        } else {
            Err(s.stuck.clone().unwrap_or(Stuck::Warp { warp: w, waiting: 0 }))
        }
    }

    /// A thread left the kernel (normally or by a panic).
    pub fn exit(&self) {
        let mut s = self.lock();
        s.exited += 1;
        self.check_stuck(&mut s);
    }

    /// When every live thread waits and nothing can complete, names the wait that cannot.
    fn check_stuck(&self, s: &mut State) {
        if s.stuck.is_some() || s.waiting == 0 || s.waiting + s.exited < s.threads {
            return;
        }
        let stuck = match s.warps.iter().enumerate().find(|(_, g)| g.arrived > 0) {
            Some((warp, g)) if s.barrier.arrived == 0 => Stuck::Warp { warp, waiting: g.arrived },
            _ => Stuck::Barrier { waiting: s.barrier.arrived, exited: s.exited },
        };
        s.stuck = Some(stuck);
        self.wake.notify_all();
    }
}

/// Completes a group: its values become the result, and its waiters are released.
fn complete(g: &mut Group) {
    g.arrived = 0;
    g.generation += 1;
    g.done.clone_from(&g.values);
}

/// How a shuffle picks the lane it reads from (CUDA's `__shfl_sync` family).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShuffleMode {
    /// From lane `offset`.
    Idx,
    /// From lane `lane ^ offset`.
    Xor,
    /// From lane `lane - offset`; lanes below `offset` keep their own value.
    Up,
    /// From lane `lane + offset`; lanes whose source would pass lane 31 keep their own value.
    Down,
}

impl ShuffleMode {
    pub const ALL: [ShuffleMode; 4] =
        [ShuffleMode::Idx, ShuffleMode::Xor, ShuffleMode::Up, ShuffleMode::Down];

    /// The mode's name in rk's textual form and in MLIR's `gpu.shuffle`.
    pub fn name(self) -> &'static str {
        match self {
            ShuffleMode::Idx => "idx",
            ShuffleMode::Xor => "xor",
            ShuffleMode::Up => "up",
            ShuffleMode::Down => "down",
        }
    }
}

/// The lane that `lane` reads from. Only the low five bits of `offset` count, as in PTX's
/// `shfl.sync`.
pub fn shuffle_source(mode: ShuffleMode, lane: usize, offset: u32) -> usize {
    let off = (offset & 31) as usize;
    match mode {
        ShuffleMode::Idx => off,
        ShuffleMode::Xor => lane ^ off,
        ShuffleMode::Up => lane.checked_sub(off).unwrap_or(lane),
        ShuffleMode::Down if lane + off < WARP_SIZE => lane + off,
        ShuffleMode::Down => lane,
    }
}

/// The warp's ballot: bit `l` is set when lane `l`'s value is non-zero.
pub fn ballot(values: &[u64]) -> u32 {
    values.iter().enumerate().fold(0, |m, (l, &v)| if v != 0 { m | 1 << l } else { m })
}

/// The warp reduction as the GPU computes it: five butterfly steps (`v = op(v, shuffle_xor(v,
/// k))` for k = 16, 8, 4, 2, 1), so that floating-point sums round exactly as on the device.
/// Every lane gets the same result; this returns lane `lane`'s.
pub fn butterfly(values: &[u64], lane: usize, op: &dyn Fn(u64, u64) -> u64) -> u64 {
    let mut v = [0u64; WARP_SIZE];
    for (slot, &value) in v.iter_mut().zip(values) {
        *slot = value;
    }
    let mut k = WARP_SIZE / 2;
    while k > 0 {
        v = std::array::from_fn(|l| op(v[l], v[l ^ k]));
        k /= 2;
    }
    v[lane]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn run(threads: usize, body: impl Fn(usize, &BlockSync) + Sync) -> Vec<Option<Stuck>> {
        let sync = BlockSync::new(threads);
        let results = Mutex::new(vec![None; threads]);
        std::thread::scope(|s| {
            for t in 0..threads {
                let (sync, body, results) = (&sync, &body, &results);
                s.spawn(move || {
                    let r =
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| body(t, sync)));
                    sync.exit();
                    if let Err(p) = r {
                        let stuck = p.downcast_ref::<Stuck>().cloned();
                        results.lock().unwrap()[t] = stuck;
                    }
                });
            }
        });
        results.into_inner().unwrap()
    }

    #[test]
    fn exchanges_give_every_lane_every_value() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let out = run(64, |t, s| {
            for round in 0..3u64 {
                let all = s.exchange(t, t as u64 * 10 + round).unwrap();
                let w = t / 32;
                let expected: Vec<u64> =
                    (0..32).map(|l| (w * 32 + l) as u64 * 10 + round).collect();
                assert_eq!(all, expected);
                s.barrier().unwrap();
            }
            seen.lock().unwrap().push(t);
        });
        assert!(out.iter().all(Option::is_none));
        assert_eq!(seen.lock().unwrap().len(), 64);
    }

    #[test]
    fn a_barrier_some_threads_skip_is_reported() {
        let out = run(8, |t, s| {
            if t < 5 {
                std::panic::panic_any(s.barrier().unwrap_err());
            }
        });
        assert_eq!(out.iter().flatten().count(), 5);
        assert!(matches!(out[0], Some(Stuck::Barrier { exited: 3, .. })));
    }

    #[test]
    fn a_warp_operation_some_lanes_skip_is_reported() {
        let out = run(32, |t, s| {
            if t % 2 == 0 {
                std::panic::panic_any(s.exchange(t, 1).unwrap_err());
            }
        });
        assert_eq!(out.iter().flatten().count(), 16);
        assert_eq!(out[0], Some(Stuck::Warp { warp: 0, waiting: 16 }));
    }

    #[test]
    fn lanes_at_a_warp_operation_while_others_wait_at_a_barrier_are_reported() {
        let out = run(64, |t, s| {
            // Half of warp 0 waits at a shuffle, everyone else at the barrier: neither completes.
            let r = if t < 16 { s.exchange(t, 0).map(drop) } else { s.barrier() };
            if let Err(e) = r {
                std::panic::panic_any(e);
            }
        });
        assert_eq!(out.iter().flatten().count(), 64);
    }

    #[test]
    fn partial_warps_are_refused() {
        let out = run(40, |t, s| {
            if t >= 32 {
                std::panic::panic_any(s.exchange(t, 0).unwrap_err());
            }
        });
        assert_eq!(out[35], Some(Stuck::PartialWarp { warp: 1, lanes: 8 }));
    }

    #[test]
    fn shuffle_sources_follow_ptx() {
        assert_eq!(shuffle_source(ShuffleMode::Idx, 3, 7), 7);
        assert_eq!(shuffle_source(ShuffleMode::Idx, 3, 39), 7);
        assert_eq!(shuffle_source(ShuffleMode::Xor, 5, 1), 4);
        assert_eq!(shuffle_source(ShuffleMode::Up, 1, 2), 1);
        assert_eq!(shuffle_source(ShuffleMode::Up, 9, 2), 7);
        assert_eq!(shuffle_source(ShuffleMode::Down, 30, 2), 30);
        assert_eq!(shuffle_source(ShuffleMode::Down, 29, 2), 31);
    }

    #[test]
    fn butterfly_sums_like_the_device() {
        let values: Vec<u64> = (0..32).map(|l| f32::to_bits(0.1 * l as f32) as u64).collect();
        let add =
            |a: u64, b: u64| (f32::from_bits(a as u32) + f32::from_bits(b as u32)).to_bits() as u64;
        let r: Vec<u64> = (0..32).map(|l| butterfly(&values, l, &add)).collect();
        assert!(r.iter().all(|&x| x == r[0]));
        assert_eq!(ballot(&[1, 0, 3]), 0b101);
    }
}
