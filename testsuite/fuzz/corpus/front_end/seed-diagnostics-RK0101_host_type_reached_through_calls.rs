// Host code in kernels.rs is fine until a kernel reaches it: the error names the call path.
fn total(v: Vec<f32>) -> f32 {
    v.iter().sum()
}

fn middle(x: f32) -> f32 {
    total(x)
}

#[offload_kernel]
fn kernel(x: *mut f32) {
    unsafe { *x = middle(*x); }
}

fn host_only() -> Vec<u8> {
    vec![1, 2, 3]
}
