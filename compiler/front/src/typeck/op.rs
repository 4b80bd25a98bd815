//! Casts and operators: unary, binary and compound assignment, on the builtin numeric types
//! directly and through the operator traits otherwise.

use super::expr::*;
use super::*;
use crate::hir::{BinOp, ExprKind, UnOp};
use crate::ty::Infer;
use rkc_rk::IntTy;

impl<'c, 't, 'a> FnCtxt<'c, 't, 'a> {
    pub(super) fn check_cast(
        &mut self,
        inner: ExprId,
        ty: crate::hir::TyRef<'a>,
        span: Span,
    ) -> Ty {
        let target = self.lower_ty(ty);
        // A literal cast to a numeric type takes no hint from it (`1 as f32` is an `i32` cast),
        // as in rustc; other expressions are checked without expectation too.
        let t = self.check_expr(inner, None);
        let from = self.shallow(&t);
        let to = self.shallow(&target);
        if from.is_error() || to.is_error() {
            return target;
        }
        let ok = match (from.kind(), to.kind()) {
            (
                TyKind::Int(_) | TyKind::Float(_) | TyKind::Infer(Infer::Int(_) | Infer::Float(_)),
                TyKind::Int(_) | TyKind::Float(_),
            ) => true,
            (TyKind::Bool | TyKind::Char, TyKind::Int(_)) => true,
            (TyKind::Int(IntTy::U8) | TyKind::Infer(Infer::Int(_)), TyKind::Char) => {
                let _ = self.infer.unify(&from, &Ty::int(IntTy::U8));
                true
            }
            (TyKind::Ptr(..) | TyKind::Ref(..), TyKind::Ptr(..)) => true,
            (
                TyKind::Ptr(..),
                TyKind::Int(IntTy::Usize | IntTy::U64 | IntTy::Isize | IntTy::I64),
            ) => true,
            (TyKind::Int(_) | TyKind::Infer(Infer::Int(_)), TyKind::Ptr(..)) => true,
            (TyKind::Adt(d, _), TyKind::Int(_)) if self.is_fieldless_enum(*d) => true,
            (TyKind::Never, _) => true,
            _ => {
                // A cast to its own type is allowed (`x as f32` where `x: f32`).
                self.infer.can(|i| i.unify(&from, &to).ok())
            }
        };
        if !ok {
            let (a, b) = (self.show(&from), self.show(&to));
            // rustc's two errors: E0605 for a value that is not primitive, E0606 for the rest.
            let primitive = |t: &Ty| {
                matches!(
                    t.kind(),
                    TyKind::Bool
                        | TyKind::Char
                        | TyKind::Int(_)
                        | TyKind::Float(_)
                        | TyKind::Ptr(..)
                        | TyKind::Ref(..)
                        | TyKind::Infer(_)
                )
            };
            let d = if primitive(&from) && primitive(&to) {
                Diagnostic::new(RK_INVALID_CAST, format!("casting `{a}` as `{b}` is invalid"))
                    .at(span, "an invalid `as` cast")
            } else {
                Diagnostic::new(RK_INVALID_CAST, format!("non-primitive cast: `{a}` as `{b}`")).at(
                    span,
                    "an `as` expression can only be used to convert between primitive types",
                )
            };
            self.error(d.note("`as` converts between numeric types, from `bool`, `char` and fieldless enums to integers, and between pointers"));
        }
        target
    }

    pub fn is_fieldless_enum(&self, d: DefId) -> bool {
        match &self.tcx.items.def(d).kind {
            DefKind::Enum { variants, .. } => {
                variants.iter().all(|v| self.tcx.items.fields(*v).is_empty())
            }
            _ => false,
        }
    }

    pub(super) fn check_unary(
        &mut self,
        e: ExprId,
        op: UnOp,
        inner: ExprId,
        expected: Option<&Ty>,
    ) -> Ty {
        let span = self.span(e);
        match op {
            UnOp::Deref => {
                let t = self.check_expr(inner, None);
                let t = self.structurally_resolve(&t, span);
                match t.kind() {
                    TyKind::Ref(x, _) => x.clone(),
                    TyKind::Ptr(x, _) => {
                        self.require_unsafe(span, "dereference of raw pointer");
                        x.clone()
                    }
                    TyKind::Error => Ty::error(),
                    _ => match self.overloaded_deref(e, &t, span) {
                        Some(x) => x,
                        None => {
                            let shown = self.show(&t);
                            self.error(
                                Diagnostic::new(
                                    RK_MISMATCHED_TYPES,
                                    format!("type `{shown}` cannot be dereferenced"),
                                )
                                .at(span, "not a reference or pointer"),
                            );
                            Ty::error()
                        }
                    },
                }
            }
            UnOp::Neg => {
                if let ExprKind::Lit(lit) = &self.body.clone().expr(inner).kind {
                    let t = self.check_lit(inner, lit, expected, true);
                    self.record(inner, t.clone());
                    return self.check_neg_type(e, &t, span);
                }
                let t = self.check_expr(inner, expected);
                self.check_neg_type(e, &t, span)
            }
            UnOp::Not => {
                let t = self.check_expr(inner, expected);
                let s = self.shallow(&t);
                match s.kind() {
                    TyKind::Bool
                    | TyKind::Int(_)
                    | TyKind::Infer(Infer::Int(_))
                    | TyKind::Error => s,
                    _ => self.overloaded_unary(e, "Not", "not", inner, &s, span),
                }
            }
        }
    }

    fn check_neg_type(&mut self, e: ExprId, t: &Ty, span: Span) -> Ty {
        let s = self.shallow(t);
        match s.kind() {
            TyKind::Int(i) if !i.is_signed() => {
                self.error(
                    Diagnostic::new(
                        RK_MISMATCHED_TYPES,
                        format!("cannot apply unary operator `-` to type `{}`", i.name()),
                    )
                    .at(span, "unsigned values cannot be negated")
                    .help("use `wrapping_neg()` or a signed type"),
                );
                Ty::error()
            }
            TyKind::Int(_)
            | TyKind::Float(_)
            | TyKind::Infer(Infer::Int(_) | Infer::Float(_))
            | TyKind::Error => s,
            _ => {
                let ExprKind::Unary(_, inner) = self.body.expr(e).kind else { return Ty::error() };
                self.overloaded_unary(e, "Neg", "neg", inner, &s, span)
            }
        }
    }

    pub fn require_unsafe(&mut self, span: Span, what: &str) {
        if self.unsafe_depth == 0 && !self.trusted {
            self.error(
                Diagnostic::new(RK_REQUIRES_UNSAFE, format!("{what} is unsafe and requires unsafe block"))
                    .at(span, what.to_string())
                    .help("wrap the statement in `unsafe { ... }` and state why it is sound in a `// SAFETY:` comment")
                    .note("rustc rejects this too (E0133): kernels are ordinary Rust"),
            );
        }
    }

    pub(super) fn check_binary(
        &mut self,
        e: ExprId,
        op: BinOp,
        l: ExprId,
        r: ExprId,
        expected: Option<&Ty>,
    ) -> Ty {
        let span = self.span(e);
        if op.is_lazy() {
            self.check_expr_coercible(l, &Ty::bool());
            self.check_expr_coercible(r, &Ty::bool());
            return Ty::bool();
        }
        if !self.trusted {
            self.require_operator_bound(op, l, span);
        }
        let lexp = if op.is_comparison() || op.is_shift() { None } else { expected };
        let lt = self.check_expr(l, lexp);
        // An operand whose type is still a variable may be known from pending obligations (the
        // element type behind `slice.get(i)`, a projection such as `T::Elem`): rustc resolves
        // them before it decides whether the operator is built in, and so does this.
        let ls = self.resolve_var(&lt);
        let builtin_lhs = is_builtin_operand(&ls);
        let rexp = if op.is_shift() { None } else { Some(ls.clone()) };
        let rt = if builtin_lhs || ls.is_infer() {
            self.check_expr(r, rexp.as_ref())
        } else {
            self.check_expr(r, None)
        };
        let rs = self.resolve_var(&rt);
        if ls.is_error() || rs.is_error() {
            return if op.is_comparison() { Ty::bool() } else { Ty::error() };
        }
        let builtin = builtin_lhs && is_builtin_operand(&rs)
            || (ls.is_infer() && is_builtin_operand(&rs))
            || (rs.is_infer() && builtin_lhs);
        if builtin && self.builtin_binary(op, &ls, &rs) {
            if op.is_shift() {
                return ls;
            }
            if self.infer.unify(&ls, &rs).is_err() {
                let (a, b) = (self.show(&ls), self.show(&rs));
                let mut d = mismatch(&a, &b, self.span(r));
                if let (TyKind::Int(_) | TyKind::Float(_), TyKind::Int(_) | TyKind::Float(_)) =
                    (ls.kind(), rs.kind())
                {
                    d = d.help(format!("convert with `as {a}`"));
                }
                self.error(d);
                return if op.is_comparison() { Ty::bool() } else { Ty::error() };
            }
            return if op.is_comparison() { Ty::bool() } else { ls };
        }
        self.overloaded_binary(e, op, l, r, &ls, &rs, span)
    }

    /// rustc checks a generic body once, with its parameters' bounds as all it knows of
    /// them; rkc checks each instance with the types substituted, where `a > b` on `u32`s
    /// holds whatever the bounds say. This catches the common case that would otherwise pass:
    /// the left operand is a parameter of the function whose declared type is a type
    /// parameter `T` (or `&T`) with no bound for the operator's trait, directly, through a
    /// supertrait or a where-clause (rustc's E0369).
    fn require_operator_bound(&mut self, op: BinOp, l: ExprId, span: Span) {
        let lang = match op {
            BinOp::Add => "Add",
            BinOp::Sub => "Sub",
            BinOp::Mul => "Mul",
            BinOp::Div => "Div",
            BinOp::Rem => "Rem",
            BinOp::BitAnd => "BitAnd",
            BinOp::BitOr => "BitOr",
            BinOp::BitXor => "BitXor",
            BinOp::Shl => "Shl",
            BinOp::Shr => "Shr",
            BinOp::Eq | BinOp::Ne => "PartialEq",
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => "PartialOrd",
            BinOp::And | BinOp::Or => return,
        };
        let Some(param) = self.generic_param_operand(l) else { return };
        let Some(needed) = self.tcx.items.lang(lang) else { return };
        if self.param_bounds(param).contains(&needed) {
            return;
        }
        let name = self.param_name(param);
        self.error(
            Diagnostic::new(
                RK_UNSATISFIED_BOUND,
                format!("binary operation `{}` cannot be applied to type `{name}`", op.token()),
            )
            .at(span, format!("`{name}` is a type parameter without a `{lang}` bound"))
            .help(format!("add the bound: `{name}: {lang}` (rustc's E0369)")),
        );
    }

    /// The type parameter an operand's declared type is, when the operand is a parameter of
    /// the function typed `T` or `&T` (`&mut T`): what rustc's generic check knows of it.
    pub(super) fn generic_param_operand(&self, e: ExprId) -> Option<u32> {
        self.generic_param_declared(e).map(|(param, _)| param)
    }

    /// `generic_param_operand`'s parameter with how it is declared: `T` (`None`), `&T`
    /// (`Some(false)`) or `&mut T` (`Some(true)`).
    /// Also through explicit dereferences and fields of such a parameter: `**self` in a
    /// method of `impl<T> Trait for &T` is a `T`.
    pub(super) fn generic_param_declared(&self, e: ExprId) -> Option<(u32, Option<bool>)> {
        let declared = self.declared_generic_ty(e)?;
        match declared.kind() {
            TyKind::Param(i) => Some((*i, None)),
            TyKind::Ref(inner, m) => match inner.kind() {
                TyKind::Param(i) => Some((*i, Some(*m))),
                _ => None,
            },
            _ => None,
        }
    }

    /// The traits a type parameter of the current item is bounded by: its bounds and
    /// where-clauses (the item's and its parents'), a trait's own `Self`, with supertraits.
    pub(super) fn param_bounds(&self, param: u32) -> Vec<DefId> {
        let preds = self.tcx.predicates(self.def);
        let mut bounds: Vec<DefId> = preds
            .iter()
            .filter(|(t, _)| matches!(t.kind(), TyKind::Param(i) if *i == param))
            .map(|(_, b)| b.trait_id)
            .collect();
        if let crate::items::Container::Trait(t) = self.tcx.items.container(self.def)
            && param == 0
        {
            bounds.push(t);
        }
        self.tcx.with_supertraits(bounds)
    }

    /// A type parameter's name, for messages.
    pub(super) fn param_name(&self, param: u32) -> String {
        self.tcx
            .items
            .all_generic_params(self.def)
            .iter()
            .find(|q| q.index == param)
            .map(|q| q.name.clone())
            .unwrap_or_else(|| "T".into())
    }

    /// Whether `op` is built in for these operand types (rustc's rules: both sides the same
    /// numeric type, `bool` for the bitwise operators and comparisons, integers of any types
    /// for shifts, and comparisons of `char`s and raw pointers).
    fn builtin_binary(&mut self, op: BinOp, l: &Ty, r: &Ty) -> bool {
        let num = |t: &Ty| t.is_numeric() || t.is_infer();
        match op {
            BinOp::Shl | BinOp::Shr => (l.is_integral() || l.is_infer()) && r.is_integral(),
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => {
                l.is_integral()
                    || matches!(l.kind(), TyKind::Bool)
                    || l.is_infer() && (r.is_integral() || matches!(r.kind(), TyKind::Bool))
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
                num(l)
                    && num(r)
                    && !(l.is_infer()
                        && r.is_infer()
                        && !matches!(l.kind(), TyKind::Infer(Infer::Int(_) | Infer::Float(_))))
            }
            _ => true,
        }
    }

    pub(super) fn check_assign_op(&mut self, e: ExprId, op: BinOp, l: ExprId, r: ExprId) -> Ty {
        let span = self.span(e);
        let lt = self.check_place(l);
        let ls = self.resolve_var(&lt);
        let rexp = if op.is_shift() { None } else { Some(ls.clone()) };
        let rt = if is_builtin_operand(&ls) {
            self.check_expr(r, rexp.as_ref())
        } else {
            self.check_expr(r, None)
        };
        let rs = self.resolve_var(&rt);
        self.check_mutable_place(l, "assign to");
        if ls.is_error() || rs.is_error() {
            return Ty::unit();
        }
        if is_builtin_operand(&ls)
            && (is_builtin_operand(&rs) || rs.is_infer())
            && self.builtin_binary(op, &ls, &rs)
        {
            if !op.is_shift() && self.infer.unify(&ls, &rs).is_err() {
                let (a, b) = (self.show(&ls), self.show(&rs));
                let mut d = Diagnostic::new(
                    RK_MISMATCHED_TYPES,
                    format!("cannot apply `{}=` to `{a}` and `{b}`", op.token()),
                )
                .at(span, format!("`{a}` {}= `{b}`", op.token()));
                if let (TyKind::Int(_) | TyKind::Float(_), TyKind::Int(_) | TyKind::Float(_)) =
                    (ls.kind(), rs.kind())
                {
                    d = d.help(format!("convert the right side with `as {a}`"));
                }
                self.error(d);
            }
            return Ty::unit();
        }
        self.overloaded_assign_op(e, op, l, r, &ls, &rs, span);
        Ty::unit()
    }
}
