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
// CHECK-NEXT:   %30 = rk.not %29 : bool
// CHECK-NEXT:   rk.if %30 {
// CHECK-NEXT:     %31 = rk.read %8 : f32
// CHECK-NEXT:     %32 = rk.read %12 : bool
// CHECK-NEXT:     %33 = rk.read %13 : usize
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %34 = rk.read %12 : bool
// CHECK-NEXT:       rk.if %34 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %35 = rk.read %13 : usize
// CHECK-NEXT:       %36 = rk.const 3 : usize
// CHECK-NEXT:       %37 = rk.mul %36, %0 : usize
// CHECK-NEXT:       %38 = rk.add %37, %35 : usize
// CHECK-NEXT:       rk.bounds_check %38, %4 at 14:9
// CHECK-NEXT:       %39 = rk.sub %0, %10 : usize
// CHECK-NEXT:       %40 = rk.sub %39, %35 : usize
// CHECK-NEXT:       %41 = rk.cmp lt %40, %10 : usize
// CHECK-NEXT:       rk.write %41, %12 : bool
// CHECK-NEXT:       %42 = rk.add %35, %10 : usize
// CHECK-NEXT:       rk.write %42, %13 : usize
// CHECK-NEXT:       %43 = rk.ptr_offset %3, %38 : *const f32
// CHECK-NEXT:       %44 = rk.load %43 : *const f32
// CHECK-NEXT:       %45 = rk.read %8 : f32
// CHECK-NEXT:       %46 = rk.add %45, %44 : f32
// CHECK-NEXT:       rk.write %46, %8 : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     rk.write %31, %8 : f32
// CHECK-NEXT:     rk.write %32, %12 : bool
// CHECK-NEXT:     rk.write %33, %13 : usize
// CHECK-NEXT:   } else {
// CHECK-NEXT:   }
// CHECK-NEXT:   rk.loop {
// CHECK-NEXT:     %47 = rk.read %12 : bool
// CHECK-NEXT:     rk.if %47 {
// CHECK-NEXT:       rk.break
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     %48 = rk.read %13 : usize
// CHECK-NEXT:     %49 = rk.const 3 : usize
// CHECK-NEXT:     %50 = rk.mul %49, %0 : usize
// CHECK-NEXT:     %51 = rk.add %50, %48 : usize
// CHECK-NEXT:     %52 = rk.sub %0, %10 : usize
// CHECK-NEXT:     %53 = rk.sub %52, %48 : usize
// CHECK-NEXT:     %54 = rk.cmp lt %53, %10 : usize
// CHECK-NEXT:     rk.write %54, %12 : bool
// CHECK-NEXT:     %55 = rk.add %48, %10 : usize
// CHECK-NEXT:     rk.write %55, %13 : usize
// CHECK-NEXT:     %56 = rk.ptr_offset %3, %51 : *const f32
// CHECK-NEXT:     %57 = rk.load %56 : *const f32
// CHECK-NEXT:     %58 = rk.read %8 : f32
// CHECK-NEXT:     %59 = rk.add %58, %57 : f32
// CHECK-NEXT:     rk.write %59, %8 : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   %60 = rk.const 0 : usize
// CHECK-NEXT:   %61 = rk.local : *mut Rows{x: slice{ptr: *const f32, len: usize}, width: usize}
// CHECK-NEXT:   %62 = rk.field_ptr %61, 0 : *mut Rows{x: slice{ptr: *const f32, len: usize}, width: usize} to *mut slice{ptr: *const f32, len: usize}
// CHECK-NEXT:   %63 = rk.field_ptr %62, 0 : *mut slice{ptr: *const f32, len: usize} to *mut *const f32
// CHECK-NEXT:   rk.store %3, %63 : *mut *const f32
// CHECK-NEXT:   %64 = rk.field_ptr %62, 1 : *mut slice{ptr: *const f32, len: usize} to *mut usize
// CHECK-NEXT:   rk.store %4, %64 : *mut usize
// CHECK-NEXT:   %65 = rk.field_ptr %61, 1 : *mut Rows{x: slice{ptr: *const f32, len: usize}, width: usize} to *mut usize
// CHECK-NEXT:   rk.store %60, %65 : *mut usize
// CHECK-NEXT:   %66 = rk.const 0 : usize
// CHECK-NEXT:   %67 = rk.const 1 : usize
// CHECK-NEXT:   %68 = rk.const false : bool
// CHECK-NEXT:   %69 = rk.var : bool
// CHECK-NEXT:   rk.write %68, %69 : bool
// CHECK-NEXT:   %70 = rk.var : usize
// CHECK-NEXT:   rk.write %66, %70 : usize
// CHECK-NEXT:   rk.loop {
// CHECK-NEXT:     %71 = rk.read %69 : bool
// CHECK-NEXT:     rk.if %71 {
// CHECK-NEXT:       rk.break
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     %72 = rk.read %70 : usize
// CHECK-NEXT:     %73 = rk.const 3 : usize
// CHECK-NEXT:     %74 = rk.sub %73, %72 : usize
// CHECK-NEXT:     %75 = rk.cmp lt %74, %67 : usize
// CHECK-NEXT:     rk.write %75, %69 : bool
// CHECK-NEXT:     %76 = rk.add %72, %67 : usize
// CHECK-NEXT:     rk.write %76, %70 : usize
// CHECK-NEXT:     %77 = rk.field_ptr %61, 1 : *mut Rows{x: slice{ptr: *const f32, len: usize}, width: usize} to *mut usize
// CHECK-NEXT:     rk.store %72, %77 : *mut usize
// CHECK-NEXT:     %78 = rk.cast %61 : *mut Rows{x: slice{ptr: *const f32, len: usize}, width: usize} to *const Rows{x: slice{ptr: *const f32, len: usize}, width: usize}
// CHECK-NEXT:     %79 = rk.const 1 : usize
// CHECK-NEXT:     %80 = rk.const 0 : usize
// CHECK-NEXT:     %81 = rk.field_ptr %78, 0 : *const Rows{x: slice{ptr: *const f32, len: usize}, width: usize} to *const slice{ptr: *const f32, len: usize}
// CHECK-NEXT:     %82 = rk.field_ptr %81, 0 : *const slice{ptr: *const f32, len: usize} to *const *const f32
// CHECK-NEXT:     %83 = rk.field_ptr %81, 1 : *const slice{ptr: *const f32, len: usize} to *const usize
// CHECK-NEXT:     %84 = rk.load %82 : *const *const f32
// CHECK-NEXT:     %85 = rk.load %83 : *const usize
// CHECK-NEXT:     %86 = rk.mul %79, %72 : usize
// CHECK-NEXT:     %87 = rk.add %86, %80 : usize
// CHECK-NEXT:     rk.bounds_check %87, %85 at 14:9
// CHECK-NEXT:     %88 = rk.ptr_offset %84, %87 : *const f32
// CHECK-NEXT:     %89 = rk.load %88 : *const f32
// CHECK-NEXT:     %90 = rk.read %8 : f32
// CHECK-NEXT:     %91 = rk.add %90, %89 : f32
// CHECK-NEXT:     rk.write %91, %8 : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   %92 = rk.const 0 : usize
// CHECK-NEXT:   rk.bounds_check %92, %6 at 29:5
// CHECK-NEXT:   %93 = rk.read %8 : f32
// CHECK-NEXT:   %94 = rk.ptr_offset %5, %92 : *mut f32
// CHECK-NEXT:   rk.store %93, %94 : *mut f32
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
