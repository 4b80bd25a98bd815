// A resident buffer cannot be dropped (or its host data touched) while a launch uses it: the
// guard borrows the host data for as long as it lives, and the launch borrows the guard.
use rkc_offload::prelude::*;

#[offload_kernel]
fn scale(x: *mut [f32; 4]) {
    unsafe {
        (*x)[0] *= 2.0;
    }
}

fn main() {
    let mut data = [1.0f32; 4];
    let resident = rkc_offload::preload_mut(&mut data);
    let in_use = &resident;
    drop(resident);
    data[0] = 3.0;
    offload! { kernel = scale, args = (in_use,) }
}
