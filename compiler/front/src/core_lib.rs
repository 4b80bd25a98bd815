//! The device core: rkc's own small `core`, written in Rust (compiler/front/core/*.rs) and
//! compiled like user code. `Option`, `Result`, `Ordering`, ranges, iterators and their
//! adapters, slice methods and the methods of the primitive types are library code here,
//! held to rustc's behaviour by the differential test like every kernel; the compiler knows
//! only the items marked `#[lang = "..."]` and the intrinsics of `extern "rkc-intrinsic"`
//! blocks.
//!
//! Each file is a module of the core named after the file (`option.rs` is `core::option`);
//! `lib.rs` is the root. Code that is the same for several primitive types is written once
//! between `//@ for $T in <types>` and `//@ end`: the lines are repeated for each type, with
//! `$T` the type, `$U` its unsigned and `$S` its signed twin, `$BITS` its width.

/// The core's files: (module, text).
const FILES: &[(&str, &str)] = &[
    ("lib", include_str!("../core/lib.rs")),
    ("prelude", include_str!("../core/prelude.rs")),
    ("intrinsics", include_str!("../core/intrinsics.rs")),
    ("marker", include_str!("../core/marker.rs")),
    ("clone", include_str!("../core/clone.rs")),
    ("default", include_str!("../core/default.rs")),
    ("cmp", include_str!("../core/cmp.rs")),
    ("ops", include_str!("../core/ops.rs")),
    ("option", include_str!("../core/option.rs")),
    ("result", include_str!("../core/result.rs")),
    ("iter", include_str!("../core/iter.rs")),
    ("range", include_str!("../core/range.rs")),
    ("slice", include_str!("../core/slice.rs")),
    ("array", include_str!("../core/array.rs")),
    ("num", include_str!("../core/num.rs")),
    ("f32", include_str!("../core/f32.rs")),
    ("f64", include_str!("../core/f64.rs")),
    ("mem", include_str!("../core/mem.rs")),
    ("ptr", include_str!("../core/ptr.rs")),
    ("convert", include_str!("../core/convert.rs")),
    ("convert_int", include_str!("../core/convert_int.rs")),
    ("hint", include_str!("../core/hint.rs")),
    ("char", include_str!("../core/char.rs")),
    ("half", include_str!("../core/half.rs")),
    ("offload", include_str!("../core/offload.rs")),
];

/// The core's files, each with its template blocks written as marked modules (see
/// [`expand_templates`]).
pub fn files() -> Vec<(String, String)> {
    FILES.iter().map(|(name, text)| (name.to_string(), mark_templates(text))).collect()
}

/// A function body of the core that the front end parses only when a kernel reaches the
/// function: most of the core's text is bodies, and a kernel uses few of them, so parsing
/// every body at every run was most of the front end's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LazyBody {
    /// The body's bytes in the file's text, from its `{` through its `}`.
    pub start: usize,
    pub end: usize,
    /// Where the `{` is: line from 1, column (in characters) from 0, as proc-macro2 counts
    /// them, so that the body parsed alone has the spans it has in the file.
    pub line: usize,
    pub column: usize,
}

/// The function called by the stub that stands for a body left out of the parse: `__b(k)` is
/// body `k` of the file, and `__b::<T>(k)` the same body in the copy of a template's item for
/// the type `T` (template expansion adds the type). The name is short so that most one-line
/// bodies (`{ self + o }`) have room for the stub, which takes the body's place exactly.
const LAZY: &str = "__b";

/// The file's text with every function body that declares no items replaced by a stub, a call
/// of [`LAZY`] padded to the body's size so that everything after the body keeps its line and
/// column, and those bodies. A body that declares items (`fn`, `use`, `const`, ...) stays: the item
/// table must see its items. The text is the core's own, so this small scanner knows only
/// what the core writes: comments, strings, characters and lifetimes, and braces.
pub fn skeleton(text: &str) -> (String, Vec<LazyBody>) {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut bodies = Vec::new();
    // `copied` is where the text not yet copied to `out` starts; `line` is the line there.
    let (mut copied, mut line) = (0usize, 1usize);
    let mut i = 0;
    while i < bytes.len() {
        if let Some(next) = skip_literal(bytes, i) {
            i = next;
            continue;
        }
        if !is_ident_start(bytes[i]) || (i > 0 && is_ident_char(bytes[i - 1])) {
            i += 1;
            continue;
        }
        let word_end = i + bytes[i..].iter().take_while(|b| is_ident_char(**b)).count();
        if &text[i..word_end] != "fn" {
            i = word_end;
            continue;
        }
        let Some((open, close)) = fn_body(bytes, word_end) else {
            i = word_end;
            continue;
        };
        i = close + 1;
        let inner = &text[open + 1..close];
        if declares_items(inner) {
            continue;
        }
        let k = bodies.len();
        let stub = format!("{{{LAZY}({k})");
        let newlines = inner.matches('\n').count();
        // The `}` keeps its column: after the body's last newline, or, for a body on one
        // line, at the body's end. A one-line body shorter than the stub stays.
        let last = inner.rsplit('\n').next().map_or(0, |l| l.chars().count());
        let padding = if newlines > 0 {
            last
        } else if let Some(p) = (1 + last).checked_sub(stub.len()) {
            p
        } else {
            continue;
        };
        line += text[copied..open].matches('\n').count();
        let column = text[..open].rsplit('\n').next().map_or(0, |l| l.chars().count());
        bodies.push(LazyBody { start: open, end: close + 1, line, column });
        out.push_str(&text[copied..open]);
        out.push_str(&stub);
        out.extend(std::iter::repeat_n('\n', newlines));
        out.extend(std::iter::repeat_n(' ', padding));
        out.push('}');
        line += newlines;
        copied = close + 1;
    }
    out.push_str(&text[copied..]);
    (out, bodies)
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// If a comment, a string or a character literal starts at `i`, the index after it.
fn skip_literal(bytes: &[u8], i: usize) -> Option<usize> {
    let at = |k: usize| bytes.get(k).copied().unwrap_or(0);
    match at(i) {
        b'/' if at(i + 1) == b'/' => {
            Some(i + bytes[i..].iter().position(|b| *b == b'\n').unwrap_or(bytes.len() - i))
        }
        b'/' if at(i + 1) == b'*' => {
            let (mut depth, mut k) = (0usize, i);
            while k < bytes.len() {
                if at(k) == b'/' && at(k + 1) == b'*' {
                    depth += 1;
                    k += 2;
                } else if at(k) == b'*' && at(k + 1) == b'/' {
                    depth -= 1;
                    k += 2;
                    if depth == 0 {
                        return Some(k);
                    }
                } else {
                    k += 1;
                }
            }
            Some(k)
        }
        b'"' => {
            let mut k = i + 1;
            while k < bytes.len() && at(k) != b'"' {
                k += if at(k) == b'\\' { 2 } else { 1 };
            }
            Some(k + 1)
        }
        // A raw string: `r"..."`, `r#"..."#`, with `b` before it or not.
        b'r' if (i == 0
            || !is_ident_char(at(i - 1))
            || (at(i - 1) == b'b' && (i < 2 || !is_ident_char(at(i - 2)))))
            && matches!(at(i + 1), b'"' | b'#') =>
        {
            let hashes = bytes[i + 1..].iter().take_while(|b| **b == b'#').count();
            if at(i + 1 + hashes) != b'"' {
                return None;
            }
            let mut closing = vec![b'"'];
            closing.extend(std::iter::repeat_n(b'#', hashes));
            let from = i + 2 + hashes;
            let len = bytes[from..].windows(closing.len()).position(|w| w == closing.as_slice());
            Some(len.map_or(bytes.len(), |l| from + l + closing.len()))
        }
        // A character (`'a'`, `'\n'`, `'\u{1F600}'`), not a lifetime (`'a`).
        b'\'' => {
            if at(i + 1) == b'\\' {
                let close = bytes[i + 2..].iter().position(|b| *b == b'\'')?;
                return Some(i + 2 + close + 1);
            }
            let width = std::str::from_utf8(&bytes[i + 1..bytes.len().min(i + 5)])
                .or_else(|e| std::str::from_utf8(&bytes[i + 1..i + 1 + e.valid_up_to()]))
                .ok()
                .and_then(|s| s.chars().next())
                .map_or(1, char::len_utf8);
            (at(i + 1 + width) == b'\'').then_some(i + 2 + width)
        }
        _ => None,
    }
}

/// The braces of the body of the function whose `fn` keyword ends at `from`: the first `{`
/// outside parentheses and brackets, and its partner. `None` for a function without a body
/// (`fn f();`) or a function pointer type (`fn(u32)` in a field, closed by the item's `}`,
/// `)` or `;`).
fn fn_body(bytes: &[u8], from: usize) -> Option<(usize, usize)> {
    let mut depth = 0i32;
    let mut i = from;
    let open = loop {
        if let Some(next) = skip_literal(bytes, i) {
            i = next;
            continue;
        }
        match *bytes.get(i)? {
            b'(' | b'[' => depth += 1,
            // A function pointer type closed by the item around it: `struct F(fn(u32));`.
            b')' | b']' if depth == 0 => return None,
            b')' | b']' => depth -= 1,
            b'{' if depth == 0 => break i,
            b';' | b'}' if depth == 0 => return None,
            _ => {}
        }
        i += 1;
    };
    let mut depth = 0i32;
    i = open;
    loop {
        if let Some(next) = skip_literal(bytes, i) {
            i = next;
            continue;
        }
        match *bytes.get(i)? {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some((open, i));
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// Whether a body's text may declare items, which the item table must see. Conservative:
/// any of the keywords that start an item, anywhere in the text.
fn declares_items(body: &str) -> bool {
    const ITEM_WORDS: &[&str] = &[
        "fn",
        "struct",
        "enum",
        "union",
        "impl",
        "trait",
        "mod",
        "use",
        "const",
        "static",
        "type",
        "extern",
        "macro_rules",
    ];
    body.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).any(|w| ITEM_WORDS.contains(&w))
}

/// The body a stub stands for: its number in the file, and the template type of the copy it
/// is in, if any (see [`LAZY`]).
pub fn lazy_stub(block: &syn::Block) -> Option<(usize, Option<String>)> {
    let [syn::Stmt::Expr(syn::Expr::Call(call), None)] = block.stmts.as_slice() else {
        return None;
    };
    let syn::Expr::Path(path) = &*call.func else { return None };
    let [segment] = path.path.segments.iter().collect::<Vec<_>>()[..] else { return None };
    if segment.ident != LAZY {
        return None;
    }
    let [syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(k), .. })] =
        call.args.iter().collect::<Vec<_>>()[..]
    else {
        return None;
    };
    let ty = match &segment.arguments {
        syn::PathArguments::AngleBracketed(a) => match a.args.first() {
            Some(syn::GenericArgument::Type(syn::Type::Path(t))) => {
                t.path.get_ident().map(|i| i.to_string())
            }
            _ => None,
        },
        _ => None,
    };
    Some((k.base10_parse().ok()?, ty))
}

/// Parses a body left out of the file's parse, with the spans it has in the file, and
/// substitutes the template's type in it when it belongs to a template's copy.
pub fn parse_body(text: &str, body: LazyBody, ty: Option<&str>) -> syn::Result<syn::Block> {
    let mut positioned = String::with_capacity(body.line + body.column + body.end - body.start);
    positioned.extend(std::iter::repeat_n('\n', body.line - 1));
    positioned.extend(std::iter::repeat_n(' ', body.column));
    positioned.push_str(&text[body.start..body.end]);
    let mut block: syn::Block = syn::parse_str(&positioned)?;
    if let Some(t) = ty {
        let (u, s, bits) = twins(t);
        syn::visit_mut::VisitMut::visit_block_mut(&mut Subst { t, u, s, bits }, &mut block);
    }
    Ok(block)
}

/// The unsigned and signed twins and the width of a primitive type.
fn twins(t: &str) -> (&'static str, &'static str, u32) {
    match t {
        "u8" | "i8" => ("u8", "i8", 8),
        "u16" | "i16" | "f16" | "bf16" => ("u16", "i16", 16),
        "u32" | "i32" | "f32" => ("u32", "i32", 32),
        "u64" | "i64" | "f64" => ("u64", "i64", 64),
        "usize" | "isize" => ("usize", "isize", 64),
        "u128" | "i128" => ("u128", "i128", 128),
        _ => ("u32", "i32", 32),
    }
}

/// Rewrites each `//@ for $T in <types>` ... `//@ end` block as a module
/// `#[rkc_template = "<types>"] mod __template { .. }` whose `$T`, `$U`, `$S`, `$BITS` are
/// the identifiers `__T`, `__U`, `__S`, `__BITS`. The block is parsed once and its items
/// copied per type after parsing, which is far cheaper than parsing every copy.
fn mark_templates(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 256);
    for line in text.lines() {
        if let Some(spec) = line.trim().strip_prefix("//@ for $T in ") {
            out.push_str(&format!("#[rkc_template = \"{}\"] mod __template {{", spec.trim()));
        } else if line.trim() == "//@ end" {
            out.push('}');
        } else if line.contains('$') {
            out.push_str(
                &line
                    .replace("$T", "__T")
                    .replace("$U", "__U")
                    .replace("$S", "__S")
                    .replace("$BITS", "__BITS"),
            );
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// Replaces each template module of a parsed core file by its items, once per type.
pub fn expand_templates(file: &mut syn::File) {
    let mut items = Vec::with_capacity(file.items.len());
    for item in std::mem::take(&mut file.items) {
        let syn::Item::Mod(m) = &item else {
            items.push(item);
            continue;
        };
        let spec =
            m.attrs.iter().find(|a| a.path().is_ident("rkc_template")).and_then(|a| {
                match &a.meta {
                    syn::Meta::NameValue(syn::MetaNameValue {
                        value: syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }),
                        ..
                    }) => Some(s.value()),
                    _ => None,
                }
            });
        let (Some(spec), Some((_, inner))) = (spec, &m.content) else {
            items.push(item);
            continue;
        };
        for t in spec.split_whitespace() {
            let (u, s, bits) = twins(t);
            let mut subst = Subst { t, u, s, bits };
            for it in inner {
                let mut copy = it.clone();
                syn::visit_mut::VisitMut::visit_item_mut(&mut subst, &mut copy);
                items.push(copy);
            }
        }
    }
    file.items = items;
}

struct Subst<'s> {
    t: &'s str,
    u: &'s str,
    s: &'s str,
    bits: u32,
}

impl syn::visit_mut::VisitMut for Subst<'_> {
    fn visit_ident_mut(&mut self, i: &mut proc_macro2::Ident) {
        // Compared in place: `to_string` would allocate for every identifier of every copy.
        let to = if i == "__T" {
            self.t
        } else if i == "__U" {
            self.u
        } else if i == "__S" {
            self.s
        } else {
            return;
        };
        *i = proc_macro2::Ident::new(to, i.span());
    }

    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        // A body left out of the parse: the copy's body is the template's, for this type.
        if let syn::Expr::Call(call) = e
            && let syn::Expr::Path(p) = &mut *call.func
            && p.path.is_ident(LAZY)
        {
            let t = syn::Ident::new(self.t, proc_macro2::Span::call_site());
            p.path.segments[0].arguments =
                syn::PathArguments::AngleBracketed(syn::parse_quote!(::<#t>));
            return;
        }
        if let syn::Expr::Path(p) = e
            && p.path.is_ident("__BITS")
        {
            *e = syn::Expr::Lit(syn::ExprLit {
                attrs: Vec::new(),
                lit: syn::Lit::Int(syn::LitInt::new(
                    &self.bits.to_string(),
                    proc_macro2::Span::call_site(),
                )),
            });
            return;
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn templates_repeat_for_each_type() {
        use quote::ToTokens;
        let text = "fn a() {}\n//@ for $T in u8 i64\nimpl $T { const B: u32 = $BITS; fn u(self) -> $U { self as $U } }\n//@ end\nfn b() {}\n";
        let mut file = syn::parse_file(&super::mark_templates(text)).unwrap();
        super::expand_templates(&mut file);
        let out: Vec<String> = file.items.iter().map(|i| i.to_token_stream().to_string()).collect();
        assert_eq!(
            out,
            [
                "fn a () { }",
                "impl u8 { const B : u32 = 8 ; fn u (self) -> u8 { self as u8 } }",
                "impl i64 { const B : u32 = 64 ; fn u (self) -> u64 { self as u64 } }",
                "fn b () { }"
            ]
        );
    }

    /// Every fn block of a file, in the order of the items.
    fn blocks(file: &syn::File) -> Vec<syn::Block> {
        struct Blocks(Vec<syn::Block>);
        impl<'a> syn::visit::Visit<'a> for Blocks {
            fn visit_item_fn(&mut self, f: &'a syn::ItemFn) {
                self.0.push((*f.block).clone());
            }
            fn visit_impl_item_fn(&mut self, f: &'a syn::ImplItemFn) {
                self.0.push(f.block.clone());
            }
            fn visit_trait_item_fn(&mut self, f: &'a syn::TraitItemFn) {
                self.0.extend(f.default.clone());
            }
        }
        let mut b = Blocks(Vec::new());
        syn::visit::Visit::visit_file(&mut b, file);
        b.0
    }

    /// The core parsed with its bodies left out, then each body parsed alone, is the core
    /// parsed whole: the same tokens at the same lines and columns, in every template copy.
    #[test]
    fn lazy_bodies_are_the_bodies_of_the_file() {
        use quote::ToTokens;
        use syn::spanned::Spanned;
        let mut lazy = 0;
        for (name, text) in super::files() {
            let (skeleton, bodies) = super::skeleton(&text);
            let mut whole = syn::parse_file(&text).unwrap();
            super::expand_templates(&mut whole);
            let mut parsed = syn::parse_file(&skeleton).unwrap_or_else(|e| {
                panic!("core/{name}.rs skeleton: {e} at {:?}", e.span().start())
            });
            super::expand_templates(&mut parsed);
            let (expected, got) = (blocks(&whole), blocks(&parsed));
            assert_eq!(expected.len(), got.len(), "core/{name}.rs");
            for (want, stub) in expected.iter().zip(&got) {
                let block = match super::lazy_stub(stub) {
                    Some((k, ty)) => {
                        lazy += 1;
                        super::parse_body(&text, bodies[k], ty.as_deref()).unwrap()
                    }
                    None => stub.clone(),
                };
                assert_eq!(
                    want.to_token_stream().to_string(),
                    block.to_token_stream().to_string(),
                    "core/{name}.rs"
                );
                let starts = |b: &syn::Block| {
                    b.stmts
                        .iter()
                        .map(|s| s.span().start())
                        .chain([b.brace_token.span.close().start()])
                        .map(|p| (p.line, p.column))
                        .collect::<Vec<_>>()
                };
                assert_eq!(starts(want), starts(&block), "core/{name}.rs");
            }
        }
        // Nearly every body of the core is left out; a scanner that found none would pass the
        // comparison above.
        assert!(lazy > 1500, "only {lazy} bodies of the core are parsed lazily");
    }

    #[test]
    fn the_scanner_knows_literals_comments_and_pointer_types() {
        let text = r##"struct F(fn(u32) -> u32);
struct G { f: fn(u8), }
trait T { fn decl(&self) -> u32; fn dflt(&self) -> u32 { 7 + 1_000 } }
fn strings() -> &'static str { let _c = '{'; let _d = '\''; /* } { */ // }
    "}{" }
fn raw<'a>(x: &'a u8) -> &'a str { let _ = x; r#"}"# }
fn items() { fn inner() {} inner() }
fn tiny() { 1 }
"##;
        let (skeleton, bodies) = super::skeleton(text);
        let lazy: Vec<&str> = bodies.iter().map(|b| &text[b.start..b.end]).collect();
        assert_eq!(
            lazy,
            [
                "{ 7 + 1_000 }",
                "{ let _c = '{'; let _d = '\\''; /* } { */ // }\n    \"}{\" }",
                "{ let _ = x; r#\"}\"# }",
            ]
        );
        assert_eq!(bodies[1].line, 4);
        // Whatever follows a body keeps its place: a line keeps its length, but for the first
        // line of a body on several lines, which ends with the stub.
        assert_eq!(skeleton.lines().count(), text.lines().count());
        for (a, b) in skeleton.lines().zip(text.lines()) {
            assert!(a.len() == b.len() || a.ends_with("{__b(1)"), "{a:?} / {b:?}");
        }
        syn::parse_file(&skeleton).unwrap();
    }

    #[test]
    fn every_core_file_parses() {
        for (name, text) in super::files() {
            if let Err(e) = syn::parse_file(&text) {
                panic!("core/{name}.rs: {e} at {:?}", e.span().start());
            }
        }
    }
}
