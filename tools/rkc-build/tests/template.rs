//! A user's crate outside the workspace, made here from a template: it adds rkc-build as a
//! build dependency and five lines of build.rs, and `cargo run` compiles its kernels with rkc
//! and runs them (on the CPU simulator in CI). Building again without changes does not rerun
//! rkc; touching the kernel file does.
//!
//! The crate uses the workspace's crates by path and the release rkc that tools/test.sh builds
//! first (`$RKC`, else `target/release/rkc`); cargo runs offline, from the crates already
//! fetched for the workspace.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

const BUILD_RS: &str = r#"fn main() {
    rkc_build::Build::new()
        .file("src/kernels.rs")
        .compile("kernels");
}
"#;

const KERNELS_RS: &str = r#"use rkc_offload::prelude::*;

#[offload_kernel]
pub fn scale(a: f32, x: &mut [f32]) {
    // SAFETY: builtins only.
    let i = unsafe { global_idx_x() };
    if i < x.len() {
        x[i] = a * x[i];
    }
}
"#;

const MAIN_RS: &str = r#"mod kernels;
use rkc_offload::offload;

fn main() {
    rkc_offload::include_fatbin!("kernels").expect("register");
    let mut x: Vec<f32> = (0..1000).map(|i| i as f32).collect();
    offload! { kernel = kernels::scale, workgroup_dim = [4, 1, 1], thread_dim = [256, 1, 1], args = (3.0f32, &mut x[..]) }
    let ok = x.iter().enumerate().all(|(i, v)| *v == 3.0 * i as f32);
    println!("scaled 1000 elements: {}", if ok { "all correct" } else { "WRONG" });
}
"#;

fn cargo(dir: &Path, args: &[&str]) -> (bool, String) {
    let repo = repo();
    let rkc = std::env::var_os("RKC")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("target/release/rkc"));
    assert!(
        rkc.is_file(),
        "no rkc at {}: build it with `cargo build --release -p rkc` (tools/test.sh does)",
        rkc.display()
    );
    let mut command = Command::new(env!("CARGO"));
    command.env("RKC", &rkc);
    run_cargo(command, dir, args)
}

/// Cargo where no rkc can be found: no `$RKC`, and a PATH of cargo's folder and the system's
/// (for the linker), with the crate outside the rkc workspace.
fn cargo_without_rkc(dir: &Path, args: &[&str]) -> (bool, String) {
    let cargo = PathBuf::from(env!("CARGO"));
    let mut path = vec![cargo.parent().unwrap().to_path_buf()];
    path.extend(["/usr/local/bin", "/usr/bin", "/bin"].map(PathBuf::from));
    for p in &path {
        assert!(!p.join("rkc").exists(), "{} holds an rkc", p.display());
    }
    let mut command = Command::new(&cargo);
    command.env_remove("RKC").env("PATH", std::env::join_paths(path).unwrap());
    run_cargo(command, dir, args)
}

fn run_cargo(mut command: Command, dir: &Path, args: &[&str]) -> (bool, String) {
    let repo = repo();
    let out = command
        .args(args)
        .args(["--offline", "--quiet"])
        .current_dir(dir)
        .env("OFFLOAD_TARGET", "disabled")
        // The workspace's target folder keeps the path dependencies built between runs.
        .env("CARGO_TARGET_DIR", repo.join("target/template-crate"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("run cargo");
    (
        out.status.success(),
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)),
    )
}

/// The newest fat binary the crate's build script wrote, with its modification time.
fn newest_fatbin() -> Option<(std::time::SystemTime, PathBuf)> {
    let build = repo().join("target/template-crate/debug/build");
    std::fs::read_dir(build)
        .ok()?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("user-kernels-"))
        .filter_map(|e| {
            let path = e.path().join("out/kernels.fatbin");
            Some((std::fs::metadata(&path).and_then(|m| m.modified()).ok()?, path))
        })
        .max()
}

/// The fat binary's modification time: it changes exactly when rkc runs.
fn fatbin_mtime() -> Option<std::time::SystemTime> {
    newest_fatbin().map(|(t, _)| t)
}

fn fatbin_path() -> Option<PathBuf> {
    newest_fatbin().map(|(_, p)| p)
}

#[test]
fn a_crate_outside_the_workspace_builds_and_runs_its_kernels() {
    let dir = std::env::temp_dir().join(format!("rkc-template-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let repo = repo();
    let manifest = format!(
        "[package]\nname = \"user-kernels\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[workspace]\n\n\
         [dependencies]\nrkc-offload = {{ path = \"{}\" }}\n\n[build-dependencies]\nrkc-build = {{ path = \"{}\" }}\n",
        repo.join("runtime/offload").display(),
        repo.join("tools/rkc-build").display()
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    // The workspace's lock file pins the versions of the crates already fetched.
    std::fs::copy(repo.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(dir.join("build.rs"), BUILD_RS).unwrap();
    assert_eq!(BUILD_RS.lines().count(), 5, "the promise is five lines of build.rs");
    std::fs::write(dir.join("src/kernels.rs"), KERNELS_RS).unwrap();
    std::fs::write(dir.join("src/main.rs"), MAIN_RS).unwrap();

    let (ok, out) = cargo(&dir, &["run"]);
    assert!(ok && out.contains("scaled 1000 elements: all correct"), "{out}");
    let first = fatbin_mtime().expect("build.rs wrote the fat binary");

    // Nothing changed: rkc does not run again.
    let (ok, out) = cargo(&dir, &["build"]);
    assert!(ok, "{out}");
    assert_eq!(fatbin_mtime(), Some(first), "the fat binary was rebuilt although nothing changed");

    // The kernel file changed: rkc runs again, and the new kernel is what runs.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    std::fs::write(
        dir.join("src/kernels.rs"),
        KERNELS_RS.replace("x[i] = a * x[i];", "x[i] = a * x[i] + 0.0;"),
    )
    .unwrap();
    let (ok, out) = cargo(&dir, &["run"]);
    assert!(ok && out.contains("all correct"), "{out}");
    assert!(
        fatbin_mtime().is_some_and(|t| t > first),
        "touching the kernel file did not rebuild the fat binary"
    );

    // The fat binary was kept in the crate, once: the entry of the first kernel file is gone.
    let cached = || -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir.join("rkc-cache"))
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    };
    let entries = cached();
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert!(entries[0].starts_with("kernels.") && entries[0].ends_with(".fatbin"), "{entries:?}");

    // Without rkc the crate builds from the cache and its kernels run.
    let (ok, out) = cargo_without_rkc(&dir, &["run"]);
    assert!(ok && out.contains("all correct"), "{out}");
    let newest = fatbin_path().expect("the build wrote a fat binary");
    assert_eq!(
        std::fs::read(newest).unwrap(),
        std::fs::read(dir.join("rkc-cache").join(&entries[0])).unwrap(),
        "the build without rkc did not use the cached fat binary"
    );
    assert_eq!(cached(), entries, "a build without rkc changed the cache");

    // Kernels changed since the cache was written: one line says what to do.
    std::fs::write(dir.join("src/kernels.rs"), KERNELS_RS.replace("a * x[i]", "x[i] * a")).unwrap();
    let (ok, out) = cargo_without_rkc(&dir, &["build"]);
    assert!(!ok, "{out}");
    assert!(
        out.contains("rkc is not installed, and ")
            && out.contains(
                "holds no fat binary `kernels` made from these kernel sources and options"
            )
            && out.contains(&format!("(it has {}: the kernels changed since)", entries[0])),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
