//! The example as a user runs it, on the CPU simulator (see examples/run_check.rs).

#[path = "../../run_check.rs"]
mod run_check;

#[test]
fn runs_on_the_simulator_and_checks_its_results() {
    run_check::run(
        env!("CARGO_BIN_EXE_slice"),
        &[],
        &["kernel: 256 of 256 elements correct", "saxpy: 1048579 of 1048579 elements correct"],
    );
}
