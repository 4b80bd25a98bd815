//! Places: expressions assigned to or borrowed, and whether they may be mutated.

use super::expr::*;
use super::*;
use crate::hir::{ExprKind, FieldName, UnOp};

impl<'c, 't, 'a> FnCtxt<'c, 't, 'a> {
    /// Checks an expression used as a place (assigned to, borrowed).
    pub fn check_place(&mut self, e: ExprId) -> Ty {
        self.check_expr(e, None)
    }

    /// Reports an assignment or `&mut` borrow of a place that is not mutable, in rustc's words
    /// (E0070, E0384, E0594, E0596).
    pub fn check_mutable_place(&mut self, e: ExprId, what: &str) {
        if self.trusted {
            return;
        }
        // A place whose type is already an error (`d[0]` where `d` came from a method that
        // was not found) was reported; its mutability would only be a second error.
        if let Some(t) = self.expr_ty[e.0 as usize].clone()
            && self.shallow(&t).is_error()
        {
            return;
        }
        let assign = what == "assign to";
        let at = self.span(e);
        let mutability = self.place_mutability(e);
        // The place's text is for the messages only: it may be a snippet of the source, which
        // costs a pass over the file up to it.
        let place = match mutability {
            PlaceMut::Mutable | PlaceMut::Unknown | PlaceMut::NotPlace => String::new(),
            _ => self.place_text(e),
        };
        match mutability {
            PlaceMut::Mutable | PlaceMut::Unknown => {}
            PlaceMut::NotPlace if assign => {
                self.error(
                    Diagnostic::new(RK_INVALID_ASSIGN, "invalid left-hand side of assignment")
                        .at(at, "cannot assign to this expression"),
                );
            }
            PlaceMut::NotPlace => {}
            PlaceMut::ImmutableLocal(l) => {
                let name = self.body.local(l).name.clone();
                let direct = matches!(self.body.expr(e).kind, ExprKind::Path(_));
                let d = match (assign, direct) {
                    (true, true) => Diagnostic::new(RK_ASSIGN_IMMUTABLE, format!("cannot assign twice to immutable variable `{name}`"))
                        .at(at, "cannot assign twice to immutable variable"),
                    (true, false) => Diagnostic::new(RK_ASSIGN_IMMUTABLE, format!("cannot assign to `{place}`, as `{name}` is not declared as mutable"))
                        .at(at, "cannot assign"),
                    (false, _) => Diagnostic::new(RK_ASSIGN_IMMUTABLE, format!("cannot borrow `{place}` as mutable, as `{name}` is not declared as mutable"))
                        .at(at, "cannot borrow as mutable"),
                };
                self.error(d.help(format!("declare it mutable: `let mut {name}`")));
            }
            PlaceMut::BehindConst(ptr) => {
                let kind = if ptr { "`*const` pointer" } else { "`&` reference" };
                let help = if ptr {
                    "declare the kernel parameter as `*mut`"
                } else {
                    "use a `&mut` reference"
                };
                self.error(
                    Diagnostic::new(
                        RK_ASSIGN_THROUGH_CONST,
                        format!("cannot {what} `{place}`, which is behind a {kind}"),
                    )
                    .at(
                        at,
                        if assign { "cannot assign".to_string() } else { format!("cannot {what}") },
                    )
                    .help(help),
                );
            }
            PlaceMut::NoDerefMut(t) => self.no_deref_mut_error(&t, what, at),
            PlaceMut::Static(name) => {
                let direct = matches!(self.body.expr(e).kind, ExprKind::Path(_));
                let msg = match (assign, direct) {
                    (true, true) => format!("cannot assign to immutable static item `{name}`"),
                    (true, false) => format!(
                        "cannot assign to `{place}`, as `{name}` is an immutable static item"
                    ),
                    (false, _) => format!(
                        "cannot borrow `{place}` as mutable, as `{name}` is an immutable static item"
                    ),
                };
                self.error(
                    Diagnostic::new(RK_ASSIGN_IMMUTABLE, msg)
                        .at(at, if assign { "cannot assign" } else { "cannot borrow as mutable" })
                        .help("a `static` is read-only on the GPU; copy it into a `let mut` local to change it"),
                );
            }
        }
    }

    /// A place as rustc's borrow errors write it: `counts[_]`, `p.x`, `*out`.
    fn place_text(&self, e: ExprId) -> String {
        match &self.body.expr(e).kind {
            ExprKind::Index(base, _) => format!("{}[_]", self.place_text(*base)),
            ExprKind::Field(base, FieldName::Named(f)) => format!("{}.{f}", self.place_text(*base)),
            ExprKind::Field(base, FieldName::Index(k)) => format!("{}.{k}", self.place_text(*base)),
            ExprKind::Unary(UnOp::Deref, inner) => format!("*{}", self.place_text(*inner)),
            _ => crate::diag::snippet(self.tcx.source, self.span(e)).to_string(),
        }
    }

    /// The mutability of what `base` reaches through its builtin auto-derefs `adjusts`: the
    /// last reference's.
    fn deref_mutability(&mut self, base: ExprId, adjusts: &[Adjust]) -> PlaceMut {
        let mut t = self.expr_ty[base.0 as usize].clone().unwrap_or_else(Ty::error);
        let mut last = None;
        for a in adjusts {
            match a {
                Adjust::Overloaded { target, .. } => {
                    last = None;
                    t = target.clone();
                }
                _ => {
                    let s = self.shallow(&t);
                    match s.kind() {
                        TyKind::Ref(x, m) => {
                            last = Some(*m);
                            t = x.clone();
                        }
                        _ => break,
                    }
                }
            }
        }
        match last {
            Some(true) => PlaceMut::Mutable,
            Some(false) => PlaceMut::BehindConst(false),
            None => PlaceMut::Unknown,
        }
    }

    fn place_mutability(&mut self, e: ExprId) -> PlaceMut {
        let body = self.body.clone();
        match &body.expr(e).kind {
            ExprKind::Path(_) => match self.r.paths.get(&e) {
                Some(ValueRes::Local(l)) => {
                    let l = *l;
                    let t = self.local_ty[l.0 as usize].clone().map(|t| self.shallow(&t));
                    // A `&mut T` local may be written through; the local itself only if `mut`.
                    let _ = t;
                    if body.local(l).mutable || self.local_declared_late(l) {
                        PlaceMut::Mutable
                    } else {
                        PlaceMut::ImmutableLocal(l)
                    }
                }
                Some(ValueRes::Static(d)) => PlaceMut::Static(self.tcx.items.name(*d).to_string()),
                Some(ValueRes::Const(_) | ValueRes::Fn(_)) => PlaceMut::NotPlace,
                _ => PlaceMut::Unknown,
            },
            ExprKind::Lit(..)
            | ExprKind::Binary(..)
            | ExprKind::Unary(UnOp::Neg | UnOp::Not, _)
            | ExprKind::Call(..)
            | ExprKind::MethodCall { .. }
            | ExprKind::Cast(..)
            | ExprKind::Closure { .. } => PlaceMut::NotPlace,
            ExprKind::Unary(UnOp::Deref, inner) => {
                let t = self.expr_ty[inner.0 as usize].clone().unwrap_or_else(Ty::error);
                let t = self.shallow(&t);
                match t.kind() {
                    TyKind::Ref(_, true) | TyKind::Ptr(_, true) => PlaceMut::Mutable,
                    TyKind::Ref(_, false) => PlaceMut::BehindConst(false),
                    TyKind::Ptr(_, false) => PlaceMut::BehindConst(true),
                    _ => PlaceMut::Unknown,
                }
            }
            ExprKind::Field(base, _) | ExprKind::Index(base, _) => {
                // Through the base's auto-derefs: the last reference decides; a `Deref` impl
                // is used mutably through `DerefMut`, which borrows what it dereferences.
                let adjusts = self.r.adjust.get(base).cloned().unwrap_or_default();
                if let Some(k) =
                    adjusts.iter().rposition(|a| matches!(a, Adjust::Overloaded { .. }))
                {
                    if let Some(t) = self.deref_mut_missing(&adjusts[..=k], self.span(e)) {
                        return PlaceMut::NoDerefMut(t);
                    }
                    if adjusts[..k].iter().any(Adjust::is_deref) {
                        return self.deref_mutability(*base, &adjusts[..k]);
                    }
                    return self.place_mutability(*base);
                }
                if adjusts.iter().any(Adjust::is_deref) {
                    return self.deref_mutability(*base, &adjusts);
                }
                if matches!(body.expr(e).kind, ExprKind::Index(..))
                    && self.r.callees.contains_key(&e)
                {
                    return PlaceMut::Unknown;
                }
                let bt = self.expr_ty[base.0 as usize].clone().unwrap_or_else(Ty::error);
                let bt = self.shallow(&bt);
                match bt.kind() {
                    TyKind::Ref(_, true) => PlaceMut::Mutable,
                    TyKind::Ref(_, false) => PlaceMut::BehindConst(false),
                    _ => self.place_mutability(*base),
                }
            }
            _ => PlaceMut::Unknown,
        }
    }
}

/// Whether a place may be mutated, and if not, why.
enum PlaceMut {
    Mutable,
    Unknown,
    /// A value, not a place: a constant, a literal, a call's result.
    NotPlace,
    ImmutableLocal(LocalId),
    /// Behind a `*const` (`true`) or a `&` (`false`).
    BehindConst(bool),
    Static(String),
    /// Through a `Deref` impl of this type, without `DerefMut`.
    NoDerefMut(Ty),
}
