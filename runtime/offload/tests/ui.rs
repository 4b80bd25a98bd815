//! Compile-fail tests: `offload!` and `#[offload_kernel]` errors, with upstream's exact texts.
//! Re-bless with `TRYBUILD=overwrite cargo test -p rkc-offload --test ui`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
