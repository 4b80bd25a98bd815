//! Closures: their signatures, deduced from the `Fn` bounds they are passed to or from their
//! annotations, and their bodies, checked in the enclosing body's inference context.

use super::expr::*;
use super::traits::Obligation;
use super::*;
use crate::ty::{ClosureId, Infer};

impl<'c, 't, 'a> FnCtxt<'c, 't, 'a> {
    pub(super) fn check_closure(
        &mut self,
        e: ExprId,
        params: &[(PatId, Option<crate::hir::TyRef<'a>>)],
        ret: Option<crate::hir::TyRef<'a>>,
        body: ExprId,
        is_move: bool,
        index: u32,
        expected: Option<&Ty>,
    ) -> Ty {
        let id = self.tcx.closure_id((self.def, self.args.clone()), index, e);
        let deduced = expected.and_then(|x| self.deduce_closure_sig(x, params.len()));
        let mut param_tys = Vec::new();
        for (k, (pat, ty)) in params.iter().enumerate() {
            let t = match ty {
                Some(t) => {
                    let t = self.lower_ty(*t);
                    if let Some((ds, _)) = &deduced
                        && let Some(d) = ds.get(k)
                    {
                        let _ = self.infer.unify(&t, d);
                    }
                    t
                }
                None => match &deduced {
                    Some((ds, _)) if k < ds.len() => ds[k].clone(),
                    _ => self.infer.new_var(),
                },
            };
            self.check_pat_top(*pat, &t);
            param_tys.push(t);
        }
        let ret_ty = match ret {
            Some(t) => self.lower_ty(t),
            None => deduced
                .as_ref()
                .and_then(|(_, r)| r.clone())
                .unwrap_or_else(|| self.infer.new_var()),
        };
        self.closure_sigs.insert(id, (param_tys, ret_ty.clone()));
        self.r.closures.insert(e, id);
        let _ = is_move;
        // A closure body has its own loops and `return`.
        let breaks = std::mem::take(&mut self.breaks);
        self.closure_rets.push(ret_ty.clone());
        self.check_expr_coercible(body, &ret_ty);
        self.closure_rets.pop();
        self.breaks = breaks;
        Ty::new(TyKind::Closure(id))
    }

    /// The signature a closure gets from what it is passed to: an `Fn*` bound on the expected
    /// type's variable, or the signature of an expected closure type.
    fn deduce_closure_sig(&mut self, expected: &Ty, n: usize) -> Option<(Vec<Ty>, Option<Ty>)> {
        let x = self.shallow(expected);
        if x.is_error() {
            // Passed to a call that could not be resolved: nothing is known of it.
            return Some((vec![Ty::error(); n], Some(Ty::error())));
        }
        let TyKind::Infer(Infer::Var(_)) = x.kind() else { return None };
        let fn_traits: Vec<DefId> =
            ["fn", "fn_mut", "fn_once"].iter().filter_map(|l| self.tcx.items.lang(l)).collect();
        let mut params = None;
        let mut ret = None;
        let mut obligations = self.obligations.clone();
        // A bound through a trait whose supertrait is an `Fn` trait (`F: BlockFn` with
        // `trait BlockFn: Fn(u32) {}`) says as much: its supertraits join the search.
        let mut k = 0;
        while k < obligations.len() && k < 64 {
            if let Obligation::Trait { trait_id, args, span } = obligations[k].clone()
                && !fn_traits.contains(&trait_id)
            {
                for sb in self.tcx.super_bounds(trait_id).iter() {
                    let sargs: Vec<GenericArg> = crate::ty::subst_args(&sb.args, &args).to_vec();
                    let mut with_self = vec![args[0].clone()];
                    with_self.extend(sargs.into_iter().skip(1));
                    obligations.push(Obligation::Trait {
                        trait_id: sb.trait_id,
                        args: with_self.clone(),
                        span,
                    });
                    for (assoc, ty) in &sb.assoc {
                        let proj = crate::ty::Projection {
                            trait_id: self.assoc_trait(*assoc, sb.trait_id),
                            args: with_self.clone().into(),
                            assoc: *assoc,
                        };
                        obligations.push(Obligation::Projection {
                            proj,
                            ty: ty.subst(&args),
                            span,
                        });
                    }
                }
            }
            k += 1;
        }
        for o in &obligations {
            match o {
                Obligation::Trait { trait_id, args, .. } if fn_traits.contains(trait_id) => {
                    let Some(GenericArg::Ty(s)) = args.first() else { continue };
                    if self.shallow(s) != x {
                        continue;
                    }
                    if let Some(GenericArg::Ty(tuple)) = args.get(1) {
                        let tuple = self.shallow(tuple);
                        if let TyKind::Tuple(ts) = tuple.kind()
                            && ts.len() == n
                        {
                            params = Some(ts.clone());
                        }
                    }
                }
                Obligation::Projection { proj, ty, .. } if fn_traits.contains(&proj.trait_id) => {
                    let Some(GenericArg::Ty(s)) = proj.args.first() else { continue };
                    if self.shallow(s) == x {
                        ret = Some(ty.clone());
                    }
                }
                _ => {}
            }
        }
        params.map(|p| (p, ret))
    }

    /// A closure's signature, whether it is being inferred here or was finished by the body
    /// that defines it.
    pub fn closure_sig(&self, id: ClosureId) -> (Vec<Ty>, Ty) {
        match self.closure_sigs.get(&id) {
            Some(s) => s.clone(),
            None => {
                let c = self.tcx.closure(id);
                (c.params, c.ret)
            }
        }
    }
}
