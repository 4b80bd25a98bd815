//! Path resolution: what a path names in a scope, through modules, `use` imports (globs and
//! renames), enum variants, the extern crates that kernels name (`core`, `std`, `alloc`,
//! `rkc_offload`, which all lead into rkc's device core), the standard prelude and the
//! primitive types.

use super::*;
use rkc_rk::{FloatTy, IntTy};

/// What a path resolves to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Res {
    Def(DefId),
    /// A primitive type: `u32`, `f32`, `bool`, `char`, `str`.
    Prim(Prim),
    /// `Self` in an impl (its `DefId`) or a trait.
    SelfTy(DefId),
    /// A generic parameter of the item being checked, by index.
    Param(u32),
    /// A local variable of the body being checked (HIR's numbering).
    Local(u32),
}

/// A primitive type's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prim {
    Bool,
    Char,
    Str,
    Int(IntTy),
    Float(FloatTy),
}

impl Prim {
    pub fn from_name(name: &str) -> Option<Prim> {
        Some(match name {
            "bool" => Prim::Bool,
            "char" => Prim::Char,
            "str" => Prim::Str,
            "f32" => Prim::Float(FloatTy::F32),
            "f64" => Prim::Float(FloatTy::F64),
            // The `half` crate's types, which the device core's `half` module re-exports
            // (`use half::f16;`); the names are also nightly Rust's primitive `f16`.
            "f16" => Prim::Float(FloatTy::F16),
            "bf16" => Prim::Float(FloatTy::Bf16),
            other => Prim::Int(IntTy::from_name(other)?),
        })
    }
}

/// The namespace a name is looked up in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ns {
    Type,
    Value,
    Macro,
}

/// A resolved path: what its first segments name, and how many segments are left for the
/// type checker (`Vec3::new` resolves `Vec3` and leaves `new`: an associated item).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathRes {
    pub res: Res,
    /// The index of the segment `res` stands for.
    pub resolved: usize,
    /// Segments after it, resolved by the type checker.
    pub rest: usize,
}

thread_local! {
    /// The imports being resolved on this thread: a `use` that leads back to itself (`use
    /// self::a as b; use self::b as a;`) resolves to nothing instead of looping.
    static RESOLVING: std::cell::RefCell<Vec<(ScopeId, String, Ns)>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl<'a> Items<'a> {
    /// The crate root of a scope (the user's file or the core).
    pub fn crate_root(&self, mut scope: ScopeId) -> ScopeId {
        while let Some(p) = self.scope(scope).parent {
            scope = p;
        }
        scope
    }

    /// The module scope a scope is in.
    pub fn module_scope(&self, scope: ScopeId) -> ScopeId {
        let mut s = scope;
        loop {
            let sc = self.scope(s);
            if let Some(m) = sc.module
                && let DefKind::Mod { scope: ms } = self.def(m).kind
                && ms == s
            {
                return s;
            }
            match sc.parent {
                Some(p) => s = p,
                None => return s,
            }
        }
    }

    fn module_def(&self, scope: ScopeId) -> Option<DefId> {
        self.scope(self.module_scope(scope)).module
    }

    /// The scope of a module definition.
    pub fn scope_of_module(&self, def: DefId) -> Option<ScopeId> {
        match self.def(def).kind {
            DefKind::Mod { scope } => Some(scope),
            _ => None,
        }
    }

    /// A module scope's path as a `use` spells it: `crate::a::b` in the user's file,
    /// `rkc_offload::...` for the offload module of the core, `core::...` for the rest.
    fn module_path(&self, scope: ScopeId) -> String {
        if scope == self.user_root {
            return "crate".into();
        }
        if scope == self.core_root {
            return "core".into();
        }
        let Some(m) = self.scope(scope).module else { return String::new() };
        let name = self.name(m);
        let parent = self.module_scope(self.def(m).scope);
        if parent == self.core_root && name == "offload" {
            return "rkc_offload".into();
        }
        format!("{}::{name}", self.module_path(parent))
    }

    /// Where a name that is not in scope is defined, as the `use` lines that would import it
    /// (rustc's "consider importing"): the user's modules first, then the core's. An offload
    /// builtin is offered as the prelude's glob, which brings all of them.
    pub fn import_suggestions(&self, name: &str, ns: Ns) -> Vec<String> {
        let mut out: Vec<(bool, String)> = Vec::new();
        for (k, sc) in self.scopes.iter().enumerate() {
            let s = ScopeId(k as u32);
            let map = match ns {
                Ns::Type => &sc.types,
                Ns::Value => &sc.values,
                Ns::Macro => return Vec::new(),
            };
            if !map.contains_key(name) || self.module_scope(s) != s {
                continue;
            }
            let path = self.module_path(s);
            // The core's compiler-facing modules are not for users.
            if path.is_empty()
                || path.starts_with("core::intrinsics")
                || path.contains("__template")
            {
                continue;
            }
            let line = if path == "rkc_offload" || path.starts_with("rkc_offload::") {
                "use rkc_offload::prelude::*;".to_string()
            } else {
                format!("use {path}::{name};")
            };
            let user = self.crate_root(s) == self.user_root;
            if !out.iter().any(|(_, l)| *l == line) {
                out.push((user, line));
            }
        }
        out.sort_by_key(|(user, _)| !*user);
        out.into_iter().map(|(_, l)| l).collect()
    }

    /// The path of a `use` that imports `name` into `scope` (or a block or module around it)
    /// from `core`, `std` or `alloc` and names nothing in rkc's device core, which has only the
    /// parts of `core` that kernels use: `core::cell::Cell` for `Cell`.
    pub fn unresolved_core_import(&self, scope: ScopeId, name: &str) -> Option<String> {
        self.lexical_scopes(scope).find_map(|s| {
            self.scope(s).imports.iter().filter(|i| i.name.as_deref() == Some(name)).find_map(
                |imp| {
                    let from_core = imp
                        .path
                        .first()
                        .is_some_and(|c| matches!(c.as_str(), "core" | "std" | "alloc"));
                    let resolves = [Ns::Type, Ns::Value].into_iter().any(|ns| {
                        self.resolve_path(s, &imp.path, imp.global, ns, &|_| None)
                            .is_some_and(|r| r.rest == 0)
                    });
                    (from_core && !resolves).then(|| imp.path.join("::"))
                },
            )
        })
    }

    /// Whether the trait `t` is in scope at `scope` for method calls: declared or imported
    /// (by its name, renamed, as `_`, or through a glob) in the scope or a block or module
    /// around it, as rustc requires for a trait's methods to be found (E0599).
    pub fn trait_in_scope(&self, scope: ScopeId, t: DefId) -> bool {
        let name = self.name(t);
        self.lexical_scopes(scope).any(|s| {
            self.lookup_in_scope(s, name, Ns::Type) == Some(Res::Def(t))
                || self
                    .scope(s)
                    .imports
                    .iter()
                    .filter(|i| i.name.as_deref().is_some_and(|n| n != name))
                    .any(|imp| {
                        self.resolve_path(s, &imp.path, imp.global, Ns::Type, &|_| None)
                            .is_some_and(|r| r.rest == 0 && r.res == Res::Def(t))
                    })
        })
    }

    /// A scope and the block scopes around it, up to and including its module.
    fn lexical_scopes(&self, scope: ScopeId) -> impl Iterator<Item = ScopeId> + '_ {
        let module = self.module_scope(scope);
        std::iter::successors(
            Some(scope),
            move |&s| {
                if s == module { None } else { self.scope(s).parent }
            },
        )
    }

    /// A module of the core, by path from the core's root (`["offload", "prelude"]`).
    pub fn core_module(&self, path: &[&str]) -> Option<ScopeId> {
        let mut s = self.core_root;
        for seg in path {
            let d = *self.scope(s).types.get(*seg)?;
            s = self.scope_of_module(d)?;
        }
        Some(s)
    }

    /// An extern crate's root, as kernels name them.
    fn extern_crate(&self, name: &str) -> Option<Res> {
        let scope = match name {
            "core" | "std" | "alloc" => self.core_root,
            "rkc_offload" => self.core_module(&["offload"])?,
            "half" => self.core_module(&["half"])?,
            _ => return None,
        };
        self.scope(scope).module.map(Res::Def)
    }

    /// Resolves a path in `scope`. `env` answers for names the item table does not hold:
    /// locals, generic parameters and `Self`. Returns `None` when the first segment, or a
    /// module's segment, names nothing.
    pub fn resolve_path(
        &self,
        scope: ScopeId,
        path: &[String],
        global: bool,
        ns: Ns,
        env: &dyn Fn(&str) -> Option<Res>,
    ) -> Option<PathRes> {
        let first = path.first()?;
        let last = path.len() - 1;
        let mut cur;
        if global {
            cur = self.extern_crate(first)?;
        } else {
            match first.as_str() {
                "crate" => cur = Res::Def(self.scope(self.crate_root(scope)).module?),
                "self" if path.len() > 1 => cur = Res::Def(self.module_def(scope)?),
                "super" => {
                    let module = self.module_scope(scope);
                    let parent = self.scope(module).parent?;
                    cur = Res::Def(self.module_def(parent)?);
                }
                name => {
                    let want = if path.len() == 1 { ns } else { Ns::Type };
                    cur = self.lookup_lexical(scope, name, want, env)?;
                }
            }
        }
        // rustc's rule for a primitive type's name that also names an imported module
        // (`use core::f32;`): alone in a type path it is the primitive type, and a path the
        // module cannot continue (`f32::from_bits`) is the primitive's.
        let prim_fallback = (!global).then(|| Prim::from_name(first)).flatten().filter(
            |_| matches!(cur, Res::Def(d) if matches!(self.def(d).kind, DefKind::Mod { .. })),
        );
        if let Some(p) = prim_fallback
            && path.len() == 1
            && ns == Ns::Type
        {
            return Some(PathRes { res: Res::Prim(p), resolved: 0, rest: 0 });
        }
        let mut i = 1;
        while i <= last {
            let seg = path[i].as_str();
            let want = if i == last { ns } else { Ns::Type };
            match cur {
                Res::Def(d) => match &self.def(d).kind {
                    DefKind::Mod { scope: ms } => {
                        if seg == "super" {
                            let parent = self.scope(*ms).parent?;
                            cur = Res::Def(self.module_def(parent)?);
                        } else {
                            let found = self.lookup_in_scope(*ms, seg, want).or_else(|| {
                                // `core::f32::MAX` and friends: the primitive modules are
                                // modules of the core too; a name not found there may still be a
                                // primitive type's path segment (`std::primitive::u32`).
                                if want == Ns::Type {
                                    Prim::from_name(seg).map(Res::Prim)
                                } else {
                                    None
                                }
                            });
                            cur = match (found, prim_fallback) {
                                (Some(r), _) => r,
                                (None, Some(p)) if i == 1 => {
                                    return Some(PathRes {
                                        res: Res::Prim(p),
                                        resolved: 0,
                                        rest: path.len() - 1,
                                    });
                                }
                                (None, _) => return None,
                            };
                        }
                    }
                    DefKind::Enum { variants, .. } => {
                        match variants.iter().find(|v| self.name(**v) == seg) {
                            Some(v) => cur = Res::Def(*v),
                            None => break,
                        }
                    }
                    _ => break,
                },
                _ => break,
            }
            i += 1;
        }
        Some(PathRes { res: cur, resolved: i - 1, rest: path.len() - i })
    }

    /// A name in a scope and its enclosing block scopes up to the module, then the extern
    /// crates, the prelude and the primitive types.
    pub fn lookup_lexical(
        &self,
        scope: ScopeId,
        name: &str,
        ns: Ns,
        env: &dyn Fn(&str) -> Option<Res>,
    ) -> Option<Res> {
        if let Some(r) = env(name) {
            return Some(r);
        }
        if let Some(r) = self.lexical_scopes(scope).find_map(|s| self.lookup_in_scope(s, name, ns))
        {
            return Some(r);
        }
        if ns == Ns::Type
            && let Some(r) = self.extern_crate(name)
        {
            return Some(r);
        }
        if let Some(prelude) = self.core_module(&["prelude"])
            && let Some(r) = self.lookup_in_scope(prelude, name, ns)
        {
            return Some(r);
        }
        if ns == Ns::Type {
            return Prim::from_name(name).map(Res::Prim);
        }
        None
    }

    /// A name declared in, or imported into, one scope.
    pub fn lookup_in_scope(&self, scope: ScopeId, name: &str, ns: Ns) -> Option<Res> {
        let sc = self.scope(scope);
        let direct = match ns {
            Ns::Type => sc.types.get(name),
            Ns::Value => sc.values.get(name),
            Ns::Macro => sc.macros.get(name),
        };
        if let Some(d) = direct {
            return Some(Res::Def(*d));
        }
        let key = (scope, name.to_string(), ns);
        let busy = RESOLVING.with(|r| r.borrow().contains(&key));
        if busy {
            return None;
        }
        RESOLVING.with(|r| r.borrow_mut().push(key));
        let found = self.lookup_imports(scope, name, ns);
        RESOLVING.with(|r| r.borrow_mut().pop());
        found
    }

    fn lookup_imports(&self, scope: ScopeId, name: &str, ns: Ns) -> Option<Res> {
        let sc = self.scope(scope);
        for imp in sc.imports.iter().filter(|i| i.name.as_deref() == Some(name)) {
            if let Some(r) = self.resolve_path(scope, &imp.path, imp.global, ns, &|_| None)
                && r.rest == 0
            {
                return Some(r.res);
            }
        }
        for imp in sc.imports.iter().filter(|i| i.name.is_none()) {
            let Some(r) = self.resolve_path(scope, &imp.path, imp.global, Ns::Type, &|_| None)
            else {
                continue;
            };
            if r.rest != 0 {
                continue;
            }
            let Res::Def(d) = r.res else { continue };
            match &self.def(d).kind {
                DefKind::Mod { scope: ms } => {
                    if let Some(found) = self.lookup_in_scope(*ms, name, ns) {
                        return Some(found);
                    }
                }
                DefKind::Enum { variants, .. } if ns != Ns::Macro => {
                    if let Some(v) = variants.iter().find(|v| self.name(**v) == name) {
                        return Some(Res::Def(*v));
                    }
                }
                _ => {}
            }
        }
        None
    }
}
