//! Warp operations, shared memory's pointers (the dynamic shared memory, and the
//! workgroup-space twins of `FuncEmitter::shared`) and fences.
//!
//! Warps are 32 lanes on every target (`rkc_simt`). Everything is written with `gpu.shuffle`
//! and `gpu.lane_id`, which both targets lower, in forms that mean the same on a 32-wide
//! NVIDIA warp and on a 64-wide AMD wavefront:
//!
//! - `xor` shuffles use `gpu.shuffle xor` directly: with a mask below 32 the source lane stays
//!   in the thread's 32-lane half on both targets.
//! - `idx`, `up` and `down` shuffles compute the absolute source lane here (the half's base
//!   plus the source within the half, own lane when `up`/`down` would leave the warp) and
//!   use `gpu.shuffle idx`: MLIR's ROCDL lowering of `up`/`down`/`idx` at width 32 measures
//!   lanes from the wavefront's start, not from the half's, so the native modes would read
//!   across halves on a wave64 GPU. On NVIDIA this costs a few integer instructions.
//! - 64-bit values are shuffled as two 32-bit halves.
//! - Votes and reductions are five `xor` butterfly steps (`rkc_simt::butterfly`'s order, so
//!   float sums round as the interpreter and the simulator compute them).

use super::{FuncEmitter, mlir_type, v};
use rkc_rk::{FenceScope, MatrixOperand, Op, ReduceOp, ShuffleMode, Type, ValueId, WarpOp};

/// The syncscope names of the gpu-stage text, which [`crate::specialize`] replaces with each
/// target's own (NVPTX and AMDGPU name their scopes differently, and each aborts on the
/// other's names).
pub(crate) fn scope_placeholder(scope: FenceScope) -> &'static str {
    match scope {
        FenceScope::Block => "rkc-block",
        FenceScope::Device => "rkc-device",
    }
}

/// The name of the dynamic shared memory global: a zero-sized external workgroup array,
/// which both back ends place at the start of the launch's dynamic shared memory (what
/// `gpu.dynamic_shared_memory` lowers to).
const DYNAMIC_SHARED: &str = "rkc_dynamic_shared";

impl FuncEmitter<'_> {
    /// `out` when given (the rk result's name, for an op's last instruction), else a temporary.
    fn name(&mut self, out: Option<&str>) -> String {
        out.map_or_else(|| self.temp(), str::to_string)
    }

    fn constant_i32(&mut self, value: i64) -> String {
        let c = self.temp();
        self.line(format!("{c} = arith.constant {value} : i32"));
        c
    }

    fn constant_i64(&mut self, value: i64) -> String {
        let c = self.temp();
        self.line(format!("{c} = arith.constant {value} : i64"));
        c
    }

    /// The lane's index within its 32-lane warp, and the warp's first lane in the hardware's
    /// numbering (0 on NVIDIA; 0 or 32 in an AMD wave64), both `i32`.
    fn lane_and_base(&mut self, out: Option<&str>) -> (String, String) {
        let raw = self.temp();
        self.line(format!("{raw} = gpu.lane_id"));
        let raw32 = self.temp();
        self.line(format!("{raw32} = arith.index_cast {raw} : index to i32"));
        let c31 = self.constant_i32(31);
        let lane = self.name(out);
        self.line(format!("{lane} = arith.andi {raw32}, {c31} : i32"));
        let high = self.constant_i32(-32);
        let base = self.temp();
        self.line(format!("{base} = arith.andi {raw32}, {high} : i32"));
        (lane, base)
    }

    /// Shuffles a 32-bit value (`t` is `i32` or `f32`).
    fn shuffle32(
        &mut self,
        mode: ShuffleMode,
        value: &str,
        t: &str,
        k: &str,
        out: Option<&str>,
    ) -> String {
        let c31 = self.constant_i32(31);
        let k5 = self.temp();
        self.line(format!("{k5} = arith.andi {k}, {c31} : i32"));
        let width = self.constant_i32(32);
        let (res, valid) = (self.name(out), self.temp());
        if mode == ShuffleMode::Xor {
            self.line(format!("{res}, {valid} = gpu.shuffle xor {value}, {k5}, {width} : {t}"));
            return res;
        }
        let (lane, base) = self.lane_and_base(None);
        let src = match mode {
            ShuffleMode::Up => {
                let (d, ok, s) = (self.temp(), self.temp(), self.temp());
                self.line(format!("{d} = arith.subi {lane}, {k5} : i32"));
                self.line(format!("{ok} = arith.cmpi uge, {lane}, {k5} : i32"));
                self.line(format!("{s} = arith.select {ok}, {d}, {lane} : i32"));
                s
            }
            ShuffleMode::Down => {
                let (d, ok, s) = (self.temp(), self.temp(), self.temp());
                self.line(format!("{d} = arith.addi {lane}, {k5} : i32"));
                self.line(format!("{ok} = arith.cmpi ule, {d}, {c31} : i32"));
                self.line(format!("{s} = arith.select {ok}, {d}, {lane} : i32"));
                s
            }
            _ => k5,
        };
        let abs = self.temp();
        self.line(format!("{abs} = arith.ori {base}, {src} : i32"));
        self.line(format!("{res}, {valid} = gpu.shuffle idx {value}, {abs}, {width} : {t}"));
        res
    }

    /// Shuffles a value of an rk type the verifier allows (32/64-bit integers, floats).
    fn shuffle_value(
        &mut self,
        mode: ShuffleMode,
        value: &str,
        ty: &Type,
        k: &str,
        out: Option<&str>,
    ) -> String {
        let t = mlir_type(ty);
        if ty.size_of() == 4 {
            return self.shuffle32(mode, value, &t, k, out);
        }
        let bits = if ty.is_float() {
            let b = self.temp();
            self.line(format!("{b} = arith.bitcast {value} : {t} to i64"));
            b
        } else {
            value.to_string()
        };
        let (lo, hi_wide, hi, c32) = (self.temp(), self.temp(), self.temp(), self.temp());
        self.line(format!("{c32} = arith.constant 32 : i64"));
        self.line(format!("{lo} = arith.trunci {bits} : i64 to i32"));
        self.line(format!("{hi_wide} = arith.shrui {bits}, {c32} : i64"));
        self.line(format!("{hi} = arith.trunci {hi_wide} : i64 to i32"));
        let lo_s = self.shuffle32(mode, &lo, "i32", k, None);
        let hi_s = self.shuffle32(mode, &hi, "i32", k, None);
        let (lo64, hi64, hi_up) = (self.temp(), self.temp(), self.temp());
        let joined = if ty.is_float() { self.temp() } else { self.name(out) };
        self.line(format!("{lo64} = arith.extui {lo_s} : i32 to i64"));
        self.line(format!("{hi64} = arith.extui {hi_s} : i32 to i64"));
        self.line(format!("{hi_up} = arith.shli {hi64}, {c32} : i64"));
        self.line(format!("{joined} = arith.ori {lo64}, {hi_up} : i64"));
        if ty.is_float() {
            let f = self.name(out);
            self.line(format!("{f} = arith.bitcast {joined} : i64 to {t}"));
            f
        } else {
            joined
        }
    }

    /// Five butterfly steps: `acc = combine(acc, shuffle_xor(acc, k))` for k = 16 … 1.
    /// The last step's result is named `out` when given.
    fn butterfly(
        &mut self,
        value: &str,
        ty: &Type,
        out: Option<&str>,
        combine: &dyn Fn(&mut Self, &str, &str, &str),
    ) -> String {
        let mut acc = value.to_string();
        let mut k = rkc_rk::WARP_SIZE as i64 / 2;
        while k > 0 {
            let kc = self.constant_i32(k);
            let other = self.shuffle_value(ShuffleMode::Xor, &acc, ty, &kc, None);
            let next = if k == 1 { self.name(out) } else { self.temp() };
            combine(self, &next, &acc, &other);
            acc = next;
            k /= 2;
        }
        acc
    }

    /// One step of a warp reduction: `out = a ⊕ b`, in the reduction's type.
    pub(super) fn reduce_combine(
        &self,
        r: ReduceOp,
        ty: &Type,
        out: &str,
        a: &str,
        b: &str,
    ) -> String {
        let t = mlir_type(ty);
        let fast = self.fast();
        let (float, signed) = (ty.is_float(), matches!(ty, Type::Int(i) if i.is_signed()));
        match (r, float) {
            (ReduceOp::Add, true) => format!("{out} = arith.addf {a}, {b}{fast} : {t}"),
            (ReduceOp::Add, false) => format!("{out} = arith.addi {a}, {b} : {t}"),
            // Rust's `f32::min`/`max` are LLVM's minnum/maxnum (NaN-ignoring).
            (_, true) => {
                let name = if r == ReduceOp::Min { "minnum" } else { "maxnum" };
                format!(
                    "{out} = llvm.call_intrinsic \"llvm.{name}.{t}\"({a}, {b}) : ({t}, {t}) -> {t}"
                )
            }
            (_, false) => {
                let name = match (r, signed) {
                    (ReduceOp::Min, true) => "minsi",
                    (ReduceOp::Min, false) => "minui",
                    (_, true) => "maxsi",
                    _ => "maxui",
                };
                format!("{out} = arith.{name} {a}, {b} : {t}")
            }
        }
    }

    pub(super) fn warp(&mut self, w: WarpOp, op: &Op) {
        let res = v(op.results[0]);
        let out = Some(res.as_str());
        match w {
            WarpOp::LaneId => {
                self.lane_and_base(out);
            }
            WarpOp::Shuffle(mode) => {
                let ty = self.rk_ty(op.operands[0]).clone();
                self.shuffle_value(mode, &v(op.operands[0]), &ty, &v(op.operands[1]), out);
            }
            WarpOp::Any | WarpOp::All | WarpOp::Ballot => {
                let (lane, _) = self.lane_and_base(None);
                let (wide, bit) = (self.temp(), self.temp());
                self.line(format!("{wide} = arith.extui {} : i1 to i32", v(op.operands[0])));
                self.line(format!("{bit} = arith.shli {wide}, {lane} : i32"));
                let or = |me: &mut Self, r: &str, a: &str, b: &str| {
                    me.line(format!("{r} = arith.ori {a}, {b} : i32"))
                };
                if w == WarpOp::Ballot {
                    self.butterfly(&bit, &Type::U32, out, &or);
                } else {
                    let ballot = self.butterfly(&bit, &Type::U32, None, &or);
                    let (pred, target) = if w == WarpOp::Any { ("ne", 0) } else { ("eq", -1) };
                    let c = self.constant_i32(target);
                    self.line(format!("{res} = arith.cmpi {pred}, {ballot}, {c} : i32"));
                }
            }
            WarpOp::Reduce(r) => {
                let ty = self.rk_ty(op.operands[0]).clone();
                let of = ty.clone();
                let combine = move |me: &mut Self, out: &str, a: &str, b: &str| {
                    let line = me.reduce_combine(r, &of, out, a, b);
                    me.line(line);
                };
                self.butterfly(&v(op.operands[0]), &ty, out, &combine);
            }
        }
    }

    /// `rk.mma`: NVIDIA's `mma.sync.aligned.m16n8k16.row.col.f32` (sm_80 on). The driver gives
    /// the other targets a module whose `rk.mma`s `expand_mma` has expanded, so this text is
    /// only ever specialised for an NVIDIA target that has the instruction. Each pair of
    /// 16-bit elements is one 32-bit register, the lower index in the low half, as PTX's
    /// fragments hold them; bf16 pairs travel as `i32`, as the NVVM op takes them.
    pub(super) fn mma(&mut self, ty: rkc_rk::MmaType, op: &Op) {
        let elem = match ty {
            rkc_rk::MmaType::F16 => "f16",
            rkc_rk::MmaType::Bf16 => "bf16",
        };
        let pair_ty = format!("vector<2x{elem}>");
        let (zero, one) = (self.temp(), self.temp());
        self.line(format!("{zero} = llvm.mlir.constant(0 : i32) : i32"));
        self.line(format!("{one} = llvm.mlir.constant(1 : i32) : i32"));
        let mut pairs = Vec::with_capacity(6);
        for pair in op.operands[..12].chunks(2) {
            let (undef, low, both) = (self.temp(), self.temp(), self.temp());
            self.line(format!("{undef} = llvm.mlir.undef : {pair_ty}"));
            self.line(format!(
                "{low} = llvm.insertelement {}, {undef}[{zero} : i32] : {pair_ty}",
                v(pair[0])
            ));
            self.line(format!(
                "{both} = llvm.insertelement {}, {low}[{one} : i32] : {pair_ty}",
                v(pair[1])
            ));
            if ty == rkc_rk::MmaType::Bf16 {
                let word = self.temp();
                self.line(format!("{word} = llvm.bitcast {both} : {pair_ty} to i32"));
                pairs.push(word);
            } else {
                pairs.push(both);
            }
        }
        let c: Vec<String> = op.operands[12..].iter().map(|x| v(*x)).collect();
        let (operand_ty, types) = match ty {
            rkc_rk::MmaType::F16 => (pair_ty.clone(), ""),
            rkc_rk::MmaType::Bf16 => (
                "i32".to_string(),
                "multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, ",
            ),
        };
        let d = self.temp();
        let result_ty = "!llvm.struct<(f32, f32, f32, f32)>";
        self.line(format!(
            "{d} = nvvm.mma.sync A[{}] B[{}] C[{}] {{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, {types}shape = #nvvm.shape<m = 16, n = 8, k = 16>}} : ({operand_ty}, {operand_ty}, f32) -> {result_ty}",
            pairs[..4].join(", "),
            pairs[4..].join(", "),
            c.join(", ")
        ));
        for (i, r) in op.results.iter().enumerate() {
            self.line(format!("{} = llvm.extractvalue {d}[{i}] : {result_ty}", v(*r)));
        }
    }

    /// `rk.ldmatrix`: NVIDIA's `ldmatrix.sync.aligned.m8n8` (given only to the targets that
    /// have `rk.mma`'s instruction, like it). Each lane gives the address of one row of eight
    /// 16-bit elements: for `A`, `.x4` over the four 8×8 quarters of the 16×16 tile (lanes
    /// 0–7 rows 0–7 of the left half, 8–15 rows 8–15 of it, 16–31 the same rows of the right
    /// half), so that register `j` holds the lane's elements `2j` and `2j + 1`; for `B`,
    /// `.x2.trans` over its two 8×8 halves (lanes 0–15 rows `k` = 0–15; the other lanes'
    /// addresses are ignored), transposed into the `col` layout `rk.mma` takes. The tile must be
    /// in shared memory: a pointer not known to be is cast.
    pub(super) fn ldmatrix(&mut self, m: MatrixOperand, op: &Op) {
        let elem = match self.rk_ty(op.operands[0]).pointee() {
            Some(t) => mlir_type(t),
            None => "f16".to_string(),
        };
        let tile = self.shared_pointer(op.operands[0]);
        let (lane, _) = self.lane_and_base(None);
        let c15 = self.constant_i32(15);
        let row = self.temp();
        self.line(format!("{row} = arith.andi {lane}, {c15} : i32"));
        let row64 = self.temp();
        self.line(format!("{row64} = arith.extui {row} : i32 to i64"));
        let offset = self.temp();
        self.line(format!("{offset} = arith.muli {row64}, {} : i64", v(op.operands[1])));
        let offset = if m == MatrixOperand::A {
            // Lanes 16–31 read the right half: eight elements on.
            let c16 = self.constant_i32(16);
            let c1 = self.constant_i32(1);
            let (high, col, col64, sum) = (self.temp(), self.temp(), self.temp(), self.temp());
            self.line(format!("{high} = arith.andi {lane}, {c16} : i32"));
            self.line(format!("{col} = arith.shrui {high}, {c1} : i32"));
            self.line(format!("{col64} = arith.extui {col} : i32 to i64"));
            self.line(format!("{sum} = arith.addi {offset}, {col64} : i64"));
            sum
        } else {
            offset
        };
        let address = self.temp();
        self.line(format!(
            "{address} = llvm.getelementptr {tile}[{offset}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, {elem}"
        ));
        let (num, layout) = match m {
            MatrixOperand::A => (4, "row"),
            MatrixOperand::B => (2, "col"),
        };
        let result_ty = format!("!llvm.struct<({})>", vec!["i32"; num].join(", "));
        let loaded = self.temp();
        self.line(format!(
            "{loaded} = nvvm.ldmatrix {address} {{num = {num} : i32, layout = #nvvm.mma_layout<{layout}>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>}} : (!llvm.ptr<3>) -> {result_ty}"
        ));
        let pair_ty = format!("vector<2x{elem}>");
        let (zero, one) = (self.temp(), self.temp());
        self.line(format!("{zero} = llvm.mlir.constant(0 : i32) : i32"));
        self.line(format!("{one} = llvm.mlir.constant(1 : i32) : i32"));
        for (j, pair) in op.results.chunks(2).enumerate() {
            let (word, both) = (self.temp(), self.temp());
            self.line(format!("{word} = llvm.extractvalue {loaded}[{j}] : {result_ty}"));
            self.line(format!("{both} = llvm.bitcast {word} : i32 to {pair_ty}"));
            for (r, k) in pair.iter().zip([&zero, &one]) {
                self.line(format!("{} = llvm.extractelement {both}[{k} : i32] : {pair_ty}", v(*r)));
            }
        }
    }

    /// `rk.copy_async`: NVIDIA's `cp.async` (sm_80 on; the other targets get the module with
    /// the copies rewritten, as for `rk.mma`), from the global address space into the shared
    /// one: a pointer known to be into shared memory uses its workgroup twin, another is cast
    /// (`cp.async` requires a shared destination). Sixteen-byte copies bypass L1 (`.cg`), as
    /// staging for tiles wants; smaller ones may only be `.ca`.
    pub(super) fn copy_async(&mut self, op: &Op) {
        let size = self.rk_ty(op.operands[0]).pointee().map_or(0, Type::size_of);
        let dst = self.shared_pointer(op.operands[0]);
        let src = self.temp();
        self.line(format!(
            "{src} = llvm.addrspacecast {} : !llvm.ptr to !llvm.ptr<1>",
            v(op.operands[1])
        ));
        let cache = if size == 16 { "cg" } else { "ca" };
        self.line(format!(
            "nvvm.cp.async.shared.global {dst}, {src}, {size}, cache = {cache} : !llvm.ptr<3>, !llvm.ptr<1>"
        ));
    }

    /// Records a pointer into shared memory whose twin was just written, and defines the
    /// generic pointer that every other use of the value takes.
    pub(super) fn shared_result(&mut self, value: ValueId) {
        self.line(format!(
            "{} = llvm.addrspacecast {} : !llvm.ptr<3> to !llvm.ptr",
            v(value),
            shared_twin(value)
        ));
        self.shared.insert(value);
    }

    /// The pointer a load or store goes through, with its MLIR type: the workgroup-space twin
    /// for a pointer into shared memory, else the generic pointer.
    pub(super) fn access_pointer(&self, value: ValueId) -> (String, &'static str) {
        if self.shared.contains(&value) {
            (shared_twin(value), "!llvm.ptr<3>")
        } else {
            (v(value), "!llvm.ptr")
        }
    }

    /// A pointer the instruction requires in the shared address space: the workgroup twin of
    /// one known to point into shared memory, else the generic pointer cast (which the caller's
    /// contract makes valid).
    fn shared_pointer(&mut self, value: ValueId) -> String {
        let (pointer, space) = self.access_pointer(value);
        if space == "!llvm.ptr<3>" {
            return pointer;
        }
        let cast = self.temp();
        self.line(format!("{cast} = llvm.addrspacecast {pointer} : !llvm.ptr to !llvm.ptr<3>"));
        cast
    }

    /// `rk.wgmma`: Hopper's `wgmma.mma_async.sync.aligned.m64nNk16.f32` (sm_90a; the driver
    /// gives the other targets a module whose `rk.wgmma`s `expand_wgmma` has expanded). Each
    /// tile becomes a matrix descriptor: its shared-memory address and its two strides in
    /// units of 16 bytes, no swizzling. `A` is K-major (`imm-trans-a` 0), `B` N-major, the
    /// transposed layout (`imm-trans-b` 1); for both, the descriptor's leading byte offset is
    /// the stride between core matrices along `k`, and its stride byte offset the one along
    /// `m` or `n` (measured on an H100: the other assignment reads elsewhere, or faults). The
    /// instruction reads and writes `D` in place, so each output register is tied to its
    /// input.
    ///
    /// With 128-byte swizzling (layout type 1 in bits 62–63) `A`'s descriptor starts `a_k0`
    /// elements into the tile's rows, its leading byte offset unused (one unit, as CUTLASS
    /// writes it) and its stride byte offset `a_m`'s; `B`'s leading byte offset is the stride
    /// between its 64-column blocks (`b_n`) and its stride byte offset `b_k`'s (measured on an
    /// H100, as above).
    pub(super) fn wgmma(
        &mut self,
        ty: rkc_rk::MmaType,
        n: u32,
        swizzle: rkc_rk::wgmma::Swizzle,
        op: &Op,
    ) {
        let half = n as usize / 2;
        let o = &op.operands;
        let (a, b) = match swizzle {
            rkc_rk::wgmma::Swizzle::None => (
                self.descriptor(o[0], None, Some(o[1]), o[2], false),
                self.descriptor(o[3], None, Some(o[4]), o[5], false),
            ),
            rkc_rk::wgmma::Swizzle::B128 => (
                self.descriptor(o[0], Some(o[1]), None, o[2], true),
                self.descriptor(o[3], None, Some(o[5]), o[4], true),
            ),
        };
        let one = self.constant_i32(1);
        let outputs: Vec<String> = (0..half).map(|i| format!("${i}")).collect();
        let elem = ty.name();
        let asm = format!(
            "{{ .reg .pred p; setp.ne.b32 p, ${}, 0; wgmma.mma_async.sync.aligned.m64n{n}k16.f32.{elem}.{elem} {{{}}}, ${}, ${}, p, 1, 1, 0, 1; }}",
            half + 2,
            outputs.join(", "),
            half,
            half + 1,
        );
        let mut constraints: Vec<String> = (0..half).map(|_| "=f".to_string()).collect();
        constraints.extend(["l".into(), "l".into(), "r".into()]);
        constraints.extend((0..half).map(|i| i.to_string()));
        let d: Vec<String> = op.operands[6..].iter().map(|x| v(*x)).collect();
        let f32s = vec!["f32"; half].join(", ");
        let result_ty = format!("!llvm.struct<({f32s})>");
        let out = self.temp();
        self.line(format!(
            "{out} = llvm.inline_asm has_side_effects \"{asm}\", \"{}\" {a}, {b}, {one}, {} : (i64, i64, i32, {f32s}) -> {result_ty}",
            constraints.join(","),
            d.join(", ")
        ));
        for (i, r) in op.results.iter().enumerate() {
            self.line(format!("{} = llvm.extractvalue {out}[{i}] : {result_ty}", v(*r)));
        }
    }

    /// A warpgroup multiply's matrix descriptor: bits 0–13 the tile's shared-memory address
    /// (`start` elements on, if given), 16–29 the leading dimension's byte offset (one unit if
    /// none is given), 32–45 the stride dimension's, each over 16, and with `swizzled` the
    /// layout type of 128-byte swizzling in bits 62–63. The strides are in two-byte elements;
    /// the front end has checked that they fit and the address is aligned.
    fn descriptor(
        &mut self,
        tile: ValueId,
        start: Option<ValueId>,
        leading: Option<ValueId>,
        stride: ValueId,
        swizzled: bool,
    ) -> String {
        let shared = self.shared_pointer(tile);
        let (address, wide) = (self.temp(), self.temp());
        self.line(format!("{address} = llvm.ptrtoint {shared} : !llvm.ptr<3> to i32"));
        self.line(format!("{wide} = arith.extui {address} : i32 to i64"));
        let [c4, c3, c16, c32, mask] = [4, 3, 16, 32, 16383].map(|c| self.constant_i64(c));
        let mut units = self.temp();
        self.line(format!("{units} = arith.shrui {wide}, {c4} : i64"));
        // `e` elements are `2e` bytes, `e / 8` units of 16 bytes.
        let in_units = |me: &mut Self, e: ValueId| {
            let u = me.temp();
            me.line(format!("{u} = arith.shrui {}, {c3} : i64", v(e)));
            u
        };
        if let Some(s) = start {
            let (u, sum) = (in_units(self, s), self.temp());
            self.line(format!("{sum} = arith.addi {units}, {u} : i64"));
            units = sum;
        }
        let field = self.temp();
        self.line(format!("{field} = arith.andi {units}, {mask} : i64"));
        let leading = match leading {
            Some(l) => in_units(self, l),
            None => self.constant_i64(1),
        };
        let stride = in_units(self, stride);
        let mut desc = field;
        for (u, shift) in [(leading, &c16), (stride, &c32)] {
            let (placed, sum) = (self.temp(), self.temp());
            self.line(format!("{placed} = arith.shli {u}, {shift} : i64"));
            self.line(format!("{sum} = arith.ori {desc}, {placed} : i64"));
            desc = sum;
        }
        if swizzled {
            let (layout, sum) = (self.constant_i64(1 << 62), self.temp());
            self.line(format!("{sum} = arith.ori {desc}, {layout} : i64"));
            desc = sum;
        }
        desc
    }

    /// `rk.wgmma_sync`: the fences and group instructions around warpgroup multiplies, as
    /// inline PTX that clobbers memory, so that no load or store moves across them.
    pub(super) fn wgmma_sync(&mut self, sync: rkc_rk::WgmmaSync) {
        let asm = match sync {
            rkc_rk::WgmmaSync::ProxyFence => "fence.proxy.async.shared::cta;".to_string(),
            rkc_rk::WgmmaSync::Fence => "wgmma.fence.sync.aligned;".to_string(),
            rkc_rk::WgmmaSync::Commit => "wgmma.commit_group.sync.aligned;".to_string(),
            rkc_rk::WgmmaSync::Wait(n) => format!("wgmma.wait_group.sync.aligned {n};"),
        };
        self.line(format!(
            "llvm.inline_asm has_side_effects \"{asm}\", \"~{{memory}}\" : () -> ()"
        ));
    }

    pub(super) fn dyn_shared(&mut self, op: &Op) {
        let align = if self.options.swizzled_tiles { 1024 } else { 16 };
        self.globals.push(format!(
            "    llvm.mlir.global external @{DYNAMIC_SHARED}() {{addr_space = 3 : i32, alignment = {align} : i64}} : !llvm.array<0 x i8>\n"
        ));
        let twin = shared_twin(op.results[0]);
        self.line(format!("{twin} = llvm.mlir.addressof @{DYNAMIC_SHARED} : !llvm.ptr<3>"));
        self.shared_result(op.results[0]);
    }

    pub(super) fn fence(&mut self, scope: FenceScope) {
        self.line(format!("llvm.fence syncscope(\"{}\") seq_cst", scope_placeholder(scope)));
    }
}

/// The workgroup-space twin of a pointer into shared memory (see `FuncEmitter::shared`).
pub(super) fn shared_twin(value: ValueId) -> String {
    format!("{}_shared", v(value))
}
