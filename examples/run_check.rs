//! Shared by every example's `tests/run.rs`: runs the example as a user does, on the CPU
//! simulator (CI has no GPU); it must exit 0 after checking its results against its CPU
//! reference, and print the lines the test expects.

pub fn run(binary: &str, args: &[&str], expected: &[&str]) {
    let out = std::process::Command::new(binary)
        .env("OFFLOAD_TARGET", "disabled")
        .args(args)
        .output()
        .expect("run the example");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("CPU simulator") || stdout.contains("host"), "{stdout}");
    for e in expected {
        assert!(stdout.contains(e), "no `{e}` in:\n{stdout}");
    }
}
