//! `rk.print`: a record in the launch's print buffer, which the runtime turns into text after
//! the kernel (see `offload_binary::format` and `KernelInfo::print_sites`).
//!
//! The buffer's address is the 64-bit word at byte 56 of the panic record (0: no buffer, the
//! print is dropped). The buffer starts with three 64-bit words: the bytes claimed so far,
//! the bytes its records may use, and the number of records that did not fit; records
//! follow from byte 24; the record and the buffer are 8-byte aligned, which the loads and
//! stores say, so that each word moves whole (without it, NVPTX split each store into two
//! 32-bit ones, and ptxas stored a wrong low half of an `f64` quotient on the H200). A record is its header word (the low 32 bits of the FNV-1a hash of
//! the kernel's name, then the site number in 16 bits, then the record's length in words,
//! header included, in 16 bits) and then each value's words. The hash tells apart the
//! records of kernels that share a buffer (the launches queued on one stream). A thread claims its record's bytes with one atomic add, so that records of
//! concurrent threads never overlap and each print's text stays whole; a record that would
//! pass the end is counted instead, and the runtime reports how many were lost.

use super::{FuncEmitter, PANIC_RECORD, v};
use offload_binary::format::ValueKind;
use rkc_rk::Op;

/// Where the print buffer's address is in the panic record, in 64-bit words.
const BUFFER_WORD: usize = 7;
/// The 64-bit words before the first record.
const HEADER_WORDS: usize = 3;

impl<'f> FuncEmitter<'f> {
    pub(super) fn print(&mut self, op: &Op) {
        let Some(site) = rkc_rk::prints::site_of(op) else { return };
        // The verifier checked the sites; their numbers are the metadata's order, found once
        // per kernel.
        let sites = self.print_sites.get_or_insert_with(|| rkc_rk::prints::print_sites(self.func));
        let number = sites.iter().position(|s| *s == site).unwrap_or(0);
        let mut words = Vec::new();
        for (x, kind) in op.operands.iter().zip(&site.kinds) {
            self.record_words(&v(*x), &self.ty(*x), *kind, &mut words);
        }
        let length = 1 + words.len() as u64;
        let kernel = offload_binary::metadata::fnv1a(self.func.name.as_bytes()) & 0xffff_ffff;
        let header = self.temp();
        self.line(format!(
            "{header} = arith.constant {} : i64",
            (kernel | ((number as u64) << 32) | (length << 48)) as i64
        ));
        let (at, base, zero, present) = (self.temp(), self.temp(), self.temp(), self.temp());
        self.line(format!(
            "{at} = llvm.getelementptr {PANIC_RECORD}[{BUFFER_WORD}] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64"
        ));
        self.line(format!("{base} = llvm.load {at} {{alignment = 8 : i64}} : !llvm.ptr<1> -> i64"));
        self.line(format!("{zero} = arith.constant 0 : i64"));
        self.line(format!("{present} = arith.cmpi ne, {base}, {zero} : i64"));
        let (claim, store, lost, done) =
            (self.new_label(), self.new_label(), self.new_label(), self.new_label());
        self.line(format!("cf.cond_br {present}, {claim}, {done}"));
        self.start_block(format!("{claim}:"));
        let (buffer, size, offset) = (self.temp(), self.temp(), self.temp());
        self.line(format!("{buffer} = llvm.inttoptr {base} : i64 to !llvm.ptr<1>"));
        self.line(format!("{size} = arith.constant {} : i64", 8 * length));
        self.line(format!(
            "{offset} = llvm.atomicrmw add {buffer}, {size} monotonic : !llvm.ptr<1>, i64"
        ));
        let (cap_at, cap, end, fits) = (self.temp(), self.temp(), self.temp(), self.temp());
        self.line(format!(
            "{cap_at} = llvm.getelementptr {buffer}[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64"
        ));
        self.line(format!(
            "{cap} = llvm.load {cap_at} {{alignment = 8 : i64}} : !llvm.ptr<1> -> i64"
        ));
        self.line(format!("{end} = arith.addi {offset}, {size} : i64"));
        self.line(format!("{fits} = arith.cmpi ule, {end}, {cap} : i64"));
        self.line(format!("cf.cond_br {fits}, {store}, {lost}"));
        self.start_block(format!("{store}:"));
        let (data, record) = (self.temp(), self.temp());
        self.line(format!(
            "{data} = llvm.getelementptr {buffer}[{HEADER_WORDS}] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64"
        ));
        self.line(format!(
            "{record} = llvm.getelementptr {data}[{offset}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8"
        ));
        for (k, w) in std::iter::once(header).chain(words).enumerate() {
            let p = self.temp();
            self.line(format!(
                "{p} = llvm.getelementptr {record}[{k}] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64"
            ));
            self.line(format!("llvm.store {w}, {p} {{alignment = 8 : i64}} : i64, !llvm.ptr<1>"));
        }
        self.line(format!("cf.br {done}"));
        self.start_block(format!("{lost}:"));
        let (lost_at, one, old) = (self.temp(), self.temp(), self.temp());
        self.line(format!(
            "{lost_at} = llvm.getelementptr {buffer}[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64"
        ));
        self.line(format!("{one} = arith.constant 1 : i64"));
        self.line(format!(
            "{old} = llvm.atomicrmw add {lost_at}, {one} monotonic : !llvm.ptr<1>, i64"
        ));
        self.line(format!("cf.br {done}"));
        self.start_block(format!("{done}:"));
    }

    /// A value's record words as `i64`s: integers sign- or zero-extended (a 128-bit one as its
    /// low and high halves), floats and `char`s by their bits, `bool` as 0 or 1.
    fn record_words(&mut self, x: &str, ty: &str, kind: ValueKind, out: &mut Vec<String>) {
        let widen = |me: &mut Self, x: &str, from: &str, signed: bool| -> String {
            if from == "i64" {
                return x.to_string();
            }
            let w = me.temp();
            let op = if signed { "arith.extsi" } else { "arith.extui" };
            me.line(format!("{w} = {op} {x} : {from} to i64"));
            w
        };
        match kind {
            ValueKind::Int { bits: 128, .. } => {
                let (lo, shift, high, hi) = (self.temp(), self.temp(), self.temp(), self.temp());
                self.line(format!("{lo} = arith.trunci {x} : i128 to i64"));
                self.line(format!("{shift} = arith.constant 64 : i128"));
                self.line(format!("{high} = arith.shrui {x}, {shift} : i128"));
                self.line(format!("{hi} = arith.trunci {high} : i128 to i64"));
                out.extend([lo, hi]);
            }
            ValueKind::Int { signed, .. } => out.push(widen(self, x, ty, signed)),
            ValueKind::Char | ValueKind::Bool => out.push(widen(self, x, ty, false)),
            ValueKind::F16 | ValueKind::Bf16 | ValueKind::F32 | ValueKind::F64 => {
                let int = match kind {
                    ValueKind::F32 => "i32",
                    ValueKind::F64 => "i64",
                    _ => "i16",
                };
                let b = self.temp();
                self.line(format!("{b} = arith.bitcast {x} : {ty} to {int}"));
                out.push(widen(self, &b, int, false));
            }
        }
    }
}
