#[offload_kernel]
fn kernel(x: *mut u32) {
    println!("thread {}", 3);
}
