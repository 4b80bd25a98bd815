//! `macro_rules!`: the macros a kernels file defines, matched and transcribed as rustc does
//! (fragments `expr`, `ident`, `ty`, `tt`, `literal`, `pat`, `path`, `block`, `stmt`, `item`,
//! `lifetime`, `vis`, `meta`; repetitions `$(...) sep * + ?`, nested), so that the items and
//! expressions they write are compiled like written code. Hygiene is not modelled: a
//! macro's names mean what they mean where it is used, which is what kernels rely on.

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use std::collections::HashMap;
use syn::parse::{ParseStream, Parser};

/// One `macro_rules!` definition.
#[derive(Clone, Debug)]
pub struct MacroDef {
    rules: Vec<(Vec<Matcher>, TokenStream)>,
}

#[derive(Clone, Debug)]
enum Matcher {
    /// A token that must be there (compared by its text).
    Token(String),
    Group(Delimiter, Vec<Matcher>),
    /// `$name:kind`.
    Frag(String, String),
    /// `$( ... ) sep op`; the separator's text and how many token trees it is (`||` is two
    /// punctuation marks to proc_macro2, one token to rustc).
    Repeat(Vec<Matcher>, Option<(String, usize)>, char),
}

/// What a fragment variable matched.
#[derive(Clone, Debug)]
enum Binding {
    One(TokenStream),
    Seq(Vec<Binding>),
}

impl MacroDef {
    /// Parses the body of `macro_rules! name { ... }`.
    pub fn parse(tokens: &TokenStream) -> Option<MacroDef> {
        let tts: Vec<TokenTree> = tokens.clone().into_iter().collect();
        let mut rules = Vec::new();
        let mut i = 0;
        while i < tts.len() {
            let TokenTree::Group(m) = &tts[i] else { return None };
            // `=>`
            let arrow = tts.get(i + 1).map(ToString::to_string).unwrap_or_default()
                + &tts.get(i + 2).map(ToString::to_string).unwrap_or_default();
            if arrow != "=>" {
                return None;
            }
            let TokenTree::Group(t) = tts.get(i + 3)? else { return None };
            rules.push((parse_matcher(&m.stream())?, t.stream()));
            i += 4;
            if matches!(tts.get(i), Some(TokenTree::Punct(p)) if p.as_char() == ';') {
                i += 1;
            }
        }
        (!rules.is_empty()).then_some(MacroDef { rules })
    }

    /// The expansion of an invocation's tokens, or why none of the rules matches.
    pub fn expand(&self, input: &TokenStream) -> Result<TokenStream, String> {
        let tts: Vec<TokenTree> = input.clone().into_iter().collect();
        for (matcher, transcriber) in &self.rules {
            let mut bindings = HashMap::new();
            if let Some(end) = match_seq(matcher, &tts, 0, &mut bindings)
                && end == tts.len()
            {
                return transcribe(transcriber, &bindings, &[]);
            }
        }
        Err("no rule of the macro matches this invocation".into())
    }
}

fn parse_matcher(ts: &TokenStream) -> Option<Vec<Matcher>> {
    let tts: Vec<TokenTree> = ts.clone().into_iter().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < tts.len() {
        match &tts[i] {
            TokenTree::Punct(p) if p.as_char() == '$' => match tts.get(i + 1) {
                Some(TokenTree::Ident(name)) => {
                    // `$name:kind`
                    let kind = match (tts.get(i + 2), tts.get(i + 3)) {
                        (Some(TokenTree::Punct(c)), Some(TokenTree::Ident(k)))
                            if c.as_char() == ':' =>
                        {
                            k.to_string()
                        }
                        _ => return None,
                    };
                    out.push(Matcher::Frag(name.to_string(), kind));
                    i += 4;
                }
                Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => {
                    let inner = parse_matcher(&g.stream())?;
                    let (sep, op, used) = repeat_suffix(&tts, i + 2)?;
                    out.push(Matcher::Repeat(inner, sep, op));
                    i += 2 + used;
                }
                _ => return None,
            },
            TokenTree::Group(g) => {
                out.push(Matcher::Group(g.delimiter(), parse_matcher(&g.stream())?));
                i += 1;
            }
            other => {
                out.push(Matcher::Token(other.to_string()));
                i += 1;
            }
        }
    }
    Some(out)
}

/// The separator and operator after `$( ... )`, and how many token trees they take.
fn repeat_suffix(tts: &[TokenTree], i: usize) -> Option<(Option<(String, usize)>, char, usize)> {
    let op = |t: Option<&TokenTree>| match t {
        Some(TokenTree::Punct(p)) if matches!(p.as_char(), '*' | '+' | '?') => Some(p.as_char()),
        _ => None,
    };
    if let Some(o) = op(tts.get(i)) {
        return Some((None, o, 1));
    }
    // A separator is one Rust token: a multi-character operator (`||`, `=>`, `::`) is several
    // joined punctuation marks here, the longest such run that an operator follows.
    for k in [3, 2] {
        let Some(marks) = tts.get(i..i + k) else { continue };
        let joined = marks[..k - 1].iter().all(
            |t| matches!(t, TokenTree::Punct(p) if p.spacing() == proc_macro2::Spacing::Joint),
        ) && matches!(marks[k - 1], TokenTree::Punct(_));
        let text: String = marks.iter().map(ToString::to_string).collect();
        if joined
            && MULTI_CHAR_TOKENS.contains(&text.as_str())
            && let Some(o) = op(tts.get(i + k))
        {
            return Some((Some((text, k)), o, k + 1));
        }
    }
    let sep = tts.get(i)?.to_string();
    let o = op(tts.get(i + 1))?;
    Some((Some((sep, 1)), o, 2))
}

/// Rust's punctuation tokens of more than one character.
const MULTI_CHAR_TOKENS: &[&str] = &[
    "...", "..=", "<<=", ">>=", "&&", "||", "::", "=>", "->", "<-", "..", "==", "!=", "<=", ">=",
    "<<", ">>", "+=", "-=", "*=", "/=", "%=", "^=", "&=", "|=",
];

/// Matches a sequence of matchers from `pos`; the position after it.
fn match_seq(
    pattern: &[Matcher],
    tts: &[TokenTree],
    mut pos: usize,
    bindings: &mut HashMap<String, Binding>,
) -> Option<usize> {
    for m in pattern {
        match m {
            Matcher::Token(t) => {
                if tts.get(pos).map(ToString::to_string).as_deref() != Some(t.as_str()) {
                    return None;
                }
                pos += 1;
            }
            Matcher::Group(d, inner) => {
                let TokenTree::Group(g) = tts.get(pos)? else { return None };
                if g.delimiter() != *d {
                    return None;
                }
                let inner_tts: Vec<TokenTree> = g.stream().into_iter().collect();
                if match_seq(inner, &inner_tts, 0, bindings)? != inner_tts.len() {
                    return None;
                }
                pos += 1;
            }
            Matcher::Frag(name, kind) => {
                let (ts, used) = parse_fragment(kind, &tts[pos.min(tts.len())..])?;
                bindings.insert(name.clone(), Binding::One(ts));
                pos += used;
            }
            Matcher::Repeat(inner, sep, op) => {
                let mut iterations: Vec<HashMap<String, Binding>> = Vec::new();
                let mut p = pos;
                loop {
                    if !iterations.is_empty()
                        && let Some((s, k)) = sep
                    {
                        let text: Option<String> = tts
                            .get(p..p + k)
                            .map(|ts| ts.iter().map(ToString::to_string).collect());
                        if text.as_deref() != Some(s.as_str()) {
                            break;
                        }
                        let mut b = HashMap::new();
                        match match_seq(inner, tts, p + k, &mut b) {
                            Some(q) if q > p + k => {
                                iterations.push(b);
                                p = q;
                            }
                            _ => break,
                        }
                    } else {
                        let mut b = HashMap::new();
                        match match_seq(inner, tts, p, &mut b) {
                            Some(q) if q > p => {
                                iterations.push(b);
                                p = q;
                            }
                            _ => break,
                        }
                    }
                    if *op == '?' {
                        break;
                    }
                }
                if *op == '+' && iterations.is_empty() {
                    return None;
                }
                for name in frag_names(inner) {
                    let seq = iterations
                        .iter()
                        .map(|b| b.get(&name).cloned().unwrap_or(Binding::Seq(Vec::new())))
                        .collect();
                    bindings.insert(name, Binding::Seq(seq));
                }
                pos = p;
            }
        }
    }
    Some(pos)
}

fn frag_names(pattern: &[Matcher]) -> Vec<String> {
    let mut out = Vec::new();
    for m in pattern {
        match m {
            Matcher::Frag(n, _) => out.push(n.clone()),
            Matcher::Group(_, inner) | Matcher::Repeat(inner, _, _) => {
                out.extend(frag_names(inner))
            }
            Matcher::Token(_) => {}
        }
    }
    out
}

/// Parses one fragment at the start of `tts`: its tokens (an expression wrapped in an
/// invisible group, so that it keeps its precedence where it is pasted) and how many token
/// trees it took.
fn parse_fragment(kind: &str, tts: &[TokenTree]) -> Option<(TokenStream, usize)> {
    let input: TokenStream = tts.iter().cloned().collect();
    let total = tts.len();
    let parsed =
        |f: &dyn Fn(ParseStream) -> syn::Result<TokenStream>| -> Option<(TokenStream, usize)> {
            let parser = |s: ParseStream| -> syn::Result<(TokenStream, TokenStream)> {
                let frag = f(s)?;
                let rest: TokenStream = s.parse()?;
                Ok((frag, rest))
            };
            let (frag, rest) = parser.parse2(input.clone()).ok()?;
            let used = total - rest.into_iter().count();
            (used > 0).then_some((frag, used))
        };
    use quote::ToTokens;
    match kind {
        "tt" => tts.first().map(|t| (TokenStream::from(t.clone()), 1)),
        "ident" => match tts.first() {
            Some(TokenTree::Ident(i)) => Some((TokenStream::from(TokenTree::Ident(i.clone())), 1)),
            _ => None,
        },
        "lifetime" => parsed(&|s| Ok(s.parse::<syn::Lifetime>()?.to_token_stream())),
        "literal" => {
            // A literal, possibly negative.
            if let Some(TokenTree::Punct(p)) = tts.first()
                && p.as_char() == '-'
                && let Some(TokenTree::Literal(l)) = tts.get(1)
            {
                return Some((
                    [TokenTree::Punct(p.clone()), TokenTree::Literal(l.clone())]
                        .into_iter()
                        .collect(),
                    2,
                ));
            }
            match tts.first() {
                Some(t @ TokenTree::Literal(_)) => Some((TokenStream::from(t.clone()), 1)),
                Some(TokenTree::Ident(i)) if i == "true" || i == "false" => {
                    Some((TokenStream::from(TokenTree::Ident(i.clone())), 1))
                }
                _ => None,
            }
        }
        "expr" | "expr_2021" => {
            let (ts, used) = parsed(&|s| Ok(s.parse::<syn::Expr>()?.to_token_stream()))?;
            Some((TokenStream::from(TokenTree::Group(Group::new(Delimiter::None, ts))), used))
        }
        "ty" => parsed(&|s| Ok(s.parse::<syn::Type>()?.to_token_stream())),
        "pat" | "pat_param" => {
            parsed(&|s| Ok(syn::Pat::parse_multi_with_leading_vert(s)?.to_token_stream()))
        }
        "path" => parsed(&|s| Ok(s.parse::<syn::Path>()?.to_token_stream())),
        "block" => parsed(&|s| Ok(s.parse::<syn::Block>()?.to_token_stream())),
        "stmt" => parsed(&|s| Ok(s.parse::<syn::Stmt>()?.to_token_stream())),
        "item" => parsed(&|s| Ok(s.parse::<syn::Item>()?.to_token_stream())),
        "vis" => {
            // An empty visibility matches nothing.
            match parsed(&|s| Ok(s.parse::<syn::Visibility>()?.to_token_stream())) {
                Some(x) => Some(x),
                None => Some((TokenStream::new(), 0)),
            }
        }
        "meta" => parsed(&|s| Ok(s.parse::<syn::Meta>()?.to_token_stream())),
        _ => None,
    }
}

/// Writes the transcriber with the bindings at the repetition indices `at`.
fn transcribe(
    ts: &TokenStream,
    bindings: &HashMap<String, Binding>,
    at: &[usize],
) -> Result<TokenStream, String> {
    let tts: Vec<TokenTree> = ts.clone().into_iter().collect();
    let mut out = TokenStream::new();
    let mut i = 0;
    while i < tts.len() {
        match &tts[i] {
            TokenTree::Punct(p) if p.as_char() == '$' => match tts.get(i + 1) {
                Some(TokenTree::Ident(name)) if name == "crate" => {
                    out.extend([TokenTree::Ident(proc_macro2::Ident::new("crate", name.span()))]);
                    i += 2;
                }
                Some(TokenTree::Ident(name)) => {
                    match lookup(bindings, &name.to_string(), at) {
                        Some(Binding::One(t)) => out.extend(t),
                        Some(Binding::Seq(_)) => {
                            return Err(format!(
                                "`${name}` is used outside the repetition it matched in"
                            ));
                        }
                        None => {
                            out.extend([tts[i].clone(), tts[i + 1].clone()]);
                        }
                    }
                    i += 2;
                }
                Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => {
                    let (sep, _op, used) =
                        repeat_suffix(&tts, i + 2).ok_or("a malformed repetition")?;
                    let count = repetition_count(&g.stream(), bindings, at)
                        .ok_or("a repetition uses no variable that repeats")?;
                    for k in 0..count {
                        if k > 0
                            && let Some((s, _)) = &sep
                        {
                            let sep_ts: TokenStream = s.parse().map_err(|_| "a bad separator")?;
                            out.extend(sep_ts);
                        }
                        let mut inner_at = at.to_vec();
                        inner_at.push(k);
                        out.extend(transcribe(&g.stream(), bindings, &inner_at)?);
                    }
                    i += 2 + used;
                }
                _ => {
                    out.extend([tts[i].clone()]);
                    i += 1;
                }
            },
            TokenTree::Group(g) => {
                let mut ng = Group::new(g.delimiter(), transcribe(&g.stream(), bindings, at)?);
                ng.set_span(g.span());
                out.extend([TokenTree::Group(ng)]);
                i += 1;
            }
            other => {
                out.extend([other.clone()]);
                i += 1;
            }
        }
    }
    Ok(out)
}

/// A binding at the repetition indices: descends into sequences as deep as `at` goes.
fn lookup(bindings: &HashMap<String, Binding>, name: &str, at: &[usize]) -> Option<Binding> {
    let mut b = bindings.get(name)?.clone();
    for &k in at {
        match b {
            Binding::Seq(items) => b = items.get(k)?.clone(),
            Binding::One(_) => break,
        }
    }
    Some(b)
}

/// How many times a repetition runs: the length of the sequences of the variables it uses.
fn repetition_count(
    ts: &TokenStream,
    bindings: &HashMap<String, Binding>,
    at: &[usize],
) -> Option<usize> {
    let mut names = Vec::new();
    collect_vars(ts, &mut names);
    names.iter().find_map(|n| match lookup(bindings, n, at)? {
        Binding::Seq(items) => Some(items.len()),
        Binding::One(_) => None,
    })
}

fn collect_vars(ts: &TokenStream, out: &mut Vec<String>) {
    let tts: Vec<TokenTree> = ts.clone().into_iter().collect();
    for (k, t) in tts.iter().enumerate() {
        match t {
            TokenTree::Punct(p) if p.as_char() == '$' => {
                if let Some(TokenTree::Ident(n)) = tts.get(k + 1) {
                    out.push(n.to_string());
                }
            }
            TokenTree::Group(g) => collect_vars(&g.stream(), out),
            _ => {}
        }
    }
}

/// Every `macro_rules!` of a file (in modules and function bodies too), by name.
pub fn find_macros(file: &syn::File) -> HashMap<String, MacroDef> {
    use syn::visit::Visit;
    struct Finder(HashMap<String, MacroDef>);
    impl<'a> Visit<'a> for Finder {
        fn visit_item_macro(&mut self, m: &'a syn::ItemMacro) {
            if m.mac.path.is_ident("macro_rules")
                && let Some(name) = &m.ident
                && let Some(def) = MacroDef::parse(&m.mac.tokens)
            {
                self.0.insert(name.to_string(), def);
            }
        }

        // `macro_rules! name { .. }` as a statement of a function body.
        fn visit_stmt_macro(&mut self, m: &'a syn::StmtMacro) {
            if m.mac.path.is_ident("macro_rules") {
                let tts: Vec<TokenTree> = m.mac.tokens.clone().into_iter().collect();
                if let (Some(TokenTree::Ident(name)), Some(TokenTree::Group(body))) =
                    (tts.first(), tts.get(1))
                    && let Some(def) = MacroDef::parse(&body.stream())
                {
                    self.0.insert(name.to_string(), def);
                }
            }
            syn::visit::visit_stmt_macro(self, m);
        }

        fn visit_expr_macro(&mut self, m: &'a syn::ExprMacro) {
            if m.mac.path.is_ident("macro_rules") {
                let tts: Vec<TokenTree> = m.mac.tokens.clone().into_iter().collect();
                if let (Some(TokenTree::Ident(name)), Some(TokenTree::Group(body))) =
                    (tts.first(), tts.get(1))
                    && let Some(def) = MacroDef::parse(&body.stream())
                {
                    self.0.insert(name.to_string(), def);
                }
            }
        }
    }
    let mut f = Finder(HashMap::new());
    f.visit_file(file);
    f.0
}

/// Expands the item-position invocations of the file's own macros in place (in modules and
/// function bodies too), to a fixed point.
pub fn expand_items(
    file: &mut syn::File,
    macros: &HashMap<String, MacroDef>,
) -> Vec<(proc_macro2::Span, String)> {
    let mut errors = Vec::new();
    expand_item_list(&mut file.items, macros, &mut errors, 0);
    errors
}

fn expand_item_list(
    items: &mut Vec<syn::Item>,
    macros: &HashMap<String, MacroDef>,
    errors: &mut Vec<(proc_macro2::Span, String)>,
    depth: u32,
) {
    let mut k = 0;
    while k < items.len() {
        let expansion = match &items[k] {
            syn::Item::Macro(m) if m.ident.is_none() => {
                let name = m.mac.path.get_ident().map(ToString::to_string);
                name.and_then(|n| {
                    macros
                        .get(&n)
                        .map(|def| (def.expand(&m.mac.tokens), m.mac.path.segments[0].ident.span()))
                })
            }
            _ => None,
        };
        match expansion {
            Some((Ok(ts), span)) if depth < 64 => match syn::parse2::<syn::File>(ts) {
                Ok(f) => {
                    let n = f.items.len();
                    items.splice(k..=k, f.items);
                    // The expansion may hold invocations of its own.
                    let mut sub: Vec<syn::Item> = items.drain(k..k + n).collect();
                    expand_item_list(&mut sub, macros, errors, depth + 1);
                    let m = sub.len();
                    items.splice(k..k, sub);
                    k += m;
                    continue;
                }
                Err(e) => errors
                    .push((span, format!("the macro's expansion is not a list of items: {e}"))),
            },
            Some((Err(e), span)) => errors.push((span, e)),
            Some((Ok(_), span)) => {
                errors.push((span, "macros expand into each other more than 64 levels deep".into()))
            }
            None => {}
        }
        match &mut items[k] {
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &mut m.content {
                    expand_item_list(inner, macros, errors, depth);
                }
            }
            syn::Item::Fn(f) => expand_in_block(&mut f.block, macros, errors, depth),
            syn::Item::Impl(i) => {
                for ii in &mut i.items {
                    if let syn::ImplItem::Fn(f) = ii {
                        expand_in_block(&mut f.block, macros, errors, depth);
                    }
                }
            }
            _ => {}
        }
        k += 1;
    }
}

/// Item invocations inside function bodies (`fn main() { my_items!(); }`).
fn expand_in_block(
    block: &mut syn::Block,
    macros: &HashMap<String, MacroDef>,
    errors: &mut Vec<(proc_macro2::Span, String)>,
    depth: u32,
) {
    let mut items: Vec<syn::Item> = Vec::new();
    for s in &block.stmts {
        if let syn::Stmt::Item(i) = s {
            items.push(i.clone());
        }
    }
    if items.is_empty() {
        return;
    }
    let before = items.len();
    expand_item_list(&mut items, macros, errors, depth);
    if items.len() == before {
        return;
    }
    // Put the expanded items first; their order among statements does not matter.
    block.stmts.retain(|s| !matches!(s, syn::Stmt::Item(_)));
    let mut stmts: Vec<syn::Stmt> = items.into_iter().map(syn::Stmt::Item).collect();
    stmts.append(&mut block.stmts);
    block.stmts = stmts;
}
