//! Builds a stand-in for a vendor library (tests/*_mock.c) with the system's C compiler, the
//! one rustc links with, into a folder of this test process's own.

use std::path::PathBuf;

/// Compiles `tests/<source>` into a shared library named `library`, and returns its path.
pub fn build(source: &str, library: &str) -> PathBuf {
    let out = std::env::temp_dir().join(format!("rkc-{library}-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let lib = out.join(library);
    let status = std::process::Command::new("cc")
        .args(["-shared", "-fPIC", "-O1", "-o"])
        .arg(&lib)
        .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join(source))
        .status()
        .expect("run cc, the C compiler rustc links with");
    assert!(status.success(), "cc could not build {source}");
    lib
}
