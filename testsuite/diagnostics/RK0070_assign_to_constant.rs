const LIMIT: u32 = 4;

#[offload_kernel]
fn kernel(x: *mut u32) {
    LIMIT = 5;
}
