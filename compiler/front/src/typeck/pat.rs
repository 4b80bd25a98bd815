//! Patterns against the scrutinee's type, with default binding modes (RFC 2005): matching
//! `&Option<T>` with `Some(x)` looks through the reference and binds `x: &T`.

use super::expr::FnCtxt;
use super::*;
use crate::hir::{Lit, PatKind};
use crate::items::{CtorKind, PathRes, Res};
use crate::ty::Infer;

impl<'c, 't, 'a> FnCtxt<'c, 't, 'a> {
    /// Checks a pattern against the type of what it matches.
    pub fn check_pat_top(&mut self, p: PatId, expected: &Ty) {
        self.check_pat(p, expected, None);
    }

    /// The type a pattern meets, with the obligations still pending selected when it is not
    /// known yet (and left an inference variable if they do not fix it).
    fn resolve_for_pattern(&mut self, t: &Ty) -> Ty {
        let s = self.shallow(t);
        if matches!(s.kind(), TyKind::Infer(Infer::Var(_))) {
            self.select_pending();
            return self.shallow(t);
        }
        s
    }

    /// `def_ref`: the default binding mode, by reference (`Some(mutable)`) after looking
    /// through references.
    fn check_pat(&mut self, p: PatId, expected: &Ty, def_ref: Option<bool>) {
        let body = self.body.clone();
        let pat = body.pat(p);
        let span = pat.span;
        let mut expected = self.shallow(expected);
        let mut def_ref = def_ref;
        // Non-reference patterns look through references.
        let peels = !matches!(
            pat.kind,
            PatKind::Wild
                | PatKind::Binding { .. }
                | PatKind::Ref(..)
                | PatKind::Err
                | PatKind::Or(_)
        );
        let peels = peels && !matches!(&pat.kind, PatKind::Lit(Lit::Str(_), _));
        if peels {
            // A pattern that looks into its scrutinee needs the scrutinee's type known at
            // each reference it peels, as rustc's `structurally_resolve_type`: a pending
            // projection (`xs.get(a..b)`'s `<Range<usize> as SliceIndex<[T]>>::Output`) is
            // selected first.
            expected = self.resolve_for_pattern(&expected);
            let mut n = 0;
            while let TyKind::Ref(inner, m) = expected.kind() {
                let (inner, m) = (inner.clone(), *m);
                def_ref = Some(def_ref.unwrap_or(true) && m);
                expected = self.resolve_for_pattern(&inner);
                n += 1;
            }
            if n > 0 {
                self.r.pat_derefs.insert(p, n);
            }
        }
        self.pat_ty[p.0 as usize] = Some(expected.clone());
        match &pat.kind {
            PatKind::Wild | PatKind::Err => {}
            PatKind::Binding { local, by_ref, sub } => {
                let ty = match (by_ref, def_ref) {
                    (Some(m), _) => {
                        self.r.by_ref.insert(p, *m);
                        Ty::reference(expected.clone(), *m)
                    }
                    (None, Some(m)) => {
                        self.r.by_ref.insert(p, m);
                        Ty::reference(expected.clone(), m)
                    }
                    (None, None) => expected.clone(),
                };
                // In an or-pattern the same local is bound in each alternative.
                match self.local_ty[local.0 as usize].clone() {
                    Some(prev) => {
                        if self.infer.unify(&prev, &ty).is_err() {
                            let (a, b) = (self.show(&prev), self.show(&ty));
                            self.error(mismatch(&a, &b, span).note(
                                "a name bound in each alternative of a pattern has one type",
                            ));
                        }
                    }
                    None => self.local_ty[local.0 as usize] = Some(ty),
                }
                if let Some(s) = sub {
                    self.check_pat(*s, &expected, def_ref);
                }
            }
            PatKind::Lit(lit, _) => {
                let t = match lit {
                    Lit::Int(_, Some(t)) => Ty::int(*t),
                    Lit::Int(..) => {
                        if expected.is_integral() {
                            expected.clone()
                        } else {
                            self.infer.new_int_var()
                        }
                    }
                    Lit::Float(_, Some(t)) => Ty::float(*t),
                    Lit::Float(..) => {
                        if expected.is_floating() {
                            expected.clone()
                        } else {
                            self.infer.new_float_var()
                        }
                    }
                    Lit::Bool(_) => Ty::bool(),
                    Lit::Char(_) => Ty::new(TyKind::Char),
                    Lit::Str(_) => {
                        self.error(
                            Diagnostic::new(
                                RK_UNSUPPORTED_PATTERN,
                                "string patterns are not supported in kernels",
                            )
                            .at(span, "a string"),
                        );
                        Ty::error()
                    }
                };
                self.unify_pat(&t, &expected, span);
            }
            PatKind::Range { lo, hi, .. } => {
                for (l, _) in lo.iter().chain(hi.iter()) {
                    let t = match l {
                        Lit::Int(_, Some(t)) => Ty::int(*t),
                        Lit::Char(_) => Ty::new(TyKind::Char),
                        Lit::Float(_, Some(t)) => Ty::float(*t),
                        Lit::Float(..) => self.infer.new_float_var(),
                        _ => self.infer.new_int_var(),
                    };
                    self.unify_pat(&t, &expected, span);
                }
            }
            PatKind::Const(path) => {
                // A constant compared by value: its type must be the scrutinee's.
                let fake = ExprId(u32::MAX);
                let _ = fake;
                let t = self.pat_const(p, path);
                self.unify_pat(&t, &expected, span);
            }
            PatKind::Tuple { pats, rest } => {
                let elems = match expected.kind() {
                    TyKind::Tuple(ts) => ts.clone(),
                    TyKind::Infer(Infer::Var(_)) if rest.is_none() => {
                        let ts: Vec<Ty> = pats.iter().map(|_| self.infer.new_var()).collect();
                        let _ = self.infer.unify(&expected, &Ty::tuple(ts.clone()));
                        ts
                    }
                    _ => {
                        if !expected.is_error() {
                            let shown = self.show(&expected);
                            self.error(mismatch(&shown, "a tuple", span));
                        }
                        for q in pats {
                            self.check_pat(*q, &Ty::error(), None);
                        }
                        return;
                    }
                };
                let positions = positions(pats.len(), *rest, elems.len());
                match positions {
                    Some(pos) => {
                        for (q, k) in pats.iter().zip(pos) {
                            self.check_pat(*q, &elems[k], def_ref);
                        }
                    }
                    None => {
                        let shown = self.show(&expected);
                        self.error(mismatch(
                            &shown,
                            &format!("a tuple with {} elements", pats.len()),
                            span,
                        ));
                    }
                }
            }
            PatKind::TupleStruct { path, pats, rest } => {
                let Some((def, args)) = self.pat_path(p, path, &expected, span) else {
                    for q in pats {
                        self.check_pat(*q, &Ty::error(), None);
                    }
                    return;
                };
                let fields = self.tcx.field_tys(def);
                match positions(pats.len(), *rest, fields.len()) {
                    Some(pos) => {
                        for (q, k) in pats.iter().zip(pos) {
                            let ft = self.normalize(&fields[k].subst(&args));
                            self.check_pat(*q, &ft, def_ref);
                        }
                    }
                    None => {
                        self.error(
                            Diagnostic::new(
                                RK_MISMATCHED_TYPES,
                                format!(
                                    "this pattern has {} fields, but `{}` has {}",
                                    pats.len(),
                                    self.tcx.items.name(def),
                                    fields.len()
                                ),
                            )
                            .at(span, "wrong number of fields"),
                        );
                    }
                }
            }
            PatKind::Struct { path, fields, rest } => {
                let Some((def, args)) = self.pat_path(p, path, &expected, span) else {
                    for (_, q) in fields {
                        self.check_pat(*q, &Ty::error(), None);
                    }
                    return;
                };
                let defs = self.tcx.items.fields(def).to_vec();
                let tys = self.tcx.field_tys(def);
                let mut seen = Vec::new();
                for (name, q) in fields {
                    match defs.iter().position(|f| f.name == *name) {
                        Some(k) => {
                            let ft = self.normalize(&tys[k].subst(&args));
                            self.check_pat(*q, &ft, def_ref);
                            seen.push(k);
                        }
                        None => {
                            self.error(
                                Diagnostic::new(
                                    RK_UNKNOWN_FIELD,
                                    format!(
                                        "`{}` has no field named `{name}`",
                                        self.tcx.items.name(def)
                                    ),
                                )
                                .at(body.pat(*q).span, "unknown field"),
                            );
                        }
                    }
                }
                if !rest {
                    let missing: Vec<String> = (0..defs.len())
                        .filter(|k| !seen.contains(k))
                        .map(|k| format!("`{}`", defs[k].name))
                        .collect();
                    if !missing.is_empty() {
                        self.error(
                            Diagnostic::new(
                                RK_MISSING_FIELD,
                                format!(
                                    "pattern does not mention field{} {}",
                                    if missing.len() > 1 { "s" } else { "" },
                                    missing.join(", ")
                                ),
                            )
                            .at(span, "missing fields")
                            .help("name every field, or end the pattern with `..`"),
                        );
                    }
                }
            }
            PatKind::Path(path) => {
                // `Self::A`, `Alias::B`: a variant when the scrutinee's enum has one of that
                // name, else an associated constant.
                let last =
                    path.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
                let assoc = matches!(path.res, Some(PathRes { rest: 1.., .. }));
                let is_variant = match expected.kind() {
                    TyKind::Adt(d, _) => match &self.tcx.items.def(*d).kind {
                        DefKind::Enum { variants, .. } => {
                            variants.iter().any(|v| self.tcx.items.name(*v) == last)
                        }
                        _ => false,
                    },
                    _ => false,
                };
                if assoc && !is_variant {
                    let t = self.pat_const(p, path);
                    self.unify_pat(&t, &expected, span);
                } else {
                    let _ = self.pat_path(p, path, &expected, span);
                }
            }
            PatKind::Ref(inner, m) => match expected.kind() {
                TyKind::Ref(t, em) if em == m || !m => {
                    let t = t.clone();
                    self.check_pat(*inner, &t, None);
                }
                TyKind::Infer(Infer::Var(_)) => {
                    let v = self.infer.new_var();
                    let _ = self.infer.unify(&expected, &Ty::reference(v.clone(), *m));
                    self.check_pat(*inner, &v, None);
                }
                _ => {
                    if !expected.is_error() {
                        let shown = self.show(&expected);
                        self.error(
                            mismatch(&shown, if *m { "&mut _" } else { "&_" }, span)
                                .note("a `&` pattern matches a reference"),
                        );
                    }
                    self.check_pat(*inner, &Ty::error(), None);
                }
            },
            PatKind::Slice { before, rest, after } => {
                let fixed = (before.len() + after.len()) as u64;
                let array_len = match expected.kind() {
                    TyKind::Array(_, c) => Some(self.infer.resolve_const(c)),
                    _ => None,
                };
                let (elem, len) = match (expected.kind(), array_len) {
                    (TyKind::Array(el, _), Some(crate::ty::Const::Value(n))) => {
                        (el.clone(), Some(n))
                    }
                    // A length still to be inferred (`core::array::from_fn`'s, `[T; N]::map`'s
                    // before its receiver is known) is the pattern's, when the pattern has no
                    // rest, as in rustc.
                    (TyKind::Array(el, _), Some(c @ crate::ty::Const::Infer(_)))
                        if rest.is_none() =>
                    {
                        let _ = self.infer.unify_const(&c, &crate::ty::Const::Value(fixed));
                        (el.clone(), Some(fixed))
                    }
                    (TyKind::Array(..), Some(crate::ty::Const::Infer(_))) => {
                        self.error(
                            Diagnostic::new(RK_CANNOT_INFER, "type annotations needed")
                                .at(span, "the length of the array this pattern matches must be known here")
                                .help("give the array's length: `let x: [T; 4] = ...`"),
                        );
                        return;
                    }
                    (TyKind::Slice(el), _) => (el.clone(), None),
                    (TyKind::Infer(Infer::Var(_)), _) => {
                        self.error(
                            Diagnostic::new(RK_CANNOT_INFER, "type annotations needed")
                                .at(span, "the type this slice pattern matches must be known here")
                                .help("give the scrutinee a type: `let x: &[T] = ...`"),
                        );
                        return;
                    }
                    _ => {
                        if !expected.is_error() {
                            let shown = self.show(&expected);
                            self.error(mismatch(&shown, "an array or slice", span));
                        }
                        return;
                    }
                };
                if let Some(n) = len
                    && (n < fixed || (rest.is_none() && n != fixed))
                {
                    self.error(
                        Diagnostic::new(
                            RK_MISMATCHED_TYPES,
                            format!("pattern requires {fixed} elements but the array has {n}"),
                        )
                        .at(span, "wrong length"),
                    );
                }
                for q in before.iter().chain(after) {
                    self.check_pat(*q, &elem, def_ref);
                }
                if let Some(r) = rest {
                    let rest_ty = match len {
                        Some(n) => Ty::array(elem.clone(), n.saturating_sub(fixed)),
                        None => Ty::slice(elem.clone()),
                    };
                    self.check_pat(*r, &rest_ty, def_ref);
                }
            }
            PatKind::Or(alts) => {
                for q in alts {
                    self.check_pat(*q, &expected, def_ref);
                }
            }
        }
    }

    fn unify_pat(&mut self, t: &Ty, expected: &Ty, span: Span) {
        if self.infer.unify(t, expected).is_err() {
            let (a, b) = (self.show(expected), self.show(t));
            self.error(
                mismatch(&a, &b, span).note("a pattern has the type of the value it matches"),
            );
        }
    }

    /// The type of a constant used as a pattern.
    fn pat_const(&mut self, p: PatId, path: &crate::hir::PathExpr<'a>) -> Ty {
        match path.res {
            Some(PathRes { res: Res::Def(d), rest: 0, .. }) => match &self.tcx.items.def(d).kind {
                DefKind::Const { ty: Some(ty), .. } | DefKind::Static { ty, .. } => {
                    let ty = *ty;
                    let mut diags = Vec::new();
                    let mut l = self.tcx.lowerer(d, &mut diags);
                    let t = l.lower(ty);
                    drop(l);
                    for x in diags {
                        self.error(x);
                    }
                    let res = if matches!(self.tcx.items.def(d).kind, DefKind::Static { .. }) {
                        ValueRes::Static(d)
                    } else {
                        ValueRes::Const(Callee { def: d, args: Vec::new().into() })
                    };
                    self.r.pat_consts.insert(p, res);
                    t
                }
                _ => Ty::error(),
            },
            Some(PathRes { res, resolved, rest: 1 }) => {
                // `u32::MAX`, `Self::LIMIT`: an associated constant.
                let base = match res {
                    Res::Prim(pr) => crate::ty::lower::prim_ty(pr),
                    Res::Def(d)
                        if matches!(
                            self.tcx.items.def(d).kind,
                            DefKind::Struct { .. } | DefKind::Enum { .. }
                        ) =>
                    {
                        let a = self.fresh_args(d);
                        Ty::adt(d, a)
                    }
                    Res::SelfTy(_) => self
                        .self_ty_generic
                        .clone()
                        .map(|t| t.subst(&self.args))
                        .unwrap_or_else(Ty::error),
                    _ => Ty::error(),
                };
                let name = path
                    .path
                    .segments
                    .iter()
                    .nth(resolved + 1)
                    .map(|s| s.ident.to_string())
                    .unwrap_or_default();
                match self.lookup_assoc(&base, &name, path.span) {
                    Some(path::Assoc::Item(item, cargs))
                        if matches!(self.tcx.items.def(item).kind, DefKind::Const { .. }) =>
                    {
                        let DefKind::Const { ty: Some(ty), .. } = self.tcx.items.def(item).kind
                        else {
                            return Ty::error();
                        };
                        let mut diags = Vec::new();
                        let mut l = self.tcx.lowerer(item, &mut diags);
                        let t = l.lower(ty);
                        drop(l);
                        for x in diags {
                            self.error(x);
                        }
                        let t = self.normalize(&t.subst(&cargs));
                        self.r
                            .pat_consts
                            .insert(p, ValueRes::Const(Callee { def: item, args: cargs.into() }));
                        t
                    }
                    _ => {
                        self.error(
                            Diagnostic::new(
                                RK_UNKNOWN_NAME,
                                format!("cannot find constant `{}`", path.text()),
                            )
                            .at(path.span, "not found"),
                        );
                        Ty::error()
                    }
                }
            }
            _ => {
                self.error(
                    Diagnostic::new(
                        RK_UNKNOWN_NAME,
                        format!("cannot find `{}` in this scope", path.text()),
                    )
                    .at(path.span, "not found"),
                );
                Ty::error()
            }
        }
    }

    /// The struct or variant a pattern's path names, unified with the scrutinee's type.
    fn pat_path(
        &mut self,
        p: PatId,
        path: &crate::hir::PathExpr<'a>,
        expected: &Ty,
        span: Span,
    ) -> Option<(DefId, Vec<GenericArg>)> {
        let (def, args) = self.struct_path(path, Some(expected))?;
        let adt = self.tcx.items.variant_parent(def).map(|(x, _)| x).unwrap_or(def);
        let ty = Ty::adt(adt, args.clone());
        self.unify_pat(&ty, expected, span);
        let _ = CtorKind::Unit;
        self.r.pat_variants.insert(p, (def, args.clone().into()));
        Some((def, args))
    }
}

/// The field index each sub-pattern of `(a, .., z)` stands for, or `None` when the counts do
/// not fit.
pub fn positions(n_pats: usize, rest: Option<usize>, n_fields: usize) -> Option<Vec<usize>> {
    match rest {
        None => (n_pats == n_fields).then(|| (0..n_pats).collect()),
        Some(r) => {
            if n_pats > n_fields {
                return None;
            }
            let tail = n_pats - r;
            Some((0..r).chain(n_fields - tail..n_fields).collect())
        }
    }
}
