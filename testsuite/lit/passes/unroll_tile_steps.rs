// A loop of at most eight constant steps around a loop over a private array (a register
// tile's steps of `k`) is marked `unroll` too; one of sixteen steps is left to LLVM, and so
// is a short loop that holds no marked loop.
// RUN: rkc-opt %s --passes=inline,simplify,unroll,unroll-steps
use rkc_offload::prelude::*;
#[offload_kernel]
fn steps(x: &[f32], out: &mut [f32]) {
    let mut acc = [0.0f32; 2];
    for k in 0..4 {
        for j in 0..2 {
            acc[j] += x[k * 2 + j];
        }
    }
    for k in 0..16 {
        for j in 0..2 {
            acc[j] += x[k + j];
        }
    }
    let mut s = 0.0;
    for k in 0..4 {
        s += x[k];
    }
    out[0] = acc[0] + acc[1] + s;
}
// CHECK-LABEL: rk.func @steps(x %0: &[f32], out %1: &mut [f32]) kernel {
// CHECK-NEXT:   %2 = rk.slice_ptr %0 : &[f32] to *const f32
// CHECK-NEXT:   %3 = rk.slice_len %0 : &[f32]
// CHECK-NEXT:   %4 = rk.slice_ptr %1 : &mut [f32] to *mut f32
// CHECK-NEXT:   %5 = rk.slice_len %1 : &mut [f32]
// CHECK-NEXT:   %6 = rk.const 0.0 : f32
// CHECK-NEXT:   %7 = rk.local : *mut [f32; 2]
// CHECK-NEXT:   %8 = rk.const 0 : usize
// CHECK-NEXT:   %9 = rk.elem_ptr %7, %8 : *mut [f32; 2] to *mut f32
// CHECK-NEXT:   rk.store %6, %9 : *mut f32
// CHECK-NEXT:   %10 = rk.const 1 : usize
// CHECK-NEXT:   %11 = rk.elem_ptr %7, %10 : *mut [f32; 2] to *mut f32
// CHECK-NEXT:   rk.store %6, %11 : *mut f32
// CHECK-NEXT:   %12 = rk.const 0 : usize
// CHECK-NEXT:   %13 = rk.const 1 : usize
// CHECK-NEXT:   %14 = rk.const false : bool
// CHECK-NEXT:   %15 = rk.var : bool
// CHECK-NEXT:   rk.write %14, %15 : bool
// CHECK-NEXT:   %16 = rk.var : usize
// CHECK-NEXT:   rk.write %12, %16 : usize
// CHECK-NEXT:   rk.loop unroll {
// CHECK-NEXT:     %17 = rk.read %15 : bool
// CHECK-NEXT:     rk.if %17 {
// CHECK-NEXT:       rk.break
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     %18 = rk.read %16 : usize
// CHECK-NEXT:     %19 = rk.const 3 : usize
// CHECK-NEXT:     %20 = rk.sub %19, %18 : usize
// CHECK-NEXT:     %21 = rk.cmp lt %20, %13 : usize
// CHECK-NEXT:     rk.write %21, %15 : bool
// CHECK-NEXT:     %22 = rk.add %18, %13 : usize
// CHECK-NEXT:     rk.write %22, %16 : usize
// CHECK-NEXT:     %23 = rk.const 0 : usize
// CHECK-NEXT:     %24 = rk.const 1 : usize
// CHECK-NEXT:     %25 = rk.const false : bool
// CHECK-NEXT:     %26 = rk.var : bool
// CHECK-NEXT:     rk.write %25, %26 : bool
// CHECK-NEXT:     %27 = rk.var : usize
// CHECK-NEXT:     rk.write %23, %27 : usize
// CHECK-NEXT:     rk.loop unroll {
// CHECK-NEXT:       %28 = rk.read %26 : bool
// CHECK-NEXT:       rk.if %28 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %29 = rk.read %27 : usize
// CHECK-NEXT:       %30 = rk.const 2 : usize
// CHECK-NEXT:       %31 = rk.mul %18, %30 : usize
// CHECK-NEXT:       %32 = rk.add %31, %29 : usize
// CHECK-NEXT:       rk.bounds_check %32, %3 at 11:23
// CHECK-NEXT:       %33 = rk.const 2 : usize
// CHECK-NEXT:       rk.bounds_check %29, %33 at 11:13
// CHECK-NEXT:       %34 = rk.const 1 : usize
// CHECK-NEXT:       %35 = rk.sub %34, %29 : usize
// CHECK-NEXT:       %36 = rk.cmp lt %35, %24 : usize
// CHECK-NEXT:       rk.write %36, %26 : bool
// CHECK-NEXT:       %37 = rk.add %29, %24 : usize
// CHECK-NEXT:       rk.write %37, %27 : usize
// CHECK-NEXT:       %38 = rk.ptr_offset %2, %32 : *const f32
// CHECK-NEXT:       %39 = rk.load %38 : *const f32
// CHECK-NEXT:       %40 = rk.elem_ptr %7, %29 : *mut [f32; 2] to *mut f32
// CHECK-NEXT:       %41 = rk.load %40 : *mut f32
// CHECK-NEXT:       %42 = rk.add %41, %39 : f32
// CHECK-NEXT:       rk.store %42, %40 : *mut f32
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   %43 = rk.const 0 : usize
// CHECK-NEXT:   %44 = rk.const 1 : usize
// CHECK-NEXT:   %45 = rk.const false : bool
// CHECK-NEXT:   %46 = rk.var : bool
// CHECK-NEXT:   rk.write %45, %46 : bool
// CHECK-NEXT:   %47 = rk.var : usize
// CHECK-NEXT:   rk.write %43, %47 : usize
// CHECK-NEXT:   rk.loop {
// CHECK-NEXT:     %48 = rk.read %46 : bool
// CHECK-NEXT:     rk.if %48 {
// CHECK-NEXT:       rk.break
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     %49 = rk.read %47 : usize
// CHECK-NEXT:     %50 = rk.const 15 : usize
// CHECK-NEXT:     %51 = rk.sub %50, %49 : usize
// CHECK-NEXT:     %52 = rk.cmp lt %51, %44 : usize
// CHECK-NEXT:     rk.write %52, %46 : bool
// CHECK-NEXT:     %53 = rk.add %49, %44 : usize
// CHECK-NEXT:     rk.write %53, %47 : usize
// CHECK-NEXT:     %54 = rk.const 0 : usize
// CHECK-NEXT:     %55 = rk.const 1 : usize
// CHECK-NEXT:     %56 = rk.const false : bool
// CHECK-NEXT:     %57 = rk.var : bool
// CHECK-NEXT:     rk.write %56, %57 : bool
// CHECK-NEXT:     %58 = rk.var : usize
// CHECK-NEXT:     rk.write %54, %58 : usize
// CHECK-NEXT:     rk.loop unroll {
// CHECK-NEXT:       %59 = rk.read %57 : bool
// CHECK-NEXT:       rk.if %59 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %60 = rk.read %58 : usize
// CHECK-NEXT:       %61 = rk.add %49, %60 : usize
// CHECK-NEXT:       rk.bounds_check %61, %3 at 16:23
// CHECK-NEXT:       %62 = rk.const 2 : usize
// CHECK-NEXT:       rk.bounds_check %60, %62 at 16:13
// CHECK-NEXT:       %63 = rk.const 1 : usize
// CHECK-NEXT:       %64 = rk.sub %63, %60 : usize
// CHECK-NEXT:       %65 = rk.cmp lt %64, %55 : usize
// CHECK-NEXT:       rk.write %65, %57 : bool
// CHECK-NEXT:       %66 = rk.add %60, %55 : usize
// CHECK-NEXT:       rk.write %66, %58 : usize
// CHECK-NEXT:       %67 = rk.ptr_offset %2, %61 : *const f32
// CHECK-NEXT:       %68 = rk.load %67 : *const f32
// CHECK-NEXT:       %69 = rk.elem_ptr %7, %60 : *mut [f32; 2] to *mut f32
// CHECK-NEXT:       %70 = rk.load %69 : *mut f32
// CHECK-NEXT:       %71 = rk.add %70, %68 : f32
// CHECK-NEXT:       rk.store %71, %69 : *mut f32
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   %72 = rk.const 0.0 : f32
// CHECK-NEXT:   %73 = rk.var : f32
// CHECK-NEXT:   rk.write %72, %73 : f32
// CHECK-NEXT:   %74 = rk.const 0 : usize
// CHECK-NEXT:   %75 = rk.const 1 : usize
// CHECK-NEXT:   %76 = rk.const false : bool
// CHECK-NEXT:   %77 = rk.var : bool
// CHECK-NEXT:   rk.write %76, %77 : bool
// CHECK-NEXT:   %78 = rk.var : usize
// CHECK-NEXT:   rk.write %74, %78 : usize
// CHECK-NEXT:   rk.loop {
// CHECK-NEXT:     %79 = rk.read %77 : bool
// CHECK-NEXT:     rk.if %79 {
// CHECK-NEXT:       rk.break
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     %80 = rk.read %78 : usize
// CHECK-NEXT:     rk.bounds_check %80, %3 at 21:14
// CHECK-NEXT:     %81 = rk.const 3 : usize
// CHECK-NEXT:     %82 = rk.sub %81, %80 : usize
// CHECK-NEXT:     %83 = rk.cmp lt %82, %75 : usize
// CHECK-NEXT:     rk.write %83, %77 : bool
// CHECK-NEXT:     %84 = rk.add %80, %75 : usize
// CHECK-NEXT:     rk.write %84, %78 : usize
// CHECK-NEXT:     %85 = rk.ptr_offset %2, %80 : *const f32
// CHECK-NEXT:     %86 = rk.load %85 : *const f32
// CHECK-NEXT:     %87 = rk.read %73 : f32
// CHECK-NEXT:     %88 = rk.add %87, %86 : f32
// CHECK-NEXT:     rk.write %88, %73 : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   %89 = rk.const 0 : usize
// CHECK-NEXT:   rk.bounds_check %89, %5 at 23:5
// CHECK-NEXT:   %90 = rk.const 0 : usize
// CHECK-NEXT:   %91 = rk.elem_ptr %7, %90 : *mut [f32; 2] to *mut f32
// CHECK-NEXT:   %92 = rk.load %91 : *mut f32
// CHECK-NEXT:   %93 = rk.const 1 : usize
// CHECK-NEXT:   %94 = rk.elem_ptr %7, %93 : *mut [f32; 2] to *mut f32
// CHECK-NEXT:   %95 = rk.load %94 : *mut f32
// CHECK-NEXT:   %96 = rk.add %92, %95 : f32
// CHECK-NEXT:   %97 = rk.read %73 : f32
// CHECK-NEXT:   %98 = rk.add %96, %97 : f32
// CHECK-NEXT:   %99 = rk.ptr_offset %4, %89 : *mut f32
// CHECK-NEXT:   rk.store %98, %99 : *mut f32
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
