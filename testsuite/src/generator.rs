//! A random kernel generator in the spirit of Csmith: well-typed kernels in rkc's subset whose
//! bodies are also plain Rust, so that rustc gives the reference result. Every value is
//! defined (no division by zero, no out-of-bounds index: divisors are `(x & 15) + 1` and
//! indices are reduced modulo the slice length); integer overflow wraps as in a release build,
//! which is rkc's semantics too. Floats use only IEEE operations (no library functions), so
//! results are exact on every backend. Kernels read slices, read and write through raw
//! pointers to slice elements, and exchange values through shared memory across a barrier
//! (race free: each thread writes its own element); a block is 64 threads.
//!
//! Besides scalars, kernels use the constructs of ordinary Rust, each item named after its
//! kernel (`VGenerated12`, `generated_12_apply`) so that a file holds many: `Option` (`get`
//! and `get_mut` with `if let`, `match` with guards, `unwrap_or`/`map`/`map_or`/`filter`/
//! `and_then`, `Option<&T>` locals, `let ... else` and `?` in a device function returning
//! `Option`); a `Clone, Copy` struct with `Add`/`Sub`/`Mul`/`Mul<T>`/`AddAssign`/`Neg` impls
//! and methods; a trait with a default method, implemented for a primitive and the struct
//! and called through generic functions bounded by it; a fieldless enum with discriminants
//! (and `as` casts, `==`, `matches!`) and an enum with data (`match` with bindings and
//! guards, `if let`, `matches!`, a `&self` method); closures capturing by reference and by
//! move, passed (also by reference) to an `F: Fn(u32) -> u32` helper, and `FnMut` ones
//! through `&mut`; iterator chains over slices, local arrays and ranges (`rev`, `skip`,
//! `take`, `step_by`, `filter`, `map`, `enumerate`, `zip`, ending in `fold`, `sum`,
//! `product`, `count`, `any`/`all`, `min`/`max` of integers, `position`, `last`) of at most
//! 16 items, so that masked sums stay in range, nested two deep at most; `for` loops binding
//! `&T`; references as values (`&mut` locals and array elements through a helper, a
//! function returning one of two references). A local is mutated only by the statement that
//! declares it, so that closures may borrow anything in scope.
//!
//! Used by build.rs (the kernels the differential test compiles with rustc and with rkc) and
//! by tools that write larger batches for the GPU.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ty {
    U32,
    I32,
    U64,
    I64,
    F32,
    F64,
    Bool,
}

impl Ty {
    const NUMERIC: [Ty; 6] = [Ty::U32, Ty::I32, Ty::U64, Ty::I64, Ty::F32, Ty::F64];

    fn name(self) -> &'static str {
        match self {
            Ty::U32 => "u32",
            Ty::I32 => "i32",
            Ty::U64 => "u64",
            Ty::I64 => "i64",
            Ty::F32 => "f32",
            Ty::F64 => "f64",
            Ty::Bool => "bool",
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64)
    }

    fn is_signed(self) -> bool {
        matches!(self, Ty::I32 | Ty::I64)
    }
}

/// xorshift64*: the same kernels for the same seed everywhere.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

/// The items a kernel may have besides its device function `h`, each named after the kernel
/// (so that one file holds many kernels): what expressions and statements may use.
#[derive(Default)]
struct Items {
    /// `struct V2 { x: T, y: T }` (`Clone, Copy`, no `repr(C)`) with `Add`, `Sub`, `Mul`,
    /// `Mul<T>`, `AddAssign`, `Neg` and methods: its name and `T`.
    v2: Option<(String, Ty)>,
    /// A trait with a method and a default method, implemented for a primitive (and for the
    /// struct when there is one), and generic functions bounded by it: the generic function
    /// `f<T: Tr>(v: T, k: u32) -> u32` (and `{f}_ref<T: Tr + Copy>(v: &T) -> u32`), the primitive.
    tr: Option<(String, Ty)>,
    /// A fieldless enum with discriminants and `from_bits(u32) -> Self`: its name and variants.
    fieldless: Option<(String, Vec<String>)>,
    /// An enum with data, `P(u32)`, `Q { a: i64, b: u32 }`, `R`, with `score(&self) -> u32`.
    data: Option<String>,
    /// `apply<F: Fn(u32) -> u32>(f: F, v: u32) -> u32` and `{apply}_each<F: FnMut(u32)>(n, f)`.
    apply: Option<String>,
    /// `bump(x: &mut u32, d: u32)` and `{bump}_pick<'a>(a: &'a u32, b: &'a u32, first: bool) -> &'a u32`.
    bump: Option<String>,
    /// `opt(xs: &[u32], ys: &[i64], a: u32) -> Option<u32>`, with `?` and `let ... else`.
    opt: Option<String>,
}

struct Gen<'r> {
    rng: &'r mut Rng,
    /// Variables in scope: name, type.
    vars: Vec<(String, Ty)>,
    n: usize,
    /// The kernel's device function, `h(a: u32, b: i64) -> u32`, when it has one.
    helper: Option<String>,
    /// Only the original grammar of scalars (for bodies that must not reach the items).
    plain: bool,
    items: Items,
    /// Slices in scope (parameters): name, element type.
    slices: Vec<(&'static str, Ty)>,
    /// Local arrays: name, element type, length.
    arrays: Vec<(String, Ty, usize)>,
    /// `Option` locals: name, payload type, whether the payload is a reference (`Option<&T>`).
    options: Vec<(String, Ty, bool)>,
    /// Locals of the fieldless enum, of the data enum, of the struct, and closures
    /// `Fn(u32) -> u32`.
    enums: Vec<String>,
    datas: Vec<String>,
    structs: Vec<String>,
    closures: Vec<String>,
    /// How many iterator chains and loops the expression being written is inside: nested
    /// chains multiply their lengths, and the interpreter's time with them.
    nest: u32,
    /// Values computed from the locals above that reach the outputs (integers, floats).
    extra_ints: Vec<String>,
    extra_floats: Vec<String>,
}

impl Gen<'_> {
    fn fresh(&mut self, prefix: &str) -> String {
        self.n += 1;
        format!("{prefix}{}", self.n)
    }

    fn literal(&mut self, ty: Ty) -> String {
        let r = self.rng.next();
        match ty {
            Ty::U32 => {
                format!("{}u32", if r & 1 == 0 { r % 100 } else { (r >> 8) % (u32::MAX as u64) })
            }
            Ty::U64 => format!("{}u64", if r & 1 == 0 { r % 100 } else { r >> 1 }),
            Ty::I32 => format!("({}i32)", (r % 2001) as i64 - 1000),
            Ty::I64 => format!(
                "({}i64)",
                if r & 1 == 0 { (r % 201) as i64 - 100 } else { (r >> 2) as i64 - (1 << 60) }
            ),
            Ty::F32 => format!("({:.3}f32)", ((r % 20001) as f64 - 10000.0) / 1000.0),
            Ty::F64 => format!("({:.6}f64)", ((r % 2_000_001) as f64 - 1_000_000.0) / 10000.0),
            Ty::Bool => (r & 1 == 0).to_string(),
        }
    }

    fn leaf(&mut self, ty: Ty) -> String {
        let candidates: Vec<String> =
            self.vars.iter().filter(|(_, t)| *t == ty).map(|(n, _)| n.clone()).collect();
        if !candidates.is_empty() && self.rng.chance(75) {
            return candidates[self.rng.below(candidates.len() as u64) as usize].clone();
        }
        self.literal(ty)
    }

    fn expr(&mut self, ty: Ty, depth: u32) -> String {
        if depth == 0 || self.rng.chance(25) {
            return self.leaf(ty);
        }
        let d = depth - 1;
        if !self.plain
            && self.rng.chance(22)
            && let Some(e) = self.feature_expr(ty, d)
        {
            return e;
        }
        match ty {
            Ty::Bool => match self.rng.below(4) {
                0 => {
                    let t = self.rng.pick(&Ty::NUMERIC);
                    let op = self.rng.pick(&["<", "<=", ">", ">=", "==", "!="]);
                    format!("({} {op} {})", self.expr(t, d), self.expr(t, d))
                }
                1 => format!("(!{})", self.expr(Ty::Bool, d)),
                2 => format!("({} && {})", self.expr(Ty::Bool, d), self.expr(Ty::Bool, d)),
                _ => format!("({} || {})", self.expr(Ty::Bool, d), self.expr(Ty::Bool, d)),
            },
            t if t.is_float() => match self.rng.below(9) {
                0..=2 => {
                    let op = self.rng.pick(&["+", "-", "*", "/"]);
                    format!("({} {op} {})", self.expr(t, d), self.expr(t, d))
                }
                3 => format!("{}.abs().sqrt()", self.wrap(t, d)),
                4 => {
                    format!("{}.mul_add({}, {})", self.wrap(t, d), self.expr(t, d), self.expr(t, d))
                }
                5 => format!(
                    "{}.{}({})",
                    self.wrap(t, d),
                    self.rng.pick(&["min", "max"]),
                    self.expr(t, d)
                ),
                6 => format!(
                    "{}.{}()",
                    self.wrap(t, d),
                    self.rng.pick(&["floor", "ceil", "trunc", "abs"])
                ),
                7 => self.cast(t, d),
                _ => self.if_expr(t, d),
            },
            t => match self.rng.below(13) {
                0..=3 => {
                    let op = self.rng.pick(&["+", "-", "*", "&", "|", "^"]);
                    format!("({} {op} {})", self.expr(t, d), self.expr(t, d))
                }
                4 => {
                    let op = self.rng.pick(&["/", "%"]);
                    format!("({} {op} (({} & 15) + 1))", self.expr(t, d), self.expr(t, d))
                }
                5 => {
                    let op = self.rng.pick(&["<<", ">>"]);
                    format!("({} {op} ({} as u32))", self.expr(t, d), self.expr(Ty::U32, d))
                }
                6 => format!(
                    "{}.{}({})",
                    self.wrap(t, d),
                    self.rng.pick(&["wrapping_mul", "wrapping_sub", "min", "max"]),
                    self.expr(t, d)
                ),
                7 => format!(
                    "({}.{}() as {})",
                    self.wrap(t, d),
                    self.rng.pick(&["count_ones", "leading_zeros", "trailing_zeros"]),
                    t.name()
                ),
                8 => format!("{}.rotate_left({} as u32)", self.wrap(t, d), self.expr(Ty::U32, d)),
                9 => self.cast(t, d),
                10 => self.match_expr(t, d),
                11 if self.helper.is_some() && t == Ty::U32 => {
                    format!(
                        "{}({}, {})",
                        self.helper.clone().unwrap_or_default(),
                        self.expr(Ty::U32, d),
                        self.expr(Ty::I64, d)
                    )
                }
                11 if t.is_signed() => format!("{}.wrapping_abs()", self.wrap(t, d)),
                _ => self.if_expr(t, d),
            },
        }
    }

    /// An expression that can take a method call: a variable, or a parenthesised one.
    fn wrap(&mut self, ty: Ty, depth: u32) -> String {
        let e = self.expr(ty, depth);
        if e.starts_with('(') || e.chars().all(|c| c.is_alphanumeric() || c == '_') {
            e
        } else {
            format!("({e})")
        }
    }

    fn cast(&mut self, to: Ty, depth: u32) -> String {
        let from = if self.rng.chance(15) { Ty::Bool } else { self.rng.pick(&Ty::NUMERIC) };
        if from == Ty::Bool && to.is_float() {
            return format!("(({} as u32) as {})", self.expr(Ty::Bool, depth), to.name());
        }
        format!("({} as {})", self.expr(from, depth), to.name())
    }

    fn if_expr(&mut self, ty: Ty, depth: u32) -> String {
        format!(
            "(if {} {{ {} }} else {{ {} }})",
            self.expr(Ty::Bool, depth),
            self.expr(ty, depth),
            self.expr(ty, depth)
        )
    }

    fn match_expr(&mut self, ty: Ty, depth: u32) -> String {
        let scrutinee = self.wrap(ty, depth);
        let (a, b) = (self.rng.below(10), self.rng.below(10) + 10);
        let n = ty.name();
        format!(
            "(match {scrutinee} {{ {a}{n} => {}, {}{n}..={b}{n} => {}, _ => {} }})",
            self.expr(ty, depth),
            a + 1,
            self.expr(ty, depth),
            self.expr(ty, depth)
        )
    }

    /// Statements: lets, and mutable accumulators updated in bounded loops and branches.
    fn statements(&mut self, out: &mut String, count: usize) {
        for _ in 0..count {
            let ty =
                self.rng.pick(&[Ty::U32, Ty::I32, Ty::U64, Ty::I64, Ty::F32, Ty::F64, Ty::Bool]);
            if self.rng.chance(12) {
                self.shared_exchange(out);
                continue;
            }
            if !self.plain && self.rng.chance(45) {
                self.feature_statement(out);
                continue;
            }
            if self.rng.chance(10) {
                // A read through a raw pointer to a slice element.
                let k = self.expr(Ty::U32, 2);
                let (p, v) = (self.fresh("p"), self.fresh("v"));
                out.push_str(&format!(
                    "        let {p} = &ys[({k} as usize) % ys.len()] as *const i64;\n"
                ));
                out.push_str(&format!("        // SAFETY: {p} points at an element of ys.\n        let {v}: i64 = unsafe {{ *{p} }};\n"));
                self.vars.push((v, Ty::I64));
                continue;
            }
            match self.rng.below(4) {
                0 | 1 => {
                    let e = self.expr(ty, 3);
                    let name = self.fresh("v");
                    out.push_str(&format!("        let {name}: {} = {e};\n", ty.name()));
                    self.vars.push((name, ty));
                }
                2 if ty != Ty::Bool => {
                    let init = self.expr(ty, 2);
                    let acc = self.fresh("acc");
                    let k = self.fresh("k");
                    let bound = self.rng.below(6) + 1;
                    out.push_str(&format!("        let mut {acc}: {} = {init};\n", ty.name()));
                    let use_for = self.rng.chance(50);
                    if use_for {
                        out.push_str(&format!("        for {k} in 0..{bound}u32 {{\n"));
                    } else {
                        out.push_str(&format!(
                            "        let mut {k} = 0u32;\n        while {k} < {bound} {{\n"
                        ));
                    }
                    self.vars.push((k.clone(), Ty::U32));
                    let step = self.expr(ty, 2);
                    let op = if ty.is_float() {
                        self.rng.pick(&["+", "-", "*"])
                    } else {
                        self.rng.pick(&["+", "^", "-"])
                    };
                    if ty.is_float() {
                        out.push_str(&format!("            {acc} = {acc} {op} {step};\n"));
                    } else {
                        let wrapping = match op {
                            "+" => format!("{acc}.wrapping_add({step})"),
                            "-" => format!("{acc}.wrapping_sub({step})"),
                            _ => format!("{acc} ^ {step}"),
                        };
                        out.push_str(&format!("            {acc} = {wrapping};\n"));
                    }
                    if !use_for {
                        out.push_str(&format!("            {k} += 1;\n"));
                    }
                    out.push_str("        }\n");
                    self.vars.retain(|(n, _)| *n != k);
                    self.vars.push((acc, ty));
                }
                _ => {
                    let name = self.fresh("m");
                    let init = self.expr(ty, 2);
                    out.push_str(&format!("        let mut {name}: {} = {init};\n", ty.name()));
                    let (c, a, b) = (self.expr(Ty::Bool, 2), self.expr(ty, 2), self.expr(ty, 2));
                    out.push_str(&format!("        if {c} {{\n            {name} = {a};\n        }} else {{\n            {name} = {b};\n        }}\n"));
                    self.vars.push((name, ty));
                }
            }
        }
    }
}

impl Gen<'_> {
    /// Threads exchange values through shared memory, race free: each writes its own element,
    /// all wait at a barrier, each reads a neighbour's. Only at the kernel's top level, where
    /// every thread of the block (64, one per element) arrives.
    fn shared_exchange(&mut self, out: &mut String) {
        let ty = self.rng.pick(&[Ty::U32, Ty::I64, Ty::F32, Ty::F64]);
        let value = self.expr(ty, 2);
        let offset = self.rng.below(64);
        let (s, v) = (self.fresh("s"), self.fresh("v"));
        let n = ty.name();
        out.push_str(&format!(
            "        // SAFETY: thread t writes element t of the block's array and reads another only after the barrier.\n        \
             let {s} = unsafe {{ shared_array::<{n}, 64>() }};\n        unsafe {{ (*{s})[(t as usize) % 64] = {value} }};\n        \
             unsafe {{ sync_threads() }};\n        let {v}: {n} = unsafe {{ (*{s})[((t as usize) + {offset}) % 64] }};\n"
        ));
        self.vars.push((v, ty));
    }
}

/// The constructs of ordinary Rust beyond scalars: `Option`, structs with operator impls, a
/// trait over a generic function, enums, closures, iterator chains and references. Each
/// expression here yields a scalar of some type, converted to the one asked for.
impl Gen<'_> {
    /// Runs `f` with `name: ty` in scope (a binding of a pattern or a closure parameter).
    fn with_var<R>(&mut self, name: &str, ty: Ty, f: impl FnOnce(&mut Self) -> R) -> R {
        self.with_vars(&[(name, ty)], f)
    }

    fn with_vars<R>(&mut self, vars: &[(&str, Ty)], f: impl FnOnce(&mut Self) -> R) -> R {
        let before = self.vars.len();
        self.vars.extend(vars.iter().map(|(n, t)| (n.to_string(), *t)));
        let r = f(self);
        self.vars.truncate(before);
        r
    }

    /// `e` (of type `from`) as a `to`: a cast, or a comparison for `bool`.
    fn conv(&mut self, e: String, from: Ty, to: Ty) -> String {
        if from == to {
            e
        } else if to == Ty::Bool {
            let l = self.literal(from);
            let op = self.rng.pick(&["<", ">", "!=", ">="]);
            format!("({e} {op} {l})")
        } else if from == Ty::Bool && to.is_float() {
            format!("(({e} as u32) as {})", to.name())
        } else {
            format!("({e} as {})", to.name())
        }
    }

    /// The numeric type to compute in for a value of type `ty`: `ty` itself mostly.
    fn numeric_for(&mut self, ty: Ty) -> Ty {
        if ty != Ty::Bool && self.rng.chance(70) {
            ty
        } else {
            self.rng.pick(&[Ty::U32, Ty::I64, Ty::F32, Ty::U32, Ty::I32])
        }
    }

    /// An integer type to compute in for a value of type `ty`.
    fn int_for(&mut self, ty: Ty) -> Ty {
        if ty != Ty::Bool && !ty.is_float() && self.rng.chance(70) {
            ty
        } else {
            self.rng.pick(&[Ty::U32, Ty::I64, Ty::U64, Ty::I32])
        }
    }

    /// A closure parameter list, annotated or not: `pat` binds a value of type `ty`.
    fn param(&mut self, pat: &str, ty: &str) -> String {
        if self.rng.chance(30) { format!("{pat}: {ty}") } else { pat.to_string() }
    }

    fn feature_expr(&mut self, ty: Ty, d: u32) -> Option<String> {
        let mut kinds = Vec::new();
        if !self.slices.is_empty() || !self.arrays.is_empty() {
            kinds.push(0);
        }
        if self.nest < 2 {
            kinds.extend([1, 1, 1]);
        }
        if !self.options.is_empty() {
            kinds.extend([2, 2]);
        }
        if self.items.opt.is_some() {
            kinds.push(3);
        }
        if self.items.v2.is_some() {
            kinds.push(4);
        }
        if self.items.tr.is_some() {
            kinds.push(5);
        }
        if self.items.fieldless.is_some() {
            kinds.push(6);
        }
        if self.items.data.is_some() {
            kinds.push(7);
        }
        if self.items.apply.is_some() || !self.closures.is_empty() {
            kinds.push(8);
        }
        if self.items.bump.is_some() && ty != Ty::Bool {
            kinds.push(9);
        }
        let (e, from) = match self.rng.pick(&kinds) {
            0 => self.get_expr(ty, d),
            1 => self.iter_expr(ty, d),
            2 => self.option_expr(ty, d),
            3 => self.opt_call(ty, d),
            4 => self.v2_scalar(ty, d),
            5 => self.trait_call(d),
            6 => self.fieldless_expr(ty, d),
            7 => self.data_expr(ty, d),
            8 => self.closure_expr(d),
            _ => self.pick_expr(d),
        };
        Some(self.conv(e, from, ty))
    }

    /// A slice parameter or a local array, for `get` and iterators: its text, element type
    /// and length.
    fn source(&mut self) -> Option<(String, Ty, String)> {
        let mut all: Vec<(String, Ty, String)> =
            self.slices.iter().map(|(n, t)| (n.to_string(), *t, format!("{n}.len()"))).collect();
        all.extend(self.arrays.iter().map(|(n, t, len)| (n.clone(), *t, len.to_string())));
        if all.is_empty() {
            return None;
        }
        Some(all.swap_remove(self.rng.below(all.len() as u64) as usize))
    }

    /// An index for `get`: sometimes past the end (`None`).
    fn get_index(&mut self, len: &str) -> String {
        let e = self.expr(Ty::U32, 1);
        format!("(({e} as usize) % ({len} + 3))")
    }

    /// `Option<&T>` from `get`: `copied`, `map`, `map_or`, `if let`, `match` with a guard.
    fn get_expr(&mut self, ty: Ty, d: u32) -> (String, Ty) {
        let Some((s, el, len)) = self.source() else { return (self.leaf(ty), ty) };
        let idx = self.get_index(&len);
        let got = format!("{s}.get({idx})");
        self.option_use(&got, el, true, ty, d)
    }

    /// Uses of an `Option<T>` (or `Option<&T>` when `by_ref`) given as `o`.
    fn option_use(&mut self, o: &str, el: Ty, by_ref: bool, ty: Ty, d: u32) -> (String, Ty) {
        let z = self.fresh("z");
        let (pat, val) = if by_ref { (format!("&{z}"), z.clone()) } else { (z.clone(), z.clone()) };
        let elty = if by_ref { format!("&{}", el.name()) } else { el.name().to_string() };
        if ty == Ty::Bool && self.rng.chance(60) {
            return match self.rng.below(4) {
                0 => (format!("{o}.is_some()"), Ty::Bool),
                1 => (format!("{o}.is_none()"), Ty::Bool),
                _ => {
                    let p = self.param(&pat, &elty);
                    let c = self.with_var(&val, el, |g| g.expr(Ty::Bool, d));
                    (format!("{o}.is_some_and(|{p}| {c})"), Ty::Bool)
                }
            };
        }
        let copied = if by_ref { format!("{o}.copied()") } else { o.to_string() };
        match self.rng.below(9) {
            0 => {
                let dflt = self.expr(el, d);
                (format!("{copied}.unwrap_or({dflt})"), el)
            }
            1 if !by_ref => (format!("{o}.unwrap_or_default()"), el),
            1 | 2 => {
                let m = self.numeric_for(ty);
                let p = self.param(&pat, &elty);
                let body = self.with_var(&val, el, |g| g.expr(m, d));
                let dflt = self.expr(m, d);
                (format!("{o}.map(|{p}| {body}).unwrap_or({dflt})"), m)
            }
            3 => {
                let m = self.numeric_for(ty);
                let dflt = self.expr(m, d);
                let p = self.param(&z, &elty);
                let v = if by_ref { format!("(*{z})") } else { z.clone() };
                let body = self.with_var(&v, el, |g| g.expr(m, d));
                (format!("{o}.map_or({dflt}, |{p}| {body})"), m)
            }
            4 => {
                let m = self.numeric_for(ty);
                let (a, b) = (self.with_var(&val, el, |g| g.expr(m, d)), self.expr(m, d));
                (format!("(if let Some({pat}) = {o} {{ {a} }} else {{ {b} }})"), m)
            }
            5 => {
                // `filter` sees `&T`.
                let f = self.fresh("z");
                let c = self.with_var(&format!("(*{f})"), el, |g| g.expr(Ty::Bool, d));
                let dflt = self.expr(el, d);
                (format!("{copied}.filter(|{f}| {c}).unwrap_or({dflt})"), el)
            }
            6 => {
                let m = self.numeric_for(ty);
                let p = self.param(&pat, &elty);
                let (c, a) = self.with_var(&val, el, |g| (g.expr(Ty::Bool, d), g.expr(m, d)));
                let dflt = self.expr(m, d);
                (
                    format!(
                        "{o}.and_then(|{p}| if {c} {{ Some({a}) }} else {{ None }}).unwrap_or({dflt})"
                    ),
                    m,
                )
            }
            _ => {
                // `match` with a guard, a binding of the reference itself, and `None`.
                let m = self.numeric_for(ty);
                let (c, a) = self.with_var(&val, el, |g| (g.expr(Ty::Bool, d), g.expr(m, d)));
                let w = self.fresh("z");
                let wv = if by_ref { format!("(*{w})") } else { w.clone() };
                let b = self.with_var(&wv, el, |g| g.expr(m, d));
                let none = self.expr(m, d);
                (
                    format!(
                        "(match {o} {{ Some({pat}) if {c} => {a}, Some({w}) => {b}, None => {none} }})"
                    ),
                    m,
                )
            }
        }
    }

    fn option_expr(&mut self, ty: Ty, d: u32) -> (String, Ty) {
        let (o, el, by_ref) =
            self.options[self.rng.below(self.options.len() as u64) as usize].clone();
        self.option_use(&o, el, by_ref, ty, d)
    }

    fn opt_call(&mut self, ty: Ty, d: u32) -> (String, Ty) {
        let f = self.items.opt.clone().unwrap_or_default();
        let a = self.expr(Ty::U32, d);
        let call = format!("{f}(xs, ys, {a})");
        self.option_use(&call, Ty::U32, false, ty, d)
    }

    /// A value of the struct type.
    fn v2_expr(&mut self, d: u32) -> String {
        let (v, t) = self.items.v2.clone().unwrap_or_else(|| (String::new(), Ty::U32));
        let k = if d == 0 { self.rng.pick(&[0, 1, 7]) } else { self.rng.below(8) };
        let sub = d.saturating_sub(1);
        match k {
            0 => format!("{v}::new({}, {})", self.expr(t, sub), self.expr(t, sub)),
            1 => format!("({v} {{ x: {}, y: {} }})", self.expr(t, sub), self.expr(t, sub)),
            2 => format!("({} * {} + {})", self.v2_expr(sub), self.v2_expr(sub), self.v2_expr(sub)),
            3 => format!("({} - {})", self.v2_expr(sub), self.v2_expr(sub)),
            4 => format!("(-{})", self.v2_expr(sub)),
            5 => format!("{}.swap()", self.v2_expr(sub)),
            6 => format!("({} * {})", self.v2_expr(sub), self.expr(t, sub)),
            _ if !self.structs.is_empty() => {
                self.structs[self.rng.below(self.structs.len() as u64) as usize].clone()
            }
            _ => format!("{v}::new({}, {})", self.expr(t, sub), self.expr(t, sub)),
        }
    }

    fn v2_scalar(&mut self, _ty: Ty, d: u32) -> (String, Ty) {
        let t = self.items.v2.as_ref().map_or(Ty::U32, |v| v.1);
        match self.rng.below(4) {
            0 => (format!("{}.dot({})", self.v2_expr(d), self.v2_expr(d)), t),
            1 => (format!("{}.x", self.v2_expr(d)), t),
            2 => (format!("{}.y", self.v2_expr(d)), t),
            _ => (format!("{}.sum()", self.v2_expr(d)), t),
        }
    }

    fn trait_call(&mut self, d: u32) -> (String, Ty) {
        let (f, p) = self.items.tr.clone().unwrap_or((String::new(), Ty::U32));
        let on_struct = self.items.v2.is_some() && self.rng.chance(40);
        let v = if on_struct { self.v2_expr(d) } else { self.expr(p, d) };
        match self.rng.below(4) {
            0 | 1 => (format!("{f}({v}, {})", self.expr(Ty::U32, d)), Ty::U32),
            2 => (format!("{f}_ref(&{v})"), Ty::U32),
            _ => {
                let v = if v.starts_with('(') || v.chars().all(|c| c.is_alphanumeric() || c == '_')
                {
                    v
                } else {
                    format!("({v})")
                };
                (
                    format!("{v}.mix_{}({})", f.trim_end_matches("_tr"), self.expr(Ty::U32, d)),
                    Ty::U32,
                )
            }
        }
    }

    fn fieldless_value(&mut self, d: u32) -> String {
        let (e, variants) = self.items.fieldless.clone().unwrap_or_default();
        match self.rng.below(5) {
            0 if !self.enums.is_empty() => {
                self.enums[self.rng.below(self.enums.len() as u64) as usize].clone()
            }
            0 | 1 => format!(
                "{e}::{}",
                self.rng.pick(&variants.iter().map(String::as_str).collect::<Vec<_>>())
            ),
            2 => format!(
                "(if {} {{ {e}::{} }} else {{ {e}::{} }})",
                self.expr(Ty::Bool, d),
                variants[0],
                variants[variants.len() - 1]
            ),
            _ => format!("{e}::from_bits({})", self.expr(Ty::U32, d)),
        }
    }

    fn fieldless_expr(&mut self, ty: Ty, d: u32) -> (String, Ty) {
        let (e, variants) = self.items.fieldless.clone().unwrap_or_default();
        let v = self.fieldless_value(d);
        match self.rng.below(5) {
            0 | 1 => {
                let t = self.int_for(ty);
                (format!("({v} as {})", t.name()), t)
            }
            2 if ty == Ty::Bool => {
                let other = self.fieldless_value(d);
                (format!("({v} {} {other})", self.rng.pick(&["==", "!="])), Ty::Bool)
            }
            2 => {
                let (a, b) =
                    (&variants[self.rng.below(variants.len() as u64) as usize], &variants[0]);
                (format!("matches!({v}, {e}::{a} | {e}::{b})"), Ty::Bool)
            }
            _ => {
                let m = self.numeric_for(ty);
                let mut arms = String::new();
                let first = &variants[self.rng.below(variants.len() as u64) as usize];
                let c = self.expr(Ty::Bool, d);
                arms.push_str(&format!("{e}::{first} if {c} => {}, ", self.expr(m, d)));
                for w in &variants[..variants.len() - 1] {
                    arms.push_str(&format!("{e}::{w} => {}, ", self.expr(m, d)));
                }
                arms.push_str(&format!("_ => {}", self.expr(m, d)));
                (format!("(match {v} {{ {arms} }})"), m)
            }
        }
    }

    fn data_value(&mut self, d: u32) -> String {
        let e = self.items.data.clone().unwrap_or_default();
        match self.rng.below(5) {
            0 if !self.datas.is_empty() => {
                self.datas[self.rng.below(self.datas.len() as u64) as usize].clone()
            }
            0 | 1 => format!("{e}::P({})", self.expr(Ty::U32, d)),
            2 => {
                format!("({e}::Q {{ a: {}, b: {} }})", self.expr(Ty::I64, d), self.expr(Ty::U32, d))
            }
            3 => format!("{e}::R"),
            _ => format!(
                "(if {} {{ {e}::P({}) }} else {{ {e}::R }})",
                self.expr(Ty::Bool, d),
                self.expr(Ty::U32, d)
            ),
        }
    }

    fn data_expr(&mut self, ty: Ty, d: u32) -> (String, Ty) {
        let e = self.items.data.clone().unwrap_or_default();
        let v = self.data_value(d);
        let (z, w) = (self.fresh("z"), self.fresh("z"));
        match self.rng.below(6) {
            0 => (format!("{v}.score()"), Ty::U32),
            1 => {
                let c = self.with_var(&z, Ty::U32, |g| g.expr(Ty::Bool, d));
                (format!("matches!({v}, {e}::P({z}) if {c})"), Ty::Bool)
            }
            2 => (format!("matches!({v}, {e}::Q {{ .. }} | {e}::R)"), Ty::Bool),
            3 => {
                let m = self.numeric_for(ty);
                let a = self.with_var(&z, Ty::U32, |g| g.expr(m, d));
                let b = self.expr(m, d);
                (format!("(if let {e}::P({z}) = {v} {{ {a} }} else {{ {b} }})"), m)
            }
            4 => {
                let m = self.numeric_for(ty);
                let a = self.with_var(&w, Ty::U32, |g| g.expr(m, d));
                let b = self.expr(m, d);
                (format!("(match {v} {{ {e}::Q {{ b: {w}, .. }} => {a}, _ => {b} }})"), m)
            }
            _ => {
                let m = self.numeric_for(ty);
                let (c, a, b) = self
                    .with_var(&z, Ty::U32, |g| (g.expr(Ty::Bool, d), g.expr(m, d), g.expr(m, d)));
                let q = self.with_vars(&[(&z, Ty::I64), (&w, Ty::U32)], |g| g.expr(m, d));
                let r = self.expr(m, d);
                (
                    format!(
                        "(match {v} {{ {e}::P({z}) if {c} => {a}, {e}::P({z}) => {b}, {e}::Q {{ a: {z}, b: {w} }} => {q}, {e}::R => {r} }})"
                    ),
                    m,
                )
            }
        }
    }

    /// A closure `Fn(u32) -> u32` as an argument: written in place (capturing by reference or
    /// by move) or a local one.
    fn closure_arg(&mut self, d: u32) -> String {
        if !self.closures.is_empty() && self.rng.chance(50) {
            let c = self.closures[self.rng.below(self.closures.len() as u64) as usize].clone();
            return if self.rng.chance(30) { format!("&{c}") } else { c };
        }
        let z = self.fresh("z");
        let body = self.with_var(&z, Ty::U32, |g| g.expr(Ty::U32, d));
        let mv = if self.rng.chance(40) { "move " } else { "" };
        let p = self.param(&z, "u32");
        format!("{mv}|{p}| {body}")
    }

    fn closure_expr(&mut self, d: u32) -> (String, Ty) {
        let apply = self.items.apply.clone();
        match apply {
            Some(f) if self.closures.is_empty() || self.rng.chance(60) => {
                let c = self.closure_arg(d);
                (format!("{f}({c}, {})", self.expr(Ty::U32, d)), Ty::U32)
            }
            _ => {
                let c = self.closures[self.rng.below(self.closures.len() as u64) as usize].clone();
                (format!("{c}({})", self.expr(Ty::U32, d)), Ty::U32)
            }
        }
    }

    /// A reference chosen by a function with a lifetime: `*pick(&a, &xs[k], c)`.
    fn pick_expr(&mut self, d: u32) -> (String, Ty) {
        let f = self.items.bump.clone().unwrap_or_default();
        let a = self.expr(Ty::U32, d);
        let b = match self.source() {
            Some((s, Ty::U32, len)) => {
                format!("&{s}[({} as usize) % {len}]", self.expr(Ty::U32, d))
            }
            _ => format!("&{}", self.expr(Ty::U32, d)),
        };
        (format!("(*{f}_pick(&{a}, {b}, {}))", self.expr(Ty::Bool, d)), Ty::U32)
    }

    /// An iterator over a slice, an array or a range, with adapters: its text, item type and
    /// whether items are references. At most 16 items, so that sums stay in range.
    fn iter_source(&mut self, d: u32) -> (String, Ty, bool) {
        let src = if self.rng.chance(70) { self.source() } else { None };
        let Some((s, el, len)) = src else {
            let lo = self.rng.below(5);
            let mut it = match self.rng.below(3) {
                0 => format!("({lo}u32..{})", lo + self.rng.below(12)),
                1 => format!("({lo}u32..={})", lo + self.rng.below(12)),
                _ => format!("(0..(({} & 15) + 1))", self.expr(Ty::U32, d.min(1))),
            };
            if self.rng.chance(25) {
                it.push_str(".rev()");
            }
            if self.rng.chance(20) {
                it.push_str(&format!(".step_by({})", self.rng.below(3) + 1));
            }
            return (it, Ty::U32, false);
        };
        let mut it = if len.parse::<usize>().is_err() && self.rng.chance(25) {
            // A subslice starting inside the slice.
            format!("{s}[(({} as usize) % {len})..].iter()", self.expr(Ty::U32, d.min(1)))
        } else {
            format!("{s}.iter()")
        };
        if self.rng.chance(25) {
            it.push_str(".rev()");
        }
        if self.rng.chance(30) {
            it.push_str(&format!(".skip({})", self.rng.below(5)));
        }
        it.push_str(&format!(".take({})", self.rng.below(12) + 1));
        (it, el, true)
    }

    /// An iterator chain ending in a fold, sum, count, `any`/`all`, `min`/`max`, `position` or `last`.
    fn iter_expr(&mut self, ty: Ty, d: u32) -> (String, Ty) {
        self.nest += 1;
        let r = self.iter_chain(ty, d);
        self.nest -= 1;
        r
    }

    fn iter_chain(&mut self, ty: Ty, d: u32) -> (String, Ty) {
        let (mut it, mut el, mut by_ref) = self.iter_source(d);
        // A filter sees `&Item`.
        if self.rng.chance(25) {
            let z = self.fresh("z");
            let v = if by_ref { format!("(**{z})") } else { format!("(*{z})") };
            let c = self.with_var(&v, el, |g| g.expr(Ty::Bool, d));
            it.push_str(&format!(".filter(|{z}| {c})"));
        }
        match self.rng.below(5) {
            0 | 1 => {
                let m = self.numeric_for(ty);
                let z = self.fresh("z");
                let (pat, pty) = if by_ref {
                    (format!("&{z}"), format!("&{}", el.name()))
                } else {
                    (z.clone(), el.name().to_string())
                };
                let p = self.param(&pat, &pty);
                let body = self.with_var(&z, el, |g| g.expr(m, d));
                it.push_str(&format!(".map(|{p}| {body})"));
                (el, by_ref) = (m, false);
            }
            2 => {
                let m = self.numeric_for(ty);
                let (z, j) = (self.fresh("z"), self.fresh("j"));
                let pat = if by_ref { format!("&{z}") } else { z.clone() };
                let jv = format!("({j} as u32)");
                let body = self.with_vars(&[(&z, el), (&jv, Ty::U32)], |g| g.expr(m, d));
                it.push_str(&format!(".enumerate().map(|({j}, {pat})| {body})"));
                (el, by_ref) = (m, false);
            }
            3 => {
                let m = self.numeric_for(ty);
                let (other, el2, ref2) = self.iter_source(d);
                let (a, b) = (self.fresh("z"), self.fresh("z"));
                let pa = if by_ref { format!("&{a}") } else { a.clone() };
                let pb = if ref2 { format!("&{b}") } else { b.clone() };
                let body = self.with_vars(&[(&a, el), (&b, el2)], |g| g.expr(m, d));
                it.push_str(&format!(".zip({other}).map(|({pa}, {pb})| {body})"));
                (el, by_ref) = (m, false);
            }
            _ => {}
        }
        if by_ref && self.rng.chance(50) {
            it.push_str(".copied()");
            by_ref = false;
        }
        let z = self.fresh("z");
        let (pat, zty) = if by_ref {
            (format!("&{z}"), format!("&{}", el.name()))
        } else {
            (z.clone(), el.name().to_string())
        };
        if ty == Ty::Bool && self.rng.chance(60) {
            let c = self.with_var(&z, el, |g| g.expr(Ty::Bool, d));
            let p = self.param(&pat, &zty);
            return (format!("{it}.{}(|{p}| {c})", self.rng.pick(&["any", "all"])), Ty::Bool);
        }
        let copied = if by_ref { ".copied()" } else { "" };
        match self.rng.below(8) {
            0 | 1 => {
                let acc = self.fresh("acc");
                let init = self.expr(el, d);
                let step = self.with_vars(&[(&acc, el), (&z, el)], |g| g.expr(el, d));
                let combine = if el.is_float() {
                    format!("{acc} + {step}")
                } else {
                    format!(
                        "{acc}.{}({step})",
                        self.rng.pick(&["wrapping_add", "wrapping_mul", "wrapping_sub"])
                    )
                };
                let a = self.param(&acc, el.name());
                (format!("{it}.fold({init}, |{a}, {pat}| {combine})"), el)
            }
            2 => {
                if el.is_float() {
                    (format!("{it}{copied}.sum::<{}>()", el.name()), el)
                } else {
                    (format!("{it}{copied}.map(|{z}| {z} & 0xffff).sum::<{}>()", el.name()), el)
                }
            }
            3 if !el.is_float() => {
                (format!("{it}{copied}.map(|{z}| ({z} & 1) + 1).product::<{}>()", el.name()), el)
            }
            3 | 4 => {
                let c = self.with_var(&format!("(*{z})"), el, |g| g.expr(Ty::Bool, d));
                (format!("({it}{copied}.filter(|{z}| {c}).count() as u32)"), Ty::U32)
            }
            5 if !el.is_float() => {
                let dflt = self.expr(el, d);
                (format!("{it}{copied}.{}().unwrap_or({dflt})", self.rng.pick(&["min", "max"])), el)
            }
            5 | 6 => {
                let c = self.with_var(&z, el, |g| g.expr(Ty::Bool, d));
                let p = self.param(&pat, &zty);
                let dflt = self.expr(Ty::U32, d);
                (format!("{it}.position(|{p}| {c}).map_or({dflt}, |p| p as u32)"), Ty::U32)
            }
            _ => {
                let dflt = self.expr(el, d);
                (format!("{it}{copied}.last().unwrap_or({dflt})"), el)
            }
        }
    }
}

impl Gen<'_> {
    /// A statement of the constructs above: locals of their types (tracked for later
    /// expressions), loops over iterators, `let ... else`, `&mut` through helpers.
    fn feature_statement(&mut self, out: &mut String) {
        let mut kinds = vec![0, 1, 2, 3, 3];
        if self.items.v2.is_some() {
            kinds.push(4);
        }
        if self.items.fieldless.is_some() {
            kinds.push(5);
        }
        if self.items.data.is_some() {
            kinds.push(6);
        }
        if self.items.bump.is_some() {
            kinds.push(7);
        }
        if self.items.opt.is_some() {
            kinds.push(8);
        }
        match self.rng.pick(&kinds) {
            0 => self.array_statement(out),
            1 => self.option_statement(out),
            2 => self.closure_statement(out),
            3 => self.for_statement(out),
            4 => {
                let (v, t) = self.items.v2.clone().unwrap_or_else(|| (String::new(), Ty::U32));
                let p = self.fresh("p");
                let init = self.v2_expr(2);
                out.push_str(&format!("        let mut {p}: {v} = {init};\n"));
                if self.rng.chance(50) {
                    out.push_str(&format!("        {p} += {};\n", self.v2_expr(1)));
                }
                if self.rng.chance(40) {
                    out.push_str(&format!("        {p}.bump({});\n", self.expr(t, 2)));
                }
                if self.rng.chance(30) {
                    out.push_str(&format!("        {p}.x = {};\n", self.expr(t, 2)));
                }
                self.vars.push((format!("{p}.x"), t));
                self.vars.push((format!("{p}.y"), t));
                self.structs.push(p);
            }
            5 => {
                let (e, _) = self.items.fieldless.clone().unwrap_or_default();
                let name = self.fresh("e");
                let v = self.fieldless_value(2);
                out.push_str(&format!("        let {name}: {e} = {v};\n"));
                self.extra_ints.push(format!("({name} as u32)"));
                self.enums.push(name);
            }
            6 => {
                let e = self.items.data.clone().unwrap_or_default();
                let name = self.fresh("d");
                let v = self.data_value(2);
                out.push_str(&format!("        let {name}: {e} = {v};\n"));
                self.extra_ints.push(format!("{name}.score()"));
                self.datas.push(name);
            }
            7 => {
                // `&mut` to a local and to an array element, through a helper.
                let f = self.items.bump.clone().unwrap_or_default();
                let (w, dv) = (self.fresh("w"), self.fresh("v"));
                out.push_str(&format!("        let mut {w}: u32 = {};\n", self.expr(Ty::U32, 2)));
                out.push_str(&format!("        let {dv}: u32 = {};\n", self.expr(Ty::U32, 2)));
                out.push_str(&format!("        {f}(&mut {w}, {dv});\n"));
                if self.rng.chance(50) {
                    let m = self.fresh("r");
                    out.push_str(&format!("        let {m} = &mut {w};\n        *{m} = {m}.rotate_left({} & 31) ^ {dv};\n", self.expr(Ty::U32, 1)));
                }
                if self.rng.chance(50) {
                    let (a, n) = (self.fresh("a"), self.rng.below(4) + 2);
                    let elems: Vec<String> = (0..n).map(|_| self.expr(Ty::U32, 1)).collect();
                    out.push_str(&format!(
                        "        let mut {a}: [u32; {n}] = [{}];\n",
                        elems.join(", ")
                    ));
                    let k = self.expr(Ty::U32, 1);
                    out.push_str(&format!("        {f}(&mut {a}[({k} as usize) % {n}], {dv});\n"));
                    self.arrays.push((a.clone(), Ty::U32, n as usize));
                    self.extra_ints.push(format!("{a}[(t as usize) % {n}]"));
                }
                let r = self.fresh("r");
                out.push_str(&format!("        let {r}: &u32 = &{w};\n"));
                self.vars.push((w, Ty::U32));
                self.vars.push((format!("(*{r})"), Ty::U32));
            }
            _ => {
                let f = self.items.opt.clone().unwrap_or_default();
                let o = self.fresh("o");
                out.push_str(&format!(
                    "        let {o}: Option<u32> = {f}(xs, ys, {});\n",
                    self.expr(Ty::U32, 2)
                ));
                self.extra_ints.push(format!("{o}.unwrap_or(7)"));
                self.options.push((o, Ty::U32, false));
            }
        }
    }

    fn array_statement(&mut self, out: &mut String) {
        let t = self.rng.pick(&[Ty::U32, Ty::I64, Ty::F32, Ty::F64, Ty::I32, Ty::U64]);
        let n = self.rng.below(5) + 2;
        let a = self.fresh("a");
        let init = if self.rng.chance(20) {
            format!("[{}; {n}]", self.expr(t, 1))
        } else {
            let elems: Vec<String> = (0..n).map(|_| self.expr(t, 1)).collect();
            format!("[{}]", elems.join(", "))
        };
        if self.rng.chance(50) {
            // `get_mut` through `if let`.
            let s = self.fresh("s");
            out.push_str(&format!("        let mut {a}: [{}; {n}] = {init};\n", t.name()));
            let idx = self.get_index(&n.to_string());
            let v = self.expr(t, 2);
            let update =
                if t.is_float() { format!("*{s} * {v}") } else { format!("{s}.wrapping_add({v})") };
            out.push_str(&format!("        if let Some({s}) = {a}.get_mut({idx}) {{\n            *{s} = {update};\n        }}\n"));
        } else {
            out.push_str(&format!("        let {a}: [{}; {n}] = {init};\n", t.name()));
        }
        let k = self.rng.below(n);
        self.vars.push((format!("{a}[{k}]"), t));
        self.arrays.push((a, t, n as usize));
    }

    fn option_statement(&mut self, out: &mut String) {
        let o = self.fresh("o");
        let t = self.rng.pick(&[Ty::U32, Ty::I64, Ty::F32, Ty::I32, Ty::F64]);
        match self.rng.below(3) {
            0 => {
                let (c, v) = (self.expr(Ty::Bool, 2), self.expr(t, 2));
                out.push_str(&format!(
                    "        let {o}: Option<{}> = if {c} {{ Some({v}) }} else {{ None }};\n",
                    t.name()
                ));
                self.options.push((o.clone(), t, false));
            }
            1 if !self.slices.is_empty() => {
                let (s, el) = self.slices[self.rng.below(self.slices.len() as u64) as usize];
                let idx = self.get_index(&format!("{s}.len()"));
                out.push_str(&format!(
                    "        let {o}: Option<&{}> = {s}.get({idx});\n",
                    el.name()
                ));
                self.options.push((o.clone(), el, true));
                self.extra_ints.push(format!("({o}.is_some() as u32)"));
                return;
            }
            _ => {
                let v = self.expr(t, 2);
                let z = self.fresh("z");
                let c = self.with_var(&format!("(*{z})"), t, |g| g.expr(Ty::Bool, 2));
                out.push_str(&format!(
                    "        let {o}: Option<{}> = Some({v}).filter(|{z}| {c});\n",
                    t.name()
                ));
                self.options.push((o.clone(), t, false));
            }
        }
        if t.is_float() {
            self.extra_floats.push(format!("({o}.unwrap_or(0.5) as f64)"));
        } else {
            self.extra_ints.push(format!("({o}.unwrap_or(3) as u32)"));
        }
    }

    fn closure_statement(&mut self, out: &mut String) {
        if self.rng.chance(35) {
            // An `FnMut` closure mutating a captured accumulator, called directly or by a helper.
            let (cnt, f, z) = (self.fresh("cnt"), self.fresh("c"), self.fresh("z"));
            out.push_str(&format!(
                "        let mut {cnt}: u32 = {};\n        {{\n",
                self.expr(Ty::U32, 2)
            ));
            let body = self.with_var(&z, Ty::U32, |g| g.expr(Ty::U32, 2));
            out.push_str(&format!("            let mut {f} = |{z}: u32| {cnt} = {cnt}.wrapping_mul(3).wrapping_add({body});\n"));
            match &self.items.apply {
                Some(apply) if self.rng.chance(50) => {
                    out.push_str(&format!(
                        "            {apply}_each({}, &mut {f});\n",
                        self.rng.below(5)
                    ));
                }
                _ => {
                    for _ in 0..self.rng.below(3) + 1 {
                        out.push_str(&format!("            {f}({});\n", self.expr(Ty::U32, 1)));
                    }
                }
            }
            out.push_str("        }\n");
            self.vars.push((cnt, Ty::U32));
            return;
        }
        let (c, z) = (self.fresh("c"), self.fresh("z"));
        let body = self.with_var(&z, Ty::U32, |g| g.expr(Ty::U32, 3));
        let mv = if self.rng.chance(40) { "move " } else { "" };
        out.push_str(&format!("        let {c} = {mv}|{z}: u32| {body};\n"));
        self.extra_ints.push(format!("{c}(t)"));
        self.closures.push(c);
    }

    /// `for` over an iterator (binding `&T`, `&x` patterns, `enumerate`), or over a range with
    /// `let ... else { continue }`, accumulating.
    fn for_statement(&mut self, out: &mut String) {
        let t = self.rng.pick(&[Ty::U32, Ty::I64, Ty::F32, Ty::U64, Ty::F64]);
        let acc = self.fresh("acc");
        out.push_str(&format!("        let mut {acc}: {} = {};\n", t.name(), self.expr(t, 2)));
        let z = self.fresh("z");
        let mut bound: Vec<(String, Ty)> = Vec::new();
        // The loop's head, and the statements that open its body.
        let mut prelude = String::new();
        let head = match self.rng.below(4) {
            0 | 1 => {
                let (it, el, by_ref) = self.iter_source(1);
                if by_ref && self.rng.chance(50) {
                    bound.push((format!("(*{z})"), el));
                    format!("for {z} in {it}")
                } else {
                    bound.push((z.clone(), el));
                    format!("for {} in {it}", if by_ref { format!("&{z}") } else { z.clone() })
                }
            }
            2 => {
                let j = self.fresh("j");
                let (it, el, by_ref) = self.iter_source(1);
                bound.push((format!("({j} as u32)"), Ty::U32));
                bound.push((if by_ref { format!("(*{z})") } else { z.clone() }, el));
                format!("for ({j}, {z}) in {it}.enumerate()")
            }
            _ => {
                // A slice by reference, or a range with `let ... else`.
                match self.source() {
                    Some((s, el, len)) if self.rng.chance(50) => {
                        bound.push((format!("(*{z})"), el));
                        if len.parse::<usize>().is_ok() {
                            format!("for {z} in &{s}")
                        } else {
                            format!("for {z} in &{s}[..{len}.min({})]", self.rng.below(8) + 1)
                        }
                    }
                    Some((s, el, len)) => {
                        let k = self.fresh("k");
                        let idx = self.with_var(&k, Ty::U32, |g| g.get_index(&len));
                        bound.push((k.clone(), Ty::U32));
                        bound.push((z.clone(), el));
                        prelude = format!(
                            "            let Some(&{z}) = {s}.get({idx}) else {{\n                continue;\n            }};\n"
                        );
                        format!("for {k} in (0..{}u32).rev()", self.rng.below(8) + 1)
                    }
                    None => {
                        bound.push((z.clone(), Ty::U32));
                        format!("for {z} in 0..{}u32", self.rng.below(8))
                    }
                }
            }
        };
        let names: Vec<(&str, Ty)> = bound.iter().map(|(n, t)| (n.as_str(), *t)).collect();
        self.nest += 1;
        let (brk, step) = self.with_vars(&names, |g| {
            let brk = if g.rng.chance(20) { Some(g.expr(Ty::Bool, 1)) } else { None };
            (brk, g.expr(t, 2))
        });
        self.nest -= 1;
        out.push_str(&format!("        {head} {{\n{prelude}"));
        if let Some(b) = brk {
            out.push_str(&format!(
                "            if {b} {{\n                break;\n            }}\n"
            ));
        }
        if t.is_float() {
            out.push_str(&format!("            {acc} = {acc} * 0.5 + {step};\n"));
        } else {
            out.push_str(&format!(
                "            {acc} = {acc}.wrapping_mul(5).wrapping_add({step});\n"
            ));
        }
        out.push_str("        }\n");
        self.vars.push((acc, t));
    }
}

/// `generated_12` → `Generated12`: type names of a kernel's items.
fn camel(name: &str) -> String {
    name.split('_').filter(|p| !p.is_empty()).map(|p| p[..1].to_uppercase() + &p[1..]).collect()
}

/// `a op b` in `t`'s arithmetic: IEEE for floats, wrapping for integers.
fn arith(t: Ty, a: &str, op: char, b: &str) -> String {
    if t.is_float() {
        format!("{a} {op} {b}")
    } else {
        let m = match op {
            '+' => "wrapping_add",
            '-' => "wrapping_sub",
            _ => "wrapping_mul",
        };
        format!("{a}.{m}({b})")
    }
}

impl Gen<'_> {
    /// The kernel's items (each with a chance): the struct with operator impls, the trait,
    /// the enums, and the helpers taking closures, references and returning `Option`.
    fn items(&mut self, src: &mut String, name: &str) {
        let k = camel(name);
        if self.rng.chance(35) {
            let t = self.rng.pick(&[Ty::I32, Ty::U32, Ty::F32, Ty::F64, Ty::I64]);
            let v = format!("V{k}");
            let n = t.name();
            let neg = |c: &str| {
                if t.is_float() { format!("-self.{c}") } else { format!("self.{c}.wrapping_neg()") }
            };
            let bin = |op: char| (arith(t, "self.x", op, "o.x"), arith(t, "self.y", op, "o.y"));
            let (ax, ay) = bin('+');
            let (sx, sy) = bin('-');
            let (mx, my) = bin('*');
            let dot = arith(
                t,
                &arith(t, "self.x", '*', "o.x"),
                '+',
                &format!("({})", arith(t, "self.y", '*', "o.y")),
            );
            src.push_str(&format!(
                "#[derive(Clone, Copy)]\nstruct {v} {{\n    x: {n},\n    y: {n},\n}}\n\n\
                 impl {v} {{\n    fn new(x: {n}, y: {n}) -> Self {{\n        Self {{ x, y }}\n    }}\n\n    \
                 fn dot(self, o: Self) -> {n} {{\n        {dot}\n    }}\n\n    \
                 fn sum(self) -> {n} {{\n        {}\n    }}\n\n    \
                 fn swap(&self) -> Self {{\n        Self {{ x: self.y, y: self.x }}\n    }}\n\n    \
                 fn bump(&mut self, d: {n}) {{\n        self.x = {};\n        self.y = {};\n    }}\n}}\n\n\
                 impl core::ops::Add for {v} {{\n    type Output = Self;\n    fn add(self, o: Self) -> Self {{\n        Self::new({ax}, {ay})\n    }}\n}}\n\n\
                 impl core::ops::Sub for {v} {{\n    type Output = Self;\n    fn sub(self, o: Self) -> Self {{\n        Self::new({sx}, {sy})\n    }}\n}}\n\n\
                 impl core::ops::Mul for {v} {{\n    type Output = Self;\n    fn mul(self, o: Self) -> Self {{\n        Self::new({mx}, {my})\n    }}\n}}\n\n\
                 impl core::ops::Mul<{n}> for {v} {{\n    type Output = Self;\n    fn mul(self, s: {n}) -> Self {{\n        Self::new({}, {})\n    }}\n}}\n\n\
                 impl core::ops::AddAssign for {v} {{\n    fn add_assign(&mut self, o: Self) {{\n        self.x = {ax};\n        self.y = {ay};\n    }}\n}}\n\n\
                 impl core::ops::Neg for {v} {{\n    type Output = Self;\n    fn neg(self) -> Self {{\n        Self::new({}, {})\n    }}\n}}\n\n",
                arith(t, "self.x", '+', "self.y"),
                arith(t, "self.x", '+', "d"),
                arith(t, "self.y", '-', "d"),
                arith(t, "self.x", '*', "s"),
                arith(t, "self.y", '*', "s"),
                neg("x"),
                neg("y"),
            ));
            self.items.v2 = Some((v, t));
        }
        if self.rng.chance(30) {
            let p = self.rng.pick(&[Ty::U32, Ty::I64, Ty::F32]);
            let tr = format!("Tr{k}");
            let outer = std::mem::replace(&mut self.vars, vec![("(*self)".into(), p)]);
            let body = self.expr(Ty::U32, 2);
            self.vars = outer;
            let (l1, l2) = (self.rng.below(1000), self.rng.below(1000));
            src.push_str(&format!(
                "trait {tr} {{\n    fn val_{name}(&self) -> u32;\n    fn mix_{name}(&self, k: u32) -> u32 {{\n        self.val_{name}().rotate_left(k & 31) ^ {l1}\n    }}\n}}\n\n\
                 impl {tr} for {} {{\n    fn val_{name}(&self) -> u32 {{\n        {body}\n    }}\n",
                p.name()
            ));
            if self.rng.chance(30) {
                src.push_str(&format!("\n    fn mix_{name}(&self, k: u32) -> u32 {{\n        self.val_{name}().wrapping_mul(k | 1) ^ {l2}\n    }}\n"));
            }
            src.push_str("}\n\n");
            if let Some((v, _)) = &self.items.v2 {
                src.push_str(&format!(
                    "impl {tr} for {v} {{\n    fn val_{name}(&self) -> u32 {{\n        (self.x as u32) ^ (self.y as u32).rotate_left({})\n    }}\n}}\n\n",
                    l2 % 32
                ));
            }
            src.push_str(&format!(
                "fn {name}_tr<T: {tr}>(v: T, k: u32) -> u32 {{\n    v.mix_{name}(k).wrapping_add(v.val_{name}())\n}}\n\n\
                 fn {name}_tr_ref<T: {tr} + Copy>(v: &T) -> u32 {{\n    let w = *v;\n    w.val_{name}() ^ v.mix_{name}({l1})\n}}\n\n"
            ));
            self.items.tr = Some((format!("{name}_tr"), p));
        }
        if self.rng.chance(30) {
            let e = format!("E{k}");
            let count = self.rng.below(4) + 2;
            let (repr, signed) = self.rng.pick(&[
                ("", true),
                ("#[repr(u8)]\n", false),
                ("#[repr(i32)]\n", true),
                ("#[repr(u32)]\n", false),
            ]);
            let names = ["A", "B", "C", "D", "E"];
            let mut value: i64 =
                if signed { self.rng.below(40) as i64 - 20 } else { self.rng.below(40) as i64 };
            let mut body = String::new();
            for (j, v) in names.iter().take(count as usize).enumerate() {
                if j > 0 {
                    value += 1;
                }
                if (j == 0 && self.rng.chance(20)) || (j > 0 && self.rng.chance(40)) {
                    if j == 0 {
                        value = 0;
                    }
                    body.push_str(&format!("    {v},\n"));
                } else {
                    if j > 0 {
                        value += self.rng.below(15) as i64;
                    }
                    body.push_str(&format!("    {v} = {value},\n"));
                }
            }
            let variants: Vec<String> =
                names.iter().take(count as usize).map(|s| s.to_string()).collect();
            let arms: String = variants[..variants.len() - 1]
                .iter()
                .enumerate()
                .map(|(j, v)| format!("            {j} => Self::{v},\n"))
                .collect();
            src.push_str(&format!(
                "#[derive(Clone, Copy, PartialEq, Eq)]\n{repr}enum {e} {{\n{body}}}\n\n\
                 impl {e} {{\n    fn from_bits(v: u32) -> Self {{\n        match v % {count} {{\n{arms}            _ => Self::{},\n        }}\n    }}\n}}\n\n",
                variants[variants.len() - 1]
            ));
            self.items.fieldless = Some((e, variants));
        }
        if self.rng.chance(30) {
            let e = format!("D{k}");
            let (l1, l2, l3) = (self.rng.below(1000) | 1, self.rng.below(32), self.rng.below(1000));
            src.push_str(&format!(
                "#[derive(Clone, Copy)]\nenum {e} {{\n    P(u32),\n    Q {{ a: i64, b: u32 }},\n    R,\n}}\n\n\
                 impl {e} {{\n    fn score(&self) -> u32 {{\n        match self {{\n            \
                 Self::P(v) => v.wrapping_mul({l1}),\n            Self::Q {{ a, b }} => (*a as u32) ^ b.rotate_left({l2}),\n            \
                 Self::R => {l3},\n        }}\n    }}\n}}\n\n"
            ));
            self.items.data = Some(e);
        }
        if self.rng.chance(35) {
            let (l1, l2, l3) = (self.rng.below(1000), self.rng.below(32), self.rng.below(1000) | 1);
            src.push_str(&format!(
                "fn {name}_apply<F: Fn(u32) -> u32>(f: F, v: u32) -> u32 {{\n    f(f(v) ^ {l1}).wrapping_add(f(v.rotate_left({l2})))\n}}\n\n\
                 fn {name}_apply_each<F: FnMut(u32)>(n: u32, mut f: F) {{\n    for k in 0..n {{\n        f(k.wrapping_mul({l3}));\n    }}\n}}\n\n"
            ));
            self.items.apply = Some(format!("{name}_apply"));
        }
        if self.rng.chance(30) {
            let (l1, l2) = (self.rng.below(1000) | 1, self.rng.below(32));
            src.push_str(&format!(
                "fn {name}_bump(x: &mut u32, d: u32) {{\n    *x = x.wrapping_mul({l1}).wrapping_add(d) ^ (*x >> {l2});\n}}\n\n\
                 fn {name}_bump_pick<'a>(a: &'a u32, b: &'a u32, first: bool) -> &'a u32 {{\n    if first {{ a }} else {{ b }}\n}}\n\n"
            ));
            self.items.bump = Some(format!("{name}_bump"));
        }
        if self.rng.chance(30) {
            // `?` and `let ... else` in a device function returning `Option`; its body may use
            // the items above (not itself) and the slices it takes.
            self.plain = false;
            self.slices = vec![("xs", Ty::U32), ("ys", Ty::I64)];
            self.vars = vec![("a".into(), Ty::U32)];
            let mut body = String::new();
            if self.rng.chance(50) {
                body.push_str("    let b = *xs.get((a as usize) % (xs.len() + 3))?;\n");
            } else {
                body.push_str("    let b = xs.get((a as usize) % (xs.len() + 3)).copied()?;\n");
            }
            body.push_str("    let Some(&c) = ys.get((b as usize) % (ys.len() + 2)) else {\n        return None;\n    };\n");
            self.vars.extend([("b".into(), Ty::U32), ("c".into(), Ty::I64)]);
            if self.rng.chance(40) {
                body.push_str(&format!(
                    "    if {} {{\n        return None;\n    }}\n",
                    self.expr(Ty::Bool, 2)
                ));
            }
            if self.rng.chance(50) {
                let (c, v) = (self.expr(Ty::Bool, 2), self.expr(Ty::U32, 2));
                body.push_str(&format!(
                    "    let d: u32 = (if {c} {{ Some({v}) }} else {{ None }})?;\n"
                ));
                self.vars.push(("d".into(), Ty::U32));
            }
            body.push_str(&format!("    Some({})\n", self.expr(Ty::U32, 3)));
            src.push_str(&format!(
                "fn {name}_opt(xs: &[u32], ys: &[i64], a: u32) -> Option<u32> {{\n{body}}}\n\n"
            ));
            self.items.opt = Some(format!("{name}_opt"));
            self.plain = true;
            self.slices.clear();
        }
    }
}

/// One generated kernel (and its device function) named `name`: parameters
/// `(xs: &[u32], ys: &[i64], fs: &[f32], out: &mut [u32], fout: &mut [f64])`, one thread per
/// element of `out`.
pub fn kernel(seed: u64, name: &str) -> String {
    let mut rng = Rng::new(seed);
    let mut g = Gen {
        rng: &mut rng,
        vars: Vec::new(),
        n: 0,
        helper: None,
        plain: true,
        items: Items::default(),
        slices: Vec::new(),
        arrays: Vec::new(),
        options: Vec::new(),
        enums: Vec::new(),
        datas: Vec::new(),
        structs: Vec::new(),
        closures: Vec::new(),
        nest: 0,
        extra_ints: Vec::new(),
        extra_floats: Vec::new(),
    };
    let mut src = String::new();
    if g.rng.chance(50) {
        let helper = format!("{name}_helper");
        g.vars = vec![("a".into(), Ty::U32), ("b".into(), Ty::I64)];
        let body = g.expr(Ty::U32, 3);
        src.push_str(&format!("fn {helper}(a: u32, b: i64) -> u32 {{\n    {body}\n}}\n\n"));
        g.helper = Some(helper);
    }
    g.items(&mut src, name);
    g.plain = false;
    g.slices = vec![("xs", Ty::U32), ("ys", Ty::I64), ("fs", Ty::F32)];
    g.vars = vec![
        ("x".into(), Ty::U32),
        ("y".into(), Ty::I64),
        ("f".into(), Ty::F32),
        ("t".into(), Ty::U32),
    ];
    src.push_str(&format!(
        "#[offload_kernel]\npub fn {name}(xs: &[u32], ys: &[i64], fs: &[f32], out: &mut [u32], fout: &mut [f64]) {{\n    \
         // SAFETY: builtins only.\n    let i = unsafe {{ global_idx_x() }};\n    if i < out.len() && i < fout.len() {{\n        \
         let t = i as u32;\n        let x = xs[i % xs.len()];\n        let y = ys[(x as usize) % ys.len()];\n        let f = fs[i % fs.len()];\n"
    ));
    let count = g.rng.below(6) as usize + 3;
    let mut body = String::new();
    g.statements(&mut body, count);
    src.push_str(&body);
    // Everything computed reaches the outputs, so that nothing is dead.
    let mut ints = vec!["x".to_string()];
    let mut floats = vec!["(f as f64)".to_string()];
    for (n, t) in &g.vars {
        match t {
            Ty::Bool => ints.push(format!("({n} as u32)")),
            t if t.is_float() => floats.push(format!("({n} as f64)")),
            _ => ints.push(format!("({n} as u32)")),
        }
    }
    ints.append(&mut g.extra_ints);
    floats.append(&mut g.extra_floats);
    let int_out = if g.rng.chance(25) {
        format!(
            "        if let Some(o) = out.get_mut(i) {{\n            *o = {};\n        }}\n",
            ints.join(" ^ ")
        )
    } else if g.rng.chance(50) {
        // A write through a raw pointer to the output element.
        format!(
            "        let q = &mut out[i] as *mut u32;\n        // SAFETY: q points at this thread's output element.\n        unsafe {{ *q = {} }};\n",
            ints.join(" ^ ")
        )
    } else {
        format!("        out[i] = {};\n", ints.join(" ^ "))
    };
    src.push_str(&format!("{int_out}        fout[i] = {};\n    }}\n}}\n", floats.join(" + ")));
    src
}

/// A file of `count` kernels named `{prefix}_{k}`, seeds `first_seed..`.
pub fn file(prefix: &str, first_seed: u64, count: usize) -> String {
    let mut out = String::from(
        "// Generated by testsuite/src/generator.rs; do not edit.\nuse rkc_offload::prelude::*;\n\n",
    );
    for k in 0..count {
        out.push_str(&kernel(first_seed + k as u64, &format!("{prefix}_{k}")));
        out.push('\n');
    }
    out
}
