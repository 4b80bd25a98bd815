//! The panic sites of a function: every op that can panic on a GPU, numbered in the order of a
//! pre-order walk of its regions. Lowering numbers the checks it emits in the same walk, and
//! the fat binary's metadata lists the sites by number, so that a GPU panic record (site
//! number, block, thread, two values) becomes Rust's message with its source location.

use crate::ir::{BinOp, Func, Loc, Op, OpKind, Region};
use crate::types::Type;

/// One way a kernel can panic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PanicSite {
    /// Rust's message; `{index}` and `{len}` stand for the two recorded values.
    pub message: String,
    pub loc: Loc,
}

/// The panic sites an op contributes, in order: one per check the lowering emits for it.
pub fn op_sites(func: &Func, op: &Op) -> Vec<PanicSite> {
    let site = |message: &str| PanicSite { message: message.to_string(), loc: op.loc };
    match &op.kind {
        OpKind::BoundsCheck => {
            vec![site("index out of bounds: the len is {len} but the index is {index}")]
        }
        OpKind::Assert { message } => vec![site(message)],
        OpKind::Binary(b @ (BinOp::Div | BinOp::Rem)) => {
            match op.operands.first().and_then(|v| func.ty(*v)) {
                Some(Type::Int(t)) => {
                    let (zero, overflow) = if *b == BinOp::Div {
                        ("attempt to divide by zero", "attempt to divide with overflow")
                    } else {
                        (
                            "attempt to calculate the remainder with a divisor of zero",
                            "attempt to calculate the remainder with overflow",
                        )
                    };
                    let mut sites = vec![site(zero)];
                    if t.is_signed() {
                        sites.push(site(overflow));
                    }
                    sites
                }
                _ => vec![],
            }
        }
        _ => vec![],
    }
}

/// Every panic site of a function, in pre-order.
pub fn panic_sites(func: &Func) -> Vec<PanicSite> {
    fn walk(func: &Func, region: &Region, out: &mut Vec<PanicSite>) {
        for op in &region.ops {
            out.extend(op_sites(func, op));
            for r in &op.regions {
                walk(func, r, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(func, &func.body, &mut out);
    out
}
