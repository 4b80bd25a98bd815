//! `offload!`, `try_offload!` and `#[offload_kernel]`: the host side of rkc's kernels.
//!
//! `#[offload_kernel]` keeps the function as written (the CPU simulator runs it) and adds a
//! kernel descriptor: a type of the same name (types and functions live in different
//! namespaces) implementing `rkc_offload::Kernel`, with the kernel's name, its signature as
//! the compiler spells it, and its parameter types. `offload!` finds that descriptor from the
//! `kernel = path` field, so rustc checks the `args` tuple against the kernel's parameters.
//!
//! Error texts follow upstream's `offload!` exactly (see OFFLOAD.md in the design notes).

#[cfg(feature = "check")]
mod check;

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::{format_ident, quote, quote_spanned};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, Ident, Token};

/// Marks a function as a GPU kernel that rkc compiles and `offload!` launches.
#[proc_macro_attribute]
pub fn offload_kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    let attr = TokenStream2::from(attr);
    if !attr.is_empty() {
        return syn::Error::new(attr.span(), "`#[offload_kernel]` takes no arguments")
            .to_compile_error()
            .into();
    }
    #[cfg(feature = "check")]
    let tokens = item.clone();
    let func = syn::parse_macro_input!(item as syn::ItemFn);
    let descriptor = kernel_descriptor(&func);
    #[cfg(feature = "check")]
    let checks = check::errors(tokens);
    #[cfg(not(feature = "check"))]
    let checks = TokenStream2::new();
    match descriptor {
        Ok(desc) => quote!(#func #desc #checks).into(),
        Err(e) => {
            let e = e.to_compile_error();
            quote!(#func #e #checks).into()
        }
    }
}

/// The type as the kernel's source writes it, in the tidy form Rust code is written in
/// (`&mut [f32; N]`, `types::Vec3`, `Box<dyn Fn(f32) -> f32>`), for `Kernel::SIGNATURE` and
/// messages. Nothing compares this text: the launch compares the shapes rustc computes.
fn written(ty: &syn::Type) -> String {
    use syn::Type;
    match ty {
        Type::Array(a) => format!("[{}; {}]", written(&a.elem), tidy(&a.len)),
        Type::Ptr(p) => format!(
            "*{} {}",
            if p.mutability.is_some() { "mut" } else { "const" },
            written(&p.elem)
        ),
        Type::Reference(r) => {
            let lifetime = r.lifetime.as_ref().map(|l| format!("{l} ")).unwrap_or_default();
            format!(
                "&{lifetime}{}{}",
                if r.mutability.is_some() { "mut " } else { "" },
                written(&r.elem)
            )
        }
        Type::Slice(sl) => format!("[{}]", written(&sl.elem)),
        Type::Paren(p) => format!("({})", written(&p.elem)),
        Type::Group(g) => written(&g.elem),
        Type::Tuple(t) => {
            let elems: Vec<String> = t.elems.iter().map(written).collect();
            if elems.len() == 1 {
                format!("({},)", elems[0])
            } else {
                format!("({})", elems.join(", "))
            }
        }
        Type::Path(p) if p.qself.is_none() => {
            let mut out = String::new();
            if p.path.leading_colon.is_some() {
                out.push_str("::");
            }
            for (k, seg) in p.path.segments.iter().enumerate() {
                if k > 0 {
                    out.push_str("::");
                }
                out.push_str(&seg.ident.to_string());
                match &seg.arguments {
                    syn::PathArguments::None => {}
                    syn::PathArguments::AngleBracketed(args) => {
                        let args: Vec<String> = args
                            .args
                            .iter()
                            .map(|a| match a {
                                syn::GenericArgument::Type(t) => written(t),
                                other => tidy(other),
                            })
                            .collect();
                        out.push_str(&format!("<{}>", args.join(", ")));
                    }
                    syn::PathArguments::Parenthesized(args) => out.push_str(&tidy(args)),
                }
            }
            out
        }
        other => tidy(other),
    }
}

/// Token text with the spacing Rust code is written with, for what [`written`] does not
/// print itself (array lengths, trait objects, qualified paths): `size_of::<u32>()`, not
/// `size_of :: < u32 > ()`.
fn tidy(tokens: &impl quote::ToTokens) -> String {
    let mut text = tokens.to_token_stream().to_string();
    for (from, to) in [
        (" :: ", "::"),
        (":: ", "::"),
        (" ::", "::"),
        (" ,", ","),
        (" ;", ";"),
        ("< ", "<"),
        (" <", "<"),
        (" >", ">"),
        ("( ", "("),
        (" )", ")"),
        ("[ ", "["),
        (" ]", "]"),
        ("& ", "&"),
        ("* const ", "*const "),
        ("* mut ", "*mut "),
        ("Fn (", "Fn("),
        ("FnMut (", "FnMut("),
        ("FnOnce (", "FnOnce("),
        ("fn (", "fn("),
        ("> (", ">("),
    ] {
        text = text.replace(from, to);
    }
    text
}

/// Whether a parameter type can never cross to the device, as its syntax already shows:
/// a tuple (Rust does not fix its layout, so host and device could disagree on it), a trait
/// object, `impl Trait`, a function pointer, `str` (strings have no device form), or a pointer
/// or reference below the parameter's own (the host's addresses mean nothing on the device). rkc refuses them too; refusing them
/// here points at the whole type with upstream's words, where rustc's error about the
/// generated descriptor would say less. Everything else is left to rustc (`KernelParam`), so
/// that no type is refused for how it is spelled.
fn never_offloaded(ty: &syn::Type, top: bool) -> bool {
    use syn::Type;
    match ty {
        Type::Paren(p) => never_offloaded(&p.elem, top),
        Type::Group(g) => never_offloaded(&g.elem, top),
        Type::Tuple(t) => !t.elems.is_empty(),
        Type::TraitObject(_) | Type::ImplTrait(_) | Type::BareFn(_) => true,
        Type::Reference(r) => !top || never_offloaded(&r.elem, false),
        Type::Ptr(p) => !top || never_offloaded(&p.elem, false),
        Type::Array(a) => never_offloaded(&a.elem, false),
        Type::Slice(sl) => never_offloaded(&sl.elem, false),
        Type::Path(p) if p.qself.is_none() && p.path.is_ident("str") => true,
        Type::Path(p) => p.path.segments.iter().any(|seg| match &seg.arguments {
            syn::PathArguments::AngleBracketed(args) => args
                .args
                .iter()
                .any(|a| matches!(a, syn::GenericArgument::Type(t) if never_offloaded(t, false))),
            syn::PathArguments::Parenthesized(_) => true,
            syn::PathArguments::None => false,
        }),
        _ => false,
    }
}

/// The type a parameter has in `Kernel::Params`: a reference becomes the raw pointer of the
/// same mutability (`&T` → `*const T`, `&mut [T]` → `*mut [T]`), so that the tuple is `Copy`
/// and needs no lifetime; everything else stays as written.
fn params_type(ty: &syn::Type) -> TokenStream2 {
    match ty {
        syn::Type::Paren(p) => params_type(&p.elem),
        syn::Type::Group(g) => params_type(&g.elem),
        syn::Type::Reference(r) => {
            let elem = &r.elem;
            let star = quote_spanned!(r.and_token.span=> *);
            if r.mutability.is_some() { quote!(#star mut #elem) } else { quote!(#star const #elem) }
        }
        other => quote!(#other),
    }
}

/// Turns a `Kernel::Params` element back into the parameter's type (a reference from its raw
/// pointer).
fn from_params(var: &Ident, ty: &syn::Type) -> TokenStream2 {
    match ty {
        syn::Type::Paren(p) => from_params(var, &p.elem),
        syn::Type::Group(g) => from_params(var, &g.elem),
        // SAFETY (in the generated code): the runtime makes the pointer from a buffer that
        // lives for the launch and holds the referent: `size_of::<T>()` bytes for `&T`, the
        // slice's length in elements for `&[T]`, copied from the host's valid value.
        syn::Type::Reference(r) if r.mutability.is_some() => quote!(unsafe { &mut *#var }),
        syn::Type::Reference(_) => quote!(unsafe { &*#var }),
        _ => quote!(#var),
    }
}

/// The spans of the first and the last token of `tokens`. Generated code spanned from one to
/// the other makes rustc point at all of the type, not only its first token.
fn span_range(tokens: &impl quote::ToTokens) -> (Span, Span) {
    let mut iter = tokens.to_token_stream().into_iter();
    let first = iter.next().map_or_else(Span::call_site, |t| t.span());
    let last = iter.last().map_or(first, |t| t.span());
    (first, last)
}

fn kernel_descriptor(func: &syn::ItemFn) -> Result<TokenStream2, syn::Error> {
    let sig = &func.sig;
    // Lifetime parameters are fine (the descriptor's raw pointers have none, and the call
    // infers them); a type or const parameter would leave the kernel without one signature.
    if sig.generics.params.iter().any(|p| !matches!(p, syn::GenericParam::Lifetime(_))) {
        return Err(syn::Error::new(
            sig.generics.span(),
            "an `#[offload_kernel]` function cannot be generic",
        ));
    }
    if let Some(a) = &sig.asyncness {
        return Err(syn::Error::new(a.span, "an `#[offload_kernel]` function cannot be `async`"));
    }
    if let syn::ReturnType::Type(_, ty) = &sig.output {
        let unit = matches!(ty.as_ref(), syn::Type::Tuple(t) if t.elems.is_empty());
        if !unit {
            return Err(syn::Error::new(
                ty.span(),
                "an `#[offload_kernel]` function cannot return a value",
            ));
        }
    }
    let name = &sig.ident;
    let vis = &func.vis;
    let mut types = Vec::new();
    let mut errors: Option<syn::Error> = None;
    for input in &sig.inputs {
        let syn::FnArg::Typed(pt) = input else {
            return Err(syn::Error::new(
                input.span(),
                "an `#[offload_kernel]` function cannot take `self`",
            ));
        };
        if never_offloaded(&pt.ty, true) {
            let e = syn::Error::new_spanned(
                &pt.ty,
                format!("type `{}` cannot be offloaded", written(&pt.ty)),
            );
            match &mut errors {
                Some(all) => all.combine(e),
                None => errors = Some(e),
            }
        }
        types.push(pt.ty.as_ref().clone());
    }
    if let Some(e) = errors {
        return Err(e);
    }
    let written_types: Vec<String> = types.iter().map(written).collect();
    let signature = format!("{name}({})", written_types.join(", "));
    let name_str = name.to_string();
    let vars: Vec<Ident> = (0..types.len()).map(|k| format_ident!("p{k}")).collect();
    let args: Vec<TokenStream2> = vars.iter().zip(&types).map(|(v, t)| from_params(v, t)).collect();
    let param_types: Vec<TokenStream2> = types.iter().map(params_type).collect();
    // Each parameter's shape, and its reading in `run_raw`, name the type with the type's own
    // span, so that rustc's "cannot be offloaded" points at the parameter.
    let mut shapes = Vec::new();
    let mut raw_reads = Vec::new();
    for ((ty, raw), var) in types.iter().zip(&param_types).zip(&vars) {
        let (start, end) = span_range(ty);
        let path = quote_spanned!(start=> ::rkc_offload::__private::param::<);
        let close = quote_spanned!(end=> >());
        shapes.push(quote!(#path #raw #close.0));
        raw_reads.push(quote!(let #var = (#path #raw #close.1)(&mut raw);));
    }
    // The tuple carries the span of the kernel's parameter list, where rustc reports a
    // parameter type that is not `Copy` (`Box<f32>`, beside its "cannot be offloaded").
    let mut params_tuple =
        proc_macro2::Group::new(proc_macro2::Delimiter::Parenthesis, quote!(#(#param_types,)*));
    params_tuple.set_span(sig.paren_token.span.join());
    let call = if sig.unsafety.is_some() {
        quote!(unsafe { #name(#(#args),*) })
    } else {
        quote!(#name(#(#args),*))
    };
    let doc =
        format!("The kernel descriptor of [`{name}`](fn@{name}), made by `#[offload_kernel]`.");
    Ok(quote! {
        #[doc = #doc]
        #[allow(non_camel_case_types, reason = "the descriptor shares the kernel's name so that `offload!` finds it")]
        #vis struct #name { _private: () }

        impl ::rkc_offload::Kernel for #name {
            const NAME: &'static str = #name_str;
            const SIGNATURE: &'static str = #signature;
            const PARAMS: &'static [::rkc_offload::ParamShape] = &[#(#shapes),*];
            type Params = #params_tuple;
            fn run_on_host(params: Self::Params) {
                let (#(#vars,)*) = params;
                #call
            }
            #[allow(unused_variables, unused_mut, reason = "a kernel without parameters ignores its arguments")]
            fn run_raw(args: &[u64]) {
                let mut raw = args.iter().copied();
                #(#raw_reads)*
                #call
            }
        }
    })
}

/// One `name = value` field of `offload!`.
struct Field {
    name: Ident,
    value: Expr,
}

impl Parse for Field {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let name: Ident = input.parse()?;
        input.parse::<Token![=]>()?;
        let value: Expr = input.parse()?;
        Ok(Field { name, value })
    }
}

struct Fields(Punctuated<Field, Token![,]>);

impl Parse for Fields {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        Ok(Fields(Punctuated::parse_terminated(input)?))
    }
}

const FIELDS: &[&str] = &["kernel", "args", "workgroup_dim", "thread_dim", "dyn_cache", "device"];

fn compile_error(span: Span, message: &str) -> TokenStream {
    quote_spanned!(span=> ::core::compile_error!(#message)).into()
}

/// `#[derive(DeviceCopy)]`: lets a `#[repr(C)]` or `#[repr(transparent)]` struct (generic ones
/// too, for the arguments that make every field `DeviceCopy`), or a fieldless enum with an
/// integer `repr` (`#[repr(u8)]`, `#[repr(i32)]`...) or `#[repr(C)]`, be passed to a kernel by
/// value (and be a field of such a struct). Refuses a struct without such a `repr`, an enum
/// without one or with data, a generic enum, and (through the generated where-clauses) struct
/// fields that are not `DeviceCopy` themselves.
#[proc_macro_derive(DeviceCopy)]
pub fn derive_device_copy(item: TokenStream) -> TokenStream {
    let item = syn::parse_macro_input!(item as syn::DeriveInput);
    match device_copy(&item) {
        Ok(tokens) => tokens.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// The `repr` of a type: whether it has `C`, whether it has `transparent`, and the integer
/// type it names, if any.
fn repr_of(item: &syn::DeriveInput) -> (bool, bool, Option<Ident>) {
    const INTEGERS: &[&str] =
        &["u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize"];
    let (mut c, mut transparent, mut int) = (false, false, None);
    for attr in item.attrs.iter().filter(|a| a.path().is_ident("repr")) {
        let _ = attr.parse_nested_meta(|m| {
            c |= m.path.is_ident("C");
            transparent |= m.path.is_ident("transparent");
            if let Some(ident) = m.path.get_ident()
                && INTEGERS.contains(&ident.to_string().as_str())
            {
                int = Some(ident.clone());
            }
            if m.input.peek(syn::token::Paren) {
                let _ = m.input.parse::<proc_macro2::Group>();
            }
            Ok(())
        });
    }
    (c, transparent, int)
}

fn device_copy(item: &syn::DeriveInput) -> Result<TokenStream2, syn::Error> {
    let name = &item.ident;
    let what = match &item.data {
        syn::Data::Struct(_) => "struct",
        syn::Data::Enum(_) => "enum",
        syn::Data::Union(_) => "union",
    };
    // A generic struct is `DeviceCopy` for the arguments that make its fields `DeviceCopy`
    // (below, as where-clauses); a generic enum has nothing to gain from its parameters.
    if !item.generics.params.is_empty() && !matches!(item.data, syn::Data::Struct(_)) {
        return Err(syn::Error::new(
            item.generics.span(),
            format!("`DeviceCopy` cannot be derived for a generic {what}"),
        ));
    }
    let (repr_c, transparent, repr_int) = repr_of(item);
    match &item.data {
        syn::Data::Enum(data) => {
            if let Some(v) = data.variants.iter().find(|v| !v.fields.is_empty()) {
                return Err(syn::Error::new(
                    v.ident.span(),
                    "`DeviceCopy` can be derived for structs and fieldless enums only, and this variant carries data; pass the data in a `#[repr(C)]` struct, with a fieldless enum for the variant",
                ));
            }
            // The device sees the enum as its discriminant: the `repr` integer, or C's `int`
            // for `repr(C)` alone (as rkc lays it out).
            let scalar = match &repr_int {
                Some(t) if t == "u128" || t == "i128" => {
                    return Err(syn::Error::new(
                        t.span(),
                        "`DeviceCopy` cannot be derived for an enum of 128-bit discriminants: kernels have no 128-bit integers",
                    ));
                }
                Some(t) => t.to_string(),
                None if repr_c => "i32".to_string(),
                None => {
                    return Err(syn::Error::new(
                        name.span(),
                        "`DeviceCopy` needs an integer `repr` (`#[repr(u8)]`, `#[repr(i32)]`...) or `#[repr(C)]` on the enum: Rust fixes an enum's size only then",
                    ));
                }
            };
            Ok(quote! {
                // SAFETY: a fieldless enum with an integer `repr` (or `repr(C)`, C's `int`) is
                // its discriminant, an integer of that type, and holds no pointers.
                unsafe impl ::rkc_offload::DeviceCopy for #name {
                    const IN_PARAMETER: bool = ::core::mem::size_of::<Self>() <= 8;
                    const SCALAR: &'static str = #scalar;
                }
            })
        }
        syn::Data::Struct(data) => {
            if !repr_c && !transparent {
                return Err(syn::Error::new(
                    name.span(),
                    "`DeviceCopy` needs `#[repr(C)]` (or `#[repr(transparent)]`) on the struct: the kernel reads the fields where C's layout puts them",
                ));
            }
            let fields: Vec<&syn::Type> = data.fields.iter().map(|f| &f.ty).collect();
            let (params, args, where_clause) = item.generics.split_for_impl();
            let mut bounds: Vec<TokenStream2> = where_clause
                .map(|w| w.predicates.iter().map(|p| quote!(#p)).collect())
                .unwrap_or_default();
            bounds.extend(fields.iter().map(|f| quote!(#f: ::rkc_offload::DeviceCopy)));
            Ok(quote! {
                // SAFETY: a `#[repr(C)]` struct whose fields are all `DeviceCopy` (the
                // where-clauses: a field that is not makes the derive fail, or, in a generic
                // struct, the arguments that make it so leave the struct without the trait) is
                // its bytes, in C's layout; a `#[repr(transparent)]` one is its one field's.
                unsafe impl #params ::rkc_offload::DeviceCopy for #name #args where #(#bounds,)* {}
            })
        }
        syn::Data::Union(_) => Err(syn::Error::new(
            name.span(),
            "`DeviceCopy` can be derived for structs and fieldless enums only",
        )),
    }
}

/// Launches a kernel: `offload! { kernel = k, workgroup_dim = [..], thread_dim = [..],
/// args = (..,) }`. Panics on any launch error, as upstream does.
#[proc_macro]
pub fn offload(input: TokenStream) -> TokenStream {
    expand(input, Mode::Panicking)
}

/// The fallible form of `offload!`: returns `Result<(), rkc_offload::OffloadError>`.
#[proc_macro]
pub fn try_offload(input: TokenStream) -> TokenStream {
    expand(input, Mode::Fallible)
}

/// Queues a launch on a stream (an rkc extension): `offload_async! { stream = s, kernel = k,
/// workgroup_dim = [..], thread_dim = [..], args = (..,) }`, the fields of `offload!` with
/// `stream` (a `rkc_offload::Stream`) for `device`. Returns
/// `Result<(), rkc_offload::OffloadError>`; the kernel's own errors come from the stream's
/// `synchronize` or the end of its scope.
#[proc_macro]
pub fn offload_async(input: TokenStream) -> TokenStream {
    expand(input, Mode::Stream)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Panicking,
    Fallible,
    Stream,
}

fn expand(input: TokenStream, mode: Mode) -> TokenStream {
    let fields = match syn::parse::<Fields>(input) {
        Ok(f) => f.0,
        Err(e) => return e.to_compile_error().into(),
    };
    // Unknown and duplicate fields are reported at the field, before any missing field.
    let mut seen: Vec<String> = Vec::new();
    for f in &fields {
        let name = f.name.to_string();
        let known = match mode {
            Mode::Stream => {
                name == "stream" || (name != "device" && FIELDS.contains(&name.as_str()))
            }
            _ => FIELDS.contains(&name.as_str()),
        };
        if !known {
            return compile_error(f.name.span(), &format!("unknown field `{name}`"));
        }
        if seen.contains(&name) {
            return compile_error(f.name.span(), &format!("duplicate field `{name}`"));
        }
        seen.push(name);
    }
    let get = |n: &str| fields.iter().find(|f| f.name == n).map(|f| &f.value);
    let Some(kernel) = get("kernel") else {
        return compile_error(Span::call_site(), "missing `kernel`");
    };
    let Some(args) = get("args") else {
        return compile_error(Span::call_site(), "missing `args`");
    };
    let args = match args {
        Expr::Tuple(t) => t.elems.iter().cloned().collect::<Vec<_>>(),
        Expr::Paren(p) => vec![(*p.expr).clone()],
        other => return compile_error(other.span(), "`args` must be a tuple literal"),
    };
    if let Some(Expr::Paren(_)) = get("args") {
        // `(x)` is a parenthesised value, not a one-element tuple: upstream requires `(x,)`.
        return compile_error(
            get("args").map_or(Span::call_site(), |a| a.span()),
            "`args` must be a tuple literal",
        );
    }
    let Expr::Path(kernel_path) = kernel else {
        return compile_error(kernel.span(), "`kernel` must name an `#[offload_kernel]` function");
    };
    let kernel_path = &kernel_path.path;
    let device = match get("device") {
        None => quote!(::core::option::Option::None),
        Some(d) => {
            if let Expr::Unary(syn::ExprUnary { op: syn::UnOp::Neg(_), expr, .. }) = d
                && matches!(expr.as_ref(), Expr::Lit(_))
            {
                return compile_error(
                    d.span(),
                    "offload device must be non-negative; omit `device` to use the default device",
                );
            }
            quote!(::core::option::Option::Some({ let d: i32 = #d; d }))
        }
    };
    let dim = |n: &str| match get(n) {
        Some(e) => quote!({ let d: [u32; 3] = #e; d }),
        None => quote!([1u32, 1, 1]),
    };
    let (workgroup_dim, thread_dim) = (dim("workgroup_dim"), dim("thread_dim"));
    let dyn_cache = match get("dyn_cache") {
        Some(e) => quote!({ let d: u32 = #e; d }),
        None => quote!(0u32),
    };
    if mode == Mode::Stream {
        let Some(stream) = get("stream") else {
            return compile_error(Span::call_site(), "missing `stream`");
        };
        return quote! {
            ::rkc_offload::__private::launch_async::<#kernel_path, _>(
                &#stream,
                ::rkc_offload::LaunchConfig {
                    workgroup_dim: #workgroup_dim,
                    thread_dim: #thread_dim,
                    dyn_cache: #dyn_cache,
                    device: ::core::option::Option::None,
                },
                (#(#args,)*),
            )
        }
        .into();
    }
    let launch = quote! {
        ::rkc_offload::__private::launch::<#kernel_path, _>(
            ::rkc_offload::LaunchConfig {
                workgroup_dim: #workgroup_dim,
                thread_dim: #thread_dim,
                dyn_cache: #dyn_cache,
                device: #device,
            },
            (#(#args,)*),
        )
    };
    if mode == Mode::Fallible {
        launch.into()
    } else {
        quote!(::rkc_offload::__private::unwrap_launch(#launch)).into()
    }
}
