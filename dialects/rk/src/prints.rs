//! The print sites of a function: every `rk.print`, in the order of a pre-order walk of its
//! regions, each listed once however often inlining copied it. A GPU print writes a record
//! naming its site and the values; the fat binary's metadata lists the sites, so that the
//! runtime can turn each record into the text Rust's `format!` would write.

use crate::ir::{Func, Op, OpKind, Region};
use crate::types::{FloatTy, Type};
use offload_binary::format::{self, ArgRef, Piece, ValueKind};
use offload_binary::metadata::PrintSite;

/// Whether an operand of type `ty` carries a value of `kind` (a `char` is its `u32`; `usize`
/// and `isize` are 64-bit on every target rkc compiles for).
pub fn carries(kind: ValueKind, ty: &Type) -> bool {
    match (kind, ty) {
        (ValueKind::Int { bits, signed }, Type::Int(t)) => {
            t.bits() == bits && t.is_signed() == signed
        }
        (ValueKind::Char, Type::Int(t)) => t.bits() == 32 && !t.is_signed(),
        (ValueKind::Bool, Type::Bool) => true,
        (ValueKind::F16, Type::Float(FloatTy::F16))
        | (ValueKind::Bf16, Type::Float(FloatTy::Bf16))
        | (ValueKind::F32, Type::Float(FloatTy::F32))
        | (ValueKind::F64, Type::Float(FloatTy::F64)) => true,
        _ => false,
    }
}

/// Checks a print's format against its values' kinds: every argument is named by an index
/// into `kinds`, and Rust implements the formatting trait its spec asks for on that kind.
pub fn check_format(fmt: &str, kinds: &[ValueKind]) -> Result<(), String> {
    let pieces = format::parse(fmt).map_err(|e| e.message)?;
    for piece in &pieces {
        if let Piece::Arg { arg, spec, .. } = piece {
            let ArgRef::Index(k) = arg else {
                return Err("a print's arguments are named by their index".into());
            };
            let Some(kind) = kinds.get(*k) else {
                return Err(format!("argument {k} of {}", kinds.len()));
            };
            if !format::supports(spec.trait_, *kind) {
                return Err(format!("`{}` cannot be shown with {:?}", kind.name(), spec.trait_));
            }
        }
    }
    Ok(())
}

/// The site an `rk.print` writes to the record: its format, kinds, stream and location.
pub fn site_of(op: &Op) -> Option<PrintSite> {
    match &op.kind {
        OpKind::Print { format, kinds, stderr } => Some(PrintSite {
            format: format.clone(),
            kinds: kinds.clone(),
            stderr: *stderr,
            line: op.loc.line,
            col: op.loc.col,
        }),
        _ => None,
    }
}

/// Every print site of a function, in pre-order, each once.
pub fn print_sites(func: &Func) -> Vec<PrintSite> {
    fn walk(region: &Region, out: &mut Vec<PrintSite>) {
        for op in &region.ops {
            if let Some(site) = site_of(op)
                && !out.contains(&site)
            {
                out.push(site);
            }
            for r in &op.regions {
                walk(r, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(&func.body, &mut out);
    out
}

/// A value's 64-bit record words, from its bits as the interpreter and the folder hold them
/// (the low `bits` of the type are significant; a 128-bit integer takes two words, low first).
pub fn record_words(kind: ValueKind, bits: u128) -> Vec<u64> {
    let words = [bits as u64, (bits >> 64) as u64];
    words[..kind.words()].to_vec()
}
