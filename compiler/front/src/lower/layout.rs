//! How each Rust type is represented in rk: as nothing (zero-sized), one scalar SSA value, a
//! slice's pointer and length, or memory holding an rk array or struct.
//!
//! Structs and tuples are C-laid-out rk structs (zero-sized fields left out); `align(N)` adds
//! trailing padding so that the size is rustc's. Fieldless enums are their discriminant.
//! Enums with data are laid out as `repr(C)` lays them out: the tag, then a union of the
//! variants' field structs, held as an array of the widest alignment's unsigned integers;
//! a variant's fields are reached through a pointer cast of the union's address.

use crate::items::{DefId, DefKind, Repr as ReprAttr};
use crate::ty::{Const, GenericArg, Ty, TyKind};
use crate::typeck::Tcx;
use rkc_rk::{IntTy, Type};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// A type's representation in rk.
#[derive(Clone, Debug, PartialEq)]
pub enum Repr {
    /// No data: `()`, unit structs, closures that capture nothing, function items.
    Zst,
    /// One SSA value of this rk type.
    Scalar(Type),
    /// A slice (`&[T]`, `*const [T]`, `&str`): a pointer to the first element, and a length.
    Fat { ptr: Type },
    /// Memory holding a value of this rk type (an array or struct).
    Mem(Type),
    /// A string known at compile time (`&'static str`).
    Str,
    /// `!`: no value ever exists.
    Never,
}

/// The layout of a struct, tuple, closure environment or enum.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The rk type of the whole value.
    pub ty: Type,
    /// For a struct or tuple: each field's index in the rk struct (`None`: zero-sized).
    pub fields: Vec<Option<u32>>,
    /// For an enum: the discriminant's rk integer type and, per variant, its discriminant, the
    /// rk struct of its fields and their indices there.
    pub tag: Option<IntTy>,
    pub variants: Vec<VariantLayout>,
    /// Whether the enum is fieldless (the value is the discriminant itself).
    pub fieldless: bool,
}

#[derive(Clone, Debug)]
pub struct VariantLayout {
    pub discriminant: i128,
    pub ty: Type,
    pub fields: Vec<Option<u32>>,
}

/// Why a type has no representation.
#[derive(Clone, Debug)]
pub struct LayoutError(pub String);

impl LayoutError {
    const FROM_ERROR: &str = "a type an earlier error left unknown";

    /// Whether this is the layout of a type that an earlier error left unknown: that error
    /// says what is wrong, and this one is not reported.
    pub fn is_from_error(&self) -> bool {
        self.0 == LayoutError::FROM_ERROR
    }

    fn of(tcx: &Tcx<'_, '_>, ty: &Ty) -> LayoutError {
        match ty.kind() {
            TyKind::Error => LayoutError(LayoutError::FROM_ERROR.into()),
            _ => LayoutError(format!("the type `{}`", tcx.show(ty))),
        }
    }
}

/// Layouts, computed once per type.
#[derive(Default)]
pub struct Layouts {
    cache: RefCell<HashMap<Ty, Result<Rc<Layout>, LayoutError>>>,
}

impl Layouts {
    /// A type's representation.
    pub fn repr(&self, tcx: &Tcx, ty: &Ty) -> Result<Repr, LayoutError> {
        Ok(match ty.kind() {
            TyKind::Bool => Repr::Scalar(Type::Bool),
            TyKind::Char => Repr::Scalar(Type::U32),
            TyKind::Int(i) => Repr::Scalar(Type::Int(*i)),
            TyKind::Float(f) => Repr::Scalar(Type::Float(*f)),
            TyKind::Never => Repr::Never,
            TyKind::Ref(inner, m) | TyKind::Ptr(inner, m) => match inner.kind() {
                TyKind::Slice(el) => Repr::Fat { ptr: Type::ptr(*m, self.elem_type(tcx, el)?) },
                TyKind::Str => {
                    if matches!(ty.kind(), TyKind::Ref(..)) {
                        Repr::Str
                    } else {
                        return Err(LayoutError("raw pointers to `str`".into()));
                    }
                }
                _ => Repr::Scalar(Type::ptr(*m, self.pointee_type(tcx, inner)?)),
            },
            TyKind::Tuple(ts) if ts.is_empty() => Repr::Zst,
            TyKind::FnDef(..) => Repr::Zst,
            TyKind::Array(el, Const::Value(n)) => {
                let e = self.mem_type(tcx, el)?;
                match e {
                    None => Repr::Zst,
                    Some(_) if *n == 0 => Repr::Zst,
                    Some(e) => Repr::Mem(Type::Array { elem: Box::new(e), len: *n }),
                }
            }
            TyKind::Tuple(_) | TyKind::Closure(_) | TyKind::Adt(..) => {
                let l = self.layout(tcx, ty)?;
                if l.fieldless {
                    return Ok(Repr::Scalar(Type::Int(l.tag.unwrap_or(IntTy::U8))));
                }
                match &l.ty {
                    Type::Struct { fields, .. } if fields.is_empty() => Repr::Zst,
                    t => Repr::Mem(t.clone()),
                }
            }
            TyKind::Slice(_) | TyKind::Str => {
                return Err(LayoutError(format!(
                    "the unsized type `{}` has no value of its own",
                    tcx.show(ty)
                )));
            }
            TyKind::Array(..) => {
                return Err(LayoutError("an array whose length is not known".into()));
            }
            _ => return Err(LayoutError::of(tcx, ty)),
        })
    }

    /// The rk type a value of `ty` has in memory (a field, an element, a pointee); `None`
    /// for zero-sized types.
    pub fn mem_type(&self, tcx: &Tcx, ty: &Ty) -> Result<Option<Type>, LayoutError> {
        Ok(match self.repr(tcx, ty)? {
            Repr::Zst | Repr::Never => None,
            Repr::Scalar(t) | Repr::Mem(t) => Some(t),
            Repr::Fat { ptr } => Some(fat_struct(ptr)),
            Repr::Str => return Err(LayoutError("a string in memory".into())),
        })
    }

    /// The rk type behind a pointer to `ty` (a byte for zero-sized types, which are never
    /// read).
    pub fn pointee_type(&self, tcx: &Tcx, ty: &Ty) -> Result<Type, LayoutError> {
        Ok(self.mem_type(tcx, ty)?.unwrap_or(Type::Int(IntTy::U8)))
    }

    /// The element type of slices of `ty`.
    pub fn elem_type(&self, tcx: &Tcx, ty: &Ty) -> Result<Type, LayoutError> {
        self.pointee_type(tcx, ty)
    }

    /// The layout of a struct, tuple, closure or enum.
    pub fn layout(&self, tcx: &Tcx, ty: &Ty) -> Result<Rc<Layout>, LayoutError> {
        if let Some(l) = self.cache.borrow().get(ty) {
            return l.clone();
        }
        // A placeholder breaks cycles (a struct containing itself by value is refused by
        // rustc, but the fuzzer may try).
        self.cache
            .borrow_mut()
            .insert(ty.clone(), Err(LayoutError("a type that contains itself".into())));
        let l = self.compute(tcx, ty).map(Rc::new);
        self.cache.borrow_mut().insert(ty.clone(), l.clone());
        l
    }

    /// An rk struct of the fields' types, named as Rust names them (`names`; positions where
    /// it is empty), without the zero-sized ones; with where each field went.
    fn struct_of(
        &self,
        tcx: &Tcx,
        name: String,
        tys: &[Ty],
        names: &[String],
    ) -> Result<(Type, Vec<Option<u32>>), LayoutError> {
        let mut fields: Vec<(String, Type)> = Vec::new();
        let mut map = Vec::new();
        let mut align = 1;
        for (k, t) in tys.iter().enumerate() {
            match self.mem_type(tcx, t)? {
                Some(rt) => {
                    // A field aligned above what its rk type implies (`#[repr(align(32))]`
                    // inside) starts after explicit padding, at the offset C gives it.
                    let want = self.declared_align(tcx, t)?;
                    align = align.max(want);
                    if want > rt.align_of() {
                        // Where the fields so far end (C layout, before any tail padding).
                        let so_far = fields.iter().fold(0, |end: u64, (_, f)| {
                            end.div_ceil(f.align_of()) * f.align_of() + f.size_of()
                        });
                        let pad = so_far.div_ceil(want) * want - so_far;
                        if pad > 0 {
                            fields.push((
                                format!("{PADDING}{k}"),
                                Type::Array { elem: Box::new(Type::Int(IntTy::U8)), len: pad },
                            ));
                        }
                    }
                    map.push(Some(fields.len() as u32));
                    fields.push((names.get(k).cloned().unwrap_or_else(|| k.to_string()), rt));
                }
                None => map.push(None),
            }
        }
        let t = Type::Struct { name, fields };
        let t = if align > t.align_of() { pad_to_align(t, align)? } else { t };
        Ok((t, map))
    }

    /// The alignment Rust gives a type: its rk type's, or more where a `#[repr(align(N))]`
    /// struct is inside (rk types carry no alignment of their own beyond their scalars').
    pub fn declared_align(&self, tcx: &Tcx, ty: &Ty) -> Result<u64, LayoutError> {
        Ok(match ty.kind() {
            TyKind::Array(el, _) => self.declared_align(tcx, el)?,
            TyKind::Tuple(ts) => {
                let mut a = 1;
                for t in ts.iter() {
                    a = a.max(self.declared_align(tcx, t)?);
                }
                a
            }
            // A struct's own `align(N)` and its fields': a struct holding an aligned one is
            // aligned as much.
            TyKind::Adt(d, args) => {
                let rk = self.mem_type(tcx, ty)?.map_or(1, |t| t.align_of());
                match &tcx.items.def(*d).kind {
                    DefKind::Struct { repr, .. } => {
                        let mut a = rk.max(repr.align.unwrap_or(1));
                        for f in field_types(tcx, *d, args) {
                            a = a.max(self.declared_align(tcx, &f)?);
                        }
                        a
                    }
                    _ => rk,
                }
            }
            _ => self.mem_type(tcx, ty)?.map_or(1, |t| t.align_of()),
        })
    }

    fn compute(&self, tcx: &Tcx, ty: &Ty) -> Result<Layout, LayoutError> {
        let items = tcx.items;
        match ty.kind() {
            TyKind::Tuple(ts) => {
                let (t, fields) = self.struct_of(tcx, String::new(), ts, &[])?;
                Ok(Layout { ty: t, fields, tag: None, variants: Vec::new(), fieldless: false })
            }
            TyKind::Closure(id) => {
                let c = tcx.closure(*id);
                let tys: Vec<Ty> = c
                    .captures
                    .iter()
                    .map(
                        |(_, t)| {
                            if c.by_value { t.clone() } else { Ty::reference(t.clone(), true) }
                        },
                    )
                    .collect();
                let (t, fields) = self.struct_of(tcx, format!("closure{}", id.0), &tys, &[])?;
                Ok(Layout { ty: t, fields, tag: None, variants: Vec::new(), fieldless: false })
            }
            TyKind::Adt(d, _) if tcx.has_drop_impl(*d) => Err(LayoutError(format!(
                "`{}`, a type with a `Drop` impl (rkc runs no destructors, so its `drop` would never be called),",
                tcx.show(ty)
            ))),
            TyKind::Adt(d, args) => {
                let def = items.def(*d);
                let name = rk_name(tcx, *d, args);
                match &def.kind {
                    DefKind::Struct { repr, .. } => {
                        if repr.packed.is_some() {
                            return Err(LayoutError(format!(
                                "`#[repr(packed)]` struct `{}`",
                                def.name
                            )));
                        }
                        let tys = field_types(tcx, *d, args);
                        let names: Vec<String> =
                            items.fields(*d).iter().map(|f| f.name.to_string()).collect();
                        let (mut t, fields) = self.struct_of(tcx, name, &tys, &names)?;
                        if let Some(align) = repr.align {
                            t = pad_to_align(t, align)?;
                        }
                        Ok(Layout {
                            ty: t,
                            fields,
                            tag: None,
                            variants: Vec::new(),
                            fieldless: false,
                        })
                    }
                    DefKind::Enum { variants, repr, .. } => {
                        self.enum_layout(tcx, *d, variants, repr, args, name)
                    }
                    DefKind::Union => Err(LayoutError("unions".into())),
                    _ => Err(LayoutError(format!("`{}`", def.name))),
                }
            }
            _ => Err(LayoutError::of(tcx, ty)),
        }
    }

    fn enum_layout(
        &self,
        tcx: &Tcx,
        d: DefId,
        variants: &[DefId],
        repr: &ReprAttr,
        args: &[GenericArg],
        name: String,
    ) -> Result<Layout, LayoutError> {
        let items = tcx.items;
        // Discriminants: explicit ones, and one more than the previous for the others.
        let mut discrs = Vec::new();
        let mut next: i128 = 0;
        for v in variants {
            let DefKind::Variant { discriminant, .. } = &items.def(*v).kind else { continue };
            let value = match discriminant {
                Some(_) => crate::ty::consteval::discriminant(items, *v).map_err(|why| {
                    LayoutError(format!(
                        "the discriminant of `{}::{}` is not a constant rkc can evaluate: {why}",
                        items.name(d),
                        items.name(*v)
                    ))
                })?,
                None => next,
            };
            discrs.push(value);
            next = value + 1;
        }
        let fieldless = variants.iter().all(|v| items.fields(*v).is_empty());
        let tag = match &repr.int {
            Some(t) => IntTy::from_name(t).ok_or_else(|| LayoutError(format!("`repr({t})`")))?,
            // `repr(C)`: C's `int`.
            None if repr.c => IntTy::I32,
            // rustc's choice for the rest: the smallest integer that holds every discriminant.
            None => smallest_int(&discrs),
        };
        if variants.is_empty() {
            return Ok(Layout {
                ty: Type::Struct { name, fields: Vec::new() },
                fields: Vec::new(),
                tag: Some(tag),
                variants: Vec::new(),
                fieldless: false,
            });
        }
        let mut vlayouts = Vec::new();
        let (mut size, mut align) = (0u64, 1u64);
        for (k, v) in variants.iter().enumerate() {
            let tys = field_types(tcx, *v, args);
            let names: Vec<String> = items.fields(*v).iter().map(|f| f.name.to_string()).collect();
            let (t, fields) =
                self.struct_of(tcx, format!("{}.{}", name, items.name(*v)), &tys, &names)?;
            size = size.max(t.size_of());
            align = align.max(t.align_of());
            vlayouts.push(VariantLayout { discriminant: discrs[k], ty: t, fields });
        }
        if fieldless {
            return Ok(Layout {
                ty: Type::Int(tag),
                fields: Vec::new(),
                tag: Some(tag),
                variants: vlayouts,
                fieldless: true,
            });
        }
        let unit = match align {
            8 => IntTy::U64,
            4 => IntTy::U32,
            2 => IntTy::U16,
            _ => IntTy::U8,
        };
        let units = size.div_ceil(align.max(1));
        let mut fields = vec![("tag".to_string(), Type::Int(tag))];
        if units > 0 {
            fields.push((
                "payload".to_string(),
                Type::Array { elem: Box::new(Type::Int(unit)), len: units },
            ));
        }
        Ok(Layout {
            ty: Type::Struct { name, fields },
            fields: Vec::new(),
            tag: Some(tag),
            variants: vlayouts,
            fieldless: false,
        })
    }
}

/// The field types of a struct or enum variant for these generic arguments, projections
/// normalised.
fn field_types(tcx: &Tcx, d: DefId, args: &[GenericArg]) -> Vec<Ty> {
    tcx.field_tys(d)
        .iter()
        .map(|t| crate::typeck::normalize_in_layout(tcx, &t.subst(args)))
        .collect()
}

/// The rk struct that holds a slice in memory: its pointer and its length.
pub fn fat_struct(ptr: Type) -> Type {
    Type::Struct {
        name: "slice".into(),
        fields: vec![("ptr".into(), ptr), ("len".into(), Type::USIZE)],
    }
}

fn smallest_int(discrs: &[i128]) -> IntTy {
    let (lo, hi) =
        (discrs.iter().copied().min().unwrap_or(0), discrs.iter().copied().max().unwrap_or(0));
    let candidates = if lo < 0 {
        [IntTy::I8, IntTy::I16, IntTy::I32, IntTy::I64]
    } else {
        [IntTy::U8, IntTy::U16, IntTy::U32, IntTy::U64]
    };
    candidates
        .into_iter()
        .find(|t| {
            let (a, b) = t.range();
            lo >= a && hi.try_into().is_ok_and(|h: u128| h <= b)
        })
        .unwrap_or(IntTy::I64)
}

/// The name of the byte arrays that layouts add for `#[repr(align(N))]` (a prefix, numbered
/// where there are several); no value is ever read from them, and tools comparing memory with
/// rustc's skip them (rustc leaves padding undefined).
pub const PADDING: &str = "__rkc_pad";

/// Pads a struct to a multiple of `align` bytes, as `#[repr(align(N))]` sizes it. Its fields
/// are already at their `align`-compatible offsets (C layout of the struct itself, and
/// `struct_of`'s padding before fields aligned above their rk types).
fn pad_to_align(t: Type, align: u64) -> Result<Type, LayoutError> {
    let Type::Struct { name, mut fields } = t else { return Ok(t) };
    let probe = Type::Struct { name: name.clone(), fields: fields.clone() };
    let size = probe.size_of();
    let padded = size.div_ceil(align) * align;
    if padded > size {
        fields.push((
            PADDING.into(),
            Type::Array { elem: Box::new(Type::Int(IntTy::U8)), len: padded - size },
        ));
    }
    Ok(Type::Struct { name, fields })
}

/// The name of an ADT's rk struct: its name with its arguments spelled in (`Option.f32`), in
/// characters the rk text accepts.
pub fn rk_name(tcx: &Tcx, d: DefId, args: &[GenericArg]) -> String {
    let mut s = tcx.items.name(d).to_string();
    for a in args {
        s.push('.');
        match a {
            GenericArg::Ty(t) => s.push_str(
                &tcx.show(t)
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' })
                    .collect::<String>(),
            ),
            GenericArg::Const(Const::Value(v)) => s.push_str(&v.to_string()),
            GenericArg::Const(_) => s.push('N'),
        }
    }
    s
}
