// A file with host code only.
fn host_helper(x: f32) -> f32 {
    x * 2.0
}
