//! The example as a user runs it, on the CPU simulator (see examples/run_check.rs).

#[path = "../../run_check.rs"]
mod run_check;

#[test]
fn runs_on_the_simulator_and_checks_its_results() {
    let folder = std::env::temp_dir().join(format!("rkc-example-{}", std::process::id()));
    run_check::run(
        env!("CARGO_BIN_EXE_blur"),
        &[folder.to_str().unwrap()],
        &["196608 of 196608 pixels equal the CPU reference", "input.png", "output.png"],
    );
    assert!(folder.join("output.png").is_file());
}
