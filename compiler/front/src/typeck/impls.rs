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
