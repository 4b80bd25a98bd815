fn code(s: &str) -> u32 {
    match s {
        "add" => 1,
        _ => 0,
    }
}

#[offload_kernel]
fn kernel(x: *mut u32) {
    unsafe { *x = code("add"); }
}
