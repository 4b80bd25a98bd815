//! The compile-time evaluator: rustc's const evaluation over integers, booleans and
//! characters, for what must be known before code exists (array lengths, const arguments,
//! enum discriminants, range-pattern bounds) and for the integer `const`s kernels read, which
//! become constants in rk rather than code (so that a `const fn` may loop or recurse, as in
//! rustc, where no such code reaches the device).
//!
//! Every value carries its integer type where Rust's typing gives one (a literal's suffix, a
//! `const`'s or parameter's declared type, a cast, the type the context expects), and the
//! operations whose result depends on the width (`<<`, `!`, `leading_zeros`, `wrapping_*`,
//! casts) are evaluated at that width. An operation whose result rustc would reject (an
//! overflow, a shift by the width or more, a division by zero) is an error here too, and so is
//! anything outside this subset: callers then report it or, for a `const` a kernel reads,
//! lower its initialiser as code.

use super::lower::path_names;
use crate::items::resolve::Prim;
use crate::items::{Container, DefId, DefKind, Items, Ns, Res, ScopeId};
use rkc_rk::IntTy;
use std::cell::Cell;

/// A value's type, as far as the evaluator needs it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum VTy {
    Bool,
    Char,
    /// An integer: of a known type, or a literal whose type the context has not fixed.
    Int(Option<IntTy>),
    Unit,
}

/// A value: an integer as an `i128` (a `u128` above `i128::MAX` by its bits), a `bool` as 0
/// or 1, a `char` as its code point.
#[derive(Clone, Copy, Debug)]
struct Val {
    v: i128,
    t: VTy,
}

impl Val {
    fn int(v: i128, t: Option<IntTy>) -> Val {
        Val { v, t: VTy::Int(t) }
    }

    fn bool(b: bool) -> Val {
        Val { v: i128::from(b), t: VTy::Bool }
    }

    const UNIT: Val = Val { v: 0, t: VTy::Unit };

    fn int_ty(&self) -> Option<IntTy> {
        match self.t {
            VTy::Int(t) => t,
            _ => None,
        }
    }
}

/// What a constant expression evaluates to: a value, or a const parameter of the item it is
/// written in (`[T; N]`).
pub enum ConstVal {
    Value(i128),
    Param(u32),
}

/// Why evaluation stopped: an error, or control flow leaving a loop or a function.
enum Stop {
    Err(String),
    Break(Option<String>, Option<Val>),
    Continue(Option<String>),
    Return(Val),
}

impl From<String> for Stop {
    fn from(s: String) -> Stop {
        Stop::Err(s)
    }
}

impl From<&str> for Stop {
    fn from(s: &str) -> Stop {
        Stop::Err(s.to_string())
    }
}

type Eval<T> = Result<T, Stop>;

/// A `let` or parameter in scope: its name, value and declared type.
struct Local {
    name: String,
    val: Val,
}

/// Loop iterations and calls one evaluation may take: rustc's const evaluation has no fixed
/// limit, but a constant that needs more than this is not what kernels compute.
const STEPS: u32 = 4_000_000;
/// Nested `const fn` calls and `const` items.
const CALL_DEPTH: u32 = 400;

/// Evaluates a length or const argument (of type `usize` unless said) in `scope`, where the
/// generic parameters of `generics` are in scope.
pub fn eval_const(
    items: &Items,
    scope: ScopeId,
    generics: Option<DefId>,
    e: &syn::Expr,
) -> Result<ConstVal, String> {
    // A const parameter alone, possibly in braces (`{ N }`), is the parameter.
    let mut inner = e;
    loop {
        inner = match inner {
            syn::Expr::Paren(p) => &p.expr,
            syn::Expr::Group(g) => &g.expr,
            syn::Expr::Block(b) if b.block.stmts.len() == 1 => match &b.block.stmts[0] {
                syn::Stmt::Expr(x, None) => x,
                _ => break,
            },
            _ => break,
        };
    }
    if let syn::Expr::Path(p) = inner
        && let Some(g) = generics
        && let Some(id) = p.path.get_ident()
        && let Some(q) = items.all_generic_params(g).iter().find(|q| id == &q.name)
    {
        return Ok(ConstVal::Param(q.index));
    }
    let steps = Cell::new(0);
    let ev = Evaluator { items, generics, owner: generics, steps: &steps, depth: 0 };
    ev.top(scope, e, Some(IntTy::Usize)).map(ConstVal::Value)
}

/// The value of a `const` item of an integer, `bool` or `char` type, for a kernel that reads
/// it: its initialiser evaluated at its declared type.
pub fn const_item_value(items: &Items, def: DefId) -> Result<i128, String> {
    let steps = Cell::new(0);
    let ev = Evaluator { items, generics: None, owner: Some(def), steps: &steps, depth: 0 };
    ev.const_item(def).map(|v| v.v).map_err(message)
}

/// The discriminant of an enum variant: written, or one more than the previous variant's.
pub fn discriminant(items: &Items, variant: DefId) -> Result<i128, String> {
    let steps = Cell::new(0);
    let ev = Evaluator { items, generics: None, owner: None, steps: &steps, depth: 0 };
    ev.discriminant(variant).map_err(message)
}

fn message(s: Stop) -> String {
    match s {
        Stop::Err(m) => m,
        Stop::Break(..) | Stop::Continue(_) => "a `break` or `continue` outside a loop".into(),
        Stop::Return(_) => "a `return` outside a function".into(),
    }
}

struct Evaluator<'i, 'a> {
    items: &'i Items<'a>,
    /// The item whose generic parameters are in scope.
    generics: Option<DefId>,
    /// The item the expression is written in, for what `Self` means there.
    owner: Option<DefId>,
    steps: &'i Cell<u32>,
    depth: u32,
}

impl<'i, 'a> Evaluator<'i, 'a> {
    /// An evaluator for the body of `owner` (a `const` item or a `const fn`), one call deeper.
    fn nested(&self, owner: DefId) -> Eval<Evaluator<'i, 'a>> {
        if self.depth >= CALL_DEPTH {
            return Err("constants or `const fn` calls nested too deeply".into());
        }
        Ok(Evaluator {
            items: self.items,
            generics: None,
            owner: Some(owner),
            steps: self.steps,
            depth: self.depth + 1,
        })
    }

    fn step(&self) -> Eval<()> {
        let n = self.steps.get() + 1;
        self.steps.set(n);
        if n > STEPS {
            return Err("a computation of more than four million steps".into());
        }
        Ok(())
    }

    /// An expression evaluated to an integer, `bool` or `char`, as the whole of a constant.
    fn top(&self, scope: ScopeId, e: &syn::Expr, expect: Option<IntTy>) -> Result<i128, String> {
        let mut locals = Vec::new();
        match self.expr(scope, e, &mut locals, expect) {
            Ok(v) if v.t != VTy::Unit => Ok(v.v),
            Ok(_) => Err("an expression without a value".into()),
            Err(s) => Err(message(s)),
        }
    }

    /// A `const` item's value, at its declared type.
    fn const_item(&self, def: DefId) -> Eval<Val> {
        let d = self.items.def(def);
        let DefKind::Const { ty, expr: Some(e), .. } = &d.kind else {
            return Err(format!("`{}` is not a constant", self.items.name(def)).into());
        };
        let declared = match ty {
            Some(t) => self.value_ty(d.scope, t).map_err(|_| {
                format!(
                    "`{}` is a constant of a type rkc does not evaluate at compile time (it evaluates integers, `bool` and `char`)",
                    self.items.name(def)
                )
            })?,
            None => VTy::Int(None),
        };
        let inner = self.nested(def)?;
        let mut locals = Vec::new();
        let v = inner.expr(d.scope, e, &mut locals, expected(declared)).map_err(|s| match s {
            Stop::Return(_) | Stop::Break(..) | Stop::Continue(_) => {
                Stop::Err("control flow leaving a constant".into())
            }
            s => s,
        })?;
        inner.coerce(v, declared)
    }

    /// A value given a declared type: an integer literal takes it; anything else must have it.
    fn coerce(&self, v: Val, to: VTy) -> Eval<Val> {
        match (v.t, to) {
            (VTy::Int(None), VTy::Int(Some(t))) => fit(v.v, t),
            (VTy::Int(_), VTy::Int(None)) => Ok(v),
            (a, b) if a == b => Ok(v),
            _ => Err("a value of another type".into()),
        }
    }

    /// The evaluator's type of a written type: an integer, `bool` or `char`.
    fn value_ty(&self, scope: ScopeId, t: &syn::Type) -> Eval<VTy> {
        let syn::Type::Path(p) = t else {
            return Err("a constant of a type other than an integer".into());
        };
        if p.qself.is_some() {
            return Err("a constant of a type other than an integer".into());
        }
        let names = path_names(&p.path);
        match self.items.resolve_path(scope, &names, false, Ns::Type, &|_| None) {
            Some(r) if r.rest == 0 => match r.res {
                Res::Prim(Prim::Int(t)) => Ok(VTy::Int(Some(t))),
                Res::Prim(Prim::Bool) => Ok(VTy::Bool),
                Res::Prim(Prim::Char) => Ok(VTy::Char),
                _ => Err("a constant of a type other than an integer".into()),
            },
            _ => Err("a constant of a type other than an integer".into()),
        }
    }

    fn int(
        &self,
        scope: ScopeId,
        e: &syn::Expr,
        locals: &mut Vec<Local>,
        expect: Option<IntTy>,
    ) -> Eval<Val> {
        let v = self.expr(scope, e, locals, expect)?;
        match v.t {
            VTy::Int(None) => match expect {
                Some(t) => fit(v.v, t),
                None => Ok(v),
            },
            VTy::Int(Some(_)) => Ok(v),
            _ => Err("an integer operation on a value that is not an integer".into()),
        }
    }

    fn cond(&self, scope: ScopeId, e: &syn::Expr, locals: &mut Vec<Local>) -> Eval<bool> {
        let v = self.expr(scope, e, locals, None)?;
        match v.t {
            VTy::Bool => Ok(v.v != 0),
            _ => Err("a condition that is not a `bool`".into()),
        }
    }

    fn expr(
        &self,
        scope: ScopeId,
        e: &syn::Expr,
        locals: &mut Vec<Local>,
        expect: Option<IntTy>,
    ) -> Eval<Val> {
        match e {
            syn::Expr::Lit(l) => lit(&l.lit, expect),
            syn::Expr::Paren(p) => self.expr(scope, &p.expr, locals, expect),
            syn::Expr::Group(g) => self.expr(scope, &g.expr, locals, expect),
            syn::Expr::Block(b) if b.label.is_none() => self.block(scope, &b.block, locals, expect),
            syn::Expr::Const(c) => self.block(scope, &c.block, locals, expect),
            syn::Expr::If(x) => {
                if matches!(&*x.cond, syn::Expr::Let(_)) {
                    return Err("an `if let`".into());
                }
                if self.cond(scope, &x.cond, locals)? {
                    self.block(scope, &x.then_branch, locals, expect)
                } else {
                    match &x.else_branch {
                        Some((_, e)) => self.expr(scope, e, locals, expect),
                        None => Ok(Val::UNIT),
                    }
                }
            }
            syn::Expr::While(w) => {
                if matches!(&*w.cond, syn::Expr::Let(_)) {
                    return Err("a `while let`".into());
                }
                let label = w.label.as_ref().map(|l| l.name.ident.to_string());
                while self.cond(scope, &w.cond, locals)? {
                    self.step()?;
                    match self.block(scope, &w.body, locals, None) {
                        Ok(_) => {}
                        Err(Stop::Break(l, _)) if l.is_none() || l == label => break,
                        Err(Stop::Continue(l)) if l.is_none() || l == label => {}
                        Err(s) => return Err(s),
                    }
                }
                Ok(Val::UNIT)
            }
            syn::Expr::Loop(lp) => {
                let label = lp.label.as_ref().map(|l| l.name.ident.to_string());
                loop {
                    self.step()?;
                    match self.block(scope, &lp.body, locals, None) {
                        Ok(_) => {}
                        Err(Stop::Break(l, v)) if l.is_none() || l == label => {
                            return Ok(v.unwrap_or(Val::UNIT));
                        }
                        Err(Stop::Continue(l)) if l.is_none() || l == label => {}
                        Err(s) => return Err(s),
                    }
                }
            }
            syn::Expr::Break(b) => {
                let v = match &b.expr {
                    Some(e) => Some(self.expr(scope, e, locals, None)?),
                    None => None,
                };
                Err(Stop::Break(b.label.as_ref().map(|l| l.ident.to_string()), v))
            }
            syn::Expr::Continue(c) => {
                Err(Stop::Continue(c.label.as_ref().map(|l| l.ident.to_string())))
            }
            syn::Expr::Return(r) => {
                let v = match &r.expr {
                    Some(e) => self.expr(scope, e, locals, None)?,
                    None => Val::UNIT,
                };
                Err(Stop::Return(v))
            }
            syn::Expr::Assign(a) => {
                let slot = local_slot(&a.left, locals)?;
                let declared = locals[slot].val.t;
                let v = self.expr(scope, &a.right, locals, expected(declared))?;
                locals[slot].val = self.coerce(v, declared)?;
                Ok(Val::UNIT)
            }
            syn::Expr::Binary(b) => {
                if let Some(op) = compound_op(&b.op) {
                    let slot = local_slot(&b.left, locals)?;
                    let l = locals[slot].val;
                    let r = self.expr(
                        scope,
                        &b.right,
                        locals,
                        if shift(&op) { None } else { l.int_ty() },
                    )?;
                    let v = binary(&op, l, r)?;
                    locals[slot].val = self.coerce(v, l.t)?;
                    return Ok(Val::UNIT);
                }
                // `&&` and `||` evaluate their right side only when it decides.
                if matches!(b.op, syn::BinOp::And(_) | syn::BinOp::Or(_)) {
                    let l = self.cond(scope, &b.left, locals)?;
                    if l == matches!(b.op, syn::BinOp::Or(_)) {
                        return Ok(Val::bool(l));
                    }
                    return self.cond(scope, &b.right, locals).map(Val::bool);
                }
                let comparison = matches!(
                    b.op,
                    syn::BinOp::Eq(_)
                        | syn::BinOp::Ne(_)
                        | syn::BinOp::Lt(_)
                        | syn::BinOp::Le(_)
                        | syn::BinOp::Gt(_)
                        | syn::BinOp::Ge(_)
                );
                let lexp = if comparison { None } else { expect };
                let mut l = self.expr(scope, &b.left, locals, lexp)?;
                let r = self.expr(
                    scope,
                    &b.right,
                    locals,
                    if shift(&b.op) { None } else { l.int_ty() },
                )?;
                // An unsuffixed literal on the left takes the right side's type (`1 + n`).
                if l.t == VTy::Int(None)
                    && !shift(&b.op)
                    && let Some(t) = r.int_ty()
                {
                    l = fit(l.v, t)?;
                }
                binary(&b.op, l, r)
            }
            syn::Expr::Unary(u) => match u.op {
                syn::UnOp::Neg(_) => {
                    let v = self.int(scope, &u.expr, locals, expect)?;
                    let n = v.v.checked_neg().ok_or("an operation that overflows")?;
                    match v.int_ty() {
                        Some(t) if !t.is_signed() => {
                            Err("the negation of an unsigned integer".into())
                        }
                        Some(t) => fit(n, t),
                        None => Ok(Val::int(n, None)),
                    }
                }
                syn::UnOp::Not(_) => {
                    let v = self.expr(scope, &u.expr, locals, expect)?;
                    match v.t {
                        VTy::Bool => Ok(Val::bool(v.v == 0)),
                        VTy::Int(Some(t)) => Ok(wrap(!v.v, t)),
                        _ => Err("`!` of an integer whose type is not known here".into()),
                    }
                }
                _ => Err("a dereference".into()),
            },
            syn::Expr::Cast(c) => {
                let v = self.expr(scope, &c.expr, locals, None)?;
                match self.value_ty(scope, &c.ty)? {
                    // An unsuffixed literal is an `i32` there, whose bits are its value's.
                    VTy::Int(Some(t)) if v.t != VTy::Unit => Ok(wrap(v.v, t)),
                    VTy::Char if v.int_ty() == Some(IntTy::U8) => Ok(Val { v: v.v, t: VTy::Char }),
                    _ => Err("a cast to a type other than an integer".into()),
                }
            }
            syn::Expr::Match(m) => {
                let v = self.expr(scope, &m.expr, locals, None)?;
                for arm in &m.arms {
                    let mark = locals.len();
                    if self.pattern(scope, &arm.pat, v, locals)? {
                        let guard = match &arm.guard {
                            Some((_, g)) => self.cond(scope, g, locals)?,
                            None => true,
                        };
                        if guard {
                            let r = self.expr(scope, &arm.body, locals, expect);
                            locals.truncate(mark);
                            return r;
                        }
                    }
                    locals.truncate(mark);
                }
                Err("a `match` that no arm matches".into())
            }
            syn::Expr::Path(p) => {
                if p.qself.is_none()
                    && let Some(id) = p.path.get_ident()
                    && let Some(l) = locals.iter().rev().find(|l| id == &l.name)
                {
                    return Ok(l.val);
                }
                self.path(scope, p)
            }
            syn::Expr::MethodCall(m) => {
                let recv = self.int(scope, &m.receiver, locals, None)?;
                let mut args = Vec::new();
                for a in &m.args {
                    args.push(self.int(scope, a, locals, recv.int_ty())?);
                }
                int_method(&m.method.to_string(), recv, &args)
            }
            syn::Expr::Call(c) => self.call_expr(scope, c, locals),
            syn::Expr::Index(_) | syn::Expr::Array(_) | syn::Expr::Repeat(_) => Err(
                "an array or an element of one: rkc evaluates integers, `bool` and `char` at compile time"
                    .into(),
            ),
            syn::Expr::Field(_) | syn::Expr::Tuple(_) | syn::Expr::Struct(_) => Err(
                "a struct, a tuple or a field of one: rkc evaluates integers, `bool` and `char` at compile time"
                    .into(),
            ),
            syn::Expr::Macro(_) => Err("a macro in a constant expression".into()),
            _ => Err("an expression that rkc does not evaluate at compile time".into()),
        }
    }

    /// A block of statements: `let`s, expressions and a final expression.
    fn block(
        &self,
        scope: ScopeId,
        b: &syn::Block,
        locals: &mut Vec<Local>,
        expect: Option<IntTy>,
    ) -> Eval<Val> {
        let mark = locals.len();
        let r = self.statements(scope, b, locals, expect);
        locals.truncate(mark);
        r
    }

    fn statements(
        &self,
        scope: ScopeId,
        b: &syn::Block,
        locals: &mut Vec<Local>,
        expect: Option<IntTy>,
    ) -> Eval<Val> {
        let mut last = Val::UNIT;
        for (k, s) in b.stmts.iter().enumerate() {
            last = Val::UNIT;
            match s {
                syn::Stmt::Local(l) => {
                    let (pat, declared) = match &l.pat {
                        syn::Pat::Type(t) => (&*t.pat, Some(self.value_ty(scope, &t.ty)?)),
                        p => (p, None),
                    };
                    let Some(init) = &l.init else { return Err("a `let` without a value".into()) };
                    if init.diverge.is_some() {
                        return Err("a `let` with `else`".into());
                    }
                    let v = self.expr(scope, &init.expr, locals, declared.and_then(expected))?;
                    let v = match declared {
                        Some(t) => self.coerce(v, t)?,
                        None => v,
                    };
                    match pat {
                        syn::Pat::Ident(id) if id.subpat.is_none() && id.by_ref.is_none() => {
                            locals.push(Local { name: id.ident.to_string(), val: v });
                        }
                        syn::Pat::Wild(_) => {}
                        _ => return Err("a `let` with a pattern".into()),
                    }
                }
                syn::Stmt::Expr(e, semi) => {
                    let tail = semi.is_none() && k + 1 == b.stmts.len();
                    let v = self.expr(scope, e, locals, if tail { expect } else { None })?;
                    if tail {
                        last = v;
                    }
                }
                syn::Stmt::Item(_) => return Err("an item declared in a constant's block".into()),
                syn::Stmt::Macro(_) => return Err("a macro in a constant".into()),
            }
        }
        Ok(last)
    }

    /// Whether `v` matches `p`, binding its names.
    fn pattern(&self, scope: ScopeId, p: &syn::Pat, v: Val, locals: &mut Vec<Local>) -> Eval<bool> {
        match p {
            syn::Pat::Wild(_) => Ok(true),
            syn::Pat::Paren(p) => self.pattern(scope, &p.pat, v, locals),
            syn::Pat::Or(o) => {
                for c in &o.cases {
                    if self.pattern(scope, c, v, locals)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            syn::Pat::Lit(l) => Ok(lit(&l.lit, v.int_ty())?.v == v.v),
            syn::Pat::Range(r) => {
                let mut none = Vec::new();
                let lo = match &r.start {
                    Some(e) => self.expr(scope, e, &mut none, v.int_ty())?.v <= v.v,
                    None => true,
                };
                let hi = match (&r.end, &r.limits) {
                    (Some(e), syn::RangeLimits::Closed(_)) => {
                        v.v <= self.expr(scope, e, &mut none, v.int_ty())?.v
                    }
                    (Some(e), syn::RangeLimits::HalfOpen(_)) => {
                        v.v < self.expr(scope, e, &mut none, v.int_ty())?.v
                    }
                    (None, _) => true,
                };
                Ok(lo && hi)
            }
            syn::Pat::Ident(id) if id.subpat.is_none() && id.by_ref.is_none() => {
                // A name that is a constant in scope is a constant pattern; any other binds.
                let names = vec![id.ident.to_string()];
                if let Some(r) = self.items.resolve_path(scope, &names, false, Ns::Value, &|_| None)
                    && r.rest == 0
                    && let Res::Def(d) = r.res
                    && matches!(self.items.def(d).kind, DefKind::Const { .. })
                {
                    return Ok(self.nested(d)?.const_item(d)?.v == v.v);
                }
                locals.push(Local { name: id.ident.to_string(), val: v });
                Ok(true)
            }
            syn::Pat::Path(p) => Ok(self.path(scope, p)?.v == v.v),
            _ => Err("a pattern other than literals, ranges and constants".into()),
        }
    }

    fn call_expr(&self, scope: ScopeId, c: &syn::ExprCall, locals: &mut Vec<Local>) -> Eval<Val> {
        let syn::Expr::Path(fp) = &*c.func else {
            return Err("a call of something other than a function".into());
        };
        let names = path_names(&fp.path);
        let r = self
            .items
            .resolve_path(scope, &names, fp.path.leading_colon.is_some(), Ns::Value, &|_| None)
            .ok_or_else(|| format!("cannot find `{}`", names.join("::")))?;
        let last = names.last().map(String::as_str).unwrap_or("");
        match r.res {
            // `usize::pow(2, 5)`: an integer method called as a function.
            Res::Prim(Prim::Int(t)) if r.rest == 1 && !c.args.is_empty() => {
                let mut args = Vec::new();
                for a in &c.args {
                    args.push(self.int(scope, a, locals, Some(t))?);
                }
                int_method(last, args[0], &args[1..])
            }
            Res::Def(d) if r.rest == 0 => {
                // `core::mem::size_of::<T>()`, computed here: the core's body asks an
                // intrinsic, which has no body to evaluate.
                if matches!(last, "size_of" | "align_of")
                    && !self.items.is_user(d)
                    && let Some(v) = self.layout_query(scope, last, fp)
                {
                    return v.map(|v| Val::int(v, Some(IntTy::Usize)));
                }
                let mut args = Vec::new();
                for a in &c.args {
                    args.push(self.expr(scope, a, locals, None)?);
                }
                self.call(d, &args)
            }
            _ => Err(format!("`{}` is not a `const fn`", names.join("::")).into()),
        }
    }

    /// A `const fn` called with argument values.
    fn call(&self, d: DefId, args: &[Val]) -> Eval<Val> {
        self.step()?;
        let items = self.items;
        let def = items.def(d);
        let (DefKind::Fn { body: Some(body), .. }, Some(sig)) = (&def.kind, items.fn_sig(d)) else {
            return Err(format!("`{}` is not a `const fn`", items.name(d)).into());
        };
        if sig.constness.is_none() {
            return Err(format!("`{}` is not a `const fn`", items.name(d)).into());
        }
        if !sig.generics.params.is_empty() || sig.inputs.len() != args.len() {
            return Err(format!("a call of the generic or variadic `{}`", items.name(d)).into());
        }
        let inner = self.nested(d)?;
        let mut locals = Vec::new();
        for (input, v) in sig.inputs.iter().zip(args) {
            let syn::FnArg::Typed(pt) = input else { return Err("a method".into()) };
            let syn::Pat::Ident(id) = &*pt.pat else {
                return Err("a parameter with a pattern".into());
            };
            let t = inner.value_ty(def.scope, &pt.ty)?;
            locals.push(Local { name: id.ident.to_string(), val: inner.coerce(*v, t)? });
        }
        let ret = match &sig.output {
            syn::ReturnType::Default => VTy::Unit,
            syn::ReturnType::Type(_, t) => inner.value_ty(def.scope, t)?,
        };
        let v = match inner.block(def.scope, body, &mut locals, expected(ret)) {
            Ok(v) | Err(Stop::Return(v)) => v,
            Err(Stop::Break(..) | Stop::Continue(_)) => {
                return Err("a `break` or `continue` outside a loop".into());
            }
            Err(e) => return Err(e),
        };
        inner.coerce(v, ret)
    }

    /// `size_of::<T>()` or `align_of::<T>()` of a primitive type, or of an array of them.
    fn layout_query(&self, scope: ScopeId, which: &str, fp: &syn::ExprPath) -> Option<Eval<i128>> {
        let seg = fp.path.segments.last()?;
        let syn::PathArguments::AngleBracketed(a) = &seg.arguments else { return None };
        let Some(syn::GenericArgument::Type(t)) = a.args.first() else { return None };
        Some(
            self.prim_layout(scope, t)
                .map(|(size, align)| if which == "size_of" { size } else { align }),
        )
    }

    fn prim_layout(&self, scope: ScopeId, t: &syn::Type) -> Eval<(i128, i128)> {
        match t {
            syn::Type::Paren(p) => self.prim_layout(scope, &p.elem),
            syn::Type::Array(a) => {
                let (size, align) = self.prim_layout(scope, &a.elem)?;
                let n = self.int(scope, &a.len, &mut Vec::new(), Some(IntTy::Usize))?.v;
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

    fn path(&self, scope: ScopeId, p: &syn::ExprPath) -> Eval<Val> {
        let items = self.items;
        // `<S as Trait>::N` and `<S>::N`: an associated constant of the struct or enum `S`.
        if let Some(q) = &p.qself {
            let name = p.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
            let syn::Type::Path(tp) = &*q.ty else { return Err("a qualified path".into()) };
            let names = path_names(&tp.path);
            let found = items
                .resolve_path(scope, &names, false, Ns::Type, &|_| None)
                .and_then(|r| match r.res {
                    Res::Def(d) if r.rest == 0 => assoc_const_of(items, d, &name),
                    _ => None,
                })
                .ok_or_else(|| format!("`{name}` is not a constant"))?;
            return self.nested(found)?.const_item(found);
        }
        let names = path_names(&p.path);
        let generics = self.generics;
        let env = |name: &str| -> Option<Res> {
            let g = generics?;
            items.all_generic_params(g).iter().find(|q| q.name == name).map(|q| Res::Param(q.index))
        };
        // `Self::N` in an impl: the impl's own constant, else one of the type's.
        if let [first, name] = &names[..]
            && first == "Self"
            && let Some(imp) = self.owner.and_then(|d| self_impl(items, d))
        {
            let own = items
                .assoc_item(imp, name, false)
                .filter(|c| matches!(items.def(*c).kind, DefKind::Const { .. }));
            let found = own
                .or_else(|| assoc_const_of(items, impl_self_def(items, imp)?, name))
                .ok_or_else(|| format!("`Self::{name}` is not a constant"))?;
            return self.nested(found)?.const_item(found);
        }
        let r = items
            .resolve_path(scope, &names, p.path.leading_colon.is_some(), Ns::Value, &env)
            .ok_or_else(|| format!("cannot find `{}`", names.join("::")))?;
        match r.res {
            Res::Param(_) if r.rest == 0 => {
                Err("arithmetic on a const parameter (generic_const_exprs) is not supported".into())
            }
            Res::Def(d) if r.rest == 0 => match &items.def(d).kind {
                DefKind::Const { .. } => self.nested(d)?.const_item(d),
                DefKind::Variant { .. } => self.discriminant(d).map(|v| Val::int(v, None)),
                _ => Err(format!("`{}` is not a constant", names.join("::")).into()),
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
                self.nested(found)?.const_item(found)
            }
            Res::Prim(p) if r.rest == 1 => {
                prim_const(p, names.last().map(String::as_str).unwrap_or(""))
            }
            _ => Err(format!("`{}` is not a constant", names.join("::")).into()),
        }
    }

    fn discriminant(&self, variant: DefId) -> Eval<i128> {
        let items = self.items;
        let Some((parent, index)) = items.variant_parent(variant) else {
            return Err("not a variant".into());
        };
        let DefKind::Enum { variants, .. } = &items.def(parent).kind else {
            return Err("not an enum".into());
        };
        let mut next: i128 = 0;
        for v in variants.iter().take(index as usize + 1) {
            if let DefKind::Variant { discriminant: Some(e), .. } = &items.def(*v).kind {
                // `isize` unless a `repr` says otherwise; the values are the same.
                let inner = self.nested(*v)?;
                next = inner.int(items.def(*v).scope, e, &mut Vec::new(), Some(IntTy::Isize))?.v;
            }
            if *v == variant {
                return Ok(next);
            }
            next += 1;
        }
        Err("not a variant of its enum".into())
    }
}

/// The integer type a declared type asks of an expression.
fn expected(t: VTy) -> Option<IntTy> {
    match t {
        VTy::Int(t) => t,
        _ => None,
    }
}

fn strip(e: &syn::Expr) -> &syn::Expr {
    match e {
        syn::Expr::Paren(p) => strip(&p.expr),
        syn::Expr::Group(g) => strip(&g.expr),
        e => e,
    }
}

/// The local an assignment writes: a name, not a field or an element.
fn local_slot(e: &syn::Expr, locals: &[Local]) -> Eval<usize> {
    if let syn::Expr::Path(p) = strip(e)
        && let Some(id) = p.path.get_ident()
        && let Some(k) = locals.iter().rposition(|l| id == &l.name)
    {
        return Ok(k);
    }
    Err("an assignment to something other than a local".into())
}

fn lit(l: &syn::Lit, expect: Option<IntTy>) -> Eval<Val> {
    match l {
        syn::Lit::Int(i) => {
            let v = i
                .base10_parse::<i128>()
                .or_else(|_| i.base10_parse::<u128>().map(|u| u as i128))
                .map_err(|e| e.to_string())?;
            match IntTy::from_name(i.suffix()).or(expect) {
                Some(t) if t == IntTy::U128 => Ok(Val::int(v, Some(t))),
                Some(t) => fit(v, t),
                None => Ok(Val::int(v, None)),
            }
        }
        syn::Lit::Bool(b) => Ok(Val::bool(b.value)),
        syn::Lit::Byte(b) => Ok(Val::int(i128::from(b.value()), Some(IntTy::U8))),
        syn::Lit::Char(c) => Ok(Val { v: i128::from(u32::from(c.value())), t: VTy::Char }),
        _ => Err("a literal other than an integer, `bool` or `char`".into()),
    }
}

/// `v` as a value of `t`, which it must be in rustc (an overflow is an error there).
fn fit(v: i128, t: IntTy) -> Eval<Val> {
    if t == IntTy::U128 {
        // Kept as its bits: `u128::MAX` is -1 here, as it lowers.
        return Ok(Val::int(v, Some(t)));
    }
    let (lo, hi) = t.range();
    if v < lo || (v >= 0 && v as u128 > hi) {
        return Err(format!("an operation that overflows `{}`", t.name()).into());
    }
    Ok(Val::int(v, Some(t)))
}

/// `v` wrapped to the width of `t`, as `as` and the wrapping operations do.
fn wrap(v: i128, t: IntTy) -> Val {
    let bits = t.bits();
    let w = if bits == 128 {
        v
    } else if t.is_signed() {
        (v << (128 - bits)) >> (128 - bits)
    } else {
        v & ((1i128 << bits) - 1)
    };
    Val::int(w, Some(t))
}

fn shift(op: &syn::BinOp) -> bool {
    matches!(
        op,
        syn::BinOp::Shl(_)
            | syn::BinOp::Shr(_)
            | syn::BinOp::ShlAssign(_)
            | syn::BinOp::ShrAssign(_)
    )
}

/// The operator of a compound assignment (`+=` is `+`).
fn compound_op(op: &syn::BinOp) -> Option<syn::BinOp> {
    use syn::BinOp as B;
    let span = proc_macro2::Span::call_site();
    Some(match op {
        B::AddAssign(_) => B::Add(syn::Token![+](span)),
        B::SubAssign(_) => B::Sub(syn::Token![-](span)),
        B::MulAssign(_) => B::Mul(syn::Token![*](span)),
        B::DivAssign(_) => B::Div(syn::Token![/](span)),
        B::RemAssign(_) => B::Rem(syn::Token![%](span)),
        B::BitAndAssign(_) => B::BitAnd(syn::Token![&](span)),
        B::BitOrAssign(_) => B::BitOr(syn::Token![|](span)),
        B::BitXorAssign(_) => B::BitXor(syn::Token![^](span)),
        B::ShlAssign(_) => B::Shl(syn::Token![<<](span)),
        B::ShrAssign(_) => B::Shr(syn::Token![>>](span)),
        _ => return None,
    })
}

/// A binary operation on two values, at the operands' type.
fn binary(op: &syn::BinOp, l: Val, r: Val) -> Eval<Val> {
    use syn::BinOp as B;
    let cmp = |b: bool| Ok(Val::bool(b));
    match op {
        B::Eq(_) => return cmp(l.v == r.v),
        B::Ne(_) => return cmp(l.v != r.v),
        B::Lt(_) => return cmp(l.v < r.v),
        B::Le(_) => return cmp(l.v <= r.v),
        B::Gt(_) => return cmp(l.v > r.v),
        B::Ge(_) => return cmp(l.v >= r.v),
        _ => {}
    }
    if l.t == VTy::Bool && r.t == VTy::Bool {
        return match op {
            B::BitAnd(_) => cmp(l.v & r.v != 0),
            B::BitOr(_) => cmp(l.v | r.v != 0),
            B::BitXor(_) => cmp(l.v ^ r.v != 0),
            _ => Err("an arithmetic operation on `bool`s".into()),
        };
    }
    let (VTy::Int(lt), VTy::Int(rt)) = (l.t, r.t) else {
        return Err("an arithmetic operation on values that are not integers".into());
    };
    if matches!(op, B::Shl(_) | B::Shr(_)) {
        let Some(t) = lt else {
            return Err("a shift of an integer whose type is not known here".into());
        };
        let n = u32::try_from(r.v)
            .ok()
            .filter(|n| *n < t.bits())
            .ok_or("a shift by the width or more")?;
        return Ok(match op {
            B::Shl(_) => wrap(l.v.wrapping_shl(n), t),
            _ if t == IntTy::U128 => Val::int(((l.v as u128) >> n) as i128, Some(t)),
            _ => Val::int(l.v >> n, Some(t)),
        });
    }
    let t = lt.or(rt);
    if t == Some(IntTy::U128) {
        return Err("arithmetic on `u128` constants".into());
    }
    let v = match op {
        B::Add(_) => l.v.checked_add(r.v),
        B::Sub(_) => l.v.checked_sub(r.v),
        B::Mul(_) => l.v.checked_mul(r.v),
        B::Div(_) => l.v.checked_div(r.v),
        B::Rem(_) => l.v.checked_rem(r.v),
        B::BitAnd(_) => Some(l.v & r.v),
        B::BitOr(_) => Some(l.v | r.v),
        B::BitXor(_) => Some(l.v ^ r.v),
        _ => None,
    }
    .ok_or("an operation that overflows or is not arithmetic")?;
    match t {
        Some(t) => fit(v, t),
        None => Ok(Val::int(v, None)),
    }
}

/// The integer methods, at the receiver's type where the result depends on it.
fn int_method(name: &str, recv: Val, args: &[Val]) -> Eval<Val> {
    let x = recv.v;
    let t = recv.int_ty();
    let arg = |k: usize| args.get(k).map(|a| a.v).ok_or("a missing argument");
    let width = |why: &str| -> Eval<IntTy> {
        t.filter(|t| *t != IntTy::U128)
            .ok_or_else(|| Stop::Err(format!("`{why}` of an integer whose type is not known here")))
    };
    // The value's bits as an unsigned number of its width.
    let bits = |t: IntTy| -> u128 { (x as u128) & (u128::MAX >> (128 - t.bits())) };
    let typed = |v: i128| match t {
        Some(t) => fit(v, t),
        None => Ok(Val::int(v, None)),
    };
    let u32v = |v: u32| Ok(Val::int(i128::from(v), Some(IntTy::U32)));
    match (name, args.len()) {
        ("pow", 1) => {
            let e = u32::try_from(arg(0)?).map_err(|_| "an exponent out of range")?;
            typed(x.checked_pow(e).ok_or("an operation that overflows")?)
        }
        ("min", 1) => typed(x.min(arg(0)?)),
        ("max", 1) => typed(x.max(arg(0)?)),
        ("clamp", 2) if arg(0)? <= arg(1)? => typed(x.clamp(arg(0)?, arg(1)?)),
        ("abs", 0) => typed(x.checked_abs().ok_or("an operation that overflows")?),
        ("abs_diff", 1) => {
            let d = (x - arg(0)?).unsigned_abs() as i128;
            match t {
                Some(t) if t.is_signed() => fit(d, t.unsigned()),
                _ => typed(d),
            }
        }
        ("signum", 0) => typed(x.signum()),
        ("div_ceil", 1) if arg(0)? > 0 && x >= 0 => typed((x + arg(0)? - 1) / arg(0)?),
        ("next_multiple_of", 1) if arg(0)? > 0 && x >= 0 => {
            typed((x + arg(0)? - 1) / arg(0)? * arg(0)?)
        }
        ("is_multiple_of", 1) => {
            Ok(Val::bool(if arg(0)? == 0 { x == 0 } else { x % arg(0)? == 0 }))
        }
        ("rem_euclid", 1) if arg(0)? != 0 => typed(x.rem_euclid(arg(0)?)),
        ("div_euclid", 1) if arg(0)? != 0 => {
            typed(x.checked_div_euclid(arg(0)?).ok_or("an operation that overflows")?)
        }
        ("next_power_of_two", 0) if x >= 0 => typed(
            u128::try_from(x)
                .ok()
                .and_then(|r| r.checked_next_power_of_two())
                .ok_or("an operation that overflows")? as i128,
        ),
        ("is_power_of_two", 0) => Ok(Val::bool(x > 0 && x & (x - 1) == 0)),
        ("ilog2", 0) if x > 0 => u32v(x.ilog2()),
        ("ilog10", 0) if x > 0 => u32v(x.ilog10()),
        ("ilog", 1) if x > 0 && arg(0)? >= 2 => u32v(x.ilog(arg(0)?)),
        ("isqrt", 0) if x >= 0 => typed(x.isqrt()),
        ("count_ones", 0) => {
            u32v(if x >= 0 { x.count_ones() } else { bits(width("count_ones")?).count_ones() })
        }
        ("count_zeros", 0) => {
            let t = width("count_zeros")?;
            u32v(t.bits() - bits(t).count_ones())
        }
        ("trailing_zeros", 0) => {
            u32v(if x != 0 { x.trailing_zeros() } else { width("trailing_zeros")?.bits() })
        }
        ("trailing_ones", 0) => u32v(if x >= 0 {
            x.trailing_ones()
        } else {
            bits(width("trailing_ones")?).trailing_ones()
        }),
        ("leading_zeros", 0) => {
            let t = width("leading_zeros")?;
            u32v(bits(t).leading_zeros() - (128 - t.bits()))
        }
        ("leading_ones", 0) => {
            let t = width("leading_ones")?;
            u32v((bits(t) << (128 - t.bits())).leading_ones())
        }
        ("wrapping_add", 1) => Ok(wrap(x.wrapping_add(arg(0)?), width("wrapping_add")?)),
        ("wrapping_sub", 1) => Ok(wrap(x.wrapping_sub(arg(0)?), width("wrapping_sub")?)),
        ("wrapping_mul", 1) => {
            let t = width("wrapping_mul")?;
            Ok(wrap(
                (bits(t).wrapping_mul((arg(0)? as u128) & (u128::MAX >> (128 - t.bits())))) as i128,
                t,
            ))
        }
        ("wrapping_neg", 0) => Ok(wrap(x.wrapping_neg(), width("wrapping_neg")?)),
        ("saturating_add" | "saturating_sub" | "saturating_mul", 1) => {
            let t = width(name)?;
            let v = match name {
                "saturating_add" => x.checked_add(arg(0)?),
                "saturating_sub" => x.checked_sub(arg(0)?),
                _ => x.checked_mul(arg(0)?),
            }
            .ok_or("an operation that overflows")?;
            let (lo, hi) = t.range();
            Ok(Val::int(v.clamp(lo, hi as i128), Some(t)))
        }
        ("rotate_left" | "rotate_right", 1) => {
            let t = width(name)?;
            let n = (arg(0)? as u32) % t.bits();
            let n = if name == "rotate_left" { n } else { (t.bits() - n) % t.bits() };
            let b = bits(t);
            let r = if n == 0 {
                b
            } else {
                (b << n | b >> (t.bits() - n)) & (u128::MAX >> (128 - t.bits()))
            };
            Ok(wrap(r as i128, t))
        }
        ("reverse_bits", 0) => {
            let t = width("reverse_bits")?;
            Ok(wrap((bits(t).reverse_bits() >> (128 - t.bits())) as i128, t))
        }
        ("swap_bytes", 0) => {
            let t = width("swap_bytes")?;
            Ok(wrap((bits(t).swap_bytes() >> (128 - t.bits())) as i128, t))
        }
        _ => Err(format!("the method `{name}`").into()),
    }
}

fn prim_const(p: Prim, name: &str) -> Eval<Val> {
    match p {
        Prim::Int(t) => {
            let (lo, hi) = t.range();
            match name {
                // `u128::MAX` is kept as its bits (-1), which is what the value lowers to.
                "MAX" => Ok(Val::int(hi as i128, Some(t))),
                "MIN" => Ok(Val::int(lo, Some(t))),
                "BITS" => Ok(Val::int(i128::from(t.bits()), Some(IntTy::U32))),
                _ => Err(format!("`{}::{name}` is not a constant", t.name()).into()),
            }
        }
        _ => Err("not an integer constant".into()),
    }
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
