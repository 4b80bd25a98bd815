//! Patterns: tests (short-circuiting, so that a variant's fields are read only once its tag
//! matched), bindings (by value or by reference into the scrutinee), `match`, `if let`,
//! `while let`, let-chains, and `for` loops (counted loops for integer ranges, `Iterator::next`
//! otherwise).

use super::layout::Repr;
use super::*;
use crate::hir::{Arm, BinOp as HBin, Lit, PatId};
use crate::ty::Const;

impl<'m, 'c, 't, 'a> FnLowerer<'m, 'c, 't, 'a> {
    /// The place a `match`/`let` scrutinee is: itself when it is a place, else a temporary.
    pub fn scrutinee_place(&mut self, e: ExprId) -> Place {
        let span = self.span(e);
        let p = self.place(e, false);
        match p {
            Place::Value(v) => {
                let t = self.adjusted_ty(e);
                match self.repr(&t, span) {
                    Repr::Scalar(_) | Repr::Zst | Repr::Never | Repr::Str | Repr::Fat { .. } => {
                        Place::Value(v)
                    }
                    Repr::Mem(_) => Place::Mem(self.spill(v, &t, span)),
                }
            }
            other => other,
        }
    }

    /// The place a pattern matches after looking through references (default binding
    /// modes), and its type.
    fn peel(&mut self, p: PatId, place: &Place, ty: &Ty, span: Span) -> (Place, Ty) {
        let n = self.r.pat_derefs.get(&p).copied().unwrap_or(0);
        let mut place = place.clone();
        let mut ty = ty.clone();
        for _ in 0..n {
            let v = self.read_place(&place, &ty, span);
            let inner = ty.builtin_deref(true).map(|(t, _)| t).unwrap_or_else(Ty::error);
            place = self.deref_operand(v, &inner);
            ty = inner;
        }
        (place, ty)
    }

    /// `a && b` over optional tests (`None` always holds), `b` evaluated only when `a` holds.
    fn and_then(
        &mut self,
        a: Option<ValueId>,
        span: Span,
        b: impl FnOnce(&mut Self) -> Option<ValueId>,
    ) -> Option<ValueId> {
        match a {
            None => b(self),
            Some(a) => {
                let r = self.if_yield(
                    a,
                    &[Type::Bool],
                    span,
                    |me| match b(me) {
                        Some(x) => vec![x],
                        None => vec![me.const_bool(true, span)],
                    },
                    |me| vec![me.const_bool(false, span)],
                );
                Some(r[0])
            }
        }
    }

    /// Whether the value at `place` matches the pattern; `None` when it always does.
    pub fn pattern_test(
        &mut self,
        p: PatId,
        place: &Place,
        ty: &Ty,
        span: Span,
    ) -> Option<ValueId> {
        let body = self.body.clone();
        let pat = body.pat(p);
        let span = if self.file.is_user() { pat.span } else { span };
        let (place, ty) = self.peel(p, place, ty, span);
        match &pat.kind {
            PatKind::Wild | PatKind::Err => None,
            PatKind::Binding { sub, .. } => {
                sub.and_then(|s| self.pattern_test(s, &place, &ty, span))
            }
            PatKind::Lit(lit, neg) => {
                let Operand::Scalar(v) = self.read_place(&place, &ty, span) else { return None };
                let c = self.pattern_const(lit, *neg, &ty, span)?;
                Some(self.cmp(CmpOp::Eq, v, c, span))
            }
            PatKind::Range { lo, hi, inclusive } => {
                let Operand::Scalar(v) = self.read_place(&place, &ty, span) else { return None };
                let mut acc = None;
                if let Some((l, n)) = lo
                    && let Some(c) = self.pattern_const(l, *n, &ty, span)
                {
                    acc = Some(self.cmp(CmpOp::Ge, v, c, span));
                }
                if let Some((h, n)) = hi
                    && let Some(c) = self.pattern_const(h, *n, &ty, span)
                {
                    let t = self.cmp(if *inclusive { CmpOp::Le } else { CmpOp::Lt }, v, c, span);
                    acc = Some(match acc {
                        Some(a) => self.op1(OpKind::Binary(BinOp::And), &[a, t], Type::Bool, span),
                        None => t,
                    });
                }
                acc
            }
            PatKind::Const(_) => self.const_test(p, &place, &ty, span),
            PatKind::Path(_) if !self.r.pat_variants.contains_key(&p) => {
                self.const_test(p, &place, &ty, span)
            }
            PatKind::Path(_) => {
                let (def, _) = self.r.pat_variants.get(&p).cloned()?;
                self.variant_test(def, &place, &ty, span)
            }
            PatKind::TupleStruct { pats, rest, .. } => {
                let (def, args) = self.r.pat_variants.get(&p).cloned()?;
                let t = self.variant_test(def, &place, &ty, span);
                let n = self.tcx.items.fields(def).len();
                let positions = crate::typeck::positions(pats.len(), *rest, n).unwrap_or_default();
                let subs: Vec<(PatId, usize)> = pats.iter().copied().zip(positions).collect();
                self.and_then(t, span, |me| me.fields_test(def, &args, &subs, &place, &ty, span))
            }
            PatKind::Struct { fields, .. } => {
                let (def, args) = self.r.pat_variants.get(&p).cloned()?;
                let t = self.variant_test(def, &place, &ty, span);
                let defs = self.tcx.items.fields(def).to_vec();
                let subs: Vec<(PatId, usize)> = fields
                    .iter()
                    .filter_map(|(n, q)| defs.iter().position(|f| f.name == *n).map(|k| (*q, k)))
                    .collect();
                self.and_then(t, span, |me| me.fields_test(def, &args, &subs, &place, &ty, span))
            }
            PatKind::Tuple { pats, rest } => {
                let TyKind::Tuple(ts) = ty.kind() else { return None };
                let positions =
                    crate::typeck::positions(pats.len(), *rest, ts.len()).unwrap_or_default();
                let mut acc: Option<ValueId> = None;
                for (q, k) in pats.iter().zip(positions) {
                    let fp = self.field_place(&place, &ty, k as u32, span);
                    let ft = ts[k].clone();
                    let q = *q;
                    acc = self.and_then(acc, span, |me| me.pattern_test(q, &fp, &ft, span));
                }
                acc
            }
            PatKind::Ref(inner, _) => {
                let v = self.read_place(&place, &ty, span);
                let it = ty.builtin_deref(true).map(|(t, _)| t).unwrap_or_else(Ty::error);
                let ip = self.deref_operand(v, &it);
                self.pattern_test(*inner, &ip, &it, span)
            }
            PatKind::Slice { before, rest, after } => {
                let (elem, len) = match ty.kind() {
                    TyKind::Array(el, Const::Value(n)) => (el.clone(), Some(*n)),
                    TyKind::Slice(el) => (el.clone(), None),
                    _ => return None,
                };
                let fixed = (before.len() + after.len()) as u64;
                let (first, count) = self.slice_parts(&place, &ty, span)?;
                let len_test = match len {
                    Some(_) => None,
                    None => {
                        let f = self.const_usize(fixed, span);
                        Some(self.cmp(
                            if rest.is_some() { CmpOp::Ge } else { CmpOp::Eq },
                            count,
                            f,
                            span,
                        ))
                    }
                };
                let before = before.clone();
                let after = after.clone();
                self.and_then(len_test, span, |me| {
                    let mut acc = None;
                    for (k, q) in before.iter().enumerate() {
                        let i = me.const_usize(k as u64, span);
                        let ep = Place::Mem(me.ptr_offset(first, i, span));
                        let q = *q;
                        let el = elem.clone();
                        acc = me.and_then(acc, span, |me| me.pattern_test(q, &ep, &el, span));
                    }
                    for (k, q) in after.iter().enumerate() {
                        let back = me.const_usize((after.len() - k) as u64, span);
                        let i = me.bin(BinOp::Sub, count, back, span);
                        let ep = Place::Mem(me.ptr_offset(first, i, span));
                        let q = *q;
                        let el = elem.clone();
                        acc = me.and_then(acc, span, |me| me.pattern_test(q, &ep, &el, span));
                    }
                    acc
                })
            }
            PatKind::Or(alts) => {
                let mut acc: Option<ValueId> = None;
                for q in alts {
                    let t = self.pattern_test(*q, &place, &ty, span)?;
                    acc = Some(match acc {
                        None => t,
                        Some(a) => {
                            // `a || t`, where `t` was computed: both tests are free of effects.
                            self.op1(OpKind::Binary(BinOp::Or), &[a, t], Type::Bool, span)
                        }
                    });
                }
                acc
            }
        }
    }

    /// Whether the value equals the constant a pattern names.
    fn const_test(&mut self, p: PatId, place: &Place, ty: &Ty, span: Span) -> Option<ValueId> {
        let res = self.r.pat_consts.get(&p).cloned()?;
        let c = match res {
            ValueRes::Const(c) => {
                let resolved = crate::typeck::resolve_instance(self.tcx, &c).unwrap_or(c);
                self.const_value(resolved.def, &resolved.args, span)
            }
            ValueRes::Static(d) => self.const_value(d, &Vec::new().into(), span),
            _ => return None,
        };
        let v = self.read_place(place, ty, span);
        match (v, c) {
            (Operand::Scalar(a), Operand::Scalar(b)) => Some(self.cmp(CmpOp::Eq, a, b, span)),
            _ => {
                self.unsupported(
                    span,
                    "constants of aggregate types cannot be used as patterns in kernels".into(),
                    "compare with `==` in a guard",
                );
                None
            }
        }
    }

    /// A slice or array place's first element and element count.
    fn slice_parts(&mut self, place: &Place, ty: &Ty, span: Span) -> Option<(ValueId, ValueId)> {
        match (ty.kind(), place) {
            (TyKind::Array(_, Const::Value(n)), Place::Mem(p) | Place::Value(Operand::Mem(p))) => {
                let (n, p) = (*n, *p);
                let z = self.const_usize(0, span);
                let first = self.elem_ptr(p, z, span);
                Some((first, self.const_usize(n, span)))
            }
            (_, Place::Slice(p, l)) => Some((*p, *l)),
            _ => None,
        }
    }

    fn pattern_const(&mut self, lit: &Lit, neg: bool, ty: &Ty, span: Span) -> Option<ValueId> {
        Some(match (lit, ty.kind()) {
            (Lit::Int(v, _), TyKind::Int(t)) => {
                // A `u128` above `i128::MAX` wraps here and back in `const_int`: the bits are kept.
                let v = *v as i128;
                self.const_int(if neg { v.wrapping_neg() } else { v }, *t, span)
            }
            (Lit::Float(x, _), TyKind::Float(f)) => {
                self.const_float(if neg { -x } else { *x }, *f, span)
            }
            (Lit::Int(v, _), TyKind::Float(f)) => {
                self.const_float(if neg { -(*v as f64) } else { *v as f64 }, *f, span)
            }
            (Lit::Bool(b), _) => self.const_bool(*b, span),
            (Lit::Char(c), _) => self.const_int(i128::from(u32::from(*c)), IntTy::U32, span),
            _ => return None,
        })
    }

    /// Whether an enum value is of variant `def` (`None` for structs).
    fn variant_test(
        &mut self,
        def: crate::items::DefId,
        place: &Place,
        ty: &Ty,
        span: Span,
    ) -> Option<ValueId> {
        let (_, vindex) = self.tcx.items.variant_parent(def)?;
        let layout = self.mono.layouts.layout(self.tcx, ty).ok()?;
        if layout.variants.len() <= 1 && !layout.fieldless {
            return None;
        }
        let tag_ty = layout.tag.unwrap_or(IntTy::U32);
        let tag = if layout.fieldless {
            match self.read_place(place, ty, span) {
                Operand::Scalar(t) => t,
                _ => return None,
            }
        } else {
            let p = match place {
                Place::Mem(p) | Place::Value(Operand::Mem(p)) => *p,
                _ => return None,
            };
            let tp = self.field_ptr(p, 0, span);
            self.load(tp, span)
        };
        let d = self.const_int(layout.variants.get(vindex as usize)?.discriminant, tag_ty, span);
        Some(self.cmp(CmpOp::Eq, tag, d, span))
    }

    /// The place of field `k` of struct or variant `def` in `place`.
    fn variant_field(
        &mut self,
        def: crate::items::DefId,
        args: &[crate::ty::GenericArg],
        k: usize,
        place: &Place,
        ty: &Ty,
        span: Span,
    ) -> (Place, Ty) {
        let ft = self
            .tcx
            .field_tys(def)
            .get(k)
            .map(|t| crate::typeck::normalize_in_layout(self.tcx, &t.subst(args)))
            .unwrap_or_else(Ty::error);
        if self.tcx.items.variant_parent(def).is_none() {
            return (self.field_place(place, ty, k as u32, span), ft);
        }
        let Some((_, vindex)) = self.tcx.items.variant_parent(def) else {
            return (Place::Value(Operand::Zst), ft);
        };
        let Ok(layout) = self.mono.layouts.layout(self.tcx, ty) else {
            return (Place::Value(Operand::Zst), ft);
        };
        let Some(vl) = layout.variants.get(vindex as usize).cloned() else {
            return (Place::Value(Operand::Zst), ft);
        };
        let p = match place {
            Place::Mem(p) | Place::Value(Operand::Mem(p)) => *p,
            _ => return (Place::Value(Operand::Zst), ft),
        };
        match vl.fields.get(k).copied().flatten() {
            Some(f) => {
                let vp = self.variant_ptr(p, &vl.ty, span);
                (Place::Mem(self.field_ptr(vp, f, span)), ft)
            }
            None => (Place::Value(Operand::Zst), ft),
        }
    }

    fn fields_test(
        &mut self,
        def: crate::items::DefId,
        args: &[crate::ty::GenericArg],
        subs: &[(PatId, usize)],
        place: &Place,
        ty: &Ty,
        span: Span,
    ) -> Option<ValueId> {
        let mut acc = None;
        for (q, k) in subs {
            let (fp, ft) = self.variant_field(def, args, *k, place, ty, span);
            let q = *q;
            acc = self.and_then(acc, span, |me| me.pattern_test(q, &fp, &ft, span));
        }
        acc
    }

    /// Binds the names of a pattern that matched the value at `place`.
    pub fn bind_pattern(&mut self, p: PatId, place: &Place, ty: &Ty, span: Span) {
        let body = self.body.clone();
        let pat = body.pat(p);
        let span = if self.file.is_user() { pat.span } else { span };
        let (place, ty) = self.peel(p, place, ty, span);
        match &pat.kind {
            PatKind::Binding { local, sub, .. } => {
                let v = match self.r.by_ref.get(&p) {
                    Some(m) => self.address_of(&place, &ty, *m, span),
                    None => {
                        let v = self.read_place(&place, &ty, span);
                        self.owned(v, &ty, span)
                    }
                };
                self.assign_local(*local, v, span);
                if let Some(s) = sub {
                    self.bind_pattern(*s, &place, &ty, span);
                }
            }
            PatKind::TupleStruct { pats, rest, .. } => {
                let Some((def, args)) = self.r.pat_variants.get(&p).cloned() else { return };
                let n = self.tcx.items.fields(def).len();
                let positions = crate::typeck::positions(pats.len(), *rest, n).unwrap_or_default();
                for (q, k) in pats.iter().zip(positions) {
                    let (fp, ft) = self.variant_field(def, &args, k, &place, &ty, span);
                    self.bind_pattern(*q, &fp, &ft, span);
                }
            }
            PatKind::Struct { fields, .. } => {
                let Some((def, args)) = self.r.pat_variants.get(&p).cloned() else { return };
                let defs = self.tcx.items.fields(def).to_vec();
                for (name, q) in fields {
                    if let Some(k) = defs.iter().position(|f| f.name == *name) {
                        let (fp, ft) = self.variant_field(def, &args, k, &place, &ty, span);
                        self.bind_pattern(*q, &fp, &ft, span);
                    }
                }
            }
            PatKind::Tuple { pats, rest } => {
                let TyKind::Tuple(ts) = ty.kind() else { return };
                let positions =
                    crate::typeck::positions(pats.len(), *rest, ts.len()).unwrap_or_default();
                for (q, k) in pats.iter().zip(positions) {
                    let fp = self.field_place(&place, &ty, k as u32, span);
                    self.bind_pattern(*q, &fp, &ts[k], span);
                }
            }
            PatKind::Ref(inner, _) => {
                let v = self.read_place(&place, &ty, span);
                let it = ty.builtin_deref(true).map(|(t, _)| t).unwrap_or_else(Ty::error);
                let ip = self.deref_operand(v, &it);
                self.bind_pattern(*inner, &ip, &it, span);
            }
            PatKind::Slice { before, rest, after } => {
                let (elem, len) = match ty.kind() {
                    TyKind::Array(el, Const::Value(n)) => (el.clone(), Some(*n)),
                    TyKind::Slice(el) => (el.clone(), None),
                    _ => return,
                };
                let Some((first, count)) = self.slice_parts(&place, &ty, span) else { return };
                for (k, q) in before.iter().enumerate() {
                    let i = self.const_usize(k as u64, span);
                    let ep = Place::Mem(self.ptr_offset(first, i, span));
                    self.bind_pattern(*q, &ep, &elem, span);
                }
                for (k, q) in after.iter().enumerate() {
                    let back = self.const_usize((after.len() - k) as u64, span);
                    let i = self.bin(BinOp::Sub, count, back, span);
                    let ep = Place::Mem(self.ptr_offset(first, i, span));
                    self.bind_pattern(*q, &ep, &elem, span);
                }
                if let Some(r) = rest {
                    let start = self.const_usize(before.len() as u64, span);
                    let sp = self.ptr_offset(first, start, span);
                    let fixed = self.const_usize((before.len() + after.len()) as u64, span);
                    let n = self.bin(BinOp::Sub, count, fixed, span);
                    let (rp, rt) = match len {
                        Some(total) => {
                            let k = total.saturating_sub((before.len() + after.len()) as u64);
                            let at = Ty::array(elem.clone(), k);
                            let t = self.mem_type(&at, span);
                            let m = self.ty_of(sp);
                            let mutable = matches!(m, Type::Ptr { mutable: true, .. });
                            (Place::Mem(self.cast(sp, Type::ptr(mutable, t), span)), at)
                        }
                        None => (Place::Slice(sp, n), Ty::slice(elem.clone())),
                    };
                    self.bind_pattern(*r, &rp, &rt, span);
                }
            }
            PatKind::Or(alts) => {
                // Each alternative binds the same names: give them storage, then bind them in
                // the alternative that matches.
                let mut bound = Vec::new();
                body.pat_bindings(p, &mut bound);
                if bound.is_empty() {
                    // Nothing to bind: which alternative matched does not matter.
                    return;
                }
                for l in &bound {
                    if !self.locals.contains_key(l) {
                        self.declare_local(*l, span);
                    }
                }
                let alts = alts.clone();
                self.bind_alternatives(&alts, &place, &ty, span);
            }
            _ => {}
        }
    }

    fn bind_alternatives(&mut self, alts: &[PatId], place: &Place, ty: &Ty, span: Span) {
        let Some((first, rest)) = alts.split_first() else { return };
        if rest.is_empty() {
            self.bind_pattern(*first, place, ty, span);
            return;
        }
        match self.pattern_test(*first, place, ty, span) {
            None => self.bind_pattern(*first, place, ty, span),
            Some(t) => {
                let rest = rest.to_vec();
                self.if_then_else(
                    t,
                    span,
                    |me| me.bind_pattern(*first, place, ty, span),
                    |me| me.bind_alternatives(&rest, place, ty, span),
                );
            }
        }
    }

    /// Binds a local, writing into its storage when it already has one (or-patterns).
    fn assign_local(&mut self, l: LocalId, v: Operand, span: Span) {
        if self.locals.contains_key(&l) {
            let t = self.r.local(l).clone();
            let p = self.local_place(l, span);
            self.write_place(&p, &t, v, span);
        } else {
            self.init_local(l, v, span);
        }
    }

    pub fn match_expr(
        &mut self,
        e: ExprId,
        scrutinee: ExprId,
        arms: &[Arm],
        ty: &Ty,
        span: Span,
    ) -> Operand {
        let place = self.scrutinee_place(scrutinee);
        let st = self.adjusted_ty(scrutinee);
        if arms.is_empty() {
            return Operand::Never;
        }
        let exhaustive = self.r.exhaustive.contains(&e);
        if arms.iter().all(|a| a.guard.is_none()) {
            return self.arms_chain(arms, &place, &st, ty, exhaustive, span);
        }
        // Guards: a flag says whether an arm has matched yet.
        let result = self.result_place(ty, span);
        let f = self.const_bool(false, span);
        let matched = self.slot_with(f, span);
        for (k, arm) in arms.iter().enumerate() {
            let arm = arm.clone();
            let guard_body = |me: &mut Self| {
                let t = me.pattern_test(arm.pat, &place, &st, span);
                let run = |me: &mut Self| {
                    me.bind_pattern(arm.pat, &place, &st, span);
                    let finish = |me: &mut Self| {
                        let yes = me.const_bool(true, span);
                        me.write_slot(yes, matched, span);
                        let v = me.operand(arm.body);
                        if let Some(p) = &result {
                            let v = me.owned(v, ty, span);
                            me.write_place(p, ty, v, span);
                        }
                    };
                    match arm.guard {
                        Some(g) => me.let_chain(g, span, &mut |me| finish(me), &mut |_| {}),
                        None => finish(me),
                    }
                };
                match t {
                    None => run(me),
                    Some(t) => me.if_then_else(t, span, run, |_| {}),
                }
            };
            if k == 0 {
                guard_body(self);
            } else {
                let m = self.read_slot(matched, span);
                let go = self.not(m, span);
                self.if_then_else(go, span, guard_body, |_| {});
            }
        }
        self.read_result(result, ty, span)
    }

    /// Arms without guards as an `if`/`else` chain. The last arm of a match known to be
    /// exhaustive needs no test; otherwise nothing matching is unreachable (rustc has checked
    /// that the match is exhaustive).
    fn arms_chain(
        &mut self,
        arms: &[Arm],
        place: &Place,
        st: &Ty,
        ty: &Ty,
        exhaustive: bool,
        span: Span,
    ) -> Operand {
        let Some((arm, rest)) = arms.split_first() else {
            let f = self.const_bool(false, span);
            self.assert_with(f, "internal error: entered unreachable code", None, span);
            return Operand::Never;
        };
        let arm = arm.clone();
        let test = if rest.is_empty() && exhaustive {
            None
        } else {
            self.pattern_test(arm.pat, place, st, span)
        };
        match test {
            None => {
                self.bind_pattern(arm.pat, place, st, span);
                self.operand(arm.body)
            }
            Some(t) => {
                let rest = rest.to_vec();
                self.branch(
                    t,
                    ty,
                    span,
                    |me| {
                        me.bind_pattern(arm.pat, place, st, span);
                        me.operand(arm.body)
                    },
                    |me| me.arms_chain(&rest, place, st, ty, exhaustive, span),
                )
            }
        }
    }

    /// Whether a condition has `let` in it.
    pub fn has_let(&self, cond: ExprId) -> bool {
        match &self.body.expr(cond).kind {
            ExprKind::Let(..) => true,
            ExprKind::Binary(HBin::And, l, r) => self.has_let(*l) || self.has_let(*r),
            _ => false,
        }
    }

    fn chain_items(&self, cond: ExprId, out: &mut Vec<ExprId>) {
        match &self.body.expr(cond).kind {
            ExprKind::Binary(HBin::And, l, r) if self.has_let(cond) => {
                self.chain_items(*l, out);
                self.chain_items(*r, out);
            }
            _ => out.push(cond),
        }
    }

    /// Runs `then` when every part of a let-chain holds (with its bindings), `els` otherwise.
    pub fn let_chain(
        &mut self,
        cond: ExprId,
        span: Span,
        then: &mut dyn FnMut(&mut Self),
        els: &mut dyn FnMut(&mut Self),
    ) {
        let mut items = Vec::new();
        self.chain_items(cond, &mut items);
        if items.len() == 1 {
            let (t, bind) = self.chain_part(items[0]);
            match t {
                None => {
                    self.bind_deferred(bind, span);
                    then(self);
                }
                Some(t) => self.if_then_else(
                    t,
                    span,
                    |me| {
                        me.bind_deferred(bind, span);
                        then(me);
                    },
                    |me| els(me),
                ),
            }
            return;
        }
        let f = self.const_bool(false, span);
        let taken = self.slot_with(f, span);
        self.chain_from(&items, span, &mut |me| {
            let yes = me.const_bool(true, span);
            me.write_slot(yes, taken, span);
            then(me);
        });
        let t = self.read_slot(taken, span);
        let not_taken = self.not(t, span);
        self.if_then_else(not_taken, span, |me| els(me), |_| {});
    }

    fn chain_from(&mut self, items: &[ExprId], span: Span, then: &mut dyn FnMut(&mut Self)) {
        let Some((first, rest)) = items.split_first() else {
            then(self);
            return;
        };
        let rest = rest.to_vec();
        let (t, bind) = self.chain_part(*first);
        match t {
            None => {
                self.bind_deferred(bind, span);
                self.chain_from(&rest, span, then);
            }
            Some(t) => self.if_then_else(
                t,
                span,
                |me| {
                    me.bind_deferred(bind, span);
                    me.chain_from(&rest, span, then);
                },
                |_| {},
            ),
        }
    }

    /// One part of a let-chain: its test, and for a `let` the bindings to make where the test
    /// holds.
    fn chain_part(&mut self, item: ExprId) -> (Option<ValueId>, Option<(PatId, Place, Ty)>) {
        let span = self.span(item);
        let body = self.body.clone();
        match &body.expr(item).kind {
            ExprKind::Let(pat, scrutinee) => {
                let place = self.scrutinee_place(*scrutinee);
                let st = self.adjusted_ty(*scrutinee);
                let t = self.pattern_test(*pat, &place, &st, span);
                (t, Some((*pat, place, st)))
            }
            _ => match self.operand(item) {
                Operand::Scalar(c) => (Some(c), None),
                _ => (Some(self.const_bool(false, span)), None),
            },
        }
    }

    fn bind_deferred(&mut self, bind: Option<(PatId, Place, Ty)>, span: Span) {
        if let Some((pat, place, ty)) = bind {
            self.bind_pattern(pat, &place, &ty, span);
        }
    }

    /// A condition's value (a let-chain used as a `bool`).
    pub fn condition(&mut self, cond: ExprId) -> ValueId {
        let span = self.span(cond);
        let f = self.const_bool(false, span);
        let flag = self.slot_with(f, span);
        self.let_chain(
            cond,
            span,
            &mut |me| {
                let t = me.const_bool(true, span);
                me.write_slot(t, flag, span);
            },
            &mut |_| {},
        );
        self.read_slot(flag, span)
    }

    pub fn if_let_chain(
        &mut self,
        cond: ExprId,
        then: ExprId,
        els: Option<ExprId>,
        ty: &Ty,
        span: Span,
    ) -> Operand {
        let result = self.result_place(ty, span);
        let r2 = result.clone();
        self.let_chain(
            cond,
            span,
            &mut |me| {
                let v = me.operand(then);
                if let Some(p) = &result {
                    let v = me.owned(v, ty, span);
                    me.write_place(p, ty, v, span);
                }
            },
            &mut |me| {
                if let Some(x) = els {
                    let v = me.operand(x);
                    if let Some(p) = &r2 {
                        let v = me.owned(v, ty, span);
                        me.write_place(p, ty, v, span);
                    }
                }
            },
        );
        self.read_result(result, ty, span)
    }

    /// `for pat in iter { body }`.
    pub fn for_expr(&mut self, e: ExprId, pat: PatId, iter: ExprId, body: ExprId, span: Span) {
        let Some(info) = self.r.for_loops.get(&e).cloned() else { return };
        if self.counted_loop(e, pat, iter, body, &info, span) {
            return;
        }
        let it_ty = self.adjusted_ty(iter);
        let v = self.operand(iter);
        let v = self.owned_or_stable(v, &it_ty, span);
        let iter_v = self.call_callee(&info.into_iter, vec![v], &info.iter_ty, span);
        let m = self.spill(iter_v, &info.iter_ty, span);
        let opt_ty = match self.tcx.items.lang("Option") {
            Some(o) => Ty::adt(o, vec![crate::ty::GenericArg::Ty(info.item_ty.clone())]),
            None => return,
        };
        self.loops.push(LoopFrame { expr: e, result: None });
        let region = self.region(|me| {
            let r = me.address_of(&Place::Mem(m), &info.iter_ty, true, span);
            let next = me.call_callee(&info.next, vec![r], &opt_ty, span);
            let np = me.spill(next, &opt_ty, span);
            let some = me.tcx.items.lang("Option").and_then(|o| match &me.tcx.items.def(o).kind {
                crate::items::DefKind::Enum { variants, .. } => variants.get(1).copied(),
                _ => None,
            });
            let Some(some) = some else { return };
            let place = Place::Mem(np);
            let Some(is_some) = me.variant_test(some, &place, &opt_ty, span) else { return };
            me.exit_unless(is_some, span);
            let (vp, vt) = me.variant_field(
                some,
                &[crate::ty::GenericArg::Ty(info.item_ty.clone())],
                0,
                &place,
                &opt_ty,
                span,
            );
            me.bind_pattern(pat, &vp, &vt, span);
            let _ = me.operand(body);
        });
        self.loops.pop();
        self.push_loop(region, span);
    }

    /// `for i in a..b` (or `a..=b`, `.rev()`, `.step_by(k)`) over integers, with a simple
    /// binding: a counted loop, as the rk passes and LLVM like it.
    fn counted_loop(
        &mut self,
        e: ExprId,
        pat: PatId,
        iter: ExprId,
        body: ExprId,
        info: &crate::typeck::ForLoop,
        span: Span,
    ) -> bool {
        let items = self.tcx.items;
        let binding = match &self.body.pat(pat).kind {
            PatKind::Binding { local, by_ref: None, sub: None }
                if !self.addressed.contains(local) =>
            {
                Some(*local)
            }
            PatKind::Wild => None,
            _ => return false,
        };
        // Peel `.rev()` / `.step_by(k)` off a range expression.
        let mut cur = iter;
        let mut rev = false;
        let mut step = None;
        loop {
            let hir = self.body.clone();
            match &hir.expr(cur).kind {
                ExprKind::MethodCall { receiver, name, args, .. }
                    if self.is_iterator_method(cur) =>
                {
                    if name == "rev" && !rev && step.is_none() && args.is_empty() {
                        rev = true;
                    } else if name == "step_by" && step.is_none() && !rev && args.len() == 1 {
                        step = Some(args[0]);
                    } else {
                        return false;
                    }
                    cur = *receiver;
                }
                ExprKind::Range { start: Some(s), end: Some(en), inclusive } => {
                    let rt = self.expr_ty(cur);
                    let TyKind::Adt(d, args) = rt.kind() else { return false };
                    let lang = items.def(*d).lang.clone().unwrap_or_default();
                    if lang != "Range" && lang != "RangeInclusive" {
                        return false;
                    }
                    let Some(crate::ty::GenericArg::Ty(elem)) = args.first() else { return false };
                    let TyKind::Int(it) = elem.kind() else { return false };
                    if !self.r.adjust.get(&cur).is_none_or(Vec::is_empty)
                        || !self.r.adjust.get(&iter).is_none_or(Vec::is_empty)
                    {
                        return false;
                    }
                    let (s, en, inclusive, it) = (*s, *en, *inclusive, *it);
                    self.emit_counted(e, binding, s, en, inclusive, rev, step, it, body, span);
                    let _ = info;
                    return true;
                }
                _ => return false,
            }
        }
    }

    fn is_iterator_method(&self, e: ExprId) -> bool {
        let Some(c) = self.r.callees.get(&e) else { return false };
        matches!(self.tcx.items.container(c.def), crate::items::Container::Trait(t) if Some(t) == self.tcx.items.lang("Iterator"))
    }

    #[allow(clippy::too_many_arguments, reason = "the parts of one counted loop")]
    fn emit_counted(
        &mut self,
        e: ExprId,
        binding: Option<LocalId>,
        start: ExprId,
        end: ExprId,
        inclusive: bool,
        rev: bool,
        step: Option<ExprId>,
        it: IntTy,
        body: ExprId,
        span: Span,
    ) {
        let (Operand::Scalar(a), Operand::Scalar(b)) = (self.operand(start), self.operand(end))
        else {
            return;
        };
        let ty = Type::Int(it);
        let stride = match step {
            Some(k) => {
                let Operand::Scalar(k) = self.operand(k) else { return };
                let zero = self.const_usize(0, span);
                let ok = self.cmp(CmpOp::Ne, k, zero, span);
                self.assert_with(ok, "assertion failed: step != 0", None, span);
                Some(k)
            }
            None => None,
        };
        let one = self.const_int(1, it, span);
        let empty = self.cmp(if inclusive { CmpOp::Gt } else { CmpOp::Ge }, a, b, span);
        let done = self.slot_with(empty, span);
        let first =
            if rev { if inclusive { b } else { self.bin(BinOp::Sub, b, one, span) } } else { a };
        let next = self.slot_with(first, span);
        self.loops.push(LoopFrame { expr: e, result: None });
        let region = self.region(|me| {
            let is_done = me.read_slot(done, span);
            let go = me.not(is_done, span);
            me.exit_unless(go, span);
            let i = me.read_slot(next, span);
            // Advance before the body, so that `continue` needs nothing more; the last value
            // sets `done` instead of stepping past it, so no bound can overflow.
            let last = if rev {
                a
            } else if inclusive {
                b
            } else {
                me.bin(BinOp::Sub, b, one, span)
            };
            let remaining = if rev {
                me.bin(BinOp::Sub, i, last, span)
            } else {
                me.bin(BinOp::Sub, last, i, span)
            };
            let stride_v = match stride {
                Some(k) => me.cast(k, ty.clone(), span),
                None => one,
            };
            // Compared as unsigned: the distance to the last value is never negative, and for
            // signed types it may exceed the positive range.
            let unsigned = Type::Int(it.unsigned());
            let rem_u = me.cast(remaining, unsigned.clone(), span);
            let stride_u = match stride {
                // A `usize` stride wider than the type still ends the loop.
                Some(k) => {
                    let rem_w = me.cast(rem_u, Type::USIZE, span);
                    let fin = me.cmp(CmpOp::Lt, rem_w, k, span);
                    me.write_slot(fin, done, span);
                    None
                }
                None => Some(me.cast(stride_v, unsigned, span)),
            };
            if let Some(su) = stride_u {
                let finished = me.cmp(CmpOp::Lt, rem_u, su, span);
                me.write_slot(finished, done, span);
            }
            let op = if rev { BinOp::Sub } else { BinOp::Add };
            let stepped = me.bin(op, i, stride_v, span);
            me.write_slot(stepped, next, span);
            if let Some(l) = binding {
                me.init_local(l, Operand::Scalar(i), span);
            }
            let _ = me.operand(body);
        });
        self.loops.pop();
        self.push_loop(region, span);
    }
}
