//! A lit-style runner over testsuite/lit/: each file holds `// RUN:` lines and FileCheck-style
//! `// CHECK:`, `// CHECK-NEXT:`, `// CHECK-LABEL:` and `// CHECK-NOT:` lines; `// -----`
//! splits a file into cases run separately. `RUN: not rkc-opt ...` expects a failure and
//! checks its stderr. `RKC_BLESS=1` rewrites every case's CHECK lines (CHECK-NOT lines are
//! kept) from the current output; review the diff.
//!
//! `RUN: rkc ...` runs the compiler itself, for the stages after the gpu dialect (nvvm, rocdl,
//! llvm, ptx): the runner adds `-o` and checks the stage files it writes, in name order. The
//! compiler links MLIR, so this test does not build it: it runs `$RKC`, else the workspace's
//! `target/release/rkc`, which tools/test.sh builds first.

use std::path::{Path, PathBuf};
use std::process::Command;

fn lit_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "rk" || e == "rs") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testsuite/lit"), &mut out);
    out
}

const SPLIT: &str = "// -----";

fn directive<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    line.trim_start().strip_prefix("// ")?.strip_prefix(name)?.strip_prefix(':').map(str::trim)
}

/// Runs a case's RUN line and returns (success expected, output).
fn run_case(case: &str, ext: &str, scratch: &Path) -> Result<String, String> {
    let run = case.lines().find_map(|l| directive(l, "RUN")).ok_or("no RUN line")?;
    let path = scratch.join(format!("case.{ext}"));
    std::fs::write(&path, case).map_err(|e| e.to_string())?;
    let mut words: Vec<&str> = run.split_whitespace().collect();
    let expect_failure = words.first() == Some(&"not");
    if expect_failure {
        words.remove(0);
    }
    let path_str = path.to_string_lossy().into_owned();
    if words.first() == Some(&"rkc") && !expect_failure {
        return run_rkc(&words[1..], &path_str, scratch);
    }
    if words.first() != Some(&"rkc-opt") {
        return Err(format!("RUN must start with `rkc-opt`, `not rkc-opt` or `rkc`: {run}"));
    }
    let args: Vec<String> = words[1..].iter().map(|w| w.replace("%s", &path_str)).collect();
    let out = Command::new(env!("CARGO_BIN_EXE_rkc-opt"))
        .args(&args)
        .output()
        .map_err(|e| e.to_string())?;
    match (out.status.success(), expect_failure) {
        (true, false) => Ok(String::from_utf8_lossy(&out.stdout).into_owned()),
        (false, true) => Ok(String::from_utf8_lossy(&out.stderr).replace(&path_str, "%s")),
        (ok, _) => Err(format!(
            "rkc-opt {} (expected to {}):\n{}{}",
            if ok { "succeeded" } else { "failed" },
            if expect_failure { "fail" } else { "succeed" },
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )),
    }
}

/// Runs the compiler on the case and returns the stage files it wrote, in name order.
fn run_rkc(args: &[&str], path: &str, scratch: &Path) -> Result<String, String> {
    let rkc = std::env::var_os("RKC")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/release/rkc"));
    if !rkc.is_file() {
        return Err(format!(
            "no rkc at {}: build it with `cargo build --release -p rkc`, or set RKC",
            rkc.display()
        ));
    }
    let out_dir = scratch.join("rkc-out");
    let _ = std::fs::remove_dir_all(&out_dir);
    std::fs::create_dir_all(&out_dir).map_err(|e| e.to_string())?;
    let args: Vec<String> = args.iter().map(|w| w.replace("%s", path)).collect();
    let out = Command::new(&rkc)
        .args(&args)
        .arg("-o")
        .arg(out_dir.join("case.fatbin"))
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("rkc failed:\n{}", String::from_utf8_lossy(&out.stderr)));
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&out_dir)
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_none_or(|e| e != "fatbin"))
        .collect();
    files.sort();
    let mut text = String::new();
    for f in files {
        text.push_str(&std::fs::read_to_string(&f).map_err(|e| format!("{}: {e}", f.display()))?);
    }
    Ok(text)
}

/// FileCheck's core: CHECK finds the pattern on a later line, CHECK-NEXT on the next line,
/// CHECK-LABEL like CHECK, CHECK-NOT forbids it before the next positive match.
fn check(case: &str, output: &str) -> Result<(), String> {
    let lines: Vec<&str> = output.lines().collect();
    let mut pos = 0usize; // the next line a CHECK may match
    let mut last: Option<usize> = None;
    let mut nots: Vec<&str> = Vec::new();
    let mut any = false;
    for line in case.lines() {
        let (kind, pattern) = if let Some(p) = directive(line, "CHECK-NEXT") {
            ("NEXT", p)
        } else if let Some(p) = directive(line, "CHECK-LABEL") {
            ("LABEL", p)
        } else if let Some(p) = directive(line, "CHECK-NOT") {
            ("NOT", p)
        } else if let Some(p) = directive(line, "CHECK") {
            ("CHECK", p)
        } else {
            continue;
        };
        any = true;
        match kind {
            "NOT" => nots.push(pattern),
            "NEXT" => {
                let want = last.map_or(0, |l| l + 1);
                match lines.get(want) {
                    Some(l) if l.contains(pattern) => {
                        last = Some(want);
                        pos = want + 1;
                    }
                    other => {
                        return Err(format!(
                            "CHECK-NEXT: {pattern}\n  the next line is: {}",
                            other.unwrap_or(&"<end of output>")
                        ));
                    }
                }
            }
            _ => {
                let found = (pos..lines.len()).find(|&k| lines[k].contains(pattern));
                let Some(k) = found else {
                    return Err(format!(
                        "CHECK{}: {pattern}\n  not found after line {pos}",
                        if kind == "LABEL" { "-LABEL" } else { "" }
                    ));
                };
                for n in nots.drain(..) {
                    if let Some(bad) = (pos..k).find(|&j| lines[j].contains(n)) {
                        return Err(format!(
                            "CHECK-NOT: {n}\n  found on line {bad}: {}",
                            lines[bad]
                        ));
                    }
                }
                last = Some(k);
                pos = k + 1;
            }
        }
    }
    for n in nots {
        if let Some(bad) = (pos..lines.len()).find(|&j| lines[j].contains(n)) {
            return Err(format!("CHECK-NOT: {n}\n  found on line {bad}: {}", lines[bad]));
        }
    }
    if !any {
        return Err("the case has no CHECK line".into());
    }
    Ok(())
}

/// The case with its CHECK lines (not its CHECK-NOT lines) regenerated from `output`.
fn bless(case: &str, output: &str) -> String {
    let mut kept: Vec<&str> = case
        .lines()
        .filter(|l| {
            !(directive(l, "CHECK").is_some()
                || directive(l, "CHECK-NEXT").is_some()
                || directive(l, "CHECK-LABEL").is_some())
        })
        .collect();
    while kept.last().is_some_and(|l| l.trim().is_empty()) {
        kept.pop();
    }
    let mut out = kept.join("\n");
    out.push('\n');
    for (k, line) in output.lines().enumerate() {
        let t = line.trim_start();
        let kind = if line.starts_with("rk.func")
            || t.starts_with("gpu.func")
            || t.starts_with("llvm.func")
        {
            "CHECK-LABEL"
        } else if k == 0 {
            "CHECK"
        } else {
            "CHECK-NEXT"
        };
        if line.trim().is_empty() {
            continue;
        }
        out.push_str(&format!("// {kind}: {}\n", line.trim_end()));
    }
    out
}

#[test]
fn lit() {
    let files = lit_files();
    assert!(!files.is_empty());
    let scratch = std::env::temp_dir().join(format!("rkc-lit-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let blessing = std::env::var_os("RKC_BLESS").is_some();
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let ext = file.extension().unwrap().to_string_lossy().into_owned();
        let cases: Vec<&str> = text.split(&format!("\n{SPLIT}\n")).collect();
        let mut blessed = Vec::new();
        for (k, case) in cases.iter().enumerate() {
            match run_case(case, &ext, &scratch) {
                Ok(output) if blessing => blessed.push(bless(case, &output)),
                Ok(output) => {
                    if let Err(e) = check(case, &output) {
                        failures.push(format!(
                            "{} case {k}: {e}\n--- output ---\n{output}",
                            file.display()
                        ));
                    }
                }
                Err(e) => failures.push(format!("{} case {k}: {e}", file.display())),
            }
        }
        if blessing && blessed.len() == cases.len() {
            let joined = blessed
                .iter()
                .map(|c| c.trim_end_matches('\n'))
                .collect::<Vec<_>>()
                .join(&format!("\n{SPLIT}\n"));
            std::fs::write(file, joined + "\n").unwrap();
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(failures.is_empty(), "{} lit failures:\n\n{}", failures.len(), failures.join("\n\n"));
}
