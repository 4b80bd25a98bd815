// Print sites are numbered in pre-order, each listed once, after the panic sites.
// RUN: rkc-opt %s --passes=inline --emit=sites
fn show(v: u32) {
    println!("v = {v:#x}");
}

use rkc_offload::prelude::*;

#[offload_kernel]
fn k(xs: *const [u32; 4]) {
    let i = unsafe { thread_idx_x() } as usize;
    let v = unsafe { (*xs)[i] };
    show(v);
    if v > 2 {
        show(v + 1);
        eprintln!("big {}", v as u8);
    }
}
// CHECK: @k site 0 at 12:22: index out of bounds: the len is {len} but the index is {index}
// CHECK-NEXT: @k print 0 at 4:5 to stdout (u32): "v = {0:#x}\n"
// CHECK-NEXT: @k print 1 at 16:9 to stderr (u8): "big {0}\n"
