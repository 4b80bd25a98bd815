//! Traits: does a type implement a trait (impl selection, with the impl's own bounds checked,
//! and the built-in impls of the language: `Copy`/`Clone` for primitives, `Fn*` for closures
//! and function items), what an associated type is for a type (projection normalisation),
//! pending obligations, overloaded operators, and which function a trait method call runs
//! (instance resolution, after monomorphisation).

use super::expr::FnCtxt;
use super::*;
use crate::hir::{BinOp, ExprKind};
use crate::ty::{Const, Infer, Projection};

/// Something the checker must see hold (or learn from).
#[derive(Clone, Debug)]
pub enum Obligation {
    /// `args[0]: trait_id<args[1..]>`.
    Trait { trait_id: DefId, args: Vec<GenericArg>, span: Span },
    /// `<proj> == ty`.
    Projection { proj: Projection, ty: Ty, span: Span },
    /// The `index`-th opaque type of `def` for `args` is `ty` (known once `args` are).
    Opaque { def: DefId, index: u32, args: Args, ty: Ty },
}

/// How a trait is implemented for a type.
#[derive(Clone, Debug)]
pub enum Selection {
    /// By an impl, with its arguments.
    Impl(DefId, Vec<GenericArg>),
    /// By the language (`Copy` of `u32`, `Fn` of a closure).
    Builtin,
    /// Several impls could apply until more is known.
    Ambiguous,
    None,
}

const MAX_DEPTH: u32 = 16;

/// The built-in traits that every type implements for rkc's purposes (the compiler's markers).
fn is_marker(lang: Option<&str>) -> bool {
    matches!(lang, Some("sized" | "send" | "sync" | "unpin" | "freeze" | "tuple_trait"))
}

impl<'c, 't, 'a> FnCtxt<'c, 't, 'a> {
    /// Whether `args[0]: trait_id<args[1..]>` holds: which impl, if one.
    pub fn select(&mut self, trait_id: DefId, args: &[GenericArg], depth: u32) -> Selection {
        if depth > MAX_DEPTH {
            return Selection::Ambiguous;
        }
        // A question about known types has one answer in this body, and asking it again is
        // not free: the impls of references (`impl<A: Ord> Ord for &A`) ask about their
        // referent twice (whether the impl applies, then to commit it), which doubles the
        // work at every `&` of `&&&&x`.
        let resolved: Vec<GenericArg> = args
            .iter()
            .map(|a| match a {
                GenericArg::Ty(t) => GenericArg::Ty(self.infer.resolve(t)),
                GenericArg::Const(c) => GenericArg::Const(self.infer.resolve_const(c)),
            })
            .collect();
        let known = resolved.iter().all(|a| match a {
            GenericArg::Ty(t) => !t.has_infer(),
            GenericArg::Const(c) => !matches!(c, Const::Infer(_)),
        });
        if !known {
            if let Some(s) = self.select_where_clause(trait_id, args) {
                return s;
            }
            return self.select_uncached(trait_id, args, depth);
        }
        let key = (trait_id, resolved);
        if let Some(s) = self.selections.get(&key) {
            return s.clone();
        }
        let selection = self.select_uncached(trait_id, args, depth);
        let settled = match &selection {
            Selection::Impl(_, fresh) => fresh.iter().all(|a| match a {
                GenericArg::Ty(t) => !self.infer.resolve(t).has_infer(),
                GenericArg::Const(c) => !matches!(self.infer.resolve_const(c), Const::Infer(_)),
            }),
            Selection::Builtin | Selection::None => true,
            // Too deep is not an answer about the types.
            Selection::Ambiguous => false,
        };
        if settled {
            let selection = match selection {
                Selection::Impl(imp, fresh) => {
                    Selection::Impl(imp, fresh.iter().map(|a| self.resolve_arg(a)).collect())
                }
                s => s,
            };
            self.selections.insert(key, selection.clone());
            return selection;
        }
        selection
    }

    /// rustc prefers the body's own where-clauses to impls: in `fn mean<T: Into<f64>>`,
    /// `v.into()` on a `T` is `Into<f64>`, though `f32: Into<U>` alone would hold for several
    /// `U`. rkc checks each instance of a body with its arguments substituted, so the clauses
    /// are the substituted ones (`f32: Into<f64>`); when exactly one fits an obligation whose
    /// `Self` is known and whose other arguments are not, it decides them.
    fn select_where_clause(&mut self, trait_id: DefId, args: &[GenericArg]) -> Option<Selection> {
        // Only for a known `Self` (rustc's where-clause candidates are for a parameter, which
        // an instance knows): `?X: Ord` stays ambiguous, not `u32: Ord` because a clause says
        // `u32: Ord`.
        let Some(GenericArg::Ty(self_ty)) = args.first() else { return None };
        if self.infer.resolve(self_ty).has_infer() {
            return None;
        }
        let preds = self.tcx.predicates(self.def);
        let own_args = self.args.clone();
        // The clauses, substituted: the body's own, then what they imply through the bounds
        // their traits declare on associated types (`K: Kern` with `type T: Into<f32>` gives
        // `K::T: Into<f32>`, normalized for this instance).
        let mut clauses: Vec<Vec<GenericArg>> = Vec::new();
        for (bounded, bound) in preds.iter() {
            let mut clause = vec![GenericArg::Ty(bounded.subst(&own_args))];
            clause.extend(crate::ty::subst_args(&bound.args, &own_args).iter().skip(1).cloned());
            if bound.trait_id == trait_id {
                clauses.push(clause.clone());
            }
            for (implied, ib) in self.tcx.assoc_bounds(bound.trait_id).iter() {
                if ib.trait_id != trait_id {
                    continue;
                }
                let t = self.normalize(&implied.subst(&clause));
                let mut c = vec![GenericArg::Ty(t)];
                c.extend(crate::ty::subst_args(&ib.args, &clause).iter().skip(1).cloned());
                clauses.push(c);
            }
        }
        let mut fitting = Vec::new();
        for clause in clauses {
            if clause.len() != args.len() {
                continue;
            }
            let fits = self.infer.can(|i| {
                for (a, b) in args.iter().zip(&clause) {
                    match (a, b) {
                        (GenericArg::Ty(x), GenericArg::Ty(y)) => i.unify(x, y).ok()?,
                        (GenericArg::Const(x), GenericArg::Const(y)) => i.unify_const(x, y).ok()?,
                        _ => return None,
                    }
                }
                Some(())
            });
            if fits && !fitting.contains(&clause) {
                fitting.push(clause);
            }
        }
        let [clause] = fitting.as_slice() else { return None };
        for (a, b) in args.iter().zip(clause) {
            match (a, b) {
                (GenericArg::Ty(x), GenericArg::Ty(y)) => {
                    let _ = self.infer.unify(x, y);
                }
                (GenericArg::Const(x), GenericArg::Const(y)) => {
                    let _ = self.infer.unify_const(x, y);
                }
                _ => {}
            }
        }
        Some(Selection::Builtin)
    }

    fn resolve_arg(&mut self, a: &GenericArg) -> GenericArg {
        match a {
            GenericArg::Ty(t) => GenericArg::Ty(self.infer.resolve(t)),
            GenericArg::Const(c) => GenericArg::Const(self.infer.resolve_const(c)),
        }
    }

    fn select_uncached(&mut self, trait_id: DefId, args: &[GenericArg], depth: u32) -> Selection {
        let Some(GenericArg::Ty(self_ty)) = args.first() else { return Selection::None };
        let self_ty = self.shallow(self_ty);
        if self_ty.is_error() {
            return Selection::Builtin;
        }
        let items = self.tcx.items;
        let lang = items.def(trait_id).lang.clone();
        if is_marker(lang.as_deref()) {
            return Selection::Builtin;
        }
        if matches!(self_ty.kind(), TyKind::Infer(Infer::Var(_))) {
            return Selection::Ambiguous;
        }
        // The language's own impls.
        match lang.as_deref() {
            Some("fn" | "fn_mut" | "fn_once") => {
                if let Some((params, _)) = self.fn_like_sig(&self_ty) {
                    if let Some(GenericArg::Ty(tuple)) = args.get(1) {
                        let want = Ty::tuple(params);
                        if self.infer.unify(tuple, &want).is_err() {
                            return Selection::None;
                        }
                    }
                    return Selection::Builtin;
                }
            }
            Some("copy" | "clone") if self.builtin_copy(&self_ty, depth) => {
                return Selection::Builtin;
            }
            _ => {}
        }
        let mut found = self.candidate_impls(trait_id, args, depth);
        let pick = match found.len() {
            0 => return Selection::None,
            1 => 0,
            _ => {
                // Several impls fit only because some argument is still unknown.
                if args.iter().any(|a| a.ty().is_some_and(|t| self.infer.resolve(t).has_infer())) {
                    return Selection::Ambiguous;
                }
                found.iter().position(|f| f.2 == Some(true)).unwrap_or(0)
            }
        };
        let (imp, fresh, _) = found.swap_remove(pick);
        let header = self.tcx.impl_header(imp);
        if let Some((_, targs)) = &header.trait_ref {
            let targs = crate::ty::subst_args(targs, &fresh);
            let _ = self.infer.unify_args(&targs, args);
        }
        // The impl's bounds now teach the checker: their projections (`F: FnMut(A) -> B`
        // says what `B` is) and the bounds not yet decided become obligations.
        self.commit_impl_bounds(imp, &fresh, depth);
        Selection::Impl(imp, fresh)
    }

    /// The impls of a trait that may implement it for `args`: those whose header unifies and
    /// whose bounds do not certainly fail (`Some(true)`: they hold; `None`: not known yet),
    /// with the fresh arguments each was tried with.
    pub(super) fn candidate_impls(
        &mut self,
        trait_id: DefId,
        args: &[GenericArg],
        depth: u32,
    ) -> Vec<(DefId, Vec<GenericArg>, Option<bool>)> {
        let mut found = Vec::new();
        let impls = self.tcx.trait_impls();
        for &imp in impls.get(&trait_id).map_or(&[][..], Vec::as_slice) {
            let header = self.tcx.impl_header(imp);
            let Some((_, targs)) = &header.trait_ref else { continue };
            if let DefKind::Impl { negative: true, .. } = self.tcx.items.def(imp).kind {
                continue;
            }
            let fresh = self.fresh_args(imp);
            let targs = crate::ty::subst_args(targs, &fresh);
            let s = self.infer.snapshot();
            // Obligations made while trying the impl name variables the rollback removes.
            let obligations = self.obligations.len();
            let unified = self.infer.unify_args(&targs, args).is_ok();
            let nested =
                if unified { self.impl_bounds_hold(imp, &fresh, depth) } else { Some(false) };
            self.infer.rollback_to(s);
            self.obligations.truncate(obligations);
            if nested != Some(false) {
                found.push((imp, fresh, nested));
            }
        }
        found
    }

    /// After an impl is chosen: its bounds' associated-type equalities, and its bounds that are
    /// not yet decided, become obligations.
    fn commit_impl_bounds(&mut self, imp: DefId, args: &[GenericArg], depth: u32) {
        let preds = self.tcx.predicates(imp);
        for (bounded, bound) in preds.iter() {
            let lang = self.tcx.items.def(bound.trait_id).lang.clone();
            if is_marker(lang.as_deref()) {
                continue;
            }
            let st = self.normalize(&bounded.subst(args));
            let mut targs = vec![GenericArg::Ty(st)];
            targs.extend(
                crate::ty::subst_args(&bound.args, args)
                    .iter()
                    .skip(1)
                    .map(|a| self.normalize_arg(a)),
            );
            if let Selection::Ambiguous = self.select(bound.trait_id, &targs, depth + 1) {
                self.obligations.push(Obligation::Trait {
                    trait_id: bound.trait_id,
                    args: targs.clone(),
                    span: self.cur_span,
                });
            }
            for (assoc, ty) in &bound.assoc {
                let trait_of_assoc = match self.tcx.items.container(*assoc) {
                    Container::Trait(t) => t,
                    _ => bound.trait_id,
                };
                let ty = self.normalize(&ty.subst(args));
                let proj = Projection {
                    trait_id: trait_of_assoc,
                    args: targs.clone().into(),
                    assoc: *assoc,
                };
                // Settled now where it can be (a closure's `FnOnce::Output`, known once its
                // body is checked): the impl's own arguments are then known, so that its
                // selection is remembered. Left as an obligation, `Map<I, F>: Iterator` stayed
                // undecided in `B`, and every adapter of a chain selected every one below it
                // again, several times: exponential in the chain's length.
                let settled = self.normalize_projection(&proj);
                if let Some(t) = settled
                    && self.infer.unify(&t, &ty).is_ok()
                {
                    continue;
                }
                self.obligations.push(Obligation::Projection { proj, ty, span: self.cur_span });
            }
        }
    }

    /// Whether the impl's bounds hold under `args`; `None` when that is not yet known.
    fn impl_bounds_hold(&mut self, imp: DefId, args: &[GenericArg], depth: u32) -> Option<bool> {
        let preds = self.tcx.predicates(imp);
        for (bounded, bound) in preds.iter() {
            let lang = self.tcx.items.def(bound.trait_id).lang.clone();
            if is_marker(lang.as_deref()) {
                continue;
            }
            let st = self.normalize_quiet(&bounded.subst(args));
            let mut targs = vec![GenericArg::Ty(st)];
            for a in crate::ty::subst_args(&bound.args, args).iter().skip(1) {
                targs.push(match a {
                    GenericArg::Ty(t) => GenericArg::Ty(self.normalize_quiet(t)),
                    c => c.clone(),
                });
            }
            match self.select(bound.trait_id, &targs, depth + 1) {
                Selection::None => return Some(false),
                Selection::Ambiguous => return None,
                _ => {}
            }
        }
        Some(true)
    }

    /// Whether the language makes the type `Copy` (and `Clone`) without an impl.
    fn builtin_copy(&mut self, t: &Ty, depth: u32) -> bool {
        let t = self.shallow(t);
        match t.kind() {
            TyKind::Bool
            | TyKind::Char
            | TyKind::Int(_)
            | TyKind::Float(_)
            | TyKind::Never
            | TyKind::Ptr(..)
            | TyKind::FnDef(..) => true,
            TyKind::Infer(Infer::Int(_) | Infer::Float(_)) => true,
            TyKind::Ref(_, m) => !m,
            TyKind::Array(el, _) => {
                self.builtin_copy(el, depth) || self.implements_lang(el, "copy", depth)
            }
            TyKind::Tuple(ts) => ts
                .iter()
                .all(|x| self.builtin_copy(x, depth) || self.implements_lang(x, "copy", depth)),
            TyKind::Closure(_) => true,
            _ => false,
        }
    }

    /// The signature of a closure or function item, also behind references: core's
    /// `impl Fn for &F` and `impl FnMut for &mut F` (`apply(&c, x)`, `each(n, &mut c)`). The
    /// closure's own kind (whether it may be called through `&`) is rustc's to check.
    fn fn_like_sig(&mut self, t: &Ty) -> Option<(Vec<Ty>, Ty)> {
        let mut t = t.clone();
        while let TyKind::Ref(inner, _) = t.kind() {
            let inner = self.resolve_var(inner);
            t = inner;
        }
        match t.kind() {
            TyKind::Closure(id) => Some(self.closure_sig(*id)),
            TyKind::FnDef(d, a) => {
                let (d, a) = (*d, a.clone());
                Some(self.callable_sig(d, &a))
            }
            _ => None,
        }
    }

    fn implements_lang(&mut self, t: &Ty, lang: &str, depth: u32) -> bool {
        let Some(tr) = self.tcx.items.lang(lang) else { return false };
        !matches!(self.select(tr, &[GenericArg::Ty(t.clone())], depth + 1), Selection::None)
    }

    /// An associated type of a type, if the impl that gives it is known.
    fn normalize_projection(&mut self, p: &Projection) -> Option<Ty> {
        let args: Vec<GenericArg> = p.args.to_vec();
        let self_ty = self.shallow(args.first()?.ty()?);
        if self_ty.is_error() {
            return Some(Ty::error());
        }
        let assoc_name = self.tcx.items.name(p.assoc).to_string();
        let lang = self.tcx.items.def(p.trait_id).lang.clone();
        if matches!(lang.as_deref(), Some("fn" | "fn_mut" | "fn_once")) && assoc_name == "Output" {
            return self.fn_like_sig(&self_ty).map(|(_, ret)| ret);
        }
        match self.select(p.trait_id, &args, 0) {
            Selection::Impl(imp, fresh) => {
                let item = self.tcx.items.assoc_item(imp, &assoc_name, true);
                let ty = match item.map(|i| &self.tcx.items.def(i).kind) {
                    Some(DefKind::AssocTy { ty: Some(t), .. }) => {
                        let t = *t;
                        let mut diags = Vec::new();
                        let mut l = self.tcx.lowerer(imp, &mut diags);
                        let lowered = l.lower(t);
                        lowered.subst(&fresh)
                    }
                    _ => {
                        // The trait's default.
                        match &self.tcx.items.def(p.assoc).kind {
                            DefKind::AssocTy { ty: Some(t), .. } => {
                                let t = *t;
                                let mut diags = Vec::new();
                                let mut l = self.tcx.lowerer(p.trait_id, &mut diags);
                                l.lower(t).subst(&args)
                            }
                            _ => return None,
                        }
                    }
                };
                Some(self.normalize(&ty))
            }
            _ => None,
        }
    }

    /// The type with every projection it can resolve resolved; the others become variables
    /// with an obligation that resolves them later.
    pub fn normalize(&mut self, t: &Ty) -> Ty {
        if !t.has_projections() {
            return t.clone();
        }
        let mut pending = Vec::new();
        let mut opaques = Vec::new();
        let out = t.fold(
            &mut |x| match x.kind() {
                TyKind::Opaque(d, k, a) => {
                    let a: Args = a.iter().map(|x| self.normalize_arg(x)).collect();
                    Some(match self.reveal_opaque(*d, *k, &a) {
                        Some(t) => t,
                        None => {
                            let v = self.infer.new_var();
                            opaques.push(Obligation::Opaque {
                                def: *d,
                                index: *k,
                                args: a,
                                ty: v.clone(),
                            });
                            v
                        }
                    })
                }
                TyKind::Projection(p) => {
                    let p = Projection {
                        trait_id: p.trait_id,
                        args: p.args.iter().map(|a| self.normalize_arg(a)).collect(),
                        assoc: p.assoc,
                    };
                    Some(match self.normalize_projection(&p) {
                        Some(t) => t,
                        None => {
                            let v = self.infer.new_var();
                            pending.push((p, v.clone()));
                            v
                        }
                    })
                }
                _ => None,
            },
            &mut |c| c.clone(),
        );
        let span = self.cur_span;
        for (proj, ty) in pending {
            self.obligations.push(Obligation::Projection { proj, ty, span });
        }
        self.obligations.extend(opaques);
        out
    }

    /// The concrete type of an opaque type, once its function's arguments are known: what
    /// that instance's body returns. Inside the defining body it is the body's variable.
    fn reveal_opaque(&mut self, def: DefId, index: u32, args: &Args) -> Option<Ty> {
        let args: Args = args.iter().map(|a| self.resolve_arg(a)).collect();
        if args.iter().any(|a| match a {
            GenericArg::Ty(t) => t.has_infer(),
            GenericArg::Const(c) => matches!(c, Const::Infer(_)),
        }) {
            return None;
        }
        if def == self.def && args == self.args {
            return self.opaque_vars.get(index as usize).cloned();
        }
        self.publish_closures(&args);
        let revealed =
            self.tcx.typeck(def, &args).and_then(|r| r.opaques.get(index as usize).cloned());
        Some(revealed.unwrap_or_else(Ty::error))
    }

    /// Publishes the signatures of this body's closures that appear in `args`. An instance
    /// revealed while this body is being checked (`lift(|v: f32| v * 2.0)` returning `impl
    /// Fn`) is checked now, and calls the closure; the closure's signature otherwise reaches
    /// the global table only when this body is finished, and the instance would see a closure
    /// of no parameters. A signature not yet fully inferred is left for the end of the body.
    fn publish_closures(&mut self, args: &Args) {
        let mut ids = Vec::new();
        for a in args.iter() {
            if let GenericArg::Ty(t) = a {
                let _ = t.fold(
                    &mut |x| {
                        if let TyKind::Closure(id) = x.kind() {
                            ids.push(*id);
                        }
                        None
                    },
                    &mut |c| c.clone(),
                );
            }
        }
        for id in ids {
            let Some((params, ret)) = self.closure_sigs.get(&id).cloned() else { continue };
            let params: Vec<Ty> = params.iter().map(|t| self.infer.resolve(t)).collect();
            let ret = self.infer.resolve(&ret);
            if params.iter().any(Ty::has_infer) || ret.has_infer() {
                continue;
            }
            let mut data = self.tcx.closure(id);
            data.params = params;
            data.ret = ret;
            self.tcx.set_closure(id, data);
        }
    }

    fn normalize_arg(&mut self, a: &GenericArg) -> GenericArg {
        match a {
            GenericArg::Ty(t) => GenericArg::Ty(self.normalize(t)),
            c => c.clone(),
        }
    }

    /// `normalize` for bounds checks inside selection, which must not add obligations.
    fn normalize_quiet(&mut self, t: &Ty) -> Ty {
        let before = self.obligations.len();
        let out = self.normalize(t);
        self.obligations.truncate(before);
        out
    }

    /// Processes pending obligations until none makes progress: projections whose type is now
    /// known are unified, trait obligations whose impl is now determined unify its arguments.
    /// An obligation that fails is dropped: rustc has checked the bounds, and an impl the core
    /// lacks is reported where it is called.
    pub fn select_pending(&mut self) {
        loop {
            let mut progress = false;
            let pending = std::mem::take(&mut self.obligations);
            let mut keep = Vec::new();
            for o in pending {
                match &o {
                    Obligation::Trait { trait_id, args, span } => {
                        let args: Vec<GenericArg> =
                            args.iter().map(|a| self.normalize_arg(a)).collect();
                        match self.select(*trait_id, &args, 0) {
                            Selection::Ambiguous => keep.push(o),
                            Selection::None => {
                                self.unsatisfied(*trait_id, &args, *span);
                                progress = true;
                            }
                            _ => progress = true,
                        }
                    }
                    Obligation::Opaque { def, index, args, ty } => {
                        match self.reveal_opaque(*def, *index, args) {
                            Some(t) => {
                                let _ = self.infer.unify(&t, ty);
                                progress = true;
                            }
                            None => keep.push(o),
                        }
                    }
                    Obligation::Projection { proj, ty, span } => {
                        let p = Projection {
                            trait_id: proj.trait_id,
                            args: proj.args.iter().map(|a| self.normalize_arg(a)).collect(),
                            assoc: proj.assoc,
                        };
                        match self.normalize_projection(&p) {
                            Some(t) => {
                                if self.infer.unify(&t, ty).is_err() {
                                    let (a, b) = (self.show(ty), self.show(&t));
                                    if !self.trusted {
                                        self.error(mismatch(&a, &b, *span));
                                    }
                                }
                                progress = true;
                            }
                            None => keep.push(Obligation::Projection {
                                proj: p,
                                ty: ty.clone(),
                                span: *span,
                            }),
                        }
                    }
                }
            }
            // Obligations added while processing (nested normalisations) come after.
            keep.append(&mut self.obligations);
            self.obligations = keep;
            if !progress {
                break;
            }
        }
    }

    /// rustc's E0277 for a bound that does not hold, unless an error or an unknown type is
    /// the cause (then something else was reported, or will be).
    fn unsatisfied(&mut self, trait_id: DefId, args: &[GenericArg], span: Span) {
        if self.trusted {
            return;
        }
        let resolved: Vec<GenericArg> = args.iter().map(|a| self.resolve_arg(a)).collect();
        if resolved.iter().any(|a| a.ty().is_some_and(|t| t.is_error() || t.has_infer())) {
            return;
        }
        let Some(GenericArg::Ty(self_ty)) = resolved.first() else { return };
        let shown = self.show(self_ty);
        let mut name = self.tcx.items.name(trait_id).to_string();
        let rest: Vec<String> = resolved[1..]
            .iter()
            .map(|a| match a {
                GenericArg::Ty(t) => self.show(t),
                GenericArg::Const(c) => format!("{c:?}"),
            })
            .collect();
        if !rest.is_empty() {
            name = format!("{name}<{}>", rest.join(", "));
        }
        let message = format!("the trait bound `{shown}: {name}` is not satisfied");
        if !self.reported_bounds.insert(message.clone()) {
            return;
        }
        self.error(
            Diagnostic::new(RK_UNSATISFIED_BOUND, message)
                .at(span, format!("the trait `{name}` is not implemented for `{shown}`")),
        );
    }

    /// What `for x in it` iterates: `IntoIterator` for the type, then `Iterator::next`.
    pub fn for_loop_info(&mut self, it: &Ty, span: Span) -> Option<ForLoop> {
        let items = self.tcx.items;
        let into_iter_trait = items.lang("IntoIterator")?;
        let iterator = items.lang("Iterator")?;
        let into_iter = items.assoc_item(into_iter_trait, "into_iter", false)?;
        let next = items.assoc_item(iterator, "next", false)?;
        let into_iter_ty = items.assoc_item(into_iter_trait, "IntoIter", true)?;
        let item_assoc = items.assoc_item(iterator, "Item", true)?;
        let args = vec![GenericArg::Ty(it.clone())];
        if matches!(self.select(into_iter_trait, &args, 0), Selection::None) {
            return None;
        }
        let iter_ty = self.normalize(&Ty::new(TyKind::Projection(Projection {
            trait_id: into_iter_trait,
            args: args.clone().into(),
            assoc: into_iter_ty,
        })));
        self.select_pending();
        let iter_ty = self.shallow(&iter_ty);
        let _ = span;
        let iargs = vec![GenericArg::Ty(iter_ty.clone())];
        let item_ty = self.normalize(&Ty::new(TyKind::Projection(Projection {
            trait_id: iterator,
            args: iargs.clone().into(),
            assoc: item_assoc,
        })));
        self.select_pending();
        let item_ty = self.shallow(&item_ty);
        Some(ForLoop {
            into_iter: Callee { def: into_iter, args: args.into() },
            iter_ty,
            next: Callee { def: next, args: iargs.into() },
            item_ty,
        })
    }

    /// An operator on types without a built-in meaning: a call of the operator trait's method.
    #[allow(clippy::too_many_arguments, reason = "the parts of one operator")]
    pub fn overloaded_binary(
        &mut self,
        e: ExprId,
        op: BinOp,
        l: ExprId,
        r: ExprId,
        lt: &Ty,
        rt: &Ty,
        span: Span,
    ) -> Ty {
        let (lang, method) = match op {
            BinOp::Add => ("Add", "add"),
            BinOp::Sub => ("Sub", "sub"),
            BinOp::Mul => ("Mul", "mul"),
            BinOp::Div => ("Div", "div"),
            BinOp::Rem => ("Rem", "rem"),
            BinOp::BitAnd => ("BitAnd", "bitand"),
            BinOp::BitOr => ("BitOr", "bitor"),
            BinOp::BitXor => ("BitXor", "bitxor"),
            BinOp::Shl => ("Shl", "shl"),
            BinOp::Shr => ("Shr", "shr"),
            BinOp::Eq | BinOp::Ne => ("PartialEq", if op == BinOp::Eq { "eq" } else { "ne" }),
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => (
                "PartialOrd",
                match op {
                    BinOp::Lt => "lt",
                    BinOp::Le => "le",
                    BinOp::Gt => "gt",
                    _ => "ge",
                },
            ),
            BinOp::And | BinOp::Or => return Ty::bool(),
        };
        let found = self
            .tcx
            .items
            .lang(lang)
            .and_then(|t| Some((t, self.tcx.items.assoc_item(t, method, false)?)));
        let Some((trait_id, m)) = found else { return self.no_operator(op, lt, rt, span) };
        let args = vec![GenericArg::Ty(lt.clone()), GenericArg::Ty(rt.clone())];
        if matches!(self.select(trait_id, &args, 0), Selection::None) {
            return self.no_operator(op, lt, rt, span);
        }
        self.obligations.push(Obligation::Trait { trait_id, args: args.clone(), span });
        self.r.callees.insert(e, Callee { def: m, args: args.clone().into() });
        if op.is_comparison() {
            // `a == b` is `PartialEq::eq(&a, &b)`: the operands are borrowed.
            return Ty::bool();
        }
        let _ = (l, r);
        match self.tcx.items.assoc_item(trait_id, "Output", true) {
            Some(o) => self.normalize(&Ty::new(TyKind::Projection(Projection {
                trait_id,
                args: args.into(),
                assoc: o,
            }))),
            None => Ty::error(),
        }
    }

    fn no_operator(&mut self, op: BinOp, lt: &Ty, rt: &Ty, span: Span) -> Ty {
        let (a, b) = (self.show(lt), self.show(rt));
        let mut d = Diagnostic::new(
            RK_MISMATCHED_TYPES,
            format!("cannot apply `{}` to `{a}` and `{b}`", op.token()),
        )
        .at(span, format!("no implementation for `{a} {} {b}`", op.token()));
        if let (TyKind::Int(_) | TyKind::Float(_), TyKind::Int(_) | TyKind::Float(_)) =
            (self.shallow(lt).kind(), self.shallow(rt).kind())
        {
            d = d.help(format!("convert one side with `as`, e.g. `as {a}`"));
        }
        self.error(d);
        if op.is_comparison() { Ty::bool() } else { Ty::error() }
    }

    #[allow(clippy::too_many_arguments, reason = "the parts of one operator")]
    pub fn overloaded_assign_op(
        &mut self,
        e: ExprId,
        op: BinOp,
        l: ExprId,
        r: ExprId,
        lt: &Ty,
        rt: &Ty,
        span: Span,
    ) {
        let (lang, method) = match op {
            BinOp::Add => ("AddAssign", "add_assign"),
            BinOp::Sub => ("SubAssign", "sub_assign"),
            BinOp::Mul => ("MulAssign", "mul_assign"),
            BinOp::Div => ("DivAssign", "div_assign"),
            BinOp::Rem => ("RemAssign", "rem_assign"),
            BinOp::BitAnd => ("BitAndAssign", "bitand_assign"),
            BinOp::BitOr => ("BitOrAssign", "bitor_assign"),
            BinOp::BitXor => ("BitXorAssign", "bitxor_assign"),
            BinOp::Shl => ("ShlAssign", "shl_assign"),
            BinOp::Shr => ("ShrAssign", "shr_assign"),
            _ => return,
        };
        let found = self
            .tcx
            .items
            .lang(lang)
            .and_then(|t| Some((t, self.tcx.items.assoc_item(t, method, false)?)));
        let args = vec![GenericArg::Ty(lt.clone()), GenericArg::Ty(rt.clone())];
        match found {
            Some((trait_id, m)) if !matches!(self.select(trait_id, &args, 0), Selection::None) => {
                self.obligations.push(Obligation::Trait { trait_id, args: args.clone(), span });
                self.r.callees.insert(e, Callee { def: m, args: args.into() });
            }
            _ => {
                let (a, b) = (self.show(lt), self.show(rt));
                let mut d = Diagnostic::new(
                    RK_MISMATCHED_TYPES,
                    format!("cannot apply `{}=` to `{a}` and `{b}`", op.token()),
                )
                .at(span, format!("no implementation for `{a} {}= {b}`", op.token()));
                if let (TyKind::Int(_) | TyKind::Float(_), TyKind::Int(_) | TyKind::Float(_)) =
                    (self.shallow(lt).kind(), self.shallow(rt).kind())
                {
                    d = d.help(format!("convert the right side with `as {a}`"));
                }
                self.error(d);
            }
        }
        let _ = (l, r);
    }

    pub fn overloaded_unary(
        &mut self,
        e: ExprId,
        lang: &str,
        method: &str,
        inner: ExprId,
        t: &Ty,
        span: Span,
    ) -> Ty {
        let found = self
            .tcx
            .items
            .lang(lang)
            .and_then(|tr| Some((tr, self.tcx.items.assoc_item(tr, method, false)?)));
        let args = vec![GenericArg::Ty(t.clone())];
        match found {
            Some((trait_id, m)) if !matches!(self.select(trait_id, &args, 0), Selection::None) => {
                self.r.callees.insert(e, Callee { def: m, args: args.clone().into() });
                let _ = inner;
                match self.tcx.items.assoc_item(trait_id, "Output", true) {
                    Some(o) => self.normalize(&Ty::new(TyKind::Projection(Projection {
                        trait_id,
                        args: args.into(),
                        assoc: o,
                    }))),
                    None => Ty::error(),
                }
            }
            _ => {
                let shown = self.show(t);
                let tok = if lang == "Neg" { "-" } else { "!" };
                self.error(
                    Diagnostic::new(
                        RK_MISMATCHED_TYPES,
                        format!("cannot apply unary operator `{tok}` to type `{shown}`"),
                    )
                    .at(span, "no implementation"),
                );
                Ty::error()
            }
        }
    }

    /// `*x` on a type with a `Deref` impl.
    pub fn overloaded_deref(&mut self, e: ExprId, t: &Ty, span: Span) -> Option<Ty> {
        let trait_id = self.tcx.items.lang("Deref")?;
        let m = self.tcx.items.assoc_item(trait_id, "deref", false)?;
        let args = vec![GenericArg::Ty(t.clone())];
        if matches!(self.select(trait_id, &args, 0), Selection::None) {
            return None;
        }
        self.r.callees.insert(e, Callee { def: m, args: args.clone().into() });
        let o = self.tcx.items.assoc_item(trait_id, "Target", true)?;
        let _ = span;
        let _ = ExprKind::Err;
        Some(self.normalize(&Ty::new(TyKind::Projection(Projection {
            trait_id,
            args: args.into(),
            assoc: o,
        }))))
    }
}

/// Which function a call of `callee` runs, with concrete arguments: a trait method call is
/// resolved to the impl's method (or the trait's default method), an inherent or free
/// function is itself. `None` when the trait is implemented by the language (`Clone` of
/// `u32`, `Fn` of a closure): the caller lowers those itself.
pub fn resolve_instance(tcx: &Tcx, callee: &Callee) -> Option<Callee> {
    let items = tcx.items;
    let Container::Trait(trait_id) = items.container(callee.def) else {
        return Some(callee.clone());
    };
    let n = items.generic_count(trait_id) as usize;
    let trait_args: Vec<GenericArg> = callee.args.iter().take(n).cloned().collect();
    let own: Vec<GenericArg> = callee.args.iter().skip(n).cloned().collect();
    let sel = select_concrete(tcx, trait_id, &trait_args)?;
    match sel {
        Selection::Impl(imp, impl_args) => {
            let name = items.name(callee.def);
            match items.assoc_item(
                imp,
                name,
                matches!(items.def(callee.def).kind, DefKind::AssocTy { .. }),
            ) {
                Some(m) => {
                    let mut args = impl_args;
                    args.extend(own);
                    Some(Callee { def: m, args: args.into() })
                }
                // The trait's default, with the impl's `Self` and trait arguments.
                None => Some(callee.clone()),
            }
        }
        _ => None,
    }
}

/// Impl selection for concrete types, outside any body (for instance resolution).
pub fn select_concrete(tcx: &Tcx, trait_id: DefId, args: &[GenericArg]) -> Option<Selection> {
    // Arguments the type checker left unknown are variables of its own tables, meaningless
    // here: no impl is chosen for them (the checker reported why, or the caller does).
    let unknown = args.iter().any(|a| match a {
        GenericArg::Ty(t) => t.has_infer(),
        GenericArg::Const(c) => matches!(c, crate::ty::Const::Infer(_)),
    });
    if unknown {
        return None;
    }
    let body = tcx.body_for_selection();
    let mut fcx = FnCtxt::for_selection(tcx, body);
    let sel = fcx.select(trait_id, args, 0);
    // The impl's bounds may decide some of its arguments (`Copied<I>`'s `T` comes from `I`'s
    // `Item`).
    fcx.select_pending();
    match sel {
        Selection::Impl(imp, fresh) => {
            let resolved: Vec<GenericArg> = fresh
                .iter()
                .map(|a| match a {
                    GenericArg::Ty(t) => GenericArg::Ty(fcx.infer.resolve(t)),
                    GenericArg::Const(c) => GenericArg::Const(fcx.infer.resolve_const(c)),
                })
                .collect();
            Some(Selection::Impl(imp, resolved))
        }
        other => Some(other),
    }
}

/// An associated type of a concrete type (`<Map<I, F> as Iterator>::Item`), outside bodies.
pub fn normalize_concrete(tcx: &Tcx, ty: &Ty) -> Ty {
    let body = tcx.body_for_selection();
    let mut fcx = FnCtxt::for_selection(tcx, body);
    let t = fcx.normalize(ty);
    fcx.select_pending();
    fcx.infer.resolve(&t)
}
