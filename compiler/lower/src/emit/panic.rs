//! Checks and the panic record: a failed check ends the thread after the first failing
//! thread of the launch fills the record (its site, block, thread and the message's values),
//! which the runtime turns into Rust's message. On a GPU, a check before a warpgroup multiply
//! does this in place, without a branch (see `panic_in_place`).

use super::{FuncEmitter, PANIC_BLOCK, PANIC_POSITION, PANIC_RECORD};
use rkc_rk::passes::holds_wgmma;
use rkc_rk::{Op, Region};
use std::collections::HashSet;
use std::fmt::Write as _;

impl FuncEmitter<'_> {
    /// Continues only when `ok` holds; otherwise the thread goes to the kernel's panic block
    /// with the next site's number and two values for the message (a bounds check's index
    /// and length).
    pub(super) fn check(&mut self, ok: &str, values: Option<(&str, &str)>) {
        if self.in_place_now {
            self.panic_in_place(ok, values);
            return;
        }
        let site = self.n_sites;
        self.n_sites += 1;
        self.panics = true;
        let cont = self.new_label();
        let number = self.temp();
        self.line(format!("{number} = arith.constant {site} : i32"));
        let (a, b) = self.panic_values(values);
        self.line(format!(
            "cf.cond_br {ok}, {cont}, {PANIC_BLOCK}({number}, {a}, {b} : i32, i64, i64)"
        ));
        self.start_block(format!("{cont}:"));
    }

    /// The two values a panic's message shows (`{index}` and `{len}`), or zeros.
    fn panic_values(&mut self, values: Option<(&str, &str)>) -> (String, String) {
        match values {
            Some((a, b)) => (a.to_string(), b.to_string()),
            None => {
                let z = self.temp();
                self.line(format!("{z} = arith.constant 0 : i64"));
                (z.clone(), z)
            }
        }
    }

    /// A check after which a warpgroup multiply may run, on a GPU: the panic block's work as one
    /// piece of inline PTX whose every instruction is predicated on the check's failure,
    /// ending in a predicated `exit`, so that the check adds no branch. ptxas keeps a
    /// function's `wgmma.mma_async` pipelined only when no thread can leave on a path of its
    /// own while a multiply is in flight or about to start: a branch to the panic block, whose
    /// stores run in that path, makes it serialise every multiply of the function (C7520,
    /// C7518); a predicated exit makes it wait for the multiplies in flight there instead
    /// (C7517), in every thread, which costs only where a check is between multiplies. The
    /// record is the panic block's, word for word.
    fn panic_in_place(&mut self, ok: &str, values: Option<(&str, &str)>) {
        let site = self.n_sites;
        self.n_sites += 1;
        let (flag, record) = (self.temp(), self.temp());
        self.line(format!("{flag} = arith.extui {ok} : i1 to i32"));
        self.line(format!("{record} = llvm.ptrtoint {PANIC_RECORD} : !llvm.ptr<1> to i64"));
        let (a, b) = self.panic_values(values);
        // $0: the check's result; $1: the record's address; $2, $3: the message's values.
        let mut asm = String::from(
            "{ .reg .pred f, w, m; .reg .b32 o, t, lo, hi; .reg .b64 fl; \
             setp.eq.u32 f, $0, 0; \
             @f atom.relaxed.sys.global.cas.b32 o, [$1], 0, 1; \
             setp.eq.and.u32 w, o, 0, f; ",
        );
        let _ = write!(asm, "@w st.global.b32 [$1+4], {site}; ");
        for (k, special) in
            ["ctaid.x", "ctaid.y", "ctaid.z", "tid.x", "tid.y", "tid.z"].iter().enumerate()
        {
            let _ = write!(asm, "mov.u32 t, %{special}; @w st.global.b32 [$1+{}], t; ", 8 + 4 * k);
        }
        asm.push_str(
            "mov.b64 {lo, hi}, $2; @w st.global.b32 [$1+32], lo; @w st.global.b32 [$1+36], hi; \
             mov.b64 {lo, hi}, $3; @w st.global.b32 [$1+40], lo; @w st.global.b32 [$1+44], hi; \
             @w ld.global.b32 lo, [$1+48]; @w ld.global.b32 hi, [$1+52]; mov.b64 fl, {lo, hi}; \
             setp.ne.and.u64 m, fl, 0, w; @m st.global.b32 [fl], 1; \
             @f exit; }",
        );
        self.line(format!(
            "llvm.inline_asm has_side_effects \"{asm}\", \"r,l,l,l,~{{memory}}\" {flag}, {record}, {a}, {b} : (i32, i64, i64, i64) -> ()"
        ));
    }

    /// The kernel's one panic block. The first thread to panic claims the record with a
    /// compare-and-swap of word 0 from 0 to 1 and writes, as 32-bit words, the site number
    /// (1), its block (2..5) and thread (5..8) indices, then the two values as 64-bit words at
    /// bytes 32 and 40; then, when the 64-bit word at byte 48 is not zero, it stores 1 to the
    /// address it holds: a flag in host memory mapped for the device, which the runtime reads
    /// after the kernel instead of copying the record back at every launch. Every panicking
    /// thread then returns: the context stays usable, and the runtime turns the record into
    /// Rust's message and location.
    pub(super) fn panic_block(&mut self) {
        self.start_block(format!("{PANIC_BLOCK}(%panic_site: i32, %panic_a: i64, %panic_b: i64):"));
        let (zero, one) = (self.temp(), self.temp());
        self.line(format!("{zero} = arith.constant 0 : i32"));
        self.line(format!("{one} = arith.constant 1 : i32"));
        let pair = self.temp();
        self.line(format!("{pair} = llvm.cmpxchg {PANIC_RECORD}, {zero}, {one} monotonic monotonic : !llvm.ptr<1>, i32"));
        let won = self.temp();
        self.line(format!("{won} = llvm.extractvalue {pair}[1] : !llvm.struct<(i32, i1)>"));
        let (record, done) = (self.new_label(), self.new_label());
        self.line(format!("cf.cond_br {won}, {record}, {done}"));
        self.start_block(format!("{record}:"));
        let mut words = vec!["%panic_site".to_string()];
        for op in ["block_id", "thread_id"] {
            for dim in ["x", "y", "z"] {
                let i = if self.host {
                    self.geometry(op, dim)
                } else {
                    // Marked, so that `specialize` can give a target that reads positions
                    // afresh a read of its own here (see `Target::position_register`).
                    let i = self.temp();
                    self.line(format!("{i} = gpu.{op} {dim} {{{PANIC_POSITION}}}"));
                    i
                };
                let w = self.temp();
                self.line(format!("{w} = arith.index_castui {i} : index to i32"));
                words.push(w);
            }
        }
        for (k, w) in words.iter().enumerate() {
            let p = self.temp();
            self.line(format!(
                "{p} = llvm.getelementptr {PANIC_RECORD}[{}] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32",
                k + 1
            ));
            self.line(format!("llvm.store {w}, {p} : i32, !llvm.ptr<1>"));
        }
        for (k, v) in ["%panic_a", "%panic_b"].iter().enumerate() {
            let p = self.temp();
            self.line(format!(
                "{p} = llvm.getelementptr {PANIC_RECORD}[{}] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64",
                k + 4
            ));
            self.line(format!("llvm.store {v}, {p} : i64, !llvm.ptr<1>"));
        }
        let (at, flag, zero64, mapped) = (self.temp(), self.temp(), self.temp(), self.temp());
        self.line(format!(
            "{at} = llvm.getelementptr {PANIC_RECORD}[6] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64"
        ));
        self.line(format!("{flag} = llvm.load {at} : !llvm.ptr<1> -> i64"));
        self.line(format!("{zero64} = arith.constant 0 : i64"));
        self.line(format!("{mapped} = arith.cmpi ne, {flag}, {zero64} : i64"));
        let raise = self.new_label();
        self.line(format!("cf.cond_br {mapped}, {raise}, {done}"));
        self.start_block(format!("{raise}:"));
        let p = self.temp();
        self.line(format!("{p} = llvm.inttoptr {flag} : i64 to !llvm.ptr<1>"));
        self.line(format!("llvm.store {one}, {p} : i32, !llvm.ptr<1>"));
        self.line(format!("cf.br {done}"));
        self.start_block(format!("{done}:"));
        self.emit_return();
    }
}

/// Adds to `out` the ops of `region` after which a warpgroup multiply may run: one later in
/// the region or after it (`later`), or anywhere in an enclosing loop, which runs the region
/// again.
pub(super) fn before_wgmma(region: &Region, later: bool, out: &mut HashSet<*const Op>) {
    let mut later = later;
    for op in region.ops.iter().rev() {
        let inner = later || (op.kind.is_loop() && holds_wgmma(op));
        for r in &op.regions {
            before_wgmma(r, inner, out);
        }
        if later {
            out.insert(op as *const Op);
        }
        later |= holds_wgmma(op);
    }
}
