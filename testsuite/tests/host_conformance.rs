//! The conformance run on the host image, as the H200 runs it on the GPU: every testsuite
//! kernel file and the generated kernels compiled by the release rkc with
//! `--offload-arch=host`, then `conformance` (this package's binary) with
//! `OFFLOAD_TARGET=cpu`, which runs each kernel in the host image and compares it with
//! rustc's code on the simulator, panics included. The kernels the host image leaves out are
//! counted as skipped; every other one must agree.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The release rkc that tools/test.sh builds first (`$RKC` overrides it).
fn rkc() -> PathBuf {
    let rkc = std::env::var_os("RKC")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("target/release/rkc"));
    assert!(rkc.is_file(), "{} is missing: run `cargo build --release -p rkc`", rkc.display());
    rkc
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let text =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

#[test]
fn every_kernel_agrees_on_the_host_image() {
    if !cfg!(all(target_arch = "x86_64", target_os = "linux")) {
        println!("skipped: rkc writes host images for x86-64 Linux only");
        return;
    }
    let rkc = rkc();
    let dir = std::env::temp_dir().join(format!("rkc-host-conformance-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let mut files: Vec<PathBuf> = ["testsuite/kernels", "testsuite/faults"]
        .iter()
        .flat_map(|d| std::fs::read_dir(repo().join(d)).expect("kernel folder"))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    let conformance = Path::new(env!("CARGO_BIN_EXE_conformance"));
    let generated = dir.join("generated.rs");
    run(Command::new(conformance).arg("--write-generated").arg(&generated));
    files.push(generated);
    for file in &files {
        let stem = file.file_stem().expect("stem").to_string_lossy();
        run(Command::new(&rkc)
            .arg(file)
            .args(["--offload-arch", "host", "-o"])
            .arg(dir.join(format!("{stem}.fatbin"))));
    }
    let report = run(Command::new(conformance).arg(&dir).env("OFFLOAD_TARGET", "cpu"));
    println!("{report}");
    assert!(report.contains("device: rkc CPU (host image)"), "{report}");
    assert!(report.contains(", 0 disagree"), "{report}");
    assert!(report.contains(" passed, 0 failed"), "{report}");
    // The host image runs most kernels: a regression that left them all out would otherwise
    // pass with everything skipped.
    let passed: usize = report
        .lines()
        .last()
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(passed >= 100, "only {passed} kernels ran on the host image:\n{report}");
    let _ = std::fs::remove_dir_all(&dir);
}
