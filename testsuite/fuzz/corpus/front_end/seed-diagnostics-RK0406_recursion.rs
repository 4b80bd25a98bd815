fn even(n: u32) -> bool {
    if n == 0 { true } else { odd(n - 1) }
}

fn odd(n: u32) -> bool {
    if n == 0 { false } else { even(n - 1) }
}

#[offload_kernel]
fn kernel(x: *mut u32) {
    unsafe { *x = even(*x) as u32; }
}
