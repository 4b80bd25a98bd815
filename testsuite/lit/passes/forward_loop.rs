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
// CHECK-NEXT:   %16 = rk.cast %15 : usize to u64
// CHECK-NEXT:   %17 = rk.const 0 : u64
// CHECK-NEXT:   %18 = rk.sub %0, %10 : usize
// CHECK-NEXT:   %19 = rk.cast %18 : usize to u64
// CHECK-NEXT:   %20 = rk.add %16, %17 : u64
// CHECK-NEXT:   %21 = rk.cast %16 : u64 to u128
// CHECK-NEXT:   %22 = rk.cast %19 : u64 to u128
// CHECK-NEXT:   %23 = rk.add %21, %22 : u128
// CHECK-NEXT:   %24 = rk.cast %4 : usize to u64
// CHECK-NEXT:   %25 = rk.cmp le %16, %24 : u64
// CHECK-NEXT:   %26 = rk.sub %24, %16 : u64
// CHECK-NEXT:   %27 = rk.cmp lt %19, %26 : u64
// CHECK-NEXT:   %28 = rk.const 0 : u64
// CHECK-NEXT:   %29 = rk.and %25, %27 : bool
// CHECK-NEXT:   rk.if %29 {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %30 = rk.read %12 : bool
// CHECK-NEXT:       rk.if %30 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %31 = rk.read %13 : usize
// CHECK-NEXT:       %32 = rk.const 3 : usize
// CHECK-NEXT:       %33 = rk.mul %32, %0 : usize
// CHECK-NEXT:       %34 = rk.add %33, %31 : usize
// CHECK-NEXT:       %35 = rk.sub %0, %10 : usize
// CHECK-NEXT:       %36 = rk.sub %35, %31 : usize
// CHECK-NEXT:       %37 = rk.cmp lt %36, %10 : usize
// CHECK-NEXT:       rk.write %37, %12 : bool
// CHECK-NEXT:       %38 = rk.add %31, %10 : usize
// CHECK-NEXT:       rk.write %38, %13 : usize
// CHECK-NEXT:       %39 = rk.ptr_offset %3, %34 : *const f32
// CHECK-NEXT:       %40 = rk.load %39 : *const f32
// CHECK-NEXT:       %41 = rk.read %8 : f32
// CHECK-NEXT:       %42 = rk.add %41, %40 : f32
// CHECK-NEXT:       rk.write %42, %8 : f32
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %43 = rk.read %12 : bool
// CHECK-NEXT:       rk.if %43 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %44 = rk.read %13 : usize
// CHECK-NEXT:       %45 = rk.const 3 : usize
// CHECK-NEXT:       %46 = rk.mul %45, %0 : usize
// CHECK-NEXT:       %47 = rk.add %46, %44 : usize
// CHECK-NEXT:       rk.bounds_check %47, %4 at 14:9
// CHECK-NEXT:       %48 = rk.sub %0, %10 : usize
// CHECK-NEXT:       %49 = rk.sub %48, %44 : usize
// CHECK-NEXT:       %50 = rk.cmp lt %49, %10 : usize
// CHECK-NEXT:       rk.write %50, %12 : bool
// CHECK-NEXT:       %51 = rk.add %44, %10 : usize
// CHECK-NEXT:       rk.write %51, %13 : usize
// CHECK-NEXT:       %52 = rk.ptr_offset %3, %47 : *const f32
// CHECK-NEXT:       %53 = rk.load %52 : *const f32
// CHECK-NEXT:       %54 = rk.read %8 : f32
// CHECK-NEXT:       %55 = rk.add %54, %53 : f32
// CHECK-NEXT:       rk.write %55, %8 : f32
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   %56 = rk.const 0 : usize
// CHECK-NEXT:   %57 = rk.local : *mut Rows{x: slice{ptr: *const f32, len: usize}, width: usize}
// CHECK-NEXT:   %58 = rk.field_ptr %57, 0 : *mut Rows{x: slice{ptr: *const f32, len: usize}, width: usize} to *mut slice{ptr: *const f32, len: usize}
// CHECK-NEXT:   %59 = rk.field_ptr %58, 0 : *mut slice{ptr: *const f32, len: usize} to *mut *const f32
// CHECK-NEXT:   rk.store %3, %59 : *mut *const f32
// CHECK-NEXT:   %60 = rk.field_ptr %58, 1 : *mut slice{ptr: *const f32, len: usize} to *mut usize
// CHECK-NEXT:   rk.store %4, %60 : *mut usize
// CHECK-NEXT:   %61 = rk.field_ptr %57, 1 : *mut Rows{x: slice{ptr: *const f32, len: usize}, width: usize} to *mut usize
// CHECK-NEXT:   rk.store %56, %61 : *mut usize
// CHECK-NEXT:   %62 = rk.const 0 : usize
// CHECK-NEXT:   %63 = rk.const 1 : usize
// CHECK-NEXT:   %64 = rk.const false : bool
// CHECK-NEXT:   %65 = rk.var : bool
// CHECK-NEXT:   rk.write %64, %65 : bool
// CHECK-NEXT:   %66 = rk.var : usize
// CHECK-NEXT:   rk.write %62, %66 : usize
// CHECK-NEXT:   rk.loop {
// CHECK-NEXT:     %67 = rk.read %65 : bool
// CHECK-NEXT:     rk.if %67 {
// CHECK-NEXT:       rk.break
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     %68 = rk.read %66 : usize
// CHECK-NEXT:     %69 = rk.const 3 : usize
// CHECK-NEXT:     %70 = rk.sub %69, %68 : usize
// CHECK-NEXT:     %71 = rk.cmp lt %70, %63 : usize
// CHECK-NEXT:     rk.write %71, %65 : bool
// CHECK-NEXT:     %72 = rk.add %68, %63 : usize
// CHECK-NEXT:     rk.write %72, %66 : usize
// CHECK-NEXT:     %73 = rk.field_ptr %57, 1 : *mut Rows{x: slice{ptr: *const f32, len: usize}, width: usize} to *mut usize
// CHECK-NEXT:     rk.store %68, %73 : *mut usize
// CHECK-NEXT:     %74 = rk.cast %57 : *mut Rows{x: slice{ptr: *const f32, len: usize}, width: usize} to *const Rows{x: slice{ptr: *const f32, len: usize}, width: usize}
// CHECK-NEXT:     %75 = rk.const 1 : usize
// CHECK-NEXT:     %76 = rk.const 0 : usize
// CHECK-NEXT:     %77 = rk.field_ptr %74, 0 : *const Rows{x: slice{ptr: *const f32, len: usize}, width: usize} to *const slice{ptr: *const f32, len: usize}
// CHECK-NEXT:     %78 = rk.field_ptr %77, 0 : *const slice{ptr: *const f32, len: usize} to *const *const f32
// CHECK-NEXT:     %79 = rk.field_ptr %77, 1 : *const slice{ptr: *const f32, len: usize} to *const usize
// CHECK-NEXT:     %80 = rk.load %78 : *const *const f32
// CHECK-NEXT:     %81 = rk.load %79 : *const usize
// CHECK-NEXT:     %82 = rk.mul %75, %68 : usize
// CHECK-NEXT:     %83 = rk.add %82, %76 : usize
// CHECK-NEXT:     rk.bounds_check %83, %81 at 14:9
// CHECK-NEXT:     %84 = rk.ptr_offset %80, %83 : *const f32
// CHECK-NEXT:     %85 = rk.load %84 : *const f32
// CHECK-NEXT:     %86 = rk.read %8 : f32
// CHECK-NEXT:     %87 = rk.add %86, %85 : f32
// CHECK-NEXT:     rk.write %87, %8 : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   %88 = rk.const 0 : usize
// CHECK-NEXT:   rk.bounds_check %88, %6 at 29:5
// CHECK-NEXT:   %89 = rk.read %8 : f32
// CHECK-NEXT:   %90 = rk.ptr_offset %5, %88 : *mut f32
// CHECK-NEXT:   rk.store %89, %90 : *mut f32
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
