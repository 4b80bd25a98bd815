static TABLE: [u32; 4] = [1, 2, 3, 4];

#[offload_kernel]
fn kernel(x: *mut u32) {
    TABLE[2] = 9;
    unsafe { *x = TABLE[2]; }
}
