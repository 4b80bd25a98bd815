//! Places: locals, dereferences, fields and indexing; reading, writing, copying and borrowing
//! them, with the adjustments the checker recorded (auto-deref, auto-ref, unsizing).

use super::layout::Repr;
use super::*;
use crate::hir::UnOp;

impl<'m, 'c, 't, 'a> FnLowerer<'m, 'c, 't, 'a> {
    /// An expression's value, after its adjustments.
    pub fn operand(&mut self, e: ExprId) -> Operand {
        let adjusts = self.r.adjust.get(&e).cloned().unwrap_or_default();
        if adjusts.is_empty() {
            return self.rvalue(e);
        }
        let span = self.span(e);
        let mut ty = self.expr_ty(e);
        // The adjustments start from the expression as a place when they dereference or
        // borrow it, and from its value otherwise.
        let mut cur: Result<Place, Operand> = if matches!(
            adjusts[0],
            Adjust::Deref | Adjust::Overloaded { .. } | Adjust::Borrow(_)
        ) {
            let mutable = adjusts.contains(&Adjust::Borrow(true));
            Ok(self.place_unadjusted(e, mutable))
        } else {
            Err(self.rvalue(e))
        };
        for a in &adjusts {
            match a {
                Adjust::Deref => {
                    let v = match cur {
                        Ok(p) => self.read_place(&p, &ty, span),
                        Err(v) => v,
                    };
                    let inner = ty.builtin_deref(true).map(|(t, _)| t).unwrap_or_else(Ty::error);
                    cur = Ok(self.deref_operand(v, &inner));
                    ty = inner;
                }
                Adjust::Borrow(m) => {
                    let p = match cur {
                        Ok(p) => p,
                        Err(v) => Place::Value(v),
                    };
                    cur = Err(self.address_of(&p, &ty, *m, span));
                    ty = Ty::reference(ty, *m);
                }
                Adjust::Unsize => {
                    let v = match cur {
                        Ok(p) => self.read_place(&p, &ty, span),
                        Err(v) => v,
                    };
                    let (inner, m, is_ref) = match ty.kind() {
                        TyKind::Ref(t, m) => (t.clone(), *m, true),
                        TyKind::Ptr(t, m) => (t.clone(), *m, false),
                        _ => (Ty::error(), false, true),
                    };
                    let (elem, n) = match inner.kind() {
                        TyKind::Array(el, crate::ty::Const::Value(n)) => (el.clone(), *n),
                        _ => (Ty::error(), 0),
                    };
                    cur = Err(self.unsize(v, &elem, n, m, span));
                    ty = if is_ref {
                        Ty::reference(Ty::slice(elem), m)
                    } else {
                        Ty::ptr(Ty::slice(elem), m)
                    };
                }
                Adjust::PointerCast => {
                    let v = match cur {
                        Ok(p) => self.read_place(&p, &ty, span),
                        Err(v) => v,
                    };
                    cur = Err(v);
                    // `&mut T` to `&T` or `*const T`: the next adjustment or the use decides
                    // the mutability; the value is the same pointer.
                }
                Adjust::Overloaded { deref, target } => {
                    let p = match cur {
                        Ok(p) => p,
                        Err(v) => Place::Value(v),
                    };
                    let mutable = adjusts.contains(&Adjust::Borrow(true));
                    cur = Ok(self.overloaded_deref(&p, &ty, deref, target, mutable, span));
                    ty = target.clone();
                }
                Adjust::NeverToAny => {}
            }
        }
        let target = self.adjusted_ty(e);
        let v = match cur {
            Ok(p) => self.read_place(&p, &ty, span),
            Err(v) => v,
        };
        self.coerce_ptr(v, &target, span)
    }

    /// Makes a pointer operand's rk type match `target`'s mutability (`*mut` to `*const`).
    pub fn coerce_ptr(&mut self, v: Operand, target: &Ty, span: Span) -> Operand {
        match (&v, self.mono.layouts.repr(self.tcx, target)) {
            (Operand::Scalar(x), Ok(Repr::Scalar(t @ Type::Ptr { .. }))) => {
                Operand::Scalar(self.cast(*x, t, span))
            }
            (Operand::Fat(p, l), Ok(Repr::Fat { ptr })) => {
                Operand::Fat(self.cast(*p, ptr, span), *l)
            }
            _ => v,
        }
    }

    /// `&[T; N]` (an operand pointing at an array) to `&[T]`.
    fn unsize(&mut self, v: Operand, elem: &Ty, n: u64, m: bool, span: Span) -> Operand {
        let Operand::Scalar(p) = v else { return v };
        let et = self.mem_type(elem, span);
        let ep = self.cast(p, Type::ptr(m, et), span);
        let len = self.const_usize(n, span);
        Operand::Fat(ep, len)
    }

    /// The place a pointer operand points at.
    pub fn deref_operand(&mut self, v: Operand, pointee: &Ty) -> Place {
        match v {
            Operand::Scalar(p) => Place::Mem(p),
            Operand::Fat(p, l) => Place::Slice(p, l),
            Operand::Never => Place::Value(Operand::Never),
            other => {
                let _ = pointee;
                Place::Value(other)
            }
        }
    }

    /// The place `Deref::deref(&p)` points at (`deref_mut(&mut p)` for a mutable use): an
    /// explicit `*p` or an auto-deref on a type with a `Deref` impl.
    fn overloaded_deref(
        &mut self,
        p: &Place,
        ty: &Ty,
        deref: &crate::typeck::Callee,
        target: &Ty,
        mutable: bool,
        span: Span,
    ) -> Place {
        let r = self.address_of(p, ty, mutable, span);
        let callee =
            if mutable { self.index_mut_of(deref, "DerefMut", "deref_mut") } else { deref.clone() };
        let refd =
            self.call_callee(&callee, vec![r], &Ty::reference(target.clone(), mutable), span);
        self.deref_operand(refd, target)
    }

    /// An expression as a place, after its adjustments (only dereferences can apply).
    pub fn place(&mut self, e: ExprId, mutable: bool) -> Place {
        let adjusts = self.r.adjust.get(&e).cloned().unwrap_or_default();
        if adjusts.is_empty() {
            return self.place_unadjusted(e, mutable);
        }
        if adjusts.iter().all(Adjust::is_deref) {
            let span = self.span(e);
            let mut ty = self.expr_ty(e);
            let mut p = self.place_unadjusted(e, mutable);
            for a in &adjusts {
                if let Adjust::Overloaded { deref, target } = a {
                    p = self.overloaded_deref(&p, &ty, deref, target, mutable, span);
                    ty = target.clone();
                    continue;
                }
                let v = self.read_place(&p, &ty, span);
                let inner = ty.builtin_deref(true).map(|(t, _)| t).unwrap_or_else(Ty::error);
                p = self.deref_operand(v, &inner);
                ty = inner;
            }
            return p;
        }
        let v = self.operand(e);
        Place::Value(v)
    }

    /// An expression as a place, before adjustments: locals, statics, dereferences, fields and
    /// indexing are places; any other expression is evaluated into a temporary.
    pub fn place_unadjusted(&mut self, e: ExprId, mutable: bool) -> Place {
        let span = self.span(e);
        let body = self.body.clone();
        match &body.expr(e).kind {
            ExprKind::Path(_) => match self.r.paths.get(&e).cloned() {
                Some(ValueRes::Local(l)) => self.local_place(l, span),
                Some(ValueRes::Static(d)) => self.static_place(d, span),
                Some(ValueRes::Const(c)) => self.const_place(&c, span),
                _ => Place::Value(self.rvalue(e)),
            },
            ExprKind::Unary(UnOp::Deref, inner) => {
                if let Some(callee) = self.r.callees.get(&e).cloned() {
                    // `*x` through `Deref::deref(&x)` (or `deref_mut`).
                    let p = self.place(*inner, mutable);
                    let it = self.adjusted_ty(*inner);
                    let out_ty = self.expr_ty(e);
                    return self.overloaded_deref(&p, &it, &callee, &out_ty, mutable, span);
                }
                let v = self.operand(*inner);
                let t = self.expr_ty(e);
                self.deref_operand(v, &t)
            }
            ExprKind::Field(base, _) => {
                let bp = self.place(*base, mutable);
                let bt = self.adjusted_ty(*base);
                let idx = self.r.fields.get(&e).copied().unwrap_or(0);
                self.field_place(&bp, &bt, idx, span)
            }
            ExprKind::Index(base, index) => self.index_place(e, *base, *index, mutable, span),
            _ => {
                let v = self.rvalue(e);
                Place::Value(v)
            }
        }
    }

    /// Field `idx` of a struct or tuple place.
    pub fn field_place(&mut self, base: &Place, base_ty: &Ty, idx: u32, span: Span) -> Place {
        let p = match base {
            Place::Mem(p) => *p,
            Place::Value(Operand::Mem(p)) => *p,
            Place::Value(Operand::Never) => return Place::Value(Operand::Never),
            Place::Value(Operand::Zst) => return Place::Value(Operand::Zst),
            _ => {
                self.error(
                    Diagnostic::new(RK_INTERNAL, "a field of a value that is not in memory")
                        .at(span, "here"),
                );
                return Place::Value(Operand::Zst);
            }
        };
        let layout = match self.mono.layouts.layout(self.tcx, base_ty) {
            Ok(l) => l,
            Err(e) => {
                self.layout_error(e, span, "here".into());
                return Place::Value(Operand::Zst);
            }
        };
        match layout.fields.get(idx as usize).copied().flatten() {
            Some(k) => Place::Mem(self.field_ptr(p, k, span)),
            None => Place::Value(Operand::Zst),
        }
    }

    /// `a[i]` and `a[range]`.
    fn index_place(
        &mut self,
        e: ExprId,
        base: ExprId,
        index: ExprId,
        mutable: bool,
        span: Span,
    ) -> Place {
        if let Some(callee) = self.r.callees.get(&e).cloned() {
            // An `Index` impl: `*Index::index(&a, i)` (`IndexMut` where the place is written).
            let bp = self.place(base, mutable);
            let bt = self.adjusted_ty(base);
            let r = self.address_of(&bp, &bt, mutable, span);
            let i = self.operand(index);
            let callee =
                if mutable { self.index_mut_of(&callee, "IndexMut", "index_mut") } else { callee };
            let out = self.expr_ty(e);
            let refd =
                self.call_callee(&callee, vec![r, i], &Ty::reference(out.clone(), mutable), span);
            return self.deref_operand(refd, &out);
        }
        let bp = self.place(base, mutable);
        let bt = self.adjusted_ty(base);
        let it = self.adjusted_ty(index);
        // The range forms take a subslice.
        if let TyKind::Adt(d, _) = it.kind() {
            let d = *d;
            let iv = self.operand(index);
            return self.range_index(&bp, &bt, d, iv, &it, span);
        }
        let i = match self.operand(index) {
            Operand::Scalar(i) => i,
            _ => return Place::Value(Operand::Never),
        };
        // A zero-sized array behind a reference is a place in memory like any other, but its
        // pointer points to a byte (`layout.rs`): it has no elements to point into.
        let zero_sized =
            matches!(bt.kind(), TyKind::Array(..)) && matches!(self.repr(&bt, span), Repr::Zst);
        let bp = if zero_sized { Place::Value(Operand::Zst) } else { bp };
        match (bt.kind(), &bp) {
            (
                TyKind::Array(_, crate::ty::Const::Value(n)),
                Place::Mem(p) | Place::Value(Operand::Mem(p)),
            ) => {
                let (n, p) = (*n, *p);
                let len = self.const_usize(n, span);
                self.op0(OpKind::BoundsCheck, &[i, len], span);
                Place::Mem(self.elem_ptr(p, i, span))
            }
            (TyKind::Slice(_), Place::Slice(p, len)) => {
                let (p, len) = (*p, *len);
                self.op0(OpKind::BoundsCheck, &[i, len], span);
                Place::Mem(self.ptr_offset(p, i, span))
            }
            (TyKind::Array(..), Place::Value(Operand::Zst)) => {
                // An array of zero-sized elements or of length zero.
                let len = self.const_usize(0, span);
                let n = match bt.kind() {
                    TyKind::Array(_, crate::ty::Const::Value(n)) => self.const_usize(*n, span),
                    _ => len,
                };
                self.op0(OpKind::BoundsCheck, &[i, n], span);
                // An element of a zero-length array is never reached (the check above always
                // panics); one of zero size is a value of its own.
                let elem = match bt.kind() {
                    TyKind::Array(t, _) => t.clone(),
                    _ => Ty::unit(),
                };
                if matches!(self.repr(&elem, span), Repr::Zst) {
                    Place::Value(Operand::Zst)
                } else {
                    Place::Value(Operand::Never)
                }
            }
            _ => {
                self.error(
                    Diagnostic::new(
                        RK_INTERNAL,
                        format!("indexing a `{}` place", self.tcx.show(&bt)),
                    )
                    .at(span, "here"),
                );
                Place::Value(Operand::Zst)
            }
        }
    }

    /// The base's elements as (pointer to the first, count).
    fn elements(&mut self, bp: &Place, bt: &Ty, span: Span) -> Option<(ValueId, ValueId)> {
        if let TyKind::Array(elem, crate::ty::Const::Value(n)) = bt.kind()
            && matches!(self.repr(bt, span), Repr::Zst)
        {
            // A zero-sized array has no memory of its own to point into: its elements start at
            // its address, as a pointer to the element type (with the place's mutability).
            let mutable = match bp {
                Place::Mem(p) | Place::Value(Operand::Mem(p)) => {
                    matches!(self.ty_of(*p), Type::Ptr { mutable: true, .. })
                }
                _ => false,
            };
            let (elem, n) = (elem.clone(), *n);
            let address = self.address_of(bp, bt, mutable, span);
            return match self.unsize(address, &elem, n, mutable, span) {
                Operand::Fat(p, len) => Some((p, len)),
                _ => None,
            };
        }
        match (bt.kind(), bp) {
            (
                TyKind::Array(_, crate::ty::Const::Value(n)),
                Place::Mem(p) | Place::Value(Operand::Mem(p)),
            ) => {
                let (n, p) = (*n, *p);
                let zero = self.const_usize(0, span);
                let first = self.elem_ptr(p, zero, span);
                let len = self.const_usize(n, span);
                Some((first, len))
            }
            (TyKind::Slice(_), Place::Slice(p, l)) => Some((*p, *l)),
            _ => None,
        }
    }

    /// `a[r]` for the range types: Rust's checks, then the subslice.
    fn range_index(
        &mut self,
        bp: &Place,
        bt: &Ty,
        range_def: crate::items::DefId,
        iv: Operand,
        it: &Ty,
        span: Span,
    ) -> Place {
        let Some((p, len)) = self.elements(bp, bt, span) else {
            self.error(
                Diagnostic::new(RK_INTERNAL, "slicing a value that is not an array or slice")
                    .at(span, "here"),
            );
            return Place::Value(Operand::Zst);
        };
        let items = self.tcx.items;
        let lang = items.def(range_def).lang.clone().unwrap_or_default();
        let rp = match &iv {
            Operand::Mem(rp) => Some(*rp),
            _ => None,
        };
        let field = |me: &mut Self, k: usize| -> ValueId {
            let Some(rp) = rp else { return me.const_usize(0, span) };
            let idx = me
                .mono
                .layouts
                .layout(me.tcx, it)
                .ok()
                .and_then(|l| l.fields.get(k).copied().flatten())
                .unwrap_or(0);
            let fp = me.field_ptr(rp, idx, span);
            me.load(fp, span)
        };
        let one = self.const_usize(1, span);
        let (start, end) = match lang.as_str() {
            "Range" => (field(self, 0), field(self, 1)),
            "RangeFrom" => (field(self, 0), len),
            "RangeTo" => (self.const_usize(0, span), field(self, 0)),
            "RangeFull" => (self.const_usize(0, span), len),
            "RangeInclusive" | "RangeToInclusive" => {
                let (s, e) = if lang == "RangeInclusive" {
                    (field(self, 0), field(self, 1))
                } else {
                    (self.const_usize(0, span), field(self, 0))
                };
                let max = self.const_int(i128::from(u64::MAX), IntTy::Usize, span);
                let ok = self.cmp(CmpOp::Ne, e, max, span);
                self.assert_with(ok, "attempted to index slice up to maximum usize", None, span);
                (s, self.bin(BinOp::Add, e, one, span))
            }
            _ => (self.const_usize(0, span), len),
        };
        if lang != "RangeFull" {
            if lang == "Range" || lang == "RangeInclusive" {
                let ok = self.cmp(CmpOp::Le, start, end, span);
                self.assert_with(
                    ok,
                    "slice index starts at {index} but ends at {len}",
                    Some((start, end)),
                    span,
                );
            }
            if lang == "RangeFrom" {
                let ok = self.cmp(CmpOp::Le, start, len, span);
                self.assert_with(
                    ok,
                    "range start index {index} out of range for slice of length {len}",
                    Some((start, len)),
                    span,
                );
            } else {
                let ok = self.cmp(CmpOp::Le, end, len, span);
                self.assert_with(
                    ok,
                    "range end index {index} out of range for slice of length {len}",
                    Some((end, len)),
                    span,
                );
            }
        }
        let np = self.ptr_offset(p, start, span);
        let n = self.bin(BinOp::Sub, end, start, span);
        Place::Slice(np, n)
    }

    /// A device panic with `message` unless `ok`; `{index}` and `{len}` in the message stand
    /// for the two values.
    pub fn assert_with(
        &mut self,
        ok: ValueId,
        message: &str,
        values: Option<(ValueId, ValueId)>,
        span: Span,
    ) {
        let mut operands = vec![ok];
        if let Some((a, b)) = values {
            let a = self.cast(a, Type::USIZE, span);
            let b = self.cast(b, Type::USIZE, span);
            operands.extend([a, b]);
        }
        self.op0(OpKind::Assert { message: message.to_string() }, &operands, span);
    }

    /// A device panic with `message` unless every one of `values` (pointers or `usize`s) is a
    /// multiple of `align`, a power of two. The accesses a GPU faults on when misaligned
    /// (`cp.async`, `ldmatrix`) are checked first, so that they are a panic with Rust's
    /// message and the call's location on every target, as they are on the simulator, rather
    /// than a fault that ends the GPU context, or a copy that passes where the target has no
    /// such instruction.
    pub fn assert_aligned(&mut self, values: &[ValueId], align: u64, message: &str, span: Span) {
        let mut bits = None;
        for &v in values {
            let a = self.cast(v, Type::USIZE, span);
            bits = Some(match bits {
                Some(b) => self.bin(BinOp::Or, b, a, span),
                None => a,
            });
        }
        let Some(bits) = bits else { return };
        let mask = self.const_usize(align - 1, span);
        let low = self.bin(BinOp::And, bits, mask, span);
        let zero = self.const_usize(0, span);
        let ok = self.cmp(CmpOp::Eq, low, zero, span);
        self.assert_with(ok, message, None, span);
    }

    /// A static: a table in device memory for arrays of numbers, else its value.
    fn static_place(&mut self, d: crate::items::DefId, span: Span) -> Place {
        if let Some(p) = self.table(d, span) {
            return Place::Mem(p);
        }
        let v = self.const_value(d, &Vec::new().into(), span);
        Place::Value(v)
    }

    fn const_place(&mut self, c: &crate::typeck::Callee, span: Span) -> Place {
        let resolved = crate::typeck::resolve_instance(self.tcx, c).unwrap_or_else(|| c.clone());
        if resolved.args.is_empty()
            && let Some(p) = self.table(resolved.def, span)
        {
            return Place::Mem(p);
        }
        let v = self.const_value(resolved.def, &resolved.args, span);
        Place::Value(v)
    }

    /// Reads a place's value. An aggregate's value is its memory (the consumer copies it).
    pub fn read_place(&mut self, p: &Place, ty: &Ty, span: Span) -> Operand {
        let repr = self.repr(ty, span);
        match (repr, p) {
            (_, Place::Value(v)) => v.clone(),
            (Repr::Zst, _) => Operand::Zst,
            (Repr::Never, _) => Operand::Never,
            (Repr::Scalar(_), Place::Mem(m)) => Operand::Scalar(self.load(*m, span)),
            (Repr::Scalar(_), Place::Slot(s)) => Operand::Scalar(self.read_slot(*s, span)),
            (Repr::Fat { .. }, Place::Mem(m)) => {
                let pp = self.field_ptr(*m, 0, span);
                let lp = self.field_ptr(*m, 1, span);
                Operand::Fat(self.load(pp, span), self.load(lp, span))
            }
            (Repr::Mem(_), Place::Mem(m)) => Operand::Mem(*m),
            (_, Place::Slice(p, l)) => Operand::Fat(*p, *l),
            (r, place) => {
                self.error(
                    Diagnostic::new(RK_INTERNAL, format!("reading a {r:?} from {place:?}"))
                        .at(span, "here"),
                );
                Operand::Zst
            }
        }
    }

    /// Writes a value into a place.
    pub fn write_place(&mut self, p: &Place, ty: &Ty, v: Operand, span: Span) {
        // Nothing is written by code after a diverging value, or into an unreachable place.
        if matches!(v, Operand::Never) || matches!(p, Place::Value(Operand::Never)) {
            return;
        }
        let repr = self.repr(ty, span);
        match (repr, p, v) {
            (Repr::Zst | Repr::Never, _, _) => {}
            (Repr::Scalar(_), Place::Mem(m), Operand::Scalar(x)) => self.store(x, *m, span),
            (Repr::Scalar(_), Place::Slot(s), Operand::Scalar(x)) => self.write_slot(x, *s, span),
            (Repr::Fat { .. }, Place::Mem(m), Operand::Fat(a, b)) => {
                let pp = self.field_ptr(*m, 0, span);
                let a = self.cast(a, self.ty_of(pp).pointee().cloned().unwrap_or(Type::Unit), span);
                self.store(a, pp, span);
                let lp = self.field_ptr(*m, 1, span);
                self.store(b, lp, span);
            }
            (Repr::Mem(t), Place::Mem(m), Operand::Mem(src)) => {
                if *m != src {
                    self.copy_mem(src, *m, &t, span);
                }
            }
            (Repr::Str, _, _) => {}
            (r, place, v) => {
                self.error(
                    Diagnostic::new(RK_INTERNAL, format!("writing {v:?} as {r:?} into {place:?}"))
                        .at(span, "here"),
                );
            }
        }
    }

    /// Copies a value of rk type `t` from `src` to `dst`, scalar by scalar (arrays in a loop).
    pub fn copy_mem(&mut self, src: ValueId, dst: ValueId, t: &Type, span: Span) {
        match t {
            Type::Struct { fields, .. } => {
                for (k, (_, ft)) in fields.iter().enumerate() {
                    let s = self.field_ptr(src, k as u32, span);
                    let d = self.field_ptr(dst, k as u32, span);
                    self.copy_mem(s, d, ft, span);
                }
            }
            Type::Array { elem, len } => {
                let elem = (**elem).clone();
                if *len <= 8 {
                    for i in 0..*len {
                        let iv = self.const_usize(i, span);
                        let s = self.elem_ptr(src, iv, span);
                        let d = self.elem_ptr(dst, iv, span);
                        self.copy_mem(s, d, &elem, span);
                    }
                } else {
                    let n = *len;
                    self.for_index(n, span, |me, i| {
                        let s = me.elem_ptr(src, i, span);
                        let d = me.elem_ptr(dst, i, span);
                        me.copy_mem(s, d, &elem, span);
                    });
                }
            }
            _ => {
                let v = self.load(src, span);
                self.store(v, dst, span);
            }
        }
    }

    /// `for i in 0..n { body(i) }` as an rk loop over a slot.
    pub fn for_index(&mut self, n: u64, span: Span, mut body: impl FnMut(&mut Self, ValueId)) {
        let zero = self.const_usize(0, span);
        let slot = self.slot_with(zero, span);
        let region = self.region(|me| {
            let i = me.read_slot(slot, span);
            let n = me.const_usize(n, span);
            let more = me.cmp(CmpOp::Lt, i, n, span);
            me.exit_unless(more, span);
            body(me, i);
            let one = me.const_usize(1, span);
            let next = me.bin(BinOp::Add, i, one, span);
            me.write_slot(next, slot, span);
        });
        self.push_loop(region, span);
    }

    /// A borrow of a place: its address (a slice place's pointer and length). A place that
    /// is not in memory (an SSA value, a slot) is copied into a temporary first.
    pub fn address_of(&mut self, p: &Place, ty: &Ty, mutable: bool, span: Span) -> Operand {
        let ptr = match p {
            Place::Mem(m) => *m,
            Place::Slice(a, l) => {
                let pt =
                    Type::ptr(mutable, self.ty_of(*a).pointee().cloned().unwrap_or(Type::Unit));
                return Operand::Fat(self.cast(*a, pt, span), *l);
            }
            Place::Slot(s) => {
                let v = self.read_slot(*s, span);
                let t = self.ty_of(v);
                let m = self.local(t, span);
                self.store(v, m, span);
                m
            }
            Place::Value(Operand::Mem(m)) => *m,
            Place::Value(Operand::Never) => return Operand::Never,
            Place::Value(v) => {
                let v = v.clone();
                match self.repr(ty, span) {
                    Repr::Zst => {
                        let t = Type::Int(IntTy::U8);
                        self.local(t, span)
                    }
                    _ => {
                        let t = self.mem_type(ty, span);
                        let m = self.local(t, span);
                        self.write_place(&Place::Mem(m), ty, v, span);
                        m
                    }
                }
            }
        };
        let pointee = self.ty_of(ptr).pointee().cloned().unwrap_or(Type::Unit);
        Operand::Scalar(self.cast(ptr, Type::ptr(mutable, pointee), span))
    }

    /// Puts an operand in memory and returns its address.
    pub fn spill(&mut self, v: Operand, ty: &Ty, span: Span) -> ValueId {
        match v {
            Operand::Mem(m) => m,
            other => {
                let t = self.mem_type(ty, span);
                let m = self.temp(t, span);
                self.write_place(&Place::Mem(m), ty, other, span);
                m
            }
        }
    }

    /// A copy of an operand that the receiver may change: aggregates get fresh memory.
    /// A value that later evaluation cannot change: memory nothing writes (`stable`) as it
    /// is, anything else as `owned` makes it. For values read again later (the elements of an
    /// aggregate being built, a call's arguments), never for memory the consumer may adopt and
    /// write.
    pub fn owned_or_stable(&mut self, v: Operand, ty: &Ty, span: Span) -> Operand {
        match v {
            Operand::Mem(m) if self.stable.contains(&m) => v,
            v => self.owned(v, ty, span),
        }
    }

    pub fn owned(&mut self, v: Operand, ty: &Ty, span: Span) -> Operand {
        match v {
            Operand::Mem(src) if self.is_fresh(src) => Operand::Mem(src),
            Operand::Mem(src) => {
                let t = self.mem_type(ty, span);
                let m = self.temp(t.clone(), span);
                self.copy_mem(src, m, &t, span);
                Operand::Mem(m)
            }
            other => other,
        }
    }
}
