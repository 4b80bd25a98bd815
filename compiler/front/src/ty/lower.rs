//! Written types (`syn::Type`) to [`Ty`]s, in the scope and generic environment of one item:
//! paths resolve through the item table, generic parameters become [`TyKind::Param`], `Self`
//! the impl's type, `T::Item` a [`Projection`], and array lengths are evaluated.

use super::*;
use crate::codes::*;
use crate::diag::{Diagnostic, Span};
use crate::items::{Container, DefKind, FileId, GenericParamKind, Ns, Res, ScopeId};
use syn::spanned::Spanned;

/// The standard library's types that own host memory (the heap, the allocator, the OS): a
/// kernel that names one gets told why it cannot have it, not that the name is unknown.
const HOST_TYPES: &[&str] = &[
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
                return self.error(
                    Diagnostic::new(RK_UNSUPPORTED_TYPE, format!("the type `{shown}` is not supported in kernels"))
                        .at(span, format!("`{last}` lives in host memory and has no device form"))
                        .note("kernels work on scalars, arrays, tuples, structs and enums of them, slices, references and raw pointers; memory comes from the launch's arguments"),
                );
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
    match eval_const(items, scope, generics, e, 0) {
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
                "this length or const argument cannot be evaluated at compile time",
            )
            .at(span_of(e), why);
            diags.push(if file.is_user() { d } else { internal(d) });
            Const::Error
        }
    }
}

enum ConstVal {
    Value(i128),
    Param(u32),
}

/// Evaluates a constant expression over integers; `depth` bounds `const` items that name
/// each other.
pub fn eval_const_int(
    items: &Items,
    scope: ScopeId,
    generics: Option<DefId>,
    e: &syn::Expr,
) -> Option<i128> {
    match eval_const(items, scope, generics, e, 0) {
        Ok(ConstVal::Value(v)) => Some(v),
        _ => None,
    }
}

fn eval_const(
    items: &Items,
    scope: ScopeId,
    generics: Option<DefId>,
    e: &syn::Expr,
    depth: u32,
) -> Result<ConstVal, String> {
    ConstEval { items, generics, owner: generics }.eval(scope, e, &[], depth)
}

/// The local values of a `const fn` being evaluated: its parameters and `let`s.
type ConstLocals = [(String, i128)];

/// The compile-time evaluator of lengths and const arguments: integer and boolean arithmetic,
/// comparisons, `if`, `const` items, associated and primitive constants, `size_of`/`align_of`
/// of primitive types and arrays of them, a few integer methods, and calls of `const fn`s
/// whose bodies are `let`s and an expression of these (rustc's CTFE, over what array lengths
/// use).
struct ConstEval<'i, 'a> {
    items: &'i Items<'a>,
    generics: Option<DefId>,
    /// The item the expression is written in, for what `Self` means there.
    owner: Option<DefId>,
}

impl ConstEval<'_, '_> {
    fn eval(
        &self,
        scope: ScopeId,
        e: &syn::Expr,
        locals: &ConstLocals,
        depth: u32,
    ) -> Result<ConstVal, String> {
        let items = self.items;
        if depth > 64 {
            return Err("constants that refer to each other too deeply".into());
        }
        let val = |e: &syn::Expr| self.value(scope, e, locals, depth + 1);
        match e {
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) => {
                i.base10_parse::<i128>().map(ConstVal::Value).map_err(|e| e.to_string())
            }
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Bool(b), .. }) => {
                Ok(ConstVal::Value(i128::from(b.value)))
            }
            syn::Expr::Paren(p) => self.eval(scope, &p.expr, locals, depth + 1),
            syn::Expr::Group(g) => self.eval(scope, &g.expr, locals, depth + 1),
            syn::Expr::Block(b) => self.block(scope, &b.block, locals.to_vec(), depth + 1),
            syn::Expr::If(x) => {
                let then = if val(&x.cond)? != 0 {
                    Some(&x.then_branch)
                } else {
                    match x.else_branch.as_ref().map(|(_, e)| &**e) {
                        Some(syn::Expr::Block(b)) => Some(&b.block),
                        Some(other) => return self.eval(scope, other, locals, depth + 1),
                        None => None,
                    }
                };
                match then {
                    Some(b) => self.block(scope, b, locals.to_vec(), depth + 1),
                    None => Err("an `if` without `else`".into()),
                }
            }
            syn::Expr::Cast(c) => val(&c.expr).map(ConstVal::Value),
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => {
                val(&u.expr).map(|v| ConstVal::Value(-v))
            }
            // `!` of a condition; on an integer it depends on the integer's type.
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) && is_condition(&u.expr) => {
                val(&u.expr).map(|v| ConstVal::Value(i128::from(v == 0)))
            }
            syn::Expr::Binary(b) => {
                let l = val(&b.left)?;
                // `&&` and `||` evaluate their right side only when it decides.
                match b.op {
                    syn::BinOp::And(_) if l == 0 => return Ok(ConstVal::Value(0)),
                    syn::BinOp::Or(_) if l != 0 => return Ok(ConstVal::Value(1)),
                    _ => {}
                }
                let r = val(&b.right)?;
                let v = match b.op {
                    syn::BinOp::Add(_) => l.checked_add(r),
                    syn::BinOp::Sub(_) => l.checked_sub(r),
                    syn::BinOp::Mul(_) => l.checked_mul(r),
                    syn::BinOp::Div(_) => l.checked_div(r),
                    syn::BinOp::Rem(_) => l.checked_rem(r),
                    syn::BinOp::Shl(_) => u32::try_from(r).ok().and_then(|r| l.checked_shl(r)),
                    syn::BinOp::Shr(_) => u32::try_from(r).ok().and_then(|r| l.checked_shr(r)),
                    syn::BinOp::BitAnd(_) => Some(l & r),
                    syn::BinOp::BitOr(_) => Some(l | r),
                    syn::BinOp::BitXor(_) => Some(l ^ r),
                    syn::BinOp::And(_) | syn::BinOp::Or(_) => Some(i128::from(r != 0)),
                    syn::BinOp::Eq(_) => Some(i128::from(l == r)),
                    syn::BinOp::Ne(_) => Some(i128::from(l != r)),
                    syn::BinOp::Lt(_) => Some(i128::from(l < r)),
                    syn::BinOp::Le(_) => Some(i128::from(l <= r)),
                    syn::BinOp::Gt(_) => Some(i128::from(l > r)),
                    syn::BinOp::Ge(_) => Some(i128::from(l >= r)),
                    _ => None,
                };
                v.map(ConstVal::Value)
                    .ok_or_else(|| "an operation that overflows or is not arithmetic".to_string())
            }
            syn::Expr::Path(p) => {
                if let Some(id) = p.path.get_ident()
                    && let Some((_, v)) = locals.iter().rev().find(|(n, _)| id == n)
                {
                    return Ok(ConstVal::Value(*v));
                }
                self.path(scope, &p.path, depth)
            }
            syn::Expr::MethodCall(m) => {
                let recv = val(&m.receiver)?;
                let args = m.args.iter().map(val).collect::<Result<Vec<_>, _>>()?;
                int_method(&m.method.to_string(), recv, &args)
            }
            syn::Expr::Call(c) => {
                let syn::Expr::Path(fp) = &*c.func else {
                    return Err("a call of something other than a function".into());
                };
                let names = path_names(&fp.path);
                let args = c.args.iter().map(val).collect::<Result<Vec<_>, _>>()?;
                let r = items
                    .resolve_path(
                        scope,
                        &names,
                        fp.path.leading_colon.is_some(),
                        Ns::Value,
                        &|_| None,
                    )
                    .ok_or_else(|| format!("cannot find `{}`", names.join("::")))?;
                let last = names.last().map(String::as_str).unwrap_or("");
                match r.res {
                    // `usize::pow(2, 5)`: an integer method called as a function.
                    Res::Prim(_) if r.rest == 1 && !args.is_empty() => {
                        int_method(last, args[0], &args[1..])
                    }
                    Res::Def(d) if r.rest == 0 => {
                        // `core::mem::size_of::<T>()`, computed here: the core's body asks an
                        // intrinsic, which has no body to evaluate.
                        if matches!(last, "size_of" | "align_of")
                            && !items.is_user(d)
                            && let Some(v) = self.layout_query(scope, last, fp)
                        {
                            return v.map(ConstVal::Value);
                        }
                        self.call(d, &args, depth).map(ConstVal::Value)
                    }
                    _ => Err(format!("`{}` is not a `const fn`", names.join("::"))),
                }
            }
            _ => Err("not a constant expression".into()),
        }
    }

    fn value(
        &self,
        scope: ScopeId,
        e: &syn::Expr,
        locals: &ConstLocals,
        depth: u32,
    ) -> Result<i128, String> {
        match self.eval(scope, e, locals, depth)? {
            ConstVal::Value(v) => Ok(v),
            ConstVal::Param(_) => {
                Err("arithmetic on a const parameter (generic_const_exprs) is not supported".into())
            }
        }
    }

    /// A block of `let`s and a final expression.
    fn block(
        &self,
        scope: ScopeId,
        b: &syn::Block,
        mut locals: Vec<(String, i128)>,
        depth: u32,
    ) -> Result<ConstVal, String> {
        let Some((last, lets)) = b.stmts.split_last() else {
            return Err("an empty block".into());
        };
        for s in lets {
            let syn::Stmt::Local(syn::Local { pat, init: Some(init), .. }) = s else {
                return Err("a statement other than `let`".into());
            };
            let pat = match pat {
                syn::Pat::Type(t) => &*t.pat,
                p => p,
            };
            let syn::Pat::Ident(id) = pat else { return Err("a `let` with a pattern".into()) };
            let v = self.value(scope, &init.expr, &locals, depth + 1)?;
            locals.push((id.ident.to_string(), v));
        }
        match last {
            syn::Stmt::Expr(e, None) => self.eval(scope, e, &locals, depth + 1),
            _ => Err("a block without a final expression".into()),
        }
    }

    /// A `const fn` call with argument values.
    fn call(&self, d: DefId, args: &[i128], depth: u32) -> Result<i128, String> {
        let def = self.items.def(d);
        let (DefKind::Fn { body: Some(body), .. }, Some(sig)) = (&def.kind, self.items.fn_sig(d))
        else {
            return Err(format!("`{}` is not a `const fn`", self.items.name(d)));
        };
        if sig.constness.is_none() {
            return Err(format!("`{}` is not a `const fn`", self.items.name(d)));
        }
        if !sig.generics.params.is_empty() || sig.inputs.len() != args.len() {
            return Err(format!("a call of the generic or variadic `{}`", self.items.name(d)));
        }
        let mut locals = Vec::new();
        for (input, v) in sig.inputs.iter().zip(args) {
            let syn::FnArg::Typed(pt) = input else { return Err("a method".into()) };
            let syn::Pat::Ident(id) = &*pt.pat else {
                return Err("a parameter with a pattern".into());
            };
            locals.push((id.ident.to_string(), *v));
        }
        let inner = ConstEval { items: self.items, generics: None, owner: Some(d) };
        match inner.block(def.scope, body, locals, depth + 1)? {
            ConstVal::Value(v) => Ok(v),
            ConstVal::Param(_) => Err("a const parameter".into()),
        }
    }

    /// `size_of::<T>()` or `align_of::<T>()` of a primitive type, or of an array of them.
    fn layout_query(
        &self,
        scope: ScopeId,
        which: &str,
        fp: &syn::ExprPath,
    ) -> Option<Result<i128, String>> {
        let seg = fp.path.segments.last()?;
        let syn::PathArguments::AngleBracketed(a) = &seg.arguments else { return None };
        let Some(syn::GenericArgument::Type(t)) = a.args.first() else { return None };
        Some(self.prim_layout(scope, t, 0).map(
            |(size, align)| {
                if which == "size_of" { size } else { align }
            },
        ))
    }

    fn prim_layout(
        &self,
        scope: ScopeId,
        t: &syn::Type,
        depth: u32,
    ) -> Result<(i128, i128), String> {
        use crate::items::resolve::Prim;
        match t {
            syn::Type::Paren(p) => self.prim_layout(scope, &p.elem, depth),
            syn::Type::Array(a) => {
                let (size, align) = self.prim_layout(scope, &a.elem, depth)?;
                let n = self.value(scope, &a.len, &[], depth + 1)?;
                Ok((size * n, align))
            }
            syn::Type::Path(p) if p.qself.is_none() => {
                let names = path_names(&p.path);
                let r = self.items.resolve_path(scope, &names, false, Ns::Type, &|_| None);
                let n = match r.map(|r| (r.res, r.rest)) {
                    Some((Res::Prim(Prim::Bool), 0)) => 1,
                    Some((Res::Prim(Prim::Char), 0)) => 4,
                    Some((Res::Prim(Prim::Int(t)), 0)) => i128::from(t.bits() / 8),
                    Some((Res::Prim(Prim::Float(f)), 0)) => i128::from(f.bits() / 8),
                    _ => {
                        return Err(
                            "`size_of` of a type other than a primitive or an array of them".into(),
                        );
                    }
                };
                Ok((n, n))
            }
            _ => Err("`size_of` of a type other than a primitive or an array of them".into()),
        }
    }

    fn path(&self, scope: ScopeId, path: &syn::Path, depth: u32) -> Result<ConstVal, String> {
        let items = self.items;
        let names = path_names(path);
        let generics = self.generics;
        let env = |name: &str| -> Option<Res> {
            let g = generics?;
            items.all_generic_params(g).iter().find(|q| q.name == name).map(|q| Res::Param(q.index))
        };
        // A constant's own expression has no generic parameters of the use's.
        let item = |d: DefId| ConstEval { items, generics: None, owner: Some(d) };
        // `Self::N` in an impl: the impl's own constant, else one of the type's.
        if let [first, name] = &names[..]
            && first == "Self"
            && let Some(imp) = self.owner.and_then(|d| self_impl(items, d))
        {
            let own = items
                .assoc_item(imp, name, false)
                .filter(|c| matches!(items.def(*c).kind, DefKind::Const { .. }));
            let found = own.or_else(|| assoc_const_of(items, impl_self_def(items, imp)?, name));
            return match found.map(|c| (c, &items.def(c).kind)) {
                Some((c, DefKind::Const { expr: Some(e), .. })) => {
                    item(c).eval(items.def(c).scope, e, &[], depth + 1)
                }
                _ => Err(format!("`Self::{name}` is not a constant")),
            };
        }
        let r = items
            .resolve_path(scope, &names, path.leading_colon.is_some(), Ns::Value, &env)
            .ok_or_else(|| format!("cannot find `{}`", names.join("::")))?;
        match r.res {
            Res::Param(i) if r.rest == 0 => Ok(ConstVal::Param(i)),
            Res::Def(d) if r.rest == 0 => match &items.def(d).kind {
                DefKind::Const { expr: Some(e), .. } => {
                    item(d).eval(items.def(d).scope, e, &[], depth + 1)
                }
                DefKind::Variant { .. } => discriminant(items, d, depth).map(ConstVal::Value),
                _ => Err(format!("`{}` is not a constant", names.join("::"))),
            },
            Res::Def(d)
                if r.rest == 1
                    && matches!(
                        items.def(d).kind,
                        DefKind::Struct { .. } | DefKind::Enum { .. }
                    ) =>
            {
                // An associated constant of the type: in an inherent impl, else a trait impl.
                let name = names.last().map(String::as_str).unwrap_or("");
                let found = assoc_const_of(items, d, name)
                    .ok_or_else(|| format!("`{}` is not a constant", names.join("::")))?;
                match &items.def(found).kind {
                    DefKind::Const { expr: Some(e), .. } => {
                        item(found).eval(items.def(found).scope, e, &[], depth + 1)
                    }
                    _ => Err(format!("`{}` is not a constant", names.join("::"))),
                }
            }
            Res::Prim(p) if r.rest == 1 => {
                prim_const(p, names.last().map(String::as_str).unwrap_or("")).map(ConstVal::Value)
            }
            _ => Err(format!("`{}` is not a constant", names.join("::"))),
        }
    }
}

/// Whether an expression is a condition (its `!` is logical, whatever integer types are).
fn is_condition(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Bool(_), .. }) => true,
        syn::Expr::Paren(p) => is_condition(&p.expr),
        syn::Expr::Unary(u) => matches!(u.op, syn::UnOp::Not(_)) && is_condition(&u.expr),
        syn::Expr::Binary(b) => matches!(
            b.op,
            syn::BinOp::And(_)
                | syn::BinOp::Or(_)
                | syn::BinOp::Eq(_)
                | syn::BinOp::Ne(_)
                | syn::BinOp::Lt(_)
                | syn::BinOp::Le(_)
                | syn::BinOp::Gt(_)
                | syn::BinOp::Ge(_)
        ),
        _ => false,
    }
}

/// The integer methods whose result does not depend on the integer's width, at compile time.
fn int_method(name: &str, recv: i128, args: &[i128]) -> Result<ConstVal, String> {
    let v = match (name, args) {
        ("pow", [e]) => u32::try_from(*e).ok().and_then(|e| recv.checked_pow(e)),
        ("min", [b]) => Some(recv.min(*b)),
        ("max", [b]) => Some(recv.max(*b)),
        ("div_ceil", [b]) if *b > 0 && recv >= 0 => Some((recv + b - 1) / b),
        ("next_multiple_of", [b]) if *b > 0 && recv >= 0 => Some((recv + b - 1) / b * b),
        ("next_power_of_two", []) if recv >= 0 => {
            u128::try_from(recv).ok().and_then(|r| r.checked_next_power_of_two()).map(|r| r as i128)
        }
        ("is_power_of_two", []) => Some(i128::from(recv > 0 && recv & (recv - 1) == 0)),
        ("abs", []) => recv.checked_abs(),
        ("ilog2", []) if recv > 0 => Some(i128::from(recv.ilog2())),
        _ => return Err(format!("the method `{name}`")),
    };
    v.map(ConstVal::Value).ok_or_else(|| "an operation that overflows".to_string())
}

/// The discriminant of an enum variant: written, or one more than the previous variant's.
pub fn discriminant(items: &Items, variant: DefId, depth: u32) -> Result<i128, String> {
    let Some((parent, index)) = items.variant_parent(variant) else {
        return Err("not a variant".into());
    };
    let DefKind::Enum { variants, .. } = &items.def(parent).kind else {
        return Err("not an enum".into());
    };
    let mut next: i128 = 0;
    for v in variants.iter().take(index as usize + 1) {
        if let DefKind::Variant { discriminant: Some(e), .. } = &items.def(*v).kind {
            next = match (ConstEval { items, generics: None, owner: None }).eval(
                items.def(*v).scope,
                e,
                &[],
                depth + 1,
            )? {
                ConstVal::Value(x) => x,
                ConstVal::Param(_) => {
                    return Err("a discriminant that depends on a parameter".into());
                }
            };
        }
        if *v == variant {
            return Ok(next);
        }
        next += 1;
    }
    Err("not a variant of its enum".into())
}

/// The impl an item is written in (the impl itself for an impl).
fn self_impl(items: &Items, def: DefId) -> Option<DefId> {
    match &items.def(def).kind {
        DefKind::Impl { .. } => Some(def),
        DefKind::Fn { container: Container::Impl(i), .. }
        | DefKind::Const { container: Container::Impl(i), .. }
        | DefKind::AssocTy { container: Container::Impl(i), .. } => Some(*i),
        _ => None,
    }
}

/// The struct or enum an impl is written for, when its self type is a path to one.
fn impl_self_def(items: &Items, imp: DefId) -> Option<DefId> {
    let DefKind::Impl { self_ty: syn::Type::Path(tp), .. } = &items.def(imp).kind else {
        return None;
    };
    let r = items.resolve_path(
        items.def(imp).scope,
        &path_names(&tp.path),
        tp.path.leading_colon.is_some(),
        Ns::Type,
        &|_| None,
    )?;
    match r.res {
        Res::Def(d) if r.rest == 0 => Some(d),
        _ => None,
    }
}

/// An associated constant of a struct or enum, from its impls (syntactically: the impls
/// whose self type names it).
fn assoc_const_of(items: &Items, def: DefId, name: &str) -> Option<DefId> {
    let mut candidates: Vec<(bool, DefId)> = Vec::new();
    for &imp in &items.impls {
        let DefKind::Impl { trait_path, .. } = &items.def(imp).kind else { continue };
        if impl_self_def(items, imp) != Some(def) {
            continue;
        }
        if let Some(c) = items.assoc_item(imp, name, false)
            && matches!(items.def(c).kind, DefKind::Const { .. })
        {
            candidates.push((trait_path.is_some(), c));
        }
    }
    candidates.sort_by_key(|(is_trait, _)| *is_trait);
    candidates.first().map(|(_, c)| *c)
}

fn prim_const(p: crate::items::resolve::Prim, name: &str) -> Result<i128, String> {
    use crate::items::resolve::Prim;
    match p {
        Prim::Int(t) => {
            let (lo, hi) = t.range();
            match name {
                // Constants are evaluated as i128; `u128::MAX` is kept as its bits (-1), which
                // is what the value lowers to.
                "MAX" => Ok(hi as i128),
                "MIN" => Ok(lo),
                "BITS" => Ok(i128::from(t.bits())),
                _ => Err(format!("`{}::{name}` is not a constant", t.name())),
            }
        }
        _ => Err("not an integer constant".into()),
    }
}
