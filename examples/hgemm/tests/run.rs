//! The example as a user runs it, on the CPU simulator (see examples/run_check.rs).

#[path = "../../run_check.rs"]
mod run_check;

#[test]
fn runs_on_the_simulator_and_checks_its_results() {
    run_check::run(
        env!("CARGO_BIN_EXE_hgemm"),
        &[],
        &["4096 of 4096 elements equal the CPU reference", "end to end"],
    );
}
