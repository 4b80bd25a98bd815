#[repr(C)]
#[derive(Clone, Copy)]
pub struct Params {
    scale: f32,
    n: u32,
}

#[offload_kernel]
fn kernel(p: Params, out: *mut f32) {
    unsafe { *out = p.scale; }
}
