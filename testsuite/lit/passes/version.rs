// A `for` loop over `0..n` whose index is affine in `k`: the check is proven once before the
// loop (the largest index, with no wrap on the way, below the length) and the loop runs in a
// copy without it; the original runs when the proof fails, and panics as before.
// RUN: rkc-opt %s --passes=inline,simplify,version,simplify
use rkc_offload::prelude::*;
#[offload_kernel]
fn row_sum(n: usize, a: &[f32], out: &mut [f32]) {
    let row = unsafe { global_idx_x() };
    let mut acc = 0.0f32;
    for k in 0..n {
        acc += a[row * n + k];
    }
    out[row] = acc;
}
// CHECK-LABEL: rk.func @row_sum(n %0: usize, a %1: &[f32], out %2: &mut [f32]) kernel {
// CHECK-NEXT:   %3 = rk.slice_ptr %1 : &[f32] to *const f32
// CHECK-NEXT:   %4 = rk.slice_len %1 : &[f32]
// CHECK-NEXT:   %5 = rk.slice_ptr %2 : &mut [f32] to *mut f32
// CHECK-NEXT:   %6 = rk.slice_len %2 : &mut [f32]
// CHECK-NEXT:   %7 = rk.block_id x : u32
// CHECK-NEXT:   %8 = rk.cast %7 : u32 to usize
// CHECK-NEXT:   %9 = rk.block_dim x : u32
// CHECK-NEXT:   %10 = rk.cast %9 : u32 to usize
// CHECK-NEXT:   %11 = rk.mul %8, %10 : usize
// CHECK-NEXT:   %12 = rk.thread_id x : u32
// CHECK-NEXT:   %13 = rk.cast %12 : u32 to usize
// CHECK-NEXT:   %14 = rk.add %11, %13 : usize
// CHECK-NEXT:   %15 = rk.const 0.0 : f32
// CHECK-NEXT:   %16 = rk.var : f32
// CHECK-NEXT:   rk.write %15, %16 : f32
// CHECK-NEXT:   %17 = rk.const 0 : usize
// CHECK-NEXT:   %18 = rk.const 1 : usize
// CHECK-NEXT:   %19 = rk.cmp ge %17, %0 : usize
// CHECK-NEXT:   %20 = rk.var : bool
// CHECK-NEXT:   rk.write %19, %20 : bool
// CHECK-NEXT:   %21 = rk.var : usize
// CHECK-NEXT:   rk.write %17, %21 : usize
// CHECK-NEXT:   %22 = rk.mul %14, %0 : usize
// CHECK-NEXT:   %23 = rk.cast %22 : usize to u128
// CHECK-NEXT:   %24 = rk.sub %0, %18 : usize
// CHECK-NEXT:   %25 = rk.cast %24 : usize to u128
// CHECK-NEXT:   %26 = rk.add %23, %25 : u128
// CHECK-NEXT:   %27 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %28 = rk.cmp le %26, %27 : u128
// CHECK-NEXT:   %29 = rk.cast %4 : usize to u128
// CHECK-NEXT:   %30 = rk.cmp lt %26, %29 : u128
// CHECK-NEXT:   %31 = rk.and %28, %30 : bool
// CHECK-NEXT:   rk.if %31 {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %32 = rk.read %20 : bool
// CHECK-NEXT:       rk.if %32 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %33 = rk.read %21 : usize
// CHECK-NEXT:       %34 = rk.mul %14, %0 : usize
// CHECK-NEXT:       %35 = rk.add %34, %33 : usize
// CHECK-NEXT:       %36 = rk.sub %0, %18 : usize
// CHECK-NEXT:       %37 = rk.sub %36, %33 : usize
// CHECK-NEXT:       %38 = rk.cmp lt %37, %18 : usize
// CHECK-NEXT:       rk.write %38, %20 : bool
// CHECK-NEXT:       %39 = rk.add %33, %18 : usize
// CHECK-NEXT:       rk.write %39, %21 : usize
// CHECK-NEXT:       %40 = rk.ptr_offset %3, %35 : *const f32
// CHECK-NEXT:       %41 = rk.load %40 : *const f32
// CHECK-NEXT:       %42 = rk.read %16 : f32
// CHECK-NEXT:       %43 = rk.add %42, %41 : f32
// CHECK-NEXT:       rk.write %43, %16 : f32
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %44 = rk.read %20 : bool
// CHECK-NEXT:       rk.if %44 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %45 = rk.read %21 : usize
// CHECK-NEXT:       %46 = rk.mul %14, %0 : usize
// CHECK-NEXT:       %47 = rk.add %46, %45 : usize
// CHECK-NEXT:       rk.bounds_check %47, %4 at 11:16
// CHECK-NEXT:       %48 = rk.sub %0, %18 : usize
// CHECK-NEXT:       %49 = rk.sub %48, %45 : usize
// CHECK-NEXT:       %50 = rk.cmp lt %49, %18 : usize
// CHECK-NEXT:       rk.write %50, %20 : bool
// CHECK-NEXT:       %51 = rk.add %45, %18 : usize
// CHECK-NEXT:       rk.write %51, %21 : usize
// CHECK-NEXT:       %52 = rk.ptr_offset %3, %47 : *const f32
// CHECK-NEXT:       %53 = rk.load %52 : *const f32
// CHECK-NEXT:       %54 = rk.read %16 : f32
// CHECK-NEXT:       %55 = rk.add %54, %53 : f32
// CHECK-NEXT:       rk.write %55, %16 : f32
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   rk.bounds_check %14, %6 at 13:5
// CHECK-NEXT:   %56 = rk.read %16 : f32
// CHECK-NEXT:   %57 = rk.ptr_offset %5, %14 : *mut f32
// CHECK-NEXT:   rk.store %56, %57 : *mut f32
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
// -----
// A `while` loop with a constant step: the proof uses the last value of the progression (24,
// not 31), and checks whose index has no wrap to fear need no condition for it.
// RUN: rkc-opt %s --passes=inline,simplify,version,simplify
use rkc_offload::prelude::*;
#[offload_kernel]
fn columns(width: usize, input: &[f32], out: &mut [f32]) {
    let t = unsafe { thread_idx_x() } as usize;
    let mut j = 0usize;
    while j < 32 {
        out[j * 33 + t] = input[j * width + t];
        j += 8;
    }
}
// CHECK-LABEL: rk.func @columns(width %0: usize, input %1: &[f32], out %2: &mut [f32]) kernel {
// CHECK-NEXT:   %3 = rk.slice_ptr %1 : &[f32] to *const f32
// CHECK-NEXT:   %4 = rk.slice_len %1 : &[f32]
// CHECK-NEXT:   %5 = rk.slice_ptr %2 : &mut [f32] to *mut f32
// CHECK-NEXT:   %6 = rk.slice_len %2 : &mut [f32]
// CHECK-NEXT:   %7 = rk.thread_id x : u32
// CHECK-NEXT:   %8 = rk.cast %7 : u32 to usize
// CHECK-NEXT:   %9 = rk.const 0 : usize
// CHECK-NEXT:   %10 = rk.var : usize
// CHECK-NEXT:   rk.write %9, %10 : usize
// CHECK-NEXT:   %11 = rk.const 24 : u128
// CHECK-NEXT:   %12 = rk.cast %0 : usize to u128
// CHECK-NEXT:   %13 = rk.mul %11, %12 : u128
// CHECK-NEXT:   %14 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %15 = rk.cmp le %13, %14 : u128
// CHECK-NEXT:   %16 = rk.cast %8 : usize to u128
// CHECK-NEXT:   %17 = rk.add %13, %16 : u128
// CHECK-NEXT:   %18 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %19 = rk.cmp le %17, %18 : u128
// CHECK-NEXT:   %20 = rk.cast %4 : usize to u128
// CHECK-NEXT:   %21 = rk.cmp lt %17, %20 : u128
// CHECK-NEXT:   %22 = rk.const 792 : u128
// CHECK-NEXT:   %23 = rk.add %22, %16 : u128
// CHECK-NEXT:   %24 = rk.cast %6 : usize to u128
// CHECK-NEXT:   %25 = rk.cmp lt %23, %24 : u128
// CHECK-NEXT:   %26 = rk.and %15, %19 : bool
// CHECK-NEXT:   %27 = rk.and %26, %21 : bool
// CHECK-NEXT:   %28 = rk.and %27, %25 : bool
// CHECK-NEXT:   rk.if %28 {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %29 = rk.read %10 : usize
// CHECK-NEXT:       %30 = rk.const 32 : usize
// CHECK-NEXT:       %31 = rk.cmp lt %29, %30 : usize
// CHECK-NEXT:       %32 = rk.not %31 : bool
// CHECK-NEXT:       rk.if %32 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %33 = rk.read %10 : usize
// CHECK-NEXT:       %34 = rk.mul %33, %0 : usize
// CHECK-NEXT:       %35 = rk.add %34, %8 : usize
// CHECK-NEXT:       %36 = rk.read %10 : usize
// CHECK-NEXT:       %37 = rk.const 33 : usize
// CHECK-NEXT:       %38 = rk.mul %36, %37 : usize
// CHECK-NEXT:       %39 = rk.add %38, %8 : usize
// CHECK-NEXT:       %40 = rk.ptr_offset %3, %35 : *const f32
// CHECK-NEXT:       %41 = rk.load %40 : *const f32
// CHECK-NEXT:       %42 = rk.ptr_offset %5, %39 : *mut f32
// CHECK-NEXT:       rk.store %41, %42 : *mut f32
// CHECK-NEXT:       %43 = rk.const 8 : usize
// CHECK-NEXT:       %44 = rk.read %10 : usize
// CHECK-NEXT:       %45 = rk.add %44, %43 : usize
// CHECK-NEXT:       rk.write %45, %10 : usize
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %46 = rk.read %10 : usize
// CHECK-NEXT:       %47 = rk.const 32 : usize
// CHECK-NEXT:       %48 = rk.cmp lt %46, %47 : usize
// CHECK-NEXT:       %49 = rk.not %48 : bool
// CHECK-NEXT:       rk.if %49 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %50 = rk.read %10 : usize
// CHECK-NEXT:       %51 = rk.mul %50, %0 : usize
// CHECK-NEXT:       %52 = rk.add %51, %8 : usize
// CHECK-NEXT:       rk.bounds_check %52, %4 at 10:27
// CHECK-NEXT:       %53 = rk.read %10 : usize
// CHECK-NEXT:       %54 = rk.const 33 : usize
// CHECK-NEXT:       %55 = rk.mul %53, %54 : usize
// CHECK-NEXT:       %56 = rk.add %55, %8 : usize
// CHECK-NEXT:       rk.bounds_check %56, %6 at 10:9
// CHECK-NEXT:       %57 = rk.ptr_offset %3, %52 : *const f32
// CHECK-NEXT:       %58 = rk.load %57 : *const f32
// CHECK-NEXT:       %59 = rk.ptr_offset %5, %56 : *mut f32
// CHECK-NEXT:       rk.store %58, %59 : *mut f32
// CHECK-NEXT:       %60 = rk.const 8 : usize
// CHECK-NEXT:       %61 = rk.read %10 : usize
// CHECK-NEXT:       %62 = rk.add %61, %60 : usize
// CHECK-NEXT:       rk.write %62, %10 : usize
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
// -----
// A loop that waits at a barrier is versioned with a proof the whole block agrees on (a word
// of shared memory between two barriers, only where the loop runs), so that no thread waits at
// a barrier of the other copy.
// RUN: rkc-opt %s --passes=inline,simplify,version,simplify
use rkc_offload::prelude::*;
#[offload_kernel]
fn synchronised(n: usize, a: &[f32], out: &mut [f32]) {
    let t = unsafe { thread_idx_x() } as usize;
    for k in 0..n {
        out[t] = a[k * 4 + t];
        unsafe { sync_threads() };
    }
}
// CHECK-LABEL: rk.func @synchronised(n %0: usize, a %1: &[f32], out %2: &mut [f32]) kernel {
// CHECK-NEXT:   %3 = rk.slice_ptr %1 : &[f32] to *const f32
// CHECK-NEXT:   %4 = rk.slice_len %1 : &[f32]
// CHECK-NEXT:   %5 = rk.slice_ptr %2 : &mut [f32] to *mut f32
// CHECK-NEXT:   %6 = rk.slice_len %2 : &mut [f32]
// CHECK-NEXT:   %7 = rk.thread_id x : u32
// CHECK-NEXT:   %8 = rk.cast %7 : u32 to usize
// CHECK-NEXT:   %9 = rk.const 0 : usize
// CHECK-NEXT:   %10 = rk.const 1 : usize
// CHECK-NEXT:   %11 = rk.cmp ge %9, %0 : usize
// CHECK-NEXT:   %12 = rk.var : bool
// CHECK-NEXT:   rk.write %11, %12 : bool
// CHECK-NEXT:   %13 = rk.var : usize
// CHECK-NEXT:   rk.write %9, %13 : usize
// CHECK-NEXT:   %14 = rk.sub %0, %10 : usize
// CHECK-NEXT:   %15 = rk.cast %14 : usize to u128
// CHECK-NEXT:   %16 = rk.const 4 : u128
// CHECK-NEXT:   %17 = rk.mul %15, %16 : u128
// CHECK-NEXT:   %18 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %19 = rk.cmp le %17, %18 : u128
// CHECK-NEXT:   %20 = rk.cast %8 : usize to u128
// CHECK-NEXT:   %21 = rk.add %17, %20 : u128
// CHECK-NEXT:   %22 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %23 = rk.cmp le %21, %22 : u128
// CHECK-NEXT:   %24 = rk.cast %4 : usize to u128
// CHECK-NEXT:   %25 = rk.cmp lt %21, %24 : u128
// CHECK-NEXT:   %26 = rk.cast %6 : usize to u128
// CHECK-NEXT:   %27 = rk.cmp lt %20, %26 : u128
// CHECK-NEXT:   %28 = rk.and %19, %23 : bool
// CHECK-NEXT:   %29 = rk.and %28, %25 : bool
// CHECK-NEXT:   %30 = rk.and %29, %27 : bool
// CHECK-NEXT:   %31 = rk.not %11 : bool
// CHECK-NEXT:   %32 = rk.if %31 -> bool {
// CHECK-NEXT:     %33 = rk.shared : *mut [u32; 1]
// CHECK-NEXT:     %34 = rk.const 0 : usize
// CHECK-NEXT:     %35 = rk.elem_ptr %33, %34 : *mut [u32; 1] to *mut u32
// CHECK-NEXT:     %36 = rk.const 0 : u32
// CHECK-NEXT:     %37 = rk.const 1 : u32
// CHECK-NEXT:     rk.store %36, %35 : *mut u32
// CHECK-NEXT:     rk.barrier
// CHECK-NEXT:     %38 = rk.not %30 : bool
// CHECK-NEXT:     rk.if %38 {
// CHECK-NEXT:       rk.store %37, %35 : *mut u32
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     rk.barrier
// CHECK-NEXT:     %39 = rk.load %35 : *mut u32
// CHECK-NEXT:     %40 = rk.cmp eq %39, %36 : u32
// CHECK-NEXT:     rk.yield %40 : bool
// CHECK-NEXT:   } else {
// CHECK-NEXT:     %41 = rk.const false : bool
// CHECK-NEXT:     rk.yield %41 : bool
// CHECK-NEXT:   }
// CHECK-NEXT:   rk.if %32 {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %42 = rk.read %12 : bool
// CHECK-NEXT:       rk.if %42 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %43 = rk.read %13 : usize
// CHECK-NEXT:       %44 = rk.const 4 : usize
// CHECK-NEXT:       %45 = rk.mul %43, %44 : usize
// CHECK-NEXT:       %46 = rk.add %45, %8 : usize
// CHECK-NEXT:       %47 = rk.sub %0, %10 : usize
// CHECK-NEXT:       %48 = rk.sub %47, %43 : usize
// CHECK-NEXT:       %49 = rk.cmp lt %48, %10 : usize
// CHECK-NEXT:       rk.write %49, %12 : bool
// CHECK-NEXT:       %50 = rk.add %43, %10 : usize
// CHECK-NEXT:       rk.write %50, %13 : usize
// CHECK-NEXT:       %51 = rk.ptr_offset %3, %46 : *const f32
// CHECK-NEXT:       %52 = rk.load %51 : *const f32
// CHECK-NEXT:       %53 = rk.ptr_offset %5, %8 : *mut f32
// CHECK-NEXT:       rk.store %52, %53 : *mut f32
// CHECK-NEXT:       rk.barrier
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %54 = rk.read %12 : bool
// CHECK-NEXT:       rk.if %54 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %55 = rk.read %13 : usize
// CHECK-NEXT:       %56 = rk.const 4 : usize
// CHECK-NEXT:       %57 = rk.mul %55, %56 : usize
// CHECK-NEXT:       %58 = rk.add %57, %8 : usize
// CHECK-NEXT:       rk.bounds_check %58, %4 at 10:18
// CHECK-NEXT:       rk.bounds_check %8, %6 at 10:9
// CHECK-NEXT:       %59 = rk.sub %0, %10 : usize
// CHECK-NEXT:       %60 = rk.sub %59, %55 : usize
// CHECK-NEXT:       %61 = rk.cmp lt %60, %10 : usize
// CHECK-NEXT:       rk.write %61, %12 : bool
// CHECK-NEXT:       %62 = rk.add %55, %10 : usize
// CHECK-NEXT:       rk.write %62, %13 : usize
// CHECK-NEXT:       %63 = rk.ptr_offset %3, %58 : *const f32
// CHECK-NEXT:       %64 = rk.load %63 : *const f32
// CHECK-NEXT:       %65 = rk.ptr_offset %5, %8 : *mut f32
// CHECK-NEXT:       rk.store %64, %65 : *mut f32
// CHECK-NEXT:       rk.barrier
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
// -----
// A loop that steps through a small thread-private array is marked `unroll` (unrolled, its
// indices are constants and the array lives in registers), and loop versioning leaves it so in
// the checked copy, where the loop around it and a loop over shared data become `cold`.
// RUN: rkc-opt %s --passes=inline,simplify,unroll,version,simplify
use rkc_offload::prelude::*;
#[offload_kernel]
fn register_tile(n: usize, a: &[f32], out: &mut [f32]) {
    let row = unsafe { global_idx_x() };
    let mut acc = [0.0f32; 4];
    let mut sum = 0.0f32;
    for k in 0..n {
        for j in 0..4 {
            acc[j] += a[(row * n + k) * 4 + j];
        }
        for j in 0..4 {
            sum += a[j * n + k];
        }
    }
    out[row] = sum + acc[0] + acc[1] + acc[2] + acc[3];
}
// CHECK-LABEL: rk.func @register_tile(n %0: usize, a %1: &[f32], out %2: &mut [f32]) kernel {
// CHECK-NEXT:   %3 = rk.slice_ptr %1 : &[f32] to *const f32
// CHECK-NEXT:   %4 = rk.slice_len %1 : &[f32]
// CHECK-NEXT:   %5 = rk.slice_ptr %2 : &mut [f32] to *mut f32
// CHECK-NEXT:   %6 = rk.slice_len %2 : &mut [f32]
// CHECK-NEXT:   %7 = rk.block_id x : u32
// CHECK-NEXT:   %8 = rk.cast %7 : u32 to usize
// CHECK-NEXT:   %9 = rk.block_dim x : u32
// CHECK-NEXT:   %10 = rk.cast %9 : u32 to usize
// CHECK-NEXT:   %11 = rk.mul %8, %10 : usize
// CHECK-NEXT:   %12 = rk.thread_id x : u32
// CHECK-NEXT:   %13 = rk.cast %12 : u32 to usize
// CHECK-NEXT:   %14 = rk.add %11, %13 : usize
// CHECK-NEXT:   %15 = rk.const 0.0 : f32
// CHECK-NEXT:   %16 = rk.local : *mut [f32; 4]
// CHECK-NEXT:   %17 = rk.const 0 : usize
// CHECK-NEXT:   %18 = rk.elem_ptr %16, %17 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   rk.store %15, %18 : *mut f32
// CHECK-NEXT:   %19 = rk.const 1 : usize
// CHECK-NEXT:   %20 = rk.elem_ptr %16, %19 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   rk.store %15, %20 : *mut f32
// CHECK-NEXT:   %21 = rk.const 2 : usize
// CHECK-NEXT:   %22 = rk.elem_ptr %16, %21 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   rk.store %15, %22 : *mut f32
// CHECK-NEXT:   %23 = rk.const 3 : usize
// CHECK-NEXT:   %24 = rk.elem_ptr %16, %23 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   rk.store %15, %24 : *mut f32
// CHECK-NEXT:   %25 = rk.const 0.0 : f32
// CHECK-NEXT:   %26 = rk.var : f32
// CHECK-NEXT:   rk.write %25, %26 : f32
// CHECK-NEXT:   %27 = rk.const 0 : usize
// CHECK-NEXT:   %28 = rk.const 1 : usize
// CHECK-NEXT:   %29 = rk.cmp ge %27, %0 : usize
// CHECK-NEXT:   %30 = rk.var : bool
// CHECK-NEXT:   rk.write %29, %30 : bool
// CHECK-NEXT:   %31 = rk.var : usize
// CHECK-NEXT:   rk.write %27, %31 : usize
// CHECK-NEXT:   %32 = rk.mul %14, %0 : usize
// CHECK-NEXT:   %33 = rk.cast %32 : usize to u128
// CHECK-NEXT:   %34 = rk.sub %0, %28 : usize
// CHECK-NEXT:   %35 = rk.cast %34 : usize to u128
// CHECK-NEXT:   %36 = rk.add %33, %35 : u128
// CHECK-NEXT:   %37 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %38 = rk.cmp le %36, %37 : u128
// CHECK-NEXT:   %39 = rk.const 4 : u128
// CHECK-NEXT:   %40 = rk.mul %36, %39 : u128
// CHECK-NEXT:   %41 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %42 = rk.cmp le %40, %41 : u128
// CHECK-NEXT:   %43 = rk.const 3 : u128
// CHECK-NEXT:   %44 = rk.add %40, %43 : u128
// CHECK-NEXT:   %45 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %46 = rk.cmp le %44, %45 : u128
// CHECK-NEXT:   %47 = rk.cast %4 : usize to u128
// CHECK-NEXT:   %48 = rk.cmp lt %44, %47 : u128
// CHECK-NEXT:   %49 = rk.const true : bool
// CHECK-NEXT:   %50 = rk.const 3 : u128
// CHECK-NEXT:   %51 = rk.cast %0 : usize to u128
// CHECK-NEXT:   %52 = rk.mul %50, %51 : u128
// CHECK-NEXT:   %53 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %54 = rk.cmp le %52, %53 : u128
// CHECK-NEXT:   %55 = rk.add %52, %35 : u128
// CHECK-NEXT:   %56 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %57 = rk.cmp le %55, %56 : u128
// CHECK-NEXT:   %58 = rk.cmp lt %55, %47 : u128
// CHECK-NEXT:   %59 = rk.and %38, %42 : bool
// CHECK-NEXT:   %60 = rk.and %59, %46 : bool
// CHECK-NEXT:   %61 = rk.and %60, %48 : bool
// CHECK-NEXT:   %62 = rk.and %61, %49 : bool
// CHECK-NEXT:   %63 = rk.and %62, %54 : bool
// CHECK-NEXT:   %64 = rk.and %63, %57 : bool
// CHECK-NEXT:   %65 = rk.and %64, %58 : bool
// CHECK-NEXT:   rk.if %65 {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %66 = rk.read %30 : bool
// CHECK-NEXT:       rk.if %66 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %67 = rk.read %31 : usize
// CHECK-NEXT:       %68 = rk.sub %0, %28 : usize
// CHECK-NEXT:       %69 = rk.sub %68, %67 : usize
// CHECK-NEXT:       %70 = rk.cmp lt %69, %28 : usize
// CHECK-NEXT:       rk.write %70, %30 : bool
// CHECK-NEXT:       %71 = rk.add %67, %28 : usize
// CHECK-NEXT:       rk.write %71, %31 : usize
// CHECK-NEXT:       %72 = rk.const 0 : usize
// CHECK-NEXT:       %73 = rk.const 1 : usize
// CHECK-NEXT:       %74 = rk.const false : bool
// CHECK-NEXT:       %75 = rk.var : bool
// CHECK-NEXT:       rk.write %74, %75 : bool
// CHECK-NEXT:       %76 = rk.var : usize
// CHECK-NEXT:       rk.write %72, %76 : usize
// CHECK-NEXT:       rk.loop unroll {
// CHECK-NEXT:         %77 = rk.read %75 : bool
// CHECK-NEXT:         rk.if %77 {
// CHECK-NEXT:           rk.break
// CHECK-NEXT:         } else {
// CHECK-NEXT:         }
// CHECK-NEXT:         %78 = rk.read %76 : usize
// CHECK-NEXT:         %79 = rk.mul %14, %0 : usize
// CHECK-NEXT:         %80 = rk.add %79, %67 : usize
// CHECK-NEXT:         %81 = rk.const 4 : usize
// CHECK-NEXT:         %82 = rk.mul %80, %81 : usize
// CHECK-NEXT:         %83 = rk.add %82, %78 : usize
// CHECK-NEXT:         %84 = rk.const 3 : usize
// CHECK-NEXT:         %85 = rk.sub %84, %78 : usize
// CHECK-NEXT:         %86 = rk.cmp lt %85, %73 : usize
// CHECK-NEXT:         rk.write %86, %75 : bool
// CHECK-NEXT:         %87 = rk.add %78, %73 : usize
// CHECK-NEXT:         rk.write %87, %76 : usize
// CHECK-NEXT:         %88 = rk.ptr_offset %3, %83 : *const f32
// CHECK-NEXT:         %89 = rk.load %88 : *const f32
// CHECK-NEXT:         %90 = rk.elem_ptr %16, %78 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:         %91 = rk.load %90 : *mut f32
// CHECK-NEXT:         %92 = rk.add %91, %89 : f32
// CHECK-NEXT:         rk.store %92, %90 : *mut f32
// CHECK-NEXT:       }
// CHECK-NEXT:       %93 = rk.const 0 : usize
// CHECK-NEXT:       %94 = rk.const 1 : usize
// CHECK-NEXT:       %95 = rk.const false : bool
// CHECK-NEXT:       %96 = rk.var : bool
// CHECK-NEXT:       rk.write %95, %96 : bool
// CHECK-NEXT:       %97 = rk.var : usize
// CHECK-NEXT:       rk.write %93, %97 : usize
// CHECK-NEXT:       rk.loop {
// CHECK-NEXT:         %98 = rk.read %96 : bool
// CHECK-NEXT:         rk.if %98 {
// CHECK-NEXT:           rk.break
// CHECK-NEXT:         } else {
// CHECK-NEXT:         }
// CHECK-NEXT:         %99 = rk.read %97 : usize
// CHECK-NEXT:         %100 = rk.mul %99, %0 : usize
// CHECK-NEXT:         %101 = rk.add %100, %67 : usize
// CHECK-NEXT:         %102 = rk.const 3 : usize
// CHECK-NEXT:         %103 = rk.sub %102, %99 : usize
// CHECK-NEXT:         %104 = rk.cmp lt %103, %94 : usize
// CHECK-NEXT:         rk.write %104, %96 : bool
// CHECK-NEXT:         %105 = rk.add %99, %94 : usize
// CHECK-NEXT:         rk.write %105, %97 : usize
// CHECK-NEXT:         %106 = rk.ptr_offset %3, %101 : *const f32
// CHECK-NEXT:         %107 = rk.load %106 : *const f32
// CHECK-NEXT:         %108 = rk.read %26 : f32
// CHECK-NEXT:         %109 = rk.add %108, %107 : f32
// CHECK-NEXT:         rk.write %109, %26 : f32
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %110 = rk.read %30 : bool
// CHECK-NEXT:       rk.if %110 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %111 = rk.read %31 : usize
// CHECK-NEXT:       %112 = rk.sub %0, %28 : usize
// CHECK-NEXT:       %113 = rk.sub %112, %111 : usize
// CHECK-NEXT:       %114 = rk.cmp lt %113, %28 : usize
// CHECK-NEXT:       rk.write %114, %30 : bool
// CHECK-NEXT:       %115 = rk.add %111, %28 : usize
// CHECK-NEXT:       rk.write %115, %31 : usize
// CHECK-NEXT:       %116 = rk.const 0 : usize
// CHECK-NEXT:       %117 = rk.const 1 : usize
// CHECK-NEXT:       %118 = rk.const false : bool
// CHECK-NEXT:       %119 = rk.var : bool
// CHECK-NEXT:       rk.write %118, %119 : bool
// CHECK-NEXT:       %120 = rk.var : usize
// CHECK-NEXT:       rk.write %116, %120 : usize
// CHECK-NEXT:       rk.loop unroll {
// CHECK-NEXT:         %121 = rk.read %119 : bool
// CHECK-NEXT:         rk.if %121 {
// CHECK-NEXT:           rk.break
// CHECK-NEXT:         } else {
// CHECK-NEXT:         }
// CHECK-NEXT:         %122 = rk.read %120 : usize
// CHECK-NEXT:         %123 = rk.mul %14, %0 : usize
// CHECK-NEXT:         %124 = rk.add %123, %111 : usize
// CHECK-NEXT:         %125 = rk.const 4 : usize
// CHECK-NEXT:         %126 = rk.mul %124, %125 : usize
// CHECK-NEXT:         %127 = rk.add %126, %122 : usize
// CHECK-NEXT:         rk.bounds_check %127, %4 at 13:23
// CHECK-NEXT:         %128 = rk.const 4 : usize
// CHECK-NEXT:         rk.bounds_check %122, %128 at 13:13
// CHECK-NEXT:         %129 = rk.const 3 : usize
// CHECK-NEXT:         %130 = rk.sub %129, %122 : usize
// CHECK-NEXT:         %131 = rk.cmp lt %130, %117 : usize
// CHECK-NEXT:         rk.write %131, %119 : bool
// CHECK-NEXT:         %132 = rk.add %122, %117 : usize
// CHECK-NEXT:         rk.write %132, %120 : usize
// CHECK-NEXT:         %133 = rk.ptr_offset %3, %127 : *const f32
// CHECK-NEXT:         %134 = rk.load %133 : *const f32
// CHECK-NEXT:         %135 = rk.elem_ptr %16, %122 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:         %136 = rk.load %135 : *mut f32
// CHECK-NEXT:         %137 = rk.add %136, %134 : f32
// CHECK-NEXT:         rk.store %137, %135 : *mut f32
// CHECK-NEXT:       }
// CHECK-NEXT:       %138 = rk.const 0 : usize
// CHECK-NEXT:       %139 = rk.const 1 : usize
// CHECK-NEXT:       %140 = rk.const false : bool
// CHECK-NEXT:       %141 = rk.var : bool
// CHECK-NEXT:       rk.write %140, %141 : bool
// CHECK-NEXT:       %142 = rk.var : usize
// CHECK-NEXT:       rk.write %138, %142 : usize
// CHECK-NEXT:       rk.loop cold {
// CHECK-NEXT:         %143 = rk.read %141 : bool
// CHECK-NEXT:         rk.if %143 {
// CHECK-NEXT:           rk.break
// CHECK-NEXT:         } else {
// CHECK-NEXT:         }
// CHECK-NEXT:         %144 = rk.read %142 : usize
// CHECK-NEXT:         %145 = rk.mul %144, %0 : usize
// CHECK-NEXT:         %146 = rk.add %145, %111 : usize
// CHECK-NEXT:         rk.bounds_check %146, %4 at 16:20
// CHECK-NEXT:         %147 = rk.const 3 : usize
// CHECK-NEXT:         %148 = rk.sub %147, %144 : usize
// CHECK-NEXT:         %149 = rk.cmp lt %148, %139 : usize
// CHECK-NEXT:         rk.write %149, %141 : bool
// CHECK-NEXT:         %150 = rk.add %144, %139 : usize
// CHECK-NEXT:         rk.write %150, %142 : usize
// CHECK-NEXT:         %151 = rk.ptr_offset %3, %146 : *const f32
// CHECK-NEXT:         %152 = rk.load %151 : *const f32
// CHECK-NEXT:         %153 = rk.read %26 : f32
// CHECK-NEXT:         %154 = rk.add %153, %152 : f32
// CHECK-NEXT:         rk.write %154, %26 : f32
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   rk.bounds_check %14, %6 at 19:5
// CHECK-NEXT:   %155 = rk.read %26 : f32
// CHECK-NEXT:   %156 = rk.const 0 : usize
// CHECK-NEXT:   %157 = rk.elem_ptr %16, %156 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   %158 = rk.load %157 : *mut f32
// CHECK-NEXT:   %159 = rk.add %155, %158 : f32
// CHECK-NEXT:   %160 = rk.const 1 : usize
// CHECK-NEXT:   %161 = rk.elem_ptr %16, %160 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   %162 = rk.load %161 : *mut f32
// CHECK-NEXT:   %163 = rk.add %159, %162 : f32
// CHECK-NEXT:   %164 = rk.const 2 : usize
// CHECK-NEXT:   %165 = rk.elem_ptr %16, %164 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   %166 = rk.load %165 : *mut f32
// CHECK-NEXT:   %167 = rk.add %163, %166 : f32
// CHECK-NEXT:   %168 = rk.const 3 : usize
// CHECK-NEXT:   %169 = rk.elem_ptr %16, %168 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   %170 = rk.load %169 : *mut f32
// CHECK-NEXT:   %171 = rk.add %167, %170 : f32
// CHECK-NEXT:   %172 = rk.ptr_offset %5, %14 : *mut f32
// CHECK-NEXT:   rk.store %171, %172 : *mut f32
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
// -----
// Indices divided by constants (`idx / 8`, a power of two, and `idx / 3`, bounded by the
// powers of two on either side) are proven with shifts, since a division would be a panic site
// of its own; and the inner loop's variable is recognised although the body checks the outer
// one (`acc[m]`) before it reads its own.
// RUN: rkc-opt %s --passes=inline,simplify,version,simplify
use rkc_offload::prelude::*;
#[offload_kernel]
fn staged(n: usize, a: &[f32], out: &mut [f32]) {
    let t = unsafe { thread_idx_x() } as usize;
    let acc = [[1.0f32; 2]; 2];
    let mut k0 = 0;
    while k0 < n {
        for i in 0..2 {
            let idx = t + i * 64;
            out[idx / 8 * n + k0 + idx % 8] = a[idx / 3];
        }
        k0 += 8;
    }
    for m in 0..2 {
        for j in 0..2 {
            out[(t + m) * n + j] = acc[m][j];
        }
    }
}
// CHECK-LABEL: rk.func @staged(n %0: usize, a %1: &[f32], out %2: &mut [f32]) kernel {
// CHECK-NEXT:   %3 = rk.slice_ptr %1 : &[f32] to *const f32
// CHECK-NEXT:   %4 = rk.slice_len %1 : &[f32]
// CHECK-NEXT:   %5 = rk.slice_ptr %2 : &mut [f32] to *mut f32
// CHECK-NEXT:   %6 = rk.slice_len %2 : &mut [f32]
// CHECK-NEXT:   %7 = rk.thread_id x : u32
// CHECK-NEXT:   %8 = rk.cast %7 : u32 to usize
// CHECK-NEXT:   %9 = rk.const 1.0 : f32
// CHECK-NEXT:   %10 = rk.local : *mut [[f32; 2]; 2]
// CHECK-NEXT:   %11 = rk.const 0 : usize
// CHECK-NEXT:   %12 = rk.elem_ptr %10, %11 : *mut [[f32; 2]; 2] to *mut [f32; 2]
// CHECK-NEXT:   %13 = rk.const 0 : usize
// CHECK-NEXT:   %14 = rk.elem_ptr %12, %13 : *mut [f32; 2] to *mut f32
// CHECK-NEXT:   rk.store %9, %14 : *mut f32
// CHECK-NEXT:   %15 = rk.const 1 : usize
// CHECK-NEXT:   %16 = rk.elem_ptr %12, %15 : *mut [f32; 2] to *mut f32
// CHECK-NEXT:   rk.store %9, %16 : *mut f32
// CHECK-NEXT:   %17 = rk.const 1 : usize
// CHECK-NEXT:   %18 = rk.elem_ptr %10, %17 : *mut [[f32; 2]; 2] to *mut [f32; 2]
// CHECK-NEXT:   %19 = rk.const 0 : usize
// CHECK-NEXT:   %20 = rk.elem_ptr %18, %19 : *mut [f32; 2] to *mut f32
// CHECK-NEXT:   rk.store %9, %20 : *mut f32
// CHECK-NEXT:   %21 = rk.const 1 : usize
// CHECK-NEXT:   %22 = rk.elem_ptr %18, %21 : *mut [f32; 2] to *mut f32
// CHECK-NEXT:   rk.store %9, %22 : *mut f32
// CHECK-NEXT:   %23 = rk.const 0 : usize
// CHECK-NEXT:   %24 = rk.var : usize
// CHECK-NEXT:   rk.write %23, %24 : usize
// CHECK-NEXT:   %25 = rk.cast %8 : usize to u128
// CHECK-NEXT:   %26 = rk.const 64 : u128
// CHECK-NEXT:   %27 = rk.add %25, %26 : u128
// CHECK-NEXT:   %28 = rk.const 1 : u128
// CHECK-NEXT:   %29 = rk.shr %27, %28 : u128
// CHECK-NEXT:   %30 = rk.cast %4 : usize to u128
// CHECK-NEXT:   %31 = rk.cmp lt %29, %30 : u128
// CHECK-NEXT:   %32 = rk.const 3 : u128
// CHECK-NEXT:   %33 = rk.shr %27, %32 : u128
// CHECK-NEXT:   %34 = rk.cast %0 : usize to u128
// CHECK-NEXT:   %35 = rk.mul %33, %34 : u128
// CHECK-NEXT:   %36 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %37 = rk.cmp le %35, %36 : u128
// CHECK-NEXT:   %38 = rk.const 0 : u128
// CHECK-NEXT:   %39 = rk.const 1 : u128
// CHECK-NEXT:   %40 = rk.sub %34, %39 : u128
// CHECK-NEXT:   %41 = rk.const 340282366920938463463374607431768211448 : u128
// CHECK-NEXT:   %42 = rk.sub %40, %38 : u128
// CHECK-NEXT:   %43 = rk.and %42, %41 : u128
// CHECK-NEXT:   %44 = rk.add %38, %43 : u128
// CHECK-NEXT:   %45 = rk.add %35, %44 : u128
// CHECK-NEXT:   %46 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %47 = rk.cmp le %45, %46 : u128
// CHECK-NEXT:   %48 = rk.const 7 : u128
// CHECK-NEXT:   %49 = rk.add %45, %48 : u128
// CHECK-NEXT:   %50 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %51 = rk.cmp le %49, %50 : u128
// CHECK-NEXT:   %52 = rk.cast %6 : usize to u128
// CHECK-NEXT:   %53 = rk.cmp lt %49, %52 : u128
// CHECK-NEXT:   %54 = rk.const 1 : u128
// CHECK-NEXT:   %55 = rk.sub %34, %54 : u128
// CHECK-NEXT:   %56 = rk.const 8 : u128
// CHECK-NEXT:   %57 = rk.add %55, %56 : u128
// CHECK-NEXT:   %58 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %59 = rk.cmp le %57, %58 : u128
// CHECK-NEXT:   %60 = rk.and %31, %37 : bool
// CHECK-NEXT:   %61 = rk.and %60, %47 : bool
// CHECK-NEXT:   %62 = rk.and %61, %51 : bool
// CHECK-NEXT:   %63 = rk.and %62, %53 : bool
// CHECK-NEXT:   %64 = rk.and %63, %59 : bool
// CHECK-NEXT:   rk.if %64 {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %65 = rk.read %24 : usize
// CHECK-NEXT:       %66 = rk.cmp lt %65, %0 : usize
// CHECK-NEXT:       %67 = rk.not %66 : bool
// CHECK-NEXT:       rk.if %67 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %68 = rk.const 0 : usize
// CHECK-NEXT:       %69 = rk.const 1 : usize
// CHECK-NEXT:       %70 = rk.const false : bool
// CHECK-NEXT:       %71 = rk.var : bool
// CHECK-NEXT:       rk.write %70, %71 : bool
// CHECK-NEXT:       %72 = rk.var : usize
// CHECK-NEXT:       rk.write %68, %72 : usize
// CHECK-NEXT:       rk.loop {
// CHECK-NEXT:         %73 = rk.read %71 : bool
// CHECK-NEXT:         rk.if %73 {
// CHECK-NEXT:           rk.break
// CHECK-NEXT:         } else {
// CHECK-NEXT:         }
// CHECK-NEXT:         %74 = rk.read %72 : usize
// CHECK-NEXT:         %75 = rk.const 1 : usize
// CHECK-NEXT:         %76 = rk.sub %75, %74 : usize
// CHECK-NEXT:         %77 = rk.cmp lt %76, %69 : usize
// CHECK-NEXT:         rk.write %77, %71 : bool
// CHECK-NEXT:         %78 = rk.add %74, %69 : usize
// CHECK-NEXT:         rk.write %78, %72 : usize
// CHECK-NEXT:         %79 = rk.const 64 : usize
// CHECK-NEXT:         %80 = rk.mul %74, %79 : usize
// CHECK-NEXT:         %81 = rk.add %8, %80 : usize
// CHECK-NEXT:         %82 = rk.const 3 : usize
// CHECK-NEXT:         %83 = rk.div %81, %82 : usize
// CHECK-NEXT:         %84 = rk.ptr_offset %3, %83 : *const f32
// CHECK-NEXT:         %85 = rk.load %84 : *const f32
// CHECK-NEXT:         %86 = rk.const 8 : usize
// CHECK-NEXT:         %87 = rk.div %81, %86 : usize
// CHECK-NEXT:         %88 = rk.mul %87, %0 : usize
// CHECK-NEXT:         %89 = rk.read %24 : usize
// CHECK-NEXT:         %90 = rk.add %88, %89 : usize
// CHECK-NEXT:         %91 = rk.const 8 : usize
// CHECK-NEXT:         %92 = rk.rem %81, %91 : usize
// CHECK-NEXT:         %93 = rk.add %90, %92 : usize
// CHECK-NEXT:         %94 = rk.ptr_offset %5, %93 : *mut f32
// CHECK-NEXT:         rk.store %85, %94 : *mut f32
// CHECK-NEXT:       }
// CHECK-NEXT:       %95 = rk.const 8 : usize
// CHECK-NEXT:       %96 = rk.read %24 : usize
// CHECK-NEXT:       %97 = rk.add %96, %95 : usize
// CHECK-NEXT:       rk.write %97, %24 : usize
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %98 = rk.read %24 : usize
// CHECK-NEXT:       %99 = rk.cmp lt %98, %0 : usize
// CHECK-NEXT:       %100 = rk.not %99 : bool
// CHECK-NEXT:       rk.if %100 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %101 = rk.const 0 : usize
// CHECK-NEXT:       %102 = rk.const 1 : usize
// CHECK-NEXT:       %103 = rk.const false : bool
// CHECK-NEXT:       %104 = rk.var : bool
// CHECK-NEXT:       rk.write %103, %104 : bool
// CHECK-NEXT:       %105 = rk.var : usize
// CHECK-NEXT:       rk.write %101, %105 : usize
// CHECK-NEXT:       rk.loop cold {
// CHECK-NEXT:         %106 = rk.read %104 : bool
// CHECK-NEXT:         rk.if %106 {
// CHECK-NEXT:           rk.break
// CHECK-NEXT:         } else {
// CHECK-NEXT:         }
// CHECK-NEXT:         %107 = rk.read %105 : usize
// CHECK-NEXT:         %108 = rk.const 1 : usize
// CHECK-NEXT:         %109 = rk.sub %108, %107 : usize
// CHECK-NEXT:         %110 = rk.cmp lt %109, %102 : usize
// CHECK-NEXT:         rk.write %110, %104 : bool
// CHECK-NEXT:         %111 = rk.add %107, %102 : usize
// CHECK-NEXT:         rk.write %111, %105 : usize
// CHECK-NEXT:         %112 = rk.const 64 : usize
// CHECK-NEXT:         %113 = rk.mul %107, %112 : usize
// CHECK-NEXT:         %114 = rk.add %8, %113 : usize
// CHECK-NEXT:         %115 = rk.const 3 : usize
// CHECK-NEXT:         %116 = rk.div %114, %115 : usize
// CHECK-NEXT:         rk.bounds_check %116, %4 at 15:47
// CHECK-NEXT:         %117 = rk.ptr_offset %3, %116 : *const f32
// CHECK-NEXT:         %118 = rk.load %117 : *const f32
// CHECK-NEXT:         %119 = rk.const 8 : usize
// CHECK-NEXT:         %120 = rk.div %114, %119 : usize
// CHECK-NEXT:         %121 = rk.mul %120, %0 : usize
// CHECK-NEXT:         %122 = rk.read %24 : usize
// CHECK-NEXT:         %123 = rk.add %121, %122 : usize
// CHECK-NEXT:         %124 = rk.const 8 : usize
// CHECK-NEXT:         %125 = rk.rem %114, %124 : usize
// CHECK-NEXT:         %126 = rk.add %123, %125 : usize
// CHECK-NEXT:         rk.bounds_check %126, %6 at 15:13
// CHECK-NEXT:         %127 = rk.ptr_offset %5, %126 : *mut f32
// CHECK-NEXT:         rk.store %118, %127 : *mut f32
// CHECK-NEXT:       }
// CHECK-NEXT:       %128 = rk.const 8 : usize
// CHECK-NEXT:       %129 = rk.read %24 : usize
// CHECK-NEXT:       %130 = rk.add %129, %128 : usize
// CHECK-NEXT:       rk.write %130, %24 : usize
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   %131 = rk.const 0 : usize
// CHECK-NEXT:   %132 = rk.const 1 : usize
// CHECK-NEXT:   %133 = rk.const false : bool
// CHECK-NEXT:   %134 = rk.var : bool
// CHECK-NEXT:   rk.write %133, %134 : bool
// CHECK-NEXT:   %135 = rk.var : usize
// CHECK-NEXT:   rk.write %131, %135 : usize
// CHECK-NEXT:   %136 = rk.const 1 : u128
// CHECK-NEXT:   %137 = rk.const 1 : u128
// CHECK-NEXT:   %138 = rk.cast %8 : usize to u128
// CHECK-NEXT:   %139 = rk.add %138, %136 : u128
// CHECK-NEXT:   %140 = rk.cast %0 : usize to u128
// CHECK-NEXT:   %141 = rk.mul %139, %140 : u128
// CHECK-NEXT:   %142 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %143 = rk.cmp le %141, %142 : u128
// CHECK-NEXT:   %144 = rk.add %141, %137 : u128
// CHECK-NEXT:   %145 = rk.const 18446744073709551615 : u128
// CHECK-NEXT:   %146 = rk.cmp le %144, %145 : u128
// CHECK-NEXT:   %147 = rk.cast %6 : usize to u128
// CHECK-NEXT:   %148 = rk.cmp lt %144, %147 : u128
// CHECK-NEXT:   %149 = rk.const true : bool
// CHECK-NEXT:   %150 = rk.and %149, %143 : bool
// CHECK-NEXT:   %151 = rk.and %150, %146 : bool
// CHECK-NEXT:   %152 = rk.and %151, %148 : bool
// CHECK-NEXT:   rk.if %152 {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %153 = rk.read %134 : bool
// CHECK-NEXT:       rk.if %153 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %154 = rk.read %135 : usize
// CHECK-NEXT:       %155 = rk.const 1 : usize
// CHECK-NEXT:       %156 = rk.sub %155, %154 : usize
// CHECK-NEXT:       %157 = rk.cmp lt %156, %132 : usize
// CHECK-NEXT:       rk.write %157, %134 : bool
// CHECK-NEXT:       %158 = rk.add %154, %132 : usize
// CHECK-NEXT:       rk.write %158, %135 : usize
// CHECK-NEXT:       %159 = rk.const 0 : usize
// CHECK-NEXT:       %160 = rk.const 1 : usize
// CHECK-NEXT:       %161 = rk.const false : bool
// CHECK-NEXT:       %162 = rk.var : bool
// CHECK-NEXT:       rk.write %161, %162 : bool
// CHECK-NEXT:       %163 = rk.var : usize
// CHECK-NEXT:       rk.write %159, %163 : usize
// CHECK-NEXT:       rk.loop {
// CHECK-NEXT:         %164 = rk.read %162 : bool
// CHECK-NEXT:         rk.if %164 {
// CHECK-NEXT:           rk.break
// CHECK-NEXT:         } else {
// CHECK-NEXT:         }
// CHECK-NEXT:         %165 = rk.read %163 : usize
// CHECK-NEXT:         %166 = rk.add %8, %154 : usize
// CHECK-NEXT:         %167 = rk.mul %166, %0 : usize
// CHECK-NEXT:         %168 = rk.add %167, %165 : usize
// CHECK-NEXT:         %169 = rk.const 1 : usize
// CHECK-NEXT:         %170 = rk.sub %169, %165 : usize
// CHECK-NEXT:         %171 = rk.cmp lt %170, %160 : usize
// CHECK-NEXT:         rk.write %171, %162 : bool
// CHECK-NEXT:         %172 = rk.add %165, %160 : usize
// CHECK-NEXT:         rk.write %172, %163 : usize
// CHECK-NEXT:         %173 = rk.elem_ptr %10, %154 : *mut [[f32; 2]; 2] to *mut [f32; 2]
// CHECK-NEXT:         %174 = rk.elem_ptr %173, %165 : *mut [f32; 2] to *mut f32
// CHECK-NEXT:         %175 = rk.load %174 : *mut f32
// CHECK-NEXT:         %176 = rk.ptr_offset %5, %168 : *mut f32
// CHECK-NEXT:         rk.store %175, %176 : *mut f32
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %177 = rk.read %134 : bool
// CHECK-NEXT:       rk.if %177 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %178 = rk.read %135 : usize
// CHECK-NEXT:       %179 = rk.const 1 : usize
// CHECK-NEXT:       %180 = rk.sub %179, %178 : usize
// CHECK-NEXT:       %181 = rk.cmp lt %180, %132 : usize
// CHECK-NEXT:       rk.write %181, %134 : bool
// CHECK-NEXT:       %182 = rk.add %178, %132 : usize
// CHECK-NEXT:       rk.write %182, %135 : usize
// CHECK-NEXT:       %183 = rk.const 0 : usize
// CHECK-NEXT:       %184 = rk.const 1 : usize
// CHECK-NEXT:       %185 = rk.const false : bool
// CHECK-NEXT:       %186 = rk.var : bool
// CHECK-NEXT:       rk.write %185, %186 : bool
// CHECK-NEXT:       %187 = rk.var : usize
// CHECK-NEXT:       rk.write %183, %187 : usize
// CHECK-NEXT:       rk.loop cold {
// CHECK-NEXT:         %188 = rk.read %186 : bool
// CHECK-NEXT:         rk.if %188 {
// CHECK-NEXT:           rk.break
// CHECK-NEXT:         } else {
// CHECK-NEXT:         }
// CHECK-NEXT:         %189 = rk.const 2 : usize
// CHECK-NEXT:         rk.bounds_check %178, %189 at 21:36
// CHECK-NEXT:         %190 = rk.read %187 : usize
// CHECK-NEXT:         %191 = rk.const 2 : usize
// CHECK-NEXT:         rk.bounds_check %190, %191 at 21:36
// CHECK-NEXT:         %192 = rk.add %8, %178 : usize
// CHECK-NEXT:         %193 = rk.mul %192, %0 : usize
// CHECK-NEXT:         %194 = rk.add %193, %190 : usize
// CHECK-NEXT:         rk.bounds_check %194, %6 at 21:13
// CHECK-NEXT:         %195 = rk.const 1 : usize
// CHECK-NEXT:         %196 = rk.sub %195, %190 : usize
// CHECK-NEXT:         %197 = rk.cmp lt %196, %184 : usize
// CHECK-NEXT:         rk.write %197, %186 : bool
// CHECK-NEXT:         %198 = rk.add %190, %184 : usize
// CHECK-NEXT:         rk.write %198, %187 : usize
// CHECK-NEXT:         %199 = rk.elem_ptr %10, %178 : *mut [[f32; 2]; 2] to *mut [f32; 2]
// CHECK-NEXT:         %200 = rk.elem_ptr %199, %190 : *mut [f32; 2] to *mut f32
// CHECK-NEXT:         %201 = rk.load %200 : *mut f32
// CHECK-NEXT:         %202 = rk.ptr_offset %5, %194 : *mut f32
// CHECK-NEXT:         rk.store %201, %202 : *mut f32
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
