//! `#[derive(..)]`: the impls that rustc's built-in derives write, written out as Rust source
//! that rkc then compiles like any other code (`Clone`, `Copy`, `PartialEq`, `Eq`,
//! `PartialOrd`, `Ord`, `Default`). `Debug` and `Hash` have no device use; they are not written,
//! so a kernel that calls them hears that the method is not found.

use crate::diag::Span;
use quote::ToTokens;
use std::fmt::Write;
use syn::spanned::Spanned;
use syn::visit::Visit;

/// The derived impls of one type.
pub struct Derived {
    pub for_span: Span,
    pub attr_span: Span,
    pub text: String,
}

/// Finds every struct and enum with derives, in modules and function bodies alike.
#[derive(Default)]
pub struct Finder {
    pub found: Vec<Derived>,
}

impl Finder {
    /// The derives of the device core's items: those of the structs and enums of its modules.
    /// The core declares no type inside a function, an impl or a trait (a test holds it to
    /// that), so this skips the walk through every signature of the core that finding a user's
    /// derives takes.
    pub fn visit_core_items(&mut self, items: &[syn::Item]) {
        for item in items {
            match item {
                syn::Item::Struct(s) => self.visit_item_struct(s),
                syn::Item::Enum(e) => self.visit_item_enum(e),
                syn::Item::Mod(syn::ItemMod { content: Some((_, inner)), .. }) => {
                    self.visit_core_items(inner);
                }
                _ => {}
            }
        }
    }
}

impl<'a> Visit<'a> for Finder {
    fn visit_item_struct(&mut self, s: &'a syn::ItemStruct) {
        if let Some((attr_span, names)) = derive_names(&s.attrs) {
            let text = write_impls(&names, &s.ident, &s.generics, &Shape::Struct(&s.fields));
            if !text.is_empty() {
                self.found.push(Derived {
                    for_span: Span::from_pm2(s.ident.span()),
                    attr_span,
                    text,
                });
            }
        }
    }

    fn visit_item_enum(&mut self, e: &'a syn::ItemEnum) {
        if let Some((attr_span, names)) = derive_names(&e.attrs) {
            let variants: Vec<&syn::Variant> = e.variants.iter().collect();
            let default = e
                .variants
                .iter()
                .find(|v| v.attrs.iter().any(|a| a.path().is_ident("default")))
                .map(|v| v.ident.to_string());
            let repr = super::collect::parse_repr(&e.attrs).int.unwrap_or_else(|| "isize".into());
            let shape = Shape::Enum(variants, default, repr);
            let text = write_impls(&names, &e.ident, &e.generics, &shape);
            if !text.is_empty() {
                self.found.push(Derived {
                    for_span: Span::from_pm2(e.ident.span()),
                    attr_span,
                    text,
                });
            }
        }
        syn::visit::visit_item_enum(self, e);
    }
}

fn derive_names(attrs: &[syn::Attribute]) -> Option<(Span, Vec<String>)> {
    let mut names = Vec::new();
    let mut span = None;
    for a in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        span.get_or_insert(Span::from_pm2(a.span()));
        let _ = a.parse_nested_meta(|meta| {
            if let Some(last) = meta.path.segments.last() {
                names.push(last.ident.to_string());
            }
            Ok(())
        });
    }
    span.map(|s| (s, names))
}

enum Shape<'a> {
    Struct(&'a syn::Fields),
    /// The variants, the `#[default]` one, and the discriminants' integer type (its `repr`,
    /// else `isize`).
    Enum(Vec<&'a syn::Variant>, Option<String>, String),
}

/// `impl<T: Bound, const N: usize> Trait for Name<T, N> where ...`'s pieces.
fn header(generics: &syn::Generics, bound: &str, name: &syn::Ident) -> (String, String) {
    let mut params = Vec::new();
    let mut args = Vec::new();
    for p in &generics.params {
        match p {
            syn::GenericParam::Lifetime(l) => {
                params.push(l.lifetime.to_string());
                args.push(l.lifetime.to_string());
            }
            syn::GenericParam::Type(t) => {
                let mut bounds: Vec<String> =
                    t.bounds.iter().map(|b| b.to_token_stream().to_string()).collect();
                if !bound.is_empty() {
                    bounds.push(bound.to_string());
                }
                params.push(if bounds.is_empty() {
                    t.ident.to_string()
                } else {
                    format!("{}: {}", t.ident, bounds.join(" + "))
                });
                args.push(t.ident.to_string());
            }
            syn::GenericParam::Const(c) => {
                params.push(format!("const {}: {}", c.ident, c.ty.to_token_stream()));
                args.push(c.ident.to_string());
            }
        }
    }
    let where_clause =
        generics.where_clause.as_ref().map(|w| w.to_token_stream().to_string()).unwrap_or_default();
    let impl_params =
        if params.is_empty() { String::new() } else { format!("<{}>", params.join(", ")) };
    let self_ty =
        if args.is_empty() { name.to_string() } else { format!("{name}<{}>", args.join(", ")) };
    (format!("impl{impl_params}"), format!("{self_ty} {where_clause}"))
}

fn field_names(fields: &syn::Fields) -> Vec<String> {
    fields
        .iter()
        .enumerate()
        .map(|(k, f)| f.ident.as_ref().map_or(k.to_string(), ToString::to_string))
        .collect()
}

/// A pattern binding each field of a variant to `{prefix}{k}`: `Self::V { a: l0, b: l1 }`.
fn variant_pattern(v: &syn::Variant, prefix: &str) -> String {
    let names = field_names(&v.fields);
    match &v.fields {
        syn::Fields::Named(_) => {
            let parts: Vec<String> =
                names.iter().enumerate().map(|(k, n)| format!("{n}: {prefix}{k}")).collect();
            format!("Self::{} {{ {} }}", v.ident, parts.join(", "))
        }
        syn::Fields::Unnamed(_) => {
            let parts: Vec<String> = (0..names.len()).map(|k| format!("{prefix}{k}")).collect();
            format!("Self::{}({})", v.ident, parts.join(", "))
        }
        syn::Fields::Unit => format!("Self::{}", v.ident),
    }
}

fn write_impls(
    names: &[String],
    ident: &syn::Ident,
    generics: &syn::Generics,
    shape: &Shape,
) -> String {
    let mut out = String::new();
    let has = |n: &str| names.iter().any(|x| x == n);
    let cmp = "::core::cmp";
    if has("Copy") {
        let (i, t) = header(generics, "::core::marker::Copy", ident);
        let _ = writeln!(out, "{i} ::core::marker::Copy for {t} {{}}");
    }
    if has("Clone") {
        let (i, t) = header(generics, "::core::clone::Clone", ident);
        let body = if has("Copy") {
            "*self".to_string()
        } else {
            match shape {
                Shape::Struct(fields) => {
                    construct(fields, "Self", |f| format!("::core::clone::Clone::clone(&self.{f})"))
                }
                Shape::Enum(variants, ..) => {
                    let arms: Vec<String> = variants
                        .iter()
                        .map(|v| {
                            let names = field_names(&v.fields);
                            let pat = variant_pattern(v, "f");
                            let mut k = 0;
                            let build = construct(&v.fields, &format!("Self::{}", v.ident), |_| {
                                k += 1;
                                format!("::core::clone::Clone::clone(f{})", k - 1)
                            });
                            let _ = names;
                            format!("{pat} => {build},")
                        })
                        .collect();
                    format!("match self {{ {} }}", arms.join(" "))
                }
            }
        };
        let _ = writeln!(
            out,
            "{i} ::core::clone::Clone for {t} {{ fn clone(&self) -> Self {{ {body} }} }}"
        );
    }
    if has("PartialEq") {
        let (i, t) = header(generics, "::core::cmp::PartialEq", ident);
        let body = match shape {
            Shape::Struct(fields) => {
                let parts: Vec<String> =
                    field_names(fields).iter().map(|f| format!("self.{f} == other.{f}")).collect();
                if parts.is_empty() { "true".to_string() } else { parts.join(" && ") }
            }
            Shape::Enum(variants, ..) => {
                let mut arms: Vec<String> = variants
                    .iter()
                    .map(|v| {
                        let n = v.fields.len();
                        let eqs: Vec<String> = (0..n).map(|k| format!("*l{k} == *r{k}")).collect();
                        let eq = if eqs.is_empty() { "true".to_string() } else { eqs.join(" && ") };
                        format!(
                            "({}, {}) => {eq},",
                            variant_pattern(v, "l"),
                            variant_pattern(v, "r")
                        )
                    })
                    .collect();
                if variants.len() > 1 {
                    arms.push("_ => false,".into());
                }
                format!("match (self, other) {{ {} }}", arms.join(" "))
            }
        };
        let _ = writeln!(
            out,
            "{i} ::core::cmp::PartialEq for {t} {{ fn eq(&self, other: &Self) -> bool {{ {body} }} }}"
        );
    }
    if has("Eq") {
        let (i, t) = header(generics, "::core::cmp::Eq", ident);
        let _ = writeln!(out, "{i} ::core::cmp::Eq for {t} {{}}");
    }
    for (trait_name, method, ret, wrap) in [
        ("PartialOrd", "partial_cmp", "::core::option::Option<::core::cmp::Ordering>", true),
        ("Ord", "cmp", "::core::cmp::Ordering", false),
    ] {
        if !has(trait_name) {
            continue;
        }
        let (i, t) = header(generics, &format!("{cmp}::{trait_name}"), ident);
        let equal = if wrap {
            format!("::core::option::Option::Some({cmp}::Ordering::Equal)")
        } else {
            format!("{cmp}::Ordering::Equal")
        };
        let chain = |pairs: Vec<(String, String)>| -> String {
            let mut s = String::new();
            for (l, r) in pairs {
                let _ = write!(
                    s,
                    "match {cmp}::{trait_name}::{method}({l}, {r}) {{ {equal} => {{}} c => return c, }} "
                );
            }
            let _ = write!(s, "{equal}");
            s
        };
        let body = match shape {
            Shape::Struct(fields) => chain(
                field_names(fields)
                    .iter()
                    .map(|f| (format!("&self.{f}"), format!("&other.{f}")))
                    .collect(),
            ),
            Shape::Enum(variants, ..) => {
                let index = |who: &str| {
                    let arms: Vec<String> = variants
                        .iter()
                        .enumerate()
                        .map(|(k, v)| {
                            let pat = match &v.fields {
                                syn::Fields::Named(_) => format!("Self::{} {{ .. }}", v.ident),
                                syn::Fields::Unnamed(_) => format!("Self::{}(..)", v.ident),
                                syn::Fields::Unit => format!("Self::{}", v.ident),
                            };
                            format!("{pat} => {k}u32,")
                        })
                        .collect();
                    format!("match {who} {{ {} }}", arms.join(" "))
                };
                let mut arms: Vec<String> = variants
                    .iter()
                    .map(|v| {
                        let n = v.fields.len();
                        let body =
                            chain((0..n).map(|k| (format!("l{k}"), format!("r{k}"))).collect());
                        format!(
                            "({}, {}) => {{ {body} }}",
                            variant_pattern(v, "l"),
                            variant_pattern(v, "r")
                        )
                    })
                    .collect();
                if variants.len() > 1 {
                    arms.push(format!("_ => {equal},"));
                }
                format!(
                    "let li = {}; let ri = {}; if li != ri {{ return {cmp}::{trait_name}::{method}(&li, &ri); }} match (self, other) {{ {} }}",
                    index("self"),
                    index("other"),
                    arms.join(" ")
                )
            }
        };
        let _ = writeln!(
            out,
            "{i} {cmp}::{trait_name} for {t} {{ fn {method}(&self, other: &Self) -> {ret} {{ {body} }} }}"
        );
    }
    if has("Hash") {
        // As rustc's derive: each field in order; an enum of more than one variant hashes its
        // discriminant first, as its `repr` integer (`isize` without one).
        let (i, t) = header(generics, "::core::hash::Hash", ident);
        let body = match shape {
            Shape::Struct(fields) => field_names(fields)
                .iter()
                .map(|f| format!("::core::hash::Hash::hash(&self.{f}, state);"))
                .collect::<String>(),
            Shape::Enum(variants, _, repr) => {
                // Each variant's discriminant: written, or one more than the previous one.
                let mut last = String::from("0");
                let mut offset = 0;
                let arms: Vec<String> = variants
                    .iter()
                    .map(|v| {
                        if let Some((_, e)) = &v.discriminant {
                            last = e.to_token_stream().to_string();
                            offset = 0;
                        }
                        // A fieldless variant casts to its discriminant; a variant with data
                        // cannot, and its value is written in the discriminant's type.
                        let discr = if variants.iter().all(|v| v.fields.is_empty()) {
                            format!("Self::{} as {repr}", v.ident)
                        } else {
                            format!("{{ let d: {repr} = {last}; d + {offset} }}")
                        };
                        offset += 1;
                        let tag = if variants.len() > 1 {
                            format!("::core::hash::Hash::hash(&({discr}), state);")
                        } else {
                            String::new()
                        };
                        let fields: String = (0..v.fields.len())
                            .map(|k| format!("::core::hash::Hash::hash(f{k}, state);"))
                            .collect();
                        format!("{} => {{ {tag} {fields} }}", variant_pattern(v, "f"))
                    })
                    .collect();
                if arms.is_empty() {
                    "match *self {}".to_string()
                } else {
                    format!("match self {{ {} }}", arms.join(" "))
                }
            }
        };
        let _ = writeln!(
            out,
            "{i} ::core::hash::Hash for {t} {{ fn hash<__H: ::core::hash::Hasher>(&self, state: &mut __H) {{ {body} }} }}"
        );
    }
    if has("Default") {
        let (i, t) = header(generics, "::core::default::Default", ident);
        let body = match shape {
            Shape::Struct(fields) => Some(construct(fields, "Self", |_| {
                "::core::default::Default::default()".to_string()
            })),
            Shape::Enum(_, Some(v), _) => Some(format!("Self::{v}")),
            Shape::Enum(_, None, _) => None,
        };
        if let Some(body) = body {
            let _ = writeln!(
                out,
                "{i} ::core::default::Default for {t} {{ fn default() -> Self {{ {body} }} }}"
            );
        }
    }
    out
}

/// `Path { a: e(a), .. }`, `Path(e(0), ..)` or `Path`, with each field's value from `value`.
fn construct(fields: &syn::Fields, path: &str, mut value: impl FnMut(&str) -> String) -> String {
    let names = field_names(fields);
    match fields {
        syn::Fields::Named(_) => {
            let parts: Vec<String> = names.iter().map(|f| format!("{f}: {}", value(f))).collect();
            format!("{path} {{ {} }}", parts.join(", "))
        }
        syn::Fields::Unnamed(_) => {
            let parts: Vec<String> = names.iter().map(|f| value(f)).collect();
            format!("{path}({})", parts.join(", "))
        }
        syn::Fields::Unit => path.to_string(),
    }
}

#[cfg(test)]
mod tests {
    /// `Finder::visit_core_items` finds every derive of the core that the whole walk finds.
    #[test]
    fn the_core_derives_only_at_module_level() {
        use syn::visit::Visit;
        let core = crate::items::collect::CoreSources::get().unwrap();
        let mut derived = 0;
        for (core_file, file) in &core.files {
            let (mut whole, mut items) = (super::Finder::default(), super::Finder::default());
            whole.visit_file(file);
            items.visit_core_items(&file.items);
            let found = |f: super::Finder| {
                f.found.into_iter().map(|d| (d.for_span, d.attr_span, d.text)).collect::<Vec<_>>()
            };
            let found = (found(whole), found(items));
            assert_eq!(found.0, found.1, "core/{}.rs", core_file.name);
            derived += found.0.len();
        }
        // A walk that found nothing would pass the comparison above.
        assert!(derived > 30, "only {derived} derives in the core");
    }
}
