//! `offload!`, `try_offload!` and `#[offload_kernel]`: the host side of rkc's kernels.
//!
//! `#[offload_kernel]` keeps the function as written (the CPU simulator runs it) and adds a
//! kernel descriptor: a type of the same name (types and functions live in different
//! namespaces) implementing `rkc_offload::Kernel`, with the kernel's name, its signature as
//! the compiler spells it, and its parameter types. `offload!` finds that descriptor from the
//! `kernel = path` field, so rustc checks the `args` tuple against the kernel's parameters.
//!
//! Error texts follow upstream's `offload!` exactly (see OFFLOAD.md in the design notes).

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
    let func = syn::parse_macro_input!(item as syn::ItemFn);
    match kernel_descriptor(&func) {
        Ok(desc) => quote!(#func #desc).into(),
        Err(e) => {
            let e = e.to_compile_error();
            quote!(#func #e).into()
        }
    }
}

/// Spells a parameter type exactly as the compiler's rk types print, or says why it cannot be
/// offloaded.
fn spell(ty: &syn::Type) -> Result<String, syn::Error> {
    let cannot = || {
        // Token printing spaces out `Box < T >`; write it the way Rust code is written.
        let text = quote!(#ty)
            .to_string()
            .replace(" < ", "<")
            .replace("< ", "<")
            .replace(" >", ">")
            .replace(" ,", ",")
            .replace("& ", "&");
        syn::Error::new(ty.span(), format!("type `{text}` cannot be offloaded"))
    };
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => {
            let Some(ident) = p.path.get_ident() else {
                return Err(cannot());
            };
            // A scalar, or a struct by value (copied in; rkc checks that it is `#[repr(C)]`,
            // and the argument's `DeviceCopy` bound checks the host's side).
            Ok(ident.to_string())
        }
        // An array by value.
        syn::Type::Array(_) => spell_pointee(ty).ok_or_else(cannot),
        syn::Type::Ptr(p) => {
            let inner = spell_pointee(&p.elem).ok_or_else(cannot)?;
            Ok(format!(
                "*{} {inner}",
                if p.mutability.is_some() { "mut" } else { "const" }
            ))
        }
        syn::Type::Paren(p) => spell(&p.elem),
        syn::Type::Reference(r) => match r.elem.as_ref() {
            syn::Type::Slice(sl) => {
                let elem = spell_pointee(&sl.elem).ok_or_else(cannot)?;
                Ok(format!("&{}[{elem}]", if r.mutability.is_some() { "mut " } else { "" }))
            }
            _ => Err(cannot()),
        },
        _ => Err(cannot()),
    }
}

/// The type a parameter has in `Kernel::Params`: slices become raw fat pointers, so that the
/// tuple is `Copy` and needs no lifetime; everything else stays.
fn params_type(ty: &syn::Type) -> TokenStream2 {
    match ty {
        syn::Type::Reference(r) => match r.elem.as_ref() {
            syn::Type::Slice(sl) => {
                let elem = &sl.elem;
                if r.mutability.is_some() { quote!(*mut [#elem]) } else { quote!(*const [#elem]) }
            }
            _ => quote!(#ty),
        },
        other => quote!(#other),
    }
}

/// Turns a `Kernel::Params` element back into the parameter's type (a slice from its raw
/// fat pointer).
fn from_params(var: &Ident, ty: &syn::Type) -> TokenStream2 {
    match ty {
        syn::Type::Reference(r) if matches!(r.elem.as_ref(), syn::Type::Slice(_)) => {
            // SAFETY (in the generated code): the runtime builds the fat pointer from a
            // buffer of exactly that many elements that lives for the launch.
            if r.mutability.is_some() { quote!(unsafe { &mut *#var }) } else { quote!(unsafe { &*#var }) }
        }
        _ => quote!(#var),
    }
}

/// What memory behind a pointer or in a slice may hold: a scalar, or a struct named by a
/// plain identifier (rkc checks that it is `#[repr(C)]`, so that both sides agree on its
/// layout), spelled as the compiler spells it.
fn spell_element(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => spell(ty).ok(),
        syn::Type::Paren(p) => spell_element(&p.elem),
        _ => None,
    }
}

fn spell_pointee(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Array(a) => {
            let elem = spell_pointee(&a.elem)?;
            let len = match &a.len {
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(n),
                    ..
                }) => n.base10_parse::<u64>().ok()?,
                _ => return None,
            };
            Some(format!("[{elem}; {len}]"))
        }
        other => spell_element(other),
    }
}

fn kernel_descriptor(func: &syn::ItemFn) -> Result<TokenStream2, syn::Error> {
    let sig = &func.sig;
    if !sig.generics.params.is_empty() {
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
    let mut spelled = Vec::new();
    let mut errors: Option<syn::Error> = None;
    for input in &sig.inputs {
        let syn::FnArg::Typed(pt) = input else {
            return Err(syn::Error::new(input.span(), "an `#[offload_kernel]` function cannot take `self`"));
        };
        match spell(&pt.ty) {
            Ok(s) => spelled.push(s),
            Err(e) => match &mut errors {
                Some(all) => all.combine(e),
                None => errors = Some(e),
            },
        }
        types.push(pt.ty.as_ref().clone());
    }
    if let Some(e) = errors {
        return Err(e);
    }
    let signature = format!("{name}({})", spelled.join(", "));
    let name_str = name.to_string();
    let vars: Vec<Ident> = (0..types.len()).map(|k| format_ident!("p{k}")).collect();
    let args: Vec<TokenStream2> = vars.iter().zip(&types).map(|(v, t)| from_params(v, t)).collect();
    let param_types: Vec<TokenStream2> = types.iter().map(params_type).collect();
    let call = if sig.unsafety.is_some() {
        quote!(unsafe { #name(#(#args),*) })
    } else {
        quote!(#name(#(#args),*))
    };
    let doc = format!("The kernel descriptor of [`{name}`](fn@{name}), made by `#[offload_kernel]`.");
    Ok(quote! {
        #[doc = #doc]
        #[allow(non_camel_case_types, reason = "the descriptor shares the kernel's name so that `offload!` finds it")]
        #vis struct #name { _private: () }

        impl ::rkc_offload::Kernel for #name {
            const NAME: &'static str = #name_str;
            const SIGNATURE: &'static str = #signature;
            type Params = (#(#param_types,)*);
            fn run_on_host(params: Self::Params) {
                let (#(#vars,)*) = params;
                #call
            }
            #[allow(unused_variables, reason = "a kernel without parameters ignores its arguments")]
            fn run_raw(args: &[u64]) {
                let mut raw = args.iter().copied();
                #(let #vars = <#param_types as ::rkc_offload::FromRawArg>::from_raw_args(&mut raw);)*
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

/// Launches a kernel: `offload! { kernel = k, workgroup_dim = [..], thread_dim = [..],
/// args = (..,) }`. Panics on any launch error, as upstream does.
/// `#[derive(DeviceCopy)]`: lets a `#[repr(C)]` struct be passed to a kernel by value (and
/// be a field of another such struct). Refuses a struct without `#[repr(C)]`, a generic one,
/// and (through the generated bounds) fields that are not `DeviceCopy` themselves.
#[proc_macro_derive(DeviceCopy)]
pub fn derive_device_copy(item: TokenStream) -> TokenStream {
    let item = syn::parse_macro_input!(item as syn::DeriveInput);
    match device_copy(&item) {
        Ok(tokens) => tokens.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

fn device_copy(item: &syn::DeriveInput) -> Result<TokenStream2, syn::Error> {
    let name = &item.ident;
    let syn::Data::Struct(data) = &item.data else {
        return Err(syn::Error::new(name.span(), "`DeviceCopy` can be derived for structs only"));
    };
    if !item.generics.params.is_empty() {
        return Err(syn::Error::new(item.generics.span(), "`DeviceCopy` cannot be derived for a generic struct"));
    }
    let repr_c = item.attrs.iter().filter(|a| a.path().is_ident("repr")).any(|a| {
        let mut c = false;
        let _ = a.parse_nested_meta(|m| {
            c |= m.path.is_ident("C");
            if m.input.peek(syn::token::Paren) {
                let _ = m.input.parse::<proc_macro2::Group>();
            }
            Ok(())
        });
        c
    });
    if !repr_c {
        return Err(syn::Error::new(
            name.span(),
            "`DeviceCopy` needs `#[repr(C)]` on the struct: the kernel reads the fields where C's layout puts them",
        ));
    }
    let fields: Vec<&syn::Type> = data.fields.iter().map(|f| &f.ty).collect();
    Ok(quote! {
        // SAFETY: a `#[repr(C)]` struct whose fields are all `DeviceCopy` (checked below) is its
        // bytes, in C's layout.
        unsafe impl ::rkc_offload::DeviceCopy for #name {}
        const _: () = {
            fn fields_are_device_copy<T: ::rkc_offload::DeviceCopy>() {}
            fn check() {
                #(fields_are_device_copy::<#fields>();)*
            }
        };
    })
}

#[proc_macro]
pub fn offload(input: TokenStream) -> TokenStream {
    expand(input, false)
}

/// The fallible form of `offload!`: returns `Result<(), rkc_offload::OffloadError>`.
#[proc_macro]
pub fn try_offload(input: TokenStream) -> TokenStream {
    expand(input, true)
}

fn expand(input: TokenStream, fallible: bool) -> TokenStream {
    let fields = match syn::parse::<Fields>(input) {
        Ok(f) => f.0,
        Err(e) => return e.to_compile_error().into(),
    };
    // Unknown and duplicate fields are reported at the field, before any missing field.
    let mut seen: Vec<String> = Vec::new();
    for f in &fields {
        let name = f.name.to_string();
        if !FIELDS.contains(&name.as_str()) {
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
        return compile_error(get("args").map_or(Span::call_site(), |a| a.span()), "`args` must be a tuple literal");
    }
    let Expr::Path(kernel_path) = kernel else {
        return compile_error(kernel.span(), "`kernel` must name an `#[offload_kernel]` function");
    };
    let kernel_path = &kernel_path.path;
    let device = match get("device") {
        None => quote!(::core::option::Option::None),
        Some(d) => {
            if let Expr::Unary(syn::ExprUnary {
                op: syn::UnOp::Neg(_),
                expr,
                ..
            }) = d
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
    if fallible {
        launch.into()
    } else {
        quote!(::rkc_offload::__private::unwrap_launch(#launch)).into()
    }
}
