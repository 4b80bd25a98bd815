#[offload_kernel]
fn kernel(x: *mut f32) {}

mod inner {
    #[offload_kernel]
    fn kernel(x: *mut f32) {}
}
