//! Lowering of one kernel's syn tree to an rk function: name resolution, type inference and
//! checking (with rustc's literal rules), the unsafe check, and bounds checks on indexing.

use crate::codes::*;
use crate::diag::{Diagnostic, Span, snippet};
use crate::program::Program;
use rkc_rk::math::MathFn;
use rkc_rk::AtomicOp;
use rkc_rk::{
    BinOp, CmpOp, Dim, FenceScope, FloatTy, Func, Geometry, IntTy, Literal, Loc, Op, OpKind, Region, Type,
    ValueId, WarpOp,
};
use std::collections::HashMap;
use syn::spanned::Spanned;

/// The error marker of a construct that was already reported; lowering of the enclosing
/// statement stops, the rest of the function goes on so that several errors can be shown.
#[derive(Clone, Copy, Debug)]
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
/// The types and constants bound to a generic function's parameters at one call site.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Subst {
    pub types: Vec<(String, Type)>,
    pub consts: Vec<(String, u64)>,
}

impl Subst {
    fn ty(&self, name: &str) -> Option<&Type> {
        self.types.iter().find(|(n, _)| n == name).map(|(_, t)| t)
    }

    pub fn constant(&self, name: &str) -> Option<u64> {
        self.consts.iter().find(|(n, _)| n == name).map(|(_, c)| *c)
    }

    /// `<f32, 4>`, for the instance's name.
    pub fn suffix(&self) -> String {
        if self.types.is_empty() && self.consts.is_empty() {
            return String::new();
        }
        let parts: Vec<String> = self
            .types
            .iter()
            .map(|(_, t)| t.to_string())
            .chain(self.consts.iter().map(|(_, c)| c.to_string()))
            .collect();
        format!("<{}>", parts.join(", "))
    }
}

/// The items of the file that types can name: `struct`s, and `const`s (for array lengths
/// such as `[f32; TILE]`), by name (those of inline modules too).
#[derive(Default)]
pub struct Items {
    pub structs: HashMap<String, syn::ItemStruct>,
    pub consts: HashMap<String, syn::Expr>,
}

/// The value of a constant integer expression, as rustc evaluates array lengths and const
/// arguments: literals, const generics, `const` items, and arithmetic on them (`{ 16 * 17 }`,
/// `TILE + 1`). `None` when it is not one, or overflows.
pub fn const_eval(e: &syn::Expr, subst: &Subst, items: &Items, depth: u32) -> Option<u64> {
    if depth > 32 {
        return None;
    }
    let eval = |x: &syn::Expr| const_eval(x, subst, items, depth + 1);
    match e {
        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(n), .. }) => n.base10_parse::<u64>().ok(),
        syn::Expr::Paren(p) => eval(&p.expr),
        syn::Expr::Group(g) => eval(&g.expr),
        syn::Expr::Block(b) => match b.block.stmts.as_slice() {
            [syn::Stmt::Expr(x, None)] => eval(x),
            _ => None,
        },
        syn::Expr::Cast(c) => eval(&c.expr),
        syn::Expr::Path(p) => {
            let name = p.path.segments.last()?.ident.to_string();
            if p.path.get_ident().is_some()
                && let Some(v) = subst.constant(&name)
            {
                return Some(v);
            }
            eval(items.consts.get(&name)?)
        }
        syn::Expr::Binary(b) => {
            let (l, r) = (eval(&b.left)?, eval(&b.right)?);
            match b.op {
                syn::BinOp::Add(_) => l.checked_add(r),
                syn::BinOp::Sub(_) => l.checked_sub(r),
                syn::BinOp::Mul(_) => l.checked_mul(r),
                syn::BinOp::Div(_) => l.checked_div(r),
                syn::BinOp::Rem(_) => l.checked_rem(r),
                syn::BinOp::Shl(_) => u32::try_from(r).ok().and_then(|r| l.checked_shl(r)),
                syn::BinOp::Shr(_) => u32::try_from(r).ok().and_then(|r| l.checked_shr(r)),
                syn::BinOp::BitAnd(_) => Some(l & r),
                syn::BinOp::BitOr(_) => Some(l | r),
                syn::BinOp::BitXor(_) => Some(l ^ r),
                _ => None,
            }
        }
        _ => None,
    }
}

pub fn lower_type(ty: &syn::Type, source: &str, subst: &Subst, items: &Items, diags: &mut Vec<Diagnostic>) -> Lowered<Type> {
    lower_type_at(ty, source, subst, items, diags, 0)
}

/// Whether a struct carries `#[repr(C)]` (alone or with other hints, e.g. `#[repr(C, align(8))]`).
fn is_repr_c(item: &syn::ItemStruct) -> bool {
    item.attrs.iter().filter(|a| a.path().is_ident("repr")).any(|a| {
        let mut c = false;
        let _ = a.parse_nested_meta(|m| {
            c |= m.path.is_ident("C");
            // Skip the arguments of hints such as `align(8)`.
            if m.input.peek(syn::token::Paren) {
                let _ = m.input.parse::<proc_macro2::Group>();
            }
            Ok(())
        });
        c
    })
}

/// A struct item as an rk type: `#[repr(C)]`, not generic, with fields of scalars, arrays
/// and structs. `depth` stops a struct that contains itself (which rustc refuses too).
fn lower_struct(item: &syn::ItemStruct, used: &syn::Type, source: &str, items: &Items, diags: &mut Vec<Diagnostic>, depth: u32) -> Lowered<Type> {
    let name = item.ident.to_string();
    let defined = span_of(&item.ident);
    let refuse = |diags: &mut Vec<Diagnostic>, message: String, label: &str, help: &str| {
        diags.push(
            Diagnostic::new(RK_UNSUPPORTED_TYPE, message)
                .at(span_of(used), label.to_string())
                .with_secondary(defined, "defined here")
                .help(help.to_string()),
        );
        Reported
    };
    if !item.generics.params.is_empty() {
        return Err(refuse(diags, format!("the generic struct `{name}` is not supported in kernels"), "a generic struct", "write a struct for each element type"));
    }
    if !is_repr_c(item) {
        return Err(refuse(
            diags,
            format!("the struct `{name}` must be `#[repr(C)]` to be used in kernels"),
            "its layout is not fixed",
            "add `#[repr(C)]` to the struct: kernels and the host must agree on where each field is, and Rust guarantees that only for `repr(C)`",
        ));
    }
    if depth > 16 {
        return Err(refuse(diags, format!("the struct `{name}` contains itself"), "a recursive struct", "a struct cannot hold itself by value"));
    }
    let mut fields = Vec::new();
    for (k, f) in item.fields.iter().enumerate() {
        let field = f.ident.as_ref().map_or(k.to_string(), |i| i.to_string());
        let t = lower_type_at(&f.ty, source, &Subst::default(), items, diags, depth + 1)?;
        if !t.is_storable() {
            return Err(refuse(
                diags,
                format!("the field `{field}` of `{name}` has the type `{t}`, which kernels cannot keep in a struct"),
                "used here",
                "struct fields hold scalars, arrays and other `#[repr(C)]` structs",
            ));
        }
        fields.push((field, t));
    }
    if fields.is_empty() {
        return Err(refuse(diags, format!("the struct `{name}` has no fields"), "an empty struct", "kernels need a struct with at least one field"));
    }
    Ok(Type::Struct { name, fields })
}

fn lower_type_at(ty: &syn::Type, source: &str, subst: &Subst, items: &Items, diags: &mut Vec<Diagnostic>, depth: u32) -> Lowered<Type> {
    let unsupported = |diags: &mut Vec<Diagnostic>, what: &str| {
        diags.push(
            Diagnostic::new(RK_UNSUPPORTED_TYPE, format!("the type `{}` is not supported in kernels", snippet(source, span_of(ty))))
                .at(span_of(ty), what.to_string())
                .note("kernels work on scalars (`bool`, integers, `f32`, `f64`), arrays, tuples and `#[repr(C)]` structs of them, slices, and raw pointers to all of these"),
        );
        Reported
    };
    match ty {
        syn::Type::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
            let seg = &p.path.segments[0];
            if !seg.arguments.is_empty() {
                return Err(unsupported(diags, "host types such as `Vec` and `Box` have no device form"));
            }
            let name = seg.ident.to_string();
            if let Some(t) = subst.ty(&name) {
                return Ok(t.clone());
            }
            Ok(match name.as_str() {
                "bool" => Type::Bool,
                "f32" => Type::Float(FloatTy::F32),
                "f64" => Type::Float(FloatTy::F64),
                other => match IntTy::from_name(other) {
                    Some(t) => Type::Int(t),
                    None => match items.structs.get(other) {
                        Some(item) => return lower_struct(item, ty, source, items, diags, depth),
                        None => return Err(unsupported(diags, "not a type rkc knows")),
                    },
                },
            })
        }
        syn::Type::Ptr(p) => {
            let pointee = lower_type_at(&p.elem, source, subst, items, diags, depth)?;
            if !pointee.is_storable() {
                return Err(unsupported(diags, "pointers must point at scalars, arrays or structs"));
            }
            Ok(Type::ptr(p.mutability.is_some(), pointee))
        }
        syn::Type::Array(a) => {
            let elem = lower_type_at(&a.elem, source, subst, items, diags, depth)?;
            if !elem.is_storable() {
                return Err(unsupported(diags, "array elements must be scalars, arrays or structs"));
            }
            let len = const_eval(&a.len, subst, items, 0);
            match len {
                Some(len) => Ok(Type::Array {
                    elem: Box::new(elem),
                    len,
                }),
                None => Err(unsupported(diags, "array lengths must be integer literals")),
            }
        }
        syn::Type::Tuple(t) if t.elems.is_empty() => Ok(Type::Unit),
        syn::Type::Tuple(t) => {
            let elems = t.elems.iter().map(|e| lower_type_at(e, source, subst, items, diags, depth + 1)).collect::<Lowered<Vec<_>>>()?;
            if elems.iter().any(|e| !e.is_storable()) {
                return Err(unsupported(diags, "tuple elements must be scalars, arrays or structs"));
            }
            Ok(Type::tuple(elems))
        }
        syn::Type::Paren(p) => lower_type_at(&p.elem, source, subst, items, diags, depth),
        syn::Type::Reference(r) => match r.elem.as_ref() {
            syn::Type::Slice(sl) => {
                let elem = lower_type_at(&sl.elem, source, subst, items, diags, depth)?;
                if !elem.is_storable() {
                    return Err(unsupported(diags, "slice elements must be scalars, arrays or structs"));
                }
                Ok(Type::Slice { mutable: r.mutability.is_some(), elem: Box::new(elem) })
            }
            _ => Err(unsupported(diags, "references other than slices are not supported yet; use a raw pointer")),
        },
        syn::Type::TraitObject(_) | syn::Type::ImplTrait(_) => {
            Err(unsupported(diags, "trait objects cannot be offloaded"))
        }
        _ => Err(unsupported(diags, "not supported in kernels")),
    }
}

/// A name in scope: an immutable value, or a `let mut` variable's slot.
#[derive(Clone, Debug)]
enum Binding {
    Value(Val),
    Slot { slot: ValueId, ty: Type },
    /// An aggregate (an array, struct or tuple `ty`) in memory: a local's own storage
    /// (`rk.local`), or a device function's by-value parameter (the caller's copy). Every
    /// access goes through `ptr`.
    Memory { ptr: ValueId, ty: Type, mutable: bool },
}

/// A part of an aggregate being built: a scalar value, or an aggregate in its own local.
enum Element {
    Scalar(Val),
    Memory(ValueId, Type),
}

impl Element {
    fn ty(&self) -> &Type {
        match self {
            Element::Scalar(v) => &v.ty,
            Element::Memory(_, t) => t,
        }
    }
}

pub(crate) fn is_aggregate(t: &Type) -> bool {
    matches!(t, Type::Array { .. } | Type::Struct { .. })
}

/// Where an assignment or a read goes: memory behind a pointer, or a local slot.
#[derive(Clone, Copy, Debug)]
enum Place {
    Ptr(ValueId),
    Slot(ValueId),
}

/// An enclosing loop, for `break` and `continue`.
struct LoopCtx {
    label: Option<String>,
    /// Only `loop` can break with a value.
    takes_value: bool,
    /// The type of the values its `break`s carry, once one is seen.
    break_ty: Option<Type>,
    /// The type the loop expression is expected to have, for literal inference.
    expected: Option<Type>,
}

/// Lowers one function (a kernel or a device function) into an rk function.
pub struct FnLowerer<'p, 's> {
    func: Func,
    regions: Vec<Region>,
    scopes: Vec<HashMap<String, Option<Binding>>>,
    loops: Vec<LoopCtx>,
    unsafe_depth: u32,
    /// How deeply the expression being lowered is nested (see `expr`).
    depth: u32,
    subst: Subst,
    prog: &'p mut Program<'s>,
    /// The `static` and `const` aggregates this function uses, each materialised once at
    /// its entry (see `table`).
    tables: HashMap<String, ValueId>,
    /// Where a device function that returns an aggregate writes it: the hidden last
    /// parameter, a pointer to the caller's local.
    return_slot: Option<(ValueId, Type)>,
}

impl<'p, 's> FnLowerer<'p, 's> where 's: 'p {
    pub fn new(func: Func, params: Vec<(String, ValueId, Type, bool, Span)>, subst: Subst, prog: &'p mut Program<'s>) -> Self {
        let mut lowerer = FnLowerer {
            func,
            regions: vec![Region::default()],
            scopes: vec![HashMap::new()],
            loops: Vec::new(),
            unsafe_depth: 0,
            depth: 0,
            subst,
            prog,
            tables: HashMap::new(),
            return_slot: None,
        };
        for (name, id, ty, mutable, span) in params {
            let shared = matches!(lowerer.func.ty(id), Some(Type::Ptr { mutable: false, .. }));
            let binding = if is_aggregate(&ty) && mutable && shared {
                // A kernel's `mut` aggregate: the device copy is every thread's, so each thread
                // changes a copy of its own.
                let local = lowerer.new_local(&ty, span);
                lowerer.copy_value(id, local, &ty, span);
                Binding::Memory { ptr: local, ty, mutable }
            } else if is_aggregate(&ty) {
                // By value: a device function's `id` points at the caller's fresh copy, which
                // it owns; a kernel's at the launch's read-only copy.
                Binding::Memory { ptr: id, ty, mutable }
            } else if mutable {
                // `mut x: T` parameters live in a slot initialised with the argument.
                let slot = lowerer.func.new_value(Type::slot(ty.clone()));
                lowerer.push_op(OpKind::Var, vec![], vec![slot], Loc::default());
                lowerer.push_op(OpKind::Write, vec![id, slot], vec![], Loc::default());
                Binding::Slot { slot, ty }
            } else {
                Binding::Value(Val { id: Some(id), ty })
            };
            lowerer.scopes[0].insert(name, Some(binding));
        }
        lowerer
    }

    /// Makes the function return the aggregate `ty` through `slot` (its hidden last
    /// parameter) instead of by value.
    pub fn return_through(&mut self, slot: ValueId, ty: Type) {
        self.return_slot = Some((slot, ty));
    }

    /// Lowers the body and returns the finished function. The body's value is returned.
    pub fn finish(mut self, body: &syn::Block, loc: Loc, body_span: Span) -> Lowered<Func> {
        let before = self.prog.diags.len();
        let ret = self.func.ret.clone();
        if let Some((slot, ty)) = self.return_slot.clone() {
            // The body's value is the aggregate to return: it is built and copied out.
            let r = self.block_into(body, slot, &ty, body_span);
            if self.prog.diags.len() > before || r.is_err() {
                return Err(Reported);
            }
            if !self.terminated() {
                self.push_op(OpKind::Return, vec![], vec![], loc);
            }
            let region = self.regions.pop().unwrap_or_default();
            self.func.body = region;
            return Ok(self.func);
        }
        let value = self.block(body, Some(&ret));
        if self.prog.diags.len() > before {
            return Err(Reported);
        }
        let value = value?;
        if !self.terminated() {
            if value.ty != ret {
                return Err(self.mismatch(&ret, &value.ty, body_span));
            }
            self.push_op(OpKind::Return, value.id.into_iter().collect(), vec![], loc);
        }
        let region = self.regions.pop().unwrap_or_default();
        self.func.body = region;
        Ok(self.func)
    }

    fn error(&mut self, mut d: Diagnostic) -> Reported {
        if let Some(path) = self.prog.call_path_note() {
            d = d.note(path);
        }
        self.prog.diags.push(d);
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

    fn push_op(&mut self, kind: OpKind, operands: Vec<ValueId>, results: Vec<ValueId>, loc: Loc) {
        self.current().ops.push(Op {
            kind,
            operands,
            results,
            regions: vec![],
            loc,
        });
    }

    fn emit(&mut self, kind: OpKind, operands: &[ValueId], result: Option<Type>, span: Span) -> Option<ValueId> {
        let result = result.map(|t| self.func.new_value(t));
        let loc = Loc {
            line: span.line(),
            col: span.col(),
        };
        self.push_op(kind, operands.to_vec(), result.into_iter().collect(), loc);
        result
    }

    /// Emits an op with one result and returns it.
    fn emit1(&mut self, kind: OpKind, operands: &[ValueId], ty: Type, span: Span) -> Val {
        let id = self.emit(kind, operands, Some(ty.clone()), span);
        Val { id, ty }
    }

    fn lookup(&self, name: &str) -> Option<&Option<Binding>> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    fn bind(&mut self, name: String, binding: Option<Binding>) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name, binding);
        }
    }

    fn lower_type(&mut self, ty: &syn::Type) -> Lowered<Type> {
        lower_type(ty, self.prog.source, &self.subst, &self.prog.items, &mut self.prog.diags)
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
                syn::Stmt::Local(local) => self.local(local, &stmts[i + 1..]).map(|_| Val::unit()),
                syn::Stmt::Expr(e, None) if last => self.expr(e, expected),
                syn::Stmt::Expr(e, _) => self.expr(e, None).map(|_| Val::unit()),
                syn::Stmt::Item(item) => Err(self.error(
                    Diagnostic::new(RK_UNSUPPORTED_ITEM, "items inside kernel bodies are not supported")
                        .at(span_of(item), "declare this outside the kernel"),
                )),
                syn::Stmt::Macro(m) if self.is_panic_macro(&m.mac) => {
                    self.panic_macro(&m.mac, span_of(&m.mac)).unwrap_or(Err(Reported))
                }
                syn::Stmt::Macro(m) => Err(self.error(
                    Diagnostic::new(RK_UNSUPPORTED_EXPR, format!("the macro `{}!` is not supported in kernels", snippet(self.prog.source, span_of(&m.mac.path))))
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

    /// `let (a, mut b) = (x, y);` — a tuple pattern bound to a tuple expression (possibly
    /// inside `unsafe { }`): every element is evaluated first, then each name is bound, as
    /// Rust does (so `let (a, b) = (b, a);` swaps).
    fn tuple_local(&mut self, local: &syn::Local, pats: &syn::PatTuple) -> Lowered<()> {
        let Some(init) = local.init.as_ref().filter(|i| i.diverge.is_none()) else {
            return Err(self.unsupported_pattern(&local.pat));
        };
        let (elems, in_unsafe) = match strip_parens(&init.expr) {
            syn::Expr::Tuple(t) => (&t.elems, false),
            syn::Expr::Unsafe(u) => match u.block.stmts.as_slice() {
                [syn::Stmt::Expr(syn::Expr::Tuple(t), None)] => (&t.elems, true),
                _ => return Err(self.unsupported_pattern(&local.pat)),
            },
            _ => return Err(self.unsupported_pattern(&local.pat)),
        };
        if elems.len() != pats.elems.len() {
            return Err(self.error(
                Diagnostic::new(RK_MISMATCHED_TYPES, format!("expected a tuple with {} elements, found one with {}", pats.elems.len(), elems.len()))
                    .at(span_of(&local.pat), format!("expected a tuple with {} elements", pats.elems.len())),
            ));
        }
        if in_unsafe {
            self.unsafe_depth += 1;
        }
        let values: Vec<Lowered<Val>> = elems.iter().map(|e| self.expr(e, None)).collect();
        if in_unsafe {
            self.unsafe_depth -= 1;
        }
        let mut result = Ok(());
        for (pat, (value, e)) in pats.elems.iter().zip(values.into_iter().zip(elems)) {
            let r = match pat {
                syn::Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => {
                    self.bind_local(p.ident.to_string(), p.mutability.is_some(), value, e, pat, span_of(local))
                }
                syn::Pat::Wild(_) => value.map(drop),
                other => Err(self.unsupported_pattern(other)),
            };
            result = result.and(r);
        }
        result
    }

    fn local(&mut self, local: &syn::Local, rest: &[syn::Stmt]) -> Lowered<()> {
        let scalar_tuple = |me: &Self, e: &syn::Expr| match strip_parens(e) {
            syn::Expr::Tuple(t) => t.elems.iter().all(|x| me.aggregate_type(x).is_none()),
            syn::Expr::Unsafe(u) => matches!(u.block.stmts.as_slice(), [syn::Stmt::Expr(syn::Expr::Tuple(t), None)] if t.elems.iter().all(|x| me.aggregate_type(x).is_none())),
            _ => false,
        };
        if let syn::Pat::Tuple(t) = &local.pat
            && local.init.as_ref().is_some_and(|i| scalar_tuple(self, &i.expr))
            && !t.elems.iter().any(|p| matches!(p, syn::Pat::Rest(_)))
        {
            return self.tuple_local(local, t);
        }
        // `let (a, b) = pair;`, `let P { x, y } = p;`, `let [a, .., z] = arr;`: the aggregate
        // is built, then taken apart.
        if let (syn::Pat::Tuple(_) | syn::Pat::Struct(_) | syn::Pat::TupleStruct(_) | syn::Pat::Slice(_), Some(init)) = (&local.pat, &local.init)
            && init.diverge.is_none()
            && self.aggregate_type(&init.expr).is_some()
        {
            let (ptr, ty) = self.aggregate_value(&init.expr, None)?;
            return self.destructure(&local.pat, ptr, &ty, span_of(local));
        }
        // `let _ = expr;`: the value is computed (for what it does) and dropped.
        if let (syn::Pat::Wild(_), Some(init)) = (&local.pat, &local.init)
            && init.diverge.is_none()
        {
            return if self.aggregate_type(&init.expr).is_some() {
                self.aggregate_value(&init.expr, None).map(drop)
            } else {
                self.expr(&init.expr, None).map(drop)
            };
        }
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
            other => {
                // Poison the pattern's names so that their uses do not report second errors.
                fn names(p: &syn::Pat, out: &mut Vec<String>) {
                    match p {
                        syn::Pat::Ident(i) => out.push(i.ident.to_string()),
                        syn::Pat::Tuple(t) => t.elems.iter().for_each(|e| names(e, out)),
                        syn::Pat::Slice(s) => s.elems.iter().for_each(|e| names(e, out)),
                        syn::Pat::TupleStruct(t) => t.elems.iter().for_each(|e| names(e, out)),
                        syn::Pat::Struct(s) => s.fields.iter().for_each(|f| names(&f.pat, out)),
                        syn::Pat::Type(t) => names(&t.pat, out),
                        syn::Pat::Reference(r) => names(&r.pat, out),
                        _ => {}
                    }
                }
                let mut poisoned = Vec::new();
                names(other, &mut poisoned);
                for n in poisoned {
                    self.bind(n, None);
                }
                return Err(self.unsupported_pattern(other));
            }
        };
        let expected = match ascribed {
            Some(t) => match self.lower_type(t) {
                Ok(t) => Some(t),
                Err(r) => {
                    self.bind(name, None);
                    return Err(r);
                }
            },
            // An unsuffixed integer literal takes its type from the variable's later uses, as
            // rustc infers it (`let mut k = 0; while k < v.len()` makes `k` a `usize`).
            None => match &local.init {
                Some(init) if untyped_kind(&init.expr).is_some() => {
                    self.type_from_uses(&name, rest).filter(|t| Some(t.is_float()) == untyped_kind(&init.expr))
                }
                _ => None,
            },
        };
        let Some(init) = &local.init else {
            self.bind(name, None);
            return Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_STMT, "a `let` without a value is not supported")
                    .at(span_of(local), "give the variable its value here"),
            ));
        };
        if init.diverge.is_some() {
            self.bind(name, None);
            return Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_STMT, "`let ... else` is not supported in kernels")
                    .at(span_of(local), "not supported"),
            ));
        }
        if expected.as_ref().is_some_and(is_aggregate) || self.aggregate_type(&init.expr).is_some() {
            return match self.aggregate_value(&init.expr, expected.as_ref()) {
                Ok((ptr, ty)) => {
                    self.bind(name, Some(Binding::Memory { ptr, ty, mutable }));
                    Ok(())
                }
                Err(r) => {
                    self.bind(name, None);
                    Err(r)
                }
            };
        }
        let value = self.expr(&init.expr, expected.as_ref());
        let value = match (value, &expected) {
            (Ok(v), Some(t)) if v.ty != *t => Err(self.mismatch(t, &v.ty, span_of(&init.expr))),
            (v, _) => v,
        };
        self.bind_local(name, mutable, value, &init.expr, &local.pat, span_of(local))
    }

    /// The integer type that the first typed use of `name` in `stmts` gives it: an operand of
    /// arithmetic, a comparison or an assignment whose other side has a known type, or an
    /// index (`usize`). `None` when no use decides (rustc's fallback, `i32`, then applies).
    fn type_from_uses(&self, name: &str, stmts: &[syn::Stmt]) -> Option<Type> {
        self.type_from_uses_at(name, stmts, 0)
    }

    fn type_from_uses_at(&self, name: &str, stmts: &[syn::Stmt], depth: u32) -> Option<Type> {
        use syn::visit::Visit;
        struct Uses<'a, 'l, 's> {
            me: &'a FnLowerer<'l, 's>,
            name: &'a str,
            found: Option<Type>,
            depth: u32,
            /// How many loops of the walked code enclose the current point.
            loops: u32,
            /// The element variables of the walked `for` loops over arrays and slices, which
            /// are not in scope yet: `for &v in s { c += v }` makes `c` an element.
            elements: Vec<(String, Type)>,
        }
        impl Uses<'_, '_, '_> {
            /// The type of `e` as far as it is known here.
            fn ty_of(&self, e: &syn::Expr) -> Option<Type> {
                // An element variable, or arithmetic on one (`v % 1000`), has its type.
                if let Some((_, t)) = self.elements.iter().rev().find(|(n, _)| arith_mentions(n, e)) {
                    return Some(t.clone());
                }
                self.me.static_type(e)
            }
            /// Whether `e` is the name, or arithmetic that gives it its own type (`k * 7 + t`):
            /// rustc unifies every operand of such an expression with its result.
            fn is_name(&self, e: &syn::Expr) -> bool {
                arith_mentions(self.name, e)
            }
            fn stmts(&mut self, stmts: &[syn::Stmt]) {
                for (k, stmt) in stmts.iter().enumerate() {
                    // A later `let` of the same name hides the variable from what follows.
                    if let syn::Stmt::Local(l) = stmt
                        && matches!(&l.pat, syn::Pat::Ident(i) if i.ident == self.name)
                    {
                        if let Some(init) = &l.init {
                            self.visit_expr(&init.expr);
                        }
                        return;
                    }
                    self.visit_stmt(stmt);
                    // `let m = p * p;` gives `p` the type that `m`'s own uses give `m`.
                    if self.found.is_none()
                        && self.depth < 4
                        && let syn::Stmt::Local(l) = stmt
                        && let Some(init) = &l.init
                        && arith_mentions(self.name, &init.expr)
                        && let Some(other) = pattern_binding(&l.pat)
                    {
                        let t = self.me.type_from_uses_at(&other, &stmts[k + 1..], self.depth + 1);
                        self.offer(t);
                    }
                    if self.found.is_some() {
                        return;
                    }
                }
            }
            fn offer(&mut self, t: Option<Type>) {
                if self.found.is_none()
                    && let Some(t @ (Type::Int(_) | Type::Float(_))) = t
                {
                    self.found = Some(t);
                }
            }
        }
        impl<'ast> Visit<'ast> for Uses<'_, '_, '_> {
            fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
                let shift = matches!(b.op, syn::BinOp::Shl(_) | syn::BinOp::Shr(_) | syn::BinOp::ShlAssign(_) | syn::BinOp::ShrAssign(_));
                if !shift {
                    if self.is_name(&b.left) {
                        let t = self.ty_of(&b.right);
                        self.offer(t);
                    } else if self.is_name(&b.right) {
                        let t = self.ty_of(&b.left);
                        self.offer(t);
                    }
                }
                syn::visit::visit_expr_binary(self, b);
            }
            fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
                if self.is_name(&a.left) {
                    let t = self.ty_of(&a.right);
                    self.offer(t);
                } else if self.is_name(&a.right) {
                    // `out[i] = name`: the place's type.
                    let t = self.ty_of(&a.left);
                    self.offer(t);
                }
                syn::visit::visit_expr_assign(self, a);
            }
            fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
                // `acc.wrapping_add(i)`: these methods take an argument of the receiver's type.
                const SAME: &[&str] = &[
                    "wrapping_add", "wrapping_sub", "wrapping_mul", "saturating_add", "saturating_sub", "min", "max", "clamp", "mul_add", "powf", "atan2", "hypot", "copysign",
                ];
                if SAME.contains(&m.method.to_string().as_str()) && m.args.iter().any(|a| self.is_name(a)) {
                    let t = self.me.static_type(&m.receiver);
                    self.offer(t);
                }
                syn::visit::visit_expr_method_call(self, m);
            }
            fn visit_expr_break(&mut self, b: &'ast syn::ExprBreak) {
                // `break name` out of the loop being lowered: the loop's value type.
                if self.loops == 0
                    && b.label.is_none()
                    && b.expr.as_deref().is_some_and(|e| self.is_name(e))
                    && let Some(ctx) = self.me.loops.last()
                {
                    let t = ctx.break_ty.clone().or_else(|| ctx.expected.clone());
                    self.offer(t);
                }
                syn::visit::visit_expr_break(self, b);
            }
            fn visit_expr_loop(&mut self, l: &'ast syn::ExprLoop) {
                self.loops += 1;
                syn::visit::visit_expr_loop(self, l);
                self.loops -= 1;
            }
            fn visit_expr_while(&mut self, w: &'ast syn::ExprWhile) {
                self.loops += 1;
                syn::visit::visit_expr_while(self, w);
                self.loops -= 1;
            }
            fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
                self.loops += 1;
                let mut known = 0;
                if let Some((seq, pat, _)) = self.me.element_loop(&f.expr, &f.pat)
                    && let Some(name) = pattern_binding(pat)
                {
                    let elem = match (self.me.aggregate_type(seq), self.me.value_type(seq)) {
                        (Some(Type::Array { elem, .. }), _) | (_, Some(Type::Slice { elem, .. })) => Some(*elem),
                        _ => None,
                    };
                    if let Some(t) = elem {
                        self.elements.push((name, t));
                        known = 1;
                    }
                }
                syn::visit::visit_expr_for_loop(self, f);
                self.elements.truncate(self.elements.len() - known);
                self.loops -= 1;
            }
            fn visit_block(&mut self, b: &'ast syn::Block) {
                // A shadowing `let` inside a block ends only that block's uses.
                self.stmts(&b.stmts);
            }
            fn visit_expr_index(&mut self, ix: &'ast syn::ExprIndex) {
                if self.is_name(&ix.index) {
                    self.offer(Some(Type::USIZE));
                }
                syn::visit::visit_expr_index(self, ix);
            }
        }
        let mut uses = Uses { me: self, name, found: None, depth, loops: 0, elements: Vec::new() };
        uses.stmts(stmts);
        uses.found
    }

    /// The type of an expression known without lowering it: a variable, a suffixed literal, a
    /// cast, a `.len()`, a constant; `None` otherwise.
    fn static_type(&self, e: &syn::Expr) -> Option<Type> {
        match strip_parens(e) {
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) => IntTy::from_name(i.suffix()).map(Type::Int),
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Float(f), .. }) => match f.suffix() {
                "f32" => Some(Type::Float(FloatTy::F32)),
                "f64" => Some(Type::Float(FloatTy::F64)),
                _ => None,
            },
            syn::Expr::Cast(c) => self.type_quietly(&c.ty),
            syn::Expr::MethodCall(m) if m.method == "len" && m.args.is_empty() => Some(Type::USIZE),
            // Methods whose result has the receiver's type.
            syn::Expr::MethodCall(m)
                if [
                    "wrapping_add", "wrapping_sub", "wrapping_mul", "wrapping_neg", "saturating_add", "saturating_sub", "min", "max", "clamp", "abs", "pow", "powi", "powf", "sqrt", "floor", "ceil",
                    "round", "trunc", "mul_add", "rotate_left", "rotate_right", "exp", "ln", "sin", "cos", "tanh", "recip",
                ]
                .contains(&m.method.to_string().as_str()) =>
            {
                self.static_type(&m.receiver)
            }
            syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Neg(_) | syn::UnOp::Not(_), expr, .. }) => self.static_type(expr),
            // A scalar place: `(*x)[i]`, `s[i]`, `p.field`, `*ptr`.
            syn::Expr::Index(_) | syn::Expr::Field(_) | syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Deref(_), .. }) => {
                self.place_type(e).filter(Type::is_scalar)
            }
            // Arithmetic has its operands' type; a shift has its left side's.
            syn::Expr::Binary(b) => match b.op {
                op if is_arithmetic(&op) => self.static_type(&b.left).or_else(|| self.static_type(&b.right)),
                syn::BinOp::Shl(_) | syn::BinOp::Shr(_) => self.static_type(&b.left),
                syn::BinOp::Eq(_) | syn::BinOp::Ne(_) | syn::BinOp::Lt(_) | syn::BinOp::Le(_) | syn::BinOp::Gt(_) | syn::BinOp::Ge(_) | syn::BinOp::And(_) | syn::BinOp::Or(_) => {
                    Some(Type::Bool)
                }
                _ => None,
            },
            syn::Expr::Path(p) => {
                let ident = p.path.get_ident()?.to_string();
                match self.lookup(&ident) {
                    Some(Some(Binding::Value(v))) => Some(v.ty.clone()),
                    Some(Some(Binding::Slot { ty, .. })) => Some(ty.clone()),
                    Some(Some(Binding::Memory { .. }) | None) => None,
                    None => self.prog.constant(&ident).and_then(|(t, _)| self.type_quietly(t)),
                }
            }
            _ => None,
        }
    }

    /// A type as `lower_type` reads it, without reporting anything: for peeking at uses.
    fn type_quietly(&self, t: &syn::Type) -> Option<Type> {
        lower_type(t, self.prog.source, &self.subst, &self.prog.items, &mut Vec::new()).ok()
    }

    /// Binds a name to a scalar: a slot holding it for `mut`, the value itself otherwise.
    fn bind_scalar(&mut self, name: String, mutable: bool, v: Val, span: Span) {
        if mutable {
            let slot = self.emit(OpKind::Var, &[], Some(Type::slot(v.ty.clone())), span).unwrap_or(ValueId(u32::MAX));
            self.emit(OpKind::Write, &[id(&v), slot], None, span);
            self.bind(name, Some(Binding::Slot { slot, ty: v.ty }));
        } else {
            self.bind(name, Some(Binding::Value(v)));
        }
    }

    /// Binds a `let` name to its value: a slot for `let mut`, the value itself otherwise.
    fn bind_local(&mut self, name: String, mutable: bool, value: Lowered<Val>, init: &syn::Expr, pat: &syn::Pat, span: Span) -> Lowered<()> {
        let value = match value {
            Ok(v) if !v.ty.is_scalar() && v.ty.pointee().is_none() => Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_STMT, format!("a local of type `{}` is not supported", v.ty))
                    .at(span_of(init), "locals hold scalars or pointers"),
            )),
            v => v,
        };
        match value {
            Ok(v) if mutable => {
                if !v.ty.is_scalar() {
                    self.bind(name, None);
                    return Err(self.error(
                        Diagnostic::new(RK_UNSUPPORTED_STMT, format!("a mutable local of type `{}` is not supported yet", v.ty))
                            .at(span_of(pat), "mutable locals hold scalars")
                            .help("bind a new immutable name instead (shadowing)"),
                    ));
                }
                self.bind_scalar(name, true, v, span);
                Ok(())
            }
            Ok(v) => {
                self.bind_scalar(name, false, v, span);
                Ok(())
            }
            Err(r) => {
                // Poison the name so that its uses do not report a second, confusing error.
                self.bind(name, None);
                Err(r)
            }
        }
    }

    // ----- aggregates: arrays, structs and tuples in memory ----------------------------------
    //
    // Arrays, structs and tuples are never SSA values: each lives in memory, a local's in its
    // own `rk.local` storage, and every use reads or writes its scalars through `rk.elem_ptr`
    // and `rk.field_ptr`. A copy (`let b = a;`, an argument, a return value) is a fresh local,
    // scalar by scalar, which is what Rust's copy of a `Copy` aggregate means; LLVM's SROA
    // turns what stays in constant positions back into registers.

    /// The aggregate type of `e` when it denotes an array, struct or tuple, found without
    /// emitting anything. An unsuffixed literal element is guessed as rustc's fallback type;
    /// `aggregate_value` gives the exact type.
    fn aggregate_type(&self, e: &syn::Expr) -> Option<Type> {
        let element = |me: &Self, x: &syn::Expr| {
            me.aggregate_type(x).or_else(|| me.static_type(x)).or(match strip_parens(x) {
                syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Float(_), .. }) => Some(Type::Float(FloatTy::F64)),
                syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Bool(_), .. }) => Some(Type::Bool),
                _ => Some(Type::Int(IntTy::I32)),
            })
        };
        let aggregate = |t: Type| Some(t).filter(is_aggregate);
        match strip_parens(e) {
            syn::Expr::Array(a) => {
                let elem = a.elems.iter().find_map(|x| self.aggregate_type(x).or_else(|| self.static_type(x))).or_else(|| a.elems.first().and_then(|x| element(self, x)))?;
                Some(Type::Array { elem: Box::new(elem), len: a.elems.len() as u64 })
            }
            syn::Expr::Repeat(r) => {
                let len = const_eval(&r.len, &self.subst, &self.prog.items, 0).unwrap_or(0);
                Some(Type::Array { elem: Box::new(element(self, &r.expr)?), len })
            }
            syn::Expr::Tuple(t) if !t.elems.is_empty() => Some(Type::tuple(t.elems.iter().map(|x| element(self, x)).collect::<Option<_>>()?)),
            syn::Expr::MethodCall(m) => {
                let Some(Type::Struct { name, .. }) = self.aggregate_type(&m.receiver).or_else(|| self.place_type(&m.receiver)) else { return None };
                match &self.prog.function(&format!("{name}::{}", m.method))?.sig.output {
                    syn::ReturnType::Type(_, t) => self.type_quietly(t).and_then(aggregate),
                    syn::ReturnType::Default => None,
                }
            }
            syn::Expr::Struct(s) => self.type_quietly(&syn::Type::Path(syn::TypePath { qself: None, path: s.path.clone() })),
            syn::Expr::Call(c) => {
                let syn::Expr::Path(p) = c.func.as_ref() else { return None };
                let name = self.callee_name(&p.path);
                if self.prog.items.structs.contains_key(&name) {
                    return self.type_quietly(&syn::Type::Path(syn::TypePath { qself: None, path: p.path.clone() }));
                }
                match &self.prog.function(&name)?.sig.output {
                    syn::ReturnType::Type(_, t) => self.type_quietly(t).and_then(aggregate),
                    syn::ReturnType::Default => None,
                }
            }
            syn::Expr::Path(p) if p.path.get_ident().is_none() => self.aggregate_type(&syn::Expr::Path(self.module_item(p)?)),
            syn::Expr::Path(p) => {
                let name = p.path.get_ident()?.to_string();
                match self.lookup(&name) {
                    Some(Some(Binding::Memory { ty, .. })) => Some(ty.clone()),
                    Some(_) => None,
                    None => {
                        let ty = match (self.prog.constant(&name), self.prog.static_item(&name)) {
                            (Some((t, _)), _) => t,
                            (None, Some(st)) if !st.mutable => &st.ty,
                            _ => return None,
                        };
                        self.type_quietly(ty).and_then(aggregate)
                    }
                }
            }
            syn::Expr::Field(_) | syn::Expr::Index(_) | syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Deref(_), .. }) => {
                self.place_type(e).and_then(aggregate)
            }
            syn::Expr::Unsafe(syn::ExprUnsafe { block, .. }) | syn::Expr::Block(syn::ExprBlock { block, .. }) => match block.stmts.as_slice() {
                [syn::Stmt::Expr(x, None)] => self.aggregate_type(x),
                _ => None,
            },
            syn::Expr::Match(m) => m.arms.iter().find_map(|a| self.aggregate_type(&a.body)),
            syn::Expr::If(i) if i.else_branch.is_some() => match i.then_branch.stmts.last() {
                Some(syn::Stmt::Expr(x, None)) => self.aggregate_type(x),
                _ => self.aggregate_type(&i.else_branch.as_ref()?.1),
            },
            _ => None,
        }
    }

    /// Lowers a block whose value is the aggregate `ty` and copies that value into `dst`.
    fn block_into(&mut self, block: &syn::Block, dst: ValueId, ty: &Type, span: Span) -> Lowered<()> {
        self.scopes.push(HashMap::new());
        let n = block.stmts.len();
        let (init, tail) = match block.stmts.last() {
            Some(syn::Stmt::Expr(e, None)) => (&block.stmts[..n - 1], Some(e)),
            _ => (&block.stmts[..], None),
        };
        let r = self.block_stmts(init, Some(&Type::Unit)).and_then(|_| match tail {
            _ if self.terminated() => Ok(()),
            Some(e) => self.aggregate_value(e, Some(ty)).map(|(src, _)| self.copy_value(src, dst, ty, span)),
            None => Err(self.mismatch(ty, &Type::Unit, span_of(block))),
        });
        self.scopes.pop();
        r
    }

    /// Builds the aggregate that `e` denotes in a fresh local and returns the local's pointer
    /// and the type: the elements of an array literal, `N` copies of `[x; N]`'s value
    /// (evaluated once), a struct literal (with `..base`), a tuple, a tuple struct, a device
    /// function's result, or a copy of any place that holds an aggregate (a local, `*p`,
    /// `a[i]`, `s.f`, a `const` or a `static`).
    fn aggregate_value(&mut self, e: &syn::Expr, expected: Option<&Type>) -> Lowered<(ValueId, Type)> {
        let span = span_of(e);
        let (ptr, ty) = match strip_parens(e) {
            syn::Expr::Array(a) => {
                if a.elems.is_empty() {
                    return Err(self.error(
                        Diagnostic::new(RK_UNSUPPORTED_EXPR, "empty arrays are not supported in kernels")
                            .at(span, "an array of no elements"),
                    ));
                }
                let hint = match expected {
                    Some(Type::Array { elem, .. }) => Some((**elem).clone()),
                    _ => a.elems.iter().find_map(|x| self.aggregate_type(x).or_else(|| self.static_type(x))),
                };
                // Unsuffixed literals take the type of the other elements (`[x, 3, 5]` with
                // `x: u32`): the rest are lowered first (literals have no effects to order).
                let mut lowered: Vec<Option<Lowered<Element>>> = a.elems.iter().map(|_| None).collect();
                let mut hint = hint;
                for (k, x) in a.elems.iter().enumerate() {
                    if hint.is_some() || !is_untyped_literal(x) {
                        let v = self.element_value(x, hint.as_ref());
                        if hint.is_none()
                            && let Ok(v) = &v
                        {
                            hint = Some(v.ty().clone());
                        }
                        lowered[k] = Some(v);
                    }
                }
                for (k, x) in a.elems.iter().enumerate() {
                    if lowered[k].is_none() {
                        lowered[k] = Some(self.element_value(x, hint.as_ref()));
                    }
                }
                let values = lowered.into_iter().map(|v| v.unwrap_or(Err(Reported))).collect::<Lowered<Vec<_>>>()?;
                let elem = values[0].ty().clone();
                for (v, x) in values.iter().zip(&a.elems) {
                    if *v.ty() != elem {
                        return Err(self.mismatch(&elem, v.ty(), span_of(x)));
                    }
                }
                let ty = self.local_type(Type::Array { elem: Box::new(elem), len: values.len() as u64 }, span)?;
                let ptr = self.new_local(&ty, span);
                for (k, v) in values.iter().enumerate() {
                    let i = self.int_const(k as i128, &Type::USIZE, span);
                    let p = self.emit1(OpKind::ElemPtr, &[ptr, id(&i)], Type::ptr(true, v.ty().clone()), span);
                    self.put(id(&p), v, span);
                }
                (ptr, ty)
            }
            syn::Expr::Repeat(r) => {
                let Some(len) = const_eval(&r.len, &self.subst, &self.prog.items, 0) else {
                    return Err(self.error(
                        Diagnostic::new(RK_UNSUPPORTED_EXPR, "the length of an array must be a constant `usize`")
                            .at(span_of(&r.len), "not a constant"),
                    ));
                };
                let hint = match expected {
                    Some(Type::Array { elem, .. }) => Some((**elem).clone()),
                    _ => None,
                };
                let v = self.element_value(&r.expr, hint.as_ref())?;
                let ty = self.local_type(Type::Array { elem: Box::new(v.ty().clone()), len }, span)?;
                let ptr = self.new_local(&ty, span);
                let elem = v.ty().clone();
                self.for_each_index(len, span, |me, i| {
                    let p = me.emit1(OpKind::ElemPtr, &[ptr, id(i)], Type::ptr(true, elem.clone()), span);
                    me.put(id(&p), &v, span);
                });
                (ptr, ty)
            }
            syn::Expr::Tuple(t) if !t.elems.is_empty() => {
                let hints: Vec<Option<Type>> = match expected {
                    Some(Type::Struct { name, fields }) if name.is_empty() && fields.len() == t.elems.len() => fields.iter().map(|(_, f)| Some(f.clone())).collect(),
                    _ => vec![None; t.elems.len()],
                };
                let values = t.elems.iter().zip(&hints).map(|(x, h)| self.element_value(x, h.as_ref())).collect::<Vec<_>>();
                let values = values.into_iter().collect::<Lowered<Vec<_>>>()?;
                let ty = self.local_type(Type::tuple(values.iter().map(|v| v.ty().clone()).collect()), span)?;
                let ptr = self.new_local(&ty, span);
                self.fill_fields(ptr, &ty, values.into_iter().enumerate().collect(), span);
                (ptr, ty)
            }
            syn::Expr::Struct(s) => self.struct_literal(s, span)?,
            // `if c { a } else { b }` with aggregate arms: each arm copies its value into one
            // local.
            syn::Expr::If(i) if i.else_branch.is_some() && expected.cloned().or_else(|| self.aggregate_type(e)).is_some() => {
                let ty = expected.cloned().or_else(|| self.aggregate_type(e)).unwrap_or(Type::Unit);
                let cond = self.expr(&i.cond, Some(&Type::Bool))?;
                if cond.ty != Type::Bool {
                    return Err(self.mismatch(&Type::Bool, &cond.ty, span_of(&i.cond)));
                }
                let dst = self.new_local(&ty, span);
                self.regions.push(Region::default());
                let then = self.block_into(&i.then_branch, dst, &ty, span);
                let then_region = self.regions.pop().unwrap_or_default();
                self.regions.push(Region::default());
                let els = match i.else_branch.as_ref().map(|(_, x)| x.as_ref()) {
                    Some(syn::Expr::Block(b)) => self.block_into(&b.block, dst, &ty, span),
                    Some(x) => self.aggregate_value(x, Some(&ty)).map(|(src, _)| self.copy_value(src, dst, &ty, span)),
                    None => Ok(()),
                };
                let else_region = self.regions.pop().unwrap_or_default();
                then?;
                els?;
                self.push_if(id(&cond), vec![then_region, else_region], vec![], span);
                (dst, ty)
            }
            // `match k { .. => a, .. => b }` with aggregate arms: the match is lowered as a
            // statement whose arms assign to one local (an arm that diverges stays as it is).
            syn::Expr::Match(m) if expected.cloned().or_else(|| self.aggregate_type(e)).is_some() => {
                let ty = expected.cloned().or_else(|| self.aggregate_type(e)).unwrap_or(Type::Unit);
                let dst = self.new_local(&ty, span);
                let slot = syn::Ident::new("__rkc_match_value", proc_macro2::Span::call_site());
                let mut rewritten = m.clone();
                for arm in &mut rewritten.arms {
                    let body = arm.body.clone();
                    let diverges = matches!(strip_parens(&body), syn::Expr::Return(_) | syn::Expr::Break(_) | syn::Expr::Continue(_))
                        || matches!(strip_parens(&body), syn::Expr::Macro(mac) if self.is_panic_macro(&mac.mac));
                    if !diverges {
                        *arm.body = syn::parse_quote!({ #slot = #body; });
                    }
                }
                self.scopes.push(HashMap::new());
                self.bind(slot.to_string(), Some(Binding::Memory { ptr: dst, ty: ty.clone(), mutable: true }));
                let r = self.match_expr(&rewritten, Some(&Type::Unit));
                self.scopes.pop();
                r?;
                (dst, ty)
            }
            syn::Expr::Call(c) => {
                let syn::Expr::Path(p) = c.func.as_ref() else {
                    let v = self.expr(e, expected)?;
                    return Err(self.mismatch(expected.unwrap_or(&v.ty), &v.ty, span));
                };
                let name = self.callee_name(&p.path);
                if self.prog.items.structs.contains_key(&name) && self.prog.function(&name).is_none() {
                    self.tuple_struct_literal(c, p, span)?
                } else if let (Some(item), Some(ty)) = (self.prog.function(&name), self.aggregate_type(e)) {
                    let dst = self.new_local(&ty, span);
                    self.device_call(item, c, p, &name, span, Some(dst))?;
                    (dst, ty)
                } else {
                    let v = self.expr(e, expected)?;
                    return Err(self.mismatch(expected.unwrap_or(&v.ty), &v.ty, span));
                }
            }
            // `v.scaled(2.0)`: a method of a struct that returns an aggregate.
            syn::Expr::MethodCall(m) if self.aggregate_type(e).is_some() => {
                let ty = self.aggregate_type(e).unwrap_or(Type::Unit);
                let dst = self.new_local(&ty, span);
                self.struct_method(m, span, Some(dst)).unwrap_or(Err(Reported))?;
                (dst, ty)
            }
            syn::Expr::Unsafe(u) if matches!(u.block.stmts.as_slice(), [syn::Stmt::Expr(_, None)]) => {
                let [syn::Stmt::Expr(x, None)] = u.block.stmts.as_slice() else { return Err(Reported) };
                self.unsafe_depth += 1;
                let r = self.aggregate_value(x, expected);
                self.unsafe_depth -= 1;
                r?
            }
            syn::Expr::Block(b) if matches!(b.block.stmts.as_slice(), [syn::Stmt::Expr(_, None)]) => {
                let [syn::Stmt::Expr(x, None)] = b.block.stmts.as_slice() else { return Err(Reported) };
                self.aggregate_value(x, expected)?
            }
            // A block with statements before its value, whose type the context gives.
            syn::Expr::Block(b) if expected.is_some_and(is_aggregate) => {
                let ty = expected.cloned().unwrap_or(Type::Unit);
                let dst = self.new_local(&ty, span);
                self.block_into(&b.block, dst, &ty, span)?;
                (dst, ty)
            }
            place @ (syn::Expr::Path(_) | syn::Expr::Field(_) | syn::Expr::Index(_) | syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Deref(_), .. })) => {
                let src = match self.place(place)? {
                    Place::Ptr(p) => p,
                    Place::Slot(slot) => {
                        let found = self.place_pointee(Place::Slot(slot)).unwrap_or(Type::Unit);
                        return Err(self.mismatch(expected.unwrap_or(&found), &found, span));
                    }
                };
                let ty = self.func.ty(src).and_then(Type::pointee).cloned().unwrap_or(Type::Unit);
                if !is_aggregate(&ty) {
                    return Err(self.mismatch(expected.unwrap_or(&ty), &ty, span));
                }
                let dst = self.new_local(&ty, span);
                self.copy_value(src, dst, &ty, span);
                (dst, ty)
            }
            other => {
                let v = self.expr(other, expected)?;
                return Err(self.mismatch(expected.unwrap_or(&v.ty), &v.ty, span));
            }
        };
        if let Some(t) = expected
            && *t != ty
        {
            return Err(self.mismatch(t, &ty, span));
        }
        Ok((ptr, ty))
    }

    /// An element of an array, tuple or struct literal: a scalar value, or an aggregate in
    /// its own local (copied into place by `put`).
    fn element_value(&mut self, e: &syn::Expr, hint: Option<&Type>) -> Lowered<Element> {
        if hint.is_some_and(is_aggregate) || (hint.is_none() && self.aggregate_type(e).is_some()) {
            let (ptr, ty) = self.aggregate_value(e, hint)?;
            return Ok(Element::Memory(ptr, ty));
        }
        let v = self.expr(e, hint)?;
        if let Some(h) = hint
            && v.ty != *h
        {
            return Err(self.mismatch(h, &v.ty, span_of(e)));
        }
        if !v.ty.is_scalar() {
            return Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_TYPE, format!("a value of type `{}` cannot be kept in an array, struct or tuple", v.ty))
                    .at(span_of(e), "not a scalar, array or struct"),
            ));
        }
        Ok(Element::Scalar(v))
    }

    /// Writes an element to the place behind `dst`.
    fn put(&mut self, dst: ValueId, v: &Element, span: Span) {
        match v {
            Element::Scalar(v) => {
                self.emit(OpKind::Store, &[id(v), dst], None, span);
            }
            Element::Memory(src, ty) => self.copy_value(*src, dst, ty, span),
        }
    }

    /// Writes `values` to the fields (by index) of the struct or tuple `ty` behind `ptr`.
    fn fill_fields(&mut self, ptr: ValueId, ty: &Type, values: Vec<(usize, Element)>, span: Span) {
        let Type::Struct { fields, .. } = ty else { return };
        for (k, v) in values {
            let p = self.emit1(OpKind::FieldPtr { index: k as u32 }, &[ptr], Type::ptr(true, fields[k].1.clone()), span);
            self.put(id(&p), &v, span);
        }
    }

    /// `S { a: x, b: y, ..base }`: the given fields' values in the order written, then the
    /// base (a copy), then the fields stored over it.
    fn struct_literal(&mut self, s: &syn::ExprStruct, span: Span) -> Lowered<(ValueId, Type)> {
        let ty = self.lower_type(&syn::Type::Path(syn::TypePath { qself: None, path: s.path.clone() }))?;
        let Type::Struct { name, fields } = ty.clone() else {
            return Err(self.error(
                Diagnostic::new(RK_MISMATCHED_TYPES, format!("`{ty}` is not a struct"))
                    .at(span_of(&s.path), "expected a struct"),
            ));
        };
        let mut values = Vec::new();
        for fv in &s.fields {
            let field = match &fv.member {
                syn::Member::Named(i) => i.to_string(),
                syn::Member::Unnamed(i) => i.index.to_string(),
            };
            let Some(k) = fields.iter().position(|(n, _)| *n == field) else {
                return Err(self.no_field(&ty, &field, span_of(&fv.member)));
            };
            if values.iter().any(|(j, _)| *j == k) {
                return Err(self.error(
                    Diagnostic::new(RK_MISMATCHED_TYPES, format!("field `{field}` specified more than once"))
                        .at(span_of(&fv.member), "used more than once"),
                ));
            }
            let v = self.element_value(&fv.expr, Some(&fields[k].1))?;
            values.push((k, v));
        }
        let base = match &s.rest {
            Some(base) => Some(self.aggregate_value(base, Some(&ty))?),
            None => {
                let missing: Vec<String> = fields.iter().enumerate().filter(|(k, _)| !values.iter().any(|(j, _)| j == k)).map(|(_, (n, _))| format!("`{n}`")).collect();
                if !missing.is_empty() {
                    return Err(self.error(
                        Diagnostic::new(RK_MISSING_FIELD, format!("missing field{} {} in initializer of `{name}`", if missing.len() == 1 { "" } else { "s" }, missing.join(", ")))
                            .at(span_of(&s.path), "missing fields")
                            .help("give every field a value, or copy the rest from another value with `..base`"),
                    ));
                }
                None
            }
        };
        let ty = self.local_type(ty, span)?;
        let ptr = self.new_local(&ty, span);
        if let Some((src, _)) = base {
            self.copy_value(src, ptr, &ty, span);
        }
        self.fill_fields(ptr, &ty, values, span);
        Ok((ptr, ty))
    }

    /// `P(x, y)` for a tuple struct `P`.
    fn tuple_struct_literal(&mut self, c: &syn::ExprCall, p: &syn::ExprPath, span: Span) -> Lowered<(ValueId, Type)> {
        let ty = self.lower_type(&syn::Type::Path(syn::TypePath { qself: None, path: p.path.clone() }))?;
        let Type::Struct { name, fields } = ty.clone() else { return Err(Reported) };
        if fields.len() != c.args.len() || fields.first().is_some_and(|(n, _)| n != "0") {
            return Err(self.error(
                Diagnostic::new(RK_ARGUMENT_COUNT, format!("`{name}` is built from {} fields, but {} values were supplied", fields.len(), c.args.len()))
                    .at(span, format!("expected {}", fields.len())),
            ));
        }
        let values = c.args.iter().zip(&fields).map(|(x, (_, t))| self.element_value(x, Some(t))).collect::<Vec<_>>();
        let values = values.into_iter().collect::<Lowered<Vec<_>>>()?;
        let ty = self.local_type(ty, span)?;
        let ptr = self.new_local(&ty, span);
        self.fill_fields(ptr, &ty, values.into_iter().enumerate().collect(), span);
        Ok((ptr, ty))
    }

    fn no_field(&mut self, ty: &Type, field: &str, span: Span) -> Reported {
        let available = match ty {
            Type::Struct { fields, .. } => fields.iter().map(|(n, _)| format!("`{n}`")).collect::<Vec<_>>().join(", "),
            _ => String::new(),
        };
        let mut d = Diagnostic::new(RK_UNKNOWN_FIELD, format!("no field `{field}` on type `{ty}`")).at(span, "unknown field");
        if !available.is_empty() {
            d = d.note(format!("the available fields are: {available}"));
        }
        self.error(d)
    }

    /// `ty` if a thread can hold it in its private memory, or an error.
    fn local_type(&mut self, ty: Type, span: Span) -> Lowered<Type> {
        if !ty.is_storable() {
            return Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_TYPE, format!("a local of type `{ty}` is not supported in kernels"))
                    .at(span, "arrays, structs and tuples hold scalars, arrays and structs"),
            ));
        }
        // A thread's private memory is small (CUDA allows 512 KiB a thread, and every byte of
        // it is paid for by every thread): refuse what cannot be meant for it.
        if ty.size_of() > 64 * 1024 {
            return Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_TYPE, format!("the local `{ty}` is too large ({} bytes)", ty.size_of()))
                    .at(span, "each thread would hold its own copy")
                    .help("locals hold at most 64 KiB; pass large tables to the kernel as a `*const` argument or use a shared array"),
            ));
        }
        Ok(ty)
    }

    fn new_local(&mut self, ty: &Type, span: Span) -> ValueId {
        self.emit(OpKind::Local, &[], Some(Type::ptr(true, ty.clone())), span).unwrap_or(ValueId(u32::MAX))
    }

    /// Copies the aggregate `ty` behind `src` into the one behind `dst`, scalar by scalar.
    fn copy_value(&mut self, src: ValueId, dst: ValueId, ty: &Type, span: Span) {
        let src_mut = matches!(self.func.ty(src), Some(Type::Ptr { mutable: true, .. }));
        let step = |me: &mut Self, s: ValueId, d: ValueId, t: &Type| {
            if t.is_scalar() {
                let v = me.emit1(OpKind::Load, &[s], t.clone(), span);
                me.emit(OpKind::Store, &[id(&v), d], None, span);
            } else {
                me.copy_value(s, d, t, span);
            }
        };
        match ty {
            Type::Array { elem, len } => self.for_each_index(*len, span, |me, i| {
                let s = me.emit1(OpKind::ElemPtr, &[src, id(i)], Type::ptr(src_mut, (**elem).clone()), span);
                let d = me.emit1(OpKind::ElemPtr, &[dst, id(i)], Type::ptr(true, (**elem).clone()), span);
                step(me, id(&s), id(&d), elem);
            }),
            Type::Struct { fields, .. } => {
                for (k, (_, t)) in fields.iter().enumerate() {
                    let s = self.emit1(OpKind::FieldPtr { index: k as u32 }, &[src], Type::ptr(src_mut, t.clone()), span);
                    let d = self.emit1(OpKind::FieldPtr { index: k as u32 }, &[dst], Type::ptr(true, t.clone()), span);
                    step(self, id(&s), id(&d), t);
                }
            }
            _ => {}
        }
    }

    /// Runs `body` for each index `0..n` (a `usize`): unrolled with constant indices for
    /// short arrays, as an `rk.loop` otherwise (LLVM unrolls or vectorises it as it sees fit).
    fn for_each_index(&mut self, n: u64, span: Span, mut body: impl FnMut(&mut Self, &Val)) {
        if n <= 16 {
            for k in 0..n {
                let i = self.int_const(k as i128, &Type::USIZE, span);
                body(self, &i);
            }
            return;
        }
        let zero = self.int_const(0, &Type::USIZE, span);
        let end = self.int_const(n as i128, &Type::USIZE, span);
        let one = self.int_const(1, &Type::USIZE, span);
        let slot = self.emit(OpKind::Var, &[], Some(Type::slot(Type::USIZE)), span).unwrap_or(ValueId(u32::MAX));
        self.emit(OpKind::Write, &[id(&zero), slot], None, span);
        let ctx = LoopCtx { label: None, takes_value: false, break_ty: None, expected: None };
        let (region, _, _) = self.loop_region(ctx, |me| {
            let i = me.emit1(OpKind::Read, &[slot], Type::USIZE, span);
            let go = me.emit1(OpKind::Cmp(CmpOp::Lt), &[id(&i), id(&end)], Type::Bool, span);
            me.exit_unless(id(&go), span);
            body(me, &i);
            let next = me.emit1(OpKind::Binary(BinOp::Add), &[id(&i), id(&one)], Type::USIZE, span);
            me.emit(OpKind::Write, &[id(&next), slot], None, span);
            Ok(())
        });
        self.push_loop(region, None, span);
    }

    /// The storage of a `const` or read-only `static` aggregate that this function uses, made
    /// once at the function's entry, where it dominates every use: a module table (`rk.table`)
    /// for an array of number literals, else a local built from the initialiser (which is
    /// constant, so it depends on nothing the function computes).
    fn table(&mut self, name: &str, span: Span) -> Lowered<ValueId> {
        if let Some(p) = self.tables.get(name) {
            return Ok(*p);
        }
        let (ty, expr) = match (self.prog.constant(name), self.prog.static_item(name)) {
            (Some(c), _) => c.clone(),
            (None, Some(st)) if !st.mutable => (st.ty.clone(), st.expr.clone()),
            _ => {
                return Err(self.error(
                    Diagnostic::new(RK_UNKNOWN_NAME, format!("cannot find value `{name}` in this scope"))
                        .at(span, "not found in this scope"),
                ));
            }
        };
        if self.prog.const_depth > 32 {
            return Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, format!("the constant `{name}` refers to itself"))
                    .at(span, "used here"),
            ));
        }
        let ty = self.lower_type(&ty)?;
        // An array of numbers given by literals is a table of the module, which every thread
        // reads in place (device memory, cached); anything else is built in a local.
        if let Some(values) = table_values(&expr, &ty) {
            if self.prog.tables.iter().all(|t| t.name != name) {
                self.prog.tables.push(rkc_rk::Table { name: name.to_string(), ty: ty.clone(), values });
            }
            let loc = Loc { line: span.line(), col: span.col() };
            let ptr = self.func.new_value(Type::ptr(false, ty));
            self.regions[0].ops.insert(0, Op { kind: OpKind::Table { name: name.to_string() }, operands: vec![], results: vec![ptr], regions: vec![], loc });
            self.tables.insert(name.to_string(), ptr);
            return Ok(ptr);
        }
        // The initialiser sees no local names and no enclosing loops.
        self.regions.push(Region::default());
        let scopes = std::mem::replace(&mut self.scopes, vec![HashMap::new()]);
        let loops = std::mem::take(&mut self.loops);
        self.prog.const_depth += 1;
        let built = self.aggregate_value(&expr, Some(&ty));
        self.prog.const_depth -= 1;
        self.scopes = scopes;
        self.loops = loops;
        let region = self.regions.pop().unwrap_or_default();
        let (ptr, _) = built?;
        self.regions[0].ops.splice(0..0, region.ops);
        self.tables.insert(name.to_string(), ptr);
        Ok(ptr)
    }

    /// Why the place `e` cannot be written, when its root is an aggregate that is not
    /// `let mut`: an immutable local, a `const` or a `static`.
    fn immutable_root(&self, e: &syn::Expr) -> Option<String> {
        match strip_parens(e) {
            syn::Expr::Index(ix) => self.immutable_root(&ix.expr),
            syn::Expr::Field(f) => self.immutable_root(&f.base),
            syn::Expr::Path(p) => {
                let name = p.path.get_ident()?.to_string();
                match self.lookup(&name) {
                    Some(Some(Binding::Memory { mutable: false, .. })) => Some(format!("as `{name}` is not declared as mutable")),
                    Some(_) => None,
                    None if self.aggregate_type(e).is_some() => Some(if self.prog.constant(&name).is_some() {
                        format!("which is part of the constant `{name}`")
                    } else {
                        format!("which is part of the read-only static `{name}`")
                    }),
                    None => None,
                }
            }
            _ => None,
        }
    }

    fn aggregate_as_value(&mut self, name: &str, ty: &Type, span: Span) -> Reported {
        let help = match ty {
            Type::Array { .. } => format!("index it (`{name}[i]`), copy it into a local (`let copy = {name};`), or pass a pointer (`{name}.as_ptr()`)"),
            _ => format!("use its fields (`{name}.field`), or copy it into a local (`let copy = {name};`)"),
        };
        self.error(
            Diagnostic::new(RK_UNSUPPORTED_EXPR, format!("the {} `{name}` cannot be used as a value here", if matches!(ty, Type::Array { .. }) { "array" } else { "aggregate" }))
                .at(span, format!("a whole `{ty}`"))
                .help(help),
        )
    }

    /// Binds the names of `pat` to the parts of the aggregate `ty` behind `ptr` (a fresh
    /// local): a scalar part is read into its name, an aggregate part is bound in place.
    fn destructure(&mut self, pat: &syn::Pat, ptr: ValueId, ty: &Type, span: Span) -> Lowered<()> {
        match pat {
            syn::Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => {
                let name = p.ident.to_string();
                let mutable = p.mutability.is_some();
                if is_aggregate(ty) {
                    self.bind(name, Some(Binding::Memory { ptr, ty: ty.clone(), mutable }));
                } else {
                    let v = self.emit1(OpKind::Load, &[ptr], ty.clone(), span);
                    self.bind_scalar(name, mutable, v, span);
                }
                Ok(())
            }
            syn::Pat::Wild(_) => Ok(()),
            syn::Pat::Paren(p) => self.destructure(&p.pat, ptr, ty, span),
            syn::Pat::Type(pt) => {
                let want = self.lower_type(&pt.ty)?;
                if want != *ty {
                    return Err(self.mismatch(&want, ty, span_of(&pt.ty)));
                }
                self.destructure(&pt.pat, ptr, ty, span)
            }
            syn::Pat::Tuple(t) => {
                let pats: Vec<&syn::Pat> = t.elems.iter().collect();
                self.destructure_positional(pat, &pats, ptr, ty, true, span)
            }
            syn::Pat::TupleStruct(t) => {
                if !matches!(ty, Type::Struct { name, .. } if t.path.segments.last().is_some_and(|s| s.ident == name)) {
                    return Err(self.pattern_mismatch(pat, ty));
                }
                let pats: Vec<&syn::Pat> = t.elems.iter().collect();
                self.destructure_positional(pat, &pats, ptr, ty, false, span)
            }
            syn::Pat::Slice(sl) => {
                let Type::Array { elem, len } = ty else { return Err(self.pattern_mismatch(pat, ty)) };
                let pats: Vec<&syn::Pat> = sl.elems.iter().collect();
                let n = *len as usize;
                let Some(positions) = positions(&pats, n) else {
                    let named = pats.iter().filter(|p| !matches!(p, syn::Pat::Rest(_))).count();
                    return Err(self.error(
                        Diagnostic::new(RK_MISMATCHED_TYPES, format!("pattern requires {named} elements but array has {n}"))
                            .at(span_of(pat), format!("expected {n} elements")),
                    ));
                };
                for (k, p) in positions {
                    let i = self.int_const(k as i128, &Type::USIZE, span);
                    let ep = self.emit1(OpKind::ElemPtr, &[ptr, id(&i)], Type::ptr(true, (**elem).clone()), span);
                    self.destructure(p, id(&ep), elem, span)?;
                }
                Ok(())
            }
            syn::Pat::Struct(s) => {
                let Type::Struct { name, fields } = ty else { return Err(self.pattern_mismatch(pat, ty)) };
                if name.is_empty() || s.path.segments.last().is_none_or(|seg| seg.ident != name) {
                    return Err(self.pattern_mismatch(pat, ty));
                }
                let mut seen = Vec::new();
                for fp in &s.fields {
                    let field = match &fp.member {
                        syn::Member::Named(i) => i.to_string(),
                        syn::Member::Unnamed(i) => i.index.to_string(),
                    };
                    let Some(k) = fields.iter().position(|(n, _)| *n == field) else {
                        return Err(self.no_field(ty, &field, span_of(&fp.member)));
                    };
                    seen.push(k);
                    let t = fields[k].1.clone();
                    let p = self.emit1(OpKind::FieldPtr { index: k as u32 }, &[ptr], Type::ptr(true, t.clone()), span);
                    self.destructure(&fp.pat, id(&p), &t, span)?;
                }
                let missing: Vec<String> = fields.iter().enumerate().filter(|(k, _)| !seen.contains(k)).map(|(_, (n, _))| format!("`{n}`")).collect();
                if s.rest.is_none() && !missing.is_empty() {
                    return Err(self.error(
                        Diagnostic::new(RK_MISSING_FIELD, format!("pattern does not mention field{} {}", if missing.len() == 1 { "" } else { "s" }, missing.join(", ")))
                            .at(span_of(pat), "missing fields")
                            .help("name them, or ignore the rest with `..`"),
                    ));
                }
                Ok(())
            }
            other => Err(self.unsupported_pattern(other)),
        }
    }

    /// The elements of a tuple or tuple-struct pattern, with at most one `..`.
    fn destructure_positional(&mut self, pat: &syn::Pat, pats: &[&syn::Pat], ptr: ValueId, ty: &Type, tuple: bool, span: Span) -> Lowered<()> {
        let Type::Struct { name, fields } = ty else { return Err(self.pattern_mismatch(pat, ty)) };
        if tuple != name.is_empty() {
            return Err(self.pattern_mismatch(pat, ty));
        }
        let Some(positions) = positions(pats, fields.len()) else {
            return Err(self.error(
                Diagnostic::new(RK_MISMATCHED_TYPES, format!("mismatched types: expected a tuple with {} elements, found one with {}", fields.len(), pats.len()))
                    .at(span_of(pat), format!("expected {} elements", fields.len())),
            ));
        };
        for (k, p) in positions {
            let t = fields[k].1.clone();
            let fp = self.emit1(OpKind::FieldPtr { index: k as u32 }, &[ptr], Type::ptr(true, t.clone()), span);
            self.destructure(p, id(&fp), &t, span)?;
        }
        Ok(())
    }

    fn pattern_mismatch(&mut self, pat: &syn::Pat, ty: &Type) -> Reported {
        self.error(
            Diagnostic::new(RK_MISMATCHED_TYPES, format!("mismatched types: this pattern cannot match a `{ty}`"))
                .at(span_of(pat), format!("expected `{ty}`")),
        )
    }

    // ----- control flow ----------------------------------------------------------------------

    fn return_expr(&mut self, r: &syn::ExprReturn, span: Span) -> Lowered<Val> {
        let ret = self.func.ret.clone();
        let value = match &r.expr {
            Some(v) if self.func.kernel => {
                return Err(self.error(
                    Diagnostic::new(RK_KERNEL_RETURNS_VALUE, "kernels cannot return a value")
                        .at(span_of(v), "this value would be returned")
                        .note("a kernel's results go through its pointer arguments"),
                ));
            }
            Some(v) if self.return_slot.is_some() => {
                let Some((slot, ty)) = self.return_slot.clone() else { return Err(Reported) };
                let (src, _) = self.aggregate_value(v, Some(&ty))?;
                self.copy_value(src, slot, &ty, span);
                None
            }
            Some(v) => {
                let val = self.expr(v, Some(&ret))?;
                if val.ty != ret {
                    return Err(self.mismatch(&ret, &val.ty, span_of(v)));
                }
                val.id
            }
            None if ret != Type::Unit => {
                return Err(self.mismatch(&ret, &Type::Unit, span));
            }
            None => None,
        };
        self.emit(OpKind::Return, &value.into_iter().collect::<Vec<_>>(), None, span);
        Ok(Val::unit())
    }

    fn label_of(label: &Option<syn::Label>) -> Option<String> {
        label.as_ref().map(|l| l.name.ident.to_string())
    }

    /// Lowers a loop body region with `ctx` pushed; returns the region and the context.
    fn loop_region(&mut self, ctx: LoopCtx, body: impl FnOnce(&mut Self) -> Lowered<()>) -> (Region, LoopCtx, Lowered<()>) {
        self.loops.push(ctx);
        self.regions.push(Region::default());
        let r = body(self);
        let region = self.regions.pop().unwrap_or_default();
        let ctx = self.loops.pop().unwrap_or(LoopCtx { label: None, takes_value: false, break_ty: None, expected: None });
        (region, ctx, r)
    }

    fn push_loop(&mut self, region: Region, result: Option<Type>, span: Span) -> Val {
        let results: Vec<ValueId> = result.iter().map(|t| self.func.new_value(t.clone())).collect();
        let id = results.first().copied();
        let loc = Loc { line: span.line(), col: span.col() };
        self.current().ops.push(Op { kind: OpKind::Loop, operands: vec![], results, regions: vec![region], loc });
        Val { id, ty: result.unwrap_or(Type::Unit) }
    }

    fn loop_expr(&mut self, l: &syn::ExprLoop, expected: Option<&Type>) -> Lowered<Val> {
        let ctx = LoopCtx { label: Self::label_of(&l.label), takes_value: true, break_ty: None, expected: expected.cloned() };
        let (region, ctx, r) = self.loop_region(ctx, |me| me.block(&l.body, Some(&Type::Unit)).map(|_| ()));
        r?;
        let result = ctx.break_ty.filter(|t| *t != Type::Unit);
        Ok(self.push_loop(region, result, span_of(l)))
    }

    fn while_expr(&mut self, w: &syn::ExprWhile) -> Lowered<Val> {
        if let syn::Expr::Let(l) = w.cond.as_ref() {
            return Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, "`while let` is not supported in kernels")
                    .at(span_of(l), "not supported"),
            ));
        }
        let ctx = LoopCtx { label: Self::label_of(&w.label), takes_value: false, break_ty: None, expected: None };
        let span = span_of(w);
        let (region, _, r) = self.loop_region(ctx, |me| {
            let c = me.expr(&w.cond, Some(&Type::Bool))?;
            if c.ty != Type::Bool {
                return Err(me.mismatch(&Type::Bool, &c.ty, span_of(&w.cond)));
            }
            me.exit_unless(id(&c), span);
            me.block(&w.body, Some(&Type::Unit)).map(|_| ())
        });
        r?;
        Ok(self.push_loop(region, None, span))
    }

    /// `if !cond { break }` at the top of a loop body (depth 0).
    fn exit_unless(&mut self, cond: ValueId, span: Span) {
        let loc = Loc { line: span.line(), col: span.col() };
        let exit = Region { ops: vec![Op { kind: OpKind::Break { depth: 0 }, operands: vec![], results: vec![], regions: vec![], loc }] };
        self.push_if(cond, vec![Region::default(), exit], vec![], span);
    }

    /// The elements a `for` walks when it walks an array or a slice: the array or slice
    /// expression, the pattern each element binds, and whether an array is iterated by value
    /// (`for x in arr` copies it first, as Rust's `IntoIterator` for `[T; N]` does).
    fn element_loop<'e>(&self, expr: &'e syn::Expr, pat: &'e syn::Pat) -> Option<(&'e syn::Expr, &'e syn::Pat, bool)> {
        let iter = strip_parens(expr);
        let is_seq = |me: &Self, x: &syn::Expr| matches!(me.aggregate_type(x), Some(Type::Array { .. })) || matches!(me.value_type(x), Some(Type::Slice { .. }));
        let method = |x: &'e syn::Expr, name: &str| match strip_parens(x) {
            syn::Expr::MethodCall(m) if m.method == name && m.args.is_empty() => Some(&*m.receiver),
            _ => None,
        };
        // `arr.iter().copied()`, `arr.iter().cloned()`.
        if let Some(inner) = method(iter, "copied").or_else(|| method(iter, "cloned"))
            && let Some(seq) = method(inner, "iter")
            && is_seq(self, seq)
        {
            return Some((seq, pat, false));
        }
        // `for &x in arr.iter()`, `for &x in slice`.
        if let syn::Pat::Reference(r) = pat
            && r.mutability.is_none()
        {
            let seq = method(iter, "iter").unwrap_or(iter);
            if is_seq(self, seq) {
                return Some((seq, &r.pat, false));
            }
        }
        // `for x in arr`, `for x in arr.into_iter()`.
        let seq = method(iter, "into_iter").unwrap_or(iter);
        if matches!(self.aggregate_type(seq), Some(Type::Array { .. })) {
            return Some((seq, pat, true));
        }
        None
    }

    /// `for x in arr` and its forms (see `element_loop`): an index loop whose body first
    /// binds the element to the pattern.
    fn for_elements(&mut self, f: &syn::ExprForLoop, seq: &syn::Expr, pat: &syn::Pat, by_value: bool, index: Option<&syn::Pat>) -> Lowered<Val> {
        let span = span_of(f);
        // The sequence: a pointer to the array (a copy when iterated by value, or when it is
        // not a place), or the slice.
        let is_place = matches!(strip_parens(seq), syn::Expr::Path(_) | syn::Expr::Field(_) | syn::Expr::Index(_) | syn::Expr::Unary(_));
        let (base, elem, len) = if let Some(Type::Slice { elem, .. }) = self.value_type(seq) {
            let s = self.expr(seq, None)?;
            let Type::Slice { mutable, .. } = s.ty.clone() else { return Err(Reported) };
            let len = self.emit1(OpKind::SliceLen, &[id(&s)], Type::USIZE, span);
            let base = self.emit1(OpKind::SlicePtr, &[id(&s)], Type::ptr(mutable, (*elem).clone()), span);
            (base, *elem, len)
        } else {
            let ptr = if by_value || !is_place { self.aggregate_value(seq, None)?.0 } else { self.base_place(seq)? };
            let Some(Type::Array { elem, len }) = self.func.ty(ptr).and_then(Type::pointee).cloned() else { return Err(Reported) };
            let first = self.int_const(0, &Type::USIZE, span);
            let base = self.emit1(OpKind::ElemPtr, &[ptr, id(&first)], Type::ptr(matches!(self.func.ty(ptr), Some(Type::Ptr { mutable: true, .. })), (*elem).clone()), span);
            let n = self.int_const(len as i128, &Type::USIZE, span);
            (base, *elem, n)
        };
        let zero = self.int_const(0, &Type::USIZE, span);
        let one = self.int_const(1, &Type::USIZE, span);
        let next = self.emit(OpKind::Var, &[], Some(Type::slot(Type::USIZE)), span).unwrap_or(ValueId(u32::MAX));
        self.emit(OpKind::Write, &[id(&zero), next], None, span);
        let ctx = LoopCtx { label: Self::label_of(&f.label), takes_value: false, break_ty: None, expected: None };
        let (region, _, r) = self.loop_region(ctx, |me| {
            let i = me.emit1(OpKind::Read, &[next], Type::USIZE, span);
            let go = me.emit1(OpKind::Cmp(CmpOp::Lt), &[id(&i), id(&len)], Type::Bool, span);
            me.exit_unless(id(&go), span);
            // Advance before the body, so that `continue` needs nothing more.
            let stepped = me.emit1(OpKind::Binary(BinOp::Add), &[id(&i), id(&one)], Type::USIZE, span);
            me.emit(OpKind::Write, &[id(&stepped), next], None, span);
            me.scopes.push(HashMap::new());
            // `.enumerate()`: the index, a `usize`.
            let bound = match index {
                None | Some(syn::Pat::Wild(_)) => Ok(()),
                Some(syn::Pat::Ident(p)) if p.by_ref.is_none() && p.subpat.is_none() => {
                    me.bind_scalar(p.ident.to_string(), p.mutability.is_some(), i.clone(), span);
                    Ok(())
                }
                Some(other) => Err(me.unsupported_pattern(other)),
            };
            let p = me.emit1(OpKind::PtrOffset, &[id(&base), id(&i)], base.ty.clone(), span);
            let r = bound.and_then(|_| me.destructure(pat, id(&p), &elem, span)).and_then(|_| me.block(&f.body, Some(&Type::Unit)).map(|_| ()));
            me.scopes.pop();
            r
        });
        r?;
        Ok(self.push_loop(region, None, span))
    }

    /// `for i in a..b`, `a..=b`, `(a..b).rev()`, `(a..b).step_by(k)`; over an array or a slice
    /// (see `element_loop`).
    fn for_expr(&mut self, f: &syn::ExprForLoop) -> Lowered<Val> {
        let span = span_of(f);
        if let Some((seq, pat, by_value)) = self.element_loop(&f.expr, &f.pat) {
            return self.for_elements(f, seq, pat, by_value, None);
        }
        // `for (i, x) in <any of those>.enumerate()`.
        if let syn::Expr::MethodCall(m) = strip_parens(&f.expr)
            && m.method == "enumerate"
            && m.args.is_empty()
            && let syn::Pat::Tuple(t) = f.pat.as_ref()
            && t.elems.len() == 2
            && let Some((seq, pat, by_value)) = self.element_loop(&m.receiver, &t.elems[1])
        {
            return self.for_elements(f, seq, pat, by_value, Some(&t.elems[0]));
        }
        // A sequence whose `let` already failed was reported there.
        if let syn::Expr::Path(p) = strip_parens(&f.expr)
            && let Some(name) = p.path.get_ident()
            && matches!(self.lookup(&name.to_string()), Some(None))
        {
            return Err(Reported);
        }
        let var = match f.pat.as_ref() {
            syn::Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => Some((p.ident.to_string(), p.mutability.is_some())),
            syn::Pat::Wild(_) => None,
            other => return Err(self.unsupported_pattern(other)),
        };
        // Peel `.rev()` and `.step_by(k)` off the range.
        let mut iter = strip_parens(&f.expr);
        let mut rev = false;
        let mut step = None;
        while let syn::Expr::MethodCall(m) = iter {
            match (m.method.to_string().as_str(), m.args.len()) {
                ("rev", 0) if !rev && step.is_none() => rev = true,
                ("step_by", 1) if step.is_none() && !rev => step = Some(&m.args[0]),
                _ => {
                    return Err(self.error(
                        Diagnostic::new(RK_UNSUPPORTED_EXPR, format!("`.{}()` on a range is not supported in kernels", m.method))
                            .at(span_of(&m.method), "supported: `a..b`, `a..=b`, `.rev()`, `.step_by(k)`"),
                    ));
                }
            }
            iter = strip_parens(&m.receiver);
        }
        let syn::Expr::Range(range) = iter else {
            return Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, "kernels can only loop over integer ranges, arrays and slices")
                    .at(span_of(&f.expr), "expected `a..b`, `a..=b`, an array or a slice")
                    .note("supported: `for x in arr`, `for &x in arr.iter()`, `for x in arr.iter().copied()`, `for &x in slice`, and `.enumerate()` of these; other iterators and collections have no device form yet"),
            ));
        };
        let (Some(start), Some(end)) = (&range.start, &range.end) else {
            return Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, "kernels can only loop over bounded ranges")
                    .at(span_of(range), "give the range both ends"),
            ));
        };
        let inclusive = matches!(range.limits, syn::RangeLimits::Closed(_));
        // `for k in 0..8 { v[k] }`: unsuffixed bounds take the type the body gives `k`.
        let hint = match &var {
            Some((name, _)) if is_unsuffixed_int(start) && is_unsuffixed_int(end) => self.type_from_uses(name, &f.body.stmts),
            _ => None,
        };
        let (a, b) = self.operands(start, end, hint.as_ref())?;
        if a.ty != b.ty || !a.ty.is_int() {
            return Err(self.mismatch(&a.ty, &b.ty, span_of(end)));
        }
        let ty = a.ty.clone();
        let step = match step {
            Some(k) => {
                let k = self.expr(k, Some(&Type::USIZE))?;
                if k.ty != Type::USIZE {
                    return Err(self.mismatch(&Type::USIZE, &k.ty, span));
                }
                Some(k)
            }
            None => None,
        };
        let one = self.emit1(OpKind::Const(Literal::Int(1)), &[], ty.clone(), span);
        // The next value to hand out, and whether the range is used up.
        let next = self.emit(OpKind::Var, &[], Some(Type::slot(ty.clone())), span).unwrap_or(ValueId(0));
        let done = self.emit(OpKind::Var, &[], Some(Type::slot(Type::Bool)), span).unwrap_or(ValueId(0));
        let empty = if inclusive {
            self.emit1(OpKind::Cmp(CmpOp::Gt), &[id(&a), id(&b)], Type::Bool, span)
        } else {
            self.emit1(OpKind::Cmp(CmpOp::Ge), &[id(&a), id(&b)], Type::Bool, span)
        };
        self.emit(OpKind::Write, &[id(&empty), done], None, span);
        let first = if rev {
            if inclusive { b.clone() } else { self.emit1(OpKind::Binary(BinOp::Sub), &[id(&b), id(&one)], ty.clone(), span) }
        } else {
            a.clone()
        };
        self.emit(OpKind::Write, &[id(&first), next], None, span);
        let ctx = LoopCtx { label: Self::label_of(&f.label), takes_value: false, break_ty: None, expected: None };
        let (region, _, r) = self.loop_region(ctx, |me| {
            let is_done = me.emit1(OpKind::Read, &[done], Type::Bool, span);
            let go = me.emit1(OpKind::Not, &[id(&is_done)], Type::Bool, span);
            me.exit_unless(id(&go), span);
            let i = me.emit1(OpKind::Read, &[next], ty.clone(), span);
            // Advance before the body, so that `continue` needs nothing more. The last value
            // (`b`, or `b - 1` for `a..b`; `a` when reversed) sets `done` instead of stepping
            // past it, so no bound can overflow.
            let last = if rev { a.clone() } else if inclusive { b.clone() } else { me.emit1(OpKind::Binary(BinOp::Sub), &[id(&b), id(&one)], ty.clone(), span) };
            let remaining = if rev {
                me.emit1(OpKind::Binary(BinOp::Sub), &[id(&i), id(&last)], ty.clone(), span)
            } else {
                me.emit1(OpKind::Binary(BinOp::Sub), &[id(&last), id(&i)], ty.clone(), span)
            };
            let stride = match &step {
                Some(k) => me.cast_to(k.clone(), &ty, span),
                None => one.clone(),
            };
            // `remaining < stride` compared as unsigned: the distance to the last value is never
            // negative, and for signed types it may exceed the type's positive range.
            let unsigned = unsigned_of(&ty);
            let rem_u = me.cast_to(remaining, &unsigned, span);
            let stride_u = me.cast_to(stride.clone(), &unsigned, span);
            let finished = me.emit1(OpKind::Cmp(CmpOp::Lt), &[id(&rem_u), id(&stride_u)], Type::Bool, span);
            me.emit(OpKind::Write, &[id(&finished), done], None, span);
            let op = if rev { BinOp::Sub } else { BinOp::Add };
            let stepped = me.emit1(OpKind::Binary(op), &[id(&i), id(&stride)], ty.clone(), span);
            me.emit(OpKind::Write, &[id(&stepped), next], None, span);
            me.scopes.push(HashMap::new());
            if let Some((name, mutable)) = &var {
                me.bind_scalar(name.clone(), *mutable, i.clone(), span);
            }
            let r = me.block(&f.body, Some(&Type::Unit)).map(|_| ());
            me.scopes.pop();
            r
        });
        r?;
        Ok(self.push_loop(region, None, span))
    }

    /// Converts an integer value to another integer type (`as`), or returns it unchanged.
    fn cast_to(&mut self, v: Val, ty: &Type, span: Span) -> Val {
        if v.ty == *ty {
            return v;
        }
        self.emit1(OpKind::Cast, &[id(&v)], ty.clone(), span)
    }

    /// Finds the loop a `break`/`continue` leaves, as a depth (0 = innermost).
    fn target_loop(&mut self, label: &Option<syn::Lifetime>, span: Span, what: &str) -> Lowered<usize> {
        if self.loops.is_empty() {
            return Err(self.error(
                Diagnostic::new(RK_BREAK_OUTSIDE_LOOP, format!("`{what}` outside of a loop"))
                    .at(span, format!("cannot `{what}` outside of a loop")),
            ));
        }
        match label {
            None => Ok(0),
            Some(l) => {
                let name = l.ident.to_string();
                match self.loops.iter().rev().position(|c| c.label.as_deref() == Some(name.as_str())) {
                    Some(d) => Ok(d),
                    None => Err(self.error(
                        Diagnostic::new(RK_UNKNOWN_NAME, format!("use of undeclared label `'{name}`"))
                            .at(span_of(l), "undeclared label"),
                    )),
                }
            }
        }
    }

    fn break_expr(&mut self, b: &syn::ExprBreak, span: Span) -> Lowered<Val> {
        let depth = self.target_loop(&b.label, span, "break")?;
        let k = self.loops.len() - 1 - depth;
        let mut operands = vec![];
        if let Some(e) = &b.expr {
            if !self.loops[k].takes_value {
                return Err(self.error(
                    Diagnostic::new(RK_BREAK_WITH_VALUE, "`break` with value from a `while` or `for` loop")
                        .at(span, "can only break with a value inside `loop`"),
                ));
            }
            let expected = self.loops[k].break_ty.clone().or_else(|| self.loops[k].expected.clone());
            let v = self.expr(e, expected.as_ref())?;
            match &self.loops[k].break_ty {
                Some(t) if *t != v.ty => {
                    let t = t.clone();
                    return Err(self.mismatch(&t, &v.ty, span_of(e)));
                }
                _ => self.loops[k].break_ty = Some(v.ty.clone()),
            }
            operands.extend(v.id);
        } else if let Some(t) = self.loops[k].break_ty.clone() {
            if t != Type::Unit {
                return Err(self.mismatch(&t, &Type::Unit, span));
            }
        } else {
            self.loops[k].break_ty = Some(Type::Unit);
        }
        self.emit(OpKind::Break { depth: depth as u32 }, &operands, None, span);
        Ok(Val::unit())
    }

    fn continue_expr(&mut self, c: &syn::ExprContinue, span: Span) -> Lowered<Val> {
        let depth = self.target_loop(&c.label, span, "continue")?;
        self.emit(OpKind::Continue { depth: depth as u32 }, &[], None, span);
        Ok(Val::unit())
    }

    /// `match` on an integer or `bool`: a chain of `rk.if`s, one per arm, testing its
    /// patterns (literals, ranges, `|`, `_`, bindings) and guard.
    fn match_expr(&mut self, m: &syn::ExprMatch, expected: Option<&Type>) -> Lowered<Val> {
        let span = span_of(m);
        let scrutinee = self.expr(&m.expr, None)?;
        if !(scrutinee.ty.is_int() || scrutinee.ty == Type::Bool) {
            return Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, format!("`match` on `{}` is not supported in kernels", scrutinee.ty))
                    .at(span_of(&m.expr), "kernels match on integers and `bool`"),
            ));
        }
        // Exhaustiveness, as rustc requires: a catch-all arm, or both `bool` values.
        let is_const = |n: &str| self.prog.constant(n).is_some();
        let catch_all = m.arms.iter().any(|a| a.guard.is_none() && pattern_is_irrefutable(&a.pat, &is_const));
        let bools_covered = scrutinee.ty == Type::Bool && {
            let unguarded: Vec<&syn::Pat> = m.arms.iter().filter(|a| a.guard.is_none()).map(|a| &a.pat).collect();
            [true, false].iter().all(|b| unguarded.iter().any(|p| pattern_matches_bool(p, *b, &is_const)))
        };
        if !catch_all && !bools_covered {
            return Err(self.error(
                Diagnostic::new(RK_NON_EXHAUSTIVE, "non-exhaustive patterns")
                    .at(span_of(&m.expr), format!("not every `{}` is covered", scrutinee.ty))
                    .help("add a `_ => ...` arm"),
            ));
        }
        self.match_arms(&scrutinee, &m.arms, expected, span)
    }

    fn match_arms(&mut self, scrutinee: &Val, arms: &[syn::Arm], expected: Option<&Type>, span: Span) -> Lowered<Val> {
        let Some((arm, rest)) = arms.split_first() else {
            // Unreachable after the exhaustiveness check; an empty match is `()`.
            return Ok(Val::unit());
        };
        let last = rest.is_empty();
        let test = self.pattern_test(scrutinee, &arm.pat)?;
        self.scopes.push(HashMap::new());
        if let Some(name) = pattern_binding(&arm.pat).filter(|n| self.prog.constant(n).is_none()) {
            self.bind(name, Some(Binding::Value(scrutinee.clone())));
        }
        let guard = match &arm.guard {
            Some((_, g)) => {
                let g = self.expr(g, Some(&Type::Bool))?;
                if g.ty != Type::Bool {
                    self.scopes.pop();
                    return Err(self.mismatch(&Type::Bool, &g.ty, span));
                }
                Some(g)
            }
            None => None,
        };
        let cond = match (test, guard) {
            (None, None) => None,
            (Some(t), None) => Some(t),
            (None, Some(g)) => Some(g),
            (Some(t), Some(g)) => Some(self.emit1(OpKind::Binary(BinOp::And), &[id(&t), id(&g)], Type::Bool, span)),
        };
        let result = match cond {
            // An irrefutable arm, or the last arm of an exhaustive match, takes everything left.
            None => self.expr(&arm.body, expected),
            Some(_) if last => self.expr(&arm.body, expected),
            Some(c) => self.if_else_lowered(id(&c), |me| me.expr(&arm.body, expected), |me, ty| {
                me.match_arms(scrutinee, rest, ty.or(expected), span)
            }, span),
        };
        self.scopes.pop();
        result
    }

    /// Builds `if cond { then } else { els }` from two lowering closures; the else arm is told
    /// the then arm's type for literal inference.
    fn if_else_lowered(
        &mut self,
        cond: ValueId,
        then: impl FnOnce(&mut Self) -> Lowered<Val>,
        els: impl FnOnce(&mut Self, Option<&Type>) -> Lowered<Val>,
        span: Span,
    ) -> Lowered<Val> {
        self.regions.push(Region::default());
        let t = then(self);
        let then_done = self.terminated();
        let mut then_region = self.regions.pop().unwrap_or_default();
        let t = t?;
        self.regions.push(Region::default());
        let hint = if then_done { None } else { Some(t.ty.clone()) };
        let e = els(self, hint.as_ref());
        let else_done = self.terminated();
        let mut else_region = self.regions.pop().unwrap_or_default();
        let e = e?;
        let ty = if then_done { e.ty.clone() } else { t.ty.clone() };
        if !then_done && !else_done && e.ty != ty {
            return Err(self.error(
                Diagnostic::new(RK_MISMATCHED_TYPES, "`match` arms have incompatible types")
                    .at(span, format!("expected `{ty}`, found `{}`", e.ty)),
            ));
        }
        let loc = Loc { line: span.line(), col: span.col() };
        let results = if ty == Type::Unit {
            vec![]
        } else {
            for (region, (v, done)) in [(&mut then_region, (&t, then_done)), (&mut else_region, (&e, else_done))] {
                if !done {
                    region.ops.push(Op { kind: OpKind::Yield, operands: v.id.into_iter().collect(), results: vec![], regions: vec![], loc });
                }
            }
            vec![self.func.new_value(ty.clone())]
        };
        let result = results.first().copied();
        self.push_if(cond, vec![then_region, else_region], results, span);
        Ok(Val { id: result, ty })
    }

    /// The `bool` that says whether `pat` matches `scrutinee`; `None` when it always does.
    fn pattern_test(&mut self, scrutinee: &Val, pat: &syn::Pat) -> Lowered<Option<Val>> {
        let span = span_of(pat);
        match pat {
            syn::Pat::Wild(_) => Ok(None),
            // An identifier that names a constant is a constant pattern, as in Rust.
            syn::Pat::Ident(p) if p.subpat.is_none() && self.prog.constant(&p.ident.to_string()).is_some() => {
                let name = p.ident.to_string();
                let Some((ty, expr)) = self.prog.constant(&name).cloned() else { return Ok(None) };
                let v = self.const_item(&name, &ty, &expr, span)?;
                if v.ty != scrutinee.ty {
                    return Err(self.mismatch(&scrutinee.ty, &v.ty, span));
                }
                Ok(Some(self.emit1(OpKind::Cmp(CmpOp::Eq), &[id(scrutinee), id(&v)], Type::Bool, span)))
            }
            syn::Pat::Ident(p) if p.subpat.is_none() && p.by_ref.is_none() && p.mutability.is_none() => Ok(None),
            syn::Pat::Paren(p) => self.pattern_test(scrutinee, &p.pat),
            syn::Pat::Or(o) => {
                let mut acc: Option<Val> = None;
                for case in &o.cases {
                    let Some(t) = self.pattern_test(scrutinee, case)? else { return Ok(None) };
                    acc = Some(match acc {
                        None => t,
                        Some(a) => self.emit1(OpKind::Binary(BinOp::Or), &[id(&a), id(&t)], Type::Bool, span),
                    });
                }
                Ok(acc)
            }
            syn::Pat::Lit(l) => {
                let v = self.pattern_literal(&l.lit, false, &scrutinee.ty, span)?;
                Ok(Some(self.emit1(OpKind::Cmp(CmpOp::Eq), &[id(scrutinee), id(&v)], Type::Bool, span)))
            }
            syn::Pat::Range(r) => {
                let mut acc: Option<Val> = None;
                if let Some(lo) = &r.start {
                    let lo = self.pattern_bound(lo, &scrutinee.ty)?;
                    acc = Some(self.emit1(OpKind::Cmp(CmpOp::Ge), &[id(scrutinee), id(&lo)], Type::Bool, span));
                }
                if let Some(hi) = &r.end {
                    let hi = self.pattern_bound(hi, &scrutinee.ty)?;
                    let op = if matches!(r.limits, syn::RangeLimits::Closed(_)) { CmpOp::Le } else { CmpOp::Lt };
                    let t = self.emit1(OpKind::Cmp(op), &[id(scrutinee), id(&hi)], Type::Bool, span);
                    acc = Some(match acc {
                        None => t,
                        Some(a) => self.emit1(OpKind::Binary(BinOp::And), &[id(&a), id(&t)], Type::Bool, span),
                    });
                }
                Ok(acc)
            }
            other => Err(self.unsupported_pattern(other)),
        }
    }

    fn pattern_bound(&mut self, e: &syn::Expr, ty: &Type) -> Lowered<Val> {
        let v = self.expr(e, Some(ty))?;
        if v.ty != *ty {
            return Err(self.mismatch(ty, &v.ty, span_of(e)));
        }
        Ok(v)
    }

    fn pattern_literal(&mut self, lit: &syn::Lit, negate: bool, ty: &Type, span: Span) -> Lowered<Val> {
        let v = self.literal(lit, negate, Some(ty), span)?;
        if v.ty != *ty {
            return Err(self.mismatch(ty, &v.ty, span));
        }
        Ok(v)
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
        // Each level of nesting is a few frames of recursion here: refuse absurd depths with a
        // diagnostic rather than exhaust the stack.
        const MAX_DEPTH: u32 = 2000;
        if self.depth >= MAX_DEPTH {
            return Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, format!("this expression is nested more than {MAX_DEPTH} levels deep"))
                    .at(span_of(e), "nested too deeply")
                    .help("split it with `let` bindings"),
            ));
        }
        self.depth += 1;
        let r = self.expr_at_depth(e, expected);
        self.depth -= 1;
        r
    }

    fn expr_at_depth(&mut self, e: &syn::Expr, expected: Option<&Type>) -> Lowered<Val> {
        let span = span_of(e);
        match e {
            syn::Expr::Lit(l) => self.literal(&l.lit, false, expected, span),
            syn::Expr::Paren(p) => self.expr(&p.expr, expected),
            syn::Expr::Group(g) => self.expr(&g.expr, expected),
            syn::Expr::Path(p) => match self.module_item(p) {
                Some(item) => self.path(&item),
                None => self.path(p),
            },
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
            syn::Expr::Index(_) | syn::Expr::Field(_) => {
                let place = self.place(e)?;
                self.load(place, span)
            }
            syn::Expr::Assign(a) => self.assign(&a.left, &a.right, None, span),
            syn::Expr::Return(r) => self.return_expr(r, span),
            syn::Expr::Loop(l) => self.loop_expr(l, expected),
            syn::Expr::While(w) => self.while_expr(w),
            syn::Expr::ForLoop(f) => self.for_expr(f),
            syn::Expr::Break(b) => self.break_expr(b, span),
            syn::Expr::Continue(c) => self.continue_expr(c, span),
            syn::Expr::Match(m) => self.match_expr(m, expected),
            syn::Expr::Tuple(t) if t.elems.is_empty() => Ok(Val::unit()),
            syn::Expr::Macro(m) if self.is_panic_macro(&m.mac) => self.panic_macro(&m.mac, span).unwrap_or(Err(Reported)),
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
                // syn gives a negative literal of a pattern (`-64..=-33`) as one literal
                // whose digits start with `-`.
                let digits = i.base10_digits();
                let (negate, digits) = match digits.strip_prefix('-') {
                    Some(d) => (!negate, d),
                    None => (negate, digits),
                };
                let Ok(magnitude) = digits.parse::<u128>() else {
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
                let x: f64 = match f.base10_digits().parse() {
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
            match self.lookup(&name).cloned() {
                Some(Some(Binding::Value(v))) => return Ok(v),
                Some(Some(Binding::Slot { slot, ty })) => {
                    return Ok(self.emit1(OpKind::Read, &[slot], ty, span));
                }
                Some(Some(Binding::Memory { ty, .. })) => return Err(self.aggregate_as_value(&name, &ty, span)),
                Some(None) => return Err(Reported),
                None => {}
            }
            if let Some(ty) = self.aggregate_type(&syn::Expr::Path(p.clone())) {
                return Err(self.aggregate_as_value(&name, &ty, span));
            }
            if let Some((ty, expr)) = self.prog.constant(&name).cloned() {
                return self.const_item(&name, &ty, &expr, span);
            }
            if let Some(st) = self.prog.static_item(&name) {
                let (ty, expr, defined) = (st.ty.clone(), st.expr.clone(), st.span);
                if st.mutable {
                    return Err(self.error(
                        Diagnostic::new(RK_STATIC, format!("the `static mut` `{name}` cannot be used in kernels"))
                            .at(span, "host memory, which a kernel cannot reach")
                            .with_secondary(defined, "defined here")
                            .help("pass the data to the kernel as an argument, or make it a read-only `static` or a `const`"),
                    ));
                }
                // A read-only static means its value, as a `const` does: the device never
                // sees the host's copy, and nothing can tell the two apart.
                return self.const_item(&name, &ty, &expr, span);
            }
            return Err(self.error(
                Diagnostic::new(RK_UNKNOWN_NAME, format!("cannot find value `{name}` in this scope"))
                    .at(span, "not found in this scope"),
            ));
        }
        if let Some(v) = self.associated_const(&p.path, span) {
            return v;
        }
        Err(self.error(
            Diagnostic::new(RK_UNKNOWN_NAME, format!("cannot find value `{}` in kernels", snippet(self.prog.source, span_of(&p.path))))
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
        let to = self.lower_type(&c.ty)?;
        // `&mut place as *mut T` / `&place as *const T`: the address of an element (Rust's
        // idiom for `addr_of_mut!`), e.g. for an atomic on a slice or shared array element.
        if let (Type::Ptr { mutable: want_mut, pointee }, syn::Expr::Reference(r)) = (&to, strip_parens(&c.expr)) {
            if r.mutability.is_some()
                && let Some(why) = self.immutable_root(&r.expr)
            {
                return Err(self.error(
                    Diagnostic::new(RK_ASSIGN_IMMUTABLE, format!("cannot borrow `{}` as mutable, {why}", snippet(self.prog.source, span_of(&r.expr))))
                        .at(span_of(&r.expr), "cannot borrow as mutable")
                        .help("declare the array `let mut`, or take a `*const` pointer with `&`"),
                ));
            }
            let p = match self.place(&r.expr)? {
                Place::Ptr(p) => p,
                Place::Slot(_) => {
                    return Err(self.error(
                        Diagnostic::new(RK_UNSUPPORTED_EXPR, "kernels cannot take the address of a local variable")
                            .at(span_of(&r.expr), "a local lives in registers")
                            .help("take the address of an element of a slice, an array behind a pointer or a shared array"),
                    ));
                }
            };
            let place_ty = self.func.ty(p).cloned().unwrap_or(Type::Unit);
            let Type::Ptr { mutable: place_mut, pointee: place_elem } = place_ty.clone() else { return Err(Reported) };
            if *want_mut && (r.mutability.is_none() || !place_mut) {
                return Err(self.error(
                    Diagnostic::new(RK_INVALID_CAST, format!("cannot cast a shared reference to `{to}`"))
                        .at(span, "the place is not mutable here")
                        .help("write `&mut place as *mut T` on a place behind `&mut` or `*mut`"),
                ));
            }
            if place_elem != *pointee {
                return Err(self.error(
                    Diagnostic::new(RK_INVALID_CAST, format!("non-primitive cast: `&{place_elem}` as `{to}`"))
                        .at(span, "the pointer's type must be the place's"),
                ));
            }
            let v = Val { id: Some(p), ty: place_ty };
            return Ok(if v.ty == to { v } else { self.emit1(OpKind::Cast, &[p], to, span) });
        }
        let v = self.expr(&c.expr, None)?;
        // `p as *mut T` for `p: *mut [T; N]`: the array's first element, as Rust's pointer
        // casts allow (a shared array's elements, for atomics and pointer arithmetic).
        if let (Type::Ptr { mutable: to_mut, pointee: to_elem }, Type::Ptr { mutable: from_mut, pointee }) = (&to, &v.ty)
            && let Type::Array { elem, .. } = pointee.as_ref()
            && **elem == **to_elem
            && (*from_mut || !*to_mut)
        {
            let zero = self.int_const(0, &Type::USIZE, span);
            let first = self.emit1(OpKind::ElemPtr, &[id(&v), id(&zero)], Type::ptr(*from_mut, (**elem).clone()), span);
            return Ok(if *from_mut && !*to_mut { self.emit1(OpKind::Cast, &[id(&first)], to.clone(), span) } else { first });
        }
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
        // When the then arm is an unsuffixed literal and nothing else decides, the else arm
        // does (`if c { 0 } else { x.to_bits() }` is a `u32`): it is lowered first, into its
        // own region, so the order changes nothing else.
        let has_else = i.else_branch.is_some();
        let untyped_then = matches!(i.then_branch.stmts.last(), Some(syn::Stmt::Expr(e, None)) if is_untyped_literal(e));
        let else_first = has_else && expected.is_none() && untyped_then;
        let lower_else = |me: &mut Self, hint: Option<&Type>| {
            me.regions.push(Region::default());
            let els = match &i.else_branch {
                Some((_, e)) => me.expr(e, hint),
                None => Ok(Val::unit()),
            };
            let terminated = me.terminated();
            (els, terminated, me.regions.pop().unwrap_or_default())
        };
        let early_else = if else_first { Some(lower_else(self, None)) } else { None };
        let then_hint = match &early_else {
            Some((Ok(v), false, _)) => Some(v.ty.clone()),
            _ if has_else => expected.cloned(),
            _ => Some(Type::Unit),
        };
        self.regions.push(Region::default());
        let then = self.block(&i.then_branch, then_hint.as_ref());
        let then_region_terminated = self.terminated();
        let then_region = self.regions.pop().unwrap_or_default();
        let then = then?;
        let ty = then.ty.clone();
        let (els, else_region_terminated, else_region) = match early_else {
            Some(done) => done,
            None => lower_else(self, Some(&ty)),
        };
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
        let name = self.callee_name(&p.path);
        if let Some(r) = self.sync_builtin(c, p, &name, span) {
            return r;
        }
        if let Some(dim) = name.strip_prefix("global_idx_").and_then(|d| match d {
            "x" => Some(Dim::X),
            "y" => Some(Dim::Y),
            "z" => Some(Dim::Z),
            _ => None,
        }) && self.prog.function(&name).is_none()
        {
            // block_idx * block_dim + thread_idx, in usize so that large grids do not wrap.
            if !c.args.is_empty() {
                return Err(self.error(
                    Diagnostic::new(RK_ARGUMENT_COUNT, format!("`{name}` takes no arguments")).at(span_of(&c.args), "remove these arguments"),
                ));
            }
            self.require_unsafe(span, &format!("call to unsafe function `{name}`"))?;
            let part = |me: &mut Self, g: Geometry| {
                let v = me.emit1(OpKind::Geometry(g, dim), &[], Type::U32, span);
                me.emit1(OpKind::Cast, &[id(&v)], Type::USIZE, span)
            };
            let b = part(self, Geometry::BlockId);
            let d = part(self, Geometry::BlockDim);
            let t = part(self, Geometry::ThreadId);
            let bd = self.bin(BinOp::Mul, &b, &d, span);
            return Ok(self.bin(BinOp::Add, &bd, &t, span));
        }
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
        if self.prog.function(&name).is_none()
            && let Some(r) = self.path_call(c, p, span)
        {
            return r;
        }
        let Some(item) = self.prog.function(&name) else {
            return Err(self.error(
                Diagnostic::new(RK_UNKNOWN_FUNCTION, format!("cannot find function `{}` for kernels", snippet(self.prog.source, span_of(&p.path))))
                    .at(span_of(&c.func), "not a function of this file, nor a builtin rkc knows")
                    .note("kernels can call the functions of their own file and the builtins of `rkc_offload::builtins` (thread_idx_x, sync_threads, atomic_add, warp_shuffle, ...)"),
            ));
        };
        self.device_call(item, c, p, &name, span, None)
    }

    /// The name a call's path refers to: `P::f` for an associated function or method of a
    /// struct `P` of the file (`Vec3::new`, `Vec3::dot`), else the last segment (functions of
    /// inline modules are known by their own names).
    fn callee_name(&self, path: &syn::Path) -> String {
        let n = path.segments.len();
        if n >= 2 {
            let qualified = format!("{}::{}", path.segments[n - 2].ident, path.segments[n - 1].ident);
            if self.prog.function(&qualified).is_some() {
                return qualified;
            }
        }
        path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default()
    }

    /// `v.f(args)` for a method `f` of the struct `v` is: `P::f(v, args)`, with `v` passed by
    /// reference when `f` takes `&mut self`.
    fn struct_method(&mut self, m: &syn::ExprMethodCall, span: Span, out: Option<ValueId>) -> Option<Lowered<Val>> {
        let Some(Type::Struct { name, .. }) = self.aggregate_type(&m.receiver).or_else(|| self.place_type(&m.receiver)) else { return None };
        let qualified = format!("{name}::{}", m.method);
        let Some(item) = self.prog.function(&qualified) else {
            return Some(Err(self.error(
                Diagnostic::new(RK_UNKNOWN_METHOD, format!("no method named `{}` found for struct `{name}`", m.method))
                    .at(span_of(&m.method), "method not found in this struct's `impl` blocks")
                    .note("kernels call the methods of a struct's own `impl` blocks; trait methods (`impl Add for ...`) and generic `impl`s are not supported yet"),
            )));
        };
        let mut path: syn::Path = syn::Ident::new(&name, m.method.span()).into();
        path.segments.push(m.method.clone().into());
        let func = syn::ExprPath { attrs: vec![], qself: None, path };
        let mut args: syn::punctuated::Punctuated<syn::Expr, syn::Token![,]> = syn::punctuated::Punctuated::new();
        args.push((*m.receiver).clone());
        args.extend(m.args.iter().cloned());
        let call = syn::ExprCall { attrs: vec![], func: Box::new(syn::Expr::Path(func.clone())), paren_token: m.paren_token, args };
        Some(self.device_call(item, &call, &func, &qualified, span, out))
    }

    /// `sync_threads()`, `shared_array::<T, N>()` and the atomics, when `name` is one of them
    /// and no function of the file has that name.
    fn sync_builtin(&mut self, c: &syn::ExprCall, p: &syn::ExprPath, name: &str, span: Span) -> Option<Lowered<Val>> {
        if self.prog.function(name).is_some() {
            return None;
        }
        let atomic = match name {
            "atomic_add" => Some(AtomicOp::Add),
            "atomic_sub" => Some(AtomicOp::Sub),
            "atomic_and" => Some(AtomicOp::And),
            "atomic_or" => Some(AtomicOp::Or),
            "atomic_xor" => Some(AtomicOp::Xor),
            "atomic_min" => Some(AtomicOp::Min),
            "atomic_max" => Some(AtomicOp::Max),
            "atomic_exchange" => Some(AtomicOp::Exchange),
            _ => None,
        };
        let arity = |me: &mut Self, n: usize| -> Lowered<()> {
            if c.args.len() == n {
                return Ok(());
            }
            Err(me.error(
                Diagnostic::new(RK_ARGUMENT_COUNT, format!("`{name}` takes {n} argument{}", if n == 1 { "" } else { "s" }))
                    .at(span, format!("{} given", c.args.len())),
            ))
        };
        match name {
            "sync_threads" => Some((|| {
                arity(self, 0)?;
                self.require_unsafe(span, "call to unsafe function `sync_threads`")?;
                self.emit(OpKind::Barrier, &[], None, span);
                Ok(Val::unit())
            })()),
            "shared_array" => Some((|| {
                arity(self, 0)?;
                self.require_unsafe(span, "call to unsafe function `shared_array`")?;
                let args = match p.path.segments.last().map(|s| &s.arguments) {
                    Some(syn::PathArguments::AngleBracketed(a)) if a.args.len() == 2 => a.args.iter().cloned().collect::<Vec<_>>(),
                    _ => {
                        return Err(self.error(
                            Diagnostic::new(RK_UNSUPPORTED_EXPR, "`shared_array` needs its element type and length")
                                .at(span, "write `shared_array::<f32, 256>()`"),
                        ));
                    }
                };
                let elem = match &args[0] {
                    syn::GenericArgument::Type(t) => self.lower_type(t)?,
                    other => return Err(self.error(Diagnostic::new(RK_UNSUPPORTED_TYPE, "expected the element type").at(span_of(other), "a type"))),
                };
                let len_expr = match &args[1] {
                    syn::GenericArgument::Const(e) => e.clone(),
                    syn::GenericArgument::Type(syn::Type::Path(tp)) => syn::Expr::Path(syn::ExprPath { attrs: vec![], qself: None, path: tp.path.clone() }),
                    other => return Err(self.error(Diagnostic::new(RK_UNSUPPORTED_EXPR, "expected the length").at(span_of(other), "an integer"))),
                };
                let len = const_eval(&len_expr, &self.subst, &self.prog.items, 0);
                let Some(len) = len else {
                    return Err(self.error(
                        Diagnostic::new(RK_UNSUPPORTED_EXPR, "a shared array's length must be an integer literal, a const generic or a constant")
                            .at(span_of(&len_expr), "not a constant rkc can evaluate"),
                    ));
                };
                if !elem.is_scalar() {
                    return Err(self.error(Diagnostic::new(RK_UNSUPPORTED_TYPE, format!("shared arrays hold scalars, not `{elem}`")).at(span, "here")));
                }
                let ty = Type::ptr(true, Type::Array { elem: Box::new(elem), len });
                Ok(self.emit1(OpKind::Shared, &[], ty, span))
            })()),
            "thread_fence_block" | "thread_fence" => Some((|| {
                arity(self, 0)?;
                self.require_unsafe(span, &format!("call to unsafe function `{name}`"))?;
                let scope = if name == "thread_fence" { FenceScope::Device } else { FenceScope::Block };
                self.emit(OpKind::Fence(scope), &[], None, span);
                Ok(Val::unit())
            })()),
            "lane_id" => Some((|| {
                arity(self, 0)?;
                self.require_unsafe(span, "call to unsafe function `lane_id`")?;
                Ok(self.emit1(OpKind::Warp(WarpOp::LaneId), &[], Type::U32, span))
            })()),
            // The warp is 32 lanes on every target (see `rkc_simt`), so this is a constant.
            "warp_size" => Some((|| {
                arity(self, 0)?;
                Ok(self.emit1(OpKind::Const(Literal::Int(rkc_rk::WARP_SIZE as u64)), &[], Type::U32, span))
            })()),
            "warp_any" | "warp_all" | "warp_ballot" => Some((|| {
                arity(self, 1)?;
                let p = self.expr(&c.args[0], Some(&Type::Bool))?;
                if p.ty != Type::Bool {
                    return Err(self.mismatch(&Type::Bool, &p.ty, span_of(&c.args[0])));
                }
                self.require_unsafe(span, &format!("call to unsafe function `{name}`"))?;
                let (w, ty) = match name {
                    "warp_any" => (WarpOp::Any, Type::Bool),
                    "warp_all" => (WarpOp::All, Type::Bool),
                    _ => (WarpOp::Ballot, Type::U32),
                };
                Ok(self.emit1(OpKind::Warp(w), &[id(&p)], ty, span))
            })()),
            "warp_shuffle" | "warp_shuffle_xor" | "warp_shuffle_up" | "warp_shuffle_down" | "warp_reduce_add" | "warp_reduce_min"
            | "warp_reduce_max" => Some((|| {
                let w = WarpOp::ALL.into_iter().find(|w| Some(w.name()) == name.strip_prefix("warp_")).unwrap_or(WarpOp::LaneId);
                let shuffle = matches!(w, WarpOp::Shuffle(_));
                arity(self, if shuffle { 2 } else { 1 })?;
                let v = self.expr(&c.args[0], None)?;
                if !(matches!(v.ty, Type::Int(i) if i.bits() >= 32) || v.ty.is_float()) {
                    return Err(self.error(
                        Diagnostic::new(RK_MISMATCHED_TYPES, format!("`{name}` takes a 32- or 64-bit number, not `{}`", v.ty))
                            .at(span_of(&c.args[0]), "expected `i32`, `u32`, `i64`, `u64`, `f32` or `f64`")
                            .help("widen smaller integers with `as u32` first"),
                    ));
                }
                let mut operands = vec![id(&v)];
                if shuffle {
                    let k = self.expr(&c.args[1], Some(&Type::U32))?;
                    if k.ty != Type::U32 {
                        return Err(self.mismatch(&Type::U32, &k.ty, span_of(&c.args[1])));
                    }
                    operands.push(id(&k));
                }
                self.require_unsafe(span, &format!("call to unsafe function `{name}`"))?;
                Ok(self.emit1(OpKind::Warp(w), &operands, v.ty.clone(), span))
            })()),
            "dynamic_shared" => Some((|| {
                arity(self, 0)?;
                self.require_unsafe(span, "call to unsafe function `dynamic_shared`")?;
                let elem = match p.path.segments.last().map(|s| &s.arguments) {
                    Some(syn::PathArguments::AngleBracketed(a)) if a.args.len() == 1 => match &a.args[0] {
                        syn::GenericArgument::Type(t) => self.lower_type(t)?,
                        other => return Err(self.error(Diagnostic::new(RK_UNSUPPORTED_TYPE, "expected the element type").at(span_of(other), "a type"))),
                    },
                    _ => {
                        return Err(self.error(
                            Diagnostic::new(RK_UNSUPPORTED_EXPR, "`dynamic_shared` needs its element type")
                                .at(span, "write `dynamic_shared::<f32>()`"),
                        ));
                    }
                };
                if !elem.is_scalar() {
                    return Err(self.error(Diagnostic::new(RK_UNSUPPORTED_TYPE, format!("dynamic shared memory holds scalars, not `{elem}`")).at(span, "here")));
                }
                Ok(self.emit1(OpKind::DynShared, &[], Type::ptr(true, elem), span))
            })()),
            "atomic_compare_exchange" => Some((|| {
                arity(self, 3)?;
                let (ptr, t) = self.atomic_pointer(&c.args[0], name)?;
                let cur = self.expr(&c.args[1], Some(&t))?;
                let new = self.expr(&c.args[2], Some(&t))?;
                for (v, e) in [(&cur, &c.args[1]), (&new, &c.args[2])] {
                    if v.ty != t {
                        return Err(self.mismatch(&t, &v.ty, span_of(e)));
                    }
                }
                self.require_unsafe(span, &format!("call to unsafe function `{name}`"))?;
                self.check_atomic_type(&t, None, span)?;
                Ok(self.emit1(OpKind::AtomicCas, &[id(&ptr), id(&cur), id(&new)], t, span))
            })()),
            _ => {
                let a = atomic?;
                Some((|| {
                    arity(self, 2)?;
                    let (ptr, t) = self.atomic_pointer(&c.args[0], name)?;
                    let v = self.expr(&c.args[1], Some(&t))?;
                    if v.ty != t {
                        return Err(self.mismatch(&t, &v.ty, span_of(&c.args[1])));
                    }
                    self.require_unsafe(span, &format!("call to unsafe function `{name}`"))?;
                    self.check_atomic_type(&t, Some(a), span)?;
                    Ok(self.emit1(OpKind::Atomic(a), &[id(&ptr), id(&v)], t, span))
                })())
            }
        }
    }

    fn atomic_pointer(&mut self, e: &syn::Expr, name: &str) -> Lowered<(Val, Type)> {
        let p = self.expr(e, None)?;
        match &p.ty {
            Type::Ptr { mutable: true, pointee } if pointee.is_scalar() => {
                let t = (**pointee).clone();
                Ok((p, t))
            }
            other => Err(self.error(
                Diagnostic::new(RK_MISMATCHED_TYPES, format!("`{name}` takes a `*mut` to a number, not `{other}`"))
                    .at(span_of(e), "expected `*mut i32`, `*mut u32`, `*mut i64`, `*mut u64`, `*mut f32` or `*mut f64`"),
            )),
        }
    }

    fn check_atomic_type(&mut self, t: &Type, op: Option<AtomicOp>, span: Span) -> Lowered<()> {
        let ok = matches!(t, Type::Int(i) if i.bits() >= 32) || (t.is_float() && op == Some(AtomicOp::Add));
        if ok {
            return Ok(());
        }
        Err(self.error(
            Diagnostic::new(RK_MISMATCHED_TYPES, format!("no atomic operation on `{t}` here"))
                .at(span, "atomics work on 32- and 64-bit integers; `atomic_add` also on `f32` and `f64`"),
        ))
    }

    /// A call of a function of the file: arguments checked against its parameters, generic
    /// parameters inferred from the arguments (or given with `::<>`), the instance queued.
    /// A call of a device function. Aggregate arguments are passed as pointers to fresh copies
    /// (by value, as Rust passes them); an aggregate result is written through `out`, a
    /// pointer to the caller's local, passed last.
    fn device_call(&mut self, item: &'s syn::ItemFn, c: &syn::ExprCall, p: &syn::ExprPath, name: &str, span: Span, out: Option<ValueId>) -> Lowered<Val> {
        if crate::program::is_kernel(item) {
            return Err(self.error(
                Diagnostic::new(RK_CALL_KERNEL, format!("the kernel `{name}` cannot be called from a kernel"))
                    .at(span_of(&c.func), "kernels are launched with `offload!`, not called")
                    .help("move the shared code into a plain function that both kernels call"),
            ));
        }
        if item.sig.unsafety.is_some() {
            self.require_unsafe(span, &format!("call to unsafe function `{name}`"))?;
        }
        if self.prog.is_ambiguous(name) {
            return Err(self.error(
                Diagnostic::new(RK_AMBIGUOUS_FUNCTION, format!("more than one function is named `{name}`"))
                    .at(span_of(&c.func), "rkc cannot tell which one is meant")
                    .help("give the functions of kernels.rs distinct names"),
            ));
        }
        let n_params = item.sig.inputs.len();
        if c.args.len() != n_params {
            return Err(self.error(
                Diagnostic::new(RK_ARGUMENT_COUNT, format!("this function takes {n_params} argument{} but {} {} supplied", if n_params == 1 { "" } else { "s" }, c.args.len(), if c.args.len() == 1 { "argument was" } else { "arguments were" }))
                    .at(span, format!("expected {n_params}"))
                    .with_secondary(Span::from_pm2(item.sig.ident.span()), "defined here"),
            ));
        }
        let generics: Vec<&syn::GenericParam> = item.sig.generics.params.iter().collect();
        let mut subst = Subst::default();
        // Explicit `f::<T, N>(...)` arguments first.
        if let Some(syn::PathArguments::AngleBracketed(args)) = p.path.segments.last().map(|s| &s.arguments) {
            for (param, arg) in generics.iter().zip(&args.args) {
                match (param, arg) {
                    (syn::GenericParam::Type(t), syn::GenericArgument::Type(ty)) => {
                        let ty = self.lower_type(ty)?;
                        subst.types.push((t.ident.to_string(), ty));
                    }
                    (syn::GenericParam::Const(k), syn::GenericArgument::Const(e)) => {
                        let v = self.expr(e, Some(&Type::USIZE))?;
                        match self.func_const_value(&v) {
                            Some(n) => subst.consts.push((k.ident.to_string(), n)),
                            None => {
                                return Err(self.error(
                                    Diagnostic::new(RK_UNSUPPORTED_EXPR, "const generic arguments must be integer literals or constants")
                                        .at(span_of(e), "not a constant rkc can evaluate"),
                                ));
                            }
                        }
                    }
                    _ => {
                        return Err(self.error(
                            Diagnostic::new(RK_UNSUPPORTED_EXPR, "this generic argument is not supported")
                                .at(span_of(arg), "expected a type or an integer"),
                        ));
                    }
                }
            }
        }
        // A non-generic function's signature comes first, so that errors in it are reported
        // as the callee's, with its call path.
        let caller = self.func.name.clone();
        if generics.is_empty() {
            self.prog.instance(item, Subst::default(), &caller)?;
        }
        // Then the arguments: each is lowered with its parameter's type when that type is
        // already known, and unified with it otherwise. Errors in the parameter types are left
        // to the instance's signature, which reports them with the call path.
        let mut args = Vec::new();
        for (input, arg) in item.sig.inputs.iter().zip(&c.args) {
            let syn::FnArg::Typed(pt) = input else { return Err(Reported) };
            let known = if mentions_generic(&pt.ty, &generics, &subst) {
                None
            } else {
                lower_type(&pt.ty, self.prog.source, &subst, &self.prog.items, &mut Vec::new()).ok()
            };
            let by_pointer = match &known {
                Some(t) => is_aggregate(t),
                None => self.aggregate_type(arg).is_some(),
            };
            let v = if crate::program::by_reference(pt) {
                // `&mut self`: the receiver's own place, which the method changes.
                if let Some(why) = self.immutable_root(arg) {
                    return Err(self.error(
                        Diagnostic::new(RK_ASSIGN_IMMUTABLE, format!("cannot borrow `{}` as mutable, {why}", snippet(self.prog.source, span_of(arg))))
                            .at(span_of(arg), "cannot borrow as mutable")
                            .help(format!("`{name}` takes `&mut self`: declare the value `let mut`")),
                    ));
                }
                let Place::Ptr(p) = self.base_place(arg).map(Place::Ptr)? else { return Err(Reported) };
                let ty = self.func.ty(p).and_then(Type::pointee).cloned().unwrap_or(Type::Unit);
                if matches!(self.func.ty(p), Some(Type::Ptr { mutable: false, .. })) {
                    return Err(self.error(
                        Diagnostic::new(RK_ASSIGN_THROUGH_CONST, format!("cannot borrow `{}` as mutable: it is behind a `*const` pointer", snippet(self.prog.source, span_of(arg))))
                            .at(span_of(arg), "cannot borrow as mutable")
                            .help(format!("`{name}` takes `&mut self`: reach the value through a `*mut` pointer")),
                    ));
                }
                Val { id: Some(p), ty }
            } else if by_pointer {
                // The callee gets its own copy: a pointer to it, with the aggregate's type
                // here so that generics unify with it.
                let (ptr, ty) = self.aggregate_value(arg, known.as_ref())?;
                Val { id: Some(ptr), ty }
            } else {
                self.expr(arg, known.as_ref())?
            };
            if known.is_none() {
                unify(&pt.ty, &v.ty, &generics, &mut subst);
            }
            args.push((v, arg));
        }
        for g in &generics {
            let (name, bound) = match g {
                syn::GenericParam::Type(t) => (t.ident.to_string(), subst.ty(&t.ident.to_string()).is_some()),
                syn::GenericParam::Const(k) => (k.ident.to_string(), subst.constant(&k.ident.to_string()).is_some()),
                syn::GenericParam::Lifetime(_) => continue,
            };
            if !bound {
                return Err(self.error(
                    Diagnostic::new(RK_CANNOT_INFER, format!("cannot infer the generic parameter `{name}` of `{}`", item.sig.ident))
                        .at(span, "cannot infer")
                        .help(format!("give it explicitly: `{}::<...>(...)`", item.sig.ident)),
                ));
            }
        }
        // Generic parameters are listed in declaration order, whatever order inferred them.
        let order: Vec<String> = generics.iter().filter_map(|g| match g {
            syn::GenericParam::Type(t) => Some(t.ident.to_string()),
            syn::GenericParam::Const(k) => Some(k.ident.to_string()),
            syn::GenericParam::Lifetime(_) => None,
        }).collect();
        subst.types.sort_by_key(|(n, _)| order.iter().position(|o| o == n));
        subst.consts.sort_by_key(|(n, _)| order.iter().position(|o| o == n));
        let (instance, sig) = self.prog.instance(item, subst, &caller)?;
        let mut operands = Vec::with_capacity(args.len() + 1);
        for ((v, arg), ty) in args.iter().zip(&sig.params) {
            if is_aggregate(ty) {
                if v.ty != *ty {
                    return Err(self.mismatch(ty, &v.ty, span_of(*arg)));
                }
                operands.push(id(v));
                continue;
            }
            let v = self.coerce(v.clone(), ty, span_of(*arg))?;
            operands.push(id(&v));
        }
        if is_aggregate(&sig.ret) {
            let Some(out) = out else {
                return Err(self.error(
                    Diagnostic::new(RK_UNSUPPORTED_EXPR, format!("the `{}` that `{name}` returns must be bound to a name first", sig.ret))
                        .at(span, "an aggregate result used as a value")
                        .help(format!("write `let result = {name}(...);` and use `result`")),
                ));
            };
            operands.push(out);
            self.emit(OpKind::Call { callee: instance }, &operands, None, span);
            return Ok(Val::unit());
        }
        let result = if sig.ret == Type::Unit { None } else { Some(sig.ret.clone()) };
        let id = self.emit(OpKind::Call { callee: instance }, &operands, result, span);
        Ok(Val { id, ty: sig.ret })
    }

    /// `v` as a `ty`, by Rust's implicit coercions (`*mut T` → `*const T`, `&mut [T]` →
    /// `&[T]`), or a mismatch error.
    fn coerce(&mut self, v: Val, ty: &Type, span: Span) -> Lowered<Val> {
        if v.ty == *ty {
            return Ok(v);
        }
        let ok = match (&v.ty, ty) {
            (Type::Ptr { mutable: true, pointee: a }, Type::Ptr { mutable: false, pointee: b }) => a == b,
            (Type::Slice { mutable: true, elem: a }, Type::Slice { mutable: false, elem: b }) => a == b,
            _ => false,
        };
        if !ok {
            return Err(self.mismatch(ty, &v.ty, span));
        }
        Ok(self.emit1(OpKind::Cast, &[id(&v)], ty.clone(), span))
    }

    /// The value of a constant that the front end just emitted, if it is one.
    fn func_const_value(&self, v: &Val) -> Option<u64> {
        let id = v.id?;
        self.regions.iter().flat_map(|r| r.ops.iter()).find_map(|op| match (&op.kind, op.results.first()) {
            (OpKind::Const(Literal::Int(n)), Some(r)) if *r == id => Some(*n),
            _ => None,
        })
    }

    fn method_call(&mut self, m: &syn::ExprMethodCall) -> Lowered<Val> {
        let span = span_of(m);
        let method = m.method.to_string();
        match method.as_str() {
            "len" | "is_empty" if m.args.is_empty() && matches!(self.value_type(&m.receiver), Some(Type::Slice { .. })) => {
                let slice = self.expr(&m.receiver, None)?;
                let len = self.emit1(OpKind::SliceLen, &[id(&slice)], Type::USIZE, span);
                if method == "len" {
                    return Ok(len);
                }
                let zero = self.int_const(0, &Type::USIZE, span);
                Ok(self.cmp(CmpOp::Eq, &len, &zero, span))
            }
            "len" if m.args.is_empty() => {
                // `(*x).len()` on a pointer to an array is the array's constant length; nothing is
                // read, and no unsafe is needed beyond what the deref itself needs.
                let place = self.place(&m.receiver)?;
                if let Some(Type::Array { len, .. }) = self.place_pointee(place) {
                    return Ok(self.emit1(OpKind::Const(Literal::Int(len)), &[], Type::USIZE, span));
                }
                let ty = self.place_pointee(place).unwrap_or(Type::Unit);
                Err(self.error(
                    Diagnostic::new(RK_UNKNOWN_METHOD, format!("no method named `len` found for `{ty}`"))
                        .at(span_of(&m.method), "method not found"),
                ))
            }
            // `s.as_ptr()` / `s.as_mut_ptr()`: a slice's first element (safe, as in Rust;
            // dereferencing the pointer is what needs `unsafe`).
            "as_ptr" | "as_mut_ptr" if m.args.is_empty() && matches!(self.value_type(&m.receiver), Some(Type::Slice { .. })) => {
                let slice = self.expr(&m.receiver, None)?;
                let Type::Slice { mutable, elem } = slice.ty.clone() else { return Err(Reported) };
                if method == "as_mut_ptr" && !mutable {
                    return Err(self.error(
                        Diagnostic::new(RK_MISMATCHED_TYPES, format!("`as_mut_ptr` needs a `&mut [{elem}]`, not `{}`", slice.ty))
                            .at(span_of(&m.receiver), "a shared slice")
                            .help("use `as_ptr` for a `*const` pointer"),
                    ));
                }
                let base = self.emit1(OpKind::SlicePtr, &[id(&slice)], Type::ptr(mutable, (*elem).clone()), span);
                if method == "as_ptr" && mutable {
                    return Ok(self.emit1(OpKind::Cast, &[id(&base)], Type::ptr(false, (*elem).clone()), span));
                }
                Ok(base)
            }
            // `a.as_ptr()` / `a.as_mut_ptr()` on a local array or a table: its first element.
            "as_ptr" | "as_mut_ptr"
                if m.args.is_empty()
                    && matches!(strip_parens(&m.receiver), syn::Expr::Path(_))
                    && matches!(self.place_type(&m.receiver), Some(Type::Array { .. })) =>
            {
                if method == "as_mut_ptr"
                    && let Some(why) = self.immutable_root(&m.receiver)
                {
                    return Err(self.error(
                        Diagnostic::new(RK_ASSIGN_IMMUTABLE, format!("cannot borrow `{}` as mutable, {why}", snippet(self.prog.source, span_of(&m.receiver))))
                            .at(span_of(&m.receiver), "cannot borrow as mutable")
                            .help("use `as_ptr` for a `*const` pointer, or declare the array `let mut`"),
                    ));
                }
                let Place::Ptr(p) = self.place(&m.receiver)? else { return Err(Reported) };
                let Some(Type::Array { elem, .. }) = self.func.ty(p).and_then(Type::pointee).cloned() else { return Err(Reported) };
                let zero = self.int_const(0, &Type::USIZE, span);
                // A table is behind a `*const`: its elements' pointer is one too.
                let mutable = matches!(self.func.ty(p), Some(Type::Ptr { mutable: true, .. }));
                let first = self.emit1(OpKind::ElemPtr, &[p, id(&zero)], Type::ptr(mutable, (*elem).clone()), span);
                if method == "as_ptr" && mutable {
                    return Ok(self.emit1(OpKind::Cast, &[id(&first)], Type::ptr(false, *elem), span));
                }
                Ok(first)
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
            _ => match self.struct_method(m, span, None) {
                Some(r) => r,
                None => self.value_method(m, span),
            },
        }
    }

    /// The value of a `const` item, lowered where it is used (its expression is constant, so
    /// LLVM folds it).
    fn const_item(&mut self, name: &str, ty: &syn::Type, expr: &syn::Expr, span: Span) -> Lowered<Val> {
        if self.prog.const_depth > 32 {
            return Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, format!("the constant `{name}` refers to itself"))
                    .at(span, "used here"),
            ));
        }
        let ty = self.lower_type(ty)?;
        self.prog.const_depth += 1;
        let v = self.expr(expr, Some(&ty));
        self.prog.const_depth -= 1;
        let v = v?;
        if v.ty != ty {
            return Err(self.mismatch(&ty, &v.ty, span_of(expr)));
        }
        Ok(v)
    }

    fn place_pointee(&self, place: Place) -> Option<Type> {
        match place {
            Place::Ptr(p) => self.func.ty(p).and_then(Type::pointee).cloned(),
            Place::Slot(s) => match self.func.ty(s) {
                Some(Type::Slot(t)) => Some((**t).clone()),
                _ => None,
            },
        }
    }

    // ----- methods of primitive types ----------------------------------------------------

    fn is_panic_macro(&self, mac: &syn::Macro) -> bool {
        mac.path.segments.last().is_some_and(|s| {
            matches!(s.ident.to_string().as_str(), "assert" | "debug_assert" | "panic" | "unreachable" | "todo" | "unimplemented")
        })
    }

    fn int_const(&mut self, v: i128, ty: &Type, span: Span) -> Val {
        let bits = match ty {
            Type::Int(t) => (v as u64) & mask(t.bits()),
            _ => v as u64,
        };
        self.emit1(OpKind::Const(Literal::Int(bits)), &[], ty.clone(), span)
    }

    fn float_val(&mut self, x: f64, ty: &Type, span: Span) -> Val {
        let x = if *ty == Type::Float(FloatTy::F32) { f64::from(x as f32) } else { x };
        self.emit1(OpKind::Const(Literal::Float(x)), &[], ty.clone(), span)
    }

    fn bin(&mut self, op: BinOp, a: &Val, b: &Val, span: Span) -> Val {
        self.emit1(OpKind::Binary(op), &[id(a), id(b)], a.ty.clone(), span)
    }

    fn cmp(&mut self, op: CmpOp, a: &Val, b: &Val, span: Span) -> Val {
        self.emit1(OpKind::Cmp(op), &[id(a), id(b)], Type::Bool, span)
    }

    fn math(&mut self, f: MathFn, args: &[&Val], ty: Type, span: Span) -> Val {
        let ids: Vec<ValueId> = args.iter().map(|v| id(v)).collect();
        self.emit1(OpKind::Math(f), &ids, ty, span)
    }

    /// A new slot holding `v`.
    fn slot_of(&mut self, v: &Val, span: Span) -> ValueId {
        let slot = self.emit(OpKind::Var, &[], Some(Type::slot(v.ty.clone())), span).unwrap_or(ValueId(u32::MAX));
        self.emit(OpKind::Write, &[id(v), slot], None, span);
        slot
    }

    fn read(&mut self, slot: ValueId, ty: &Type, span: Span) -> Val {
        self.emit1(OpKind::Read, &[slot], ty.clone(), span)
    }

    fn write(&mut self, v: &Val, slot: ValueId, span: Span) {
        self.emit(OpKind::Write, &[id(v), slot], None, span);
    }

    /// `if cond { body }` with a unit body built by a closure.
    fn when(&mut self, cond: &Val, span: Span, body: impl FnOnce(&mut Self)) {
        self.regions.push(Region::default());
        body(self);
        let then = self.regions.pop().unwrap_or_default();
        self.push_if(id(cond), vec![then, Region::default()], vec![], span);
    }

    /// A method call on a value of a primitive type.
    fn value_method(&mut self, m: &syn::ExprMethodCall, span: Span) -> Lowered<Val> {
        let method = m.method.to_string();
        if is_untyped_literal(&m.receiver) {
            return Err(self.error(
                Diagnostic::new(RK_AMBIGUOUS_NUMERIC, format!("can't call method `{method}` on ambiguous numeric type"))
                    .at(span_of(&m.receiver), "the literal's type is not known here")
                    .help("give the literal a suffix, such as `2.0f32` or `3u32` (rustc's E0689)"),
            ));
        }
        let x = self.expr(&m.receiver, None)?;
        self.primitive_method(&method, x, &m.args.iter().collect::<Vec<_>>(), span, span_of(&m.method))
    }

    /// `x.method(args)`, also reached from `T::method(x, args)`.
    fn primitive_method(&mut self, method: &str, x: Val, arg_exprs: &[&syn::Expr], span: Span, method_span: Span) -> Lowered<Val> {
        let ty = x.ty.clone();
        let mut args = Vec::new();
        // The arguments' expected types: the receiver's type, except for the few that take a
        // `u32` or an `i32`.
        let expected = match method {
            "rotate_left" | "rotate_right" | "pow" => Type::U32,
            "powi" => Type::Int(IntTy::I32),
            _ => ty.clone(),
        };
        for a in arg_exprs {
            let v = self.expr(a, Some(&expected))?;
            if v.ty != expected {
                return Err(self.mismatch(&expected, &v.ty, span_of(*a)));
            }
            args.push(v);
        }
        let n = args.len();
        let unknown = |me: &mut Self| {
            Err(me.error(
                Diagnostic::new(RK_UNKNOWN_METHOD, format!("no method `{method}` on `{ty}` is supported in kernels"))
                    .at(method_span, "unknown method")
                    .note("supported: sqrt, exp, exp2, ln, log2, log10, sin, cos, tan, tanh, floor, ceil, round, trunc, abs, powf, powi, atan2, hypot, copysign, min, max, clamp, mul_add, recip, is_nan, is_finite, is_infinite, to_bits on floats; min, max, abs, clamp, pow, wrapping_*, saturating_add/sub, count_ones, leading_zeros, trailing_zeros, rotate_left/right, is_power_of_two on integers"),
            ))
        };
        if let Some(f) = MathFn::from_name(method) {
            use MathFn::*;
            let arity = match f {
                Powf | Hypot | Atan2 | Copysign | Min | Max | SaturatingAdd | SaturatingSub | RotateLeft | RotateRight => 1,
                MulAdd => 2,
                _ => 0,
            };
            if n == arity && !matches!(f, FromBits) {
                let result = match f {
                    ToBits => match ty {
                        Type::Float(FloatTy::F32) => Type::U32,
                        Type::Float(FloatTy::F64) => Type::Int(IntTy::U64),
                        _ => return unknown(self),
                    },
                    // `i32::abs` wraps at `MIN` in a release build: that is `wrapping_abs`.
                    Abs if ty.is_int() => return self.int_abs(&x, span),
                    // The bit counts give `u32` whatever the integer type (found by the
                    // kernel generator: they were refused on everything but `u32`).
                    CountOnes | LeadingZeros | TrailingZeros => Type::U32,
                    _ => ty.clone(),
                };
                let operand_tys: Vec<&Type> = std::iter::once(&x).chain(&args).map(|v| &v.ty).collect();
                if f.result_type(&operand_tys, &result) == Some(result.clone()) {
                    let all: Vec<&Val> = std::iter::once(&x).chain(&args).collect();
                    return Ok(self.math(f, &all, result, span));
                }
            }
            return unknown(self);
        }
        match (method, n) {
            ("recip", 0) if ty.is_float() => {
                let one = self.float_val(1.0, &ty, span);
                Ok(self.bin(BinOp::Div, &one, &x, span))
            }
            ("is_nan", 0) if ty.is_float() => Ok(self.cmp(CmpOp::Ne, &x, &x, span)),
            ("is_finite" | "is_infinite", 0) if ty.is_float() => {
                let a = self.math(MathFn::Abs, &[&x], ty.clone(), span);
                let inf = self.float_val(f64::INFINITY, &ty, span);
                let op = if method == "is_finite" { CmpOp::Lt } else { CmpOp::Eq };
                Ok(self.cmp(op, &a, &inf, span))
            }
            ("powi", 1) if ty.is_float() => Ok(self.powi(&x, &args[0], span)),
            ("pow", 1) if ty.is_int() => Ok(self.int_pow(&x, &args[0], span)),
            ("clamp", 2) if ty.is_numeric() => self.clamp(&x, &args[0], &args[1], span),
            ("wrapping_add" | "wrapping_sub" | "wrapping_mul", 1) if ty.is_int() => {
                let op = match method {
                    "wrapping_add" => BinOp::Add,
                    "wrapping_sub" => BinOp::Sub,
                    _ => BinOp::Mul,
                };
                Ok(self.bin(op, &x, &args[0], span))
            }
            ("wrapping_neg", 0) if ty.is_int() => {
                let zero = self.int_const(0, &ty, span);
                Ok(self.bin(BinOp::Sub, &zero, &x, span))
            }
            ("is_power_of_two", 0) if matches!(ty, Type::Int(t) if !t.is_signed()) => {
                let c = self.math(MathFn::CountOnes, &[&x], Type::U32, span);
                let one = self.int_const(1, &Type::U32, span);
                Ok(self.cmp(CmpOp::Eq, &c, &one, span))
            }
            _ => unknown(self),
        }
    }

    fn int_abs(&mut self, x: &Val, span: Span) -> Lowered<Val> {
        if matches!(x.ty, Type::Int(t) if t.is_signed()) {
            return Ok(self.math(MathFn::WrappingAbs, &[x], x.ty.clone(), span));
        }
        Err(self.error(
            Diagnostic::new(RK_UNKNOWN_METHOD, format!("no method `abs` on `{}`", x.ty))
                .at(span, "unsigned integers have no `abs`"),
        ))
    }

    /// `f.powi(n)` exactly as compiler-rt's `__powisf2` computes it (which is what rustc's
    /// `powi` calls on the host): square-and-multiply, then a reciprocal for negative `n`.
    fn powi(&mut self, x: &Val, n: &Val, span: Span) -> Val {
        let ty = x.ty.clone();
        let i32t = Type::Int(IntTy::I32);
        let a = self.slot_of(x, span);
        let b = self.slot_of(n, span);
        let one = self.float_val(1.0, &ty, span);
        let r = self.slot_of(&one, span);
        let zero = self.int_const(0, &i32t, span);
        let recip = self.cmp(CmpOp::Lt, n, &zero, span);
        let ctx = LoopCtx { label: None, takes_value: false, break_ty: None, expected: None };
        let (region, _, _) = self.loop_region(ctx, |me| {
            let bv = me.read(b, &i32t, span);
            me.multiply_if_odd(&bv, r, a, &ty, span);
            let zero_i = me.int_const(0, &i32t, span);
            let two = me.int_const(2, &i32t, span);
            let half = me.bin(BinOp::Div, &bv, &two, span);
            me.write(&half, b, span);
            let done = me.cmp(CmpOp::Eq, &half, &zero_i, span);
            let go = me.emit1(OpKind::Not, &[id(&done)], Type::Bool, span);
            me.exit_unless(id(&go), span);
            let av = me.read(a, &ty, span);
            let sq = me.bin(BinOp::Mul, &av, &av, span);
            me.write(&sq, a, span);
            Ok(())
        });
        self.push_loop(region, None, span);
        let rv = self.read(r, &ty, span);
        let one = self.float_val(1.0, &ty, span);
        let inv = self.bin(BinOp::Div, &one, &rv, span);
        // `recip ? 1/r : r`, as a value-yielding `rk.if`.
        let mut then = Region::default();
        let mut els = Region::default();
        let loc = Loc { line: span.line(), col: span.col() };
        then.ops.push(Op { kind: OpKind::Yield, operands: vec![id(&inv)], results: vec![], regions: vec![], loc });
        els.ops.push(Op { kind: OpKind::Yield, operands: vec![id(&rv)], results: vec![], regions: vec![], loc });
        let result = self.func.new_value(ty.clone());
        self.push_if(id(&recip), vec![then, els], vec![result], span);
        Val { id: Some(result), ty }
    }

    /// The step both square-and-multiply loops share: `if exp & 1 != 0 { acc *= base }`.
    fn multiply_if_odd(&mut self, exp: &Val, acc: ValueId, base: ValueId, ty: &Type, span: Span) {
        let one = self.int_const(1, &exp.ty, span);
        let low = self.bin(BinOp::And, exp, &one, span);
        let zero = self.int_const(0, &exp.ty, span);
        let odd = self.cmp(CmpOp::Ne, &low, &zero, span);
        self.when(&odd, span, |me| {
            let a = me.read(acc, ty, span);
            let b = me.read(base, ty, span);
            let p = me.bin(BinOp::Mul, &a, &b, span);
            me.write(&p, acc, span);
        });
    }

    /// `i.pow(n)` by square-and-multiply, wrapping as in a release build.
    fn int_pow(&mut self, x: &Val, n: &Val, span: Span) -> Val {
        let ty = x.ty.clone();
        let base = self.slot_of(x, span);
        let exp = self.slot_of(n, span);
        let one = self.int_const(1, &ty, span);
        let acc = self.slot_of(&one, span);
        let ctx = LoopCtx { label: None, takes_value: false, break_ty: None, expected: None };
        let (region, _, _) = self.loop_region(ctx, |me| {
            let e = me.read(exp, &Type::U32, span);
            let zero = me.int_const(0, &Type::U32, span);
            let more = me.cmp(CmpOp::Ne, &e, &zero, span);
            me.exit_unless(id(&more), span);
            me.multiply_if_odd(&e, acc, base, &ty, span);
            let one_u = me.int_const(1, &Type::U32, span);
            let half = me.bin(BinOp::Shr, &e, &one_u, span);
            me.write(&half, exp, span);
            let b = me.read(base, &ty, span);
            let sq = me.bin(BinOp::Mul, &b, &b, span);
            me.write(&sq, base, span);
            Ok(())
        });
        self.push_loop(region, None, span);
        self.read(acc, &ty, span)
    }

    /// `x.clamp(lo, hi)`: Rust asserts `lo <= hi` (floats: and neither is NaN), then takes
    /// `lo` below it, `hi` above it, `x` otherwise (a NaN `x` stays NaN).
    fn clamp(&mut self, x: &Val, lo: &Val, hi: &Val, span: Span) -> Lowered<Val> {
        let ok = self.cmp(CmpOp::Le, lo, hi, span);
        let loc = Loc { line: span.line(), col: span.col() };
        let message = if x.ty.is_float() { "min > max, or either was NaN" } else { "assertion failed: min <= max" };
        self.push_op(OpKind::Assert { message: message.into() }, vec![id(&ok)], vec![], loc);
        let slot = self.slot_of(x, span);
        let below = self.cmp(CmpOp::Lt, x, lo, span);
        self.when(&below, span, |me| me.write(lo, slot, span));
        let cur = self.read(slot, &x.ty, span);
        let above = self.cmp(CmpOp::Gt, &cur, hi, span);
        self.when(&above, span, |me| me.write(hi, slot, span));
        Ok(self.read(slot, &x.ty, span))
    }

    /// `T::CONST` and `T::consts::NAME` for the primitive types.
    fn associated_const(&mut self, p: &syn::Path, span: Span) -> Option<Lowered<Val>> {
        let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        let n = segs.len();
        if n < 2 {
            return None;
        }
        let name = segs[n - 1].as_str();
        let owner = if segs[n - 2] == "consts" && n >= 3 { segs[n - 3].as_str() } else { segs[n - 2].as_str() };
        if let Some(t) = IntTy::from_name(owner) {
            let ty = Type::Int(t);
            let (lo, hi) = t.range();
            return match name {
                "MAX" => Some(Ok(self.int_const(hi, &ty, span))),
                "MIN" => Some(Ok(self.int_const(lo, &ty, span))),
                "BITS" => Some(Ok(self.int_const(i128::from(t.bits()), &Type::U32, span))),
                _ => None,
            };
        }
        let (ty, is64) = match owner {
            "f32" => (Type::Float(FloatTy::F32), false),
            "f64" => (Type::Float(FloatTy::F64), true),
            _ => return None,
        };
        use std::f64::consts as c;
        let v = match name {
            "MAX" => if is64 { f64::MAX } else { f64::from(f32::MAX) },
            "MIN" => if is64 { f64::MIN } else { f64::from(f32::MIN) },
            "MIN_POSITIVE" => if is64 { f64::MIN_POSITIVE } else { f64::from(f32::MIN_POSITIVE) },
            "EPSILON" => if is64 { f64::EPSILON } else { f64::from(f32::EPSILON) },
            "INFINITY" => f64::INFINITY,
            "NEG_INFINITY" => f64::NEG_INFINITY,
            "NAN" => f64::NAN,
            "PI" => c::PI,
            "TAU" => c::TAU,
            "E" => c::E,
            "SQRT_2" => c::SQRT_2,
            "LN_2" => c::LN_2,
            "LN_10" => c::LN_10,
            "LOG2_E" => c::LOG2_E,
            "LOG10_E" => c::LOG10_E,
            "FRAC_PI_2" => c::FRAC_PI_2,
            "FRAC_PI_4" => c::FRAC_PI_4,
            "FRAC_1_PI" => c::FRAC_1_PI,
            "FRAC_1_SQRT_2" => c::FRAC_1_SQRT_2,
            _ => return None,
        };
        Some(Ok(self.float_val(v, &ty, span)))
    }

    /// `T::method(x, ...)` for a primitive `T`, `T::from_bits(u)`, `size_of::<T>()`,
    /// `core::mem::swap(&mut a, &mut b)`.
    fn path_call(&mut self, c: &syn::ExprCall, p: &syn::ExprPath, span: Span) -> Option<Lowered<Val>> {
        let segs: Vec<String> = p.path.segments.iter().map(|s| s.ident.to_string()).collect();
        let name = segs.last()?.as_str();
        let owner = segs.len().checked_sub(2).map(|k| segs[k].as_str());
        if name == "size_of" && c.args.is_empty() {
            let ty = match p.path.segments.last().map(|s| &s.arguments) {
                Some(syn::PathArguments::AngleBracketed(a)) => match a.args.first() {
                    Some(syn::GenericArgument::Type(t)) => t.clone(),
                    _ => return None,
                },
                _ => return None,
            };
            return Some(self.lower_type(&ty).map(|t| {
                let size = t.size_of();
                self.int_const(i128::from(size), &Type::USIZE, span)
            }));
        }
        if name == "swap" && c.args.len() == 2 && matches!(owner, Some("mem") | None) && self.prog.function("swap").is_none() {
            return Some(self.swap(&c.args[0], &c.args[1], span));
        }
        let owner_ty = match owner? {
            "f32" => Type::Float(FloatTy::F32),
            "f64" => Type::Float(FloatTy::F64),
            other => Type::Int(IntTy::from_name(other)?),
        };
        if name == "from_bits" && c.args.len() == 1 && owner_ty.is_float() {
            let bits_ty = if owner_ty == Type::Float(FloatTy::F32) { Type::U32 } else { Type::Int(IntTy::U64) };
            return Some((|| {
                let v = self.expr(&c.args[0], Some(&bits_ty))?;
                if v.ty != bits_ty {
                    return Err(self.mismatch(&bits_ty, &v.ty, span_of(&c.args[0])));
                }
                Ok(self.math(MathFn::FromBits, &[&v], owner_ty.clone(), span))
            })());
        }
        // UFCS: `f32::sqrt(x)` is `x.sqrt()` with `x: f32`.
        let (first, rest) = c.args.iter().collect::<Vec<_>>().split_first().map(|(a, b)| (*a, b.to_vec()))?;
        Some((|| {
            let x = self.expr(first, Some(&owner_ty))?;
            if x.ty != owner_ty {
                return Err(self.mismatch(&owner_ty, &x.ty, span_of(first)));
            }
            self.primitive_method(name, x, &rest, span, span_of(&p.path))
        })())
    }

    /// `core::mem::swap(&mut a, &mut b)` on two places of one scalar type.
    fn swap(&mut self, a: &syn::Expr, b: &syn::Expr, span: Span) -> Lowered<Val> {
        let inner = |e: &syn::Expr| match e {
            syn::Expr::Reference(r) if r.mutability.is_some() => Some((*r.expr).clone()),
            _ => None,
        };
        let (Some(ea), Some(eb)) = (inner(a), inner(b)) else {
            return Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, "`swap` takes two `&mut` places")
                    .at(span, "write `core::mem::swap(&mut a, &mut b)`"),
            ));
        };
        let pa = self.place(&ea)?;
        let pb = self.place(&eb)?;
        let va = self.load(pa, span)?;
        let vb = self.load(pb, span)?;
        if va.ty != vb.ty {
            return Err(self.mismatch(&va.ty, &vb.ty, span_of(b)));
        }
        for (place, v) in [(pa, &vb), (pb, &va)] {
            match place {
                Place::Ptr(p) => self.emit(OpKind::Store, &[id(v), p], None, span),
                Place::Slot(s) => self.emit(OpKind::Write, &[id(v), s], None, span),
            };
        }
        Ok(Val::unit())
    }

    /// `assert!(cond)`, `assert!(cond, "msg")`, `debug_assert!` (kept: rkc's default build has
    /// checks on, like a debug build's), `panic!("msg")`, `unreachable!()`.
    fn panic_macro(&mut self, mac: &syn::Macro, span: Span) -> Option<Lowered<Val>> {
        let name = mac.path.segments.last()?.ident.to_string();
        let loc = Loc { line: span.line(), col: span.col() };
        let literal_message = |tokens: &proc_macro2::TokenStream| -> Result<Option<String>, ()> {
            if tokens.is_empty() {
                return Ok(None);
            }
            match syn::parse2::<syn::LitStr>(tokens.clone()) {
                Ok(s) => Ok(Some(s.value())),
                Err(_) => Err(()),
            }
        };
        let bad_message = |me: &mut Self| {
            Err(me.error(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, format!("`{name}!` in a kernel takes a literal message"))
                    .at(span, "formatting has no device form")
                    .help(format!("write `{name}!(\"...\")` with a plain string")),
            ))
        };
        match name.as_str() {
            "assert" | "debug_assert" => Some((|| {
                let args = mac
                    .parse_body_with(syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated)
                    .map_err(|_| self.error(Diagnostic::new(RK_SYNTAX, format!("malformed `{name}!`")).at(span, "here")))?;
                let mut it = args.iter();
                let Some(cond) = it.next() else { return bad_message(self) };
                let message = match it.next() {
                    None => format!("assertion failed: {}", snippet(self.prog.source, span_of(cond))),
                    Some(syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. })) if it.next().is_none() => s.value(),
                    Some(_) => return bad_message(self),
                };
                let c = self.expr(cond, Some(&Type::Bool))?;
                if c.ty != Type::Bool {
                    return Err(self.mismatch(&Type::Bool, &c.ty, span_of(cond)));
                }
                self.push_op(OpKind::Assert { message }, vec![id(&c)], vec![], loc);
                Ok(Val::unit())
            })()),
            "panic" | "unreachable" | "todo" | "unimplemented" => Some((|| {
                let message = match literal_message(&mac.tokens) {
                    Ok(Some(m)) if name == "unreachable" => format!("internal error: entered unreachable code: {m}"),
                    Ok(Some(m)) => m,
                    Ok(None) => match name.as_str() {
                        "unreachable" => "internal error: entered unreachable code".into(),
                        "todo" => "not yet implemented".into(),
                        "unimplemented" => "not implemented".into(),
                        _ => "explicit panic".into(),
                    },
                    Err(()) => return bad_message(self),
                };
                let never = self.emit1(OpKind::Const(Literal::Bool(false)), &[], Type::Bool, span);
                self.push_op(OpKind::Assert { message }, vec![id(&never)], vec![], loc);
                Ok(Val::unit())
            })()),
            _ => None,
        }
    }

    /// Lowers a place expression (`*p`, `(*p)[i]`, a `let mut` variable).
    fn place(&mut self, e: &syn::Expr) -> Lowered<Place> {
        let span = span_of(e);
        match e {
            syn::Expr::Paren(p) => self.place(&p.expr),
            syn::Expr::Path(p) if p.path.get_ident().is_none() && self.module_item(p).is_some() => {
                let item = self.module_item(p).map(syn::Expr::Path).ok_or(Reported)?;
                self.place(&item)
            }
            syn::Expr::Path(p) if p.path.get_ident().is_some() => {
                let name = p.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
                match self.lookup(&name).cloned() {
                    Some(Some(Binding::Slot { slot, .. })) => Ok(Place::Slot(slot)),
                    Some(Some(Binding::Memory { ptr, .. })) => Ok(Place::Ptr(ptr)),
                    None if self.aggregate_type(e).is_some() => self.table(&name, span).map(Place::Ptr),
                    Some(Some(Binding::Value(_))) => Err(self.error(
                        Diagnostic::new(RK_ASSIGN_IMMUTABLE, format!("cannot assign twice to immutable variable `{name}`"))
                            .at(span, "cannot assign twice to immutable variable")
                            .help(format!("declare it mutable: `let mut {name}`")),
                    )),
                    Some(None) => Err(Reported),
                    // A constant or a static is no place: `path` says what is wrong with a
                    // static or an unknown name; a constant gets its own error.
                    None => match self.path(p) {
                        Ok(_) => Err(self.error(
                            Diagnostic::new(RK_ASSIGN_IMMUTABLE, format!("cannot assign to the constant `{name}`"))
                                .at(span, "a constant is not a place"),
                        )),
                        Err(r) => Err(r),
                    },
                }
            }
            // `*self` in a method that takes `&self` or `&mut self`: the receiver itself.
            syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Deref(_), expr, .. }) if self.is_receiver(expr) => self.place(expr),
            syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Deref(_), expr, .. }) => {
                let p = self.expr(expr, None)?;
                if p.ty.pointee().is_none() {
                    return Err(self.error(
                        Diagnostic::new(RK_MISMATCHED_TYPES, format!("type `{}` cannot be dereferenced", p.ty))
                            .at(span, "not a pointer"),
                    ));
                }
                self.require_unsafe(span, "dereference of raw pointer")?;
                Ok(Place::Ptr(id(&p)))
            }
            syn::Expr::Index(ix) if matches!(self.value_type(&ix.expr), Some(Type::Slice { .. })) => {
                // `s[i]` on a slice: checked against its length, safe code as in Rust.
                let slice = self.expr(&ix.expr, None)?;
                let Type::Slice { mutable, elem } = slice.ty.clone() else { return Err(Reported) };
                let i = self.expr(&ix.index, Some(&Type::USIZE))?;
                if i.ty != Type::USIZE {
                    return Err(self.error(
                        Diagnostic::new(RK_MISMATCHED_TYPES, format!("the type `[{elem}]` cannot be indexed by `{}`", i.ty))
                            .at(span_of(&ix.index), "slice indices are of type `usize`")
                            .help("convert the index with `as usize`"),
                    ));
                }
                let len = self.emit1(OpKind::SliceLen, &[id(&slice)], Type::USIZE, span);
                self.emit(OpKind::BoundsCheck, &[id(&i), id(&len)], None, span);
                let base = self.emit1(OpKind::SlicePtr, &[id(&slice)], Type::ptr(mutable, (*elem).clone()), span);
                let p = self.emit1(OpKind::PtrOffset, &[id(&base), id(&i)], base.ty.clone(), span);
                Ok(Place::Ptr(id(&p)))
            }
            syn::Expr::Field(f) => {
                let base = self.base_place(&f.base)?;
                let ty = self.place_pointee(Place::Ptr(base)).unwrap_or(Type::Unit);
                let field = match &f.member {
                    syn::Member::Named(i) => i.to_string(),
                    syn::Member::Unnamed(i) => i.index.to_string(),
                };
                let Type::Struct { fields, .. } = &ty else {
                    return Err(self.no_field(&ty, &field, span_of(&f.member)));
                };
                let Some(k) = fields.iter().position(|(n, _)| *n == field) else {
                    return Err(self.no_field(&ty, &field, span_of(&f.member)));
                };
                let mutable = matches!(self.func.ty(base), Some(Type::Ptr { mutable: true, .. }));
                let p = self.emit1(OpKind::FieldPtr { index: k as u32 }, &[base], Type::ptr(mutable, fields[k].1.clone()), span);
                Ok(Place::Ptr(id(&p)))
            }
            syn::Expr::Index(ix) => {
                let base = match self.base_place(&ix.expr).map(Place::Ptr)? {
                    Place::Ptr(p) => p,
                    Place::Slot(_) => {
                        return Err(self.error(
                            Diagnostic::new(RK_MISMATCHED_TYPES, "only arrays behind pointers can be indexed")
                                .at(span_of(&ix.expr), "not an array"),
                        ));
                    }
                };
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
                Ok(Place::Ptr(id(&p)))
            }
            _ => Err(self.error(
                Diagnostic::new(RK_UNSUPPORTED_EXPR, "this expression is not a place rkc can read or write")
                    .at(span, "expected a `let mut` variable, `*pointer` or `(*pointer)[index]`"),
            )),
        }
    }

    /// Whether `e` is `self` bound to an aggregate: a method's receiver, which Rust code may
    /// dereference (`*self`) when the method takes `&self` or `&mut self`.
    fn is_receiver(&self, e: &syn::Expr) -> bool {
        matches!(strip_parens(e), syn::Expr::Path(p) if p.path.is_ident("self"))
            && matches!(self.lookup("self"), Some(Some(Binding::Memory { .. })))
    }

    /// The place of an aggregate whose element or field is accessed: a place expression's
    /// own, or a fresh local holding the value of any other aggregate expression
    /// (`pair().0`, `[a, b][i]`).
    fn base_place(&mut self, e: &syn::Expr) -> Lowered<ValueId> {
        let is_place = matches!(
            strip_parens(e),
            syn::Expr::Path(_) | syn::Expr::Field(_) | syn::Expr::Index(_) | syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Deref(_), .. })
        );
        if !is_place && self.aggregate_type(e).is_some() {
            return Ok(self.aggregate_value(e, None)?.0);
        }
        match self.place(e)? {
            Place::Ptr(p) => Ok(p),
            Place::Slot(slot) => {
                let ty = self.place_pointee(Place::Slot(slot)).unwrap_or(Type::Unit);
                Err(self.error(
                    Diagnostic::new(RK_MISMATCHED_TYPES, format!("a `{ty}` has no fields or elements"))
                        .at(span_of(e), "not an array, struct or tuple"),
                ))
            }
        }
    }

    /// The type a place expression would have, found without emitting anything, so that the
    /// value assigned to it can be inferred first. `None` when it is not a simple place.
    fn place_type(&self, e: &syn::Expr) -> Option<Type> {
        match e {
            syn::Expr::Paren(p) => self.place_type(&p.expr),
            syn::Expr::Path(p) => match self.lookup(&p.path.get_ident()?.to_string()) {
                Some(Some(Binding::Slot { ty, .. } | Binding::Memory { ty, .. })) => Some(ty.clone()),
                Some(_) => None,
                None => self.aggregate_type(e),
            },
            syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Deref(_), expr, .. }) if self.is_receiver(expr) => self.place_type(expr),
            syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Deref(_), expr, .. }) => {
                self.value_type(expr)?.pointee().cloned()
            }
            syn::Expr::Index(ix) => match self.value_type(&ix.expr) {
                Some(Type::Slice { elem, .. }) => Some(*elem),
                _ => match self.place_type(&ix.expr).or_else(|| self.aggregate_type(&ix.expr))? {
                    Type::Array { elem, .. } => Some(*elem),
                    _ => None,
                },
            },
            syn::Expr::Field(f) => match self.place_type(&f.base).or_else(|| self.aggregate_type(&f.base))? {
                Type::Struct { fields, .. } => {
                    let field = match &f.member {
                        syn::Member::Named(i) => i.to_string(),
                        syn::Member::Unnamed(i) => i.index.to_string(),
                    };
                    fields.into_iter().find(|(n, _)| *n == field).map(|(_, t)| t)
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// `module::NAME` (a `const` or `static` of an inline module of the file) as the plain
    /// `NAME` that the file's items are known by; `None` for any other path (`f32::MAX` is
    /// an associated constant).
    fn module_item(&self, p: &syn::ExprPath) -> Option<syn::ExprPath> {
        let segments = &p.path.segments;
        if segments.len() < 2 || p.qself.is_some() || segments.iter().any(|s| !s.arguments.is_empty()) {
            return None;
        }
        let first = segments.first()?.ident.to_string();
        let last = segments.last()?.ident.clone();
        let primitive = ["bool", "f32", "f64"].contains(&first.as_str()) || IntTy::from_name(&first).is_some();
        let known = self.prog.constant(&last.to_string()).is_some() || self.prog.static_item(&last.to_string()).is_some();
        (!primitive && known).then(|| syn::ExprPath { attrs: vec![], qself: None, path: last.into() })
    }

    /// The type of a pointer-valued expression, as far as it can be known without lowering it.
    fn value_type(&self, e: &syn::Expr) -> Option<Type> {
        match e {
            syn::Expr::Paren(p) => self.value_type(&p.expr),
            syn::Expr::Path(p) => match self.lookup(&p.path.get_ident()?.to_string())? {
                Some(Binding::Value(v)) => Some(v.ty.clone()),
                Some(Binding::Slot { ty, .. }) => Some(ty.clone()),
                Some(Binding::Memory { .. }) | None => None,
            },
            syn::Expr::MethodCall(m) if m.method == "add" || m.method == "offset" => self.value_type(&m.receiver),
            _ => None,
        }
    }

    fn load(&mut self, place: Place, span: Span) -> Lowered<Val> {
        let ty = self.place_pointee(place).unwrap_or(Type::Unit);
        match place {
            Place::Slot(slot) => Ok(self.emit1(OpKind::Read, &[slot], ty, span)),
            Place::Ptr(p) => {
                if !ty.is_scalar() {
                    return Err(self.error(
                        Diagnostic::new(RK_UNSUPPORTED_EXPR, format!("a whole `{ty}` cannot be read into a value yet"))
                            .at(span, "read its elements one by one"),
                    ));
                }
                Ok(self.emit1(OpKind::Load, &[p], ty, span))
            }
        }
    }

    /// `place = value` and `place op= value`. As in Rust for primitive operands, the value is
    /// evaluated before the place, so a failing bounds check in the place comes second.
    fn assign(&mut self, left: &syn::Expr, right: &syn::Expr, op: Option<BinOp>, span: Span) -> Lowered<Val> {
        if let Some(why) = self.immutable_root(left) {
            return Err(self.error(
                Diagnostic::new(RK_ASSIGN_IMMUTABLE, format!("cannot assign to `{}`, {why}", snippet(self.prog.source, span_of(left))))
                    .at(span_of(left), "cannot assign")
                    .help("only a `let mut` array can be written"),
            ));
        }
        let expected = self.place_type(left);
        if let (Some(t), None) = (&expected, op)
            && is_aggregate(t)
        {
            // A whole aggregate: the value is built first (it may read the place), then
            // copied in.
            let (src, ty) = self.aggregate_value(right, Some(t))?;
            // A value that diverges (`x = { ...; return; }`) assigns nothing.
            if self.terminated() {
                return Ok(Val::unit());
            }
            let Place::Ptr(dst) = self.place(left)? else { return Err(Reported) };
            if matches!(self.func.ty(dst), Some(Type::Ptr { mutable: false, .. })) {
                return Err(self.error(
                    Diagnostic::new(RK_ASSIGN_THROUGH_CONST, format!("cannot assign to `{}`, which is behind a `*const` pointer", snippet(self.prog.source, span_of(left))))
                        .at(span_of(left), "cannot assign")
                        .help("declare the pointer `*mut`"),
                ));
            }
            self.copy_value(src, dst, &ty, span);
            return Ok(Val::unit());
        }
        let rhs_expected = match op {
            Some(BinOp::Shl | BinOp::Shr) => None,
            _ => expected.as_ref(),
        };
        let r = self.expr(right, rhs_expected)?;
        let place = self.place(left)?;
        let ty = self.place_pointee(place).unwrap_or(Type::Unit);
        if let Place::Ptr(p) = place
            && matches!(self.func.ty(p), Some(Type::Ptr { mutable: false, .. }))
        {
            return Err(self.error(
                Diagnostic::new(RK_ASSIGN_THROUGH_CONST, format!("cannot assign to `{}`, which is behind a `*const` pointer", snippet(self.prog.source, span_of(left))))
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
        match place {
            Place::Ptr(p) => self.emit(OpKind::Store, &[id(&value), p], None, span),
            Place::Slot(slot) => self.emit(OpKind::Write, &[id(&value), slot], None, span),
        };
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

/// The unsigned integer type of the same width.
fn unsigned_of(ty: &Type) -> Type {
    match ty {
        Type::Int(t) => Type::Int(match t.bits() {
            8 => IntTy::U8,
            16 => IntTy::U16,
            32 => IntTy::U32,
            _ if *t == IntTy::Isize || *t == IntTy::Usize => IntTy::Usize,
            _ => IntTy::U64,
        }),
        other => other.clone(),
    }
}

/// Whether a pattern matches every value; `is_const` tells identifiers that name constants
/// (constant patterns) from bindings.
fn pattern_is_irrefutable(p: &syn::Pat, is_const: &dyn Fn(&str) -> bool) -> bool {
    match p {
        syn::Pat::Wild(_) => true,
        syn::Pat::Ident(i) => i.subpat.is_none() && !is_const(&i.ident.to_string()),
        syn::Pat::Paren(p) => pattern_is_irrefutable(&p.pat, is_const),
        syn::Pat::Or(o) => o.cases.iter().any(|c| pattern_is_irrefutable(c, is_const)),
        _ => false,
    }
}

fn pattern_matches_bool(p: &syn::Pat, b: bool, is_const: &dyn Fn(&str) -> bool) -> bool {
    match p {
        syn::Pat::Lit(syn::PatLit { lit: syn::Lit::Bool(l), .. }) => l.value == b,
        syn::Pat::Paren(p) => pattern_matches_bool(&p.pat, b, is_const),
        syn::Pat::Or(o) => o.cases.iter().any(|c| pattern_matches_bool(c, b, is_const)),
        other => pattern_is_irrefutable(other, is_const),
    }
}

/// The name a match arm binds the scrutinee to (`x => ...`), if any.
fn pattern_binding(p: &syn::Pat) -> Option<String> {
    match p {
        syn::Pat::Ident(i) if i.subpat.is_none() => Some(i.ident.to_string()),
        syn::Pat::Paren(p) => pattern_binding(&p.pat),
        _ => None,
    }
}

fn generic_names(generics: &[&syn::GenericParam]) -> Vec<String> {
    generics
        .iter()
        .filter_map(|g| match g {
            syn::GenericParam::Type(t) => Some(t.ident.to_string()),
            syn::GenericParam::Const(k) => Some(k.ident.to_string()),
            syn::GenericParam::Lifetime(_) => None,
        })
        .collect()
}

/// Whether a parameter type mentions a generic parameter that is not bound yet.
fn mentions_generic(ty: &syn::Type, generics: &[&syn::GenericParam], subst: &Subst) -> bool {
    let names = generic_names(generics);
    let unbound = |n: &str| names.iter().any(|g| g == n) && subst.ty(n).is_none() && subst.constant(n).is_none();
    match ty {
        syn::Type::Path(p) => p.path.get_ident().is_some_and(|i| unbound(&i.to_string())),
        syn::Type::Ptr(p) => mentions_generic(&p.elem, generics, subst),
        syn::Type::Paren(p) => mentions_generic(&p.elem, generics, subst),
        syn::Type::Array(a) => {
            mentions_generic(&a.elem, generics, subst)
                || matches!(&a.len, syn::Expr::Path(p) if p.path.get_ident().is_some_and(|i| unbound(&i.to_string())))
        }
        _ => false,
    }
}

/// Binds the generic parameters in `pattern` so that it becomes `actual`, where it can.
fn unify(pattern: &syn::Type, actual: &Type, generics: &[&syn::GenericParam], subst: &mut Subst) {
    let names = generic_names(generics);
    match (pattern, actual) {
        (syn::Type::Path(p), t) => {
            if let Some(i) = p.path.get_ident() {
                let n = i.to_string();
                if names.contains(&n) && subst.ty(&n).is_none() {
                    subst.types.push((n, t.clone()));
                }
            }
        }
        (syn::Type::Paren(p), t) => unify(&p.elem, t, generics, subst),
        (syn::Type::Ptr(p), Type::Ptr { pointee, .. }) => unify(&p.elem, pointee, generics, subst),
        (syn::Type::Array(a), Type::Array { elem, len }) => {
            unify(&a.elem, elem, generics, subst);
            if let syn::Expr::Path(p) = &a.len
                && let Some(i) = p.path.get_ident()
            {
                let n = i.to_string();
                if names.contains(&n) && subst.constant(&n).is_none() {
                    subst.consts.push((n, *len));
                }
            }
        }
        _ => {}
    }
}

/// The elements of a table, in memory order, when `e` gives every one of them as a literal:
/// `ty` is an array (possibly nested) of integers or floats, `e` an array literal or `[x; N]`
/// of such literals (negated ones too). `None` otherwise, or when a literal does not fit its
/// type (the element-by-element path then reports it as rustc does).
fn table_values(e: &syn::Expr, ty: &Type) -> Option<Vec<Literal>> {
    match (strip_parens(e), ty) {
        (syn::Expr::Array(a), Type::Array { elem, len }) if a.elems.len() as u64 == *len => {
            let mut out = Vec::new();
            for x in &a.elems {
                out.extend(table_values(x, elem)?);
            }
            Some(out)
        }
        (syn::Expr::Repeat(r), Type::Array { elem, len }) => {
            let one = table_values(&r.expr, elem)?;
            let n = usize::try_from(*len).ok()?;
            if one.len().checked_mul(n)? > 1 << 20 {
                return None;
            }
            Some(one.iter().cycle().take(one.len() * n).cloned().collect())
        }
        (x, scalar) if scalar.is_numeric() => {
            let (lit, negate) = match x {
                syn::Expr::Lit(l) => (&l.lit, false),
                syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Neg(_), expr, .. }) => match strip_parens(expr) {
                    syn::Expr::Lit(l) => (&l.lit, true),
                    _ => return None,
                },
                _ => return None,
            };
            match (lit, scalar) {
                (syn::Lit::Int(i), Type::Int(t)) if i.suffix().is_empty() || i.suffix() == t.name() => {
                    let v = i.base10_parse::<u128>().ok()? as i128;
                    let v = if negate { -v } else { v };
                    let (lo, hi) = t.range();
                    if v < lo || v > hi {
                        return None;
                    }
                    Some(vec![Literal::Int((v as u64) & mask(t.bits()))])
                }
                (syn::Lit::Float(f), Type::Float(t)) if f.suffix().is_empty() || f.suffix() == t.name() => {
                    let v: f64 = f.base10_parse().ok()?;
                    let v = if negate { -v } else { v };
                    // An `f32` table keeps the `f32` nearest to the literal, as rustc does.
                    Some(vec![Literal::Float(if *t == FloatTy::F32 { f64::from(v as f32) } else { v })])
                }
                // An integer literal is no float (`[1.0, 2]` is an error in Rust).
                _ => None,
            }
        }
        _ => None,
    }
}

/// The element index each sub-pattern of a tuple, tuple-struct or slice pattern of `n`
/// elements takes, around at most one `..`; `None` when the patterns do not fit `n`.
fn positions<'a>(pats: &[&'a syn::Pat], n: usize) -> Option<Vec<(usize, &'a syn::Pat)>> {
    let rest = pats.iter().position(|p| matches!(p, syn::Pat::Rest(_)));
    let (before, after) = match rest {
        Some(r) => (&pats[..r], &pats[r + 1..]),
        None => (pats, &pats[..0]),
    };
    if before.len() + after.len() > n || (rest.is_none() && pats.len() != n) {
        return None;
    }
    Some((0..before.len()).chain(n - after.len()..n).zip(before.iter().chain(after).copied()).collect())
}

/// Whether `op` is arithmetic or bitwise, whose result and operands share one type.
fn is_arithmetic(op: &syn::BinOp) -> bool {
    matches!(
        op,
        syn::BinOp::Add(_)
            | syn::BinOp::Sub(_)
            | syn::BinOp::Mul(_)
            | syn::BinOp::Div(_)
            | syn::BinOp::Rem(_)
            | syn::BinOp::BitAnd(_)
            | syn::BinOp::BitOr(_)
            | syn::BinOp::BitXor(_)
    )
}

/// Whether `e` is `name`, or integer arithmetic whose result has `name`'s type because
/// `name` is one of its operands (a shift's amount is not).
fn arith_mentions(name: &str, e: &syn::Expr) -> bool {
    match strip_parens(e) {
        syn::Expr::Path(p) => p.path.is_ident(name),
        syn::Expr::Binary(b) => match b.op {
            op if is_arithmetic(&op) => arith_mentions(name, &b.left) || arith_mentions(name, &b.right),
            syn::BinOp::Shl(_) | syn::BinOp::Shr(_) => arith_mentions(name, &b.left),
            _ => false,
        },
        syn::Expr::Unary(u) if !matches!(u.op, syn::UnOp::Deref(_)) => arith_mentions(name, &u.expr),
        _ => false,
    }
}

/// Whether `e` is a number whose type only its uses can decide: an unsuffixed literal, or
/// an `if` chain or block whose every value is one. `Some(true)` for a float.
fn untyped_kind(e: &syn::Expr) -> Option<bool> {
    let tail = |b: &syn::Block| match b.stmts.last() {
        Some(syn::Stmt::Expr(e, None)) => untyped_kind(e),
        _ => None,
    };
    match strip_parens(e) {
        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) if i.suffix().is_empty() => Some(false),
        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Float(f), .. }) if f.suffix().is_empty() => Some(true),
        syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Neg(_), expr, .. }) => untyped_kind(expr),
        syn::Expr::Block(b) => tail(&b.block),
        syn::Expr::If(i) => {
            let then = tail(&i.then_branch)?;
            let els = untyped_kind(&i.else_branch.as_ref()?.1)?;
            (then == els).then_some(then)
        }
        _ => None,
    }
}

/// Whether an expression is an integer literal without a suffix (possibly negated or in
/// parentheses): its type is open to inference.
fn is_unsuffixed_int(e: &syn::Expr) -> bool {
    match strip_parens(e) {
        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) => i.suffix().is_empty(),
        syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Neg(_), expr, .. }) => is_unsuffixed_int(expr),
        _ => false,
    }
}
