//! Coercions at coercion sites (lets with a type, arguments, returns, fields, arms): `!` to
//! any type, `&mut T` to `&T`, references to raw pointers, `*mut T` to `*const T`, arrays to
//! slices behind pointers, and `&&T` to `&T` and `&W` to `&W::Target` by auto-deref.
//! Anything else must unify.

use super::expr::FnCtxt;
use super::*;
use crate::ty::Infer;

impl<'c, 't, 'a> FnCtxt<'c, 't, 'a> {
    /// Coerces expression `e` of type `found` to `target`, recording the adjustments.
    pub fn coerce(&mut self, e: ExprId, found: &Ty, target: &Ty) -> Result<(), ()> {
        // Pending obligations may decide what a variable is (a projection's value): a
        // coercion decided on a guess would contradict it.
        if !self.obligations.is_empty()
            && (self.infer.resolve(found).has_infer() || self.infer.resolve(target).has_infer())
        {
            self.select_pending();
        }
        let f = self.shallow(found);
        let t = self.shallow(target);
        if f.is_never() {
            if !t.is_never() {
                self.add_adjust(e, Adjust::NeverToAny);
            }
            return Ok(());
        }
        if f.is_error() || t.is_error() {
            return Ok(());
        }
        if matches!(f.kind(), TyKind::Infer(Infer::Var(_)))
            || matches!(t.kind(), TyKind::Infer(Infer::Var(_)))
        {
            return self.infer.unify(&f, &t).map_err(|_| ());
        }
        match (f.kind(), t.kind()) {
            (TyKind::Ref(a, fm), TyKind::Ref(b, tm)) if *fm || !*tm => {
                let (a, b) = (self.shallow(a), self.shallow(b));
                // Same pointee: a reborrow, possibly `&mut` to `&`.
                if self.infer.probe(|i| i.unify(&a, &b).ok()).is_some() {
                    if fm != tm {
                        self.add_adjust(e, Adjust::PointerCast);
                    }
                    return Ok(());
                }
                // `&[T; N]` to `&[T]`.
                if let (TyKind::Array(x, _), TyKind::Slice(y)) = (a.kind(), b.kind()) {
                    let (x, y) = (x.clone(), y.clone());
                    if self.infer.unify(&x, &y).is_ok() {
                        if fm != tm {
                            self.add_adjust(e, Adjust::PointerCast);
                        }
                        self.add_adjust(e, Adjust::Unsize);
                        return Ok(());
                    }
                }
                // `&&T` to `&T` and `&W` to `&W::Target`: auto-deref through references and
                // `Deref` impls, then reborrow (rustc's deref coercion).
                let mut inner = a.clone();
                let mut steps = Vec::new();
                while steps.len() < 16 {
                    let Some((x, step)) = self.deref_step(&inner) else { break };
                    let x = self.shallow(&x);
                    steps.push(step);
                    if self.infer.probe(|i| i.unify(&x, &b).ok()).is_some() {
                        let _ = self.infer.unify(&x, &b);
                        let span = self.span(e);
                        let mut adjusts = vec![Adjust::Deref];
                        adjusts.extend(steps);
                        if *tm {
                            self.require_deref_mut(&adjusts, span);
                        }
                        self.add_derefs(e, &adjusts, span);
                        self.add_adjust(e, Adjust::Borrow(*tm));
                        return Ok(());
                    }
                    inner = x;
                }
                Err(())
            }
            (TyKind::Ref(a, fm), TyKind::Ptr(b, tm)) | (TyKind::Ptr(a, fm), TyKind::Ptr(b, tm))
                if *fm || !*tm =>
            {
                let (a, b) = (self.shallow(a), self.shallow(b));
                if self.infer.probe(|i| i.unify(&a, &b).ok()).is_some() {
                    if fm != tm || matches!(f.kind(), TyKind::Ref(..)) {
                        self.add_adjust(e, Adjust::PointerCast);
                    }
                    return Ok(());
                }
                if let (TyKind::Array(x, _), TyKind::Slice(y)) = (a.kind(), b.kind()) {
                    let (x, y) = (x.clone(), y.clone());
                    if self.infer.unify(&x, &y).is_ok() {
                        self.add_adjust(e, Adjust::PointerCast);
                        self.add_adjust(e, Adjust::Unsize);
                        return Ok(());
                    }
                }
                Err(())
            }
            _ => self.infer.unify(&f, &t).map_err(|_| ()),
        }
    }
}
