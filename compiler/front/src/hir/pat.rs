//! Patterns: bindings, literals and ranges, structs, tuples and slices, with the names they
//! bind.

use super::build::*;
use super::*;
use crate::codes::*;
use crate::diag::Diagnostic;
use crate::items::{DefKind, Ns, Res};

impl<'t, 'a> Builder<'t, 'a> {
    /// A pattern; the names it binds are added to `bound` (the caller brings them into scope).
    pub(super) fn pat(&mut self, p: &'a syn::Pat, bound: &mut Vec<(String, LocalId)>) -> PatId {
        let span = span_of(p);
        match p {
            syn::Pat::Wild(_) => self.alloc_pat(PatKind::Wild, span),
            syn::Pat::Paren(x) => self.pat(&x.pat, bound),
            syn::Pat::Ident(pi) => {
                let name = pi.ident.to_string();
                if pi.by_ref.is_none() && pi.mutability.is_none() && pi.subpat.is_none() {
                    // An identifier that names a unit struct, unit variant or constant is a
                    // path pattern, as in Rust.
                    let env = self.generic_env();
                    let r = self.items.lookup_lexical(self.scope(), &name, Ns::Value, &env);
                    drop(env);
                    if let Some(Res::Def(d)) = r {
                        let kind = &self.items.def(d).kind;
                        let is_unit = matches!(
                            kind,
                            DefKind::Struct { ctor: crate::items::CtorKind::Unit, .. }
                                | DefKind::Variant { ctor: crate::items::CtorKind::Unit, .. }
                        );
                        let is_const =
                            matches!(kind, DefKind::Const { .. } | DefKind::Static { .. });
                        if is_unit || is_const {
                            let path = PathExpr {
                                res: Some(PathRes { res: Res::Def(d), resolved: 0, rest: 0 }),
                                path: self
                                    .items
                                    .arena
                                    .paths
                                    .alloc(syn::Path::from(pi.ident.clone())),
                                qself: None,
                                scope: self.scope(),
                                span,
                            };
                            return self.alloc_pat(
                                if is_unit { PatKind::Path(path) } else { PatKind::Const(path) },
                                span,
                            );
                        }
                    }
                }
                // One name in the alternatives of an or-pattern is one local.
                let local = match bound.iter().find(|(n, _)| *n == name) {
                    Some((_, l)) => *l,
                    None => {
                        let l = self.new_local(
                            name.clone(),
                            pi.mutability.is_some(),
                            span_of(&pi.ident),
                        );
                        bound.push((name, l));
                        l
                    }
                };
                let sub = pi.subpat.as_ref().map(|(_, s)| self.pat(s, bound));
                let by_ref = pi.by_ref.map(|_| pi.mutability.is_some());
                self.alloc_pat(PatKind::Binding { local, by_ref, sub }, span)
            }
            // A byte string pattern matches a `&[u8; N]` or a `&[u8]` of exactly its bytes:
            // a reference to a slice pattern of byte literals, which types against both.
            syn::Pat::Lit(syn::PatLit { lit: syn::Lit::ByteStr(b), .. }) => {
                let before = b
                    .value()
                    .into_iter()
                    .map(|byte| {
                        self.alloc_pat(
                            PatKind::Lit(Lit::Int(u128::from(byte), Some(IntTy::U8)), false),
                            span,
                        )
                    })
                    .collect();
                let slice =
                    self.alloc_pat(PatKind::Slice { before, rest: None, after: Vec::new() }, span);
                self.alloc_pat(PatKind::Ref(slice, false), span)
            }
            syn::Pat::Lit(l) => match self.lit(&l.lit, span) {
                Some(lit) => {
                    let neg = Self::lit_negative(&l.lit);
                    self.alloc_pat(PatKind::Lit(lit, neg), span)
                }
                None => self.alloc_pat(PatKind::Err, span),
            },
            syn::Pat::Range(r) => {
                let lo = r.start.as_ref().and_then(|e| self.range_bound(e));
                let hi = r.end.as_ref().and_then(|e| self.range_bound(e));
                self.alloc_pat(
                    PatKind::Range {
                        lo,
                        hi,
                        inclusive: matches!(r.limits, syn::RangeLimits::Closed(_)),
                    },
                    span,
                )
            }
            syn::Pat::Tuple(t) => {
                let (pats, rest) = self.pat_list(t.elems.iter(), bound);
                self.alloc_pat(PatKind::Tuple { pats, rest }, span)
            }
            syn::Pat::TupleStruct(ts) => {
                let path = self.path(ts.qself.as_ref(), &ts.path, Ns::Value, span_of(&ts.path));
                let (pats, rest) = self.pat_list(ts.elems.iter(), bound);
                self.alloc_pat(PatKind::TupleStruct { path, pats, rest }, span)
            }
            syn::Pat::Struct(s) => {
                let path = self.path(s.qself.as_ref(), &s.path, Ns::Type, span_of(&s.path));
                let mut fields = Vec::new();
                for f in &s.fields {
                    let name = match &f.member {
                        syn::Member::Named(n) => n.to_string(),
                        syn::Member::Unnamed(i) => i.index.to_string(),
                    };
                    let q = self.pat(&f.pat, bound);
                    fields.push((name, q));
                }
                self.alloc_pat(PatKind::Struct { path, fields, rest: s.rest.is_some() }, span)
            }
            syn::Pat::Path(pp) => {
                let path = self.path(pp.qself.as_ref(), &pp.path, Ns::Value, span);
                // A constant, or (through `Self::` or a type) a variant or associated constant:
                // the type checker tells the last two apart.
                let is_const = matches!(path.res, Some(PathRes { res: Res::Def(d), rest: 0, .. }) if matches!(self.items.def(d).kind, DefKind::Const { .. } | DefKind::Static { .. }));
                self.alloc_pat(
                    if is_const { PatKind::Const(path) } else { PatKind::Path(path) },
                    span,
                )
            }
            syn::Pat::Reference(r) => {
                let inner = self.pat(&r.pat, bound);
                self.alloc_pat(PatKind::Ref(inner, r.mutability.is_some()), span)
            }
            syn::Pat::Slice(s) => {
                let mut before = Vec::new();
                let mut rest = None;
                let mut after = Vec::new();
                for e in &s.elems {
                    let is_rest = matches!(e, syn::Pat::Rest(_))
                        || matches!(e, syn::Pat::Ident(pi) if matches!(pi.subpat.as_ref().map(|(_, s)| s.as_ref()), Some(syn::Pat::Rest(_))));
                    if is_rest && rest.is_none() {
                        let r = match e {
                            syn::Pat::Ident(pi) => {
                                let name = pi.ident.to_string();
                                let l = self.new_local(
                                    name.clone(),
                                    pi.mutability.is_some(),
                                    span_of(&pi.ident),
                                );
                                bound.push((name, l));
                                let by_ref = pi.by_ref.map(|_| pi.mutability.is_some());
                                self.alloc_pat(
                                    PatKind::Binding { local: l, by_ref, sub: None },
                                    span_of(e),
                                )
                            }
                            _ => self.alloc_pat(PatKind::Wild, span_of(e)),
                        };
                        rest = Some(r);
                    } else if rest.is_some() {
                        after.push(self.pat(e, bound));
                    } else {
                        before.push(self.pat(e, bound));
                    }
                }
                self.alloc_pat(PatKind::Slice { before, rest, after }, span)
            }
            syn::Pat::Or(o) => {
                let cases = o.cases.iter().map(|c| self.pat(c, bound)).collect();
                self.alloc_pat(PatKind::Or(cases), span)
            }
            syn::Pat::Type(pt) => {
                // A typed pattern outside `let` and closure parameters is unusual; take the
                // pattern, the type is checked where it is written.
                self.pat(&pt.pat, bound)
            }
            syn::Pat::Rest(_) => self.alloc_pat(PatKind::Wild, span),
            _ => {
                self.error(
                    Diagnostic::new(
                        RK_UNSUPPORTED_PATTERN,
                        "this pattern is not supported in kernels",
                    )
                    .at(span, "rkc does not know this pattern"),
                );
                self.alloc_pat(PatKind::Err, span)
            }
        }
    }

    fn range_bound(&mut self, e: &'a syn::Expr) -> Option<(Lit, bool)> {
        match e {
            syn::Expr::Lit(l) => {
                let neg = Self::lit_negative(&l.lit);
                self.lit(&l.lit, span_of(e)).map(|lit| (lit, neg))
            }
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => match u.expr.as_ref() {
                syn::Expr::Lit(l) => self.lit(&l.lit, span_of(e)).map(|lit| (lit, true)),
                _ => None,
            },
            syn::Expr::Path(p) => {
                // A constant as a range bound: its value is known at compile time.
                let names: Vec<String> =
                    p.path.segments.iter().map(|s| s.ident.to_string()).collect();
                let env = self.generic_env();
                let r = self.items.resolve_path(
                    self.scope(),
                    &names,
                    p.path.leading_colon.is_some(),
                    Ns::Value,
                    &env,
                );
                drop(env);
                // The bound's magnitude and sign: `u128::MAX` does not fit an i128.
                let v = match r {
                    Some(PathRes { res: Res::Def(d), rest: 0, .. }) => {
                        match &self.items.def(d).kind {
                            DefKind::Const { .. } => {
                                crate::ty::consteval::const_item_value(self.items, d)
                                    .ok()
                                    .map(|v| (v.unsigned_abs(), v < 0))
                            }
                            _ => None,
                        }
                    }
                    Some(PathRes {
                        res: Res::Prim(crate::items::resolve::Prim::Int(t)),
                        rest: 1,
                        ..
                    }) => match names.last().map(String::as_str) {
                        Some("MAX") => Some((t.range().1, false)),
                        Some("MIN") => Some((t.range().0.unsigned_abs(), t.range().0 < 0)),
                        _ => None,
                    },
                    _ => None,
                };
                match v {
                    Some((magnitude, negative)) => Some((Lit::Int(magnitude, None), negative)),
                    None => {
                        self.error(
                            Diagnostic::new(
                                RK_UNSUPPORTED_PATTERN,
                                "this range bound is not a constant rkc can evaluate",
                            )
                            .at(span_of(e), "use a literal or a `const`"),
                        );
                        None
                    }
                }
            }
            _ => {
                self.error(
                    Diagnostic::new(
                        RK_UNSUPPORTED_PATTERN,
                        "range bounds must be literals or constants",
                    )
                    .at(span_of(e), "here"),
                );
                None
            }
        }
    }

    fn pat_list(
        &mut self,
        elems: impl Iterator<Item = &'a syn::Pat>,
        bound: &mut Vec<(String, LocalId)>,
    ) -> (Vec<PatId>, Option<usize>) {
        let mut pats = Vec::new();
        let mut rest = None;
        for e in elems {
            if matches!(e, syn::Pat::Rest(_)) && rest.is_none() {
                rest = Some(pats.len());
            } else {
                pats.push(self.pat(e, bound));
            }
        }
        (pats, rest)
    }
}
