//! Store-to-load forwarding through private aggregates. The front end keeps tuples, arrays and
//! structs in memory (`rk.local`), so `let (x, y) = (a + 1, b);` stores two fields and loads
//! them back. When a local's address never escapes (every use is a constant-index
//! `rk.field_ptr`/`rk.elem_ptr` chain ending in the address of a load or a store), a load that
//! follows a store to the same field reads the stored value, and the load's result is renamed
//! to it: in one straight-line stretch of a region, and in the regions nested in it when
//! nothing inside them stores to the local (see `forward_region`). Index expressions then
//! become plain arithmetic again, which the bounds-check analyses (`simplify`, `version`) can
//! see through.
//! A local whose loads are all gone loses its stores too, and `dce` removes the rest.

use crate::ir::{Func, Literal, Op, OpKind, Region, ValueId};
use crate::types::Type;
use std::collections::{HashMap, HashSet};

/// A field of a local: its root `rk.local` and the constant path to it (`true` for an
/// element index, `false` for a field index, so that the two kinds of step never alias in the
/// key; a local is only ever one kind of aggregate at each level anyway).
type Key = (ValueId, Vec<(bool, u128)>);

/// Forwards what it can in one function; returns how many loads it replaced.
pub fn forward_locals(func: &mut Func) -> usize {
    let info = Addresses::of(func);
    if info.keys.is_empty() {
        return 0;
    }
    let mut renames = HashMap::new();
    let mut body = std::mem::take(&mut func.body);
    forward_region(&mut body, &info, &mut renames, HashMap::new());
    let forwarded = renames.len();
    if forwarded > 0 {
        super::simplify::rename_operands(&mut body, &renames);
    }
    // Stores to a local that nothing loads any more are dead.
    let loaded = loaded_roots(&body, &info);
    drop_dead_stores(&mut body, &info, &loaded);
    func.body = body;
    forwarded
}

/// Which values are addresses of fields of non-escaping locals, and their keys.
struct Addresses {
    keys: HashMap<ValueId, Key>,
}

impl Addresses {
    fn of(func: &Func) -> Addresses {
        let body = &func.body;
        let mut consts = HashMap::new();
        let mut candidates: HashMap<ValueId, Key> = HashMap::new();
        collect(func, body, &mut consts, &mut candidates);
        // A root escapes when one of its addresses (or the root itself) is used other than
        // as the address of a load or store or as the base of a constant-index step.
        let mut escaped: HashSet<ValueId> = HashSet::new();
        check_uses(body, &candidates, &mut escaped);
        candidates.retain(|_, (root, _)| !escaped.contains(root));
        Addresses { keys: candidates }
    }

    fn key(&self, v: ValueId) -> Option<&Key> {
        self.keys.get(&v)
    }
}

fn collect(
    func: &Func,
    region: &Region,
    consts: &mut HashMap<ValueId, u128>,
    out: &mut HashMap<ValueId, Key>,
) {
    for op in &region.ops {
        match (&op.kind, op.results.first()) {
            (OpKind::Const(Literal::Int(bits)), Some(&r)) => {
                consts.insert(r, *bits);
            }
            (OpKind::Local, Some(&r)) => {
                out.insert(r, (r, Vec::new()));
            }
            (OpKind::FieldPtr { index }, Some(&r)) => {
                if let Some((root, path)) = op.operands.first().and_then(|b| out.get(b)).cloned() {
                    let mut path = path;
                    path.push((false, u128::from(*index)));
                    out.insert(r, (root, path));
                }
            }
            (OpKind::ElemPtr, Some(&r)) => {
                let base = op.operands.first().and_then(|b| out.get(b)).cloned();
                let index = op.operands.get(1).and_then(|i| consts.get(i)).copied();
                if let (Some((root, mut path)), Some(index)) = (base, index) {
                    path.push((true, index));
                    out.insert(r, (root, path));
                }
            }
            // `&*x` of a `&mut` (a method taking `&self` called on a local): the same place,
            // read-only.
            (OpKind::Cast, Some(&r)) if same_place(func, op.operands[0], r) => {
                if let Some(key) = out.get(&op.operands[0]).cloned() {
                    out.insert(r, key);
                }
            }
            _ => {}
        }
        for r in &op.regions {
            collect(func, r, consts, out);
        }
    }
}

fn check_uses(region: &Region, candidates: &HashMap<ValueId, Key>, escaped: &mut HashSet<ValueId>) {
    for op in &region.ops {
        for (k, v) in op.operands.iter().enumerate() {
            let Some((root, _)) = candidates.get(v) else { continue };
            let allowed = match op.kind {
                OpKind::Load => k == 0,
                OpKind::Store => k == 1,
                // A step from a known address is itself a candidate; a step with an index
                // that is not constant makes the whole local unknowable.
                OpKind::FieldPtr { .. } => k == 0,
                OpKind::ElemPtr | OpKind::Cast => {
                    k == 0 && op.results.first().is_some_and(|r| candidates.contains_key(r))
                }
                _ => false,
            };
            if !allowed {
                escaped.insert(*root);
            }
        }
        for r in &op.regions {
            check_uses(r, candidates, escaped);
        }
    }
}

/// The roots stored to anywhere inside an op's regions.
fn stored_roots(op: &Op, info: &Addresses, out: &mut HashSet<ValueId>) {
    for r in &op.regions {
        for inner in &r.ops {
            if inner.kind == OpKind::Store
                && let Some((root, _)) = inner.operands.get(1).and_then(|a| info.key(*a))
            {
                out.insert(*root);
            }
            stored_roots(inner, info, out);
        }
    }
}

/// Forwards through one region, `known` holding what each field holds on entry to it. An op
/// with regions (an `rk.if`, a loop) first forgets the fields of every local stored to
/// anywhere inside it, then lends what is left to its regions: a field that nothing inside a
/// loop writes holds, in every iteration, what it held before the loop, so a loop's loads of
/// a struct's fields set before it (the usual `let tiles = Tiles { .. }` and a method called
/// in the loop) read those values, which loop versioning can then recompute before the loop.
fn forward_region(
    region: &mut Region,
    info: &Addresses,
    renames: &mut HashMap<ValueId, ValueId>,
    mut known: HashMap<Key, ValueId>,
) {
    for op in &mut region.ops {
        if !op.regions.is_empty() {
            let mut roots = HashSet::new();
            stored_roots(op, info, &mut roots);
            known.retain(|k, _| !roots.contains(&k.0));
            for r in &mut op.regions {
                forward_region(r, info, renames, known.clone());
            }
            continue;
        }
        match op.kind {
            OpKind::Store => {
                if let Some(key) = op.operands.get(1).and_then(|a| info.key(*a)) {
                    // A store to a field overwrites what overlaps it: the field itself and
                    // anything above or below it on its path.
                    known.retain(|k, _| !(k.0 == key.0 && overlaps(&k.1, &key.1)));
                    let value = op.operands[0];
                    known.insert(key.clone(), *renames.get(&value).unwrap_or(&value));
                }
            }
            OpKind::Load => {
                if let (Some(key), Some(&r)) =
                    (op.operands.first().and_then(|a| info.key(*a)), op.results.first())
                    && let Some(&v) = known.get(key)
                {
                    renames.insert(r, v);
                }
            }
            _ => {}
        }
    }
}

/// Whether a cast from `from` to `to` only drops a pointer's mutability (`*mut T` to
/// `*const T`): the result addresses the same place.
fn same_place(func: &Func, from: ValueId, to: ValueId) -> bool {
    match (func.ty(from), func.ty(to)) {
        (Some(Type::Ptr { pointee: a, .. }), Some(Type::Ptr { pointee: b, .. })) => a == b,
        _ => false,
    }
}

/// Whether one path is a prefix of the other (the two places overlap).
fn overlaps(a: &[(bool, u128)], b: &[(bool, u128)]) -> bool {
    a.iter().zip(b).all(|(x, y)| x == y)
}

fn loaded_roots(region: &Region, info: &Addresses) -> HashSet<ValueId> {
    fn walk(region: &Region, info: &Addresses, out: &mut HashSet<ValueId>) {
        for op in &region.ops {
            if op.kind == OpKind::Load
                && let Some((root, _)) = op.operands.first().and_then(|a| info.key(*a))
            {
                out.insert(*root);
            }
            for r in &op.regions {
                walk(r, info, out);
            }
        }
    }
    let mut out = HashSet::new();
    walk(region, info, &mut out);
    out
}

fn drop_dead_stores(region: &mut Region, info: &Addresses, loaded: &HashSet<ValueId>) {
    region.ops.retain(|op| {
        op.kind != OpKind::Store
            || op
                .operands
                .get(1)
                .and_then(|a| info.key(*a))
                .is_none_or(|(root, _)| loaded.contains(root))
    });
    for op in &mut region.ops {
        for r in &mut op.regions {
            drop_dead_stores(r, info, loaded);
        }
    }
}
