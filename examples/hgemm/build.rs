//! Compiles the example's kernels with rkc into $OUT_DIR/kernels.fatbin.
fn main() {
    rkc_build::Build::new().file("src/kernels.rs").compile("kernels");
}
