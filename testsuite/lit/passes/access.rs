// Access facts per parameter.
// RUN: rkc-opt %s --passes=inline,simplify --emit=access
use rkc_offload::prelude::*;
fn read(p: *const [f32; 8], i: usize) -> f32 {
    unsafe { (*p)[i] }
}

#[offload_kernel]
fn k(a: *const [f32; 8], b: *mut [f32; 8], c: *mut [f32; 8], unused: *mut f32) {
    unsafe {
        let i = thread_idx_x() as usize;
        (*b)[i] = read(a, i) + (*c)[i];
        (*c)[i] = 0.0;
    }
}
// CHECK: @k a: Read
// CHECK-NEXT: @k b: Write
// CHECK-NEXT: @k c: ReadWrite
// CHECK-NEXT: @k unused: Unused
// -----
// A pointer to a struct field derives from its parameter: writing a field writes the
// parameter, reading another reads it.
// RUN: rkc-opt %s --passes=inline,simplify --emit=access
#[repr(C)]
struct S {
    a: u32,
    b: u32,
}

#[offload_kernel]
fn fields(s: *mut S, t: *mut S) {
    unsafe {
        (*s).a = 1;
        (*t).b = (*t).a;
    }
}
// CHECK: @fields s: Write
// CHECK-NEXT: @fields t: ReadWrite
