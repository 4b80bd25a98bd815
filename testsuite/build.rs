//! Writes the generated kernels (src/generator.rs) that the differential test compiles with
//! both rustc (as a module of this crate) and rkc: `$OUT_DIR/generated.rs`.

#[path = "src/generator.rs"]
#[allow(dead_code, reason = "the build script uses the file generator only")]
mod generator;

/// How many kernels CI checks; `RKC_GENERATED` changes it.
const DEFAULT: usize = 300;

fn main() {
    println!("cargo:rerun-if-changed=src/generator.rs");
    println!("cargo:rerun-if-env-changed=RKC_GENERATED");
    println!("cargo:rerun-if-env-changed=RKC_GENERATED_FIRST");
    let count = std::env::var("RKC_GENERATED").ok().and_then(|v| v.parse().ok()).unwrap_or(DEFAULT);
    // The first seed: batches with different first seeds hold different kernels.
    let first = std::env::var("RKC_GENERATED_FIRST").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    let out =
        std::path::PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("generated.rs");
    let mut text = generator::file("generated", first, count);
    // Each kernel's simulator entry, for the differential test.
    text.push_str(
        "\n/// Each generated kernel's name and its rustc-compiled body on the simulator.\n",
    );
    text.push_str("pub fn simulators() -> Vec<(&'static str, crate::Simulate)> {\n    vec![\n");
    for k in 0..count {
        text.push_str(&format!("        (\"generated_{k}\", |c, a| unsafe {{ rkc_offload::simulate_raw::<generated_{k}>(c, a) }}),\n"));
    }
    text.push_str("    ]\n}\n");
    std::fs::write(out, text).expect("write generated.rs");
}
