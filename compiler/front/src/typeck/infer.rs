//! Inference variables and unification: union-find tables (the `ena` crate, rustc's own) for
//! type variables, `{integer}` and `{float}` variables and const variables, with snapshots so
//! that method probing and trait selection can try a unification and take it back.

use crate::ty::{Const, GenericArg, Infer, Ty, TyKind};
use ena::unify::{InPlaceUnificationTable, NoError, UnifyKey, UnifyValue};
use rkc_rk::{FloatTy, IntTy};

macro_rules! key {
    ($name:ident, $value:ty) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct $name(u32);
        impl UnifyKey for $name {
            type Value = Option<$value>;
            fn index(&self) -> u32 {
                self.0
            }
            fn from_index(i: u32) -> Self {
                $name(i)
            }
            fn tag() -> &'static str {
                stringify!($name)
            }
        }
    };
}

/// A type variable's value: a type that may itself hold variables.
#[derive(Clone, Debug)]
pub struct TyValue(pub Ty);

impl UnifyValue for TyValue {
    type Error = NoError;
    fn unify_values(a: &Self, _: &Self) -> Result<Self, NoError> {
        // The checker never unions two variables that both have values: it unifies their
        // values instead.
        Ok(a.clone())
    }
}

/// What an `{integer}`, `{float}` or const variable is known to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known<T>(pub T);

impl<T: Clone + std::fmt::Debug> UnifyValue for Known<T> {
    type Error = NoError;
    fn unify_values(a: &Self, _: &Self) -> Result<Self, NoError> {
        // Variables with values are never unioned: their values are compared instead.
        Ok(a.clone())
    }
}

key!(TyVid, TyValue);
key!(IntVid, Known<IntTy>);
key!(FloatVid, Known<FloatTy>);
key!(ConstVid, Known<u64>);

/// The tables of one body's inference.
#[derive(Default)]
pub struct InferTables {
    tys: InPlaceUnificationTable<TyVid>,
    ints: InPlaceUnificationTable<IntVid>,
    floats: InPlaceUnificationTable<FloatVid>,
    consts: InPlaceUnificationTable<ConstVid>,
}

pub struct Snapshot {
    tys: ena::unify::Snapshot<ena::unify::InPlace<TyVid>>,
    ints: ena::unify::Snapshot<ena::unify::InPlace<IntVid>>,
    floats: ena::unify::Snapshot<ena::unify::InPlace<FloatVid>>,
    consts: ena::unify::Snapshot<ena::unify::InPlace<ConstVid>>,
}

/// Why two types do not unify.
#[derive(Clone, Debug)]
pub struct Mismatch;

impl InferTables {
    pub fn new_var(&mut self) -> Ty {
        Ty::new(TyKind::Infer(Infer::Var(self.tys.new_key(None).0)))
    }

    pub fn new_int_var(&mut self) -> Ty {
        Ty::new(TyKind::Infer(Infer::Int(self.ints.new_key(None).0)))
    }

    pub fn new_float_var(&mut self) -> Ty {
        Ty::new(TyKind::Infer(Infer::Float(self.floats.new_key(None).0)))
    }

    pub fn new_const_var(&mut self) -> Const {
        Const::Infer(self.consts.new_key(None).0)
    }

    pub fn snapshot(&mut self) -> Snapshot {
        Snapshot {
            tys: self.tys.snapshot(),
            ints: self.ints.snapshot(),
            floats: self.floats.snapshot(),
            consts: self.consts.snapshot(),
        }
    }

    pub fn rollback_to(&mut self, s: Snapshot) {
        self.tys.rollback_to(s.tys);
        self.ints.rollback_to(s.ints);
        self.floats.rollback_to(s.floats);
        self.consts.rollback_to(s.consts);
    }

    pub fn commit(&mut self, s: Snapshot) {
        self.tys.commit(s.tys);
        self.ints.commit(s.ints);
        self.floats.commit(s.floats);
        self.consts.commit(s.consts);
    }

    /// Runs `f` and keeps its unifications only if it succeeds.
    pub fn probe<T>(&mut self, f: impl FnOnce(&mut Self) -> Option<T>) -> Option<T> {
        let s = self.snapshot();
        match f(self) {
            Some(v) => {
                self.commit(s);
                Some(v)
            }
            None => {
                self.rollback_to(s);
                None
            }
        }
    }

    /// Whether `f` would succeed; nothing it unifies is kept.
    pub fn can<T>(&mut self, f: impl FnOnce(&mut Self) -> Option<T>) -> bool {
        let s = self.snapshot();
        let ok = f(self).is_some();
        self.rollback_to(s);
        ok
    }

    /// The type with its outermost variable replaced by what it is known to be.
    pub fn shallow(&mut self, ty: &Ty) -> Ty {
        match ty.kind() {
            TyKind::Infer(Infer::Var(v)) => match self.tys.probe_value(TyVid(*v)) {
                Some(TyValue(t)) => self.shallow(&t),
                None => Ty::new(TyKind::Infer(Infer::Var(self.tys.find(TyVid(*v)).0))),
            },
            TyKind::Infer(Infer::Int(v)) => match self.ints.probe_value(IntVid(*v)) {
                Some(Known(t)) => Ty::int(t),
                None => Ty::new(TyKind::Infer(Infer::Int(self.ints.find(IntVid(*v)).0))),
            },
            TyKind::Infer(Infer::Float(v)) => match self.floats.probe_value(FloatVid(*v)) {
                Some(Known(t)) => Ty::float(t),
                None => Ty::new(TyKind::Infer(Infer::Float(self.floats.find(FloatVid(*v)).0))),
            },
            _ => ty.clone(),
        }
    }

    pub fn resolve_const(&mut self, c: &Const) -> Const {
        match c {
            Const::Infer(v) => match self.consts.probe_value(ConstVid(*v)) {
                Some(Known(x)) => Const::Value(x),
                None => Const::Infer(self.consts.find(ConstVid(*v)).0),
            },
            other => other.clone(),
        }
    }

    /// The type with every variable replaced by what it is known to be.
    pub fn resolve(&mut self, ty: &Ty) -> Ty {
        if !ty.has_infer() {
            return ty.clone();
        }
        // Consts first (the fold below borrows the tables once).
        let mut consts = Vec::new();
        ty.fold(&mut |_| None, &mut |c| {
            if let Const::Infer(v) = c {
                consts.push(*v);
            }
            c.clone()
        });
        let known: Vec<(u32, Option<u64>)> = consts
            .into_iter()
            .map(|v| (v, self.consts.probe_value(ConstVid(v)).map(|k| k.0)))
            .collect();
        ty.fold(
            &mut |t| match t.kind() {
                TyKind::Infer(_) => {
                    let s = self.shallow(t);
                    if s.is_infer() { Some(s) } else { Some(self.resolve(&s)) }
                }
                _ => None,
            },
            &mut |c| match c {
                Const::Infer(v) => match known.iter().find(|(k, _)| k == v).and_then(|(_, x)| *x) {
                    Some(x) => Const::Value(x),
                    None => c.clone(),
                },
                _ => c.clone(),
            },
        )
    }

    fn occurs(&mut self, v: u32, ty: &Ty) -> bool {
        let t = self.resolve(ty);
        let root = self.tys.find(TyVid(v)).0;
        let mut found = false;
        t.fold(
            &mut |x| {
                if let TyKind::Infer(Infer::Var(w)) = x.kind()
                    && *w == root
                {
                    found = true;
                }
                None
            },
            &mut |c| c.clone(),
        );
        found
    }

    /// Makes two types equal, or says they cannot be.
    pub fn unify(&mut self, a: &Ty, b: &Ty) -> Result<(), Mismatch> {
        let (a, b) = (self.shallow(a), self.shallow(b));
        if a == b {
            return Ok(());
        }
        match (a.kind(), b.kind()) {
            (TyKind::Error, _) | (_, TyKind::Error) => Ok(()),
            (TyKind::Infer(Infer::Var(x)), TyKind::Infer(Infer::Var(y))) => {
                self.tys.union(TyVid(*x), TyVid(*y));
                Ok(())
            }
            (TyKind::Infer(Infer::Var(x)), _) => self.bind(*x, &b),
            (_, TyKind::Infer(Infer::Var(y))) => self.bind(*y, &a),
            (TyKind::Infer(Infer::Int(x)), TyKind::Infer(Infer::Int(y))) => {
                self.ints.union(IntVid(*x), IntVid(*y));
                Ok(())
            }
            (TyKind::Infer(Infer::Float(x)), TyKind::Infer(Infer::Float(y))) => {
                self.floats.union(FloatVid(*x), FloatVid(*y));
                Ok(())
            }
            (TyKind::Infer(Infer::Int(x)), TyKind::Int(t))
            | (TyKind::Int(t), TyKind::Infer(Infer::Int(x))) => {
                self.ints.union_value(IntVid(*x), Some(Known(*t)));
                Ok(())
            }
            (TyKind::Infer(Infer::Float(x)), TyKind::Float(t))
            | (TyKind::Float(t), TyKind::Infer(Infer::Float(x))) => {
                self.floats.union_value(FloatVid(*x), Some(Known(*t)));
                Ok(())
            }
            (TyKind::Tuple(x), TyKind::Tuple(y)) if x.len() == y.len() => {
                for (p, q) in x.iter().zip(y) {
                    self.unify(p, q)?;
                }
                Ok(())
            }
            (TyKind::Array(x, n), TyKind::Array(y, m)) => {
                self.unify(x, y)?;
                self.unify_const(n, m)
            }
            (TyKind::Slice(x), TyKind::Slice(y)) => self.unify(x, y),
            (TyKind::Ref(x, m), TyKind::Ref(y, n)) | (TyKind::Ptr(x, m), TyKind::Ptr(y, n))
                if m == n =>
            {
                self.unify(x, y)
            }
            (TyKind::Adt(d, x), TyKind::Adt(e, y)) | (TyKind::FnDef(d, x), TyKind::FnDef(e, y))
                if d == e =>
            {
                self.unify_args(x, y)
            }
            (TyKind::Projection(p), TyKind::Projection(q)) if p.assoc == q.assoc => {
                self.unify_args(&p.args, &q.args)
            }
            _ => Err(Mismatch),
        }
    }

    pub fn unify_args(&mut self, x: &[GenericArg], y: &[GenericArg]) -> Result<(), Mismatch> {
        if x.len() != y.len() {
            return Err(Mismatch);
        }
        for (p, q) in x.iter().zip(y) {
            match (p, q) {
                (GenericArg::Ty(a), GenericArg::Ty(b)) => self.unify(a, b)?,
                (GenericArg::Const(a), GenericArg::Const(b)) => self.unify_const(a, b)?,
                _ => return Err(Mismatch),
            }
        }
        Ok(())
    }

    pub fn unify_const(&mut self, a: &Const, b: &Const) -> Result<(), Mismatch> {
        let (a, b) = (self.resolve_const(a), self.resolve_const(b));
        match (&a, &b) {
            (Const::Error, _) | (_, Const::Error) => Ok(()),
            (Const::Infer(x), Const::Infer(y)) => {
                self.consts.union(ConstVid(*x), ConstVid(*y));
                Ok(())
            }
            (Const::Infer(x), Const::Value(v)) | (Const::Value(v), Const::Infer(x)) => {
                self.consts.union_value(ConstVid(*x), Some(Known(*v)));
                Ok(())
            }
            _ if a == b => Ok(()),
            _ => Err(Mismatch),
        }
    }

    fn bind(&mut self, v: u32, ty: &Ty) -> Result<(), Mismatch> {
        if self.occurs(v, ty) {
            return Err(Mismatch);
        }
        self.tys.union_value(TyVid(v), Some(TyValue(ty.clone())));
        Ok(())
    }

    /// Gives unresolved `{integer}` variables `i32` and `{float}` variables `f64`, rustc's
    /// fallback. Returns whether any variable was defaulted.
    pub fn default_numeric(&mut self, ty: &Ty) -> bool {
        let t = self.resolve(ty);
        let mut changed = false;
        let mut vars = Vec::new();
        t.fold(
            &mut |x| {
                if let TyKind::Infer(i @ (Infer::Int(_) | Infer::Float(_))) = x.kind() {
                    vars.push(*i);
                }
                None
            },
            &mut |c| c.clone(),
        );
        for v in vars {
            match v {
                Infer::Int(x) if self.ints.probe_value(IntVid(x)).is_none() => {
                    self.ints.union_value(IntVid(x), Some(Known(IntTy::I32)));
                    changed = true;
                }
                Infer::Float(x) if self.floats.probe_value(FloatVid(x)).is_none() => {
                    self.floats.union_value(FloatVid(x), Some(Known(FloatTy::F64)));
                    changed = true;
                }
                _ => {}
            }
        }
        changed
    }
}
