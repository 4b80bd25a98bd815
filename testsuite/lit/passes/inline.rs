// Device functions are inlined as one-trip loops whose returns become breaks; the functions
// themselves are then dropped, since nothing calls them.
// RUN: rkc-opt %s --passes=inline
fn twice(x: u32) -> u32 {
    if x > 100 {
        return x;
    }
    x * 2
}

#[offload_kernel]
fn k(out: *mut u32) {
    unsafe { *out = twice(*out); }
}
// CHECK-LABEL: rk.func @k(out %0: *mut u32) kernel {
// CHECK-NEXT:   %1 = rk.load %0 : *mut u32
// CHECK-NEXT:   %2 = rk.loop -> u32 {
// CHECK-NEXT:     %3 = rk.const 100 : u32
// CHECK-NEXT:     %4 = rk.cmp gt %1, %3 : u32
// CHECK-NEXT:     rk.if %4 {
// CHECK-NEXT:       rk.break %1 : u32
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     %5 = rk.const 2 : u32
// CHECK-NEXT:     %6 = rk.mul %1, %5 : u32
// CHECK-NEXT:     rk.break %6 : u32
// CHECK-NEXT:   }
// CHECK-NEXT:   rk.store %2, %0 : *mut u32
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
