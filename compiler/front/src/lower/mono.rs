//! Monomorphisation: the instances a kernel reaches (functions with concrete generic
//! arguments, closures), each lowered once to an rk function, with its calling convention;
//! and the kernels themselves, whose parameters follow upstream's argument mapping.

use super::layout::{Layouts, Repr};
use super::*;
use crate::hir::{PatId, PatKind};
use crate::items::{DefId, DefKind};
use crate::ty::{Args, ClosureId, GenericArg};
use std::collections::VecDeque;

/// A function instance.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Instance {
    /// A function with its generic arguments, and the compile-time strings passed for its
    /// `&str` parameters.
    Fn { def: DefId, args: Args, strings: Vec<String> },
    /// A closure's body.
    Closure(ClosureId),
}

/// How a value crosses a call.
#[derive(Clone, Debug, PartialEq)]
pub enum Abi {
    Zst,
    Scalar(Type),
    /// A slice: its pointer (of this type) and its length.
    Fat(Type),
    /// An aggregate: a pointer to a copy the callee owns (parameters) or to the caller's
    /// result memory (the hidden last parameter).
    Mem(Type),
    /// A compile-time string: part of the instance, no parameter.
    Str,
    Never,
}

/// An instance's calling convention.
#[derive(Clone, Debug)]
pub struct FnAbi {
    /// A closure's environment comes first.
    pub env: bool,
    pub env_ty: Option<Type>,
    pub params: Vec<Abi>,
    /// Per parameter: bound to a plain immutable name (`x: [f32; 8]`), so the body never
    /// writes it. A caller may then lend memory that nothing changes during the call (an
    /// immutable local's) instead of a copy; the parameter is a `*const`.
    pub readonly: Vec<bool>,
    pub ret: Abi,
}

/// The instances of a compilation, lowered on demand.
pub struct Mono<'c, 't, 'a> {
    pub tcx: &'c Tcx<'t, 'a>,
    pub layouts: Layouts,
    pub tables: Vec<rkc_rk::Table>,
    pub const_depth: u32,
    instances: HashMap<Instance, Option<(String, Rc<FnAbi>)>>,
    queue: VecDeque<(Instance, String, Rc<FnAbi>, Option<Span>)>,
    pub funcs: Vec<Func>,
    names: HashSet<String>,
    /// Where each function of the user's file is defined, by rk name (for the recursion
    /// diagnostic).
    pub spans: HashMap<String, Span>,
    table_names: HashMap<DefId, String>,
    /// The types without a layout already reported: one error per type, at its first use.
    pub reported_layouts: HashSet<String>,
}

impl<'c, 't, 'a> Mono<'c, 't, 'a> {
    pub fn new(tcx: &'c Tcx<'t, 'a>) -> Self {
        Mono {
            tcx,
            layouts: Layouts::default(),
            tables: Vec::new(),
            const_depth: 0,
            instances: HashMap::new(),
            queue: VecDeque::new(),
            funcs: Vec::new(),
            names: HashSet::new(),
            spans: HashMap::new(),
            table_names: HashMap::new(),
            reported_layouts: HashSet::new(),
        }
    }

    fn unique(&mut self, base: String) -> String {
        let mut name = base.clone();
        let mut k = 2;
        while self.names.contains(&name) {
            name = format!("{base}#{k}");
            k += 1;
        }
        self.names.insert(name.clone());
        name
    }

    pub fn table_name(&mut self, def: DefId) -> String {
        if let Some(n) = self.table_names.get(&def) {
            return n.clone();
        }
        let n = self.unique(self.tcx.items.name(def).to_string());
        self.table_names.insert(def, n.clone());
        n
    }

    fn abi_of(&self, ty: &Ty) -> Result<Abi, super::layout::LayoutError> {
        Ok(match self.layouts.repr(self.tcx, ty)? {
            Repr::Zst => Abi::Zst,
            Repr::Scalar(t) => Abi::Scalar(t),
            Repr::Fat { ptr } => Abi::Fat(ptr),
            Repr::Mem(t) => Abi::Mem(t),
            Repr::Str => Abi::Str,
            Repr::Never => Abi::Never,
        })
    }

    /// Which parameters of an instance's body are plain immutable bindings.
    fn readonly_params(&self, inst: &Instance, n: usize) -> Vec<bool> {
        let tcx = self.tcx;
        let (def, pats): (DefId, Vec<PatId>) = match inst {
            Instance::Fn { def, .. } => match tcx.body(*def) {
                Some(b) => (*def, b.params.iter().map(|p| p.pat).collect()),
                None => return vec![false; n],
            },
            Instance::Closure(id) => {
                let c = tcx.closure(*id);
                let Some(b) = tcx.body(c.owner.0) else { return vec![false; n] };
                match &b.expr(c.expr).kind {
                    ExprKind::Closure { params, .. } => {
                        (c.owner.0, params.iter().map(|(p, _)| *p).collect())
                    }
                    _ => return vec![false; n],
                }
            }
        };
        let Some(body) = tcx.body(def) else { return vec![false; n] };
        let mut out: Vec<bool> = pats
            .iter()
            .map(|p| matches!(body.pat(*p).kind, PatKind::Binding { local, by_ref: None, sub: None } if !body.local(local).mutable))
            .collect();
        out.resize(n, false);
        out
    }

    /// An instance's rk name and calling convention, queueing its body the first time.
    pub fn instance(
        &mut self,
        inst: Instance,
        origin: Option<Span>,
    ) -> Option<(String, Rc<FnAbi>)> {
        if let Some(x) = self.instances.get(&inst) {
            return x.clone();
        }
        let tcx = self.tcx;
        let (inputs, output, env_ty) = match &inst {
            Instance::Fn { def, args, .. } => {
                let sig = tcx.fn_sig(*def);
                let inputs: Vec<Ty> = sig
                    .inputs
                    .iter()
                    .map(|t| crate::typeck::normalize_in_layout(tcx, &t.subst(args)))
                    .collect();
                (inputs, crate::typeck::normalize_in_layout(tcx, &sig.output.subst(args)), None)
            }
            Instance::Closure(id) => {
                let c = tcx.closure(*id);
                let env = Ty::new(TyKind::Closure(*id));
                (c.params.clone(), c.ret.clone(), Some(env))
            }
        };
        let mut params = Vec::new();
        let mut bad = None;
        for t in inputs.iter().chain(std::iter::once(&output)) {
            match self.abi_of(t) {
                Ok(a) => params.push(a),
                Err(e) => {
                    bad.get_or_insert((e, t.clone()));
                    params.push(Abi::Zst);
                }
            }
        }
        let ret = params.pop().unwrap_or(Abi::Zst);
        let env = match &env_ty {
            Some(t) => match self.abi_of(t) {
                Ok(Abi::Mem(t)) => Some(Type::ptr(true, t)),
                _ => None,
            },
            None => None,
        };
        if let Some((why, t)) = bad {
            if why.is_from_error() && tcx.has_errors() {
                self.instances.insert(inst, None);
                return None;
            }
            let span = origin.unwrap_or_default();
            let shown = tcx.show(&t);
            tcx.report(
                FileId::User,
                Diagnostic::new(
                    RK_UNSUPPORTED_TYPE,
                    format!("{} cannot be used in kernels", why.0),
                )
                .at(span, format!("this call passes or returns a `{shown}`")),
            );
            self.instances.insert(inst, None);
            return None;
        }
        let readonly = self.readonly_params(&inst, params.len());
        let abi = Rc::new(FnAbi { env: env.is_some(), env_ty: env, params, readonly, ret });
        let name = self.instance_name(&inst);
        if let Instance::Fn { def, .. } = &inst
            && tcx.items.is_user(*def)
        {
            self.spans.insert(name.clone(), tcx.items.def(*def).span);
        }
        self.instances.insert(inst.clone(), Some((name.clone(), abi.clone())));
        self.queue.push_back((inst, name.clone(), abi.clone(), origin));
        Some((name, abi))
    }

    fn instance_name(&mut self, inst: &Instance) -> String {
        let tcx = self.tcx;
        let items = tcx.items;
        let base = match inst {
            Instance::Fn { def, args, .. } => {
                let own_start = items.generics(*def).map_or(0, |g| g.parent_count) as usize;
                let own: Vec<String> =
                    args.iter().skip(own_start).map(|a| show_arg(tcx, a)).collect();
                let own =
                    if own.is_empty() { String::new() } else { format!("<{}>", own.join(", ")) };
                let prefix = match items.container(*def) {
                    crate::items::Container::Impl(imp) => {
                        let h = tcx.impl_header(imp);
                        let st = tcx.show(&h.self_ty.subst(args));
                        match &h.trait_ref {
                            Some((t, _)) => format!("<{st} as {}>::", items.name(*t)),
                            None => format!("{st}::"),
                        }
                    }
                    crate::items::Container::Trait(t) => {
                        let st = args.first().map(|a| show_arg(tcx, a)).unwrap_or_default();
                        format!("<{st} as {}>::", items.name(t))
                    }
                    crate::items::Container::Free => String::new(),
                };
                format!("{prefix}{}{own}", items.name(*def))
            }
            Instance::Closure(id) => {
                let c = tcx.closure(*id);
                let owner =
                    Instance::Fn { def: c.owner.0, args: c.owner.1.clone(), strings: Vec::new() };
                let owner_name = self
                    .instances
                    .get(&owner)
                    .cloned()
                    .flatten()
                    .map(|(n, _)| n)
                    .unwrap_or_else(|| items.name(c.owner.0).to_string());
                format!("{owner_name}::{{closure#{}}}", c.index)
            }
        };
        self.unique(base)
    }

    /// Lowers every queued instance, and the instances they queue in turn.
    pub fn drain(&mut self) {
        while let Some((inst, name, abi, origin)) = self.queue.pop_front() {
            let saved = self.tcx.set_origin(origin);
            if let Some(f) = self.lower_instance(&inst, name, &abi) {
                self.funcs.push(f);
            }
            self.tcx.set_origin(saved);
        }
    }

    fn lower_instance(&mut self, inst: &Instance, name: String, abi: &FnAbi) -> Option<Func> {
        let tcx = self.tcx;
        let (def, args, closure) = match inst {
            Instance::Fn { def, args, .. } => (*def, args.clone(), None),
            Instance::Closure(id) => {
                let c = tcx.closure(*id);
                (c.owner.0, c.owner.1.clone(), Some((*id, c)))
            }
        };
        let body = tcx.body(def)?;
        let r = tcx.typeck(def, &args)?;
        let span = tcx.items.def(def).span;
        let loc = if body.file.is_user() {
            Loc { line: span.line(), col: span.col() }
        } else {
            Loc::default()
        };
        let ret_rk = match &abi.ret {
            Abi::Scalar(t) => t.clone(),
            _ => Type::Unit,
        };
        let func = Func::new(name, false, ret_rk, loc);
        let mut l = FnLowerer::new(self, body.clone(), r.clone(), func);
        // A `#[track_caller]` function's code takes its caller's location, as the core's does
        // (`FnLowerer::loc`): its panics report the call, as in rustc, and a `shared_array`
        // inside it is one per call site, as the simulator's `Location::caller()` makes it.
        l.caller_located = closure.is_none()
            && matches!(tcx.items.def(def).kind, DefKind::Fn { track_caller: true, .. });
        let env = if abi.env {
            Some(l.func.add_param("env", abi.env_ty.clone().unwrap_or(Type::Unit)))
        } else {
            None
        };
        // The parameters' values.
        let strings = match inst {
            Instance::Fn { strings, .. } => strings.clone(),
            _ => Vec::new(),
        };
        let mut strs = strings.into_iter();
        let mut values = Vec::new();
        let pats: Vec<PatId> = match &closure {
            Some((_, c)) => match &body.expr(c.expr).kind {
                ExprKind::Closure { params, .. } => params.iter().map(|(p, _)| *p).collect(),
                _ => return None,
            },
            None => body.params.iter().map(|p| p.pat).collect(),
        };
        for (k, a) in abi.params.iter().enumerate() {
            // A parameter bound to a plain name is named after it in the dumps.
            let name = match pats.get(k).map(|p| &body.pat(*p).kind) {
                Some(PatKind::Binding { local, sub: None, .. }) => body.local(*local).name.clone(),
                _ => format!("p{k}"),
            };
            values.push(match a {
                Abi::Zst => Operand::Zst,
                Abi::Never => Operand::Never,
                Abi::Str => Operand::Str(strs.next().unwrap_or_default()),
                Abi::Scalar(t) => Operand::Scalar(l.func.add_param(name, t.clone())),
                Abi::Fat(t) => {
                    let p = l.func.add_param(format!("{name}_ptr"), t.clone());
                    let n = l.func.add_param(format!("{name}_len"), Type::USIZE);
                    Operand::Fat(p, n)
                }
                Abi::Mem(t) => {
                    let readonly = abi.readonly.get(k).copied().unwrap_or(false);
                    let p = l.func.add_param(name, Type::ptr(!readonly, t.clone()));
                    if readonly {
                        // The caller's memory, lent: read it, never write it.
                        l.stable.insert(p);
                    } else {
                        // The caller copied the argument for this call: it is the body's own.
                        l.fresh.insert(p);
                    }
                    Operand::Mem(p)
                }
            });
        }
        let (ret_ty, value_expr) = match &closure {
            Some((id, c)) => {
                let ExprKind::Closure { body: cb, .. } = &body.expr(c.expr).kind else {
                    return None;
                };
                l.closure = Some((env, *id, c.clone()));
                l.bind_captures(span);
                (c.ret.clone(), *cb)
            }
            None => (r.ret.clone(), body.value),
        };
        l.ret_ty = ret_ty.clone();
        if let Abi::Mem(t) = &abi.ret {
            l.ret_place = Some(l.func.add_param("ret", Type::ptr(true, t.clone())));
            l.ret_hint = l.ret_place;
        } else if let Abi::Fat(p) = &abi.ret {
            l.ret_place =
                Some(l.func.add_param("ret", Type::ptr(true, layout::fat_struct(p.clone()))));
        }
        let param_tys: Vec<Ty> = match &closure {
            Some((_, c)) => c.params.clone(),
            None => r.params.clone(),
        };
        for ((p, v), t) in pats.iter().zip(values).zip(param_tys) {
            l.bind_param(*p, v, &t);
        }
        let v = l.operand(value_expr);
        if !l.terminated() {
            match v {
                Operand::Never => l.finish_diverging(span),
                v => l.emit_return(v, span),
            }
        }
        l.finish()
    }

    /// Lowers a kernel, after checking its signature.
    pub fn lower_kernel(&mut self, def: DefId) -> bool {
        let tcx = self.tcx;
        let Some(params) = super::kernel::check_kernel_signature(self, def) else { return false };
        let Some(body) = tcx.body(def) else { return false };
        let Some(r) = tcx.typeck(def, &Vec::new().into()) else { return false };
        let name = tcx.items.name(def).to_string();
        self.names.insert(name.clone());
        let span = tcx.items.def(def).span;
        self.spans.insert(name.clone(), span);
        let loc = Loc { line: span.line(), col: span.col() };
        let func = Func::new(name, true, Type::Unit, loc);
        let mut l = FnLowerer::new(self, body.clone(), r.clone(), func);
        let mut values = Vec::new();
        for (k, p) in params.iter().enumerate() {
            let pname = super::kernel::param_name(&body, k);
            values.push(l.kernel_param(pname, p, span));
        }
        l.ret_ty = Ty::unit();
        for ((p, v), t) in body.params.iter().zip(values).zip(r.params.clone()) {
            l.bind_param(p.pat, v, &t);
        }
        let v = l.operand(body.value);
        if !l.terminated() {
            match v {
                Operand::Never => l.finish_diverging(span),
                _ => l.emit_return(Operand::Zst, span),
            }
        }
        match l.finish() {
            Some(f) => {
                self.funcs.push(f);
                true
            }
            None => false,
        }
    }
}

fn show_arg(tcx: &Tcx, a: &GenericArg) -> String {
    match a {
        GenericArg::Ty(t) => tcx.show(t),
        GenericArg::Const(crate::ty::Const::Value(v)) => v.to_string(),
        GenericArg::Const(_) => "_".into(),
    }
}

impl<'m, 'c, 't, 'a> FnLowerer<'m, 'c, 't, 'a> {
    /// Binds a parameter's pattern to its value.
    pub fn bind_param(&mut self, p: crate::hir::PatId, v: Operand, ty: &Ty) {
        let span = self.body.pat(p).span;
        if let PatKind::Binding { local, by_ref: None, sub: None } = self.body.pat(p).kind {
            self.init_local(local, v, span);
            return;
        }
        let place = match &v {
            Operand::Mem(m) => Place::Mem(*m),
            other => Place::Value(other.clone()),
        };
        self.bind_pattern(p, &place, ty, span);
    }

    /// Ends a body whose value diverged (it ends in a panic) with a return the panic makes
    /// unreachable.
    pub fn finish_diverging(&mut self, span: Span) {
        let t = self.func.ret.clone();
        if t == Type::Unit {
            self.op0(OpKind::Return, &[], span);
        } else {
            let d = self.dummy(&t, span);
            self.op0(OpKind::Return, &[d], span);
        }
    }

    /// The finished function, or `None` when lowering reported an error.
    pub fn finish(mut self) -> Option<Func> {
        if self.failed {
            return None;
        }
        let region = self.regions.pop().unwrap_or_default();
        self.func.body = region;
        Some(self.func)
    }
}
