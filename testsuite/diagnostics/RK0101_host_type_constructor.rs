// A standard host type's constructor is told apart from an unknown name, as the type is.
#[offload_kernel]
pub fn kernel(out: &mut [u32]) {
    let b = Box::new(3u32);
    out[0] = *b;
}
