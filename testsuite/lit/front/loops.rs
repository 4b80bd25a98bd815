// A `for` over `a..b` advances before the body, so `continue` needs nothing more.
// RUN: rkc-opt %s
#[offload_kernel]
fn k(out: *mut u32) {
    let mut s = 0u32;
    for i in 0u32..4 {
        if i == 2 {
            continue;
        }
        s += i;
    }
    unsafe { *out = s; }
}
// CHECK-LABEL: rk.func @k(out %0: *mut u32) kernel {
// CHECK-NEXT:   %1 = rk.const 0 : u32
// CHECK-NEXT:   %2 = rk.var : u32
// CHECK-NEXT:   rk.write %1, %2 : u32
// CHECK-NEXT:   %3 = rk.const 0 : u32
// CHECK-NEXT:   %4 = rk.const 4 : u32
// CHECK-NEXT:   %5 = rk.const 1 : u32
// CHECK-NEXT:   %6 = rk.cmp ge %3, %4 : u32
// CHECK-NEXT:   %7 = rk.var : bool
// CHECK-NEXT:   rk.write %6, %7 : bool
// CHECK-NEXT:   %8 = rk.var : u32
// CHECK-NEXT:   rk.write %3, %8 : u32
// CHECK-NEXT:   rk.loop {
// CHECK-NEXT:     %9 = rk.read %7 : bool
// CHECK-NEXT:     %10 = rk.not %9 : bool
// CHECK-NEXT:     %11 = rk.not %10 : bool
// CHECK-NEXT:     rk.if %11 {
// CHECK-NEXT:       rk.break
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     %12 = rk.read %8 : u32
// CHECK-NEXT:     %13 = rk.sub %4, %5 : u32
// CHECK-NEXT:     %14 = rk.sub %13, %12 : u32
// CHECK-NEXT:     %15 = rk.cmp lt %14, %5 : u32
// CHECK-NEXT:     rk.write %15, %7 : bool
// CHECK-NEXT:     %16 = rk.add %12, %5 : u32
// CHECK-NEXT:     rk.write %16, %8 : u32
// CHECK-NEXT:     %17 = rk.const 2 : u32
// CHECK-NEXT:     %18 = rk.cmp eq %12, %17 : u32
// CHECK-NEXT:     rk.if %18 {
// CHECK-NEXT:       rk.continue
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     %19 = rk.read %2 : u32
// CHECK-NEXT:     %20 = rk.add %19, %12 : u32
// CHECK-NEXT:     rk.write %20, %2 : u32
// CHECK-NEXT:   }
// CHECK-NEXT:   %21 = rk.read %2 : u32
// CHECK-NEXT:   rk.store %21, %0 : *mut u32
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
// -----
// RUN: not rkc-opt %s
#[offload_kernel]
fn k(out: *mut u32) {
    while true {
        break 3;
    }
}
// CHECK: error: error[RK0571]: `break` with value from a `while` or `for` loop
// CHECK-NEXT:    ╭─[ %s:5:9 ]
// CHECK-NEXT:    │
// CHECK-NEXT:  5 │         break 3;
// CHECK-NEXT:    │         ───┬───
// CHECK-NEXT:    │            ╰───── can only break with a value inside `loop` or a labelled block
// CHECK-NEXT: ───╯
