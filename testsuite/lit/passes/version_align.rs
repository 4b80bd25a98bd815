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
// CHECK-NEXT:   %16 = rk.cast %15 : usize to u64
// CHECK-NEXT:   %17 = rk.const 64 : u64
// CHECK-NEXT:   %18 = rk.const 288230376151711743 : u64
// CHECK-NEXT:   %19 = rk.cmp le %16, %18 : u64
// CHECK-NEXT:   %20 = rk.mul %16, %17 : u64
// CHECK-NEXT:   %21 = rk.const 8 : usize
// CHECK-NEXT:   %22 = rk.mul %9, %21 : usize
// CHECK-NEXT:   %23 = rk.cast %22 : usize to u64
// CHECK-NEXT:   %24 = rk.cast %4 : usize to u64
// CHECK-NEXT:   %25 = rk.cmp le %20, %24 : u64
// CHECK-NEXT:   %26 = rk.sub %24, %20 : u64
// CHECK-NEXT:   %27 = rk.cmp lt %23, %26 : u64
// CHECK-NEXT:   %28 = rk.const 64 : u64
// CHECK-NEXT:   %29 = rk.const 288230376151711743 : u64
// CHECK-NEXT:   %30 = rk.cmp le %16, %29 : u64
// CHECK-NEXT:   %31 = rk.mul %16, %28 : u64
// CHECK-NEXT:   %32 = rk.cast %9 : usize to u64
// CHECK-NEXT:   %33 = rk.cast %6 : usize to u64
// CHECK-NEXT:   %34 = rk.cmp le %31, %33 : u64
// CHECK-NEXT:   %35 = rk.sub %33, %31 : u64
// CHECK-NEXT:   %36 = rk.cmp lt %32, %35 : u64
// CHECK-NEXT:   %37 = rk.cast %3 : *const f16 to usize
// CHECK-NEXT:   %38 = rk.cast %37 : usize to u64
// CHECK-NEXT:   %39 = rk.const 0 : u64
// CHECK-NEXT:   %40 = rk.add %39, %23 : u64
// CHECK-NEXT:   %41 = rk.const 2 : u64
// CHECK-NEXT:   %42 = rk.mul %40, %41 : u64
// CHECK-NEXT:   %43 = rk.add %38, %42 : u64
// CHECK-NEXT:   %44 = rk.cast %7 : *mut f16 to usize
// CHECK-NEXT:   %45 = rk.cast %44 : usize to u64
// CHECK-NEXT:   %46 = rk.const 8 : usize
// CHECK-NEXT:   %47 = rk.mul %9, %46 : usize
// CHECK-NEXT:   %48 = rk.cast %47 : usize to u64
// CHECK-NEXT:   %49 = rk.const 2 : u64
// CHECK-NEXT:   %50 = rk.mul %48, %49 : u64
// CHECK-NEXT:   %51 = rk.add %45, %50 : u64
// CHECK-NEXT:   %52 = rk.or %43, %51 : u64
// CHECK-NEXT:   %53 = rk.const 15 : u64
// CHECK-NEXT:   %54 = rk.and %52, %53 : u64
// CHECK-NEXT:   %55 = rk.const 0 : u64
// CHECK-NEXT:   %56 = rk.cmp eq %54, %55 : u64
// CHECK-NEXT:   %57 = rk.and %19, %25 : bool
// CHECK-NEXT:   %58 = rk.and %57, %27 : bool
// CHECK-NEXT:   %59 = rk.and %58, %30 : bool
// CHECK-NEXT:   %60 = rk.and %59, %34 : bool
// CHECK-NEXT:   %61 = rk.and %60, %36 : bool
// CHECK-NEXT:   %62 = rk.and %61, %56 : bool
// CHECK-NEXT:   %63 = rk.not %12 : bool
// CHECK-NEXT:   %64 = rk.if %63 -> bool {
// CHECK-NEXT:     %65 = rk.shared : *mut [u32; 1]
// CHECK-NEXT:     %66 = rk.const 0 : usize
// CHECK-NEXT:     %67 = rk.elem_ptr %65, %66 : *mut [u32; 1] to *mut u32
// CHECK-NEXT:     %68 = rk.const 0 : u32
// CHECK-NEXT:     %69 = rk.const 1 : u32
// CHECK-NEXT:     rk.store %68, %67 : *mut u32
// CHECK-NEXT:     rk.barrier
// CHECK-NEXT:     %70 = rk.not %62 : bool
// CHECK-NEXT:     rk.if %70 {
// CHECK-NEXT:       rk.store %69, %67 : *mut u32
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     rk.barrier
// CHECK-NEXT:     %71 = rk.load %67 : *mut u32
// CHECK-NEXT:     %72 = rk.cmp eq %71, %68 : u32
// CHECK-NEXT:     rk.yield %72 : bool
// CHECK-NEXT:   } else {
// CHECK-NEXT:     %73 = rk.const false : bool
// CHECK-NEXT:     rk.yield %73 : bool
// CHECK-NEXT:   }
// CHECK-NEXT:   rk.if %64 {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %74 = rk.read %13 : bool
// CHECK-NEXT:       rk.if %74 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %75 = rk.read %14 : usize
// CHECK-NEXT:       %76 = rk.const 64 : usize
// CHECK-NEXT:       %77 = rk.mul %75, %76 : usize
// CHECK-NEXT:       %78 = rk.const 8 : usize
// CHECK-NEXT:       %79 = rk.mul %9, %78 : usize
// CHECK-NEXT:       %80 = rk.add %77, %79 : usize
// CHECK-NEXT:       %81 = rk.sub %0, %11 : usize
// CHECK-NEXT:       %82 = rk.sub %81, %75 : usize
// CHECK-NEXT:       %83 = rk.cmp lt %82, %11 : usize
// CHECK-NEXT:       rk.write %83, %13 : bool
// CHECK-NEXT:       %84 = rk.add %75, %11 : usize
// CHECK-NEXT:       rk.write %84, %14 : usize
// CHECK-NEXT:       %85 = rk.ptr_offset %3, %80 : *const f16
// CHECK-NEXT:       %86 = rk.cast %85 : *const f16 to *const [f16; 8]
// CHECK-NEXT:       %87 = rk.const 8 : usize
// CHECK-NEXT:       %88 = rk.mul %9, %87 : usize
// CHECK-NEXT:       %89 = rk.ptr_offset %7, %88 : *mut f16
// CHECK-NEXT:       %90 = rk.cast %89 : *mut f16 to *mut [f16; 8]
// CHECK-NEXT:       rk.copy_async %90, %86 : *mut [f16; 8]
// CHECK-NEXT:       rk.async_commit
// CHECK-NEXT:       rk.async_wait 0
// CHECK-NEXT:       rk.barrier
// CHECK-NEXT:       %91 = rk.const 64 : usize
// CHECK-NEXT:       %92 = rk.mul %75, %91 : usize
// CHECK-NEXT:       %93 = rk.add %92, %9 : usize
// CHECK-NEXT:       %94 = rk.ptr_offset %7, %9 : *mut f16
// CHECK-NEXT:       %95 = rk.load %94 : *mut f16
// CHECK-NEXT:       %96 = rk.ptr_offset %5, %93 : *mut f16
// CHECK-NEXT:       rk.store %95, %96 : *mut f16
// CHECK-NEXT:       rk.barrier
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %97 = rk.read %13 : bool
// CHECK-NEXT:       rk.if %97 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %98 = rk.read %14 : usize
// CHECK-NEXT:       %99 = rk.const 64 : usize
// CHECK-NEXT:       %100 = rk.mul %98, %99 : usize
// CHECK-NEXT:       %101 = rk.const 8 : usize
// CHECK-NEXT:       %102 = rk.mul %9, %101 : usize
// CHECK-NEXT:       %103 = rk.add %100, %102 : usize
// CHECK-NEXT:       rk.bounds_check %103, %4 at 16:25
// CHECK-NEXT:       %104 = rk.sub %0, %11 : usize
// CHECK-NEXT:       %105 = rk.sub %104, %98 : usize
// CHECK-NEXT:       %106 = rk.cmp lt %105, %11 : usize
// CHECK-NEXT:       rk.write %106, %13 : bool
// CHECK-NEXT:       %107 = rk.add %98, %11 : usize
// CHECK-NEXT:       rk.write %107, %14 : usize
// CHECK-NEXT:       %108 = rk.ptr_offset %3, %103 : *const f16
// CHECK-NEXT:       %109 = rk.cast %108 : *const f16 to *const [f16; 8]
// CHECK-NEXT:       %110 = rk.const 8 : usize
// CHECK-NEXT:       %111 = rk.mul %9, %110 : usize
// CHECK-NEXT:       %112 = rk.ptr_offset %7, %111 : *mut f16
// CHECK-NEXT:       %113 = rk.cast %112 : *mut f16 to *mut [f16; 8]
// CHECK-NEXT:       %114 = rk.cast %109 : *const [f16; 8] to usize
// CHECK-NEXT:       %115 = rk.cast %113 : *mut [f16; 8] to usize
// CHECK-NEXT:       %116 = rk.or %114, %115 : usize
// CHECK-NEXT:       %117 = rk.const 15 : usize
// CHECK-NEXT:       %118 = rk.and %116, %117 : usize
// CHECK-NEXT:       %119 = rk.const 0 : usize
// CHECK-NEXT:       %120 = rk.cmp eq %118, %119 : usize
// CHECK-NEXT:       rk.assert %120 "misaligned access of 16 bytes: cp_async's addresses must be multiples of 16" at 17:13
// CHECK-NEXT:       rk.copy_async %113, %109 : *mut [f16; 8]
// CHECK-NEXT:       rk.async_commit
// CHECK-NEXT:       rk.async_wait 0
// CHECK-NEXT:       rk.barrier
// CHECK-NEXT:       %121 = rk.const 64 : usize
// CHECK-NEXT:       %122 = rk.mul %98, %121 : usize
// CHECK-NEXT:       %123 = rk.add %122, %9 : usize
// CHECK-NEXT:       rk.bounds_check %123, %6 at 21:13
// CHECK-NEXT:       %124 = rk.ptr_offset %7, %9 : *mut f16
// CHECK-NEXT:       %125 = rk.load %124 : *mut f16
// CHECK-NEXT:       %126 = rk.ptr_offset %5, %123 : *mut f16
// CHECK-NEXT:       rk.store %125, %126 : *mut f16
// CHECK-NEXT:       rk.barrier
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
