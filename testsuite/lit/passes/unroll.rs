// Loops over a small thread-private array are marked `unroll` when the pass can count their
// iterations: a `for` over a constant range is; a loop bounded by a parameter (`0..n`) and an
// insertion sort's inner loop, which stops on the data, are not (LLVM would warn that it could
// not unroll them), and neither is a constant loop that indexes no private array.
// RUN: rkc-opt %s --passes=inline,simplify,unroll
use rkc_offload::prelude::*;
#[offload_kernel]
fn counted(n: usize, x: &[i32], out: &mut [i32]) {
    let mut v = [0i32; 4];
    for k in 0..4 {
        v[k] = x[k];
    }
    let mut s = 0;
    for k in 0..n {
        s += v[k % 4];
    }
    let mut i = 1;
    while i < 4 {
        let key = v[i];
        let mut j = i;
        while j > 0 && v[j - 1] > key {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = key;
        i += 1;
    }
    for k in 0..4 {
        s += x[k];
    }
    out[0] = s + v[0];
}
// CHECK-LABEL: rk.func @counted(n %0: usize, x %1: &[i32], out %2: &mut [i32]) kernel {
// CHECK-NEXT:   %3 = rk.slice_ptr %1 : &[i32] to *const i32
// CHECK-NEXT:   %4 = rk.slice_len %1 : &[i32]
// CHECK-NEXT:   %5 = rk.slice_ptr %2 : &mut [i32] to *mut i32
// CHECK-NEXT:   %6 = rk.slice_len %2 : &mut [i32]
// CHECK-NEXT:   %7 = rk.const 0 : i32
// CHECK-NEXT:   %8 = rk.local : *mut [i32; 4]
// CHECK-NEXT:   %9 = rk.const 0 : usize
// CHECK-NEXT:   %10 = rk.elem_ptr %8, %9 : *mut [i32; 4] to *mut i32
// CHECK-NEXT:   rk.store %7, %10 : *mut i32
// CHECK-NEXT:   %11 = rk.const 1 : usize
// CHECK-NEXT:   %12 = rk.elem_ptr %8, %11 : *mut [i32; 4] to *mut i32
// CHECK-NEXT:   rk.store %7, %12 : *mut i32
// CHECK-NEXT:   %13 = rk.const 2 : usize
// CHECK-NEXT:   %14 = rk.elem_ptr %8, %13 : *mut [i32; 4] to *mut i32
// CHECK-NEXT:   rk.store %7, %14 : *mut i32
// CHECK-NEXT:   %15 = rk.const 3 : usize
// CHECK-NEXT:   %16 = rk.elem_ptr %8, %15 : *mut [i32; 4] to *mut i32
// CHECK-NEXT:   rk.store %7, %16 : *mut i32
// CHECK-NEXT:   %17 = rk.const 0 : usize
// CHECK-NEXT:   %18 = rk.const 1 : usize
// CHECK-NEXT:   %19 = rk.const false : bool
// CHECK-NEXT:   %20 = rk.var : bool
// CHECK-NEXT:   rk.write %19, %20 : bool
// CHECK-NEXT:   %21 = rk.var : usize
// CHECK-NEXT:   rk.write %17, %21 : usize
// CHECK-NEXT:   rk.loop unroll {
// CHECK-NEXT:     %22 = rk.read %20 : bool
// CHECK-NEXT:     rk.if %22 {
// CHECK-NEXT:       rk.break
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     %23 = rk.read %21 : usize
// CHECK-NEXT:     rk.bounds_check %23, %4 at 11:16
// CHECK-NEXT:     %24 = rk.const 4 : usize
// CHECK-NEXT:     rk.bounds_check %23, %24 at 11:9
// CHECK-NEXT:     %25 = rk.const 3 : usize
// CHECK-NEXT:     %26 = rk.sub %25, %23 : usize
// CHECK-NEXT:     %27 = rk.cmp lt %26, %18 : usize
// CHECK-NEXT:     rk.write %27, %20 : bool
// CHECK-NEXT:     %28 = rk.add %23, %18 : usize
// CHECK-NEXT:     rk.write %28, %21 : usize
// CHECK-NEXT:     %29 = rk.ptr_offset %3, %23 : *const i32
// CHECK-NEXT:     %30 = rk.load %29 : *const i32
// CHECK-NEXT:     %31 = rk.elem_ptr %8, %23 : *mut [i32; 4] to *mut i32
// CHECK-NEXT:     rk.store %30, %31 : *mut i32
// CHECK-NEXT:   }
// CHECK-NEXT:   %32 = rk.const 0 : i32
// CHECK-NEXT:   %33 = rk.var : i32
// CHECK-NEXT:   rk.write %32, %33 : i32
// CHECK-NEXT:   %34 = rk.const 0 : usize
// CHECK-NEXT:   %35 = rk.const 1 : usize
// CHECK-NEXT:   %36 = rk.cmp ge %34, %0 : usize
// CHECK-NEXT:   %37 = rk.var : bool
// CHECK-NEXT:   rk.write %36, %37 : bool
// CHECK-NEXT:   %38 = rk.var : usize
// CHECK-NEXT:   rk.write %34, %38 : usize
// CHECK-NEXT:   rk.loop {
// CHECK-NEXT:     %39 = rk.read %37 : bool
// CHECK-NEXT:     rk.if %39 {
// CHECK-NEXT:       rk.break
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     %40 = rk.read %38 : usize
// CHECK-NEXT:     %41 = rk.sub %0, %35 : usize
// CHECK-NEXT:     %42 = rk.sub %41, %40 : usize
// CHECK-NEXT:     %43 = rk.cmp lt %42, %35 : usize
// CHECK-NEXT:     rk.write %43, %37 : bool
// CHECK-NEXT:     %44 = rk.add %40, %35 : usize
// CHECK-NEXT:     rk.write %44, %38 : usize
// CHECK-NEXT:     %45 = rk.const 4 : usize
// CHECK-NEXT:     %46 = rk.rem %40, %45 : usize
// CHECK-NEXT:     %47 = rk.elem_ptr %8, %46 : *mut [i32; 4] to *mut i32
// CHECK-NEXT:     %48 = rk.load %47 : *mut i32
// CHECK-NEXT:     %49 = rk.read %33 : i32
// CHECK-NEXT:     %50 = rk.add %49, %48 : i32
// CHECK-NEXT:     rk.write %50, %33 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   %51 = rk.const 1 : usize
// CHECK-NEXT:   %52 = rk.var : usize
// CHECK-NEXT:   rk.write %51, %52 : usize
// CHECK-NEXT:   rk.loop unroll {
// CHECK-NEXT:     %53 = rk.read %52 : usize
// CHECK-NEXT:     %54 = rk.const 4 : usize
// CHECK-NEXT:     %55 = rk.cmp lt %53, %54 : usize
// CHECK-NEXT:     %56 = rk.not %55 : bool
// CHECK-NEXT:     rk.if %56 {
// CHECK-NEXT:       rk.break
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     %57 = rk.read %52 : usize
// CHECK-NEXT:     %58 = rk.const 4 : usize
// CHECK-NEXT:     rk.bounds_check %57, %58 at 19:19
// CHECK-NEXT:     %59 = rk.elem_ptr %8, %57 : *mut [i32; 4] to *mut i32
// CHECK-NEXT:     %60 = rk.load %59 : *mut i32
// CHECK-NEXT:     %61 = rk.read %52 : usize
// CHECK-NEXT:     %62 = rk.var : usize
// CHECK-NEXT:     rk.write %61, %62 : usize
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %63 = rk.read %62 : usize
// CHECK-NEXT:       %64 = rk.const 0 : usize
// CHECK-NEXT:       %65 = rk.cmp gt %63, %64 : usize
// CHECK-NEXT:       %66 = rk.if %65 -> bool {
// CHECK-NEXT:         %67 = rk.read %62 : usize
// CHECK-NEXT:         %68 = rk.const 1 : usize
// CHECK-NEXT:         %69 = rk.sub %67, %68 : usize
// CHECK-NEXT:         %70 = rk.const 4 : usize
// CHECK-NEXT:         rk.bounds_check %69, %70 at 21:24
// CHECK-NEXT:         %71 = rk.elem_ptr %8, %69 : *mut [i32; 4] to *mut i32
// CHECK-NEXT:         %72 = rk.load %71 : *mut i32
// CHECK-NEXT:         %73 = rk.cmp gt %72, %60 : i32
// CHECK-NEXT:         rk.yield %73 : bool
// CHECK-NEXT:       } else {
// CHECK-NEXT:         %74 = rk.const false : bool
// CHECK-NEXT:         rk.yield %74 : bool
// CHECK-NEXT:       }
// CHECK-NEXT:       %75 = rk.not %66 : bool
// CHECK-NEXT:       rk.if %75 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %76 = rk.read %62 : usize
// CHECK-NEXT:       %77 = rk.const 1 : usize
// CHECK-NEXT:       %78 = rk.sub %76, %77 : usize
// CHECK-NEXT:       %79 = rk.const 4 : usize
// CHECK-NEXT:       rk.bounds_check %78, %79 at 22:20
// CHECK-NEXT:       %80 = rk.read %62 : usize
// CHECK-NEXT:       %81 = rk.const 4 : usize
// CHECK-NEXT:       rk.bounds_check %80, %81 at 22:13
// CHECK-NEXT:       %82 = rk.elem_ptr %8, %78 : *mut [i32; 4] to *mut i32
// CHECK-NEXT:       %83 = rk.load %82 : *mut i32
// CHECK-NEXT:       %84 = rk.elem_ptr %8, %80 : *mut [i32; 4] to *mut i32
// CHECK-NEXT:       rk.store %83, %84 : *mut i32
// CHECK-NEXT:       %85 = rk.const 1 : usize
// CHECK-NEXT:       %86 = rk.read %62 : usize
// CHECK-NEXT:       %87 = rk.sub %86, %85 : usize
// CHECK-NEXT:       rk.write %87, %62 : usize
// CHECK-NEXT:     }
// CHECK-NEXT:     %88 = rk.read %62 : usize
// CHECK-NEXT:     %89 = rk.const 4 : usize
// CHECK-NEXT:     rk.bounds_check %88, %89 at 25:9
// CHECK-NEXT:     %90 = rk.elem_ptr %8, %88 : *mut [i32; 4] to *mut i32
// CHECK-NEXT:     rk.store %60, %90 : *mut i32
// CHECK-NEXT:     %91 = rk.const 1 : usize
// CHECK-NEXT:     %92 = rk.read %52 : usize
// CHECK-NEXT:     %93 = rk.add %92, %91 : usize
// CHECK-NEXT:     rk.write %93, %52 : usize
// CHECK-NEXT:   }
// CHECK-NEXT:   %94 = rk.const 0 : usize
// CHECK-NEXT:   %95 = rk.const 1 : usize
// CHECK-NEXT:   %96 = rk.const false : bool
// CHECK-NEXT:   %97 = rk.var : bool
// CHECK-NEXT:   rk.write %96, %97 : bool
// CHECK-NEXT:   %98 = rk.var : usize
// CHECK-NEXT:   rk.write %94, %98 : usize
// CHECK-NEXT:   rk.loop {
// CHECK-NEXT:     %99 = rk.read %97 : bool
// CHECK-NEXT:     rk.if %99 {
// CHECK-NEXT:       rk.break
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     %100 = rk.read %98 : usize
// CHECK-NEXT:     rk.bounds_check %100, %4 at 29:14
// CHECK-NEXT:     %101 = rk.const 3 : usize
// CHECK-NEXT:     %102 = rk.sub %101, %100 : usize
// CHECK-NEXT:     %103 = rk.cmp lt %102, %95 : usize
// CHECK-NEXT:     rk.write %103, %97 : bool
// CHECK-NEXT:     %104 = rk.add %100, %95 : usize
// CHECK-NEXT:     rk.write %104, %98 : usize
// CHECK-NEXT:     %105 = rk.ptr_offset %3, %100 : *const i32
// CHECK-NEXT:     %106 = rk.load %105 : *const i32
// CHECK-NEXT:     %107 = rk.read %33 : i32
// CHECK-NEXT:     %108 = rk.add %107, %106 : i32
// CHECK-NEXT:     rk.write %108, %33 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   %109 = rk.const 0 : usize
// CHECK-NEXT:   rk.bounds_check %109, %6 at 31:5
// CHECK-NEXT:   %110 = rk.read %33 : i32
// CHECK-NEXT:   %111 = rk.const 0 : usize
// CHECK-NEXT:   %112 = rk.elem_ptr %8, %111 : *mut [i32; 4] to *mut i32
// CHECK-NEXT:   %113 = rk.load %112 : *mut i32
// CHECK-NEXT:   %114 = rk.add %110, %113 : i32
// CHECK-NEXT:   %115 = rk.ptr_offset %5, %109 : *mut i32
// CHECK-NEXT:   rk.store %114, %115 : *mut i32
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
