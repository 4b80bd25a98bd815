// Aggregates live in memory: a struct literal is an `rk.local` filled field by field, a field
// update goes through `rk.field_ptr`, and a tuple result comes back through the callee's
// hidden last parameter.
// RUN: rkc-opt %s
#[repr(C)]
#[derive(Clone, Copy)]
struct P {
    x: f32,
    n: u32,
}

fn split(v: u32) -> (u32, u32) {
    (v / 10, v % 10)
}

#[offload_kernel]
fn k(out: *mut P) {
    let mut p = P { x: 1.5, n: 2 };
    p.n += 1;
    let (q, r) = split(p.n);
    unsafe { *out = P { n: q + r, ..p }; }
}
// CHECK-LABEL: rk.func @k(out %0: *mut P{x: f32, n: u32}) kernel {
// CHECK-NEXT:   %1 = rk.const 1.5 : f32
// CHECK-NEXT:   %2 = rk.const 2 : u32
// CHECK-NEXT:   %3 = rk.local : *mut P{x: f32, n: u32}
// CHECK-NEXT:   %4 = rk.field_ptr %3, 0 : *mut P{x: f32, n: u32} to *mut f32
// CHECK-NEXT:   rk.store %1, %4 : *mut f32
// CHECK-NEXT:   %5 = rk.field_ptr %3, 1 : *mut P{x: f32, n: u32} to *mut u32
// CHECK-NEXT:   rk.store %2, %5 : *mut u32
// CHECK-NEXT:   %6 = rk.const 1 : u32
// CHECK-NEXT:   %7 = rk.field_ptr %3, 1 : *mut P{x: f32, n: u32} to *mut u32
// CHECK-NEXT:   %8 = rk.load %7 : *mut u32
// CHECK-NEXT:   %9 = rk.add %8, %6 : u32
// CHECK-NEXT:   rk.store %9, %7 : *mut u32
// CHECK-NEXT:   %10 = rk.field_ptr %3, 1 : *mut P{x: f32, n: u32} to *mut u32
// CHECK-NEXT:   %11 = rk.load %10 : *mut u32
// CHECK-NEXT:   %12 = rk.local : *mut (u32, u32)
// CHECK-NEXT:   rk.call @split(%11, %12) : (u32, *mut (u32, u32)) -> ()
// CHECK-NEXT:   %13 = rk.field_ptr %12, 0 : *mut (u32, u32) to *mut u32
// CHECK-NEXT:   %14 = rk.load %13 : *mut u32
// CHECK-NEXT:   %15 = rk.field_ptr %12, 1 : *mut (u32, u32) to *mut u32
// CHECK-NEXT:   %16 = rk.load %15 : *mut u32
// CHECK-NEXT:   %17 = rk.add %14, %16 : u32
// CHECK-NEXT:   %18 = rk.field_ptr %3, 0 : *mut P{x: f32, n: u32} to *mut f32
// CHECK-NEXT:   %19 = rk.load %18 : *mut f32
// CHECK-NEXT:   %20 = rk.local : *mut P{x: f32, n: u32}
// CHECK-NEXT:   %21 = rk.field_ptr %20, 0 : *mut P{x: f32, n: u32} to *mut f32
// CHECK-NEXT:   rk.store %19, %21 : *mut f32
// CHECK-NEXT:   %22 = rk.field_ptr %20, 1 : *mut P{x: f32, n: u32} to *mut u32
// CHECK-NEXT:   rk.store %17, %22 : *mut u32
// CHECK-NEXT:   %23 = rk.field_ptr %20, 0 : *mut P{x: f32, n: u32} to *mut f32
// CHECK-NEXT:   %24 = rk.field_ptr %0, 0 : *mut P{x: f32, n: u32} to *mut f32
// CHECK-NEXT:   %25 = rk.load %23 : *mut f32
// CHECK-NEXT:   rk.store %25, %24 : *mut f32
// CHECK-NEXT:   %26 = rk.field_ptr %20, 1 : *mut P{x: f32, n: u32} to *mut u32
// CHECK-NEXT:   %27 = rk.field_ptr %0, 1 : *mut P{x: f32, n: u32} to *mut u32
// CHECK-NEXT:   %28 = rk.load %26 : *mut u32
// CHECK-NEXT:   rk.store %28, %27 : *mut u32
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
// CHECK-LABEL: rk.func @split(v %0: u32, ret %1: *mut (u32, u32)) {
// CHECK-NEXT:   %2 = rk.const 10 : u32
// CHECK-NEXT:   %3 = rk.div %0, %2 : u32
// CHECK-NEXT:   %4 = rk.const 10 : u32
// CHECK-NEXT:   %5 = rk.rem %0, %4 : u32
// CHECK-NEXT:   %6 = rk.field_ptr %1, 0 : *mut (u32, u32) to *mut u32
// CHECK-NEXT:   rk.store %3, %6 : *mut u32
// CHECK-NEXT:   %7 = rk.field_ptr %1, 1 : *mut (u32, u32) to *mut u32
// CHECK-NEXT:   rk.store %5, %7 : *mut u32
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
