// Fragment loads through `ldmatrix` in the front end: one `rk.ldmatrix` per call, with the
// tile's pointer and stride, its results stored into the fragment array.
// RUN: rkc-opt %s --passes=inline,simplify
use half::f16;
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn k(out: &mut [f32; 4]) {
    unsafe {
        let tile = shared_array::<f16, 512>() as *const f16;
        let a = mma_ldmatrix_a(tile, 16);
        let b = mma_ldmatrix_b(tile.add(256), 8);
        *out = mma_m16n8k16_f16(a, b, [0.0; 4]);
    }
}
// CHECK-LABEL: rk.func @k(out %0: *mut [f32; 4] byref) kernel {
// CHECK-NEXT:   %1 = rk.shared : *mut [f16; 512]
// CHECK-NEXT:   %2 = rk.cast %1 : *mut [f16; 512] to *const f16
// CHECK-NEXT:   %3 = rk.const 16 : usize
// CHECK-NEXT:   %4 = rk.const 32 : usize
// CHECK-NEXT:   %5 = rk.cast %2 : *const f16 to usize
// CHECK-NEXT:   %6 = rk.or %5, %4 : usize
// CHECK-NEXT:   %7 = rk.const 15 : usize
// CHECK-NEXT:   %8 = rk.and %6, %7 : usize
// CHECK-NEXT:   %9 = rk.const 0 : usize
// CHECK-NEXT:   %10 = rk.cmp eq %8, %9 : usize
// CHECK-NEXT:   rk.assert %10 "misaligned access of 16 bytes: ldmatrix's rows must start at multiples of 16" at 11:17
// CHECK-NEXT:   %11, %12, %13, %14, %15, %16, %17, %18 = rk.ldmatrix a %2, %3 : *const f16
// CHECK-NEXT:   %19 = rk.const 256 : usize
// CHECK-NEXT:   %20 = rk.ptr_offset %2, %19 : *const f16
// CHECK-NEXT:   %21 = rk.const 8 : usize
// CHECK-NEXT:   %22 = rk.const 16 : usize
// CHECK-NEXT:   %23 = rk.cast %20 : *const f16 to usize
// CHECK-NEXT:   %24 = rk.or %23, %22 : usize
// CHECK-NEXT:   %25 = rk.const 15 : usize
// CHECK-NEXT:   %26 = rk.and %24, %25 : usize
// CHECK-NEXT:   %27 = rk.const 0 : usize
// CHECK-NEXT:   %28 = rk.cmp eq %26, %27 : usize
// CHECK-NEXT:   rk.assert %28 "misaligned access of 16 bytes: ldmatrix's rows must start at multiples of 16" at 12:17
// CHECK-NEXT:   %29, %30, %31, %32 = rk.ldmatrix b %20, %21 : *const f16
// CHECK-NEXT:   %33 = rk.const 0.0 : f32
// CHECK-NEXT:   %34, %35, %36, %37 = rk.mma f16 %11, %12, %13, %14, %15, %16, %17, %18, %29, %30, %31, %32, %33, %33, %33, %33
// CHECK-NEXT:   %38 = rk.const 0 : usize
// CHECK-NEXT:   %39 = rk.elem_ptr %0, %38 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   rk.store %34, %39 : *mut f32
// CHECK-NEXT:   %40 = rk.const 1 : usize
// CHECK-NEXT:   %41 = rk.elem_ptr %0, %40 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   rk.store %35, %41 : *mut f32
// CHECK-NEXT:   %42 = rk.const 2 : usize
// CHECK-NEXT:   %43 = rk.elem_ptr %0, %42 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   rk.store %36, %43 : *mut f32
// CHECK-NEXT:   %44 = rk.const 3 : usize
// CHECK-NEXT:   %45 = rk.elem_ptr %0, %44 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   rk.store %37, %45 : *mut f32
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
