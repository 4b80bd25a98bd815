//! Method calls: rustc's probe. The receiver is auto-dereferenced step by step (through
//! references and `Deref` impls, then an array to its slice); at each step a method taking the step's type by
//! value, then by `&`, then by `&mut`, is looked for in inherent impls first and in the
//! traits the type implements next. The first that fits is the method, and the receiver gets
//! the adjustments that make it fit.

use super::expr::FnCtxt;
use super::traits::Obligation;
use super::*;
use crate::hir::ExprKind;
use crate::ty::{Infer, Projection};

/// A method found by the probe.
pub(super) struct Pick {
    pub method: DefId,
    /// The container's arguments: the impl's, or the trait's with `Self` first.
    pub container_args: Vec<GenericArg>,
    /// The receiver's auto-derefs.
    pub derefs: Vec<Adjust>,
    pub autoref: Option<bool>,
    pub unsize: bool,
    /// The trait the method comes from, for its obligation.
    pub trait_id: Option<DefId>,
}

impl<'c, 't, 'a> FnCtxt<'c, 't, 'a> {
    #[allow(clippy::too_many_arguments, reason = "the parts of one method call")]
    pub fn check_method_call(
        &mut self,
        e: ExprId,
        receiver: ExprId,
        name: &str,
        name_span: Span,
        turbofish: Option<&'a syn::AngleBracketedGenericArguments>,
        args: &[ExprId],
        scope: crate::items::ScopeId,
        expected: Option<&Ty>,
    ) -> Ty {
        let span = self.span(e);
        let rt = self.check_expr(receiver, None);
        let mut rs = self.shallow(&rt);
        // Pending obligations may decide the receiver: `keys.get(i)`'s element type comes from
        // a projection, and `k == 0` on it before made it only `{integer}`.
        if matches!(rs.kind(), TyKind::Infer(_)) {
            self.select_pending();
            rs = self.shallow(&rt);
        }
        // A reference to a type an error left unknown (`&Cell<u32>` where `Cell` is not found)
        // has no methods to look for: any would be a guess, and its errors follow-on ones.
        let mut peeled = rs.clone();
        while let TyKind::Ref(inner, _) | TyKind::Ptr(inner, _) = peeled.kind() {
            peeled = self.shallow(inner);
        }
        if matches!(peeled.kind(), TyKind::Error) {
            self.check_args_unresolved(args);
            return Ty::error();
        }
        match rs.kind() {
            // A trait method may still be found (`4.min(n)` is `Ord::min`, whose `Self` the
            // argument then decides); an inherent one (`5.pow(2)`) needs the literal's type,
            // as in rustc.
            TyKind::Infer(Infer::Int(_) | Infer::Float(_))
                if self.probe_method(&rs, name, span).is_none() =>
            {
                self.error(
                    Diagnostic::new(
                        RK_AMBIGUOUS_NUMERIC,
                        format!("can't call method `{name}` on ambiguous numeric type"),
                    )
                    .at(self.span(receiver), "the literal's type is not known here")
                    .help("give the literal a suffix, such as `2.0f32` or `3u32` (rustc's E0689)"),
                );
                self.check_args_unresolved(args);
                return Ty::error();
            }
            TyKind::Infer(Infer::Var(_)) => {
                self.error(
                    Diagnostic::new(RK_CANNOT_INFER, "type annotations needed")
                        .at(
                            self.span(receiver),
                            format!("the type of this value must be known to call `{name}` on it"),
                        )
                        .help("give the `let` a type: `let x: T = ...`"),
                );
                self.check_args_unresolved(args);
                return Ty::error();
            }
            _ => {}
        }
        let pick = match self.param_env_pick(receiver, &rs, name) {
            Some(pick) => {
                self.record_declared_call(e, receiver, &pick);
                Some(pick)
            }
            None => {
                let pick = self.probe_method(&rs, name, span);
                if let Some(pick) = &pick {
                    self.record_declared_inherent_call(e, receiver, pick);
                }
                pick
            }
        };
        let Some(pick) = pick else {
            // A closure stored in a field is called as `(s.f)(x)`, not `s.f(x)`.
            let shown = self.show(&rs);
            let mut d = Diagnostic::new(
                RK_UNKNOWN_METHOD,
                format!("no method named `{name}` found for `{shown}` in kernels"),
            )
            .at(name_span, "method not found");
            d = d.note("methods come from the type's `impl` blocks, the traits implemented for it, and rkc's core library (the methods of `core` that kernels use)");
            let is_str = |t: &Ty| matches!(t.kind(), TyKind::Str);
            if is_str(&rs) || rs.pointee().is_some_and(|(t, _)| is_str(&self.shallow(t))) {
                d = d.help("string slices have no methods in kernels (they are only panic and print messages): write a byte string, `b\"abc\"`, and use slice methods");
            }
            d = self.with_unknown_trait_impls(d, &rs, name);
            self.error(d);
            self.check_args_unresolved(args);
            return Ty::error();
        };
        if let Some(t) = pick.trait_id {
            self.require_trait_in_scope(t, name, name_span, scope);
        }
        if !self.trusted {
            self.require_method_bound(receiver, &pick, name, name_span);
        }
        // The receiver's adjustments.
        let overloaded = pick.derefs.iter().any(|a| matches!(a, Adjust::Overloaded { .. }));
        self.add_derefs(receiver, &pick.derefs, span);
        if let Some(m) = pick.autoref {
            self.add_adjust(receiver, Adjust::Borrow(m));
            if pick.unsize {
                self.add_adjust(receiver, Adjust::Unsize);
            }
            if m && overloaded {
                self.require_deref_mut(&pick.derefs, span);
            }
            if m && !self.trusted {
                self.check_mutable_receiver(receiver, name, span);
            }
        }
        let mut full = pick.container_args.clone();
        let own = match turbofish {
            Some(t) => self.own_args_angle(pick.method, Some(t), scope),
            None => self.fresh_args_own(pick.method),
        };
        full.extend(own);
        if let Some(t) = pick.trait_id {
            self.obligations.push(Obligation::Trait {
                trait_id: t,
                args: pick.container_args.clone(),
                span,
            });
        }
        self.add_predicates(pick.method, &full, span);
        self.tcx.note_use(self.def, pick.method);
        let sig = self.tcx.fn_sig(pick.method);
        if sig.unsafe_fn {
            self.require_unsafe(span, &format!("call to unsafe function `{name}`"));
        }
        let inputs: Vec<Ty> = sig.inputs.iter().map(|t| self.normalize(&t.subst(&full))).collect();
        let output = self.normalize(&sig.output.subst(&full));
        // The adjusted receiver is the method's `self`.
        let adjusted = self.r.adjusted_partial(receiver, &rt);
        if let Some(self_param) = inputs.first() {
            let _ = self.infer.unify(self_param, &adjusted);
        }
        self.r.callees.insert(e, Callee { def: pick.method, args: full.into() });
        if inputs.len() != args.len() + 1 {
            self.arity_error(e, receiver, inputs.len().saturating_sub(1), args.len(), span);
            self.check_args_unresolved(args);
            return output;
        }
        let hints = self.expected_inputs(&output, expected, &inputs[1..]);
        if let Some(x) = expected {
            let x = x.clone();
            let _ = self.infer.probe(|i| i.unify(&output, &x).ok().filter(|_| !output.is_infer()));
        }
        self.check_args(args, &inputs[1..], &hints);
        output
    }

    /// Reports a method of one of the file's own traits called where the trait is not in
    /// scope (rustc's E0599): not imported, not a bound of the calling item (with its
    /// supertraits), and not the trait the calling item implements. The core's traits are
    /// left to rustc: rkc's prelude and core are not the real ones item for item.
    /// A method that the user's file defines in an impl of a trait rkc cannot find for the
    /// receiver's type (a `core` trait its device core lacks, such as `Hasher`): that impl is
    /// why the method is missing, so the error shows it and says what its trait is.
    fn with_unknown_trait_impls(
        &mut self,
        mut d: Diagnostic,
        receiver: &Ty,
        name: &str,
    ) -> Diagnostic {
        let items = self.tcx.items;
        let mut peeled = self.shallow(receiver);
        while let TyKind::Ref(inner, _) = peeled.kind() {
            peeled = self.shallow(inner);
        }
        let TyKind::Adt(adt, _) = peeled.kind() else { return d };
        for &imp in &items.impls {
            let def = items.def(imp);
            let DefKind::Impl { trait_path: Some(path), items: members, .. } = &def.kind else {
                continue;
            };
            if def.file != FileId::User || !members.iter().any(|&m| items.name(m) == name) {
                continue;
            }
            let header = self.tcx.impl_header(imp);
            if header.trait_ref.is_some()
                || !matches!(header.self_ty.kind(), TyKind::Adt(a, _) if a == adt)
            {
                continue;
            }
            let trait_name = path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
            let span = Span::from_pm2(syn::spanned::Spanned::span(path));
            d = d.with_secondary(
                span,
                format!(
                    "`{name}` is defined in this impl of `{trait_name}`, a trait rkc cannot find"
                ),
            );
            d = d.note(match items.unresolved_core_import(def.scope, &trait_name) {
                Some(from) => format!(
                    "`{trait_name}` is imported from `{from}`, which rkc's device core does not have: the impl's methods are not the type's in kernels"
                ),
                None => format!(
                    "rkc finds no trait `{trait_name}` there, so the impl's methods are not the type's"
                ),
            });
        }
        d
    }

    fn require_trait_in_scope(
        &mut self,
        t: DefId,
        name: &str,
        span: Span,
        scope: crate::items::ScopeId,
    ) {
        let items = self.tcx.items;
        if self.trusted || items.def(t).file != FileId::User || items.trait_in_scope(scope, t) {
            return;
        }
        let bounds = self.tcx.with_supertraits(
            self.tcx.predicates(self.def).iter().map(|(_, b)| b.trait_id).collect(),
        );
        if bounds.contains(&t) {
            return;
        }
        let implemented = match items.container(self.def) {
            crate::items::Container::Impl(imp) => {
                self.tcx.impl_header(imp).trait_ref.as_ref().is_some_and(|(it, _)| *it == t)
            }
            crate::items::Container::Trait(tt) => tt == t,
            crate::items::Container::Free => false,
        };
        if implemented {
            return;
        }
        let trait_name = items.name(t).to_string();
        let mut d = Diagnostic::new(
            RK_UNKNOWN_METHOD,
            format!("no method named `{name}` found in the current scope"),
        )
        .at(
            span,
            format!("`{name}` is a method of the trait `{trait_name}`, which is not in scope"),
        );
        let lines = items.import_suggestions(&trait_name, crate::items::Ns::Type);
        d = match lines.first() {
            Some(line) => d.help(format!("import the trait: `{line}`")),
            None => d.help(format!("import the trait `{trait_name}`")),
        };
        self.error(d);
    }

    /// A method called on a parameter typed by a type parameter `T` (or `&T`) must come
    /// from `T`'s bounds (rustc's E0599): the instance's substituted type may have it where
    /// the bounds do not. Left alone where rkc cannot decide: a trait with a blanket impl
    /// (`impl<T: Copy> Ext for T`, `Into`), and an inherent method while `T` has bounds (one
    /// may be `Deref`).
    fn require_method_bound(&mut self, receiver: ExprId, pick: &Pick, name: &str, span: Span) {
        let Some(param) = self.generic_param_operand(receiver) else { return };
        let bounds = self.param_bounds(param);
        let missing = match pick.trait_id {
            Some(t) => {
                let blanket = self.tcx.trait_impls().get(&t).is_some_and(|imps| {
                    imps.iter().any(|&imp| {
                        matches!(self.tcx.impl_header(imp).self_ty.kind(), TyKind::Param(_))
                    })
                });
                (!bounds.contains(&t) && !blanket).then(|| self.tcx.items.name(t).to_string())
            }
            None => bounds.is_empty().then(String::new),
        };
        let Some(trait_name) = missing else { return };
        let param_name = self.param_name(param);
        let mut d = Diagnostic::new(
            RK_UNKNOWN_METHOD,
            format!("no method named `{name}` found for type parameter `{param_name}` in the current scope"),
        )
        .at(span, format!("`{param_name}` is a type parameter; its bounds give no `{name}`"));
        if !trait_name.is_empty() {
            d = d.help(format!(
                "restrict the type parameter with the trait that has `{name}`: `{param_name}: {trait_name}`"
            ));
        }
        self.error(d);
    }

    /// The method a call on a parameter declared `T`, `&T` or `&mut T` gets from `T`'s
    /// bounds, with the instance's `T` as `Self`. rustc checks a generic body once, its type
    /// parameters opaque, so such a call is always the bound trait's method for `T` itself;
    /// rkc checks each instance with `T` substituted, where auto-deref would first find the
    /// method of what `T` points to (`t.code()` with `T = &u32` is `<&u32 as Code>::code`, which
    /// may differ from `u32`'s). The same for a receiver declared as a projection with bounds:
    /// `x.code()` for `for x in it` with `it: I` and `I::Item: Code` is `<I::Item as
    /// Code>::code`, `<&u32 as Code>::code` when `it` is a `slice::Iter<u32>`. Only when exactly
    /// one bound trait has the method and it holds for the substituted type; otherwise the
    /// ordinary probe decides.
    fn param_env_pick(&mut self, receiver: ExprId, rs: &Ty, name: &str) -> Option<Pick> {
        let (declared, declared_ref) = self.generic_declared(receiver)?;
        let candidates: Vec<(DefId, DefId)> = self
            .declared_bounds(&declared)
            .into_iter()
            .filter_map(|t| {
                let m = self.tcx.items.assoc_item(t, name, false)?;
                let is_fn = matches!(self.tcx.items.def(m).kind, DefKind::Fn { .. });
                (is_fn && self.tcx.fn_sig(m).self_kind.is_some()).then_some((t, m))
            })
            .collect();
        let [(t, m)] = candidates[..] else { return None };
        // The adjustments rustc's probe makes from the declared type to the method's `self`:
        // `T` borrowed for `&self`/`&mut self`, `&T` passed as it is, `&mut T` reborrowed.
        let (derefs, autoref) = match (self.tcx.fn_sig(m).self_kind?, declared_ref) {
            (SelfKind::Value, None) => (vec![], None),
            (SelfKind::Ref, None) => (vec![], Some(false)),
            (SelfKind::RefMut, None) => (vec![], Some(true)),
            (SelfKind::Ref, Some(false)) | (SelfKind::RefMut, Some(true)) => (vec![], None),
            (SelfKind::Ref, Some(true)) => (vec![Adjust::Deref], Some(false)),
            _ => return None,
        };
        let step = if derefs.is_empty() {
            rs.clone()
        } else {
            let TyKind::Ref(inner, _) = rs.kind() else { return None };
            self.shallow(inner)
        };
        let adjusted = match autoref {
            None => step,
            Some(m) => Ty::reference(step, m),
        };
        let targs = self.fresh_args(t);
        // The trait's other arguments are the where-clause's, when one clause names the trait
        // for the declared type (`I::Item: Into<f64>` makes `x.into()` an `f64`), as rustc's
        // candidate from the clause has them.
        let preds = self.tcx.predicates(self.def);
        let clauses: Vec<_> =
            preds.iter().filter(|(ty, b)| *ty == declared && b.trait_id == t).collect();
        if let [(_, clause)] = clauses[..] {
            for (fresh, arg) in targs.iter().zip(&clause.args).skip(1) {
                if let (Some(fresh), Some(arg)) = (fresh.ty(), arg.ty()) {
                    let arg = self.normalize(&arg.subst(&self.args));
                    let _ = self.infer.unify(fresh, &arg);
                }
            }
        }
        let mut full = targs.clone();
        full.extend(self.fresh_args_own(m));
        let xform = self.tcx.fn_sig(m).inputs.first()?.subst(&full);
        if !self.trait_method_fits(t, &targs, &xform, &adjusted) {
            return None;
        }
        Some(Pick {
            method: m,
            container_args: targs,
            derefs,
            autoref,
            unsize: false,
            trait_id: Some(t),
        })
    }

    /// Remembers a call that `param_env_pick` resolved, with the receiver's declared type as
    /// the method's `Self`, where the trait has no other parameters (see `declared.rs`).
    fn record_declared_call(&mut self, e: ExprId, receiver: ExprId, pick: &Pick) {
        let Some((declared, _)) = self.generic_declared(receiver) else { return };
        if pick.container_args.len() == 1 {
            self.declared_calls.insert(e, (pick.method, vec![GenericArg::Ty(declared)]));
        }
    }

    /// Whether trait `t`'s method, whose `self` type is `xform` under the trait's arguments
    /// `targs`, takes the receiver `adjusted` and the trait holds for the `Self` that gives:
    /// tried in a snapshot, so that a failed candidate leaves nothing behind; on success the
    /// receiver is unified for real.
    fn trait_method_fits(
        &mut self,
        t: DefId,
        targs: &[GenericArg],
        xform: &Ty,
        adjusted: &Ty,
    ) -> bool {
        let snapshot = self.infer.snapshot();
        let obligations = self.obligations.len();
        let fits = self.infer.unify(xform, adjusted).is_ok()
            && !matches!(self.select(t, targs, 0), Selection::None);
        self.infer.rollback_to(snapshot);
        self.obligations.truncate(obligations);
        if fits {
            let _ = self.infer.unify(xform, adjusted);
        }
        fits
    }

    /// Fresh variables for a method's own parameters only.
    fn fresh_args_own(&mut self, def: DefId) -> Vec<GenericArg> {
        let g = self.tcx.items.generics(def);
        let Some(g) = g else { return Vec::new() };
        g.params
            .iter()
            .map(|p| match p.kind {
                crate::items::GenericParamKind::Type { .. } => GenericArg::Ty(self.infer.new_var()),
                crate::items::GenericParamKind::Const { .. } => {
                    GenericArg::Const(self.infer.new_const_var())
                }
            })
            .collect()
    }

    /// One auto-deref step from `t`: through a reference, or through a `Deref` impl (a
    /// newtype or smart pointer of the user's), as rustc's `Autoderef` steps. Raw pointers are
    /// never dereferenced implicitly.
    pub(super) fn deref_step(&mut self, t: &Ty) -> Option<(Ty, Adjust)> {
        let t = self.shallow(t);
        match t.kind() {
            TyKind::Ref(inner, _) => Some((self.resolve_var(inner), Adjust::Deref)),
            TyKind::Adt(..) | TyKind::Param(..) | TyKind::Projection(..) => {
                let trait_id = self.tcx.items.lang("Deref")?;
                let deref = self.tcx.items.assoc_item(trait_id, "deref", false)?;
                let target = self.tcx.items.assoc_item(trait_id, "Target", true)?;
                let args = vec![GenericArg::Ty(t.clone())];
                // Tried in a snapshot: most types have no `Deref` impl, and the attempt must
                // leave nothing behind.
                let snapshot = self.infer.snapshot();
                let obligations = self.obligations.len();
                let found = !matches!(
                    self.select(trait_id, &args, 0),
                    Selection::None | Selection::Ambiguous
                );
                self.infer.rollback_to(snapshot);
                self.obligations.truncate(obligations);
                if !found {
                    return None;
                }
                let proj = Projection { trait_id, args: args.clone().into(), assoc: target };
                let target = self.normalize(&Ty::new(TyKind::Projection(proj)));
                let target = self.shallow(&target);
                let deref = Callee { def: deref, args: args.into() };
                Some((target.clone(), Adjust::Overloaded { deref, target }))
            }
            _ => None,
        }
    }

    /// The auto-deref steps of a receiver type: itself, then through each reference or
    /// `Deref` impl, then an array's slice; each with the adjustments that reach it.
    fn autoderef_steps(&mut self, t: &Ty) -> Vec<(Ty, Vec<Adjust>, bool)> {
        let mut out = Vec::new();
        let mut cur = self.shallow(t);
        let mut adjusts = Vec::new();
        loop {
            out.push((cur.clone(), adjusts.clone(), false));
            // rustc's recursion limit bounds auto-deref too.
            if adjusts.len() >= 128 {
                break;
            }
            match self.deref_step(&cur) {
                Some((next, a)) => {
                    adjusts.push(a);
                    cur = next;
                }
                None => break,
            }
        }
        if let TyKind::Array(el, _) = cur.kind() {
            out.push((Ty::slice(el.clone()), adjusts, true));
        }
        out
    }

    /// Finds a method for a receiver type.
    pub fn probe_method(&mut self, receiver: &Ty, name: &str, span: Span) -> Option<Pick> {
        let items = self.tcx.items;
        // Inherent methods with this name, and the trait methods.
        let inherent: Vec<(DefId, DefId)> = items
            .impls
            .iter()
            .filter(|imp| matches!(items.def(**imp).kind, DefKind::Impl { trait_path: None, .. }))
            .filter_map(|imp| {
                let m = items.assoc_item(*imp, name, false)?;
                matches!(items.def(m).kind, DefKind::Fn { .. }).then_some((*imp, m))
            })
            .filter(|(_, m)| self.tcx.fn_sig(*m).self_kind.is_some())
            .filter(|_| !matches!(receiver.kind(), TyKind::Infer(Infer::Int(_) | Infer::Float(_))))
            .collect();
        let trait_methods: Vec<DefId> = self
            .tcx
            .trait_methods(name)
            .iter()
            .copied()
            .filter(|m| self.tcx.fn_sig(*m).self_kind.is_some())
            .collect();
        for (step, derefs, unsize) in self.autoderef_steps(receiver) {
            for autoref in [None, Some(false), Some(true)] {
                if unsize && autoref.is_none() {
                    // An unsized slice is only reached behind a reference.
                    continue;
                }
                let adjusted = match autoref {
                    None => step.clone(),
                    Some(m) => Ty::reference(step.clone(), m),
                };
                for (imp, m) in &inherent {
                    let fresh = self.fresh_args(*imp);
                    let header = self.tcx.impl_header(*imp);
                    let self_ty = header.self_ty.subst(&fresh);
                    let sig = self.tcx.fn_sig(*m);
                    let Some(self_param) = sig.inputs.first() else { continue };
                    // The method's own parameters are not in `fresh`: its `self` type only
                    // mentions the impl's.
                    let mut full = fresh.clone();
                    full.extend(self.fresh_args_own(*m));
                    let xform = self_param.subst(&full);
                    let ok = self.infer.probe(|i| {
                        i.unify(&self_ty, &step).ok()?;
                        i.unify(&xform, &adjusted).ok()
                    });
                    if ok.is_some() {
                        return Some(Pick {
                            method: *m,
                            container_args: fresh,
                            derefs: derefs.clone(),
                            autoref,
                            unsize,
                            trait_id: None,
                        });
                    }
                }
                // A trait method that takes `self` by value needs `Self: Sized` (implicit on
                // every impl's type parameters, and a supertrait of `TryInto` and others): an
                // unsized place (`rec[a..b]`, a `[u8]`) is reached by reference instead, so
                // that `rec[a..b].try_into()` converts the `&[u8]`, as in rustc.
                let unsized_step = autoref.is_none()
                    && matches!(self.shallow(&step).kind(), TyKind::Slice(_) | TyKind::Str);
                for m in &trait_methods {
                    let crate::items::Container::Trait(t) = items.container(*m) else { continue };
                    let sig = self.tcx.fn_sig(*m);
                    if unsized_step && sig.self_kind == Some(SelfKind::Value) {
                        continue;
                    }
                    let Some(self_param) = sig.inputs.first() else { continue };
                    // `Self` is inferred from the method's `self` type, as rustc does: at the
                    // step `&T`, `Ord::cmp(&self, ..)` is `T::cmp` by value, not `<&T>::cmp`
                    // behind another reference.
                    let targs = self.fresh_args(t);
                    if targs.is_empty() {
                        continue;
                    }
                    let mut full = targs.clone();
                    full.extend(self.fresh_args_own(*m));
                    let xform = self_param.subst(&full);
                    if !self.trait_method_fits(t, &targs, &xform, &adjusted) {
                        continue;
                    }
                    let _ = span;
                    return Some(Pick {
                        method: *m,
                        container_args: targs,
                        derefs: derefs.clone(),
                        autoref,
                        unsize,
                        trait_id: Some(t),
                    });
                }
            }
        }
        None
    }

    /// Records auto-derefs of `e`; those through `Deref` impls are obligations, for the
    /// impls' own where-clauses.
    pub(super) fn add_derefs(&mut self, e: ExprId, adjusts: &[Adjust], span: Span) {
        for a in adjusts {
            if let (Adjust::Overloaded { deref, .. }, Some(trait_id)) =
                (a, self.tcx.items.lang("Deref"))
            {
                self.obligations.push(Obligation::Trait {
                    trait_id,
                    args: deref.args.to_vec(),
                    span,
                });
            }
            self.add_adjust(e, a.clone());
        }
    }

    /// A mutable use through `Deref` impls calls `deref_mut`: the first dereferenced type that
    /// does not implement `DerefMut`, if any (rustc's E0594/E0596); the others are obligations.
    pub(super) fn deref_mut_missing(&mut self, adjusts: &[Adjust], span: Span) -> Option<Ty> {
        let trait_id = self.tcx.items.lang("DerefMut")?;
        for a in adjusts {
            if let Adjust::Overloaded { deref, .. } = a {
                let args = deref.args.to_vec();
                if matches!(self.select(trait_id, &args, 0), Selection::None) {
                    return match args.first() {
                        Some(GenericArg::Ty(t)) => Some(t.clone()),
                        _ => None,
                    };
                }
                self.obligations.push(Obligation::Trait { trait_id, args, span });
            }
        }
        None
    }

    /// Reports a mutable use through a `Deref` impl without `DerefMut`, in rustc's words.
    pub(super) fn require_deref_mut(&mut self, adjusts: &[Adjust], span: Span) {
        if let Some(t) = self.deref_mut_missing(adjusts, span) {
            self.no_deref_mut_error(&t, "borrow as mutable", span);
        }
    }

    pub(super) fn no_deref_mut_error(&mut self, t: &Ty, what: &str, span: Span) {
        let shown = self.show(t);
        let msg = match what {
            "assign to" => format!("cannot assign to data in dereference of `{shown}`"),
            _ => format!("cannot borrow data in dereference of `{shown}` as mutable"),
        };
        self.error(
            Diagnostic::new(RK_ASSIGN_THROUGH_CONST, msg)
                .at(span, format!("cannot {}", if what == "assign to" { "assign" } else { what }))
                .help(format!("trait `DerefMut` is required to modify through a dereference, but it is not implemented for `{shown}`")),
        );
    }

    /// `&mut` auto-ref of a receiver that is not a mutable place.
    fn check_mutable_receiver(&mut self, receiver: ExprId, name: &str, span: Span) {
        let body = self.body.clone();
        if let ExprKind::Path(_) = &body.expr(receiver).kind
            && let Some(ValueRes::Local(l)) = self.r.paths.get(&receiver)
        {
            let l = *l;
            let declared_mut = body.local(l).mutable;
            let t = self.local_ty[l.0 as usize].clone().map(|t| self.shallow(&t));
            let is_mut_ref = matches!(t.as_ref().map(Ty::kind), Some(TyKind::Ref(_, true)));
            if !declared_mut && !is_mut_ref && !self.late_init.contains(&l) {
                let lname = body.local(l).name.clone();
                self.error(
                    Diagnostic::new(
                        RK_ASSIGN_IMMUTABLE,
                        format!(
                            "cannot borrow `{lname}` as mutable, as it is not declared as mutable"
                        ),
                    )
                    .at(span, format!("`{name}` takes `&mut self`"))
                    .help(format!("declare it mutable: `let mut {lname}`")),
                );
            }
        }
    }
}

impl TypeckResults {
    /// The type of an expression after the adjustments recorded so far (during checking,
    /// when the expression's own type is still the checker's).
    pub(super) fn adjusted_partial(&self, e: ExprId, t: &Ty) -> Ty {
        let mut t = t.clone();
        for a in self.adjust.get(&e).map(Vec::as_slice).unwrap_or(&[]) {
            t = match a {
                Adjust::Deref => t.builtin_deref(true).map(|(x, _)| x).unwrap_or_else(Ty::error),
                Adjust::Borrow(m) => Ty::reference(t, *m),
                Adjust::Unsize => match t.kind() {
                    TyKind::Ref(inner, m) => match inner.kind() {
                        TyKind::Array(el, _) => Ty::reference(Ty::slice(el.clone()), *m),
                        _ => t.clone(),
                    },
                    _ => t.clone(),
                },
                Adjust::Overloaded { target, .. } => target.clone(),
                _ => t,
            };
        }
        t
    }
}
