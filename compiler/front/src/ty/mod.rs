//! The front end's types: Rust's types as the type checker sees them, with inference variables,
//! generic parameters and projections, before lowering picks rk types for them.
//!
//! A [`Ty`] is a shared, immutable node compared structurally. Generic parameters are numbered
//! by their item's parameter list ([`crate::items::Generics`]); [`Ty::subst`] replaces them.

pub mod consteval;
pub mod lower;

pub use lower::{TyLowerer, lower_const_arg};

use crate::items::{DefId, Items};
use rkc_rk::{FloatTy, IntTy};
use std::fmt;
use std::rc::Rc;

/// A closure's identity: the body instance that defines it and its expression there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClosureId(pub u32);

/// An inference variable of one body's type checker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Infer {
    /// Any type.
    Var(u32),
    /// An integer type (`{integer}`), from an unsuffixed integer literal.
    Int(u32),
    /// A float type (`{float}`).
    Float(u32),
}

/// A const generic argument: an array length or a const parameter's value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Const {
    Value(u64),
    Param(u32),
    Infer(u32),
    Error,
}

/// One generic argument.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GenericArg {
    Ty(Ty),
    Const(Const),
}

impl GenericArg {
    pub fn ty(&self) -> Option<&Ty> {
        match self {
            GenericArg::Ty(t) => Some(t),
            GenericArg::Const(_) => None,
        }
    }

    pub fn as_const(&self) -> Option<&Const> {
        match self {
            GenericArg::Const(c) => Some(c),
            GenericArg::Ty(_) => None,
        }
    }
}

pub type Args = Rc<[GenericArg]>;

/// `<Self as Trait<Args>>::Assoc`: the trait's arguments (Self first) and the associated type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Projection {
    pub trait_id: DefId,
    pub args: Args,
    pub assoc: DefId,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TyKind {
    Bool,
    Char,
    Int(IntTy),
    Float(FloatTy),
    Str,
    Never,
    Tuple(Vec<Ty>),
    Array(Ty, Const),
    Slice(Ty),
    /// `&T` (`false`) or `&mut T` (`true`).
    Ref(Ty, bool),
    /// `*const T` (`false`) or `*mut T` (`true`).
    Ptr(Ty, bool),
    /// A struct or enum with its generic arguments.
    Adt(DefId, Args),
    /// A function item's zero-sized type.
    FnDef(DefId, Args),
    Closure(ClosureId),
    /// A generic parameter of the item whose signature this type belongs to.
    Param(u32),
    Projection(Projection),
    /// The `index`-th `impl Trait` of a function's return type, for the function's generic
    /// arguments: the type its body returns there, known once that instance is checked.
    Opaque(DefId, u32, Args),
    Infer(Infer),
    /// A type an error was already reported for.
    Error,
}

/// A type.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Ty(Rc<TyKind>);

impl fmt::Debug for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl Default for Ty {
    fn default() -> Ty {
        Ty::unit()
    }
}

impl Ty {
    pub fn new(kind: TyKind) -> Ty {
        Ty(Rc::new(kind))
    }

    pub fn kind(&self) -> &TyKind {
        &self.0
    }

    pub fn unit() -> Ty {
        Ty::new(TyKind::Tuple(Vec::new()))
    }

    pub fn bool() -> Ty {
        Ty::new(TyKind::Bool)
    }

    pub fn int(t: IntTy) -> Ty {
        Ty::new(TyKind::Int(t))
    }

    pub fn usize() -> Ty {
        Ty::int(IntTy::Usize)
    }

    pub fn u32() -> Ty {
        Ty::int(IntTy::U32)
    }

    pub fn float(t: FloatTy) -> Ty {
        Ty::new(TyKind::Float(t))
    }

    pub fn never() -> Ty {
        Ty::new(TyKind::Never)
    }

    pub fn error() -> Ty {
        Ty::new(TyKind::Error)
    }

    pub fn reference(inner: Ty, mutable: bool) -> Ty {
        Ty::new(TyKind::Ref(inner, mutable))
    }

    pub fn ptr(inner: Ty, mutable: bool) -> Ty {
        Ty::new(TyKind::Ptr(inner, mutable))
    }

    pub fn slice(elem: Ty) -> Ty {
        Ty::new(TyKind::Slice(elem))
    }

    pub fn array(elem: Ty, len: u64) -> Ty {
        Ty::new(TyKind::Array(elem, Const::Value(len)))
    }

    pub fn tuple(elems: Vec<Ty>) -> Ty {
        Ty::new(TyKind::Tuple(elems))
    }

    pub fn adt(def: DefId, args: Vec<GenericArg>) -> Ty {
        Ty::new(TyKind::Adt(def, args.into()))
    }

    pub fn is_unit(&self) -> bool {
        matches!(self.kind(), TyKind::Tuple(t) if t.is_empty())
    }

    pub fn is_never(&self) -> bool {
        matches!(self.kind(), TyKind::Never)
    }

    pub fn is_error(&self) -> bool {
        matches!(self.kind(), TyKind::Error)
    }

    /// How a print shows a value of this type, through any references (`println!` formats
    /// `&&x` as it formats `x`); `None` for what a kernel cannot print.
    pub fn print_kind(&self) -> Option<offload_binary::format::ValueKind> {
        use offload_binary::format::ValueKind;
        match self.kind() {
            TyKind::Ref(inner, _) => inner.print_kind(),
            TyKind::Int(t) => Some(ValueKind::Int { bits: t.bits(), signed: t.is_signed() }),
            TyKind::Float(FloatTy::F16) => Some(ValueKind::F16),
            TyKind::Float(FloatTy::Bf16) => Some(ValueKind::Bf16),
            TyKind::Float(FloatTy::F32) => Some(ValueKind::F32),
            TyKind::Float(FloatTy::F64) => Some(ValueKind::F64),
            TyKind::Bool => Some(ValueKind::Bool),
            TyKind::Char => Some(ValueKind::Char),
            _ => None,
        }
    }

    pub fn is_integral(&self) -> bool {
        matches!(self.kind(), TyKind::Int(_) | TyKind::Infer(Infer::Int(_)))
    }

    pub fn is_floating(&self) -> bool {
        matches!(self.kind(), TyKind::Float(_) | TyKind::Infer(Infer::Float(_)))
    }

    pub fn is_numeric(&self) -> bool {
        self.is_integral() || self.is_floating()
    }

    /// Whether values of the type are one scalar: numbers, `bool`, `char`.
    pub fn is_scalar(&self) -> bool {
        matches!(self.kind(), TyKind::Bool | TyKind::Char | TyKind::Int(_) | TyKind::Float(_))
    }

    pub fn is_infer(&self) -> bool {
        matches!(self.kind(), TyKind::Infer(_))
    }

    /// The type behind a reference or raw pointer, and whether it is `mut`.
    pub fn pointee(&self) -> Option<(&Ty, bool)> {
        match self.kind() {
            TyKind::Ref(t, m) | TyKind::Ptr(t, m) => Some((t, *m)),
            _ => None,
        }
    }

    pub fn builtin_deref(&self, explicit: bool) -> Option<(Ty, bool)> {
        match self.kind() {
            TyKind::Ref(t, m) => Some((t.clone(), *m)),
            TyKind::Ptr(t, m) if explicit => Some((t.clone(), *m)),
            _ => None,
        }
    }

    /// Whether the type mentions an inference variable.
    pub fn has_infer(&self) -> bool {
        self.any(&|t| matches!(t.kind(), TyKind::Infer(_)), &|c| matches!(c, Const::Infer(_)))
    }

    /// Whether the type mentions a generic parameter.
    pub fn has_params(&self) -> bool {
        self.any(&|t| matches!(t.kind(), TyKind::Param(_)), &|c| matches!(c, Const::Param(_)))
    }

    /// Whether the type mentions a projection or an opaque type: something normalisation
    /// replaces.
    pub fn has_projections(&self) -> bool {
        self.any(&|t| matches!(t.kind(), TyKind::Projection(_) | TyKind::Opaque(..)), &|_| false)
    }

    pub fn has_error(&self) -> bool {
        self.any(&|t| t.is_error(), &|c| matches!(c, Const::Error))
    }

    fn any(&self, f: &dyn Fn(&Ty) -> bool, g: &dyn Fn(&Const) -> bool) -> bool {
        if f(self) {
            return true;
        }
        let args_any = |args: &[GenericArg]| {
            args.iter().any(|a| match a {
                GenericArg::Ty(t) => t.any(f, g),
                GenericArg::Const(c) => g(c),
            })
        };
        match self.kind() {
            TyKind::Tuple(ts) => ts.iter().any(|t| t.any(f, g)),
            TyKind::Array(t, c) => t.any(f, g) || g(c),
            TyKind::Slice(t) | TyKind::Ref(t, _) | TyKind::Ptr(t, _) => t.any(f, g),
            TyKind::Adt(_, a) | TyKind::FnDef(_, a) => args_any(a),
            TyKind::Projection(p) => args_any(&p.args),
            TyKind::Opaque(_, _, a) => args_any(a),
            _ => false,
        }
    }

    /// Rebuilds the type with `f` applied to each type node first (top-down: `f` returns
    /// `Some` to replace a node, `None` to descend into it) and `g` to each const.
    pub fn fold(
        &self,
        f: &mut dyn FnMut(&Ty) -> Option<Ty>,
        g: &mut dyn FnMut(&Const) -> Const,
    ) -> Ty {
        if let Some(t) = f(self) {
            return t;
        }
        match self.kind() {
            TyKind::Tuple(ts) => Ty::tuple(ts.iter().map(|t| t.fold(f, g)).collect()),
            TyKind::Array(t, c) => Ty::new(TyKind::Array(t.fold(f, g), g(c))),
            TyKind::Slice(t) => Ty::slice(t.fold(f, g)),
            TyKind::Ref(t, m) => Ty::reference(t.fold(f, g), *m),
            TyKind::Ptr(t, m) => Ty::ptr(t.fold(f, g), *m),
            TyKind::Adt(d, a) => Ty::new(TyKind::Adt(*d, fold_args(a, f, g))),
            TyKind::FnDef(d, a) => Ty::new(TyKind::FnDef(*d, fold_args(a, f, g))),
            TyKind::Projection(p) => Ty::new(TyKind::Projection(Projection {
                trait_id: p.trait_id,
                args: fold_args(&p.args, f, g),
                assoc: p.assoc,
            })),
            TyKind::Opaque(d, k, a) => Ty::new(TyKind::Opaque(*d, *k, fold_args(a, f, g))),
            _ => self.clone(),
        }
    }

    /// The type with generic parameter `i` replaced by `args[i]`.
    pub fn subst(&self, args: &[GenericArg]) -> Ty {
        if args.is_empty() || !self.has_params() {
            return self.clone();
        }
        self.fold(
            &mut |t| match t.kind() {
                TyKind::Param(i) => Some(
                    args.get(*i as usize)
                        .and_then(GenericArg::ty)
                        .cloned()
                        .unwrap_or_else(Ty::error),
                ),
                _ => None,
            },
            &mut |c| subst_const(c, args),
        )
    }
}

pub fn subst_const(c: &Const, args: &[GenericArg]) -> Const {
    match c {
        Const::Param(i) => {
            args.get(*i as usize).and_then(GenericArg::as_const).cloned().unwrap_or(Const::Error)
        }
        other => other.clone(),
    }
}

pub fn fold_args(
    args: &[GenericArg],
    f: &mut dyn FnMut(&Ty) -> Option<Ty>,
    g: &mut dyn FnMut(&Const) -> Const,
) -> Args {
    args.iter()
        .map(|a| match a {
            GenericArg::Ty(t) => GenericArg::Ty(t.fold(f, g)),
            GenericArg::Const(c) => GenericArg::Const(g(c)),
        })
        .collect()
}

/// Substitutes generic arguments into generic arguments.
pub fn subst_args(args: &[GenericArg], with: &[GenericArg]) -> Args {
    args.iter()
        .map(|a| match a {
            GenericArg::Ty(t) => GenericArg::Ty(t.subst(with)),
            GenericArg::Const(c) => GenericArg::Const(subst_const(c, with)),
        })
        .collect()
}

/// A type shown as rustc shows it in messages: `&mut [f32]`, `Option<f32>`, `{integer}`.
pub struct TyDisplay<'t, 'a> {
    pub ty: &'t Ty,
    pub items: &'t Items<'a>,
}

impl fmt::Display for TyDisplay<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_ty(f, self.ty, self.items)
    }
}

pub fn show(ty: &Ty, items: &Items) -> String {
    TyDisplay { ty, items }.to_string()
}

fn write_args(f: &mut fmt::Formatter<'_>, args: &[GenericArg], items: &Items) -> fmt::Result {
    if args.is_empty() {
        return Ok(());
    }
    f.write_str("<")?;
    for (k, a) in args.iter().enumerate() {
        if k > 0 {
            f.write_str(", ")?;
        }
        match a {
            GenericArg::Ty(t) => write_ty(f, t, items)?,
            GenericArg::Const(c) => write_const(f, c)?,
        }
    }
    f.write_str(">")
}

fn write_const(f: &mut fmt::Formatter<'_>, c: &Const) -> fmt::Result {
    match c {
        Const::Value(v) => write!(f, "{v}"),
        Const::Param(i) => write!(f, "N#{i}"),
        Const::Infer(_) => f.write_str("_"),
        Const::Error => f.write_str("{error}"),
    }
}

fn write_ty(f: &mut fmt::Formatter<'_>, ty: &Ty, items: &Items) -> fmt::Result {
    match ty.kind() {
        TyKind::Bool => f.write_str("bool"),
        TyKind::Char => f.write_str("char"),
        TyKind::Int(t) => f.write_str(t.name()),
        TyKind::Float(t) => f.write_str(t.name()),
        TyKind::Str => f.write_str("str"),
        TyKind::Never => f.write_str("!"),
        TyKind::Tuple(ts) => {
            f.write_str("(")?;
            for (k, t) in ts.iter().enumerate() {
                if k > 0 {
                    f.write_str(", ")?;
                }
                write_ty(f, t, items)?;
            }
            f.write_str(if ts.len() == 1 { ",)" } else { ")" })
        }
        TyKind::Array(t, c) => {
            f.write_str("[")?;
            write_ty(f, t, items)?;
            f.write_str("; ")?;
            write_const(f, c)?;
            f.write_str("]")
        }
        TyKind::Slice(t) => {
            f.write_str("[")?;
            write_ty(f, t, items)?;
            f.write_str("]")
        }
        TyKind::Ref(t, m) => {
            f.write_str(if *m { "&mut " } else { "&" })?;
            write_ty(f, t, items)
        }
        TyKind::Ptr(t, m) => {
            f.write_str(if *m { "*mut " } else { "*const " })?;
            write_ty(f, t, items)
        }
        TyKind::Adt(d, args) => {
            f.write_str(items.name(*d))?;
            write_args(f, args, items)
        }
        TyKind::FnDef(d, args) => {
            write!(f, "fn item {}", items.path_string(*d))?;
            write_args(f, args, items)
        }
        TyKind::Closure(_) => f.write_str("{closure}"),
        TyKind::Opaque(d, k, _) => match opaque_syntax(items, *d, *k) {
            Some(it) => f.write_str(&crate::items::tidy_tokens(
                &quote::ToTokens::to_token_stream(it).to_string(),
            )),
            None => f.write_str("impl ?"),
        },
        TyKind::Param(i) => write!(f, "T#{i}"),
        TyKind::Projection(p) => {
            f.write_str("<")?;
            if let Some(GenericArg::Ty(s)) = p.args.first() {
                write_ty(f, s, items)?;
            }
            write!(f, " as {}", items.name(p.trait_id))?;
            write_args(f, p.args.get(1..).unwrap_or(&[]), items)?;
            write!(f, ">::{}", items.name(p.assoc))
        }
        TyKind::Infer(Infer::Int(_)) => f.write_str("{integer}"),
        TyKind::Infer(Infer::Float(_)) => f.write_str("{float}"),
        TyKind::Infer(Infer::Var(_)) => f.write_str("_"),
        TyKind::Error => f.write_str("{type error}"),
    }
}

/// The `index`-th `impl Trait` of a function's return type, in source order.
pub fn opaque_syntax<'a>(
    items: &Items<'a>,
    def: DefId,
    index: u32,
) -> Option<&'a syn::TypeImplTrait> {
    let sig = items.fn_sig(def)?;
    let syn::ReturnType::Type(_, ty) = &sig.output else { return None };
    let mut found = Vec::new();
    collect_impl_traits(ty, &mut found);
    found.get(index as usize).copied()
}

/// The `impl Trait`s of a written type, outermost first, left to right.
pub fn collect_impl_traits<'a>(ty: &'a syn::Type, out: &mut Vec<&'a syn::TypeImplTrait>) {
    struct Collect<'a, 'o>(&'o mut Vec<&'a syn::TypeImplTrait>);
    impl<'a> syn::visit::Visit<'a> for Collect<'a, '_> {
        fn visit_type_impl_trait(&mut self, it: &'a syn::TypeImplTrait) {
            self.0.push(it);
            syn::visit::visit_type_impl_trait(self, it);
        }
    }
    syn::visit::Visit::visit_type(&mut Collect(out), ty);
}
