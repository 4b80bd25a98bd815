#[offload_kernel]
fn kernel(pair: (u32, f32), out: *mut f32) {
    unsafe { *out = pair.1; }
}
