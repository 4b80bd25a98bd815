//! The example as a user runs it, on the CPU simulator (CI has no GPU): it must exit 0 after
//! checking every result against its CPU reference, and report its times.

#[test]
fn runs_on_the_simulator_and_checks_its_results() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_blur"))
        .env("OFFLOAD_TARGET", "disabled")
        .args(std::env::temp_dir().join(format!("rkc-example-{}", std::process::id())).to_str())
        .output()
        .expect("run the example");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("CPU simulator") || stdout.contains("host"), "{stdout}");
    for expected in EXPECTED {
        assert!(stdout.contains(expected), "no `{expected}` in:\n{stdout}");
    }
}

const EXPECTED: &[&str] = &["196608 of 196608 pixels equal the CPU reference", "input.png", "output.png"];
