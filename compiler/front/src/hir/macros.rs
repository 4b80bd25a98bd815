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
                                snippet(&self.source_text(), span_of(args[0]))
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
                        .note("kernels may use `assert!`, `assert_eq!`, `debug_assert!`, `panic!`, `unreachable!`, `matches!` and `addr_of!`")
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
    fn source_text(&self) -> std::borrow::Cow<'_, str> {
        match self.file {
            crate::items::FileId::Core(k) => crate::items::collect::CoreSources::get()
                .ok()
                .and_then(|c| c.files.get(usize::from(k)).map(|(_, text, _)| text.clone()))
                .map_or(std::borrow::Cow::Borrowed(""), std::borrow::Cow::Owned),
            _ => std::borrow::Cow::Borrowed(self.source),
        }
    }
}
