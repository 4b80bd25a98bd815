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
// CHECK-NEXT:   %4, %5, %6, %7, %8, %9, %10, %11 = rk.ldmatrix a %2, %3 : *const f16
// CHECK-NEXT:   %12 = rk.const 256 : usize
// CHECK-NEXT:   %13 = rk.ptr_offset %2, %12 : *const f16
// CHECK-NEXT:   %14 = rk.const 8 : usize
// CHECK-NEXT:   %15, %16, %17, %18 = rk.ldmatrix b %13, %14 : *const f16
// CHECK-NEXT:   %19 = rk.const 0.0 : f32
// CHECK-NEXT:   %20, %21, %22, %23 = rk.mma f16 %4, %5, %6, %7, %8, %9, %10, %11, %15, %16, %17, %18, %19, %19, %19, %19
// CHECK-NEXT:   %24 = rk.const 0 : usize
// CHECK-NEXT:   %25 = rk.elem_ptr %0, %24 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   rk.store %20, %25 : *mut f32
// CHECK-NEXT:   %26 = rk.const 1 : usize
// CHECK-NEXT:   %27 = rk.elem_ptr %0, %26 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   rk.store %21, %27 : *mut f32
// CHECK-NEXT:   %28 = rk.const 2 : usize
// CHECK-NEXT:   %29 = rk.elem_ptr %0, %28 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   rk.store %22, %29 : *mut f32
// CHECK-NEXT:   %30 = rk.const 3 : usize
// CHECK-NEXT:   %31 = rk.elem_ptr %0, %30 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   rk.store %23, %31 : *mut f32
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
