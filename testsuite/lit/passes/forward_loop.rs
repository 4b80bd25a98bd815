// A struct's fields set before a loop and read in it through a `&self` method (the method's
// `&*self` is a cast of the local's address, which does not let it escape) are the values
// stored before the loop: no field is loaded in the loop, and loop versioning proves the
// method's index once before it (the loop runs without its check). A field stored in the loop
// is loaded there as before.
// RUN: rkc-opt %s --passes=inline,simplify,version
use rkc_offload::prelude::*;
struct Rows<'a> {
    x: &'a [f32],
    width: usize,
}
impl Rows<'_> {
    fn at(&self, row: usize, col: usize) -> f32 {
        self.x[row * self.width + col]
    }
}
#[offload_kernel]
fn sums(width: usize, x: &[f32], out: &mut [f32]) {
    let rows = Rows { x, width };
    let mut s = 0.0;
    for c in 0..width {
        s += rows.at(3, c);
    }
    let mut moving = Rows { x, width: 0 };
    for c in 0..4 {
        moving.width = c;
        s += moving.at(1, 0);
    }
    out[0] = s;
}
// CHECK-LABEL: rk.func @sums(width %0: usize, x %1: &[f32], out %2: &mut [f32]) kernel {
// CHECK-NEXT:   %3 = rk.slice_ptr %1 : &[f32] to *const f32
// CHECK-NEXT:   %4 = rk.slice_len %1 : &[f32]
// CHECK-NEXT:   %5 = rk.slice_ptr %2 : &mut [f32] to *mut f32
// CHECK-NEXT:   %6 = rk.slice_len %2 : &mut [f32]
// CHECK-NEXT:   %7 = rk.const 0.0 : f32
// CHECK-NEXT:   %8 = rk.var : f32
// CHECK-NEXT:   rk.write %7, %8 : f32
// CHECK-NEXT:   %9 = rk.const 0 : usize
// CHECK-NEXT:   %10 = rk.const 1 : usize
// CHECK-NEXT:   %11 = rk.cmp ge %9, %0 : usize
// CHECK-NEXT:   %12 = rk.var : bool
// CHECK-NEXT:   rk.write %11, %12 : bool
// CHECK-NEXT:   %13 = rk.var : usize
// CHECK-NEXT:   rk.write %9, %13 : usize
// CHECK-NEXT:   %14 = rk.const 3 : usize
// CHECK-NEXT:   %15 = rk.mul %14, %0 : usize
// CHECK-NEXT:   %16 = rk.cast %15 : usize to u128
// CHECK-NEXT:   %17 = rk.cast %9 : usize to u128
// CHECK-NEXT:   %18 = rk.sub %0, %10 : usize
// CHECK-NEXT:   %19 = rk.cast %18 : usize to u128
// CHECK-NEXT:   %20 = rk.add %16, %17 : u128
// CHECK-NEXT:   %21 = rk.add %16, %19 : u128
// CHECK-NEXT:   %22 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %23 = rk.cmp le %21, %22 : u128
// CHECK-NEXT:   %24 = rk.cast %4 : usize to u128
// CHECK-NEXT:   %25 = rk.cmp lt %21, %24 : u128
// CHECK-NEXT:   %26 = rk.and %23, %25 : bool
// CHECK-NEXT:   rk.if %26 {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %27 = rk.read %12 : bool
// CHECK-NEXT:       rk.if %27 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %28 = rk.read %13 : usize
// CHECK-NEXT:       %29 = rk.const 3 : usize
// CHECK-NEXT:       %30 = rk.mul %29, %0 : usize
// CHECK-NEXT:       %31 = rk.add %30, %28 : usize
// CHECK-NEXT:       %32 = rk.sub %0, %10 : usize
// CHECK-NEXT:       %33 = rk.sub %32, %28 : usize
// CHECK-NEXT:       %34 = rk.cmp lt %33, %10 : usize
// CHECK-NEXT:       rk.write %34, %12 : bool
// CHECK-NEXT:       %35 = rk.add %28, %10 : usize
// CHECK-NEXT:       rk.write %35, %13 : usize
// CHECK-NEXT:       %36 = rk.ptr_offset %3, %31 : *const f32
// CHECK-NEXT:       %37 = rk.load %36 : *const f32
// CHECK-NEXT:       %38 = rk.read %8 : f32
// CHECK-NEXT:       %39 = rk.add %38, %37 : f32
// CHECK-NEXT:       rk.write %39, %8 : f32
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %40 = rk.read %12 : bool
// CHECK-NEXT:       rk.if %40 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %41 = rk.read %13 : usize
// CHECK-NEXT:       %42 = rk.const 3 : usize
// CHECK-NEXT:       %43 = rk.mul %42, %0 : usize
// CHECK-NEXT:       %44 = rk.add %43, %41 : usize
// CHECK-NEXT:       rk.bounds_check %44, %4 at 14:9
// CHECK-NEXT:       %45 = rk.sub %0, %10 : usize
// CHECK-NEXT:       %46 = rk.sub %45, %41 : usize
// CHECK-NEXT:       %47 = rk.cmp lt %46, %10 : usize
// CHECK-NEXT:       rk.write %47, %12 : bool
// CHECK-NEXT:       %48 = rk.add %41, %10 : usize
// CHECK-NEXT:       rk.write %48, %13 : usize
// CHECK-NEXT:       %49 = rk.ptr_offset %3, %44 : *const f32
// CHECK-NEXT:       %50 = rk.load %49 : *const f32
// CHECK-NEXT:       %51 = rk.read %8 : f32
// CHECK-NEXT:       %52 = rk.add %51, %50 : f32
// CHECK-NEXT:       rk.write %52, %8 : f32
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   %53 = rk.const 0 : usize
// CHECK-NEXT:   %54 = rk.local : *mut Rows{x: slice{ptr: *const f32, len: usize}, width: usize}
// CHECK-NEXT:   %55 = rk.field_ptr %54, 0 : *mut Rows{x: slice{ptr: *const f32, len: usize}, width: usize} to *mut slice{ptr: *const f32, len: usize}
// CHECK-NEXT:   %56 = rk.field_ptr %55, 0 : *mut slice{ptr: *const f32, len: usize} to *mut *const f32
// CHECK-NEXT:   rk.store %3, %56 : *mut *const f32
// CHECK-NEXT:   %57 = rk.field_ptr %55, 1 : *mut slice{ptr: *const f32, len: usize} to *mut usize
// CHECK-NEXT:   rk.store %4, %57 : *mut usize
// CHECK-NEXT:   %58 = rk.field_ptr %54, 1 : *mut Rows{x: slice{ptr: *const f32, len: usize}, width: usize} to *mut usize
// CHECK-NEXT:   rk.store %53, %58 : *mut usize
// CHECK-NEXT:   %59 = rk.const 0 : usize
// CHECK-NEXT:   %60 = rk.const 1 : usize
// CHECK-NEXT:   %61 = rk.const false : bool
// CHECK-NEXT:   %62 = rk.var : bool
// CHECK-NEXT:   rk.write %61, %62 : bool
// CHECK-NEXT:   %63 = rk.var : usize
// CHECK-NEXT:   rk.write %59, %63 : usize
// CHECK-NEXT:   rk.loop {
// CHECK-NEXT:     %64 = rk.read %62 : bool
// CHECK-NEXT:     rk.if %64 {
// CHECK-NEXT:       rk.break
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     %65 = rk.read %63 : usize
// CHECK-NEXT:     %66 = rk.const 3 : usize
// CHECK-NEXT:     %67 = rk.sub %66, %65 : usize
// CHECK-NEXT:     %68 = rk.cmp lt %67, %60 : usize
// CHECK-NEXT:     rk.write %68, %62 : bool
// CHECK-NEXT:     %69 = rk.add %65, %60 : usize
// CHECK-NEXT:     rk.write %69, %63 : usize
// CHECK-NEXT:     %70 = rk.field_ptr %54, 1 : *mut Rows{x: slice{ptr: *const f32, len: usize}, width: usize} to *mut usize
// CHECK-NEXT:     rk.store %65, %70 : *mut usize
// CHECK-NEXT:     %71 = rk.cast %54 : *mut Rows{x: slice{ptr: *const f32, len: usize}, width: usize} to *const Rows{x: slice{ptr: *const f32, len: usize}, width: usize}
// CHECK-NEXT:     %72 = rk.const 1 : usize
// CHECK-NEXT:     %73 = rk.const 0 : usize
// CHECK-NEXT:     %74 = rk.field_ptr %71, 0 : *const Rows{x: slice{ptr: *const f32, len: usize}, width: usize} to *const slice{ptr: *const f32, len: usize}
// CHECK-NEXT:     %75 = rk.field_ptr %74, 0 : *const slice{ptr: *const f32, len: usize} to *const *const f32
// CHECK-NEXT:     %76 = rk.field_ptr %74, 1 : *const slice{ptr: *const f32, len: usize} to *const usize
// CHECK-NEXT:     %77 = rk.load %75 : *const *const f32
// CHECK-NEXT:     %78 = rk.load %76 : *const usize
// CHECK-NEXT:     %79 = rk.mul %72, %65 : usize
// CHECK-NEXT:     %80 = rk.add %79, %73 : usize
// CHECK-NEXT:     rk.bounds_check %80, %78 at 14:9
// CHECK-NEXT:     %81 = rk.ptr_offset %77, %80 : *const f32
// CHECK-NEXT:     %82 = rk.load %81 : *const f32
// CHECK-NEXT:     %83 = rk.read %8 : f32
// CHECK-NEXT:     %84 = rk.add %83, %82 : f32
// CHECK-NEXT:     rk.write %84, %8 : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   %85 = rk.const 0 : usize
// CHECK-NEXT:   rk.bounds_check %85, %6 at 29:5
// CHECK-NEXT:   %86 = rk.read %8 : f32
// CHECK-NEXT:   %87 = rk.ptr_offset %5, %85 : *mut f32
// CHECK-NEXT:   rk.store %86, %87 : *mut f32
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
