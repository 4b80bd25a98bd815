//! Paths, calls, fields, indexing and struct literals: what a value path names (locals,
//! functions, constructors, constants, associated items found through impls and traits), and
//! the calls of functions, constructors and closures.

use super::expr::FnCtxt;
use super::traits::Obligation;
use super::*;
use crate::hir::{ExprKind, FieldName, PathExpr};
use crate::items::{CtorKind, Ns, PathRes, Res};
use crate::ty::{Const, Infer};

/// What an associated item lookup found.
pub(super) enum Assoc {
    /// A function or constant, with the container's arguments (the impl's, or the trait's
    /// with `Self` first).
    Item(DefId, Vec<GenericArg>),
    /// An enum variant reached through a type (`Self::A`, `Alias::B`).
    Variant(DefId, Vec<GenericArg>),
}

impl<'c, 't, 'a> FnCtxt<'c, 't, 'a> {
    /// Explicit generic arguments on a path segment for `def`'s own parameters, the rest
    /// fresh variables.
    pub fn own_args(
        &mut self,
        def: DefId,
        seg_args: &'a syn::PathArguments,
        scope: crate::items::ScopeId,
    ) -> Vec<GenericArg> {
        let angle = match seg_args {
            syn::PathArguments::AngleBracketed(a) => Some(a),
            _ => None,
        };
        self.own_args_angle(def, angle, scope)
    }

    /// `own_args` from a turbofish.
    pub fn own_args_angle(
        &mut self,
        def: DefId,
        angle: Option<&'a syn::AngleBracketedGenericArguments>,
        scope: crate::items::ScopeId,
    ) -> Vec<GenericArg> {
        let g = self.tcx.items.generics(def);
        let parent_count = g.map_or(0, |g| g.parent_count) as usize;
        // A trait's `Self` is not written in its arguments: the caller supplies it.
        let skip = usize::from(self.tcx.items.is_trait(def));
        let params: Vec<bool> = g
            .map(|g| {
                g.params
                    .iter()
                    .skip(skip)
                    .map(|p| matches!(p.kind, crate::items::GenericParamKind::Const { .. }))
                    .collect()
            })
            .unwrap_or_default();
        let impl_trait_count = g.map_or(0, |g| g.impl_trait.len());
        let written: Vec<&'a syn::GenericArgument> = match angle {
            Some(a) => {
                a.args.iter().filter(|x| !matches!(x, syn::GenericArgument::Lifetime(_))).collect()
            }
            None => Vec::new(),
        };
        let explicit = params.len() - impl_trait_count;
        let mut out = Vec::new();
        for (k, is_const) in params.iter().enumerate() {
            let arg = match written.get(k).filter(|_| k < explicit) {
                Some(syn::GenericArgument::Type(syn::Type::Infer(_))) => {
                    GenericArg::Ty(self.infer.new_var())
                }
                Some(syn::GenericArgument::Type(t)) if !is_const => {
                    GenericArg::Ty(self.lower_ty(crate::hir::TyRef { ty: t, scope }))
                }
                Some(syn::GenericArgument::Type(syn::Type::Path(p))) => {
                    let e = syn::Expr::Path(syn::ExprPath {
                        attrs: vec![],
                        qself: None,
                        path: p.path.clone(),
                    });
                    GenericArg::Const(self.const_value(&e, scope))
                }
                Some(syn::GenericArgument::Const(e)) if *is_const => {
                    GenericArg::Const(self.const_value(e, scope))
                }
                _ if *is_const => GenericArg::Const(self.infer.new_const_var()),
                _ => GenericArg::Ty(self.infer.new_var()),
            };
            out.push(arg);
        }
        let _ = parent_count;
        out
    }

    fn const_value(&mut self, e: &syn::Expr, scope: crate::items::ScopeId) -> Const {
        let mut diags = Vec::new();
        let c = crate::ty::lower_const_arg(
            self.tcx.items,
            scope,
            Some(self.def),
            e,
            &mut diags,
            self.file,
        );
        for d in diags {
            self.error(d);
        }
        crate::ty::subst_const(&c, &self.args)
    }

    /// The type of a definition's value when named by a path.
    pub fn check_path_expr(&mut self, e: ExprId, p: &PathExpr<'a>, expected: Option<&Ty>) -> Ty {
        let span = p.span;
        if let Some(q) = p.qself {
            return self.qself_path(e, q, p, span);
        }
        let Some(PathRes { res, resolved, rest }) = p.res else {
            // `Box::new(x)`, `Vec::with_capacity(n)`: an item of a standard host type, which
            // has no device form (the type lowering says the same of `let v: Vec<u32>`).
            let segs: Vec<String> = p.path.segments.iter().map(|s| s.ident.to_string()).collect();
            if let [.., ty, _] = &segs[..]
                && crate::ty::lower::HOST_TYPES.contains(&ty.as_str())
            {
                self.error(crate::ty::lower::host_type_error(
                    format!("`{}` cannot be used in kernels", p.text()),
                    span,
                    ty,
                ));
                return Ty::error();
            }
            let what = if self.checking_callee { "function" } else { "value" };
            let mut d = Diagnostic::new(
                RK_UNKNOWN_NAME,
                format!("cannot find {what} `{}` in this scope", p.text()),
            )
            .at(span, "not found in this scope");
            if let [seg] = &p.path.segments.iter().collect::<Vec<_>>()[..] {
                let name = seg.ident.to_string();
                d = with_import_help(
                    d,
                    &self.tcx.items.import_suggestions(&name, Ns::Value),
                    &name,
                );
            }
            if let Some(first) = p.path.segments.first() {
                d = with_core_import_note(d, self.tcx.items, p.scope, &first.ident.to_string());
            }
            self.error(d);
            return Ty::error();
        };
        let segs: Vec<&syn::PathSegment> = p.path.segments.iter().collect();
        if rest == 0 {
            return self.value_of_res(e, res, segs[resolved], p.scope, expected, span, &p.text());
        }
        if rest > 1 {
            // `T::Acc::default()`, `Self::Item::from(x)`: every segment but the last names a
            // type (an associated type of a parameter or of `Self`), which the type lowering
            // resolves; the last is an item of that type.
            let last = segs.len() - 1;
            let ty = syn::Type::Path(syn::TypePath {
                qself: None,
                path: syn::Path {
                    leading_colon: p.path.leading_colon,
                    segments: segs[..last].iter().map(|s| (*s).clone()).collect(),
                },
            });
            let base = self.lower_syn_ty(&ty, p.scope);
            if base.is_error() {
                return base;
            }
            let name = segs[last].ident.to_string();
            return self.assoc_value(
                e,
                base,
                &name,
                &segs[last].arguments,
                p.scope,
                span,
                expected,
            );
        }
        let name = segs[resolved + 1].ident.to_string();
        let item_args = &segs[resolved + 1].arguments;
        // The type before the associated item.
        let base = match res {
            Res::Def(d) if self.tcx.items.is_trait(d) => {
                return self.trait_item_path(
                    e,
                    d,
                    &segs[resolved].arguments,
                    &name,
                    item_args,
                    p.scope,
                    span,
                );
            }
            Res::Def(d) => match &self.tcx.items.def(d).kind {
                DefKind::Struct { .. } | DefKind::Enum { .. } => {
                    let args = self.own_args(d, &segs[resolved].arguments, p.scope);
                    Ty::adt(d, args)
                }
                DefKind::TypeAlias { .. } => {
                    let mut diags = Vec::new();
                    let mut l = self.tcx.lowerer(d, &mut diags);
                    let t = l.lower(match &self.tcx.items.def(d).kind {
                        DefKind::TypeAlias { ty, .. } => ty,
                        _ => return Ty::error(),
                    });
                    drop(l);
                    for x in diags {
                        self.error(x);
                    }
                    let a = self.own_args(d, &segs[resolved].arguments, p.scope);
                    self.normalize(&t.subst(&a))
                }
                _ => {
                    self.error(
                        Diagnostic::new(RK_UNKNOWN_NAME, format!("cannot find `{}`", p.text()))
                            .at(span, "not a type"),
                    );
                    return Ty::error();
                }
            },
            Res::Prim(pr) => crate::ty::lower::prim_ty(pr),
            Res::Param(i) => self
                .args
                .get(i as usize)
                .and_then(GenericArg::ty)
                .cloned()
                .unwrap_or_else(Ty::error),
            Res::SelfTy(_) => match &self.self_ty_generic {
                Some(t) => {
                    let t = t.subst(&self.args);
                    self.normalize(&t)
                }
                None => Ty::error(),
            },
            Res::Local(_) => Ty::error(),
        };
        self.assoc_value(e, base, &name, item_args, p.scope, span, expected)
    }

    /// `<T as Trait>::item` and `<T>::item`.
    fn qself_path(&mut self, e: ExprId, q: &'a syn::QSelf, p: &PathExpr<'a>, span: Span) -> Ty {
        let self_ty = self.lower_ty(crate::hir::TyRef { ty: &q.ty, scope: p.scope });
        let segs: Vec<&syn::PathSegment> = p.path.segments.iter().collect();
        let Some(last) = segs.last() else { return Ty::error() };
        let name = last.ident.to_string();
        if q.position == 0 {
            return self.assoc_value(e, self_ty, &name, &last.arguments, p.scope, span, None);
        }
        let trait_names: Vec<String> =
            segs[..q.position].iter().map(|s| s.ident.to_string()).collect();
        let r = self.tcx.items.resolve_path(
            p.scope,
            &trait_names,
            p.path.leading_colon.is_some(),
            Ns::Type,
            &|_| None,
        );
        let Some(PathRes { res: Res::Def(t), rest: 0, .. }) =
            r.filter(|r| matches!(r.res, Res::Def(d) if self.tcx.items.is_trait(d)))
        else {
            self.error(
                Diagnostic::new(RK_UNKNOWN_NAME, "cannot find the trait of this path")
                    .at(span, "not a trait"),
            );
            return Ty::error();
        };
        let mut targs = self.own_args(t, &segs[q.position - 1].arguments, p.scope);
        targs.insert(0, GenericArg::Ty(self_ty));
        // `<T as Trait>::Assoc::item`: the item of the associated type, as in
        // `<T as Shape>::Out::default()`.
        if segs.len() == q.position + 2 {
            let assoc_name = segs[q.position].ident.to_string();
            let Some(assoc) = self.tcx.items.assoc_item(t, &assoc_name, true) else {
                self.error(
                    Diagnostic::new(
                        RK_UNKNOWN_NAME,
                        format!(
                            "cannot find associated type `{assoc_name}` in trait `{}`",
                            self.tcx.items.name(t)
                        ),
                    )
                    .at(span, "not found"),
                );
                return Ty::error();
            };
            self.obligations.push(Obligation::Trait { trait_id: t, args: targs.clone(), span });
            let projected = self.normalize(&Ty::new(TyKind::Projection(crate::ty::Projection {
                trait_id: t,
                args: targs.into(),
                assoc,
            })));
            return self.assoc_value(e, projected, &name, &last.arguments, p.scope, span, None);
        }
        let Some(item) = self.tcx.items.assoc_item(t, &name, false) else {
            self.error(
                Diagnostic::new(
                    RK_UNKNOWN_NAME,
                    format!("cannot find `{name}` in trait `{}`", self.tcx.items.name(t)),
                )
                .at(span, "not found"),
            );
            return Ty::error();
        };
        self.obligations.push(Obligation::Trait { trait_id: t, args: targs.clone(), span });
        self.item_value(e, item, targs, &last.arguments, p.scope, span)
    }

    /// `Trait::item` (`Default::default()`, `From::from(x)`): `Self` is inferred.
    #[allow(clippy::too_many_arguments, reason = "the parts of one path")]
    fn trait_item_path(
        &mut self,
        e: ExprId,
        t: DefId,
        trait_seg: &'a syn::PathArguments,
        name: &str,
        item_args: &'a syn::PathArguments,
        scope: crate::items::ScopeId,
        span: Span,
    ) -> Ty {
        let Some(item) = self.tcx.items.assoc_item(t, name, false) else {
            self.error(
                Diagnostic::new(
                    RK_UNKNOWN_NAME,
                    format!("cannot find `{name}` in trait `{}`", self.tcx.items.name(t)),
                )
                .at(span, "not found"),
            );
            return Ty::error();
        };
        let mut targs = self.own_args(t, trait_seg, scope);
        let self_var = self.infer.new_var();
        targs.insert(0, GenericArg::Ty(self_var));
        self.obligations.push(Obligation::Trait { trait_id: t, args: targs.clone(), span });
        self.item_value(e, item, targs, item_args, scope, span)
    }

    /// The value of a function or constant, given its container's arguments.
    fn item_value(
        &mut self,
        e: ExprId,
        item: DefId,
        container_args: Vec<GenericArg>,
        item_args: &'a syn::PathArguments,
        scope: crate::items::ScopeId,
        span: Span,
    ) -> Ty {
        match &self.tcx.items.def(item).kind {
            DefKind::Fn { .. } => {
                self.tcx.note_use(self.def, item);
                let mut args = container_args;
                args.extend(self.own_args(item, item_args, scope));
                self.add_predicates(item, &args, span);
                let args: Args = args.into();
                self.r.paths.insert(e, ValueRes::Fn(Callee { def: item, args: args.clone() }));
                Ty::new(TyKind::FnDef(item, args))
            }
            DefKind::Const { ty, .. } => {
                let args: Args = container_args.into();
                let t = match ty {
                    Some(ty) => {
                        let mut diags = Vec::new();
                        let mut l = self.tcx.lowerer(item, &mut diags);
                        let t = l.lower(ty);
                        drop(l);
                        for x in diags {
                            self.error(x);
                        }
                        self.normalize(&t.subst(&args))
                    }
                    None => Ty::error(),
                };
                self.r.paths.insert(e, ValueRes::Const(Callee { def: item, args }));
                t
            }
            _ => {
                self.error(
                    Diagnostic::new(RK_UNKNOWN_NAME, "expected a value")
                        .at(span, "not a function or constant"),
                );
                Ty::error()
            }
        }
    }

    /// `Type::name`: an inherent associated item, a trait's item implemented for the type,
    /// or an enum variant.
    #[allow(clippy::too_many_arguments, reason = "the parts of one path")]
    pub fn assoc_value(
        &mut self,
        e: ExprId,
        base: Ty,
        name: &str,
        item_args: &'a syn::PathArguments,
        scope: crate::items::ScopeId,
        span: Span,
        expected: Option<&Ty>,
    ) -> Ty {
        let base = self.shallow(&base);
        if base.is_error() {
            return base;
        }
        match self.lookup_assoc(&base, name, span) {
            Some(Assoc::Variant(v, args)) => self.ctor_value(e, v, args, span, expected),
            Some(Assoc::Item(item, cargs)) => {
                self.item_value(e, item, cargs, item_args, scope, span)
            }
            None => {
                let shown = self.show(&base);
                self.error(
                    Diagnostic::new(RK_UNKNOWN_FUNCTION, format!("no function or associated item named `{name}` found for `{shown}` in kernels"))
                        .at(span, "not found")
                        .note("associated items come from the type's `impl` blocks, the traits implemented for it, and rkc's core library"),
                );
                Ty::error()
            }
        }
    }

    /// Finds `name` for a type: variants, inherent impls, then trait impls.
    pub fn lookup_assoc(&mut self, base: &Ty, name: &str, span: Span) -> Option<Assoc> {
        if let TyKind::Adt(d, args) = base.kind()
            && let DefKind::Enum { variants, .. } = &self.tcx.items.def(*d).kind
            && let Some(v) = variants.iter().find(|v| self.tcx.items.name(**v) == name)
        {
            return Some(Assoc::Variant(*v, args.to_vec()));
        }
        // Inherent impls whose self type matches.
        let items = self.tcx.items;
        for &imp in &items.impls {
            let DefKind::Impl { trait_path: None, .. } = &items.def(imp).kind else { continue };
            let Some(item) = items.assoc_item(imp, name, false) else { continue };
            let fresh = self.fresh_args(imp);
            let header = self.tcx.impl_header(imp);
            let st = header.self_ty.subst(&fresh);
            if self.infer.probe(|i| i.unify(&st, base).ok()).is_some() {
                return Some(Assoc::Item(item, fresh));
            }
        }
        // Traits with an item of that name that the type implements.
        let mut candidates = Vec::new();
        for &t in &items.traits {
            if let Some(item) = items.assoc_item(t, name, false) {
                candidates.push((t, item));
            }
        }
        for (t, item) in &candidates {
            let mut targs = self.fresh_args(*t);
            if targs.is_empty() {
                continue;
            }
            targs[0] = GenericArg::Ty(base.clone());
            if !matches!(self.select(*t, &targs, 0), Selection::None) {
                self.obligations.push(Obligation::Trait {
                    trait_id: *t,
                    args: targs.clone(),
                    span,
                });
                return Some(Assoc::Item(*item, targs));
            }
        }
        None
    }

    #[allow(clippy::too_many_arguments, reason = "the parts of one path")]
    fn value_of_res(
        &mut self,
        e: ExprId,
        res: Res,
        seg: &'a syn::PathSegment,
        scope: crate::items::ScopeId,
        expected: Option<&Ty>,
        span: Span,
        text: &str,
    ) -> Ty {
        match res {
            Res::Local(l) => {
                let l = LocalId(l);
                self.r.paths.insert(e, ValueRes::Local(l));
                self.local_ty[l.0 as usize].clone().unwrap_or_else(Ty::error)
            }
            Res::Param(i) => {
                // A const generic parameter used as a value.
                let v = match self.args.get(i as usize) {
                    Some(GenericArg::Const(Const::Value(v))) => *v,
                    _ => {
                        self.error(
                            Diagnostic::new(
                                RK_UNKNOWN_NAME,
                                format!("`{text}` is a type parameter, not a value"),
                            )
                            .at(span, "not a value"),
                        );
                        return Ty::error();
                    }
                };
                self.r.paths.insert(e, ValueRes::ConstParam(v));
                self.const_param_ty(i)
            }
            Res::SelfTy(_) => {
                let Some(st) = self.self_ty_generic.clone() else { return Ty::error() };
                let st = st.subst(&self.args);
                match st.kind() {
                    TyKind::Adt(d, args)
                        if !matches!(self.tcx.items.def(*d).kind, DefKind::Enum { .. }) =>
                    {
                        self.ctor_value(e, *d, args.to_vec(), span, expected)
                    }
                    _ => {
                        self.error(
                            Diagnostic::new(RK_UNKNOWN_NAME, "`Self` is not a value here")
                                .at(span, "not a value"),
                        );
                        Ty::error()
                    }
                }
            }
            Res::Prim(_) => {
                self.error(
                    Diagnostic::new(
                        RK_UNKNOWN_NAME,
                        format!("expected value, found builtin type `{text}`"),
                    )
                    .at(span, "not a value"),
                );
                Ty::error()
            }
            Res::Def(d) => {
                let kind = self.tcx.items.def(d).kind.clone();
                match kind {
                    DefKind::Fn { .. } => {
                        self.tcx.note_use(self.def, d);
                        let args = self.own_args(d, &seg.arguments, scope);
                        self.add_predicates(d, &args, span);
                        let args: Args = args.into();
                        self.r.paths.insert(e, ValueRes::Fn(Callee { def: d, args: args.clone() }));
                        Ty::new(TyKind::FnDef(d, args))
                    }
                    DefKind::Const { ty, .. } => {
                        let t = match ty {
                            Some(ty) => {
                                let mut diags = Vec::new();
                                let mut l = self.tcx.lowerer(d, &mut diags);
                                let t = l.lower(ty);
                                for x in diags {
                                    self.error(x);
                                }
                                t
                            }
                            None => Ty::error(),
                        };
                        self.r
                            .paths
                            .insert(e, ValueRes::Const(Callee { def: d, args: Vec::new().into() }));
                        t
                    }
                    DefKind::Static { ty, mutable, .. } => {
                        if mutable && !self.trusted {
                            self.error(
                                Diagnostic::new(RK_STATIC, format!("the `static mut` `{text}` cannot be used in a kernel"))
                                    .at(span, "host memory that the GPU cannot reach")
                                    .with_secondary(self.tcx.items.def(d).span, "defined here")
                                    .help("pass the data to the kernel as an argument, or make it a read-only `static` or a `const`"),
                            );
                            return Ty::error();
                        }
                        let mut diags = Vec::new();
                        let mut l = self.tcx.lowerer(d, &mut diags);
                        let t = l.lower(ty);
                        for x in diags {
                            self.error(x);
                        }
                        self.r.paths.insert(e, ValueRes::Static(d));
                        t
                    }
                    DefKind::Struct { .. } => {
                        let args = self.own_args(d, &seg.arguments, scope);
                        self.ctor_value(e, d, args, span, expected)
                    }
                    DefKind::Variant { parent, .. } => {
                        // `Option::<f32>::None` writes the arguments on the enum's segment,
                        // `None::<f32>` on the variant's: either is taken.
                        let mut args = self.own_args(parent, &seg.arguments, scope);
                        if let Some(x) = expected {
                            let x = self.shallow(x);
                            if let TyKind::Adt(pd, xa) = x.kind()
                                && *pd == parent
                            {
                                args = xa.to_vec();
                            }
                        }
                        self.ctor_value(e, d, args, span, expected)
                    }
                    _ => {
                        self.error(
                            Diagnostic::new(
                                RK_UNKNOWN_NAME,
                                format!("expected value, found `{text}`"),
                            )
                            .at(span, "not a value"),
                        );
                        Ty::error()
                    }
                }
            }
        }
    }

    /// The declared type of const parameter `i` of the body's item.
    fn const_param_ty(&mut self, i: u32) -> Ty {
        let params = self.tcx.items.all_generic_params(self.def);
        let Some(p) = params.iter().find(|p| p.index == i) else { return Ty::usize() };
        let crate::items::GenericParamKind::Const { ty, .. } = p.kind else { return Ty::usize() };
        let scope = self.tcx.items.def(self.def).scope;
        self.lower_ty(crate::hir::TyRef { ty, scope })
    }

    /// A struct or variant named as a value: a unit value, or a constructor function.
    fn ctor_value(
        &mut self,
        e: ExprId,
        def: DefId,
        args: Vec<GenericArg>,
        span: Span,
        _expected: Option<&Ty>,
    ) -> Ty {
        let adt = self.tcx.items.variant_parent(def).map(|(p, _)| p).unwrap_or(def);
        let args: Args = args.into();
        self.r.paths.insert(e, ValueRes::Ctor { def, args: args.clone() });
        match self.tcx.items.ctor_kind(def) {
            Some(CtorKind::Unit) => Ty::new(TyKind::Adt(adt, args)),
            Some(CtorKind::Tuple) => Ty::new(TyKind::FnDef(def, args)),
            _ => {
                self.error(
                    Diagnostic::new(
                        RK_UNKNOWN_NAME,
                        format!("expected value, found struct `{}`", self.tcx.items.name(def)),
                    )
                    .at(span, "a struct with named fields is built with `Name { .. }`"),
                );
                Ty::error()
            }
        }
    }

    /// What calling a function item gives: its inputs and output under its arguments.
    pub fn callable_sig(&mut self, def: DefId, args: &[GenericArg]) -> (Vec<Ty>, Ty) {
        match &self.tcx.items.def(def).kind {
            DefKind::Fn { .. } => {
                let sig = self.tcx.fn_sig(def);
                let inputs = sig.inputs.iter().map(|t| self.normalize(&t.subst(args))).collect();
                let output = self.normalize(&sig.output.subst(args));
                (inputs, output)
            }
            DefKind::Struct { .. } | DefKind::Variant { .. } => {
                let adt = self.tcx.items.variant_parent(def).map(|(p, _)| p).unwrap_or(def);
                let fields = self.tcx.field_tys(def);
                let inputs = fields.iter().map(|t| self.normalize(&t.subst(args))).collect();
                (inputs, Ty::new(TyKind::Adt(adt, args.to_vec().into())))
            }
            _ => (Vec::new(), Ty::error()),
        }
    }

    pub fn check_call(
        &mut self,
        e: ExprId,
        callee: ExprId,
        args: &[ExprId],
        expected: Option<&Ty>,
    ) -> Ty {
        let span = self.span(e);
        self.checking_callee = matches!(self.body.expr(callee).kind, ExprKind::Path(_));
        let ct = self.check_expr(callee, None);
        self.checking_callee = false;
        let mut ct = self.structurally_resolve(&ct, self.span(callee));
        // Calls through references to closures and functions (`f(x)` with `f: &F`).
        let mut derefs = 0;
        while let TyKind::Ref(inner, _) = ct.kind() {
            let inner = self.resolve_var(inner);
            if !matches!(inner.kind(), TyKind::Closure(_) | TyKind::FnDef(..) | TyKind::Ref(..)) {
                break;
            }
            ct = inner;
            derefs += 1;
        }
        for _ in 0..derefs {
            self.add_adjust(callee, Adjust::Deref);
        }
        let (inputs, output) = match ct.kind() {
            TyKind::FnDef(d, fargs) => {
                let d = *d;
                if let DefKind::Fn { kernel: true, .. } = self.tcx.items.def(d).kind
                    && !self.trusted
                {
                    let name = self.tcx.items.name(d).to_string();
                    self.error(
                        Diagnostic::new(RK_CALL_KERNEL, format!("the kernel `{name}` cannot be called from a kernel"))
                            .at(span, "a kernel is launched by the host")
                            .help("move the shared code into a plain function and call it from both kernels"),
                    );
                    return Ty::error();
                }
                if matches!(self.tcx.items.def(d).kind, DefKind::Fn { .. })
                    && self.tcx.fn_sig(d).unsafe_fn
                {
                    let name = self.tcx.items.name(d).to_string();
                    self.require_unsafe(
                        self.span(callee),
                        &format!("call to unsafe function `{name}`"),
                    );
                }
                let fargs = fargs.clone();
                self.r.callees.insert(e, Callee { def: d, args: fargs.clone() });
                self.callable_sig(d, &fargs)
            }
            TyKind::Closure(id) => self.closure_sig(*id),
            // A callee whose type is or holds an error (`&dyn Fn`, refused where it was
            // written) was reported there.
            _ if ct.has_error() => {
                self.check_args_unresolved(args);
                return Ty::error();
            }
            _ => {
                let shown = self.show(&ct);
                self.error(
                    Diagnostic::new(
                        RK_UNKNOWN_FUNCTION,
                        format!("expected function, found `{shown}`"),
                    )
                    .at(self.span(callee), "not a function"),
                );
                self.check_args_unresolved(args);
                return Ty::error();
            }
        };
        if inputs.len() != args.len() {
            self.arity_error(e, callee, inputs.len(), args.len(), span);
            self.check_args_unresolved(args);
            return output;
        }
        let hints = self.expected_inputs(&output, expected, &inputs);
        if let Some(x) = expected {
            // The expected result helps the arguments (`let x: u64 = f(1)`), when it fits.
            let x = x.clone();
            let _ = self.infer.probe(|i| i.unify(&output, &x).ok().filter(|_| !output.is_infer()));
        }
        self.check_args(args, &inputs, &hints);
        output
    }

    /// rustc's `expected_inputs_for_expected_output`: the parameter types that the expected
    /// result implies, found by unifying in a snapshot that is rolled back. They are hints for
    /// checking the arguments, not constraints: `let s: u32 = it.fold(7, |a, v| a.wrapping_mul(3)
    /// ^ v)` types the literal `7` as `u32`, so that the closure's `a` is known. Only fully
    /// known hints are kept (nothing made inside the snapshot survives it).
    pub fn expected_inputs(
        &mut self,
        output: &Ty,
        expected: Option<&Ty>,
        inputs: &[Ty],
    ) -> Vec<Option<Ty>> {
        let Some(x) = expected else { return Vec::new() };
        if !output.has_infer() {
            return Vec::new();
        }
        let s = self.infer.snapshot();
        let hints = if self.infer.unify(output, x).is_ok() {
            inputs
                .iter()
                .map(|t| {
                    let before = t.has_infer();
                    let r = self.infer.resolve(t);
                    (before && !r.has_infer()).then_some(r)
                })
                .collect()
        } else {
            Vec::new()
        };
        self.infer.rollback_to(s);
        hints
    }

    pub fn arity_error(&mut self, e: ExprId, callee: ExprId, want: usize, got: usize, span: Span) {
        let plural = |n: usize| if n == 1 { "argument" } else { "arguments" };
        let mut d = Diagnostic::new(
            RK_ARGUMENT_COUNT,
            format!(
                "this function takes {want} {} but {got} {} supplied",
                plural(want),
                if got == 1 { "argument was" } else { "arguments were" }
            ),
        )
        .at(span, format!("expected {want}"));
        if let Some(ValueRes::Fn(c)) = self.r.paths.get(&callee)
            && self.tcx.items.is_user(c.def)
        {
            d = d.with_secondary(self.tcx.items.def(c.def).span, "defined here");
        }
        let _ = e;
        self.error(d);
    }

    /// Checks call arguments against parameter types: closures last, so that the other
    /// arguments can decide their parameter types first (as rustc does).
    /// The arguments of a call that could not be resolved (or whose arity is wrong), still
    /// checked for their own errors; a closure's parameters and result are errors then, so
    /// that what its body does with them is not reported as unknown types on top of the call's
    /// error.
    pub fn check_args_unresolved(&mut self, args: &[ExprId]) {
        for a in args {
            let closure = matches!(self.body.expr(*a).kind, ExprKind::Closure { .. });
            let error = Ty::error();
            self.check_expr(*a, closure.then_some(&error));
        }
    }

    /// `hints`: the parameter types the expected result implies (see `expected_inputs`), by
    /// position; an argument is checked against its hint and coerced to its parameter type.
    pub fn check_args(&mut self, args: &[ExprId], inputs: &[Ty], hints: &[Option<Ty>]) {
        let is_closure =
            |fcx: &Self, a: &ExprId| matches!(fcx.body.expr(*a).kind, ExprKind::Closure { .. });
        for (k, (a, t)) in args.iter().zip(inputs).enumerate() {
            if !is_closure(self, a) {
                match hints.get(k).and_then(Option::as_ref) {
                    Some(hint) => {
                        let found = self.check_expr(*a, Some(hint));
                        self.coerce_or_error(*a, &found, t);
                    }
                    None => {
                        self.check_expr_coercible(*a, t);
                    }
                }
            }
        }
        if args.iter().any(|a| is_closure(self, a)) {
            self.select_pending();
            for (a, t) in args.iter().zip(inputs) {
                if is_closure(self, a) {
                    let t = self.normalize(t);
                    self.check_expr_coercible(*a, &t);
                }
            }
        }
    }

    /// `a.b`: a field of a struct or tuple, through references.
    pub fn check_field(&mut self, e: ExprId, base: ExprId, name: &FieldName, span: Span) -> Ty {
        let bt = self.check_expr(base, None);
        let mut t = self.structurally_resolve(&bt, self.span(base));
        // Auto-deref through references and `Deref` impls until a type has the field.
        let mut derefs = Vec::new();
        loop {
            let found = match t.kind() {
                TyKind::Adt(d, args)
                    if matches!(self.tcx.items.def(*d).kind, DefKind::Struct { .. }) =>
                {
                    let d = *d;
                    let key = name.as_string();
                    self.tcx.items.fields(d).iter().position(|f| f.name == key).map(|k| {
                        let ft = self.tcx.field_tys(d)[k].subst(args);
                        (k as u32, ft)
                    })
                }
                TyKind::Tuple(ts) => match name {
                    FieldName::Index(i) => ts.get(*i as usize).map(|ft| (*i, ft.clone())),
                    _ => None,
                },
                _ => None,
            };
            if let Some((k, ft)) = found {
                let ft = self.normalize(&ft);
                self.add_derefs(base, &derefs, span);
                self.r.fields.insert(e, k);
                return ft;
            }
            if derefs.len() >= 128 {
                break;
            }
            match self.deref_step(&t) {
                Some((next, a)) => {
                    derefs.push(a);
                    t = next;
                }
                None => break,
            }
        }
        if t.is_error() {
            return t;
        }
        if t.is_infer() {
            self.error(
                Diagnostic::new(RK_CANNOT_INFER, "type annotations needed")
                    .at(span, "the type of this value must be known to access its field")
                    .help("give the `let` a type: `let x: T = ...`"),
            );
            return Ty::error();
        }
        let shown = self.show(&t);
        // The field's name ends the expression (`(*p).z`): point at it, as rustc does.
        let text = name.as_string();
        let n = text.chars().count();
        let name_span = if span.end.1 >= n && span.end.0 >= span.start.0 {
            Span { start: (span.end.0, span.end.1 - n), end: span.end }
        } else {
            span
        };
        let mut d =
            Diagnostic::new(RK_UNKNOWN_FIELD, format!("no field `{text}` on type `{shown}`"))
                .at(name_span, "unknown field");
        match t.kind() {
            TyKind::Adt(dd, _) => {
                let names: Vec<String> =
                    self.tcx.items.fields(*dd).iter().map(|f| format!("`{}`", f.name)).collect();
                if !names.is_empty() {
                    d = d.note(format!("the fields of `{shown}` are {}", names.join(", ")));
                }
            }
            TyKind::Ptr(..) => {
                d = d.help("a raw pointer's fields are reached through `(*p).field`")
            }
            _ => {}
        }
        self.error(d);
        Ty::error()
    }

    /// `a[i]`: arrays and slices by `usize` (checked) or by ranges (subslices), and types with
    /// an `Index` impl.
    pub fn check_index(&mut self, e: ExprId, base: ExprId, index: ExprId, span: Span) -> Ty {
        let bt = self.check_expr(base, None);
        let it = self.check_expr(index, None);
        let mut t = self.structurally_resolve(&bt, self.span(base));
        let mut derefs = Vec::new();
        loop {
            match t.kind() {
                TyKind::Array(el, _) | TyKind::Slice(el) => {
                    let el = el.clone();
                    let is = self.shallow(&it);
                    let range = match is.kind() {
                        TyKind::Adt(d, _) => [
                            "Range",
                            "RangeInclusive",
                            "RangeFrom",
                            "RangeTo",
                            "RangeToInclusive",
                            "RangeFull",
                        ]
                        .iter()
                        .any(|l| self.tcx.items.lang(l) == Some(*d)),
                        _ => false,
                    };
                    self.add_derefs(base, &derefs, span);
                    if range {
                        if let TyKind::Adt(_, a) = is.kind()
                            && let Some(GenericArg::Ty(x)) = a.first()
                        {
                            let x = x.clone();
                            if self.infer.unify(&x, &Ty::usize()).is_err() {
                                let shown = self.show(&x);
                                self.error(
                                    mismatch("usize", &shown, self.span(index))
                                        .note("slices are indexed by ranges of `usize`"),
                                );
                            }
                        }
                        return Ty::slice(el);
                    }
                    if self.infer.unify(&is, &Ty::usize()).is_err() {
                        let shown = self.show(&is);
                        self.error(
                            mismatch("usize", &shown, self.span(index))
                                .help("convert the index with `as usize`"),
                        );
                    }
                    return el;
                }
                TyKind::Ref(inner, _) => {
                    t = self.resolve_var(inner);
                    derefs.push(Adjust::Deref);
                }
                TyKind::Error => return Ty::error(),
                TyKind::Infer(Infer::Var(_)) => {
                    self.error(
                        Diagnostic::new(RK_CANNOT_INFER, "type annotations needed")
                            .at(span, "the type of this value must be known to index it")
                            .help("give the `let` a type: `let x: T = ...`"),
                    );
                    return Ty::error();
                }
                _ => {
                    // An `Index` impl of this type, else the next step through its `Deref`
                    // impl, as rustc tries them at each step of auto-deref.
                    if let Some(out) = self.index_impl(e, base, &t, &it, &derefs, span) {
                        return out;
                    }
                    match self.deref_step(&t) {
                        Some((next, a)) if derefs.len() < 128 => {
                            derefs.push(a);
                            t = self.structurally_resolve(&next, span);
                        }
                        _ => break,
                    }
                }
            }
        }
        let shown = self.show(&t);
        self.error(
            Diagnostic::new(
                RK_MISMATCHED_TYPES,
                format!("cannot index into a value of type `{shown}`"),
            )
            .at(span, "not an array, slice, or type with an `Index` impl"),
        );
        Ty::error()
    }

    /// `base[index]` through an `Index` impl of `t`, the type `base` reaches by `derefs`.
    fn index_impl(
        &mut self,
        e: ExprId,
        base: ExprId,
        t: &Ty,
        it: &Ty,
        derefs: &[Adjust],
        span: Span,
    ) -> Option<Ty> {
        let index_trait = self.tcx.items.lang("Index")?;
        let m = self.tcx.items.assoc_item(index_trait, "index", false)?;
        let targs = vec![GenericArg::Ty(t.clone()), GenericArg::Ty(it.clone())];
        if matches!(self.select(index_trait, &targs, 0), Selection::None) {
            return None;
        }
        self.add_derefs(base, derefs, span);
        self.obligations.push(Obligation::Trait {
            trait_id: index_trait,
            args: targs.clone(),
            span,
        });
        let o = self.tcx.items.assoc_item(index_trait, "Output", true)?;
        self.r.callees.insert(e, Callee { def: m, args: targs.clone().into() });
        let proj = crate::ty::Projection { trait_id: index_trait, args: targs.into(), assoc: o };
        Some(self.normalize(&Ty::new(TyKind::Projection(proj))))
    }

    pub fn check_struct_lit(
        &mut self,
        e: ExprId,
        path: &PathExpr<'a>,
        fields: &[(String, ExprId, Span)],
        base: Option<ExprId>,
        expected: Option<&Ty>,
    ) -> Ty {
        let span = path.span;
        let Some((def, args)) = self.struct_path(path, expected) else {
            for (_, f, _) in fields {
                self.check_expr(*f, None);
            }
            if let Some(b) = base {
                self.check_expr(b, None);
            }
            return Ty::error();
        };
        let adt = self.tcx.items.variant_parent(def).map(|(p, _)| p).unwrap_or(def);
        let ty = Ty::new(TyKind::Adt(adt, args.clone().into()));
        let field_defs = self.tcx.items.fields(def).to_vec();
        let field_tys = self.tcx.field_tys(def);
        let mut seen = Vec::new();
        for (name, f, fspan) in fields {
            match field_defs.iter().position(|fd| fd.name == *name) {
                Some(k) => {
                    let ft = field_tys[k].subst(&args);
                    let ft = self.normalize(&ft);
                    self.check_expr_coercible(*f, &ft);
                    seen.push(k);
                }
                None => {
                    self.check_expr(*f, None);
                    let names: Vec<String> =
                        field_defs.iter().map(|f| format!("`{}`", f.name)).collect();
                    self.error(
                        Diagnostic::new(
                            RK_UNKNOWN_FIELD,
                            format!(
                                "struct `{}` has no field named `{name}`",
                                self.tcx.items.name(def)
                            ),
                        )
                        .at(*fspan, "unknown field")
                        .note(format!("the fields are {}", names.join(", "))),
                    );
                }
            }
        }
        match base {
            Some(b) => {
                self.check_expr_coercible(b, &ty);
            }
            None => {
                let missing: Vec<String> = (0..field_defs.len())
                    .filter(|k| !seen.contains(k))
                    .map(|k| format!("`{}`", field_defs[k].name))
                    .collect();
                if !missing.is_empty() {
                    self.error(
                        Diagnostic::new(
                            RK_MISSING_FIELD,
                            format!(
                                "missing field{} {} in initializer of `{}`",
                                if missing.len() > 1 { "s" } else { "" },
                                missing.join(", "),
                                self.tcx.items.name(def)
                            ),
                        )
                        .at(span, "missing fields")
                        .help("give every field a value, or copy the rest with `..base`"),
                    );
                }
            }
        }
        self.r.variants.insert(e, (def, args.into()));
        ty
    }

    /// The struct or variant a struct-literal or struct-pattern path names, with arguments.
    pub fn struct_path(
        &mut self,
        path: &PathExpr<'a>,
        expected: Option<&Ty>,
    ) -> Option<(DefId, Vec<GenericArg>)> {
        let span = path.span;
        let Some(PathRes { res, resolved, rest }) = path.res else {
            self.error(
                Diagnostic::new(
                    RK_UNKNOWN_NAME,
                    format!("cannot find struct `{}` in this scope", path.text()),
                )
                .at(span, "not found"),
            );
            return None;
        };
        let segs: Vec<&syn::PathSegment> = path.path.segments.iter().collect();
        let from_expected = |fcx: &mut Self, adt: DefId| -> Option<Vec<GenericArg>> {
            let x = fcx.shallow(expected?);
            match x.kind() {
                TyKind::Adt(d, a) if *d == adt => Some(a.to_vec()),
                _ => None,
            }
        };
        let base_ty = match res {
            Res::Def(d) => {
                match &self.tcx.items.def(d).kind {
                    DefKind::Struct { .. } if rest == 0 => {
                        let args = from_expected(self, d).unwrap_or_else(|| {
                            self.own_args(d, &segs[resolved].arguments, path.scope)
                        });
                        return Some((d, args));
                    }
                    DefKind::Variant { parent, .. } if rest == 0 => {
                        let parent = *parent;
                        let args =
                            from_expected(self, parent).unwrap_or_else(|| self.fresh_args(parent));
                        return Some((d, args));
                    }
                    DefKind::Struct { .. } | DefKind::Enum { .. } => {
                        let args = self.own_args(d, &segs[resolved].arguments, path.scope);
                        Ty::adt(d, args)
                    }
                    DefKind::TypeAlias { ty, .. } => {
                        let mut diags = Vec::new();
                        let mut l = self.tcx.lowerer(d, &mut diags);
                        let t = l.lower(ty);
                        drop(l);
                        for x in diags {
                            self.error(x);
                        }
                        let a = self.own_args(d, &segs[resolved].arguments, path.scope);
                        self.normalize(&t.subst(&a))
                    }
                    DefKind::Union => {
                        self.error(
                        Diagnostic::new(RK_UNSUPPORTED_TYPE, format!("the union `{}` cannot be used in kernels", self.tcx.items.name(d)))
                            .at(span, "a union")
                            .help("use `f32::to_bits`/`f32::from_bits` or a `#[repr(C)]` struct instead"),
                    );
                        return None;
                    }
                    _ => Ty::error(),
                }
            }
            Res::SelfTy(_) => match &self.self_ty_generic {
                Some(t) => t.subst(&self.args),
                None => Ty::error(),
            },
            _ => Ty::error(),
        };
        let base_ty = self.shallow(&base_ty);
        match (base_ty.kind(), rest) {
            (TyKind::Adt(d, a), 0)
                if matches!(self.tcx.items.def(*d).kind, DefKind::Struct { .. }) =>
            {
                Some((*d, a.to_vec()))
            }
            (TyKind::Adt(d, a), 1) => {
                let name = segs[resolved + 1].ident.to_string();
                let DefKind::Enum { variants, .. } = &self.tcx.items.def(*d).kind else {
                    return None;
                };
                match variants.iter().find(|v| self.tcx.items.name(**v) == name) {
                    Some(v) => Some((*v, a.to_vec())),
                    None => {
                        self.error(
                            Diagnostic::new(RK_UNKNOWN_NAME, format!("no variant named `{name}`"))
                                .at(span, "not found"),
                        );
                        None
                    }
                }
            }
            _ => {
                self.error(
                    Diagnostic::new(
                        RK_UNKNOWN_NAME,
                        format!("`{}` is not a struct or variant", path.text()),
                    )
                    .at(span, "expected a struct"),
                );
                None
            }
        }
    }
}

/// `d` with a note when `name` is imported from `core` or `std` by a path that rkc's device
/// core does not have: the error is then rkc's limit, not the user's typo.
pub(crate) fn with_core_import_note(
    d: Diagnostic,
    items: &crate::items::Items<'_>,
    scope: crate::items::ScopeId,
    name: &str,
) -> Diagnostic {
    match items.unresolved_core_import(scope, name) {
        Some(path) => d.note(format!(
            "`{name}` is imported from `{path}`, which rkc's device core does not have"
        )),
        None => d,
    }
}

/// Adds rustc's "consider importing" help for a name found elsewhere.
pub(crate) fn with_import_help(d: Diagnostic, suggestions: &[String], name: &str) -> Diagnostic {
    match suggestions {
        [] => d,
        [one] if one.starts_with("use rkc_offload::") => {
            d.help(format!("`{name}` is an offload builtin; import the builtins with `{one}`"))
        }
        [one] => d.help(format!("consider importing it: `{one}`")),
        many => d.help(format!(
            "consider importing one of these: {}",
            many.iter().map(|l| format!("`{l}`")).collect::<Vec<_>>().join(", ")
        )),
    }
}
