// Host memory that a stream's queued copy writes stays borrowed until the scope ends: the
// program cannot read or write it while the device may still be copying into it.
fn main() {
    let mut out = vec![0.0f32; 4];
    let buffer = rkc_offload::DeviceBuffer::<f32>::zeroed(4).unwrap();
    rkc_offload::scope(|s| {
        let stream = s.stream()?;
        stream.copy_to_host(&buffer, &mut out)?;
        out[0] = 1.0;
        Ok(())
    })
    .unwrap();
}
