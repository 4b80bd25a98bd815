fn fact(n: u64) -> u64 {
    if n == 0 { 1 } else { n * fact(n - 1) }
}

#[offload_kernel]
fn kernel(x: *mut u64) {
    unsafe { *x = fact(*x); }
}
