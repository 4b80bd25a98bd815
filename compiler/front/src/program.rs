//! The file-level view: every function and constant of `kernels.rs`, the kernels, and the
//! device functions they reach, lowered on demand (generic ones once per instance) with the
//! call path from the kernel kept for diagnostics.

use crate::codes::*;
use crate::diag::{Diagnostic, Span, snippet};
use crate::lower::{FnLowerer, Reported, Subst, lower_type};
use rkc_rk::{Func, Loc, Type};
use std::collections::{HashMap, VecDeque};
use syn::spanned::Spanned;

/// A device function instance waiting to be lowered.
struct Pending<'s> {
    instance: String,
    item: &'s syn::ItemFn,
    subst: Subst,
    /// The calls that reach it, from the kernel: `["kernel", "f", "g"]`.
    path: Vec<String>,
}

/// The signature of a lowered (or queued) function instance.
#[derive(Clone, Debug)]
pub struct Signature {
    pub params: Vec<Type>,
    pub ret: Type,
}

/// A `static` item: read-only ones are tables that kernels may read; `static mut` is host
/// memory that no kernel can reach.
pub struct Static {
    pub ty: syn::Type,
    pub expr: syn::Expr,
    pub mutable: bool,
    pub span: Span,
}

pub struct Program<'s> {
    pub source: &'s str,
    pub diags: Vec<Diagnostic>,
    fns: HashMap<String, Vec<&'s syn::ItemFn>>,
    consts: HashMap<String, (syn::Type, syn::Expr)>,
    statics: HashMap<String, Static>,
    pub items: crate::lower::Items,
    instances: HashMap<String, Option<Signature>>,
    queue: VecDeque<Pending<'s>>,
    pub funcs: Vec<Func>,
    /// The call path of the function being lowered (empty for a kernel).
    path: Vec<String>,
    /// Where each function instance is defined, for diagnostics about the call graph.
    pub spans: HashMap<String, Span>,
    pub const_depth: u32,
    /// The names of methods (`P::f`), by the address of their converted function.
    names: HashMap<usize, String>,
    /// The read-only tables the kernels use (`static`/`const` arrays of numbers).
    pub tables: Vec<rkc_rk::Table>,
}

/// Whether a function carries `#[offload_kernel]` (under any path, e.g. `offload::offload_kernel`).
pub(crate) fn is_kernel(f: &syn::ItemFn) -> bool {
    f.attrs.iter().any(|a| a.path().segments.last().is_some_and(|s| s.ident == "offload_kernel"))
}

fn span_of(node: &impl Spanned) -> Span {
    Span::from_pm2(node.span())
}

/// The mark on a method's converted `&mut self` parameter: the caller passes its receiver's
/// place, not a copy.
pub(crate) const BY_REFERENCE: &str = "rkc_receiver_by_reference";

/// Whether a parameter is a `&mut self` receiver (see [`impl_methods`]).
pub(crate) fn by_reference(pt: &syn::PatType) -> bool {
    pt.attrs.iter().any(|a| a.path().is_ident(BY_REFERENCE))
}

/// The inherent methods and associated functions of the file's structs (`impl P { fn f(..) }`,
/// in inline modules too) as plain functions named `P::f`: `self` and `&self` become a
/// parameter `self: P` (a copy, which reads the same), `&mut self` a parameter `mut self: P`
/// that the caller passes by reference, and `Self` is `P` throughout. Trait impls and generic
/// impls are left out (their methods are not found, and a call reports that).
pub fn impl_methods(file: &syn::File) -> Vec<(String, syn::ItemFn)> {
    use syn::visit_mut::VisitMut;
    struct SelfType(syn::Ident);
    impl VisitMut for SelfType {
        fn visit_ident_mut(&mut self, i: &mut syn::Ident) {
            if i == "Self" {
                *i = syn::Ident::new(&self.0.to_string(), i.span());
            }
        }
    }
    let mut out = Vec::new();
    for item in items_of(&file.items) {
        let syn::Item::Impl(imp) = item else { continue };
        if imp.trait_.is_some() || !imp.generics.params.is_empty() {
            continue;
        }
        let syn::Type::Path(tp) = imp.self_ty.as_ref() else { continue };
        let Some(ty) = tp.path.get_ident() else { continue };
        for f in imp.items.iter().filter_map(|i| match i {
            syn::ImplItem::Fn(f) => Some(f),
            _ => None,
        }) {
            let mut sig = f.sig.clone();
            for input in sig.inputs.iter_mut() {
                let syn::FnArg::Receiver(r) = input else { continue };
                let by_reference = r.reference.is_some() && r.mutability.is_some();
                let mutable = by_reference || (r.reference.is_none() && r.mutability.is_some());
                let mut attrs = r.attrs.clone();
                if by_reference {
                    let mark = syn::Ident::new(BY_REFERENCE, proc_macro2::Span::call_site());
                    attrs.push(syn::parse_quote!(#[#mark]));
                }
                let pat: syn::Pat = if mutable { syn::parse_quote!(mut self) } else { syn::parse_quote!(self) };
                *input = syn::FnArg::Typed(syn::PatType {
                    attrs,
                    pat: Box::new(pat),
                    colon_token: Default::default(),
                    ty: Box::new(syn::parse_quote!(#ty)),
                });
            }
            let mut item = syn::ItemFn { attrs: f.attrs.clone(), vis: f.vis.clone(), sig, block: Box::new(f.block.clone()) };
            SelfType(ty.clone()).visit_item_fn_mut(&mut item);
            out.push((format!("{ty}::{}", f.sig.ident), item));
        }
    }
    out
}

/// The items of a file, those of its inline modules included, in source order.
fn items_of(items: &[syn::Item]) -> Vec<&syn::Item> {
    let mut out = Vec::new();
    for item in items {
        match item {
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    out.extend(items_of(inner));
                }
            }
            other => out.push(other),
        }
    }
    out
}

impl<'s> Program<'s> {
    pub fn new(source: &'s str, file: &'s syn::File, methods: &'s [(String, syn::ItemFn)]) -> Program<'s> {
        let mut prog = Program {
            source,
            diags: Vec::new(),
            fns: HashMap::new(),
            consts: HashMap::new(),
            statics: HashMap::new(),
            items: Default::default(),
            instances: HashMap::new(),
            queue: VecDeque::new(),
            funcs: Vec::new(),
            path: Vec::new(),
            spans: HashMap::new(),
            const_depth: 0,
            names: HashMap::new(),
            tables: Vec::new(),
        };
        prog.collect(&file.items);
        for (name, f) in methods {
            prog.fns.entry(name.clone()).or_default().push(f);
            prog.names.insert(std::ptr::from_ref(f) as usize, name.clone());
        }
        prog
    }

    /// The name a function is known by: its own, or `P::f` for a method of `P`.
    pub fn name_of(&self, item: &syn::ItemFn) -> String {
        self.names.get(&(std::ptr::from_ref(item) as usize)).cloned().unwrap_or_else(|| item.sig.ident.to_string())
    }

    /// Collects functions and constants at the top level and in inline modules.
    fn collect(&mut self, items: &'s [syn::Item]) {
        for item in items_of(items) {
            match item {
                syn::Item::Fn(f) => self.fns.entry(f.sig.ident.to_string()).or_default().push(f),
                syn::Item::Const(c) => {
                    self.consts.insert(c.ident.to_string(), ((*c.ty).clone(), (*c.expr).clone()));
                    self.items.consts.insert(c.ident.to_string(), (*c.expr).clone());
                }
                syn::Item::Static(st) => {
                    let stat = Static {
                        ty: (*st.ty).clone(),
                        expr: (*st.expr).clone(),
                        mutable: !matches!(st.mutability, syn::StaticMutability::None),
                        span: Span::from_pm2(st.ident.span()),
                    };
                    self.statics.insert(st.ident.to_string(), stat);
                }
                syn::Item::Struct(st) => {
                    self.items.structs.insert(st.ident.to_string(), st.clone());
                }
                _ => {}
            }
        }
    }

    /// The kernels, in source order.
    pub fn kernels(file: &'s syn::File) -> Vec<&'s syn::ItemFn> {
        items_of(&file.items)
            .into_iter()
            .filter_map(|item| match item {
                syn::Item::Fn(f) if is_kernel(f) => Some(f),
                _ => None,
            })
            .collect()
    }

    /// The `static` of this name, if there is one.
    pub fn static_item(&self, name: &str) -> Option<&Static> {
        self.statics.get(name)
    }

    pub fn constant(&self, name: &str) -> Option<&(syn::Type, syn::Expr)> {
        self.consts.get(name)
    }

    /// The note that says how a device function is reached, when lowering one.
    pub fn call_path_note(&self) -> Option<String> {
        if self.path.len() < 2 {
            return None;
        }
        Some(format!(
            "`{}` is reached from the kernel `{}` through {}",
            self.path.last().map(String::as_str).unwrap_or(""),
            self.path[0],
            self.path.join(" → ")
        ))
    }

    /// Looks a called function up by name.
    pub fn function(&self, name: &str) -> Option<&'s syn::ItemFn> {
        self.fns.get(name).and_then(|v| v.first().copied())
    }

    /// Whether more than one function has this name (in different inline modules).
    pub fn is_ambiguous(&self, name: &str) -> bool {
        self.fns.get(name).is_some_and(|v| v.len() > 1)
    }

    /// The signature of an instance of `item` under `subst`, queueing its body for lowering
    /// the first time it is asked for. `caller` is the function whose body makes the call.
    pub fn instance(&mut self, item: &'s syn::ItemFn, subst: Subst, caller: &str) -> Result<(String, Signature), Reported> {
        let instance = format!("{}{}", self.name_of(item), subst.suffix());
        if let Some(sig) = self.instances.get(&instance) {
            return sig.clone().map(|s| (instance, s)).ok_or(Reported);
        }
        let mut path = if self.path.is_empty() { vec![caller.to_string()] } else { self.path.clone() };
        path.push(instance.clone());
        // Errors in the signature belong to the callee: they carry its call path.
        let saved = std::mem::replace(&mut self.path, path.clone());
        let before = self.diags.len();
        let sig = self.signature(item, &subst);
        if let Some(note) = self.call_path_note() {
            for d in &mut self.diags[before..] {
                if !d.notes.contains(&note) {
                    d.notes.push(note.clone());
                }
            }
        }
        self.path = saved;
        self.instances.insert(instance.clone(), sig.clone().ok());
        let sig = sig?;
        self.spans.insert(instance.clone(), Span::from_pm2(item.sig.ident.span()));
        self.queue.push_back(Pending { instance: instance.clone(), item, subst, path });
        Ok((instance, sig))
    }

    /// A device function's parameter and return types under a substitution.
    fn signature(&mut self, item: &'s syn::ItemFn, subst: &Subst) -> Result<Signature, Reported> {
        let mut params = Vec::new();
        let mut failed = false;
        for input in &item.sig.inputs {
            match input {
                syn::FnArg::Typed(pt) => match lower_type(&pt.ty, self.source, subst, &self.items, &mut self.diags) {
                    Ok(t) => params.push(t),
                    Err(_) => failed = true,
                },
                syn::FnArg::Receiver(r) => {
                    self.push(
                        Diagnostic::new(RK_UNSUPPORTED_ITEM, "methods are not supported in kernels yet")
                            .at(span_of(r), "a `self` parameter"),
                    );
                    failed = true;
                }
            }
        }
        let ret = match &item.sig.output {
            syn::ReturnType::Default => Type::Unit,
            syn::ReturnType::Type(_, ret_ty) => match lower_type(ret_ty, self.source, subst, &self.items, &mut self.diags) {
                Ok(t) => t,
                Err(_) => {
                    failed = true;
                    Type::Unit
                }
            },
        };
        if item.sig.asyncness.is_some() {
            self.push(
                Diagnostic::new(RK_ASYNC_KERNEL, "`async` functions cannot be called from kernels")
                    .at(span_of(&item.sig), "declared `async`"),
            );
            failed = true;
        }
        if failed { Err(Reported) } else { Ok(Signature { params, ret }) }
    }

    fn push(&mut self, mut d: Diagnostic) {
        if let Some(note) = self.call_path_note() {
            d = d.note(note);
        }
        self.diags.push(d);
    }

    /// Lowers every queued device function, including those they queue in turn.
    pub fn drain(&mut self) {
        while let Some(p) = self.queue.pop_front() {
            let saved = std::mem::replace(&mut self.path, p.path.clone());
            if let Some(sig) = self.instances.get(&p.instance).cloned().flatten()
                && let Ok(func) = self.lower_body(p.item, &p.instance, false, sig, p.subst)
            {
                self.funcs.push(func);
            }
            self.path = saved;
        }
    }

    /// Lowers a kernel, after checking its signature.
    pub fn lower_kernel(&mut self, item: &'s syn::ItemFn) -> Result<(), Reported> {
        let sig = &item.sig;
        let name = sig.ident.to_string();
        let name_span = Span::from_pm2(sig.ident.span());
        let before = self.diags.len();
        if !sig.generics.params.is_empty() {
            self.push(
                Diagnostic::new(RK_GENERIC_KERNEL, format!("the kernel `{name}` cannot be generic"))
                    .at(Span::from_pm2(sig.generics.span()), "generic parameters declared here")
                    .with_secondary(name_span, "kernels are launched by name")
                    .help("make the kernel non-generic and call a generic device function from it"),
            );
        }
        if let Some(a) = &sig.asyncness {
            self.push(
                Diagnostic::new(RK_ASYNC_KERNEL, format!("the kernel `{name}` cannot be `async`"))
                    .at(Span::from_pm2(a.span), "remove `async`"),
            );
        }
        if let Some(c) = &sig.constness {
            self.push(
                Diagnostic::new(RK_ASYNC_KERNEL, format!("the kernel `{name}` cannot be `const`"))
                    .at(Span::from_pm2(c.span), "remove `const`"),
            );
        }
        if let Some(abi) = &sig.abi {
            self.push(
                Diagnostic::new(RK_ASYNC_KERNEL, format!("the kernel `{name}` cannot declare an ABI"))
                    .at(span_of(abi), "`#[offload_kernel]` chooses the device ABI"),
            );
        }
        if let syn::ReturnType::Type(_, ty) = &sig.output {
            let is_unit = matches!(ty.as_ref(), syn::Type::Tuple(t) if t.elems.is_empty());
            if !is_unit {
                self.push(
                    Diagnostic::new(RK_KERNEL_RETURNS_VALUE, format!("the kernel `{name}` cannot return a value"))
                        .at(span_of(ty), "remove the return type")
                        .note("a kernel's results go through its `*mut` pointer arguments"),
                );
            }
        }
        let mut params = Vec::new();
        // A generic kernel's parameter types mention its generics: one error is enough.
        let inputs = if sig.generics.params.is_empty() { sig.inputs.iter().collect::<Vec<_>>() } else { Vec::new() };
        for input in inputs {
            let syn::FnArg::Typed(pt) = input else {
                self.push(
                    Diagnostic::new(RK_ASYNC_KERNEL, format!("the kernel `{name}` cannot take `self`"))
                        .at(span_of(input), "kernels are free functions"),
                );
                continue;
            };
            let ty_before = self.diags.len();
            let Ok(ty) = lower_type(&pt.ty, self.source, &Subst::default(), &self.items, &mut self.diags) else {
                // An error about a struct of the file (not `repr(C)`, generic...) points at its
                // definition and says how to fix it: that one stays.
                if self.diags[ty_before..].iter().any(|d| !d.secondary.is_empty()) {
                    continue;
                }
                // Say what upstream says ("type `X` cannot be offloaded"), with the span it lacks.
                self.diags.truncate(ty_before);
                self.push(
                    Diagnostic::new(RK_BAD_KERNEL_PARAM, format!("type `{}` cannot be offloaded", snippet(self.source, span_of(&pt.ty))))
                        .at(span_of(&pt.ty), format!("the parameter `{}` has this type", param_name(&pt.pat)))
                        .note("kernel parameters are scalars (by value), slices, or raw pointers to scalars, arrays or `#[repr(C)]` structs (copied in, and back for `*mut`)"),
                );
                continue;
            };
            if ty == Type::Unit {
                self.push(
                    Diagnostic::new(RK_BAD_KERNEL_PARAM, "type `()` cannot be offloaded")
                        .at(span_of(&pt.ty), "a parameter that holds nothing"),
                );
                continue;
            }
            if mentions_tuple(&ty) {
                self.push(
                    Diagnostic::new(RK_BAD_KERNEL_PARAM, format!("type `{ty}` cannot be offloaded"))
                        .at(span_of(&pt.ty), "a tuple in a kernel parameter")
                        .note("Rust does not fix the layout of tuples, so the host and the device could disagree on it")
                        .help("use a `#[repr(C)]` struct instead"),
                );
                continue;
            }
            params.push(ty);
        }
        if self.diags.len() > before {
            return Err(Reported);
        }
        self.spans.insert(name.clone(), name_span);
        let func = self.lower_body(item, &name, true, Signature { params, ret: Type::Unit }, Subst::default())?;
        self.funcs.push(func);
        Ok(())
    }

    /// Lowers a function body with the given signature.
    fn lower_body(&mut self, item: &'s syn::ItemFn, name: &str, kernel: bool, sig: Signature, subst: Subst) -> Result<Func, Reported> {
        let name_span = Span::from_pm2(item.sig.ident.span());
        let loc = Loc { line: name_span.line(), col: name_span.col() };
        let mut func = Func::new(name.to_string(), kernel, sig.ret.clone(), loc);
        let mut params = Vec::new();
        for (input, ty) in item.sig.inputs.iter().zip(sig.params) {
            let syn::FnArg::Typed(pt) = input else { continue };
            let (pname, mutable) = match pt.pat.as_ref() {
                syn::Pat::Ident(pi) if pi.subpat.is_none() && pi.by_ref.is_none() => (pi.ident.to_string(), pi.mutability.is_some()),
                syn::Pat::Wild(_) => ("_".to_string(), false),
                other => {
                    self.push(
                        Diagnostic::new(RK_UNSUPPORTED_PATTERN, "parameters must be plain names")
                            .at(span_of(other), "patterns are not allowed here"),
                    );
                    return Err(Reported);
                }
            };
            if mutable && !ty.is_scalar() && !crate::lower::is_aggregate(&ty) {
                self.push(
                    Diagnostic::new(RK_UNSUPPORTED_STMT, format!("a `mut` parameter of type `{ty}` is not supported yet"))
                        .at(span_of(&pt.pat), "mutable parameters hold scalars"),
                );
                return Err(Reported);
            }
            // An aggregate is passed by value as a pointer: a device function's to the caller's
            // copy, a kernel's to the launch's copy on the device (upstream maps a struct or
            // an array by value as copied in).
            let id = match (crate::lower::is_aggregate(&ty), kernel) {
                (true, true) => func.add_by_value_param(pname.clone(), ty.clone()),
                (true, false) => func.add_param(pname.clone(), Type::ptr(true, ty.clone())),
                (false, _) => func.add_param(pname.clone(), ty.clone()),
            };
            params.push((pname, id, ty, mutable, span_of(&pt.pat)));
        }
        // An aggregate result goes through a hidden last parameter: the caller's local.
        let return_slot = if crate::lower::is_aggregate(&sig.ret) {
            func.ret = Type::Unit;
            Some((func.add_param("ret", Type::ptr(true, sig.ret.clone())), sig.ret.clone()))
        } else {
            None
        };
        let close = item.block.brace_token.span.close();
        let body_loc = Loc { line: Span::from_pm2(close).line(), col: Span::from_pm2(close).col() };
        let body_span = tail_span(&item.block);
        let mut lowerer = FnLowerer::new(func, params, subst, self);
        if let Some((slot, ty)) = return_slot {
            lowerer.return_through(slot, ty);
        }
        // An `unsafe fn`'s body is an unsafe context, as rustc accepts it (with a lint in
        // edition 2024).
        if item.sig.unsafety.is_some() {
            let block = syn::Block {
                brace_token: item.block.brace_token,
                stmts: vec![syn::Stmt::Expr(
                    syn::Expr::Unsafe(syn::ExprUnsafe {
                        attrs: vec![],
                        unsafe_token: Default::default(),
                        block: (*item.block).clone(),
                    }),
                    None,
                )],
            };
            return lowerer.finish(&block, body_loc, body_span);
        }
        lowerer.finish(&item.block, body_loc, body_span)
    }
}

fn param_name(pat: &syn::Pat) -> String {
    match pat {
        syn::Pat::Ident(p) => p.ident.to_string(),
        _ => "_".into(),
    }
}

/// The span of a block's value: its tail expression, or the whole block.
fn tail_span(block: &syn::Block) -> Span {
    match block.stmts.last() {
        Some(syn::Stmt::Expr(e, None)) => span_of(e),
        _ => span_of(block),
    }
}

/// Whether a type holds a tuple anywhere (behind pointers too).
fn mentions_tuple(ty: &Type) -> bool {
    match ty {
        Type::Struct { name, fields } => name.is_empty() || fields.iter().any(|(_, t)| mentions_tuple(t)),
        Type::Ptr { pointee: t, .. } | Type::Array { elem: t, .. } | Type::Slice { elem: t, .. } | Type::Slot(t) => mentions_tuple(t),
        _ => false,
    }
}
