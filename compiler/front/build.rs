//! Prepares the device core (core/*.rs) for the front end, which would otherwise do it at every
//! run: marks each file's templates and leaves its function bodies, and their signatures, out
//! of the text it parses (src/core_lib/scan.rs says how). Writes, to `OUT_DIR`, each file's
//! marked text and skeleton, and core_files.rs: the `core_lib::FILES` table, with the bodies and
//! signatures left out of each skeleton.

use std::fmt::Write;
use std::path::PathBuf;

#[path = "src/core_lib/scan.rs"]
mod scan;

/// The core's modules, in the order of `FileId::Core`: `option` is core/option.rs, and `lib`
/// is the root.
const MODULES: &[&str] = &[
    "lib",
    "prelude",
    "intrinsics",
    "marker",
    "clone",
    "default",
    "cmp",
    "ops",
    "option",
    "result",
    "iter",
    "range",
    "slice",
    "array",
    "num",
    "f32",
    "f64",
    "mem",
    "ptr",
    "convert",
    "convert_int",
    "hint",
    "hash",
    "char",
    "half",
    "offload",
];

fn main() -> std::io::Result<()> {
    let out = std::env::var_os("OUT_DIR")
        .map(PathBuf::from)
        .ok_or_else(|| std::io::Error::other("cargo sets OUT_DIR for build scripts"))?;
    println!("cargo::rerun-if-changed=core");
    println!("cargo::rerun-if-changed=src/core_lib/scan.rs");
    let mut table = String::from("&[\n");
    for name in MODULES {
        let text = scan::mark_templates(&std::fs::read_to_string(format!("core/{name}.rs"))?);
        let (skeleton, bodies) = scan::skeleton(&text, true);
        std::fs::write(out.join(format!("core_{name}.rs")), &text)?;
        std::fs::write(out.join(format!("core_{name}.skeleton.rs")), &skeleton)?;
        let include = |file: &str| format!("include_str!(concat!(env!(\"OUT_DIR\"), \"/{file}\"))");
        let _ = writeln!(
            table,
            "    CoreFile {{\n        name: {name:?},\n        text: {},\n        skeleton: {},\n        bodies: &[",
            include(&format!("core_{name}.rs")),
            include(&format!("core_{name}.skeleton.rs")),
        );
        for b in bodies {
            let sig = match b.sig {
                Some(s) => format!(
                    "Some(SigText {{ start: {}, line: {}, column: {} }})",
                    s.start, s.line, s.column
                ),
                None => "None".to_string(),
            };
            let _ = writeln!(
                table,
                "            LazyBody {{ start: {}, end: {}, line: {}, column: {}, sig: {sig} }},",
                b.start, b.end, b.line, b.column
            );
        }
        table.push_str("        ],\n    },\n");
    }
    table.push(']');
    std::fs::write(out.join("core_files.rs"), table)
}
