//! Calls: of functions (monomorphised instances, called with `rk.call`), of constructors, of
//! closures (their body instance, with the environment), of the language's own impls
//! (`Clone` of a `Copy` type, the `Fn` traits), and of the core's intrinsics, which become rk
//! operations here. Also `const` and `static` values.

use super::layout::Repr;
use super::mono::{Abi, Instance};
use super::*;
use crate::items::DefKind;
use crate::ty::{Const, GenericArg};
use crate::typeck::Callee;
use rkc_rk::{
    AtomicOp, Dim, FenceScope, Geometry, MatrixOperand, MmaType, ReduceOp, ShuffleMode, WarpOp,
    WgmmaSync,
};

impl<'m, 'c, 't, 'a> FnLowerer<'m, 'c, 't, 'a> {
    pub fn call_expr(&mut self, e: ExprId, callee: ExprId, args: &[ExprId], span: Span) -> Operand {
        let ct = self.adjusted_ty(callee);
        let ret = self.expr_ty(e);
        match ct.kind() {
            TyKind::FnDef(def, fargs) => {
                let (def, fargs) = (*def, fargs.clone());
                let vals = self.arg_operands(args, span);
                if matches!(
                    self.tcx.items.def(def).kind,
                    DefKind::Struct { .. } | DefKind::Variant { .. }
                ) {
                    return self.construct(def, &fargs, vals, span);
                }
                self.call_callee(&Callee { def, args: fargs }, vals, &ret, span)
            }
            TyKind::Closure(id) => {
                let id = *id;
                let env = self.operand(callee);
                let vals = self.arg_operands(args, span);
                self.call_closure(id, env, vals, &ret, span)
            }
            _ => Operand::Never,
        }
    }

    /// The arguments of a call, each evaluated in order into memory of its own, except
    /// memory that nothing changes (an immutable local's): the callee decides whether it needs
    /// a copy of that (`call_instance`).
    fn arg_operands(&mut self, args: &[ExprId], span: Span) -> Vec<Operand> {
        args.iter()
            .map(|a| {
                let v = self.operand(*a);
                self.owned_unless_stable(v, *a, span)
            })
            .collect()
    }

    fn owned_unless_stable(&mut self, v: Operand, e: ExprId, span: Span) -> Operand {
        let t = self.adjusted_ty(e);
        self.owned_or_stable(v, &t, span)
    }

    pub fn method_call(
        &mut self,
        e: ExprId,
        receiver: ExprId,
        args: &[ExprId],
        span: Span,
    ) -> Operand {
        let Some(callee) = self.r.callees.get(&e).cloned() else { return Operand::Never };
        let ret = self.expr_ty(e);
        let adjusts = self.r.adjust.get(&receiver).cloned().unwrap_or_default();
        // `x.add_assign(1)`-style `&mut self` calls on a `let mut` scalar lend a temporary and
        // write it back.
        let r = if adjusts == [Adjust::Borrow(true)] {
            let p = self.place_unadjusted(receiver, true);
            let rt = self.expr_ty(receiver);
            if let Place::Slot(_) = p {
                let r = self.address_of(&p, &rt, true, span);
                let mut vals = vec![r.clone()];
                vals.extend(self.arg_operands(args, span));
                let out = self.call_callee(&callee, vals, &ret, span);
                self.write_back(&p, &rt, r, span);
                return out;
            }
            // What `operand` does with this adjustment, on the receiver already lowered: a
            // second lowering would run its effects twice and bind its patterns twice.
            let rspan = self.span(receiver);
            self.address_of(&p, &rt, true, rspan)
        } else {
            self.operand(receiver)
        };
        let r = self.owned_unless_stable(r, receiver, span);
        let mut vals = vec![r];
        vals.extend(self.arg_operands(args, span));
        self.call_callee(&callee, vals, &ret, span)
    }

    /// The `IndexMut`/`DerefMut` method matching an `Index`/`Deref` callee.
    pub fn index_mut_of(&mut self, callee: &Callee, lang: &str, method: &str) -> Callee {
        let items = self.tcx.items;
        match items.lang(lang).and_then(|t| items.assoc_item(t, method, false)) {
            Some(m) => Callee { def: m, args: callee.args.clone() },
            None => callee.clone(),
        }
    }

    /// Calls a function with argument values; the result as an operand of type `ret`.
    pub fn call_callee(
        &mut self,
        callee: &Callee,
        args: Vec<Operand>,
        ret: &Ty,
        span: Span,
    ) -> Operand {
        let Some(resolved) = crate::typeck::resolve_instance(self.tcx, callee) else {
            return self.builtin_trait_call(callee, args, ret, span);
        };
        if let DefKind::Fn { intrinsic: Some(name), .. } = &self.tcx.items.def(resolved.def).kind {
            let name = name.clone();
            return self.intrinsic(&name, &resolved.args, args, ret, span);
        }
        if !matches!(self.tcx.items.def(resolved.def).kind, DefKind::Fn { body: Some(_), .. }) {
            self.error(
                Diagnostic::new(RK_UNKNOWN_FUNCTION, format!("`{}` has no body that rkc can compile", self.tcx.items.path_string(resolved.def)))
                    .at(span, "called here")
                    .note("a trait method without a default, or a function rkc's core declares but does not define"),
            );
            return Operand::Never;
        }
        // `&str` arguments are compile-time strings: they are part of the instance.
        let strings: Vec<String> = args
            .iter()
            .filter_map(|a| match a {
                Operand::Str(s) => Some(s.clone()),
                _ => None,
            })
            .collect();
        let inst = Instance::Fn { def: resolved.def, args: resolved.args.clone(), strings };
        self.call_instance(inst, None, args, ret, span)
    }

    /// Calls a closure with its environment and arguments.
    pub fn call_closure(
        &mut self,
        id: crate::ty::ClosureId,
        env: Operand,
        args: Vec<Operand>,
        ret: &Ty,
        span: Span,
    ) -> Operand {
        let env_ptr = match env {
            Operand::Mem(p) => Some(p),
            Operand::Scalar(p) => Some(p),
            _ => None,
        };
        self.call_instance(Instance::Closure(id), env_ptr, args, ret, span)
    }

    fn call_instance(
        &mut self,
        inst: Instance,
        env: Option<ValueId>,
        args: Vec<Operand>,
        ret: &Ty,
        span: Span,
    ) -> Operand {
        let origin = if self.file.is_user() { Some(span) } else { self.tcx.origin() };
        let Some((name, abi)) = self.mono.instance(inst, origin) else {
            self.failed = true;
            return Operand::Never;
        };
        let mut operands = Vec::new();
        if abi.env {
            match env {
                Some(p) => {
                    let t = abi.env_ty.clone().unwrap_or(Type::Unit);
                    operands.push(self.cast(p, t, span));
                }
                None => return Operand::Never,
            }
        }
        for (k, (a, p)) in args.into_iter().zip(&abi.params).enumerate() {
            match (p, a) {
                (Abi::Scalar(t), Operand::Scalar(v)) => {
                    operands.push(self.cast(v, t.clone(), span))
                }
                (Abi::Fat(t), Operand::Fat(p, l)) => {
                    operands.push(self.cast(p, t.clone(), span));
                    operands.push(l);
                }
                // A read-only parameter borrows the argument's memory; any other gets memory of
                // its own, copied now from memory the caller keeps using.
                (Abi::Mem(t), Operand::Mem(m)) if abi.readonly.get(k).copied().unwrap_or(false) => {
                    operands.push(self.cast(m, Type::ptr(false, t.clone()), span))
                }
                (Abi::Mem(t), Operand::Mem(m)) => {
                    let m = if self.stable.contains(&m) {
                        let own = self.temp(t.clone(), span);
                        self.copy_mem(m, own, t, span);
                        own
                    } else {
                        m
                    };
                    operands.push(self.cast(m, Type::ptr(true, t.clone()), span));
                }
                (Abi::Zst | Abi::Str | Abi::Never, _) => {}
                (_, Operand::Never) => return Operand::Never,
                (abi, v) => {
                    self.error(
                        Diagnostic::new(
                            RK_INTERNAL,
                            format!("passing {v:?} for a {abi:?} parameter"),
                        )
                        .at(span, "in this call"),
                    );
                    return Operand::Never;
                }
            }
        }
        let result = match &abi.ret {
            Abi::Mem(t) | Abi::Fat(t) => {
                let mt = match &abi.ret {
                    Abi::Fat(p) => layout::fat_struct(p.clone()),
                    _ => t.clone(),
                };
                let m = self.temp(mt, span);
                operands.push(m);
                Some(m)
            }
            _ => None,
        };
        let ret_ty = match &abi.ret {
            Abi::Scalar(t) => Some(t.clone()),
            _ => None,
        };
        let kind = OpKind::Call { callee: name };
        match ret_ty {
            Some(t) => {
                let v = self.op1(kind, &operands, t, span);
                Operand::Scalar(v)
            }
            None => {
                self.op0(kind, &operands, span);
                match (&abi.ret, result) {
                    (Abi::Never, _) => Operand::Never,
                    (Abi::Fat(_), Some(m)) => self.read_place(&Place::Mem(m), ret, span),
                    (_, Some(m)) => Operand::Mem(m),
                    _ => Operand::Zst,
                }
            }
        }
    }

    /// The language's impls: `Clone::clone` of a `Copy` type copies; the `Fn` traits call the
    /// closure or function.
    fn builtin_trait_call(
        &mut self,
        callee: &Callee,
        args: Vec<Operand>,
        ret: &Ty,
        span: Span,
    ) -> Operand {
        let items = self.tcx.items;
        let name = items.name(callee.def).to_string();
        let self_ty =
            callee.args.first().and_then(GenericArg::ty).cloned().unwrap_or_else(Ty::error);
        match name.as_str() {
            "clone" => {
                let Some(r) = args.into_iter().next() else { return Operand::Never };
                let p = self.deref_operand(r, &self_ty);
                let v = self.read_place(&p, &self_ty, span);
                self.owned(v, &self_ty, span)
            }
            "call" | "call_mut" | "call_once" => {
                let mut it = args.into_iter();
                let (Some(f), Some(tuple)) = (it.next(), it.next()) else { return Operand::Never };
                let tuple_ty =
                    callee.args.get(1).and_then(GenericArg::ty).cloned().unwrap_or_else(Ty::error);
                let vals = self.untuple(tuple, &tuple_ty, span);
                // `call`/`call_mut` take the function by reference.
                let inner = match self_ty.kind() {
                    TyKind::Ref(t, _) => t.clone(),
                    _ => self_ty.clone(),
                };
                let f = if name == "call_once" {
                    f
                } else {
                    let p = self.deref_operand(f, &inner);
                    self.read_place(&p, &inner, span)
                };
                match inner.kind() {
                    TyKind::Closure(id) => self.call_closure(*id, f, vals, ret, span),
                    TyKind::FnDef(d, a) => {
                        let c = Callee { def: *d, args: a.clone() };
                        if matches!(
                            items.def(*d).kind,
                            DefKind::Struct { .. } | DefKind::Variant { .. }
                        ) {
                            return self.construct(*d, a, vals, span);
                        }
                        self.call_callee(&c, vals, ret, span)
                    }
                    _ => Operand::Never,
                }
            }
            // A trait argument the type checker could not infer: the consequence of an
            // error it reported (it stays quiet about ambiguity after one), or of an unknown
            // type it did not, which is said as rustc says it.
            _ if callee
                .args
                .iter()
                .any(|a| a.ty().is_some_and(|t| t.has_infer() || t.has_error())) =>
            {
                if !self.tcx.has_errors() {
                    self.error(
                        Diagnostic::new(RK_CANNOT_INFER, "type annotations needed")
                            .at(span, "cannot infer the types of this call")
                            .help("annotate the closure's result or the `let`: `|x| -> f64 { x.into() }`"),
                    );
                } else {
                    self.failed = true;
                }
                Operand::Never
            }
            _ => {
                self.error(
                    Diagnostic::new(
                        RK_UNKNOWN_METHOD,
                        format!(
                            "`{}` is not implemented for `{}` in kernels",
                            items.path_string(callee.def),
                            self.tcx.show(&self_ty)
                        ),
                    )
                    .at(span, "called here"),
                );
                Operand::Never
            }
        }
    }

    fn untuple(&mut self, tuple: Operand, ty: &Ty, span: Span) -> Vec<Operand> {
        let TyKind::Tuple(ts) = ty.kind() else { return Vec::new() };
        if ts.is_empty() {
            return Vec::new();
        }
        let m = self.spill(tuple, ty, span);
        (0..ts.len())
            .map(|k| {
                let fp = self.field_place(&Place::Mem(m), ty, k as u32, span);
                let v = self.read_place(&fp, &ts[k], span);
                self.owned(v, &ts[k], span)
            })
            .collect()
    }

    /// The value of a `const` (or a `static` that is not a table): its initialiser, lowered
    /// here.
    pub fn const_value(
        &mut self,
        def: crate::items::DefId,
        args: &crate::ty::Args,
        span: Span,
    ) -> Operand {
        if self.mono.const_depth > 32 {
            self.error(
                Diagnostic::new(
                    RK_UNSUPPORTED_EXPR,
                    format!("the constant `{}` refers to itself", self.tcx.items.name(def)),
                )
                .at(span, "used here"),
            );
            return Operand::Never;
        }
        let Some(body) = self.tcx.body(def) else { return Operand::Never };
        let Some(r) = self.tcx.typeck(def, args) else {
            self.failed = true;
            return Operand::Never;
        };
        let ty = r.ret.clone();
        // An integer, `bool` or `char` constant is evaluated here, as rustc evaluates it: its
        // `const fn`s may loop or recurse, and none of their code reaches the kernel. An
        // associated constant of a trait or of a generic impl depends on the instance, and an
        // initialiser outside the evaluator's subset is lowered as code (below).
        let plain = args.is_empty()
            && !matches!(
                self.tcx.items.def(def).kind,
                DefKind::Const { container: crate::items::Container::Trait(_), .. }
            );
        if plain
            && matches!(ty.kind(), TyKind::Int(_) | TyKind::Bool | TyKind::Char)
            && let Ok(v) = crate::ty::consteval::const_item_value(self.tcx.items, def)
        {
            return Operand::Scalar(match ty.kind() {
                TyKind::Int(t) => self.const_int(v, *t, span),
                TyKind::Bool => self.const_bool(v != 0, span),
                _ => self.const_int(v, IntTy::U32, span),
            });
        }
        // The initialiser is lowered in place, with its own body and tables.
        let saved_body = std::mem::replace(&mut self.body, body.clone());
        let saved_r = std::mem::replace(&mut self.r, r);
        let saved_locals = std::mem::take(&mut self.locals);
        let saved_loops = std::mem::take(&mut self.loops);
        let saved_file = std::mem::replace(&mut self.file, body.file);
        let saved_addr = std::mem::take(&mut self.addressed);
        self.addressed = self.find_addressed_pub();
        self.mono.const_depth += 1;
        let v = self.operand(body.value);
        let v = self.owned(v, &ty, span);
        self.mono.const_depth -= 1;
        self.body = saved_body;
        self.r = saved_r;
        self.locals = saved_locals;
        self.loops = saved_loops;
        self.file = saved_file;
        self.addressed = saved_addr;
        v
    }

    /// A `static` or `const` array of number literals: a read-only table of the module.
    pub fn table(&mut self, def: crate::items::DefId, span: Span) -> Option<ValueId> {
        if let Some(p) = self.tables.get(&def) {
            return Some(*p);
        }
        let d = self.tcx.items.def(def);
        let (ty_syn, expr) = match &d.kind {
            DefKind::Const { ty: Some(t), expr: Some(e), .. } => (*t, *e),
            DefKind::Static { ty, expr, mutable: false } => (*ty, *expr),
            _ => return None,
        };
        if !matches!(ty_syn, syn::Type::Array(_)) {
            return None;
        }
        let r = self.tcx.typeck(def, &Vec::new().into())?;
        let rt = self.mem_type(&r.ret, span);
        let values = table_values(expr, &rt)?;
        let name = self.mono.table_name(def);
        if !self.mono.tables.iter().any(|t| t.name == name) {
            self.mono.tables.push(rkc_rk::Table { name: name.clone(), ty: rt.clone(), values });
        }
        let ptr = self.new_value(Type::ptr(false, rt));
        let loc = self.loc(span);
        if let Some(r0) = self.regions.first_mut() {
            r0.ops.insert(
                0,
                Op {
                    kind: OpKind::Table { name },
                    operands: vec![],
                    results: vec![ptr],
                    regions: vec![],
                    loc,
                },
            );
        }
        self.tables.insert(def, ptr);
        // Nothing writes a table: an immutable binding of it needs no copy.
        self.stable.insert(ptr);
        Some(ptr)
    }

    /// The core's intrinsics.
    fn intrinsic(
        &mut self,
        name: &str,
        targs: &[GenericArg],
        args: Vec<Operand>,
        ret: &Ty,
        span: Span,
    ) -> Operand {
        let ty_arg =
            |k: usize| targs.get(k).and_then(GenericArg::ty).cloned().unwrap_or_else(Ty::error);
        let scalar = |v: &Operand| match v {
            Operand::Scalar(x) => Some(*x),
            _ => None,
        };
        let sargs: Vec<ValueId> = args.iter().filter_map(scalar).collect();
        let ret_scalar = |me: &mut Self| match me.repr(ret, span) {
            Repr::Scalar(t) => t,
            _ => Type::Unit,
        };
        let geometry = |n: &str| -> Option<(Geometry, Dim)> {
            let (g, d) = n.rsplit_once('_')?;
            let dim = match d {
                "x" => Dim::X,
                "y" => Dim::Y,
                "z" => Dim::Z,
                _ => return None,
            };
            let g = match g {
                "thread_idx" => Geometry::ThreadId,
                "block_idx" => Geometry::BlockId,
                "block_dim" => Geometry::BlockDim,
                "grid_dim" => Geometry::GridDim,
                _ => return None,
            };
            Some((g, dim))
        };
        if let Some((g, d)) = geometry(name) {
            return Operand::Scalar(self.op1(OpKind::Geometry(g, d), &[], Type::U32, span));
        }
        if let Some(f) = name.strip_prefix("math_") {
            return self.math(f, &sargs, &args, ret, span);
        }
        match name {
            "size_of" | "align_of" => {
                let (size, align) = self.size_and_align(&ty_arg(0), span);
                Operand::Scalar(
                    self.const_usize(if name == "size_of" { size } else { align }, span),
                )
            }
            // The size and alignment of what a reference points at: a slice's or `str`'s
            // from its length, any other type's from its layout.
            "size_of_val" | "align_of_val" => {
                let t = ty_arg(0);
                let elem = match t.kind() {
                    TyKind::Slice(e) => Some(e.clone()),
                    TyKind::Str => Some(Ty::int(rkc_rk::IntTy::U8)),
                    _ => None,
                };
                let (size, align) = self.size_and_align(elem.as_ref().unwrap_or(&t), span);
                match (name, elem, args.first()) {
                    ("size_of_val", Some(_), Some(Operand::Fat(_, len))) => {
                        let len = *len;
                        let size = self.const_usize(size, span);
                        Operand::Scalar(self.bin(BinOp::Mul, len, size, span))
                    }
                    ("size_of_val", _, _) => Operand::Scalar(self.const_usize(size, span)),
                    _ => Operand::Scalar(self.const_usize(align, span)),
                }
            }
            "read" | "copy" => {
                let t = ty_arg(0);
                let Some(p) = args.into_iter().next() else { return Operand::Never };
                let place = self.deref_operand(p, &t);
                let v = self.read_place(&place, &t, span);
                self.owned(v, &t, span)
            }
            // `mem::discriminant`: the enum's tag, read as `variant_test` reads it (the value of
            // a fieldless enum, field 0 of a data enum's struct), widened to `i128`; 0 for a
            // type that is no enum, as rustc's `discriminant_value` gives.
            "discriminant_value" => {
                let t = ty_arg(0);
                let i128_ty = IntTy::I128;
                let is_enum = matches!(t.kind(), TyKind::Adt(d, _)
                    if matches!(self.tcx.items.def(*d).kind, DefKind::Enum { .. }));
                let layout =
                    if is_enum { self.mono.layouts.layout(self.tcx, &t).ok() } else { None };
                let Some(layout) = layout.filter(|l| !l.variants.is_empty()) else {
                    return Operand::Scalar(self.const_int(0, i128_ty, span));
                };
                let Some(p) = args.into_iter().next() else { return Operand::Never };
                let place = self.deref_operand(p, &t);
                let tag = if layout.fieldless {
                    match self.read_place(&place, &t, span) {
                        Operand::Scalar(v) => v,
                        _ => return Operand::Never,
                    }
                } else {
                    let Place::Mem(m) = place else { return Operand::Never };
                    let tp = self.field_ptr(m, 0, span);
                    self.load(tp, span)
                };
                Operand::Scalar(self.cast(tag, Type::Int(i128_ty), span))
            }
            "write" => {
                let t = ty_arg(0);
                let mut it = args.into_iter();
                let (Some(p), Some(v)) = (it.next(), it.next()) else { return Operand::Zst };
                let place = self.deref_operand(p, &t);
                self.write_place(&place, &t, v, span);
                Operand::Zst
            }
            "uninit" => {
                let t = ty_arg(0);
                match self.repr(&t, span) {
                    Repr::Scalar(rt) => Operand::Scalar(self.dummy(&rt, span)),
                    Repr::Mem(rt) => Operand::Mem(self.local(rt, span)),
                    Repr::Fat { ptr } => {
                        let p = self.dummy(&ptr, span);
                        let l = self.const_usize(0, span);
                        Operand::Fat(p, l)
                    }
                    _ => Operand::Zst,
                }
            }
            "ptr_add" | "ptr_offset" => {
                let [p, n] = sargs[..] else { return Operand::Never };
                Operand::Scalar(self.ptr_offset(p, n, span))
            }
            "slice_len" => match args.first() {
                Some(Operand::Fat(_, l)) => Operand::Scalar(*l),
                _ => Operand::Never,
            },
            "slice_ptr" => match args.first() {
                Some(Operand::Fat(p, _)) => {
                    let t = ret_scalar(self);
                    Operand::Scalar(self.cast(*p, t, span))
                }
                _ => Operand::Never,
            },
            "slice_from_raw_parts" | "slice_from_raw_parts_mut" => {
                let [p, l] = sargs[..] else { return Operand::Never };
                match self.repr(ret, span) {
                    Repr::Fat { ptr } => Operand::Fat(self.cast(p, ptr, span), l),
                    _ => Operand::Never,
                }
            }
            "panic_str" => {
                let message = match args.first() {
                    Some(Operand::Str(s)) => s.clone(),
                    _ => "explicit panic".to_string(),
                };
                let f = self.const_bool(false, span);
                self.assert_with(f, &message, None, span);
                Operand::Never
            }
            "unreachable" => {
                let f = self.const_bool(false, span);
                self.assert_with(f, "internal error: entered unreachable code", None, span);
                Operand::Never
            }
            "black_box" => args.into_iter().next().unwrap_or(Operand::Zst),
            "sync_threads" => {
                self.op0(OpKind::Barrier, &[], span);
                Operand::Zst
            }
            "thread_fence_block" | "thread_fence" => {
                let scope =
                    if name == "thread_fence" { FenceScope::Device } else { FenceScope::Block };
                self.op0(OpKind::Fence(scope), &[], span);
                Operand::Zst
            }
            "shared_array" => {
                let t = ty_arg(0);
                let n = match targs.get(1) {
                    Some(GenericArg::Const(Const::Value(n))) => *n,
                    _ => 0,
                };
                let elem = self.mem_type(&t, span);
                if !elem.is_storable() || contains_ptr(&elem) {
                    self.error(
                        Diagnostic::new(
                            RK_UNSUPPORTED_TYPE,
                            format!("shared arrays of `{}` are not supported", self.tcx.show(&t)),
                        )
                        .at(
                            span,
                            "shared arrays hold numbers, `bool`, and arrays and structs of them",
                        ),
                    );
                }
                let at = Type::Array { elem: Box::new(elem), len: n };
                Operand::Scalar(self.op1(OpKind::Shared, &[], Type::ptr(true, at), span))
            }
            "dynamic_shared" => {
                let t = ty_arg(0);
                let elem = self.mem_type(&t, span);
                Operand::Scalar(self.op1(OpKind::DynShared, &[], Type::ptr(true, elem), span))
            }
            "lane_id" => {
                Operand::Scalar(self.op1(OpKind::Warp(WarpOp::LaneId), &[], Type::U32, span))
            }
            "warp_shuffle" | "warp_shuffle_xor" | "warp_shuffle_up" | "warp_shuffle_down" => {
                let mode = match name {
                    "warp_shuffle_xor" => ShuffleMode::Xor,
                    "warp_shuffle_up" => ShuffleMode::Up,
                    "warp_shuffle_down" => ShuffleMode::Down,
                    _ => ShuffleMode::Idx,
                };
                let [v, k] = sargs[..] else { return Operand::Never };
                let t = self.ty_of(v);
                let op = OpKind::Warp(WarpOp::Shuffle(mode));
                if let Some(moved) = self.widened_warp_op(op.clone(), v, &[k], span) {
                    return Operand::Scalar(moved);
                }
                // A 16-bit float moves as its bits, as a `u16` does.
                if let Type::Float(f) = &t
                    && f.is_half()
                {
                    let bits = self.op1(
                        OpKind::Math(rkc_rk::math::MathFn::ToBits),
                        &[v],
                        Type::Int(IntTy::U16),
                        span,
                    );
                    let moved = self.widened_warp_op(op, bits, &[k], span).unwrap_or(bits);
                    return Operand::Scalar(self.op1(
                        OpKind::Math(rkc_rk::math::MathFn::FromBits),
                        &[moved],
                        t,
                        span,
                    ));
                }
                // A 128-bit integer moves as its two 64-bit halves, from the same lane.
                if let Type::Int(i) = &t
                    && i.bits() == 128
                {
                    let (half, wide) = (IntTy::U64, IntTy::U128);
                    let u = self.cast(v, Type::Int(wide), span);
                    let sixty_four = self.const_int(64, wide, span);
                    let high = self.op1(
                        OpKind::Binary(BinOp::Shr),
                        &[u, sixty_four],
                        Type::Int(wide),
                        span,
                    );
                    let lo = self.cast(u, Type::Int(half), span);
                    let hi = self.cast(high, Type::Int(half), span);
                    let lo = self.op1(op.clone(), &[lo, k], Type::Int(half), span);
                    let hi = self.op1(op, &[hi, k], Type::Int(half), span);
                    let lo = self.cast(lo, Type::Int(wide), span);
                    let hi = self.cast(hi, Type::Int(wide), span);
                    let hi = self.op1(
                        OpKind::Binary(BinOp::Shl),
                        &[hi, sixty_four],
                        Type::Int(wide),
                        span,
                    );
                    let joined =
                        self.op1(OpKind::Binary(BinOp::Or), &[hi, lo], Type::Int(wide), span);
                    return Operand::Scalar(self.cast(joined, t, span));
                }
                if !(matches!(&t, Type::Int(i) if matches!(i.bits(), 32 | 64)) || t.is_float()) {
                    self.error(
                        Diagnostic::new(
                            RK_UNSUPPORTED_TYPE,
                            format!("warp shuffles of `{t}` are not supported"),
                        )
                        .at(span, "shuffles move integers and floats"),
                    );
                }
                Operand::Scalar(self.op1(op, &[v, k], t, span))
            }
            "warp_any" | "warp_all" | "warp_ballot" => {
                let (op, t) = match name {
                    "warp_any" => (WarpOp::Any, Type::Bool),
                    "warp_all" => (WarpOp::All, Type::Bool),
                    _ => (WarpOp::Ballot, Type::U32),
                };
                let [p] = sargs[..] else { return Operand::Never };
                Operand::Scalar(self.op1(OpKind::Warp(op), &[p], t, span))
            }
            "warp_reduce_add" | "warp_reduce_min" | "warp_reduce_max" => {
                let op = match name {
                    "warp_reduce_add" => ReduceOp::Add,
                    "warp_reduce_min" => ReduceOp::Min,
                    _ => ReduceOp::Max,
                };
                let [v] = sargs[..] else { return Operand::Never };
                let t = self.ty_of(v);
                let reduce = OpKind::Warp(WarpOp::Reduce(op));
                // A wrapping sum, the minimum and the maximum of the widened values narrow back
                // to those of the narrow type.
                if let Some(r) = self.widened_warp_op(reduce.clone(), v, &[], span) {
                    return Operand::Scalar(r);
                }
                let float_ok = matches!(&t, Type::Float(f) if !f.is_half());
                if !(matches!(&t, Type::Int(i) if matches!(i.bits(), 32 | 64)) || float_ok) {
                    self.error(
                        Diagnostic::new(
                            RK_UNSUPPORTED_TYPE,
                            format!("warp reductions of `{t}` are not supported"),
                        )
                        .at(span, "reductions take 8- to 64-bit integers, `f32` and `f64`")
                        .help("reduce the `f32` values of 16-bit floats (`x.to_f32()`) and convert the result"),
                    );
                    return Operand::Never;
                }
                Operand::Scalar(self.op1(reduce, &[v], t, span))
            }
            "mma_m16n8k16_f16" | "mma_m16n8k16_bf16" => {
                let ty = if name.ends_with("bf16") { MmaType::Bf16 } else { MmaType::F16 };
                // The fragments are arrays in memory; rk.mma takes their elements.
                let mut operands = Vec::with_capacity(16);
                for (arg, len) in args.iter().zip([8u64, 4, 4]) {
                    let Operand::Mem(p) = arg else { return Operand::Never };
                    for k in 0..len {
                        let i = self.const_usize(k, span);
                        let e = self.elem_ptr(*p, i, span);
                        operands.push(self.load(e, span));
                    }
                }
                if operands.len() != 16 {
                    return Operand::Never;
                }
                let d: Vec<ValueId> = (0..4).map(|_| self.new_value(Type::F32)).collect();
                let loc = self.loc(span);
                self.push_op(OpKind::Mma(ty), operands, d.clone(), Vec::new(), loc);
                let out = self.local(Type::Array { elem: Box::new(Type::F32), len: 4 }, span);
                for (k, x) in d.into_iter().enumerate() {
                    let i = self.const_usize(k as u64, span);
                    let e = self.elem_ptr(out, i, span);
                    self.store(x, e, span);
                }
                Operand::Mem(out)
            }
            _ if name.starts_with("wgmma_m64n") || name.starts_with("wgmma_sw128_m64n") => {
                // `wgmma_m64n{64,128,256}k16_{f16,bf16}(a, a_k, a_m, b, b_k, b_n, d)`, and
                // `wgmma_sw128_...(a, a_k0, a_m, b, b_k, b_n, d)` on swizzled tiles.
                let (swizzle, shape) = match name.strip_prefix("wgmma_sw128_m64n") {
                    Some(rest) => (rkc_rk::wgmma::Swizzle::B128, rest),
                    None => (rkc_rk::wgmma::Swizzle::None, &name["wgmma_m64n".len()..]),
                };
                let Some((n, ty)) = shape.split_once("k16_").and_then(|(n, t)| {
                    let ty = MmaType::ALL.into_iter().find(|m| m.name() == t)?;
                    Some((n.parse::<u32>().ok()?, ty))
                }) else {
                    return Operand::Never;
                };
                let [a, a_k, a_m, b, b_k, b_n] = sargs[..] else { return Operand::Never };
                let Some(Operand::Mem(d_in)) = args.get(6) else { return Operand::Never };
                // The checks the simulator makes, in its order: whole warpgroups, tiles
                // 16-byte aligned (the descriptors drop an address's low four bits), strides
                // that the descriptors' fields hold.
                let mut threads = None;
                for dim in [Dim::X, Dim::Y, Dim::Z] {
                    let d =
                        self.op1(OpKind::Geometry(Geometry::BlockDim, dim), &[], Type::U32, span);
                    let d = self.cast(d, Type::USIZE, span);
                    threads = Some(match threads {
                        Some(t) => self.bin(BinOp::Mul, t, d, span),
                        None => d,
                    });
                }
                let mask = self.const_usize(127, span);
                let partial = self.bin(BinOp::And, threads.unwrap_or(mask), mask, span);
                let zero = self.const_usize(0, span);
                let whole = self.cmp(CmpOp::Eq, partial, zero, span);
                self.assert_with(whole, rkc_rk::wgmma::PARTIAL_WARPGROUP, None, span);
                let (misaligned, align, bad_strides) = rkc_rk::wgmma::checks(swizzle);
                self.assert_aligned(&[a, b], align, misaligned, span);
                // A multiple of 8 below 2^17 has no bits outside `0x1fff8`; with swizzling,
                // `a_k0` none outside `0x30` and a multiple of 512 below 2^17 none outside
                // `0x1fe00`.
                let (first, rest) = match swizzle {
                    rkc_rk::wgmma::Swizzle::None => (0x1fff8u64, 0x1fff8u64),
                    rkc_rk::wgmma::Swizzle::B128 => (0x30, 0x1fe00),
                };
                let mask = self.const_usize(!first, span);
                let mut bad = self.bin(BinOp::And, a_k, mask, span);
                let mut bits = a_m;
                for s in [b_k, b_n] {
                    bits = self.bin(BinOp::Or, bits, s, span);
                }
                let mask = self.const_usize(!rest, span);
                let outside = self.bin(BinOp::And, bits, mask, span);
                bad = self.bin(BinOp::Or, bad, outside, span);
                let zero = self.const_usize(0, span);
                let ok = self.cmp(CmpOp::Eq, bad, zero, span);
                self.assert_with(ok, bad_strides, None, span);
                let half = n as u64 / 2;
                let mut operands = vec![a, a_k, a_m, b, b_k, b_n];
                for k in 0..half {
                    let i = self.const_usize(k, span);
                    let e = self.elem_ptr(*d_in, i, span);
                    operands.push(self.load(e, span));
                }
                let d: Vec<ValueId> = (0..half).map(|_| self.new_value(Type::F32)).collect();
                let loc = self.loc(span);
                self.push_op(
                    OpKind::Wgmma { ty, n, swizzle },
                    operands,
                    d.clone(),
                    Vec::new(),
                    loc,
                );
                let out = self.local(Type::Array { elem: Box::new(Type::F32), len: half }, span);
                for (k, x) in d.into_iter().enumerate() {
                    let i = self.const_usize(k as u64, span);
                    let e = self.elem_ptr(out, i, span);
                    self.store(x, e, span);
                }
                Operand::Mem(out)
            }
            "fence_proxy_async" | "wgmma_fence" | "wgmma_commit" => {
                let sync = match name {
                    "fence_proxy_async" => WgmmaSync::ProxyFence,
                    "wgmma_fence" => WgmmaSync::Fence,
                    _ => WgmmaSync::Commit,
                };
                self.op0(OpKind::WgmmaSync(sync), &[], span);
                Operand::Zst
            }
            "wgmma_wait" => {
                let pending = match targs.first() {
                    Some(GenericArg::Const(Const::Value(n))) => *n,
                    _ => 0,
                };
                // The count is an immediate of at most 7 in the instruction.
                let Some(pending) = u32::try_from(pending).ok().filter(|&n| n <= 7) else {
                    self.error(
                        Diagnostic::new(
                            RK_UNSUPPORTED_TYPE,
                            format!("`wgmma_wait::<{pending}>` waits for too many batches"),
                        )
                        .at(span, "the count of pending batches is at most 7"),
                    );
                    return Operand::Zst;
                };
                self.op0(OpKind::WgmmaSync(WgmmaSync::Wait(pending)), &[], span);
                Operand::Zst
            }
            "mma_ldmatrix_a" | "mma_ldmatrix_b" => {
                let m = if name.ends_with('a') { MatrixOperand::A } else { MatrixOperand::B };
                let t = ty_arg(0);
                let elem = self.mem_type(&t, span);
                if !matches!(elem, Type::Float(f) if f.is_half()) {
                    self.error(
                        Diagnostic::new(
                            RK_UNSUPPORTED_TYPE,
                            format!(
                                "matrix fragments of `{}` are not supported",
                                self.tcx.show(&t)
                            ),
                        )
                        .at(span, "`ldmatrix` loads fragments of `f16` or `bf16`"),
                    );
                    return Operand::Never;
                }
                let [tile, stride] = sargs[..] else { return Operand::Never };
                // Every row `ldmatrix` reads starts at `tile + row * stride` elements of two
                // bytes, and must be 16-byte aligned: `tile` aligned and `stride` a multiple
                // of 8.
                let two = self.const_usize(2, span);
                let row_bytes = self.bin(BinOp::Mul, stride, two, span);
                self.assert_aligned(&[tile, row_bytes], 16, rkc_rk::MISALIGNED_LDMATRIX, span);
                let results: Vec<ValueId> =
                    (0..m.elements()).map(|_| self.new_value(elem.clone())).collect();
                let loc = self.loc(span);
                self.push_op(
                    OpKind::LdMatrix(m),
                    vec![tile, stride],
                    results.clone(),
                    Vec::new(),
                    loc,
                );
                let out = self
                    .local(Type::Array { elem: Box::new(elem), len: m.elements() as u64 }, span);
                for (k, x) in results.into_iter().enumerate() {
                    let i = self.const_usize(k as u64, span);
                    let e = self.elem_ptr(out, i, span);
                    self.store(x, e, span);
                }
                Operand::Mem(out)
            }
            "cp_async" => {
                let t = ty_arg(0);
                let size = self.mem_type(&t, span).size_of();
                if !matches!(size, 4 | 8 | 16) {
                    self.error(
                        Diagnostic::new(
                            RK_UNSUPPORTED_TYPE,
                            format!(
                                "asynchronous copies of `{}` ({size} bytes) are not supported",
                                self.tcx.show(&t)
                            ),
                        )
                        .at(span, "`cp_async` copies 4, 8 or 16 bytes")
                        .help("copy a `u32`, a `[f16; 4]`, a `[f32; 4]` or another value of those sizes"),
                    );
                    return Operand::Zst;
                }
                let [d, s] = sargs[..] else { return Operand::Never };
                self.assert_aligned(
                    &[s, d],
                    size,
                    &rkc_rk::misaligned_async_copy(size as usize),
                    span,
                );
                self.op0(OpKind::CopyAsync, &[d, s], span);
                Operand::Zst
            }
            "cp_async_commit" => {
                self.op0(OpKind::AsyncCommit, &[], span);
                Operand::Zst
            }
            "cp_async_wait" => {
                let pending = match targs.first() {
                    Some(GenericArg::Const(Const::Value(n))) => *n,
                    _ => 0,
                };
                // The count is a 32-bit signed immediate in the instruction (NVVM's
                // `cp.async.wait.group` takes an `i32`).
                let Some(pending) =
                    u32::try_from(pending).ok().filter(|&n| i32::try_from(n).is_ok())
                else {
                    self.error(
                        Diagnostic::new(
                            RK_UNSUPPORTED_TYPE,
                            format!("`cp_async_wait::<{pending}>` waits for too many groups"),
                        )
                        .at(span, "the count of pending groups is at most `i32::MAX`"),
                    );
                    return Operand::Zst;
                };
                self.op0(OpKind::AsyncWait { pending }, &[], span);
                Operand::Zst
            }
            "atomic_compare_exchange" => {
                let [p, a, b] = sargs[..] else { return Operand::Never };
                let t = self.ty_of(a);
                self.check_atomic(&t, None, span);
                Operand::Scalar(self.op1(OpKind::AtomicCas, &[p, a, b], t, span))
            }
            _ if name.starts_with("atomic_") => {
                let op = match &name["atomic_".len()..] {
                    "add" => AtomicOp::Add,
                    "sub" => AtomicOp::Sub,
                    "and" => AtomicOp::And,
                    "or" => AtomicOp::Or,
                    "xor" => AtomicOp::Xor,
                    "min" => AtomicOp::Min,
                    "max" => AtomicOp::Max,
                    _ => AtomicOp::Exchange,
                };
                let [p, v] = sargs[..] else { return Operand::Never };
                let t = self.ty_of(v);
                self.check_atomic(&t, Some(op), span);
                Operand::Scalar(self.op1(OpKind::Atomic(op), &[p, v], t, span))
            }
            _ => {
                self.error(
                    Diagnostic::new(
                        RK_INTERNAL,
                        format!("the intrinsic `{name}` is not known to the lowering"),
                    )
                    .at(span, "called here"),
                );
                Operand::Never
            }
        }
    }

    /// A warp operation on an 8- or 16-bit integer `v` (its other operands `rest`), done on the
    /// value widened to 32 bits (sign- or zero-extended, as C's promotion to `int` does before
    /// CUDA's `__shfl_sync`) and narrowed back; `None` for other types.
    fn widened_warp_op(
        &mut self,
        op: OpKind,
        v: ValueId,
        rest: &[ValueId],
        span: Span,
    ) -> Option<ValueId> {
        let t = self.ty_of(v);
        let Type::Int(i) = &t else { return None };
        if !matches!(i.bits(), 8 | 16) {
            return None;
        }
        let wide = if i.is_signed() { Type::I32 } else { Type::U32 };
        let w = self.cast(v, wide.clone(), span);
        let operands: Vec<ValueId> = std::iter::once(w).chain(rest.iter().copied()).collect();
        let r = self.op1(op, &operands, wide, span);
        Some(self.cast(r, t, span))
    }

    fn check_atomic(&mut self, t: &Type, op: Option<AtomicOp>, span: Span) {
        let int_ok = matches!(t, Type::Int(i) if matches!(i.bits(), 32 | 64));
        let bitwise = matches!(op, Some(AtomicOp::And | AtomicOp::Or | AtomicOp::Xor));
        let float_ok = matches!(t, Type::Float(f) if !f.is_half()) && !bitwise;
        if !int_ok && !float_ok {
            self.error(
                Diagnostic::new(RK_UNSUPPORTED_TYPE, format!("atomics on `{t}` are not supported"))
                    .at(span, "atomics take 32- and 64-bit integers, and `f32`/`f64` but for `atomic_and`, `atomic_or` and `atomic_xor`"),
            );
        }
    }

    /// `rk.math f` (and the bit reinterpretations, which are identities for `char`).
    fn math(
        &mut self,
        f: &str,
        sargs: &[ValueId],
        _args: &[Operand],
        ret: &Ty,
        span: Span,
    ) -> Operand {
        let Some(mf) = rkc_rk::math::MathFn::from_name(f) else {
            self.error(
                Diagnostic::new(RK_INTERNAL, format!("no math function `{f}`")).at(span, "here"),
            );
            return Operand::Never;
        };
        let rt = match self.repr(ret, span) {
            Repr::Scalar(t) => t,
            _ => return Operand::Never,
        };
        if matches!(mf, rkc_rk::math::MathFn::ToBits | rkc_rk::math::MathFn::FromBits)
            && let Some(x) = sargs.first()
            && self.ty_of(*x).is_int()
            && rt.is_int()
        {
            return Operand::Scalar(self.cast(*x, rt, span));
        }
        let tys: Vec<Type> = sargs.iter().map(|v| self.ty_of(*v)).collect();
        let refs: Vec<&Type> = tys.iter().collect();
        if mf.result_type(&refs, &rt).as_ref() != Some(&rt) {
            self.error(
                Diagnostic::new(
                    RK_UNKNOWN_METHOD,
                    format!(
                        "`{f}` is not supported on `{}` in kernels",
                        tys.first().map(ToString::to_string).unwrap_or_default()
                    ),
                )
                .at(span, "called here"),
            );
            return Operand::Never;
        }
        Operand::Scalar(self.op1(OpKind::Math(mf), sargs, rt, span))
    }

    pub fn find_addressed_pub(&self) -> std::collections::HashSet<LocalId> {
        self.find_addressed()
    }
}

fn contains_ptr(t: &Type) -> bool {
    match t {
        Type::Ptr { .. } | Type::Slice { .. } => true,
        Type::Array { elem, .. } => contains_ptr(elem),
        Type::Struct { fields, .. } => fields.iter().any(|(_, f)| contains_ptr(f)),
        _ => false,
    }
}

/// The elements of a table initialiser (an array, possibly nested, of number literals), in
/// memory order; `None` when it is anything else.
pub fn table_values(e: &syn::Expr, ty: &Type) -> Option<Vec<rkc_rk::Literal>> {
    let strip = |e: &syn::Expr| -> syn::Expr {
        let mut e = e.clone();
        while let syn::Expr::Paren(p) = e {
            e = *p.expr;
        }
        e
    };
    match (strip(e), ty) {
        (syn::Expr::Array(a), Type::Array { elem, len }) if a.elems.len() as u64 == *len => {
            let mut out = Vec::new();
            for x in &a.elems {
                out.extend(table_values(x, elem)?);
            }
            Some(out)
        }
        (syn::Expr::Repeat(r), Type::Array { elem, len }) => {
            let one = table_values(&r.expr, elem)?;
            let n = usize::try_from(*len).ok()?;
            if one.len().checked_mul(n)? > 1 << 20 {
                return None;
            }
            Some(one.iter().cycle().take(one.len() * n).cloned().collect())
        }
        (x, scalar) if scalar.is_numeric() => {
            let (lit, negate) = match &x {
                syn::Expr::Lit(l) => (l.lit.clone(), false),
                syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Neg(_), expr, .. }) => {
                    match strip(expr) {
                        syn::Expr::Lit(l) => (l.lit, true),
                        _ => return None,
                    }
                }
                _ => return None,
            };
            match (&lit, scalar) {
                (syn::Lit::Int(i), Type::Int(t))
                    if i.suffix().is_empty() || i.suffix() == t.name() =>
                {
                    let magnitude = i.base10_parse::<u128>().ok()?;
                    if !t.contains(magnitude, negate) {
                        return None;
                    }
                    let bits = if negate { magnitude.wrapping_neg() } else { magnitude };
                    Some(vec![rkc_rk::Literal::Int(bits & mask(t.bits()))])
                }
                (syn::Lit::Float(f), Type::Float(t))
                    if f.suffix().is_empty() || f.suffix() == t.name() =>
                {
                    let v: f64 = f.base10_parse().ok()?;
                    let v = if negate { -v } else { v };
                    // A table keeps the value of its type nearest to the literal, as rustc does.
                    Some(vec![rkc_rk::Literal::Float(t.value_of(t.bits_of(v)))])
                }
                _ => None,
            }
        }
        _ => None,
    }
}
