//! syn to HIR: resolves locals, labels and item paths, finds closure captures, expands the
//! macros kernels use and refuses, with a diagnostic, the syntax that has no device meaning.

use super::*;
use crate::codes::*;
use crate::diag::Diagnostic;
use crate::items::{DefKind, Items, Ns, Res};
use syn::spanned::Spanned;

/// How deep expressions may nest: deeper input is refused instead of overflowing the stack of
/// the stages that recurse over it.
const MAX_DEPTH: u32 = 2000;

pub(super) fn span_of(node: &impl Spanned) -> Span {
    Span::from_pm2(node.span())
}

pub(super) struct Builder<'t, 'a> {
    pub(super) items: &'t Items<'a>,
    pub(super) source: &'t str,
    pub(super) owner: DefId,
    pub(super) file: FileId,
    pub(super) body: Body<'a>,
    /// Item scopes of the blocks being walked, innermost last.
    pub(super) scopes: Vec<ScopeId>,
    /// Locals in scope, innermost last (a later binding shadows an earlier one).
    pub(super) names: Vec<(String, LocalId)>,
    /// Enclosing loops and labelled blocks: (label, the loop's expression, whether it is a
    /// `loop`, a labelled block).
    pub(super) loops: Vec<(Option<String>, ExprId, bool, bool)>,
    /// Enclosing closures: (index, the first local that belongs to it).
    pub(super) closures: Vec<(u32, u32)>,
    pub(super) diags: &'t mut Vec<Diagnostic>,
    pub(super) depth: u32,
}

/// Builds the body of a function item.
pub fn build_body<'a>(
    items: &Items<'a>,
    source: &str,
    owner: DefId,
    diags: &mut Vec<Diagnostic>,
) -> Option<Body<'a>> {
    let def = items.def(owner);
    let (DefKind::Fn { body: Some(block), .. }, Some(sig)) = (&def.kind, items.fn_sig(owner))
    else {
        return None;
    };
    let block = match items.body(def.file, block) {
        Ok(block) => block,
        Err(e) => {
            // The core and the derived impls are rkc's own text (the core's tests parse every
            // body of the core), so this is a bug.
            diags.push(Diagnostic::new(RK_INTERNAL, e));
            return None;
        }
    };
    let mut b = Builder::new(items, source, owner, diags);
    b.body.unsafe_fn = sig.unsafety.is_some();
    for input in &sig.inputs {
        match input {
            syn::FnArg::Receiver(r) => {
                let local = b.new_local(
                    "self".into(),
                    r.mutability.is_some() && r.reference.is_none(),
                    span_of(r),
                );
                let pat =
                    b.alloc_pat(PatKind::Binding { local, by_ref: None, sub: None }, span_of(r));
                b.names.push(("self".into(), local));
                b.body.params.push(Param { pat });
            }
            syn::FnArg::Typed(pt) => {
                let mut bound = Vec::new();
                let pat = b.pat(&pt.pat, &mut bound);
                b.names.extend(bound);
                b.body.params.push(Param { pat });
            }
        }
    }
    b.body.value = b.block_expr(block, None, false, span_of(block));
    Some(b.body)
}

/// Builds the body of a `const` or `static` item (its initialiser).
pub fn build_const_body<'a>(
    items: &Items<'a>,
    source: &str,
    owner: DefId,
    expr: &'a syn::Expr,
    diags: &mut Vec<Diagnostic>,
) -> Body<'a> {
    let mut b = Builder::new(items, source, owner, diags);
    b.body.value = b.expr(expr);
    b.body
}

impl<'t, 'a> Builder<'t, 'a> {
    pub(super) fn new(
        items: &'t Items<'a>,
        source: &'t str,
        owner: DefId,
        diags: &'t mut Vec<Diagnostic>,
    ) -> Self {
        let def = items.def(owner);
        Builder {
            items,
            source,
            owner,
            file: def.file,
            body: Body {
                file: def.file,
                exprs: Vec::new(),
                pats: Vec::new(),
                locals: Vec::new(),
                params: Vec::new(),
                value: ExprId(0),
                closures: Vec::new(),
                unsafe_fn: false,
            },
            scopes: vec![def.scope],
            names: Vec::new(),
            loops: Vec::new(),
            closures: Vec::new(),
            diags,
            depth: 0,
        }
    }

    pub(super) fn error(&mut self, d: Diagnostic) {
        let d = if self.file.is_user() { d } else { crate::ty::lower::internal(d) };
        self.diags.push(d);
    }

    pub(super) fn err_expr(&mut self, d: Diagnostic, span: Span) -> ExprId {
        self.error(d);
        self.alloc(ExprKind::Err, span)
    }

    pub(super) fn alloc(&mut self, kind: ExprKind<'a>, span: Span) -> ExprId {
        self.body.exprs.push(Expr { kind, span });
        ExprId(self.body.exprs.len() as u32 - 1)
    }

    pub(super) fn alloc_pat(&mut self, kind: PatKind<'a>, span: Span) -> PatId {
        self.body.pats.push(Pat { kind, span });
        PatId(self.body.pats.len() as u32 - 1)
    }

    pub(super) fn new_local(&mut self, name: String, mutable: bool, span: Span) -> LocalId {
        self.body.locals.push(LocalDef { name, mutable, span });
        LocalId(self.body.locals.len() as u32 - 1)
    }

    pub(super) fn scope(&self) -> ScopeId {
        *self.scopes.last().unwrap_or(&self.items.def(self.owner).scope)
    }

    /// A local in scope by name; using one that an enclosing closure did not declare makes it
    /// a capture of that closure.
    fn lookup_local(&mut self, name: &str) -> Option<LocalId> {
        let local = self.names.iter().rev().find(|(n, _)| n == name).map(|(_, l)| *l)?;
        for (index, first) in &self.closures {
            if local.0 < *first {
                let upvars = &mut self.body.closures[*index as usize].upvars;
                if !upvars.contains(&local) {
                    upvars.push(local);
                }
            }
        }
        Some(local)
    }

    /// The generic parameters and `Self` of the owner, for paths.
    pub(super) fn generic_env(&self) -> impl Fn(&str) -> Option<Res> + '_ {
        let items = self.items;
        let owner = self.owner;
        move |name: &str| {
            if name == "Self" {
                return match items.container(owner) {
                    crate::items::Container::Impl(p) | crate::items::Container::Trait(p) => {
                        Some(Res::SelfTy(p))
                    }
                    crate::items::Container::Free => None,
                };
            }
            items
                .all_generic_params(owner)
                .iter()
                .rev()
                .find(|p| p.name == name)
                .map(|p| Res::Param(p.index))
        }
    }

    pub(super) fn path(
        &mut self,
        qself: Option<&'a syn::QSelf>,
        path: &'a syn::Path,
        ns: Ns,
        span: Span,
    ) -> PathExpr<'a> {
        let scope = self.scope();
        if qself.is_some() {
            return PathExpr { res: None, path, qself, scope, span };
        }
        if path.leading_colon.is_none()
            && path.segments.len() == 1
            && path.segments[0].arguments.is_none()
            && ns == Ns::Value
            && let Some(local) = self.lookup_local(&path.segments[0].ident.to_string())
        {
            let res = PathRes { res: Res::Local(local.0), resolved: 0, rest: 0 };
            return PathExpr { res: Some(res), path, qself, scope, span };
        }
        let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        let env = self.generic_env();
        let mut res =
            self.items.resolve_path(scope, &names, path.leading_colon.is_some(), ns, &env);
        if res.is_none() && ns == Ns::Value && names.len() > 1 {
            // `Vec3::new`: the first segments name a type, the rest an associated item.
            res = self.items.resolve_path(
                scope,
                &names,
                path.leading_colon.is_some(),
                Ns::Type,
                &env,
            );
        }
        if res.is_none() && ns == Ns::Type && names.len() == 1 {
            res = self.items.resolve_path(scope, &names, false, Ns::Value, &env);
        }
        PathExpr { res, path, qself, scope, span }
    }

    fn enter(&mut self, span: Span) -> bool {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            if self.depth == MAX_DEPTH + 1 {
                self.error(
                    Diagnostic::new(
                        RK_UNSUPPORTED_EXPR,
                        format!("expressions nest more than {MAX_DEPTH} levels deep"),
                    )
                    .at(span, "nested too deeply")
                    .help("split the expression with `let` bindings"),
                );
            }
            return false;
        }
        true
    }

    pub fn expr(&mut self, e: &'a syn::Expr) -> ExprId {
        let span = span_of(e);
        if !self.enter(span) {
            self.depth -= 1;
            return self.alloc(ExprKind::Err, span);
        }
        let id = self.expr_inner(e, span);
        self.depth -= 1;
        id
    }

    fn expr_inner(&mut self, e: &'a syn::Expr, span: Span) -> ExprId {
        match e {
            syn::Expr::Paren(p) => self.expr(&p.expr),
            syn::Expr::Group(g) => self.expr(&g.expr),
            // A byte string is a reference to an array of its bytes (`&'static [u8; N]`), so
            // it is built as `&[b0, b1, ...]`, which a constant promotes as rustc does.
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::ByteStr(b), .. }) => {
                let elems = b
                    .value()
                    .into_iter()
                    .map(|byte| {
                        self.alloc(ExprKind::Lit(Lit::Int(u128::from(byte), Some(IntTy::U8))), span)
                    })
                    .collect();
                let array = self.alloc(ExprKind::Array(elems), span);
                self.alloc(ExprKind::Ref(false, array), span)
            }
            syn::Expr::Lit(l) => match self.lit(&l.lit, span) {
                Some(lit) => self.alloc(ExprKind::Lit(lit), span),
                None => self.alloc(ExprKind::Err, span),
            },
            syn::Expr::Path(p) => {
                let path = self.path(p.qself.as_ref(), &p.path, Ns::Value, span);
                self.alloc(ExprKind::Path(path), span)
            }
            syn::Expr::Call(c) => {
                let callee = self.expr(&c.func);
                let args = c.args.iter().map(|a| self.expr(a)).collect();
                self.alloc(ExprKind::Call(callee, args), span)
            }
            syn::Expr::MethodCall(m) => {
                let receiver = self.expr(&m.receiver);
                let args = m.args.iter().map(|a| self.expr(a)).collect();
                let scope = self.scope();
                self.alloc(
                    ExprKind::MethodCall {
                        receiver,
                        name: m.method.to_string(),
                        name_span: span_of(&m.method),
                        turbofish: m.turbofish.as_ref(),
                        args,
                        scope,
                    },
                    span,
                )
            }
            syn::Expr::Binary(b) => {
                let l = self.expr(&b.left);
                let r = self.expr(&b.right);
                let (op, assign) = bin_op(&b.op);
                self.alloc(
                    if assign { ExprKind::AssignOp(op, l, r) } else { ExprKind::Binary(op, l, r) },
                    span,
                )
            }
            syn::Expr::Assign(a) => {
                if let syn::Expr::Infer(_) = a.left.as_ref() {
                    // `_ = e;` evaluates `e` and drops it.
                    let v = self.expr(&a.right);
                    return self.alloc(
                        ExprKind::Block(Block {
                            stmts: vec![Stmt::Expr { expr: v, semi: true }],
                            tail: None,
                            unsafe_block: false,
                            label: None,
                        }),
                        span,
                    );
                }
                if is_destructuring(&a.left) {
                    return self.destructuring_assign(&a.left, &a.right, span);
                }
                let l = self.expr(&a.left);
                let r = self.expr(&a.right);
                self.alloc(ExprKind::Assign(l, r), span)
            }
            syn::Expr::Unary(u) => {
                let inner = self.expr(&u.expr);
                let op = match u.op {
                    syn::UnOp::Neg(_) => UnOp::Neg,
                    syn::UnOp::Not(_) => UnOp::Not,
                    _ => UnOp::Deref,
                };
                self.alloc(ExprKind::Unary(op, inner), span)
            }
            syn::Expr::Reference(r) => {
                let inner = self.expr(&r.expr);
                self.alloc(ExprKind::Ref(r.mutability.is_some(), inner), span)
            }
            syn::Expr::RawAddr(r) => {
                let inner = self.expr(&r.expr);
                self.alloc(
                    ExprKind::RawRef(matches!(r.mutability, syn::PointerMutability::Mut(_)), inner),
                    span,
                )
            }
            syn::Expr::Cast(c) => {
                let inner = self.expr(&c.expr);
                let scope = self.scope();
                self.alloc(ExprKind::Cast(inner, TyRef { ty: &c.ty, scope }), span)
            }
            syn::Expr::Field(f) => {
                let base = self.expr(&f.base);
                let name = match &f.member {
                    syn::Member::Named(n) => FieldName::Named(n.to_string()),
                    syn::Member::Unnamed(i) => FieldName::Index(i.index),
                };
                self.alloc(ExprKind::Field(base, name), span)
            }
            syn::Expr::Index(i) => {
                let base = self.expr(&i.expr);
                let index = self.expr(&i.index);
                self.alloc(ExprKind::Index(base, index), span)
            }
            syn::Expr::Tuple(t) => {
                let elems = t.elems.iter().map(|x| self.expr(x)).collect();
                self.alloc(ExprKind::Tuple(elems), span)
            }
            syn::Expr::Array(a) => {
                let elems = a.elems.iter().map(|x| self.expr(x)).collect();
                self.alloc(ExprKind::Array(elems), span)
            }
            syn::Expr::Repeat(r) => {
                let elem = self.expr(&r.expr);
                let scope = self.scope();
                self.alloc(ExprKind::Repeat(elem, &r.len, scope), span)
            }
            syn::Expr::Struct(s) => {
                let path = self.path(s.qself.as_ref(), &s.path, Ns::Type, span_of(&s.path));
                let mut fields = Vec::new();
                for f in &s.fields {
                    let name = match &f.member {
                        syn::Member::Named(n) => n.to_string(),
                        syn::Member::Unnamed(i) => i.index.to_string(),
                    };
                    let v = self.expr(&f.expr);
                    fields.push((name, v, span_of(&f.member)));
                }
                let base = s.rest.as_ref().map(|r| self.expr(r));
                if s.dot2_token.is_some() && s.rest.is_none() {
                    return self.err_expr(
                        Diagnostic::new(
                            RK_UNSUPPORTED_EXPR,
                            "default field values (`..` without a base) are not supported",
                        )
                        .at(span, "needs `..base`"),
                        span,
                    );
                }
                self.alloc(ExprKind::Struct { path, fields, base }, span)
            }
            syn::Expr::Block(b) => {
                let label = b.label.as_ref().map(|l| l.name.ident.to_string());
                self.block_expr(&b.block, label, false, span)
            }
            syn::Expr::Unsafe(u) => self.block_expr(&u.block, None, true, span),
            syn::Expr::If(i) => {
                let names = self.names.len();
                let cond = self.cond(&i.cond);
                let then = self.block_expr(&i.then_branch, None, false, span_of(&i.then_branch));
                // Bindings of `if let` are visible in the then branch only.
                self.names.truncate(names);
                let els = i.else_branch.as_ref().map(|(_, e)| self.expr(e));
                self.alloc(ExprKind::If(cond, then, els), span)
            }
            syn::Expr::Let(_) => {
                // A `let` outside an `if`/`while` condition.
                self.err_expr(
                    Diagnostic::new(
                        RK_UNSUPPORTED_EXPR,
                        "`let` expressions are only allowed in `if` and `while` conditions",
                    )
                    .at(span, "here"),
                    span,
                )
            }
            syn::Expr::Match(m) => {
                let scrutinee = self.expr(&m.expr);
                let mut arms = Vec::new();
                for arm in &m.arms {
                    let names = self.names.len();
                    let mut bound = Vec::new();
                    let pat = self.pat(&arm.pat, &mut bound);
                    self.names.extend(bound);
                    let guard = arm.guard.as_ref().map(|(_, g)| self.guard(g));
                    let body = self.expr(&arm.body);
                    self.names.truncate(names);
                    arms.push(Arm { pat, guard, body });
                }
                self.alloc(ExprKind::Match(scrutinee, arms), span)
            }
            syn::Expr::Loop(l) => {
                let label = l.label.as_ref().map(|l| l.name.ident.to_string());
                let id = self.alloc(ExprKind::Err, span);
                self.loops.push((label.clone(), id, true, false));
                let body = self.block_expr(&l.body, None, false, span_of(&l.body));
                self.loops.pop();
                self.body.exprs[id.0 as usize].kind = ExprKind::Loop { body };
                id
            }
            syn::Expr::While(w) => {
                let label = w.label.as_ref().map(|l| l.name.ident.to_string());
                let id = self.alloc(ExprKind::Err, span);
                let names = self.names.len();
                let cond = self.cond(&w.cond);
                self.loops.push((label.clone(), id, false, false));
                let body = self.block_expr(&w.body, None, false, span_of(&w.body));
                self.loops.pop();
                self.names.truncate(names);
                self.body.exprs[id.0 as usize].kind = ExprKind::While { cond, body };
                id
            }
            syn::Expr::ForLoop(f) => {
                let label = f.label.as_ref().map(|l| l.name.ident.to_string());
                let iter = self.expr(&f.expr);
                let id = self.alloc(ExprKind::Err, span);
                let names = self.names.len();
                let mut bound = Vec::new();
                let pat = self.pat(&f.pat, &mut bound);
                self.names.extend(bound);
                self.loops.push((label.clone(), id, false, false));
                let body = self.block_expr(&f.body, None, false, span_of(&f.body));
                self.loops.pop();
                self.names.truncate(names);
                self.body.exprs[id.0 as usize].kind = ExprKind::For { pat, iter, body };
                id
            }
            syn::Expr::Break(b) => {
                let label = b.label.as_ref().map(|l| l.ident.to_string());
                let value = b.expr.as_ref().map(|v| self.expr(v));
                match self.loop_target(label.as_deref(), span, "break") {
                    Some(target) => self.alloc(ExprKind::Break { target, value }, span),
                    None => self.alloc(ExprKind::Err, span),
                }
            }
            syn::Expr::Continue(c) => {
                let label = c.label.as_ref().map(|l| l.ident.to_string());
                match self.loop_target(label.as_deref(), span, "continue") {
                    Some(target) => self.alloc(ExprKind::Continue { target }, span),
                    None => self.alloc(ExprKind::Err, span),
                }
            }
            syn::Expr::Return(r) => {
                let v = r.expr.as_ref().map(|v| self.expr(v));
                self.alloc(ExprKind::Return(v), span)
            }
            syn::Expr::Closure(c) => self.closure(c, span),
            syn::Expr::Range(r) => {
                let start = r.start.as_ref().map(|x| self.expr(x));
                let end = r.end.as_ref().map(|x| self.expr(x));
                self.alloc(
                    ExprKind::Range {
                        start,
                        end,
                        inclusive: matches!(r.limits, syn::RangeLimits::Closed(_)),
                    },
                    span,
                )
            }
            syn::Expr::Try(t) => {
                let inner = self.expr(&t.expr);
                self.alloc(ExprKind::Try(inner), span)
            }
            syn::Expr::Macro(m) => self.macro_expr(&m.mac, span),
            syn::Expr::Async(_) | syn::Expr::Await(_) => self.err_expr(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, "`async` code cannot run in kernels")
                    .at(span, "GPU code has no executor"),
                span,
            ),
            syn::Expr::Yield(_) => self.err_expr(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, "`yield` cannot be used in kernels")
                    .at(span, "a coroutine"),
                span,
            ),
            syn::Expr::TryBlock(_) => self.err_expr(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, "`try` blocks are unstable Rust")
                    .at(span, "not supported"),
                span,
            ),
            syn::Expr::Const(c) => self.block_expr(&c.block, None, false, span),
            syn::Expr::Infer(_) => self.err_expr(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, "`_` is not an expression").at(span, "here"),
                span,
            ),
            _ => self.err_expr(
                Diagnostic::new(
                    RK_UNSUPPORTED_EXPR,
                    "this expression cannot be compiled for a GPU",
                )
                .at(span, "rkc does not know this syntax"),
                span,
            ),
        }
    }

    /// `(a, b) = e`, `[x, _, ..] = e`, `P { x, y: z } = e`, `P(a, b) = e`, as rustc desugars
    /// them: `{ let (t0, t1) = e; a = t0; b = t1; }`, the right side first, then each place
    /// from left to right.
    fn destructuring_assign(
        &mut self,
        left: &'a syn::Expr,
        right: &'a syn::Expr,
        span: Span,
    ) -> ExprId {
        let init = self.expr(right);
        let mut leaves = Vec::new();
        let pat = self.assignee_pat(left, &mut leaves);
        let mut stmts = vec![Stmt::Let { pat, ty: None, init: Some(init), els: None, span }];
        for (local, place) in leaves {
            let pspan = span_of(place);
            let lhs = self.expr(place);
            let ident = syn::Ident::new("destructured", proc_macro2::Span::call_site());
            let path = self.items.arena.paths.alloc(syn::Path::from(ident));
            let res = PathRes { res: Res::Local(local.0), resolved: 0, rest: 0 };
            let value = self.alloc(
                ExprKind::Path(PathExpr {
                    res: Some(res),
                    path,
                    qself: None,
                    scope: self.scope(),
                    span: pspan,
                }),
                pspan,
            );
            let assign = self.alloc(ExprKind::Assign(lhs, value), pspan);
            stmts.push(Stmt::Expr { expr: assign, semi: true });
        }
        self.alloc(
            ExprKind::Block(Block { stmts, tail: None, unsafe_block: false, label: None }),
            span,
        )
    }

    /// The pattern of a destructuring assignment's left side: a fresh local for each place.
    fn assignee_pat(
        &mut self,
        e: &'a syn::Expr,
        leaves: &mut Vec<(LocalId, &'a syn::Expr)>,
    ) -> PatId {
        let span = span_of(e);
        let is_rest = |e: &syn::Expr| matches!(e, syn::Expr::Range(r) if r.start.is_none() && r.end.is_none() && matches!(r.limits, syn::RangeLimits::HalfOpen(_)));
        match e {
            syn::Expr::Paren(p) => self.assignee_pat(&p.expr, leaves),
            syn::Expr::Infer(_) => self.alloc_pat(PatKind::Wild, span),
            syn::Expr::Tuple(t) => {
                let (pats, rest) = self.assignee_list(t.elems.iter(), leaves, &is_rest);
                self.alloc_pat(PatKind::Tuple { pats, rest }, span)
            }
            syn::Expr::Call(c) if matches!(&*c.func, syn::Expr::Path(_)) => {
                let syn::Expr::Path(fp) = &*c.func else { unreachable!("matched above") };
                let path = self.path(fp.qself.as_ref(), &fp.path, Ns::Value, span_of(&fp.path));
                let (pats, rest) = self.assignee_list(c.args.iter(), leaves, &is_rest);
                self.alloc_pat(PatKind::TupleStruct { path, pats, rest }, span)
            }
            syn::Expr::Array(a) => {
                let (mut before, rest) = self.assignee_list(a.elems.iter(), leaves, &is_rest);
                let (rest, after) = match rest {
                    Some(k) => {
                        let after = before.split_off(k);
                        (Some(self.alloc_pat(PatKind::Wild, span)), after)
                    }
                    None => (None, Vec::new()),
                };
                self.alloc_pat(PatKind::Slice { before, rest, after }, span)
            }
            syn::Expr::Struct(st) if st.rest.is_none() => {
                let path = self.path(st.qself.as_ref(), &st.path, Ns::Type, span_of(&st.path));
                let mut fields = Vec::new();
                for f in &st.fields {
                    let name = match &f.member {
                        syn::Member::Named(n) => n.to_string(),
                        syn::Member::Unnamed(i) => i.index.to_string(),
                    };
                    fields.push((name, self.assignee_pat(&f.expr, leaves)));
                }
                let rest = st.dot2_token.is_some();
                self.alloc_pat(PatKind::Struct { path, fields, rest }, span)
            }
            _ => {
                let local = self.new_local("destructured".into(), false, span);
                leaves.push((local, e));
                self.alloc_pat(PatKind::Binding { local, by_ref: None, sub: None }, span)
            }
        }
    }

    fn assignee_list(
        &mut self,
        elems: impl Iterator<Item = &'a syn::Expr>,
        leaves: &mut Vec<(LocalId, &'a syn::Expr)>,
        is_rest: &dyn Fn(&syn::Expr) -> bool,
    ) -> (Vec<PatId>, Option<usize>) {
        let mut pats = Vec::new();
        let mut rest = None;
        for e in elems {
            if is_rest(e) && rest.is_none() {
                rest = Some(pats.len());
            } else {
                pats.push(self.assignee_pat(e, leaves));
            }
        }
        (pats, rest)
    }

    fn loop_target(&mut self, label: Option<&str>, span: Span, what: &str) -> Option<ExprId> {
        let found = match label {
            Some(l) => {
                let target = self.loops.iter().rev().find(|(name, ..)| name.as_deref() == Some(l));
                // `continue` goes to a loop's next iteration: a labelled block has none
                // (rustc's E0696).
                if let Some((_, _, _, true)) = target
                    && what == "continue"
                {
                    self.error(
                        Diagnostic::new(
                            RK_BREAK_OUTSIDE_LOOP,
                            format!("`continue` pointing to a labeled block `'{l}`"),
                        )
                        .at(span, "labeled blocks cannot be `continue`'d")
                        .help("`break` leaves a labeled block; `continue` needs a labeled loop"),
                    );
                    return None;
                }
                target.map(|(_, id, ..)| *id)
            }
            // An unlabelled `break` leaves the innermost loop, never a labelled block.
            None => self.loops.iter().rev().find(|(_, _, _, block)| !block).map(|(_, id, ..)| *id),
        };
        if found.is_none() {
            let d = match label {
                Some(l) => Diagnostic::new(
                    RK_BREAK_OUTSIDE_LOOP,
                    format!("use of undeclared label `'{l}`"),
                )
                .at(span, "no enclosing loop has this label"),
                None => {
                    Diagnostic::new(RK_BREAK_OUTSIDE_LOOP, format!("`{what}` outside of a loop"))
                        .at(span, format!("cannot `{what}` outside of a loop"))
                }
            };
            self.error(d);
        }
        found
    }

    /// An `if`/`while` condition: `let` expressions (and `&&` chains of them) bind into the
    /// current name scope, which the caller ends after the then branch or loop body.
    pub(super) fn cond(&mut self, e: &'a syn::Expr) -> ExprId {
        let span = span_of(e);
        match e {
            syn::Expr::Let(l) => {
                let scrutinee = self.expr(&l.expr);
                let mut bound = Vec::new();
                let pat = self.pat(&l.pat, &mut bound);
                self.names.extend(bound);
                self.alloc(ExprKind::Let(pat, scrutinee), span)
            }
            syn::Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_)) => {
                let l = self.cond(&b.left);
                let r = self.cond(&b.right);
                self.alloc(ExprKind::Binary(BinOp::And, l, r), span)
            }
            syn::Expr::Paren(p) if !matches!(p.expr.as_ref(), syn::Expr::Let(_)) => self.expr(e),
            _ => self.expr(e),
        }
    }

    /// A match guard, which may be an `if let` chain too.
    pub(super) fn guard(&mut self, e: &'a syn::Expr) -> ExprId {
        self.cond(e)
    }

    fn block_expr(
        &mut self,
        block: &'a syn::Block,
        label: Option<String>,
        unsafe_block: bool,
        span: Span,
    ) -> ExprId {
        let names = self.names.len();
        let own_scope = self.items.block_scopes.get(&(std::ptr::from_ref(block) as usize)).copied();
        if let Some(s) = own_scope {
            self.scopes.push(s);
        }
        let id = if label.is_some() { Some(self.alloc(ExprKind::Err, span)) } else { None };
        if let Some(id) = id {
            self.loops.push((label.clone(), id, false, true));
        }
        let mut stmts = Vec::new();
        let mut tail = None;
        let n = block.stmts.len();
        for (k, stmt) in block.stmts.iter().enumerate() {
            match stmt {
                syn::Stmt::Local(l) => {
                    if !crate::items::collect::cfg_enabled(&l.attrs) {
                        continue;
                    }
                    let init = l.init.as_ref().map(|i| self.expr(&i.expr));
                    let els =
                        l.init.as_ref().and_then(|i| i.diverge.as_ref()).map(|(_, e)| self.expr(e));
                    let (pat_syn, ty) = match &l.pat {
                        syn::Pat::Type(pt) => {
                            (pt.pat.as_ref(), Some(TyRef { ty: &pt.ty, scope: self.scope() }))
                        }
                        other => (other, None),
                    };
                    let mut bound = Vec::new();
                    let pat = self.pat(pat_syn, &mut bound);
                    self.names.extend(bound);
                    stmts.push(Stmt::Let { pat, ty, init, els, span: span_of(l) });
                }
                syn::Stmt::Item(_) => {}
                syn::Stmt::Expr(e, semi) => {
                    let id = self.expr(e);
                    if k + 1 == n && semi.is_none() {
                        tail = Some(id);
                    } else {
                        stmts.push(Stmt::Expr { expr: id, semi: semi.is_some() });
                    }
                }
                syn::Stmt::Macro(m) => {
                    let id = self.macro_expr(&m.mac, span_of(m));
                    if k + 1 == n && m.semi_token.is_none() {
                        tail = Some(id);
                    } else {
                        stmts.push(Stmt::Expr { expr: id, semi: m.semi_token.is_some() });
                    }
                }
            }
        }
        if id.is_some() {
            self.loops.pop();
        }
        if own_scope.is_some() {
            self.scopes.pop();
        }
        self.names.truncate(names);
        let kind = ExprKind::Block(Block { stmts, tail, unsafe_block, label });
        match id {
            Some(id) => {
                self.body.exprs[id.0 as usize].kind = kind;
                id
            }
            None => self.alloc(kind, span),
        }
    }

    pub(super) fn closure(&mut self, c: &'a syn::ExprClosure, span: Span) -> ExprId {
        if c.asyncness.is_some() || c.constness.is_some() {
            return self.err_expr(
                Diagnostic::new(
                    RK_UNSUPPORTED_EXPR,
                    "async and const closures are not supported in kernels",
                )
                .at(span, "here"),
                span,
            );
        }
        let index = self.body.closures.len() as u32;
        self.body.closures.push(ClosureDef::default());
        self.closures.push((index, self.body.locals.len() as u32));
        let names = self.names.len();
        let mut params = Vec::new();
        for input in &c.inputs {
            let (p, ty) = match input {
                syn::Pat::Type(pt) => {
                    (pt.pat.as_ref(), Some(TyRef { ty: &pt.ty, scope: self.scope() }))
                }
                other => (other, None),
            };
            let mut bound = Vec::new();
            let pat = self.pat(p, &mut bound);
            self.names.extend(bound);
            params.push((pat, ty));
        }
        let ret = match &c.output {
            syn::ReturnType::Default => None,
            syn::ReturnType::Type(_, t) => Some(TyRef { ty: t, scope: self.scope() }),
        };
        // A closure's body is not inside the enclosing loops: `break` there is an error.
        let loops = std::mem::take(&mut self.loops);
        let body = self.expr(&c.body);
        self.loops = loops;
        self.names.truncate(names);
        self.closures.pop();
        let id = self.alloc(
            ExprKind::Closure { params, ret, body, is_move: c.capture.is_some(), index },
            span,
        );
        self.body.closures[index as usize].expr = Some(id);
        id
    }

    pub(super) fn lit(&mut self, lit: &syn::Lit, span: Span) -> Option<Lit> {
        match lit {
            syn::Lit::Int(i) => {
                let suffix = i.suffix();
                let digits = i.base10_digits();
                let (neg, digits) = match digits.strip_prefix('-') {
                    Some(d) => (true, d),
                    None => (false, digits),
                };
                if suffix == "f32" || suffix == "f64" {
                    let v: f64 = digits.parse().ok()?;
                    let t = if suffix == "f32" { FloatTy::F32 } else { FloatTy::F64 };
                    return Some(Lit::Float(if neg { -v } else { v }, Some(t)));
                }
                let ty = if suffix.is_empty() { None } else { IntTy::from_name(suffix) };
                if !suffix.is_empty() && ty.is_none() {
                    self.error(
                        Diagnostic::new(
                            RK_UNSUPPORTED_TYPE,
                            format!(
                                "integer literals of type `{suffix}` are not supported in kernels"
                            ),
                        )
                        .at(span, "not an integer or float type"),
                    );
                    return None;
                }
                // A negative literal (in a pattern) keeps its magnitude; the caller negates.
                let _ = neg;
                match digits.parse::<u128>() {
                    Ok(v) => Some(Lit::Int(v, ty)),
                    Err(_) => {
                        self.error(
                            Diagnostic::new(
                                RK_LITERAL_OUT_OF_RANGE,
                                "integer literal is too large",
                            )
                            .at(span, "does not fit in 128 bits"),
                        );
                        None
                    }
                }
            }
            syn::Lit::Float(f) => {
                let ty = match f.suffix() {
                    "f32" => Some(FloatTy::F32),
                    "f64" => Some(FloatTy::F64),
                    "" => None,
                    other => {
                        self.error(
                            Diagnostic::new(
                                RK_UNSUPPORTED_TYPE,
                                format!(
                                    "float literals of type `{other}` are not supported in kernels"
                                ),
                            )
                            .at(span, "here"),
                        );
                        return None;
                    }
                };
                let digits = f.base10_digits();
                let v: f64 = digits.trim_start_matches('-').parse().ok()?;
                Some(Lit::Float(v, ty))
            }
            syn::Lit::Bool(b) => Some(Lit::Bool(b.value)),
            syn::Lit::Char(c) => Some(Lit::Char(c.value())),
            syn::Lit::Byte(b) => Some(Lit::Int(u128::from(b.value()), Some(IntTy::U8))),
            syn::Lit::Str(s) => Some(Lit::Str(s.value())),
            _ => {
                self.error(
                    Diagnostic::new(
                        RK_UNSUPPORTED_EXPR,
                        "C strings and byte-string patterns cannot be used in kernels",
                    )
                    .at(span, "this literal has no device form"),
                );
                None
            }
        }
    }

    /// Whether a literal token is written with a leading minus (negative pattern literals).
    pub(super) fn lit_negative(lit: &syn::Lit) -> bool {
        match lit {
            syn::Lit::Int(i) => i.base10_digits().starts_with('-'),
            syn::Lit::Float(f) => f.base10_digits().starts_with('-'),
            _ => false,
        }
    }
}

fn bin_op(op: &syn::BinOp) -> (BinOp, bool) {
    use syn::BinOp as S;
    match op {
        S::Add(_) => (BinOp::Add, false),
        S::Sub(_) => (BinOp::Sub, false),
        S::Mul(_) => (BinOp::Mul, false),
        S::Div(_) => (BinOp::Div, false),
        S::Rem(_) => (BinOp::Rem, false),
        S::And(_) => (BinOp::And, false),
        S::Or(_) => (BinOp::Or, false),
        S::BitXor(_) => (BinOp::BitXor, false),
        S::BitAnd(_) => (BinOp::BitAnd, false),
        S::BitOr(_) => (BinOp::BitOr, false),
        S::Shl(_) => (BinOp::Shl, false),
        S::Shr(_) => (BinOp::Shr, false),
        S::Eq(_) => (BinOp::Eq, false),
        S::Lt(_) => (BinOp::Lt, false),
        S::Le(_) => (BinOp::Le, false),
        S::Ne(_) => (BinOp::Ne, false),
        S::Ge(_) => (BinOp::Ge, false),
        S::Gt(_) => (BinOp::Gt, false),
        S::AddAssign(_) => (BinOp::Add, true),
        S::SubAssign(_) => (BinOp::Sub, true),
        S::MulAssign(_) => (BinOp::Mul, true),
        S::DivAssign(_) => (BinOp::Div, true),
        S::RemAssign(_) => (BinOp::Rem, true),
        S::BitXorAssign(_) => (BinOp::BitXor, true),
        S::BitAndAssign(_) => (BinOp::BitAnd, true),
        S::BitOrAssign(_) => (BinOp::BitOr, true),
        S::ShlAssign(_) => (BinOp::Shl, true),
        S::ShrAssign(_) => (BinOp::Shr, true),
        _ => (BinOp::Add, false),
    }
}

/// Whether an assignment's left side destructures (a tuple, array, struct or tuple-struct
/// expression) rather than naming one place.
fn is_destructuring(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Paren(p) => is_destructuring(&p.expr),
        syn::Expr::Tuple(_) | syn::Expr::Array(_) => true,
        syn::Expr::Struct(s) => s.rest.is_none(),
        syn::Expr::Call(c) => matches!(&*c.func, syn::Expr::Path(_)),
        _ => false,
    }
}
