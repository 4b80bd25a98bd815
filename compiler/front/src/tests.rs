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
    shown(path, source, compile(source))
}

/// The verified rk text of a compilation, or its rendered diagnostics.
fn shown(path: &str, source: &str, compiled: Result<Module, Vec<Diagnostic>>) -> String {
    match compiled {
        Ok(module) => {
            if let Err(e) = rkc_rk::verify(&module) {
                panic!(
                    "the front end produced unverifiable rk: {e}\n{}",
                    rkc_rk::print_module(&module)
                );
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

/// The no-panic test: every `.rs` file under testsuite/ (kernels, diagnostics, lit inputs,
/// benchmarks, fuzz targets, generator...), cut off at every line end and at points inside
/// lines, and with each line left out, goes through the front end and the verifier; each gives
/// rk or diagnostics, never a panic (`shown` also panics on unverifiable rk). The files are
/// shared out to one front-end thread per core, largest first: the variants are some forty
/// thousand compilations, the longest test of the workspace.
#[test]
fn every_testsuite_file_and_its_variants_give_output_not_a_panic() {
    fn rs_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() && !p.ends_with("target") && !p.ends_with("corpus") {
                rs_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    /// The file's variants: cut off at each line end and at 49 points inside lines, then
    /// with each line left out.
    fn variants(text: &str) -> impl Iterator<Item = std::borrow::Cow<'_, str>> {
        let mut cuts: Vec<usize> = text.match_indices('\n').map(|(k, _)| k).collect();
        cuts.extend((1..50).map(|k| text.len() * k / 50).map(|mut c| {
            while !text.is_char_boundary(c) {
                c -= 1;
            }
            c
        }));
        let lines: Vec<&str> = text.lines().collect();
        let without = (0..lines.len()).map(move |skip| {
            let kept = lines.iter().enumerate().filter(|(k, _)| *k != skip);
            kept.map(|(_, l)| format!("{l}\n")).collect::<String>().into()
        });
        cuts.into_iter().map(|cut| text[..cut].into()).chain(without)
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testsuite");
    let mut files = Vec::new();
    rs_files(&root, &mut files);
    let mut files: Vec<(String, String)> = files
        .iter()
        .map(|f| (f.display().to_string(), std::fs::read_to_string(f).unwrap()))
        .collect();
    assert!(files.len() > 60, "found only {} files", files.len());
    // Largest first, so that no thread is left with a large file at the end.
    files.sort_by_key(|(path, text)| (std::cmp::Reverse(text.len()), path.clone()));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let variants: usize = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut front = FrontThread::new();
                    let mut count = 0;
                    while let Some((path, text)) =
                        files.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                    {
                        for variant in variants(text) {
                            shown(path, &variant, front.compile(&variant));
                            count += 1;
                        }
                    }
                    count
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).sum()
    });
    assert!(variants > 5000, "only {variants} variants");
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
    let guide =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/guide.md"))
            .unwrap();
    for (code, title, _) in crate::codes::EXPLANATIONS {
        let row = format!("| `{code}` | {title} |");
        assert!(guide.contains(&row), "docs/guide.md lacks the row `{row}`");
    }
}

/// `--error-format=json` writes rustc's JSON diagnostics: each line parses, and carries the
/// code, the primary span's byte offsets, lines, columns and source text (non-ASCII text before
/// the span included), the notes and helps as children, and the human rendering.
#[test]
fn json_diagnostics_are_rustcs_format() {
    let source = "use rkc_offload::prelude::*;\n\n#[offload_kernel]\npub fn k(out: &mut [u32]) {\n    let s = \"é\"; let x: u32 = 1.5;\n    out[0] = x;\n}\n";
    let diags = compile(source).expect_err("a float in a u32");
    let json = render_json(&diags, "src/kernels.rs", source);
    let lines: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(lines.len(), diags.len());
    let d = &lines[0];
    assert_eq!(d["$message_type"], "diagnostic");
    assert_eq!(d["level"], "error");
    assert_eq!(d["code"]["code"], diags[0].code);
    assert_eq!(d["message"], diags[0].message.as_str());
    let span = &d["spans"][0];
    assert_eq!(span["file_name"], "src/kernels.rs");
    assert_eq!(span["is_primary"], true);
    assert_eq!(span["line_start"], 5);
    let (start, end) = (
        span["byte_start"].as_u64().unwrap() as usize,
        span["byte_end"].as_u64().unwrap() as usize,
    );
    assert_eq!(&source[start..end], "1.5", "the byte offsets cover the literal");
    let col = span["column_start"].as_u64().unwrap() as usize;
    assert_eq!(span["text"][0]["text"], "    let s = \"é\"; let x: u32 = 1.5;");
    assert_eq!(span["text"][0]["highlight_start"].as_u64().unwrap() as usize, col);
    assert_eq!(d["rendered"], render(&diags[..1], "src/kernels.rs", source, false).as_str());
    assert!(d["rendered"].as_str().unwrap().starts_with(&format!("error[{}]", diags[0].code)));
}

/// An `assert!` inside the device core quotes its own condition (`half`'s `clamp` checks
/// `min <= max`), not the user's text at the same line and column.
#[test]
fn core_asserts_quote_the_core() {
    let source = "use half::f16;\nuse rkc_offload::prelude::*;\n\n#[offload_kernel]\npub fn k(x: &mut [f16]) {\n    x[0] = x[0].clamp(f16::ZERO, f16::ONE);\n}\n";
    let rk = check("k.rs", source);
    assert!(rk.contains("\"assertion failed: min <= max\""), "{rk}");
}

/// Compiles `source` (which must compile), runs its kernel `k` on one thread with `out` as its
/// only buffer, and returns the buffer.
fn run_one_thread(source: &str, out: Vec<u8>) -> Vec<u8> {
    use rkc_rk::interp::{Arg, Launch, run};
    let module =
        compile(source).unwrap_or_else(|d| panic!("{}", render(&d, "k.rs", source, false)));
    rkc_rk::verify(&module).unwrap();
    let mut args = [Arg::Buffer(out)];
    run(&module, "k", Launch { grid: [1, 1, 1], block: [1, 1, 1], dyn_shared: 0 }, &mut args)
        .unwrap();
    let [Arg::Buffer(out)] = args else { unreachable!() };
    out
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

/// core's `impl Fn for &F` and `impl FnMut for &mut F`: a closure passed by reference to a
/// generic `F: Fn(u32) -> u32` or `F: FnMut(u32)` (was RK0277 "the trait bound `&{closure}:
/// Fn<(u32,)>` is not satisfied"; found by the kernel generator).
#[test]
fn closures_passed_by_reference_to_fn_bounds() {
    let source = "use rkc_offload::prelude::*;
fn apply<F: Fn(u32) -> u32>(f: F, v: u32) -> u32 {
    f(f(v))
}
fn each<F: FnMut(u32)>(n: u32, mut f: F) {
    for k in 0..n {
        f(k);
    }
}
#[offload_kernel]
pub fn k(out: *mut [u32; 3]) {
    let base = 3u32;
    let add = |z: u32| z + base;
    let mut sum = 0u32;
    let mut acc = |z: u32| sum += add(z);
    each(4, &mut acc);
    let twice = apply(&add, 10);
    let thrice = apply(&&add, 20);
    // SAFETY: one thread writes the launch's array.
    unsafe {
        (*out)[0] = sum;
        (*out)[1] = twice;
        (*out)[2] = thrice;
    }
}
";
    assert_eq!(words(&run_one_thread(source, vec![0; 12])), [18, 16, 26]);
}

/// A `&mut self` method on a temporary receiver (`xs[a..].iter().position(..)`, whose
/// `Iter` is borrowed mutably) lowers the receiver once: it was lowered twice, running its
/// effects twice and binding its patterns twice (RK0999 "writing Scalar(..) as Scalar(Int(U32))
/// into Value(..)" for the `Some(&z)` below; found by the kernel generator).
#[test]
fn temporary_receivers_of_mut_self_methods_are_lowered_once() {
    let source = "use rkc_offload::prelude::*;
#[offload_kernel]
pub fn k(out: *mut [u32; 3]) {
    let xs = [3u32, 7, 9];
    let mut n = 0u32;
    let p = {
        n += 1;
        xs.iter()
    }
    .position(|&v| v == 7);
    let q = xs[(match xs.get(1) { Some(&z) => z as usize % 3, None => 2 })..].iter().position(|&v| v == 9);
    // SAFETY: one thread writes the launch's array.
    unsafe {
        (*out)[0] = n;
        (*out)[1] = p.map_or(99, |p| p as u32);
        (*out)[2] = q.map_or(99, |q| q as u32);
    }
}
";
    assert_eq!(words(&run_one_thread(source, vec![0; 12])), [1, 1, 1]);
}
