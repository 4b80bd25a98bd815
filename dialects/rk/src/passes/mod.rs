//! rk → rk transformations. Each pass takes a module and keeps it valid: the verifier accepts
//! its output whenever it accepted its input.

pub mod access;
pub mod async_copy;
pub mod expand_mma;
pub mod expand_wgmma;
pub mod forward;
pub mod hoist;
pub mod inline;
pub mod ldmatrix;
pub mod simplify;
pub mod uniform;
pub mod unroll;
pub mod version;

pub use access::{access_of_params, offsets_past_pointee};
pub use async_copy::{expand_async_copies, has_async_copies};
pub use expand_mma::{expand_mma, has_mma};
pub use expand_wgmma::{expand_wgmma, has_swizzled_wgmma, has_wgmma, holds_wgmma};
pub use ldmatrix::{expand_ldmatrix, has_ldmatrix};

/// Whether an op of the module, at any depth, satisfies `pred`.
fn any_op(module: &crate::Module, pred: &dyn Fn(&crate::Op) -> bool) -> bool {
    fn walk(region: &crate::Region, pred: &dyn Fn(&crate::Op) -> bool) -> bool {
        region.ops.iter().any(|op| pred(op) || op.regions.iter().any(|r| walk(r, pred)))
    }
    module.funcs.iter().any(|f| walk(&f.body, pred))
}

/// A rewrite of single ops: given the function, the list being rebuilt and an op (whose
/// regions are already rewritten), it pushes what replaces the op and says `true`, or leaves
/// the list alone and says `false` to keep the op.
type Rewrite<'r> = dyn FnMut(&mut crate::Func, &mut Vec<crate::Op>, &crate::Op) -> bool + 'r;

/// Rebuilds every region of the module through `rewrite`; returns how many ops it replaced.
fn rewrite_ops(module: &mut crate::Module, rewrite: &mut Rewrite<'_>) -> usize {
    fn walk(
        func: &mut crate::Func,
        region: &mut crate::Region,
        rewrite: &mut Rewrite<'_>,
    ) -> usize {
        let mut count = 0;
        let mut ops = Vec::with_capacity(region.ops.len());
        for mut op in std::mem::take(&mut region.ops) {
            for r in &mut op.regions {
                count += walk(func, r, rewrite);
            }
            if rewrite(func, &mut ops, &op) {
                count += 1;
            } else {
                ops.push(op);
            }
        }
        region.ops = ops;
        count
    }
    let mut count = 0;
    for func in &mut module.funcs {
        let mut body = std::mem::take(&mut func.body);
        count += walk(func, &mut body, rewrite);
        func.body = body;
    }
    count
}

/// Whether the module uses what only NVIDIA GPUs from sm_80 have: warp matrix multiplies, their
/// fragment loads through `ldmatrix` (sm_75 on, grouped with them) and asynchronous copies.
pub fn uses_sm80(module: &crate::Module) -> bool {
    has_mma(module) || has_async_copies(module) || has_ldmatrix(module)
}

/// Rewrites what only NVIDIA GPUs from sm_80 have into ordinary rk with the same results, for
/// the other targets ([`expand_mma`], [`expand_async_copies`], [`expand_ldmatrix`]).
pub fn without_sm80(module: &mut crate::Module) {
    expand_mma(module);
    expand_async_copies(module);
    expand_ldmatrix(module);
}
pub use forward::forward_locals;
pub use hoist::hoist_checks;
pub use inline::{CallGraph, Recursion, inline_calls};
pub use simplify::{Stats, simplify};
pub use unroll::{unroll_private_loops, unroll_tile_steps};
pub use version::version_loops;

/// The rk pipeline after inlining, as the driver runs it: `simplify`, `unroll` (the loops
/// over small thread-private arrays), then `version` and, when it versioned a loop, `simplify`
/// again for what the fast copies let it fold and hoist (with checks off it versions only the
/// loops with warpgroup multiplies, for their assertions: for the rest the two copies would be
/// the same code), and last `unroll-steps` (the short loops around
/// the unrolled ones, outside checked copies). `after` sees the module after each step, by
/// name (`rk-simplify`, `rk-unroll`, `rk-version`, `rk-unroll-steps`), for
/// `--print-ir-after-all`.
pub fn optimize(
    module: &mut crate::Module,
    bounds_checks: bool,
    after: &mut dyn FnMut(&str, &crate::Module),
) -> Stats {
    let mut stats = simplify(module);
    after("rk-simplify", module);
    stats.loops_unrolled = unroll_private_loops(module);
    if stats.loops_unrolled > 0 {
        after("rk-unroll", module);
    }
    stats.loops_versioned = version_loops(module, bounds_checks);
    if stats.loops_versioned > 0 {
        let again = simplify(module);
        stats.folded += again.folded;
        stats.checks_removed += again.checks_removed;
        stats.ops_removed += again.ops_removed;
        stats.checks_hoisted = again.checks_hoisted;
        stats.loops_unwrapped += again.loops_unwrapped;
        stats.loads_forwarded += again.loads_forwarded;
        after("rk-version", module);
    }
    let steps = unroll_tile_steps(module);
    if steps > 0 {
        stats.loops_unrolled += steps;
        after("rk-unroll-steps", module);
    }
    stats
}
