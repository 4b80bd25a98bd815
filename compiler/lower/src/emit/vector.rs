//! Whole small arrays in global memory moved by one 64- or 128-bit access.
//!
//! A kernel that reads `x[i]` of an `&[[f32; 4]]` gets, from the front end, four loads of
//! `x[i][0]` … `x[i][3]`, each aligned to 4 bytes as Rust's `[f32; 4]` is; written back, four
//! stores. A GPU moves the 16 bytes in one instruction (`ld.global.v4.f32`, AMD's
//! `global_load_dwordx4`) only at a 16-byte aligned address, which Rust does not promise:
//! the runtime's device allocations are aligned, a raw pointer or a view into a buffer of
//! another type need not be. So the access tests the address: aligned, one vector access;
//! else the scalar ones, as before. The test is made on the start of the slice or array the
//! element belongs to when every step from there is a multiple of the width (see
//! `alignment_root`), the same for every thread, so the branch costs a few instructions and
//! never diverges.
//!
//! Only runs of accesses that a statement's copy produces are taken: the loads (or stores) of
//! every element of one array, each once, in any order, with nothing between them but the
//! constants and element addresses they use, through a pointer derived from a parameter
//! (global memory: shared memory gets its alignment from its address space, see
//! `FuncEmitter::shared`, and a thread's local arrays are better promoted to registers, which
//! a vector access would prevent). GPU targets only: a CPU's vector loads take any alignment.

use super::{FuncEmitter, mlir_type, v};
use rkc_rk::{Literal, Op, OpKind, Region, Type, ValueId};

/// A run of accesses that one vector access replaces.
struct Run<'f> {
    /// The array's address.
    base: ValueId,
    elem: &'f Type,
    len: u64,
    /// The loads' results or the stores' values, in element order.
    values: Vec<ValueId>,
    store: bool,
    /// The index just past the run's last op.
    end: usize,
}

impl<'f> FuncEmitter<'f> {
    /// Records every region-free op by its results, and the pointers into global memory
    /// (definitions come before uses: one walk in order finds them all).
    pub(super) fn scan(&mut self, region: &'f Region) {
        for op in &region.ops {
            if op.regions.is_empty() {
                for r in &op.results {
                    self.defs.insert(*r, op);
                }
            }
            let global = match op.kind {
                OpKind::SlicePtr => true,
                OpKind::PtrOffset | OpKind::ElemPtr | OpKind::FieldPtr { .. } => {
                    self.global.contains(&op.operands[0])
                }
                OpKind::Cast => {
                    self.global.contains(&op.operands[0])
                        && matches!(self.func.ty(op.results[0]), Some(Type::Ptr { .. }))
                }
                _ => false,
            };
            if global {
                self.global.extend(op.results.iter().copied());
            }
            for r in &op.regions {
                self.scan(r);
            }
        }
    }

    /// Emits the run of accesses starting at `ops[k]` as one vector access when there is one,
    /// and returns the index past it; `None` (having emitted nothing) otherwise.
    pub(super) fn vector_access(&mut self, ops: &'f [Op], k: usize) -> Option<usize> {
        if self.host {
            return None;
        }
        let run = self.find_run(ops, k)?;
        // The constants and element addresses between the accesses: pure, and some may be
        // used after the run.
        for op in &ops[k..run.end] {
            if !matches!(op.kind, OpKind::Load | OpKind::Store) {
                self.op(op);
            }
        }
        self.emit_run(&run);
        Some(run.end)
    }

    fn find_run(&self, ops: &'f [Op], k: usize) -> Option<Run<'f>> {
        let store = match ops[k].kind {
            OpKind::Load => false,
            OpKind::Store => true,
            _ => return None,
        };
        let pointer = |op: &Op| if store { op.operands[1] } else { op.operands[0] };
        let (base, first) = self.element(pointer(&ops[k]))?;
        if !self.global.contains(&base) {
            return None;
        }
        let Some(Type::Array { elem, len }) = self.rk_ty(base).pointee() else { return None };
        let bytes = elem.size_of().checked_mul(*len)?;
        if !matches!(**elem, Type::Int(_) | Type::Float(_)) || *len < 2 || !matches!(bytes, 8 | 16)
        {
            return None;
        }
        let value = |op: &Op| if store { op.operands[0] } else { op.results[0] };
        // Each element once, in any order (store-to-load forwarding leaves the loads in the
        // order the statement uses the elements).
        let mut values = vec![None; usize::try_from(*len).ok()?];
        *values.get_mut(usize::try_from(first).ok()?)? = Some(value(&ops[k]));
        let mut found = 1;
        for (j, op) in ops.iter().enumerate().skip(k + 1) {
            match op.kind {
                OpKind::Const(_) => {}
                OpKind::ElemPtr if op.operands[0] == base => {}
                OpKind::PtrOffset
                    if self.element(op.results[0]).is_some_and(|(b, _)| b == base) => {}
                OpKind::Load | OpKind::Store if (op.kind == OpKind::Store) == store => {
                    let (b, index) = self.element(pointer(op))?;
                    let slot = values.get_mut(usize::try_from(index).ok()?)?;
                    if b != base || slot.is_some() {
                        return None;
                    }
                    *slot = Some(value(op));
                    found += 1;
                    if found == values.len() {
                        let values = values.into_iter().flatten().collect();
                        return Some(Run { base, elem, len: *len, values, store, end: j + 1 });
                    }
                }
                _ => return None,
            }
        }
        None
    }

    /// The pointer whose alignment decides `pointer`'s to `bytes`: the start of the slice or
    /// array it is an element of, when every step from there is a multiple of `bytes` (the
    /// test is then the same in every iteration and every thread, and LLVM hoists it).
    fn alignment_root(&self, mut pointer: ValueId, bytes: u64) -> ValueId {
        while let Some(op) = self.defs.get(&pointer) {
            let step = match op.kind {
                OpKind::PtrOffset | OpKind::ElemPtr => {
                    self.rk_ty(op.results[0]).pointee().map_or(0, Type::size_of)
                }
                _ => 0,
            };
            if step == 0 || step % bytes != 0 {
                break;
            }
            pointer = op.operands[0];
        }
        pointer
    }

    /// The array and element index of `rk.elem_ptr %base, <constant>`, or of
    /// `rk.ptr_offset` by a constant from such an element (how the front end lowers a
    /// destructuring `let [x, y, z, w] = a[i]`: the first element's address, then steps).
    fn element(&self, pointer: ValueId) -> Option<(ValueId, u64)> {
        let op = self.defs.get(&pointer)?;
        let constant = |value: ValueId| match &self.defs.get(&value)?.kind {
            OpKind::Const(Literal::Int(c)) => u64::try_from(*c).ok(),
            _ => None,
        };
        match op.kind {
            OpKind::ElemPtr => Some((op.operands[0], constant(op.operands[1])?)),
            OpKind::PtrOffset if self.defs.get(&op.operands[0])?.kind == OpKind::ElemPtr => {
                let (base, first) = self.element(op.operands[0])?;
                Some((base, first.checked_add(constant(op.operands[1])?)?))
            }
            _ => None,
        }
    }

    fn emit_run(&mut self, run: &Run<'f>) {
        let elem = mlir_type(run.elem);
        let elem_bytes = run.elem.size_of();
        let bytes = elem_bytes * run.len;
        let vector = format!("vector<{}x{elem}>", run.len);
        let array = format!("!llvm.array<{} x {elem}>", run.len);
        let base = v(run.base);
        let (addr, mask, low, zero, aligned) =
            (self.temp(), self.temp(), self.temp(), self.temp(), self.temp());
        self.line(format!(
            "{addr} = llvm.ptrtoint {} : !llvm.ptr to i64",
            v(self.alignment_root(run.base, bytes))
        ));
        self.line(format!("{mask} = llvm.mlir.constant({} : i64) : i64", bytes - 1));
        self.line(format!("{low} = llvm.and {addr}, {mask} : i64"));
        self.line(format!("{zero} = llvm.mlir.constant(0 : i64) : i64"));
        self.line(format!("{aligned} = llvm.icmp \"eq\" {low}, {zero} : i64"));
        let (whole, parts, join) = (self.new_label(), self.new_label(), self.new_label());
        self.line(format!("cf.cond_br {aligned}, {whole}, {parts}"));
        let tys = vec![elem.clone(); run.values.len()].join(", ");
        // Aligned: one access of the whole array.
        self.start_block(format!("{whole}:"));
        if run.store {
            let mut lanes = Vec::new();
            for e in 0..run.len {
                let index = self.temp();
                self.line(format!("{index} = llvm.mlir.constant({e} : i64) : i64"));
                lanes.push(index);
            }
            let mut acc = self.temp();
            self.line(format!("{acc} = llvm.mlir.undef : {vector}"));
            for (value, index) in run.values.iter().zip(&lanes) {
                let next = self.temp();
                self.line(format!(
                    "{next} = llvm.insertelement {}, {acc}[{index} : i64] : {vector}",
                    v(*value)
                ));
                acc = next;
            }
            self.line(format!(
                "llvm.store {acc}, {base} {{alignment = {bytes} : i64}} : {vector}, !llvm.ptr"
            ));
            self.line(format!("cf.br {join}"));
        } else {
            // One integer of the array's width, cut into the elements (little-endian: element
            // 0 in the low bits). A vector load whose only uses are extractions would be split
            // back into scalar loads by LLVM's vector combiner, whose cost model counts a
            // 4-float vector as four registers; the two arms would then merge, and the
            // alignment would be lost.
            let (bits, elem_bits) = (bytes * 8, elem_bytes * 8);
            let whole_value = self.temp();
            self.line(format!(
                "{whole_value} = llvm.load {base} {{alignment = {bytes} : i64}} : !llvm.ptr -> i{bits}"
            ));
            let mut elements = Vec::new();
            for e in 0..run.len {
                let shift = self.temp();
                self.line(format!(
                    "{shift} = llvm.mlir.constant({} : i{bits}) : i{bits}",
                    e * elem_bits
                ));
                let shifted = self.temp();
                self.line(format!("{shifted} = llvm.lshr {whole_value}, {shift} : i{bits}"));
                let word = self.temp();
                self.line(format!("{word} = llvm.trunc {shifted} : i{bits} to i{elem_bits}"));
                if run.elem.is_float() {
                    let x = self.temp();
                    self.line(format!("{x} = llvm.bitcast {word} : i{elem_bits} to {elem}"));
                    elements.push(x);
                } else {
                    elements.push(word);
                }
            }
            self.line(format!("cf.br {join}({} : {tys})", elements.join(", ")));
        }
        // Not aligned: element by element, as the front end wrote them.
        self.start_block(format!("{parts}:"));
        let mut elements = Vec::new();
        for (e, value) in run.values.iter().enumerate() {
            let p = self.temp();
            self.line(format!(
                "{p} = llvm.getelementptr inbounds {base}[0, {e}] : (!llvm.ptr) -> !llvm.ptr, {array}"
            ));
            if run.store {
                self.line(format!(
                    "llvm.store {}, {p} {{alignment = {elem_bytes} : i64}} : {elem}, !llvm.ptr",
                    v(*value)
                ));
            } else {
                let x = self.temp();
                self.line(format!(
                    "{x} = llvm.load {p} {{alignment = {elem_bytes} : i64}} : !llvm.ptr -> {elem}"
                ));
                elements.push(x);
            }
        }
        if run.store {
            self.line(format!("cf.br {join}"));
            self.start_block(format!("{join}:"));
        } else {
            self.line(format!("cf.br {join}({} : {tys})", elements.join(", ")));
            let args: Vec<String> =
                run.values.iter().map(|r| format!("{}: {elem}", v(*r))).collect();
            self.start_block(format!("{join}({}):", args.join(", ")));
        }
    }
}
