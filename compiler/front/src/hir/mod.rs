//! HIR: function bodies with names resolved and sugar removed, numbered for the tables that
//! the type checker fills in. One [`Body`] per function, constant or static, built from syn by
//! [`build`]; closures are part of their enclosing body.
//!
//! Resolved here: local variables (each binding one [`LocalId`]), the loop each `break` leaves,
//! what each path names as far as the item table can tell (associated items such as
//! `Vec3::new` are left to the type checker), which locals each closure captures, and whether
//! an identifier pattern binds or names a constant. Removed: macros (`assert!`, `matches!`,
//! `panic!`...), `debug_assert!` (off in a release build).

mod build;
mod macros;
mod pat;

pub use build::{build_body, build_const_body};

use crate::diag::Span;
use crate::items::{DefId, FileId, PathRes, ScopeId};
use rkc_rk::{FloatTy, IntTy};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExprId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PatId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocalId(pub u32);

/// A written type in a body, with the scope its names resolve in.
#[derive(Clone, Copy, Debug)]
pub struct TyRef<'a> {
    pub ty: &'a syn::Type,
    pub scope: ScopeId,
}

/// A path in an expression or pattern.
#[derive(Clone, Debug)]
pub struct PathExpr<'a> {
    /// What the path names: `None` when nothing does (reported when the body is checked, so
    /// that unreachable host code never errs).
    pub res: Option<PathRes>,
    pub path: &'a syn::Path,
    pub qself: Option<&'a syn::QSelf>,
    pub scope: ScopeId,
    pub span: Span,
}

impl PathExpr<'_> {
    /// The path as written, for messages.
    pub fn text(&self) -> String {
        crate::items::tidy_tokens(&quote::ToTokens::to_token_stream(self.path).to_string())
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Lit {
    Int(u128, Option<IntTy>),
    Float(f64, Option<FloatTy>),
    Bool(bool),
    Char(char),
    Str(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// `&&` and `||`: short-circuiting.
    And,
    Or,
}

impl BinOp {
    pub fn token(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }

    pub fn is_comparison(self) -> bool {
        matches!(self, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
    }

    pub fn is_shift(self) -> bool {
        matches!(self, BinOp::Shl | BinOp::Shr)
    }

    pub fn is_lazy(self) -> bool {
        matches!(self, BinOp::And | BinOp::Or)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
    Deref,
}

/// A field access: by name or tuple index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldName {
    Named(String),
    Index(u32),
}

impl FieldName {
    pub fn as_string(&self) -> String {
        match self {
            FieldName::Named(n) => n.clone(),
            FieldName::Index(i) => i.to_string(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Arm {
    pub pat: PatId,
    pub guard: Option<ExprId>,
    pub body: ExprId,
}

#[derive(Clone, Debug)]
pub enum Stmt<'a> {
    Let {
        pat: PatId,
        ty: Option<TyRef<'a>>,
        init: Option<ExprId>,
        els: Option<ExprId>,
        span: Span,
    },
    /// An expression statement; `semi` when it ends with `;`.
    Expr {
        expr: ExprId,
        semi: bool,
    },
}

#[derive(Clone, Debug)]
pub struct Block<'a> {
    pub stmts: Vec<Stmt<'a>>,
    pub tail: Option<ExprId>,
    pub unsafe_block: bool,
    /// A labelled block (`'a: { .. break 'a v; .. }`) is a target of `break`.
    pub label: Option<String>,
}

#[derive(Clone, Debug)]
pub enum ExprKind<'a> {
    Lit(Lit),
    Path(PathExpr<'a>),
    Call(ExprId, Vec<ExprId>),
    MethodCall {
        receiver: ExprId,
        name: String,
        name_span: Span,
        turbofish: Option<&'a syn::AngleBracketedGenericArguments>,
        args: Vec<ExprId>,
        scope: ScopeId,
    },
    Binary(BinOp, ExprId, ExprId),
    AssignOp(BinOp, ExprId, ExprId),
    Assign(ExprId, ExprId),
    Unary(UnOp, ExprId),
    /// `&e` / `&mut e`.
    Ref(bool, ExprId),
    /// `&raw const e`, `addr_of!(e)`: a raw pointer to a place.
    RawRef(bool, ExprId),
    Cast(ExprId, TyRef<'a>),
    Field(ExprId, FieldName),
    Index(ExprId, ExprId),
    Tuple(Vec<ExprId>),
    Array(Vec<ExprId>),
    /// `[e; n]`.
    Repeat(ExprId, &'a syn::Expr, ScopeId),
    Struct {
        path: PathExpr<'a>,
        fields: Vec<(String, ExprId, Span)>,
        base: Option<ExprId>,
    },
    Block(Block<'a>),
    If(ExprId, ExprId, Option<ExprId>),
    /// `let pat = e` in an `if` or `while` condition (possibly in a `&&` chain).
    Let(PatId, ExprId),
    Match(ExprId, Vec<Arm>),
    Loop {
        body: ExprId,
    },
    While {
        cond: ExprId,
        body: ExprId,
    },
    For {
        pat: PatId,
        iter: ExprId,
        body: ExprId,
    },
    /// `target` is the loop or labelled block it leaves.
    Break {
        target: ExprId,
        value: Option<ExprId>,
    },
    Continue {
        target: ExprId,
    },
    Return(Option<ExprId>),
    Closure {
        params: Vec<(PatId, Option<TyRef<'a>>)>,
        ret: Option<TyRef<'a>>,
        body: ExprId,
        is_move: bool,
        index: u32,
    },
    Range {
        start: Option<ExprId>,
        end: Option<ExprId>,
        inclusive: bool,
    },
    /// `panic!("..")`, `unreachable!()`, a failed `assert!`: a device panic. Its message may
    /// show up to two integers (`\u{1}0` and `\u{1}1` in the text stand for the values of
    /// `args`); when a value is not an integer the message is `fallback` (`assert_eq!` of
    /// other types), or an error.
    Panic {
        text: String,
        args: Vec<ExprId>,
        fallback: Option<String>,
    },
    /// `print!`, `println!`, `eprint!`, `eprintln!` (and `gpu_print!`, `gpu_println!`):
    /// `format` is Rust's format syntax with each value of `args` named by its index, string
    /// literal arguments already in the text (see `offload_binary::format`).
    Print {
        format: String,
        args: Vec<ExprId>,
        stderr: bool,
    },
    /// `e?`.
    Try(ExprId),
    /// An expression an error was already reported for.
    Err,
}

#[derive(Clone, Debug)]
pub struct Expr<'a> {
    pub kind: ExprKind<'a>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum PatKind<'a> {
    Wild,
    /// `x`, `mut x`, `ref x`, `ref mut x`, `x @ p`.
    Binding {
        local: LocalId,
        by_ref: Option<bool>,
        sub: Option<PatId>,
    },
    /// A literal, possibly negative (`-1`).
    Lit(Lit, bool),
    Range {
        lo: Option<(Lit, bool)>,
        hi: Option<(Lit, bool)>,
        inclusive: bool,
    },
    /// A constant named by a path, compared by value.
    Const(PathExpr<'a>),
    Tuple {
        pats: Vec<PatId>,
        rest: Option<usize>,
    },
    TupleStruct {
        path: PathExpr<'a>,
        pats: Vec<PatId>,
        rest: Option<usize>,
    },
    Struct {
        path: PathExpr<'a>,
        fields: Vec<(String, PatId)>,
        rest: bool,
    },
    /// A unit struct or unit variant.
    Path(PathExpr<'a>),
    Ref(PatId, bool),
    Slice {
        before: Vec<PatId>,
        rest: Option<PatId>,
        after: Vec<PatId>,
    },
    Or(Vec<PatId>),
    Err,
}

#[derive(Clone, Debug)]
pub struct Pat<'a> {
    pub kind: PatKind<'a>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct LocalDef {
    pub name: String,
    pub mutable: bool,
    pub span: Span,
}

/// A parameter of a function: its pattern (the types are the signature's).
#[derive(Clone, Copy, Debug)]
pub struct Param {
    pub pat: PatId,
}

#[derive(Clone, Debug, Default)]
pub struct ClosureDef {
    /// The closure expression.
    pub expr: Option<ExprId>,
    /// The locals of enclosing bodies it uses, in order of first use.
    pub upvars: Vec<LocalId>,
}

/// One body.
#[derive(Clone, Debug)]
pub struct Body<'a> {
    pub file: FileId,
    pub exprs: Vec<Expr<'a>>,
    pub pats: Vec<Pat<'a>>,
    pub locals: Vec<LocalDef>,
    pub params: Vec<Param>,
    pub value: ExprId,
    pub closures: Vec<ClosureDef>,
    /// Whether the body is an unsafe context from the start (`unsafe fn`).
    pub unsafe_fn: bool,
}

impl<'a> Body<'a> {
    pub fn expr(&self, id: ExprId) -> &Expr<'a> {
        &self.exprs[id.0 as usize]
    }

    pub fn pat(&self, id: PatId) -> &Pat<'a> {
        &self.pats[id.0 as usize]
    }

    pub fn local(&self, id: LocalId) -> &LocalDef {
        &self.locals[id.0 as usize]
    }

    /// Every local bound by a pattern, in order.
    pub fn pat_bindings(&self, p: PatId, out: &mut Vec<LocalId>) {
        match &self.pat(p).kind {
            PatKind::Binding { local, sub, .. } => {
                if !out.contains(local) {
                    out.push(*local);
                }
                if let Some(s) = sub {
                    self.pat_bindings(*s, out);
                }
            }
            PatKind::Tuple { pats, .. } | PatKind::TupleStruct { pats, .. } | PatKind::Or(pats) => {
                for q in pats {
                    self.pat_bindings(*q, out);
                }
            }
            PatKind::Struct { fields, .. } => {
                for (_, q) in fields {
                    self.pat_bindings(*q, out);
                }
            }
            PatKind::Ref(q, _) => self.pat_bindings(*q, out),
            PatKind::Slice { before, rest, after } => {
                for q in before.iter().chain(rest).chain(after) {
                    self.pat_bindings(*q, out);
                }
            }
            _ => {}
        }
    }
}
