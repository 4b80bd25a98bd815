fn double(v: u32) -> u32 {
    v * 2
}

#[offload_kernel]
fn kernel(x: *mut u32) {
    let f: fn(u32) -> u32 = double;
    unsafe { *x = f(*x); }
}
