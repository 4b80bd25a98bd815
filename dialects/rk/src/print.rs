//! The textual form of rk: MLIR-like, with values numbered in order of definition so that the
//! text depends only on the IR, never on how it was built.

use crate::ir::{Func, Literal, LoopHint, Module, Op, OpKind, Region, ValueId};
use crate::types::Type;
use std::collections::HashMap;
use std::fmt::Write as _;

/// Prints a module. The output is deterministic: the same IR always prints the same bytes.
pub fn print_module(module: &Module) -> String {
    let mut out = String::new();
    // Tables first: `rk.data @NAME : [T; N] = [v, ...]`.
    for t in &module.tables {
        let values: Vec<String> = t.values.iter().map(|v| literal_text(v, t.elem())).collect();
        let _ =
            writeln!(out, "rk.data {} : {} = [{}]", symbol(&t.name), t.ty.ir(), values.join(", "));
    }
    if !module.tables.is_empty() && !module.funcs.is_empty() {
        out.push('\n');
    }
    for (i, func) in module.funcs.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        print_func(&mut out, func);
    }
    out
}

/// A constant as the text writes it: an integer as its Rust value in `ty`, a float as the
/// shortest text that reads back to the same `f64`.
fn literal_text(lit: &Literal, ty: &Type) -> String {
    match lit {
        Literal::Bool(b) => b.to_string(),
        Literal::Int(bits) => match ty {
            Type::Int(t) if t.is_signed() => {
                // Sign-extend from the type's width to print the Rust value.
                let shift = 128 - t.bits();
                (((*bits << shift) as i128) >> shift).to_string()
            }
            _ => bits.to_string(),
        },
        Literal::Float(x) => format!("{x:?}"),
    }
}

struct Printer<'a> {
    func: &'a Func,
    names: HashMap<ValueId, usize>,
    out: &'a mut String,
}

fn print_func(out: &mut String, func: &Func) {
    let mut p = Printer { func, names: HashMap::new(), out };
    let mut params = Vec::new();
    // Parameters print their source name too (`n %0: usize`): the kernel metadata needs it,
    // and the text must hold everything the IR does.
    for param in &func.params {
        let name = p.define(param.value);
        let mark = if param.by_value {
            " byval"
        } else if param.by_ref {
            " byref"
        } else {
            ""
        };
        params.push(format!("{} {name}: {}{mark}", param.name, p.ty(param.value)));
    }
    let _ = write!(p.out, "rk.func {}({})", symbol(&func.name), params.join(", "));
    if func.ret != Type::Unit {
        let _ = write!(p.out, " -> {}", func.ret.ir());
    }
    if func.kernel {
        p.out.push_str(" kernel");
    }
    p.out.push_str(" {\n");
    p.region(&func.body, 1);
    p.out.push_str("}\n");
}

impl Printer<'_> {
    fn define(&mut self, value: ValueId) -> String {
        let n = self.names.len();
        self.names.insert(value, n);
        format!("%{n}")
    }

    fn name(&self, value: ValueId) -> String {
        match self.names.get(&value) {
            Some(n) => format!("%{n}"),
            // The verifier rejects uses before definitions; the printer still prints them, so
            // that a broken module can be shown in the verifier's error.
            None => format!("%<undefined {}>", value.0),
        }
    }

    fn ty(&self, value: ValueId) -> String {
        match self.func.ty(value) {
            Some(t) => t.ir().to_string(),
            None => "<no type>".into(),
        }
    }

    fn operands(&self, op: &Op) -> String {
        op.operands.iter().map(|v| self.name(*v)).collect::<Vec<_>>().join(", ")
    }

    fn region(&mut self, region: &Region, depth: usize) {
        for op in &region.ops {
            self.op(op, depth);
        }
    }

    fn op(&mut self, op: &Op, depth: usize) {
        let indent = "  ".repeat(depth);
        // Operands are named before results are defined, so a result never names itself.
        let operands = self.operands(op);
        let results: Vec<String> = op.results.iter().map(|r| self.define(*r)).collect();
        let mut line = indent.clone();
        if !results.is_empty() {
            let _ = write!(line, "{} = ", results.join(", "));
        }
        let _ = write!(line, "rk.{}", op.kind.name());
        let first_operand_ty = op.operands.first().map(|v| self.ty(*v));
        let result_ty = op.results.first().map(|v| self.ty(*v));
        match &op.kind {
            OpKind::Const(lit) => {
                let text = literal_text(lit, self.func.ty(op.results[0]).unwrap_or(&Type::Unit));
                let _ = write!(line, " {text} : {}", result_ty.unwrap_or_default());
            }
            OpKind::Table { name } => {
                let _ = write!(line, " {} : {}", symbol(name), result_ty.unwrap_or_default());
            }
            OpKind::Geometry(_, dim) => {
                let _ = write!(line, " {} : {}", dim.name(), result_ty.unwrap_or_default());
            }
            OpKind::Binary(_) | OpKind::Neg | OpKind::Not | OpKind::Load | OpKind::SliceLen => {
                let _ = write!(line, " {operands} : {}", first_operand_ty.unwrap_or_default());
            }
            OpKind::Cmp(c) => {
                let _ = write!(
                    line,
                    " {} {operands} : {}",
                    c.name(),
                    first_operand_ty.unwrap_or_default()
                );
            }
            OpKind::FieldPtr { index } => {
                let _ = write!(
                    line,
                    " {operands}, {index} : {} to {}",
                    first_operand_ty.unwrap_or_default(),
                    result_ty.unwrap_or_default()
                );
            }
            OpKind::Cast | OpKind::ElemPtr | OpKind::SlicePtr => {
                let _ = write!(
                    line,
                    " {operands} : {} to {}",
                    first_operand_ty.unwrap_or_default(),
                    result_ty.unwrap_or_default()
                );
            }
            OpKind::PtrOffset => {
                let _ = write!(line, " {operands} : {}", first_operand_ty.unwrap_or_default());
            }
            OpKind::Store => {
                let ptr_ty = op.operands.get(1).map(|v| self.ty(*v)).unwrap_or_default();
                let _ = write!(line, " {operands} : {ptr_ty}");
            }
            OpKind::BoundsCheck => {
                let _ = write!(line, " {operands} at {}:{}", op.loc.line, op.loc.col);
            }
            OpKind::If => {
                let _ = write!(line, " {operands}");
                if !op.results.is_empty() {
                    let tys: Vec<String> = op.results.iter().map(|r| self.ty(*r)).collect();
                    let _ = write!(line, " -> {}", tys.join(", "));
                }
            }
            OpKind::Yield | OpKind::Return | OpKind::Break { .. } | OpKind::Continue { .. } => {
                if let OpKind::Break { depth } | OpKind::Continue { depth } = op.kind
                    && depth > 0
                {
                    let _ = write!(line, " [{depth}]");
                }
                if !op.operands.is_empty() {
                    let tys: Vec<String> = op.operands.iter().map(|v| self.ty(*v)).collect();
                    let _ = write!(line, " {operands} : {}", tys.join(", "));
                }
            }
            OpKind::Var => {
                let content = match op.results.first().and_then(|r| self.func.ty(*r)) {
                    Some(Type::Slot(t)) => t.ir().to_string(),
                    _ => "<not a slot>".into(),
                };
                let _ = write!(line, " : {content}");
            }
            OpKind::Read => {
                let _ = write!(line, " {operands} : {}", result_ty.unwrap_or_default());
            }
            OpKind::Write => {
                let ty = op.operands.first().map(|v| self.ty(*v)).unwrap_or_default();
                let _ = write!(line, " {operands} : {ty}");
            }
            OpKind::Loop { hint } => {
                match hint {
                    LoopHint::Plain => {}
                    LoopHint::Cold => line.push_str(" cold"),
                    LoopHint::Unroll => line.push_str(" unroll"),
                }
                if !op.results.is_empty() {
                    let tys: Vec<String> = op.results.iter().map(|r| self.ty(*r)).collect();
                    let _ = write!(line, " -> {}", tys.join(", "));
                }
            }
            OpKind::Barrier => {}
            OpKind::Warp(w) => {
                if op.operands.is_empty() {
                    let _ = write!(line, " {} : {}", w.name(), result_ty.unwrap_or_default());
                } else {
                    let _ = write!(
                        line,
                        " {} {operands} : {}",
                        w.name(),
                        result_ty.unwrap_or_default()
                    );
                }
            }
            OpKind::Mma(t) => {
                let _ = write!(line, " {} {operands}", t.name());
            }
            OpKind::Wgmma { ty, n, swizzle } => {
                let _ = write!(line, " {} {n}", ty.name());
                if *swizzle != rkc_simt::wgmma::Swizzle::None {
                    let _ = write!(line, " {}", swizzle.name());
                }
                let _ = write!(line, " {operands}");
            }
            OpKind::WgmmaSync(sync) => {
                let _ = write!(line, " {}", sync.name());
                if let crate::WgmmaSync::Wait(pending) = sync {
                    let _ = write!(line, " {pending}");
                }
            }
            OpKind::LdMatrix(m) => {
                let ty = op.operands.first().map(|v| self.ty(*v)).unwrap_or_default();
                let _ = write!(line, " {} {operands} : {ty}", m.name());
            }
            OpKind::DynShared => {
                let _ = write!(line, " : {}", result_ty.unwrap_or_default());
            }
            OpKind::Fence(scope) => {
                let _ = write!(line, " {}", scope.name());
            }
            OpKind::CopyAsync => {
                let ty = op.operands.first().map(|v| self.ty(*v)).unwrap_or_default();
                let _ = write!(line, " {operands} : {ty}");
            }
            OpKind::AsyncCommit => {}
            OpKind::AsyncWait { pending } => {
                let _ = write!(line, " {pending}");
            }
            OpKind::Shared | OpKind::Local => {
                let _ = write!(line, " : {}", result_ty.unwrap_or_default());
            }
            OpKind::Atomic(a) => {
                let _ = write!(
                    line,
                    " {} {operands} : {}",
                    a.name(),
                    first_operand_ty.unwrap_or_default()
                );
            }
            OpKind::AtomicCas => {
                let _ = write!(line, " {operands} : {}", first_operand_ty.unwrap_or_default());
            }
            OpKind::Math(f) => {
                let args: Vec<String> = op.operands.iter().map(|v| self.ty(*v)).collect();
                let _ = write!(
                    line,
                    " {} {operands} : ({}) -> {}",
                    f.name(),
                    args.join(", "),
                    result_ty.unwrap_or_default()
                );
            }
            OpKind::Print { format, kinds, stderr } => {
                if *stderr {
                    line.push_str(" stderr");
                }
                if !op.operands.is_empty() {
                    let kinds: Vec<String> = kinds.iter().map(|k| k.name()).collect();
                    let _ = write!(line, " {operands} : {}", kinds.join(", "));
                }
                let _ = write!(line, " {format:?} at {}:{}", op.loc.line, op.loc.col);
            }
            OpKind::Assert { message } => {
                let _ = write!(line, " {operands} {message:?} at {}:{}", op.loc.line, op.loc.col);
            }
            OpKind::Call { callee } => {
                let args: Vec<String> = op.operands.iter().map(|v| self.ty(*v)).collect();
                let rets: Vec<String> = op.results.iter().map(|r| self.ty(*r)).collect();
                let _ = write!(line, " {}({operands}) : ({}) -> ", symbol(callee), args.join(", "));
                if rets.is_empty() {
                    line.push_str("()");
                } else {
                    line.push_str(&rets.join(", "));
                }
            }
        }
        for (i, region) in op.regions.iter().enumerate() {
            line.push_str(if i == 0 { " {\n" } else { " else {\n" });
            self.out.push_str(&line);
            self.region(region, depth + 1);
            line = format!("{indent}}}");
        }
        self.out.push_str(&line);
        self.out.push('\n');
    }
}

/// A function name as a symbol: `@name`, or `@"name"` when it holds characters other than
/// letters, digits and `_` (generic instances such as `@"square<f32>"`).
pub fn symbol(name: &str) -> String {
    if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        format!("@{name}")
    } else {
        format!("@{name:?}")
    }
}
