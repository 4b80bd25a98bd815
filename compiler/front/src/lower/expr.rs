//! Expressions and statements: literals, operators, casts, aggregates, blocks, `if`, loops,
//! `break`/`continue`/`return`, closures' environments, `?`.

use super::layout::Repr;
use super::*;
use crate::hir::{BinOp as HBin, Lit, Stmt, UnOp};
use crate::ty::Const;

impl<'m, 'c, 't, 'a> FnLowerer<'m, 'c, 't, 'a> {
    /// An expression's own value, before adjustments.
    pub fn rvalue(&mut self, e: ExprId) -> Operand {
        let span = self.span(e);
        if self.terminated() {
            return Operand::Never;
        }
        let body = self.body.clone();
        let ty = self.expr_ty(e);
        match &body.expr(e).kind {
            ExprKind::Err => Operand::Never,
            ExprKind::Lit(lit) => self.literal(lit, &ty, span),
            ExprKind::Path(_) => self.path_value(e, &ty, span),
            ExprKind::Call(callee, args) => self.call_expr(e, *callee, args, span),
            ExprKind::MethodCall { receiver, args, .. } => {
                self.method_call(e, *receiver, args, span)
            }
            ExprKind::Binary(op, l, r) => self.binary(e, *op, *l, *r, &ty, span),
            ExprKind::AssignOp(op, l, r) => {
                self.assign_op(e, *op, *l, *r, span);
                Operand::Zst
            }
            ExprKind::Assign(l, r) => {
                // The value first, then the place, as Rust evaluates them.
                let v = self.operand(*r);
                let v = self.owned(v, &self.adjusted_ty(*r), span);
                let p = self.place(*l, true);
                let lt = self.adjusted_ty(*l);
                self.write_place(&p, &lt, v, span);
                Operand::Zst
            }
            ExprKind::Unary(op, inner) => self.unary(e, *op, *inner, &ty, span),
            ExprKind::Ref(m, inner) => {
                let p = self.place(*inner, *m);
                let it = self.adjusted_ty(*inner);
                self.address_of(&p, &it, *m, span)
            }
            ExprKind::RawRef(m, inner) => {
                let p = self.place(*inner, *m);
                let it = self.adjusted_ty(*inner);
                self.address_of(&p, &it, *m, span)
            }
            ExprKind::Cast(inner, _) => self.cast_expr(*inner, &ty, span),
            ExprKind::Field(..) | ExprKind::Index(..) => {
                let p = self.place_unadjusted(e, false);
                self.read_place(&p, &ty, span)
            }
            ExprKind::Tuple(elems) => {
                if elems.is_empty() {
                    return Operand::Zst;
                }
                // Each element is evaluated into memory of its own before the next, as Rust
                // evaluates them.
                let vals: Vec<(Operand, Ty)> = elems
                    .iter()
                    .map(|x| {
                        let (v, t) = (self.operand(*x), self.adjusted_ty(*x));
                        (self.owned_or_stable(v, &t, span), t)
                    })
                    .collect();
                self.build_struct(&ty, vals, span)
            }
            ExprKind::Array(elems) => {
                let vals: Vec<(Operand, Ty)> = elems
                    .iter()
                    .map(|x| {
                        let (v, t) = (self.operand(*x), self.adjusted_ty(*x));
                        (self.owned_or_stable(v, &t, span), t)
                    })
                    .collect();
                self.build_array(&ty, vals, span)
            }
            ExprKind::Repeat(x, _, _) => {
                let v = self.operand(*x);
                let et = self.adjusted_ty(*x);
                self.build_repeat(&ty, v, &et, span)
            }
            ExprKind::Struct { fields, base, .. } => self.struct_lit(e, fields, *base, &ty, span),
            ExprKind::Block(b) => self.block(e, b, &ty, span),
            ExprKind::If(cond, then, els) => self.if_expr(*cond, *then, *els, &ty, span),
            ExprKind::Let(..) => {
                // A `let` used as a value outside `if`/`while` (`x && let ..` is an `if`
                // condition, lowered there).
                let v = self.condition(e);
                Operand::Scalar(v)
            }
            ExprKind::Match(scrutinee, arms) => self.match_expr(e, *scrutinee, arms, &ty, span),
            ExprKind::Loop { body: b, .. } => self.loop_expr(e, *b, &ty, span),
            ExprKind::While { cond, body: b, .. } => {
                self.while_expr(e, *cond, *b, span);
                Operand::Zst
            }
            ExprKind::For { pat, iter, body: b, .. } => {
                self.for_expr(e, *pat, *iter, *b, span);
                Operand::Zst
            }
            ExprKind::Break { target, value } => {
                if let Some(v) = value {
                    let val = self.operand(*v);
                    let frame = self.loops.iter().rev().find(|f| f.expr == *target).cloned();
                    if let Some(LoopFrame { result: Some((place, rty)), .. }) = frame {
                        let val = self.owned(val, &rty, span);
                        self.write_place(&place, &rty, val, span);
                    }
                }
                self.break_to(*target, span);
                Operand::Never
            }
            ExprKind::Continue { target } => {
                self.continue_to(*target, span);
                Operand::Never
            }
            ExprKind::Return(v) => {
                let val = match v {
                    Some(v) => self.operand(*v),
                    None => Operand::Zst,
                };
                self.emit_return(val, span);
                Operand::Never
            }
            ExprKind::Closure { .. } => self.closure_value(e, &ty, span),
            ExprKind::Range { start, end, .. } => {
                let mut vals = Vec::new();
                for x in [start, end].into_iter().flatten() {
                    vals.push((self.operand(*x), self.adjusted_ty(*x)));
                }
                if matches!(ty.kind(), TyKind::Adt(d, _) if self.tcx.items.def(*d).lang.as_deref() == Some("RangeInclusive"))
                {
                    let f = self.const_bool(false, span);
                    vals.push((Operand::Scalar(f), Ty::bool()));
                }
                self.build_struct(&ty, vals, span)
            }
            ExprKind::Panic { text, args, fallback } => {
                let mut vals = Vec::new();
                let mut signed = Vec::new();
                let mut all_integers = true;
                for a in args {
                    let t = self.adjusted_ty(*a);
                    all_integers &=
                        t.is_integral() || matches!(t.kind(), TyKind::Bool | TyKind::Char);
                    signed.push(matches!(t.kind(), TyKind::Int(i) if i.is_signed()));
                    if let Operand::Scalar(v) = self.operand(*a) {
                        vals.push(v);
                    }
                }
                let f = self.const_bool(false, span);
                if !all_integers || vals.len() != args.len() {
                    let message = fallback.clone().unwrap_or_else(|| text.replace(['\u{1}'], ""));
                    self.assert_with(f, &message, None, span);
                    return Operand::Never;
                }
                // The record carries two `usize`s: `{index}` shows the first, `{len}` the
                // second, `{-index}`/`{-len}` as signed numbers.
                let names = ["index", "len"];
                let mut message = text.clone();
                for (k, s) in signed.iter().enumerate() {
                    let ph =
                        if *s { format!("{{-{}}}", names[k]) } else { format!("{{{}}}", names[k]) };
                    message = message.replace(&format!("\u{1}{k}"), &ph);
                }
                let mut v: Vec<ValueId> = vals
                    .iter()
                    .map(|x| {
                        let t = self.ty_of(*x);
                        let wide = if matches!(&t, Type::Int(i) if i.is_signed()) {
                            self.cast(*x, Type::Int(IntTy::I64), span)
                        } else {
                            *x
                        };
                        self.cast(wide, Type::USIZE, span)
                    })
                    .collect();
                while v.len() < 2 && !v.is_empty() {
                    v.push(self.const_usize(0, span));
                }
                let pair = if v.is_empty() { None } else { Some((v[0], v[1])) };
                self.assert_with(f, &message, pair, span);
                Operand::Never
            }
            ExprKind::Print { format, args, stderr } => {
                let mut vals = Vec::new();
                let mut kinds = Vec::new();
                for a in args {
                    let mut ty = self.adjusted_ty(*a);
                    let mut v = self.operand(*a);
                    // `println!` shows `&x` as `x`: read through the references.
                    while let TyKind::Ref(inner, _) = ty.kind() {
                        let inner = inner.clone();
                        let place = self.deref_operand(v, &inner);
                        v = self.read_place(&place, &inner, span);
                        ty = inner;
                    }
                    let (Some(kind), Operand::Scalar(x)) = (ty.print_kind(), v) else {
                        // The checker refused it, or the value never arrives.
                        return Operand::Never;
                    };
                    kinds.push(kind);
                    vals.push(x);
                }
                self.op0(
                    OpKind::Print { format: format.clone(), kinds, stderr: *stderr },
                    &vals,
                    span,
                );
                Operand::Zst
            }
            ExprKind::Try(inner) => self.try_expr(e, *inner, &ty, span),
        }
    }

    fn literal(&mut self, lit: &Lit, ty: &Ty, span: Span) -> Operand {
        match (lit, ty.kind()) {
            (Lit::Int(v, _), TyKind::Int(t)) => {
                Operand::Scalar(self.const_int(*v as i128, *t, span))
            }
            (Lit::Int(v, _), TyKind::Float(f)) => {
                Operand::Scalar(self.const_float(*v as f64, *f, span))
            }
            (Lit::Float(x, _), TyKind::Float(f)) => Operand::Scalar(self.const_float(*x, *f, span)),
            (Lit::Bool(b), _) => Operand::Scalar(self.const_bool(*b, span)),
            (Lit::Char(c), _) => {
                Operand::Scalar(self.const_int(i128::from(u32::from(*c)), IntTy::U32, span))
            }
            (Lit::Str(s), _) => Operand::Str(s.clone()),
            _ => {
                self.error(
                    Diagnostic::new(
                        RK_INTERNAL,
                        format!("a literal of type `{}`", self.tcx.show(ty)),
                    )
                    .at(span, "here"),
                );
                Operand::Never
            }
        }
    }

    fn path_value(&mut self, e: ExprId, ty: &Ty, span: Span) -> Operand {
        match self.r.paths.get(&e).cloned() {
            Some(ValueRes::Local(l)) => {
                let p = self.local_place(l, span);
                self.read_place(&p, ty, span)
            }
            Some(ValueRes::Static(_) | ValueRes::Const(_)) => {
                let p = self.place_unadjusted(e, false);
                self.read_place(&p, ty, span)
            }
            Some(ValueRes::Fn(_)) => Operand::Zst,
            Some(ValueRes::ConstParam(v)) => match self.repr(ty, span) {
                Repr::Scalar(Type::Int(t)) => {
                    Operand::Scalar(self.const_int(i128::from(v), t, span))
                }
                Repr::Scalar(Type::Bool) => Operand::Scalar(self.const_bool(v != 0, span)),
                _ => Operand::Zst,
            },
            Some(ValueRes::Ctor { def, args }) => {
                if matches!(ty.kind(), TyKind::FnDef(..)) {
                    Operand::Zst
                } else {
                    self.construct(def, &args, Vec::new(), span)
                }
            }
            None => Operand::Never,
        }
    }

    fn binary(
        &mut self,
        e: ExprId,
        op: HBin,
        l: ExprId,
        r: ExprId,
        ty: &Ty,
        span: Span,
    ) -> Operand {
        if op.is_lazy() {
            let a = match self.operand(l) {
                Operand::Scalar(a) => a,
                _ => return Operand::Never,
            };
            let out = self.if_yield(
                a,
                &[Type::Bool],
                span,
                |me| {
                    if op == HBin::And {
                        match me.operand(r) {
                            Operand::Scalar(b) => vec![b],
                            _ => vec![],
                        }
                    } else {
                        vec![me.const_bool(true, span)]
                    }
                },
                |me| {
                    if op == HBin::Or {
                        match me.operand(r) {
                            Operand::Scalar(b) => vec![b],
                            _ => vec![],
                        }
                    } else {
                        vec![me.const_bool(false, span)]
                    }
                },
            );
            return Operand::Scalar(out[0]);
        }
        if let Some(callee) = self.r.callees.get(&e).cloned() {
            // `a op b` through the operator trait; comparisons borrow their operands, which
            // may be unsized places (`*s == *t` on slices).
            let (lt, rt) = (self.adjusted_ty(l), self.adjusted_ty(r));
            if op.is_comparison() {
                let pl = self.place(l, false);
                let pa = self.address_of(&pl, &lt, false, span);
                let pr = self.place(r, false);
                let pb = self.address_of(&pr, &rt, false, span);
                let out = self.call_callee(&callee, vec![pa, pb], &Ty::bool(), span);
                return out;
            }
            let (a, b) = (self.operand(l), self.operand(r));
            let a = self.owned(a, &lt, span);
            let b = self.owned(b, &rt, span);
            return self.call_callee(&callee, vec![a, b], ty, span);
        }
        let (a, b) = match (self.operand(l), self.operand(r)) {
            (Operand::Scalar(a), Operand::Scalar(b)) => (a, b),
            _ => return Operand::Never,
        };
        let lt = self.adjusted_ty(l);
        Operand::Scalar(self.scalar_binary(op, a, b, &lt, span))
    }

    /// A built-in binary operator on scalars.
    pub fn scalar_binary(
        &mut self,
        op: HBin,
        a: ValueId,
        b: ValueId,
        lt: &Ty,
        span: Span,
    ) -> ValueId {
        // Raw pointers compare by address.
        let (a, b) = if matches!(lt.kind(), TyKind::Ptr(..)) {
            (self.cast(a, Type::USIZE, span), self.cast(b, Type::USIZE, span))
        } else {
            (a, b)
        };
        let cmp = |op| Some(OpKind::Cmp(op));
        let kind = match op {
            HBin::Add => Some(OpKind::Binary(BinOp::Add)),
            HBin::Sub => Some(OpKind::Binary(BinOp::Sub)),
            HBin::Mul => Some(OpKind::Binary(BinOp::Mul)),
            HBin::Div => Some(OpKind::Binary(BinOp::Div)),
            HBin::Rem => Some(OpKind::Binary(BinOp::Rem)),
            HBin::BitAnd => Some(OpKind::Binary(BinOp::And)),
            HBin::BitOr => Some(OpKind::Binary(BinOp::Or)),
            HBin::BitXor => Some(OpKind::Binary(BinOp::Xor)),
            HBin::Shl => Some(OpKind::Binary(BinOp::Shl)),
            HBin::Shr => Some(OpKind::Binary(BinOp::Shr)),
            HBin::Eq => cmp(CmpOp::Eq),
            HBin::Ne => cmp(CmpOp::Ne),
            HBin::Lt => cmp(CmpOp::Lt),
            HBin::Le => cmp(CmpOp::Le),
            HBin::Gt => cmp(CmpOp::Gt),
            HBin::Ge => cmp(CmpOp::Ge),
            HBin::And | HBin::Or => None,
        };
        let Some(kind) = kind else { return a };
        let t = if matches!(kind, OpKind::Cmp(_)) { Type::Bool } else { self.ty_of(a) };
        self.op1(kind, &[a, b], t, span)
    }

    fn assign_op(&mut self, e: ExprId, op: HBin, l: ExprId, r: ExprId, span: Span) {
        if let Some(callee) = self.r.callees.get(&e).cloned() {
            // `AddAssign::add_assign(&mut a, b)`: the place first.
            let p = self.place(l, true);
            let lt = self.adjusted_ty(l);
            let pa = self.address_of(&p, &lt, true, span);
            let b = self.operand(r);
            let b = self.owned(b, &self.adjusted_ty(r), span);
            self.call_callee(&callee, vec![pa.clone(), b], &Ty::unit(), span);
            self.write_back(&p, &lt, pa, span);
            return;
        }
        // Primitive operands: the value first, then the place.
        let b = match self.operand(r) {
            Operand::Scalar(b) => b,
            _ => return,
        };
        let p = self.place(l, true);
        let lt = self.adjusted_ty(l);
        let a = match self.read_place(&p, &lt, span) {
            Operand::Scalar(a) => a,
            _ => return,
        };
        let v = self.scalar_binary(op, a, b, &lt, span);
        self.write_place(&p, &lt, Operand::Scalar(v), span);
    }

    /// After a `&mut` borrow of a place that is not memory (a slot) was lent as a temporary,
    /// the temporary's new value goes back to the place.
    pub fn write_back(&mut self, p: &Place, ty: &Ty, borrowed: Operand, span: Span) {
        if let (Place::Slot(_), Operand::Scalar(ptr)) = (p, borrowed) {
            let v = self.load(ptr, span);
            self.write_place(p, ty, Operand::Scalar(v), span);
        }
    }

    fn unary(&mut self, e: ExprId, op: UnOp, inner: ExprId, ty: &Ty, span: Span) -> Operand {
        match op {
            UnOp::Deref => {
                let p = self.place_unadjusted(e, false);
                self.read_place(&p, ty, span)
            }
            UnOp::Neg | UnOp::Not => {
                if let Some(callee) = self.r.callees.get(&e).cloned() {
                    let v = self.operand(inner);
                    let v = self.owned(v, &self.adjusted_ty(inner), span);
                    return self.call_callee(&callee, vec![v], ty, span);
                }
                let Operand::Scalar(v) = self.operand(inner) else { return Operand::Never };
                let kind = if op == UnOp::Neg { OpKind::Neg } else { OpKind::Not };
                let t = self.ty_of(v);
                Operand::Scalar(self.op1(kind, &[v], t, span))
            }
        }
    }

    fn cast_expr(&mut self, inner: ExprId, to: &Ty, span: Span) -> Operand {
        let from = self.adjusted_ty(inner);
        let v = self.operand(inner);
        let target = match self.repr(to, span) {
            Repr::Scalar(t) => t,
            Repr::Fat { ptr } => {
                // A slice pointer to a slice pointer (`*const [T]` as `*mut [T]`).
                return match v {
                    Operand::Fat(p, l) => Operand::Fat(self.cast(p, ptr, span), l),
                    other => other,
                };
            }
            _ => return v,
        };
        let x = match v {
            Operand::Scalar(x) => x,
            Operand::Fat(p, _) => p,
            Operand::Never => return Operand::Never,
            _ => return Operand::Never,
        };
        // `u8 as char`: a `u8` widened to the `u32` a char is.
        if matches!(to.kind(), TyKind::Char) {
            return Operand::Scalar(self.cast(x, Type::U32, span));
        }
        let _ = from;
        // Integers and pointers convert through `usize`, as rustc's code generation does:
        // `0 as *const T` (an `i32` literal, sign-extended), `p as u32` (truncated). rk casts
        // pointers to and from 64-bit integers only.
        let source = self.ty_of(x);
        let narrow = |t: &Type| matches!(t, Type::Int(i) if i.bits() != 64);
        let pointer = |t: &Type| matches!(t, Type::Ptr { .. });
        if (narrow(&source) && pointer(&target)) || (pointer(&source) && narrow(&target)) {
            let wide = self.cast(x, Type::USIZE, span);
            return Operand::Scalar(self.cast(wide, target, span));
        }
        Operand::Scalar(self.cast(x, target, span))
    }

    /// A struct or tuple value from its fields' values, in a fresh local.
    pub fn build_struct(&mut self, ty: &Ty, vals: Vec<(Operand, Ty)>, span: Span) -> Operand {
        let repr = self.repr(ty, span);
        let Repr::Mem(t) = repr else { return Operand::Zst };
        let m = self.temp(t, span);
        self.fill_struct(m, ty, vals, span);
        Operand::Mem(m)
    }

    fn fill_struct(&mut self, m: ValueId, ty: &Ty, vals: Vec<(Operand, Ty)>, span: Span) {
        let Ok(layout) = self.mono.layouts.layout(self.tcx, ty) else { return };
        for (k, (v, vt)) in vals.into_iter().enumerate() {
            if let Some(f) = layout.fields.get(k).copied().flatten() {
                let fp = self.field_ptr(m, f, span);
                self.write_place(&Place::Mem(fp), &vt, v, span);
            }
        }
    }

    fn build_array(&mut self, ty: &Ty, vals: Vec<(Operand, Ty)>, span: Span) -> Operand {
        let Repr::Mem(t) = self.repr(ty, span) else { return Operand::Zst };
        let m = self.temp(t, span);
        for (k, (v, vt)) in vals.into_iter().enumerate() {
            let i = self.const_usize(k as u64, span);
            let p = self.elem_ptr(m, i, span);
            self.write_place(&Place::Mem(p), &vt, v, span);
        }
        Operand::Mem(m)
    }

    fn build_repeat(&mut self, ty: &Ty, v: Operand, et: &Ty, span: Span) -> Operand {
        let Repr::Mem(t) = self.repr(ty, span) else { return Operand::Zst };
        let n = match ty.kind() {
            TyKind::Array(_, Const::Value(n)) => *n,
            _ => 0,
        };
        let m = self.temp(t, span);
        let et = et.clone();
        if n <= 8 {
            for k in 0..n {
                let i = self.const_usize(k, span);
                let p = self.elem_ptr(m, i, span);
                self.write_place(&Place::Mem(p), &et, v.clone(), span);
            }
        } else {
            self.for_index(n, span, |me, i| {
                let p = me.elem_ptr(m, i, span);
                me.write_place(&Place::Mem(p), &et, v.clone(), span);
            });
        }
        Operand::Mem(m)
    }

    fn struct_lit(
        &mut self,
        e: ExprId,
        fields: &[(String, ExprId, Span)],
        base: Option<ExprId>,
        ty: &Ty,
        span: Span,
    ) -> Operand {
        let Some((def, args)) = self.r.variants.get(&e).cloned() else { return Operand::Never };
        let defs = self.tcx.items.fields(def).to_vec();
        let ftys: Vec<Ty> = self
            .tcx
            .field_tys(def)
            .iter()
            .map(|t| crate::typeck::normalize_in_layout(self.tcx, &t.subst(&args)))
            .collect();
        // Field values in the order written (Rust evaluates them so), then the base's.
        let mut vals: Vec<Option<Operand>> = vec![None; defs.len()];
        for (name, x, _) in fields {
            let v = self.operand(*x);
            if let Some(k) = defs.iter().position(|f| f.name == *name) {
                vals[k] = Some(self.owned_or_stable(v, &ftys[k], span));
            }
        }
        let base_place = base.map(|b| {
            let v = self.operand(b);
            let bt = self.adjusted_ty(b);
            (self.spill(v, &bt, span), bt)
        });
        let mut all = Vec::new();
        for (k, v) in vals.into_iter().enumerate() {
            let v = match (v, &base_place) {
                (Some(v), _) => v,
                (None, Some((bp, bt))) => {
                    let fp = self.field_place(&Place::Mem(*bp), bt, k as u32, span);
                    self.read_place(&fp, &ftys[k], span)
                }
                (None, None) => Operand::Zst,
            };
            all.push(v);
        }
        self.construct(def, &args, all, span).or_ty(ty)
    }

    /// A struct or enum variant value from its fields' values.
    pub fn construct(
        &mut self,
        def: crate::items::DefId,
        args: &[crate::ty::GenericArg],
        vals: Vec<Operand>,
        span: Span,
    ) -> Operand {
        let items = self.tcx.items;
        let adt = items.variant_parent(def).map(|(p, _)| p).unwrap_or(def);
        let ty = Ty::new(TyKind::Adt(adt, args.to_vec().into()));
        let ftys: Vec<Ty> = self
            .tcx
            .field_tys(def)
            .iter()
            .map(|t| crate::typeck::normalize_in_layout(self.tcx, &t.subst(args)))
            .collect();
        let Some((_, vindex)) = items.variant_parent(def) else {
            let vals = vals.into_iter().zip(ftys).collect();
            return self.build_struct(&ty, vals, span);
        };
        let Ok(layout) = self.mono.layouts.layout(self.tcx, &ty) else {
            let _ = self.repr(&ty, span);
            return Operand::Never;
        };
        let Some(vl) = layout.variants.get(vindex as usize).cloned() else { return Operand::Never };
        let tag_ty = layout.tag.unwrap_or(IntTy::U32);
        if layout.fieldless {
            return Operand::Scalar(self.const_int(vl.discriminant, tag_ty, span));
        }
        let Repr::Mem(t) = self.repr(&ty, span) else { return Operand::Zst };
        let m = self.temp(t, span);
        let tag = self.const_int(vl.discriminant, tag_ty, span);
        let tp = self.field_ptr(m, 0, span);
        self.store(tag, tp, span);
        if !vl.fields.iter().all(Option::is_none) {
            let vp = self.variant_ptr(m, &vl.ty, span);
            for ((v, ft), f) in vals.into_iter().zip(ftys).zip(&vl.fields) {
                if let Some(f) = f {
                    let fp = self.field_ptr(vp, *f, span);
                    self.write_place(&Place::Mem(fp), &ft, v, span);
                }
            }
        }
        Operand::Mem(m)
    }

    /// The address of an enum value's variant fields (its union, as the variant's struct).
    pub fn variant_ptr(&mut self, enum_ptr: ValueId, variant_ty: &Type, span: Span) -> ValueId {
        let mutable = matches!(self.ty_of(enum_ptr), Type::Ptr { mutable: true, .. });
        let payload = self.field_ptr(enum_ptr, 1, span);
        self.cast(payload, Type::ptr(mutable, variant_ty.clone()), span)
    }

    pub fn block(&mut self, _e: ExprId, b: &crate::hir::Block<'a>, ty: &Ty, span: Span) -> Operand {
        if let Some(_label) = &b.label {
            // A labelled block is a loop that runs once: `break 'a v` leaves it.
            return self.labelled_block(_e, b, ty, span);
        }
        self.block_inner(b)
    }

    fn block_inner(&mut self, b: &crate::hir::Block<'a>) -> Operand {
        for s in &b.stmts {
            self.stmt(s);
        }
        match b.tail {
            Some(t) => self.operand(t),
            None if self.terminated() => Operand::Never,
            None => Operand::Zst,
        }
    }

    fn labelled_block(
        &mut self,
        e: ExprId,
        b: &crate::hir::Block<'a>,
        ty: &Ty,
        span: Span,
    ) -> Operand {
        let result = self.result_place(ty, span);
        self.loops.push(LoopFrame { expr: e, result: result.clone().map(|p| (p, ty.clone())) });
        let region = self.region(|me| {
            let v = me.block_inner(b);
            if let Some(p) = &result {
                let v = me.owned(v, ty, span);
                me.write_place(p, ty, v, span);
            }
            me.op0(OpKind::Break { depth: 0 }, &[], span);
        });
        self.loops.pop();
        self.push_loop(region, span);
        self.read_result(result, ty, span)
    }

    /// Storage for a value that several paths write (loop results, labelled blocks).
    pub fn result_place(&mut self, ty: &Ty, span: Span) -> Option<Place> {
        match self.repr(ty, span) {
            Repr::Zst | Repr::Never | Repr::Str => None,
            Repr::Scalar(t) => {
                let d = self.dummy(&t, span);
                Some(Place::Slot(self.slot_with(d, span)))
            }
            _ => {
                let t = self.mem_type(ty, span);
                Some(Place::Mem(self.temp(t, span)))
            }
        }
    }

    pub fn read_result(&mut self, p: Option<Place>, ty: &Ty, span: Span) -> Operand {
        match p {
            Some(p) => self.read_place(&p, ty, span),
            None if ty.is_never() => Operand::Never,
            None => Operand::Zst,
        }
    }

    pub fn stmt(&mut self, s: &Stmt<'a>) {
        match s {
            Stmt::Expr { expr, .. } => {
                let _ = self.operand(*expr);
            }
            Stmt::Let { pat, init, els, span, .. } => {
                let span = *span;
                match (init, els) {
                    (None, _) => {
                        let mut bound = Vec::new();
                        self.body.pat_bindings(*pat, &mut bound);
                        for l in bound {
                            self.declare_local(l, span);
                        }
                    }
                    (Some(init), None) => {
                        let it = self.adjusted_ty(*init);
                        // A simple `let x = e;` binds the value; patterns take it apart.
                        if let PatKind::Binding { local, by_ref: None, sub: None } =
                            self.body.pat(*pat).kind
                            && !self.r.pat_derefs.contains_key(pat)
                        {
                            let v = self.operand(*init);
                            self.init_local(local, v, span);
                        } else {
                            let p = self.scrutinee_place(*init);
                            self.bind_pattern(*pat, &p, &it, span);
                        }
                    }
                    (Some(init), Some(els)) => {
                        let it = self.adjusted_ty(*init);
                        let p = self.scrutinee_place(*init);
                        let ok = self.pattern_test(*pat, &p, &it, span);
                        let els = *els;
                        if let Some(ok) = ok {
                            let fail = self.not(ok, span);
                            self.if_then_else(
                                fail,
                                span,
                                |me| {
                                    let _ = me.operand(els);
                                },
                                |_| {},
                            );
                        }
                        self.bind_pattern(*pat, &p, &it, span);
                    }
                }
            }
        }
    }

    fn if_expr(
        &mut self,
        cond: ExprId,
        then: ExprId,
        els: Option<ExprId>,
        ty: &Ty,
        span: Span,
    ) -> Operand {
        if self.has_let(cond) {
            return self.if_let_chain(cond, then, els, ty, span);
        }
        let c = match self.operand(cond) {
            Operand::Scalar(c) => c,
            _ => return Operand::Never,
        };
        self.branch(
            c,
            ty,
            span,
            |me| me.operand(then),
            |me| match els {
                Some(x) => me.operand(x),
                None => Operand::Zst,
            },
        )
    }

    /// Two-armed control flow with a value: scalars and slices through `rk.if` results,
    /// aggregates through a local both arms write.
    pub fn branch(
        &mut self,
        c: ValueId,
        ty: &Ty,
        span: Span,
        then: impl FnOnce(&mut Self) -> Operand,
        els: impl FnOnce(&mut Self) -> Operand,
    ) -> Operand {
        match self.repr(ty, span) {
            Repr::Scalar(t) => {
                let r = self.if_yield(c, &[t], span, |me| scalars(then(me)), |me| scalars(els(me)));
                Operand::Scalar(r[0])
            }
            Repr::Fat { ptr } => {
                let r = self.if_yield(
                    c,
                    &[ptr, Type::USIZE],
                    span,
                    |me| scalars(then(me)),
                    |me| scalars(els(me)),
                );
                Operand::Fat(r[0], r[1])
            }
            Repr::Mem(t) => {
                let m = self.temp(t, span);
                let ty2 = ty.clone();
                self.if_then_else(
                    c,
                    span,
                    |me| {
                        let v = then(me);
                        me.write_place(&Place::Mem(m), &ty2, v, span);
                    },
                    |me| {
                        let v = els(me);
                        me.write_place(&Place::Mem(m), &ty2, v, span);
                    },
                );
                Operand::Mem(m)
            }
            Repr::Str => {
                // Strings are compile-time values: both arms must be the same string.
                let a = self.region(|_| {});
                let _ = a;
                let (mut x, mut y) = (Operand::Zst, Operand::Zst);
                self.if_then_else(c, span, |me| x = then(me), |me| y = els(me));
                if x == y { x } else { Operand::Str(String::new()) }
            }
            Repr::Zst | Repr::Never => {
                self.if_then_else(
                    c,
                    span,
                    |me| {
                        let _ = then(me);
                    },
                    |me| {
                        let _ = els(me);
                    },
                );
                if ty.is_never() { Operand::Never } else { Operand::Zst }
            }
        }
    }

    fn loop_expr(&mut self, e: ExprId, b: ExprId, ty: &Ty, span: Span) -> Operand {
        let result = self.result_place(ty, span);
        self.loops.push(LoopFrame { expr: e, result: result.clone().map(|p| (p, ty.clone())) });
        let region = self.region(|me| {
            let _ = me.operand(b);
        });
        self.loops.pop();
        self.push_loop(region, span);
        if ty.is_never() {
            // `loop {}` without `break`: what follows is unreachable, but rk regions continue;
            // a value is never needed.
            return Operand::Never;
        }
        self.read_result(result, ty, span)
    }

    fn while_expr(&mut self, e: ExprId, cond: ExprId, b: ExprId, span: Span) {
        self.loops.push(LoopFrame { expr: e, result: None });
        let region = self.region(|me| {
            if me.has_let(cond) {
                // `while let`: the body runs inside the matched branch.
                me.let_chain(
                    cond,
                    span,
                    &mut |me| {
                        let _ = me.operand(b);
                    },
                    &mut |me| me.op0(OpKind::Break { depth: 0 }, &[], span),
                );
            } else {
                let Operand::Scalar(c) = me.operand(cond) else { return };
                me.exit_unless(c, span);
                let _ = me.operand(b);
            }
        });
        self.loops.pop();
        self.push_loop(region, span);
    }

    fn closure_value(&mut self, e: ExprId, ty: &Ty, span: Span) -> Operand {
        let Some(id) = self.r.closures.get(&e).copied() else { return Operand::Zst };
        let data = self.tcx.closure(id);
        let Repr::Mem(t) = self.repr(ty, span) else { return Operand::Zst };
        let m = self.temp(t, span);
        let Ok(layout) = self.mono.layouts.layout(self.tcx, ty) else { return Operand::Zst };
        for (k, (l, lt)) in data.captures.iter().enumerate() {
            let Some(f) = layout.fields.get(k).copied().flatten() else { continue };
            let fp = self.field_ptr(m, f, span);
            let place = self.local_place(*l, span);
            if data.by_value {
                let v = self.read_place(&place, lt, span);
                self.write_place(&Place::Mem(fp), lt, v, span);
            } else {
                let a = self.address_of(&place, lt, true, span);
                if let Operand::Scalar(a) = a {
                    let a =
                        self.cast(a, self.ty_of(fp).pointee().cloned().unwrap_or(Type::Unit), span);
                    self.store(a, fp, span);
                }
            }
        }
        Operand::Mem(m)
    }

    fn try_expr(&mut self, e: ExprId, inner: ExprId, ty: &Ty, span: Span) -> Operand {
        let Some(info) = self.r.tries.get(&e).cloned() else { return Operand::Never };
        let it = self.adjusted_ty(inner);
        let v = self.operand(inner);
        let m = self.spill(v, &it, span);
        let TyKind::Adt(adt, args) = it.kind() else { return Operand::Never };
        let (adt, args) = (*adt, args.clone());
        let Ok(layout) = self.mono.layouts.layout(self.tcx, &it) else { return Operand::Never };
        let variants = match &self.tcx.items.def(adt).kind {
            crate::items::DefKind::Enum { variants, .. } => variants.clone(),
            _ => return Operand::Never,
        };
        // `Option`: `Some(v)` continues with `v`. `Result`: `Ok(v)` continues with `v`.
        let (good, bad) = if info.is_option { (1usize, 0usize) } else { (0, 1) };
        let tag_ty = layout.tag.unwrap_or(IntTy::U32);
        let tp = self.field_ptr(m, 0, span);
        let tag = self.load(tp, span);
        let good_d = self.const_int(layout.variants[good].discriminant, tag_ty, span);
        let is_good = self.cmp(CmpOp::Eq, tag, good_d, span);
        let ret_ty = self.ret_ty.clone();
        let bad_def = variants[bad];
        let failed = self.not(is_good, span);
        let info2 = info.clone();
        self.if_then_else(
            failed,
            span,
            |me| {
                let out = if info2.is_option {
                    let TyKind::Adt(_, rargs) = ret_ty.kind() else { return };
                    me.construct(bad_def, rargs, Vec::new(), span)
                } else {
                    let err_ty = args
                        .get(1)
                        .and_then(crate::ty::GenericArg::ty)
                        .cloned()
                        .unwrap_or_else(Ty::error);
                    let vl = layout.variants[bad].clone();
                    // A zero-sized error has no payload to point at.
                    let err = match vl.fields.first().copied().flatten() {
                        Some(f) => {
                            let vp = me.variant_ptr(m, &vl.ty, span);
                            let fp = me.field_ptr(vp, f, span);
                            me.read_place(&Place::Mem(fp), &err_ty, span)
                        }
                        None => Operand::Zst,
                    };
                    let TyKind::Adt(_, rargs) = ret_ty.kind() else { return };
                    let rargs = rargs.clone();
                    let target_err = rargs
                        .get(1)
                        .and_then(crate::ty::GenericArg::ty)
                        .cloned()
                        .unwrap_or_else(Ty::error);
                    let err = match &info2.from {
                        Some(from) => {
                            let err = me.owned(err, &err_ty, span);
                            me.call_callee(from, vec![err], &target_err, span)
                        }
                        None => err,
                    };
                    let err = me.owned(err, &target_err, span);
                    me.construct(bad_def, &rargs, vec![err], span)
                };
                me.emit_return(out, span);
            },
            |_| {},
        );
        let vl = layout.variants[good].clone();
        // `Option<()>` and `Result<(), E>` without a payload continue with `()`.
        match vl.fields.first().copied().flatten() {
            Some(f) => {
                let vp = self.variant_ptr(m, &vl.ty, span);
                let fp = self.field_ptr(vp, f, span);
                self.read_place(&Place::Mem(fp), ty, span)
            }
            None => Operand::Zst,
        }
    }

    /// Returns from the function (or closure) with a value.
    pub fn emit_return(&mut self, v: Operand, span: Span) {
        let ret = self.ret_ty.clone();
        match (self.ret_place, v) {
            (_, Operand::Never) => {}
            // A value already built in the return place needs no copy; any other is copied
            // straight from where it is (nothing runs between this copy and the return).
            (Some(p), Operand::Mem(m)) if m == p => {
                self.op0(OpKind::Return, &[], span);
            }
            (Some(p), v) => {
                self.write_place(&Place::Mem(p), &ret, v, span);
                self.op0(OpKind::Return, &[], span);
            }
            (None, Operand::Scalar(x)) => {
                let t = self.func.ret.clone();
                let x = self.cast(x, t, span);
                self.op0(OpKind::Return, &[x], span);
            }
            (None, _) => self.op0(OpKind::Return, &[], span),
        }
    }
}

/// The scalars of an operand, for `rk.yield`.
fn scalars(v: Operand) -> Vec<ValueId> {
    match v {
        Operand::Scalar(x) => vec![x],
        Operand::Fat(a, b) => vec![a, b],
        _ => vec![],
    }
}

trait OrTy {
    fn or_ty(self, ty: &Ty) -> Operand;
}

impl OrTy for Operand {
    fn or_ty(self, _ty: &Ty) -> Operand {
        self
    }
}
