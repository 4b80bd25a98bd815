//! The testsuite: its kernels as rustc compiles them (the reference for rkc), and the cases
//! that drive each kernel the same way everywhere: the differential test against the rk
//! interpreter (tests/differential.rs) and the GPU conformance run (src/bin/conformance.rs).
//!
//! The workspace builds this crate without overflow checks or debug assertions (see the root
//! Cargo.toml), because rkc gives kernels the semantics of a Rust release build.

#[path = "../kernels/algorithms.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod algorithms;
#[path = "../kernels/arithmetic.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod arithmetic;
#[path = "../kernels/arrays.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod arrays;
#[path = "../kernels/atomics.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod atomics;
/// The GPU benchmark's kernels, as rustc compiles them (the host side of `runtime-bench`).
#[path = "../bench/kernels.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod bench_kernels;
#[path = "../kernels/block_algorithms.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod block_algorithms;
#[path = "../kernels/bytes.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod bytes;
#[path = "../kernels/canonical.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod canonical;
#[path = "../kernels/casts.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod casts;
#[path = "../kernels/chunks.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod chunks;
#[path = "../kernels/closures.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod closures;
#[path = "../kernels/closures2.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod closures2;
#[path = "../kernels/collect.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod collect;
#[path = "../kernels/control.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod control;
#[path = "../kernels/copies.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod copies;
#[path = "../kernels/core_gaps.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod core_gaps;
pub mod cuda;
#[path = "../kernels/derefs.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod derefs;
#[path = "../kernels/device_functions.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod device_functions;
#[path = "../kernels/enums.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod enums;
/// Kernels that fault on purpose (run on the GPU only: see the file).
#[path = "../faults/trap.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod faults_trap;
pub mod generator;
#[path = "../kernels/generics.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod generics;
#[path = "../kernels/grid2d.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod grid2d;
#[path = "../kernels/halfs.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod halfs;
#[path = "../kernels/idioms.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod idioms;
#[path = "../kernels/idioms2.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod idioms2;
#[path = "../kernels/idioms3.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod idioms3;
#[path = "../kernels/images.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod images;
#[path = "../kernels/impls.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod impls;
#[path = "../kernels/inference.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod inference;
#[path = "../kernels/iterators.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod iterators;
#[path = "../kernels/loops.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod loops;
#[path = "../kernels/matching.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod matching;
#[path = "../kernels/math.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod math;
#[path = "../kernels/methods.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod methods;
#[path = "../kernels/modules.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod modules;
pub mod multi_device;

/// The generated kernels (build.rs, src/generator.rs), compiled by rustc as the reference.
#[allow(
    unused,
    unused_parens,
    unused_braces,
    unused_comparisons,
    arithmetic_overflow,
    clippy::all,
    reason = "generated code parenthesises every operation"
)]
pub mod generated {
    include!(concat!(env!("OUT_DIR"), "/generated.rs"));

    /// The generated file's text, for rkc.
    pub const SOURCE: &str = include_str!(concat!(env!("OUT_DIR"), "/generated.rs"));
}
#[path = "../kernels/numerics.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod numerics;
#[path = "../kernels/operators.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod operators;
#[path = "../kernels/options.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod options;
#[path = "../kernels/panics.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod panics;
#[path = "../kernels/patterns.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod patterns;
#[path = "../kernels/physics.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod physics;
#[path = "../kernels/pointers.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod pointers;
#[path = "../kernels/ported.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod ported;
#[path = "../kernels/prints.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod prints;
#[path = "../kernels/references.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod references;
#[path = "../kernels/results.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod results;
#[path = "../kernels/saxpy.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod saxpy;
#[path = "../kernels/shared.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod shared;
#[path = "../kernels/slices.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod slices;
#[path = "../kernels/state.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod state;
#[path = "../kernels/structs.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod structs;
#[path = "../kernels/tensor.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod tensor;
#[path = "../kernels/traits.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod traits;
#[path = "../kernels/ulps.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod ulps;
#[path = "../kernels/vectors.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod vectors;
#[path = "../kernels/warp.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod warp;
#[path = "../kernels/warpgroup.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod warpgroup;
#[path = "../kernels/wide.rs"]
#[allow(clippy::all, reason = "kernels are written as users write them, lints and all")]
pub mod wide;

use rkc_offload::{LaunchConfig, OffloadError};
use rkc_rk::interp::{self, Arg, InterpError, Launch};
use rkc_rk::{FloatTy, Module, Type};

/// How one argument is made.
#[derive(Clone, Debug)]
pub enum Input {
    /// A scalar's bits.
    Scalar(u64),
    /// A buffer of `len` elements of the parameter's pointee element type, random.
    Random(usize),
    /// A buffer of `len` zeroed elements.
    Zeros(usize),
    /// A buffer of `len` floats holding random integers in `-8..=8`: sums and products of a
    /// few of them are exact in any order, so that a GPU whose tensor cores add in an order of
    /// their own still gives the CPU executors' bits.
    SmallIntegers(usize),
}

pub struct Case {
    pub file: &'static str,
    pub kernel: &'static str,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// `None`: derived from the parameter types (every parameter a pointer to an array).
    pub inputs: Option<Vec<Input>>,
    /// How far a GPU's float results may be from the CPU's, in units in the last place: 0
    /// (bit-exact) except where the GPU's libraries (libdevice, ocml) compute transcendental
    /// functions with their own, documented errors. The interpreter and rustc share the host's
    /// library and must always agree exactly.
    pub gpu_ulps: u32,
    /// Bytes of dynamic shared memory (`dyn_cache`).
    pub dyn_cache: u32,
    pub simulate: Simulate,
}

/// Runs a kernel's rustc-compiled body on the simulator over raw arguments.
pub type Simulate = fn(&LaunchConfig, &[u64]) -> Result<(), OffloadError>;

macro_rules! sim {
    ($k:path) => {
        // SAFETY: the harness passes addresses of buffers sized from the kernel's own types.
        |config, args| unsafe { rkc_offload::simulate_raw::<$k>(config, args) }
    };
}

pub fn cases() -> Vec<Case> {
    let f32b = |x: f32| u64::from(x.to_bits());
    vec![
        Case {
            file: "canonical.rs",
            kernel: "kernel",
            grid: [256, 1, 1],
            block: [1, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(canonical::kernel),
        },
        Case {
            file: "saxpy.rs",
            kernel: "saxpy",
            grid: [4, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![
                Input::Scalar(250),
                Input::Scalar(f32b(2.5)),
                Input::Random(256),
                Input::Random(256),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(saxpy::saxpy),
        },
        Case {
            file: "slices.rs",
            kernel: "slices",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![
                Input::Scalar(f32b(-1.5)),
                Input::Random(100),
                Input::Random(120),
                Input::Random(4),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(slices::slices),
        },
        Case {
            file: "shared.rs",
            kernel: "block_sum",
            grid: [4, 1, 1],
            block: [256, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(shared::block_sum),
        },
        Case {
            file: "shared.rs",
            kernel: "shared_sites",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(shared::shared_sites),
        },
        Case {
            file: "shared.rs",
            kernel: "dynamic_reverse",
            grid: [3, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(150), Input::Zeros(170)]),
            gpu_ulps: 0,
            dyn_cache: 256,
            simulate: sim!(shared::dynamic_reverse),
        },
        Case {
            file: "shared.rs",
            kernel: "histogram",
            grid: [4, 1, 1],
            block: [256, 1, 1],
            inputs: Some(vec![
                Input::Random(1024),
                Input::Zeros(16),
                Input::Random(2),
                Input::Random(1),
                Input::Zeros(2),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(shared::histogram),
        },
        Case {
            file: "shared.rs",
            kernel: "register_tile",
            grid: [2, 2, 1],
            block: [64, 1, 1],
            inputs: Some(vec![
                Input::Scalar(64),
                Input::Random(64 * 64),
                Input::Random(64 * 64),
                Input::Zeros(64 * 64),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(shared::register_tile),
        },
        Case {
            file: "shared.rs",
            kernel: "uniform_slots",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Scalar(256), Input::Random(320), Input::Zeros(128)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(shared::uniform_slots),
        },
        Case {
            file: "grid2d.rs",
            kernel: "stencil",
            grid: [4, 2, 1],
            block: [8, 16, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(grid2d::stencil),
        },
        Case {
            file: "loops.rs",
            kernel: "loops",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(loops::loops),
        },
        Case {
            file: "matching.rs",
            kernel: "classify",
            grid: [1, 1, 1],
            block: [128, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(matching::classify),
        },
        Case {
            file: "device_functions.rs",
            kernel: "device_functions",
            grid: [1, 1, 1],
            block: [40, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(device_functions::device_functions),
        },
        Case {
            file: "arithmetic.rs",
            kernel: "arithmetic",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(arithmetic::arithmetic),
        },
        Case {
            file: "math.rs",
            kernel: "exact_math",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(math::exact_math),
        },
        Case {
            file: "math.rs",
            kernel: "integer_methods",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(math::integer_methods),
        },
        // Eleven libdevice functions summed: each within 2 ulp on the GPU, the sum within a
        // few more after rounding; measured on the H200 (see gpu-results/).
        Case {
            file: "math.rs",
            kernel: "transcendental",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 64,
            dyn_cache: 0,
            simulate: sim!(math::transcendental),
        },
        Case {
            file: "prints.rs",
            kernel: "print_values",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(prints::print_values),
        },
        Case {
            file: "prints.rs",
            kernel: "print_loop",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(prints::print_loop),
        },
        Case {
            file: "prints.rs",
            kernel: "print_halfs",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(prints::print_halfs),
        },
        Case {
            file: "panics.rs",
            kernel: "out_of_bounds",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(panics::out_of_bounds),
        },
        Case {
            file: "panics.rs",
            kernel: "failed_assert",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(panics::failed_assert),
        },
        Case {
            file: "inference.rs",
            kernel: "inference",
            grid: [1, 1, 1],
            block: [1, 1, 1],
            inputs: Some(vec![Input::Random(37), Input::Zeros(5)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(inference::inference),
        },
        Case {
            file: "patterns.rs",
            kernel: "patterns",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(100), Input::Zeros(100), Input::Zeros(8)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(patterns::patterns),
        },
        Case {
            file: "patterns.rs",
            kernel: "destructure",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(100), Input::Zeros(110)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(patterns::destructure),
        },
        Case {
            file: "patterns.rs",
            kernel: "array_lengths",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(100), Input::Zeros(110)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(patterns::array_lengths),
        },
        Case {
            file: "patterns.rs",
            kernel: "pointers",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(100), Input::Zeros(128), Input::Zeros(8)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(patterns::pointers),
        },
        Case {
            file: "patterns.rs",
            kernel: "keywords",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(64), Input::Zeros(64)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(patterns::keywords),
        },
        // Each float function separately; the conformance run reports each one's error in
        // ULPs against an f64 reference. libdevice's functions are within 4 ulp of the correct
        // result (acosh; most within 2) and glibc's within 2, so the two may differ by 6;
        // `powi` is repeated multiplication on both sides.
        Case {
            file: "ulps.rs",
            kernel: "ulps_f32",
            grid: [2, 1, 1],
            block: [128, 1, 1],
            inputs: Some(vec![Input::Random(256), Input::Zeros(ulps::FUNCTIONS * 256)]),
            gpu_ulps: 8,
            dyn_cache: 0,
            simulate: sim!(ulps::ulps_f32),
        },
        Case {
            file: "ulps.rs",
            kernel: "ulps_f64",
            grid: [2, 1, 1],
            block: [128, 1, 1],
            inputs: Some(vec![Input::Random(256), Input::Zeros(ulps::FUNCTIONS * 256)]),
            gpu_ulps: 8,
            dyn_cache: 0,
            simulate: sim!(ulps::ulps_f64),
        },
        Case {
            file: "warp.rs",
            kernel: "shuffles",
            grid: [2, 1, 1],
            block: [128, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(warp::shuffles),
        },
        Case {
            file: "warp.rs",
            kernel: "votes",
            grid: [2, 1, 1],
            block: [128, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(warp::votes),
        },
        Case {
            file: "warp.rs",
            kernel: "reductions",
            grid: [2, 1, 1],
            block: [128, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(warp::reductions),
        },
        Case {
            file: "warp.rs",
            kernel: "block_reduce",
            grid: [5, 1, 1],
            block: [256, 1, 1],
            inputs: Some(vec![Input::Scalar(1200), Input::Random(1200), Input::Zeros(5)]),
            gpu_ulps: 0,
            dyn_cache: 32,
            simulate: sim!(warp::block_reduce),
        },
        Case {
            file: "math.rs",
            kernel: "inverse_hyperbolic",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 64,
            dyn_cache: 0,
            simulate: sim!(math::inverse_hyperbolic),
        },
        Case {
            file: "math.rs",
            kernel: "checked",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(math::checked),
        },
        Case {
            file: "operators.rs",
            kernel: "narrow_ints",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(operators::narrow_ints),
        },
        Case {
            file: "operators.rs",
            kernel: "wide_ints",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(operators::wide_ints),
        },
        Case {
            file: "operators.rs",
            kernel: "float_ops",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(operators::float_ops),
        },
        Case {
            file: "operators.rs",
            kernel: "logic",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(operators::logic),
        },
        Case {
            file: "operators.rs",
            kernel: "compound",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(operators::compound),
        },
        Case {
            file: "casts.rs",
            kernel: "float_to_int",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(casts::float_to_int),
        },
        Case {
            file: "casts.rs",
            kernel: "int_to_int",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(casts::int_to_int),
        },
        Case {
            file: "casts.rs",
            kernel: "to_float",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(casts::to_float),
        },
        Case {
            file: "casts.rs",
            kernel: "bits",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(casts::bits),
        },
        Case {
            file: "control.rs",
            kernel: "early_return",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(control::early_return),
        },
        Case {
            file: "control.rs",
            kernel: "labelled",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(control::labelled),
        },
        Case {
            file: "control.rs",
            kernel: "matches",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(control::matches),
        },
        Case {
            file: "control.rs",
            kernel: "blocks",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(control::blocks),
        },
        Case {
            file: "control.rs",
            kernel: "ranges",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(control::ranges),
        },
        Case {
            file: "methods.rs",
            kernel: "int_methods_wide",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(methods::int_methods_wide),
        },
        Case {
            file: "methods.rs",
            kernel: "float_methods_f64",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(methods::float_methods_f64),
        },
        Case {
            file: "methods.rs",
            kernel: "swap_and_size",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(methods::swap_and_size),
        },
        Case {
            file: "algorithms.rs",
            kernel: "number_theory",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(algorithms::number_theory),
        },
        Case {
            file: "algorithms.rs",
            kernel: "fixed_point",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(algorithms::fixed_point),
        },
        Case {
            file: "algorithms.rs",
            kernel: "mandelbrot",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(algorithms::mandelbrot),
        },
        Case {
            file: "algorithms.rs",
            kernel: "hash",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(algorithms::hash),
        },
        Case {
            file: "algorithms.rs",
            kernel: "matvec",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(algorithms::matvec),
        },
        Case {
            file: "algorithms.rs",
            kernel: "sorting_network",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(algorithms::sorting_network),
        },
        Case {
            file: "panics.rs",
            kernel: "divide_by_zero",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(panics::divide_by_zero),
        },
        Case {
            file: "panics.rs",
            kernel: "explicit_panic",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(panics::explicit_panic),
        },
        Case {
            file: "modules.rs",
            kernel: "distances",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(modules::distances),
        },
        Case {
            file: "modules.rs",
            kernel: "traits_in_scope",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(100), Input::Zeros(110)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(modules::traits_in_scope),
        },
        Case {
            file: "pointers.rs",
            kernel: "neighbours",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(pointers::neighbours),
        },
        Case {
            file: "pointers.rs",
            kernel: "struct_pointers",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(pointers::struct_pointers),
        },
        Case {
            file: "pointers.rs",
            kernel: "quads",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![
                Input::Random(64),
                Input::Zeros(64),
                Input::Random(260),
                Input::Zeros(260),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(pointers::quads),
        },
        Case {
            file: "block_algorithms.rs",
            kernel: "scan",
            grid: [2, 1, 1],
            block: [128, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(block_algorithms::scan),
        },
        Case {
            file: "block_algorithms.rs",
            kernel: "transpose",
            grid: [2, 2, 1],
            block: [16, 16, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(block_algorithms::transpose),
        },
        Case {
            file: "arrays.rs",
            kernel: "local_arrays",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(arrays::local_arrays),
        },
        Case {
            file: "arrays.rs",
            kernel: "local_sort",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(arrays::local_sort),
        },
        Case {
            file: "structs.rs",
            kernel: "particles",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(structs::particles),
        },
        Case {
            file: "structs.rs",
            kernel: "tuples",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(structs::tuples),
        },
        Case {
            file: "structs.rs",
            kernel: "records",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(60), Input::Zeros(64)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(structs::records),
        },
        Case {
            file: "structs.rs",
            kernel: "by_value",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![
                Input::Random(1),
                Input::Random(4),
                Input::Random(64),
                Input::Zeros(64),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(structs::by_value),
        },
        Case {
            file: "impls.rs",
            kernel: "vectors",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(impls::vectors),
        },
        Case {
            file: "impls.rs",
            kernel: "statistics",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(impls::statistics),
        },
        Case {
            file: "arrays.rs",
            kernel: "iteration",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(50), Input::Zeros(64)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(arrays::iteration),
        },
        Case {
            file: "structs.rs",
            kernel: "choices",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(structs::choices),
        },
        Case {
            file: "inference.rs",
            kernel: "inference_uses",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![
                Input::Random(64),
                Input::Random(8),
                Input::Random(40),
                Input::Zeros(64),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(inference::inference_uses),
        },
        Case {
            file: "arrays.rs",
            kernel: "tables",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(arrays::tables),
        },
        Case {
            file: "options.rs",
            kernel: "smooth",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(100), Input::Zeros(120)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(options::smooth),
        },
        Case {
            file: "options.rs",
            kernel: "combinators",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(options::combinators),
        },
        Case {
            file: "iterators.rs",
            kernel: "rows",
            grid: [2, 1, 1],
            block: [32, 1, 1],
            inputs: Some(vec![Input::Random(8 * 60), Input::Random(8), Input::Zeros(64)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(iterators::rows),
        },
        Case {
            file: "iterators.rs",
            kernel: "chains",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(iterators::chains),
        },
        Case {
            file: "iterators.rs",
            kernel: "in_place",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(iterators::in_place),
        },
        Case {
            file: "traits.rs",
            kernel: "vec3_ops",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(traits::vec3_ops),
        },
        Case {
            file: "traits.rs",
            kernel: "pixels",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(3 * 100), Input::Random(90), Input::Zeros(110)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(traits::pixels),
        },
        Case {
            file: "traits.rs",
            kernel: "widened",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(100), Input::Random(90), Input::Zeros(110)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(traits::widened),
        },
        Case {
            file: "traits.rs",
            kernel: "generic_math",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(traits::generic_math),
        },
        Case {
            file: "traits.rs",
            kernel: "samplers",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(traits::samplers),
        },
        Case {
            file: "enums.rs",
            kernel: "shapes",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(enums::shapes),
        },
        Case {
            file: "enums.rs",
            kernel: "stack_machine",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(enums::stack_machine),
        },
        Case {
            file: "enums.rs",
            kernel: "levels",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(enums::levels),
        },
        Case {
            file: "images.rs",
            kernel: "rgba",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(4 * 120), Input::Zeros(4 * 128)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(images::rgba),
        },
        Case {
            file: "images.rs",
            kernel: "box_blur",
            grid: [1, 1, 1],
            block: [16, 8, 1],
            inputs: Some(vec![Input::Random(128), Input::Zeros(128)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(images::box_blur),
        },
        Case {
            file: "closures.rs",
            kernel: "returned",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(closures::returned),
        },
        Case {
            file: "closures.rs",
            kernel: "closures",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(closures::closures),
        },
        Case {
            file: "references.rs",
            kernel: "references",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(64), Input::Random(1), Input::Zeros(64)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(references::references),
        },
        Case {
            file: "references.rs",
            kernel: "by_mode",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![
                Input::Scalar(1),
                Input::Random(64),
                Input::Random(64),
                Input::Zeros(64),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(references::by_mode),
        },
        Case {
            file: "halfs.rs",
            kernel: "half_axpy",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            // a = -1.5
            inputs: Some(vec![Input::Scalar(0xBE00), Input::Random(100), Input::Random(100)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(halfs::half_axpy),
        },
        Case {
            file: "halfs.rs",
            kernel: "mixed_gemv",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![
                Input::Random(64 * 16),
                Input::Random(16),
                Input::Random(64),
                Input::Zeros(64),
                Input::Zeros(64),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(halfs::mixed_gemv),
        },
        Case {
            file: "halfs.rs",
            kernel: "half_methods",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![
                Input::Random(64),
                Input::Random(64),
                Input::Zeros(64 * 12),
                Input::Zeros(64 * 4),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(halfs::half_methods),
        },
        Case {
            file: "tensor.rs",
            kernel: "hgemm_tiles",
            grid: [1, 2, 1],
            block: [128, 1, 1],
            inputs: Some(vec![
                Input::Scalar(64),
                Input::Scalar(32),
                Input::SmallIntegers(32 * 64),
                Input::SmallIntegers(64 * 32),
                Input::SmallIntegers(32 * 32),
                Input::Zeros(32 * 32),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(tensor::hgemm_tiles),
        },
        Case {
            file: "tensor.rs",
            kernel: "bf16_gemm_shared",
            grid: [2, 2, 1],
            block: [128, 1, 1],
            inputs: Some(vec![
                Input::Scalar(48),
                Input::Scalar(64),
                Input::SmallIntegers(32 * 48),
                Input::SmallIntegers(48 * 64),
                Input::Zeros(32 * 64),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(tensor::bf16_gemm_shared),
        },
        Case {
            file: "tensor.rs",
            kernel: "ldmatrix_gemm",
            grid: [2, 2, 1],
            block: [128, 1, 1],
            inputs: Some(vec![
                Input::Scalar(48),
                Input::Scalar(64),
                Input::SmallIntegers(32 * 48),
                Input::SmallIntegers(48 * 64),
                Input::Zeros(32 * 64),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(tensor::ldmatrix_gemm),
        },
        Case {
            file: "tensor.rs",
            kernel: "hgemm_async",
            grid: [2, 2, 1],
            block: [128, 1, 1],
            inputs: Some(vec![
                Input::Scalar(48),
                Input::Scalar(64),
                Input::SmallIntegers(32 * 48),
                Input::SmallIntegers(48 * 64),
                Input::Zeros(32 * 64),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(tensor::hgemm_async),
        },
        Case {
            file: "warpgroup.rs",
            kernel: "wgmma_gemm",
            grid: [2, 2, 1],
            block: [128, 1, 1],
            inputs: Some(vec![
                Input::Scalar(48),
                Input::Scalar(128),
                Input::SmallIntegers(128 * 48),
                Input::SmallIntegers(48 * 128),
                Input::Zeros(128 * 128),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(warpgroup::wgmma_gemm),
        },
        Case {
            file: "warpgroup.rs",
            kernel: "wgmma_pipelined",
            grid: [2, 2, 1],
            block: [128, 1, 1],
            inputs: Some(vec![
                Input::Scalar(96),
                Input::Scalar(256),
                Input::SmallIntegers(128 * 96),
                Input::SmallIntegers(96 * 256),
                Input::Zeros(128 * 256),
            ]),
            gpu_ulps: 0,
            // Two stages of 64×32 and 32×128 bf16.
            dyn_cache: 2 * (64 * 32 + 32 * 128) * 2,
            simulate: sim!(warpgroup::wgmma_pipelined),
        },
        // `a` eight elements short: the one thread that copies the last 16 bytes of `a`'s last
        // row, for the last step, panics, in the loop of the warpgroup's multiplies. On a GPU
        // the check panics in place (`panic_in_place` in rkc-lower), and the rest of its
        // warpgroup goes on to the next multiply without it.
        Case {
            file: "warpgroup.rs",
            kernel: "wgmma_pipelined",
            grid: [2, 2, 1],
            block: [128, 1, 1],
            inputs: Some(vec![
                Input::Scalar(96),
                Input::Scalar(256),
                Input::SmallIntegers(128 * 96 - 8),
                Input::SmallIntegers(96 * 256),
                Input::Zeros(128 * 256),
            ]),
            gpu_ulps: 0,
            dyn_cache: 2 * (64 * 32 + 32 * 128) * 2,
            simulate: sim!(warpgroup::wgmma_pipelined),
        },
        Case {
            file: "warpgroup.rs",
            kernel: "wgmma_swizzled",
            grid: [2, 2, 1],
            block: [128, 1, 1],
            inputs: Some(vec![
                Input::Scalar(128),
                Input::Scalar(128),
                Input::SmallIntegers(128 * 128),
                Input::SmallIntegers(128 * 128),
                Input::Zeros(128 * 128),
            ]),
            gpu_ulps: 0,
            // The two 64×64 f16 tiles.
            dyn_cache: 2 * 64 * 64 * 2,
            simulate: sim!(warpgroup::wgmma_swizzled),
        },
        Case {
            file: "wide.rs",
            kernel: "wide_integers",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(64), Input::Random(64), Input::Zeros(512)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(wide::wide_integers),
        },
        Case {
            file: "wide.rs",
            kernel: "wide_floats",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![
                Input::Random(64),
                Input::Random(64),
                Input::Zeros(256),
                Input::Zeros(64),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(wide::wide_floats),
        },
        Case {
            file: "wide.rs",
            kernel: "wide_params",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![
                Input::Random(1),
                Input::Random(1),
                Input::Random(64),
                Input::Zeros(64),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(wide::wide_params),
        },
        Case {
            file: "options.rs",
            kernel: "option_slots",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(options::option_slots),
        },
        Case {
            file: "idioms.rs",
            kernel: "shapes_and_ops",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![
                Input::Random(120),
                Input::Zeros(120),
                Input::Random(3 * 100),
                Input::Zeros(100),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(idioms::shapes_and_ops),
        },
        Case {
            file: "idioms2.rs",
            kernel: "dispatch_through_refs",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(idioms2::dispatch_through_refs),
        },
        Case {
            file: "copies.rs",
            kernel: "copies_outlive_borrows",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(64), Input::Zeros(512)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(copies::copies_outlive_borrows),
        },
        Case {
            file: "copies.rs",
            kernel: "copies_in_aggregates",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(64), Input::Zeros(384)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(copies::copies_in_aggregates),
        },
        Case {
            file: "core_gaps.rs",
            kernel: "double_ended_adapters",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(72), Input::Zeros(512)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(core_gaps::double_ended_adapters),
        },
        Case {
            file: "core_gaps.rs",
            kernel: "result_iterators",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(68), Input::Zeros(512)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(core_gaps::result_iterators),
        },
        Case {
            file: "core_gaps.rs",
            kernel: "integer_gaps",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(64), Input::Zeros(512)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(core_gaps::integer_gaps),
        },
        Case {
            file: "core_gaps.rs",
            kernel: "saturating_math",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(66), Input::Zeros(512)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(core_gaps::saturating_math),
        },
        Case {
            file: "core_gaps.rs",
            kernel: "discriminants",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(70), Input::Zeros(512)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(core_gaps::discriminants),
        },
        Case {
            file: "idioms2.rs",
            kernel: "dispatch_through_items",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(64), Input::Zeros(64)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(idioms2::dispatch_through_items),
        },
        Case {
            file: "idioms2.rs",
            kernel: "zero_length_arrays",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(100), Input::Zeros(110)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(idioms2::zero_length_arrays),
        },
        Case {
            file: "idioms2.rs",
            kernel: "chunks_from_the_end",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(90), Input::Zeros(100)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(idioms2::chunks_from_the_end),
        },
        Case {
            file: "idioms2.rs",
            kernel: "long_chain",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(40), Input::Zeros(100)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(idioms2::long_chain),
        },
        Case {
            file: "idioms3.rs",
            kernel: "trace",
            grid: [4, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Scalar(16), Input::Random(8), Input::Zeros(256)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(idioms3::trace),
        },
        Case {
            file: "idioms3.rs",
            kernel: "histogram_chunks",
            grid: [4, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(64 * 300), Input::Zeros(4)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(idioms3::histogram_chunks),
        },
        Case {
            file: "idioms3.rs",
            kernel: "steps_and_windows",
            grid: [4, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(258), Input::Zeros(256)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(idioms3::steps_and_windows),
        },
        Case {
            file: "idioms3.rs",
            kernel: "numbers",
            grid: [4, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(64), Input::Random(256), Input::Zeros(256)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(idioms3::numbers),
        },
        Case {
            file: "idioms3.rs",
            kernel: "library_mix",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(64), Input::Random(128), Input::Random(64)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(idioms3::library_mix),
        },
        Case {
            file: "idioms3.rs",
            kernel: "odds_and_ends",
            grid: [4, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(260), Input::Zeros(256), Input::Zeros(256)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(idioms3::odds_and_ends),
        },
        Case {
            file: "idioms.rs",
            kernel: "zipped",
            grid: [2, 1, 1],
            block: [32, 1, 1],
            inputs: Some(vec![Input::Random(200), Input::Random(180), Input::Zeros(60)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(idioms::zipped),
        },
        Case {
            file: "idioms.rs",
            kernel: "integers",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![
                Input::Random(100),
                Input::Random(9),
                Input::Zeros(100),
                Input::Zeros(90),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(idioms::integers),
        },
        Case {
            file: "idioms.rs",
            kernel: "small_library",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(100), Input::Zeros(110)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(idioms::small_library),
        },
        Case {
            file: "bytes.rs",
            kernel: "records",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(16 * 100), Input::Zeros(110)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(bytes::records),
        },
        Case {
            file: "bytes.rs",
            kernel: "backwards",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(120), Input::Zeros(110)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(bytes::backwards),
        },
        Case {
            file: "bytes.rs",
            kernel: "segments",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![
                Input::Random(130),
                Input::Random(7),
                Input::Random(5),
                Input::Zeros(120),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(bytes::segments),
        },
        Case {
            file: "collect.rs",
            kernel: "lengths",
            grid: [2, 1, 1],
            block: [32, 1, 1],
            inputs: Some(vec![Input::Zeros(60)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(collect::lengths),
        },
        Case {
            file: "collect.rs",
            kernel: "gather",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(120), Input::Zeros(110)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(collect::gather),
        },
        Case {
            file: "collect.rs",
            kernel: "runs",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(110), Input::Zeros(110)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(collect::runs),
        },
        Case {
            file: "collect.rs",
            kernel: "library",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(100), Input::Random(100), Input::Zeros(110)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(collect::library),
        },
        Case {
            file: "derefs.rs",
            kernel: "rows",
            grid: [2, 1, 1],
            block: [32, 1, 1],
            inputs: Some(vec![Input::Random(8 * 50), Input::Zeros(4 * 55)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(derefs::rows),
        },
        Case {
            file: "derefs.rs",
            kernel: "particles",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(100), Input::Zeros(110)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(derefs::particles),
        },
        Case {
            file: "vectors.rs",
            kernel: "reflect",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(2 * 100), Input::Random(16), Input::Zeros(100)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(vectors::reflect),
        },
        Case {
            file: "vectors.rs",
            kernel: "composite",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(120), Input::Zeros(120)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(vectors::composite),
        },
        Case {
            file: "vectors.rs",
            kernel: "rotate",
            grid: [1, 1, 1],
            block: [32, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(vectors::rotate),
        },
        Case {
            file: "physics.rs",
            kernel: "nbody",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(128), Input::Scalar(f32b(0.01)), Input::Zeros(128)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(physics::nbody),
        },
        Case {
            file: "physics.rs",
            kernel: "springs",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![
                Input::Random(100),
                Input::Random(100),
                Input::Zeros(100),
                Input::Zeros(100),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(physics::springs),
        },
        Case {
            file: "physics.rs",
            kernel: "bounce_box",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(physics::bounce_box),
        },
        Case {
            file: "generics.rs",
            kernel: "monoids",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(8 * 100 + 5), Input::Zeros(110)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(generics::monoids),
        },
        Case {
            file: "generics.rs",
            kernel: "polygons",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(generics::polygons),
        },
        Case {
            file: "generics.rs",
            kernel: "sequences",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(generics::sequences),
        },
        Case {
            file: "generics.rs",
            kernel: "ring_average",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(generics::ring_average),
        },
        Case {
            file: "results.rs",
            kernel: "parse_numbers",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(8 * 120), Input::Zeros(128)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(results::parse_numbers),
        },
        Case {
            file: "results.rs",
            kernel: "ranking",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(results::ranking),
        },
        Case {
            file: "results.rs",
            kernel: "checked_pipeline",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(results::checked_pipeline),
        },
        Case {
            file: "chunks.rs",
            kernel: "row_summary",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(16 * 100), Input::Zeros(100)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(chunks::row_summary),
        },
        Case {
            file: "chunks.rs",
            kernel: "walks",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(chunks::walks),
        },
        Case {
            file: "chunks.rs",
            kernel: "block_scan",
            grid: [3, 1, 1],
            block: [128, 1, 1],
            inputs: Some(vec![Input::Random(300), Input::Zeros(300)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(chunks::block_scan),
        },
        Case {
            file: "chunks.rs",
            kernel: "run_lengths",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(chunks::run_lengths),
        },
        Case {
            file: "state.rs",
            kernel: "tokenize",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(16 * 120), Input::Zeros(128)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(state::tokenize),
        },
        Case {
            file: "state.rs",
            kernel: "vending",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(state::vending),
        },
        Case {
            file: "state.rs",
            kernel: "utf8_decode",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(12 * 120), Input::Zeros(128)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(state::utf8_decode),
        },
        Case {
            file: "closures2.rs",
            kernel: "tone_map",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(4 * 120), Input::Zeros(120)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(closures2::tone_map),
        },
        Case {
            file: "closures2.rs",
            kernel: "roots",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(closures2::roots),
        },
        Case {
            file: "closures2.rs",
            kernel: "generators",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(closures2::generators),
        },
        Case {
            file: "numerics.rs",
            kernel: "tiling",
            grid: [2, 1, 1],
            block: [32, 1, 1],
            inputs: Some(vec![Input::Random(1000), Input::Zeros(64)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(numerics::tiling),
        },
        Case {
            file: "numerics.rs",
            kernel: "int_methods",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(numerics::int_methods),
        },
        Case {
            file: "numerics.rs",
            kernel: "hashes",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(numerics::hashes),
        },
        Case {
            file: "numerics.rs",
            kernel: "derived_hashes",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(numerics::derived_hashes),
        },
        Case {
            file: "numerics.rs",
            kernel: "const_fns",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(numerics::const_fns),
        },
        // `exp` and `ln` are within 2 ulp on the GPU (libdevice); a softmax divides by a sum of
        // eight such terms and the entropy sums eight products, so the result may be a few
        // ulp further from the CPU's.
        Case {
            file: "numerics.rs",
            kernel: "softmax",
            grid: [2, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(8 * 100), Input::Zeros(100)]),
            gpu_ulps: 16,
            dyn_cache: 0,
            simulate: sim!(numerics::softmax),
        },
        Case {
            file: "atomics.rs",
            kernel: "float_extremes",
            grid: [4, 1, 1],
            block: [128, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(atomics::float_extremes),
        },
        Case {
            file: "atomics.rs",
            kernel: "float_exchanges",
            grid: [2, 1, 1],
            block: [128, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(atomics::float_exchanges),
        },
        Case {
            file: "atomics.rs",
            kernel: "narrow_warps",
            grid: [2, 1, 1],
            block: [128, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(atomics::narrow_warps),
        },
        Case {
            file: "atomics.rs",
            kernel: "wide_shuffles",
            grid: [2, 1, 1],
            block: [128, 1, 1],
            inputs: None,
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(atomics::wide_shuffles),
        },
        Case {
            file: "atomics.rs",
            kernel: "half_shuffles",
            grid: [2, 1, 1],
            block: [128, 1, 1],
            inputs: Some(vec![Input::Random(256), Input::Zeros(256)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(atomics::half_shuffles),
        },
        Case {
            file: "ported.rs",
            kernel: "bit_tricks",
            grid: [2, 1, 1],
            block: [128, 1, 1],
            inputs: Some(vec![Input::Random(256), Input::Zeros(8 * 256)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(ported::bit_tricks),
        },
        Case {
            file: "ported.rs",
            kernel: "raw_parts",
            grid: [1, 1, 1],
            block: [128, 1, 1],
            inputs: Some(vec![Input::Random(128), Input::Zeros(256)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(ported::raw_parts),
        },
        Case {
            file: "ported.rs",
            kernel: "aligned_rows",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(64), Input::Zeros(64), Input::Zeros(64)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(ported::aligned_rows),
        },
        Case {
            file: "ported.rs",
            kernel: "nested_aligned",
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Random(64), Input::Zeros(64)]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate: sim!(ported::nested_aligned),
        },
    ]
}

/// The differential cases of the generated kernels: one block of 64 threads over 64-element
/// inputs (the kernels index them modulo their lengths).
pub fn generated_cases() -> Vec<Case> {
    generated::simulators()
        .into_iter()
        .map(|(kernel, simulate)| Case {
            file: "generated.rs",
            kernel,
            grid: [1, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![
                Input::Random(64),
                Input::Random(64),
                Input::Random(64),
                Input::Zeros(64),
                Input::Zeros(64),
            ]),
            gpu_ulps: 0,
            dyn_cache: 0,
            simulate,
        })
        .collect()
}

/// xorshift64*, seeded per case: the same inputs on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// The element type of a pointer parameter (the array's element, or the pointee).
pub fn element(ty: &Type) -> Type {
    if let Type::Slice { elem, .. } = ty {
        return (**elem).clone();
    }
    match ty.pointee() {
        Some(Type::Array { elem, .. }) => (**elem).clone(),
        Some(t) => t.clone(),
        None => ty.clone(),
    }
}

/// The scalars of a type with their byte offsets: itself for a scalar, every element's and
/// field's for arrays and structs (padding is not listed).
pub fn scalars(ty: &Type) -> Vec<(usize, Type)> {
    match ty {
        Type::Array { elem, len } => {
            let inner = scalars(elem);
            let size = elem.size_of() as usize;
            (0..*len as usize)
                .flat_map(|k| inner.iter().map(move |(o, t)| (k * size + o, t.clone())))
                .collect()
        }
        // The byte arrays of `#[repr(align(N))]` layouts are padding, undefined in rustc's
        // memory (see rkc-front's layout::PADDING).
        Type::Struct { fields, .. } => fields
            .iter()
            .enumerate()
            .filter(|(_, (name, _))| !name.starts_with("__rkc_pad"))
            .flat_map(|(k, (_, t))| {
                let base = ty.field_offset(k).unwrap_or(0) as usize;
                scalars(t).into_iter().map(move |(o, s)| (base + o, s))
            })
            .collect(),
        other => vec![(0, other.clone())],
    }
}

fn random_buffer(rng: &mut Rng, elem: &Type, len: usize) -> Vec<u8> {
    let size = elem.size_of() as usize;
    // Padding stays zero.
    let mut out = vec![0u8; len * size];
    let parts = scalars(elem);
    for k in 0..len {
        for (offset, t) in &parts {
            let r = rng.next();
            let bytes: Vec<u8> = match t {
                // Floats in [-100, 100), so that results are mostly finite and interesting.
                Type::Float(FloatTy::F32) => {
                    ((r >> 40) as f32 / (1u64 << 24) as f32 * 200.0 - 100.0).to_le_bytes().to_vec()
                }
                Type::Float(FloatTy::F64) => {
                    ((r >> 11) as f64 / (1u64 << 53) as f64 * 200.0 - 100.0).to_le_bytes().to_vec()
                }
                Type::Float(f) if f.is_half() => {
                    (f.bits_of((r >> 40) as f64 / (1u64 << 24) as f64 * 200.0 - 100.0) as u16)
                        .to_le_bytes()
                        .to_vec()
                }
                Type::Bool => vec![(r & 1) as u8],
                // A 128-bit integer takes a second draw for its high half.
                other if other.size_of() > 8 => {
                    [r.to_le_bytes(), rng.next().to_le_bytes()].concat()
                }
                other => r.to_le_bytes()[..other.size_of() as usize].to_vec(),
            };
            let at = k * size + offset;
            out[at..at + bytes.len()].copy_from_slice(&bytes);
        }
    }
    out
}

pub fn inputs_for(case: &Case, module: &Module) -> Vec<Arg> {
    let func =
        module.funcs.iter().find(|f| f.kernel && f.name == case.kernel).expect("kernel in module");
    let tys: Vec<Type> = func.param_types().cloned().collect();
    let mut rng = Rng(case
        .kernel
        .bytes()
        .fold(0x9e37_79b9_7f4a_7c15, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
        | 1);
    match &case.inputs {
        Some(inputs) => inputs
            .iter()
            .zip(&tys)
            .map(|(input, ty)| match input {
                Input::Scalar(bits) => Arg::Scalar(*bits),
                Input::Random(len) => Arg::Buffer(random_buffer(&mut rng, &element(ty), *len)),
                Input::Zeros(len) => Arg::Buffer(vec![0u8; len * element(ty).size_of() as usize]),
                Input::SmallIntegers(len) => {
                    let elem = element(ty);
                    let Type::Float(f) = elem else { panic!("small integers go into floats") };
                    let size = elem.size_of() as usize;
                    let bytes = (0..*len).flat_map(|_| {
                        let x = (rng.next() >> 40) % 17;
                        let bits = f.bits_of(x as f64 - 8.0).to_le_bytes();
                        bits[..size].to_vec()
                    });
                    Arg::Buffer(bytes.collect())
                }
            })
            .collect(),
        None => tys
            .iter()
            .map(|ty| match ty.pointee() {
                Some(Type::Array { elem, len }) => {
                    Arg::Buffer(random_buffer(&mut rng, elem, *len as usize))
                }
                _ => panic!("{}: give inputs for parameter type `{ty}`", case.kernel),
            })
            .collect(),
    }
}

/// A run's outcome: the buffers, or a panic message.
#[derive(Debug)]
pub enum Outcome {
    Buffers(Vec<Vec<u8>>),
    Panicked(String),
    /// The run could not be made (not a kernel panic).
    Failed(String),
}

pub fn run_interpreter(module: &Module, case: &Case, inputs: &[Arg]) -> Outcome {
    run_interpreter_printing(module, case, inputs).0
}

/// [`run_interpreter`], with what the kernel printed (as [`rkc_offload::capture_prints`]
/// returns it from a launch).
pub fn run_interpreter_printing(
    module: &Module,
    case: &Case,
    inputs: &[Arg],
) -> (Outcome, rkc_offload::Printed) {
    let mut args = inputs.to_vec();
    let mut texts = Vec::new();
    let result = interp::run_printing(
        module,
        case.kernel,
        Launch { grid: case.grid, block: case.block, dyn_shared: case.dyn_cache },
        &mut args,
        1 << 32,
        &mut texts,
    );
    let mut printed = rkc_offload::Printed::default();
    for (stderr, text) in texts {
        if stderr { &mut printed.stderr } else { &mut printed.stdout }.push_str(&text);
    }
    let outcome = match result {
        Ok(()) => Outcome::Buffers(buffers(&args)),
        Err(InterpError::Panic { message, .. }) => Outcome::Panicked(message),
        Err(e) => Outcome::Failed(e.to_string()),
    };
    (outcome, printed)
}

/// Whether two runs printed the same lines: threads print in any order, each print whole, so
/// the lines are compared sorted.
pub fn same_prints(a: &rkc_offload::Printed, b: &rkc_offload::Printed) -> Result<(), String> {
    for (x, y, stream) in [(&a.stdout, &b.stdout, "stdout"), (&a.stderr, &b.stderr, "stderr")] {
        let mut xs: Vec<&str> = x.lines().collect();
        let mut ys: Vec<&str> = y.lines().collect();
        xs.sort_unstable();
        ys.sort_unstable();
        if xs != ys {
            let first = xs.iter().zip(&ys).find(|(p, q)| p != q);
            return Err(format!(
                "printed {stream} differs: {} lines against {}{}",
                xs.len(),
                ys.len(),
                first.map_or(String::new(), |(p, q)| format!("; first difference:\n  {p}\n  {q}"))
            ));
        }
    }
    Ok(())
}

pub fn buffers(args: &[Arg]) -> Vec<Vec<u8>> {
    args.iter()
        .filter_map(|a| match a {
            Arg::Buffer(b) => Some(b.clone()),
            Arg::Scalar(_) => None,
        })
        .collect()
}

/// Runs the rustc-compiled kernel on the simulator. A slice argument is passed as its address
/// and its length in elements, as the GPU gets it.
pub fn run_rustc(case: &Case, inputs: &[Arg], tys: &[Type]) -> Outcome {
    // 16-byte aligned copies, as a device allocation would be.
    let mut storage: Vec<Vec<u128>> = Vec::new();
    let mut raw = Vec::new();
    for (a, ty) in inputs.iter().zip(tys) {
        match a {
            Arg::Scalar(bits) => raw.push(*bits),
            Arg::Buffer(b) => {
                let mut s = vec![0u128; b.len().div_ceil(16).max(1)];
                // SAFETY: `s` holds at least b.len() bytes.
                unsafe {
                    std::ptr::copy_nonoverlapping(b.as_ptr(), s.as_mut_ptr().cast::<u8>(), b.len())
                };
                raw.push(s.as_mut_ptr() as usize as u64);
                if let Type::Slice { elem, .. } = ty {
                    raw.push(b.len() as u64 / elem.size_of().max(1));
                }
                storage.push(s);
            }
        }
    }
    let config = LaunchConfig {
        workgroup_dim: case.grid,
        thread_dim: case.block,
        dyn_cache: case.dyn_cache,
        device: None,
    };
    let result = (case.simulate)(&config, &raw);
    let mut lens = inputs.iter().filter_map(|a| match a {
        Arg::Buffer(b) => Some(b.len()),
        Arg::Scalar(_) => None,
    });
    match result {
        Ok(()) => Outcome::Buffers(
            storage
                .iter()
                .map(|s| {
                    let n = lens.next().unwrap_or(0);
                    // SAFETY: `s` holds at least n bytes.
                    unsafe { std::slice::from_raw_parts(s.as_ptr().cast::<u8>(), n) }.to_vec()
                })
                .collect(),
        ),
        Err(OffloadError::KernelPanic { message, .. }) => Outcome::Panicked(message),
        Err(e) => Outcome::Failed(e.to_string()),
    }
}

/// Compares buffers element by element in the parameter's element type.
/// The distance between two floats in units in the last place (same sign assumed; a sign
/// change counts as far).
fn ulps_apart(a: f64, b: f64, is32: bool) -> u64 {
    if a == b {
        return 0;
    }
    let key = |x: f64| -> i64 {
        let i = if is32 { i64::from((x as f32).to_bits() as i32) } else { x.to_bits() as i64 };
        if i < 0 { i64::MIN - i } else { i }
    };
    key(a).abs_diff(key(b))
}

pub fn same(a: &Outcome, b: &Outcome, elems: &[Type]) -> Result<(), String> {
    same_within(a, b, elems, 0)
}

pub fn same_within(a: &Outcome, b: &Outcome, elems: &[Type], ulps: u32) -> Result<(), String> {
    // Which of several panicking threads is reported depends on the schedule (on a GPU the
    // first to claim the record); the message's text is the kernel's, its numbers the thread's.
    let shape = |m: &str| m.chars().filter(|c| !c.is_ascii_digit()).collect::<String>();
    match (a, b) {
        (Outcome::Panicked(x), Outcome::Panicked(y)) if shape(x) == shape(y) => Ok(()),
        (Outcome::Buffers(xs), Outcome::Buffers(ys)) => {
            for (k, ((x, y), elem)) in xs.iter().zip(ys).zip(elems).enumerate() {
                let n = elem.size_of() as usize;
                // Structs are compared scalar by scalar (their padding is not data).
                let parts = scalars(elem);
                let pieces = x.chunks(n).zip(y.chunks(n)).flat_map(|(ex, ey)| {
                    parts.iter().map(move |(o, t)| {
                        (&ex[*o..*o + t.size_of() as usize], &ey[*o..*o + t.size_of() as usize], t)
                    })
                });
                for (i, (ex, ey, elem)) in pieces.enumerate() {
                    let equal = match elem {
                        Type::Float(FloatTy::F32) => {
                            let (p, q) = (
                                f32::from_le_bytes(ex.try_into().unwrap()),
                                f32::from_le_bytes(ey.try_into().unwrap()),
                            );
                            p.to_bits() == q.to_bits()
                                || (p.is_nan() && q.is_nan())
                                || ulps_apart(f64::from(p), f64::from(q), true) <= u64::from(ulps)
                        }
                        Type::Float(FloatTy::F64) => {
                            let (p, q) = (
                                f64::from_le_bytes(ex.try_into().unwrap()),
                                f64::from_le_bytes(ey.try_into().unwrap()),
                            );
                            p.to_bits() == q.to_bits()
                                || (p.is_nan() && q.is_nan())
                                || ulps_apart(p, q, false) <= u64::from(ulps)
                        }
                        Type::Float(f) if f.is_half() => {
                            let (p, q) = (
                                u16::from_le_bytes(ex.try_into().unwrap()),
                                u16::from_le_bytes(ey.try_into().unwrap()),
                            );
                            p == q
                                || (f.value_of(u128::from(p)).is_nan()
                                    && f.value_of(u128::from(q)).is_nan())
                        }
                        _ => ex == ey,
                    };
                    if !equal {
                        return Err(format!("buffer {k}, element {i}: {ex:?} vs {ey:?}"));
                    }
                }
            }
            Ok(())
        }
        _ => Err(format!("{a:?} vs {b:?}")),
    }
}
