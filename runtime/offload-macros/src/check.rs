//! rkc's own errors at `cargo check` time. `#[offload_kernel]` runs rkc's front end (the
//! crate rkc itself uses, so the two agree: one front end, two callers) over the kernel file
//! and turns each diagnostic into a compile error at the right token, so that `cargo check`,
//! clippy and rust-analyzer show what rkc would refuse while the user types instead of at the
//! next build script run.
//!
//! The file is found through `Span::local_file` and checked once per compilation (the result
//! is kept, keyed by path and contents, for the file's other kernels). A diagnostic inside a
//! kernel is reported by that kernel's attribute, at the token it points to; one elsewhere in
//! the file (a helper function, a struct) or about the whole file is reported by the file's
//! first kernel, at its name, with the location in the message.

use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::quote_spanned;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// One rkc diagnostic, ready to report: where it points (1-based line, 0-based column, as
/// rkc's spans are) and its text.
struct Found {
    at: Option<(usize, usize)>,
    text: String,
}

/// A checked file: its kernels' line ranges, in source order, and rkc's diagnostics.
struct Checked {
    kernels: Vec<(usize, usize)>,
    found: Vec<Found>,
}

static CACHE: Mutex<Option<HashMap<(PathBuf, u64), Arc<Checked>>>> = Mutex::new(None);

/// The compile errors this kernel reports: rkc's diagnostics in its lines, and, for the
/// file's first kernel, those outside every kernel. Empty when the file cannot be found
/// (a macro expanded from generated code, or a tool without `local_file`).
///
/// rkc's errors in the kernel's signature are left out: the host side refuses every
/// signature rkc refuses (the two agree on parameter types), in upstream's words, and the
/// user would read each error twice.
pub fn errors(item: proc_macro::TokenStream) -> TokenStream2 {
    let Some(path) = proc_macro::Span::call_site().local_file() else { return TokenStream2::new() };
    let Ok(source) = std::fs::read_to_string(&path) else { return TokenStream2::new() };
    let checked = check(path.clone(), &source);
    // The body's opening brace: the last brace group at the item's top level.
    let body = item.clone().into_iter().filter_map(|t| match t {
        proc_macro::TokenTree::Group(g) if g.delimiter() == proc_macro::Delimiter::Brace => {
            Some(g.span_open())
        }
        _ => None,
    });
    let body_start = body.last().map(|s| (s.line(), s.column()));
    let in_signature =
        |(line, column): (usize, usize)| body_start.is_some_and(|b| (line, column + 1) < b);
    let tokens = leaves(item);
    let Some(first) = tokens.first() else { return TokenStream2::new() };
    let here = (first.0.line(), tokens.last().map_or(first.0.line(), |t| t.0.end().line()));
    let is_first_kernel =
        checked.kernels.first().is_some_and(|&(start, end)| start <= here.1 && here.0 <= end);
    let name = path
        .file_name()
        .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    let mut out = TokenStream2::new();
    for f in &checked.found {
        let inside = |(line, _): (usize, usize)| here.0 <= line && line <= here.1;
        let in_a_kernel = |(line, _): (usize, usize)| {
            checked.kernels.iter().any(|&(s, e)| s <= line && line <= e)
        };
        let span = match f.at {
            Some(at) if inside(at) && in_signature(at) => continue,
            Some(at) if inside(at) => token_at(&tokens, at),
            Some(at) if !in_a_kernel(at) && is_first_kernel => None,
            None if is_first_kernel => None,
            _ => continue,
        };
        let (span, text) = match span {
            Some(s) => (Span::from(s), f.text.clone()),
            // Outside this kernel: at the kernel's name, saying where.
            None => {
                let at =
                    f.at.map(|(l, c)| format!(" (at {name}:{l}:{})", c + 1)).unwrap_or_default();
                (name_span(&tokens), format!("{}{at}", f.text))
            }
        };
        out.extend(quote_spanned!(span=> ::core::compile_error!(#text);));
    }
    out
}

fn check(path: PathBuf, source: &str) -> Arc<Checked> {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    source.hash(&mut h);
    let key = (path, h.finish());
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let cache = cache.get_or_insert_with(HashMap::new);
    if let Some(c) = cache.get(&key) {
        return c.clone();
    }
    // The front end reads the file with proc-macro2's own parser, which gives every token its
    // line and column. proc-macro2 decides once per process whether it runs inside a macro;
    // told that it does, it would make the compiler's tokens, which know nothing of this file.
    // So it is told not to for the time the front end runs (the macro's thread waits for it),
    // and to decide again afterwards, for the tokens this macro returns.
    proc_macro2::fallback::force();
    let found = match rkc_front::compile(source) {
        Ok(_) => Vec::new(),
        Err(diags) => diags.iter().map(found).collect(),
    };
    let kernels = kernel_lines(source);
    proc_macro2::fallback::unforce();
    let checked = Arc::new(Checked { kernels, found });
    cache.insert(key, checked.clone());
    checked
}

/// A diagnostic as a compile error's text: rkc's message and code, then its label, notes and
/// help in rustc's `= note:` form.
fn found(d: &rkc_front::Diagnostic) -> Found {
    let mut text = format!("{} [rkc {}]", d.message, d.code);
    if let Some((_, label)) = &d.primary
        && !label.is_empty()
    {
        text.push_str(&format!("\n  {label}"));
    }
    for n in &d.notes {
        text.push_str(&format!("\n  = note: {n}"));
    }
    for h in &d.helps {
        text.push_str(&format!("\n  = help: {h}"));
    }
    Found { at: d.primary.as_ref().map(|(s, _)| s.start), text }
}

/// The line ranges of the file's `#[offload_kernel]` functions, in modules too, in order.
fn kernel_lines(source: &str) -> Vec<(usize, usize)> {
    fn walk(items: &[syn::Item], out: &mut Vec<(usize, usize)>) {
        for item in items {
            match item {
                syn::Item::Fn(f)
                    if f.attrs.iter().any(|a| {
                        a.path().segments.last().is_some_and(|s| s.ident == "offload_kernel")
                    }) =>
                {
                    use syn::spanned::Spanned;
                    out.push((
                        f.sig.span().start().line,
                        f.block.brace_token.span.close().end().line,
                    ));
                }
                syn::Item::Mod(m) => {
                    if let Some((_, inner)) = &m.content {
                        walk(inner, out);
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    if let Ok(file) = syn::parse_file(source) {
        walk(&file.items, &mut out);
    }
    out
}

/// The leaf tokens of the item with their spans, in order.
fn leaves(item: proc_macro::TokenStream) -> Vec<(proc_macro::Span, bool)> {
    let mut out = Vec::new();
    for t in item {
        match t {
            proc_macro::TokenTree::Group(g) => {
                out.push((g.span_open(), false));
                out.extend(leaves(g.stream()));
                out.push((g.span_close(), false));
            }
            proc_macro::TokenTree::Ident(i) => out.push((i.span(), true)),
            other => out.push((other.span(), false)),
        }
    }
    out
}

/// The token that covers a 1-based line and 0-based column, else the last one before it.
fn token_at(
    tokens: &[(proc_macro::Span, bool)],
    (line, column): (usize, usize),
) -> Option<proc_macro::Span> {
    let pos = (line, column + 1);
    let start = |s: &proc_macro::Span| (s.line(), s.column());
    tokens.iter().take_while(|(s, _)| start(s) <= pos).last().or(tokens.first()).map(|(s, _)| *s)
}

/// The kernel's name: the identifier after `fn`.
fn name_span(tokens: &[(proc_macro::Span, bool)]) -> Span {
    let idents: Vec<&(proc_macro::Span, bool)> =
        tokens.iter().filter(|(_, ident)| *ident).collect();
    let after_fn = idents
        .iter()
        .position(|(s, _)| s.source_text().as_deref() == Some("fn"))
        .and_then(|k| idents.get(k + 1));
    after_fn.or(idents.first()).map_or_else(Span::call_site, |(s, _)| Span::from(*s))
}
