//! The items of a compilation: every module, type, trait, impl, function, constant and static
//! of the user's file, of the device core (`compiler/front/core/`) and of the impls that
//! `#[derive]` writes, each with a [`DefId`], and the scopes that names resolve in.
//!
//! This is rkc's name-resolution stage (rustc_resolve's place): [`collect`] walks the syntax
//! trees once and builds the table; [`Items::resolve_path`] answers "what does this path
//! name here" for the later stages. Items inside function bodies (`const`, `fn`, `struct`)
//! are items like any other, in a scope of their own block.

pub mod collect;
mod derive;
pub mod macros;
pub mod resolve;

pub use collect::{Sources, collect};
pub use resolve::{Ns, PathRes, Res};

use crate::diag::Span;
use std::collections::HashMap;

/// The identity of an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DefId(pub u32);

/// The identity of a scope: a module, or a block that declares items.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScopeId(pub u32);

/// Which source text an item comes from. Only the user's file is ever shown in a diagnostic;
/// an error found in the core or in a derived impl is reported at the user's code that reached
/// it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileId {
    User,
    /// The device core, file `k` of `core::FILES`.
    Core(u16),
    /// An impl written for a `#[derive]`, reported at the derive's span in the user's file.
    Derived(u16),
}

impl FileId {
    pub fn is_user(self) -> bool {
        self == FileId::User
    }
}

/// A struct's or variant's fields.
#[derive(Clone, Debug)]
pub struct FieldDef<'a> {
    /// The field's name, or its index for a tuple struct.
    pub name: String,
    pub ty: &'a syn::Type,
    pub span: Span,
}

/// How a struct or variant is written: `S { a, b }`, `S(a, b)`, or `S`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CtorKind {
    Named,
    Tuple,
    Unit,
}

/// What `#[repr(..)]` says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Repr {
    pub c: bool,
    pub transparent: bool,
    /// `repr(u8)`, `repr(i32)`...: an enum's discriminant type.
    pub int: Option<String>,
    /// `align(N)`.
    pub align: Option<u64>,
    /// `packed` or `packed(N)`.
    pub packed: Option<u64>,
    /// Where the attribute is, for diagnostics.
    pub span: Option<Span>,
}

/// A generic parameter (lifetimes are not kept: rkc accepts and ignores them).
#[derive(Clone, Debug)]
pub struct GenericParamDef<'a> {
    pub name: String,
    /// Index in the item's whole parameter list (the parent's come first).
    pub index: u32,
    pub kind: GenericParamKind<'a>,
}

#[derive(Clone, Debug)]
pub enum GenericParamKind<'a> {
    Type { default: Option<&'a syn::Type> },
    Const { ty: &'a syn::Type, default: Option<&'a syn::Expr> },
}

/// A bound written on a generic parameter or in a `where` clause: `bounded: bound`.
#[derive(Clone, Debug)]
pub struct PredicateDef<'a> {
    pub bounded: &'a syn::Type,
    pub bound: &'a syn::TypeParamBound,
}

/// The generic parameters and bounds of an item. A method's generics come after its impl's or
/// trait's (`parent`); a trait's first parameter is `Self`.
#[derive(Clone, Debug, Default)]
pub struct Generics<'a> {
    pub parent: Option<DefId>,
    pub parent_count: u32,
    pub params: Vec<GenericParamDef<'a>>,
    pub predicates: Vec<PredicateDef<'a>>,
    /// Bounds on parameters written inline (`T: Copy`), which have no syn type to point at:
    /// (parameter index, bound).
    pub param_bounds: Vec<(u32, &'a syn::TypeParamBound)>,
    /// Parameters made for `impl Trait` in argument position: (parameter index, bounds).
    pub impl_trait: Vec<(u32, &'a syn::TypeImplTrait)>,
}

impl Generics<'_> {
    pub fn count(&self) -> u32 {
        self.parent_count + self.params.len() as u32
    }
}

/// Where an associated item lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container {
    Free,
    Impl(DefId),
    Trait(DefId),
}

/// A function's signature and the generics it declares. The device core's signatures are
/// left out of its parse (`crate::core_lib::skeleton`) and parsed when type checking first
/// asks for one ([`Items::fn_sig`]); every other function's are the ones written.
#[derive(Clone, Debug)]
pub struct FnSyntax<'a> {
    /// The signature as parsed with the item: for a left-out one, the skeleton's `fn name()`,
    /// which has the function's name and qualifiers and nothing else.
    written: &'a syn::Signature,
    /// Where a left-out signature is, and the generics' parent (the impl or trait).
    left_out: Option<LeftOutSig>,
    /// The whole signature and its generics, once known.
    whole: std::cell::OnceCell<(&'a syn::Signature, Generics<'a>)>,
}

#[derive(Clone, Debug)]
struct LeftOutSig {
    /// The core file's text, and the function's left-out body there.
    text: &'static str,
    body: crate::core_lib::LazyBody,
    /// The type of the template copy the function is in (`crate::core_lib::lazy_stub`).
    template: Option<String>,
    parent: Option<DefId>,
}

impl<'a> FnSyntax<'a> {
    /// A signature known whole when the item is collected.
    pub fn written(sig: &'a syn::Signature, generics: Generics<'a>) -> FnSyntax<'a> {
        FnSyntax { written: sig, left_out: None, whole: std::cell::OnceCell::from((sig, generics)) }
    }

    /// A signature left out of the parse of the core file `text`, whose function's body is
    /// the left-out `body` (of the template copy for `template`); `parent` is the impl or
    /// trait.
    pub fn left_out(
        stub: &'a syn::Signature,
        text: &'static str,
        body: crate::core_lib::LazyBody,
        template: Option<String>,
        parent: Option<DefId>,
    ) -> FnSyntax<'a> {
        FnSyntax {
            written: stub,
            left_out: Some(LeftOutSig { text, body, template, parent }),
            whole: std::cell::OnceCell::new(),
        }
    }
}

/// What a definition is.
#[derive(Clone, Debug)]
pub enum DefKind<'a> {
    Mod {
        scope: ScopeId,
    },
    Struct {
        generics: Generics<'a>,
        fields: Vec<FieldDef<'a>>,
        ctor: CtorKind,
        repr: Repr,
    },
    Enum {
        generics: Generics<'a>,
        variants: Vec<DefId>,
        repr: Repr,
    },
    Variant {
        parent: DefId,
        index: u32,
        fields: Vec<FieldDef<'a>>,
        ctor: CtorKind,
        discriminant: Option<&'a syn::Expr>,
    },
    Union,
    Trait {
        generics: Generics<'a>,
        items: Vec<DefId>,
        supertraits: Vec<&'a syn::TypeParamBound>,
    },
    Impl {
        generics: Generics<'a>,
        trait_path: Option<&'a syn::Path>,
        self_ty: &'a syn::Type,
        items: Vec<DefId>,
        negative: bool,
    },
    Fn {
        /// The signature and generics: [`Items::fn_sig`] and [`Items::generics`].
        sig: FnSyntax<'a>,
        body: Option<&'a syn::Block>,
        container: Container,
        kernel: bool,
        /// `Some(name)` for a compiler intrinsic of the core (a foreign function of an
        /// `extern "rkc-intrinsic"` block).
        intrinsic: Option<String>,
        /// `#[track_caller]`: panics inside report the caller's location.
        track_caller: bool,
    },
    Const {
        ty: Option<&'a syn::Type>,
        expr: Option<&'a syn::Expr>,
        container: Container,
        generics: Generics<'a>,
    },
    Static {
        ty: &'a syn::Type,
        expr: &'a syn::Expr,
        mutable: bool,
    },
    AssocTy {
        container: Container,
        /// The type an impl gives, or a trait's default.
        ty: Option<&'a syn::Type>,
        generics: Generics<'a>,
        /// A trait's bounds on the type (`type T: Copy + Into<f32>;`).
        bounds: Vec<&'a syn::TypeParamBound>,
    },
    TypeAlias {
        generics: Generics<'a>,
        ty: &'a syn::Type,
    },
    /// A `macro_rules!` of the file: rkc does not expand macros it does not know.
    Macro,
}

/// One definition.
#[derive(Clone, Debug)]
pub struct Def<'a> {
    pub name: String,
    pub kind: DefKind<'a>,
    /// The scope the item is declared in (for an associated item, its impl's or trait's).
    pub scope: ScopeId,
    pub file: FileId,
    /// The item's name in its file.
    pub span: Span,
    /// The attributes that matter to rkc: `#[derive]` names, `#[rkc::lang]`.
    pub derives: Vec<String>,
    pub lang: Option<String>,
}

/// A `use` declaration's one imported name: `use a::b::c as d;` imports `d`, `use a::b::*;`
/// every public name of `a::b`.
#[derive(Clone, Debug)]
pub struct Import {
    /// The path's segments (`crate`, `self`, `super` included as written).
    pub path: Vec<String>,
    /// The name it is imported as; `None` for a glob.
    pub name: Option<String>,
    /// Whether the path starts with `::` (an extern crate).
    pub global: bool,
}

/// A scope: a module or a block with items.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    pub parent: Option<ScopeId>,
    /// The module the scope is in (itself for a module).
    pub module: Option<DefId>,
    pub types: HashMap<String, DefId>,
    pub values: HashMap<String, DefId>,
    pub macros: HashMap<String, DefId>,
    pub imports: Vec<Import>,
}

/// Syntax that rkc makes while building HIR (the arguments of macros it expands), kept as long
/// as the syntax trees it sits beside.
#[derive(Default)]
pub struct MacroArena {
    pub exprs: typed_arena::Arena<Vec<syn::Expr>>,
    pub matches: typed_arena::Arena<(syn::Expr, syn::Pat, Option<syn::Expr>)>,
    pub paths: typed_arena::Arena<syn::Path>,
    /// The device core's function bodies, parsed when a kernel first reaches them.
    pub bodies: typed_arena::Arena<syn::Block>,
    /// The device core's function signatures, parsed when type checking first asks for them.
    pub sigs: typed_arena::Arena<syn::Signature>,
}

/// Every item of the compilation.
pub struct Items<'a> {
    pub arena: &'a MacroArena,
    /// The file's `macro_rules!` macros, by name.
    pub macros: &'a HashMap<String, macros::MacroDef>,
    pub defs: Vec<Def<'a>>,
    pub scopes: Vec<Scope>,
    /// The crate roots: the user's file and the core.
    pub user_root: ScopeId,
    pub core_root: ScopeId,
    /// The scope of each block that declares items, by the block's address.
    pub block_scopes: HashMap<usize, ScopeId>,
    /// Items marked `#[rkc::lang = "..."]` in the core, by that name.
    pub lang: HashMap<String, DefId>,
    /// Every impl, for method lookup and trait selection.
    pub impls: Vec<DefId>,
    /// Every trait.
    pub traits: Vec<DefId>,
    /// The kernels of the user's file, in source order.
    pub kernels: Vec<DefId>,
    /// The span each derived file stands for in the user's file.
    pub derived_spans: Vec<Span>,
    /// The device core and the derived impls, whose function bodies [`Items::body`] parses
    /// on demand.
    pub core: &'a collect::CoreSources,
    pub derived_files: Vec<&'a collect::DerivedFile>,
    /// The bodies parsed so far: (file, body, template type).
    pub parsed_bodies: std::cell::RefCell<HashMap<(FileId, usize, Option<String>), &'a syn::Block>>,
}

impl<'a> Items<'a> {
    /// A function's body as written: the block itself, or for a body of the core or of a
    /// derived impl that was left out of the parse (`crate::core_lib::skeleton`), the body
    /// parsed now, once per compilation.
    pub fn body(&self, file: FileId, block: &'a syn::Block) -> Result<&'a syn::Block, String> {
        let (text, bodies) = match file {
            FileId::User => return Ok(block),
            FileId::Core(k) => {
                let f = self.core.files[usize::from(k)].0;
                (f.text, f.bodies)
            }
            FileId::Derived(k) => {
                let d = self.derived_files[usize::from(k)];
                (d.text.as_str(), d.bodies.as_slice())
            }
        };
        let Some((n, ty)) = crate::core_lib::lazy_stub(block, bodies) else { return Ok(block) };
        let key = (file, n, ty);
        if let Some(b) = self.parsed_bodies.borrow().get(&key) {
            return Ok(b);
        }
        let parsed =
            crate::core_lib::parse_body(text, bodies[n], key.2.as_deref()).map_err(|e| {
                // Named only for an error: this runs for every body a kernel reaches.
                let name = match file {
                    FileId::Core(k) => {
                        format!("the device core's `{}`", self.core.files[usize::from(k)].0.name)
                    }
                    _ => "a derived impl".to_string(),
                };
                format!("a body of {name} does not parse: {e}")
            })?;
        let parsed: &'a syn::Block = self.arena.bodies.alloc(parsed);
        self.parsed_bodies.borrow_mut().insert(key, parsed);
        Ok(parsed)
    }

    pub fn def(&self, id: DefId) -> &Def<'a> {
        &self.defs[id.0 as usize]
    }

    pub fn scope(&self, id: ScopeId) -> &Scope {
        &self.scopes[id.0 as usize]
    }

    pub fn name(&self, id: DefId) -> &str {
        &self.def(id).name
    }

    /// A lang item of the core. The core defines every lang item rkc asks for; a missing one is
    /// a bug in the core, caught by the front end's tests.
    pub fn lang(&self, name: &str) -> Option<DefId> {
        self.lang.get(name).copied()
    }

    /// A function's signature, parsed now if the core's parse left it out.
    pub fn fn_sig(&self, id: DefId) -> Option<&'a syn::Signature> {
        match &self.def(id).kind {
            DefKind::Fn { sig, .. } => Some(self.fn_syntax(sig).0),
            _ => None,
        }
    }

    /// A function's whole signature and generics, parsed and built on first use for a
    /// signature the core's parse left out.
    fn fn_syntax<'s>(&'s self, f: &'s FnSyntax<'a>) -> &'s (&'a syn::Signature, Generics<'a>) {
        f.whole.get_or_init(|| {
            // A signature known whole was set when the item was collected.
            let Some(lo) = &f.left_out else { return (f.written, Generics::default()) };
            // The core is rkc's own text, fixed when rkc is built, and its tests parse every
            // left-out signature (`lazy_signatures_are_the_signatures_of_the_file`); should
            // one not parse all the same, the stub stands in, and the kernel that reaches the
            // function gets a type error rather than the compiler a panic.
            let sig =
                crate::core_lib::parse_sig(lo.text, lo.body, lo.template.as_deref(), f.written)
                    .unwrap_or_else(|_| f.written.clone());
            let sig: &'a syn::Signature = self.arena.sigs.alloc(sig);
            let parent_count = lo.parent.map_or(0, |p| self.generic_count(p));
            (sig, collect::fn_generics(sig, lo.parent, parent_count))
        })
    }

    /// The generics of an item, if it has any.
    pub fn generics(&self, id: DefId) -> Option<&Generics<'a>> {
        match &self.def(id).kind {
            DefKind::Fn { sig, .. } => Some(&self.fn_syntax(sig).1),
            DefKind::Struct { generics, .. }
            | DefKind::Enum { generics, .. }
            | DefKind::Trait { generics, .. }
            | DefKind::Impl { generics, .. }
            | DefKind::Const { generics, .. }
            | DefKind::AssocTy { generics, .. }
            | DefKind::TypeAlias { generics, .. } => Some(generics),
            _ => None,
        }
    }

    /// The parameters of an item and of its parents, outermost first.
    pub fn all_generic_params(&self, id: DefId) -> Vec<&GenericParamDef<'a>> {
        let Some(g) = self.generics(id) else { return Vec::new() };
        let mut out = match g.parent {
            Some(p) => self.all_generic_params(p),
            None => Vec::new(),
        };
        out.extend(g.params.iter());
        out
    }

    /// The number of generic parameters of an item, its parents' included.
    pub fn generic_count(&self, id: DefId) -> u32 {
        self.generics(id).map_or(0, Generics::count)
    }

    /// The container of an associated item.
    pub fn container(&self, id: DefId) -> Container {
        match &self.def(id).kind {
            DefKind::Fn { container, .. }
            | DefKind::Const { container, .. }
            | DefKind::AssocTy { container, .. } => *container,
            _ => Container::Free,
        }
    }

    /// The items of an impl or trait.
    pub fn assoc_items(&self, id: DefId) -> &[DefId] {
        match &self.def(id).kind {
            DefKind::Impl { items, .. } | DefKind::Trait { items, .. } => items,
            _ => &[],
        }
    }

    /// The associated item of an impl or trait with this name (fns and consts, or types).
    pub fn assoc_item(&self, container: DefId, name: &str, want_type: bool) -> Option<DefId> {
        self.assoc_items(container).iter().copied().find(|&i| {
            let d = self.def(i);
            d.name == name && matches!(d.kind, DefKind::AssocTy { .. }) == want_type
        })
    }

    /// The enum of a variant, or the item itself.
    pub fn variant_parent(&self, id: DefId) -> Option<(DefId, u32)> {
        match &self.def(id).kind {
            DefKind::Variant { parent, index, .. } => Some((*parent, *index)),
            _ => None,
        }
    }

    /// The fields of a struct or variant.
    pub fn fields(&self, id: DefId) -> &[FieldDef<'a>] {
        match &self.def(id).kind {
            DefKind::Struct { fields, .. } | DefKind::Variant { fields, .. } => fields,
            _ => &[],
        }
    }

    pub fn ctor_kind(&self, id: DefId) -> Option<CtorKind> {
        match &self.def(id).kind {
            DefKind::Struct { ctor, .. } | DefKind::Variant { ctor, .. } => Some(*ctor),
            _ => None,
        }
    }

    pub fn is_trait(&self, id: DefId) -> bool {
        matches!(self.def(id).kind, DefKind::Trait { .. })
    }

    /// Whether an item is declared in the user's file (not the core, not a derived impl).
    pub fn is_user(&self, id: DefId) -> bool {
        self.def(id).file.is_user()
    }

    /// The path of an item for messages: `Vec3`, `Option`, `geometry::ORIGIN`, `<impl>::f`.
    pub fn path_string(&self, id: DefId) -> String {
        let d = self.def(id);
        match self.container(id) {
            Container::Impl(imp) => {
                if let DefKind::Impl { self_ty, .. } = &self.def(imp).kind {
                    let ty = quote_type(self_ty);
                    return format!("{ty}::{}", d.name);
                }
                d.name.clone()
            }
            Container::Trait(tr) => format!("{}::{}", self.def(tr).name, d.name),
            Container::Free => match &d.kind {
                DefKind::Variant { parent, .. } => {
                    format!("{}::{}", self.def(*parent).name, d.name)
                }
                _ => d.name.clone(),
            },
        }
    }
}

/// A syn type as Rust source, spaced as people write it.
pub fn quote_type(ty: &syn::Type) -> String {
    use quote::ToTokens;
    tidy_tokens(&ty.to_token_stream().to_string())
}

/// Token text with the spaces `to_string` puts between every token taken out where Rust code
/// has none.
pub fn tidy_tokens(text: &str) -> String {
    text.replace(" < ", "<")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace(" ,", ",")
        .replace("& ", "&")
        .replace(" :: ", "::")
        .replace(":: ", "::")
        .replace(" ;", ";")
        .replace("[ ", "[")
        .replace(" ]", "]")
        .replace("( ", "(")
        .replace(" )", ")")
        .replace("* const", "*const")
        .replace("* mut", "*mut")
}
