//! rk → rk transformations. Each pass takes a module and keeps it valid: the verifier accepts
//! its output whenever it accepted its input.

pub mod inline;

pub use inline::{CallGraph, Recursion, inline_calls};
