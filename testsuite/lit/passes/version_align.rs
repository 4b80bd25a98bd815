// The alignment assertions of a versioned loop are proven with its bounds checks: `cp_async`'s
// addresses are `a`'s base plus `i * 64 + t * 8` elements and the dynamic shared memory's base
// plus `t * 8`, so their low four bits are the bases' in every iteration (a product by 64 or 8
// elements of two bytes has none), and the proof tests them once, before the loop. The loop
// waits at a barrier, so every thread of the block takes the same copy. The copy without the
// checks has neither the bounds check nor the two alignment assertions; the original keeps
// them and runs when the proof fails.
// RUN: rkc-opt %s --passes=inline,simplify,version,simplify
use rkc_offload::prelude::*;
#[offload_kernel]
fn stage(n: usize, a: &[f16], out: &mut [f16]) {
    unsafe {
        let s = dynamic_shared::<f16>();
        let t = thread_idx_x() as usize;
        for i in 0..n {
            let from = &a[i * 64 + t * 8] as *const f16 as *const [f16; 8];
            cp_async(s.add(t * 8) as *mut [f16; 8], from);
            cp_async_commit();
            cp_async_wait::<0>();
            sync_threads();
            out[i * 64 + t] = *s.add(t);
            sync_threads();
        }
    }
}
// CHECK-LABEL: rk.func @stage(n %0: usize, a %1: &[f16], out %2: &mut [f16]) kernel {
// CHECK-NEXT:   %3 = rk.slice_ptr %1 : &[f16] to *const f16
// CHECK-NEXT:   %4 = rk.slice_len %1 : &[f16]
// CHECK-NEXT:   %5 = rk.slice_ptr %2 : &mut [f16] to *mut f16
// CHECK-NEXT:   %6 = rk.slice_len %2 : &mut [f16]
// CHECK-NEXT:   %7 = rk.dyn_shared : *mut f16
// CHECK-NEXT:   %8 = rk.thread_id x : u32
// CHECK-NEXT:   %9 = rk.cast %8 : u32 to usize
// CHECK-NEXT:   %10 = rk.const 0 : usize
// CHECK-NEXT:   %11 = rk.const 1 : usize
// CHECK-NEXT:   %12 = rk.cmp ge %10, %0 : usize
// CHECK-NEXT:   %13 = rk.var : bool
// CHECK-NEXT:   rk.write %12, %13 : bool
// CHECK-NEXT:   %14 = rk.var : usize
// CHECK-NEXT:   rk.write %10, %14 : usize
// CHECK-NEXT:   %15 = rk.sub %0, %11 : usize
// CHECK-NEXT:   %16 = rk.cast %15 : usize to u128
// CHECK-NEXT:   %17 = rk.const 64 : u128
// CHECK-NEXT:   %18 = rk.mul %16, %17 : u128
// CHECK-NEXT:   %19 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %20 = rk.cmp le %18, %19 : u128
// CHECK-NEXT:   %21 = rk.const 8 : usize
// CHECK-NEXT:   %22 = rk.mul %9, %21 : usize
// CHECK-NEXT:   %23 = rk.cast %22 : usize to u128
// CHECK-NEXT:   %24 = rk.add %18, %23 : u128
// CHECK-NEXT:   %25 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %26 = rk.cmp le %24, %25 : u128
// CHECK-NEXT:   %27 = rk.cast %4 : usize to u128
// CHECK-NEXT:   %28 = rk.cmp lt %24, %27 : u128
// CHECK-NEXT:   %29 = rk.const 64 : u128
// CHECK-NEXT:   %30 = rk.mul %16, %29 : u128
// CHECK-NEXT:   %31 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %32 = rk.cmp le %30, %31 : u128
// CHECK-NEXT:   %33 = rk.cast %9 : usize to u128
// CHECK-NEXT:   %34 = rk.add %30, %33 : u128
// CHECK-NEXT:   %35 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %36 = rk.cmp le %34, %35 : u128
// CHECK-NEXT:   %37 = rk.cast %6 : usize to u128
// CHECK-NEXT:   %38 = rk.cmp lt %34, %37 : u128
// CHECK-NEXT:   %39 = rk.cast %3 : *const f16 to usize
// CHECK-NEXT:   %40 = rk.cast %39 : usize to u128
// CHECK-NEXT:   %41 = rk.const 0 : u128
// CHECK-NEXT:   %42 = rk.add %41, %23 : u128
// CHECK-NEXT:   %43 = rk.const 2 : u128
// CHECK-NEXT:   %44 = rk.mul %42, %43 : u128
// CHECK-NEXT:   %45 = rk.add %40, %44 : u128
// CHECK-NEXT:   %46 = rk.cast %7 : *mut f16 to usize
// CHECK-NEXT:   %47 = rk.cast %46 : usize to u128
// CHECK-NEXT:   %48 = rk.const 8 : usize
// CHECK-NEXT:   %49 = rk.mul %9, %48 : usize
// CHECK-NEXT:   %50 = rk.cast %49 : usize to u128
// CHECK-NEXT:   %51 = rk.const 2 : u128
// CHECK-NEXT:   %52 = rk.mul %50, %51 : u128
// CHECK-NEXT:   %53 = rk.add %47, %52 : u128
// CHECK-NEXT:   %54 = rk.or %45, %53 : u128
// CHECK-NEXT:   %55 = rk.const 15 : u128
// CHECK-NEXT:   %56 = rk.and %54, %55 : u128
// CHECK-NEXT:   %57 = rk.const 0 : u128
// CHECK-NEXT:   %58 = rk.cmp eq %56, %57 : u128
// CHECK-NEXT:   %59 = rk.and %20, %26 : bool
// CHECK-NEXT:   %60 = rk.and %59, %28 : bool
// CHECK-NEXT:   %61 = rk.and %60, %32 : bool
// CHECK-NEXT:   %62 = rk.and %61, %36 : bool
// CHECK-NEXT:   %63 = rk.and %62, %38 : bool
// CHECK-NEXT:   %64 = rk.and %63, %58 : bool
// CHECK-NEXT:   %65 = rk.not %12 : bool
// CHECK-NEXT:   %66 = rk.if %65 -> bool {
// CHECK-NEXT:     %67 = rk.shared : *mut [u32; 1]
// CHECK-NEXT:     %68 = rk.const 0 : usize
// CHECK-NEXT:     %69 = rk.elem_ptr %67, %68 : *mut [u32; 1] to *mut u32
// CHECK-NEXT:     %70 = rk.const 0 : u32
// CHECK-NEXT:     %71 = rk.const 1 : u32
// CHECK-NEXT:     rk.store %70, %69 : *mut u32
// CHECK-NEXT:     rk.barrier
// CHECK-NEXT:     %72 = rk.not %64 : bool
// CHECK-NEXT:     rk.if %72 {
// CHECK-NEXT:       rk.store %71, %69 : *mut u32
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     rk.barrier
// CHECK-NEXT:     %73 = rk.load %69 : *mut u32
// CHECK-NEXT:     %74 = rk.cmp eq %73, %70 : u32
// CHECK-NEXT:     rk.yield %74 : bool
// CHECK-NEXT:   } else {
// CHECK-NEXT:     %75 = rk.const false : bool
// CHECK-NEXT:     rk.yield %75 : bool
// CHECK-NEXT:   }
// CHECK-NEXT:   rk.if %66 {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %76 = rk.read %13 : bool
// CHECK-NEXT:       rk.if %76 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %77 = rk.read %14 : usize
// CHECK-NEXT:       %78 = rk.const 64 : usize
// CHECK-NEXT:       %79 = rk.mul %77, %78 : usize
// CHECK-NEXT:       %80 = rk.const 8 : usize
// CHECK-NEXT:       %81 = rk.mul %9, %80 : usize
// CHECK-NEXT:       %82 = rk.add %79, %81 : usize
// CHECK-NEXT:       %83 = rk.sub %0, %11 : usize
// CHECK-NEXT:       %84 = rk.sub %83, %77 : usize
// CHECK-NEXT:       %85 = rk.cmp lt %84, %11 : usize
// CHECK-NEXT:       rk.write %85, %13 : bool
// CHECK-NEXT:       %86 = rk.add %77, %11 : usize
// CHECK-NEXT:       rk.write %86, %14 : usize
// CHECK-NEXT:       %87 = rk.ptr_offset %3, %82 : *const f16
// CHECK-NEXT:       %88 = rk.cast %87 : *const f16 to *const [f16; 8]
// CHECK-NEXT:       %89 = rk.const 8 : usize
// CHECK-NEXT:       %90 = rk.mul %9, %89 : usize
// CHECK-NEXT:       %91 = rk.ptr_offset %7, %90 : *mut f16
// CHECK-NEXT:       %92 = rk.cast %91 : *mut f16 to *mut [f16; 8]
// CHECK-NEXT:       rk.copy_async %92, %88 : *mut [f16; 8]
// CHECK-NEXT:       rk.async_commit
// CHECK-NEXT:       rk.async_wait 0
// CHECK-NEXT:       rk.barrier
// CHECK-NEXT:       %93 = rk.const 64 : usize
// CHECK-NEXT:       %94 = rk.mul %77, %93 : usize
// CHECK-NEXT:       %95 = rk.add %94, %9 : usize
// CHECK-NEXT:       %96 = rk.ptr_offset %7, %9 : *mut f16
// CHECK-NEXT:       %97 = rk.load %96 : *mut f16
// CHECK-NEXT:       %98 = rk.ptr_offset %5, %95 : *mut f16
// CHECK-NEXT:       rk.store %97, %98 : *mut f16
// CHECK-NEXT:       rk.barrier
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %99 = rk.read %13 : bool
// CHECK-NEXT:       rk.if %99 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %100 = rk.read %14 : usize
// CHECK-NEXT:       %101 = rk.const 64 : usize
// CHECK-NEXT:       %102 = rk.mul %100, %101 : usize
// CHECK-NEXT:       %103 = rk.const 8 : usize
// CHECK-NEXT:       %104 = rk.mul %9, %103 : usize
// CHECK-NEXT:       %105 = rk.add %102, %104 : usize
// CHECK-NEXT:       rk.bounds_check %105, %4 at 16:25
// CHECK-NEXT:       %106 = rk.sub %0, %11 : usize
// CHECK-NEXT:       %107 = rk.sub %106, %100 : usize
// CHECK-NEXT:       %108 = rk.cmp lt %107, %11 : usize
// CHECK-NEXT:       rk.write %108, %13 : bool
// CHECK-NEXT:       %109 = rk.add %100, %11 : usize
// CHECK-NEXT:       rk.write %109, %14 : usize
// CHECK-NEXT:       %110 = rk.ptr_offset %3, %105 : *const f16
// CHECK-NEXT:       %111 = rk.cast %110 : *const f16 to *const [f16; 8]
// CHECK-NEXT:       %112 = rk.const 8 : usize
// CHECK-NEXT:       %113 = rk.mul %9, %112 : usize
// CHECK-NEXT:       %114 = rk.ptr_offset %7, %113 : *mut f16
// CHECK-NEXT:       %115 = rk.cast %114 : *mut f16 to *mut [f16; 8]
// CHECK-NEXT:       %116 = rk.cast %111 : *const [f16; 8] to usize
// CHECK-NEXT:       %117 = rk.cast %115 : *mut [f16; 8] to usize
// CHECK-NEXT:       %118 = rk.or %116, %117 : usize
// CHECK-NEXT:       %119 = rk.const 15 : usize
// CHECK-NEXT:       %120 = rk.and %118, %119 : usize
// CHECK-NEXT:       %121 = rk.const 0 : usize
// CHECK-NEXT:       %122 = rk.cmp eq %120, %121 : usize
// CHECK-NEXT:       rk.assert %122 "misaligned access of 16 bytes: cp_async's addresses must be multiples of 16" at 17:13
// CHECK-NEXT:       rk.copy_async %115, %111 : *mut [f16; 8]
// CHECK-NEXT:       rk.async_commit
// CHECK-NEXT:       rk.async_wait 0
// CHECK-NEXT:       rk.barrier
// CHECK-NEXT:       %123 = rk.const 64 : usize
// CHECK-NEXT:       %124 = rk.mul %100, %123 : usize
// CHECK-NEXT:       %125 = rk.add %124, %9 : usize
// CHECK-NEXT:       rk.bounds_check %125, %6 at 21:13
// CHECK-NEXT:       %126 = rk.ptr_offset %7, %9 : *mut f16
// CHECK-NEXT:       %127 = rk.load %126 : *mut f16
// CHECK-NEXT:       %128 = rk.ptr_offset %5, %125 : *mut f16
// CHECK-NEXT:       rk.store %127, %128 : *mut f16
// CHECK-NEXT:       rk.barrier
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
