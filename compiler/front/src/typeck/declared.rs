//! Declared generic types: what rustc's check of a generic body knows of an expression's type
//! where rkc's check of an instance knows the substituted type.
//!
//! rustc checks a generic body once, its type parameters opaque; rkc checks each instance with
//! the types substituted. The two agree except where a type parameter hides a reference: in
//! `fn f<I: Iterator>(it: I) where I::Item: Code { for x in it { x.code() } }` with
//! `I = slice::Iter<u32>`, rustc calls `<I::Item as Code>::code`, which is `<&u32 as
//! Code>::code`, while a probe on the instance's `&u32` finds `u32`'s method first. So the
//! checker follows, by syntax, the declared type of the expressions whose declared type is a
//! type parameter or a projection (or a reference to one): parameters, dereferences and fields
//! of them, the variables that patterns bind from them (`for`, `let`, `if let`, `while let`,
//! `match`), the parameters of closures passed to a method resolved through a declared bound
//! (`it.map(|x| x.code())`), and calls resolved through a declared bound whose result follows
//! from the receiver (`it.next()` is an `Option<I::Item>`). `method.rs`'s `param_env_pick`
//! resolves a method on such a receiver as rustc does, through the declared type's bounds.
//! Anything else is `None`, and the ordinary probe of the substituted type decides.

use super::expr::*;
use super::*;
use crate::hir::{ExprKind, PatId, PatKind};

impl<'c, 't, 'a> FnCtxt<'c, 't, 'a> {
    /// `generic_param_declared` for any declared generic type: a type parameter, or a
    /// projection such as `<I as Iterator>::Item` for the variable of `for x in it` with
    /// `it: I`, with how it is declared (`T`, `&T` or `&mut T`).
    pub(super) fn generic_declared(&self, e: ExprId) -> Option<(Ty, Option<bool>)> {
        let declared = self.declared_generic_ty(e)?;
        let generic = |t: &Ty| matches!(t.kind(), TyKind::Param(_) | TyKind::Projection(_));
        match declared.kind() {
            _ if generic(&declared) => Some((declared.clone(), None)),
            TyKind::Ref(inner, m) if generic(inner) => Some((inner.clone(), Some(*m))),
            _ => None,
        }
    }

    /// The traits a declared generic type is bounded by: a type parameter's bounds
    /// (`param_bounds`), or for a projection the where-clauses on it (`I::Item: Code`) and its
    /// trait's bounds on the associated type (`type Item: Code`), with supertraits.
    pub(super) fn declared_bounds(&self, declared: &Ty) -> Vec<DefId> {
        let proj = match declared.kind() {
            TyKind::Param(i) => return self.param_bounds(*i),
            TyKind::Projection(p) => p,
            _ => return Vec::new(),
        };
        let mut bounds: Vec<DefId> = self
            .tcx
            .predicates(self.def)
            .iter()
            .filter(|(t, _)| t == declared)
            .map(|(_, b)| b.trait_id)
            .collect();
        for (t, b) in self.tcx.assoc_bounds(proj.trait_id).iter() {
            if &t.subst(&proj.args) == declared {
                bounds.push(b.trait_id);
            }
        }
        self.tcx.with_supertraits(bounds)
    }

    /// The type an expression has in the item's own generic signature, before the instance's
    /// substitution, where the syntax says (see the module's comment).
    pub(super) fn declared_generic_ty(&self, e: ExprId) -> Option<Ty> {
        // A body without generic arguments declares nothing generic, and the search for a
        // local's binding below scans the whole body: kernels, the largest bodies, skip it.
        if self.args.is_empty() {
            return None;
        }
        match &self.body.expr(e).kind {
            ExprKind::Path(p) => {
                let Some(crate::items::PathRes {
                    res: crate::items::Res::Local(local),
                    rest: 0,
                    ..
                }) = p.res
                else {
                    return None;
                };
                self.declared_local(local)
            }
            ExprKind::MethodCall { .. } => {
                let (method, args) = self.declared_calls.get(&e)?;
                let output = self.tcx.fn_sig(*method).output.subst(args);
                (!output.has_error()).then(|| self.declared_normalize(&output))
            }
            ExprKind::Unary(crate::hir::UnOp::Deref, inner) => {
                match self.declared_generic_ty(*inner)?.kind() {
                    TyKind::Ref(t, _) => Some(t.clone()),
                    _ => None,
                }
            }
            // A field, through the references auto-deref goes through: `self.1` in a method
            // of `impl<A, B> Trait for (A, B)` is a `B`.
            ExprKind::Field(base, name) => {
                let mut t = self.declared_generic_ty(*base)?;
                while let TyKind::Ref(inner, _) = t.kind() {
                    t = inner.clone();
                }
                match (t.kind(), name) {
                    (TyKind::Tuple(ts), crate::hir::FieldName::Index(i)) => {
                        ts.get(*i as usize).cloned()
                    }
                    (TyKind::Adt(def, args), _) => {
                        let name = name.as_string();
                        let k = self.tcx.items.fields(*def).iter().position(|f| f.name == name)?;
                        Some(self.tcx.field_tys(*def).get(k)?.subst(args))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The declared type of a local: the declared type of what its pattern binds it from.
    fn declared_local(&self, local: u32) -> Option<Ty> {
        if let Some(k) = self.body.params.iter().position(|q| self.pat_binds(q.pat, local)) {
            let input = self.tcx.fn_sig(self.def).inputs.get(k)?.clone();
            return self.declared_in_pat(self.body.params[k].pat, &input, local);
        }
        let (pat, from) = self.body.exprs.iter().enumerate().find_map(|(id, x)| {
            let from = match &x.kind {
                ExprKind::For { pat, iter, .. } if self.pat_binds(*pat, local) => {
                    (*pat, self.declared_item(&self.declared_generic_ty(*iter)?)?)
                }
                ExprKind::Let(pat, init) if self.pat_binds(*pat, local) => {
                    (*pat, self.declared_generic_ty(*init)?)
                }
                ExprKind::Match(scrutinee, arms) => {
                    let arm = arms.iter().find(|a| self.pat_binds(a.pat, local))?;
                    (arm.pat, self.declared_generic_ty(*scrutinee)?)
                }
                ExprKind::Block(b) => b.stmts.iter().find_map(|st| match st {
                    crate::hir::Stmt::Let { pat, ty: None, init: Some(init), .. }
                        if self.pat_binds(*pat, local) =>
                    {
                        Some((*pat, self.declared_generic_ty(*init)?))
                    }
                    _ => None,
                })?,
                ExprKind::Closure { params, .. } => {
                    let j = params.iter().position(|(p, _)| self.pat_binds(*p, local))?;
                    (params[j].0, self.declared_closure_param(ExprId(id as u32), j)?)
                }
                _ => return None,
            };
            Some(from)
        })?;
        self.declared_in_pat(pat, &from, local)
    }

    /// Whether pattern `p` binds `local`.
    fn pat_binds(&self, p: PatId, local: u32) -> bool {
        match &self.body.pat(p).kind {
            PatKind::Binding { local: b, sub, .. } => {
                b.0 == local || sub.is_some_and(|s| self.pat_binds(s, local))
            }
            PatKind::Tuple { pats, .. } | PatKind::TupleStruct { pats, .. } => {
                pats.iter().any(|&q| self.pat_binds(q, local))
            }
            PatKind::Struct { fields, .. } => fields.iter().any(|(_, q)| self.pat_binds(*q, local)),
            PatKind::Ref(inner, _) => self.pat_binds(*inner, local),
            _ => false,
        }
    }

    /// The declared type `local` gets from pattern `p` matched against a value declared `ty`.
    /// A structural pattern matched against a reference (a default binding mode) is left to
    /// the substituted type.
    fn declared_in_pat(&self, p: PatId, ty: &Ty, local: u32) -> Option<Ty> {
        match &self.body.pat(p).kind {
            PatKind::Binding { local: b, by_ref, sub } => {
                if b.0 == local {
                    return Some(match by_ref {
                        None => ty.clone(),
                        Some(m) => Ty::reference(ty.clone(), *m),
                    });
                }
                self.declared_in_pat((*sub)?, ty, local)
            }
            PatKind::Ref(inner, _) => match ty.kind() {
                TyKind::Ref(t, _) => self.declared_in_pat(*inner, t, local),
                _ => None,
            },
            PatKind::Tuple { pats, rest } => {
                let TyKind::Tuple(ts) = ty.kind() else { return None };
                let pos = super::pat::positions(pats.len(), *rest, ts.len())?;
                let (q, k) = pats.iter().zip(pos).find(|(q, _)| self.pat_binds(**q, local))?;
                self.declared_in_pat(*q, &ts[k], local)
            }
            PatKind::TupleStruct { pats, rest, .. } => {
                let TyKind::Adt(_, args) = ty.kind() else { return None };
                let (variant, _) = self.r.pat_variants.get(&p)?;
                let fields = self.tcx.field_tys(*variant);
                let pos = super::pat::positions(pats.len(), *rest, fields.len())?;
                let (q, k) = pats.iter().zip(pos).find(|(q, _)| self.pat_binds(**q, local))?;
                self.declared_in_pat(*q, &fields[k].subst(args), local)
            }
            PatKind::Struct { fields, .. } => {
                let TyKind::Adt(_, args) = ty.kind() else { return None };
                let (variant, _) = self.r.pat_variants.get(&p)?;
                let (name, q) = fields.iter().find(|(_, q)| self.pat_binds(*q, local))?;
                let k = self.tcx.items.fields(*variant).iter().position(|f| &f.name == name)?;
                self.declared_in_pat(*q, &self.tcx.field_tys(*variant).get(k)?.subst(args), local)
            }
            _ => None,
        }
    }

    /// The declared type of parameter `j` of the closure `closure`, when the closure is an
    /// argument of a method resolved through a declared bound whose parameter there is a type
    /// parameter with an `Fn*` bound: `x` in `it.map(|x| ..)` with `it: I` is an `I::Item`
    /// (`map`'s `F: FnMut(Self::Item) -> B`, with `I` as `Self`).
    fn declared_closure_param(&self, closure: ExprId, j: usize) -> Option<Ty> {
        let (call, k) = self.body.exprs.iter().enumerate().find_map(|(id, x)| match &x.kind {
            ExprKind::MethodCall { args, .. } => {
                let k = args.iter().position(|&a| a == closure)?;
                Some((ExprId(id as u32), k))
            }
            _ => None,
        })?;
        let (method, args) = self.declared_calls.get(&call)?;
        let sig = self.tcx.fn_sig(*method);
        // The method's inputs begin with `self`.
        let TyKind::Param(f) = sig.inputs.get(k + 1)?.kind() else { return None };
        let fn_traits: Vec<DefId> =
            ["fn", "fn_mut", "fn_once"].iter().filter_map(|l| self.tcx.items.lang(l)).collect();
        let param = self.tcx.predicates(*method).iter().find_map(|(t, b)| {
            if !matches!(t.kind(), TyKind::Param(i) if i == f) || !fn_traits.contains(&b.trait_id) {
                return None;
            }
            match b.args.get(1)?.ty()?.kind() {
                TyKind::Tuple(ts) => ts.get(j).cloned(),
                _ => None,
            }
        })?;
        let param = self.declared_normalize(&param.subst(args));
        (!param.has_error()).then_some(param)
    }

    /// Remembers a call of an inherent method that the probe found, when the receiver's
    /// declared type (through references) is the impl's type with declared generic types for
    /// its parameters: `it.next().unwrap()` is `Option<T>::unwrap` with `T = I::Item`, so the
    /// call is an `I::Item`, and the closure of `.map_or(0, |x| ..)` takes one.
    pub(super) fn record_declared_inherent_call(
        &mut self,
        e: ExprId,
        receiver: ExprId,
        pick: &super::method::Pick,
    ) {
        if pick.trait_id.is_some() {
            return;
        }
        let crate::items::Container::Impl(imp) = self.tcx.items.container(pick.method) else {
            return;
        };
        let Some(mut declared) = self.declared_generic_ty(receiver) else { return };
        let header = self.tcx.impl_header(imp);
        while let TyKind::Ref(inner, _) = declared.kind() {
            if matches!(header.self_ty.kind(), TyKind::Ref(..)) {
                break;
            }
            declared = inner.clone();
        }
        if !declared.has_params() && !declared.has_projections() {
            return;
        }
        let mut args = vec![None; pick.container_args.len()];
        if !match_params(&header.self_ty, &declared, &mut args) {
            return;
        }
        let Some(args) = args.into_iter().map(|a| a.map(GenericArg::Ty)).collect() else {
            return;
        };
        self.declared_calls.insert(e, (pick.method, args));
    }

    /// The `Item` of a type parameter bounded by `Iterator` (or only by `IntoIterator`): what
    /// rustc's generic check knows of the variable of `for x in it` with `it` declared `I`.
    fn declared_item(&self, iterable: &Ty) -> Option<Ty> {
        let TyKind::Param(i) = iterable.kind() else { return None };
        let bounds = self.param_bounds(*i);
        let items = self.tcx.items;
        let trait_id = [items.lang("Iterator")?, items.lang("IntoIterator")?]
            .into_iter()
            .find(|t| bounds.contains(t))?;
        let item = Ty::new(TyKind::Projection(crate::ty::Projection {
            trait_id,
            args: vec![GenericArg::Ty(iterable.clone())].into(),
            assoc: items.assoc_item(trait_id, "Item", true)?,
        }));
        Some(self.declared_normalize(&item))
    }

    /// A declared type with each projection on a type parameter replaced by what the
    /// parameter's bound binds it to: `I::Item` is `T` under `I: Iterator<Item = T>`, as in
    /// rustc's generic check, which then knows `T`'s bounds.
    fn declared_normalize(&self, ty: &Ty) -> Ty {
        if !ty.has_projections() {
            return ty.clone();
        }
        let preds = self.tcx.predicates(self.def);
        ty.fold(
            &mut |t| {
                let TyKind::Projection(p) = t.kind() else { return None };
                let self_ty = p.args.first()?.ty()?;
                preds.iter().find_map(|(bounded, b)| {
                    if bounded != self_ty {
                        return None;
                    }
                    let (_, bound) = b.assoc.iter().find(|(a, _)| *a == p.assoc)?;
                    Some(bound.clone())
                })
            },
            &mut |c| c.clone(),
        )
    }
}

/// Matches an impl's type, whose type parameters are its generics, against a declared type,
/// filling in each parameter's declared type; false where their shapes differ.
fn match_params(pattern: &Ty, declared: &Ty, out: &mut [Option<Ty>]) -> bool {
    match (pattern.kind(), declared.kind()) {
        (TyKind::Param(i), _) => match out.get_mut(*i as usize) {
            Some(slot @ None) => {
                *slot = Some(declared.clone());
                true
            }
            Some(Some(known)) => known == declared,
            None => false,
        },
        (TyKind::Adt(a, pa), TyKind::Adt(b, da)) if a == b && pa.len() == da.len() => {
            pa.iter().zip(da.iter()).all(|(p, d)| match (p.ty(), d.ty()) {
                (Some(p), Some(d)) => match_params(p, d, out),
                _ => p == d,
            })
        }
        (TyKind::Ref(p, m), TyKind::Ref(d, n)) if m == n => match_params(p, d, out),
        (TyKind::Slice(p), TyKind::Slice(d)) => match_params(p, d, out),
        (TyKind::Tuple(ps), TyKind::Tuple(ds)) if ps.len() == ds.len() => {
            ps.iter().zip(ds).all(|(p, d)| match_params(p, d, out))
        }
        _ => pattern == declared,
    }
}
