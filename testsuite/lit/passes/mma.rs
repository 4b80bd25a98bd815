// A warp matrix multiply through the front end: the fragments are loaded element by element
// into one `rk.mma`, whose four results are stored into the result array.
// RUN: rkc-opt %s --passes=inline,simplify
use half::f16;
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn k(a: &[f16; 8], b: &[f16; 4], out: &mut [f32; 4]) {
    *out = unsafe { mma_m16n8k16_f16(*a, *b, [1.0; 4]) };
}
// CHECK-LABEL: rk.func @k(a %0: *const [f16; 8] byref, b %1: *const [f16; 4] byref, out %2: *mut [f32; 4] byref) kernel {
// CHECK-NEXT:   %3 = rk.const 0 : usize
// CHECK-NEXT:   %4 = rk.elem_ptr %0, %3 : *const [f16; 8] to *const f16
// CHECK-NEXT:   %5 = rk.load %4 : *const f16
// CHECK-NEXT:   %6 = rk.const 1 : usize
// CHECK-NEXT:   %7 = rk.elem_ptr %0, %6 : *const [f16; 8] to *const f16
// CHECK-NEXT:   %8 = rk.load %7 : *const f16
// CHECK-NEXT:   %9 = rk.const 2 : usize
// CHECK-NEXT:   %10 = rk.elem_ptr %0, %9 : *const [f16; 8] to *const f16
// CHECK-NEXT:   %11 = rk.load %10 : *const f16
// CHECK-NEXT:   %12 = rk.const 3 : usize
// CHECK-NEXT:   %13 = rk.elem_ptr %0, %12 : *const [f16; 8] to *const f16
// CHECK-NEXT:   %14 = rk.load %13 : *const f16
// CHECK-NEXT:   %15 = rk.const 4 : usize
// CHECK-NEXT:   %16 = rk.elem_ptr %0, %15 : *const [f16; 8] to *const f16
// CHECK-NEXT:   %17 = rk.load %16 : *const f16
// CHECK-NEXT:   %18 = rk.const 5 : usize
// CHECK-NEXT:   %19 = rk.elem_ptr %0, %18 : *const [f16; 8] to *const f16
// CHECK-NEXT:   %20 = rk.load %19 : *const f16
// CHECK-NEXT:   %21 = rk.const 6 : usize
// CHECK-NEXT:   %22 = rk.elem_ptr %0, %21 : *const [f16; 8] to *const f16
// CHECK-NEXT:   %23 = rk.load %22 : *const f16
// CHECK-NEXT:   %24 = rk.const 7 : usize
// CHECK-NEXT:   %25 = rk.elem_ptr %0, %24 : *const [f16; 8] to *const f16
// CHECK-NEXT:   %26 = rk.load %25 : *const f16
// CHECK-NEXT:   %27 = rk.const 0 : usize
// CHECK-NEXT:   %28 = rk.elem_ptr %1, %27 : *const [f16; 4] to *const f16
// CHECK-NEXT:   %29 = rk.load %28 : *const f16
// CHECK-NEXT:   %30 = rk.const 1 : usize
// CHECK-NEXT:   %31 = rk.elem_ptr %1, %30 : *const [f16; 4] to *const f16
// CHECK-NEXT:   %32 = rk.load %31 : *const f16
// CHECK-NEXT:   %33 = rk.const 2 : usize
// CHECK-NEXT:   %34 = rk.elem_ptr %1, %33 : *const [f16; 4] to *const f16
// CHECK-NEXT:   %35 = rk.load %34 : *const f16
// CHECK-NEXT:   %36 = rk.const 3 : usize
// CHECK-NEXT:   %37 = rk.elem_ptr %1, %36 : *const [f16; 4] to *const f16
// CHECK-NEXT:   %38 = rk.load %37 : *const f16
// CHECK-NEXT:   %39 = rk.const 1.0 : f32
// CHECK-NEXT:   %40, %41, %42, %43 = rk.mma f16 %5, %8, %11, %14, %17, %20, %23, %26, %29, %32, %35, %38, %39, %39, %39, %39
// CHECK-NEXT:   %44 = rk.const 0 : usize
// CHECK-NEXT:   %45 = rk.elem_ptr %2, %44 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   rk.store %40, %45 : *mut f32
// CHECK-NEXT:   %46 = rk.const 1 : usize
// CHECK-NEXT:   %47 = rk.elem_ptr %2, %46 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   rk.store %41, %47 : *mut f32
// CHECK-NEXT:   %48 = rk.const 2 : usize
// CHECK-NEXT:   %49 = rk.elem_ptr %2, %48 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   rk.store %42, %49 : *mut f32
// CHECK-NEXT:   %50 = rk.const 3 : usize
// CHECK-NEXT:   %51 = rk.elem_ptr %2, %50 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   rk.store %43, %51 : *mut f32
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
