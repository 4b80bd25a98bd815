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
        } else {
            out.push_str(
                &line
                    .replace("$T", "__T")
                    .replace("$U", "__U")
                    .replace("$S", "__S")
                    .replace("$BITS", "__BITS"),
            );
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
        let to = match i.to_string().as_str() {
            "__T" => self.t,
            "__U" => self.u,
            "__S" => self.s,
            _ => return,
        };
        *i = proc_macro2::Ident::new(to, i.span());
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

    #[test]
    fn every_core_file_parses() {
        for (name, text) in super::files() {
            if let Err(e) = syn::parse_file(&text) {
                panic!("core/{name}.rs: {e} at {:?}", e.span().start());
            }
        }
    }
}
