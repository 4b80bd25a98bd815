static TABLE: [f32; 4] = [1.0, 2.0, 3.0, 4.0];

#[offload_kernel]
fn kernel(x: *mut f32) {
    unsafe { *x = TABLE[0]; }
}
