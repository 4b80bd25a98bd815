fn zero<T: Default>() -> T {
    T::default()
}

#[offload_kernel]
fn kernel(x: *mut f32) {
    unsafe { *x = zero(); }
}
