//! The rkc command line as a user runs it: bad inputs exit 1 with a reason and never panic;
//! a good input writes the fat binary and every stage asked for.

use std::path::{Path, PathBuf};
use std::process::Command;

fn rkc(args: &[&str], cwd: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rkc"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run rkc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rkc-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Exit code 1, one line of stderr, and no panic.
fn assert_one_line_error(code: i32, stderr: &str, contains: &str) {
    assert_eq!(code, 1, "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "not one line:\n{stderr}");
    assert!(stderr.contains(contains), "{stderr}");
}

#[test]
fn a_missing_file_is_one_line() {
    let dir = scratch("missing");
    let (code, _, err) = rkc(&["nope.rs"], &dir);
    assert_one_line_error(code, &err, "error: cannot read `nope.rs`");
}

#[test]
fn an_empty_file_is_one_line() {
    let dir = scratch("empty");
    std::fs::write(dir.join("empty.rs"), "").unwrap();
    let (code, _, err) = rkc(&["empty.rs"], &dir);
    assert_one_line_error(code, &err, "error[RK0002]: the file is empty");
    assert!(!dir.join("empty.fatbin").exists());
}

#[test]
fn a_file_without_kernels_is_one_line() {
    let dir = scratch("nokernel");
    std::fs::write(dir.join("host.rs"), "fn main() { println!(\"hi\"); }\n").unwrap();
    let (code, _, err) = rkc(&["host.rs"], &dir);
    assert_one_line_error(code, &err, "error[RK0002]: the file has no kernel");
}

#[test]
fn bad_flags_are_one_line() {
    let dir = scratch("flags");
    let k = repo().join("testsuite/kernels/saxpy.rs");
    let k = k.to_str().unwrap();
    let (code, _, err) = rkc(&[k, "--offload-arch", "sm_91"], &dir);
    assert_one_line_error(code, &err, "unknown offload architecture `sm_91`");
    let (code, _, err) = rkc(&[k, "-C", "checks=maybe"], &dir);
    assert_one_line_error(code, &err, "unknown codegen option `-C checks=maybe`");
    let (code, _, err) = rkc(&["--explain", "RK9999"], &dir);
    assert_one_line_error(code, &err, "no error code `RK9999`");
}

#[test]
fn the_input_is_never_overwritten() {
    let dir = scratch("overwrite");
    let source = std::fs::read_to_string(repo().join("testsuite/kernels/saxpy.rs")).unwrap();
    std::fs::write(dir.join("k.rs"), &source).unwrap();
    let (code, _, err) = rkc(&["k.rs", "-o", "k.rs"], &dir);
    assert_one_line_error(code, &err, "refusing to overwrite it");
    assert_eq!(std::fs::read_to_string(dir.join("k.rs")).unwrap(), source);
}

/// `-o -` writes the fat binary to standard output (no file named `-`), and `--emit` stages
/// are named after the input's stem.
#[test]
fn a_dash_output_is_standard_output() {
    let dir = scratch("stdout");
    std::fs::copy(repo().join("testsuite/kernels/saxpy.rs"), dir.join("saxpy.rs")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_rkc"))
        .args(["saxpy.rs", "--offload-arch", "sm_90", "--no-cubin", "--emit", "rk", "-o", "-"])
        .current_dir(&dir)
        .output()
        .expect("run rkc");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let images = offload_binary::read(&out.stdout).expect("a fat binary on standard output");
    assert_eq!(images.len(), 1);
    assert!(!dir.join("-").exists());
    assert!(!dir.join("saxpy.fatbin").exists());
    assert!(dir.join("saxpy.rk").is_file());
}

#[test]
fn source_errors_are_rendered_with_a_summary() {
    let dir = scratch("source");
    std::fs::write(
        dir.join("k.rs"),
        "#[offload_kernel]\nfn k(x: *mut u8) { unsafe { *x = 300; } }\n",
    )
    .unwrap();
    let (code, _, err) = rkc(&["k.rs"], &dir);
    assert_eq!(code, 1);
    assert!(err.starts_with("error[RK0302]: literal out of range for `u8`"), "{err}");
    assert!(
        err.trim_end().ends_with("error: could not compile `k.rs` due to 1 previous error"),
        "{err}"
    );
}

/// `--error-format=json`: every line of stderr is a rustc-format diagnostic, the source error
/// with its code and span, then the summary; errors about files are JSON too.
#[test]
fn json_errors_are_one_object_per_line() {
    let dir = scratch("json");
    std::fs::write(
        dir.join("k.rs"),
        "#[offload_kernel]\nfn k(x: *mut u8) { unsafe { *x = 300; } }\n",
    )
    .unwrap();
    let (code, _, err) = rkc(&["k.rs", "--error-format=json"], &dir);
    assert_eq!(code, 1);
    let lines: Vec<serde_json::Value> = err
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert_eq!(lines[0]["code"]["code"], "RK0302");
    assert_eq!(lines[0]["spans"][0]["file_name"], "k.rs");
    assert_eq!(lines[0]["spans"][0]["line_start"], 2);
    assert!(
        lines[0]["rendered"]
            .as_str()
            .unwrap()
            .starts_with("error[RK0302]: literal out of range for `u8`")
    );
    assert_eq!(lines[1]["message"], "could not compile `k.rs` due to 1 previous error");
    let (code, _, err) = rkc(&["missing.rs", "--error-format=json"], &dir);
    assert_eq!(code, 1);
    let d: serde_json::Value =
        serde_json::from_str(err.trim_end()).unwrap_or_else(|e| panic!("{e}: {err}"));
    assert!(d["message"].as_str().unwrap().starts_with("cannot read `missing.rs`"), "{err}");
    assert!(d["code"].is_null());
}

#[test]
fn emits_every_stage() {
    let dir = scratch("emit");
    let k = repo().join("testsuite/kernels/saxpy.rs");
    let (code, _, err) = rkc(
        &[
            k.to_str().unwrap(),
            "-o",
            "out/s.fatbin",
            "--emit=rk,rk-opt,dot,gpu,nvvm,rocdl,llvm,ptx,cubin,amdgcn,hsaco",
        ],
        &dir,
    );
    let _ = std::fs::create_dir_all(dir.join("out"));
    if code != 0 {
        // The output folder did not exist: rkc must say so rather than panic.
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("cannot write `out/s.fatbin`"), "{err}");
        let (code, _, err) = rkc(
            &[
                k.to_str().unwrap(),
                "-o",
                "out/s.fatbin",
                "--emit=rk,rk-opt,dot,gpu,nvvm,rocdl,llvm,ptx,cubin,amdgcn,hsaco",
            ],
            &dir,
        );
        assert_eq!(code, 0, "{err}");
    }
    let cfg = std::fs::read_to_string(dir.join("out/s.saxpy.cfg.dot")).unwrap();
    let nvidia_ir = std::fs::read_to_string(dir.join("out/s.sm_90.ll")).unwrap();
    assert!(nvidia_ir.contains("define ptx_kernel void @saxpy("), "{nvidia_ir}");
    let amd_ir = std::fs::read_to_string(dir.join("out/s.gfx942.ll")).unwrap();
    assert!(amd_ir.contains("define amdgpu_kernel void @saxpy("), "{amd_ir}");
    assert!(cfg.contains("digraph \"saxpy\"") && cfg.contains("\"entry\" -> "), "{cfg}");
    for f in [
        "s.fatbin",
        "s.rk",
        "s.opt.rk",
        "s.calls.dot",
        "s.gpu.mlir",
        "s.sm_90.nvvm.mlir",
        "s.gfx942.rocdl.mlir",
        "s.sm_90.ptx",
        "s.sm_90.cubin",
        "s.gfx942.s",
        "s.gfx942.hsaco",
    ] {
        let p = dir.join("out").join(f);
        assert!(
            p.metadata().map(|m| m.len() > 0).unwrap_or(false),
            "{} missing or empty",
            p.display()
        );
    }
    let leftovers: Vec<_> = std::fs::read_dir(dir.join("out"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left behind");
}

/// `--print-ir-after-all` shows every rk pass and every MLIR pass, in order, on stderr, and
/// the compilation still succeeds.
#[test]
fn prints_the_ir_after_every_pass() {
    let dir = scratch("print-ir");
    let k = repo().join("testsuite/kernels/warp.rs");
    let (code, _, err) =
        rkc(&[k.to_str().unwrap(), "-o", "w.fatbin", "--print-ir-after-all"], &dir);
    assert_eq!(code, 0, "{err}");
    let headers: Vec<&str> =
        err.lines().filter(|l| l.starts_with("// -----// IR Dump After")).collect();
    let order = [
        "rkc-front",
        "rk-inline",
        "rk-simplify",
        "rkc-lower",
        "nvvm-attach-target",
        "convert-gpu-to-nvvm",
        "gpu-module-to-binary",
        "rocdl-attach-target",
        "convert-gpu-to-rocdl",
    ];
    let mut at = 0;
    for name in order {
        let found = headers[at..]
            .iter()
            .position(|h| h.contains(name))
            .unwrap_or_else(|| panic!("no dump after {name} in order:\n{}", headers.join("\n")));
        at += found + 1;
    }
    // The dumps hold the IR itself: the rk ops and the NVVM shuffles.
    assert!(
        err.contains("rk.warp shuffle_xor") && err.contains("nvvm.shfl.sync  bfly"),
        "IR missing from the dumps"
    );
}

/// `--explain-mapping` prints each kernel's parameters with how they move, and writes nothing.
#[test]
fn explains_the_mapping_without_compiling() {
    let dir = scratch("mapping");
    let k = repo().join("testsuite/kernels/saxpy.rs");
    let (code, out, err) = rkc(&[k.to_str().unwrap(), "--explain-mapping"], &dir);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("how `offload!` moves the arguments of `saxpy`"), "{out}");
    assert!(out.contains("copied to the device") && out.contains("passed by value"), "{out}");
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none(), "--explain-mapping wrote files");
}

#[test]
fn inspect_and_help_are_subcommands() {
    let dir = scratch("subcommands");
    let (code, out, err) = rkc(&["inspect", "--help"], &dir);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Usage: rkc inspect"), "{out}");
    let (code, out, err) = rkc(&["help"], &dir);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("inspect") && out.contains("--offload-arch"), "{out}");
    assert!(
        out.contains(rkc_driver::DEFAULT_OFFLOAD_ARCH),
        "the help names another default: {out}"
    );
    let (code, _, err) = rkc(&["inspect", "missing.fatbin"], &dir);
    assert_one_line_error(code, &err, "error: cannot read `missing.fatbin`");
}

#[test]
fn codegen_opt_level_and_colour() {
    let dir = scratch("optlevel");
    let kernel = repo().join("testsuite/kernels/saxpy.rs");
    let k = kernel.to_str().unwrap();
    let (code, _, err) = rkc(
        &[k, "--no-cubin", "--offload-arch", "sm_90", "-C", "opt-level=1", "-o", "a.fatbin"],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = rkc(&[k, "-C", "opt-level=s", "--color", "never"], &dir);
    assert_one_line_error(code, &err, "error: `-C opt-level=s`");
    assert!(!err.contains('\x1b'), "{err}");
    let (_, _, err) = rkc(&[k, "-C", "opt-level=9", "--color", "always"], &dir);
    assert!(err.contains("\x1b[1;31merror"), "{err}");
}

/// The same kernel compiled in two folders, given by absolute path from inside each, gives
/// identical fat binaries: no absolute path is written; `--remap-path-prefix` chooses the
/// name when the file is outside the current folder.
#[test]
fn fat_binaries_do_not_depend_on_the_checkout_folder() {
    let source = std::fs::read_to_string(repo().join("testsuite/kernels/panics.rs")).unwrap();
    let mut outputs = Vec::new();
    for name in ["checkout-a", "checkout-b"] {
        let dir = scratch(name);
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("src/kernels.rs"), &source).unwrap();
        let input = dir.join("src/kernels.rs");
        let (code, _, err) = rkc(
            &[input.to_str().unwrap(), "--no-cubin", "--offload-arch", "sm_90", "-o", "k.fatbin"],
            &dir,
        );
        assert_eq!(code, 0, "{err}");
        let remap = format!("{}=crate", dir.display());
        let elsewhere = std::env::temp_dir();
        let (code, _, err) = rkc(
            &[
                input.to_str().unwrap(),
                "--no-cubin",
                "--offload-arch",
                "sm_90",
                "--remap-path-prefix",
                &remap,
                "-o",
                dir.join("r.fatbin").to_str().unwrap(),
            ],
            &elsewhere,
        );
        assert_eq!(code, 0, "{err}");
        let plain = std::fs::read(dir.join("k.fatbin")).unwrap();
        let remapped = std::fs::read(dir.join("r.fatbin")).unwrap();
        let text = String::from_utf8_lossy(&plain);
        assert!(
            text.contains("src/kernels.rs") && !text.contains(&dir.display().to_string()),
            "an absolute path in the fat binary"
        );
        assert!(String::from_utf8_lossy(&remapped).contains("crate/src/kernels.rs"));
        outputs.push((plain, remapped));
    }
    assert!(outputs[0] == outputs[1], "the fat binaries differ between checkouts");
}

/// `-o kernels.ptx`, as `nvcc -ptx -o` is written, still names the fat binary: rkc says so,
/// and where `--emit ptx` puts the PTX, which is then PTX.
#[test]
fn an_output_named_like_a_stage_is_explained() {
    let dir = scratch("stage-named-output");
    let k = repo().join("testsuite/kernels/saxpy.rs");
    let (code, _, err) = rkc(
        &[k.to_str().unwrap(), "--offload-arch", "sm_90", "--emit", "ptx", "-o", "k.ptx"],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning: `k.ptx` holds the fat binary")
            && err.contains("`--emit ptx` writes that stage next to it, as `k.<target>.ptx`"),
        "{err}"
    );
    let ptx = std::fs::read_to_string(dir.join("k.sm_90.ptx")).unwrap();
    assert!(ptx.contains(".entry saxpy("), "{ptx}");
    let (code, _, err) =
        rkc(&[k.to_str().unwrap(), "--offload-arch", "sm_90", "-o", "k.fatbin"], &dir);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("warning"), "{err}");
}
