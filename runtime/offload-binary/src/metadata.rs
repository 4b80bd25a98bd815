//! rkc's kernel metadata: what the runtime must know about each kernel of an image to map
//! its arguments and to check a launch against the compiled signature.
//!
//! The encoding is line-oriented text stored under [`crate::KERNELS_KEY`], tab-separated so
//! that Rust type spellings (which contain spaces) stay intact:
//!
//! ```text
//! rkc-kernels 1
//! kernel<TAB>saxpy
//! param<TAB>n<TAB>usize<TAB>value<TAB>8<TAB>read
//! param<TAB>y<TAB>*mut f32<TAB>pointer<TAB>4<TAB>read-write
//! ```

use crate::FormatError;
use std::fmt::Write as _;

const HEADER: &str = "rkc-kernels 1";

/// How a parameter travels from host to device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamKind {
    /// Passed by value; `size` bytes.
    Value { size: u64 },
    /// A raw pointer; upstream maps `size_of::<T>()` bytes of the pointee.
    Pointer { pointee_size: u64, mutable: bool },
    /// A slice, passed to the device as a pointer and a length.
    Slice { elem_size: u64, mutable: bool },
}

/// What a kernel does through a parameter, as far as the compiler can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    /// Never read nor written: no copy either way.
    Unused,
    /// Only read: copied in, never copied back.
    Read,
    /// Only written, and maybe not everywhere: copied in (to keep what is not written) and back.
    Write,
    /// Read and written: copied in and back.
    ReadWrite,
    /// Every element written before any read: copied back only.
    Overwrite,
}

impl Access {
    pub fn as_str(self) -> &'static str {
        match self {
            Access::Unused => "unused",
            Access::Read => "read",
            Access::Write => "write",
            Access::ReadWrite => "read-write",
            Access::Overwrite => "overwrite",
        }
    }

    fn parse(s: &str) -> Option<Access> {
        Some(match s {
            "unused" => Access::Unused,
            "read" => Access::Read,
            "write" => Access::Write,
            "read-write" => Access::ReadWrite,
            "overwrite" => Access::Overwrite,
            _ => return None,
        })
    }

    /// Whether the device needs the host's bytes before the kernel runs.
    pub fn needs_copy_in(self) -> bool {
        matches!(self, Access::Read | Access::Write | Access::ReadWrite)
    }

    /// Whether the host needs the device's bytes after the kernel ran.
    pub fn needs_copy_back(self) -> bool {
        matches!(self, Access::Write | Access::ReadWrite | Access::Overwrite)
    }
}

/// One kernel parameter.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParamInfo {
    pub name: String,
    /// The Rust spelling of the type, as [`crate::metadata::KernelInfo::signature`] prints it.
    pub ty: String,
    pub kind: ParamKind,
    pub access: Access,
    /// Where the kernel first offsets this pointer past its pointee (line, column), when it
    /// does: a raw pointer argument maps one pointee, so the runtime refuses such a launch
    /// unless the argument maps more (a slice, an array, resident data).
    pub past_pointee: Option<(u32, u32)>,
}

/// One way a kernel can panic on a GPU, numbered by its position in
/// [`KernelInfo::panic_sites`]; the kernel's panic record names the site.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PanicSite {
    /// Rust's message; `{index}` and `{len}` stand for the two values the record carries
    /// (`{-index}`, `{-len}` for signed ones).
    pub message: String,
    pub line: u32,
    pub col: u32,
}

impl PanicSite {
    /// The message with the record's two values.
    pub fn message_with(&self, a: u64, b: u64) -> String {
        format_panic_message(&self.message, a, b)
    }
}

/// A panic message with a record's two values: `{index}` and `{len}` show them as unsigned
/// numbers, `{-index}` and `{-len}` as signed ones (a kernel's `panic!("{}", x)` of an `i32`).
pub fn format_panic_message(message: &str, a: u64, b: u64) -> String {
    message
        .replace("{-index}", &(a as i64).to_string())
        .replace("{-len}", &(b as i64).to_string())
        .replace("{index}", &a.to_string())
        .replace("{len}", &b.to_string())
}

/// One way a kernel prints (`print!`, `println!`, `eprint!`, `eprintln!`), numbered by its
/// position in [`KernelInfo::print_sites`]; each record the kernel writes names its site.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PrintSite {
    /// Rust's format syntax with every argument by index (see [`crate::format`]).
    pub format: String,
    /// How each argument's record words are shown.
    pub kinds: Vec<crate::format::ValueKind>,
    /// Whether the text goes to standard error.
    pub stderr: bool,
    pub line: u32,
    pub col: u32,
}

impl PrintSite {
    /// The 64-bit words a record of this site carries after its header.
    pub fn words(&self) -> usize {
        self.kinds.iter().map(|k| k.words()).sum()
    }

    /// The text of one record's values.
    pub fn render(&self, words: &[u64]) -> Result<String, String> {
        crate::format::render(&self.format, &self.kinds, words)
    }
}

/// One kernel of an image.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KernelInfo {
    pub name: String,
    /// The kernel file as given to rkc, for panic locations.
    pub source: String,
    pub params: Vec<ParamInfo>,
    pub panic_sites: Vec<PanicSite>,
    pub print_sites: Vec<PrintSite>,
    /// Whether the kernel synchronises its threads (barriers, warp operations that exchange
    /// values): the CPU simulator then runs the threads of a block at the same time.
    pub barriers: bool,
}

impl KernelInfo {
    /// The signature both sides agree on, e.g. `saxpy(usize, f32, *const f32, *mut f32)`.
    pub fn signature(&self) -> String {
        signature(&self.name, self.params.iter().map(|p| p.ty.as_str()))
    }

    /// A 64-bit FNV-1a hash of [`KernelInfo::signature`], cheap to compare at launch.
    pub fn signature_hash(&self) -> u64 {
        fnv1a(self.signature().as_bytes())
    }
}

/// Formats a kernel signature from its name and parameter type spellings.
pub fn signature<'a>(name: &str, types: impl IntoIterator<Item = &'a str>) -> String {
    let types: Vec<&str> = types.into_iter().collect();
    format!("{name}({})", types.join(", "))
}

/// 64-bit FNV-1a: small, stable across releases and platforms, good enough to tell signatures
/// apart (the runtime compares the full text when hashes differ, to report the difference).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Encodes kernel metadata as the text stored under [`crate::KERNELS_KEY`].
pub fn encode(kernels: &[KernelInfo]) -> String {
    let mut out = String::from(HEADER);
    out.push('\n');
    for k in kernels {
        let _ = writeln!(out, "kernel\t{}", k.name);
        let _ = writeln!(out, "source\t{}", escape(&k.source));
        if k.barriers {
            out.push_str("barriers\n");
        }
        for p in &k.panic_sites {
            let _ = writeln!(out, "panic\t{}\t{}\t{}", p.line, p.col, escape(&p.message));
        }
        for p in &k.print_sites {
            let kinds: Vec<String> = p.kinds.iter().map(|k| k.name()).collect();
            let _ = writeln!(
                out,
                "print\t{}\t{}\t{}\t{}\t{}",
                p.line,
                p.col,
                if p.stderr { "stderr" } else { "stdout" },
                if kinds.is_empty() { "-".to_string() } else { kinds.join(",") },
                escape(&p.format)
            );
        }
        for p in &k.params {
            let (kind, size) = match p.kind {
                ParamKind::Value { size } => ("value", size),
                ParamKind::Pointer { pointee_size, mutable } => {
                    (if mutable { "pointer-mut" } else { "pointer" }, pointee_size)
                }
                ParamKind::Slice { elem_size, mutable } => {
                    (if mutable { "slice-mut" } else { "slice" }, elem_size)
                }
            };
            let _ =
                writeln!(out, "param\t{}\t{}\t{kind}\t{size}\t{}", p.name, p.ty, p.access.as_str());
            if let Some((line, col)) = p.past_pointee {
                let _ = writeln!(out, "past-pointee\t{line}\t{col}");
            }
        }
    }
    out
}

/// Escapes the characters that would break the line and field structure.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('\t', "\\t").replace('\n', "\\n")
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// A fat-binary image that carries only kernel metadata (no device code): what the CPU
/// simulator needs to launch kernels compiled by rustc, for tests that do not run rkc.
pub fn metadata_only_image(kernels: &[KernelInfo]) -> crate::Image {
    crate::Image {
        image_kind: crate::ImageKind::None,
        offload_kind: crate::OffloadKind::None,
        flags: 0,
        strings: vec![
            ("triple".into(), "nvptx64-nvidia-cuda".into()),
            ("arch".into(), "metadata".into()),
            (crate::KERNELS_KEY.into(), encode(kernels)),
        ],
        bytes: Vec::new(),
    }
}

/// Decodes the text written by [`encode`]; any malformed line is an error naming the line.
pub fn decode(text: &str) -> Result<Vec<KernelInfo>, FormatError> {
    let bad = |line: usize, reason: String| FormatError::BadMetadata { line, reason };
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, HEADER)) => {}
        Some((_, other)) => return Err(bad(1, format!("expected `{HEADER}`, found `{other}`"))),
        None => return Err(bad(1, "empty metadata".into())),
    }
    let mut kernels: Vec<KernelInfo> = Vec::new();
    for (index, line) in lines {
        let n = index + 1;
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        match fields.as_slice() {
            ["kernel", name] => kernels.push(KernelInfo {
                name: (*name).to_string(),
                source: String::new(),
                params: Vec::new(),
                panic_sites: Vec::new(),
                print_sites: Vec::new(),
                barriers: false,
            }),
            ["barriers"] => {
                kernels
                    .last_mut()
                    .ok_or_else(|| bad(n, "barriers before any kernel".into()))?
                    .barriers = true;
            }
            ["source", path] => {
                let kernel = kernels
                    .last_mut()
                    .ok_or_else(|| bad(n, "a source before any kernel".into()))?;
                kernel.source = unescape(path);
            }
            ["panic", line, col, message] => {
                let kernel = kernels
                    .last_mut()
                    .ok_or_else(|| bad(n, "a panic site before any kernel".into()))?;
                let num = |s: &str| {
                    s.parse::<u32>().map_err(|_| bad(n, format!("`{s}` is not a line or column")))
                };
                kernel.panic_sites.push(PanicSite {
                    line: num(line)?,
                    col: num(col)?,
                    message: unescape(message),
                });
            }
            ["print", line, col, stream, kinds, format] => {
                let kernel = kernels
                    .last_mut()
                    .ok_or_else(|| bad(n, "a print site before any kernel".into()))?;
                let num = |s: &str| {
                    s.parse::<u32>().map_err(|_| bad(n, format!("`{s}` is not a line or column")))
                };
                let stderr = match *stream {
                    "stdout" => false,
                    "stderr" => true,
                    other => return Err(bad(n, format!("unknown stream `{other}`"))),
                };
                let kinds = if *kinds == "-" {
                    Vec::new()
                } else {
                    kinds
                        .split(',')
                        .map(|k| {
                            crate::format::ValueKind::parse(k)
                                .ok_or_else(|| bad(n, format!("unknown value kind `{k}`")))
                        })
                        .collect::<Result<Vec<_>, _>>()?
                };
                let format = unescape(format);
                // A format the runtime could not render is refused here, once, instead of
                // at every record.
                crate::format::parse(&format)
                    .map_err(|e| bad(n, format!("bad print format: {}", e.message)))?;
                kernel.print_sites.push(PrintSite {
                    line: num(line)?,
                    col: num(col)?,
                    stderr,
                    kinds,
                    format,
                });
            }
            ["param", name, ty, kind, size, access] => {
                let size: u64 =
                    size.parse().map_err(|_| bad(n, format!("`{size}` is not a size")))?;
                let kind = match *kind {
                    "value" => ParamKind::Value { size },
                    "pointer" => ParamKind::Pointer { pointee_size: size, mutable: false },
                    "pointer-mut" => ParamKind::Pointer { pointee_size: size, mutable: true },
                    "slice" => ParamKind::Slice { elem_size: size, mutable: false },
                    "slice-mut" => ParamKind::Slice { elem_size: size, mutable: true },
                    other => return Err(bad(n, format!("unknown parameter kind `{other}`"))),
                };
                let access = Access::parse(access)
                    .ok_or_else(|| bad(n, format!("unknown access `{access}`")))?;
                let kernel = kernels
                    .last_mut()
                    .ok_or_else(|| bad(n, "a parameter before any kernel".into()))?;
                kernel.params.push(ParamInfo {
                    name: (*name).to_string(),
                    ty: (*ty).to_string(),
                    kind,
                    access,
                    past_pointee: None,
                });
            }
            ["past-pointee", line, col] => {
                let param = kernels
                    .last_mut()
                    .and_then(|k| k.params.last_mut())
                    .ok_or_else(|| bad(n, "`past-pointee` before any parameter".into()))?;
                let num = |s: &str| {
                    s.parse::<u32>().map_err(|_| bad(n, format!("`{s}` is not a line or column")))
                };
                param.past_pointee = Some((num(line)?, num(col)?));
            }
            _ => return Err(bad(n, format!("unrecognised line `{line}`"))),
        }
    }
    Ok(kernels)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn saxpy() -> KernelInfo {
        let p = |name: &str, ty: &str, kind, access| ParamInfo {
            name: name.into(),
            ty: ty.into(),
            kind,
            access,
            past_pointee: None,
        };
        KernelInfo {
            name: "saxpy".into(),
            source: "k\ternels.rs".into(),
            panic_sites: vec![PanicSite {
                message: "index out of bounds: the len is {len}\nbut".into(),
                line: 3,
                col: 9,
            }],
            print_sites: vec![
                PrintSite {
                    format: "x = {0:>8.3}\t{1:?}\n".into(),
                    kinds: vec![
                        crate::format::ValueKind::F32,
                        crate::format::ValueKind::Int { bits: 128, signed: true },
                    ],
                    stderr: false,
                    line: 4,
                    col: 5,
                },
                PrintSite { format: "done".into(), kinds: vec![], stderr: true, line: 5, col: 5 },
            ],
            barriers: true,
            params: vec![
                p("n", "usize", ParamKind::Value { size: 8 }, Access::Read),
                p("a", "f32", ParamKind::Value { size: 4 }, Access::Read),
                ParamInfo {
                    past_pointee: Some((5, 12)),
                    ..p(
                        "x",
                        "*const f32",
                        ParamKind::Pointer { pointee_size: 4, mutable: false },
                        Access::Read,
                    )
                },
                p(
                    "y",
                    "*mut [f32; 4]",
                    ParamKind::Pointer { pointee_size: 16, mutable: true },
                    Access::ReadWrite,
                ),
            ],
        }
    }

    #[test]
    fn encode_then_decode_is_identity() {
        let kernels = vec![
            saxpy(),
            KernelInfo {
                name: "empty".into(),
                source: String::new(),
                params: vec![],
                panic_sites: vec![],
                print_sites: Vec::new(),
                barriers: false,
            },
        ];
        assert_eq!(decode(&encode(&kernels)).unwrap(), kernels);
    }

    #[test]
    fn signature_spells_rust_types() {
        assert_eq!(saxpy().signature(), "saxpy(usize, f32, *const f32, *mut [f32; 4])");
        assert_ne!(saxpy().signature_hash(), fnv1a(b"saxpy()"));
    }

    #[test]
    fn malformed_lines_name_the_line() {
        let err = decode("rkc-kernels 1\nparam\tx\tf32\tvalue\t4\tread\n").unwrap_err();
        assert_eq!(
            err,
            FormatError::BadMetadata { line: 2, reason: "a parameter before any kernel".into() }
        );
        assert!(decode("nonsense").is_err());
        assert!(decode("rkc-kernels 1\nkernel\tk\nparam\tx\tf32\tvalue\tbig\tread").is_err());
    }
}
