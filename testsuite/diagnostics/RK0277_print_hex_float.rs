#[offload_kernel]
fn kernel(x: *const f32) {
    let v = unsafe { *x };
    println!("bits {:#x}", v);
}
