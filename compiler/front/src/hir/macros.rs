//! The macros kernels use (`assert!`, `panic!`, `matches!`, `unreachable!`, the formatting
//! of their messages...), expanded to HIR, and those refused with a reason.

use super::build::*;
use super::*;
use crate::codes::*;
use crate::diag::{Diagnostic, snippet};
use crate::items::{Ns, Res};

impl<'t, 'a> Builder<'t, 'a> {
    /// The macros kernels use, expanded to HIR.
    pub(super) fn macro_expr(&mut self, mac: &'a syn::Macro, span: Span) -> ExprId {
        let name = mac.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
        if name == "macro_rules" {
            // A definition (collected with the file's macros), not code.
            return self.alloc(ExprKind::Tuple(Vec::new()), span);
        }
        let args = || {
            mac.parse_body_with(
                syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated,
            )
        };
        match name.as_str() {
            "assert" | "debug_assert" | "assert_eq" | "assert_ne" | "debug_assert_eq"
            | "debug_assert_ne" => {
                let Ok(args) = args() else {
                    return self.err_expr(
                        Diagnostic::new(RK_SYNTAX, format!("malformed `{name}!`")).at(span, "here"),
                        span,
                    );
                };
                let args: Vec<&'a syn::Expr> =
                    self.items.arena.exprs.alloc(args.into_iter().collect()).iter().collect();
                let binary = name.ends_with("_eq") || name.ends_with("_ne");
                let need = if binary { 2 } else { 1 };
                if args.len() < need {
                    return self.err_expr(
                        Diagnostic::new(RK_SYNTAX, format!("`{name}!` needs {need} arguments"))
                            .at(span, "here"),
                        span,
                    );
                }
                let op = if name.ends_with("_eq") { "==" } else { "!=" };
                // The message's own text and values, if any.
                let custom = match args.get(need) {
                    None => None,
                    Some(syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. })) => {
                        match self.format_message(s, &args[need + 1..], span) {
                            Ok(m) => Some(m),
                            Err(e) => return e,
                        }
                    }
                    Some(_) => return self.formatted(&name, span),
                };
                let (cond, panic) = if binary {
                    // `match (&l, &r) { (left_val, right_val) => if !(*left_val == *right_val) { panic } }`,
                    // as `assert_eq!` expands: each side evaluated once, and shown in the message.
                    let l = self.expr(args[0]);
                    let r = self.expr(args[1]);
                    let lr = self.alloc(ExprKind::Ref(false, l), span);
                    let rr = self.alloc(ExprKind::Ref(false, r), span);
                    let tuple = self.alloc(ExprKind::Tuple(vec![lr, rr]), span);
                    let (lv, lpat) = self.hidden_binding("left_val", span);
                    let (rv, rpat) = self.hidden_binding("right_val", span);
                    let pat =
                        self.alloc_pat(PatKind::Tuple { pats: vec![lpat, rpat], rest: None }, span);
                    let lpath = self.local_expr(lv, span);
                    let rpath = self.local_expr(rv, span);
                    let ld = self.alloc(ExprKind::Unary(UnOp::Deref, lpath), span);
                    let rd = self.alloc(ExprKind::Unary(UnOp::Deref, rpath), span);
                    let bop = if name.ends_with("_eq") { BinOp::Eq } else { BinOp::Ne };
                    let cmp = self.alloc(ExprKind::Binary(bop, ld, rd), span);
                    let lshow = self.local_expr(lv, span);
                    let rshow = self.local_expr(rv, span);
                    let ls = self.alloc(ExprKind::Unary(UnOp::Deref, lshow), span);
                    let rs = self.alloc(ExprKind::Unary(UnOp::Deref, rshow), span);
                    let head = format!("assertion `left {op} right` failed");
                    let (text, mut vals, fallback) = match custom {
                        None => {
                            (format!("{head}\n  left: \u{1}0\n right: \u{1}1"), vec![], Some(head))
                        }
                        // A custom message with values of its own: the operands are not shown.
                        Some((t, v)) if !v.is_empty() => (format!("{head}: {t}"), v, None),
                        Some((t, _)) => (
                            format!("{head}: {t}\n  left: \u{1}0\n right: \u{1}1"),
                            vec![],
                            Some(format!("{head}: {t}")),
                        ),
                    };
                    if vals.is_empty() && fallback.is_some() {
                        vals = vec![ls, rs];
                    }
                    let panic = self.alloc(ExprKind::Panic { text, args: vals, fallback }, span);
                    let not = self.alloc(ExprKind::Unary(UnOp::Not, cmp), span);
                    let then = self.alloc(
                        ExprKind::Block(Block {
                            stmts: vec![Stmt::Expr { expr: panic, semi: true }],
                            tail: None,
                            unsafe_block: false,
                            label: None,
                        }),
                        span,
                    );
                    let check = self.alloc(ExprKind::If(not, then, None), span);
                    let m = self.alloc(
                        ExprKind::Match(tuple, vec![Arm { pat, guard: None, body: check }]),
                        span,
                    );
                    (None, m)
                } else {
                    let c = self.expr(args[0]);
                    let (text, vals) = custom.unwrap_or_else(|| {
                        (
                            format!(
                                "assertion failed: {}",
                                snippet(self.source_text(), span_of(args[0]))
                            ),
                            Vec::new(),
                        )
                    });
                    let panic =
                        self.alloc(ExprKind::Panic { text, args: vals, fallback: None }, span);
                    (Some(c), panic)
                };
                let check = match cond {
                    None => panic,
                    Some(cond) => {
                        let not = self.alloc(ExprKind::Unary(UnOp::Not, cond), span);
                        let then = self.alloc(
                            ExprKind::Block(Block {
                                stmts: vec![Stmt::Expr { expr: panic, semi: true }],
                                tail: None,
                                unsafe_block: false,
                                label: None,
                            }),
                            span,
                        );
                        self.alloc(ExprKind::If(not, then, None), span)
                    }
                };
                if name.starts_with("debug_") {
                    // Off in a release build: checked by rustc, never evaluated.
                    let off = self.alloc(ExprKind::Lit(Lit::Bool(false)), span);
                    let block = self.alloc(
                        ExprKind::Block(Block {
                            stmts: vec![Stmt::Expr { expr: check, semi: true }],
                            tail: None,
                            unsafe_block: false,
                            label: None,
                        }),
                        span,
                    );
                    return self.alloc(ExprKind::If(off, block, None), span);
                }
                check
            }
            "panic" | "unreachable" | "todo" | "unimplemented" => {
                let message = if mac.tokens.is_empty() {
                    match name.as_str() {
                        "unreachable" => "internal error: entered unreachable code".to_string(),
                        "todo" => "not yet implemented".to_string(),
                        "unimplemented" => "not implemented".to_string(),
                        _ => "explicit panic".to_string(),
                    }
                } else {
                    let Ok(args) = args() else { return self.formatted(&name, span) };
                    let args: Vec<&'a syn::Expr> =
                        self.items.arena.exprs.alloc(args.into_iter().collect()).iter().collect();
                    let Some(syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. })) =
                        args.first()
                    else {
                        return self.formatted(&name, span);
                    };
                    let (text, vals) = match self.format_message(s, &args[1..], span) {
                        Ok(m) => m,
                        Err(e) => return e,
                    };
                    let text = match name.as_str() {
                        "unreachable" => {
                            format!("internal error: entered unreachable code: {text}")
                        }
                        "todo" => format!("not yet implemented: {text}"),
                        "unimplemented" => format!("not implemented: {text}"),
                        _ => text,
                    };
                    return self.alloc(ExprKind::Panic { text, args: vals, fallback: None }, span);
                };
                self.alloc(
                    ExprKind::Panic { text: message, args: Vec::new(), fallback: None },
                    span,
                )
            }
            "print" | "println" | "eprint" | "eprintln" | "gpu_print" | "gpu_println"
                if !self.items.macros.contains_key(&name) =>
            {
                self.print_macro(&name, mac, span)
            }
            "matches" => {
                struct Matches {
                    expr: syn::Expr,
                    pat: syn::Pat,
                    guard: Option<syn::Expr>,
                }
                impl syn::parse::Parse for Matches {
                    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
                        let expr = input.parse()?;
                        input.parse::<syn::Token![,]>()?;
                        let pat = syn::Pat::parse_multi_with_leading_vert(input)?;
                        let guard = if input.peek(syn::Token![if]) {
                            input.parse::<syn::Token![if]>()?;
                            Some(input.parse()?)
                        } else {
                            None
                        };
                        let _ = input.parse::<Option<syn::Token![,]>>();
                        Ok(Matches { expr, pat, guard })
                    }
                }
                let Ok(m) = mac.parse_body::<Matches>() else {
                    return self.err_expr(
                        Diagnostic::new(RK_SYNTAX, "malformed `matches!`").at(span, "here"),
                        span,
                    );
                };
                let m: &'a (syn::Expr, syn::Pat, Option<syn::Expr>) =
                    self.items.arena.matches.alloc((m.expr, m.pat, m.guard));
                let scrutinee = self.expr(&m.0);
                let names = self.names.len();
                let mut bound = Vec::new();
                let pat = self.pat(&m.1, &mut bound);
                self.names.extend(bound);
                let guard = m.2.as_ref().map(|g| self.guard(g));
                let yes = self.alloc(ExprKind::Lit(Lit::Bool(true)), span);
                self.names.truncate(names);
                let no = self.alloc(ExprKind::Lit(Lit::Bool(false)), span);
                let wild = self.alloc_pat(PatKind::Wild, span);
                self.alloc(
                    ExprKind::Match(
                        scrutinee,
                        vec![
                            Arm { pat, guard, body: yes },
                            Arm { pat: wild, guard: None, body: no },
                        ],
                    ),
                    span,
                )
            }
            // `cfg!(...)` is a constant, evaluated for the device as `#[cfg]` attributes are.
            "cfg" => match mac.parse_body::<syn::Meta>() {
                Ok(m) => {
                    let on = crate::items::collect::eval_cfg(&m);
                    self.alloc(ExprKind::Lit(Lit::Bool(on)), span)
                }
                Err(_) => self.err_expr(
                    Diagnostic::new(RK_SYNTAX, "malformed `cfg!`").at(span, "here"),
                    span,
                ),
            },
            "addr_of" | "addr_of_mut" => {
                let Ok(e) = mac.parse_body::<syn::Expr>() else {
                    return self.err_expr(
                        Diagnostic::new(RK_SYNTAX, format!("malformed `{name}!`")).at(span, "here"),
                        span,
                    );
                };
                let e: &'a syn::Expr = &self.items.arena.exprs.alloc(vec![e])[0];
                let inner = self.expr(e);
                self.alloc(ExprKind::RawRef(name == "addr_of_mut", inner), span)
            }
            _ if self.items.macros.contains_key(&name) => {
                let Some(def) = self.items.macros.get(&name) else {
                    return self.alloc(ExprKind::Err, span);
                };
                if self.depth > 64 * 4 {
                    return self.err_expr(
                        Diagnostic::new(
                            RK_UNSUPPORTED_EXPR,
                            format!("`{name}!` expands into itself too deeply"),
                        )
                        .at(span, "here"),
                        span,
                    );
                }
                let ts = match def.expand(&mac.tokens) {
                    Ok(ts) => ts,
                    Err(why) => {
                        return self.err_expr(
                            Diagnostic::new(
                                RK_UNSUPPORTED_EXPR,
                                format!("`{name}!` cannot be expanded: {why}"),
                            )
                            .at(span, "invoked here"),
                            span,
                        );
                    }
                };
                // An expression, or statements (a block of them).
                let e = match syn::parse2::<syn::Expr>(ts.clone()) {
                    Ok(e) => e,
                    Err(_) => match syn::parse2::<syn::Block>(quote::quote!({ #ts })) {
                        Ok(b) => syn::Expr::Block(syn::ExprBlock {
                            attrs: vec![],
                            label: None,
                            block: b,
                        }),
                        Err(e) => {
                            return self.err_expr(
                                Diagnostic::new(
                                    RK_UNSUPPORTED_EXPR,
                                    format!("`{name}!` expands to code rkc cannot read: {e}"),
                                )
                                .at(span, "invoked here"),
                                span,
                            );
                        }
                    },
                };
                let e: &'a syn::Expr = &self.items.arena.exprs.alloc(vec![e])[0];
                self.expr(e)
            }
            _ => {
                let scope = self.scope();
                let user_macro =
                    self.items.lookup_lexical(scope, &name, Ns::Macro, &|_| None).is_some();
                let d = if user_macro {
                    Diagnostic::new(
                        RK_UNSUPPORTED_EXPR,
                        format!("the macro `{name}!` is not expanded by rkc"),
                    )
                    .at(span, "a `macro_rules!` macro of the file")
                    .help("write the code the macro expands to, or a generic function")
                } else {
                    Diagnostic::new(RK_UNSUPPORTED_EXPR, format!("`{name}!` cannot be used in kernels"))
                        .at(span, "this macro has no device form")
                        .note("kernels may use `assert!`, `assert_eq!`, `debug_assert!`, `panic!`, `unreachable!`, `matches!`, `addr_of!`, `cfg!` and the `print!` family (`println!`, `eprintln!`...)")
                };
                self.err_expr(d, span)
            }
        }
    }

    /// A local the expansion of a macro binds (`left_val`), and its binding pattern.
    fn hidden_binding(&mut self, name: &str, span: Span) -> (LocalId, PatId) {
        let l = self.new_local(name.into(), false, span);
        let p = self.alloc_pat(PatKind::Binding { local: l, by_ref: None, sub: None }, span);
        (l, p)
    }

    /// A path expression naming a local.
    fn local_expr(&mut self, l: LocalId, span: Span) -> ExprId {
        let name = self.body.local(l).name.clone();
        let path = self
            .items
            .arena
            .paths
            .alloc(syn::Path::from(syn::Ident::new(&name, proc_macro2::Span::call_site())));
        let pe = PathExpr {
            res: Some(PathRes { res: Res::Local(l.0), resolved: 0, rest: 0 }),
            path,
            qself: None,
            scope: self.scope(),
            span,
        };
        self.alloc(ExprKind::Path(pe), span)
    }

    /// A `panic!`-style format string and its arguments: the text with `\u{1}k` for the k-th
    /// value shown (`{}`, `{:?}`, `{name}`, `{0}`), at most two, each an expression.
    fn format_message(
        &mut self,
        fmt: &syn::LitStr,
        rest: &[&'a syn::Expr],
        span: Span,
    ) -> Result<(String, Vec<ExprId>), ExprId> {
        let s = fmt.value();
        let mut text = String::new();
        let mut vals: Vec<ExprId> = Vec::new();
        let mut next_positional = 0;
        let mut chars = s.chars().peekable();
        let bad = |me: &mut Self, why: &str| -> ExprId {
            me.err_expr(
                Diagnostic::new(
                    RK_UNSUPPORTED_EXPR,
                    format!("this panic message cannot be formatted on a GPU: {why}"),
                )
                .at(span, "formatting in a kernel")
                .help("kernels show up to two integers in a message, with `{}` or `{:?}`"),
                span,
            )
        };
        // Named arguments (`name = expr`) and positional ones.
        let mut positional = Vec::new();
        let mut named = Vec::new();
        for a in rest {
            match a {
                syn::Expr::Assign(asg) => {
                    if let syn::Expr::Path(p) = asg.left.as_ref()
                        && let Some(id) = p.path.get_ident()
                    {
                        named.push((id.to_string(), asg.right.as_ref()));
                        continue;
                    }
                    positional.push(*a);
                }
                _ => positional.push(*a),
            }
        }
        while let Some(c) = chars.next() {
            match c {
                '{' if chars.peek() == Some(&'{') => {
                    chars.next();
                    text.push('{');
                }
                '}' if chars.peek() == Some(&'}') => {
                    chars.next();
                    text.push('}');
                }
                '{' => {
                    let mut spec = String::new();
                    for d in chars.by_ref() {
                        if d == '}' {
                            break;
                        }
                        spec.push(d);
                    }
                    let (arg, fmt_spec) = spec.split_once(':').unwrap_or((spec.as_str(), ""));
                    if !(fmt_spec.is_empty() || fmt_spec == "?") {
                        return Err(bad(self, &format!("the format `{{{spec}}}`")));
                    }
                    let e: ExprId = if arg.is_empty() {
                        let Some(x) = positional.get(next_positional) else {
                            return Err(bad(self, "a missing argument"));
                        };
                        next_positional += 1;
                        self.expr(x)
                    } else if let Ok(k) = arg.parse::<usize>() {
                        let Some(x) = positional.get(k) else {
                            return Err(bad(self, "a missing argument"));
                        };
                        self.expr(x)
                    } else if let Some((_, x)) = named.iter().find(|(n, _)| n == arg) {
                        self.expr(x)
                    } else {
                        // `{name}` captures a variable; anything else between
                        // braces is not a format argument rustc accepts.
                        let Ok(ident) = syn::parse_str::<syn::Ident>(arg) else {
                            return Err(bad(self, &format!("the format `{{{spec}}}`")));
                        };
                        let path = self.items.arena.paths.alloc(syn::Path::from(ident));
                        let pe = self.path(None, path, Ns::Value, span);
                        self.alloc(ExprKind::Path(pe), span)
                    };
                    if vals.len() == 2 {
                        return Err(bad(self, "more than two values"));
                    }
                    text.push('\u{1}');
                    text.push(char::from(b'0' + vals.len() as u8));
                    vals.push(e);
                }
                other => text.push(other),
            }
        }
        Ok((text, vals))
    }

    /// `print!`, `println!`, `eprint!`, `eprintln!` and rkc-offload's `gpu_print!` and
    /// `gpu_println!`: a format string and its arguments become one print whose format names
    /// every argument by index (each argument evaluated once, however often it is shown).
    /// String literal arguments are formatted here, into the text; the others are values the
    /// checker requires to be printable scalars.
    fn print_macro(&mut self, name: &str, mac: &'a syn::Macro, span: Span) -> ExprId {
        use offload_binary::format::{self, ArgRef, Piece, Trait, Value};
        let newline = name.ends_with("ln");
        let stderr = name.starts_with('e');
        let bad = |me: &mut Self, code: &'static str, message: String, label: &str, at: Span| {
            me.err_expr(Diagnostic::new(code, message).at(at, label.to_string()), span)
        };
        let args: Vec<&'a syn::Expr> = if mac.tokens.is_empty() {
            Vec::new()
        } else {
            let parsed = mac.parse_body_with(
                syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated,
            );
            let Ok(parsed) = parsed else {
                return bad(self, RK_SYNTAX, format!("malformed `{name}!`"), "here", span);
            };
            self.items.arena.exprs.alloc(parsed.into_iter().collect()).iter().collect()
        };
        let (text, rest) = match args.split_first() {
            None if newline => (String::new(), &[][..]),
            None => {
                return bad(
                    self,
                    RK_SYNTAX,
                    format!("`{name}!` requires at least a format string argument"),
                    "here",
                    span,
                );
            }
            Some((syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }), rest)) => {
                (s.value(), rest)
            }
            Some((first, _)) => {
                return bad(
                    self,
                    RK_SYNTAX,
                    "format argument must be a string literal".into(),
                    "not a string literal",
                    span_of(*first),
                );
            }
        };
        let fmt_span = args.first().map_or(span, |a| span_of(*a));
        let pieces = match format::parse(&text) {
            Ok(p) => p,
            Err(e) => {
                return bad(
                    self,
                    RK_SYNTAX,
                    format!("invalid format string: {}", e.message),
                    "in this format string",
                    fmt_span,
                );
            }
        };
        // Positional arguments, then named ones (`name = expr`), as Rust numbers them.
        let mut sources: Vec<(Option<String>, &'a syn::Expr)> = Vec::new();
        for a in rest {
            if let syn::Expr::Assign(asg) = a
                && let syn::Expr::Path(p) = asg.left.as_ref()
                && let Some(id) = p.path.get_ident()
            {
                sources.push((Some(id.to_string()), asg.right.as_ref()));
                continue;
            }
            sources.push((None, *a));
        }
        let mut used = vec![false; sources.len()];
        // Each value shown, once: by its argument's position, or a captured variable's name.
        let mut operands: Vec<(Result<usize, String>, ExprId)> = Vec::new();
        let mut out = String::new();
        let mut next = 0;
        let escape = |t: &str| t.replace('{', "{{").replace('}', "}}");
        for piece in &pieces {
            let (arg, spec, spec_text) = match piece {
                Piece::Text(t) => {
                    out.push_str(&escape(t));
                    continue;
                }
                Piece::Arg { arg, spec, spec_text } => (arg, spec, spec_text),
            };
            let source: Result<usize, String> = match arg {
                ArgRef::Next => {
                    next += 1;
                    Ok(next - 1)
                }
                ArgRef::Index(k) => Ok(*k),
                ArgRef::Name(n) => {
                    match sources.iter().position(|(m, _)| m.as_deref() == Some(n)) {
                        Some(k) => Ok(k),
                        None => Err(n.clone()),
                    }
                }
            };
            if let Ok(k) = source {
                let Some((_, e)) = sources.get(k) else {
                    let have = sources.len();
                    return bad(
                        self,
                        RK_SYNTAX,
                        format!(
                            "invalid reference to positional argument {k} ({})",
                            match have {
                                0 => "no arguments were given".to_string(),
                                1 => "there is 1 argument".to_string(),
                                n => format!("there are {n} arguments"),
                            }
                        ),
                        "in this format string",
                        fmt_span,
                    );
                };
                used[k] = true;
                // A string literal is shown here, as `format!` would show it.
                if let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) = e {
                    if !matches!(spec.trait_, Trait::Display | Trait::Debug) {
                        return bad(
                            self,
                            RK_UNSATISFIED_BOUND,
                            format!("the trait bound `str: {:?}` is not satisfied", spec.trait_),
                            "a string literal",
                            span_of(*e),
                        );
                    }
                    out.push_str(&escape(&format::format_value(spec, Value::Str(&s.value()))));
                    continue;
                }
            }
            let index = match operands.iter().position(|(s, _)| *s == source) {
                Some(i) => i,
                None => {
                    let e = match &source {
                        Ok(k) => self.expr(sources[*k].1),
                        Err(n) => {
                            // `{name}` captures a variable (Rust 2021).
                            let Ok(ident) = syn::parse_str::<syn::Ident>(n) else {
                                return bad(
                                    self,
                                    RK_SYNTAX,
                                    format!("invalid format string: `{n}` is not an argument"),
                                    "in this format string",
                                    fmt_span,
                                );
                            };
                            let path = self.items.arena.paths.alloc(syn::Path::from(ident));
                            let pe = self.path(None, path, Ns::Value, fmt_span);
                            self.alloc(ExprKind::Path(pe), fmt_span)
                        }
                    };
                    operands.push((source, e));
                    operands.len() - 1
                }
            };
            if spec_text.is_empty() {
                out.push_str(&format!("{{{index}}}"));
            } else {
                out.push_str(&format!("{{{index}:{spec_text}}}"));
            }
        }
        if let Some(k) = used.iter().position(|u| !u) {
            let what = if sources[k].0.is_some() { "named argument" } else { "argument" };
            return bad(
                self,
                RK_SYNTAX,
                format!("{what} never used"),
                "not shown by the format string",
                span_of(sources[k].1),
            );
        }
        if newline {
            out.push('\n');
        }
        let args = operands.into_iter().map(|(_, e)| e).collect();
        self.alloc(ExprKind::Print { format: out, args, stderr }, span)
    }

    fn formatted(&mut self, name: &str, span: Span) -> ExprId {
        self.err_expr(
            Diagnostic::new(
                RK_UNSUPPORTED_EXPR,
                format!("`{name}!` in a kernel takes a literal message"),
            )
            .at(span, "formatting has no device form")
            .help(format!("write `{name}!(\"...\")` with a plain string")),
            span,
        )
    }

    /// The text of the file this body is in, which its spans index: the user's, or the device
    /// core file's (an `assert!` in the core quotes its own condition, not the user's text at
    /// the same position).
    fn source_text(&self) -> &str {
        match self.file {
            crate::items::FileId::Core(k) => {
                crate::core_lib::FILES.get(usize::from(k)).map_or("", |f| f.text)
            }
            _ => self.source,
        }
    }
}
