#![no_main]
//! See testsuite/fuzz/Cargo.toml; the checks themselves are in rkc_testsuite-independent code
//! shared with the stable corpus replay: testsuite/fuzz/targets.rs.
#[path = "../targets.rs"]
mod targets;

libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::front_end(data));
