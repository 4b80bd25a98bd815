//! The device core: rkc's own small `core`, written in Rust (compiler/front/core/*.rs) and
//! compiled like user code. `Option`, `Result`, `Ordering`, ranges, iterators and their
//! adapters, slice methods and the methods of the primitive types are library code here,
//! held to rustc's behaviour by the differential test like every kernel; the compiler knows
//! only the items marked `#[lang = "..."]` and the intrinsics of `extern "rkc-intrinsic"`
//! blocks.
//!
//! Each file is a module of the core named after the file (`option.rs` is `core::option`);
//! `lib.rs` is the root. Code that is the same for several primitive types is written once
//! between `//@ for $T in <types>` and `//@ end`: the lines are repeated for each type, with
//! `$T` the type, `$U` its unsigned and `$S` its signed twin, `$BITS` its width.

/// The core's files: (module, text).
const FILES: &[(&str, &str)] = &[
    ("lib", include_str!("../core/lib.rs")),
    ("prelude", include_str!("../core/prelude.rs")),
    ("intrinsics", include_str!("../core/intrinsics.rs")),
    ("marker", include_str!("../core/marker.rs")),
    ("clone", include_str!("../core/clone.rs")),
    ("default", include_str!("../core/default.rs")),
    ("cmp", include_str!("../core/cmp.rs")),
    ("ops", include_str!("../core/ops.rs")),
    ("option", include_str!("../core/option.rs")),
    ("result", include_str!("../core/result.rs")),
    ("iter", include_str!("../core/iter.rs")),
    ("range", include_str!("../core/range.rs")),
    ("slice", include_str!("../core/slice.rs")),
    ("array", include_str!("../core/array.rs")),
    ("num", include_str!("../core/num.rs")),
    ("f32", include_str!("../core/f32.rs")),
    ("f64", include_str!("../core/f64.rs")),
    ("mem", include_str!("../core/mem.rs")),
    ("ptr", include_str!("../core/ptr.rs")),
    ("convert", include_str!("../core/convert.rs")),
    ("hint", include_str!("../core/hint.rs")),
    ("char", include_str!("../core/char.rs")),
    ("offload", include_str!("../core/offload.rs")),
];

/// The core's files with their templates expanded.
pub fn files() -> Vec<(String, String)> {
    FILES.iter().map(|(name, text)| (name.to_string(), expand(text))).collect()
}

/// The unsigned and signed twins and the width of a primitive type.
fn twins(t: &str) -> (&'static str, &'static str, u32) {
    match t {
        "u8" | "i8" => ("u8", "i8", 8),
        "u16" | "i16" => ("u16", "i16", 16),
        "u32" | "i32" | "f32" => ("u32", "i32", 32),
        "u64" | "i64" | "f64" => ("u64", "i64", 64),
        "usize" | "isize" => ("usize", "isize", 64),
        _ => ("u32", "i32", 32),
    }
}

/// Expands `//@ for $T in ...` / `//@ end` blocks.
fn expand(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(spec) = line.trim().strip_prefix("//@ for $T in ") else {
            out.push_str(line);
            out.push('\n');
            continue;
        };
        let tys: Vec<&str> = spec.split_whitespace().collect();
        let mut block = Vec::new();
        for l in lines.by_ref() {
            if l.trim() == "//@ end" {
                break;
            }
            block.push(l);
        }
        for t in &tys {
            let (u, s, bits) = twins(t);
            for l in &block {
                out.push_str(&l.replace("$T", t).replace("$U", u).replace("$S", s).replace("$BITS", &bits.to_string()));
                out.push('\n');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn templates_repeat_for_each_type() {
        let text = "a\n//@ for $T in u8 i64\nimpl $T { const B: u32 = $BITS; fn u(self) -> $U { self as $U } }\n//@ end\nb\n";
        let out = super::expand(text);
        assert_eq!(out, "a\nimpl u8 { const B: u32 = 8; fn u(self) -> u8 { self as u8 } }\nimpl i64 { const B: u32 = 64; fn u(self) -> u64 { self as u64 } }\nb\n");
    }

    #[test]
    fn every_core_file_parses() {
        for (name, text) in super::files() {
            if let Err(e) = syn::parse_file(&text) {
                panic!("core/{name}.rs: {e} at {:?}", e.span().start());
            }
        }
    }
}
