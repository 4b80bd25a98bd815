//! What kernels print (`print!`, `println!`, `eprint!`, `eprintln!`, [`gpu_println!`]...).
//!
//! On a GPU and in the host image a print writes a record into a print buffer (the layout is
//! rkc-lower's `emit/print.rs`): a header of three 64-bit words (bytes claimed, bytes
//! usable, records lost) and the records, each a header word (the low 32 bits of the
//! FNV-1a hash of its kernel's name, the site number in 16 bits, the length in words in 16
//! bits) and the values' words. After the kernel the runtime reads the buffer back, renders
//! every record with its site's format (`offload_binary::format`, which writes what Rust's
//! `format!` writes) and writes the text out in the records' order, each print whole. On the
//! simulator the kernel is host code: its prints are written as they happen.
//!
//! [`capture_prints`] collects the text instead of writing it, for tests of kernels that
//! print.
//!
//! [`gpu_println!`]: crate::gpu_println

use offload_binary::KernelInfo;
use std::io::Write as _;
use std::sync::{Mutex, OnceLock};

/// The print buffer's header: bytes claimed, bytes usable, records lost.
pub(crate) const HEADER_BYTES: usize = 24;

/// The print buffer's size in bytes, header included: `OFFLOAD_PRINT_BUFFER` (bytes, at
/// least 4 KiB), else 1 MiB, which holds about 40,000 prints of two values.
pub(crate) fn buffer_bytes() -> usize {
    static BYTES: OnceLock<usize> = OnceLock::new();
    *BYTES.get_or_init(|| {
        const DEFAULT: usize = 1 << 20;
        match std::env::var("OFFLOAD_PRINT_BUFFER") {
            Err(_) => DEFAULT,
            Ok(v) => match v.trim().parse::<usize>() {
                Ok(n) if n >= 4096 => n & !7,
                _ => {
                    eprintln!(
                        "rkc-offload: OFFLOAD_PRINT_BUFFER={v:?} is not a size in bytes of at least 4096; using {DEFAULT}"
                    );
                    DEFAULT
                }
            },
        }
    })
}

/// A print buffer's header before a launch: nothing claimed, the rest of `bytes` usable.
pub(crate) fn initial_header(bytes: usize) -> [u8; HEADER_BYTES] {
    let mut h = [0u8; HEADER_BYTES];
    h[8..16].copy_from_slice(&((bytes - HEADER_BYTES) as u64).to_le_bytes());
    h
}

/// The bytes of records a header says were written (those that fit), and how many did not.
pub(crate) fn written(header: &[u8; HEADER_BYTES]) -> (usize, u64) {
    let word = |k: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&header[8 * k..8 * k + 8]);
        u64::from_le_bytes(b)
    };
    let (claimed, usable, lost) = (word(0), word(1), word(2));
    (claimed.min(usable) as usize, lost)
}

/// Renders the records of a print buffer, written by launches of `kernels`, and writes the
/// text out (or into the active capture). `records` are the bytes after the header that
/// [`written`] counted; a record that does not parse ends the reading with a note, since its
/// length cannot be trusted.
pub(crate) fn emit(records: &[u8], lost: u64, kernels: &[&KernelInfo]) {
    let mut out: Vec<(bool, String)> = Vec::new();
    let words: Vec<u64> = records
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
        .collect();
    let mut at = 0;
    while at < words.len() {
        let header = words[at];
        let hash = header as u32;
        let site = ((header >> 32) & 0xffff) as usize;
        let length = (header >> 48) as usize;
        let kernel = kernels
            .iter()
            .find(|k| offload_binary::metadata::fnv1a(k.name.as_bytes()) as u32 == hash);
        let found = kernel.and_then(|k| k.print_sites.get(site).map(|s| (k, s)));
        let Some((kernel, s)) = found.filter(|(_, s)| length == 1 + s.words()) else {
            out.push((true, format!("rkc-offload: a print record at byte {} of the print buffer names no print site of the launched kernels; the rest of the buffer is skipped\n", 8 * at)));
            break;
        };
        let Some(values) = words.get(at + 1..at + length) else { break };
        match s.render(values) {
            Ok(text) => out.push((s.stderr, text)),
            Err(why) => out.push((
                true,
                format!(
                    "rkc-offload: the print at {}:{}:{} of kernel `{}` cannot be shown: {why}\n",
                    kernel.source, s.line, s.col, kernel.name
                ),
            )),
        }
        at += length;
    }
    if lost > 0 {
        let names: Vec<&str> = kernels.iter().map(|k| k.name.as_str()).collect();
        out.push((
            true,
            format!(
                "rkc-offload: {lost} print(s) of `{}` did not fit the print buffer of {} bytes and are lost; set OFFLOAD_PRINT_BUFFER to more bytes\n",
                names.join("`, `"),
                buffer_bytes()
            ),
        ));
    }
    write_out(out);
}

/// What [`capture_prints`] is collecting, while it runs.
static CAPTURE: Mutex<Option<Printed>> = Mutex::new(None);

/// The text kernels printed while [`capture_prints`] ran.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Printed {
    /// What `print!`, `println!`, `gpu_print!` and `gpu_println!` wrote.
    pub stdout: String,
    /// What `eprint!` and `eprintln!` wrote, and the runtime's notes about prints (lost ones).
    pub stderr: String,
}

/// Runs `f` and returns what the kernels it launches print, instead of writing it out: every
/// print on a GPU and in the host image, and `gpu_print!`/`gpu_println!` on the simulator
/// (where a kernel is host code, std's `print!` family writes straight to the process's
/// output). Launches made by other threads while `f` runs are captured too; captures do not
/// nest (an inner one takes the text until it ends).
pub fn capture_prints<R>(f: impl FnOnce() -> R) -> (R, Printed) {
    let outer = CAPTURE.lock().unwrap_or_else(|e| e.into_inner()).replace(Printed::default());
    // Restores the outer state on every path out of `f`, a panic included.
    struct Restore(Option<Option<Printed>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(outer) = self.0.take() {
                *CAPTURE.lock().unwrap_or_else(|e| e.into_inner()) = outer;
            }
        }
    }
    let mut restore = Restore(Some(outer));
    let r = f();
    let printed = CAPTURE.lock().unwrap_or_else(|e| e.into_inner()).take().unwrap_or_default();
    if let Some(outer) = restore.0.take() {
        *CAPTURE.lock().unwrap_or_else(|e| e.into_inner()) = outer;
    }
    (r, printed)
}

/// Writes texts out in order, each whole: into the capture when one is active, else to the
/// process's standard output and error (errors writing them are ignored, as `print!` would
/// panic instead, which a launch must not).
fn write_out(texts: Vec<(bool, String)>) {
    if texts.is_empty() {
        return;
    }
    let mut capture = CAPTURE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = capture.as_mut() {
        for (stderr, text) in texts {
            if stderr { &mut p.stderr } else { &mut p.stdout }.push_str(&text);
        }
        return;
    }
    drop(capture);
    let (stdout, stderr) = (std::io::stdout(), std::io::stderr());
    let (mut out, mut err) = (stdout.lock(), stderr.lock());
    for (to_err, text) in texts {
        let _ =
            if to_err { err.write_all(text.as_bytes()) } else { out.write_all(text.as_bytes()) };
    }
    let _ = out.flush();
}

/// `gpu_print!`'s and `gpu_println!`'s host side: the simulator runs kernels as host code,
/// and a print there is written at once (or captured).
#[doc(hidden)]
pub fn __print(stderr: bool, args: std::fmt::Arguments<'_>) {
    write_out(vec![(stderr, args.to_string())]);
}

/// Prints from a kernel, like `print!`: on a GPU and in the host image through the launch's
/// print buffer, written out when the kernel has finished; on the simulator at once. rkc
/// compiles std's `print!` the same way; the two differ on the simulator only, where this
/// macro's text goes through the runtime, and so into [`capture_prints`], and std's does not.
#[macro_export]
macro_rules! gpu_print {
    ($($arg:tt)*) => {
        $crate::__print(false, ::core::format_args!($($arg)*))
    };
}

/// Prints a line from a kernel, like `println!` (see [`gpu_print!`]).
#[macro_export]
macro_rules! gpu_println {
    () => {
        $crate::__print(false, ::core::format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::__print(false, ::core::format_args!("{}\n", ::core::format_args!($($arg)*)))
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use offload_binary::PrintSite;
    use offload_binary::format::ValueKind;

    /// Captures are process-wide: the tests that capture take turns.
    static SERIAL: Mutex<()> = Mutex::new(());

    fn kernel(name: &str, sites: Vec<PrintSite>) -> KernelInfo {
        KernelInfo {
            name: name.into(),
            source: "kernels.rs".into(),
            params: Vec::new(),
            panic_sites: Vec::new(),
            print_sites: sites,
            barriers: false,
        }
    }

    fn site(format: &str, kinds: Vec<ValueKind>, stderr: bool) -> PrintSite {
        PrintSite { format: format.into(), kinds, stderr, line: 3, col: 5 }
    }

    /// A record as a kernel writes it: the header word, then the values' words.
    fn record(kernel: &str, site: u64, values: &[u64]) -> Vec<u8> {
        let hash = offload_binary::metadata::fnv1a(kernel.as_bytes()) & 0xffff_ffff;
        let header = hash | (site << 32) | ((1 + values.len() as u64) << 48);
        std::iter::once(header).chain(values.iter().copied()).flat_map(u64::to_le_bytes).collect()
    }

    /// Records of two kernels sharing a buffer (a stream's) are shown with their own
    /// kernel's formats, in the buffer's order, each to its stream; a 128-bit value spans
    /// two words.
    #[test]
    fn renders_records_in_order_with_their_kernels_formats() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let a = kernel(
            "a",
            vec![
                site("x = {0:.2}\n", vec![ValueKind::F32], false),
                site("wide {0}\n", vec![ValueKind::Int { bits: 128, signed: true }], true),
            ],
        );
        let b = kernel(
            "b",
            vec![site("b says {0} {1:?}\n", vec![ValueKind::Bool, ValueKind::Char], false)],
        );
        let mut records = record("a", 0, &[u64::from(1.5f32.to_bits())]);
        records.extend(record("b", 0, &[1, u64::from('é')]));
        records.extend(record("a", 1, &[u64::MAX, u64::MAX]));
        records.extend(record("a", 0, &[u64::from((-0.125f32).to_bits())]));
        let ((), printed) = capture_prints(|| emit(&records, 0, &[&a, &b]));
        assert_eq!(printed.stdout, "x = 1.50\nb says true 'é'\nx = -0.12\n");
        assert_eq!(printed.stderr, "wide -1\n");
    }

    /// Lost prints are counted on standard error, and a record naming no site stops the
    /// reading with a note instead of showing garbage.
    #[test]
    fn reports_lost_prints_and_unknown_records() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let a = kernel(
            "a",
            vec![site("{0}\n", vec![ValueKind::Int { bits: 32, signed: false }], false)],
        );
        let mut records = record("a", 0, &[7]);
        records.extend(record("a", 5, &[8]));
        records.extend(record("a", 0, &[9]));
        let ((), printed) = capture_prints(|| emit(&records, 3, &[&a]));
        assert_eq!(printed.stdout, "7\n");
        assert!(printed.stderr.contains("names no print site"), "{}", printed.stderr);
        assert!(printed.stderr.contains("3 print(s) of `a` did not fit"), "{}", printed.stderr);
    }

    /// The header a launch starts from, and what it says after records were claimed past
    /// the end.
    #[test]
    fn header_bounds_the_records_read() {
        let h = initial_header(4096);
        assert_eq!(written(&h), (0, 0));
        let mut full = h;
        full[0..8].copy_from_slice(&5000u64.to_le_bytes());
        full[16..24].copy_from_slice(&2u64.to_le_bytes());
        assert_eq!(written(&full), (4096 - HEADER_BYTES, 2));
    }

    /// `gpu_println!` on the host (the simulator's path) goes into the capture.
    #[test]
    fn gpu_println_is_captured() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let ((), printed) = capture_prints(|| {
            crate::gpu_println!("{} {:>4}", 1, "x");
            crate::gpu_print!("no newline");
            crate::gpu_println!();
        });
        assert_eq!(printed.stdout, "1    x\nno newline\n");
    }
}
