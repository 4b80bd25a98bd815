//! Definite initialisation of locals declared without a value (`let v: u32;`), as rustc's
//! borrow checker does it: a read of such a local on a path where it may not be assigned yet
//! is E0381, and a second assignment to one that is not `mut` is E0384. The walk follows
//! evaluation order over HIR with two sets per program point: the locals assigned on every
//! path (for reads) and on some path (for second assignments). Code after a diverging
//! expression is unreachable and constrains nothing.

use super::*;
use crate::hir::{BinOp, ExprKind, LocalId, Stmt};
use std::collections::HashSet;

/// What is known at a program point; `None` stands for unreachable.
#[derive(Clone, Default)]
struct Inits {
    /// Assigned on every path here.
    definitely: HashSet<LocalId>,
    /// Assigned on some path here.
    maybe: HashSet<LocalId>,
}

type State = Option<Inits>;

fn join(a: State, b: State) -> State {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(a), Some(b)) => Some(Inits {
            definitely: a.definitely.intersection(&b.definitely).copied().collect(),
            maybe: a.maybe.union(&b.maybe).copied().collect(),
        }),
    }
}

struct Walk<'b, 'a> {
    body: &'b Body<'a>,
    r: &'b TypeckResults,
    /// The locals declared without a value.
    late: &'b [LocalId],
    /// The states at the `break`s of each loop or labelled block being walked.
    breaks: HashMap<ExprId, State>,
    /// Errors, one per local and kind.
    errors: Vec<Diagnostic>,
    reported: HashSet<(LocalId, bool)>,
}

/// Checks the late-initialised locals of a checked body.
pub(super) fn check(body: &Body, r: &TypeckResults, late: &[LocalId]) -> Vec<Diagnostic> {
    if late.is_empty() {
        return Vec::new();
    }
    let mut w = Walk {
        body,
        r,
        late,
        breaks: HashMap::new(),
        errors: Vec::new(),
        reported: HashSet::new(),
    };
    w.expr(body.value, Some(Inits::default()));
    w.errors
}

impl Walk<'_, '_> {
    fn local_of(&self, e: ExprId) -> Option<LocalId> {
        match (&self.body.expr(e).kind, self.r.paths.get(&e)) {
            (ExprKind::Path(_), Some(ValueRes::Local(l))) if self.late.contains(l) => Some(*l),
            _ => None,
        }
    }

    fn diverges(&self, e: ExprId) -> bool {
        self.r.expr_ty.get(e.0 as usize).is_some_and(|t| t.is_never())
    }

    fn exprs(&mut self, es: &[ExprId], mut s: State) -> State {
        for e in es {
            s = self.expr(*e, s);
        }
        s
    }

    fn read(&mut self, l: LocalId, s: &State, span: Span) {
        let Some(i) = s else { return };
        if !i.definitely.contains(&l) && self.reported.insert((l, false)) {
            let local = self.body.local(l);
            let name = &local.name;
            self.errors.push(
                Diagnostic::new(RK_USE_UNINIT, format!("used binding `{name}` isn't initialized"))
                    .at(span, format!("`{name}` used here but it {} initialized", if i.maybe.contains(&l) { "is possibly-not" } else { "isn't" }))
                    .with_secondary(local.span, "binding declared here but left uninitialized")
                    .help(format!("give `{name}` a value where it is declared, or assign it on every path before this use")),
            );
        }
    }

    fn assign(&mut self, l: LocalId, s: State, span: Span) -> State {
        let mut i = s?;
        if i.maybe.contains(&l) && !self.body.local(l).mutable && self.reported.insert((l, true)) {
            let name = &self.body.local(l).name;
            self.errors.push(
                Diagnostic::new(
                    RK_ASSIGN_IMMUTABLE,
                    format!("cannot assign twice to immutable variable `{name}`"),
                )
                .at(span, "cannot assign twice to immutable variable")
                .help(format!("declare it mutable: `let mut {name}`")),
            );
        }
        i.definitely.insert(l);
        i.maybe.insert(l);
        Some(i)
    }

    /// A loop body runs again with what its first run assigned.
    fn loop_body(&mut self, e: ExprId, body: ExprId, s: State) -> State {
        self.breaks.insert(e, None);
        let once = self.expr(body, s.clone());
        let again = join(s, once);
        self.expr(body, again.clone());
        again
    }

    fn expr(&mut self, e: ExprId, s: State) -> State {
        let out = self.expr_kind(e, s);
        if self.diverges(e) { None } else { out }
    }

    fn expr_kind(&mut self, e: ExprId, s: State) -> State {
        let x = self.body.expr(e);
        let span = x.span;
        match &x.kind {
            ExprKind::Path(_) => {
                if let Some(l) = self.local_of(e) {
                    self.read(l, &s, span);
                }
                s
            }
            ExprKind::Assign(lhs, rhs) => {
                let s = self.expr(*rhs, s);
                match self.local_of(*lhs) {
                    Some(l) => self.assign(l, s, span),
                    None => self.expr(*lhs, s),
                }
            }
            ExprKind::AssignOp(_, lhs, rhs) => {
                let s = self.expr(*rhs, s);
                self.expr(*lhs, s)
            }
            ExprKind::Binary(BinOp::And | BinOp::Or, l, r) => {
                let s = self.expr(*l, s);
                // The right side may not run: what it assigns is not known after.
                let after_r = self.expr(*r, s.clone());
                join(s, after_r)
            }
            ExprKind::Lit(_) | ExprKind::Err => s,
            ExprKind::Call(f, args) => {
                let s = self.expr(*f, s);
                self.exprs(args, s)
            }
            ExprKind::MethodCall { receiver, args, .. } => {
                let s = self.expr(*receiver, s);
                self.exprs(args, s)
            }
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
                let s = self.expr(*a, s);
                self.expr(*b, s)
            }
            ExprKind::Unary(_, a)
            | ExprKind::Ref(_, a)
            | ExprKind::RawRef(_, a)
            | ExprKind::Cast(a, _)
            | ExprKind::Field(a, _)
            | ExprKind::Try(a) => self.expr(*a, s),
            ExprKind::Repeat(a, ..) => self.expr(*a, s),
            ExprKind::Tuple(es) | ExprKind::Array(es) => self.exprs(es, s),
            ExprKind::Struct { fields, base, .. } => {
                let mut s = s;
                for (_, f, _) in fields {
                    s = self.expr(*f, s);
                }
                match base {
                    Some(b) => self.expr(*b, s),
                    None => s,
                }
            }
            ExprKind::Block(b) => {
                let labelled = b.label.is_some();
                if labelled {
                    self.breaks.insert(e, None);
                }
                let mut s = s;
                for st in &b.stmts {
                    s = match st {
                        Stmt::Let { init, els, .. } => {
                            let s = match init {
                                Some(i) => self.expr(*i, s),
                                None => s,
                            };
                            if let Some(els) = els {
                                // The `else` diverges; only its reads matter.
                                self.expr(*els, s.clone());
                            }
                            s
                        }
                        Stmt::Expr { expr, .. } => self.expr(*expr, s),
                    };
                }
                let s = match b.tail {
                    Some(t) => self.expr(t, s),
                    None => s,
                };
                if labelled { join(s, self.breaks.remove(&e).flatten()) } else { s }
            }
            ExprKind::If(c, t, els) => {
                let s = self.expr(*c, s);
                let st = self.expr(*t, s.clone());
                let se = match els {
                    Some(x) => self.expr(*x, s),
                    None => s,
                };
                join(st, se)
            }
            ExprKind::Let(_, scrutinee) => self.expr(*scrutinee, s),
            ExprKind::Match(scrutinee, arms) => {
                let s = self.expr(*scrutinee, s);
                let mut out = None;
                for arm in arms {
                    let a = match arm.guard {
                        Some(g) => self.expr(g, s.clone()),
                        None => s.clone(),
                    };
                    let a = self.expr(arm.body, a);
                    out = join(out, a);
                }
                out
            }
            ExprKind::Loop { body, .. } => {
                self.loop_body(e, *body, s);
                self.breaks.remove(&e).flatten()
            }
            ExprKind::While { cond, body, .. } => {
                // The condition runs before every iteration and once more at the end.
                self.breaks.insert(e, None);
                let at_cond = self.expr(*cond, s.clone());
                let after_body = self.expr(*body, at_cond.clone());
                let again = join(s, after_body);
                let at_cond_again = self.expr(*cond, again);
                self.expr(*body, at_cond_again.clone());
                join(at_cond_again, self.breaks.remove(&e).flatten())
            }
            ExprKind::For { iter, body, .. } => {
                let s = self.expr(*iter, s);
                let again = self.loop_body(e, *body, s);
                join(again, self.breaks.remove(&e).flatten())
            }
            ExprKind::Break { target, value } => {
                let s = match value {
                    Some(v) => self.expr(*v, s),
                    None => s,
                };
                if let Some(slot) = self.breaks.get_mut(target) {
                    *slot = join(slot.take(), s);
                }
                None
            }
            ExprKind::Continue { .. } => None,
            ExprKind::Return(v) => {
                if let Some(v) = v {
                    self.expr(*v, s);
                }
                None
            }
            ExprKind::Closure { body, .. } => {
                // A closure reads what it captures when it runs, which is after this point:
                // its reads need what is assigned here; its assignments are its own.
                self.expr(*body, s.clone());
                s
            }
            ExprKind::Range { start, end, .. } => {
                let mut s = s;
                for x in [start, end].into_iter().flatten() {
                    s = self.expr(*x, s);
                }
                s
            }
            ExprKind::Panic { args, .. } => {
                self.exprs(args, s);
                None
            }
            ExprKind::Print { args, .. } => self.exprs(args, s),
        }
    }
}
