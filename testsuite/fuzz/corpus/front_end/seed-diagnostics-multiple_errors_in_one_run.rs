// Several independent errors are all reported, in source order.
#[offload_kernel]
fn first(x: *mut u8) {
    unsafe { *x = 300; }
}

#[offload_kernel]
fn second(x: *const f32) {
    unsafe { *x = 1.0; }
}
