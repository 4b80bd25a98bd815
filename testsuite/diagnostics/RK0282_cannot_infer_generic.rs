fn zero<T: Default>() -> T {
    T::default()
}

#[offload_kernel]
fn kernel(x: *mut f32) {
    let _unused = zero();
    unsafe { *x = 1.0; }
}
