// A struct passed by value to an inlined function whose body reads it through `&self`
// (`Index`): the copy into the parameter's local is forwarded to the reads, which read the
// caller's struct after its loop wrote it. The reads' addresses come out of an inlined
// one-trip loop, which simplify unwraps; forwarding once ran before the unwrapped loop's
// results were renamed, did not see those reads, and dropped the copy as dead.
// RUN: rkc-opt %s --passes=inline,simplify
use rkc_offload::prelude::*;
use core::ops::{Index, IndexMut};
#[derive(Clone, Copy)]
struct V([f32; 4]);
impl Index<usize> for V {
    type Output = f32;
    fn index(&self, i: usize) -> &f32 { &self.0[i] }
}
impl IndexMut<usize> for V {
    fn index_mut(&mut self, i: usize) -> &mut f32 { &mut self.0[i] }
}
fn first(v: V) -> f32 { v[0] + v[1] }
#[offload_kernel]
fn k(x: &[f32], out: &mut [f32]) {
    let mut b = V([x[0], x[1], x[2], x[3]]);
    if x[4] < 0.25 {
        for k in 0..3 {
            b[k] = x[5];
        }
    }
    out[0] = first(b);
}
// CHECK-LABEL: rk.func @k(x %0: &[f32], out %1: &mut [f32]) kernel {
// CHECK-NEXT:   %2 = rk.slice_len %0 : &[f32]
// CHECK-NEXT:   %3 = rk.const 0 : usize
// CHECK-NEXT:   rk.bounds_check %3, %2 at 21:20
// CHECK-NEXT:   %4 = rk.const 1 : usize
// CHECK-NEXT:   rk.bounds_check %4, %2 at 21:26
// CHECK-NEXT:   %5 = rk.const 2 : usize
// CHECK-NEXT:   rk.bounds_check %5, %2 at 21:32
// CHECK-NEXT:   %6 = rk.const 3 : usize
// CHECK-NEXT:   rk.bounds_check %6, %2 at 21:38
// CHECK-NEXT:   %7 = rk.const 4 : usize
// CHECK-NEXT:   rk.bounds_check %7, %2 at 22:8
// CHECK-NEXT:   %8 = rk.slice_ptr %0 : &[f32] to *const f32
// CHECK-NEXT:   %9 = rk.slice_ptr %1 : &mut [f32] to *mut f32
// CHECK-NEXT:   %10 = rk.slice_len %1 : &mut [f32]
// CHECK-NEXT:   %11 = rk.ptr_offset %8, %3 : *const f32
// CHECK-NEXT:   %12 = rk.load %11 : *const f32
// CHECK-NEXT:   %13 = rk.ptr_offset %8, %4 : *const f32
// CHECK-NEXT:   %14 = rk.load %13 : *const f32
// CHECK-NEXT:   %15 = rk.ptr_offset %8, %5 : *const f32
// CHECK-NEXT:   %16 = rk.load %15 : *const f32
// CHECK-NEXT:   %17 = rk.ptr_offset %8, %6 : *const f32
// CHECK-NEXT:   %18 = rk.load %17 : *const f32
// CHECK-NEXT:   %19 = rk.local : *mut V{0: [f32; 4]}
// CHECK-NEXT:   %20 = rk.field_ptr %19, 0 : *mut V{0: [f32; 4]} to *mut [f32; 4]
// CHECK-NEXT:   %21 = rk.const 0 : usize
// CHECK-NEXT:   %22 = rk.elem_ptr %20, %21 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   rk.store %12, %22 : *mut f32
// CHECK-NEXT:   %23 = rk.const 1 : usize
// CHECK-NEXT:   %24 = rk.elem_ptr %20, %23 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   rk.store %14, %24 : *mut f32
// CHECK-NEXT:   %25 = rk.const 2 : usize
// CHECK-NEXT:   %26 = rk.elem_ptr %20, %25 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   rk.store %16, %26 : *mut f32
// CHECK-NEXT:   %27 = rk.const 3 : usize
// CHECK-NEXT:   %28 = rk.elem_ptr %20, %27 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   rk.store %18, %28 : *mut f32
// CHECK-NEXT:   %29 = rk.ptr_offset %8, %7 : *const f32
// CHECK-NEXT:   %30 = rk.load %29 : *const f32
// CHECK-NEXT:   %31 = rk.const 0.25 : f32
// CHECK-NEXT:   %32 = rk.cmp lt %30, %31 : f32
// CHECK-NEXT:   rk.if %32 {
// CHECK-NEXT:     %33 = rk.const 0 : usize
// CHECK-NEXT:     %34 = rk.const 1 : usize
// CHECK-NEXT:     %35 = rk.const false : bool
// CHECK-NEXT:     %36 = rk.var : bool
// CHECK-NEXT:     rk.write %35, %36 : bool
// CHECK-NEXT:     %37 = rk.var : usize
// CHECK-NEXT:     rk.write %33, %37 : usize
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %38 = rk.read %36 : bool
// CHECK-NEXT:       rk.if %38 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %39 = rk.const 5 : usize
// CHECK-NEXT:       rk.bounds_check %39, %2 at 24:20
// CHECK-NEXT:       %40 = rk.read %37 : usize
// CHECK-NEXT:       %41 = rk.const 4 : usize
// CHECK-NEXT:       rk.bounds_check %40, %41 at 16:58
// CHECK-NEXT:       %42 = rk.const 2 : usize
// CHECK-NEXT:       %43 = rk.sub %42, %40 : usize
// CHECK-NEXT:       %44 = rk.cmp lt %43, %34 : usize
// CHECK-NEXT:       rk.write %44, %36 : bool
// CHECK-NEXT:       %45 = rk.add %40, %34 : usize
// CHECK-NEXT:       rk.write %45, %37 : usize
// CHECK-NEXT:       %46 = rk.ptr_offset %8, %39 : *const f32
// CHECK-NEXT:       %47 = rk.load %46 : *const f32
// CHECK-NEXT:       %48 = rk.field_ptr %19, 0 : *mut V{0: [f32; 4]} to *mut [f32; 4]
// CHECK-NEXT:       %49 = rk.elem_ptr %48, %40 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:       rk.store %47, %49 : *mut f32
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:   }
// CHECK-NEXT:   %50 = rk.const 0 : usize
// CHECK-NEXT:   rk.bounds_check %50, %10 at 27:5
// CHECK-NEXT:   %51 = rk.field_ptr %19, 0 : *mut V{0: [f32; 4]} to *mut [f32; 4]
// CHECK-NEXT:   %52 = rk.const 0 : usize
// CHECK-NEXT:   %53 = rk.elem_ptr %51, %52 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   %54 = rk.load %53 : *mut f32
// CHECK-NEXT:   %55 = rk.const 1 : usize
// CHECK-NEXT:   %56 = rk.elem_ptr %51, %55 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   %57 = rk.load %56 : *mut f32
// CHECK-NEXT:   %58 = rk.add %54, %57 : f32
// CHECK-NEXT:   %59 = rk.ptr_offset %9, %50 : *mut f32
// CHECK-NEXT:   rk.store %58, %59 : *mut f32
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
