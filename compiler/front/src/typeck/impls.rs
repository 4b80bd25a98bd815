//! An impl of a trait holds the trait's items and only those (rustc's E0046, E0407, E0437,
//! E0438). Checked for every impl of the user's file whose trait is one of the file's own:
//! the core's traits are rkc's smaller copies of core's, whose provided and required items
//! need not match the real ones, and a trait that does not resolve is a host trait whose impl
//! no kernel can use.

use super::Tcx;
use crate::codes::*;
use crate::diag::{Diagnostic, Span};
use crate::items::{DefId, DefKind, FileId};

/// What kind of associated item a definition is, in rustc's words; `None` for anything else.
fn item_kind(kind: &DefKind<'_>) -> Option<&'static str> {
    match kind {
        DefKind::Fn { .. } => Some("method"),
        DefKind::Const { .. } => Some("const"),
        DefKind::AssocTy { .. } => Some("type"),
        _ => None,
    }
}

/// Whether a trait's item has a default the impl may leave out.
fn has_default(kind: &DefKind<'_>) -> bool {
    match kind {
        DefKind::Fn { body, .. } => body.is_some(),
        DefKind::Const { expr, .. } => expr.is_some(),
        DefKind::AssocTy { ty, .. } => ty.is_some(),
        _ => true,
    }
}

impl Tcx<'_, '_> {
    /// Reports the user's impls that leave out an item of their trait that has no default, or
    /// define one the trait does not declare.
    pub fn check_trait_impls(&self) {
        let items = self.items;
        for &imp in &items.impls {
            let def = items.def(imp);
            let DefKind::Impl { trait_path: Some(path), items: own, negative: false, .. } =
                &def.kind
            else {
                continue;
            };
            if def.file != FileId::User {
                continue;
            }
            let Some((trait_id, _)) = self.impl_header(imp).trait_ref.clone() else { continue };
            let trait_def = items.def(trait_id);
            let DefKind::Trait { items: declared, .. } = &trait_def.kind else { continue };
            if trait_def.file != FileId::User {
                continue;
            }
            let trait_name = &trait_def.name;
            let path_span = Span::from_pm2(syn::spanned::Spanned::span(path));
            for &item in own.iter() {
                let d = items.def(item);
                let Some(kind) = item_kind(&d.kind) else { continue };
                let same = |t: &DefId| {
                    let td = items.def(*t);
                    td.name == d.name && item_kind(&td.kind) == Some(kind)
                };
                if declared.iter().any(same) {
                    continue;
                }
                self.report(
                    FileId::User,
                    Diagnostic::new(
                        RK_NOT_TRAIT_MEMBER,
                        format!("{kind} `{}` is not a member of trait `{trait_name}`", d.name),
                    )
                    .at(d.span, format!("not a member of trait `{trait_name}`"))
                    .with_secondary(
                        trait_def.span,
                        format!("trait `{trait_name}` is declared here"),
                    ),
                );
            }
            let missing: Vec<DefId> = declared
                .iter()
                .copied()
                .filter(|&t| {
                    let td = items.def(t);
                    item_kind(&td.kind).is_some()
                        && !has_default(&td.kind)
                        && !own.iter().any(|&o| items.def(o).name == td.name)
                })
                .collect();
            if missing.is_empty() {
                continue;
            }
            let names: Vec<String> =
                missing.iter().map(|&t| format!("`{}`", items.name(t))).collect();
            let mut d = Diagnostic::new(
                RK_MISSING_TRAIT_ITEMS,
                format!("not all trait items implemented, missing: {}", names.join(", ")),
            )
            .at(path_span, format!("missing {} in implementation", names.join(", ")));
            for &t in &missing {
                d = d.with_secondary(items.def(t).span, format!("`{}` from trait", items.name(t)));
            }
            self.report(FileId::User, d);
        }
    }
}

impl Tcx<'_, '_> {
    /// Whether an impl is the user's: written in the file, or derived for one of its types.
    fn users_impl(&self, imp: DefId) -> bool {
        match self.items.def(imp).file {
            FileId::User => true,
            FileId::Derived(k) => {
                self.items.derived_files.get(usize::from(k)).is_some_and(|d| d.for_file.is_user())
            }
            FileId::Core(_) => false,
        }
    }

    /// Where an impl is shown: its self type, or for a derived impl the `#[derive]`.
    fn impl_span(&self, imp: DefId) -> Span {
        let def = self.items.def(imp);
        match def.file {
            FileId::Derived(k) => {
                self.items.derived_spans.get(usize::from(k)).copied().unwrap_or(def.span)
            }
            _ => def.span,
        }
    }

    /// Reports two of the user's impls of one trait that apply to one type (rustc's E0119).
    /// Each impl of the user's whose trait arguments are concrete asks which impls fit its
    /// types, as selection does, counting those whose bounds hold for them: so an impl for a
    /// type conflicts with another for the same type and with a generic impl that covers it
    /// (`impl<T: Copy> Tr for T`). Two generic impls are not compared, nor the user's impls
    /// with the core's (rkc's core is not the real one impl for impl, and implementing a core
    /// trait for a core type is refused by rustc's orphan rule anyway, E0117).
    pub fn check_impl_overlap(&self) {
        let items = self.items;
        let mut fcx = None;
        let mut reported = std::collections::HashSet::new();
        for &imp in &items.impls {
            if !self.users_impl(imp)
                || items.generic_count(imp) != 0
                || matches!(items.def(imp).kind, DefKind::Impl { negative: true, .. })
            {
                continue;
            }
            let header = self.impl_header(imp);
            let Some((trait_id, args)) = &header.trait_ref else { continue };
            let concrete = args.iter().all(|a| match a {
                crate::ty::GenericArg::Ty(t) => !t.has_params() && !t.has_error(),
                crate::ty::GenericArg::Const(_) => true,
            });
            if !concrete {
                continue;
            }
            let fcx = fcx.get_or_insert_with(|| {
                super::expr::FnCtxt::for_selection(self, self.body_for_selection())
            });
            for (other, _, holds) in fcx.candidate_impls(*trait_id, args, 0) {
                if other == imp || holds != Some(true) || !self.users_impl(other) {
                    continue;
                }
                // An impl whose header names a type rkc cannot find (`From<ParseIntError>`)
                // fits anything; it is not a conflict, and its error is reported where a
                // kernel uses it.
                let theirs = self.impl_header(other);
                if theirs.self_ty.has_error()
                    || theirs.trait_ref.as_ref().is_some_and(|(_, a)| {
                        a.iter().any(|g| matches!(g, crate::ty::GenericArg::Ty(t) if t.has_error()))
                    })
                {
                    continue;
                }
                let (first, second) = (imp.min(other), imp.max(other));
                if !reported.insert((first, second)) {
                    continue;
                }
                let trait_name = &items.def(*trait_id).name;
                let ty = self.show(&header.self_ty);
                self.report(
                    FileId::User,
                    Diagnostic::new(
                        RK_CONFLICTING_IMPLS,
                        format!(
                            "conflicting implementations of trait `{trait_name}` for type `{ty}`"
                        ),
                    )
                    .at(self.impl_span(second), format!("conflicting implementation for `{ty}`"))
                    .with_secondary(self.impl_span(first), "first implementation here"),
                );
            }
        }
    }

    /// Reports a name defined twice among the inherent impls of one of the user's types
    /// (rustc's E0592, and E0201 within one impl): methods, associated functions and
    /// constants, of impls without generic parameters (the common case; impls with them
    /// would need the overlap of their types).
    pub fn check_inherent_duplicates(&self) {
        let items = self.items;
        let mut defined: std::collections::HashMap<(String, String), DefId> =
            std::collections::HashMap::new();
        for &imp in &items.impls {
            let def = items.def(imp);
            let DefKind::Impl { trait_path: None, items: own, .. } = &def.kind else { continue };
            if def.file != FileId::User || items.generic_count(imp) != 0 {
                continue;
            }
            let self_ty = self.impl_header(imp).self_ty.clone();
            if self_ty.has_error() {
                continue;
            }
            let ty = self.show(&self_ty);
            for &item in own {
                let d = items.def(item);
                if !matches!(d.kind, DefKind::Fn { .. } | DefKind::Const { .. }) {
                    continue;
                }
                let first = match defined.entry((ty.clone(), d.name.clone())) {
                    std::collections::hash_map::Entry::Occupied(first) => *first.get(),
                    std::collections::hash_map::Entry::Vacant(v) => {
                        v.insert(item);
                        continue;
                    }
                };
                let name = &d.name;
                self.report(
                    FileId::User,
                    Diagnostic::new(
                        RK_DUPLICATE_DEFINITION,
                        format!("duplicate definitions with name `{name}`"),
                    )
                    .at(d.span, format!("duplicate definitions for `{name}`"))
                    .with_secondary(
                        items.def(first).span,
                        format!("other definition for `{name}`"),
                    ),
                );
            }
        }
    }
}
