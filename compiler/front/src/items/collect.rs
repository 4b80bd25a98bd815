//! Builds the item table: one walk over the user's file, the device core and the derived
//! impls, giving every item a [`DefId`] and every module and item-declaring block a scope.

use super::derive;
use super::*;
use crate::codes::*;
use crate::diag::Diagnostic;
use std::rc::Rc;
use syn::spanned::Spanned;
use syn::visit::Visit;

/// The syntax trees of a compilation. The item table borrows from them.
pub struct Sources {
    pub user: syn::File,
    /// The device core and its derived impls, parsed once per front-end thread.
    pub core: Rc<CoreSources>,
    /// The impls written for the user's `#[derive]`s.
    pub user_derived: Vec<DerivedFile>,
    pub arena: MacroArena,
    pub macros: HashMap<String, super::macros::MacroDef>,
}

/// The device core's syntax: its files and the impls of its derives.
pub struct CoreSources {
    /// Each file, with the tree of its skeleton: most function bodies are parsed only when a
    /// kernel reaches them ([`Items::body`]).
    pub files: Vec<(&'static crate::core_lib::CoreFile, syn::File)>,
    pub derived: Vec<DerivedFile>,
}

pub struct DerivedFile {
    /// The type the impls are for: its file and its name's span there.
    pub for_file: FileId,
    pub for_span: Span,
    /// The `#[derive(..)]` attribute, where errors in these impls are reported.
    pub attr_span: Span,
    pub text: String,
    /// The impls' syntax, with their function bodies left out as the core's are
    /// ([`Items::body`] parses them from `text`).
    pub file: syn::File,
    pub bodies: Vec<crate::core_lib::LazyBody>,
}

thread_local! {
    /// The core, parsed once per thread: spans are per-thread, so its trees can only be used
    /// on the thread that parsed them (the front end's own, see `crate::compile`).
    static CORE: std::cell::RefCell<Option<Rc<CoreSources>>> = const { std::cell::RefCell::new(None) };
}

/// The derived impls written for the types of one file, found by `finder`.
fn derives_of(file_id: FileId, finder: derive::Finder) -> Result<Vec<DerivedFile>, Diagnostic> {
    let mut out = Vec::new();
    for d in finder.found {
        // A derived impl's signatures are parsed with it: there are few, and a whole parse
        // is how a derive that rkc wrote wrong is caught before anything uses it.
        let (skeleton, bodies) = crate::core_lib::skeleton(&d.text, false);
        let Ok(tree) = syn::parse_file(&skeleton) else {
            return Err(Diagnostic::new(
                RK_INTERNAL,
                format!("rkc wrote a derive it cannot parse:\n{}", d.text),
            ));
        };
        out.push(DerivedFile {
            for_file: file_id,
            for_span: d.for_span,
            attr_span: d.attr_span,
            text: d.text,
            file: tree,
            bodies,
        });
    }
    Ok(out)
}

impl CoreSources {
    /// This thread's parsed core.
    pub fn get() -> Result<Rc<CoreSources>, Diagnostic> {
        if let Some(c) = CORE.with(|c| c.borrow().clone()) {
            return Ok(c);
        }
        let timing = std::env::var_os("RKC_TIME_FRONT").is_some();
        let (mut parse, mut expand) = (std::time::Duration::ZERO, std::time::Duration::ZERO);
        let mut files = Vec::new();
        for core_file in crate::core_lib::FILES {
            let t0 = std::time::Instant::now();
            // The core is part of rkc; a syntax error in it is a bug that the front end's tests
            // catch, so it is reported like any other error rather than with a panic.
            let mut file = syn::parse_file(core_file.skeleton).map_err(|e| {
                Diagnostic::new(
                    RK_INTERNAL,
                    format!("the device core's `{}` does not parse: {e}", core_file.name),
                )
            })?;
            let t1 = std::time::Instant::now();
            crate::core_lib::expand_templates(&mut file, core_file.bodies);
            (parse, expand) = (parse + (t1 - t0), expand + t1.elapsed());
            files.push((core_file, file));
        }
        let t2 = std::time::Instant::now();
        let mut derived = Vec::new();
        for (k, (_, f)) in files.iter().enumerate() {
            let mut finder = derive::Finder::default();
            finder.visit_core_items(&f.items);
            derived.extend(derives_of(FileId::Core(k as u16), finder)?);
        }
        if timing {
            let d: std::time::Duration = t2.elapsed();
            eprintln!("front: core: parse {parse:?}, templates {expand:?}, derives {d:?}");
        }
        let core = Rc::new(CoreSources { files, derived });
        CORE.with(|c| *c.borrow_mut() = Some(core.clone()));
        Ok(core)
    }
}

impl Sources {
    /// Parses the user's file (expanding its macros) and writes its derived impls; the core
    /// comes parsed.
    pub fn new(user_text: &str) -> Result<Sources, Diagnostic> {
        let core = CoreSources::get()?;
        let mut user = syn::parse_file(user_text).map_err(|e| {
            Diagnostic::new(RK_SYNTAX, format!("this file is not valid Rust: {e}"))
                .at(Span::from_pm2(e.span()), e.to_string())
        })?;
        // The file's own macros write items: expand them before anything looks at the items.
        let mut macros = super::macros::find_macros(&user);
        if let Some((span, why)) =
            super::macros::expand_items(&mut user, &macros).into_iter().next()
        {
            return Err(Diagnostic::new(
                RK_UNSUPPORTED_EXPR,
                format!("this macro invocation cannot be expanded: {why}"),
            )
            .at(Span::from_pm2(span), "invoked here"));
        }
        // Macros that expansions define (a function's local `macro_rules!` inside a macro).
        for (name, def) in super::macros::find_macros(&user) {
            macros.entry(name).or_insert(def);
        }
        let mut finder = derive::Finder::default();
        finder.visit_file(&user);
        let user_derived = derives_of(FileId::User, finder)?;
        Ok(Sources { user, core, user_derived, arena: MacroArena::default(), macros })
    }

    /// Every derived file: the core's, then the user's (`FileId::Derived` numbers them so).
    pub fn derived(&self) -> impl Iterator<Item = &DerivedFile> {
        self.core.derived.iter().chain(self.user_derived.iter())
    }
}

struct Collector<'a> {
    items: Items<'a>,
    sources: &'a Sources,
    diags: Vec<Diagnostic>,
}

/// Collects every item of the sources.
pub fn collect(sources: &Sources) -> Result<Items<'_>, Vec<Diagnostic>> {
    let mut c = Collector {
        items: Items {
            arena: &sources.arena,
            macros: &sources.macros,
            defs: Vec::new(),
            scopes: Vec::new(),
            user_root: ScopeId(0),
            core_root: ScopeId(0),
            block_scopes: HashMap::new(),
            lang: HashMap::new(),
            impls: Vec::new(),
            traits: Vec::new(),
            kernels: Vec::new(),
            derived_spans: sources.derived().map(|d| d.attr_span).collect(),
            core: &sources.core,
            derived_files: sources.derived().collect(),
            parsed_bodies: Default::default(),
        },
        sources,
        diags: Vec::new(),
    };
    let user_root = c.new_module_scope(None, "crate", FileId::User, Span::default());
    c.items.user_root = user_root;
    let core_root = c.new_module_scope(None, "core", FileId::Core(0), Span::default());
    c.items.core_root = core_root;
    c.walk_items(&sources.user.items, user_root, FileId::User);
    for (k, (core_file, file)) in sources.core.files.iter().enumerate() {
        let fid = FileId::Core(k as u16);
        let name = core_file.name;
        if name == "lib" {
            c.walk_items(&file.items, core_root, fid);
        } else {
            let scope = c.new_module_scope(Some(core_root), name, fid, Span::default());
            c.walk_items(&file.items, scope, fid);
        }
    }
    if c.diags.is_empty() { Ok(c.items) } else { Err(c.diags) }
}

fn span_of(node: &impl Spanned) -> Span {
    Span::from_pm2(node.span())
}

/// Whether `#[cfg(..)]` attributes leave an item in. rkc compiles for a GPU in a release
/// build: `test` and `debug_assertions` are off, features are off, and the GPU targets'
/// `target_arch`/`target_os` values are on.
pub fn cfg_enabled(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().filter(|a| a.path().is_ident("cfg")).all(|a| match a.parse_args::<syn::Meta>() {
        Ok(m) => eval_cfg(&m),
        Err(_) => true,
    })
}

/// Whether a `#[cfg(..)]` or `cfg!(..)` predicate holds on the device.
pub fn eval_cfg(m: &syn::Meta) -> bool {
    match m {
        syn::Meta::Path(p) => {
            let name = p.get_ident().map(|i| i.to_string()).unwrap_or_default();
            // `test`, `debug_assertions`, `doc`, `miri` are off in a release device build.
            matches!(name.as_str(), "target_has_atomic")
        }
        syn::Meta::NameValue(nv) => {
            let key = nv.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
            let value = match &nv.value {
                syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => s.value(),
                _ => return false,
            };
            match key.as_str() {
                "target_arch" => matches!(value.as_str(), "nvptx64" | "amdgpu" | "spirv"),
                "target_os" => matches!(value.as_str(), "cuda" | "amdhsa"),
                "target_pointer_width" => value == "64",
                "target_endian" => value == "little",
                _ => false,
            }
        }
        syn::Meta::List(l) => {
            let name = l.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
            let args: Vec<syn::Meta> = l
                .parse_args_with(
                    syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
                )
                .map(|p| p.into_iter().collect())
                .unwrap_or_default();
            match name.as_str() {
                "not" => !args.first().is_some_and(eval_cfg),
                "all" => args.iter().all(eval_cfg),
                "any" => args.iter().any(eval_cfg),
                _ => false,
            }
        }
    }
}

/// What `#[repr(..)]` attributes say.
pub fn parse_repr(attrs: &[syn::Attribute]) -> Repr {
    let mut repr = Repr::default();
    for a in attrs.iter().filter(|a| a.path().is_ident("repr")) {
        repr.span = Some(span_of(a));
        let _ = a.parse_nested_meta(|meta| {
            let name = meta.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
            let number = |meta: &syn::meta::ParseNestedMeta| -> Option<u64> {
                let parse = || -> syn::Result<u64> {
                    let content;
                    syn::parenthesized!(content in meta.input);
                    content.parse::<syn::LitInt>()?.base10_parse()
                };
                parse().ok()
            };
            match name.as_str() {
                "C" => repr.c = true,
                "transparent" => repr.transparent = true,
                "align" => repr.align = number(&meta),
                "packed" => {
                    repr.packed =
                        if meta.input.peek(syn::token::Paren) { number(&meta) } else { Some(1) }
                }
                "u8" | "u16" | "u32" | "u64" | "usize" | "i8" | "i16" | "i32" | "i64" | "isize"
                | "u128" | "i128" => repr.int = Some(name),
                _ => {}
            }
            Ok(())
        });
    }
    repr
}

fn derives(attrs: &[syn::Attribute]) -> Vec<String> {
    let mut out = Vec::new();
    for a in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let _ = a.parse_nested_meta(|meta| {
            if let Some(last) = meta.path.segments.last() {
                out.push(last.ident.to_string());
            }
            Ok(())
        });
    }
    out
}

fn lang_of(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find(|a| a.path().is_ident("lang")).and_then(|a| match &a.meta {
        syn::Meta::NameValue(syn::MetaNameValue {
            value: syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }),
            ..
        }) => Some(s.value()),
        _ => None,
    })
}

fn has_attr(attrs: &[syn::Attribute], name: &str) -> bool {
    attrs.iter().any(|a| a.path().segments.last().is_some_and(|s| s.ident == name))
}

/// Whether a function carries `#[offload_kernel]` (under any path).
pub fn is_kernel_attr(attrs: &[syn::Attribute]) -> bool {
    has_attr(attrs, "offload_kernel")
}

impl<'a> Collector<'a> {
    fn new_scope(&mut self, parent: Option<ScopeId>, module: Option<DefId>) -> ScopeId {
        self.items.scopes.push(Scope { parent, module, ..Default::default() });
        ScopeId(self.items.scopes.len() as u32 - 1)
    }

    fn new_def(
        &mut self,
        name: String,
        kind: DefKind<'a>,
        scope: ScopeId,
        file: FileId,
        span: Span,
    ) -> DefId {
        self.items.defs.push(Def {
            name,
            kind,
            scope,
            file,
            span,
            derives: Vec::new(),
            lang: None,
        });
        DefId(self.items.defs.len() as u32 - 1)
    }

    /// The syntax of a function with this signature and body: for a function of the core
    /// whose body is a stub and whose signature the skeleton left out, `sig` is the stub's
    /// `fn name()`, and the signature is parsed when type checking asks for it.
    fn fn_syntax(
        &self,
        sig: &'a syn::Signature,
        body: Option<&'a syn::Block>,
        file: FileId,
        parent: Option<DefId>,
        parent_count: u32,
    ) -> FnSyntax<'a> {
        if let (FileId::Core(k), Some(block)) = (file, body) {
            let core = self.sources.core.files[usize::from(k)].0;
            if let Some((n, template)) = crate::core_lib::lazy_stub(block, core.bodies)
                && core.bodies[n].sig.is_some()
            {
                return FnSyntax::left_out(sig, core.text, core.bodies[n], template, parent);
            }
        }
        FnSyntax::written(sig, fn_generics(sig, parent, parent_count))
    }

    fn new_module_scope(
        &mut self,
        parent: Option<ScopeId>,
        name: &str,
        file: FileId,
        span: Span,
    ) -> ScopeId {
        let scope = self.new_scope(parent, None);
        let def = self.new_def(
            name.to_string(),
            DefKind::Mod { scope },
            parent.unwrap_or(scope),
            file,
            span,
        );
        self.items.scopes[scope.0 as usize].module = Some(def);
        if let Some(p) = parent {
            self.items.scopes[p.0 as usize].types.insert(name.to_string(), def);
        }
        scope
    }

    fn set_attrs(&mut self, def: DefId, attrs: &[syn::Attribute]) {
        let d = &mut self.items.defs[def.0 as usize];
        d.derives = derives(attrs);
        d.lang = lang_of(attrs);
        if let Some(l) = d.lang.clone()
            && !d.file.is_user()
        {
            self.items.lang.insert(l, def);
        }
    }

    fn define_type(&mut self, scope: ScopeId, name: &str, def: DefId) {
        self.items.scopes[scope.0 as usize].types.insert(name.to_string(), def);
    }

    fn define_value(&mut self, scope: ScopeId, name: &str, def: DefId) {
        self.items.scopes[scope.0 as usize].values.insert(name.to_string(), def);
    }

    fn walk_items(&mut self, items: &'a [syn::Item], scope: ScopeId, file: FileId) {
        for item in items {
            self.item(item, scope, file);
        }
    }

    fn item(&mut self, item: &'a syn::Item, scope: ScopeId, file: FileId) {
        let attrs: &[syn::Attribute] = match item {
            syn::Item::Const(i) => &i.attrs,
            syn::Item::Enum(i) => &i.attrs,
            syn::Item::Fn(i) => &i.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Mod(i) => &i.attrs,
            syn::Item::Static(i) => &i.attrs,
            syn::Item::Struct(i) => &i.attrs,
            syn::Item::Trait(i) => &i.attrs,
            syn::Item::Type(i) => &i.attrs,
            syn::Item::Union(i) => &i.attrs,
            syn::Item::Use(i) => &i.attrs,
            syn::Item::Macro(i) => &i.attrs,
            syn::Item::ForeignMod(i) => &i.attrs,
            _ => &[],
        };
        if !cfg_enabled(attrs) {
            return;
        }
        match item {
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    let s = self.new_module_scope(
                        Some(scope),
                        &m.ident.to_string(),
                        file,
                        span_of(&m.ident),
                    );
                    self.walk_items(inner, s, file);
                }
            }
            syn::Item::Struct(s) => {
                let name = s.ident.to_string();
                let generics = generics_of(&s.generics, None, 0);
                let (fields, ctor) = fields_of(&s.fields);
                let def = self.new_def(
                    name.clone(),
                    DefKind::Struct { generics, fields, ctor, repr: parse_repr(&s.attrs) },
                    scope,
                    file,
                    span_of(&s.ident),
                );
                self.set_attrs(def, &s.attrs);
                self.define_type(scope, &name, def);
                if ctor != CtorKind::Named {
                    self.define_value(scope, &name, def);
                }
                self.derived_for(file, span_of(&s.ident), scope);
            }
            syn::Item::Enum(e) => {
                let name = e.ident.to_string();
                let generics = generics_of(&e.generics, None, 0);
                let def = self.new_def(
                    name.clone(),
                    DefKind::Enum { generics, variants: Vec::new(), repr: parse_repr(&e.attrs) },
                    scope,
                    file,
                    span_of(&e.ident),
                );
                self.set_attrs(def, &e.attrs);
                self.define_type(scope, &name, def);
                let mut variants = Vec::new();
                for (k, v) in e.variants.iter().enumerate() {
                    let (fields, ctor) = fields_of(&v.fields);
                    let vd = self.new_def(
                        v.ident.to_string(),
                        DefKind::Variant {
                            parent: def,
                            index: k as u32,
                            fields,
                            ctor,
                            discriminant: v.discriminant.as_ref().map(|(_, e)| e),
                        },
                        scope,
                        file,
                        span_of(&v.ident),
                    );
                    variants.push(vd);
                }
                if let DefKind::Enum { variants: vs, .. } =
                    &mut self.items.defs[def.0 as usize].kind
                {
                    *vs = variants;
                }
                self.derived_for(file, span_of(&e.ident), scope);
            }
            syn::Item::Union(u) => {
                let def = self.new_def(
                    u.ident.to_string(),
                    DefKind::Union,
                    scope,
                    file,
                    span_of(&u.ident),
                );
                self.define_type(scope, &u.ident.to_string(), def);
            }
            syn::Item::Fn(f) => {
                let name = f.sig.ident.to_string();
                let sig = self.fn_syntax(&f.sig, Some(&f.block), file, None, 0);
                let kernel = file.is_user() && is_kernel_attr(&f.attrs);
                let def = self.new_def(
                    name.clone(),
                    DefKind::Fn {
                        sig,
                        body: Some(&f.block),
                        container: Container::Free,
                        kernel,
                        intrinsic: None,
                        track_caller: has_attr(&f.attrs, "track_caller"),
                    },
                    scope,
                    file,
                    span_of(&f.sig.ident),
                );
                self.set_attrs(def, &f.attrs);
                self.define_value(scope, &name, def);
                if kernel {
                    self.items.kernels.push(def);
                }
                self.body_items(&f.block, scope, file);
            }
            syn::Item::Const(c) => {
                let name = c.ident.to_string();
                let def = self.new_def(
                    name.clone(),
                    DefKind::Const {
                        ty: Some(&c.ty),
                        expr: Some(&c.expr),
                        container: Container::Free,
                        generics: Generics::default(),
                    },
                    scope,
                    file,
                    span_of(&c.ident),
                );
                if name != "_" {
                    self.define_value(scope, &name, def);
                }
                self.expr_items(&c.expr, scope, file);
            }
            syn::Item::Static(st) => {
                let name = st.ident.to_string();
                let def = self.new_def(
                    name.clone(),
                    DefKind::Static {
                        ty: &st.ty,
                        expr: &st.expr,
                        mutable: !matches!(st.mutability, syn::StaticMutability::None),
                    },
                    scope,
                    file,
                    span_of(&st.ident),
                );
                self.define_value(scope, &name, def);
            }
            syn::Item::Type(t) => {
                let name = t.ident.to_string();
                let generics = generics_of(&t.generics, None, 0);
                let def = self.new_def(
                    name.clone(),
                    DefKind::TypeAlias { generics, ty: &t.ty },
                    scope,
                    file,
                    span_of(&t.ident),
                );
                self.define_type(scope, &name, def);
            }
            syn::Item::Trait(t) => self.trait_item(t, scope, file),
            syn::Item::Impl(i) => self.impl_item(i, scope, file),
            syn::Item::Use(u) => {
                let mut out = Vec::new();
                flatten_use(&u.tree, &mut Vec::new(), &mut out);
                let global = u.leading_colon.is_some();
                for mut imp in out {
                    imp.global = global;
                    self.items.scopes[scope.0 as usize].imports.push(imp);
                }
            }
            syn::Item::Macro(m) => {
                if let Some(ident) = &m.ident {
                    let def = self.new_def(
                        ident.to_string(),
                        DefKind::Macro,
                        scope,
                        file,
                        span_of(ident),
                    );
                    self.items.scopes[scope.0 as usize].macros.insert(ident.to_string(), def);
                }
            }
            syn::Item::ForeignMod(fm) => {
                let is_intrinsic =
                    fm.abi.name.as_ref().is_some_and(|n| n.value() == "rkc-intrinsic")
                        && !file.is_user();
                for fi in &fm.items {
                    let syn::ForeignItem::Fn(f) = fi else { continue };
                    let name = f.sig.ident.to_string();
                    let sig = FnSyntax::written(&f.sig, fn_generics(&f.sig, None, 0));
                    let def = self.new_def(
                        name.clone(),
                        DefKind::Fn {
                            sig,
                            body: None,
                            container: Container::Free,
                            kernel: false,
                            intrinsic: is_intrinsic.then(|| name.clone()),
                            track_caller: has_attr(&f.attrs, "track_caller"),
                        },
                        scope,
                        file,
                        span_of(&f.sig.ident),
                    );
                    self.set_attrs(def, &f.attrs);
                    self.define_value(scope, &name, def);
                }
            }
            _ => {}
        }
    }

    /// Collects the impls derived for the type named at `span` of `file`, into `scope`.
    fn derived_for(&mut self, file: FileId, span: Span, scope: ScopeId) {
        let sources = self.sources;
        for (k, d) in sources.derived().enumerate() {
            if d.for_file == file && d.for_span == span {
                self.walk_items(&d.file.items, scope, FileId::Derived(k as u16));
            }
        }
    }

    fn trait_item(&mut self, t: &'a syn::ItemTrait, scope: ScopeId, file: FileId) {
        let name = t.ident.to_string();
        let def = self.new_def(name.clone(), DefKind::Union, scope, file, span_of(&t.ident));
        // `Self` is parameter 0: the declared parameters are numbered from 1.
        let mut generics = generics_of(&t.generics, None, 1);
        generics.params.insert(
            0,
            GenericParamDef {
                name: "Self".into(),
                index: 0,
                kind: GenericParamKind::Type { default: None },
            },
        );
        generics.parent_count = 0;
        let mut items = Vec::new();
        for ti in &t.items {
            match ti {
                syn::TraitItem::Fn(f) => {
                    let sig = self.fn_syntax(
                        &f.sig,
                        f.default.as_ref(),
                        file,
                        Some(def),
                        generics.count(),
                    );
                    let id = self.new_def(
                        f.sig.ident.to_string(),
                        DefKind::Fn {
                            sig,
                            body: f.default.as_ref(),
                            container: Container::Trait(def),
                            kernel: false,
                            intrinsic: None,
                            track_caller: has_attr(&f.attrs, "track_caller"),
                        },
                        scope,
                        file,
                        span_of(&f.sig.ident),
                    );
                    self.set_attrs(id, &f.attrs);
                    if let Some(b) = &f.default {
                        self.body_items(b, scope, file);
                    }
                    items.push(id);
                }
                syn::TraitItem::Const(c) => {
                    let id = self.new_def(
                        c.ident.to_string(),
                        DefKind::Const {
                            ty: Some(&c.ty),
                            expr: c.default.as_ref().map(|(_, e)| e),
                            container: Container::Trait(def),
                            generics: Generics {
                                parent: Some(def),
                                parent_count: generics.count(),
                                ..Default::default()
                            },
                        },
                        scope,
                        file,
                        span_of(&c.ident),
                    );
                    items.push(id);
                }
                syn::TraitItem::Type(ty) => {
                    let id = self.new_def(
                        ty.ident.to_string(),
                        DefKind::AssocTy {
                            container: Container::Trait(def),
                            ty: ty.default.as_ref().map(|(_, t)| t),
                            generics: Generics {
                                parent: Some(def),
                                parent_count: generics.count(),
                                ..Default::default()
                            },
                            bounds: ty.bounds.iter().collect(),
                        },
                        scope,
                        file,
                        span_of(&ty.ident),
                    );
                    items.push(id);
                }
                _ => {}
            }
        }
        let supertraits = t.supertraits.iter().collect();
        self.items.defs[def.0 as usize].kind = DefKind::Trait { generics, items, supertraits };
        self.set_attrs(def, &t.attrs);
        self.define_type(scope, &name, def);
        self.items.traits.push(def);
    }

    fn impl_item(&mut self, i: &'a syn::ItemImpl, scope: ScopeId, file: FileId) {
        let def = self.new_def("<impl>".into(), DefKind::Union, scope, file, span_of(&i.self_ty));
        let generics = generics_of(&i.generics, None, 0);
        let mut items = Vec::new();
        for ii in &i.items {
            match ii {
                syn::ImplItem::Fn(f) => {
                    if !cfg_enabled(&f.attrs) {
                        continue;
                    }
                    let sig =
                        self.fn_syntax(&f.sig, Some(&f.block), file, Some(def), generics.count());
                    let id = self.new_def(
                        f.sig.ident.to_string(),
                        DefKind::Fn {
                            sig,
                            body: Some(&f.block),
                            container: Container::Impl(def),
                            kernel: false,
                            intrinsic: None,
                            track_caller: has_attr(&f.attrs, "track_caller"),
                        },
                        scope,
                        file,
                        span_of(&f.sig.ident),
                    );
                    self.set_attrs(id, &f.attrs);
                    self.body_items(&f.block, scope, file);
                    items.push(id);
                }
                syn::ImplItem::Const(c) => {
                    let id = self.new_def(
                        c.ident.to_string(),
                        DefKind::Const {
                            ty: Some(&c.ty),
                            expr: Some(&c.expr),
                            container: Container::Impl(def),
                            generics: Generics {
                                parent: Some(def),
                                parent_count: generics.count(),
                                ..Default::default()
                            },
                        },
                        scope,
                        file,
                        span_of(&c.ident),
                    );
                    items.push(id);
                }
                syn::ImplItem::Type(t) => {
                    let id = self.new_def(
                        t.ident.to_string(),
                        DefKind::AssocTy {
                            container: Container::Impl(def),
                            ty: Some(&t.ty),
                            generics: Generics {
                                parent: Some(def),
                                parent_count: generics.count(),
                                ..Default::default()
                            },
                            bounds: Vec::new(),
                        },
                        scope,
                        file,
                        span_of(&t.ident),
                    );
                    items.push(id);
                }
                _ => {}
            }
        }
        self.items.defs[def.0 as usize].kind = DefKind::Impl {
            generics,
            trait_path: i.trait_.as_ref().map(|(_, p, _)| p),
            self_ty: &i.self_ty,
            items,
            negative: i.trait_.as_ref().is_some_and(|(bang, _, _)| bang.is_some()),
        };
        self.set_attrs(def, &i.attrs);
        self.items.impls.push(def);
    }

    /// Collects the items declared inside a function body, each block that declares some
    /// getting a scope of its own.
    fn body_items(&mut self, block: &'a syn::Block, scope: ScopeId, file: FileId) {
        let mut finder = BlockItems { blocks: Vec::new(), open: Vec::new() };
        finder.visit_block(block);
        // Blocks come in pre-order, so a block's enclosing block is already registered.
        for (b, parent) in finder.blocks {
            let parent_scope =
                parent.and_then(|p| self.items.block_scopes.get(&p).copied()).unwrap_or(scope);
            let s = self
                .new_scope(Some(parent_scope), self.items.scopes[parent_scope.0 as usize].module);
            self.items.block_scopes.insert(std::ptr::from_ref(b) as usize, s);
            for stmt in &b.stmts {
                if let syn::Stmt::Item(item) = stmt {
                    self.item(item, s, file);
                }
            }
        }
    }

    fn expr_items(&mut self, e: &'a syn::Expr, scope: ScopeId, file: FileId) {
        if let syn::Expr::Block(b) = e {
            self.body_items(&b.block, scope, file);
        }
    }
}

/// The generics of a function: its declared parameters, then one for each `impl Trait`
/// in its argument types.
pub(super) fn fn_generics<'a>(
    sig: &'a syn::Signature,
    parent: Option<DefId>,
    parent_count: u32,
) -> Generics<'a> {
    let mut g = generics_of(&sig.generics, parent, parent_count);
    struct ImplTraits<'a>(Vec<&'a syn::TypeImplTrait>);
    impl<'a> Visit<'a> for ImplTraits<'a> {
        fn visit_type_impl_trait(&mut self, t: &'a syn::TypeImplTrait) {
            self.0.push(t);
            syn::visit::visit_type_impl_trait(self, t);
        }
    }
    let mut found = ImplTraits(Vec::new());
    for input in &sig.inputs {
        if let syn::FnArg::Typed(pt) = input {
            found.visit_type(&pt.ty);
        }
    }
    for t in found.0 {
        let index = g.count();
        g.params.push(GenericParamDef {
            name: format!("impl#{index}"),
            index,
            kind: GenericParamKind::Type { default: None },
        });
        g.impl_trait.push((index, t));
    }
    g
}

/// The generics an item declares, numbered from `parent_count` (the parent's come first).
fn generics_of<'a>(
    generics: &'a syn::Generics,
    parent: Option<DefId>,
    parent_count: u32,
) -> Generics<'a> {
    let mut g = Generics { parent, parent_count, ..Default::default() };
    for p in &generics.params {
        let index = g.count();
        match p {
            syn::GenericParam::Type(t) => {
                g.params.push(GenericParamDef {
                    name: t.ident.to_string(),
                    index,
                    kind: GenericParamKind::Type { default: t.default.as_ref() },
                });
                for b in &t.bounds {
                    g.param_bounds.push((index, b));
                }
            }
            syn::GenericParam::Const(c) => {
                g.params.push(GenericParamDef {
                    name: c.ident.to_string(),
                    index,
                    kind: GenericParamKind::Const { ty: &c.ty, default: c.default.as_ref() },
                });
            }
            syn::GenericParam::Lifetime(_) => {}
        }
    }
    if let Some(w) = &generics.where_clause {
        for pred in &w.predicates {
            if let syn::WherePredicate::Type(pt) = pred {
                for b in &pt.bounds {
                    g.predicates.push(PredicateDef { bounded: &pt.bounded_ty, bound: b });
                }
            }
        }
    }
    g
}

/// Finds the blocks of a body that declare items (not descending into those items, whose own
/// bodies the collector walks), with each one's nearest enclosing item-declaring block.
struct BlockItems<'a> {
    blocks: Vec<(&'a syn::Block, Option<usize>)>,
    /// The item-declaring blocks that enclose the walk's position, innermost last.
    open: Vec<usize>,
}

impl<'a> Visit<'a> for BlockItems<'a> {
    fn visit_block(&mut self, b: &'a syn::Block) {
        if !b.stmts.iter().any(|s| matches!(s, syn::Stmt::Item(_))) {
            syn::visit::visit_block(self, b);
            return;
        }
        self.blocks.push((b, self.open.last().copied()));
        self.open.push(std::ptr::from_ref(b) as usize);
        for s in &b.stmts {
            if !matches!(s, syn::Stmt::Item(_)) {
                self.visit_stmt(s);
            }
        }
        self.open.pop();
    }

    fn visit_item(&mut self, _: &'a syn::Item) {}
}

fn fields_of(fields: &syn::Fields) -> (Vec<FieldDef<'_>>, CtorKind) {
    match fields {
        syn::Fields::Named(n) => (
            n.named
                .iter()
                .map(|f| FieldDef {
                    name: f.ident.as_ref().map(|i| i.to_string()).unwrap_or_default(),
                    ty: &f.ty,
                    span: span_of(f),
                })
                .collect(),
            CtorKind::Named,
        ),
        syn::Fields::Unnamed(u) => (
            u.unnamed
                .iter()
                .enumerate()
                .map(|(k, f)| FieldDef { name: k.to_string(), ty: &f.ty, span: span_of(f) })
                .collect(),
            CtorKind::Tuple,
        ),
        syn::Fields::Unit => (Vec::new(), CtorKind::Unit),
    }
}

fn flatten_use(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Import>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten_use(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            if name == "self" {
                if let Some(last) = prefix.last().cloned() {
                    out.push(Import { path: prefix.clone(), name: Some(last), global: false });
                }
            } else {
                let mut path = prefix.clone();
                path.push(name.clone());
                out.push(Import { path, name: Some(name), global: false });
            }
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix.clone();
            let name = r.ident.to_string();
            if name != "self" {
                path.push(name);
            }
            // `use Trait as _;` brings the trait's methods into scope and no name: `_`
            // matches no lookup, and `Items::trait_in_scope` finds the trait through it.
            let alias = r.rename.to_string();
            out.push(Import { path, name: Some(alias), global: false });
        }
        syn::UseTree::Glob(_) => {
            out.push(Import { path: prefix.clone(), name: None, global: false })
        }
        syn::UseTree::Group(g) => {
            for t in &g.items {
                flatten_use(t, prefix, out);
            }
        }
    }
}
