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

mod scan;

pub use scan::{LazyBody, SigText, skeleton};

/// One file of the core, as build.rs prepares it: the front end parses the skeleton, and the
/// bodies left out of it when a kernel reaches them.
pub struct CoreFile {
    /// The module: `option` for core/option.rs; `lib` is the root.
    pub name: &'static str,
    /// The file's text with its templates marked (`scan::mark_templates`), which spans in the
    /// file index.
    pub text: &'static str,
    /// That text with its bodies left out ([`skeleton`]), and those bodies.
    pub skeleton: &'static str,
    pub bodies: &'static [LazyBody],
}

/// The core's files, in the order of `FileId::Core`. build.rs marks and scans them when rkc is
/// built: scanning them at every run took a few percent of the front end's time.
pub const FILES: &[CoreFile] = include!(concat!(env!("OUT_DIR"), "/core_files.rs"));

/// The body a stub stands for: its number in `bodies` (its file's), and the type of the
/// template copy it is in, if any. A stub is an empty block whose `{` is where one of the
/// file's left-out bodies starts; in a template's copy, the block holds the copy's type as its
/// one statement (see [`Subst`]).
pub fn lazy_stub(block: &syn::Block, bodies: &[LazyBody]) -> Option<(usize, Option<String>)> {
    let ty = match block.stmts.as_slice() {
        [] => None,
        [syn::Stmt::Expr(syn::Expr::Path(p), None)] => Some(p.path.get_ident()?.to_string()),
        _ => return None,
    };
    Some((stub_index(block, bodies)?, ty))
}

/// The left-out body whose place `block` takes, if it is a stub.
fn stub_index(block: &syn::Block, bodies: &[LazyBody]) -> Option<usize> {
    // The bodies are in the order of the text, so in the order of their positions.
    let at = block.brace_token.span.open().start();
    bodies.binary_search_by_key(&(at.line, at.column), |b| (b.line, b.column)).ok()
}

/// Parses a piece of a core file's text (or a derived impl's) alone, with the spans it has in
/// the file: `line` (from 1) and `column` (from 0) are where it starts there.
fn parse_at<T: syn::parse::Parse>(piece: &str, line: usize, column: usize) -> syn::Result<T> {
    let mut positioned = String::with_capacity(line + column + piece.len());
    positioned.extend(std::iter::repeat_n('\n', line - 1));
    positioned.extend(std::iter::repeat_n(' ', column));
    positioned.push_str(piece);
    syn::parse_str(&positioned)
}

/// Parses a body left out of the file's parse, with the spans it has in the file, and
/// substitutes the template's type in it when it belongs to a template's copy.
pub fn parse_body(text: &str, body: LazyBody, ty: Option<&str>) -> syn::Result<syn::Block> {
    let mut block: syn::Block = parse_at(&text[body.start..body.end], body.line, body.column)?;
    if let Some(t) = ty {
        // A body holds no stubs: only the bodies of functions that declare no items are left
        // out, and those are parsed whole.
        syn::visit_mut::VisitMut::visit_block_mut(&mut Subst::new(t, &[]), &mut block);
    }
    Ok(block)
}

/// Parses a signature left out of the file's parse (the skeleton's `fn name()` stands for
/// it, `stub`), with the spans it has in the file, and substitutes the template's type in it
/// when it belongs to a template's copy. The qualifiers before `fn` (`const`, `unsafe`,
/// `extern "C"`) stayed in the skeleton and come from the stub.
pub fn parse_sig(
    text: &str,
    body: LazyBody,
    ty: Option<&str>,
    stub: &syn::Signature,
) -> syn::Result<syn::Signature> {
    let Some(at) = body.sig else { return Ok(stub.clone()) };
    let mut sig: syn::Signature = parse_at(&text[at.start..body.start], at.line, at.column)?;
    sig.constness = stub.constness;
    sig.asyncness = stub.asyncness;
    sig.unsafety = stub.unsafety;
    sig.abi.clone_from(&stub.abi);
    if let Some(t) = ty {
        syn::visit_mut::VisitMut::visit_signature_mut(&mut Subst::new(t, &[]), &mut sig);
    }
    Ok(sig)
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

/// Replaces each template module of a parsed core file by its items, once per type. `bodies`
/// are the file's bodies left out of the parse.
pub fn expand_templates(file: &mut syn::File, bodies: &[LazyBody]) {
    let mut items = Vec::with_capacity(file.items.len());
    for item in std::mem::take(&mut file.items) {
        let (spec, inner) = match item {
            syn::Item::Mod(syn::ItemMod { attrs, content: Some((_, inner)), .. })
                if let Some(spec) = template_spec(&attrs) =>
            {
                (spec, inner)
            }
            item => {
                items.push(item);
                continue;
            }
        };
        let types: Vec<&str> = spec.split_whitespace().collect();
        let mut inner = Some(inner);
        for (k, t) in types.iter().enumerate() {
            let mut subst = Subst::new(t, bodies);
            // The last type takes the template's own items: one copy fewer of every item.
            let copies = if k + 1 == types.len() { inner.take() } else { inner.clone() };
            for mut copy in copies.into_iter().flatten() {
                syn::visit_mut::VisitMut::visit_item_mut(&mut subst, &mut copy);
                items.push(copy);
            }
        }
    }
    file.items = items;
}

/// The types of a template module: its `#[rkc_template = "<types>"]`.
fn template_spec(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find(|a| a.path().is_ident("rkc_template")).and_then(|a| match &a.meta {
        syn::Meta::NameValue(syn::MetaNameValue {
            value: syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }),
            ..
        }) => Some(s.value()),
        _ => None,
    })
}

/// Substitutes a template's type for `$T` (and its twins and width) in a copy of its items.
struct Subst<'s> {
    t: &'s str,
    u: &'s str,
    s: &'s str,
    bits: u32,
    bodies: &'s [LazyBody],
}

impl<'s> Subst<'s> {
    /// The substitution of template type `t` (its twins and width follow from it); `bodies`
    /// are the file's left-out bodies, whose stubs in a copy are marked with the copy's type.
    fn new(t: &'s str, bodies: &'s [LazyBody]) -> Subst<'s> {
        let (u, s, bits) = twins(t);
        Subst { t, u, s, bits, bodies }
    }
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

    fn visit_block_mut(&mut self, b: &mut syn::Block) {
        // A body left out of the parse: the copy's stub names the copy's type, which
        // `parse_body` substitutes when the body is parsed.
        if b.stmts.is_empty() && stub_index(b, self.bodies).is_some() {
            let ty = syn::Ident::new(self.t, proc_macro2::Span::call_site());
            // `vec!` allocates room for the one statement; `push` would make room for four.
            b.stmts = vec![syn::Stmt::Expr(
                syn::Expr::Path(syn::ExprPath { attrs: Vec::new(), qself: None, path: ty.into() }),
                None,
            )];
            return;
        }
        syn::visit_mut::visit_block_mut(self, b);
    }

    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
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
        let mut file = syn::parse_file(&super::scan::mark_templates(text)).unwrap();
        super::expand_templates(&mut file, &[]);
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

    /// A template's copies stand for the template's bodies, each for its own type; an empty
    /// body is no stub.
    #[test]
    fn template_stubs_name_their_type() {
        use quote::ToTokens;
        let text = "//@ for $T in u8 i64\nimpl $T {\n    fn w(self) -> u32 { $BITS }\n    fn e() {}\n}\n//@ end\n";
        let (skeleton, bodies) = super::skeleton(&super::scan::mark_templates(text), true);
        let mut file = syn::parse_file(&skeleton).unwrap();
        super::expand_templates(&mut file, &bodies);
        let stubs: Vec<_> = blocks(&file).iter().map(|b| super::lazy_stub(b, &bodies)).collect();
        assert_eq!(
            stubs,
            [Some((0, Some("u8".into()))), None, Some((0, Some("i64".into()))), None]
        );
        let body = super::parse_body(&super::scan::mark_templates(text), bodies[0], Some("i64"));
        assert_eq!(body.unwrap().to_token_stream().to_string(), "{ 64 }");
    }

    /// Every fn block of a file, in the order of the items (trait declarations have none).
    fn blocks(file: &syn::File) -> Vec<syn::Block> {
        sigs(file).into_iter().filter_map(|(_, block)| block).collect()
    }

    /// A core file parsed whole and its skeleton parsed, each with its templates expanded.
    fn whole_and_skeleton(file: &super::CoreFile) -> (syn::File, syn::File) {
        let mut whole = syn::parse_file(file.text).unwrap();
        super::expand_templates(&mut whole, &[]);
        let mut parsed = syn::parse_file(file.skeleton).unwrap_or_else(|e| {
            panic!("core/{}.rs skeleton: {e} at {:?}", file.name, e.span().start())
        });
        super::expand_templates(&mut parsed, file.bodies);
        (whole, parsed)
    }

    /// The core parsed with its bodies left out, then each body parsed alone, is the core
    /// parsed whole: the same tokens at the same lines and columns, in every template copy.
    #[test]
    fn lazy_bodies_are_the_bodies_of_the_file() {
        use quote::ToTokens;
        use syn::spanned::Spanned;
        let mut lazy = 0;
        for file @ super::CoreFile { name, text, bodies, .. } in super::FILES {
            let (whole, parsed) = whole_and_skeleton(file);
            let (expected, got) = (blocks(&whole), blocks(&parsed));
            assert_eq!(expected.len(), got.len(), "core/{name}.rs");
            for (want, stub) in expected.iter().zip(&got) {
                let block = match super::lazy_stub(stub, bodies) {
                    Some((k, ty)) => {
                        lazy += 1;
                        super::parse_body(text, bodies[k], ty.as_deref()).unwrap()
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

    /// Every function's signature of a file, with its block (a trait's declaration has none),
    /// in the order of the items.
    fn sigs(file: &syn::File) -> Vec<(syn::Signature, Option<syn::Block>)> {
        struct Sigs(Vec<(syn::Signature, Option<syn::Block>)>);
        impl<'a> syn::visit::Visit<'a> for Sigs {
            fn visit_item_fn(&mut self, f: &'a syn::ItemFn) {
                self.0.push((f.sig.clone(), Some((*f.block).clone())));
            }
            fn visit_impl_item_fn(&mut self, f: &'a syn::ImplItemFn) {
                self.0.push((f.sig.clone(), Some(f.block.clone())));
            }
            fn visit_trait_item_fn(&mut self, f: &'a syn::TraitItemFn) {
                self.0.push((f.sig.clone(), f.default.clone()));
            }
        }
        let mut s = Sigs(Vec::new());
        syn::visit::Visit::visit_file(&mut s, file);
        s.0
    }

    /// The core's signatures left out of the parse, each parsed alone, are the signatures of
    /// the core parsed whole: the same tokens at the same lines and columns, in every
    /// template copy, with the qualifiers the skeleton kept.
    #[test]
    fn lazy_signatures_are_the_signatures_of_the_file() {
        use quote::ToTokens;
        use syn::spanned::Spanned;
        let mut lazy = 0;
        for file @ super::CoreFile { name, text, bodies, .. } in super::FILES {
            let (whole, parsed) = whole_and_skeleton(file);
            let (expected, got) = (sigs(&whole), sigs(&parsed));
            assert_eq!(expected.len(), got.len(), "core/{name}.rs");
            for ((want, _), (stub, block)) in expected.iter().zip(&got) {
                let lazy_at = block.as_ref().and_then(|b| super::lazy_stub(b, bodies));
                let sig = match lazy_at {
                    Some((k, ty)) if bodies[k].sig.is_some() => {
                        lazy += 1;
                        assert!(stub.inputs.is_empty() && stub.generics.params.is_empty());
                        super::parse_sig(text, bodies[k], ty.as_deref(), stub).unwrap()
                    }
                    _ => stub.clone(),
                };
                assert_eq!(
                    want.to_token_stream().to_string(),
                    sig.to_token_stream().to_string(),
                    "core/{name}.rs"
                );
                let at = |s: &syn::Signature| {
                    let ident = s.ident.span().start();
                    let paren = s.paren_token.span.open().start();
                    [(ident.line, ident.column), (paren.line, paren.column)]
                };
                assert_eq!(at(want), at(&sig), "core/{name}.rs: `{}`", want.ident);
                // Where the signature ends. The stub's qualifiers have spans in the skeleton's
                // parse, which proc-macro2 cannot join with the left-out text's.
                let end = |s: &syn::Signature| {
                    let mut s = s.clone();
                    (s.constness, s.unsafety, s.abi) = (None, None, None);
                    s.span().end()
                };
                assert_eq!(end(want), end(&sig), "core/{name}.rs: `{}`", want.ident);
            }
        }
        assert!(lazy > 1500, "only {lazy} signatures of the core are parsed lazily");
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
        let (skeleton, bodies) = super::skeleton(text, false);
        let lazy: Vec<&str> = bodies.iter().map(|b| &text[b.start..b.end]).collect();
        assert_eq!(
            lazy,
            [
                "{ 7 + 1_000 }",
                "{ let _c = '{'; let _d = '\\''; /* } { */ // }\n    \"}{\" }",
                "{ let _ = x; r#\"}\"# }",
                "{ 1 }",
            ]
        );
        assert_eq!(bodies[1].line, 4);
        // Whatever follows a body keeps its place: a line keeps its length, but for the first
        // line of a body on several lines, which ends with the stub's `{`.
        assert_eq!(skeleton.lines().count(), text.lines().count());
        for (a, b) in skeleton.lines().zip(text.lines()) {
            assert!(a.len() == b.len() || a.ends_with('{'), "{a:?} / {b:?}");
        }
        // The stubs are found where the bodies were, and only there: `items` keeps its body.
        let file = syn::parse_file(&skeleton).unwrap();
        let stubs: Vec<_> =
            blocks(&file).iter().filter_map(|b| super::lazy_stub(b, &bodies)).collect();
        assert_eq!(stubs, [(0, None), (1, None), (2, None), (3, None)]);
    }

    #[test]
    fn every_core_file_parses() {
        for file in super::FILES {
            let (name, text) = (file.name, file.text);
            if let Err(e) = syn::parse_file(text) {
                panic!("core/{name}.rs: {e} at {:?}", e.span().start());
            }
        }
    }
}
