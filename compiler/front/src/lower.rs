//! Lowering of one kernel's syn tree to an rk function: name resolution, type inference and
//! checking (with rustc's literal rules), the unsafe check, and bounds checks on indexing.

use crate::codes::*;
use crate::diag::{Diagnostic, Span, snippet};
use rkc_rk::{
    BinOp, CmpOp, Dim, FloatTy, Func, Geometry, IntTy, Literal, Loc, Op, OpKind, Region, Type,
    ValueId,
};
use std::collections::HashMap;
use syn::spanned::Spanned;

/// The error marker of a construct that was already reported; lowering of the enclosing
/// statement stops, the rest of the function goes on so that several errors can be shown.
#[derive(Debug)]
pub struct Reported;

type Lowered<T> = Result<T, Reported>;

/// A lowered expression: its type and, unless it is `()`, its value.
#[derive(Clone, Debug)]
struct Val {
    id: Option<ValueId>,
    ty: Type,
}

impl Val {
    fn unit() -> Val {
        Val {
            id: None,
            ty: Type::Unit,
        }
    }
}

fn span_of(node: &impl Spanned) -> Span {
    Span::from_pm2(node.span())
}

/// Resolves a syn type to an rk type, or reports why rkc cannot take it.
pub fn lower_type(ty: &syn::Type, source: &str, diags: &mut Vec<Diagnostic>) -> Lowered<Type> {
    let unsupported = |diags: &mut Vec<Diagnostic>, what: &str| {
        diags.push(
            Diagnostic::new(RK_UNSUPPORTED_TYPE, format!("the type `{}` is not supported in kernels", snippet(source, span_of(ty))))
                .at(span_of(ty), what.to_string())
                .note("kernels take scalars (`bool`, integers, `f32`, `f64`) and raw pointers to scalars or arrays of them"),
        );
        Reported
    };
    match ty {
        syn::Type::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
            let seg = &p.path.segments[0];
            if !seg.arguments.is_empty() {
                return Err(unsupported(diags, "generic types cannot be passed to a kernel"));
            }
            let name = seg.ident.to_string();
            Ok(match name.as_str() {
                "bool" => Type::Bool,
                "f32" => Type::Float(FloatTy::F32),
                "f64" => Type::Float(FloatTy::F64),
                other => match IntTy::from_name(other) {
                    Some(t) => Type::Int(t),
                    None => return Err(unsupported(diags, "not a type rkc knows")),
                },
            })
        }
        syn::Type::Ptr(p) => {
            let pointee = lower_type(&p.elem, source, diags)?;
            if !(pointee.is_scalar() || matches!(pointee, Type::Array { .. })) {
                return Err(unsupported(diags, "pointers must point at scalars or arrays"));
            }
            Ok(Type::ptr(p.mutability.is_some(), pointee))
        }
        syn::Type::Array(a) => {
            let elem = lower_type(&a.elem, source, diags)?;
            if !elem.is_scalar() {
                return Err(unsupported(diags, "array elements must be scalars"));
            }
            let len = match &a.len {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(n),
                    ..
                }) => n.base10_parse::<u64>().ok(),
                _ => None,
            };
            match len {
                Some(len) => Ok(Type::Array {
                    elem: Box::new(elem),
                    len,
                }),
                None => Err(unsupported(diags, "array lengths must be integer literals")),
            }
        }
        syn::Type::Tuple(t) if t.elems.is_empty() => Ok(Type::Unit),
        syn::Type::Paren(p) => lower_type(&p.elem, source, diags),
        syn::Type::Reference(_) => Err(unsupported(diags, "references are not supported yet; use a raw pointer")),
        syn::Type::TraitObject(_) | syn::Type::ImplTrait(_) => {
            Err(unsupported(diags, "trait objects cannot be offloaded"))
        }
        _ => Err(unsupported(diags, "not supported in kernels")),
    }
}

/// Lowers one kernel (already known to have a valid signature) into an rk function.
pub struct FnLowerer<'d> {
    func: Func,
    regions: Vec<Region>,
    scopes: Vec<HashMap<String, Option<Val>>>,
    unsafe_depth: u32,
    source: &'d str,
    diags: &'d mut Vec<Diagnostic>,
}

impl<'d> FnLowerer<'d> {
    pub fn new(func: Func, params: Vec<(String, ValueId, Type)>, source: &'d str, diags: &'d mut Vec<Diagnostic>) -> Self {
        let mut scope = HashMap::new();
        for (name, id, ty) in params {
            scope.insert(name, Some(Val { id: Some(id), ty }));
        }
        FnLowerer {
            func,
            regions: vec![Region::default()],
            scopes: vec![scope],
            unsafe_depth: 0,
            source,
            diags,
        }
    }

    /// Lowers the body and returns the finished function.
    pub fn finish(mut self, body: &syn::Block, loc: Loc) -> Lowered<Func> {
        let before = self.diags.len();
        let _ = self.block(body, Some(&Type::Unit));
        if self.diags.len() > before {
            return Err(Reported);
        }
        let mut region = self.regions.pop().unwrap_or_default();
        if region.falls_through() {
            region.ops.push(Op {
                kind: OpKind::Return,
                operands: vec![],
                results: vec![],
                regions: vec![],
                loc,
            });
        }
        self.func.body = region;
        Ok(self.func)
    }

    fn error(&mut self, d: Diagnostic) -> Reported {
        self.diags.push(d);
        Reported
    }

    fn current(&mut self) -> &mut Region {
        // The region stack is never empty while lowering: `finish` pops the last one.
        let n = self.regions.len();
        &mut self.regions[n - 1]
    }

    fn terminated(&self) -> bool {
        self.regions
            .last()
            .is_some_and(|r| !r.falls_through())
    }

    fn emit(&mut self, kind: OpKind, operands: &[ValueId], result: Option<Type>, span: Span) -> Option<ValueId> {
        let result = result.map(|t| self.func.new_value(t));
        let loc = Loc {
            line: span.line(),
            col: span.col(),
        };
        self.current().ops.push(Op {
            kind,
            operands: operands.to_vec(),
            results: result.into_iter().collect(),
            regions: vec![],
            loc,
        });
        result
    }

    /// Emits an op with one result and returns it.
    fn emit1(&mut self, kind: OpKind, operands: &[ValueId], ty: Type, span: Span) -> Val {
        let id = self.emit(kind, operands, Some(ty.clone()), span);
        Val { id, ty }
    }

    fn lookup(&self, name: &str) -> Option<&Option<Val>> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    fn require_unsafe(&mut self, span: Span, what: &str) -> Lowered<()> {
        if self.unsafe_depth > 0 {
            return Ok(());
        }
        Err(self.error(
            Diagnostic::new(RK_REQUIRES_UNSAFE, format!("{what} is unsafe and requires unsafe block"))
                .at(span, what.to_string())
                .note("rustc rejects this too (E0133): kernels are ordinary Rust")
                .help("wrap the statement in `unsafe { ... }` and state why it is sound in a `// SAFETY:` comment"),
        ))
    }

    // ----- statements and blocks -------------------------------------------------------------

    fn block(&mut self, block: &syn::Block, expected: Option<&Type>) -> Lowered<Val> {
        self.scopes.push(HashMap::new());
        let result = self.block_stmts(&block.stmts, expected);
        self.scopes.pop();
        result
    }

    fn block_stmts(&mut self, stmts: &[syn::Stmt], expected: Option<&Type>) -> Lowered<Val> {
        let mut failed = false;
        let mut value = Val::unit();
        for (i, stmt) in stmts.iter().enumerate() {
            if self.terminated() {
                // Code after `return` is unreachable; rustc warns and so do we not lower it.
                break;
            }
            let last = i + 1 == stmts.len();
            let r = match stmt {
                syn::Stmt::Local(local) => self.local(local).map(|_| Val::unit()),
                syn::Stmt::Expr(e, None) if last => self.expr(e, expected),
                syn::Stmt::Expr(e, _) => self.expr(e, None).map(|_| Val::unit()),
                syn::Stmt::Item(item) => Err(self.error(
                    Diagnostic::new(RK_UNSUPPORTED_ITEM, "items inside kernel bodies are not supported")
                        .at(span_of(item), "declare this outside the kernel"),
                )),
                syn::Stmt::Macro(m) => Err(self.error(
                    Diagnostic::new(RK_UNSUPPORTED_EXPR, format!("the macro `{}!` is not supported in kernels", snippet(self.source, span_of(&m.mac.path))))
                        .at(span_of(&m.mac), "not supported in kernels"),
                )),
            };
            match r {
                Ok(v) => value = v,
                Err(Reported) => failed = true,
            }
        }
        if failed { Err(Reported) } else { Ok(value) }
    }

    fn local(&mut self, local: &syn::Local) -> Lowered<()> {
        let (name, mutable, ascribed) = match &local.pat {
            syn::Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => {
                (p.ident.to_string(), p.mutability.is_some(), None)
            }
            syn::Pat::Type(pt) => match pt.pat.as_ref() {
                syn::Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => {
                    (p.ident.to_string(), p.mutability.is_some(), Some(&pt.ty))
                }
                _ => return Err(self.unsupported_pattern(&pt.pat)),
            },
            other => return Err(self.unsupported_pattern(other)),
        };
        if mutable {
            self.scopes.last_mut().map(|s| s.insert(name.clone(), None));
            return Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_STMT, "mutable local variables are not supported yet")
                    .at(span_of(&local.pat), "declared `mut` here")
                    .help("bind a new immutable name for each value (shadowing) instead"),
            ));
        }
        let expected = match ascribed {
            Some(t) => Some(lower_type(t, self.source, self.diags)?),
            None => None,
        };
        let Some(init) = &local.init else {
            return Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_STMT, "a `let` without a value is not supported")
                    .at(span_of(local), "give the variable its value here"),
            ));
        };
        if init.diverge.is_some() {
            return Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_STMT, "`let ... else` is not supported in kernels")
                    .at(span_of(local), "not supported"),
            ));
        }
        let value = self.expr(&init.expr, expected.as_ref());
        let value = match (value, &expected) {
            (Ok(v), Some(t)) if v.ty != *t => {
                Err(self.mismatch(t, &v.ty, span_of(&init.expr)))
            }
            (v, _) => v,
        };
        let scope = self.scopes.last_mut();
        match value {
            Ok(v) => {
                scope.map(|s| s.insert(name, Some(v)));
                Ok(())
            }
            Err(r) => {
                // Poison the name so that its uses do not report a second, confusing error.
                scope.map(|s| s.insert(name, None));
                Err(r)
            }
        }
    }

    fn unsupported_pattern(&mut self, pat: &syn::Pat) -> Reported {
        self.error(
            Diagnostic::new(RK_UNSUPPORTED_PATTERN, "this pattern is not supported in kernels yet")
                .at(span_of(pat), "only a plain name can be bound here"),
        )
    }

    fn mismatch(&mut self, expected: &Type, found: &Type, span: Span) -> Reported {
        self.error(
            Diagnostic::new(RK_MISMATCHED_TYPES, "mismatched types")
                .at(span, format!("expected `{expected}`, found `{found}`"))
                .help(if expected.is_numeric() && found.is_numeric() {
                    format!("convert with `as {expected}`")
                } else {
                    "Rust does not convert between these types implicitly".to_string()
                }),
        )
    }

    // ----- expressions -----------------------------------------------------------------------

    fn expr(&mut self, e: &syn::Expr, expected: Option<&Type>) -> Lowered<Val> {
        let span = span_of(e);
        match e {
            syn::Expr::Lit(l) => self.literal(&l.lit, false, expected, span),
            syn::Expr::Paren(p) => self.expr(&p.expr, expected),
            syn::Expr::Group(g) => self.expr(&g.expr, expected),
            syn::Expr::Path(p) => self.path(p),
            syn::Expr::Unary(u) => self.unary(u, expected),
            syn::Expr::Binary(b) => self.binary(b, expected),
            syn::Expr::Cast(c) => self.cast(c),
            syn::Expr::Block(b) => self.block(&b.block, expected),
            syn::Expr::Unsafe(u) => {
                self.unsafe_depth += 1;
                let r = self.block(&u.block, expected);
                self.unsafe_depth -= 1;
                r
            }
            syn::Expr::If(i) => self.if_expr(i, expected),
            syn::Expr::Call(c) => self.call(c),
            syn::Expr::MethodCall(m) => self.method_call(m),
            syn::Expr::Index(_) => {
                let place = self.place(e)?;
                self.load(place, span)
            }
            syn::Expr::Assign(a) => self.assign(&a.left, &a.right, None, span),
            syn::Expr::Return(r) => {
                if let Some(v) = &r.expr {
                    return Err(self.error(
                        Diagnostic::new(RK_KERNEL_RETURNS_VALUE, "kernels cannot return a value")
                            .at(span_of(v), "this value would be returned")
                            .note("a kernel's results go through its pointer arguments"),
                    ));
                }
                self.emit(OpKind::Return, &[], None, span);
                Ok(Val::unit())
            }
            syn::Expr::Tuple(t) if t.elems.is_empty() => Ok(Val::unit()),
            syn::Expr::Closure(_) => Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, "closures are not supported in kernels")
                    .at(span, "closure defined here")
                    .help("write the closure's body as a plain `fn` and call it"),
            )),
            _ => Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, "this expression is not supported in kernels yet")
                    .at(span, "not supported"),
            )),
        }
    }

    fn literal(&mut self, lit: &syn::Lit, negate: bool, expected: Option<&Type>, span: Span) -> Lowered<Val> {
        match lit {
            syn::Lit::Bool(b) => Ok(self.emit1(OpKind::Const(Literal::Bool(b.value)), &[], Type::Bool, span)),
            syn::Lit::Int(i) => {
                let suffix = i.suffix();
                let ty = if !suffix.is_empty() {
                    match (IntTy::from_name(suffix), suffix) {
                        (Some(t), _) => Type::Int(t),
                        (None, "f32") => Type::Float(FloatTy::F32),
                        (None, "f64") => Type::Float(FloatTy::F64),
                        _ => {
                            return Err(self.error(
                                Diagnostic::new(RK_UNSUPPORTED_TYPE, format!("the literal suffix `{suffix}` is not supported"))
                                    .at(span, "unsupported suffix"),
                            ));
                        }
                    }
                } else {
                    match expected {
                        Some(t @ (Type::Int(_) | Type::Float(_))) => t.clone(),
                        // Rust's rule: an unconstrained integer literal is an `i32`.
                        _ => Type::Int(IntTy::I32),
                    }
                };
                let Ok(magnitude) = i.base10_parse::<u128>() else {
                    return Err(self.out_of_range(i.base10_digits(), &ty, span));
                };
                match &ty {
                    Type::Int(t) => {
                        let (lo, hi) = t.range();
                        let value = if negate { -(magnitude as i128) } else { magnitude as i128 };
                        if magnitude > i128::MAX as u128 || value < lo || value > hi {
                            let shown = if negate { format!("-{magnitude}") } else { magnitude.to_string() };
                            return Err(self.out_of_range(&shown, &ty, span));
                        }
                        let bits = (value as u64) & mask(t.bits());
                        Ok(self.emit1(OpKind::Const(Literal::Int(bits)), &[], ty, span))
                    }
                    _ => {
                        let x = magnitude as f64;
                        self.float_const(if negate { -x } else { x }, ty, span)
                    }
                }
            }
            syn::Lit::Float(f) => {
                let ty = match f.suffix() {
                    "f32" => Type::Float(FloatTy::F32),
                    "f64" => Type::Float(FloatTy::F64),
                    _ => match expected {
                        Some(t @ Type::Float(_)) => t.clone(),
                        // Rust's rule: an unconstrained float literal is an `f64`.
                        _ => Type::Float(FloatTy::F64),
                    },
                };
                let x: f64 = match f.base10_parse() {
                    Ok(x) => x,
                    Err(_) => return Err(self.out_of_range(f.base10_digits(), &ty, span)),
                };
                let x = if negate { -x } else { x };
                self.float_const(x, ty, span)
            }
            _ => Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, "this literal is not supported in kernels")
                    .at(span, "strings, chars and byte literals have no device representation"),
            )),
        }
    }

    fn float_const(&mut self, x: f64, ty: Type, span: Span) -> Lowered<Val> {
        // An f32 constant is rounded to f32 once, here, as rustc rounds the literal.
        let x = if ty == Type::Float(FloatTy::F32) { f64::from(x as f32) } else { x };
        Ok(self.emit1(OpKind::Const(Literal::Float(x)), &[], ty, span))
    }

    fn out_of_range(&mut self, shown: &str, ty: &Type, span: Span) -> Reported {
        let range = match ty {
            Type::Int(t) => {
                let (lo, hi) = t.range();
                format!("the range of `{ty}` is `{lo}..={hi}`")
            }
            _ => format!("the value does not fit `{ty}`"),
        };
        self.error(
            Diagnostic::new(RK_LITERAL_OUT_OF_RANGE, format!("literal out of range for `{ty}`"))
                .at(span, format!("`{shown}` does not fit"))
                .note(range),
        )
    }

    fn path(&mut self, p: &syn::ExprPath) -> Lowered<Val> {
        let span = span_of(p);
        if let Some(ident) = p.path.get_ident() {
            let name = ident.to_string();
            match self.lookup(&name) {
                Some(Some(v)) => return Ok(v.clone()),
                Some(None) => return Err(Reported),
                None => {}
            }
            return Err(self.error(
                Diagnostic::new(RK_UNKNOWN_NAME, format!("cannot find value `{name}` in this scope"))
                    .at(span, "not found in this scope"),
            ));
        }
        Err(self.error(
            Diagnostic::new(RK_UNKNOWN_NAME, format!("cannot find value `{}` in kernels", snippet(self.source, span_of(&p.path))))
                .at(span, "paths to host items cannot be used in kernels"),
        ))
    }

    fn unary(&mut self, u: &syn::ExprUnary, expected: Option<&Type>) -> Lowered<Val> {
        let span = span_of(u);
        match u.op {
            syn::UnOp::Deref(_) => {
                let place = self.place(&syn::Expr::Unary(u.clone()))?;
                self.load(place, span)
            }
            syn::UnOp::Neg(_) => {
                // `-128i8` is one literal to rustc's range check, not a negated 128.
                if let syn::Expr::Lit(syn::ExprLit { lit, .. }) = strip_parens(&u.expr) {
                    if matches!(lit, syn::Lit::Int(_) | syn::Lit::Float(_)) {
                        let v = self.literal(lit, true, expected, span)?;
                        if matches!(v.ty, Type::Int(t) if !t.is_signed()) {
                            return Err(self.cannot_negate(&v.ty, span));
                        }
                        return Ok(v);
                    }
                }
                let v = self.expr(&u.expr, expected)?;
                let ok = matches!(v.ty, Type::Int(t) if t.is_signed()) || v.ty.is_float();
                if !ok {
                    return Err(self.cannot_negate(&v.ty, span));
                }
                Ok(self.emit1(OpKind::Neg, &[v.id.unwrap_or(ValueId(0))], v.ty, span))
            }
            syn::UnOp::Not(_) => {
                let v = self.expr(&u.expr, expected)?;
                if !(v.ty.is_int() || v.ty == Type::Bool) {
                    return Err(self.error(
                        Diagnostic::new(RK_MISMATCHED_TYPES, format!("cannot apply unary operator `!` to type `{}`", v.ty))
                            .at(span, "`!` needs an integer or `bool`"),
                    ));
                }
                Ok(self.emit1(OpKind::Not, &[v.id.unwrap_or(ValueId(0))], v.ty, span))
            }
            _ => Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, "this operator is not supported in kernels")
                    .at(span, "not supported"),
            )),
        }
    }

    fn cannot_negate(&mut self, ty: &Type, span: Span) -> Reported {
        self.error(
            Diagnostic::new(RK_MISMATCHED_TYPES, format!("cannot apply unary operator `-` to type `{ty}`"))
                .at(span, "cannot negate")
                .note("unsigned values cannot be negated"),
        )
    }

    /// Lowers both operands of a binary operator, inferring an untyped literal on one side from
    /// the other side's type, as rustc does.
    fn operands(&mut self, l: &syn::Expr, r: &syn::Expr, expected: Option<&Type>) -> Lowered<(Val, Val)> {
        if is_untyped_literal(l) && !is_untyped_literal(r) {
            let rv = self.expr(r, None)?;
            let lv = self.expr(l, Some(&rv.ty))?;
            Ok((lv, rv))
        } else {
            let lv = self.expr(l, expected)?;
            let rv = self.expr(r, Some(&lv.ty))?;
            Ok((lv, rv))
        }
    }

    fn binary(&mut self, b: &syn::ExprBinary, expected: Option<&Type>) -> Lowered<Val> {
        use syn::BinOp as B;
        let span = span_of(b);
        let arith = |op: &B| -> Option<BinOp> {
            Some(match op {
                B::Add(_) | B::AddAssign(_) => BinOp::Add,
                B::Sub(_) | B::SubAssign(_) => BinOp::Sub,
                B::Mul(_) | B::MulAssign(_) => BinOp::Mul,
                B::Div(_) | B::DivAssign(_) => BinOp::Div,
                B::Rem(_) | B::RemAssign(_) => BinOp::Rem,
                B::BitAnd(_) | B::BitAndAssign(_) => BinOp::And,
                B::BitOr(_) | B::BitOrAssign(_) => BinOp::Or,
                B::BitXor(_) | B::BitXorAssign(_) => BinOp::Xor,
                B::Shl(_) | B::ShlAssign(_) => BinOp::Shl,
                B::Shr(_) | B::ShrAssign(_) => BinOp::Shr,
                _ => return None,
            })
        };
        let cmp = match b.op {
            B::Eq(_) => Some(CmpOp::Eq),
            B::Ne(_) => Some(CmpOp::Ne),
            B::Lt(_) => Some(CmpOp::Lt),
            B::Le(_) => Some(CmpOp::Le),
            B::Gt(_) => Some(CmpOp::Gt),
            B::Ge(_) => Some(CmpOp::Ge),
            _ => None,
        };
        let is_assign = matches!(
            b.op,
            B::AddAssign(_) | B::SubAssign(_) | B::MulAssign(_) | B::DivAssign(_) | B::RemAssign(_)
                | B::BitAndAssign(_) | B::BitOrAssign(_) | B::BitXorAssign(_) | B::ShlAssign(_)
                | B::ShrAssign(_)
        );
        if is_assign {
            let op = arith(&b.op).unwrap_or(BinOp::Add);
            return self.assign(&b.left, &b.right, Some(op), span);
        }
        if let Some(c) = cmp {
            let (l, r) = self.operands(&b.left, &b.right, None)?;
            if l.ty != r.ty || !l.ty.is_scalar() {
                return Err(self.mismatch(&l.ty, &r.ty, span_of(&b.right)));
            }
            return Ok(self.emit1(OpKind::Cmp(c), &[id(&l), id(&r)], Type::Bool, span));
        }
        if matches!(b.op, B::And(_) | B::Or(_)) {
            return self.short_circuit(b, span);
        }
        let Some(op) = arith(&b.op) else {
            return Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, "this operator is not supported in kernels")
                    .at(span, "not supported"),
            ));
        };
        let (l, r) = if matches!(op, BinOp::Shl | BinOp::Shr) {
            // A shift's amount has its own type; an untyped amount is an i32.
            let l = self.expr(&b.left, expected)?;
            let r = self.expr(&b.right, None)?;
            if !l.ty.is_int() || !r.ty.is_int() {
                return Err(self.error(
                    Diagnostic::new(RK_MISMATCHED_TYPES, format!("no implementation for `{} {} {}`", l.ty, op_token(op), r.ty))
                        .at(span, "shifts take integers"),
                ));
            }
            (l, r)
        } else {
            self.operands(&b.left, &b.right, expected)?
        };
        self.check_binary(op, &l, &r, span)?;
        Ok(self.emit1(OpKind::Binary(op), &[id(&l), id(&r)], l.ty.clone(), span))
    }

    fn check_binary(&mut self, op: BinOp, l: &Val, r: &Val, span: Span) -> Lowered<()> {
        let ok = match op {
            BinOp::Shl | BinOp::Shr => l.ty.is_int() && r.ty.is_int(),
            BinOp::And | BinOp::Or | BinOp::Xor => l.ty == r.ty && (l.ty.is_int() || l.ty == Type::Bool),
            _ => l.ty == r.ty && l.ty.is_numeric(),
        };
        if ok {
            return Ok(());
        }
        Err(self.error(
            Diagnostic::new(RK_MISMATCHED_TYPES, format!("cannot apply `{}` to `{}` and `{}`", op_token(op), l.ty, r.ty))
                .at(span, format!("no implementation for `{} {} {}`", l.ty, op_token(op), r.ty))
                .help(if l.ty.is_numeric() && r.ty.is_numeric() {
                    format!("convert one side with `as {}`", l.ty)
                } else {
                    "both sides must have the same numeric type".into()
                }),
        ))
    }

    /// `a && b` is `if a { b } else { false }`; `a || b` is `if a { true } else { b }`.
    fn short_circuit(&mut self, b: &syn::ExprBinary, span: Span) -> Lowered<Val> {
        let is_and = matches!(b.op, syn::BinOp::And(_));
        let l = self.expr(&b.left, Some(&Type::Bool))?;
        if l.ty != Type::Bool {
            return Err(self.mismatch(&Type::Bool, &l.ty, span_of(&b.left)));
        }
        let mut arms = Vec::new();
        for evaluate_right in [is_and, !is_and] {
            self.regions.push(Region::default());
            let v = if evaluate_right {
                match self.expr(&b.right, Some(&Type::Bool)) {
                    Ok(v) if v.ty == Type::Bool => Ok(v),
                    Ok(v) => Err(self.mismatch(&Type::Bool, &v.ty, span_of(&b.right))),
                    Err(r) => Err(r),
                }
            } else {
                Ok(self.emit1(OpKind::Const(Literal::Bool(!is_and)), &[], Type::Bool, span))
            };
            if let Ok(v) = &v {
                self.emit(OpKind::Yield, &[id(v)], None, span);
            }
            arms.push(self.regions.pop().unwrap_or_default());
            v?;
        }
        let result = self.func.new_value(Type::Bool);
        self.push_if(id(&l), arms, vec![result], span);
        Ok(Val { id: Some(result), ty: Type::Bool })
    }

    fn push_if(&mut self, cond: ValueId, regions: Vec<Region>, results: Vec<ValueId>, span: Span) {
        let loc = Loc { line: span.line(), col: span.col() };
        self.current().ops.push(Op {
            kind: OpKind::If,
            operands: vec![cond],
            results,
            regions,
            loc,
        });
    }

    fn cast(&mut self, c: &syn::ExprCast) -> Lowered<Val> {
        let span = span_of(c);
        let to = lower_type(&c.ty, self.source, self.diags)?;
        let v = self.expr(&c.expr, None)?;
        if !(to.is_numeric() && (v.ty.is_numeric() || v.ty == Type::Bool)) {
            return Err(self.error(
                Diagnostic::new(RK_INVALID_CAST, format!("non-primitive cast: `{}` as `{to}`", v.ty))
                    .at(span, "an `as` expression can only be used to convert between primitive types")
                    .note("rkc supports `as` between integers, floats and from `bool`"),
            ));
        }
        if v.ty == to {
            return Ok(v);
        }
        Ok(self.emit1(OpKind::Cast, &[id(&v)], to, span))
    }

    fn if_expr(&mut self, i: &syn::ExprIf, expected: Option<&Type>) -> Lowered<Val> {
        let span = span_of(i);
        let cond = self.expr(&i.cond, Some(&Type::Bool))?;
        if cond.ty != Type::Bool {
            return Err(self.mismatch(&Type::Bool, &cond.ty, span_of(&i.cond)));
        }
        // The then arm decides the type when there is an else; without one the `if` is `()`.
        let has_else = i.else_branch.is_some();
        self.regions.push(Region::default());
        let then = self.block(&i.then_branch, if has_else { expected } else { Some(&Type::Unit) });
        let then_region_terminated = self.terminated();
        let then_region = self.regions.pop().unwrap_or_default();
        let then = then?;
        let ty = then.ty.clone();
        self.regions.push(Region::default());
        let els = match &i.else_branch {
            Some((_, e)) => self.expr(e, Some(&ty)),
            None => Ok(Val::unit()),
        };
        let else_region_terminated = self.terminated();
        let else_region = self.regions.pop().unwrap_or_default();
        let els = els?;
        // An arm that ends in `return` has no value (rustc's `!`), so the other decides.
        let ty = if then_region_terminated { els.ty.clone() } else { ty };
        if !then_region_terminated && !else_region_terminated && els.ty != ty {
            let at = i.else_branch.as_ref().map(|(_, e)| span_of(e)).unwrap_or(span);
            return Err(self.error(
                Diagnostic::new(RK_MISMATCHED_TYPES, "`if` and `else` have incompatible types")
                    .at(at, format!("expected `{ty}`, found `{}`", els.ty))
                    .with_secondary(span_of(&i.then_branch), format!("this is `{ty}`")),
            ));
        }
        if !has_else && ty != Type::Unit {
            return Err(self.mismatch(&Type::Unit, &ty, span_of(&i.then_branch)));
        }
        let mut regions = vec![then_region, else_region];
        let results = if ty == Type::Unit {
            vec![]
        } else {
            for (region, (v, done)) in regions.iter_mut().zip([(&then, then_region_terminated), (&els, else_region_terminated)]) {
                if !done {
                    region.ops.push(Op {
                        kind: OpKind::Yield,
                        operands: v.id.into_iter().collect(),
                        results: vec![],
                        regions: vec![],
                        loc: Loc { line: span.line(), col: span.col() },
                    });
                }
            }
            vec![self.func.new_value(ty.clone())]
        };
        let result = results.first().copied();
        self.push_if(id(&cond), regions, results, span);
        Ok(Val { id: result, ty })
    }

    fn call(&mut self, c: &syn::ExprCall) -> Lowered<Val> {
        let span = span_of(c);
        let syn::Expr::Path(p) = c.func.as_ref() else {
            return Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, "only functions can be called in kernels")
                    .at(span, "not a function name"),
            ));
        };
        let name = p.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
        if let Some((geometry, dim)) = geometry_builtin(&name) {
            if !c.args.is_empty() {
                return Err(self.error(
                    Diagnostic::new(RK_MISMATCHED_TYPES, format!("`{name}` takes no arguments"))
                        .at(span_of(&c.args), "remove these arguments"),
                ));
            }
            self.require_unsafe(span, &format!("call to unsafe function `{name}`"))?;
            return Ok(self.emit1(OpKind::Geometry(geometry, dim), &[], Type::U32, span));
        }
        Err(self.error(
            Diagnostic::new(RK_UNKNOWN_FUNCTION, format!("cannot find function `{}` for kernels", snippet(self.source, span_of(&p.path))))
                .at(span_of(&c.func), "not a builtin rkc knows")
                .note("builtins: thread_idx_{x,y,z}, block_idx_{x,y,z}, block_dim_{x,y,z}, grid_dim_{x,y,z}"),
        ))
    }

    fn method_call(&mut self, m: &syn::ExprMethodCall) -> Lowered<Val> {
        let span = span_of(m);
        let method = m.method.to_string();
        match method.as_str() {
            "len" if m.args.is_empty() => {
                // `(*x).len()` on a pointer to an array is the array's constant length; nothing is
                // read, and no unsafe is needed beyond what the deref itself needs.
                let place = self.place(&m.receiver)?;
                if let Some(Type::Array { len, .. }) = self.func.ty(place).and_then(Type::pointee).cloned() {
                    return Ok(self.emit1(OpKind::Const(Literal::Int(len)), &[], Type::USIZE, span));
                }
                let ty = self.func.ty(place).and_then(Type::pointee).cloned().unwrap_or(Type::Unit);
                Err(self.error(
                    Diagnostic::new(RK_UNKNOWN_METHOD, format!("no method named `len` found for `{ty}`"))
                        .at(span_of(&m.method), "method not found"),
                ))
            }
            "add" | "offset" if m.args.len() == 1 => {
                let p = self.expr(&m.receiver, None)?;
                if p.ty.pointee().is_none() {
                    return Err(self.error(
                        Diagnostic::new(RK_UNKNOWN_METHOD, format!("no method named `{method}` found for `{}`", p.ty))
                            .at(span_of(&m.method), "method not found"),
                    ));
                }
                let index_ty = if method == "add" { Type::USIZE } else { Type::Int(IntTy::Isize) };
                let i = self.expr(&m.args[0], Some(&index_ty))?;
                if i.ty != index_ty {
                    return Err(self.mismatch(&index_ty, &i.ty, span_of(&m.args[0])));
                }
                self.require_unsafe(span, &format!("call to unsafe method `{}::{method}`", p.ty))?;
                Ok(self.emit1(OpKind::PtrOffset, &[id(&p), id(&i)], p.ty.clone(), span))
            }
            _ => Err(self.error(
                Diagnostic::new(RK_UNKNOWN_METHOD, format!("the method `{method}` is not supported in kernels yet"))
                    .at(span_of(&m.method), "unknown method"),
            )),
        }
    }

    /// Lowers a place expression (`*p`, `(*p)[i]`) to a pointer to it.
    fn place(&mut self, e: &syn::Expr) -> Lowered<ValueId> {
        let span = span_of(e);
        match e {
            syn::Expr::Paren(p) => self.place(&p.expr),
            syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Deref(_), expr, .. }) => {
                let p = self.expr(expr, None)?;
                if p.ty.pointee().is_none() {
                    return Err(self.error(
                        Diagnostic::new(RK_MISMATCHED_TYPES, format!("type `{}` cannot be dereferenced", p.ty))
                            .at(span, "not a pointer"),
                    ));
                }
                self.require_unsafe(span, "dereference of raw pointer")?;
                Ok(id(&p))
            }
            syn::Expr::Index(ix) => {
                let base = self.place(&ix.expr)?;
                let base_ty = self.func.ty(base).cloned().unwrap_or(Type::Unit);
                let (mutable, elem, len) = match &base_ty {
                    Type::Ptr { mutable, pointee } => match pointee.as_ref() {
                        Type::Array { elem, len } => (*mutable, (**elem).clone(), *len),
                        other => {
                            return Err(self.error(
                                Diagnostic::new(RK_MISMATCHED_TYPES, format!("cannot index into a value of type `{other}`"))
                                    .at(span_of(&ix.expr), "not an array"),
                            ));
                        }
                    },
                    _ => return Err(Reported),
                };
                let i = self.expr(&ix.index, Some(&Type::USIZE))?;
                if i.ty != Type::USIZE {
                    return Err(self.error(
                        Diagnostic::new(RK_MISMATCHED_TYPES, format!("the type `[{elem}]` cannot be indexed by `{}`", i.ty))
                            .at(span_of(&ix.index), "slice indices are of type `usize`")
                            .help("convert the index with `as usize`"),
                    ));
                }
                let n = self.emit1(OpKind::Const(Literal::Int(len)), &[], Type::USIZE, span);
                self.emit(OpKind::BoundsCheck, &[id(&i), id(&n)], None, span);
                let p = self.emit1(OpKind::ElemPtr, &[base, id(&i)], Type::ptr(mutable, elem), span);
                Ok(id(&p))
            }
            _ => Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, "this expression is not a place rkc can read or write")
                    .at(span, "expected `*pointer` or `(*pointer)[index]`"),
            )),
        }
    }

    /// The type a place expression would have, found without emitting anything, so that the
    /// value assigned to it can be inferred first. `None` when it is not a simple place.
    fn place_type(&self, e: &syn::Expr) -> Option<Type> {
        match e {
            syn::Expr::Paren(p) => self.place_type(&p.expr),
            syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Deref(_), expr, .. }) => {
                self.value_type(expr)?.pointee().cloned()
            }
            syn::Expr::Index(ix) => match self.place_type(&ix.expr)? {
                Type::Array { elem, .. } => Some(*elem),
                _ => None,
            },
            _ => None,
        }
    }

    /// The type of a pointer-valued expression, as far as it can be known without lowering it.
    fn value_type(&self, e: &syn::Expr) -> Option<Type> {
        match e {
            syn::Expr::Paren(p) => self.value_type(&p.expr),
            syn::Expr::Path(p) => self.lookup(&p.path.get_ident()?.to_string())?.as_ref().map(|v| v.ty.clone()),
            syn::Expr::MethodCall(m) if m.method == "add" || m.method == "offset" => self.value_type(&m.receiver),
            _ => None,
        }
    }

    fn load(&mut self, place: ValueId, span: Span) -> Lowered<Val> {
        let ty = self.func.ty(place).and_then(Type::pointee).cloned().unwrap_or(Type::Unit);
        if !ty.is_scalar() {
            return Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, format!("a whole `{ty}` cannot be read into a value yet"))
                    .at(span, "read its elements one by one"),
            ));
        }
        Ok(self.emit1(OpKind::Load, &[place], ty, span))
    }

    /// `place = value` and `place op= value`. As in Rust for primitive operands, the value is
    /// evaluated before the place, so a failing bounds check in the place comes second.
    fn assign(&mut self, left: &syn::Expr, right: &syn::Expr, op: Option<BinOp>, span: Span) -> Lowered<Val> {
        let expected = self.place_type(left);
        let rhs_expected = match op {
            Some(BinOp::Shl | BinOp::Shr) => None,
            _ => expected.as_ref(),
        };
        let r = self.expr(right, rhs_expected)?;
        let place = self.place(left)?;
        let (mutable, ty) = match self.func.ty(place) {
            Some(Type::Ptr { mutable, pointee }) => (*mutable, (**pointee).clone()),
            _ => return Err(Reported),
        };
        if !mutable {
            return Err(self.error(
                Diagnostic::new(RK_ASSIGN_THROUGH_CONST, format!("cannot assign to `{}`, which is behind a `*const` pointer", snippet(self.source, span_of(left))))
                    .at(span_of(left), "cannot assign")
                    .help("declare the kernel parameter as `*mut`"),
            ));
        }
        let value = match op {
            None => {
                if r.ty != ty {
                    return Err(self.mismatch(&ty, &r.ty, span_of(right)));
                }
                r
            }
            Some(op) => {
                let old = self.load(place, span)?;
                self.check_binary(op, &old, &r, span)?;
                self.emit1(OpKind::Binary(op), &[id(&old), id(&r)], ty, span)
            }
        };
        self.emit(OpKind::Store, &[id(&value), place], None, span);
        Ok(Val::unit())
    }
}

/// The value of a non-unit expression. Callers only pass typed values (unit ones are caught
/// by type checks first); the fallback keeps this total instead of panicking.
fn id(v: &Val) -> ValueId {
    v.id.unwrap_or(ValueId(u32::MAX))
}

fn mask(bits: u32) -> u64 {
    if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 }
}

fn strip_parens(e: &syn::Expr) -> &syn::Expr {
    match e {
        syn::Expr::Paren(p) => strip_parens(&p.expr),
        other => other,
    }
}

fn is_untyped_literal(e: &syn::Expr) -> bool {
    match strip_parens(e) {
        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) => i.suffix().is_empty(),
        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Float(f), .. }) => f.suffix().is_empty(),
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => is_untyped_literal(&u.expr),
        _ => false,
    }
}

fn op_token(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::And => "&",
        BinOp::Or => "|",
        BinOp::Xor => "^",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
    }
}

/// The launch-geometry builtins, by the name users call.
pub fn geometry_builtin(name: &str) -> Option<(Geometry, Dim)> {
    let (base, dim) = name.rsplit_once('_')?;
    let dim = match dim {
        "x" => Dim::X,
        "y" => Dim::Y,
        "z" => Dim::Z,
        _ => return None,
    };
    let geometry = match base {
        "thread_idx" => Geometry::ThreadId,
        "block_idx" => Geometry::BlockId,
        "block_dim" => Geometry::BlockDim,
        "grid_dim" => Geometry::GridDim,
        _ => return None,
    };
    Some((geometry, dim))
}
