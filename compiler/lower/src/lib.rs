//! Lowering of a verified rk module to MLIR's upstream dialects (`gpu`, `arith`, `cf`,
//! `llvm`), and the [`Target`] trait behind which every vendor difference lives.
//!
//! The output is MLIR's textual form: one `gpu.module @kernels` holding one `gpu.func` per
//! kernel, inside a module marked `gpu.container_module`. The driver parses it with melior,
//! verifies it, and runs the target's pipeline on it. Emitting text keeps this crate free of
//! MLIR (it builds and tests in seconds); each emitter in [`emit`] documents the IR it writes,
//! and the driver's tests verify and snapshot every module it produces.
//!
//! Architecture Invariant: lowering takes [`rkc_rk::Verified`], the verifier's proof, so the
//! typing rules of the rk specification hold for everything this crate reads.

mod emit;
mod target;

pub use target::{ImageFormat, Nvvm, Rocdl, Target, TargetError, TargetKind, parse_offload_arch};

use rkc_rk::Verified;

/// Options that change the emitted IR.
#[derive(Clone, Debug)]
pub struct LowerOptions {
    /// Emit `rk.bounds_check` as a check and a device panic (`true`), or drop it (`false`).
    pub bounds_checks: bool,
    /// `-C fast-math`: float ops may be reassociated, contracted and approximated (`sqrt` and
    /// division approximate, no NaN/infinity guarantees). Off by default: Rust's semantics.
    pub fast_math: bool,
}

impl Default for LowerOptions {
    fn default() -> Self {
        LowerOptions { bounds_checks: true, fast_math: false }
    }
}

/// Lowers a verified rk module to the textual MLIR of a `gpu.module` of kernels.
pub fn lower(module: &Verified<'_>, options: &LowerOptions) -> String {
    emit::module(module.module(), options)
}

#[cfg(test)]
mod tests;
