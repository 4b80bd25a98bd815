//! The parser of rk's textual form (the printer's inverse): a logos lexer and a recursive
//! descent over the op syntax of lib.rs. `print(parse(text)) == text` for every printed
//! module, which the tests check on every testsuite kernel.
//!
//! The text names values by number; the parser gives each its type from the op's syntax (a
//! result's type is always printed or follows from the operands'), so the module it builds
//! can be verified like any other.

use crate::ir::{
    BinOp, CmpOp, Dim, Func, Geometry, Literal, Loc, LoopHint, Module, Op, OpKind, Region, ValueId,
};
use crate::math::MathFn;
use crate::types::{FloatTy, IntTy, Type};
use logos::Logos;
use std::collections::HashMap;
use std::fmt;

#[derive(Logos, Clone, Debug, PartialEq)]
#[logos(skip r"[ \t\r\n]+")]
#[logos(skip r"//[^\n]*")]
enum Token {
    #[regex(r"%[0-9]+", |l| l.slice()[1..].parse::<u32>().ok())]
    Value(u32),
    #[regex(r"@[A-Za-z_][A-Za-z0-9_]*", |l| l.slice()[1..].to_string())]
    #[regex(r#"@"([^"\\]|\\.)*""#, |l| unquote(&l.slice()[1..]))]
    Symbol(String),
    #[regex(r#""([^"\\]|\\.)*""#, |l| unquote(l.slice()))]
    Str(String),
    #[regex(r"[A-Za-z_][A-Za-z0-9_.]*", |l| l.slice().to_string())]
    Ident(String),
    #[regex(r"-?[0-9]+", |l| l.slice().to_string(), priority = 3)]
    Int(String),
    #[regex(r"-?[0-9]+\.[0-9]+([eE][-+]?[0-9]+)?|-?[0-9]+[eE][-+]?[0-9]+|-?inf|NaN", |l| l.slice().to_string(), priority = 10)]
    Float(String),
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token(":")]
    Colon,
    #[token(",")]
    Comma,
    #[token("=")]
    Eq,
    #[token("->")]
    Arrow,
    #[token("*")]
    Star,
    #[token(";")]
    Semi,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token("&")]
    Amp,
}

/// Reads a string printed with Rust's `{:?}`.
fn unquote(quoted: &str) -> Option<String> {
    let inner = quoted.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '0' => out.push('\0'),
            'u' => {
                // \u{XXXX}
                let rest: String = chars.by_ref().take_while(|c| *c != '}').collect();
                let hex = rest.strip_prefix('{')?;
                out.push(char::from_u32(u32::from_str_radix(hex, 16).ok()?)?);
            }
            other => out.push(other),
        }
    }
    Some(out)
}

/// A parse error with its byte offset in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for ParseError {}

struct Parser {
    tokens: Vec<(Token, usize)>,
    pos: usize,
    end: usize,
    /// Text value number → value, per function.
    values: HashMap<u32, ValueId>,
}

type Result<T> = std::result::Result<T, ParseError>;

/// Parses a module printed by [`crate::print_module`].
pub fn parse_module(text: &str) -> Result<Module> {
    let mut tokens = Vec::new();
    let mut lexer = Token::lexer(text);
    while let Some(t) = lexer.next() {
        match t {
            Ok(t) => tokens.push((t, lexer.span().start)),
            Err(()) => {
                return Err(ParseError {
                    offset: lexer.span().start,
                    message: format!("unexpected `{}`", lexer.slice()),
                });
            }
        }
    }
    let mut p = Parser { tokens, pos: 0, end: text.len(), values: HashMap::new() };
    let mut module = Module::default();
    while p.is_keyword("rk.data") {
        module.tables.push(p.table()?);
    }
    while p.pos < p.tokens.len() {
        module.funcs.push(p.func()?);
    }
    Ok(module)
}

impl Parser {
    fn offset(&self) -> usize {
        self.tokens.get(self.pos).map_or(self.end, |(_, o)| *o)
    }

    fn error<T>(&self, message: impl Into<String>) -> Result<T> {
        Err(ParseError { offset: self.offset(), message: message.into() })
    }

    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos).map(|(t, _)| t)
    }

    fn next(&mut self) -> Option<Token> {
        let t = self.tokens.get(self.pos).map(|(t, _)| t.clone());
        self.pos += 1;
        t
    }

    fn expect(&mut self, want: Token, what: &str) -> Result<()> {
        match self.next() {
            Some(t) if t == want => Ok(()),
            other => {
                self.pos -= 1;
                self.error(format!("expected {what}, found {other:?}"))
            }
        }
    }

    fn eat(&mut self, want: &Token) -> bool {
        if self.peek() == Some(want) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn ident(&mut self) -> Result<String> {
        match self.next() {
            Some(Token::Ident(s)) => Ok(s),
            other => {
                self.pos -= 1;
                self.error(format!("expected a name, found {other:?}"))
            }
        }
    }

    fn keyword(&mut self, word: &str) -> Result<()> {
        match self.next() {
            Some(Token::Ident(s)) if s == word => Ok(()),
            other => {
                self.pos -= 1;
                self.error(format!("expected `{word}`, found {other:?}"))
            }
        }
    }

    fn is_keyword(&self, word: &str) -> bool {
        matches!(self.peek(), Some(Token::Ident(s)) if s == word)
    }

    fn int(&mut self) -> Result<i128> {
        match self.next() {
            Some(Token::Int(s)) => s.parse().or_else(|_| self.error(format!("bad integer `{s}`"))),
            other => {
                self.pos -= 1;
                self.error(format!("expected an integer, found {other:?}"))
            }
        }
    }

    fn ty(&mut self) -> Result<Type> {
        match self.next() {
            Some(Token::Star) => {
                let mutable = match self.ident()?.as_str() {
                    "mut" => true,
                    "const" => false,
                    other => {
                        return self.error(format!("expected `mut` or `const`, found `{other}`"));
                    }
                };
                Ok(Type::ptr(mutable, self.ty()?))
            }
            Some(Token::LBracket) => {
                let elem = self.ty()?;
                self.expect(Token::Semi, "`;`")?;
                let len = self.int()?;
                self.expect(Token::RBracket, "`]`")?;
                Ok(Type::Array {
                    elem: Box::new(elem),
                    len: u64::try_from(len).or_else(|_| self.error("bad array length"))?,
                })
            }
            Some(Token::LParen) => {
                // `()`, or a tuple `(A,)`, `(A, B)`.
                let mut elems = Vec::new();
                while self.peek() != Some(&Token::RParen) {
                    elems.push(self.ty()?);
                    if self.peek() == Some(&Token::Comma) {
                        self.pos += 1;
                    } else {
                        break;
                    }
                }
                self.expect(Token::RParen, "`)`")?;
                Ok(if elems.is_empty() { Type::Unit } else { Type::tuple(elems) })
            }
            Some(Token::Amp) => {
                let mutable = self.is_keyword("mut");
                if mutable {
                    self.pos += 1;
                }
                self.expect(Token::LBracket, "`[`")?;
                let elem = self.ty()?;
                self.expect(Token::RBracket, "`]`")?;
                Ok(Type::Slice { mutable, elem: Box::new(elem) })
            }
            Some(Token::Ident(name)) => match name.as_str() {
                "bool" => Ok(Type::Bool),
                "f32" => Ok(Type::Float(FloatTy::F32)),
                "f64" => Ok(Type::Float(FloatTy::F64)),
                "f16" => Ok(Type::Float(FloatTy::F16)),
                "bf16" => Ok(Type::Float(FloatTy::Bf16)),
                "slot" => {
                    self.expect(Token::Lt, "`<`")?;
                    let t = self.ty()?;
                    self.expect(Token::Gt, "`>`")?;
                    Ok(Type::slot(t))
                }
                other => match IntTy::from_name(other) {
                    Some(t) => Ok(Type::Int(t)),
                    // A struct: `Name{field: T, ...}`.
                    None if self.peek() == Some(&Token::LBrace) => {
                        let name = other.to_string();
                        self.pos += 1;
                        let mut fields = Vec::new();
                        while self.peek() != Some(&Token::RBrace) {
                            // Tuple structs name their fields `0`, `1`, ...
                            let field = match self.peek() {
                                Some(Token::Int(n)) => {
                                    let n = n.clone();
                                    self.pos += 1;
                                    n
                                }
                                _ => self.ident()?,
                            };
                            self.expect(Token::Colon, "`:`")?;
                            fields.push((field, self.ty()?));
                            if self.peek() == Some(&Token::Comma) {
                                self.pos += 1;
                            } else {
                                break;
                            }
                        }
                        self.expect(Token::RBrace, "`}`")?;
                        Ok(Type::Struct { name, fields })
                    }
                    None => {
                        self.pos -= 1;
                        self.error(format!("unknown type `{other}`"))
                    }
                },
            },
            other => {
                self.pos -= 1;
                self.error(format!("expected a type, found {other:?}"))
            }
        }
    }

    /// A use of a value defined earlier.
    fn use_value(&mut self, func: &Func) -> Result<ValueId> {
        match self.next() {
            Some(Token::Value(n)) => match self.values.get(&n) {
                Some(v) if func.ty(*v).is_some() => Ok(*v),
                _ => {
                    self.pos -= 1;
                    self.error(format!("%{n} is used before it is defined"))
                }
            },
            other => {
                self.pos -= 1;
                self.error(format!("expected a value, found {other:?}"))
            }
        }
    }

    fn operands(&mut self, func: &Func) -> Result<Vec<ValueId>> {
        let mut out = Vec::new();
        if !matches!(self.peek(), Some(Token::Value(_))) {
            return Ok(out);
        }
        out.push(self.use_value(func)?);
        while self.eat(&Token::Comma) {
            out.push(self.use_value(func)?);
        }
        Ok(out)
    }

    fn types(&mut self) -> Result<Vec<Type>> {
        let mut out = vec![self.ty()?];
        while self.eat(&Token::Comma) {
            out.push(self.ty()?);
        }
        Ok(out)
    }

    /// A table's name: `@NAME`.
    fn table_name(&mut self) -> Result<String> {
        match self.next() {
            Some(Token::Symbol(s)) => Ok(s),
            other => {
                self.pos -= 1;
                self.error(format!("expected a table name, found {other:?}"))
            }
        }
    }

    /// `rk.data @NAME : [T; N] = [v, ...]`.
    fn table(&mut self) -> Result<crate::ir::Table> {
        self.keyword("rk.data")?;
        let name = self.table_name()?;
        self.expect(Token::Colon, "`:`")?;
        let ty = self.ty()?;
        self.expect(Token::Eq, "`=`")?;
        self.expect(Token::LBracket, "`[`")?;
        let mut elem = &ty;
        while let Type::Array { elem: e, .. } = elem {
            elem = e;
        }
        let elem = elem.clone();
        let mut values = Vec::new();
        while self.peek() != Some(&Token::RBracket) {
            let tok = self.next();
            values.push(self.literal(tok, &elem, 1)?);
            if !self.eat(&Token::Comma) {
                break;
            }
        }
        self.expect(Token::RBracket, "`]`")?;
        Ok(crate::ir::Table { name, ty, values })
    }

    /// A constant of type `ty` from its token; `back` is how many tokens an out-of-range
    /// error points back to.
    fn literal(&mut self, tok: Option<Token>, ty: &Type, back: usize) -> Result<Literal> {
        Ok(match (tok, ty) {
            (Some(Token::Ident(b)), Type::Bool) if b == "true" || b == "false" => {
                Literal::Bool(b == "true")
            }
            (Some(Token::Int(s)), Type::Int(t)) => {
                let (negative, digits) = match s.strip_prefix('-') {
                    Some(d) => (true, d),
                    None => (false, s.as_str()),
                };
                let magnitude: u128 = digits.parse().or_else(|_| self.error("bad integer"))?;
                if !t.contains(magnitude, negative) {
                    self.pos -= back;
                    return self.error(format!("{s} is out of range for `{}`", t.name()));
                }
                let bits = if negative { magnitude.wrapping_neg() } else { magnitude };
                Literal::Int(bits & (u128::MAX >> (128 - t.bits())))
            }
            (Some(Token::Float(s) | Token::Int(s)), Type::Float(_)) => {
                Literal::Float(match s.as_str() {
                    "inf" => f64::INFINITY,
                    "-inf" => f64::NEG_INFINITY,
                    "NaN" => f64::NAN,
                    _ => s.parse().or_else(|_| self.error(format!("bad float `{s}`")))?,
                })
            }
            (t, ty) => return self.error(format!("{t:?} is not a `{ty}` constant")),
        })
    }

    fn func(&mut self) -> Result<Func> {
        self.keyword("rk.func")?;
        let name = match self.next() {
            Some(Token::Symbol(s)) => s,
            other => {
                self.pos -= 1;
                return self.error(format!("expected a function name, found {other:?}"));
            }
        };
        self.values.clear();
        let mut func = Func::new(name, false, Type::Unit, Loc::default());
        self.expect(Token::LParen, "`(`")?;
        if !self.eat(&Token::RParen) {
            loop {
                let pname = self.ident()?;
                let Some(Token::Value(n)) = self.next() else {
                    return self.error("expected a parameter value");
                };
                self.expect(Token::Colon, "`:`")?;
                let ty = self.ty()?;
                let v = if self.is_keyword("byval") {
                    self.pos += 1;
                    let Some(pointee) = ty.pointee().cloned() else {
                        return self.error("a `byval` parameter is a pointer");
                    };
                    func.add_by_value_param(pname, pointee)
                } else if self.is_keyword("byref") {
                    self.pos += 1;
                    let v = func.add_param(pname, ty);
                    if let Some(p) = func.params.last_mut() {
                        p.by_ref = true;
                    }
                    v
                } else {
                    func.add_param(pname, ty)
                };
                self.values.insert(n, v);
                if self.eat(&Token::RParen) {
                    break;
                }
                self.expect(Token::Comma, "`,` or `)`")?;
            }
        }
        if self.eat(&Token::Arrow) {
            func.ret = self.ty()?;
        }
        if self.is_keyword("kernel") {
            self.pos += 1;
            func.kernel = true;
        }
        func.body = self.region(&mut func)?;
        Ok(func)
    }

    fn region(&mut self, func: &mut Func) -> Result<Region> {
        self.expect(Token::LBrace, "`{`")?;
        let mut region = Region::default();
        while !self.eat(&Token::RBrace) {
            if self.peek().is_none() {
                return self.error("unclosed region");
            }
            region.ops.push(self.op(func)?);
        }
        Ok(region)
    }

    fn define(&mut self, func: &mut Func, numbers: &[u32], tys: Vec<Type>) -> Result<Vec<ValueId>> {
        if numbers.len() != tys.len() {
            return self.error(format!("{} results named, {} typed", numbers.len(), tys.len()));
        }
        Ok(numbers
            .iter()
            .zip(tys)
            .map(|(n, t)| {
                let v = func.new_value(t);
                self.values.insert(*n, v);
                v
            })
            .collect())
    }

    fn loc(&mut self) -> Result<Loc> {
        self.keyword("at")?;
        let line = self.int()?;
        self.expect(Token::Colon, "`:`")?;
        let col = self.int()?;
        Ok(Loc { line: line as u32, col: col as u32 })
    }

    fn op(&mut self, func: &mut Func) -> Result<Op> {
        let mut numbers = Vec::new();
        while let Some(Token::Value(n)) = self.peek().cloned() {
            self.pos += 1;
            numbers.push(n);
            if !self.eat(&Token::Comma) {
                self.expect(Token::Eq, "`=`")?;
                break;
            }
        }
        let name = self.ident()?;
        let Some(short) = name.strip_prefix("rk.") else {
            return self.error(format!("`{name}` is not an rk op"));
        };
        let mut loc = Loc::default();
        let mut regions = Vec::new();
        let ty_of = |func: &Func, v: ValueId| func.ty(v).cloned().unwrap_or(Type::Unit);
        let (kind, operands, result_tys): (OpKind, Vec<ValueId>, Vec<Type>) = match short {
            "const" => {
                let lit_tok = self.next();
                self.expect(Token::Colon, "`:`")?;
                let ty = self.ty()?;
                let lit = self.literal(lit_tok, &ty, 2)?;
                (OpKind::Const(lit), vec![], vec![ty])
            }
            "thread_id" | "block_id" | "block_dim" | "grid_dim" => {
                let g = match short {
                    "thread_id" => Geometry::ThreadId,
                    "block_id" => Geometry::BlockId,
                    "block_dim" => Geometry::BlockDim,
                    _ => Geometry::GridDim,
                };
                let d = match self.ident()?.as_str() {
                    "x" => Dim::X,
                    "y" => Dim::Y,
                    "z" => Dim::Z,
                    other => return self.error(format!("unknown dimension `{other}`")),
                };
                self.expect(Token::Colon, "`:`")?;
                let ty = self.ty()?;
                (OpKind::Geometry(g, d), vec![], vec![ty])
            }
            "cmp" => {
                let pred = match self.ident()?.as_str() {
                    "eq" => CmpOp::Eq,
                    "ne" => CmpOp::Ne,
                    "lt" => CmpOp::Lt,
                    "le" => CmpOp::Le,
                    "gt" => CmpOp::Gt,
                    "ge" => CmpOp::Ge,
                    other => return self.error(format!("unknown predicate `{other}`")),
                };
                let ops = self.operands(func)?;
                self.expect(Token::Colon, "`:`")?;
                self.ty()?;
                (OpKind::Cmp(pred), ops, vec![Type::Bool])
            }
            "neg" | "not" | "load" => {
                let ops = self.operands(func)?;
                self.expect(Token::Colon, "`:`")?;
                let ty = self.ty()?;
                let (kind, result) = match short {
                    "neg" => (OpKind::Neg, ty),
                    "not" => (OpKind::Not, ty),
                    _ => (OpKind::Load, ty.pointee().cloned().unwrap_or(Type::Unit)),
                };
                (kind, ops, vec![result])
            }
            "cast" | "elem_ptr" | "slice_ptr" => {
                let ops = self.operands(func)?;
                self.expect(Token::Colon, "`:`")?;
                self.ty()?;
                self.keyword("to")?;
                let to = self.ty()?;
                let kind = match short {
                    "cast" => OpKind::Cast,
                    "elem_ptr" => OpKind::ElemPtr,
                    _ => OpKind::SlicePtr,
                };
                (kind, ops, vec![to])
            }
            "table" => {
                let name = self.table_name()?;
                self.expect(Token::Colon, "`:`")?;
                let ty = self.ty()?;
                (OpKind::Table { name }, vec![], vec![ty])
            }
            "field_ptr" => {
                // `rk.field_ptr %p, 1 : *mut S{...} to *mut T`: the field's index, then types.
                let ops = vec![self.use_value(func)?];
                self.expect(Token::Comma, "`,`")?;
                let index =
                    u32::try_from(self.int()?).or_else(|_| self.error("bad field index"))?;
                self.expect(Token::Colon, "`:`")?;
                self.ty()?;
                self.keyword("to")?;
                let to = self.ty()?;
                (OpKind::FieldPtr { index }, ops, vec![to])
            }
            "barrier" => (OpKind::Barrier, vec![], vec![]),
            "copy_async" => {
                let ops = self.operands(func)?;
                self.expect(Token::Colon, "`:`")?;
                self.ty()?;
                (OpKind::CopyAsync, ops, vec![])
            }
            "async_commit" => (OpKind::AsyncCommit, vec![], vec![]),
            "async_wait" => {
                let pending =
                    u32::try_from(self.int()?).or_else(|_| self.error("bad group count"))?;
                (OpKind::AsyncWait { pending }, vec![], vec![])
            }
            "warp" => {
                let name = self.ident()?;
                let Some(w) = crate::ir::WarpOp::ALL.into_iter().find(|w| w.name() == name) else {
                    return self.error(format!("unknown warp operation `{name}`"));
                };
                let ops =
                    if w == crate::ir::WarpOp::LaneId { vec![] } else { self.operands(func)? };
                self.expect(Token::Colon, "`:`")?;
                let ty = self.ty()?;
                (OpKind::Warp(w), ops, vec![ty])
            }
            "mma" => {
                // `%d0, %d1, %d2, %d3 = rk.mma f16 %a0, ..., %c3`: D is always four `f32`.
                let name = self.ident()?;
                let Some(t) = crate::MmaType::ALL.into_iter().find(|t| t.name() == name) else {
                    return self.error(format!("unknown matrix element type `{name}`"));
                };
                let ops = self.operands(func)?;
                (OpKind::Mma(t), ops, vec![Type::F32; 4])
            }
            "wgmma" => {
                // `%d0, ..., %d63 = rk.wgmma f16 128 %a, %a_k, %a_m, %b, %b_k, %b_n, %d0, ...`:
                // D is `n / 2` `f32`.
                let name = self.ident()?;
                let Some(t) = crate::MmaType::ALL.into_iter().find(|t| t.name() == name) else {
                    return self.error(format!("unknown matrix element type `{name}`"));
                };
                let n = u32::try_from(self.int()?).or_else(|_| self.error("bad tile width"))?;
                if !rkc_simt::wgmma::WIDTHS.contains(&(n as usize)) {
                    return self
                        .error(format!("`rk.wgmma` tiles are 64, 128 or 256 wide, not {n}"));
                }
                let swizzle = if self.is_keyword("sw128") {
                    self.keyword("sw128")?;
                    rkc_simt::wgmma::Swizzle::B128
                } else {
                    rkc_simt::wgmma::Swizzle::None
                };
                let ops = self.operands(func)?;
                (OpKind::Wgmma { ty: t, n, swizzle }, ops, vec![Type::F32; n as usize / 2])
            }
            "wgmma_sync" => {
                let name = self.ident()?;
                let sync = match name.as_str() {
                    "proxy_fence" => crate::WgmmaSync::ProxyFence,
                    "fence" => crate::WgmmaSync::Fence,
                    "commit" => crate::WgmmaSync::Commit,
                    "wait" => crate::WgmmaSync::Wait(
                        u32::try_from(self.int()?).or_else(|_| self.error("bad group count"))?,
                    ),
                    _ => return self.error(format!("unknown wgmma ordering `{name}`")),
                };
                (OpKind::WgmmaSync(sync), vec![], vec![])
            }
            "ldmatrix" => {
                // `%f0, ..., %f7 = rk.ldmatrix a %tile, %stride : *const f16`: the fragment's
                // elements are the pointee's type, eight for `a` and four for `b`.
                let name = self.ident()?;
                let Some(m) = crate::MatrixOperand::ALL.into_iter().find(|m| m.name() == name)
                else {
                    return self.error(format!("unknown matrix operand `{name}`"));
                };
                let ops = self.operands(func)?;
                self.expect(Token::Colon, "`:`")?;
                let ty = self.ty()?;
                let Some(elem) = ty.pointee().cloned() else {
                    return self
                        .error(format!("`rk.ldmatrix` reads through a pointer, not `{ty}`"));
                };
                (OpKind::LdMatrix(m), ops, vec![elem; m.elements()])
            }
            "dyn_shared" => {
                self.expect(Token::Colon, "`:`")?;
                let ty = self.ty()?;
                (OpKind::DynShared, vec![], vec![ty])
            }
            "fence" => {
                let scope = match self.ident()?.as_str() {
                    "block" => crate::ir::FenceScope::Block,
                    "device" => crate::ir::FenceScope::Device,
                    other => return self.error(format!("unknown fence scope `{other}`")),
                };
                (OpKind::Fence(scope), vec![], vec![])
            }
            "shared" | "local" => {
                self.expect(Token::Colon, "`:`")?;
                let ty = self.ty()?;
                (if short == "shared" { OpKind::Shared } else { OpKind::Local }, vec![], vec![ty])
            }
            "atomic" | "atomic_cas" => {
                let kind = if short == "atomic" {
                    let name = self.ident()?;
                    match crate::ir::AtomicOp::ALL.into_iter().find(|a| a.name() == name) {
                        Some(a) => OpKind::Atomic(a),
                        None => return self.error(format!("unknown atomic `{name}`")),
                    }
                } else {
                    OpKind::AtomicCas
                };
                let ops = self.operands(func)?;
                self.expect(Token::Colon, "`:`")?;
                let ptr = self.ty()?;
                let result = ptr.pointee().cloned().unwrap_or(Type::Unit);
                (kind, ops, vec![result])
            }
            "slice_len" => {
                let ops = self.operands(func)?;
                self.expect(Token::Colon, "`:`")?;
                self.ty()?;
                (OpKind::SliceLen, ops, vec![Type::USIZE])
            }
            "ptr_offset" => {
                let ops = self.operands(func)?;
                self.expect(Token::Colon, "`:`")?;
                let ty = self.ty()?;
                (OpKind::PtrOffset, ops, vec![ty])
            }
            "store" => {
                let ops = self.operands(func)?;
                self.expect(Token::Colon, "`:`")?;
                self.ty()?;
                (OpKind::Store, ops, vec![])
            }
            "bounds_check" => {
                let ops = self.operands(func)?;
                loc = self.loc()?;
                (OpKind::BoundsCheck, ops, vec![])
            }
            "assert" => {
                let ops = self.operands(func)?;
                let message = match self.next() {
                    Some(Token::Str(s)) => s,
                    _ => return self.error("expected the assertion's message"),
                };
                loc = self.loc()?;
                (OpKind::Assert { message }, ops, vec![])
            }
            "print" => {
                let stderr = self.is_keyword("stderr");
                if stderr {
                    self.keyword("stderr")?;
                }
                let ops = self.operands(func)?;
                let mut kinds = Vec::new();
                if !ops.is_empty() {
                    self.expect(Token::Colon, "`:`")?;
                    loop {
                        let name = self.ident()?;
                        let Some(k) = offload_binary::format::ValueKind::parse(&name) else {
                            return self.error(format!("`{name}` is not a printable kind"));
                        };
                        kinds.push(k);
                        if !self.eat(&Token::Comma) {
                            break;
                        }
                    }
                }
                let format = match self.next() {
                    Some(Token::Str(s)) => s,
                    _ => return self.error("expected the print's format"),
                };
                loc = self.loc()?;
                (OpKind::Print { format, kinds, stderr }, ops, vec![])
            }
            "if" | "loop" => {
                let ops = if short == "if" { self.operands(func)? } else { vec![] };
                let mut hint = LoopHint::Plain;
                for (word, h) in [("cold", LoopHint::Cold), ("unroll", LoopHint::Unroll)] {
                    if short == "loop" && self.is_keyword(word) {
                        self.keyword(word)?;
                        hint = h;
                    }
                }
                let tys = if self.eat(&Token::Arrow) { self.types()? } else { vec![] };
                regions.push(self.region(func)?);
                if short == "if" {
                    self.keyword("else")?;
                    regions.push(self.region(func)?);
                }
                (if short == "if" { OpKind::If } else { OpKind::Loop { hint } }, ops, tys)
            }
            "yield" | "return" | "break" | "continue" => {
                let mut depth = 0;
                if self.eat(&Token::LBracket) {
                    depth = self.int()? as u32;
                    self.expect(Token::RBracket, "`]`")?;
                }
                let ops = self.operands(func)?;
                if !ops.is_empty() {
                    self.expect(Token::Colon, "`:`")?;
                    self.types()?;
                }
                let kind = match short {
                    "yield" => OpKind::Yield,
                    "return" => OpKind::Return,
                    "break" => OpKind::Break { depth },
                    _ => OpKind::Continue { depth },
                };
                (kind, ops, vec![])
            }
            "var" => {
                self.expect(Token::Colon, "`:`")?;
                let ty = self.ty()?;
                (OpKind::Var, vec![], vec![Type::slot(ty)])
            }
            "read" => {
                let ops = self.operands(func)?;
                self.expect(Token::Colon, "`:`")?;
                let ty = self.ty()?;
                (OpKind::Read, ops, vec![ty])
            }
            "write" => {
                let ops = self.operands(func)?;
                self.expect(Token::Colon, "`:`")?;
                self.ty()?;
                (OpKind::Write, ops, vec![])
            }
            "call" | "math" => {
                let kind =
                    if short == "call" {
                        match self.next() {
                            Some(Token::Symbol(s)) => OpKind::Call { callee: s },
                            _ => return self.error("expected the callee"),
                        }
                    } else {
                        let f = self.ident()?;
                        OpKind::Math(MathFn::from_name(&f).map_or_else(
                            || self.error(format!("unknown math function `{f}`")),
                            Ok,
                        )?)
                    };
                let ops = if short == "call" {
                    self.expect(Token::LParen, "`(`")?;
                    let ops = self.operands(func)?;
                    self.expect(Token::RParen, "`)`")?;
                    ops
                } else {
                    self.operands(func)?
                };
                self.expect(Token::Colon, "`:`")?;
                self.expect(Token::LParen, "`(`")?;
                if !self.eat(&Token::RParen) {
                    self.types()?;
                    self.expect(Token::RParen, "`)`")?;
                }
                self.expect(Token::Arrow, "`->`")?;
                let ret = self.ty()?;
                let tys = if ret == Type::Unit { vec![] } else { vec![ret] };
                (kind, ops, tys)
            }
            other => {
                let Some(b) = BinOp::ALL.into_iter().find(|b| b.name() == other) else {
                    return self.error(format!("unknown op `rk.{other}`"));
                };
                let ops = self.operands(func)?;
                self.expect(Token::Colon, "`:`")?;
                self.ty()?;
                let result = ops.first().map(|v| ty_of(func, *v)).unwrap_or(Type::Unit);
                (OpKind::Binary(b), ops, vec![result])
            }
        };
        let results = self.define(func, &numbers, result_tys)?;
        Ok(Op { kind, operands, results, regions, loc })
    }
}
