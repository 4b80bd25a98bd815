#[repr(C)]
union Bits {
    f: f32,
    u: u32,
}

#[offload_kernel]
fn kernel(x: *mut u32) {
    let b = Bits { f: 1.0 };
    unsafe { *x = b.u; }
}
