//! A random kernel generator in the spirit of Csmith: well-typed kernels in rkc's subset whose
//! bodies are also plain Rust, so that rustc gives the reference result. Every value is
//! defined (no division by zero, no out-of-bounds index: divisors are `(x & 15) + 1` and
//! indices are reduced modulo the slice length); integer overflow wraps as in a release build,
//! which is rkc's semantics too. Floats use only IEEE operations (no library functions), so
//! results are exact on every backend. Kernels read slices, read and write through raw
//! pointers to slice elements, and exchange values through shared memory across a barrier
//! (race free: each thread writes its own element); a block is 64 threads.
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

struct Gen<'r> {
    rng: &'r mut Rng,
    /// Variables in scope: name, type.
    vars: Vec<(String, Ty)>,
    n: usize,
    /// The kernel's device function, `h(a: u32, b: i64) -> u32`, when it has one.
    helper: Option<String>,
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

/// One generated kernel (and its device function) named `name`: parameters
/// `(xs: &[u32], ys: &[i64], fs: &[f32], out: &mut [u32], fout: &mut [f64])`, one thread per
/// element of `out`.
pub fn kernel(seed: u64, name: &str) -> String {
    let mut rng = Rng::new(seed);
    let mut g = Gen { rng: &mut rng, vars: Vec::new(), n: 0, helper: None };
    let mut src = String::new();
    if g.rng.chance(50) {
        let helper = format!("{name}_helper");
        g.vars = vec![("a".into(), Ty::U32), ("b".into(), Ty::I64)];
        let body = g.expr(Ty::U32, 3);
        src.push_str(&format!("fn {helper}(a: u32, b: i64) -> u32 {{\n    {body}\n}}\n\n"));
        g.helper = Some(helper);
    }
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
    let int_out = if g.rng.chance(50) {
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
