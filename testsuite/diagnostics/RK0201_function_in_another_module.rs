mod a {
    pub fn scale(x: f32) -> f32 { x * 2.0 }
}
mod b {
    pub fn scale(x: f32) -> f32 { x * 3.0 }
}

#[offload_kernel]
fn kernel(x: *mut f32) {
    unsafe { *x = scale(*x); }
}
