//! The block function's warp exchanges: shuffles, votes, reductions and the tensor-core
//! multiplies' fragment exchanges, computed for every warp of the block at once over buffers
//! of its lanes' values.

use super::super::FuncEmitter;
use rkc_rk::{Op, ValueId, WarpOp};

impl<'f> FuncEmitter<'f> {
    /// A warp exchange, for every warp of the block at once: each thread's result from its
    /// warp's 32 operands, as `rkc_simt` and the GPU compute it. Lanes past the block's last
    /// thread (a partial warp, which the simulator refuses) read as zero.
    pub(super) fn exchange(&mut self, w: WarpOp, op: &'f Op) {
        let r = op.results[0];
        let ty = self.ty(r);
        self.line("scf.for %blk_w = %blk_c0 to %blk_n step %blk_c32 {".into());
        match w {
            WarpOp::Shuffle(mode) => {
                self.line("scf.for %blk_l = %blk_c0 to %blk_c32 step %blk_c1 {".into());
                self.line("%blk_lt = arith.addi %blk_w, %blk_l : index".into());
                self.line("%blk_lin = arith.cmpi ult, %blk_lt, %blk_n : index".into());
                self.line("scf.if %blk_lin {".into());
                let k = self.per_thread(op.operands[1], "%blk_lt");
                let (c31, k5, lane) = (self.temp(), self.temp(), self.temp());
                self.line(format!("{c31} = arith.constant 31 : i32"));
                self.line(format!("{k5} = arith.andi {k}, {c31} : i32"));
                self.line(format!("{lane} = arith.index_castui %blk_l : index to i32"));
                let src = match mode {
                    rkc_rk::ShuffleMode::Idx => k5,
                    rkc_rk::ShuffleMode::Xor => {
                        let s = self.temp();
                        self.line(format!("{s} = arith.xori {lane}, {k5} : i32"));
                        s
                    }
                    rkc_rk::ShuffleMode::Up => {
                        let (d, ok, s) = (self.temp(), self.temp(), self.temp());
                        self.line(format!("{d} = arith.subi {lane}, {k5} : i32"));
                        self.line(format!("{ok} = arith.cmpi uge, {lane}, {k5} : i32"));
                        self.line(format!("{s} = arith.select {ok}, {d}, {lane} : i32"));
                        s
                    }
                    rkc_rk::ShuffleMode::Down => {
                        let (d, ok, s) = (self.temp(), self.temp(), self.temp());
                        self.line(format!("{d} = arith.addi {lane}, {k5} : i32"));
                        self.line(format!("{ok} = arith.cmpi ule, {d}, {c31} : i32"));
                        self.line(format!("{s} = arith.select {ok}, {d}, {lane} : i32"));
                        s
                    }
                };
                let (si, st) = (self.temp(), self.temp());
                self.line(format!("{si} = arith.index_castui {src} : i32 to index"));
                self.line(format!("{st} = arith.addi %blk_w, {si} : index"));
                let value = self.per_thread(op.operands[0], &st);
                self.set_per_thread(r, "%blk_lt", &value);
                self.line("}".into());
                self.line("}".into());
            }
            WarpOp::Any | WarpOp::All | WarpOp::Ballot => {
                let bits = self.temp();
                self.line("%blk_zero32 = arith.constant 0 : i32".into());
                self.line(format!(
                    "{bits} = scf.for %blk_l = %blk_c0 to %blk_c32 step %blk_c1 iter_args(%blk_m = %blk_zero32) -> (i32) {{"
                ));
                self.line("%blk_lt = arith.addi %blk_w, %blk_l : index".into());
                self.line("%blk_lin = arith.cmpi ult, %blk_lt, %blk_n : index".into());
                let b = self.lane_value(op.operands[0], "i1", "%blk_false");
                let (e, l32, sh, m) = (self.temp(), self.temp(), self.temp(), self.temp());
                self.line(format!("{e} = arith.extui {b} : i1 to i32"));
                self.line(format!("{l32} = arith.index_castui %blk_l : index to i32"));
                self.line(format!("{sh} = arith.shli {e}, {l32} : i32"));
                self.line(format!("{m} = arith.ori %blk_m, {sh} : i32"));
                self.line(format!("scf.yield {m} : i32"));
                self.line("}".into());
                let result = match w {
                    WarpOp::Ballot => bits,
                    _ => {
                        let (c, res) = (self.temp(), self.temp());
                        let (pred, target) = if w == WarpOp::Any { ("ne", 0) } else { ("eq", -1) };
                        self.line(format!("{c} = arith.constant {target} : i32"));
                        self.line(format!("{res} = arith.cmpi {pred}, {bits}, {c} : i32"));
                        res
                    }
                };
                self.for_lanes(&|me| me.set_per_thread(r, "%blk_lt", &result));
            }
            WarpOp::Reduce(reduce) => {
                let (a, b) = (format!("%blk_lanes_a{}", r.0), format!("%blk_lanes_b{}", r.0));
                let rk_ty = self.rk_ty(r).clone();
                let zero = self.temp();
                if rk_ty.is_float() {
                    self.line(format!("{zero} = arith.constant 0.0 : {ty}"));
                } else {
                    self.line(format!("{zero} = arith.constant 0 : {ty}"));
                }
                // The warp's values into `a` (zero past the block's end).
                self.line("scf.for %blk_l = %blk_c0 to %blk_c32 step %blk_c1 {".into());
                self.line("%blk_lt = arith.addi %blk_w, %blk_l : index".into());
                self.line("%blk_lin = arith.cmpi ult, %blk_lt, %blk_n : index".into());
                let v = self.lane_value(op.operands[0], &ty, &zero);
                self.lane_store(&a, "%blk_l", &v, &ty);
                self.line("}".into());
                // Five butterfly steps, lane l combining its value with lane l ^ k's.
                let mut k = 16;
                while k > 0 {
                    self.line("scf.for %blk_l = %blk_c0 to %blk_c32 step %blk_c1 {".into());
                    let (kc, other) = (self.temp(), self.temp());
                    self.line(format!("{kc} = arith.constant {k} : index"));
                    self.line(format!("{other} = arith.xori %blk_l, {kc} : index"));
                    let x = self.lane_load(&a, "%blk_l", &ty);
                    let y = self.lane_load(&a, &other, &ty);
                    let c = self.temp();
                    let line = self.reduce_combine(reduce, &rk_ty, &c, &x, &y);
                    self.line(line);
                    self.lane_store(&b, "%blk_l", &c, &ty);
                    self.line("}".into());
                    self.line("scf.for %blk_l = %blk_c0 to %blk_c32 step %blk_c1 {".into());
                    let x = self.lane_load(&b, "%blk_l", &ty);
                    self.lane_store(&a, "%blk_l", &x, &ty);
                    self.line("}".into());
                    k /= 2;
                }
                self.for_lanes(&|me| {
                    let x = me.lane_load(&a, "%blk_l", &ty);
                    me.set_per_thread(r, "%blk_lt", &x);
                });
            }
            WarpOp::LaneId => {}
        }
        self.line("}".into());
    }

    /// `rk.mma` for every warp of the block: each lane's four elements of `D` from its warp's
    /// fragments, by `rkc_simt::mma`'s rule (the elements widened exactly to `f64`, the sixteen
    /// products added to `C` in `k`'s order, one rounding). Lane `l` reads rows `l / 4` and
    /// `l / 4 + 8` of `A` from lanes `4 (l / 4) + c` and columns `2 (l % 4)` and `2 (l % 4) + 1`
    /// of `B` from lanes `8 (l % 4) + c`; lanes past the block's end (a partial warp, which the
    /// simulator refuses) read as zero.
    pub(super) fn mma_exchange(&mut self, op: &'f Op) {
        use rkc_rk::mma::{K, a_owner, b_owner, c_index};
        let elem = self.ty(op.operands[0]);
        self.line("scf.for %blk_w = %blk_c0 to %blk_n step %blk_c32 {".into());
        self.for_lanes(&|me| {
            let (c28, c3, c8) = (me.temp(), me.temp(), me.temp());
            me.line(format!("{c28} = arith.constant 28 : index"));
            me.line(format!("{c3} = arith.constant 3 : index"));
            me.line(format!("{c8} = arith.constant 8 : index"));
            let (g4, t, t8, zero) = (me.temp(), me.temp(), me.temp(), me.temp());
            me.line(format!("{g4} = arith.andi %blk_l, {c28} : index"));
            me.line(format!("{t} = arith.andi %blk_l, {c3} : index"));
            me.line(format!("{t8} = arith.muli {t}, {c8} : index"));
            me.line(format!("{zero} = arith.constant 0.0 : f64"));
            // Element `e` of the fragment operand at `base` of lane `from + off`, as f64.
            let fetch = |me: &mut Self, from: &str, off: usize, x: ValueId| -> String {
                let (oc, lane, src, inside, at) =
                    (me.temp(), me.temp(), me.temp(), me.temp(), me.temp());
                me.line(format!("{oc} = arith.constant {off} : index"));
                me.line(format!("{lane} = arith.addi {from}, {oc} : index"));
                me.line(format!("{src} = arith.addi %blk_w, {lane} : index"));
                me.line(format!("{inside} = arith.cmpi ult, {src}, %blk_n : index"));
                me.line(format!("{at} = arith.select {inside}, {src}, %blk_lt : index"));
                let raw = me.per_thread(x, &at);
                let (wide, value) = (me.temp(), me.temp());
                me.line(format!("{wide} = arith.extf {raw} : {elem} to f64"));
                me.line(format!("{value} = arith.select {inside}, {wide}, {zero} : f64"));
                value
            };
            let mut rows = Vec::with_capacity(2 * K);
            for hi in 0..2 {
                for k in 0..K {
                    let (owner, e) = a_owner(hi * 8, k);
                    rows.push(fetch(me, &g4, owner, op.operands[e]));
                }
            }
            let mut cols = Vec::with_capacity(2 * K);
            for j in 0..2 {
                for k in 0..K {
                    let (owner, e) = b_owner(k, j);
                    cols.push(fetch(me, &t8, owner, op.operands[8 + e]));
                }
            }
            for (i, &r) in op.results.iter().enumerate() {
                let (row, j) = c_index(0, i);
                let hi = row / 8;
                let c = me.per_thread(op.operands[12 + i], "%blk_lt");
                let mut acc = me.temp();
                me.line(format!("{acc} = arith.extf {c} : f32 to f64"));
                for k in 0..K {
                    let (p, s) = (me.temp(), me.temp());
                    me.line(format!(
                        "{p} = arith.mulf {}, {} : f64",
                        rows[hi * K + k],
                        cols[j * K + k]
                    ));
                    me.line(format!("{s} = arith.addf {acc}, {p} : f64"));
                    acc = s;
                }
                let d = me.temp();
                me.line(format!("{d} = arith.truncf {acc} : f64 to f32"));
                me.set_per_thread(r, "%blk_lt", &d);
            }
        });
        self.line("}".into());
    }

    /// Runs `body` for each lane `%blk_l` of the warp at `%blk_w` whose thread `%blk_lt` is in
    /// the block.
    fn for_lanes(&mut self, body: &dyn Fn(&mut Self)) {
        self.line("scf.for %blk_l = %blk_c0 to %blk_c32 step %blk_c1 {".into());
        self.line("%blk_lt = arith.addi %blk_w, %blk_l : index".into());
        self.line("%blk_lin = arith.cmpi ult, %blk_lt, %blk_n : index".into());
        self.line("scf.if %blk_lin {".into());
        body(self);
        self.line("}".into());
        self.line("}".into());
    }

    /// Lane `%blk_l`'s value of `x` (of MLIR type `ty`), or `default` where its thread
    /// `%blk_lt` is past the block's end (`%blk_lin` false).
    fn lane_value(&mut self, x: ValueId, ty: &str, default: &str) -> String {
        let v = self.temp();
        self.line(format!("{v} = scf.if %blk_lin -> ({ty}) {{"));
        let value = self.per_thread(x, "%blk_lt");
        self.line(format!("scf.yield {value} : {ty}"));
        self.line("} else {".into());
        self.line(format!("scf.yield {default} : {ty}"));
        self.line("}".into());
        v
    }

    fn lane_load(&mut self, buffer: &str, lane: &str, ty: &str) -> String {
        let (l64, at, x) = (self.temp(), self.temp(), self.temp());
        self.line(format!("{l64} = arith.index_castui {lane} : index to i64"));
        self.line(format!(
            "{at} = llvm.getelementptr {buffer}[{l64}] : (!llvm.ptr, i64) -> !llvm.ptr, {ty}"
        ));
        self.line(format!("{x} = llvm.load {at} : !llvm.ptr -> {ty}"));
        x
    }

    fn lane_store(&mut self, buffer: &str, lane: &str, value: &str, ty: &str) {
        let (l64, at) = (self.temp(), self.temp());
        self.line(format!("{l64} = arith.index_castui {lane} : index to i64"));
        self.line(format!(
            "{at} = llvm.getelementptr {buffer}[{l64}] : (!llvm.ptr, i64) -> !llvm.ptr, {ty}"
        ));
        self.line(format!("llvm.store {value}, {at} : {ty}, !llvm.ptr"));
    }
}
