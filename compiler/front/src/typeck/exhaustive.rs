//! Whether a `match` covers every value (rustc's E0004). rkc decides the cases kernels write
//! (a catch-all arm, `bool`, integers and `char` by literals and ranges, enums by variants) and
//! says so when they are not covered; in the cases it cannot decide, the match is lowered with
//! every arm tested and an unreachable end, which is exact for the Rust that rustc accepts.

use super::expr::FnCtxt;
use super::*;
use crate::hir::{Arm, Lit, PatKind};
use crate::ty::Const;

/// What rkc knows of a match's coverage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Coverage {
    Exhaustive,
    /// Not exhaustive: an example of a value no arm covers, as rustc writes it.
    Missing(String),
    Unknown,
}

impl<'c, 't, 'a> FnCtxt<'c, 't, 'a> {
    /// The coverage of a match's arms over the scrutinee type.
    pub fn coverage(&mut self, ty: &Ty, arms: &[Arm]) -> Coverage {
        let pats: Vec<PatId> = arms.iter().filter(|a| a.guard.is_none()).map(|a| a.pat).collect();
        let mentioned: Vec<PatId> = arms.iter().map(|a| a.pat).collect();
        self.covers(ty, &pats, &mentioned)
    }

    /// The coverage of a `let`'s pattern (without `else`) over the value's type.
    pub fn let_coverage(&mut self, ty: &Ty, pat: PatId) -> Coverage {
        self.covers(ty, &[pat], &[pat])
    }

    fn covers(&mut self, ty: &Ty, pats: &[PatId], mentioned: &[PatId]) -> Coverage {
        let ty = self.infer.resolve(ty);
        let pats = self.alternatives(pats);
        if pats.iter().any(|p| self.irrefutable(*p)) {
            return Coverage::Exhaustive;
        }
        // Default binding modes: a reference scrutinee is matched through.
        if let TyKind::Ref(inner, _) = ty.kind() {
            let inner = inner.clone();
            let peel = |fcx: &Self, ps: &[PatId]| -> Vec<PatId> {
                ps.iter()
                    .map(|p| match &fcx.body.pat(*p).kind {
                        PatKind::Ref(q, _) => *q,
                        _ => *p,
                    })
                    .collect()
            };
            let (p2, m2) = (peel(self, &pats), peel(self, mentioned));
            return self.covers(&inner, &p2, &m2);
        }
        match ty.kind() {
            TyKind::Bool => {
                let mut seen = [false, false];
                for p in &pats {
                    if let PatKind::Lit(Lit::Bool(b), _) = self.body.pat(*p).kind {
                        seen[usize::from(b)] = true;
                    }
                }
                match seen {
                    [true, true] => Coverage::Exhaustive,
                    [false, _] => Coverage::Missing("`false`".into()),
                    _ => Coverage::Missing("`true`".into()),
                }
            }
            TyKind::Int(t) => {
                // Intervals are i128, so the values of `u128` above `i128::MAX` are not
                // checked here; rustc, which compiles the same file for the host, reports a
                // match that misses them.
                let (lo, hi) = t.range();
                self.interval_coverage(&pats, lo, i128::try_from(hi).unwrap_or(i128::MAX), t.name())
            }
            TyKind::Char => self.interval_coverage(&pats, 0, 0x10FFFF, "char"),
            TyKind::Adt(d, args) => {
                let d = *d;
                let args = args.clone();
                let DefKind::Enum { variants, .. } = &self.tcx.items.def(d).kind else {
                    return self.struct_coverage(&pats);
                };
                let variants = variants.clone();
                let mut unknown = false;
                for v in &variants {
                    // Sub-patterns of the arms naming this variant, per field.
                    let covering: Vec<PatId> =
                        pats.iter().copied().filter(|p| self.names_variant(*p, *v)).collect();
                    // A variant that only guarded arms name is not covered: rustc never
                    // counts a guard as covering (E0004), and neither does rkc.
                    if covering.is_empty() {
                        let name =
                            format!("{}::{}", self.tcx.items.name(d), self.tcx.items.name(*v));
                        let n = self.tcx.items.fields(*v).len();
                        let shown = match self.tcx.items.ctor_kind(*v) {
                            Some(crate::items::CtorKind::Tuple) => {
                                format!("`{name}({})`", vec!["_"; n].join(", "))
                            }
                            Some(crate::items::CtorKind::Named) => format!("`{name} {{ .. }}`"),
                            _ => format!("`{name}`"),
                        };
                        return Coverage::Missing(shown);
                    }
                    if !covering.iter().any(|p| self.fields_irrefutable(*p)) {
                        // A one-field variant: its field's coverage decides.
                        let fields = self.tcx.field_tys(*v);
                        if fields.len() == 1 {
                            let ft = fields[0].subst(&args);
                            let subs: Vec<PatId> =
                                covering.iter().filter_map(|p| self.first_field(*p)).collect();
                            match self.covers(&ft, &subs, &subs) {
                                Coverage::Exhaustive => {}
                                _ => unknown = true,
                            }
                        } else {
                            unknown = true;
                        }
                    }
                }
                if unknown { Coverage::Unknown } else { Coverage::Exhaustive }
            }
            TyKind::Tuple(_) | TyKind::Array(_, Const::Value(_)) => Coverage::Unknown,
            TyKind::Error => Coverage::Exhaustive,
            _ => Coverage::Unknown,
        }
    }

    /// A struct's coverage: one arm with irrefutable fields.
    fn struct_coverage(&mut self, pats: &[PatId]) -> Coverage {
        if pats.iter().any(|p| self.fields_irrefutable(*p)) {
            Coverage::Exhaustive
        } else {
            Coverage::Unknown
        }
    }

    /// The patterns with or-patterns flattened.
    fn alternatives(&self, pats: &[PatId]) -> Vec<PatId> {
        let mut out = Vec::new();
        for p in pats {
            match &self.body.pat(*p).kind {
                PatKind::Or(alts) => out.extend(self.alternatives(alts)),
                PatKind::Binding { sub: Some(s), .. } => out.extend(self.alternatives(&[*s])),
                _ => out.push(*p),
            }
        }
        out
    }

    /// Whether a pattern matches every value of its type.
    pub fn irrefutable(&self, p: PatId) -> bool {
        match &self.body.pat(p).kind {
            PatKind::Wild | PatKind::Err => true,
            PatKind::Binding { sub, .. } => sub.is_none_or(|s| self.irrefutable(s)),
            PatKind::Tuple { pats, .. } => pats.iter().all(|q| self.irrefutable(*q)),
            PatKind::Ref(q, _) => self.irrefutable(*q),
            PatKind::Struct { .. } | PatKind::TupleStruct { .. } | PatKind::Path(_) => {
                // A struct (not an enum variant) with irrefutable fields.
                let Some((def, _)) = self.r.pat_variants.get(&p) else { return false };
                let is_variant = self.tcx.items.variant_parent(*def).is_some_and(|(e, _)| {
                    match &self.tcx.items.def(e).kind {
                        DefKind::Enum { variants, .. } => variants.len() != 1,
                        _ => true,
                    }
                });
                !is_variant && self.fields_irrefutable(p)
            }
            PatKind::Slice { rest: Some(_), before, after } => {
                before.is_empty() && after.is_empty()
            }
            PatKind::Or(alts) => alts.iter().any(|q| self.irrefutable(*q)),
            _ => false,
        }
    }

    fn fields_irrefutable(&self, p: PatId) -> bool {
        match &self.body.pat(p).kind {
            PatKind::Struct { fields, .. } => fields.iter().all(|(_, q)| self.irrefutable(*q)),
            PatKind::TupleStruct { pats, .. } => pats.iter().all(|q| self.irrefutable(*q)),
            PatKind::Path(_) => true,
            PatKind::Binding { sub: Some(s), .. } => self.fields_irrefutable(*s),
            _ => false,
        }
    }

    fn first_field(&self, p: PatId) -> Option<PatId> {
        match &self.body.pat(p).kind {
            PatKind::TupleStruct { pats, rest: None, .. } if pats.len() == 1 => Some(pats[0]),
            PatKind::Struct { fields, .. } if fields.len() == 1 => Some(fields[0].1),
            _ => None,
        }
    }

    fn names_variant(&self, p: PatId, v: DefId) -> bool {
        matches!(self.r.pat_variants.get(&p), Some((d, _)) if *d == v)
    }

    /// Coverage of an integer (or `char`) range by literal and range patterns.
    fn interval_coverage(&mut self, pats: &[PatId], lo: i128, hi: i128, ty: &str) -> Coverage {
        let mut ranges: Vec<(i128, i128)> = Vec::new();
        let value = |l: &Lit, neg: bool| -> Option<i128> {
            let v = match l {
                Lit::Int(v, _) => i128::try_from(*v).ok()?,
                Lit::Char(c) => i128::from(u32::from(*c)),
                _ => return None,
            };
            Some(if neg { -v } else { v })
        };
        for p in pats {
            match &self.body.pat(*p).kind {
                PatKind::Lit(l, neg) => {
                    if let Some(v) = value(l, *neg) {
                        ranges.push((v, v));
                    }
                }
                PatKind::Range { lo: a, hi: b, inclusive } => {
                    let a = a.as_ref().and_then(|(l, n)| value(l, *n)).unwrap_or(lo);
                    let b = match b {
                        Some((l, n)) => match value(l, *n) {
                            Some(v) if *inclusive => v,
                            Some(v) => v - 1,
                            None => continue,
                        },
                        None => hi,
                    };
                    ranges.push((a, b));
                }
                // A constant pattern: its value is not known here.
                PatKind::Const(_) => return Coverage::Unknown,
                _ => {}
            }
        }
        ranges.sort();
        let mut next = lo;
        for (a, b) in &ranges {
            if *a > next {
                break;
            }
            next = next.max(b.saturating_add(1));
        }
        if next > hi {
            return Coverage::Exhaustive;
        }
        // The first value no arm covers, and where the gap ends.
        let end = ranges.iter().filter(|(a, _)| *a > next).map(|(a, _)| a - 1).min().unwrap_or(hi);
        let shown =
            |v: i128| if ty == "char" { format!("'\\u{{{v:x}}}'") } else { format!("{v}_{ty}") };
        let upper = if ty == "char" { "'\\u{10ffff}'".to_string() } else { format!("{ty}::MAX") };
        Coverage::Missing(if next == end {
            format!("`{}`", shown(next))
        } else if end == hi {
            format!("`{}..={upper}`", shown(next))
        } else {
            format!("`{}..={}`", shown(next), shown(end))
        })
    }
}
