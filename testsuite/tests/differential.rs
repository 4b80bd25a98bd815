//! Differential test: every testsuite kernel runs (1) as rustc compiled it, on the CPU
//! simulator, and (2) in the rk interpreter, before and after the rk passes, on the same
//! inputs. The buffers must agree exactly (floats: equal values, any NaN equal to any NaN),
//! and a kernel that panics must panic on every side with the same message.

use rkc_rk::Type;
use rkc_testsuite::*;
use std::path::Path;

#[test]
fn interpreter_agrees_with_rustc_on_every_kernel() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels");
    let cases = cases();
    // Every kernel file of the testsuite has a case.
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut covered: Vec<String> = cases.iter().map(|c| c.file.to_string()).collect();
    covered.sort();
    covered.dedup();
    assert_eq!(files, covered, "each testsuite kernel needs a differential case");

    for case in &cases {
        let source = std::fs::read_to_string(dir.join(case.file)).unwrap();
        let module =
            rkc_front::compile(&source).unwrap_or_else(|d| panic!("{}: {:?}", case.file, d));
        rkc_rk::verify(&module).unwrap();
        let mut inlined = module.clone();
        rkc_rk::passes::inline_calls(&mut inlined).unwrap();
        rkc_rk::verify(&inlined).unwrap();
        rkc_rk::passes::optimize(&mut inlined, true, &mut |_, _| {});
        rkc_rk::verify(&inlined)
            .unwrap_or_else(|e| panic!("{}: simplify broke the module: {e}", case.kernel));

        let inputs = inputs_for(case, &module);
        let func = module.funcs.iter().find(|f| f.name == case.kernel).unwrap();
        let tys: Vec<Type> = func.param_types().cloned().collect();
        let elems: Vec<Type> = tys
            .iter()
            .filter(|t| t.pointee().is_some() || matches!(t, Type::Slice { .. }))
            .map(element)
            .collect();

        let (reference, printed) = rkc_offload::capture_prints(|| run_rustc(case, &inputs, &tys));
        let (before, printed_before) = run_interpreter_printing(&module, case, &inputs);
        let (after, printed_after) = run_interpreter_printing(&inlined, case, &inputs);
        if let Err(e) =
            same(&reference, &before, &elems).and_then(|()| same_prints(&printed, &printed_before))
        {
            panic!("{}: rustc and the interpreter (before passes) disagree: {e}", case.kernel);
        }
        if let Err(e) =
            same(&reference, &after, &elems).and_then(|()| same_prints(&printed, &printed_after))
        {
            panic!("{}: rustc and the interpreter (after passes) disagree: {e}", case.kernel);
        }
        // Warp and warpgroup matrix multiplies and their fragment loads: the rewrites that
        // targets without the instructions run must compute what the interpreter's `rk.mma`,
        // `rk.ldmatrix` and `rk.wgmma` do, bit for bit.
        let (mma, wgmma) = (
            rkc_rk::passes::has_mma(&inlined) || rkc_rk::passes::has_ldmatrix(&inlined),
            rkc_rk::passes::has_wgmma(&inlined),
        );
        if mma || wgmma {
            let mut expanded = inlined.clone();
            rkc_rk::passes::expand_wgmma(&mut expanded);
            rkc_rk::passes::without_sm80(&mut expanded);
            assert!(!rkc_rk::passes::uses_sm80(&expanded), "{}", case.kernel);
            assert!(!rkc_rk::passes::has_wgmma(&expanded), "{}", case.kernel);
            rkc_rk::verify(&expanded)
                .unwrap_or_else(|e| panic!("{}: without_sm80 broke the module: {e}", case.kernel));
            let out = run_interpreter(&expanded, case, &inputs);
            if let Err(e) = same(&reference, &out, &elems) {
                panic!(
                    "{}: rustc and the interpreter (mma, ldmatrix and wgmma expanded) disagree: {e}",
                    case.kernel
                );
            }
        }
        // The inputs must have been changed, or the comparison proves little.
        match &reference {
            Outcome::Buffers(out) => {
                assert_ne!(out, &buffers(&inputs), "{}: the kernel wrote nothing", case.kernel)
            }
            Outcome::Panicked(message) => {
                println!("{}: every side panicked with `{message}`", case.kernel)
            }
            Outcome::Failed(e) => panic!("{}: {e}", case.kernel),
        }
    }
}

/// rk's text round-trips: print → parse → print is the identity on every testsuite kernel,
/// before and after the rk passes, and the parsed module verifies.
#[test]
fn rk_text_round_trips() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for file in files {
        let source = std::fs::read_to_string(&file).unwrap();
        let module =
            rkc_front::compile(&source).unwrap_or_else(|d| panic!("{}: {:?}", file.display(), d));
        let mut optimized = module.clone();
        rkc_rk::passes::inline_calls(&mut optimized).unwrap();
        rkc_rk::passes::optimize(&mut optimized, true, &mut |_, _| {});
        for m in [&module, &optimized] {
            let text = rkc_rk::print_module(m);
            let parsed = rkc_rk::parse_module(&text)
                .unwrap_or_else(|e| panic!("{}: {e}\n{text}", file.display()));
            rkc_rk::verify(&parsed).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            assert_eq!(rkc_rk::print_module(&parsed), text, "{}", file.display());
        }
    }
}

/// The rk parser never panics: every prefix of every printed kernel parses or gives an error.
#[test]
fn rk_parser_survives_every_prefix() {
    let source =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels/loops.rs"))
            .unwrap();
    let text = rkc_rk::print_module(&rkc_front::compile(&source).unwrap());
    for (cut, _) in text.char_indices() {
        if let Ok(m) = rkc_rk::parse_module(&text[..cut]) {
            // A prefix that parses is whole functions; it may still break verifier rules.
            let _ = rkc_rk::verify(&m);
        }
    }
}

/// The generated kernels (src/generator.rs via build.rs): rustc's result on the simulator and
/// the interpreter's, before and after the rk passes, agree exactly on every one.
#[test]
fn generated_kernels_agree_with_rustc() {
    let module = rkc_front::compile(generated::SOURCE).unwrap_or_else(|d| {
        panic!(
            "rkc refuses generated kernels:\n{}",
            rkc_front::render(&d, "generated.rs", generated::SOURCE, false)
        )
    });
    rkc_rk::verify(&module).unwrap();
    let mut optimized = module.clone();
    rkc_rk::passes::inline_calls(&mut optimized).unwrap();
    rkc_rk::passes::optimize(&mut optimized, true, &mut |_, _| {});
    rkc_rk::verify(&optimized).unwrap();
    let cases = generated_cases();
    assert!(cases.len() >= 100, "only {} generated kernels", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let inputs = inputs_for(case, &module);
        let func = module.funcs.iter().find(|f| f.name == case.kernel).unwrap();
        let tys: Vec<Type> = func.param_types().cloned().collect();
        let elems: Vec<Type> =
            tys.iter().filter(|t| matches!(t, Type::Slice { .. })).map(element).collect();
        let reference = run_rustc(case, &inputs, &tys);
        for (stage, m) in [("before", &module), ("after", &optimized)] {
            let got = run_interpreter(m, case, &inputs);
            if let Err(e) = same(&reference, &got, &elems) {
                failures.push(format!("{} ({stage} the passes): {e}", case.kernel));
            }
        }
    }
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n"));
}

/// Loop versioning (`rkc_rk::passes::version`) keeps every outcome: kernels whose loops it
/// versions run in the interpreter before and after it over a grid of sizes and lengths, in
/// and out of bounds, and give the same buffers or the same panic (message, location, block
/// and thread). Each loop shape the pass recognises is here, and a check it must keep.
#[test]
fn versioned_loops_keep_every_outcome() {
    const SOURCE: &str = r#"
use rkc_offload::prelude::*;
#[offload_kernel]
pub fn rows(n: usize, a: &[u32], out: &mut [u32]) {
    let t = unsafe { thread_idx_x() } as usize;
    let mut acc = 0u32;
    for k in 0..n {
        acc = acc.wrapping_add(a[t * n + k]);
    }
    out[t] = acc;
}
#[offload_kernel]
pub fn rows_rev(n: usize, a: &[u32], out: &mut [u32]) {
    let t = unsafe { thread_idx_x() } as usize;
    let mut acc = 0u32;
    for k in (1..=n).rev() {
        acc = acc.wrapping_mul(3).wrapping_add(a[t + k]);
    }
    out[t] = acc;
}
#[offload_kernel]
pub fn strided(n: usize, a: &[u32], out: &mut [u32]) {
    let t = unsafe { thread_idx_x() } as usize;
    let mut acc = 0u32;
    for k in (t..n).step_by(4) {
        acc = acc.wrapping_add(a[k] ^ k as u32);
    }
    out[t] = acc;
}
#[offload_kernel]
pub fn tiles(n: usize, a: &[u32], out: &mut [u32]) {
    let t = unsafe { thread_idx_x() } as usize;
    let mut j = 0usize;
    while j < 8 {
        if t + j < n {
            out[(t + j) * 2] = a[t * 3 + j] + 1;
        }
        j += 2;
    }
}
#[offload_kernel]
pub fn grid_stride(a: &[u32], out: &mut [u32]) {
    let t = unsafe { thread_idx_x() } as usize;
    let stride = unsafe { block_dim_x() } as usize;
    let mut i = t;
    let mut s = 0u32;
    while i < a.len() {
        s = s.wrapping_add(a[i]);
        i += stride;
    }
    out[t * 5] = s;
}
#[offload_kernel]
pub fn behind(n: usize, a: &[u32], out: &mut [u32]) {
    let t = unsafe { thread_idx_x() } as usize;
    let mut acc = 0u32;
    for i in t..n {
        acc = acc.wrapping_add(a[i - 2]);
    }
    out[t] = acc;
}
#[offload_kernel]
pub fn nested(n: usize, a: &[u32], out: &mut [u32]) {
    let t = unsafe { thread_idx_x() } as usize;
    let mut acc = 0u32;
    for i in 0..n {
        for j in 0..3 {
            acc = acc.wrapping_add(a[i * 3 + j + t]);
        }
    }
    out[t] = acc;
}
#[offload_kernel]
pub fn narrow(n: u32, a: &[u32], out: &mut [u32]) {
    let t = unsafe { thread_idx_x() };
    let mut acc = 0u32;
    for i in t..n {
        acc = acc.wrapping_add(a[i as usize]);
    }
    out[t as usize] = acc;
}
#[offload_kernel]
pub fn masked(n: usize, a: &[u32], bins: &mut [u32]) {
    let t = unsafe { thread_idx_x() } as usize;
    let mut i = t;
    while i < n {
        bins[(a[i] & 7) as usize] += 1;
        i += 4;
    }
}
#[offload_kernel]
pub fn tiled(n: usize, a: &[u32], out: &mut [u32]) {
    let t = unsafe { thread_idx_x() } as usize;
    let tile = unsafe { shared_array::<u32, 4>() };
    let mut acc = 0u32;
    let mut k0 = 0usize;
    while k0 < n {
        unsafe {
            (*tile)[t] = a[k0 + t];
            sync_threads();
        }
        for k in 0..4 {
            acc = acc.wrapping_add(unsafe { (*tile)[k] } ^ k as u32);
        }
        unsafe { sync_threads() };
        k0 += 4;
    }
    out[t] = acc;
}
#[offload_kernel]
pub fn voted(n: usize, a: &[u32], out: &mut [u32]) {
    let t = unsafe { thread_idx_x() } as usize;
    let mut acc = 0u32;
    for k in 0..n {
        acc = acc.wrapping_add(unsafe { warp_shuffle_xor(a[k * 32 + t], 1) });
    }
    out[t] = acc;
}
#[offload_kernel]
pub fn after_step(n: usize, a: &[u32], out: &mut [u32]) {
    let t = unsafe { thread_idx_x() } as usize;
    let mut j = 0usize;
    let mut acc = 0u32;
    while j < n {
        j += 1;
        acc = acc.wrapping_add(a[j] + a[t]);
    }
    out[t] = acc;
}
"#;
    let module = rkc_front::compile(SOURCE)
        .unwrap_or_else(|d| panic!("{}", rkc_front::render(&d, "versioned.rs", SOURCE, false)));
    let mut plain = module.clone();
    rkc_rk::passes::inline_calls(&mut plain).unwrap();
    rkc_rk::passes::simplify(&mut plain);
    let mut versioned = plain.clone();
    rkc_rk::passes::optimize(&mut versioned, true, &mut |_, _| {});
    rkc_rk::verify(&versioned).unwrap();
    let words = |n: usize, seed: u32| -> Vec<u8> {
        (0..n as u32).flat_map(|i| (i.wrapping_mul(2654435761) ^ seed).to_le_bytes()).collect()
    };
    let mut outcomes = std::collections::BTreeMap::<&str, (usize, usize)>::new();
    for func in plain.kernels() {
        let name = func.name.as_str();
        let count = |m: &rkc_rk::Module, what: &str| {
            rkc_rk::print_module(&rkc_rk::Module {
                funcs: m.funcs.iter().filter(|f| f.name == name).cloned().collect(),
                tables: vec![],
            })
            .matches(what)
            .count()
        };
        assert!(count(&versioned, "rk.loop") > count(&plain, "rk.loop"), "{name}: not versioned");
        if name == "after_step" {
            // `a[j]` reads the variable after its increment, where its range is not known: the
            // fast copy keeps that check (and drops the one of `a[t]`).
            let checks = (count(&plain, "rk.bounds_check"), count(&versioned, "rk.bounds_check"));
            assert_eq!(checks.1, checks.0 + 1, "{name}: checks before and after versioning");
        }
        // Warp operations need whole warps.
        let threads = if name == "voted" { 32 } else { 4 };
        let launch =
            rkc_rk::interp::Launch { grid: [1, 1, 1], block: [threads, 1, 1], dyn_shared: 0 };
        let (mut ok, mut panicked) = (0, 0);
        for n in 0..12usize {
            for len in [0usize, 1, 2, 3, 5, 8, 11, 12, 24, 30, 40, 64, 100] {
                for out_len in [4usize, 16, 24, 40] {
                    let scalar = rkc_rk::interp::Arg::Scalar(n as u64);
                    let mut args = vec![
                        scalar,
                        rkc_rk::interp::Arg::Buffer(words(len, 7)),
                        rkc_rk::interp::Arg::Buffer(words(out_len, 9)),
                    ];
                    if func.params.len() == 2 {
                        args.remove(0);
                    }
                    let mut args2 = args.clone();
                    let a = rkc_rk::interp::run(&plain, name, launch, &mut args);
                    let b = rkc_rk::interp::run(&versioned, name, launch, &mut args2);
                    let case = format!("{name}: n = {n}, len = {len}, out = {out_len}");
                    match (&a, &b) {
                        // The threads of a kernel that synchronises run at once in the
                        // interpreter (and the versioned kernel waits twice more, to agree on a
                        // copy): when several threads panic, any of them may be first, as on a
                        // GPU, where the first to claim the panic record wins. The site is the
                        // same.
                        (
                            Err(rkc_rk::interp::InterpError::Panic { loc: x, .. }),
                            Err(rkc_rk::interp::InterpError::Panic { loc: y, .. }),
                        ) if name == "tiled" || name == "voted" => {
                            assert_eq!(x, y, "{case}: {a:?} {b:?}")
                        }
                        _ => {
                            assert_eq!(a, b, "{case}");
                            assert_eq!(args, args2, "{case}");
                        }
                    }
                    if a.is_ok() { ok += 1 } else { panicked += 1 }
                }
            }
        }
        outcomes.insert(name, (ok, panicked));
    }
    // Both outcomes occur for every kernel, or the grid proves little.
    for (name, (ok, panicked)) in &outcomes {
        assert!(*ok > 0 && *panicked > 0, "{name}: {ok} runs passed, {panicked} panicked");
    }
}

/// The rk passes take time linear in an expression's size, also when its subexpressions are
/// shared: a value the loop does not change, built by doubling 100 times inside it (`let b =
/// a + a; let c = b + b; ...`), would take 2^100 steps to walk as a tree, and this test would
/// not finish.
#[test]
fn shared_subexpressions_do_not_explode() {
    let mut body = String::from("let x0 = t;\n");
    for i in 1..=100 {
        body += &format!("        let x{i} = x{p}.wrapping_add(x{p});\n", p = i - 1);
    }
    let source = format!(
        "use rkc_offload::prelude::*;\n#[offload_kernel]\npub fn k(n: usize, a: &[u32], out: &mut [u32]) {{\n    let t = unsafe {{ thread_idx_x() }} as usize;\n    let mut s = 0u32;\n    for k in 0..n {{\n        {body}        s = s.wrapping_add(a[k + (x100 & 7)]);\n    }}\n    out[0] = s;\n}}\n"
    );
    let module = rkc_front::compile(&source)
        .unwrap_or_else(|d| panic!("{}", rkc_front::render(&d, "k.rs", &source, false)));
    let mut m = module.clone();
    rkc_rk::passes::inline_calls(&mut m).unwrap();
    let stats = rkc_rk::passes::optimize(&mut m, true, &mut |_, _| {});
    rkc_rk::verify(&m).unwrap();
    assert_eq!(stats.loops_versioned, 1, "the loop's checks are proven");
}

/// The warp matrix kernels against a plain matrix product, written without fragments: each
/// step of sixteen columns adds its products to the accumulator in `k`'s order, in `f64`, and
/// rounds once (`rkc_simt::mma`'s rule). This holds the fragment layouts and the
/// `mma_load_*`/`mma_store_d` helpers to the matrices they stand for, on the cases' inputs
/// (small integers, exact on tensor cores too) and on random ones, whose sums round: as rustc
/// compiles the kernels (on the simulator) and in the interpreter with `rk.mma` expanded.
#[test]
fn warp_matrix_kernels_compute_the_matrix_product() {
    use rkc_rk::interp::Arg;
    let half = |bits: &[u8], ty: rkc_rk::MmaType| -> Vec<f64> {
        bits.chunks(2).map(|b| ty.to_f64(u16::from_le_bytes([b[0], b[1]]))).collect()
    };
    let floats = |bits: &[u8]| -> Vec<f32> {
        bits.chunks(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()
    };
    for case in cases().iter().filter(|c| c.file == "tensor.rs") {
        let source = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels").join(case.file),
        )
        .unwrap();
        let module = rkc_front::compile(&source).unwrap();
        let mut expanded = module.clone();
        rkc_rk::passes::inline_calls(&mut expanded).unwrap();
        rkc_rk::passes::optimize(&mut expanded, true, &mut |_, _| {});
        assert!(rkc_rk::passes::expand_mma(&mut expanded) > 0);
        rkc_rk::passes::expand_ldmatrix(&mut expanded);
        let func = module.funcs.iter().find(|f| f.name == case.kernel).unwrap();
        let tys: Vec<Type> = func.param_types().cloned().collect();
        let random: Vec<Input> = case
            .inputs
            .iter()
            .flatten()
            .map(|i| match i {
                Input::SmallIntegers(n) => Input::Random(*n),
                Input::Scalar(x) => Input::Scalar(*x),
                Input::Random(n) => Input::Random(*n),
                Input::Zeros(n) => Input::Zeros(*n),
            })
            .collect();
        let random = Case { inputs: Some(random), ..*case };
        for variant in [case, &random] {
            let inputs = inputs_for(variant, &module);
            let [Arg::Scalar(k), Arg::Scalar(n), ..] = inputs[..] else { panic!("k and n first") };
            let (k, n) = (k as usize, n as usize);
            let given = buffers(&inputs);
            let ty = if case.kernel.starts_with("bf16") {
                rkc_rk::MmaType::Bf16
            } else {
                rkc_rk::MmaType::F16
            };
            let (a, b) = (half(&given[0], ty), half(&given[1], ty));
            let m = a.len() / k;
            // `hgemm_tiles` adds `c`; `bf16_gemm_shared` starts from zero.
            let c = if given.len() == 4 { floats(&given[2]) } else { vec![0.0; m * n] };
            let mut expected = vec![0.0f32; m * n];
            for i in 0..m {
                for j in 0..n {
                    let mut acc = c[i * n + j];
                    for k0 in (0..k).step_by(16) {
                        let mut wide = f64::from(acc);
                        for kk in k0..k0 + 16 {
                            wide += a[i * k + kk] * b[kk * n + j];
                        }
                        acc = wide as f32;
                    }
                    expected[i * n + j] = acc;
                }
            }
            let runs = [
                ("rustc", run_rustc(variant, &inputs, &tys)),
                (
                    "the interpreter (mma and ldmatrix expanded)",
                    run_interpreter(&expanded, variant, &inputs),
                ),
            ];
            for (who, outcome) in runs {
                let Outcome::Buffers(out) = outcome else {
                    panic!("{}: the kernel did not run under {who}", case.kernel)
                };
                let d = floats(out.last().unwrap());
                for (at, (got, want)) in d.iter().zip(&expected).enumerate() {
                    assert_eq!(
                        got.to_bits(),
                        want.to_bits(),
                        "{} under {who}: d[{}][{}] is {got} where the product gives {want}",
                        case.kernel,
                        at / n,
                        at % n
                    );
                }
            }
        }
    }
}

/// The warpgroup kernels compute `a·b`: their tiles' layouts in the kernel file agree with the
/// ones `rkc_simt::wgmma` defines (which the executors above share, and which the GPU
/// conformance run holds to the tensor cores), checked here against the product itself; the
/// case whose `a` is short panics at the copy past its end instead.
#[test]
fn warpgroup_kernels_compute_the_product() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels");
    let source = std::fs::read_to_string(dir.join("warpgroup.rs")).unwrap();
    let module = rkc_front::compile(&source).unwrap_or_else(|d| panic!("{d:?}"));
    let cases: Vec<Case> = cases().into_iter().filter(|c| c.file == "warpgroup.rs").collect();
    assert_eq!(cases.len(), 4);
    for case in &cases {
        let inputs = inputs_for(case, &module);
        let (k, n) = match (&inputs[0], &inputs[1]) {
            (rkc_rk::interp::Arg::Scalar(k), rkc_rk::interp::Arg::Scalar(n)) => {
                (*k as usize, *n as usize)
            }
            _ => panic!("{}: k and n come first", case.kernel),
        };
        // f16 and bf16 inputs, each element's value exactly.
        let bf16 = case.kernel == "wgmma_pipelined";
        let values = |bytes: &[u8]| -> Vec<f64> {
            bytes
                .chunks(2)
                .map(|h| {
                    let bits = u16::from_le_bytes([h[0], h[1]]);
                    if bf16 {
                        f64::from(half::bf16::from_bits(bits).to_f32())
                    } else {
                        f64::from(half::f16::from_bits(bits).to_f32())
                    }
                })
                .collect()
        };
        let buffers = buffers(&inputs);
        let (a, b) = (values(&buffers[0]), values(&buffers[1]));
        let m = a.len() / k;
        let outcome = run_interpreter(&module, case, &inputs);
        if a.len() % k != 0 {
            let Outcome::Panicked(message) = outcome else {
                panic!("{}: a short `a` did not panic", case.kernel)
            };
            assert!(message.starts_with("index out of bounds"), "{}: {message}", case.kernel);
            continue;
        }
        let Outcome::Buffers(out) = outcome else {
            panic!("{}: the interpreter did not finish", case.kernel)
        };
        let d: Vec<f32> =
            out[2].chunks(4).map(|x| f32::from_le_bytes([x[0], x[1], x[2], x[3]])).collect();
        for r in 0..m {
            for c in 0..n {
                let want: f64 = (0..k).map(|i| a[r * k + i] * b[i * n + c]).sum();
                assert_eq!(f64::from(d[r * n + c]), want, "{}: d[{r}][{c}]", case.kernel);
            }
        }
    }
}
