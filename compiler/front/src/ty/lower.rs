//! Written types (`syn::Type`) to [`Ty`]s, in the scope and generic environment of one item:
//! paths resolve through the item table, generic parameters become [`TyKind::Param`], `Self`
//! the impl's type, `T::Item` a [`Projection`], and array lengths are evaluated.

use super::*;
use crate::codes::*;
use crate::diag::{Diagnostic, Span};
use crate::items::{Container, DefKind, FileId, GenericParamKind, Ns, Res, ScopeId};
use syn::spanned::Spanned;

/// The error for a host type `name` (one of `HOST_TYPES`) met at `span`, under `title`: for the
/// type itself (`let v: Vec<u32>`) and for its items (`Box::new(x)`).
pub(crate) fn host_type_error(title: String, span: Span, name: &str) -> Diagnostic {
    Diagnostic::new(RK_UNSUPPORTED_TYPE, title)
        .at(span, format!("`{name}` lives in host memory and has no device form"))
        .note("kernels work on scalars, arrays, tuples, structs and enums of them, slices, references and raw pointers; memory comes from the launch's arguments")
}

/// The standard library's types that own host memory (the heap, the allocator, the OS): a
/// kernel that names one gets told why it cannot have it, not that the name is unknown.
pub(crate) const HOST_TYPES: &[&str] = &[
    "Vec",
    "String",
    "Box",
    "Rc",
    "Arc",
    "HashMap",
    "HashSet",
    "BTreeMap",
    "BTreeSet",
    "VecDeque",
    "LinkedList",
    "BinaryHeap",
    "Mutex",
    "RwLock",
    "CString",
    "OsString",
    "PathBuf",
    "File",
];

/// A trait bound as the type checker uses it: `Self: Trait<Args>` with associated type
/// equalities (`Iterator<Item = f32>`, and `Output` for `Fn(A) -> B`).
#[derive(Clone, Debug)]
pub struct TraitBound {
    pub trait_id: DefId,
    /// The trait's arguments, `Self` first.
    pub args: Vec<GenericArg>,
    pub assoc: Vec<(DefId, Ty)>,
}

thread_local! {
    /// How deep `T::Name` lookups nest through bounds that mention projections themselves.
    static BOUND_DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Lowers the types written in one item.
pub struct TyLowerer<'t, 'a> {
    pub items: &'t Items<'a>,
    pub scope: ScopeId,
    /// The item whose generic parameters are in scope.
    pub generics: Option<DefId>,
    /// What `Self` means.
    pub self_ty: Option<Ty>,
    pub file: FileId,
    /// Makes an inference variable for `_`; without it `_` is an error.
    pub infer: Option<&'t mut dyn FnMut() -> Ty>,
    /// Set while a function's return type is lowered: its `impl Trait`s are opaque types of
    /// that function (numbered in source order).
    pub opaque_owner: Option<DefId>,
    pub diags: &'t mut Vec<Diagnostic>,
}

fn span_of(node: &impl Spanned) -> Span {
    Span::from_pm2(node.span())
}

/// The segments of a path as strings.
pub fn path_names(path: &syn::Path) -> Vec<String> {
    path.segments.iter().map(|s| s.ident.to_string()).collect()
}

/// The type `Self` stands for inside an item: an impl's self type, a trait's parameter 0, a
/// struct's or enum's own type with its parameters.
pub fn self_ty_of(items: &Items, def: DefId, diags: &mut Vec<Diagnostic>) -> Option<Ty> {
    let d = items.def(def);
    match &d.kind {
        DefKind::Impl { self_ty, .. } => {
            let mut l = TyLowerer {
                items,
                scope: d.scope,
                generics: Some(def),
                self_ty: None,
                file: d.file,
                infer: None,
                opaque_owner: None,
                diags,
            };
            Some(l.lower(self_ty))
        }
        DefKind::Trait { .. } => Some(Ty::new(TyKind::Param(0))),
        DefKind::Struct { .. } | DefKind::Enum { .. } => {
            Some(Ty::new(TyKind::Adt(def, identity_args(items, def))))
        }
        _ => match items.container(def) {
            Container::Impl(p) | Container::Trait(p) => self_ty_of(items, p, diags),
            Container::Free => None,
        },
    }
}

/// An item's own parameters as arguments: `Param(0), Param(1), ...`.
pub fn identity_args(items: &Items, def: DefId) -> Args {
    items
        .all_generic_params(def)
        .iter()
        .map(|p| match p.kind {
            GenericParamKind::Type { .. } => GenericArg::Ty(Ty::new(TyKind::Param(p.index))),
            GenericParamKind::Const { .. } => GenericArg::Const(Const::Param(p.index)),
        })
        .collect()
}

impl<'t, 'a> TyLowerer<'t, 'a> {
    /// A lowerer for the types written in item `def` (its scope, generics and `Self`).
    pub fn for_item(
        items: &'t Items<'a>,
        def: DefId,
        diags: &'t mut Vec<Diagnostic>,
    ) -> TyLowerer<'t, 'a> {
        let d = items.def(def);
        let self_ty = self_ty_of(items, def, diags);
        TyLowerer {
            items,
            scope: d.scope,
            generics: Some(def),
            self_ty,
            file: d.file,
            infer: None,
            opaque_owner: None,
            diags,
        }
    }

    fn error(&mut self, d: Diagnostic) -> Ty {
        let d = if self.file.is_user() { d } else { internal(d) };
        self.diags.push(d);
        Ty::error()
    }

    /// A generic parameter of the item by name.
    fn param(&self, name: &str) -> Option<Res> {
        let g = self.generics?;
        self.items
            .all_generic_params(g)
            .iter()
            .rev()
            .find(|p| p.name == name)
            .map(|p| Res::Param(p.index))
    }

    fn env(&self) -> impl Fn(&str) -> Option<Res> + '_ {
        move |name: &str| {
            if name == "Self" {
                return self
                    .self_ty
                    .as_ref()
                    .map(|_| Res::SelfTy(self.generics.map_or(DefId(0), |g| self.self_owner(g))));
            }
            self.param(name)
        }
    }

    fn self_owner(&self, g: DefId) -> DefId {
        match self.items.container(g) {
            Container::Impl(p) | Container::Trait(p) => p,
            Container::Free => g,
        }
    }

    pub fn lower(&mut self, ty: &syn::Type) -> Ty {
        match ty {
            syn::Type::Paren(p) => self.lower(&p.elem),
            syn::Type::Group(g) => self.lower(&g.elem),
            syn::Type::Never(_) => Ty::never(),
            syn::Type::Infer(i) => match self.infer.as_mut() {
                Some(f) => f(),
                None => self.error(
                    Diagnostic::new(RK_CANNOT_INFER, "the placeholder `_` is not allowed here").at(span_of(i), "not allowed in item signatures"),
                ),
            },
            syn::Type::Tuple(t) => Ty::tuple(t.elems.iter().map(|e| self.lower(e)).collect()),
            syn::Type::Slice(s) => Ty::slice(self.lower(&s.elem)),
            syn::Type::Array(a) => {
                let elem = self.lower(&a.elem);
                let len = self.const_arg(&a.len);
                Ty::new(TyKind::Array(elem, len))
            }
            syn::Type::Reference(r) => Ty::reference(self.lower(&r.elem), r.mutability.is_some()),
            syn::Type::Ptr(p) => Ty::ptr(self.lower(&p.elem), p.mutability.is_some()),
            syn::Type::ImplTrait(it) => {
                // `impl Trait` in argument position is an anonymous generic parameter.
                let found = self.generics.and_then(|g| {
                    let gens = self.items.generics(g)?;
                    gens.impl_trait.iter().find(|(_, t)| std::ptr::eq(*t, it)).map(|(i, _)| *i)
                });
                let opaque = self.opaque_owner.and_then(|f| {
                    let sig = self.items.fn_sig(f)?;
                    let syn::ReturnType::Type(_, out) = &sig.output else { return None };
                    let mut all = Vec::new();
                    super::collect_impl_traits(out, &mut all);
                    all.iter().position(|t| std::ptr::eq(*t, it)).map(|k| (f, k as u32))
                });
                match (found, opaque) {
                    (Some(i), _) => Ty::new(TyKind::Param(i)),
                    (None, Some((f, k))) => Ty::new(TyKind::Opaque(f, k, identity_args(self.items, f))),
                    (None, None) => self.error(
                        Diagnostic::new(RK_UNSUPPORTED_TYPE, "`impl Trait` is not supported in this position in kernels")
                            .at(span_of(it), "an opaque type")
                            .help("name the concrete type, or take a generic parameter"),
                    ),
                }
            }
            syn::Type::TraitObject(t) => self.error(
                Diagnostic::new(RK_UNSUPPORTED_TYPE, "trait objects (`dyn Trait`) cannot be used in kernels")
                    .at(span_of(t), "a trait object")
                    .note("GPU code has no virtual calls: every call is resolved and inlined at compile time")
                    .help("take a generic parameter `T: Trait` instead"),
            ),
            syn::Type::BareFn(f) => self.error(
                Diagnostic::new(RK_UNSUPPORTED_TYPE, "function pointers cannot be used in kernels")
                    .at(span_of(f), "a function pointer type")
                    .note("GPU code has no indirect calls: every call is resolved and inlined at compile time")
                    .help("take a generic parameter `F: Fn(..)` instead, and pass the function or a closure"),
            ),
            syn::Type::Path(tp) => self.path_type(tp),
            other => self.error(Diagnostic::new(RK_UNSUPPORTED_TYPE, "this type cannot be used in kernels").at(span_of(other), "not supported")),
        }
    }

    fn path_type(&mut self, tp: &syn::TypePath) -> Ty {
        let span = span_of(tp);
        if let Some(q) = &tp.qself {
            // `<T as Trait>::Assoc` or `<T>::Assoc`.
            let self_ty = self.lower(&q.ty);
            let segs: Vec<&syn::PathSegment> = tp.path.segments.iter().collect();
            if q.position == 0 {
                let Some(last) = segs.last() else { return Ty::error() };
                return self.assoc_type(self_ty, None, &last.ident.to_string(), span);
            }
            let trait_path = syn::Path {
                leading_colon: tp.path.leading_colon,
                segments: segs[..q.position].iter().map(|s| (*s).clone()).collect(),
            };
            let Some(bound) = self.trait_ref(self_ty.clone(), &trait_path, span) else {
                return Ty::error();
            };
            let names: Vec<String> =
                segs[q.position..].iter().map(|s| s.ident.to_string()).collect();
            let Some(name) = names.first() else { return Ty::error() };
            return self.assoc_type(self_ty, Some(bound), name, span);
        }
        let names = path_names(&tp.path);
        let env = self.env();
        let resolved = self.items.resolve_path(
            self.scope,
            &names,
            tp.path.leading_colon.is_some(),
            Ns::Type,
            &env,
        );
        drop(env);
        let Some(r) = resolved else {
            let shown =
                crate::items::tidy_tokens(&quote::ToTokens::to_token_stream(&tp.path).to_string());
            let last = names.last().cloned().unwrap_or_default();
            if HOST_TYPES.contains(&last.as_str()) {
                return self.error(host_type_error(
                    format!("the type `{shown}` is not supported in kernels"),
                    span,
                    &last,
                ));
            }
            let d = Diagnostic::new(
                RK_UNKNOWN_NAME,
                format!("cannot find type `{shown}` in this scope"),
            )
            .at(span, "not found in this scope");
            let d = match &names[..] {
                [one] => crate::typeck::with_import_help(
                    d,
                    &self.items.import_suggestions(one, Ns::Type),
                    one,
                ),
                _ => d,
            };
            let d = match names.first() {
                Some(first) => {
                    crate::typeck::with_core_import_note(d, self.items, self.scope, first)
                }
                None => d,
            };
            return self.error(d);
        };
        let seg = &tp.path.segments[r.resolved];
        let base = match r.res {
            Res::Prim(p) => prim_ty(p),
            Res::Param(i) => Ty::new(TyKind::Param(i)),
            Res::SelfTy(_) => self.self_ty.clone().unwrap_or_else(Ty::error),
            Res::Local(_) => Ty::error(),
            Res::Def(d) => self.def_type(d, &seg.arguments, span),
        };
        if r.rest == 0 {
            return base;
        }
        // `Self::Output` in an impl is the impl's own associated type (or its trait's).
        if let Res::SelfTy(owner) = r.res
            && let DefKind::Impl { trait_path, .. } = &self.items.def(owner).kind
            && r.rest == 1
        {
            let name = tp.path.segments[r.resolved + 1].ident.to_string();
            if let Some(item) = self.items.assoc_item(owner, &name, true)
                && let DefKind::AssocTy { ty: Some(t), .. } = &self.items.def(item).kind
            {
                return self.lower(t);
            }
            if let Some(tp2) = trait_path
                && let Some(bound) = self.trait_ref(base.clone(), tp2, span)
                && self.items.assoc_item(bound.trait_id, &name, true).is_some()
            {
                return self.assoc_type(base, Some(bound), &name, span);
            }
        }
        // `T::Item`, `Self::Output`, `Alias::Assoc`.
        let mut ty = base;
        for seg in tp.path.segments.iter().skip(r.resolved + 1) {
            ty = self.assoc_type(ty, None, &seg.ident.to_string(), span);
        }
        ty
    }

    /// The type a path's definition names, with the segment's generic arguments.
    fn def_type(&mut self, d: DefId, args: &syn::PathArguments, span: Span) -> Ty {
        let def = self.items.def(d);
        match &def.kind {
            DefKind::Struct { .. } | DefKind::Enum { .. } => {
                let args = self.generic_args(d, args, span);
                Ty::new(TyKind::Adt(d, args.into()))
            }
            DefKind::TypeAlias { ty, .. } => {
                let args = self.generic_args(d, args, span);
                let mut inner = TyLowerer {
                    items: self.items,
                    scope: def.scope,
                    generics: Some(d),
                    self_ty: None,
                    file: def.file,
                    infer: None,
                    opaque_owner: None,
                    diags: self.diags,
                };
                inner.lower(ty).subst(&args)
            }
            DefKind::Union => self.error(
                Diagnostic::new(RK_UNSUPPORTED_TYPE, "unions cannot be used in kernels")
                    .at(span, "a union"),
            ),
            DefKind::Trait { .. } => self.error(
                Diagnostic::new(
                    RK_UNSUPPORTED_TYPE,
                    format!("trait `{}` used as a type", def.name),
                )
                .at(span, "a trait, not a type")
                .help("take a generic parameter `T: Trait` instead"),
            ),
            _ => self.error(
                Diagnostic::new(RK_UNKNOWN_NAME, format!("`{}` is not a type", def.name))
                    .at(span, "not a type"),
            ),
        }
    }

    /// The generic arguments written for item `d` (or defaults, or inference variables).
    pub fn generic_args(
        &mut self,
        d: DefId,
        args: &syn::PathArguments,
        span: Span,
    ) -> Vec<GenericArg> {
        // Each parameter: its index, whether it is a const, and its default (a type's, or a
        // const's, evaluated where the item is declared).
        type Param<'p> = (u32, bool, Option<&'p syn::Type>, Option<&'p syn::Expr>);
        let params: Vec<Param> = self
            .items
            .generics(d)
            .map(|g| {
                g.params
                    .iter()
                    .map(|p| match &p.kind {
                        GenericParamKind::Type { default } => (p.index, false, *default, None),
                        GenericParamKind::Const { default, .. } => (p.index, true, None, *default),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let written: Vec<&syn::GenericArgument> = match args {
            syn::PathArguments::AngleBracketed(a) => {
                a.args.iter().filter(|a| !matches!(a, syn::GenericArgument::Lifetime(_))).collect()
            }
            _ => Vec::new(),
        };
        let mut out = Vec::new();
        for (k, (_, is_const, default, const_default)) in params.iter().enumerate() {
            let arg = match written.get(k) {
                Some(syn::GenericArgument::Type(t)) if !*is_const => {
                    // `N` in `[T; N]`-like const positions is parsed as a type path.
                    GenericArg::Ty(self.lower(t))
                }
                Some(syn::GenericArgument::Type(syn::Type::Path(p))) if *is_const => {
                    let e = syn::Expr::Path(syn::ExprPath {
                        attrs: vec![],
                        qself: None,
                        path: p.path.clone(),
                    });
                    GenericArg::Const(self.const_arg(&e))
                }
                Some(syn::GenericArgument::Const(e)) => GenericArg::Const(self.const_arg(e)),
                Some(_) => GenericArg::Ty(
                    self.error(
                        Diagnostic::new(
                            RK_UNSUPPORTED_TYPE,
                            "this generic argument is not supported",
                        )
                        .at(span, "here"),
                    ),
                ),
                None => match (default, is_const) {
                    (Some(t), _) => {
                        let t = self.lower(t);
                        GenericArg::Ty(t.subst(&out))
                    }
                    (None, false) => GenericArg::Ty(match self.infer.as_mut() {
                        Some(f) => f(),
                        None => Ty::error(),
                    }),
                    (None, true) => match const_default {
                        Some(e) => GenericArg::Const(lower_const_arg(
                            self.items,
                            self.items.def(d).scope,
                            None,
                            e,
                            self.diags,
                            self.file,
                        )),
                        // Where a type is written, it must be given (a value's path, such as
                        // `Buf { d: [1; 4] }` or `Buf::new()`, infers it elsewhere).
                        None => {
                            let name = self.items.name(d).to_string();
                            let param = self
                                .items
                                .generics(d)
                                .and_then(|g| g.params.get(k))
                                .map_or(String::new(), |p| p.name.clone());
                            let d = Diagnostic::new(
                                RK_MISSING_GENERICS,
                                format!("missing generics for `{name}`"),
                            )
                            .at(
                                span,
                                format!("`{name}` needs a value for its const parameter `{param}`"),
                            )
                            .help(format!("write it, as in `{name}<8>`"));
                            self.diags.push(if self.file.is_user() { d } else { internal(d) });
                            GenericArg::Const(Const::Error)
                        }
                    },
                },
            };
            out.push(arg);
        }
        // Parent parameters (an enum variant's enum) are not written on this segment.
        let parent_count = self.items.generics(d).map_or(0, |g| g.parent_count) as usize;
        if parent_count > 0 {
            let mut full = vec![GenericArg::Ty(Ty::error()); parent_count];
            full.extend(out);
            return full;
        }
        out
    }

    /// `T::Name` or `<T as Trait>::Name`: a projection, normalised later by the type checker.
    pub fn assoc_type(
        &mut self,
        self_ty: Ty,
        bound: Option<TraitBound>,
        name: &str,
        span: Span,
    ) -> Ty {
        let trait_id_args = match bound {
            Some(b) => Some((b.trait_id, b.args)),
            None => self.trait_for_assoc(&self_ty, name),
        };
        let Some((trait_id, args)) = trait_id_args else {
            return self.error(
                Diagnostic::new(RK_UNKNOWN_NAME, format!("associated type `{name}` not found"))
                    .at(span, format!("no trait in scope declares `{name}` for this type")),
            );
        };
        let Some(assoc) = self.items.assoc_item(trait_id, name, true) else {
            return self.error(
                Diagnostic::new(
                    RK_UNKNOWN_NAME,
                    format!(
                        "associated type `{name}` not found for `{}`",
                        self.items.name(trait_id)
                    ),
                )
                .at(span, "not found"),
            );
        };
        Ty::new(TyKind::Projection(Projection { trait_id, args: args.into(), assoc }))
    }

    /// Which trait `T::Name` means, with its arguments: a bound on `T` that names it (or a
    /// supertrait of one), else the one trait that declares an associated type `Name`.
    fn trait_for_assoc(&mut self, self_ty: &Ty, name: &str) -> Option<(DefId, Vec<GenericArg>)> {
        let declares = |items: &Items, t: DefId| items.assoc_item(t, name, true).is_some();
        if let (TyKind::Param(i), Some(g)) = (self_ty.kind(), self.generics) {
            let mut bounds = Vec::new();
            if BOUND_DEPTH.with(|d| d.get()) < 8 {
                BOUND_DEPTH.with(|d| d.set(d.get() + 1));
                self.bounds_of_param(g, *i, &mut bounds);
                BOUND_DEPTH.with(|d| d.set(d.get() - 1));
            }
            let mut k = 0;
            while k < bounds.len() {
                let (t, args) = bounds[k].clone();
                if declares(self.items, t) {
                    return Some((t, args));
                }
                for st in self.supertraits(t) {
                    if !bounds.iter().any(|(b, _)| *b == st) {
                        let n = self.items.generic_count(st) as usize;
                        let mut sargs = vec![args[0].clone()];
                        sargs.extend((1..n).map(|_| GenericArg::Ty(Ty::error())));
                        bounds.push((st, sargs));
                    }
                }
                k += 1;
            }
        }
        let t = self.items.traits.iter().copied().find(|t| declares(self.items, *t))?;
        let n = self.items.generic_count(t) as usize;
        let mut args = vec![GenericArg::Ty(self_ty.clone())];
        // The trait's other parameters are unknown here; projections through traits with
        // parameters must be written `<T as Trait<A>>::Name`.
        args.extend((1..n).map(|_| GenericArg::Ty(Ty::error())));
        Some((t, args))
    }

    /// The bounds of a parameter in an item and its parents, as traits with their arguments.
    fn bounds_of_param(&mut self, g: DefId, index: u32, out: &mut Vec<(DefId, Vec<GenericArg>)>) {
        let items = self.items;
        let Some(gens) = items.generics(g) else { return };
        if let Some(p) = gens.parent {
            self.bounds_of_param(p, index, out);
        }
        let param = Ty::new(TyKind::Param(index));
        if index == 0 && matches!(items.def(g).kind, DefKind::Trait { .. }) {
            out.push((g, identity_args(items, g).to_vec()));
        }
        let mut bounds: Vec<&syn::TypeParamBound> =
            gens.param_bounds.iter().filter(|(i, _)| *i == index).map(|(_, b)| *b).collect();
        let name =
            items.all_generic_params(g).iter().find(|p| p.index == index).map(|p| p.name.clone());
        for p in &gens.predicates {
            if let syn::Type::Path(tp) = p.bounded
                && tp.qself.is_none()
                && tp.path.get_ident().map(ToString::to_string) == name
            {
                bounds.push(p.bound);
            }
        }
        for (i, it) in &gens.impl_trait {
            if *i == index {
                bounds.extend(it.bounds.iter());
            }
        }
        for b in bounds {
            if let Some(tb) = self.bound(param.clone(), b) {
                out.push((tb.trait_id, tb.args));
            }
        }
    }

    /// The supertraits of a trait, resolved in the trait's own scope.
    pub fn supertraits(&mut self, t: DefId) -> Vec<DefId> {
        let items = self.items;
        let d = items.def(t);
        let DefKind::Trait { supertraits, .. } = &d.kind else { return Vec::new() };
        let mut out = Vec::new();
        for b in supertraits {
            if let syn::TypeParamBound::Trait(tb) = b {
                let r = items.resolve_path(
                    d.scope,
                    &path_names(&tb.path),
                    tb.path.leading_colon.is_some(),
                    Ns::Type,
                    &|_| None,
                );
                if let Some(crate::items::PathRes { res: Res::Def(s), rest: 0, .. }) = r
                    && items.is_trait(s)
                {
                    out.push(s);
                }
            }
        }
        out
    }

    /// A trait path applied to a self type: `Iterator<Item = f32>`, `Fn(f32) -> f32`,
    /// `Add<Output = T>`.
    pub fn trait_ref(&mut self, self_ty: Ty, path: &syn::Path, span: Span) -> Option<TraitBound> {
        let names = path_names(path);
        let env = self.env();
        let r = self.items.resolve_path(
            self.scope,
            &names,
            path.leading_colon.is_some(),
            Ns::Type,
            &env,
        );
        drop(env);
        let trait_id = match r {
            Some(crate::items::PathRes { res: Res::Def(t), rest: 0, .. })
                if self.items.is_trait(t) =>
            {
                t
            }
            _ => return None,
        };
        let last = path.segments.last()?;
        let mut args = vec![GenericArg::Ty(self_ty)];
        let mut assoc = Vec::new();
        match &last.arguments {
            syn::PathArguments::Parenthesized(p) => {
                // `Fn(A, B) -> C`: arguments as one tuple, `Output = C`.
                let inputs = Ty::tuple(p.inputs.iter().map(|t| self.lower(t)).collect());
                args.push(GenericArg::Ty(inputs));
                let output = match &p.output {
                    syn::ReturnType::Default => Ty::unit(),
                    syn::ReturnType::Type(_, t) => self.lower(t),
                };
                let fn_once = self.items.lang("fn_once");
                if let Some(out_assoc) =
                    fn_once.and_then(|f| self.items.assoc_item(f, "Output", true))
                {
                    assoc.push((out_assoc, output));
                }
            }
            syn::PathArguments::AngleBracketed(a) => {
                let params: Vec<(u32, bool)> = self
                    .items
                    .generics(trait_id)
                    .map(|g| {
                        g.params
                            .iter()
                            .skip(1)
                            .map(|p| (p.index, matches!(p.kind, GenericParamKind::Const { .. })))
                            .collect()
                    })
                    .unwrap_or_default();
                let mut k = 0;
                for ga in &a.args {
                    match ga {
                        syn::GenericArgument::Type(t) if k < params.len() => {
                            args.push(GenericArg::Ty(self.lower(t)));
                            k += 1;
                        }
                        syn::GenericArgument::Const(e) if k < params.len() => {
                            args.push(GenericArg::Const(self.const_arg(e)));
                            k += 1;
                        }
                        syn::GenericArgument::AssocType(at) => {
                            let t = self.lower(&at.ty);
                            let name = at.ident.to_string();
                            let found =
                                self.items.assoc_item(trait_id, &name, true).or_else(|| {
                                    // An associated type of a supertrait (`Fn(..)`'s `Output` is
                                    // `FnOnce`'s).
                                    self.supertraits(trait_id)
                                        .into_iter()
                                        .find_map(|s| self.items.assoc_item(s, &name, true))
                                });
                            if let Some(id) = found {
                                assoc.push((id, t));
                            }
                        }
                        _ => {}
                    }
                }
                // Defaults (`Add<Rhs = Self>`).
                for (_, _) in params.iter().skip(k) {
                    let idx = args.len();
                    let default =
                        self.items.generics(trait_id).and_then(|g| g.params.get(idx)).and_then(
                            |p| match p.kind {
                                GenericParamKind::Type { default } => default,
                                _ => None,
                            },
                        );
                    let t = match default {
                        Some(d) => {
                            let mut inner = TyLowerer {
                                items: self.items,
                                scope: self.items.def(trait_id).scope,
                                generics: Some(trait_id),
                                self_ty: Some(Ty::new(TyKind::Param(0))),
                                file: self.items.def(trait_id).file,
                                infer: None,
                                opaque_owner: None,
                                diags: self.diags,
                            };
                            inner.lower(d).subst(&args)
                        }
                        None => match self.infer.as_mut() {
                            Some(f) => f(),
                            None => Ty::error(),
                        },
                    };
                    args.push(GenericArg::Ty(t));
                }
            }
            syn::PathArguments::None => {
                let n = self.items.generic_count(trait_id) as usize;
                for idx in 1..n {
                    let default =
                        self.items.generics(trait_id).and_then(|g| g.params.get(idx)).and_then(
                            |p| match p.kind {
                                GenericParamKind::Type { default } => default,
                                _ => None,
                            },
                        );
                    let t = match default {
                        Some(d) => {
                            let mut inner = TyLowerer {
                                items: self.items,
                                scope: self.items.def(trait_id).scope,
                                generics: Some(trait_id),
                                self_ty: Some(Ty::new(TyKind::Param(0))),
                                file: self.items.def(trait_id).file,
                                infer: None,
                                opaque_owner: None,
                                diags: self.diags,
                            };
                            inner.lower(d).subst(&args)
                        }
                        None => match self.infer.as_mut() {
                            Some(f) => f(),
                            None => Ty::error(),
                        },
                    };
                    args.push(GenericArg::Ty(t));
                }
            }
        }
        let _ = span;
        Some(TraitBound { trait_id, args, assoc })
    }

    /// A bound (`Trait<..>`, `?Sized`, a lifetime) applied to a self type; `None` for bounds
    /// that say nothing to the type checker.
    pub fn bound(&mut self, self_ty: Ty, bound: &syn::TypeParamBound) -> Option<TraitBound> {
        match bound {
            syn::TypeParamBound::Trait(tb)
                if matches!(tb.modifier, syn::TraitBoundModifier::None) =>
            {
                self.trait_ref(self_ty, &tb.path, span_of(tb))
            }
            _ => None,
        }
    }

    /// Every bound of item `def` (and its parents) as (bounded type, bound).
    pub fn predicates(&mut self, def: DefId) -> Vec<(Ty, TraitBound)> {
        let items = self.items;
        let Some(g) = items.generics(def) else { return Vec::new() };
        let mut out = match g.parent {
            Some(p) => {
                let mut parent = TyLowerer::for_item(items, p, self.diags);
                parent.predicates(p)
            }
            None => Vec::new(),
        };
        for (index, b) in &g.param_bounds {
            let t = Ty::new(TyKind::Param(*index));
            if let Some(tb) = self.bound(t.clone(), b) {
                out.push((t, tb));
            }
        }
        for (index, it) in &g.impl_trait {
            let t = Ty::new(TyKind::Param(*index));
            for b in &it.bounds {
                if let Some(tb) = self.bound(t.clone(), b) {
                    out.push((t.clone(), tb));
                }
            }
        }
        for p in &g.predicates {
            let t = self.lower(p.bounded);
            if let Some(tb) = self.bound(t.clone(), p.bound) {
                out.push((t, tb));
            }
        }
        out
    }

    /// A const generic argument or an array length.
    pub fn const_arg(&mut self, e: &syn::Expr) -> Const {
        lower_const_arg(self.items, self.scope, self.generics, e, self.diags, self.file)
    }
}

/// Wraps an error found in the core or a derived impl: rkc wrote that code, so the error is
/// rkc's, and says so instead of pointing into text the user never wrote.
pub fn internal(d: Diagnostic) -> Diagnostic {
    let mut out =
        Diagnostic::new(RK_INTERNAL, format!("internal error in rkc's device core: {}", d.message));
    out.notes = d.notes;
    out.notes.push("this is a bug in rkc; the kernel itself may be valid Rust".into());
    out
}

pub fn prim_ty(p: crate::items::resolve::Prim) -> Ty {
    use crate::items::resolve::Prim;
    match p {
        Prim::Bool => Ty::bool(),
        Prim::Char => Ty::new(TyKind::Char),
        Prim::Str => Ty::new(TyKind::Str),
        Prim::Int(t) => Ty::int(t),
        Prim::Float(t) => Ty::float(t),
    }
}

/// Evaluates a const generic argument or an array length: literals, `const` items, const
/// parameters, arithmetic, casts and blocks of them.
pub fn lower_const_arg(
    items: &Items,
    scope: ScopeId,
    generics: Option<DefId>,
    e: &syn::Expr,
    diags: &mut Vec<Diagnostic>,
    file: FileId,
) -> Const {
    use super::consteval::{ConstVal, eval_const};
    match eval_const(items, scope, generics, e) {
        Ok(ConstVal::Value(v)) => match u64::try_from(v) {
            Ok(v) => Const::Value(v),
            Err(_) => {
                let d = Diagnostic::new(RK_UNSUPPORTED_EXPR, "a negative or too large length")
                    .at(span_of(e), format!("evaluates to {v}"));
                diags.push(if file.is_user() { d } else { internal(d) });
                Const::Error
            }
        },
        Ok(ConstVal::Param(i)) => Const::Param(i),
        Err(why) => {
            let d = Diagnostic::new(
                RK_UNSUPPORTED_EXPR,
                "rkc cannot evaluate this length or const argument at compile time",
            )
            .at(span_of(e), why);
            diags.push(if file.is_user() { d } else { internal(d) });
            Const::Error
        }
    }
}
