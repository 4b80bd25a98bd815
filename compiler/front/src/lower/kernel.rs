//! Kernels: what their signatures may be, and how each parameter arrives (upstream's argument
//! mapping): scalars by value, slices as a pointer and a length, raw pointers and references
//! to data the launch copies in (and back for `mut`), and arrays, structs and enums by value as
//! a read-only copy on the device.

use super::mono::Mono;
use super::*;
use crate::diag::snippet;
use crate::items::{DefId, DefKind};
use syn::spanned::Spanned;

/// How one kernel parameter arrives.
#[derive(Clone, Debug)]
pub enum KernelParam {
    Scalar(Type),
    Slice {
        mutable: bool,
        elem: Type,
    },
    /// A raw pointer, or a reference (`by_ref`), to one value the launch maps.
    Ptr {
        mutable: bool,
        pointee: Type,
        by_ref: bool,
    },
    /// An array, struct or enum by value.
    ByValue(Type),
}

fn span_of(node: &impl Spanned) -> Span {
    Span::from_pm2(node.span())
}

pub fn param_name(body: &Body, k: usize) -> String {
    match body.params.get(k).map(|p| &body.pat(p.pat).kind) {
        Some(PatKind::Binding { local, .. }) => body.local(*local).name.clone(),
        _ => "_".into(),
    }
}

/// Checks a kernel's signature; its parameters' mapping, or `None` after reporting why not.
pub fn check_kernel_signature(mono: &mut Mono, def: DefId) -> Option<Vec<KernelParam>> {
    let tcx = mono.tcx;
    let items = tcx.items;
    let d = items.def(def);
    let sig = items.fn_sig(def)?;
    let name = d.name.clone();
    let name_span = d.span;
    let mut ok = true;
    let mut report = |diag: Diagnostic| {
        ok = false;
        tcx.report(FileId::User, diag);
    };
    if !sig.generics.params.is_empty()
        && sig.generics.params.iter().any(|p| !matches!(p, syn::GenericParam::Lifetime(_)))
    {
        report(
            Diagnostic::new(RK_GENERIC_KERNEL, format!("the kernel `{name}` cannot be generic"))
                .at(span_of(&sig.generics), "generic parameters declared here")
                .with_secondary(name_span, "kernels are launched by name")
                .help("make the kernel non-generic and call a generic device function from it"),
        );
        return None;
    }
    if let Some(a) = &sig.asyncness {
        report(
            Diagnostic::new(RK_ASYNC_KERNEL, format!("the kernel `{name}` cannot be `async`"))
                .at(span_of(a), "remove `async`"),
        );
    }
    if let Some(c) = &sig.constness {
        report(
            Diagnostic::new(RK_ASYNC_KERNEL, format!("the kernel `{name}` cannot be `const`"))
                .at(span_of(c), "remove `const`"),
        );
    }
    if let Some(abi) = &sig.abi {
        report(
            Diagnostic::new(RK_ASYNC_KERNEL, format!("the kernel `{name}` cannot declare an ABI"))
                .at(span_of(abi), "`#[offload_kernel]` chooses the device ABI"),
        );
    }
    if let syn::ReturnType::Type(_, ty) = &sig.output {
        let is_unit = matches!(ty.as_ref(), syn::Type::Tuple(t) if t.elems.is_empty());
        if !is_unit {
            report(
                Diagnostic::new(
                    RK_KERNEL_RETURNS_VALUE,
                    format!("the kernel `{name}` cannot return a value"),
                )
                .at(span_of(ty), "remove the return type")
                .note("a kernel's results go through its `*mut` pointer arguments"),
            );
        }
    }
    let fsig = tcx.fn_sig(def);
    let mut params = Vec::new();
    let mut named_nothing = false;
    for (input, ty) in sig.inputs.iter().zip(&fsig.inputs) {
        let syn::FnArg::Typed(pt) = input else {
            report(
                Diagnostic::new(RK_ASYNC_KERNEL, format!("the kernel `{name}` cannot take `self`"))
                    .at(span_of(input), "kernels are free functions"),
            );
            continue;
        };
        // A type that names nothing was reported where it is written; that it cannot be
        // offloaded follows and is not news.
        if ty.is_error() && tcx.reported_within(span_of(&pt.ty)) {
            named_nothing = true;
            continue;
        }
        match kernel_param(mono, ty, pt) {
            Ok(p) => params.push(p),
            Err(d) => report(d),
        }
    }
    if ok && !named_nothing { Some(params) } else { None }
}

/// The mapping of one parameter type, or the diagnostic that says why it cannot be offloaded.
fn kernel_param(mono: &mut Mono, ty: &Ty, pt: &syn::PatType) -> Result<KernelParam, Diagnostic> {
    let tcx = mono.tcx;
    let span = span_of(&pt.ty);
    let pname = match pt.pat.as_ref() {
        syn::Pat::Ident(p) => p.ident.to_string(),
        _ => "_".into(),
    };
    let cannot = |why: Option<&str>| {
        let mut d = Diagnostic::new(RK_BAD_KERNEL_PARAM, format!("type `{}` cannot be offloaded", snippet(tcx.source, span)))
            .at(span, format!("the parameter `{pname}` has this type"))
            .note("kernel parameters are scalars (by value), slices, raw pointers or references to scalars, arrays or `#[repr(C)]` structs (copied in, and back for `mut`), and arrays and `#[repr(C)]` structs by value");
        if let Some(w) = why {
            d = d.note(w.to_string());
        }
        d
    };
    if ty.is_error() {
        return Err(cannot(None));
    }
    // Data that crosses to the host must have the host's layout.
    let host_layout =
        |t: &Ty| -> Result<(), Diagnostic> { check_host_layout(mono.tcx, t, span, &pname) };
    match ty.kind() {
        TyKind::Bool | TyKind::Int(_) | TyKind::Float(_) => Ok(KernelParam::Scalar(match mono.layouts.repr(tcx, ty) {
            Ok(super::layout::Repr::Scalar(t)) => t,
            _ => return Err(cannot(None)),
        })),
        TyKind::Tuple(ts) if ts.is_empty() => Err(Diagnostic::new(RK_BAD_KERNEL_PARAM, "type `()` cannot be offloaded").at(span, "a parameter that holds nothing")),
        TyKind::Ref(inner, m) | TyKind::Ptr(inner, m) => {
            let by_ref = matches!(ty.kind(), TyKind::Ref(..));
            match inner.kind() {
                TyKind::Slice(el) => {
                    if !by_ref {
                        return Err(cannot(Some("pass a slice as `&[T]` or `&mut [T]`, or a pointer to an array")));
                    }
                    host_layout(el)?;
                    let elem = mono.layouts.mem_type(tcx, el).ok().flatten().ok_or_else(|| cannot(None))?;
                    Ok(KernelParam::Slice { mutable: *m, elem })
                }
                TyKind::Str => Err(cannot(Some("strings have no device form"))),
                _ => {
                    host_layout(inner)?;
                    let pointee = mono.layouts.mem_type(tcx, inner).ok().flatten().ok_or_else(|| cannot(None))?;
                    if pointee.pointee().is_some() || contains_pointer(&pointee) {
                        return Err(cannot(Some("the data behind a kernel parameter cannot hold pointers or references: the host's addresses mean nothing on the device")));
                    }
                    Ok(KernelParam::Ptr { mutable: *m, pointee, by_ref })
                }
            }
        }
        TyKind::Array(..) | TyKind::Adt(..) => {
            host_layout(ty)?;
            let t = mono.layouts.mem_type(tcx, ty).ok().flatten().ok_or_else(|| cannot(None))?;
            if contains_pointer(&t) {
                return Err(cannot(Some("the value cannot hold pointers or references: the host's addresses mean nothing on the device")));
            }
            match mono.layouts.repr(tcx, ty) {
                Ok(super::layout::Repr::Scalar(s)) => Ok(KernelParam::Scalar(s)),
                _ => Ok(KernelParam::ByValue(t)),
            }
        }
        TyKind::Tuple(_) => Err(Diagnostic::new(RK_BAD_KERNEL_PARAM, format!("type `{}` cannot be offloaded", snippet(tcx.source, span)))
            .at(span, "a tuple in a kernel parameter")
            .note("Rust does not fix the layout of tuples, so the host and the device could disagree on it")
            .help("use a `#[repr(C)]` struct instead")),
        TyKind::Char => Err(cannot(Some("pass the `char` as a `u32`"))),
        _ => Err(cannot(None)),
    }
}

fn contains_pointer(t: &Type) -> bool {
    match t {
        Type::Ptr { .. } | Type::Slice { .. } => true,
        Type::Array { elem, .. } => contains_pointer(elem),
        Type::Struct { fields, .. } => fields.iter().any(|(_, f)| contains_pointer(f)),
        _ => false,
    }
}

/// Whether the type has a layout the host agrees on: `#[repr(C)]` structs (and enums with
/// `repr(C)` or an integer `repr`), arrays of those, scalars. Tuples and other structs are
/// laid out by rustc as it likes.
fn check_host_layout(tcx: &Tcx, t: &Ty, span: Span, pname: &str) -> Result<(), Diagnostic> {
    match t.kind() {
        TyKind::Bool | TyKind::Int(_) | TyKind::Float(_) => Ok(()),
        TyKind::Array(el, _) => check_host_layout(tcx, el, span, pname),
        TyKind::Tuple(_) => Err(Diagnostic::new(RK_BAD_KERNEL_PARAM, format!("type `{}` cannot be offloaded", snippet(tcx.source, span)))
            .at(span, "a tuple in a kernel parameter")
            .note("Rust does not fix the layout of tuples, so the host and the device could disagree on it")
            .help("use a `#[repr(C)]` struct instead")),
        TyKind::Adt(d, args) => {
            let def = tcx.items.def(*d);
            let repr_ok = match &def.kind {
                DefKind::Struct { repr, .. } => repr.c || repr.transparent,
                DefKind::Enum { repr, .. } => repr.c || repr.int.is_some(),
                _ => false,
            };
            if !repr_ok {
                let what = if matches!(def.kind, DefKind::Enum { .. }) { "enum" } else { "struct" };
                let d = Diagnostic::new(RK_UNSUPPORTED_TYPE, format!("the {what} `{}` crosses to the host but is not `#[repr(C)]`", def.name))
                    .at(span, format!("the parameter `{pname}` holds it"))
                    .note("the host and the device must agree on the layout of data a launch copies; Rust guarantees it only for `#[repr(C)]`");
                // A type of `core` (`Option`) is not the user's to change: its span is in the
                // device core, not in this file.
                return Err(if def.file.is_user() {
                    d.with_secondary(def.span, "declared here without `#[repr(C)]`".to_string())
                        .help(format!("add `#[repr(C)]` to the {what}"))
                } else {
                    d.help(format!("`{}` is `core`'s, whose layout Rust does not fix: pass the values and whether each is present as two slices, or a `#[repr(C)]` type of your own", def.name))
                });
            }
            if let DefKind::Struct { repr, .. } = &def.kind
                && repr.packed.is_some()
            {
                return Err(Diagnostic::new(RK_UNSUPPORTED_TYPE, format!("the `#[repr(packed)]` struct `{}` cannot cross to the device", def.name))
                    .at(span, format!("the parameter `{pname}` holds it"))
                    .with_secondary(def.span, "declared here")
                    .note("GPUs load values at their natural alignment; a packed struct's fields are not"));
            }
            for v in std::iter::once(*d).chain(match &def.kind {
                DefKind::Enum { variants, .. } => variants.clone(),
                _ => Vec::new(),
            }) {
                for ft in tcx.field_tys(v).iter() {
                    check_host_layout(tcx, &ft.subst(args), span, pname)?;
                }
            }
            Ok(())
        }
        TyKind::Ref(..) | TyKind::Ptr(..) => Err(Diagnostic::new(RK_BAD_KERNEL_PARAM, format!("type `{}` cannot be offloaded", tcx.show(t)))
            .at(span, format!("the parameter `{pname}` holds a pointer"))
            .note("the data behind a kernel parameter cannot hold pointers or references: the host's addresses mean nothing on the device")),
        // A type with no device form at all (a trait object behind the reference): named as
        // the source writes it, since it has no rk spelling.
        _ if t.is_error() => Err(Diagnostic::new(RK_BAD_KERNEL_PARAM, format!("type `{}` cannot be offloaded", snippet(tcx.source, span)))
            .at(span, format!("the parameter `{pname}` has this type"))
            .note("trait objects, heap types and function pointers have no device form; kernel parameters are scalars, slices, raw pointers or references to sized data, and arrays and `#[repr(C)]` structs by value")),
        _ => Err(Diagnostic::new(RK_BAD_KERNEL_PARAM, format!("type `{}` cannot be offloaded", tcx.show(t))).at(span, format!("the parameter `{pname}` holds it"))),
    }
}

impl<'m, 'c, 't, 'a> FnLowerer<'m, 'c, 't, 'a> {
    /// A kernel parameter's rk parameter, and its value in the body.
    pub fn kernel_param(&mut self, name: String, p: &KernelParam, span: Span) -> Operand {
        match p {
            // A 128-bit integer travels as the runtime maps every value wider than 8 bytes:
            // by value, copied to the device and read through a pointer.
            KernelParam::Scalar(t) if matches!(t, Type::Int(i) if i.bits() == 128) => {
                let v = self.func.add_by_value_param(name, t.clone());
                Operand::Scalar(self.op1(OpKind::Load, &[v], t.clone(), span))
            }
            KernelParam::Scalar(t) => Operand::Scalar(self.func.add_param(name, t.clone())),
            KernelParam::Slice { mutable, elem } => {
                let s = self.func.add_param(
                    name,
                    Type::Slice { mutable: *mutable, elem: Box::new(elem.clone()) },
                );
                // The slice's parts, once at the entry.
                let ptr = self.op1(OpKind::SlicePtr, &[s], Type::ptr(*mutable, elem.clone()), span);
                let len = self.op1(OpKind::SliceLen, &[s], Type::USIZE, span);
                Operand::Fat(ptr, len)
            }
            KernelParam::Ptr { mutable, pointee, by_ref } => {
                let v = self.func.add_param(name, Type::ptr(*mutable, pointee.clone()));
                if *by_ref && let Some(last) = self.func.params.last_mut() {
                    last.by_ref = true;
                }
                Operand::Scalar(v)
            }
            KernelParam::ByValue(t) => {
                let v = self.func.add_by_value_param(name, t.clone());
                Operand::Mem(v)
            }
        }
    }
}
