//! The rk interpreter: executes a kernel over a launch shape with the dialect's exact
//! semantics (integer widths, wrapping, Rust's casts, bounds checks, panics), in the spirit of
//! Cranelift's interpreter. It is the executable form of the specification in lib.rs, and
//! how CI checks, without a GPU, that rkc means what rustc means.
//!
//! Memory is a set of buffers, one per pointer argument; a pointer is the buffer's number in
//! its upper bits and a byte offset in its lower 40. Any access outside a buffer is an error
//! (on a GPU it would be undefined behaviour). The threads of a block run one after another,
//! in x-fastest order, blocks likewise; a kernel that waits at barriers runs each block's
//! threads on host threads of their own instead, sharing memory behind one lock, so that every
//! thread is live at a barrier (a barrier some threads never reach is a panic, not a hang).

use crate::ir::{BinOp, CmpOp, Func, Geometry, Literal, Loc, Module, Op, OpKind, Region, ValueId};
use crate::math::MathFn;
use crate::types::{FloatTy, IntTy, Type};
use std::fmt;
use std::sync::Mutex;

const OFFSET_BITS: u32 = 40;
const OFFSET_MASK: u64 = (1 << OFFSET_BITS) - 1;

/// A kernel argument: a scalar's bits (little-endian in a u64) or a buffer's bytes.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Scalar(u64),
    Buffer(Vec<u8>),
}

/// The launch shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Bytes of dynamic shared memory per block (`offload!`'s `dyn_cache`).
    pub dyn_shared: u32,
}

/// Why an interpretation stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InterpError {
    NoKernel(String),
    ArgumentCount {
        expected: usize,
        found: usize,
    },
    /// A device panic: a failed bounds check or a division check.
    Panic {
        message: String,
        loc: Loc,
        block: [u32; 3],
        thread: [u32; 3],
    },
    /// An access no buffer covers (undefined behaviour on a GPU).
    OutOfBounds {
        loc: Loc,
        address: u64,
        bytes: u64,
    },
    /// An access whose address is not a multiple of what it needs (`rk.copy_async`'s size,
    /// 16 bytes for each row `rk.ldmatrix` reads): a misaligned-address fault on a GPU.
    Misaligned {
        loc: Loc,
        address: u64,
        bytes: u64,
    },
    /// The module broke a rule the verifier should have caught.
    Malformed(String),
    /// The step limit was hit: a kernel that does not terminate.
    StepLimit,
    /// The kernel uses something the interpreter does not model.
    Unsupported(String),
}

impl fmt::Display for InterpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InterpError::NoKernel(k) => write!(f, "no kernel `{k}` in the module"),
            InterpError::ArgumentCount { expected, found } => {
                write!(f, "the kernel takes {expected} arguments, {found} were given")
            }
            InterpError::Panic { message, loc, block, thread } => write!(
                f,
                "device panic at {}:{} in block {block:?}, thread {thread:?}: {message}",
                loc.line, loc.col
            ),
            InterpError::OutOfBounds { loc, address, bytes } => write!(
                f,
                "out-of-bounds access of {bytes} bytes at {address:#x} ({}:{})",
                loc.line, loc.col
            ),
            InterpError::Misaligned { loc, address, bytes } => write!(
                f,
                "misaligned access of {bytes} bytes at {address:#x} ({}:{}): the address must be a multiple of {bytes}",
                loc.line, loc.col
            ),
            InterpError::Malformed(m) => write!(f, "malformed module: {m}"),
            InterpError::StepLimit => write!(f, "the step limit was reached"),
            InterpError::Unsupported(what) => {
                write!(f, "the interpreter does not model {what} yet")
            }
        }
    }
}

impl std::error::Error for InterpError {}

/// A runtime value: the bits of a scalar (integers zero-extended from their width, floats as
/// their IEEE bits, bools as 0/1, pointers as addresses), or a slot's index.
pub type Bits = u128;

enum Flow {
    Normal(Vec<Bits>),
    Return,
    Break(u32, Vec<Bits>),
    Continue(u32),
}

/// What names a per-block or per-thread buffer: its source site, a text that tells the
/// buffers of one site apart (the type, and the thread for a local), and the block.
type BufferKey = (Loc, String, [u32; 3]);

/// What the threads of a launch share: the module, memory and the shared arrays.
struct Launched<'m> {
    module: &'m Module,
    memory: Mutex<Vec<Vec<u8>>>,
    /// Shared and local arrays: (site, type and, for a local, thread, block) → buffer number.
    shared: Mutex<Vec<(BufferKey, usize)>>,
    launch: Launch,
    step_limit: u64,
    /// What the threads printed, in the order they printed it: (to standard error, text).
    printed: Mutex<Vec<(bool, String)>>,
}

/// One thread's interpreter state.
struct Machine<'a, 'm> {
    launched: &'a Launched<'m>,
    /// Slot storage of the current thread.
    slots: Vec<Bits>,
    block: [u32; 3],
    thread: [u32; 3],
    steps: u64,
    /// The value of the last `rk.return`, on its way to the caller.
    returned: Option<Bits>,
    /// The block's barrier and warp exchanges, when the kernel uses them (its threads then
    /// run at once).
    sync: Option<&'a rkc_simt::BlockSync>,
    /// The thread's own buffers of `rk.local` ops, by the op's address.
    locals: std::collections::HashMap<usize, usize>,
    /// The location an op without one has: that of the call it runs under, as inlining
    /// gives it (`passes::inline`), so that a shared array in a function called from two
    /// places is two arrays before inlining as after.
    call_loc: Loc,
}

/// Runs `kernel` over the launch; buffers in `args` are updated in place.
pub fn run(
    module: &Module,
    kernel: &str,
    launch: Launch,
    args: &mut [Arg],
) -> Result<(), InterpError> {
    run_with_limit(module, kernel, launch, args, 1 << 32)
}

/// Whether `func`, or a function it calls, waits at a barrier or exchanges values in a warp:
/// the threads of a block must then be live at once.
pub fn synchronises<'m>(module: &'m Module, func: &'m Func, seen: &mut Vec<&'m str>) -> bool {
    fn walk<'m>(module: &'m Module, region: &'m Region, seen: &mut Vec<&'m str>) -> bool {
        region.ops.iter().any(|op| match &op.kind {
            OpKind::Barrier => true,
            OpKind::Warp(w) if w.exchanges() => true,
            OpKind::Mma(_) | OpKind::Wgmma { .. } => true,
            OpKind::Call { callee } => {
                module.func(callee).is_some_and(|f| synchronises(module, f, seen))
            }
            _ => op.regions.iter().any(|r| walk(module, r, seen)),
        })
    }
    if seen.contains(&func.name.as_str()) {
        return false;
    }
    seen.push(&func.name);
    walk(module, &func.body, seen)
}

/// [`run`] with a bound on executed ops per thread, for fuzzing and generated kernels. What
/// the kernel prints goes to the process's standard output and error after the launch, as
/// the runtime writes a GPU's.
pub fn run_with_limit(
    module: &Module,
    kernel: &str,
    launch: Launch,
    args: &mut [Arg],
    step_limit: u64,
) -> Result<(), InterpError> {
    let mut printed = Vec::new();
    let result = run_printing(module, kernel, launch, args, step_limit, &mut printed);
    for (stderr, text) in printed {
        if stderr {
            eprint!("{text}");
        } else {
            print!("{text}");
        }
    }
    result
}

/// [`run_with_limit`], with what the kernel prints appended to `printed` (to standard error,
/// text) instead of written out, also when the launch fails.
pub fn run_printing(
    module: &Module,
    kernel: &str,
    launch: Launch,
    args: &mut [Arg],
    step_limit: u64,
    printed: &mut Vec<(bool, String)>,
) -> Result<(), InterpError> {
    let func = module
        .funcs
        .iter()
        .find(|f| f.kernel && f.name == kernel)
        .ok_or_else(|| InterpError::NoKernel(kernel.into()))?;
    if func.params.len() != args.len() {
        return Err(InterpError::ArgumentCount { expected: func.params.len(), found: args.len() });
    }
    let mut memory = Vec::new();
    let mut params = Vec::with_capacity(args.len());
    for arg in args.iter_mut() {
        match arg {
            Arg::Scalar(bits) => params.push(Bits::from(*bits)),
            Arg::Buffer(bytes) => {
                memory.push(std::mem::take(bytes));
                params.push((memory.len() as Bits) << OFFSET_BITS);
            }
        }
    }
    let launched = Launched {
        module,
        memory: Mutex::new(memory),
        shared: Mutex::new(Vec::new()),
        launch,
        step_limit,
        printed: Mutex::new(Vec::new()),
    };
    // Barriers need every thread of a block live at once; anything else runs thread after
    // thread, which is faster and gives one deterministic order.
    let together = synchronises(module, func, &mut Vec::new());
    let result = grid(&launched, func, &params, together);
    printed.append(&mut launched.printed.lock().unwrap_or_else(|e| e.into_inner()));
    // Hand the buffers back, also after an error, so the caller can inspect them.
    let memory = launched.memory.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut buffers = memory.into_iter();
    for arg in args.iter_mut() {
        if let Arg::Buffer(bytes) = arg
            && let Some(b) = buffers.next()
        {
            *bytes = b;
        }
    }
    result
}

fn grid<'m>(
    launched: &Launched<'m>,
    func: &'m Func,
    params: &[Bits],
    together: bool,
) -> Result<(), InterpError> {
    let [gx, gy, gz] = launched.launch.grid;
    let [bx, by, bz] = launched.launch.block;
    let threads: Vec<[u32; 3]> =
        (0..bz).flat_map(|z| (0..by).flat_map(move |y| (0..bx).map(move |x| [x, y, z]))).collect();
    for z in 0..gz {
        for y in 0..gy {
            for x in 0..gx {
                let block = [x, y, z];
                if !together {
                    for &thread in &threads {
                        Machine {
                            launched,
                            slots: Vec::new(),
                            block,
                            thread,
                            steps: 0,
                            returned: None,
                            sync: None,
                            locals: Default::default(),
                            call_loc: Loc::default(),
                        }
                        .call(func, params)?;
                    }
                    continue;
                }
                let sync = rkc_simt::BlockSync::new(threads.len());
                let failure: Mutex<Option<InterpError>> = Mutex::new(None);
                std::thread::scope(|scope| {
                    for &thread in &threads {
                        let (sync, failure) = (&sync, &failure);
                        scope.spawn(move || {
                            let mut m = Machine {
                                launched,
                                slots: Vec::new(),
                                block,
                                thread,
                                steps: 0,
                                returned: None,
                                sync: Some(sync),
                                locals: Default::default(),
                                call_loc: Loc::default(),
                            };
                            let result = m.call(func, params);
                            // The thread's own failure goes first: its exit may make the
                            // threads waiting at a barrier fail as divergent, and the panic
                            // that ended it is what the launch must report.
                            if let Err(e) = result {
                                failure.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert(e);
                            }
                            sync.exit();
                        });
                    }
                });
                if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
                    return Err(e);
                }
            }
        }
    }
    Ok(())
}

fn int_ty(t: &Type) -> Option<IntTy> {
    match t {
        Type::Int(i) => Some(*i),
        _ => None,
    }
}

/// Truncates bits to an integer type's width.
fn wrap(bits: Bits, t: IntTy) -> Bits {
    bits & (Bits::MAX >> (128 - t.bits()))
}

/// The integer's value, sign-extended when the type is signed.
/// An unsigned `u128` above `i128::MAX` comes out negative: callers that order or divide
/// unsigned values use [`wrap`]'s bits instead.
fn int_value(bits: Bits, t: IntTy) -> i128 {
    let b = wrap(bits, t);
    if t.is_signed() {
        let shift = 128 - t.bits();
        ((b << shift) as i128) >> shift
    } else {
        b as i128
    }
}

/// Orders two integers of one type: signed by value, unsigned by their bits.
fn int_cmp(l: Bits, r: Bits, t: IntTy) -> std::cmp::Ordering {
    if t.is_signed() { int_value(l, t).cmp(&int_value(r, t)) } else { wrap(l, t).cmp(&wrap(r, t)) }
}

fn f32_of(bits: Bits) -> f32 {
    f32::from_bits(bits as u32)
}

fn f64_of(bits: Bits) -> f64 {
    f64::from_bits(bits as u64)
}

impl<'a, 'm> Machine<'a, 'm> {
    fn call(&mut self, func: &'m Func, args: &[Bits]) -> Result<Option<Bits>, InterpError> {
        let mut values: Vec<Bits> = vec![0; func.values.len()];
        for (p, a) in func.params.iter().zip(args) {
            if let Some(slot) = values.get_mut(p.value.0 as usize) {
                *slot = *a;
            }
        }
        let slots_mark = self.slots.len();
        let flow = self.region(func, &func.body, &mut values);
        self.slots.truncate(slots_mark);
        match flow? {
            Flow::Normal(v) | Flow::Break(_, v) => Ok(v.first().copied()),
            Flow::Return | Flow::Continue(_) => Ok(self.returned.take()),
        }
    }

    fn region(
        &mut self,
        func: &'m Func,
        region: &'m Region,
        values: &mut Vec<Bits>,
    ) -> Result<Flow, InterpError> {
        for op in &region.ops {
            self.steps += 1;
            if self.steps > self.launched.step_limit {
                return Err(InterpError::StepLimit);
            }
            if let Some(flow) = self.op(func, op, values)? {
                return Ok(flow);
            }
        }
        Ok(Flow::Normal(Vec::new()))
    }

    fn ty(&self, func: &Func, v: ValueId) -> Result<Type, InterpError> {
        func.ty(v)
            .cloned()
            .ok_or_else(|| InterpError::Malformed(format!("value {} has no type", v.0)))
    }

    fn get(&self, values: &[Bits], v: ValueId) -> Bits {
        values.get(v.0 as usize).copied().unwrap_or(0)
    }

    fn panic(&self, message: String, loc: Loc) -> InterpError {
        InterpError::Panic { message, loc, block: self.block, thread: self.thread }
    }

    /// The thread's index in its block's linear order (x fastest), whose warp is its index
    /// over 32 and whose lane the remainder.
    fn linear_thread(&self) -> usize {
        let [bx, by, _] = self.launched.launch.block;
        (self.thread[0] + bx * (self.thread[1] + by * self.thread[2])) as usize
    }

    /// The buffer and offset an address names, if `bytes` bytes from it are in bounds.
    fn locate(&self, address: u64, bytes: u64, loc: Loc) -> Result<(usize, usize), InterpError> {
        let oob = InterpError::OutOfBounds { loc, address, bytes };
        let buffer = (address >> OFFSET_BITS) as usize;
        let offset = address & OFFSET_MASK;
        let memory = self.launched.memory.lock().unwrap_or_else(|e| e.into_inner());
        let Some(b) = buffer.checked_sub(1).and_then(|k| memory.get(k)) else {
            return Err(oob);
        };
        if offset.checked_add(bytes).is_none_or(|end| end > b.len() as u64) {
            return Err(oob);
        }
        Ok((buffer - 1, offset as usize))
    }

    fn load(&self, address: u64, ty: &Type, loc: Loc) -> Result<Bits, InterpError> {
        let n = ty.size_of();
        let (b, off) = self.locate(address, n, loc)?;
        let mut raw = [0u8; 16];
        let memory = self.launched.memory.lock().unwrap_or_else(|e| e.into_inner());
        raw[..n as usize].copy_from_slice(&memory[b][off..off + n as usize]);
        let bits = Bits::from_le_bytes(raw);
        Ok(if *ty == Type::Bool { Bits::from(bits & 0xff != 0) } else { bits })
    }

    /// An atomic read-modify-write: one lock around the load and the store, so that the
    /// threads of a block running at once cannot lose updates. Returns the old value.
    /// The buffer number of a per-block array (static or dynamic shared memory), made
    /// zeroed on first use.
    fn block_buffer(&self, key: BufferKey, size: usize) -> usize {
        let mut shared = self.launched.shared.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, i)) = shared.iter().find(|(k, _)| *k == key) {
            return *i;
        }
        let mut memory = self.launched.memory.lock().unwrap_or_else(|e| e.into_inner());
        memory.push(vec![0u8; size]);
        let i = memory.len();
        shared.push((key, i));
        i
    }

    /// The buffer of a read-only table: its elements' bytes, made on first use.
    fn table_buffer(&self, key: BufferKey, table: &crate::ir::Table) -> usize {
        let mut shared = self.launched.shared.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, i)) = shared.iter().find(|(k, _)| *k == key) {
            return *i;
        }
        let bytes = table.bytes();
        let mut memory = self.launched.memory.lock().unwrap_or_else(|e| e.into_inner());
        memory.push(bytes);
        let i = memory.len();
        shared.push((key, i));
        i
    }

    /// A warp operation: one exchange of the lanes' operands, then each lane's result
    /// computed with `rkc_simt`'s rules, as the simulator does.
    fn warp(
        &mut self,
        w: crate::ir::WarpOp,
        func: &'m Func,
        op: &'m Op,
        a: Bits,
        b: Bits,
    ) -> Result<Bits, InterpError> {
        use crate::ir::{ReduceOp, WarpOp};
        let linear = self.linear_thread();
        let lane = linear % rkc_simt::WARP_SIZE;
        if w == WarpOp::LaneId {
            return Ok(lane as Bits);
        }
        let Some(sync) = self.sync else {
            return Err(InterpError::Malformed(
                "a warp operation in a kernel run thread by thread".into(),
            ));
        };
        // Warp operations move at most 64 bits per lane (the front end refuses wider ones).
        let values = sync
            .exchange(linear, a as u64)
            .map_err(|stuck| self.panic(stuck.to_string(), op.loc))?;
        let ty = self.ty(func, op.operands[0])?;
        Ok(match w {
            WarpOp::LaneId => lane as Bits,
            WarpOp::Shuffle(mode) => {
                Bits::from(values[rkc_simt::shuffle_source(mode, lane, b as u32)])
            }
            WarpOp::Any => Bits::from(rkc_simt::ballot(&values) != 0),
            WarpOp::All => Bits::from(rkc_simt::ballot(&values) == u32::MAX),
            WarpOp::Ballot => Bits::from(rkc_simt::ballot(&values)),
            WarpOp::Reduce(r) => {
                let f = match r {
                    ReduceOp::Add => None,
                    ReduceOp::Min => Some(MathFn::Min),
                    ReduceOp::Max => Some(MathFn::Max),
                };
                let tys = [ty.clone(), ty.clone()];
                let combine = |x: u64, y: u64| {
                    let (x, y) = (Bits::from(x), Bits::from(y));
                    (match f {
                        None => eval_binary(BinOp::Add, &ty, &ty, x, y).unwrap_or(0),
                        Some(f) => math(f, &tys, &[x, y], &ty),
                    }) as u64
                };
                Bits::from(rkc_simt::butterfly(&values, lane, &combine))
            }
        })
    }

    /// The warp's matrix multiply-accumulate: the lanes' `A` and `B` fragments in three
    /// exchanges (four 16-bit elements a word), then this lane's `D` by `rkc_simt::mma`, as the
    /// simulator computes it.
    fn mma(
        &mut self,
        ty: crate::MmaType,
        op: &'m Op,
        operands: &[Bits],
    ) -> Result<[f32; 4], InterpError> {
        use rkc_simt::mma::{pack, unpack};
        let linear = self.linear_thread();
        let lane = linear % rkc_simt::WARP_SIZE;
        let Some(sync) = self.sync else {
            return Err(InterpError::Malformed(
                "a warp operation in a kernel run thread by thread".into(),
            ));
        };
        let halves: Vec<u16> = operands[..12].iter().map(|&b| b as u16).collect();
        let mut words = Vec::with_capacity(3);
        for chunk in halves.chunks(4) {
            words.push(
                sync.exchange(linear, pack(chunk))
                    .map_err(|stuck| self.panic(stuck.to_string(), op.loc))?,
            );
        }
        let a: [[u16; 8]; rkc_simt::WARP_SIZE] =
            std::array::from_fn(|l| std::array::from_fn(|i| unpack(words[i / 4][l], i % 4)));
        let b: [[u16; 4]; rkc_simt::WARP_SIZE] =
            std::array::from_fn(|l| std::array::from_fn(|i| unpack(words[2][l], i)));
        let c = std::array::from_fn(|i| f32::from_bits(operands[12 + i] as u32));
        Ok(rkc_simt::mma::mma(ty, &a, &b, c, lane))
    }

    /// The warpgroup's matrix multiply-accumulate: after the checks the simulator makes and one
    /// exchange of the warp (every lane must reach it), this thread's `D` by `rkc_simt::wgmma`,
    /// reading the tiles' elements from memory.
    fn wgmma(
        &mut self,
        ty: crate::MmaType,
        n: usize,
        swizzle: rkc_simt::wgmma::Swizzle,
        op: &'m Op,
        operands: &[Bits],
    ) -> Result<Vec<f32>, InterpError> {
        let linear = self.linear_thread();
        let Some(sync) = self.sync else {
            return Err(InterpError::Malformed(
                "a warp operation in a kernel run thread by thread".into(),
            ));
        };
        let threads: u32 = self.launched.launch.block.iter().product();
        if !(threads as usize).is_multiple_of(rkc_simt::wgmma::THREADS) {
            return Err(self.panic(rkc_simt::wgmma::PARTIAL_WARPGROUP.to_string(), op.loc));
        }
        let (a, b) = (operands[0] as u64, operands[3] as u64);
        // Buffers start 1024-byte aligned here, as the GPU's shared memory does where a
        // module has swizzled multiplies (`LowerOptions::swizzled_tiles`).
        let (misaligned, align, bad) = rkc_simt::wgmma::checks(swizzle);
        if !((a | b) & OFFSET_MASK).is_multiple_of(align) {
            return Err(self.panic(misaligned.to_string(), op.loc));
        }
        let strides = [1, 2, 4, 5].map(|i| operands[i] as usize);
        if !rkc_simt::wgmma::strides_ok(strides, swizzle) {
            return Err(self.panic(bad.to_string(), op.loc));
        }
        sync.exchange(linear, 0).map_err(|stuck| self.panic(stuck.to_string(), op.loc))?;
        let elem = match ty {
            crate::MmaType::F16 => Type::Float(crate::FloatTy::F16),
            crate::MmaType::Bf16 => Type::Float(crate::FloatTy::Bf16),
        };
        // The first failed read stops the multiply; the closures cannot return it themselves.
        let failed = std::cell::RefCell::new(None);
        let read = |base: u64, o: usize| {
            let at = base.wrapping_add(2 * o as u64);
            self.load(at, &elem, op.loc).unwrap_or_else(|e| {
                failed.borrow_mut().get_or_insert(e);
                0
            }) as u16
        };
        let d: Vec<f32> = operands[6..].iter().map(|&x| f32::from_bits(x as u32)).collect();
        let t = linear % rkc_simt::wgmma::THREADS;
        let out =
            rkc_simt::wgmma::wgmma(ty, n, swizzle, t, strides, |o| read(a, o), |o| read(b, o), &d);
        match failed.into_inner() {
            Some(e) => Err(e),
            None => Ok(out),
        }
    }

    fn atomic(
        &mut self,
        address: u64,
        ty: &Type,
        loc: Loc,
        f: impl Fn(Bits) -> Bits,
    ) -> Result<Bits, InterpError> {
        let n = ty.size_of() as usize;
        let (b, off) = self.locate(address, n as u64, loc)?;
        let mut memory = self.launched.memory.lock().unwrap_or_else(|e| e.into_inner());
        let mut raw = [0u8; 16];
        raw[..n].copy_from_slice(&memory[b][off..off + n]);
        let old = Bits::from_le_bytes(raw);
        let new = f(old);
        memory[b][off..off + n].copy_from_slice(&new.to_le_bytes()[..n]);
        Ok(old)
    }

    fn store(&mut self, address: u64, ty: &Type, bits: Bits, loc: Loc) -> Result<(), InterpError> {
        let n = ty.size_of() as usize;
        let (b, off) = self.locate(address, n as u64, loc)?;
        let mut memory = self.launched.memory.lock().unwrap_or_else(|e| e.into_inner());
        memory[b][off..off + n].copy_from_slice(&bits.to_le_bytes()[..n]);
        Ok(())
    }

    fn op(
        &mut self,
        func: &'m Func,
        op: &'m Op,
        values: &mut Vec<Bits>,
    ) -> Result<Option<Flow>, InterpError> {
        let arg = |k: usize| {
            values
                .get(op.operands.get(k).map_or(usize::MAX, |v| v.0 as usize))
                .copied()
                .unwrap_or(0)
        };
        let result_ty = match op.results.first() {
            Some(r) => Some(self.ty(func, *r)?),
            None => None,
        };
        let out: Option<Bits> = match &op.kind {
            OpKind::Const(lit) => Some(match lit {
                Literal::Bool(b) => Bits::from(*b),
                Literal::Int(bits) => *bits,
                Literal::Float(x) => match result_ty {
                    Some(Type::Float(f)) => f.bits_of(*x),
                    _ => Bits::from(x.to_bits()),
                },
            }),
            OpKind::Geometry(g, d) => {
                let k = match d {
                    crate::Dim::X => 0,
                    crate::Dim::Y => 1,
                    crate::Dim::Z => 2,
                };
                Some(Bits::from(match g {
                    Geometry::ThreadId => self.thread[k],
                    Geometry::BlockId => self.block[k],
                    Geometry::BlockDim => self.launched.launch.block[k],
                    Geometry::GridDim => self.launched.launch.grid[k],
                }))
            }
            OpKind::Binary(b) => {
                let ty = self.ty(func, op.operands[0])?;
                let rty = self.ty(func, op.operands[1])?;
                Some(self.binary(*b, &ty, &rty, arg(0), arg(1), op.loc)?)
            }
            OpKind::Cmp(c) => {
                let ty = self.ty(func, op.operands[0])?;
                Some(Bits::from(compare(*c, &ty, arg(0), arg(1))))
            }
            OpKind::Neg => {
                let ty = self.ty(func, op.operands[0])?;
                Some(match ty {
                    // Negation flips the sign bit, NaN included, in every float type.
                    Type::Float(f) => arg(0) ^ (1 << (f.bits() - 1)),
                    Type::Int(t) => wrap(arg(0).wrapping_neg(), t),
                    _ => return Err(InterpError::Malformed("neg of a non-number".into())),
                })
            }
            OpKind::Not => {
                let ty = self.ty(func, op.operands[0])?;
                Some(match ty {
                    Type::Bool => Bits::from(arg(0) == 0),
                    Type::Int(t) => wrap(!arg(0), t),
                    _ => return Err(InterpError::Malformed("not of a non-integer".into())),
                })
            }
            OpKind::Cast => {
                let from = self.ty(func, op.operands[0])?;
                Some(cast(&from, result_ty.as_ref().unwrap_or(&Type::Unit), arg(0)))
            }
            OpKind::PtrOffset => {
                let ty = self.ty(func, op.operands[0])?;
                let ity = self.ty(func, op.operands[1])?;
                let size = ty.pointee().map_or(1, Type::size_of);
                let i = int_value(arg(1), int_ty(&ity).unwrap_or(IntTy::Usize)) as i64;
                Some(Bits::from((arg(0) as u64).wrapping_add((i as u64).wrapping_mul(size))))
            }
            OpKind::FieldPtr { index } => {
                let ty = self.ty(func, op.operands[0])?;
                let Some(offset) = ty.pointee().and_then(|s| s.field_offset(*index as usize))
                else {
                    return Err(InterpError::Malformed("field_ptr of a non-struct pointer".into()));
                };
                Some(Bits::from((arg(0) as u64).wrapping_add(offset)))
            }
            OpKind::ElemPtr => {
                let ty = self.ty(func, op.operands[0])?;
                let size = match ty.pointee() {
                    Some(Type::Array { elem, .. }) => elem.size_of(),
                    _ => {
                        return Err(InterpError::Malformed(
                            "elem_ptr of a non-array pointer".into(),
                        ));
                    }
                };
                Some(Bits::from((arg(0) as u64).wrapping_add((arg(1) as u64).wrapping_mul(size))))
            }
            OpKind::Load => {
                let ty = result_ty.clone().unwrap_or(Type::Unit);
                Some(self.load(arg(0) as u64, &ty, op.loc)?)
            }
            OpKind::Store => {
                let ty = self.ty(func, op.operands[0])?;
                self.store(arg(1) as u64, &ty, arg(0), op.loc)?;
                None
            }
            OpKind::BoundsCheck => {
                if arg(0) >= arg(1) {
                    return Err(self.panic(
                        format!(
                            "index out of bounds: the len is {} but the index is {}",
                            arg(1),
                            arg(0)
                        ),
                        op.loc,
                    ));
                }
                None
            }
            OpKind::Var => {
                self.slots.push(0);
                Some((self.slots.len() - 1) as Bits)
            }
            OpKind::Read => Some(self.slots.get(arg(0) as usize).copied().unwrap_or(0)),
            OpKind::Write => {
                let v = arg(0);
                if let Some(s) = self.slots.get_mut(arg(1) as usize) {
                    *s = v;
                }
                None
            }
            OpKind::If => {
                let region = if arg(0) != 0 { &op.regions[0] } else { &op.regions[1] };
                match self.region(func, region, values)? {
                    Flow::Normal(v) => {
                        // `rk.yield` leaves its values in `Normal`; see below.
                        for (r, b) in op.results.iter().zip(v) {
                            values[r.0 as usize] = b;
                        }
                        return Ok(None);
                    }
                    other => return Ok(Some(other)),
                }
            }
            OpKind::Yield => {
                let v = op.operands.iter().map(|x| self.get(values, *x)).collect();
                return Ok(Some(Flow::Normal(v)));
            }
            OpKind::Loop { .. } => loop {
                match self.region(func, &op.regions[0], values)? {
                    Flow::Normal(_) | Flow::Continue(0) => continue,
                    Flow::Continue(d) => return Ok(Some(Flow::Continue(d - 1))),
                    Flow::Break(0, v) => {
                        for (r, b) in op.results.iter().zip(v) {
                            values[r.0 as usize] = b;
                        }
                        return Ok(None);
                    }
                    Flow::Break(d, v) => return Ok(Some(Flow::Break(d - 1, v))),
                    Flow::Return => return Ok(Some(Flow::Return)),
                }
            },
            OpKind::Break { depth } => {
                let v = op.operands.iter().map(|x| self.get(values, *x)).collect();
                return Ok(Some(Flow::Break(*depth, v)));
            }
            OpKind::Continue { depth } => return Ok(Some(Flow::Continue(*depth))),
            OpKind::Return => {
                self.returned = op.operands.first().map(|v| self.get(values, *v));
                return Ok(Some(Flow::Return));
            }
            // A slice argument is a whole buffer: its value is the buffer's address, and its
            // length is the buffer's, in elements.
            OpKind::SlicePtr => Some(arg(0)),
            // Threads run one after another here, so a barrier cannot be kept: refuse rather
            // than compute something a GPU would not.
            OpKind::Barrier => match self.sync.map(rkc_simt::BlockSync::barrier) {
                Some(Ok(())) => None,
                Some(Err(stuck)) => return Err(self.panic(stuck.to_string(), op.loc)),
                None => {
                    return Err(InterpError::Malformed(
                        "a barrier in a kernel run thread by thread".into(),
                    ));
                }
            },
            // The interpreter's memory is one lock, which already orders every access.
            OpKind::Fence(_) => None,
            // The copy happens at once: a kernel that waits for its copies before reading
            // them (as it must on a GPU) sees the same bytes.
            OpKind::CopyAsync => {
                let size = self.ty(func, op.operands[0])?.pointee().map_or(0, Type::size_of);
                // Buffers start 16-byte aligned (as device allocations and shared arrays do),
                // so an address's alignment is its offset's.
                for address in [arg(1) as u64, arg(0) as u64] {
                    if !(address & OFFSET_MASK).is_multiple_of(size) {
                        return Err(InterpError::Misaligned { loc: op.loc, address, bytes: size });
                    }
                }
                let (sb, so) = self.locate(arg(1) as u64, size, op.loc)?;
                let (db, dof) = self.locate(arg(0) as u64, size, op.loc)?;
                let mut memory = self.launched.memory.lock().unwrap_or_else(|e| e.into_inner());
                let bytes = memory[sb][so..so + size as usize].to_vec();
                memory[db][dof..dof + size as usize].copy_from_slice(&bytes);
                None
            }
            OpKind::AsyncCommit | OpKind::AsyncWait { .. } | OpKind::WgmmaSync(_) => None,
            OpKind::Wgmma { ty, n, swizzle } => {
                let operands: Vec<Bits> = (0..6 + *n as usize / 2).map(arg).collect();
                let d = self.wgmma(*ty, *n as usize, *swizzle, op, &operands)?;
                for (r, x) in op.results.iter().zip(d) {
                    values[r.0 as usize] = Bits::from(x.to_bits());
                }
                return Ok(None);
            }
            OpKind::LdMatrix(m) => {
                let elem = self.ty(func, op.operands[0])?.pointee().cloned().unwrap_or(Type::Unit);
                let (tile, stride) = (arg(0) as u64, arg(1) as u64);
                let lane = self.linear_thread() % rkc_simt::WARP_SIZE;
                // The warp's `ldmatrix` reads every row as 16-byte units: each row must start
                // aligned, not only the lane's own (as the simulator and the front end's
                // check require).
                let first_bad = (0..16u64)
                    .map(|row| tile.wrapping_add(row.wrapping_mul(stride).wrapping_mul(2)))
                    .find(|unit| !(unit & OFFSET_MASK).is_multiple_of(16));
                if let Some(address) = first_bad {
                    return Err(InterpError::Misaligned { loc: op.loc, address, bytes: 16 });
                }
                for (i, r) in op.results.iter().enumerate() {
                    let (row, col) = m.element(lane, i);
                    let index = (row as u64).wrapping_mul(stride).wrapping_add(col as u64);
                    let at = tile.wrapping_add(index.wrapping_mul(2));
                    values[r.0 as usize] = self.load(at, &elem, op.loc)?;
                }
                return Ok(None);
            }
            OpKind::Warp(w) => Some(self.warp(*w, func, op, arg(0), arg(1))?),
            OpKind::Mma(t) => {
                let operands: Vec<Bits> = (0..16).map(arg).collect();
                let d = self.mma(*t, op, &operands)?;
                for (r, x) in op.results.iter().zip(d) {
                    values[r.0 as usize] = Bits::from(x.to_bits());
                }
                return Ok(None);
            }
            OpKind::DynShared => {
                // One buffer per block, keyed like a shared array of the site `0:0`.
                let key = (Loc::default(), "dyn_shared".to_string(), self.block);
                let size = self.launched.launch.dyn_shared as usize;
                Some((self.block_buffer(key, size) as Bits) << OFFSET_BITS)
            }
            OpKind::Shared => {
                // One array per block and source site; threads run in order, so the block's
                // threads share it.
                let ty = result_ty.clone().unwrap_or(Type::Unit);
                let size = ty.pointee().map_or(0, Type::size_of) as usize;
                let at = if op.loc == Loc::default() { self.call_loc } else { op.loc };
                let key = (at, ty.to_string(), self.block);
                Some((self.block_buffer(key, size) as Bits) << OFFSET_BITS)
            }
            OpKind::Table { name } => {
                // One read-only buffer per launch, filled from the module's data.
                let key = (Loc::default(), format!("table {name}"), [0, 0, 0]);
                let Some(table) = self.launched.module.table(name) else {
                    return Err(InterpError::Malformed(format!("no table @{name}")));
                };
                Some((self.table_buffer(key, table) as Bits) << OFFSET_BITS)
            }
            OpKind::Local => {
                // One buffer per thread and op. Reusing it each time the op runs is what the
                // GPU does (one stack slot per alloca), and is sound because an op is never
                // live twice at once: there is no recursion, and the front end writes every
                // element before reading it. The op's address, not its source position, tells
                // sites apart: one expression can make two locals of one type at one position
                // (`v.scaled(2.0)`'s receiver copy and its result).
                let site = std::ptr::from_ref(op) as usize;
                let buffer = match self.locals.get(&site) {
                    Some(b) => *b,
                    None => {
                        let size =
                            result_ty.as_ref().and_then(Type::pointee).map_or(0, Type::size_of)
                                as usize;
                        let mut memory =
                            self.launched.memory.lock().unwrap_or_else(|e| e.into_inner());
                        memory.push(vec![0u8; size]);
                        let b = memory.len();
                        drop(memory);
                        self.locals.insert(site, b);
                        b
                    }
                };
                Some((buffer as Bits) << OFFSET_BITS)
            }
            OpKind::Atomic(a) => {
                let ty = self.ty(func, op.operands[1])?;
                let v = arg(1);
                let a = *a;
                Some(self.atomic(arg(0) as u64, &ty, op.loc, |old| match (a, &ty) {
                    (crate::ir::AtomicOp::Exchange, _) => v,
                    (crate::ir::AtomicOp::Add, Type::Float(FloatTy::F32)) => {
                        Bits::from((f32_of(old) + f32_of(v)).to_bits())
                    }
                    (crate::ir::AtomicOp::Add, Type::Float(FloatTy::F64)) => {
                        Bits::from((f64_of(old) + f64_of(v)).to_bits())
                    }
                    (crate::ir::AtomicOp::Sub, Type::Float(FloatTy::F32)) => {
                        Bits::from((f32_of(old) - f32_of(v)).to_bits())
                    }
                    (crate::ir::AtomicOp::Sub, Type::Float(FloatTy::F64)) => {
                        Bits::from((f64_of(old) - f64_of(v)).to_bits())
                    }
                    // Rust's `min`/`max` ignore a NaN operand, as LLVM's `atomicrmw fmin/fmax`.
                    (crate::ir::AtomicOp::Min, Type::Float(FloatTy::F32)) => {
                        Bits::from(f32_of(old).min(f32_of(v)).to_bits())
                    }
                    (crate::ir::AtomicOp::Min, Type::Float(FloatTy::F64)) => {
                        Bits::from(f64_of(old).min(f64_of(v)).to_bits())
                    }
                    (crate::ir::AtomicOp::Max, Type::Float(FloatTy::F32)) => {
                        Bits::from(f32_of(old).max(f32_of(v)).to_bits())
                    }
                    (crate::ir::AtomicOp::Max, Type::Float(FloatTy::F64)) => {
                        Bits::from(f64_of(old).max(f64_of(v)).to_bits())
                    }
                    (crate::ir::AtomicOp::Min, Type::Int(t)) => {
                        if int_cmp(v, old, *t).is_lt() {
                            v
                        } else {
                            old
                        }
                    }
                    (crate::ir::AtomicOp::Max, Type::Int(t)) => {
                        if int_cmp(v, old, *t).is_gt() {
                            v
                        } else {
                            old
                        }
                    }
                    (op2, _) => {
                        let b = match op2 {
                            crate::ir::AtomicOp::Add => BinOp::Add,
                            crate::ir::AtomicOp::Sub => BinOp::Sub,
                            crate::ir::AtomicOp::And => BinOp::And,
                            crate::ir::AtomicOp::Or => BinOp::Or,
                            _ => BinOp::Xor,
                        };
                        eval_binary(b, &ty, &ty, old, v).unwrap_or(old)
                    }
                })?)
            }
            OpKind::AtomicCas => {
                let ty = self.ty(func, op.operands[1])?;
                let (current, new) = (arg(1), arg(2));
                Some(self.atomic(arg(0) as u64, &ty, op.loc, |old| {
                    if old == current { new } else { old }
                })?)
            }
            OpKind::SliceLen => {
                let elem = match self.ty(func, op.operands[0])? {
                    Type::Slice { elem, .. } => elem.size_of().max(1),
                    _ => return Err(InterpError::Malformed("slice_len of a non-slice".into())),
                };
                let buffer = (arg(0) >> OFFSET_BITS) as usize;
                let memory = self.launched.memory.lock().unwrap_or_else(|e| e.into_inner());
                let bytes =
                    buffer.checked_sub(1).and_then(|k| memory.get(k)).map_or(0, Vec::len) as u64;
                Some(Bits::from(bytes / elem))
            }
            OpKind::Math(f) => {
                let tys: Vec<Type> =
                    op.operands.iter().map(|v| self.ty(func, *v)).collect::<Result<_, _>>()?;
                let args: Vec<Bits> = op.operands.iter().map(|v| self.get(values, *v)).collect();
                Some(math(*f, &tys, &args, result_ty.as_ref().unwrap_or(&Type::Unit)))
            }
            OpKind::Print { format, kinds, stderr } => {
                let mut words = Vec::new();
                for (k, kind) in kinds.iter().enumerate() {
                    words.extend(crate::prints::record_words(*kind, arg(k)));
                }
                let text = offload_binary::format::render(format, kinds, &words)
                    .map_err(|why| InterpError::Malformed(format!("a print: {why}")))?;
                self.launched
                    .printed
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((*stderr, text));
                None
            }
            OpKind::Assert { message } => {
                if arg(0) == 0 {
                    let message = if op.operands.len() == 3 {
                        offload_binary::metadata::format_panic_message(
                            message,
                            arg(1) as u64,
                            arg(2) as u64,
                        )
                    } else {
                        message.clone()
                    };
                    return Err(self.panic(message, op.loc));
                }
                None
            }
            OpKind::Call { callee } => {
                let f =
                    self.launched.module.funcs.iter().find(|f| &f.name == callee).ok_or_else(
                        || InterpError::Malformed(format!("call to missing @{callee}")),
                    )?;
                let args: Vec<Bits> = op.operands.iter().map(|v| self.get(values, *v)).collect();
                let at = if op.loc == Loc::default() { self.call_loc } else { op.loc };
                let caller = std::mem::replace(&mut self.call_loc, at);
                let result = self.call(f, &args);
                self.call_loc = caller;
                result?
            }
        };
        if let (Some(r), Some(bits)) = (op.results.first(), out) {
            let bits = match &result_ty {
                Some(Type::Int(t)) => wrap(bits, *t),
                _ => bits,
            };
            values[r.0 as usize] = bits;
        }
        Ok(None)
    }

    fn binary(
        &self,
        b: BinOp,
        ty: &Type,
        rty: &Type,
        l: Bits,
        r: Bits,
        loc: Loc,
    ) -> Result<Bits, InterpError> {
        eval_binary(b, ty, rty, l, r).map_err(|e| match e {
            Some(message) => self.panic(message, loc),
            None => InterpError::Malformed(format!("arithmetic on `{ty}`")),
        })
    }
}

/// A binary op on constant bits, with the dialect's semantics: `Err(Some(message))` is a
/// device panic, `Err(None)` an op the typing rules forbid. Constant folding uses this too, so
/// that folding and interpretation cannot disagree.
pub fn eval_binary(
    b: BinOp,
    ty: &Type,
    rty: &Type,
    l: Bits,
    r: Bits,
) -> Result<Bits, Option<String>> {
    match ty {
        // In f32, then rounded once: exact for +, -, *, / and % of 16-bit operands (f32's
        // 24-bit significand is at least twice theirs plus two, so the double rounding is
        // innocuous), hence the IEEE operation of the 16-bit type itself.
        Type::Float(f) if f.is_half() => {
            let (x, y) = (f.value_of(l) as f32, f.value_of(r) as f32);
            let z = match b {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                _ => x % y,
            };
            Ok(f.bits_of(f64::from(z)))
        }
        Type::Float(FloatTy::F32) => {
            let (x, y) = (f32_of(l), f32_of(r));
            let z = match b {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                _ => x % y,
            };
            Ok(Bits::from(z.to_bits()))
        }
        Type::Float(FloatTy::F64) => {
            let (x, y) = (f64_of(l), f64_of(r));
            let z = match b {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                _ => x % y,
            };
            Ok(Bits::from(z.to_bits()))
        }
        Type::Bool => Ok(match b {
            BinOp::And => l & r,
            BinOp::Or => l | r,
            _ => l ^ r,
        }),
        Type::Int(t) => {
            let t = *t;
            let bits = t.bits();
            Ok(wrap(
                match b {
                    BinOp::Add => l.wrapping_add(r),
                    BinOp::Sub => l.wrapping_sub(r),
                    BinOp::Mul => l.wrapping_mul(r),
                    BinOp::And => l & r,
                    BinOp::Or => l | r,
                    BinOp::Xor => l ^ r,
                    BinOp::Shl | BinOp::Shr => {
                        let amount =
                            (int_value(r, int_ty(rty).unwrap_or(IntTy::U64)) as u32) & (bits - 1);
                        if b == BinOp::Shl {
                            l << amount
                        } else if t.is_signed() {
                            (int_value(l, t) >> amount) as Bits
                        } else {
                            wrap(l, t) >> amount
                        }
                    }
                    BinOp::Div | BinOp::Rem => {
                        if wrap(r, t) == 0 {
                            let what =
                                if b == BinOp::Div { "divide" } else { "calculate the remainder" };
                            let message = if b == BinOp::Div {
                                "attempt to divide by zero".to_string()
                            } else {
                                format!("attempt to {what} with a divisor of zero")
                            };
                            return Err(Some(message));
                        }
                        if t.is_signed() {
                            let (x, y) = (int_value(l, t), int_value(r, t));
                            if y == -1 && x == t.range().0 {
                                let what = if b == BinOp::Div {
                                    "divide"
                                } else {
                                    "calculate the remainder"
                                };
                                return Err(Some(format!("attempt to {what} with overflow")));
                            }
                            (if b == BinOp::Div { x / y } else { x % y }) as Bits
                        } else {
                            let (x, y) = (wrap(l, t), wrap(r, t));
                            if b == BinOp::Div { x / y } else { x % y }
                        }
                    }
                },
                t,
            ))
        }
        _ => Err(None),
    }
}

/// A comparison of constant bits, with the dialect's semantics.
pub fn compare(c: CmpOp, ty: &Type, l: Bits, r: Bits) -> bool {
    use std::cmp::Ordering::*;
    let ord = match ty {
        Type::Float(f) => f.value_of(l).partial_cmp(&f.value_of(r)),
        Type::Int(t) => Some(int_cmp(l, r, *t)),
        _ => Some(l.cmp(&r)),
    };
    match (c, ord) {
        (CmpOp::Ne, None) => true,
        (_, None) => false,
        (CmpOp::Eq, Some(o)) => o == Equal,
        (CmpOp::Ne, Some(o)) => o != Equal,
        (CmpOp::Lt, Some(o)) => o == Less,
        (CmpOp::Le, Some(o)) => o != Greater,
        (CmpOp::Gt, Some(o)) => o == Greater,
        (CmpOp::Ge, Some(o)) => o != Less,
    }
}

/// Rust's `as` between the numeric types (and from `bool`), by Rust's own `as`.
pub fn cast(from: &Type, to: &Type, bits: Bits) -> Bits {
    // The source value, exactly, as an integer or a float.
    enum V {
        I(i128),
        U(u128),
        F(f64),
        F32(f32),
    }
    let v = match from {
        Type::Bool => V::I(i128::from(bits != 0)),
        Type::Int(t) if t.is_signed() => V::I(int_value(bits, *t)),
        Type::Int(t) => V::U(wrap(bits, *t)),
        Type::Float(FloatTy::F32) => V::F32(f32_of(bits)),
        // Every 16-bit float is an f64 exactly.
        Type::Float(f) => V::F(f.value_of(bits)),
        _ => V::U(bits),
    };
    match to {
        Type::Int(t) => {
            let t = *t;
            let raw: Bits = match v {
                // Integer to integer: the low bits of the two's-complement value.
                V::I(i) => i as Bits,
                V::U(u) => u,
                // Float to integer saturates; NaN is 0. Rust's `as` does exactly this.
                V::F(x) => float_to_int(x, t),
                V::F32(x) => float_to_int(f64::from(x), t),
            };
            wrap(raw, t)
        }
        Type::Float(FloatTy::F32) => Bits::from(
            match v {
                // 128-bit integers → f32 round to nearest like the narrower sources do.
                V::I(i) => i as f32,
                V::U(u) => u as f32,
                V::F(x) => x as f32,
                V::F32(x) => x,
            }
            .to_bits(),
        ),
        Type::Float(FloatTy::F64) => Bits::from(
            match v {
                V::I(i) => i as f64,
                V::U(u) => u as f64,
                V::F(x) => x,
                V::F32(x) => f64::from(x),
            }
            .to_bits(),
        ),
        // To a 16-bit float: one rounding from the exact value. An integer beyond 2^53 rounds
        // twice (to f64, then here), which cannot matter: it is far beyond both types' finite
        // range in f16, and bf16's 8-bit significand leaves 45 bits of slack in f64's 53.
        Type::Float(f) => f.bits_of(match v {
            V::I(i) => i as f64,
            V::U(u) => u as f64,
            V::F(x) => x,
            V::F32(x) => f64::from(x),
        }),
        _ => bits,
    }
}

/// A float to an integer type, saturating, NaN to 0 (exact: every f32 is an f64).
fn float_to_int(x: f64, t: IntTy) -> Bits {
    match t {
        IntTy::I8 => x as i8 as Bits,
        IntTy::I16 => x as i16 as Bits,
        IntTy::I32 => x as i32 as Bits,
        IntTy::I64 | IntTy::Isize => x as i64 as Bits,
        IntTy::I128 => x as i128 as Bits,
        IntTy::U8 => Bits::from(x as u8),
        IntTy::U16 => Bits::from(x as u16),
        IntTy::U32 => Bits::from(x as u32),
        IntTy::U64 | IntTy::Usize => Bits::from(x as u64),
        IntTy::U128 => x as u128,
    }
}

/// `rk.math`, by Rust's own methods.
fn math(f: crate::math::MathFn, tys: &[Type], args: &[Bits], result: &Type) -> Bits {
    use crate::math::MathFn::*;
    let a = |k: usize| args.get(k).copied().unwrap_or(0);
    // One body for both float widths: `$x` reads operand k as the float type.
    macro_rules! float_math {
        ($x:expr) => {{
            let x = $x;
            match f {
                Sqrt => x(0).sqrt(),
                Exp => x(0).exp(),
                Exp2 => x(0).exp2(),
                Ln => x(0).ln(),
                Log2 => x(0).log2(),
                Log10 => x(0).log10(),
                Sin => x(0).sin(),
                Cos => x(0).cos(),
                Tan => x(0).tan(),
                Tanh => x(0).tanh(),
                Asin => x(0).asin(),
                Acos => x(0).acos(),
                Atan => x(0).atan(),
                Sinh => x(0).sinh(),
                Cosh => x(0).cosh(),
                Asinh => x(0).asinh(),
                Acosh => x(0).acosh(),
                Atanh => x(0).atanh(),
                Cbrt => x(0).cbrt(),
                ExpM1 => x(0).exp_m1(),
                Ln1p => x(0).ln_1p(),
                Floor => x(0).floor(),
                Ceil => x(0).ceil(),
                Round => x(0).round(),
                RoundTiesEven => x(0).round_ties_even(),
                Trunc => x(0).trunc(),
                Abs => x(0).abs(),
                Powf => x(0).powf(x(1)),
                Hypot => x(0).hypot(x(1)),
                Atan2 => x(0).atan2(x(1)),
                Copysign => x(0).copysign(x(1)),
                Min => x(0).min(x(1)),
                Max => x(0).max(x(1)),
                MulAdd => x(0).mul_add(x(1), x(2)),
                // Integer-only functions never reach a float operand (the verifier's rule);
                // NaN marks the impossible case.
                _ => x(0) * 0.0 / 0.0,
            }
        }};
    }
    match tys.first() {
        Some(Type::Float(FloatTy::F32)) if f != ToBits => {
            Bits::from(float_math!(|k: usize| f32_of(a(k))).to_bits())
        }
        Some(Type::Float(FloatTy::F64)) if f != ToBits => {
            Bits::from(float_math!(|k: usize| f64_of(a(k))).to_bits())
        }
        Some(Type::Float(_)) => a(0), // to_bits: the bits are the value
        Some(Type::Int(t)) => {
            let t = *t;
            let bits = t.bits();
            let v = |k: usize| int_value(a(k), t);
            let u = |k: usize| wrap(a(k), t);
            let (lo, hi) = t.range();
            match f {
                Min => {
                    if int_cmp(a(1), a(0), t).is_lt() {
                        a(1)
                    } else {
                        a(0)
                    }
                }
                Max => {
                    if int_cmp(a(1), a(0), t).is_gt() {
                        a(1)
                    } else {
                        a(0)
                    }
                }
                WrappingAbs => v(0).unsigned_abs(),
                // In i128 (or u128) arithmetic, saturating there too, then to the type's range.
                SaturatingAdd if t.is_signed() => {
                    v(0).saturating_add(v(1)).clamp(lo, hi as i128) as Bits
                }
                SaturatingSub if t.is_signed() => {
                    v(0).saturating_sub(v(1)).clamp(lo, hi as i128) as Bits
                }
                SaturatingAdd => u(0).saturating_add(u(1)).min(hi),
                SaturatingSub => u(0).saturating_sub(u(1)),
                RotateLeft | RotateRight => {
                    let x = wrap(a(0), t);
                    let n = (a(1) as u32) % bits;
                    let n = if f == RotateRight { (bits - n) % bits } else { n };
                    if n == 0 { x } else { wrap((x << n) | (x >> (bits - n)), t) }
                }
                CountOnes => Bits::from(wrap(a(0), t).count_ones()),
                LeadingZeros => Bits::from(wrap(a(0), t).leading_zeros() - (128 - bits)),
                TrailingZeros => Bits::from(wrap(a(0), t).trailing_zeros().min(bits)),
                // from_bits: the result type decides how the bits are read.
                FromBits => match result {
                    Type::Float(FloatTy::F32) => wrap(a(0), IntTy::U32),
                    _ => a(0),
                },
                _ => a(0),
            }
        }
        _ => a(0),
    }
}
