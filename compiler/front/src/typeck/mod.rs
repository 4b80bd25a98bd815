//! The type checker: one inference context per body instance, unification over type, integer
//! and float variables with rustc's fallback at the end, expectations flowing into calls,
//! lets, returns and fields, method resolution with auto-deref and auto-ref through inherent
//! impls, trait impls and the core's impls of the primitives, trait selection and projection
//! normalisation, and closures whose signatures come from the `Fn` bounds they are passed to.
//!
//! Bodies are checked per instance: a generic function is checked once for each set of
//! concrete arguments that a kernel reaches (as C++ checks templates), so method calls on `T`
//! resolve against the concrete type. Signatures are generic: a call instantiates the callee's
//! signature and bounds with inference variables, which is how the caller's types are
//! inferred. Errors are reported once per source site however many instances reach it.

mod closure;
mod coerce;
mod declared;
mod exhaustive;
mod expr;
mod impls;
mod infer;
mod init;
mod method;
mod op;
mod pat;
mod path;
mod place;
mod traits;

pub use pat::positions;
pub(crate) use path::{with_core_import_note, with_import_help};
pub use traits::{Selection, resolve_instance};

/// A type with its projections normalised, outside any body (field types of generic structs,
/// instance signatures).
pub fn normalize_in_layout(tcx: &Tcx, ty: &Ty) -> Ty {
    if ty.has_projections() { traits::normalize_concrete(tcx, ty) } else { ty.clone() }
}

use crate::codes::*;
use crate::diag::{Diagnostic, Span};
use crate::hir::{self, Body, ExprId, LocalId, PatId};
use crate::items::{Container, DefId, DefKind, FileId, Items};
use crate::ty::lower::{TraitBound, TyLowerer};
use crate::ty::{Args, GenericArg, Ty, TyKind};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// A function to call: a free function, an inherent or trait method (a trait's declaration
/// until an instance is resolved), with all its generic arguments (the impl's or trait's
/// first, `Self` first for a trait).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Callee {
    pub def: DefId,
    pub args: Args,
}

/// What an adjustment does to an expression's value before its use.
#[derive(Clone, Debug, PartialEq)]
pub enum Adjust {
    /// `*e` through a reference (never a raw pointer: those are never dereferenced
    /// implicitly).
    Deref,
    /// `&e` or `&mut e`.
    Borrow(bool),
    /// `&[T; N]` to `&[T]` (or the `&mut` forms, or raw pointers).
    Unsize,
    /// `&mut T` to `&T`, `*mut T` to `*const T`, `&T` to `*const T`: the same pointer.
    PointerCast,
    /// `!` to any type: the expression never finishes.
    NeverToAny,
    /// `*Deref::deref(&e)`: auto-deref through a user's `Deref` impl (a newtype or a smart
    /// pointer), `deref_mut` where the place is used mutably. `deref` is `Deref::deref` with
    /// the dereferenced type as `Self`; `target` is its `Target`.
    Overloaded { deref: Callee, target: Ty },
}

impl Adjust {
    /// Whether the adjustment dereferences, through a reference or a `Deref` impl.
    pub fn is_deref(&self) -> bool {
        matches!(self, Adjust::Deref | Adjust::Overloaded { .. })
    }
}

/// What a value path names, with its generic arguments.
#[derive(Clone, Debug)]
pub enum ValueRes {
    Local(LocalId),
    Fn(Callee),
    /// A `const` item or associated constant (the trait's declaration until resolved).
    Const(Callee),
    Static(DefId),
    /// A struct or variant constructor (tuple-like as a function, unit-like as a value).
    Ctor {
        def: DefId,
        args: Args,
    },
    /// A const generic parameter's value.
    ConstParam(u64),
}

/// A closure of a body instance.
#[derive(Clone, Debug)]
pub struct ClosureData {
    /// The body instance that defines it.
    pub owner: (DefId, Args),
    pub index: u32,
    pub expr: ExprId,
    pub params: Vec<Ty>,
    pub ret: Ty,
    /// The captured locals of the owner, in order, and whether each is captured by value
    /// (`move`) rather than by reference.
    pub captures: Vec<(LocalId, Ty)>,
    pub by_value: bool,
}

/// What a `for` loop iterates.
#[derive(Clone, Debug)]
pub struct ForLoop {
    /// `IntoIterator::into_iter` on the iterated expression's type.
    pub into_iter: Callee,
    /// The iterator's type.
    pub iter_ty: Ty,
    /// `Iterator::next` on it.
    pub next: Callee,
    pub item_ty: Ty,
}

/// How `e?` leaves: the `Option` or `Result` it works on.
#[derive(Clone, Debug)]
pub struct TryInfo {
    pub is_option: bool,
    /// `From::from` for the error, when the function's error type is another type.
    pub from: Option<Callee>,
}

/// The types the checker found for one body instance, fully resolved.
#[derive(Clone, Debug, Default)]
pub struct TypeckResults {
    pub expr_ty: Vec<Ty>,
    pub pat_ty: Vec<Ty>,
    pub local_ty: Vec<Ty>,
    /// Adjustments applied to expressions, in order.
    pub adjust: HashMap<ExprId, Vec<Adjust>>,
    /// The function each call, method call, overloaded operator or overloaded index calls.
    pub callees: HashMap<ExprId, Callee>,
    pub paths: HashMap<ExprId, ValueRes>,
    /// Field indices of field accesses.
    pub fields: HashMap<ExprId, u32>,
    /// The struct or variant of struct literals and struct-like patterns.
    pub variants: HashMap<ExprId, (DefId, Args)>,
    pub pat_variants: HashMap<PatId, (DefId, Args)>,
    /// References a pattern looks through before matching (default binding modes).
    pub pat_derefs: HashMap<PatId, usize>,
    /// Bindings that bind by reference, with mutability.
    pub by_ref: HashMap<PatId, bool>,
    /// Constants compared by patterns.
    pub pat_consts: HashMap<PatId, ValueRes>,
    /// Closure expressions and their data index in the global table.
    pub closures: HashMap<ExprId, crate::ty::ClosureId>,
    pub for_loops: HashMap<ExprId, ForLoop>,
    pub tries: HashMap<ExprId, TryInfo>,
    /// Repeat counts and other array lengths evaluated in this instance.
    pub lengths: HashMap<ExprId, u64>,
    /// The function's parameter and return types.
    pub params: Vec<Ty>,
    pub ret: Ty,
    /// `match`es known to cover every value: their last arm needs no test.
    pub exhaustive: std::collections::HashSet<ExprId>,
    /// The concrete type of each `impl Trait` of the return type, in source order.
    pub opaques: Vec<Ty>,
}

impl TypeckResults {
    pub fn ty(&self, e: ExprId) -> &Ty {
        &self.expr_ty[e.0 as usize]
    }

    pub fn local(&self, l: LocalId) -> &Ty {
        &self.local_ty[l.0 as usize]
    }

    /// An expression's type after its adjustments.
    pub fn adjusted(&self, e: ExprId, tcx: &Tcx) -> Ty {
        let mut t = self.ty(e).clone();
        for a in self.adjust.get(&e).map(Vec::as_slice).unwrap_or(&[]) {
            t = apply_adjust(&t, a, tcx);
        }
        t
    }
}

fn apply_adjust(t: &Ty, a: &Adjust, _tcx: &Tcx) -> Ty {
    match a {
        Adjust::Deref => t.builtin_deref(true).map(|(x, _)| x).unwrap_or_else(Ty::error),
        Adjust::Borrow(m) => Ty::reference(t.clone(), *m),
        Adjust::Unsize => match t.kind() {
            TyKind::Ref(inner, m) | TyKind::Ptr(inner, m) => {
                let elem = match inner.kind() {
                    TyKind::Array(e, _) => Ty::slice(e.clone()),
                    _ => inner.clone(),
                };
                if matches!(t.kind(), TyKind::Ref(..)) {
                    Ty::reference(elem, *m)
                } else {
                    Ty::ptr(elem, *m)
                }
            }
            _ => t.clone(),
        },
        Adjust::PointerCast | Adjust::NeverToAny => t.clone(),
        Adjust::Overloaded { target, .. } => target.clone(),
    }
}

/// A function's signature in terms of its own generic parameters.
#[derive(Clone, Debug)]
pub struct FnSig {
    pub inputs: Vec<Ty>,
    pub output: Ty,
    pub self_kind: Option<SelfKind>,
    pub unsafe_fn: bool,
}

/// An impl's header.
#[derive(Clone, Debug)]
pub struct ImplHeader {
    pub self_ty: Ty,
    /// The trait and its arguments, `Self` first.
    pub trait_ref: Option<(DefId, Args)>,
}

/// How a method takes `self`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelfKind {
    Value,
    Ref,
    RefMut,
    /// `self: Type` written out.
    Explicit,
}

/// The compilation's shared type information: the items, the memoised signatures, headers
/// and bounds, every closure, and the diagnostics.
pub struct Tcx<'t, 'a> {
    pub items: &'t Items<'a>,
    pub source: &'t str,
    diags: RefCell<Vec<Diagnostic>>,
    /// How many errors were reported, counting those already reported at the same site (two
    /// kernels written by one macro meet the same error once in `diags`, twice here).
    reported: std::cell::Cell<usize>,
    bodies: RefCell<HashMap<DefId, Option<Rc<Body<'a>>>>>,
    sigs: RefCell<HashMap<DefId, Rc<FnSig>>>,
    headers: RefCell<HashMap<DefId, Rc<ImplHeader>>>,
    /// The impls of each trait, in the items' order (made at the first selection).
    trait_impls: RefCell<Option<Rc<HashMap<DefId, Vec<DefId>>>>>,
    predicates: RefCell<HashMap<DefId, Rc<Vec<(Ty, TraitBound)>>>>,
    assoc_bounds: RefCell<HashMap<DefId, Rc<Vec<(Ty, TraitBound)>>>>,
    field_tys: RefCell<HashMap<DefId, Rc<Vec<Ty>>>>,
    closures: RefCell<Vec<ClosureData>>,
    closure_ids: RefCell<HashMap<(DefId, Args, u32), crate::ty::ClosureId>>,
    results: RefCell<HashMap<(DefId, Args), Option<Rc<TypeckResults>>>>,
    /// The trait methods by name, for method lookup.
    trait_methods: HashMap<String, Vec<DefId>>,
    /// The user's source span from which the instance being checked was reached, for errors
    /// found in code the user did not write.
    origin: RefCell<Option<Span>>,
    /// An empty body, for impl selection outside bodies.
    empty_body: RefCell<Option<Rc<Body<'a>>>>,
    /// For each user function the checker met in a body, the first function whose body
    /// named it: the way back to a kernel, for errors in helpers.
    callers: RefCell<HashMap<DefId, DefId>>,
    opaque_bounds: RefCell<HashMap<(DefId, u32), Rc<Vec<TraitBound>>>>,
    super_bounds: RefCell<HashMap<DefId, Rc<Vec<TraitBound>>>>,
}

impl<'t, 'a> Tcx<'t, 'a> {
    pub fn new(items: &'t Items<'a>, source: &'t str) -> Tcx<'t, 'a> {
        let mut trait_methods: HashMap<String, Vec<DefId>> = HashMap::new();
        for &t in &items.traits {
            for &m in items.assoc_items(t) {
                if matches!(items.def(m).kind, DefKind::Fn { .. }) {
                    trait_methods.entry(items.name(m).to_string()).or_default().push(m);
                }
            }
        }
        Tcx {
            items,
            source,
            diags: RefCell::default(),
            reported: std::cell::Cell::new(0),
            bodies: RefCell::default(),
            sigs: RefCell::default(),
            headers: RefCell::default(),
            trait_impls: RefCell::default(),
            predicates: RefCell::default(),
            assoc_bounds: RefCell::default(),
            field_tys: RefCell::default(),
            closures: RefCell::default(),
            closure_ids: RefCell::default(),
            results: RefCell::default(),
            trait_methods,
            origin: RefCell::default(),
            empty_body: RefCell::default(),
            callers: RefCell::default(),
            opaque_bounds: RefCell::default(),
            super_bounds: RefCell::default(),
        }
    }

    /// An empty body for [`traits::select_concrete`].
    pub(super) fn body_for_selection(&self) -> Rc<Body<'a>> {
        if let Some(b) = self.empty_body.borrow().as_ref() {
            return b.clone();
        }
        let b = Rc::new(Body {
            file: FileId::Core(0),
            exprs: Vec::new(),
            pats: Vec::new(),
            locals: Vec::new(),
            params: Vec::new(),
            value: ExprId(0),
            closures: Vec::new(),
            unsafe_fn: false,
        });
        *self.empty_body.borrow_mut() = Some(b.clone());
        b
    }

    /// Notes that the body of `caller` uses the user function `callee`.
    pub fn note_use(&self, caller: DefId, callee: DefId) {
        if caller != callee && self.items.is_user(callee) {
            self.callers.borrow_mut().entry(callee).or_insert(caller);
        }
    }

    /// The calls from a kernel that reach the user function `def`, kernel first.
    fn path_from_kernel(&self, def: DefId) -> Option<Vec<DefId>> {
        let callers = self.callers.borrow();
        let mut path = vec![def];
        let mut cur = def;
        while !self.items.kernels.contains(&cur) {
            cur = *callers.get(&cur)?;
            if path.contains(&cur) {
                return None;
            }
            path.push(cur);
        }
        path.reverse();
        Some(path)
    }

    /// Reports an error found in the item `def`: an unsupported construct in a helper function
    /// says which kernel makes rkc compile the helper for the GPU at all (host code in the
    /// same file is never checked).
    pub fn report_in(&self, def: DefId, file: FileId, d: Diagnostic) {
        let mut d = d;
        if file.is_user()
            && matches!(d.code, RK_UNSUPPORTED_TYPE | RK_UNSUPPORTED_EXPR)
            && !self.items.kernels.contains(&def)
            && matches!(self.items.def(def).kind, DefKind::Fn { .. })
            && let Some(path) = self.path_from_kernel(def)
            && path.len() > 1
        {
            let names: Vec<&str> = path.iter().map(|p| self.items.name(*p)).collect();
            d = d.note(format!(
                "`{}` is compiled for the GPU because the kernel `{}` reaches it: {}",
                names[names.len() - 1],
                names[0],
                names.join(" → ")
            ));
        }
        self.report(file, d);
    }

    /// Reports an error found in `file`; one from the core or a derived impl is rkc's own
    /// and is reported at the user's code that reached it.
    pub fn report(&self, file: FileId, d: Diagnostic) {
        let d = match file {
            FileId::User => d,
            FileId::Derived(k) => {
                let span = self.items.derived_spans.get(k as usize).copied();
                let mut d = d;
                if let Some(s) = span {
                    d.primary = Some((s, "in the code this derive writes".into()));
                    d.secondary.clear();
                }
                d
            }
            FileId::Core(k) => {
                if std::env::var_os("RKC_DEBUG_CORE").is_some() {
                    eprintln!("rkc: core file {k}: {} at {:?}", d.message, d.primary);
                }
                // After an error in the user's code, the core's own are its consequences (an
                // instance of a core function built with a type that error left unknown): the
                // count still says the compilation failed, the user sees the cause alone.
                if self.diags.borrow().iter().any(|x| x.code != RK_INTERNAL) {
                    self.reported.set(self.reported.get() + 1);
                    return;
                }
                let mut d = crate::ty::lower::internal(d);
                if let Some(s) = *self.origin.borrow() {
                    d = d.at(s, "while compiling this use of rkc's core library");
                }
                d
            }
        };
        self.reported.set(self.reported.get() + 1);
        let mut diags = self.diags.borrow_mut();
        // One error per source site, however many instances reach it.
        if !diags
            .iter()
            .any(|x| x.code == d.code && x.message == d.message && x.primary == d.primary)
        {
            diags.push(d);
        }
    }

    pub fn report_all(&self, ds: Vec<Diagnostic>, file: FileId) {
        for d in ds {
            self.report(file, d);
        }
    }

    /// Whether an error was reported at a span inside `span`.
    pub fn reported_within(&self, span: Span) -> bool {
        self.diags.borrow().iter().any(|d| {
            d.primary.as_ref().is_some_and(|(s, _)| s.start >= span.start && s.end <= span.end)
        })
    }

    pub fn has_errors(&self) -> bool {
        !self.diags.borrow().is_empty()
    }

    /// Every error reported so far, including the repeats of one site that `diags` keeps once.
    pub fn error_count(&self) -> usize {
        self.reported.get()
    }

    pub fn take_diags(&self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.diags.borrow_mut())
    }

    pub fn set_origin(&self, span: Option<Span>) -> Option<Span> {
        std::mem::replace(&mut self.origin.borrow_mut(), span)
    }

    pub fn origin(&self) -> Option<Span> {
        *self.origin.borrow()
    }

    /// The HIR of a function, built once.
    pub fn body(&self, def: DefId) -> Option<Rc<Body<'a>>> {
        if let Some(b) = self.bodies.borrow().get(&def) {
            return b.clone();
        }
        let mut diags = Vec::new();
        let body = match &self.items.def(def).kind {
            DefKind::Fn { .. } => hir::build_body(self.items, self.source, def, &mut diags),
            DefKind::Const { expr: Some(e), .. } => {
                Some(hir::build_const_body(self.items, self.source, def, e, &mut diags))
            }
            DefKind::Static { expr, .. } => {
                Some(hir::build_const_body(self.items, self.source, def, expr, &mut diags))
            }
            _ => None,
        }
        .map(Rc::new);
        // A body with syntax errors is not checked: its errors are the ones to fix.
        let body = if diags.is_empty() { body } else { None };
        for d in diags {
            self.report(FileId::User, d);
        }
        self.bodies.borrow_mut().insert(def, body.clone());
        body
    }

    /// A lowerer for types written in item `def`.
    pub fn lowerer<'s>(&'s self, def: DefId, diags: &'s mut Vec<Diagnostic>) -> TyLowerer<'s, 'a> {
        TyLowerer::for_item(self.items, def, diags)
    }

    /// A function's signature in terms of its generic parameters.
    pub fn fn_sig(&self, def: DefId) -> Rc<FnSig> {
        if let Some(s) = self.sigs.borrow().get(&def) {
            return s.clone();
        }
        let Some(sig) = self.items.fn_sig(def) else {
            return Rc::new(FnSig {
                inputs: vec![],
                output: Ty::error(),
                self_kind: None,
                unsafe_fn: false,
            });
        };
        let mut diags = Vec::new();
        let mut l = self.lowerer(def, &mut diags);
        let self_ty = l.self_ty.clone().unwrap_or_else(Ty::error);
        let mut inputs = Vec::new();
        let mut self_kind = None;
        for input in &sig.inputs {
            match input {
                syn::FnArg::Receiver(r) => {
                    let (t, k) = if r.colon_token.is_some() {
                        (l.lower(&r.ty), SelfKind::Explicit)
                    } else {
                        match (&r.reference, r.mutability) {
                            (None, _) => (self_ty.clone(), SelfKind::Value),
                            (Some(_), m) => (
                                Ty::reference(self_ty.clone(), m.is_some()),
                                if m.is_some() { SelfKind::RefMut } else { SelfKind::Ref },
                            ),
                        }
                    };
                    self_kind = Some(k);
                    inputs.push(t);
                }
                syn::FnArg::Typed(pt) => inputs.push(l.lower(&pt.ty)),
            }
        }
        // An `impl Trait` in the return type is the function's own opaque type.
        l.opaque_owner = Some(def);
        let output = match &sig.output {
            syn::ReturnType::Default => Ty::unit(),
            syn::ReturnType::Type(_, t) => l.lower(t),
        };
        l.opaque_owner = None;
        let file = self.items.def(def).file;
        // A kernel's parameter of a type that has no device form gets the upstream
        // "cannot be offloaded" error from the kernel check instead.
        let kernel = matches!(self.items.def(def).kind, DefKind::Fn { kernel: true, .. });
        for d in diags {
            if kernel && d.code == RK_UNSUPPORTED_TYPE {
                continue;
            }
            self.report_in(def, file, d);
        }
        let s = Rc::new(FnSig {
            inputs,
            output,
            self_kind,
            unsafe_fn: sig.unsafety.is_some()
                || matches!(self.items.def(def).kind, DefKind::Fn { intrinsic: Some(_), .. }),
        });
        self.sigs.borrow_mut().insert(def, s.clone());
        s
    }

    /// An impl's self type and trait.
    pub fn impl_header(&self, imp: DefId) -> Rc<ImplHeader> {
        if let Some(h) = self.headers.borrow().get(&imp) {
            return h.clone();
        }
        let DefKind::Impl { self_ty, trait_path, .. } = &self.items.def(imp).kind else {
            return Rc::new(ImplHeader { self_ty: Ty::error(), trait_ref: None });
        };
        let mut diags = Vec::new();
        let mut l = self.lowerer(imp, &mut diags);
        let st = l.lower(self_ty);
        l.self_ty = Some(st.clone());
        let trait_ref = trait_path
            .and_then(|p| l.trait_ref(st.clone(), p, Span::default()))
            .map(|b| (b.trait_id, b.args.into()));
        // Headers of impls that kernels never use may name host types; their errors stay
        // unreported until a kernel reaches the impl.
        let h = Rc::new(ImplHeader { self_ty: st, trait_ref });
        self.headers.borrow_mut().insert(imp, h.clone());
        h
    }

    /// The impls of each trait, by the trait of their headers, in the items' order: selection
    /// looks at a trait's impls only, not at every impl of the file (a file of many kernels
    /// with impls of their own made it quadratic).
    pub fn trait_impls(&self) -> Rc<HashMap<DefId, Vec<DefId>>> {
        if let Some(m) = self.trait_impls.borrow().as_ref() {
            return m.clone();
        }
        let mut m: HashMap<DefId, Vec<DefId>> = HashMap::new();
        for &imp in &self.items.impls {
            if let Some((t, _)) = &self.impl_header(imp).trait_ref {
                m.entry(*t).or_default().push(imp);
            }
        }
        let m = Rc::new(m);
        *self.trait_impls.borrow_mut() = Some(m.clone());
        m
    }

    /// Whether the struct or enum `adt` has a `Drop` impl. rkc runs no destructors, so a
    /// kernel may not hold such a value (its `drop` would silently never run).
    pub fn has_drop_impl(&self, adt: DefId) -> bool {
        let Some(drop) = self.items.lang("Drop") else { return false };
        self.trait_impls().get(&drop).is_some_and(|imps| {
            imps.iter().any(
                |&i| matches!(self.impl_header(i).self_ty.kind(), TyKind::Adt(d, _) if *d == adt),
            )
        })
    }

    /// An item's bounds, with its parents'.
    pub fn predicates(&self, def: DefId) -> Rc<Vec<(Ty, TraitBound)>> {
        if let Some(p) = self.predicates.borrow().get(&def) {
            return p.clone();
        }
        let mut diags = Vec::new();
        let mut l = self.lowerer(def, &mut diags);
        let p = Rc::new(l.predicates(def));
        self.predicates.borrow_mut().insert(def, p.clone());
        p
    }

    /// The bounds a trait declares on its associated types, as predicates over the trait's
    /// own parameters (`Self` first): `<Self as Trait>::T: Into<f32>` for `type T: Into<f32>`.
    /// They hold wherever the trait does (the impls are checked against them), so a bound
    /// `K: Trait` implies them for `K` (rustc's item bounds).
    pub fn assoc_bounds(&self, trait_id: DefId) -> Rc<Vec<(Ty, TraitBound)>> {
        if let Some(p) = self.assoc_bounds.borrow().get(&trait_id) {
            return p.clone();
        }
        let mut out = Vec::new();
        let mut diags = Vec::new();
        let own = self.items.generics(trait_id).map_or(0, |g| g.count());
        let identity: Args = (0..own).map(|i| GenericArg::Ty(Ty::new(TyKind::Param(i)))).collect();
        if let DefKind::Trait { items: assoc, .. } = &self.items.def(trait_id).kind {
            for &a in assoc {
                let DefKind::AssocTy { bounds, .. } = &self.items.def(a).kind else { continue };
                if bounds.is_empty() {
                    continue;
                }
                let proj = Ty::new(TyKind::Projection(crate::ty::Projection {
                    trait_id,
                    args: identity.clone(),
                    assoc: a,
                }));
                let mut l = self.lowerer(a, &mut diags);
                for b in bounds {
                    if let Some(tb) = l.bound(proj.clone(), b) {
                        out.push((proj.clone(), tb));
                    }
                }
            }
        }
        // The bounds' own errors are reported where the trait's items are checked.
        drop(diags);
        let out = Rc::new(out);
        self.assoc_bounds.borrow_mut().insert(trait_id, out.clone());
        out
    }

    /// The field types of a struct or variant, in terms of the ADT's generic parameters.
    pub fn field_tys(&self, def: DefId) -> Rc<Vec<Ty>> {
        if let Some(f) = self.field_tys.borrow().get(&def) {
            return f.clone();
        }
        let adt = self.items.variant_parent(def).map(|(p, _)| p).unwrap_or(def);
        let mut diags = Vec::new();
        let mut l = self.lowerer(adt, &mut diags);
        let tys: Vec<Ty> = self.items.fields(def).iter().map(|f| l.lower(f.ty)).collect();
        let file = self.items.def(def).file;
        self.report_all(diags, file);
        let tys = Rc::new(tys);
        self.field_tys.borrow_mut().insert(def, tys.clone());
        tys
    }

    pub fn closure(&self, id: crate::ty::ClosureId) -> ClosureData {
        self.closures.borrow()[id.0 as usize].clone()
    }

    fn closure_id(&self, owner: (DefId, Args), index: u32, expr: ExprId) -> crate::ty::ClosureId {
        let key = (owner.0, owner.1.clone(), index);
        if let Some(id) = self.closure_ids.borrow().get(&key) {
            return *id;
        }
        let mut closures = self.closures.borrow_mut();
        let id = crate::ty::ClosureId(closures.len() as u32);
        closures.push(ClosureData {
            owner,
            index,
            expr,
            params: Vec::new(),
            ret: Ty::error(),
            captures: Vec::new(),
            by_value: false,
        });
        self.closure_ids.borrow_mut().insert(key, id);
        id
    }

    fn set_closure(&self, id: crate::ty::ClosureId, data: ClosureData) {
        self.closures.borrow_mut()[id.0 as usize] = data;
    }

    /// The trait methods named `name`.
    pub fn trait_methods(&self, name: &str) -> &[DefId] {
        self.trait_methods.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The type checker's results for one instance of a body (a function with concrete
    /// generic arguments), computed once.
    pub fn typeck(&self, def: DefId, args: &Args) -> Option<Rc<TypeckResults>> {
        let key = (def, args.clone());
        if let Some(r) = self.results.borrow().get(&key) {
            return r.clone();
        }
        let body = self.body(def)?;
        let before = self.error_count();
        let results = expr::check_body(self, def, args.clone(), body);
        if self.error_count() > before {
            self.results.borrow_mut().insert(key, None);
            // The bodies of the user's functions that this one calls are checked too, as
            // rustc checks every body: an error here does not hide theirs until it is fixed
            // (their instances are otherwise checked only when the lowering reaches them).
            // The entry above ends a cycle of calls.
            if let Some(r) = &results {
                let mut calls: Vec<(&ExprId, &Callee)> = r.callees.iter().collect();
                calls.sort_by_key(|(e, _)| **e);
                for (_, c) in calls {
                    // Only functions that are not generic: an instance of a generic one
                    // may break its bounds (the very error reported here), and rustc checks
                    // generic bodies once, generically, which rkc does not.
                    // One whose signature was refused (a `String` result) is left alone:
                    // that error stands for it.
                    if c.args.is_empty()
                        && self.items.is_user(c.def)
                        && !self.items.kernels.contains(&c.def)
                        && matches!(self.items.def(c.def).kind, DefKind::Fn { .. })
                    {
                        let sig = self.fn_sig(c.def);
                        if sig.inputs.iter().chain([&sig.output]).any(Ty::has_error) {
                            continue;
                        }
                        let _ = self.typeck(c.def, &c.args);
                    }
                }
            }
            return None;
        }
        let results = results.map(Rc::new);
        self.results.borrow_mut().insert(key, results.clone());
        results
    }

    pub fn show(&self, ty: &Ty) -> String {
        crate::ty::show(ty, self.items)
    }

    /// Traits with all their supertraits, each once, in the order found.
    pub fn with_supertraits(&self, mut traits: Vec<DefId>) -> Vec<DefId> {
        let mut k = 0;
        while k < traits.len() {
            for sb in self.super_bounds(traits[k]).iter() {
                if !traits.contains(&sb.trait_id) {
                    traits.push(sb.trait_id);
                }
            }
            k += 1;
        }
        traits
    }

    /// A trait's supertrait bounds (`trait BlockFn: Fn(u32) {}`), with `Self` as parameter 0.
    pub fn super_bounds(&self, trait_id: DefId) -> Rc<Vec<TraitBound>> {
        if let Some(b) = self.super_bounds.borrow().get(&trait_id) {
            return b.clone();
        }
        let mut bounds = Vec::new();
        if let DefKind::Trait { supertraits, .. } = &self.items.def(trait_id).kind {
            let mut diags = Vec::new();
            let mut l = self.lowerer(trait_id, &mut diags);
            for b in supertraits {
                if let Some(tb) = l.bound(Ty::new(TyKind::Param(0)), b) {
                    bounds.push(tb);
                }
            }
        }
        let bounds = Rc::new(bounds);
        self.super_bounds.borrow_mut().insert(trait_id, bounds.clone());
        bounds
    }

    /// The bounds of a function's `index`-th return-position `impl Trait`, in terms of the
    /// function's generic parameters; each bound's `Self` is a placeholder.
    pub fn opaque_bounds(&self, def: DefId, index: u32) -> Rc<Vec<TraitBound>> {
        if let Some(b) = self.opaque_bounds.borrow().get(&(def, index)) {
            return b.clone();
        }
        let mut bounds = Vec::new();
        if let Some(it) = crate::ty::opaque_syntax(self.items, def, index) {
            let mut diags = Vec::new();
            let mut l = self.lowerer(def, &mut diags);
            for b in &it.bounds {
                if let syn::TypeParamBound::Trait(tb) = b
                    && let Some(bound) = l.trait_ref(
                        Ty::error(),
                        &tb.path,
                        crate::diag::Span::from_pm2(syn::spanned::Spanned::span(tb)),
                    )
                {
                    bounds.push(bound);
                }
            }
            let file = self.items.def(def).file;
            self.report_all(diags, file);
        }
        let bounds = Rc::new(bounds);
        self.opaque_bounds.borrow_mut().insert((def, index), bounds.clone());
        bounds
    }
}

/// Mismatched types, as rustc words it.
pub fn mismatch(expected: &str, found: &str, span: Span) -> Diagnostic {
    let d = Diagnostic::new(RK_MISMATCHED_TYPES, "mismatched types")
        .at(span, format!("expected `{expected}`, found `{found}`"));
    two_closures(d, expected, found)
}

/// The explanation for two closures where one type is needed (an array of them, the arms of an
/// `if` or a `match`): rustc coerces closures that capture nothing to a function pointer there,
/// which kernels cannot hold.
pub fn two_closures(d: Diagnostic, expected: &str, found: &str) -> Diagnostic {
    if expected != "{closure}" || found != "{closure}" {
        return d;
    }
    d.note("every closure has a type of its own; rustc makes closures that capture nothing function pointers here, which kernels cannot use (RK0101)")
        .help("write one closure that chooses with a `match` or an `if` inside, or pass each closure to a generic function (`F: Fn(..)`)")
}
