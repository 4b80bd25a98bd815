//! The rk IR's data structures: modules of functions whose bodies are regions of operations.

use crate::types::Type;

/// A source position (1-based line and column) in the kernel file, carried by every op so that
/// device panics and late diagnostics can point at the user's code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc {
    pub line: u32,
    pub col: u32,
}

/// An SSA value: an index into its function's value table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueId(pub u32);

/// A dimension of the launch grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    X,
    Y,
    Z,
}

impl Dim {
    pub fn name(self) -> &'static str {
        match self {
            Dim::X => "x",
            Dim::Y => "y",
            Dim::Z => "z",
        }
    }
}

/// A launch-geometry builtin; each yields a `u32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Geometry {
    ThreadId,
    BlockId,
    BlockDim,
    GridDim,
}

impl Geometry {
    pub fn name(self) -> &'static str {
        match self {
            Geometry::ThreadId => "thread_id",
            Geometry::BlockId => "block_id",
            Geometry::BlockDim => "block_dim",
            Geometry::GridDim => "grid_dim",
        }
    }
}

/// A binary arithmetic or bitwise operator. Signedness comes from the operand type, as in Rust.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

impl BinOp {
    pub const ALL: [BinOp; 10] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Rem,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
        BinOp::Shl,
        BinOp::Shr,
    ];

    pub fn name(self) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::Div => "div",
            BinOp::Rem => "rem",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Xor => "xor",
            BinOp::Shl => "shl",
            BinOp::Shr => "shr",
        }
    }
}

/// A comparison; the result is `bool`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    pub fn name(self) -> &'static str {
        match self {
            CmpOp::Eq => "eq",
            CmpOp::Ne => "ne",
            CmpOp::Lt => "lt",
            CmpOp::Le => "le",
            CmpOp::Gt => "gt",
            CmpOp::Ge => "ge",
        }
    }
}

/// The operation of an `rk.atomic`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    Add,
    Sub,
    And,
    Or,
    Xor,
    Min,
    Max,
    Exchange,
}

impl AtomicOp {
    pub const ALL: [AtomicOp; 8] = [
        AtomicOp::Add,
        AtomicOp::Sub,
        AtomicOp::And,
        AtomicOp::Or,
        AtomicOp::Xor,
        AtomicOp::Min,
        AtomicOp::Max,
        AtomicOp::Exchange,
    ];

    pub fn name(self) -> &'static str {
        match self {
            AtomicOp::Add => "add",
            AtomicOp::Sub => "sub",
            AtomicOp::And => "and",
            AtomicOp::Or => "or",
            AtomicOp::Xor => "xor",
            AtomicOp::Min => "min",
            AtomicOp::Max => "max",
            AtomicOp::Exchange => "exchange",
        }
    }
}

/// Which operand of a warp matrix multiply an `rk.ldmatrix` loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatrixOperand {
    /// `A`: the lane's eight elements of a 16×16 tile.
    A,
    /// `B`: the lane's four elements of a 16×8 tile.
    B,
}

impl MatrixOperand {
    pub const ALL: [MatrixOperand; 2] = [MatrixOperand::A, MatrixOperand::B];

    pub fn name(self) -> &'static str {
        match self {
            MatrixOperand::A => "a",
            MatrixOperand::B => "b",
        }
    }

    /// How many elements the lane's fragment has.
    pub fn elements(self) -> usize {
        match self {
            MatrixOperand::A => 8,
            MatrixOperand::B => 4,
        }
    }

    /// The (row, column) in the tile of element `i` of lane `lane`'s fragment, in
    /// `rkc_simt::mma`'s layouts (for `B`, the row is `k` and the column `n`).
    pub fn element(self, lane: usize, i: usize) -> (usize, usize) {
        match self {
            MatrixOperand::A => rkc_simt::mma::a_index(lane, i),
            MatrixOperand::B => rkc_simt::mma::b_index(lane, i),
        }
    }
}

/// The orderings around warpgroup matrix multiplies (`rk.wgmma_sync`): Hopper's fences and
/// groups for `wgmma.mma_async`, which run asynchronously on a GPU. The CPU executors compute
/// each `rk.wgmma` at once and need none of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WgmmaSync {
    /// Orders the thread's earlier writes of shared memory before the tensor cores' reads
    /// (`fence.proxy.async.shared::cta`).
    ProxyFence,
    /// Orders the thread's earlier uses of `D`'s registers before the next multiply
    /// (`wgmma.fence.sync.aligned`); every thread of the warpgroup must reach it.
    Fence,
    /// Closes the warpgroup's batch of multiplies (`wgmma.commit_group.sync.aligned`).
    Commit,
    /// Waits until at most `pending` committed batches are still running
    /// (`wgmma.wait_group.sync.aligned`).
    Wait(u32),
}

impl WgmmaSync {
    /// The ordering's name in rk's text (a wait's count follows it).
    pub fn name(self) -> &'static str {
        match self {
            WgmmaSync::ProxyFence => "proxy_fence",
            WgmmaSync::Fence => "fence",
            WgmmaSync::Commit => "commit",
            WgmmaSync::Wait(_) => "wait",
        }
    }
}

/// A warp operation (`rk.warp`): warps are 32 lanes on every target (see `rkc_simt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WarpOp {
    /// The thread's lane in its warp, `0..32`.
    LaneId,
    /// `(v, k)`: lane `rkc_simt::shuffle_source(mode, lane, k)`'s `v`.
    Shuffle(rkc_simt::ShuffleMode),
    /// Whether the `bool` holds in any lane.
    Any,
    /// Whether the `bool` holds in every lane.
    All,
    /// The lanes where the `bool` holds, as bits of a `u32`.
    Ballot,
    /// The warp's reduction, every lane getting it, in `rkc_simt::butterfly`'s order.
    Reduce(ReduceOp),
}

/// The combining operation of a warp reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    Add,
    Min,
    Max,
}

impl WarpOp {
    pub const ALL: [WarpOp; 11] = [
        WarpOp::LaneId,
        WarpOp::Shuffle(rkc_simt::ShuffleMode::Idx),
        WarpOp::Shuffle(rkc_simt::ShuffleMode::Xor),
        WarpOp::Shuffle(rkc_simt::ShuffleMode::Up),
        WarpOp::Shuffle(rkc_simt::ShuffleMode::Down),
        WarpOp::Any,
        WarpOp::All,
        WarpOp::Ballot,
        WarpOp::Reduce(ReduceOp::Add),
        WarpOp::Reduce(ReduceOp::Min),
        WarpOp::Reduce(ReduceOp::Max),
    ];

    /// The op's name in the textual form (`rk.warp shuffle_xor`).
    pub fn name(self) -> &'static str {
        use rkc_simt::ShuffleMode as M;
        match self {
            WarpOp::LaneId => "lane_id",
            WarpOp::Shuffle(M::Idx) => "shuffle",
            WarpOp::Shuffle(M::Xor) => "shuffle_xor",
            WarpOp::Shuffle(M::Up) => "shuffle_up",
            WarpOp::Shuffle(M::Down) => "shuffle_down",
            WarpOp::Any => "any",
            WarpOp::All => "all",
            WarpOp::Ballot => "ballot",
            WarpOp::Reduce(ReduceOp::Add) => "reduce_add",
            WarpOp::Reduce(ReduceOp::Min) => "reduce_min",
            WarpOp::Reduce(ReduceOp::Max) => "reduce_max",
        }
    }

    /// Whether the op exchanges values between lanes (every lane of the warp must reach it).
    pub fn exchanges(self) -> bool {
        self != WarpOp::LaneId
    }
}

/// The scope of a memory fence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FenceScope {
    /// The threads of the block (CUDA's `__threadfence_block()`).
    Block,
    /// Every thread of the device (CUDA's `__threadfence()`).
    Device,
}

impl FenceScope {
    pub fn name(self) -> &'static str {
        match self {
            FenceScope::Block => "block",
            FenceScope::Device => "device",
        }
    }
}

/// A constant's value. Integers are stored as their two's-complement bits zero-extended to
/// 64; floats as the bits of an `f64` (an `f32` constant is exactly representable).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Literal {
    Bool(bool),
    Int(u128),
    Float(f64),
}

/// What an operation does. The operand and result lists live in [`Op`]; the lib.rs doc gives
/// each kind's typing rule.
#[derive(Clone, Debug, PartialEq)]
pub enum OpKind {
    Const(Literal),
    Geometry(Geometry, Dim),
    Binary(BinOp),
    Cmp(CmpOp),
    Neg,
    Not,
    Cast,
    PtrOffset,
    ElemPtr,
    Load,
    Store,
    BoundsCheck,
    If,
    Yield,
    Return,
    /// A mutable local slot.
    Var,
    /// Reads a slot.
    Read,
    /// Writes a slot.
    Write,
    /// A loop: its region runs again whenever it ends or `rk.continue`s; `hint` says how the
    /// back ends should unroll it.
    Loop {
        hint: LoopHint,
    },
    /// Leaves the loop `depth` levels out (0 = innermost), with the loop's results.
    Break {
        depth: u32,
    },
    /// Starts the next iteration of the loop `depth` levels out.
    Continue {
        depth: u32,
    },
    /// Calls a device function of the module.
    Call {
        callee: String,
    },
    /// A method of a primitive type (see [`crate::math::MathFn`]).
    Math(crate::math::MathFn),
    /// A device panic with `message` unless the `bool` operand holds (`assert!`, `panic!`).
    Assert {
        message: String,
    },
    /// Writes text to the launch's output (`print!`, `println!`, `eprint!`...): `format` is
    /// Rust's format syntax with every argument by index (`{0}`, `{1:>8.3}`; see
    /// `offload_binary::format`), the operands are the arguments' values, shown as `kinds`
    /// say (a `char` travels as its `u32`), to standard error when `stderr` holds.
    Print {
        format: String,
        kinds: Vec<offload_binary::format::ValueKind>,
        stderr: bool,
    },
    /// Waits until every thread of the block has arrived (`sync_threads()`).
    Barrier,
    /// The block's shared array of this source site: a `*mut [T; N]` (`shared_array()`).
    Shared,
    /// An atomic read-modify-write through a pointer; yields the old value.
    Atomic(AtomicOp),
    /// An atomic compare-and-exchange `(ptr, current, new)`; yields the old value.
    AtomicCas,
    /// A warp operation.
    Warp(WarpOp),
    /// The warp's matrix multiply-accumulate on one 16×8×16 tile (`rk.mma f16`): the operands
    /// are the lane's fragments, eight elements of `A` and four of `B` (of the type named) and
    /// four `f32` of `C`; the results are its four `f32` of `D`. Layouts and the rounding rule
    /// are `rkc_simt::mma`'s. Every lane of the warp must reach it.
    Mma(rkc_simt::mma::MmaType),
    /// The calling lane's fragment of a warp matrix multiply's operand, loaded from a row-major
    /// tile of 16-bit elements in shared memory (`rk.ldmatrix a %tile, %stride : *const f16`):
    /// for `a` the eight elements of a 16×16 `A` tile that `rkc_simt::mma` gives the lane, for
    /// `b` the four of a 16×8 `B` tile (`k` rows of `stride` elements). The same as loading
    /// those elements one by one (which the CPU executors do); NVIDIA lowers it to `ldmatrix`
    /// (`.x4`, and `.x2.trans` for `B`), where every lane of the warp must give the same tile
    /// and stride, and each row of the tile must start 16-byte aligned.
    LdMatrix(MatrixOperand),
    /// The warpgroup's matrix multiply-accumulate on one 64×N×16 tile (`rk.wgmma f16 128`,
    /// `rk.wgmma f16 256 sw128`; Hopper's `wgmma.mma_async`, sm_90a): the operands are the
    /// tiles `a` and `b` in shared memory (`*const T` of the type named), the layout's four
    /// parameters in elements (`usize`: `a_k`, `a_m`, `b_k`, `b_n` without swizzling, `a_k0`,
    /// `a_m`, `b_k`, `b_n` with it) and the thread's `n / 2` `f32` of `D`; the results are its
    /// `n / 2` `f32` of `D` after the multiply. Layouts and the rounding rule are
    /// `rkc_simt::wgmma`'s. Every thread of the warpgroup must reach it.
    Wgmma {
        ty: rkc_simt::mma::MmaType,
        n: u32,
        swizzle: rkc_simt::wgmma::Swizzle,
    },
    /// An ordering around `rk.wgmma`s (see [`WgmmaSync`]).
    WgmmaSync(WgmmaSync),
    /// Starts an asynchronous copy of the 4, 8 or 16 bytes of a `T` from global memory into
    /// shared memory (`rk.copy_async %dst, %src : *mut T`; `cp.async` on NVIDIA from sm_80): the
    /// destination's bytes are defined once an `rk.async_wait` has seen the copy's group
    /// complete. The CPU executors copy at once, which every correct kernel cannot tell apart.
    CopyAsync,
    /// Closes the group of the thread's asynchronous copies started since the last one
    /// (`cp.async.commit_group`).
    AsyncCommit,
    /// Waits until at most `pending` of the thread's committed groups are still in flight
    /// (`cp.async.wait_group`).
    AsyncWait {
        pending: u32,
    },
    /// The launch's dynamic shared memory (`dyn_cache` bytes), as a `*mut T`.
    DynShared,
    /// The thread's private storage of this source site: a `*mut [T; N]` or a `*mut S` of a
    /// struct or tuple (a local array or aggregate).
    Local,
    /// The address of field `index` of the struct behind a pointer.
    FieldPtr {
        index: u32,
    },
    /// A `*const` to the module's read-only table `name` (see [`Table`]).
    Table {
        name: String,
    },
    /// A sequentially consistent memory fence at a scope.
    Fence(FenceScope),
    /// A slice's length in elements.
    SliceLen,
    /// A pointer to a slice's first element.
    SlicePtr,
}

impl OpKind {
    /// Whether an op of this kind may be computed again anywhere its operands are available,
    /// with the same result: pure, reading no memory, unable to panic (integer division can:
    /// only a float one is). Loop versioning recomputes such ops in its proofs; the host image
    /// recomputes them in each stretch of a block function instead of keeping them per thread.
    pub fn recomputable(&self, func: &Func, operands: &[ValueId]) -> bool {
        match self {
            OpKind::Const(_)
            | OpKind::Geometry(..)
            | OpKind::Cmp(_)
            | OpKind::Not
            | OpKind::Cast
            | OpKind::SliceLen
            | OpKind::SlicePtr => true,
            OpKind::Binary(BinOp::Div | BinOp::Rem) => {
                operands.first().and_then(|v| func.ty(*v)).is_some_and(Type::is_float)
            }
            OpKind::Binary(_) => true,
            _ => false,
        }
    }

    /// The op's name in the textual form, without the `rk.` prefix.
    pub fn name(&self) -> &'static str {
        match self {
            OpKind::Const(_) => "const",
            OpKind::Geometry(g, _) => g.name(),
            OpKind::Binary(b) => b.name(),
            OpKind::Cmp(_) => "cmp",
            OpKind::Neg => "neg",
            OpKind::Not => "not",
            OpKind::Cast => "cast",
            OpKind::PtrOffset => "ptr_offset",
            OpKind::ElemPtr => "elem_ptr",
            OpKind::Load => "load",
            OpKind::Store => "store",
            OpKind::BoundsCheck => "bounds_check",
            OpKind::If => "if",
            OpKind::Yield => "yield",
            OpKind::Return => "return",
            OpKind::Var => "var",
            OpKind::Read => "read",
            OpKind::Write => "write",
            OpKind::Loop { .. } => "loop",
            OpKind::Break { .. } => "break",
            OpKind::Continue { .. } => "continue",
            OpKind::Call { .. } => "call",
            OpKind::Math(_) => "math",
            OpKind::Assert { .. } => "assert",
            OpKind::Print { .. } => "print",
            OpKind::Barrier => "barrier",
            OpKind::Shared => "shared",
            OpKind::Atomic(_) => "atomic",
            OpKind::AtomicCas => "atomic_cas",
            OpKind::Warp(_) => "warp",
            OpKind::Mma(_) => "mma",
            OpKind::LdMatrix(_) => "ldmatrix",
            OpKind::Wgmma { .. } => "wgmma",
            OpKind::WgmmaSync(_) => "wgmma_sync",
            OpKind::CopyAsync => "copy_async",
            OpKind::AsyncCommit => "async_commit",
            OpKind::AsyncWait { .. } => "async_wait",
            OpKind::DynShared => "dyn_shared",
            OpKind::Local => "local",
            OpKind::FieldPtr { .. } => "field_ptr",
            OpKind::Table { .. } => "table",
            OpKind::Fence(_) => "fence",
            OpKind::SliceLen => "slice_len",
            OpKind::SlicePtr => "slice_ptr",
        }
    }

    /// Whether the op is an `rk.loop`.
    pub fn is_loop(&self) -> bool {
        matches!(self, OpKind::Loop { .. })
    }

    /// Whether the op ends a region: nothing may follow it there.
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            OpKind::Yield | OpKind::Return | OpKind::Break { .. } | OpKind::Continue { .. }
        )
    }

    /// Whether the op transfers control out of its region somewhere other than to the op
    /// after its parent (everything but `rk.yield` among terminators).
    pub fn diverges(&self) -> bool {
        matches!(self, OpKind::Return | OpKind::Break { .. } | OpKind::Continue { .. })
    }
}

/// How the back ends unroll a loop (the loop's meaning is the same for every hint).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoopHint {
    /// As LLVM's heuristics decide.
    Plain,
    /// `rk.loop cold`: a loop nested in the checked copy that loop versioning keeps for when
    /// its proof fails. It runs rarely, and the back ends do not unroll it, so that its checks
    /// do not become many invariant compares that LLVM hoists out of the enclosing loop and
    /// keeps live through it for the panic path. Those would raise the kernel's register count
    /// (a kernel's registers are those of its most demanding path, even one that never runs),
    /// and fewer threads would fit on a multiprocessor: sgemm needed 61 registers instead of 32.
    Cold,
    /// `rk.loop unroll`: unrolled completely when its trip count is a constant, because it
    /// steps through a small thread-private array (see `passes::unroll`): unrolled, the
    /// array's indices are constants and LLVM keeps it in registers.
    Unroll,
}

/// One operation.
#[derive(Clone, Debug, PartialEq)]
pub struct Op {
    pub kind: OpKind,
    pub operands: Vec<ValueId>,
    pub results: Vec<ValueId>,
    pub regions: Vec<Region>,
    pub loc: Loc,
}

/// A single-block region: a list of operations. Control flow is structured (`rk.if`), so a
/// region needs no block arguments or branches.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Region {
    pub ops: Vec<Op>,
}

impl Region {
    /// Whether control can fall off the end of the region (it does not end in a terminator).
    pub fn falls_through(&self) -> bool {
        !self.ops.last().is_some_and(|op| op.kind.is_terminator())
    }
}

/// A function parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub value: ValueId,
    /// A kernel's array or struct taken by value: the parameter is a `*const` to the device's
    /// copy of it, shared by every thread (the runtime copies it in, never back). Printed as
    /// `byval` after the type.
    pub by_value: bool,
    /// A kernel's reference parameter (`&T`, `&mut T`): a pointer, as upstream maps it, that
    /// the host spells as a reference. Printed as `byref` after the type.
    pub by_ref: bool,
}

/// A function: a kernel or a device function.
#[derive(Clone, Debug, PartialEq)]
pub struct Func {
    pub name: String,
    pub kernel: bool,
    pub params: Vec<Param>,
    pub ret: Type,
    pub body: Region,
    /// The type of every value, indexed by [`ValueId`].
    pub values: Vec<Type>,
    pub loc: Loc,
}

impl Func {
    pub fn new(name: impl Into<String>, kernel: bool, ret: Type, loc: Loc) -> Func {
        Func {
            name: name.into(),
            kernel,
            params: Vec::new(),
            ret,
            body: Region::default(),
            values: Vec::new(),
            loc,
        }
    }

    /// Creates a new value of the given type.
    pub fn new_value(&mut self, ty: Type) -> ValueId {
        self.values.push(ty);
        ValueId(self.values.len() as u32 - 1)
    }

    /// Adds a parameter and returns its value.
    pub fn add_param(&mut self, name: impl Into<String>, ty: Type) -> ValueId {
        let value = self.new_value(ty);
        self.params.push(Param { name: name.into(), value, by_value: false, by_ref: false });
        value
    }

    /// Adds a by-value aggregate parameter (see [`Param::by_value`]) of type `*const ty`.
    pub fn add_by_value_param(&mut self, name: impl Into<String>, ty: Type) -> ValueId {
        let value = self.add_param(name, Type::ptr(false, ty));
        if let Some(p) = self.params.last_mut() {
            p.by_value = true;
        }
        value
    }

    /// The type of a value; `None` for an id that is not in this function.
    pub fn ty(&self, value: ValueId) -> Option<&Type> {
        self.values.get(value.0 as usize)
    }

    pub fn param_types(&self) -> impl Iterator<Item = &Type> {
        self.params.iter().filter_map(|p| self.ty(p.value))
    }
}

/// A read-only table of numbers (a `static` or `const` array of the kernels' file): an array
/// type, possibly nested, of integers or floats, and its elements in memory order.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub name: String,
    pub ty: Type,
    pub values: Vec<Literal>,
}

impl Table {
    /// The scalar type of the elements.
    pub fn elem(&self) -> &Type {
        let mut t = &self.ty;
        while let Type::Array { elem, .. } = t {
            t = elem;
        }
        t
    }

    /// The table's bytes in device memory: each element little-endian, in order.
    pub fn bytes(&self) -> Vec<u8> {
        let elem = self.elem();
        let size = elem.size_of() as usize;
        let mut out = Vec::with_capacity(self.values.len() * size);
        for v in &self.values {
            let bits = match (v, elem) {
                (Literal::Float(x), Type::Float(f)) => f.bits_of(*x),
                (Literal::Float(x), _) => u128::from(x.to_bits()),
                (Literal::Int(b), _) => *b,
                (Literal::Bool(b), _) => u128::from(*b),
            };
            out.extend_from_slice(&bits.to_le_bytes()[..size]);
        }
        out
    }
}

/// A translation unit: every kernel and device function of one `kernels.rs`, and the tables
/// they read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Module {
    pub funcs: Vec<Func>,
    pub tables: Vec<Table>,
}

impl Module {
    pub fn kernels(&self) -> impl Iterator<Item = &Func> {
        self.funcs.iter().filter(|f| f.kernel)
    }

    pub fn func(&self, name: &str) -> Option<&Func> {
        self.funcs.iter().find(|f| f.name == name)
    }

    pub fn table(&self, name: &str) -> Option<&Table> {
        self.tables.iter().find(|t| t.name == name)
    }
}
