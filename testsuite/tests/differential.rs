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
        rkc_rk::passes::simplify(&mut inlined);
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

        let reference = run_rustc(case, &inputs, &tys);
        let before = run_interpreter(&module, case, &inputs);
        let after = run_interpreter(&inlined, case, &inputs);
        if let Err(e) = same(&reference, &before, &elems) {
            panic!("{}: rustc and the interpreter (before passes) disagree: {e}", case.kernel);
        }
        if let Err(e) = same(&reference, &after, &elems) {
            panic!("{}: rustc and the interpreter (after passes) disagree: {e}", case.kernel);
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
        rkc_rk::passes::simplify(&mut optimized);
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
    rkc_rk::passes::simplify(&mut optimized);
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
