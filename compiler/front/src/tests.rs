//! Front-end tests: rk snapshots of the testsuite kernels and rendered diagnostics.

use crate::*;
use std::path::Path;

fn testsuite(rel: &str) -> (String, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testsuite").join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (format!("testsuite/{rel}"), text)
}

/// Compiles a source and returns its rk text (verified) or its rendered diagnostics.
fn check(path: &str, source: &str) -> String {
    match compile(source) {
        Ok(module) => {
            if let Err(e) = rkc_rk::verify(&module) {
                panic!("the front end produced unverifiable rk: {e}\n{}", rkc_rk::print_module(&module));
            }
            rkc_rk::print_module(&module)
        }
        Err(diags) => render(&diags, path, source, false),
    }
}

#[test]
fn canonical_kernel() {
    let (path, text) = testsuite("kernels/canonical.rs");
    insta::assert_snapshot!(check(&path, &text));
}

#[test]
fn saxpy_kernel() {
    let (path, text) = testsuite("kernels/saxpy.rs");
    insta::assert_snapshot!(check(&path, &text));
}

/// Every file in testsuite/diagnostics/ fails with the diagnostics in its snapshot.
#[test]
fn diagnostics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testsuite/diagnostics");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(!files.is_empty());
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let (path, text) = testsuite(&format!("diagnostics/{name}"));
        let out = check(&path, &text);
        assert!(out.contains("RK"), "{name} compiled without errors:\n{out}");
        insta::assert_snapshot!(name.trim_end_matches(".rs").to_string(), out);
    }
}

#[test]
fn every_prefix_of_every_kernel_gives_output_not_a_panic() {
    for rel in ["kernels/canonical.rs", "kernels/saxpy.rs"] {
        let (path, text) = testsuite(rel);
        for (cut, _) in text.char_indices() {
            let _ = check(&path, &text[..cut]);
        }
    }
}

#[test]
fn explanations_cover_every_code() {
    for (code, title, text) in codes::EXPLANATIONS {
        assert!(code.starts_with("RK") && code.len() == 6, "{code}");
        assert!(!title.is_empty() && !text.is_empty());
        assert!(codes::explain(&code.to_lowercase()).is_some());
    }
}

/// The user guide's language reference lists every diagnostic code with its title, so that it
/// stays true when codes are added.
#[test]
fn the_guide_lists_every_code() {
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/guide.md")).unwrap();
    for (code, title, _) in crate::codes::EXPLANATIONS {
        let row = format!("| `{code}` | {title} |");
        assert!(guide.contains(&row), "docs/guide.md lacks the row `{row}`");
    }
}
