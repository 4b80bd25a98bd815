//! Lowering: a checked body instance to an rk function. Every type is known (the checker's
//! results, substituted); this stage never guesses one. Values are rk scalars, slice pairs or
//! memory (see [`layout`]); places are memory, `let mut` slots or SSA bindings.
//!
//! Locals: a scalar or slice `let` is an SSA value, a scalar `let mut` a slot (`rk.var`), and
//! aggregates, and any local whose address is taken (`&x`, `&mut x`, a closure capturing it by
//! reference, a `ref` binding into it), live in `rk.local` memory.

mod call;
mod expr;
mod kernel;
pub mod layout;
pub mod mono;
mod pattern;
mod place;

pub use mono::Mono;

/// The most memory one thread's local may take: more does not fit the GPU's per-thread stack
/// in any useful launch.
const MAX_LOCAL_BYTES: u64 = 64 * 1024;

use crate::codes::*;
use crate::diag::{Diagnostic, Span};
use crate::hir::{Body, ExprId, ExprKind, LocalId, PatKind};
use crate::items::FileId;
use crate::ty::{Ty, TyKind};
use crate::typeck::{Adjust, Tcx, TypeckResults, ValueRes};
use layout::Repr;
use rkc_rk::{BinOp, CmpOp, FloatTy, Func, IntTy, Literal, Loc, Op, OpKind, Region, Type, ValueId};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// A value during lowering.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    Zst,
    Scalar(ValueId),
    /// A slice: pointer to the first element, length.
    Fat(ValueId, ValueId),
    /// A value in memory (an aggregate): the pointer to it.
    Mem(ValueId),
    /// A string known at compile time.
    Str(String),
    /// A value that is never produced (the expression diverged).
    Never,
}

/// Where a value lives.
#[derive(Clone, Debug)]
pub enum Place {
    /// Memory of the place's type.
    Mem(ValueId),
    /// An unsized slice place (`*s`, `a[1..3]`): its elements' address and count.
    Slice(ValueId, ValueId),
    /// A `let mut` scalar.
    Slot(ValueId),
    /// An immutable SSA binding (or a temporary).
    Value(Operand),
}

/// How a local is stored.
#[derive(Clone, Debug)]
enum LocalStore {
    Value(Operand),
    Slot(ValueId),
    Mem(ValueId),
    /// A captured local of a closure body reached through the environment: memory.
    Captured(ValueId),
}

/// A loop or labelled block being lowered.
#[derive(Clone, Debug)]
struct LoopFrame {
    expr: ExprId,
    /// Where `break` values go, when the loop has a value.
    result: Option<(Place, Ty)>,
}

/// Lowers one instance's body into `func`.
pub(crate) struct FnLowerer<'m, 'c, 't, 'a> {
    pub mono: &'m mut Mono<'c, 't, 'a>,
    pub tcx: &'c Tcx<'t, 'a>,
    pub body: Rc<Body<'a>>,
    pub r: Rc<TypeckResults>,
    pub func: Func,
    regions: Vec<Region>,
    /// Ops pushed after a terminator go nowhere: that code cannot run.
    dead: Vec<bool>,
    locals: HashMap<LocalId, LocalStore>,
    loops: Vec<LoopFrame>,
    /// Where the function's result goes when it is returned through memory.
    ret_place: Option<ValueId>,
    /// The return place, until a temporary of its type takes it (see `temp`).
    pub ret_hint: Option<ValueId>,
    pub ret_ty: Ty,
    /// The closure whose body this is: its environment pointer (`None` when it captures
    /// nothing), its identity and data.
    pub closure: Option<(Option<ValueId>, crate::ty::ClosureId, crate::typeck::ClosureData)>,
    /// The expression whose body is lowered (the function's, or a closure's).
    pub file: FileId,
    /// Locals whose address is taken, which live in memory.
    addressed: HashSet<LocalId>,
    /// The read-only tables this function reads, made at its entry.
    tables: HashMap<crate::items::DefId, ValueId>,
    /// Memory holding a temporary value that nothing else refers to (a struct literal, a
    /// call's result): its consumer may take it instead of copying it.
    pub fresh: HashSet<ValueId>,
    /// Memory that nothing writes while this function runs: the storage of immutable locals
    /// whose address is not taken, and read-only parameters. A read-only parameter of a callee
    /// may be given it without a copy.
    pub stable: HashSet<ValueId>,
    pub failed: bool,
    /// The function is `#[track_caller]`: its ops take the location of the call they are
    /// inlined at (see `loc`).
    pub caller_located: bool,
}

impl<'m, 'c, 't, 'a> FnLowerer<'m, 'c, 't, 'a> {
    pub fn new(
        mono: &'m mut Mono<'c, 't, 'a>,
        body: Rc<Body<'a>>,
        r: Rc<TypeckResults>,
        func: Func,
    ) -> Self {
        let tcx = mono.tcx;
        let file = body.file;
        let mut l = FnLowerer {
            mono,
            tcx,
            body,
            r,
            func,
            regions: vec![Region::default()],
            dead: vec![false],
            locals: HashMap::new(),
            loops: Vec::new(),
            ret_place: None,
            ret_hint: None,
            ret_ty: Ty::unit(),
            closure: None,
            file,
            addressed: HashSet::new(),
            tables: HashMap::new(),
            fresh: HashSet::new(),
            stable: HashSet::new(),
            failed: false,
            caller_located: false,
        };
        l.addressed = l.find_addressed();
        l
    }

    // ----- diagnostics -----

    pub fn error(&mut self, d: Diagnostic) {
        self.failed = true;
        self.tcx.report(self.file, d);
    }

    pub fn unsupported(&mut self, span: Span, what: String, label: &str) {
        self.error(Diagnostic::new(RK_UNSUPPORTED_EXPR, what).at(span, label.to_string()));
    }

    // ----- emission -----

    pub fn loc(&self, span: Span) -> Loc {
        // Code of the core and of derived impls takes the location of the user's code that
        // calls it when it is inlined (see `rkc_rk::passes::inline`).
        if self.file.is_user() && !self.caller_located {
            Loc { line: span.line(), col: span.col() }
        } else {
            Loc::default()
        }
    }

    pub fn terminated(&self) -> bool {
        self.dead.last().copied().unwrap_or(false)
    }

    fn push_op(
        &mut self,
        kind: OpKind,
        operands: Vec<ValueId>,
        results: Vec<ValueId>,
        regions: Vec<Region>,
        loc: Loc,
    ) {
        if self.terminated() {
            return;
        }
        let term = kind.is_terminator();
        if let Some(r) = self.regions.last_mut() {
            r.ops.push(Op { kind, operands, results, regions, loc });
        }
        if term && let Some(d) = self.dead.last_mut() {
            *d = true;
        }
    }

    pub fn new_value(&mut self, ty: Type) -> ValueId {
        self.func.new_value(ty)
    }

    /// Emits an op with one result.
    pub fn op1(&mut self, kind: OpKind, operands: &[ValueId], ty: Type, span: Span) -> ValueId {
        let v = self.new_value(ty);
        let loc = self.loc(span);
        self.push_op(kind, operands.to_vec(), vec![v], Vec::new(), loc);
        v
    }

    /// Emits an op with no result.
    pub fn op0(&mut self, kind: OpKind, operands: &[ValueId], span: Span) {
        let loc = self.loc(span);
        self.push_op(kind, operands.to_vec(), Vec::new(), Vec::new(), loc);
    }

    pub fn ty_of(&self, v: ValueId) -> Type {
        self.func.ty(v).cloned().unwrap_or(Type::Unit)
    }

    pub fn const_int(&mut self, v: i128, t: IntTy, span: Span) -> ValueId {
        let bits = (v as u128) & mask(t.bits());
        self.op1(OpKind::Const(Literal::Int(bits)), &[], Type::Int(t), span)
    }

    pub fn const_usize(&mut self, v: u64, span: Span) -> ValueId {
        self.const_int(i128::from(v), IntTy::Usize, span)
    }

    pub fn const_bool(&mut self, b: bool, span: Span) -> ValueId {
        self.op1(OpKind::Const(Literal::Bool(b)), &[], Type::Bool, span)
    }

    pub fn const_float(&mut self, x: f64, t: FloatTy, span: Span) -> ValueId {
        // The nearest value of the type, as rustc rounds a literal.
        let x = if x.is_nan() { x } else { t.value_of(t.bits_of(x)) };
        self.op1(OpKind::Const(Literal::Float(x)), &[], Type::Float(t), span)
    }

    /// A value of an rk scalar type for code that cannot run (after a panic).
    pub fn dummy(&mut self, t: &Type, span: Span) -> ValueId {
        match t {
            Type::Bool => self.const_bool(false, span),
            Type::Int(i) => self.const_int(0, *i, span),
            Type::Float(f) => self.const_float(0.0, *f, span),
            other => {
                // A pointer: an address no code reads.
                let z = self.const_usize(0, span);
                self.op1(OpKind::Cast, &[z], other.clone(), span)
            }
        }
    }

    pub fn bin(&mut self, op: BinOp, a: ValueId, b: ValueId, span: Span) -> ValueId {
        let t = self.ty_of(a);
        self.op1(OpKind::Binary(op), &[a, b], t, span)
    }

    pub fn cmp(&mut self, op: CmpOp, a: ValueId, b: ValueId, span: Span) -> ValueId {
        self.op1(OpKind::Cmp(op), &[a, b], Type::Bool, span)
    }

    pub fn not(&mut self, a: ValueId, span: Span) -> ValueId {
        let t = self.ty_of(a);
        self.op1(OpKind::Not, &[a], t, span)
    }

    pub fn cast(&mut self, v: ValueId, to: Type, span: Span) -> ValueId {
        if self.ty_of(v) == to {
            return v;
        }
        self.op1(OpKind::Cast, &[v], to, span)
    }

    pub fn load(&mut self, ptr: ValueId, span: Span) -> ValueId {
        let t = self.ty_of(ptr).pointee().cloned().unwrap_or(Type::Unit);
        self.op1(OpKind::Load, &[ptr], t, span)
    }

    pub fn store(&mut self, v: ValueId, ptr: ValueId, span: Span) {
        self.op0(OpKind::Store, &[v, ptr], span);
    }

    pub fn field_ptr(&mut self, ptr: ValueId, index: u32, span: Span) -> ValueId {
        let (m, t) = match self.ty_of(ptr) {
            Type::Ptr { mutable, pointee } => (mutable, *pointee),
            _ => (true, Type::Unit),
        };
        let ft = match &t {
            Type::Struct { fields, .. } => {
                fields.get(index as usize).map(|(_, f)| f.clone()).unwrap_or(Type::Unit)
            }
            _ => Type::Unit,
        };
        self.op1(OpKind::FieldPtr { index }, &[ptr], Type::ptr(m, ft), span)
    }

    pub fn elem_ptr(&mut self, ptr: ValueId, index: ValueId, span: Span) -> ValueId {
        let (m, t) = match self.ty_of(ptr) {
            Type::Ptr { mutable, pointee } => (mutable, *pointee),
            _ => (true, Type::Unit),
        };
        let et = match &t {
            Type::Array { elem, .. } => (**elem).clone(),
            _ => Type::Unit,
        };
        self.op1(OpKind::ElemPtr, &[ptr, index], Type::ptr(m, et), span)
    }

    pub fn ptr_offset(&mut self, ptr: ValueId, index: ValueId, span: Span) -> ValueId {
        let t = self.ty_of(ptr);
        self.op1(OpKind::PtrOffset, &[ptr, index], t, span)
    }

    /// Fresh per-thread memory of an rk type.
    pub fn local(&mut self, t: Type, span: Span) -> ValueId {
        let size = t.size_of();
        if size > MAX_LOCAL_BYTES {
            self.error(
                Diagnostic::new(RK_UNSUPPORTED_TYPE, format!("the local `{t}` is too large ({size} bytes)"))
                    .at(span, "each thread would hold its own copy")
                    .help("locals hold at most 64 KiB; pass large tables to the kernel as a `*const` argument or use a shared array"),
            );
        }
        self.op1(OpKind::Local, &[], Type::ptr(true, t), span)
    }

    /// Fresh memory for a temporary value (see `fresh`). The first temporary of the return
    /// type is the return place itself, so a returned literal is built where the caller wants
    /// it: the place is only written by returns, after which nothing of this body runs, so
    /// whatever else lives in it until then is dead by then.
    pub fn temp(&mut self, t: Type, span: Span) -> ValueId {
        if let Some(p) = self.ret_hint
            && self.ty_of(p).pointee() == Some(&t)
        {
            self.ret_hint = None;
            self.fresh.insert(p);
            return p;
        }
        let m = self.local(t, span);
        self.fresh.insert(m);
        m
    }

    pub fn is_fresh(&self, v: ValueId) -> bool {
        self.fresh.contains(&v)
    }

    /// A `let mut` slot holding `v`.
    pub fn slot_with(&mut self, v: ValueId, span: Span) -> ValueId {
        let t = self.ty_of(v);
        let s = self.op1(OpKind::Var, &[], Type::slot(t), span);
        self.op0(OpKind::Write, &[v, s], span);
        s
    }

    pub fn read_slot(&mut self, s: ValueId, span: Span) -> ValueId {
        let t = match self.ty_of(s) {
            Type::Slot(t) => *t,
            other => other,
        };
        self.op1(OpKind::Read, &[s], t, span)
    }

    pub fn write_slot(&mut self, v: ValueId, s: ValueId, span: Span) {
        self.op0(OpKind::Write, &[v, s], span);
    }

    /// Runs `f` into a new region and returns it.
    pub fn region(&mut self, f: impl FnOnce(&mut Self)) -> Region {
        self.regions.push(Region::default());
        self.dead.push(false);
        f(self);
        self.dead.pop();
        self.regions.pop().unwrap_or_default()
    }

    /// `rk.if cond { then } else { els }` without results.
    pub fn if_then_else(
        &mut self,
        cond: ValueId,
        span: Span,
        then: impl FnOnce(&mut Self),
        els: impl FnOnce(&mut Self),
    ) {
        let t = self.region(then);
        let e = self.region(els);
        let loc = self.loc(span);
        self.push_op(OpKind::If, vec![cond], Vec::new(), vec![t, e], loc);
    }

    /// `rk.if` whose arms yield values of the given types.
    pub fn if_yield(
        &mut self,
        cond: ValueId,
        tys: &[Type],
        span: Span,
        then: impl FnOnce(&mut Self) -> Vec<ValueId>,
        els: impl FnOnce(&mut Self) -> Vec<ValueId>,
    ) -> Vec<ValueId> {
        let loc = self.loc(span);
        let arm = |me: &mut Self, f: &mut dyn FnMut(&mut Self) -> Vec<ValueId>| {
            me.region(|me| {
                let vs = f(me);
                if !me.terminated() {
                    let vs: Vec<ValueId> = if vs.len() == tys.len() {
                        vs
                    } else {
                        tys.iter().map(|t| me.dummy(t, span)).collect()
                    };
                    me.push_op(OpKind::Yield, vs, Vec::new(), Vec::new(), loc);
                }
            })
        };
        let mut then = Some(then);
        let mut els = Some(els);
        let t = arm(self, &mut |me| then.take().map(|f| f(me)).unwrap_or_default());
        let e = arm(self, &mut |me| els.take().map(|f| f(me)).unwrap_or_default());
        let results: Vec<ValueId> = tys.iter().map(|t| self.new_value(t.clone())).collect();
        self.push_op(OpKind::If, vec![cond], results.clone(), vec![t, e], loc);
        results
    }

    /// `rk.loop { body }` without results.
    pub fn push_loop(&mut self, body: Region, span: Span) {
        let loc = self.loc(span);
        self.push_op(
            OpKind::Loop { hint: rkc_rk::LoopHint::Plain },
            Vec::new(),
            Vec::new(),
            vec![body],
            loc,
        );
    }

    /// Leaves the loop that `target` is, `depth` counting the loops inside it.
    pub fn break_to(&mut self, target: ExprId, span: Span) {
        let Some(k) = self.loops.iter().rposition(|f| f.expr == target) else { return };
        let depth = (self.loops.len() - 1 - k) as u32;
        self.op0(OpKind::Break { depth }, &[], span);
    }

    pub fn continue_to(&mut self, target: ExprId, span: Span) {
        let Some(k) = self.loops.iter().rposition(|f| f.expr == target) else { return };
        let depth = (self.loops.len() - 1 - k) as u32;
        self.op0(OpKind::Continue { depth }, &[], span);
    }

    /// `if !cond { break }` at the start of a loop body.
    pub fn exit_unless(&mut self, cond: ValueId, span: Span) {
        let go = self.not(cond, span);
        self.if_then_else(go, span, |me| me.op0(OpKind::Break { depth: 0 }, &[], span), |_| {});
    }

    // ----- types -----

    /// Reports a type without a layout, unless an earlier error left it unknown.
    pub fn layout_error(&mut self, e: layout::LayoutError, span: Span, label: String) {
        if e.is_from_error() && self.tcx.has_errors()
            || !self.mono.reported_layouts.insert(e.0.clone())
        {
            return;
        }
        self.error(
            Diagnostic::new(RK_UNSUPPORTED_TYPE, format!("{} cannot be used in kernels", e.0))
                .at(span, label),
        );
    }

    pub fn repr(&mut self, ty: &Ty, span: Span) -> Repr {
        match self.mono.layouts.repr(self.tcx, ty) {
            Ok(r) => r,
            Err(e) => {
                let label = format!("this has type `{}`", self.tcx.show(ty));
                self.layout_error(e, span, label);
                Repr::Zst
            }
        }
    }

    /// `size_of` and `align_of` of `ty` as rkc lays it out (0 and 1 for zero-sized types; a
    /// type without a layout is reported).
    pub fn size_and_align(&mut self, ty: &Ty, span: Span) -> (u64, u64) {
        match self.mono.layouts.mem_type(self.tcx, ty) {
            Ok(Some(rt)) => (rt.size_of(), rt.align_of()),
            Ok(None) => (0, 1),
            Err(_) => {
                let _ = self.repr(ty, span);
                (0, 1)
            }
        }
    }

    /// The rk type of a value of `ty` in memory (`u8` for zero-sized types).
    pub fn mem_type(&mut self, ty: &Ty, span: Span) -> Type {
        match self.mono.layouts.mem_type(self.tcx, ty) {
            Ok(Some(t)) => t,
            Ok(None) => Type::Int(IntTy::U8),
            Err(e) => {
                let label = format!("this has type `{}`", self.tcx.show(ty));
                self.layout_error(e, span, label);
                Type::Int(IntTy::U8)
            }
        }
    }

    pub fn expr_ty(&self, e: ExprId) -> Ty {
        self.r.ty(e).clone()
    }

    pub fn adjusted_ty(&self, e: ExprId) -> Ty {
        self.r.adjusted(e, self.tcx)
    }

    pub fn span(&self, e: ExprId) -> Span {
        self.body.expr(e).span
    }

    // ----- locals -----

    /// Which locals need memory: those whose address the body takes.
    pub(super) fn find_addressed(&self) -> HashSet<LocalId> {
        let mut out = HashSet::new();
        let body = self.body.clone();
        for (k, e) in body.exprs.iter().enumerate() {
            let id = ExprId(k as u32);
            // `Deref::deref(&x)`, written `*x` or implicit, borrows `x`.
            let overloaded = matches!(
                self.r.adjust.get(&id).and_then(|a| a.first()),
                Some(Adjust::Overloaded { .. })
            );
            if overloaded && let Some(l) = self.place_root_unadjusted(id) {
                out.insert(l);
            }
            if let ExprKind::Unary(crate::hir::UnOp::Deref, inner) = &e.kind
                && self.r.callees.contains_key(&id)
                && let Some(l) = self.place_root(*inner)
            {
                out.insert(l);
            }
            match &e.kind {
                ExprKind::Ref(_, inner) | ExprKind::RawRef(_, inner) => {
                    if let Some(l) = self.place_root(*inner) {
                        out.insert(l);
                    }
                }
                ExprKind::Closure { index, is_move: false, .. } => {
                    for l in &body.closures[*index as usize].upvars {
                        out.insert(*l);
                    }
                }
                ExprKind::Match(scrutinee, arms) => {
                    if arms.iter().any(|a| self.binds_by_ref(a.pat))
                        && let Some(l) = self.place_root(*scrutinee)
                    {
                        out.insert(l);
                    }
                }
                ExprKind::Let(pat, scrutinee) => {
                    if self.binds_by_ref(*pat)
                        && let Some(l) = self.place_root(*scrutinee)
                    {
                        out.insert(l);
                    }
                }
                _ => {}
            }
        }
        for stmt_expr in body.exprs.iter() {
            if let ExprKind::Block(b) = &stmt_expr.kind {
                for s in &b.stmts {
                    if let crate::hir::Stmt::Let { pat, init: Some(init), .. } = s
                        && self.binds_by_ref(*pat)
                        && let Some(l) = self.place_root(*init)
                    {
                        out.insert(l);
                    }
                }
            }
        }
        out
    }

    fn binds_by_ref(&self, p: crate::hir::PatId) -> bool {
        if self.r.by_ref.contains_key(&p) {
            return true;
        }
        match &self.body.pat(p).kind {
            PatKind::Binding { sub: Some(s), .. } => self.binds_by_ref(*s),
            PatKind::Tuple { pats, .. } | PatKind::TupleStruct { pats, .. } | PatKind::Or(pats) => {
                pats.iter().any(|q| self.binds_by_ref(*q))
            }
            PatKind::Struct { fields, .. } => fields.iter().any(|(_, q)| self.binds_by_ref(*q)),
            PatKind::Slice { before, rest, after } => {
                before.iter().chain(rest).chain(after).any(|q| self.binds_by_ref(*q))
            }
            _ => false,
        }
    }

    /// The local a place expression is part of (not through a dereference).
    fn place_root(&self, e: ExprId) -> Option<LocalId> {
        let adjusts = self.r.adjust.get(&e);
        if adjusts.is_some_and(|a| a.iter().any(Adjust::is_deref)) {
            return None;
        }
        self.place_root_unadjusted(e)
    }

    /// The local an expression is part of, before its own adjustments.
    fn place_root_unadjusted(&self, e: ExprId) -> Option<LocalId> {
        match &self.body.expr(e).kind {
            ExprKind::Path(_) => match self.r.paths.get(&e) {
                Some(ValueRes::Local(l)) => Some(*l),
                _ => None,
            },
            ExprKind::Field(b, _) => self.place_root(*b),
            ExprKind::Index(b, _) if !self.r.callees.contains_key(&e) => {
                let bt = self.r.ty(*b);
                if matches!(bt.kind(), TyKind::Array(..)) { self.place_root(*b) } else { None }
            }
            _ => None,
        }
    }

    /// Gives a local its storage and initial value.
    pub fn init_local(&mut self, l: LocalId, v: Operand, span: Span) {
        let ty = self.r.local(l).clone();
        let def = self.body.local(l).clone();
        let repr = self.repr(&ty, span);
        let needs_mem = self.addressed.contains(&l);
        let store = match (&repr, &v) {
            (_, Operand::Never) => LocalStore::Value(Operand::Never),
            (Repr::Zst, _) => LocalStore::Value(Operand::Zst),
            (Repr::Str, _) => LocalStore::Value(v),
            (Repr::Scalar(_), Operand::Scalar(x)) if !needs_mem => {
                if def.mutable {
                    LocalStore::Slot(self.slot_with(*x, span))
                } else {
                    LocalStore::Value(v.clone())
                }
            }
            (Repr::Fat { .. }, Operand::Fat(..)) if !needs_mem && !def.mutable => {
                LocalStore::Value(v.clone())
            }
            // A temporary becomes the local; memory that nothing writes while the function runs
            // (`stable`: a read-only parameter, a table, an immutable local) is the local of an
            // immutable binding. Other memory behind a shared reference is copied: the borrow
            // may end and the memory change while the binding lives (`let a = *r; arr[0] = 7;`
            // with `r = &arr` leaves `a` as it was).
            (Repr::Mem(t), Operand::Mem(p))
                if self.fresh.contains(p) && self.ty_of(*p).pointee() == Some(t) =>
            {
                self.fresh.remove(p);
                LocalStore::Mem(*p)
            }
            (Repr::Mem(t), Operand::Mem(p))
                if !def.mutable
                    && !needs_mem
                    && self.stable.contains(p)
                    && matches!(self.ty_of(*p), Type::Ptr { mutable: false, ref pointee } if **pointee == *t) =>
            {
                LocalStore::Mem(*p)
            }
            _ => {
                let t = self.mem_type(&ty, span);
                let p = self.local(t, span);
                self.write_place(&Place::Mem(p), &ty, v, span);
                LocalStore::Mem(p)
            }
        };
        if let LocalStore::Mem(p) = &store
            && !def.mutable
            && !needs_mem
        {
            self.stable.insert(*p);
        }
        self.locals.insert(l, store);
    }

    /// Gives a local declared without a value (`let x;`) its storage.
    pub fn declare_local(&mut self, l: LocalId, span: Span) {
        let ty = self.r.local(l).clone();
        let repr = self.repr(&ty, span);
        let store = match repr {
            Repr::Zst => LocalStore::Value(Operand::Zst),
            Repr::Scalar(t) if !self.addressed.contains(&l) => {
                let d = self.dummy(&t, span);
                LocalStore::Slot(self.slot_with(d, span))
            }
            _ => {
                let t = self.mem_type(&ty, span);
                LocalStore::Mem(self.local(t, span))
            }
        };
        self.locals.insert(l, store);
    }

    /// Gives every capture of the closure whose body this is its place, at the body's entry:
    /// a place first made inside a branch would not be visible in the other.
    pub fn bind_captures(&mut self, span: Span) {
        let Some((_, _, data)) = self.closure.clone() else { return };
        for (l, _) in &data.captures {
            self.local_place(*l, span);
        }
    }

    /// A local as a place.
    pub fn local_place(&mut self, l: LocalId, span: Span) -> Place {
        if let Some(s) = self.locals.get(&l).cloned() {
            return match s {
                LocalStore::Value(op) => Place::Value(op),
                LocalStore::Slot(s) => Place::Slot(s),
                LocalStore::Mem(p) | LocalStore::Captured(p) => Place::Mem(p),
            };
        }
        // A capture of the closure whose body this is.
        if let Some((env, id, data)) = self.closure.clone()
            && let Some(k) = data.captures.iter().position(|(c, _)| *c == l)
        {
            let env_ty = Ty::new(TyKind::Closure(id));
            let layout = self.mono.layouts.layout(self.tcx, &env_ty);
            let field = layout.ok().and_then(|lay| lay.fields.get(k).copied().flatten());
            let p = match (env, field) {
                (Some(env), Some(f)) => {
                    let fp = self.field_ptr(env, f, span);
                    if data.by_value {
                        fp
                    } else {
                        // A pointer to the owner's local.
                        self.load(fp, span)
                    }
                }
                _ => {
                    // A zero-sized capture.
                    return Place::Value(Operand::Zst);
                }
            };
            self.locals.insert(l, LocalStore::Captured(p));
            return Place::Mem(p);
        }
        self.error(
            Diagnostic::new(
                RK_INTERNAL,
                format!("the local `{}` has no storage", self.body.local(l).name),
            )
            .at(span, "here"),
        );
        Place::Value(Operand::Zst)
    }
}

/// The low `bits` bits set (1 to 128).
pub fn mask(bits: u32) -> u128 {
    u128::MAX >> (128 - bits)
}
