//! The checker of one body instance: expressions and statements, with expectations, and the
//! end of the body (pending obligations, numeric fallback, resolution of every type).

use super::infer::InferTables;
use super::traits::Obligation;
use super::*;
use crate::hir::{BinOp, ExprKind, Lit, Stmt};
use crate::ty::lower::self_ty_of;
use crate::ty::{ClosureId, Const, Infer};

/// The state of checking one body instance.
pub(super) struct FnCtxt<'c, 't, 'a> {
    pub tcx: &'c Tcx<'t, 'a>,
    pub body: Rc<Body<'a>>,
    pub def: DefId,
    pub args: Args,
    pub file: FileId,
    pub infer: InferTables,
    pub expr_ty: Vec<Option<Ty>>,
    pub pat_ty: Vec<Option<Ty>>,
    pub local_ty: Vec<Option<Ty>>,
    pub r: TypeckResults,
    pub obligations: Vec<Obligation>,
    pub ret: Ty,
    /// `Self` of the owner, unsubstituted (types written in the body are lowered with it and
    /// then substituted).
    pub self_ty_generic: Option<Ty>,
    pub unsafe_depth: u32,
    /// The type of the values each loop or labelled block breaks with.
    pub breaks: HashMap<ExprId, Option<Ty>>,
    /// The return types of the closures being checked, innermost last.
    pub closure_rets: Vec<Ty>,
    /// The value types of `?` expressions: one nothing else constrains (`Err(e)?;`) falls
    /// back to `()`, as rustc's fallback for the diverging arm of `?`'s desugaring does.
    pub try_values: Vec<Ty>,
    /// Signatures of this body's closures, while they are inferred.
    pub closure_sigs: HashMap<ClosureId, (Vec<Ty>, Ty)>,
    /// Integer literals, for the range check once their types are known: (expression,
    /// magnitude, negated).
    pub int_lits: Vec<(ExprId, u128, bool)>,
    /// Prints, for the check of their values once their types are known: (format, values).
    pub prints: Vec<(String, Vec<ExprId>)>,
    /// Expressions an error was reported for, so that one mistake gives one error.
    pub errors: usize,
    /// Whether the body is rkc's own (the core or a derived impl): unsafety is not checked.
    pub trusted: bool,
    /// Locals declared without a value (`let x;`), whose first assignment initialises them.
    pub late_init: Vec<LocalId>,
    /// The unsatisfied bounds reported in this body, by message: one missing impl is one
    /// error, however many obligations of the body ask for it.
    pub reported_bounds: std::collections::HashSet<String>,
    /// The expression being checked, for obligations made along the way.
    pub cur_span: Span,
    /// Whether the path being checked is the callee of a call (for "cannot find function").
    pub checking_callee: bool,
    /// While checking a function whose return type has `impl Trait`s: the inference variable
    /// standing for each (the body's concrete type, found by checking it).
    pub opaque_vars: Vec<Ty>,
    /// Trait selections of known types, already answered.
    pub selections: HashMap<(DefId, Vec<GenericArg>), super::traits::Selection>,
    /// The method calls whose container's arguments are known as declared generic types (see
    /// `declared.rs`): the method and those arguments (a bound trait's `Self`, or an inherent
    /// impl's parameters), from which the call's declared type and its closures' parameters'
    /// follow.
    pub declared_calls: HashMap<ExprId, (DefId, Vec<GenericArg>)>,
}

/// Checks one body instance.
pub(super) fn check_body<'a>(
    tcx: &Tcx<'_, 'a>,
    def: DefId,
    args: Args,
    body: Rc<Body<'a>>,
) -> Option<TypeckResults> {
    let file = tcx.items.def(def).file;
    let mut diags = Vec::new();
    let self_ty_generic = self_ty_of(tcx.items, def, &mut diags);
    tcx.report_all(diags, file);
    let n_exprs = body.exprs.len();
    let n_pats = body.pats.len();
    let n_locals = body.locals.len();
    let mut fcx = FnCtxt {
        tcx,
        body: body.clone(),
        def,
        args: args.clone(),
        file,
        infer: InferTables::default(),
        expr_ty: vec![None; n_exprs],
        pat_ty: vec![None; n_pats],
        local_ty: vec![None; n_locals],
        r: TypeckResults::default(),
        obligations: Vec::new(),
        ret: Ty::unit(),
        self_ty_generic,
        unsafe_depth: u32::from(body.unsafe_fn),
        breaks: HashMap::new(),
        closure_rets: Vec::new(),
        try_values: Vec::new(),
        closure_sigs: HashMap::new(),
        int_lits: Vec::new(),
        prints: Vec::new(),
        errors: 0,
        trusted: !file.is_user(),
        late_init: Vec::new(),
        reported_bounds: Default::default(),
        cur_span: Span::default(),
        selections: HashMap::new(),
        declared_calls: HashMap::new(),
        checking_callee: false,
        opaque_vars: Vec::new(),
    };
    match &tcx.items.def(def).kind {
        DefKind::Fn { .. } => {
            let sig = tcx.fn_sig(def);
            let inputs: Vec<Ty> =
                sig.inputs.iter().map(|t| fcx.normalize(&t.subst(&args))).collect();
            let output = fcx.define_opaques(&sig.output.subst(&args));
            fcx.ret = fcx.normalize(&output);
            for (p, t) in body.params.iter().zip(&inputs) {
                fcx.check_pat_top(p.pat, t);
            }
            fcx.r.params = inputs;
        }
        DefKind::Const { ty, .. } => {
            fcx.ret = match ty {
                Some(t) => {
                    let scope = tcx.items.def(def).scope;
                    fcx.lower_ty(crate::hir::TyRef { ty: t, scope })
                }
                None => fcx.infer.new_var(),
            };
        }
        DefKind::Static { ty, .. } => {
            let scope = tcx.items.def(def).scope;
            fcx.ret = fcx.lower_ty(crate::hir::TyRef { ty, scope });
        }
        _ => return None,
    }
    let ret = fcx.ret.clone();
    let value = body.value;
    fcx.check_expr_coercible(value, &ret);
    fcx.finish()
}

impl<'c, 't, 'a> FnCtxt<'c, 't, 'a> {
    /// A checker with no body, for selecting impls of concrete types outside any body.
    pub(super) fn for_selection(tcx: &'c Tcx<'t, 'a>, body: Rc<Body<'a>>) -> Self {
        FnCtxt {
            tcx,
            body,
            def: DefId(0),
            args: Vec::new().into(),
            file: FileId::Core(0),
            infer: InferTables::default(),
            expr_ty: Vec::new(),
            pat_ty: Vec::new(),
            local_ty: Vec::new(),
            r: TypeckResults::default(),
            obligations: Vec::new(),
            ret: Ty::unit(),
            self_ty_generic: None,
            unsafe_depth: 1,
            breaks: HashMap::new(),
            closure_rets: Vec::new(),
            try_values: Vec::new(),
            closure_sigs: HashMap::new(),
            int_lits: Vec::new(),
            prints: Vec::new(),
            errors: 0,
            trusted: true,
            late_init: Vec::new(),
            reported_bounds: Default::default(),
            cur_span: Span::default(),
            selections: HashMap::new(),
            declared_calls: HashMap::new(),
            checking_callee: false,
            opaque_vars: Vec::new(),
        }
    }

    pub fn error(&mut self, d: Diagnostic) {
        self.errors += 1;
        self.tcx.report_in(self.def, self.file, d);
    }

    pub fn span(&self, e: ExprId) -> Span {
        self.body.expr(e).span
    }

    pub fn show(&mut self, t: &Ty) -> String {
        let t = self.infer.resolve(t);
        self.tcx.show(&t)
    }

    pub fn record(&mut self, e: ExprId, t: Ty) -> Ty {
        self.expr_ty[e.0 as usize] = Some(t.clone());
        t
    }

    pub fn add_adjust(&mut self, e: ExprId, a: Adjust) {
        self.r.adjust.entry(e).or_default().push(a);
    }

    pub fn shallow(&mut self, t: &Ty) -> Ty {
        self.infer.shallow(t)
    }

    /// The type, with pending obligations processed first when it is still a variable; a
    /// variable that stays unknown is an error ("type annotations needed").
    /// The type, with pending obligations processed first when it is still a variable (no
    /// error when it stays one).
    pub fn resolve_var(&mut self, t: &Ty) -> Ty {
        let s = self.shallow(t);
        if matches!(s.kind(), TyKind::Infer(Infer::Var(_))) {
            self.select_pending();
            return self.shallow(t);
        }
        s
    }

    pub fn structurally_resolve(&mut self, t: &Ty, span: Span) -> Ty {
        let mut s = self.shallow(t);
        if matches!(s.kind(), TyKind::Infer(Infer::Var(_))) {
            self.select_pending();
            s = self.shallow(t);
        }
        if matches!(s.kind(), TyKind::Infer(Infer::Var(_))) {
            self.error(
                Diagnostic::new(RK_CANNOT_INFER, "type annotations needed")
                    .at(span, "the type of this expression must be known at this point")
                    .help("give the `let` a type: `let x: T = ...`"),
            );
            return Ty::error();
        }
        s
    }

    /// The body of a function defines the `impl Trait`s of its return type: each becomes an
    /// inference variable that the body's return value fixes, held to the opaque type's
    /// bounds (which also give a returned closure its signature).
    fn define_opaques(&mut self, output: &Ty) -> Ty {
        let def = self.def;
        let mut found: Vec<(u32, Args)> = Vec::new();
        output.fold(
            &mut |t| {
                if let TyKind::Opaque(d, k, a) = t.kind()
                    && *d == def
                {
                    found.push((*k, a.clone()));
                }
                None
            },
            &mut |c| c.clone(),
        );
        if found.is_empty() {
            return output.clone();
        }
        let count = found.iter().map(|(k, _)| *k + 1).max().unwrap_or(0) as usize;
        self.opaque_vars = (0..count).map(|_| self.infer.new_var()).collect();
        let span = self.tcx.items.def(def).span;
        for (k, args) in &found {
            let var = self.opaque_vars[*k as usize].clone();
            let bounds = self.tcx.opaque_bounds(def, *k);
            for bound in bounds.iter() {
                let mut targs = vec![GenericArg::Ty(var.clone())];
                targs.extend(crate::ty::subst_args(&bound.args, args).iter().skip(1).cloned());
                self.obligations.push(Obligation::Trait {
                    trait_id: bound.trait_id,
                    args: targs.clone(),
                    span,
                });
                for (assoc, ty) in &bound.assoc {
                    let ty = self.normalize(&ty.subst(args));
                    let proj = crate::ty::Projection {
                        trait_id: self.assoc_trait(*assoc, bound.trait_id),
                        args: targs.clone().into(),
                        assoc: *assoc,
                    };
                    self.obligations.push(Obligation::Projection { proj, ty, span });
                }
            }
        }
        let vars = self.opaque_vars.clone();
        output.fold(
            &mut |t| match t.kind() {
                TyKind::Opaque(d, k, _) if *d == def => vars.get(*k as usize).cloned(),
                _ => None,
            },
            &mut |c| c.clone(),
        )
    }

    /// Lowers a type written in the body, in the instance's terms.
    pub fn lower_ty(&mut self, t: crate::hir::TyRef<'a>) -> Ty {
        self.lower_syn_ty(t.ty, t.scope)
    }

    /// `lower_ty` of a type that rkc writes itself (the type part of a longer path).
    pub fn lower_syn_ty(&mut self, ty: &syn::Type, scope: crate::items::ScopeId) -> Ty {
        let mut diags = Vec::new();
        let infer = &mut self.infer;
        let mut mk = || infer.new_var();
        let mut l = TyLowerer {
            items: self.tcx.items,
            scope,
            generics: Some(self.def),
            self_ty: self.self_ty_generic.clone(),
            file: self.file,
            infer: Some(&mut mk),
            opaque_owner: None,
            diags: &mut diags,
        };
        let ty = l.lower(ty).subst(&self.args);
        let failed = !diags.is_empty();
        for d in diags {
            self.error(d);
        }
        if failed {
            return Ty::error();
        }
        self.normalize(&ty)
    }

    /// Fresh inference variables for every generic parameter of `def`.
    pub fn fresh_args(&mut self, def: DefId) -> Vec<GenericArg> {
        self.tcx
            .items
            .all_generic_params(def)
            .iter()
            .map(|p| match p.kind {
                crate::items::GenericParamKind::Type { .. } => GenericArg::Ty(self.infer.new_var()),
                crate::items::GenericParamKind::Const { .. } => {
                    GenericArg::Const(self.infer.new_const_var())
                }
            })
            .collect()
    }

    /// Registers the bounds of `def` under `args` as obligations.
    pub fn add_predicates(&mut self, def: DefId, args: &[GenericArg], span: Span) {
        let preds = self.tcx.predicates(def);
        for (bounded, bound) in preds.iter() {
            let self_ty = self.normalize(&bounded.subst(args));
            let targs: Vec<GenericArg> =
                crate::ty::subst_args(&bound.args, args).iter().cloned().collect();
            let mut targs_n = vec![GenericArg::Ty(self_ty.clone())];
            for a in targs.iter().skip(1) {
                targs_n.push(match a {
                    GenericArg::Ty(t) => GenericArg::Ty(self.normalize(t)),
                    c => c.clone(),
                });
            }
            self.obligations.push(Obligation::Trait {
                trait_id: bound.trait_id,
                args: targs_n.clone(),
                span,
            });
            for (assoc, ty) in &bound.assoc {
                let ty = self.normalize(&ty.subst(args));
                let proj = crate::ty::Projection {
                    trait_id: self.assoc_trait(*assoc, bound.trait_id),
                    args: targs_n.clone().into(),
                    assoc: *assoc,
                };
                // `Fn(A) -> B` binds `FnOnce`'s `Output`: the projection's trait is the
                // associated type's own, with the same arguments.
                self.obligations.push(Obligation::Projection { proj, ty, span });
            }
        }
    }

    pub(super) fn assoc_trait(&self, assoc: DefId, fallback: DefId) -> DefId {
        match self.tcx.items.container(assoc) {
            Container::Trait(t) => t,
            _ => fallback,
        }
    }

    /// Checks an expression against an expected type and coerces it to that type.
    pub fn check_expr_coercible(&mut self, e: ExprId, expected: &Ty) -> Ty {
        let t = self.check_expr(e, Some(expected));
        self.coerce_or_error(e, &t, expected);
        expected.clone()
    }

    pub fn coerce_or_error(&mut self, e: ExprId, found: &Ty, expected: &Ty) {
        if self.coerce(e, found, expected).is_err() {
            let (exp, fnd) = (self.show(expected), self.show(found));
            let span = self.span(e);
            let mut d = mismatch(&exp, &fnd, span);
            if let (Some(a), Some(b)) = (self.numeric_name(expected), self.numeric_name(found))
                && a != b
            {
                d = d.help(format!("convert with `as {a}`"));
            }
            self.error(d);
        }
    }

    fn numeric_name(&mut self, t: &Ty) -> Option<String> {
        let t = self.shallow(t);
        match t.kind() {
            TyKind::Int(i) => Some(i.name().to_string()),
            TyKind::Float(f) => Some(f.name().to_string()),
            _ => None,
        }
    }

    pub fn check_expr(&mut self, e: ExprId, expected: Option<&Ty>) -> Ty {
        let here = self.span(e);
        let saved = std::mem::replace(&mut self.cur_span, here);
        let t = self.check_expr_kind(e, expected);
        self.cur_span = saved;
        self.record(e, t)
    }

    fn check_expr_kind(&mut self, e: ExprId, expected: Option<&Ty>) -> Ty {
        let body = self.body.clone();
        let expr = body.expr(e);
        let span = expr.span;
        match &expr.kind {
            ExprKind::Err => Ty::error(),
            ExprKind::Lit(lit) => self.check_lit(e, lit, expected, false),
            ExprKind::Path(p) => self.check_path_expr(e, p, expected),
            ExprKind::Call(callee, args) => self.check_call(e, *callee, args, expected),
            ExprKind::MethodCall { receiver, name, name_span, turbofish, args, scope } => self
                .check_method_call(
                    e, *receiver, name, *name_span, *turbofish, args, *scope, expected,
                ),
            ExprKind::Binary(op, l, r) => self.check_binary(e, *op, *l, *r, expected),
            ExprKind::AssignOp(op, l, r) => self.check_assign_op(e, *op, *l, *r),
            ExprKind::Assign(l, r) => {
                let lt = self.check_place(*l);
                self.check_expr_coercible(*r, &lt);
                self.check_mutable_place(*l, "assign to");
                Ty::unit()
            }
            ExprKind::Unary(op, inner) => self.check_unary(e, *op, *inner, expected),
            ExprKind::Ref(m, inner) => {
                let exp_inner = expected.and_then(|x| {
                    let x = self.shallow(x);
                    match x.kind() {
                        TyKind::Ref(t, _) | TyKind::Ptr(t, _) => Some(t.clone()),
                        _ => None,
                    }
                });
                // `&[1, 2, 3]` where a slice is expected: the array's elements take the slice's
                // element type.
                let exp_inner = exp_inner.map(|t| match self.shallow(&t).kind() {
                    TyKind::Slice(el) => {
                        let len = self.infer.new_const_var();
                        Ty::new(TyKind::Array(el.clone(), len))
                    }
                    _ => t,
                });
                let t = self.check_expr(*inner, exp_inner.as_ref());
                if *m {
                    self.check_mutable_place(*inner, "borrow as mutable");
                }
                Ty::reference(t, *m)
            }
            ExprKind::RawRef(m, inner) => {
                let t = self.check_place(*inner);
                Ty::ptr(t, *m)
            }
            ExprKind::Cast(inner, ty) => self.check_cast(*inner, *ty, span),
            ExprKind::Field(base, name) => self.check_field(e, *base, name, span),
            ExprKind::Index(base, index) => self.check_index(e, *base, *index, span),
            ExprKind::Tuple(elems) => {
                let exp: Option<Vec<Ty>> = expected.and_then(|x| match self.shallow(x).kind() {
                    TyKind::Tuple(ts) if ts.len() == elems.len() => Some(ts.clone()),
                    _ => None,
                });
                let tys = elems
                    .iter()
                    .enumerate()
                    .map(|(k, x)| match exp.as_ref().map(|v| v[k].clone()) {
                        Some(t) => self.check_expr_coercible(*x, &t),
                        None => self.check_expr(*x, None),
                    })
                    .collect();
                Ty::tuple(tys)
            }
            ExprKind::Array(elems) => {
                let elem = expected.and_then(|x| match self.shallow(x).kind() {
                    TyKind::Array(t, _) | TyKind::Slice(t) => Some(t.clone()),
                    _ => None,
                });
                let elem = elem.unwrap_or_else(|| self.infer.new_var());
                for x in elems {
                    self.check_expr_coercible(*x, &elem);
                }
                Ty::array(elem, elems.len() as u64)
            }
            ExprKind::Repeat(x, len, scope) => {
                let elem = expected.and_then(|t| match self.shallow(t).kind() {
                    TyKind::Array(t, _) => Some(t.clone()),
                    _ => None,
                });
                let t = match elem {
                    Some(el) => self.check_expr_coercible(*x, &el),
                    None => self.check_expr(*x, None),
                };
                let mut diags = Vec::new();
                let c = crate::ty::lower_const_arg(
                    self.tcx.items,
                    *scope,
                    Some(self.def),
                    len,
                    &mut diags,
                    self.file,
                );
                for d in diags {
                    self.error(d);
                }
                let c = crate::ty::subst_const(&c, &self.args);
                if let Const::Value(n) = c {
                    self.r.lengths.insert(e, n);
                }
                Ty::new(TyKind::Array(t, c))
            }
            ExprKind::Struct { path, fields, base } => {
                self.check_struct_lit(e, path, fields, *base, expected)
            }
            ExprKind::Block(b) => self.check_block(e, b, expected),
            ExprKind::If(cond, then, els) => self.check_if(*cond, *then, *els, expected, span),
            ExprKind::Let(pat, scrutinee) => {
                let t = self.check_expr(*scrutinee, None);
                self.check_pat_top(*pat, &t);
                Ty::bool()
            }
            ExprKind::Match(scrutinee, arms) => {
                self.check_match(e, *scrutinee, arms, expected, span)
            }
            ExprKind::Loop { body: b, .. } => {
                self.breaks.insert(e, None);
                self.check_expr_coercible(*b, &Ty::unit());
                match self.breaks.remove(&e).flatten() {
                    Some(t) => t,
                    None => Ty::never(),
                }
            }
            ExprKind::While { cond, body: b, .. } => {
                self.breaks.insert(e, Some(Ty::unit()));
                self.check_cond(*cond);
                self.check_expr_coercible(*b, &Ty::unit());
                self.breaks.remove(&e);
                Ty::unit()
            }
            ExprKind::For { pat, iter, body: b, .. } => {
                self.check_for(e, *pat, *iter, *b);
                Ty::unit()
            }
            ExprKind::Break { target, value } => {
                self.check_break(*target, *value, span);
                Ty::never()
            }
            ExprKind::Continue { .. } => Ty::never(),
            ExprKind::Return(v) => {
                let ret = self.closure_rets.last().cloned().unwrap_or_else(|| self.ret.clone());
                match v {
                    Some(v) => {
                        self.check_expr_coercible(*v, &ret);
                    }
                    None => {
                        if self.infer.unify(&ret, &Ty::unit()).is_err() {
                            let r = self.show(&ret);
                            self.error(mismatch(&r, "()", span).note("`return;` returns `()`"));
                        }
                    }
                }
                Ty::never()
            }
            ExprKind::Closure { params, ret, body: b, is_move, index } => {
                self.check_closure(e, params, *ret, *b, *is_move, *index, expected)
            }
            ExprKind::Range { start, end, inclusive } => {
                self.check_range(*start, *end, *inclusive, expected, span)
            }
            ExprKind::Panic { args, fallback, .. } => {
                // The values a message shows are integers (or `bool`/`char`), which the panic
                // record carries; other values are only allowed where there is a message
                // without them.
                for a in args {
                    let t = self.check_expr(*a, None);
                    let t = self.shallow(&t);
                    let shown = t.is_integral()
                        || matches!(t.kind(), TyKind::Bool | TyKind::Char)
                        || t.is_error();
                    if !shown && fallback.is_none() {
                        let name = self.show(&t);
                        self.error(
                            Diagnostic::new(
                                RK_UNSUPPORTED_EXPR,
                                format!("a panic message in a kernel cannot show a `{name}`"),
                            )
                            .at(self.span(*a), "formatted here")
                            .help("kernels show up to two integers in a message"),
                        );
                    }
                }
                Ty::never()
            }
            ExprKind::Print { format, args, .. } => {
                for a in args {
                    self.check_expr(*a, None);
                }
                self.prints.push((format.clone(), args.clone()));
                Ty::unit()
            }
            ExprKind::Try(inner) => self.check_try(e, *inner, span),
        }
    }

    pub(super) fn check_lit(
        &mut self,
        e: ExprId,
        lit: &Lit,
        expected: Option<&Ty>,
        negated: bool,
    ) -> Ty {
        match lit {
            Lit::Int(v, Some(t)) => {
                self.int_lits.push((e, *v, negated));
                Ty::int(*t)
            }
            Lit::Int(v, None) => {
                self.int_lits.push((e, *v, negated));
                if let Some(x) = expected {
                    let x = self.shallow(x);
                    if x.is_integral() {
                        return x;
                    }
                }
                self.infer.new_int_var()
            }
            Lit::Float(_, Some(t)) => Ty::float(*t),
            Lit::Float(_, None) => {
                if let Some(x) = expected {
                    let x = self.shallow(x);
                    if x.is_floating() {
                        return x;
                    }
                }
                self.infer.new_float_var()
            }
            Lit::Bool(_) => Ty::bool(),
            Lit::Char(_) => Ty::new(TyKind::Char),
            Lit::Str(_) => Ty::reference(Ty::new(TyKind::Str), false),
        }
    }

    fn check_block(&mut self, e: ExprId, b: &crate::hir::Block<'a>, expected: Option<&Ty>) -> Ty {
        if b.unsafe_block {
            self.unsafe_depth += 1;
        }
        // A labelled block's value comes from its `break`s as well as its tail.
        let labelled = b.label.is_some();
        if labelled {
            self.breaks.insert(e, None);
        }
        let mut diverges = false;
        for stmt in &b.stmts {
            match stmt {
                Stmt::Let { pat, ty, init, els, span } => {
                    let declared = ty.map(|t| self.lower_ty(t));
                    let t = match (&declared, init) {
                        (Some(d), Some(i)) => self.check_expr_coercible(*i, d),
                        (None, Some(i)) => self.check_expr(*i, None),
                        (Some(d), None) => d.clone(),
                        (None, None) => self.infer.new_var(),
                    };
                    if init.is_some_and(|i| {
                        self.shallow(&self.expr_ty[i.0 as usize].clone().unwrap_or_else(Ty::unit))
                            .is_never()
                    }) {
                        diverges = true;
                    }
                    self.check_pat_top(*pat, &t);
                    if els.is_none()
                        && !self.trusted
                        && let super::exhaustive::Coverage::Missing(what) =
                            self.let_coverage(&t, *pat)
                    {
                        let shown = self.show(&t);
                        self.error(
                            Diagnostic::new(
                                RK_REFUTABLE_LET,
                                format!("refutable pattern in local binding: {what} not covered"),
                            )
                            .at(self.body.pat(*pat).span, format!("pattern {what} not covered"))
                            .note(format!("the matched value is of type `{shown}`"))
                            .help("`let` needs a pattern that matches every value: use `let ... else { return; };` or `if let` for the others"),
                        );
                    }
                    if init.is_none() {
                        let mut bound = Vec::new();
                        self.body.pat_bindings(*pat, &mut bound);
                        self.late_init.extend(bound);
                    }
                    if let Some(els) = els {
                        let et = self.check_expr(*els, None);
                        let et = self.shallow(&et);
                        if !et.is_never() && !et.is_error() {
                            let shown = self.show(&et);
                            self.error(mismatch("!", &shown, self.span(*els)).note("the `else` branch of `let ... else` must diverge (return, break, continue or panic)"));
                        }
                    }
                    let _ = span;
                }
                Stmt::Expr { expr, semi } => {
                    let t = if *semi {
                        self.check_expr(*expr, None)
                    } else {
                        // An expression statement without `;` (a block-like one) is `()`.
                        self.check_expr_coercible(*expr, &Ty::unit())
                    };
                    if self.shallow(&t).is_never() {
                        diverges = true;
                    }
                }
            }
        }
        let broken = if labelled { self.breaks.get(&e).cloned().flatten() } else { None };
        let mut t = match (b.tail, &broken) {
            (Some(tail), Some(bt)) => self.check_expr_coercible(tail, bt),
            (Some(tail), None) => self.check_expr(tail, expected),
            (None, _) if diverges => Ty::never(),
            (None, _) => Ty::unit(),
        };
        if labelled {
            match self.breaks.remove(&e).flatten() {
                // The first `break` came in the tail: the tail's value must fit it too.
                Some(bt) if broken.is_none() => {
                    if let Some(tail) = b.tail {
                        self.coerce_or_error(tail, &t, &bt);
                    } else if !diverges && self.infer.unify(&bt, &Ty::unit()).is_err() {
                        let shown = self.show(&bt);
                        self.error(mismatch(&shown, "()", self.span(e)));
                    }
                    t = bt;
                }
                Some(bt) => {
                    if b.tail.is_none() && !diverges && self.infer.unify(&bt, &Ty::unit()).is_err()
                    {
                        let shown = self.show(&bt);
                        self.error(mismatch(&shown, "()", self.span(e)));
                    }
                    t = bt;
                }
                None => {}
            }
        }
        if b.unsafe_block {
            self.unsafe_depth -= 1;
        }
        t
    }

    fn check_cond(&mut self, cond: ExprId) {
        let body = self.body.clone();
        match &body.expr(cond).kind {
            ExprKind::Let(..) => {
                let t = self.check_expr(cond, None);
                let _ = t;
            }
            ExprKind::Binary(BinOp::And, l, r) if self.is_let_chain(cond) => {
                self.check_cond(*l);
                self.check_cond(*r);
                self.record(cond, Ty::bool());
            }
            _ => {
                self.check_expr_coercible(cond, &Ty::bool());
            }
        }
    }

    /// Whether a condition is a `&&` chain with `let`s in it.
    pub fn is_let_chain(&self, cond: ExprId) -> bool {
        match &self.body.expr(cond).kind {
            ExprKind::Let(..) => true,
            ExprKind::Binary(BinOp::And, l, r) => self.is_let_chain(*l) || self.is_let_chain(*r),
            _ => false,
        }
    }

    fn check_if(
        &mut self,
        cond: ExprId,
        then: ExprId,
        els: Option<ExprId>,
        expected: Option<&Ty>,
        span: Span,
    ) -> Ty {
        self.check_cond(cond);
        match els {
            None => {
                let t = self.check_expr(then, Some(&Ty::unit()));
                self.coerce_or_error(then, &t, &Ty::unit());
                let _ = span;
                Ty::unit()
            }
            Some(els) => self.coerce_arms(&[then, els], expected, ArmsOf::If),
        }
    }

    /// Checks the arms of an `if`/`match` and gives them one type: the expected one when it
    /// is known, else the first arm's that does not diverge.
    pub fn coerce_arms(&mut self, arms: &[ExprId], expected: Option<&Ty>, of: ArmsOf) -> Ty {
        let known = expected.map(|x| self.shallow(x)).filter(|x| !x.is_infer());
        if let Some(target) = known {
            for a in arms {
                self.check_expr_coercible(*a, &target);
            }
            return target;
        }
        let mut target: Option<(Ty, ExprId)> = None;
        let mut pending = Vec::new();
        for a in arms {
            let t = self.check_expr(*a, expected);
            let ts = self.shallow(&t);
            match &target {
                None if ts.is_never() => pending.push(*a),
                None => target = Some((t, *a)),
                Some((tt, first)) => {
                    let (tt, first) = (tt.clone(), *first);
                    if self.coerce(*a, &t, &tt).is_err() {
                        self.arms_mismatch(of, first, *a, &tt, &t);
                    }
                }
            }
        }
        let target = target.map(|(t, _)| t);
        match target {
            Some(t) => {
                for a in pending {
                    self.add_adjust(a, Adjust::NeverToAny);
                }
                t
            }
            None => Ty::never(),
        }
    }

    /// rustc's E0308 for arms: the later arm is wrong, the first one set the type.
    fn arms_mismatch(&mut self, of: ArmsOf, first: ExprId, arm: ExprId, want: &Ty, found: &Ty) {
        let (exp, fnd) = (self.show(want), self.show(found));
        let message = match of {
            ArmsOf::If => "`if` and `else` have incompatible types",
            ArmsOf::Match => "`match` arms have incompatible types",
        };
        let mut d = Diagnostic::new(RK_MISMATCHED_TYPES, message)
            .at(self.tail_span(arm), format!("expected `{exp}`, found `{fnd}`"))
            .with_secondary(
                self.tail_span(first),
                match of {
                    ArmsOf::If => "expected because of this".to_string(),
                    ArmsOf::Match => format!("this is found to be of type `{exp}`"),
                },
            );
        if let (Some(a), Some(b)) = (self.numeric_name(want), self.numeric_name(found))
            && a != b
        {
            d = d.help(format!("convert with `as {a}`"));
        }
        self.error(super::two_closures(d, &exp, &fnd));
    }

    /// The expression a block's value comes from, for pointing at it.
    fn tail_span(&self, e: ExprId) -> Span {
        match &self.body.expr(e).kind {
            ExprKind::Block(b) if b.stmts.is_empty() || b.tail.is_some() => match b.tail {
                Some(t) => self.tail_span(t),
                None => self.span(e),
            },
            _ => self.span(e),
        }
    }

    fn check_match(
        &mut self,
        e: ExprId,
        scrutinee: ExprId,
        arms: &[crate::hir::Arm],
        expected: Option<&Ty>,
        _span: Span,
    ) -> Ty {
        let st = self.check_expr(scrutinee, None);
        for arm in arms {
            self.check_pat_top(arm.pat, &st);
            if let Some(g) = arm.guard {
                self.check_cond(g);
            }
        }
        match self.coverage(&st, arms) {
            super::exhaustive::Coverage::Exhaustive => {
                self.r.exhaustive.insert(e);
            }
            super::exhaustive::Coverage::Missing(what) if !self.trusted => {
                let shown = self.show(&st);
                self.error(
                    Diagnostic::new(
                        RK_NON_EXHAUSTIVE,
                        format!("non-exhaustive patterns: {what} not covered"),
                    )
                    .at(self.span(scrutinee), format!("pattern {what} not covered"))
                    .note(format!("the matched value is of type `{shown}`"))
                    .help("add a `_ => ...` arm, or arms for the values not covered"),
                );
            }
            _ => {}
        }
        let bodies: Vec<ExprId> = arms.iter().map(|a| a.body).collect();
        if bodies.is_empty() {
            return Ty::never();
        }
        self.coerce_arms(&bodies, expected, ArmsOf::Match)
    }

    fn check_break(&mut self, target: ExprId, value: Option<ExprId>, span: Span) {
        let is_loop =
            matches!(self.body.expr(target).kind, ExprKind::Loop { .. } | ExprKind::Block(_));
        let current = self.breaks.get(&target).cloned().flatten();
        match value {
            Some(v) if !is_loop => {
                self.check_expr(v, None);
                self.error(
                    Diagnostic::new(
                        RK_BREAK_WITH_VALUE,
                        "`break` with value from a `while` or `for` loop",
                    )
                    .at(span, "can only break with a value inside `loop` or a labelled block"),
                );
            }
            Some(v) => {
                let t = match &current {
                    Some(c) => self.check_expr_coercible(v, c),
                    None => self.check_expr(v, None),
                };
                self.breaks.insert(target, Some(t));
            }
            None => match &current {
                Some(c) => {
                    let c = c.clone();
                    if self.infer.unify(&c, &Ty::unit()).is_err() {
                        let shown = self.show(&c);
                        self.error(mismatch(&shown, "()", span));
                    }
                }
                None => {
                    self.breaks.insert(target, Some(Ty::unit()));
                }
            },
        }
    }

    fn check_for(&mut self, e: ExprId, pat: PatId, iter: ExprId, body: ExprId) {
        let span = self.span(iter);
        let it = self.check_expr(iter, None);
        let it = self.structurally_resolve(&it, span);
        let Some(info) = self.for_loop_info(&it, span) else {
            if !it.is_error() {
                let shown = self.show(&it);
                self.error(
                    Diagnostic::new(RK_UNSUPPORTED_EXPR, format!("`{shown}` is not an iterator"))
                        .at(span, "`for` needs a value that implements `IntoIterator`")
                        .note("ranges, arrays, slices, their `iter()`/`iter_mut()` and the core's iterator adapters are iterators"),
                );
            }
            self.check_pat_top(pat, &Ty::error());
            self.breaks.insert(e, Some(Ty::unit()));
            self.check_expr_coercible(body, &Ty::unit());
            return;
        };
        self.check_pat_top(pat, &info.item_ty);
        self.r.for_loops.insert(e, info);
        self.breaks.insert(e, Some(Ty::unit()));
        self.check_expr_coercible(body, &Ty::unit());
        self.breaks.remove(&e);
    }

    fn check_range(
        &mut self,
        start: Option<ExprId>,
        end: Option<ExprId>,
        inclusive: bool,
        expected: Option<&Ty>,
        span: Span,
    ) -> Ty {
        let lang = match (start.is_some(), end.is_some(), inclusive) {
            (true, true, false) => "Range",
            (true, true, true) => "RangeInclusive",
            (true, false, _) => "RangeFrom",
            (false, true, false) => "RangeTo",
            (false, true, true) => "RangeToInclusive",
            (false, false, _) => "RangeFull",
        };
        let Some(def) = self.tcx.items.lang(lang) else {
            self.error(
                Diagnostic::new(RK_INTERNAL, format!("the core has no `{lang}`")).at(span, "here"),
            );
            return Ty::error();
        };
        if lang == "RangeFull" {
            return Ty::adt(def, Vec::new());
        }
        let elem = expected
            .and_then(|x| match self.shallow(x).kind() {
                TyKind::Adt(d, a) if *d == def => a.first().and_then(GenericArg::ty).cloned(),
                _ => None,
            })
            .unwrap_or_else(|| self.infer.new_var());
        for x in [start, end].into_iter().flatten() {
            self.check_expr_coercible(x, &elem);
        }
        Ty::adt(def, vec![GenericArg::Ty(elem)])
    }

    fn check_try(&mut self, e: ExprId, inner: ExprId, span: Span) -> Ty {
        let t = self.check_expr(inner, None);
        let t = self.structurally_resolve(&t, span);
        let (option, result) = (self.tcx.items.lang("Option"), self.tcx.items.lang("Result"));
        let ret = self.closure_rets.last().cloned().unwrap_or_else(|| self.ret.clone());
        let ret = self.shallow(&ret);
        match t.kind() {
            TyKind::Adt(d, a) if Some(*d) == option => {
                let v = self.infer.new_var();
                let want = Ty::adt(*d, vec![GenericArg::Ty(v)]);
                if self.infer.unify(&ret, &want).is_err() {
                    let shown = self.show(&ret);
                    self.error(
                        Diagnostic::new(RK_MISMATCHED_TYPES, "the `?` operator can only be used on `Option`s in a function that returns `Option`")
                            .at(span, format!("this function returns `{shown}`")),
                    );
                }
                self.r.tries.insert(e, TryInfo { is_option: true, from: None });
                let value = a.first().and_then(GenericArg::ty).cloned().unwrap_or_else(Ty::error);
                self.try_values.push(value.clone());
                value
            }
            TyKind::Adt(d, a) if Some(*d) == result => {
                let ok = a.first().and_then(GenericArg::ty).cloned().unwrap_or_else(Ty::error);
                let err = a.get(1).and_then(GenericArg::ty).cloned().unwrap_or_else(Ty::error);
                let (v, f) = (self.infer.new_var(), self.infer.new_var());
                let want = Ty::adt(*d, vec![GenericArg::Ty(v), GenericArg::Ty(f.clone())]);
                if self.infer.unify(&ret, &want).is_err() {
                    let shown = self.show(&ret);
                    self.error(
                        Diagnostic::new(RK_MISMATCHED_TYPES, "the `?` operator can only be used on `Result`s in a function that returns `Result`")
                            .at(span, format!("this function returns `{shown}`")),
                    );
                }
                let f = self.shallow(&f);
                // The error type may come from a projection not yet normalized
                // (`x.try_into()?`'s `<u8 as TryFrom<u32>>::Error`): a guess that it is the
                // function's error type would contradict the impl that decides it.
                let mut err = self.shallow(&err);
                if err.is_infer() && !f.is_infer() {
                    self.select_pending();
                    err = self.shallow(&err);
                }
                let same = self.infer.can(|i| i.unify(&f, &err).ok());
                let from = if f.is_infer() || (same && !err.is_infer()) {
                    let _ = self.infer.unify(&f, &err);
                    None
                } else {
                    // `From::from(err)` converts the error.
                    self.tcx.items.lang("From").and_then(|from_trait| {
                        let m = self.tcx.items.assoc_item(from_trait, "from", false)?;
                        let args: Args =
                            vec![GenericArg::Ty(f.clone()), GenericArg::Ty(err.clone())].into();
                        self.obligations.push(Obligation::Trait {
                            trait_id: from_trait,
                            args: args.to_vec(),
                            span,
                        });
                        Some(Callee { def: m, args })
                    })
                };
                self.r.tries.insert(e, TryInfo { is_option: false, from });
                self.try_values.push(ok.clone());
                ok
            }
            TyKind::Error => Ty::error(),
            _ => {
                let shown = self.show(&t);
                self.error(
                    Diagnostic::new(
                        RK_UNSUPPORTED_EXPR,
                        format!("the `?` operator cannot be applied to type `{shown}`"),
                    )
                    .at(span, "`?` works on `Option` and `Result` in kernels"),
                );
                Ty::error()
            }
        }
    }

    /// `let x;` with the value assigned later: the first assignment initialises it.
    pub(super) fn local_declared_late(&self, l: LocalId) -> bool {
        self.late_init.contains(&l)
    }

    /// Finishes the body: obligations, fallback, resolution, literal ranges, closures.
    fn finish(mut self) -> Option<TypeckResults> {
        self.select_pending();
        let mut all: Vec<Ty> = self.expr_ty.iter().flatten().cloned().collect();
        all.extend(self.local_ty.iter().flatten().cloned());
        all.extend(self.pat_ty.iter().flatten().cloned());
        for t in &all {
            self.infer.default_numeric(t);
        }
        self.select_pending();
        for t in &all {
            self.infer.default_numeric(t);
        }
        for t in std::mem::take(&mut self.try_values) {
            let t = self.shallow(&t);
            if matches!(t.kind(), TyKind::Infer(Infer::Var(_))) {
                let _ = self.infer.unify(&t, &Ty::unit());
            }
        }
        self.select_pending();
        let mut r = std::mem::take(&mut self.r);
        let expr_ty: Vec<Ty> =
            self.expr_ty.clone().into_iter().map(|t| t.unwrap_or_else(Ty::error)).collect();
        r.expr_ty = expr_ty.iter().map(|t| self.infer.resolve(t)).collect();
        r.pat_ty = self
            .pat_ty
            .clone()
            .into_iter()
            .map(|t| t.map(|t| self.infer.resolve(&t)).unwrap_or_else(Ty::error))
            .collect();
        r.local_ty = self
            .local_ty
            .clone()
            .into_iter()
            .map(|t| t.map(|t| self.infer.resolve(&t)).unwrap_or_else(Ty::error))
            .collect();
        r.ret = self.infer.resolve(&self.ret);
        r.params = r.params.iter().map(|t| self.infer.resolve(t)).collect();
        let resolve_args = |infer: &mut InferTables, a: &Args| -> Args {
            a.iter()
                .map(|g| match g {
                    GenericArg::Ty(t) => GenericArg::Ty(infer.resolve(t)),
                    GenericArg::Const(c) => GenericArg::Const(infer.resolve_const(c)),
                })
                .collect()
        };
        for c in r.callees.values_mut() {
            c.args = resolve_args(&mut self.infer, &c.args);
        }
        for a in r.adjust.values_mut().flatten() {
            if let Adjust::Overloaded { deref, target } = a {
                deref.args = resolve_args(&mut self.infer, &deref.args);
                *target = self.infer.resolve(target);
            }
        }
        for v in r.paths.values_mut().chain(r.pat_consts.values_mut()) {
            match v {
                ValueRes::Fn(c) | ValueRes::Const(c) => {
                    c.args = resolve_args(&mut self.infer, &c.args)
                }
                ValueRes::Ctor { args, .. } => *args = resolve_args(&mut self.infer, args),
                _ => {}
            }
        }
        for (_, a) in r.variants.values_mut().chain(r.pat_variants.values_mut()) {
            *a = resolve_args(&mut self.infer, a);
        }
        for f in r.for_loops.values_mut() {
            f.into_iter.args = resolve_args(&mut self.infer, &f.into_iter.args);
            f.next.args = resolve_args(&mut self.infer, &f.next.args);
            f.iter_ty = self.infer.resolve(&f.iter_ty);
            f.item_ty = self.infer.resolve(&f.item_ty);
        }
        for t in r.tries.values_mut() {
            if let Some(c) = &mut t.from {
                c.args = resolve_args(&mut self.infer, &c.args);
            }
        }
        // Integer literals must fit their types (rustc's deny-by-default lint).
        for (e, v, neg) in std::mem::take(&mut self.int_lits) {
            let t = &r.expr_ty[e.0 as usize];
            if let TyKind::Int(it) = t.kind() {
                let (lo, hi) = it.range();
                let ok = if neg {
                    (v as i128).checked_neg().is_some_and(|n| n >= lo) || (v as i128 == -lo)
                } else {
                    v <= hi
                };
                if !ok {
                    let shown = if neg { format!("-{v}") } else { v.to_string() };
                    self.error(
                        Diagnostic::new(RK_LITERAL_OUT_OF_RANGE, format!("literal out of range for `{}`", it.name()))
                            .at(self.span(e), format!("the literal `{shown}` does not fit into the type `{}` whose range is `{lo}..={hi}`", it.name())),
                    );
                }
            }
        }
        // What a print shows must be a scalar the record carries, through any references,
        // with the formatting trait its format asks for.
        for (format, args) in std::mem::take(&mut self.prints) {
            let Ok(pieces) = offload_binary::format::parse(&format) else { continue };
            for (k, a) in args.iter().enumerate() {
                let t = r.expr_ty[a.0 as usize].clone();
                if t.is_error() || t.has_infer() {
                    continue;
                }
                let shown = self.show(&t);
                let Some(kind) = t.print_kind() else {
                    self.error(
                        Diagnostic::new(
                            RK_UNSUPPORTED_EXPR,
                            format!("a kernel cannot print a `{shown}`"),
                        )
                        .at(self.span(*a), "printed here")
                        .help("kernels print integers, floats, `bool`, `char` and string literals; print the fields one by one"),
                    );
                    continue;
                };
                for p in &pieces {
                    if let offload_binary::format::Piece::Arg {
                        arg: offload_binary::format::ArgRef::Index(i),
                        spec,
                        ..
                    } = p
                        && *i == k
                        && !offload_binary::format::supports(spec.trait_, kind)
                    {
                        let inner = kind.name();
                        self.error(
                            Diagnostic::new(
                                RK_UNSATISFIED_BOUND,
                                format!(
                                    "the trait bound `{inner}: {:?}` is not satisfied",
                                    spec.trait_
                                ),
                            )
                            .at(
                                self.span(*a),
                                format!(
                                    "the trait `{:?}` is not implemented for `{inner}`",
                                    spec.trait_
                                ),
                            ),
                        );
                    }
                }
            }
        }
        // Types still unknown, unless an error anywhere may be the cause (rustc too stays
        // quiet about ambiguity once it has reported errors).
        if self.errors == 0 && !self.tcx.has_errors() {
            for (k, t) in r.expr_ty.iter().enumerate() {
                if t.has_infer() {
                    let span = self.body.exprs[k].span;
                    if std::env::var_os("RKC_DEBUG_CORE").is_some() {
                        eprintln!(
                            "rkc: unresolved {:?} in {}",
                            t,
                            self.tcx.items.path_string(self.def)
                        );
                    }
                    self.tcx.report(
                        self.file,
                        Diagnostic::new(RK_CANNOT_INFER, "type annotations needed")
                            .at(span, "cannot infer the type of this expression")
                            .help("give the `let` a type, or the call its generic arguments"),
                    );
                    self.errors += 1;
                    break;
                }
            }
        }
        r.opaques = self.opaque_vars.iter().map(|v| self.infer.resolve(v)).collect();
        // Locals declared without a value are assigned before they are read.
        if !self.trusted {
            for d in super::init::check(&self.body, &r, &self.late_init) {
                self.error(d);
            }
        }
        // Closures: their signatures and captures, for the instances that call them.
        let closure_ids: Vec<(ExprId, ClosureId)> =
            r.closures.iter().map(|(e, c)| (*e, *c)).collect();
        for (e, id) in closure_ids {
            let (params, ret) = self.closure_sigs.get(&id).cloned().unwrap_or_default_sig();
            let params: Vec<Ty> = params.iter().map(|t| self.infer.resolve(t)).collect();
            let ret = self.infer.resolve(&ret);
            let ExprKind::Closure { index, is_move, .. } = self.body.expr(e).kind else { continue };
            let captures = self.body.closures[index as usize]
                .upvars
                .iter()
                .map(|l| (*l, r.local_ty[l.0 as usize].clone()))
                .collect();
            self.tcx.set_closure(
                id,
                ClosureData {
                    owner: (self.def, self.args.clone()),
                    index,
                    expr: e,
                    params,
                    ret,
                    captures,
                    by_value: is_move,
                },
            );
        }
        // Also after errors: `Tcx::typeck` drops the results then, and checks the bodies
        // of the functions they call.
        Some(r)
    }
}

trait SigDefault {
    fn unwrap_or_default_sig(self) -> (Vec<Ty>, Ty);
}

impl SigDefault for Option<(Vec<Ty>, Ty)> {
    fn unwrap_or_default_sig(self) -> (Vec<Ty>, Ty) {
        self.unwrap_or_else(|| (Vec::new(), Ty::error()))
    }
}

/// Which construct's arms are being unified, for the message when they disagree.
#[derive(Clone, Copy)]
pub enum ArmsOf {
    If,
    Match,
}

/// Whether a type takes the built-in operators (before trait lookup).
pub fn is_builtin_operand(t: &Ty) -> bool {
    matches!(
        t.kind(),
        TyKind::Int(_)
            | TyKind::Float(_)
            | TyKind::Bool
            | TyKind::Char
            | TyKind::Ptr(..)
            | TyKind::Infer(Infer::Int(_) | Infer::Float(_))
    )
}
