//! The verifier: checks every typing rule of the lib.rs specification and hands back the proof
//! ([`Verified`]) that lowering requires.

use crate::ir::{Func, Literal, Loc, Module, Op, OpKind, Region, ValueId};
use crate::types::{IntTy, Type};
use std::collections::HashSet;
use std::fmt;

/// Proof that a module passed the verifier. Only [`verify`] creates one, so a function that
/// takes `&Verified` can rely on every rule without checking again.
#[derive(Clone, Copy, Debug)]
pub struct Verified<'m> {
    module: &'m Module,
}

impl<'m> Verified<'m> {
    pub fn module(&self) -> &'m Module {
        self.module
    }
}

/// A broken rule, naming the function and the offending op.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    pub func: String,
    pub op: String,
    pub loc: Loc,
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "in @{}: `rk.{}` at {}:{}: {}",
            self.func, self.op, self.loc.line, self.loc.col, self.message
        )
    }
}

impl std::error::Error for VerifyError {}

/// Verifies a whole module.
pub fn verify(module: &Module) -> Result<Verified<'_>, VerifyError> {
    let mut tables = HashSet::new();
    for t in &module.tables {
        let bad = |message: String| VerifyError {
            func: t.name.clone(),
            op: "data".into(),
            loc: Loc::default(),
            message,
        };
        if !tables.insert(t.name.as_str()) {
            return Err(bad("a table of this name is already defined".into()));
        }
        let mut count = 1u64;
        let mut ty = &t.ty;
        while let Type::Array { elem, len } = ty {
            count = count.saturating_mul(*len);
            ty = elem;
        }
        if !matches!(t.ty, Type::Array { .. }) || !ty.is_numeric() {
            return Err(bad(format!("a table is an array of integers or floats, not `{}`", t.ty)));
        }
        if t.values.len() as u64 != count {
            return Err(bad(format!(
                "`{}` has {count} elements, the table gives {}",
                t.ty,
                t.values.len()
            )));
        }
        let fits = |v: &Literal| match (v, ty) {
            (Literal::Int(bits), Type::Int(i)) => i.bits() == 128 || *bits >> i.bits() == 0,
            (Literal::Float(_), Type::Float(_)) => true,
            _ => false,
        };
        if !t.values.iter().all(fits) {
            return Err(bad(format!("an element is not a `{ty}`")));
        }
    }
    let mut names = HashSet::new();
    for func in &module.funcs {
        if !names.insert(func.name.as_str()) {
            return Err(VerifyError {
                func: func.name.clone(),
                op: "func".into(),
                loc: func.loc,
                message: "a function of this name is already defined".into(),
            });
        }
        verify_func(module, func)?;
    }
    Ok(Verified { module })
}

struct Checker<'f> {
    module: &'f Module,
    func: &'f Func,
    /// Values defined so far, for the single-definition rule.
    defined: HashSet<ValueId>,
    /// The result types of the enclosing loops, innermost last.
    loops: Vec<Vec<Type>>,
}

fn verify_func(module: &Module, func: &Func) -> Result<(), VerifyError> {
    let mut c = Checker { module, func, defined: HashSet::new(), loops: Vec::new() };
    let mut scope = Vec::new();
    for p in &func.params {
        c.define(p.value, func.loc, "func")?;
        scope.push(p.value);
        // A by-value aggregate (or 128-bit integer, wider than a parameter slot) is a
        // kernel's, reached through a `*const` to its device copy.
        let aggregate = matches!(func.ty(p.value), Some(Type::Ptr { mutable: false, pointee })
            if matches!(pointee.as_ref(), Type::Array { .. } | Type::Struct { .. }) || matches!(pointee.as_ref(), Type::Int(i) if i.bits() == 128));
        if p.by_value && !(func.kernel && aggregate) {
            return Err(c.err_at(func.loc, "func", format!("the `byval` parameter `{}` must be a kernel's `*const` to an array, a struct or a 128-bit integer", p.name)));
        }
        if p.by_ref && !(func.kernel && matches!(func.ty(p.value), Some(Type::Ptr { .. }))) {
            return Err(c.err_at(
                func.loc,
                "func",
                format!("the `byref` parameter `{}` must be a kernel's pointer", p.name),
            ));
        }
    }
    if func.kernel && func.ret != Type::Unit {
        return Err(c.err_at(func.loc, "func", "a kernel must return `()`"));
    }
    if func.body.falls_through() {
        return Err(c.err_at(func.loc, "func", "the body must end with `rk.return`"));
    }
    c.region(&func.body, &mut scope, RegionKind::Body)
}

#[derive(Clone, Copy, PartialEq)]
enum RegionKind {
    Body,
    /// A region of an `rk.if`.
    IfArm,
    /// The region of an `rk.loop`.
    LoopBody,
}

impl Checker<'_> {
    fn err_at(&self, loc: Loc, op: &str, message: impl Into<String>) -> VerifyError {
        VerifyError {
            func: self.func.name.clone(),
            op: op.to_string(),
            loc,
            message: message.into(),
        }
    }

    fn err(&self, op: &Op, message: impl Into<String>) -> VerifyError {
        self.err_at(op.loc, op.kind.name(), message)
    }

    fn define(&mut self, value: ValueId, loc: Loc, op: &str) -> Result<(), VerifyError> {
        if self.func.ty(value).is_none() {
            return Err(self.err_at(loc, op, format!("value {} has no type", value.0)));
        }
        if !self.defined.insert(value) {
            return Err(self.err_at(loc, op, format!("value {} is defined twice", value.0)));
        }
        Ok(())
    }

    fn ty(&self, value: ValueId) -> &Type {
        // Every id reaching here was checked by `define` or by the scope check.
        self.func.ty(value).unwrap_or(&Type::Unit)
    }

    fn region(
        &mut self,
        region: &Region,
        scope: &mut Vec<ValueId>,
        kind: RegionKind,
    ) -> Result<(), VerifyError> {
        let mark = scope.len();
        for (i, op) in region.ops.iter().enumerate() {
            for v in &op.operands {
                if !scope.contains(v) {
                    return Err(self.err(
                        op,
                        format!(
                            "operand {} is not defined before this op in an enclosing region",
                            v.0
                        ),
                    ));
                }
            }
            if op.kind.is_terminator() && i + 1 != region.ops.len() {
                return Err(self.err(op, "a terminator must be the last op of its region"));
            }
            if op.kind == OpKind::Yield && kind != RegionKind::IfArm {
                return Err(self.err(op, "`rk.yield` may only end a region of `rk.if`"));
            }
            self.op(op, scope)?;
            for r in &op.results {
                self.define(*r, op.loc, op.kind.name())?;
                scope.push(*r);
            }
        }
        scope.truncate(mark);
        Ok(())
    }

    fn expect_counts(&self, op: &Op, operands: usize, results: usize) -> Result<(), VerifyError> {
        if op.operands.len() != operands || op.results.len() != results {
            return Err(self.err(
                op,
                format!(
                    "expects {operands} operands and {results} results, has {} and {}",
                    op.operands.len(),
                    op.results.len()
                ),
            ));
        }
        if !matches!(op.kind, OpKind::If | OpKind::Loop { .. }) && !op.regions.is_empty() {
            return Err(self.err(op, "takes no regions"));
        }
        Ok(())
    }

    fn op(&mut self, op: &Op, scope: &mut Vec<ValueId>) -> Result<(), VerifyError> {
        let operand = |k: usize| self.ty(op.operands[k]).clone();
        match &op.kind {
            OpKind::Const(lit) => {
                self.expect_counts(op, 0, 1)?;
                let ty = self.ty(op.results[0]);
                let ok = match (lit, ty) {
                    (Literal::Bool(_), Type::Bool) => true,
                    (Literal::Int(bits), Type::Int(t)) => t.bits() == 128 || *bits >> t.bits() == 0,
                    (Literal::Float(x), Type::Float(f)) => f.holds(*x),
                    _ => false,
                };
                if !ok {
                    return Err(self.err(op, format!("literal {lit:?} is not a `{ty}`")));
                }
            }
            OpKind::Geometry(..) => {
                self.expect_counts(op, 0, 1)?;
                if *self.ty(op.results[0]) != Type::U32 {
                    return Err(self.err(op, "yields `u32`"));
                }
            }
            OpKind::Binary(b) => {
                use crate::ir::BinOp::*;
                self.expect_counts(op, 2, 1)?;
                let (l, r, res) = (operand(0), operand(1), self.ty(op.results[0]).clone());
                let ok = match b {
                    Shl | Shr => l.is_int() && r.is_int(),
                    And | Or | Xor => l == r && (l.is_int() || l == Type::Bool),
                    Add | Sub | Mul | Div | Rem => l == r && l.is_numeric(),
                };
                if !ok || res != l {
                    return Err(
                        self.err(op, format!("no rule for `{l}` {} `{r}` -> `{res}`", b.name()))
                    );
                }
            }
            OpKind::Cmp(_) => {
                self.expect_counts(op, 2, 1)?;
                let (l, r) = (operand(0), operand(1));
                if l != r || !l.is_scalar() || *self.ty(op.results[0]) != Type::Bool {
                    return Err(self.err(op, format!(
                        "compares two values of one scalar type into `bool`, not `{l}` and `{r}`"
                    )));
                }
            }
            OpKind::Neg | OpKind::Not => {
                self.expect_counts(op, 1, 1)?;
                let t = operand(0);
                let ok = if op.kind == OpKind::Neg {
                    matches!(t, Type::Int(i) if i.is_signed()) || t.is_float()
                } else {
                    t.is_int() || t == Type::Bool
                };
                if !ok || *self.ty(op.results[0]) != t {
                    return Err(self.err(op, format!("cannot apply to `{t}`")));
                }
            }
            OpKind::Cast => {
                self.expect_counts(op, 1, 1)?;
                let (from, to) = (operand(0), self.ty(op.results[0]).clone());
                // Besides numeric `as`, Rust's coercions of `*mut T` to `*const T` and of
                // `&mut [T]` to `&[T]`.
                // Raw pointers also cast to each other (`p as *const U`) and to and from
                // 64-bit integers (`p as usize`).
                let coercion = match (&from, &to) {
                    (Type::Ptr { .. }, Type::Ptr { .. }) => true,
                    (
                        Type::Slice { mutable: true, elem: a },
                        Type::Slice { mutable: false, elem: b },
                    ) => a == b,
                    (Type::Ptr { .. }, Type::Int(t)) | (Type::Int(t), Type::Ptr { .. }) => {
                        t.bits() == 64
                    }
                    _ => false,
                };
                // 128-bit integers and 16-bit floats do not convert into each other: Rust has
                // no such `as`, and the GPU has no single rounding for it.
                let wide_half = |a: &Type, b: &Type| matches!((a, b), (Type::Int(i), Type::Float(f)) if i.bits() == 128 && f.is_half());
                let ok = coercion
                    || ((from.is_numeric() || from == Type::Bool)
                        && to.is_numeric()
                        && !wide_half(&from, &to)
                        && !wide_half(&to, &from));
                if !ok {
                    return Err(self.err(op, format!("no cast from `{from}` to `{to}`")));
                }
            }
            OpKind::PtrOffset => {
                self.expect_counts(op, 2, 1)?;
                let (p, i) = (operand(0), operand(1));
                let ok = p.pointee().is_some()
                    && matches!(i, Type::Int(IntTy::Usize | IntTy::Isize))
                    && *self.ty(op.results[0]) == p;
                if !ok {
                    return Err(self.err(
                        op,
                        format!("offsets a pointer by a `usize` or `isize`, not `{p}` by `{i}`"),
                    ));
                }
            }
            OpKind::ElemPtr => {
                self.expect_counts(op, 2, 1)?;
                let (p, i) = (operand(0), operand(1));
                let ok = match (&p, self.ty(op.results[0])) {
                    (Type::Ptr { mutable, pointee }, Type::Ptr { mutable: m2, pointee: e2 }) => {
                        match pointee.as_ref() {
                            Type::Array { elem, .. } => mutable == m2 && elem == e2,
                            _ => false,
                        }
                    }
                    _ => false,
                };
                if !ok || i != Type::USIZE {
                    return Err(self.err(
                        op,
                        format!(
                            "takes a pointer to an array and a `usize` index, not `{p}` and `{i}`"
                        ),
                    ));
                }
            }
            OpKind::Load => {
                self.expect_counts(op, 1, 1)?;
                let p = operand(0);
                match p.pointee() {
                    Some(t) if t.is_loadable() && t == self.ty(op.results[0]) => {}
                    _ => return Err(self.err(op, format!("cannot load a scalar through `{p}`"))),
                }
            }
            OpKind::Store => {
                self.expect_counts(op, 2, 0)?;
                let (v, p) = (operand(0), operand(1));
                match &p {
                    Type::Ptr { mutable: true, pointee } if **pointee == v && v.is_loadable() => {}
                    _ => {
                        return Err(self.err(
                            op,
                            format!(
                                "stores a scalar through a `*mut` to it, not `{v}` through `{p}`"
                            ),
                        ));
                    }
                }
            }
            OpKind::BoundsCheck => {
                self.expect_counts(op, 2, 0)?;
                if operand(0) != Type::USIZE || operand(1) != Type::USIZE {
                    return Err(self.err(op, "checks a `usize` index against a `usize` length"));
                }
            }
            OpKind::If => {
                if op.operands.len() != 1 || operand(0) != Type::Bool {
                    return Err(self.err(op, "takes one `bool` condition"));
                }
                if op.regions.len() != 2 {
                    return Err(self.err(op, "has a then region and an else region"));
                }
                let result_tys: Vec<Type> =
                    op.results.iter().map(|r| self.ty(*r).clone()).collect();
                if result_tys.iter().any(|t| matches!(t, Type::Slice { .. } | Type::Slot(_))) {
                    return Err(self.err(op, "cannot yield a slice or a slot"));
                }
                for region in &op.regions {
                    match region.ops.last() {
                        Some(last) if last.kind == OpKind::Yield => {
                            let tys: Vec<Type> =
                                last.operands.iter().map(|v| self.ty(*v).clone()).collect();
                            if tys != result_tys {
                                return Err(self.err(op, "a yield does not match the results"));
                            }
                        }
                        Some(last) if last.kind.diverges() => {}
                        _ if result_tys.is_empty() => {}
                        _ => {
                            return Err(self.err(op, "with results, each region must yield them"));
                        }
                    }
                    self.region(region, scope, RegionKind::IfArm)?;
                }
            }
            OpKind::Yield => {
                if !op.results.is_empty() {
                    return Err(self.err(op, "has no results"));
                }
            }
            OpKind::Var => {
                self.expect_counts(op, 0, 1)?;
                match self.ty(op.results[0]) {
                    Type::Slot(t) if t.is_loadable() => {}
                    other => {
                        return Err(
                            self.err(op, format!("makes a slot of a scalar, not `{other}`"))
                        );
                    }
                }
            }
            OpKind::Read => {
                self.expect_counts(op, 1, 1)?;
                match operand(0) {
                    Type::Slot(t) if *t == *self.ty(op.results[0]) => {}
                    other => {
                        return Err(self.err(
                            op,
                            format!("reads a slot into its content type, not `{other}`"),
                        ));
                    }
                }
            }
            OpKind::Write => {
                self.expect_counts(op, 2, 0)?;
                match operand(1) {
                    Type::Slot(t) if *t == operand(0) => {}
                    other => {
                        return Err(self.err(
                            op,
                            format!(
                                "writes a `{}` into a slot of it, not into `{other}`",
                                operand(0)
                            ),
                        ));
                    }
                }
            }
            OpKind::Loop { .. } => {
                if !op.operands.is_empty() || op.regions.len() != 1 {
                    return Err(self.err(op, "takes no operands and one region"));
                }
                let result_tys: Vec<Type> =
                    op.results.iter().map(|r| self.ty(*r).clone()).collect();
                self.loops.push(result_tys);
                let r = self.region(&op.regions[0], scope, RegionKind::LoopBody);
                self.loops.pop();
                r?;
            }
            OpKind::Break { depth } | OpKind::Continue { depth } => {
                if !op.results.is_empty() {
                    return Err(self.err(op, "has no results"));
                }
                let n = self.loops.len();
                let Some(tys) = (*depth as usize)
                    .checked_add(1)
                    .filter(|d| *d <= n)
                    .map(|d| &self.loops[n - d])
                else {
                    return Err(self.err(op, format!("is not inside {} loop(s)", depth + 1)));
                };
                let given: Vec<Type> = op.operands.iter().map(|v| self.ty(*v).clone()).collect();
                let expected: &[Type] =
                    if matches!(op.kind, OpKind::Break { .. }) { tys } else { &[] };
                if given != expected {
                    return Err(self.err(op, "its operands do not match the loop's results"));
                }
            }
            OpKind::Barrier
            | OpKind::Fence(_)
            | OpKind::AsyncCommit
            | OpKind::AsyncWait { .. }
            | OpKind::WgmmaSync(_) => self.expect_counts(op, 0, 0)?,
            OpKind::CopyAsync => {
                self.expect_counts(op, 2, 0)?;
                let ok = match (operand(0), operand(1)) {
                    (Type::Ptr { mutable: true, pointee: d }, Type::Ptr { pointee: s, .. }) => {
                        d == s && matches!(d.size_of(), 4 | 8 | 16)
                    }
                    _ => false,
                };
                if !ok {
                    return Err(self.err(
                        op,
                        "takes a `*mut T` and a pointer to the same `T` of 4, 8 or 16 bytes",
                    ));
                }
            }
            OpKind::Warp(w) => {
                use crate::ir::WarpOp;
                let shuffled = |t: &Type| {
                    matches!(t, Type::Int(i) if i.bits() >= 32)
                        || matches!(t, Type::Float(f) if !f.is_half())
                };
                let n = if *w == WarpOp::LaneId {
                    0
                } else if matches!(w, WarpOp::Shuffle(_)) {
                    2
                } else {
                    1
                };
                self.expect_counts(op, n, 1)?;
                let result = self.ty(op.results[0]).clone();
                let ok = match w {
                    WarpOp::LaneId => op.operands.is_empty() && result == Type::U32,
                    WarpOp::Shuffle(_) => {
                        op.operands.len() == 2
                            && shuffled(&operand(0))
                            && operand(0) == result
                            && operand(1) == Type::U32
                    }
                    WarpOp::Any | WarpOp::All => {
                        op.operands.len() == 1 && operand(0) == Type::Bool && result == Type::Bool
                    }
                    WarpOp::Ballot => {
                        op.operands.len() == 1 && operand(0) == Type::Bool && result == Type::U32
                    }
                    WarpOp::Reduce(_) => {
                        op.operands.len() == 1 && shuffled(&operand(0)) && operand(0) == result
                    }
                };
                if !ok {
                    return Err(self
                        .err(op, format!("no rule for `rk.warp {}` giving `{result}`", w.name())));
                }
            }
            OpKind::Mma(t) => {
                self.expect_counts(op, 16, 4)?;
                let element = match t {
                    crate::MmaType::F16 => Type::Float(crate::FloatTy::F16),
                    crate::MmaType::Bf16 => Type::Float(crate::FloatTy::Bf16),
                };
                let ok = (0..12).all(|i| operand(i) == element)
                    && (12..16).all(|i| operand(i) == Type::F32)
                    && op.results.iter().all(|r| *self.ty(*r) == Type::F32);
                if !ok {
                    return Err(self.err(
                        op,
                        format!(
                            "`rk.mma {}` takes 12 `{element}` and 4 `f32`, giving 4 `f32`",
                            t.name()
                        ),
                    ));
                }
            }
            OpKind::Wgmma { ty, n, .. } => {
                let d = *n as usize / 2;
                self.expect_counts(op, 6 + d, d)?;
                let element = match ty {
                    crate::MmaType::F16 => Type::Float(crate::FloatTy::F16),
                    crate::MmaType::Bf16 => Type::Float(crate::FloatTy::Bf16),
                };
                let tile = |t: Type| matches!(t, Type::Ptr { pointee, .. } if *pointee == element);
                let ok = rkc_simt::wgmma::WIDTHS.contains(&(*n as usize))
                    && tile(operand(0))
                    && tile(operand(3))
                    && [1, 2, 4, 5].iter().all(|&i| operand(i) == Type::USIZE)
                    && (6..6 + d).all(|i| operand(i) == Type::F32)
                    && op.results.iter().all(|r| *self.ty(*r) == Type::F32);
                if !ok {
                    return Err(self.err(
                        op,
                        format!(
                            "`rk.wgmma {} {n}` takes two pointers to `{element}`, each with two `usize` strides, and {d} `f32`, giving {d} `f32`",
                            ty.name()
                        ),
                    ));
                }
            }
            OpKind::LdMatrix(m) => {
                self.expect_counts(op, 2, m.elements())?;
                let ok = match operand(0) {
                    Type::Ptr { pointee, .. } => {
                        matches!(*pointee, Type::Float(f) if f.is_half())
                            && operand(1) == Type::USIZE
                            && op.results.iter().all(|r| *self.ty(*r) == *pointee)
                    }
                    _ => false,
                };
                if !ok {
                    return Err(self.err(
                        op,
                        format!(
                            "`rk.ldmatrix {}` takes a pointer to `f16` or `bf16` and a `usize`, giving {} of the pointee",
                            m.name(),
                            m.elements()
                        ),
                    ));
                }
            }
            OpKind::DynShared => {
                self.expect_counts(op, 0, 1)?;
                match self.ty(op.results[0]) {
                    Type::Ptr { mutable: true, pointee } if pointee.is_scalar() => {}
                    other => {
                        return Err(
                            self.err(op, format!("yields a `*mut T` of a scalar, not `{other}`"))
                        );
                    }
                }
            }
            OpKind::FieldPtr { index } => {
                self.expect_counts(op, 1, 1)?;
                let p = operand(0);
                let ok = match (&p, self.ty(op.results[0])) {
                    (Type::Ptr { mutable, pointee }, Type::Ptr { mutable: m2, pointee: f }) => {
                        match pointee.as_ref() {
                            Type::Struct { fields, .. } => {
                                mutable == m2
                                    && fields
                                        .get(*index as usize)
                                        .is_some_and(|(_, t)| t == f.as_ref())
                            }
                            _ => false,
                        }
                    }
                    _ => false,
                };
                if !ok {
                    return Err(self.err(
                        op,
                        format!("no field {index} of `{p}` gives `{}`", self.ty(op.results[0])),
                    ));
                }
            }
            OpKind::Table { name } => {
                self.expect_counts(op, 0, 1)?;
                let Some(t) = self.module.table(name) else {
                    return Err(self.err(op, format!("no table @{name} in the module")));
                };
                if *self.ty(op.results[0]) != Type::ptr(false, t.ty.clone()) {
                    return Err(self.err(
                        op,
                        format!("yields a `*const {}`, not `{}`", t.ty, self.ty(op.results[0])),
                    ));
                }
            }
            OpKind::Local => {
                self.expect_counts(op, 0, 1)?;
                match self.ty(op.results[0]) {
                    Type::Ptr { mutable: true, pointee } if pointee.is_storable() => {}
                    other => return Err(self.err(op, format!("yields a `*mut` of storable data (scalars, pointers, arrays and structs of them), not `{other}`"))),
                }
            }
            OpKind::Shared => {
                self.expect_counts(op, 0, 1)?;
                match self.ty(op.results[0]) {
                    Type::Ptr { mutable: true, pointee } if matches!(pointee.as_ref(), Type::Array { elem, .. } if elem.is_storable()) =>
                        {}
                    other => {
                        return Err(self.err(
                            op,
                            format!("yields a `*mut [T; N]` of storable data, not `{other}`"),
                        ));
                    }
                }
            }
            OpKind::Atomic(_) | OpKind::AtomicCas => {
                let n = if op.kind == OpKind::AtomicCas { 3 } else { 2 };
                self.expect_counts(op, n, 1)?;
                let p = operand(0);
                let ok = match &p {
                    Type::Ptr { mutable: true, pointee } => {
                        let t = pointee.as_ref();
                        let int_ok = matches!(t, Type::Int(i) if i.bits() >= 32);
                        // Floats take the arithmetic atomics, the exchanges and the
                        // compare-exchange (by bits), not the bitwise ones.
                        let float_ok = matches!(t, Type::Float(f) if !f.is_half())
                            && !matches!(
                                op.kind,
                                OpKind::Atomic(
                                    crate::ir::AtomicOp::And
                                        | crate::ir::AtomicOp::Or
                                        | crate::ir::AtomicOp::Xor
                                )
                            );
                        (int_ok || float_ok)
                            && (1..n).all(|k| operand(k) == *t)
                            && self.ty(op.results[0]) == t
                    }
                    _ => false,
                };
                if !ok {
                    return Err(self.err(
                        op,
                        format!(
                            "no atomic rule for `{p}` (32/64-bit integers; floats but for and/or/xor)"
                        ),
                    ));
                }
            }
            OpKind::SliceLen => {
                self.expect_counts(op, 1, 1)?;
                if !matches!(operand(0), Type::Slice { .. })
                    || *self.ty(op.results[0]) != Type::USIZE
                {
                    return Err(self.err(op, "takes a slice and gives its `usize` length"));
                }
            }
            OpKind::SlicePtr => {
                self.expect_counts(op, 1, 1)?;
                let ok = match (operand(0), self.ty(op.results[0])) {
                    (Type::Slice { mutable, elem }, Type::Ptr { mutable: m, pointee }) => {
                        mutable == *m && elem == *pointee
                    }
                    _ => false,
                };
                if !ok {
                    return Err(
                        self.err(op, "takes `&[T]` to `*const T` or `&mut [T]` to `*mut T`")
                    );
                }
            }
            OpKind::Math(f) => {
                self.expect_counts(op, op.operands.len(), 1)?;
                let operands: Vec<&Type> = op.operands.iter().map(|v| self.ty(*v)).collect();
                let result = self.ty(op.results[0]).clone();
                if f.result_type(&operands, &result) != Some(result.clone()) {
                    let shown: Vec<String> = operands.iter().map(|t| t.to_string()).collect();
                    return Err(self.err(
                        op,
                        format!(
                            "no rule for `{}` on ({}) -> `{result}`",
                            f.name(),
                            shown.join(", ")
                        ),
                    ));
                }
            }
            OpKind::Print { format, kinds, .. } => {
                self.expect_counts(op, kinds.len(), 0)?;
                for (k, kind) in kinds.iter().enumerate() {
                    if !crate::prints::carries(*kind, &operand(k)) {
                        return Err(self.err(
                            op,
                            format!("operand {k} is a `{}`, not a `{}`", operand(k), kind.name()),
                        ));
                    }
                }
                crate::prints::check_format(format, kinds)
                    .map_err(|why| self.err(op, format!("bad format: {why}")))?;
            }
            OpKind::Assert { .. } => {
                // The condition, and optionally two `usize` values for the message's
                // `{index}` and `{len}`.
                if op.operands.len() == 3 {
                    self.expect_counts(op, 3, 0)?;
                    if operand(1) != Type::USIZE || operand(2) != Type::USIZE {
                        return Err(self.err(op, "the values of an assert's message are `usize`"));
                    }
                } else {
                    self.expect_counts(op, 1, 0)?;
                }
                if operand(0) != Type::Bool {
                    return Err(self.err(op, "asserts a `bool`"));
                }
            }
            OpKind::Call { callee } => {
                let Some(f) = self.module.func(callee) else {
                    return Err(
                        self.err(op, format!("calls @{callee}, which is not in the module"))
                    );
                };
                if f.kernel {
                    return Err(self.err(
                        op,
                        format!("calls the kernel @{callee}; kernels are launched, not called"),
                    ));
                }
                let params: Vec<&Type> = f.param_types().collect();
                let args: Vec<&Type> = op.operands.iter().map(|v| self.ty(*v)).collect();
                let rets: Vec<&Type> = op.results.iter().map(|r| self.ty(*r)).collect();
                let expected_rets: Vec<&Type> =
                    if f.ret == Type::Unit { vec![] } else { vec![&f.ret] };
                if params != args || rets != expected_rets {
                    return Err(self.err(op, format!("does not match the signature of @{callee}")));
                }
            }
            OpKind::Return => {
                self.expect_counts(op, usize::from(self.func.ret != Type::Unit), 0)?;
                if let Some(v) = op.operands.first()
                    && *self.ty(*v) != self.func.ret
                {
                    return Err(self.err(
                        op,
                        format!(
                            "returns `{}` from a function returning `{}`",
                            self.ty(*v),
                            self.func.ret
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}
