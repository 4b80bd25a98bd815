//! rk → rk transformations. Each pass takes a module and keeps it valid: the verifier accepts
//! its output whenever it accepted its input.

pub mod access;
pub mod hoist;
pub mod inline;
pub mod simplify;

pub use access::{access_of_params, offsets_past_pointee};
pub use hoist::hoist_checks;
pub use inline::{CallGraph, Recursion, inline_calls};
pub use simplify::{Stats, simplify};
