//! rkc's device core: the parts of Rust's `core` that kernels use, written in the subset rkc
//! compiles. `core::`, `std::` and `alloc::` paths in kernels lead here. Each file of this
//! folder is a module of the same name; this file is the root.
