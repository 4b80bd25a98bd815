//! The front end: parses `kernels.rs` with syn, finds the `#[offload_kernel]` functions and
//! lowers each to an rk function, reporting everything it cannot take as a rustc-style
//! diagnostic with a code and a span. It never panics on user input.
//!
//! `kernels.rs` is also a module of the host crate, so it may hold host code; only the
//! kernels (and, later, what they call) are compiled, everything else is ignored.

pub mod codes;
pub mod diag;
mod lower;

pub use diag::{Diagnostic, Span, render};
pub use lower::{geometry_builtin, lower_type};

use codes::*;
use lower::FnLowerer;
use diag::snippet;
use rkc_rk::{Func, Loc, Module, Type};
use std::collections::HashMap;
use syn::spanned::Spanned;

/// Compiles the kernels of one source file to an rk module, or returns every error found.
pub fn compile(source: &str) -> Result<Module, Vec<Diagnostic>> {
    let file = syn::parse_file(source).map_err(|e| vec![syntax_error(&e)])?;
    let mut kernels = Vec::new();
    collect_kernels(&file.items, &mut kernels);
    if kernels.is_empty() {
        // One line: the reason and what to do; `rkc --explain RK0002` shows an example.
        let what = if source.trim().is_empty() { "the file is empty" } else { "the file has no kernel" };
        return Err(vec![Diagnostic::new(
            RK_NO_KERNEL,
            format!("{what}: rkc compiles functions marked `#[offload_kernel]`, and found none"),
        )]);
    }
    let mut diags = Vec::new();
    let mut module = Module::default();
    let mut seen: HashMap<String, Span> = HashMap::new();
    for item in kernels {
        let name = item.sig.ident.to_string();
        let span = Span::from_pm2(item.sig.ident.span());
        if let Some(first) = seen.get(&name) {
            diags.push(
                Diagnostic::new(RK_DUPLICATE_KERNEL, format!("the kernel `{name}` is defined more than once"))
                    .at(span, "defined again here")
                    .with_secondary(*first, "first defined here"),
            );
            continue;
        }
        seen.insert(name, span);
        if let Ok(func) = lower_kernel(item, source, &mut diags) {
            module.funcs.push(func);
        }
    }
    if diags.is_empty() { Ok(module) } else { Err(diags) }
}

fn syntax_error(e: &syn::Error) -> Diagnostic {
    Diagnostic::new(RK_SYNTAX, format!("this file is not valid Rust: {e}"))
        .at(Span::from_pm2(e.span()), e.to_string())
}

fn is_kernel_attr(attr: &syn::Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|s| s.ident == "offload_kernel")
}

/// Finds kernels at the top level and in inline `mod` blocks, in source order.
fn collect_kernels<'f>(items: &'f [syn::Item], out: &mut Vec<&'f syn::ItemFn>) {
    for item in items {
        match item {
            syn::Item::Fn(f) if f.attrs.iter().any(is_kernel_attr) => out.push(f),
            syn::Item::Mod(m) => {
                if let Some((_, items)) = &m.content {
                    collect_kernels(items, out);
                }
            }
            _ => {}
        }
    }
}

fn lower_kernel(item: &syn::ItemFn, source: &str, diags: &mut Vec<Diagnostic>) -> Result<Func, lower::Reported> {
    let sig = &item.sig;
    let name = sig.ident.to_string();
    let name_span = Span::from_pm2(sig.ident.span());
    let before = diags.len();
    if !sig.generics.params.is_empty() {
        diags.push(
            Diagnostic::new(RK_GENERIC_KERNEL, format!("the kernel `{name}` cannot be generic"))
                .at(Span::from_pm2(sig.generics.span()), "generic parameters declared here")
                .with_secondary(name_span, "kernels are launched by name")
                .help("make the kernel non-generic and call a generic device function from it"),
        );
    }
    if let Some(a) = &sig.asyncness {
        diags.push(
            Diagnostic::new(RK_ASYNC_KERNEL, format!("the kernel `{name}` cannot be `async`"))
                .at(Span::from_pm2(a.span), "remove `async`"),
        );
    }
    if let Some(c) = &sig.constness {
        diags.push(
            Diagnostic::new(RK_ASYNC_KERNEL, format!("the kernel `{name}` cannot be `const`"))
                .at(Span::from_pm2(c.span), "remove `const`"),
        );
    }
    if let Some(abi) = &sig.abi {
        diags.push(
            Diagnostic::new(RK_ASYNC_KERNEL, format!("the kernel `{name}` cannot declare an ABI"))
                .at(Span::from_pm2(abi.span()), "`#[offload_kernel]` chooses the device ABI")
        );
    }
    if let syn::ReturnType::Type(_, ty) = &sig.output {
        let is_unit = matches!(ty.as_ref(), syn::Type::Tuple(t) if t.elems.is_empty());
        if !is_unit {
            diags.push(
                Diagnostic::new(RK_KERNEL_RETURNS_VALUE, format!("the kernel `{name}` cannot return a value"))
                    .at(Span::from_pm2(ty.span()), "remove the return type")
                    .note("a kernel's results go through its `*mut` pointer arguments"),
            );
        }
    }
    let loc = Loc {
        line: name_span.line(),
        col: name_span.col(),
    };
    let mut func = Func::new(name.clone(), true, Type::Unit, loc);
    let mut params = Vec::new();
    for input in &sig.inputs {
        let syn::FnArg::Typed(pt) = input else {
            diags.push(
                Diagnostic::new(RK_ASYNC_KERNEL, format!("the kernel `{name}` cannot take `self`"))
                    .at(Span::from_pm2(input.span()), "kernels are free functions"),
            );
            continue;
        };
        let syn::Pat::Ident(pi) = pt.pat.as_ref() else {
            diags.push(
                Diagnostic::new(RK_BAD_KERNEL_PARAM, "kernel parameters must be plain names")
                    .at(Span::from_pm2(pt.pat.span()), "patterns are not allowed here"),
            );
            continue;
        };
        let ty_before = diags.len();
        let Ok(ty) = lower_type(&pt.ty, source, diags) else {
            // Say what upstream says ("type `X` cannot be offloaded"), with the span it lacks.
            diags.truncate(ty_before);
            diags.push(
                Diagnostic::new(RK_BAD_KERNEL_PARAM, format!("type `{}` cannot be offloaded", snippet(source, Span::from_pm2(pt.ty.span()))))
                    .at(Span::from_pm2(pt.ty.span()), format!("the parameter `{}` has this type", pi.ident))
                    .note("kernel parameters are scalars (by value) or raw pointers to scalars or arrays (copied in, and back for `*mut`)"),
            );
            continue;
        };
        if matches!(ty, Type::Array { .. } | Type::Unit) {
            diags.push(
                Diagnostic::new(RK_BAD_KERNEL_PARAM, format!("type `{ty}` cannot be offloaded by value yet"))
                    .at(Span::from_pm2(pt.ty.span()), "pass a pointer to it instead")
                    .help(format!("declare the parameter as `*const {ty}` or `*mut {ty}`")),
            );
            continue;
        }
        let id = func.add_param(pi.ident.to_string(), ty.clone());
        params.push((pi.ident.to_string(), id, ty));
    }
    if diags.len() > before {
        return Err(lower::Reported);
    }
    let lowerer = FnLowerer::new(func, params, source, diags);
    let body_loc = Loc {
        line: Span::from_pm2(item.block.brace_token.span.close()).line(),
        col: Span::from_pm2(item.block.brace_token.span.close()).col(),
    };
    // An `unsafe fn` kernel's body is an unsafe context, as rustc accepts it (with a lint in
    // edition 2024).
    if sig.unsafety.is_some() {
        let block = syn::Block {
            brace_token: item.block.brace_token,
            stmts: vec![syn::Stmt::Expr(
                syn::Expr::Unsafe(syn::ExprUnsafe {
                    attrs: vec![],
                    unsafe_token: Default::default(),
                    block: (*item.block).clone(),
                }),
                None,
            )],
        };
        return lowerer.finish(&block, body_loc);
    }
    lowerer.finish(&item.block, body_loc)
}

#[cfg(test)]
mod tests;
