//! The testsuite's kernels, compiled by rustc: the reference side of the differential test
//! (tests/differential.rs), which runs each on the CPU simulator and in the rk interpreter.
//!
//! The workspace builds this crate without overflow checks (see the root Cargo.toml), because
//! rkc gives kernels the semantics of a Rust release build.

#[path = "../kernels/arithmetic.rs"]
pub mod arithmetic;
#[path = "../kernels/canonical.rs"]
pub mod canonical;
#[path = "../kernels/device_functions.rs"]
pub mod device_functions;
#[path = "../kernels/loops.rs"]
pub mod loops;
#[path = "../kernels/matching.rs"]
pub mod matching;
#[path = "../kernels/saxpy.rs"]
pub mod saxpy;
