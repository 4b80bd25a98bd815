// A `for` loop over `0..n` whose index is affine in `k`: the check is proven once before the
// loop (the largest index, with no wrap on the way, below the length) and the loop runs in a
// copy without it. The loop only reads, so when the proof fails the original runs first, for
// its checks alone (the slots it writes get their values back), and panics as before; if it
// does not panic, every index the copy reaches has been checked. The proof is
// in 64-bit arithmetic: `row * n + (n - 1) < len` is `row * n <= len && n - 1 < len - row * n`,
// which also says that the sum does not wrap.
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
// CHECK-NEXT:   %23 = rk.cast %22 : usize to u64
// CHECK-NEXT:   %24 = rk.sub %0, %18 : usize
// CHECK-NEXT:   %25 = rk.cast %24 : usize to u64
// CHECK-NEXT:   %26 = rk.cast %4 : usize to u64
// CHECK-NEXT:   %27 = rk.cmp le %23, %26 : u64
// CHECK-NEXT:   %28 = rk.sub %26, %23 : u64
// CHECK-NEXT:   %29 = rk.cmp lt %25, %28 : u64
// CHECK-NEXT:   %30 = rk.and %27, %29 : bool
// CHECK-NEXT:   %31 = rk.not %30 : bool
// CHECK-NEXT:   rk.if %31 {
// CHECK-NEXT:     %32 = rk.read %16 : f32
// CHECK-NEXT:     %33 = rk.read %20 : bool
// CHECK-NEXT:     %34 = rk.read %21 : usize
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %35 = rk.read %20 : bool
// CHECK-NEXT:       rk.if %35 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %36 = rk.read %21 : usize
// CHECK-NEXT:       %37 = rk.mul %14, %0 : usize
// CHECK-NEXT:       %38 = rk.add %37, %36 : usize
// CHECK-NEXT:       rk.bounds_check %38, %4 at 15:16
// CHECK-NEXT:       %39 = rk.sub %0, %18 : usize
// CHECK-NEXT:       %40 = rk.sub %39, %36 : usize
// CHECK-NEXT:       %41 = rk.cmp lt %40, %18 : usize
// CHECK-NEXT:       rk.write %41, %20 : bool
// CHECK-NEXT:       %42 = rk.add %36, %18 : usize
// CHECK-NEXT:       rk.write %42, %21 : usize
// CHECK-NEXT:       %43 = rk.ptr_offset %3, %38 : *const f32
// CHECK-NEXT:       %44 = rk.load %43 : *const f32
// CHECK-NEXT:       %45 = rk.read %16 : f32
// CHECK-NEXT:       %46 = rk.add %45, %44 : f32
// CHECK-NEXT:       rk.write %46, %16 : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     rk.write %32, %16 : f32
// CHECK-NEXT:     rk.write %33, %20 : bool
// CHECK-NEXT:     rk.write %34, %21 : usize
// CHECK-NEXT:   } else {
// CHECK-NEXT:   }
// CHECK-NEXT:   rk.loop {
// CHECK-NEXT:     %47 = rk.read %20 : bool
// CHECK-NEXT:     rk.if %47 {
// CHECK-NEXT:       rk.break
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     %48 = rk.read %21 : usize
// CHECK-NEXT:     %49 = rk.mul %14, %0 : usize
// CHECK-NEXT:     %50 = rk.add %49, %48 : usize
// CHECK-NEXT:     %51 = rk.sub %0, %18 : usize
// CHECK-NEXT:     %52 = rk.sub %51, %48 : usize
// CHECK-NEXT:     %53 = rk.cmp lt %52, %18 : usize
// CHECK-NEXT:     rk.write %53, %20 : bool
// CHECK-NEXT:     %54 = rk.add %48, %18 : usize
// CHECK-NEXT:     rk.write %54, %21 : usize
// CHECK-NEXT:     %55 = rk.ptr_offset %3, %50 : *const f32
// CHECK-NEXT:     %56 = rk.load %55 : *const f32
// CHECK-NEXT:     %57 = rk.read %16 : f32
// CHECK-NEXT:     %58 = rk.add %57, %56 : f32
// CHECK-NEXT:     rk.write %58, %16 : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   rk.bounds_check %14, %6 at 17:5
// CHECK-NEXT:   %59 = rk.read %16 : f32
// CHECK-NEXT:   %60 = rk.ptr_offset %5, %14 : *mut f32
// CHECK-NEXT:   rk.store %59, %60 : *mut f32
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
// CHECK-NEXT:   %11 = rk.cast %0 : usize to u64
// CHECK-NEXT:   %12 = rk.const 24 : u128
// CHECK-NEXT:   %13 = rk.cast %11 : u64 to u128
// CHECK-NEXT:   %14 = rk.mul %12, %13 : u128
// CHECK-NEXT:   %15 = rk.cast %8 : usize to u64
// CHECK-NEXT:   %16 = rk.cast %15 : u64 to u128
// CHECK-NEXT:   %17 = rk.add %14, %16 : u128
// CHECK-NEXT:   %18 = rk.cast %4 : usize to u64
// CHECK-NEXT:   %19 = rk.cast %18 : u64 to u128
// CHECK-NEXT:   %20 = rk.cmp lt %17, %19 : u128
// CHECK-NEXT:   %21 = rk.const 792 : u64
// CHECK-NEXT:   %22 = rk.add %21, %15 : u64
// CHECK-NEXT:   %23 = rk.cast %6 : usize to u64
// CHECK-NEXT:   %24 = rk.cmp lt %22, %23 : u64
// CHECK-NEXT:   %25 = rk.and %20, %24 : bool
// CHECK-NEXT:   rk.if %25 {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %26 = rk.read %10 : usize
// CHECK-NEXT:       %27 = rk.const 32 : usize
// CHECK-NEXT:       %28 = rk.cmp lt %26, %27 : usize
// CHECK-NEXT:       %29 = rk.not %28 : bool
// CHECK-NEXT:       rk.if %29 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %30 = rk.read %10 : usize
// CHECK-NEXT:       %31 = rk.mul %30, %0 : usize
// CHECK-NEXT:       %32 = rk.add %31, %8 : usize
// CHECK-NEXT:       %33 = rk.read %10 : usize
// CHECK-NEXT:       %34 = rk.const 33 : usize
// CHECK-NEXT:       %35 = rk.mul %33, %34 : usize
// CHECK-NEXT:       %36 = rk.add %35, %8 : usize
// CHECK-NEXT:       %37 = rk.ptr_offset %3, %32 : *const f32
// CHECK-NEXT:       %38 = rk.load %37 : *const f32
// CHECK-NEXT:       %39 = rk.ptr_offset %5, %36 : *mut f32
// CHECK-NEXT:       rk.store %38, %39 : *mut f32
// CHECK-NEXT:       %40 = rk.const 8 : usize
// CHECK-NEXT:       %41 = rk.read %10 : usize
// CHECK-NEXT:       %42 = rk.add %41, %40 : usize
// CHECK-NEXT:       rk.write %42, %10 : usize
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %43 = rk.read %10 : usize
// CHECK-NEXT:       %44 = rk.const 32 : usize
// CHECK-NEXT:       %45 = rk.cmp lt %43, %44 : usize
// CHECK-NEXT:       %46 = rk.not %45 : bool
// CHECK-NEXT:       rk.if %46 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %47 = rk.read %10 : usize
// CHECK-NEXT:       %48 = rk.mul %47, %0 : usize
// CHECK-NEXT:       %49 = rk.add %48, %8 : usize
// CHECK-NEXT:       rk.bounds_check %49, %4 at 10:27
// CHECK-NEXT:       %50 = rk.read %10 : usize
// CHECK-NEXT:       %51 = rk.const 33 : usize
// CHECK-NEXT:       %52 = rk.mul %50, %51 : usize
// CHECK-NEXT:       %53 = rk.add %52, %8 : usize
// CHECK-NEXT:       rk.bounds_check %53, %6 at 10:9
// CHECK-NEXT:       %54 = rk.ptr_offset %3, %49 : *const f32
// CHECK-NEXT:       %55 = rk.load %54 : *const f32
// CHECK-NEXT:       %56 = rk.ptr_offset %5, %53 : *mut f32
// CHECK-NEXT:       rk.store %55, %56 : *mut f32
// CHECK-NEXT:       %57 = rk.const 8 : usize
// CHECK-NEXT:       %58 = rk.read %10 : usize
// CHECK-NEXT:       %59 = rk.add %58, %57 : usize
// CHECK-NEXT:       rk.write %59, %10 : usize
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
// CHECK-NEXT:   %15 = rk.cast %14 : usize to u64
// CHECK-NEXT:   %16 = rk.const 4 : u64
// CHECK-NEXT:   %17 = rk.const 4611686018427387903 : u64
// CHECK-NEXT:   %18 = rk.cmp le %15, %17 : u64
// CHECK-NEXT:   %19 = rk.mul %15, %16 : u64
// CHECK-NEXT:   %20 = rk.cast %8 : usize to u64
// CHECK-NEXT:   %21 = rk.cast %4 : usize to u64
// CHECK-NEXT:   %22 = rk.cmp le %19, %21 : u64
// CHECK-NEXT:   %23 = rk.sub %21, %19 : u64
// CHECK-NEXT:   %24 = rk.cmp lt %20, %23 : u64
// CHECK-NEXT:   %25 = rk.cast %6 : usize to u64
// CHECK-NEXT:   %26 = rk.cmp lt %20, %25 : u64
// CHECK-NEXT:   %27 = rk.and %18, %22 : bool
// CHECK-NEXT:   %28 = rk.and %27, %24 : bool
// CHECK-NEXT:   %29 = rk.and %28, %26 : bool
// CHECK-NEXT:   %30 = rk.not %11 : bool
// CHECK-NEXT:   %31 = rk.if %30 -> bool {
// CHECK-NEXT:     %32 = rk.shared : *mut [u32; 1]
// CHECK-NEXT:     %33 = rk.const 0 : usize
// CHECK-NEXT:     %34 = rk.elem_ptr %32, %33 : *mut [u32; 1] to *mut u32
// CHECK-NEXT:     %35 = rk.const 0 : u32
// CHECK-NEXT:     %36 = rk.const 1 : u32
// CHECK-NEXT:     rk.store %35, %34 : *mut u32
// CHECK-NEXT:     rk.barrier
// CHECK-NEXT:     %37 = rk.not %29 : bool
// CHECK-NEXT:     rk.if %37 {
// CHECK-NEXT:       rk.store %36, %34 : *mut u32
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     rk.barrier
// CHECK-NEXT:     %38 = rk.load %34 : *mut u32
// CHECK-NEXT:     %39 = rk.cmp eq %38, %35 : u32
// CHECK-NEXT:     rk.yield %39 : bool
// CHECK-NEXT:   } else {
// CHECK-NEXT:     %40 = rk.const false : bool
// CHECK-NEXT:     rk.yield %40 : bool
// CHECK-NEXT:   }
// CHECK-NEXT:   rk.if %31 {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %41 = rk.read %12 : bool
// CHECK-NEXT:       rk.if %41 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %42 = rk.read %13 : usize
// CHECK-NEXT:       %43 = rk.const 4 : usize
// CHECK-NEXT:       %44 = rk.mul %42, %43 : usize
// CHECK-NEXT:       %45 = rk.add %44, %8 : usize
// CHECK-NEXT:       %46 = rk.sub %0, %10 : usize
// CHECK-NEXT:       %47 = rk.sub %46, %42 : usize
// CHECK-NEXT:       %48 = rk.cmp lt %47, %10 : usize
// CHECK-NEXT:       rk.write %48, %12 : bool
// CHECK-NEXT:       %49 = rk.add %42, %10 : usize
// CHECK-NEXT:       rk.write %49, %13 : usize
// CHECK-NEXT:       %50 = rk.ptr_offset %3, %45 : *const f32
// CHECK-NEXT:       %51 = rk.load %50 : *const f32
// CHECK-NEXT:       %52 = rk.ptr_offset %5, %8 : *mut f32
// CHECK-NEXT:       rk.store %51, %52 : *mut f32
// CHECK-NEXT:       rk.barrier
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %53 = rk.read %12 : bool
// CHECK-NEXT:       rk.if %53 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %54 = rk.read %13 : usize
// CHECK-NEXT:       %55 = rk.const 4 : usize
// CHECK-NEXT:       %56 = rk.mul %54, %55 : usize
// CHECK-NEXT:       %57 = rk.add %56, %8 : usize
// CHECK-NEXT:       rk.bounds_check %57, %4 at 10:18
// CHECK-NEXT:       rk.bounds_check %8, %6 at 10:9
// CHECK-NEXT:       %58 = rk.sub %0, %10 : usize
// CHECK-NEXT:       %59 = rk.sub %58, %54 : usize
// CHECK-NEXT:       %60 = rk.cmp lt %59, %10 : usize
// CHECK-NEXT:       rk.write %60, %12 : bool
// CHECK-NEXT:       %61 = rk.add %54, %10 : usize
// CHECK-NEXT:       rk.write %61, %13 : usize
// CHECK-NEXT:       %62 = rk.ptr_offset %3, %57 : *const f32
// CHECK-NEXT:       %63 = rk.load %62 : *const f32
// CHECK-NEXT:       %64 = rk.ptr_offset %5, %8 : *mut f32
// CHECK-NEXT:       rk.store %63, %64 : *mut f32
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
// CHECK-NEXT:   %33 = rk.cast %32 : usize to u64
// CHECK-NEXT:   %34 = rk.sub %0, %28 : usize
// CHECK-NEXT:   %35 = rk.cast %34 : usize to u64
// CHECK-NEXT:   %36 = rk.cast %33 : u64 to u128
// CHECK-NEXT:   %37 = rk.cast %35 : u64 to u128
// CHECK-NEXT:   %38 = rk.add %36, %37 : u128
// CHECK-NEXT:   %39 = rk.const 4611686018427387903 : u64
// CHECK-NEXT:   %40 = rk.cmp le %33, %39 : u64
// CHECK-NEXT:   %41 = rk.sub %39, %33 : u64
// CHECK-NEXT:   %42 = rk.cmp le %35, %41 : u64
// CHECK-NEXT:   %43 = rk.const 4 : u128
// CHECK-NEXT:   %44 = rk.mul %38, %43 : u128
// CHECK-NEXT:   %45 = rk.cast %4 : usize to u64
// CHECK-NEXT:   %46 = rk.cast %44 : u128 to u64
// CHECK-NEXT:   %47 = rk.const 3 : u64
// CHECK-NEXT:   %48 = rk.cmp le %47, %45 : u64
// CHECK-NEXT:   %49 = rk.sub %45, %47 : u64
// CHECK-NEXT:   %50 = rk.cmp lt %46, %49 : u64
// CHECK-NEXT:   %51 = rk.const true : bool
// CHECK-NEXT:   %52 = rk.cast %0 : usize to u64
// CHECK-NEXT:   %53 = rk.const 3 : u128
// CHECK-NEXT:   %54 = rk.cast %52 : u64 to u128
// CHECK-NEXT:   %55 = rk.mul %53, %54 : u128
// CHECK-NEXT:   %56 = rk.add %55, %37 : u128
// CHECK-NEXT:   %57 = rk.cast %45 : u64 to u128
// CHECK-NEXT:   %58 = rk.cmp lt %56, %57 : u128
// CHECK-NEXT:   %59 = rk.const 18446744073709551615 : u64
// CHECK-NEXT:   %60 = rk.sub %59, %33 : u64
// CHECK-NEXT:   %61 = rk.cmp le %35, %60 : u64
// CHECK-NEXT:   %62 = rk.and %40, %42 : bool
// CHECK-NEXT:   %63 = rk.and %62, %48 : bool
// CHECK-NEXT:   %64 = rk.and %63, %50 : bool
// CHECK-NEXT:   %65 = rk.and %64, %51 : bool
// CHECK-NEXT:   %66 = rk.and %65, %58 : bool
// CHECK-NEXT:   %67 = rk.and %66, %61 : bool
// CHECK-NEXT:   rk.if %67 {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %68 = rk.read %30 : bool
// CHECK-NEXT:       rk.if %68 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %69 = rk.read %31 : usize
// CHECK-NEXT:       %70 = rk.sub %0, %28 : usize
// CHECK-NEXT:       %71 = rk.sub %70, %69 : usize
// CHECK-NEXT:       %72 = rk.cmp lt %71, %28 : usize
// CHECK-NEXT:       rk.write %72, %30 : bool
// CHECK-NEXT:       %73 = rk.add %69, %28 : usize
// CHECK-NEXT:       rk.write %73, %31 : usize
// CHECK-NEXT:       %74 = rk.const 0 : usize
// CHECK-NEXT:       %75 = rk.const 1 : usize
// CHECK-NEXT:       %76 = rk.const false : bool
// CHECK-NEXT:       %77 = rk.var : bool
// CHECK-NEXT:       rk.write %76, %77 : bool
// CHECK-NEXT:       %78 = rk.var : usize
// CHECK-NEXT:       rk.write %74, %78 : usize
// CHECK-NEXT:       rk.loop unroll {
// CHECK-NEXT:         %79 = rk.read %77 : bool
// CHECK-NEXT:         rk.if %79 {
// CHECK-NEXT:           rk.break
// CHECK-NEXT:         } else {
// CHECK-NEXT:         }
// CHECK-NEXT:         %80 = rk.read %78 : usize
// CHECK-NEXT:         %81 = rk.mul %14, %0 : usize
// CHECK-NEXT:         %82 = rk.add %81, %69 : usize
// CHECK-NEXT:         %83 = rk.const 4 : usize
// CHECK-NEXT:         %84 = rk.mul %82, %83 : usize
// CHECK-NEXT:         %85 = rk.add %84, %80 : usize
// CHECK-NEXT:         %86 = rk.const 3 : usize
// CHECK-NEXT:         %87 = rk.sub %86, %80 : usize
// CHECK-NEXT:         %88 = rk.cmp lt %87, %75 : usize
// CHECK-NEXT:         rk.write %88, %77 : bool
// CHECK-NEXT:         %89 = rk.add %80, %75 : usize
// CHECK-NEXT:         rk.write %89, %78 : usize
// CHECK-NEXT:         %90 = rk.ptr_offset %3, %85 : *const f32
// CHECK-NEXT:         %91 = rk.load %90 : *const f32
// CHECK-NEXT:         %92 = rk.elem_ptr %16, %80 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:         %93 = rk.load %92 : *mut f32
// CHECK-NEXT:         %94 = rk.add %93, %91 : f32
// CHECK-NEXT:         rk.store %94, %92 : *mut f32
// CHECK-NEXT:       }
// CHECK-NEXT:       %95 = rk.const 0 : usize
// CHECK-NEXT:       %96 = rk.const 1 : usize
// CHECK-NEXT:       %97 = rk.const false : bool
// CHECK-NEXT:       %98 = rk.var : bool
// CHECK-NEXT:       rk.write %97, %98 : bool
// CHECK-NEXT:       %99 = rk.var : usize
// CHECK-NEXT:       rk.write %95, %99 : usize
// CHECK-NEXT:       rk.loop {
// CHECK-NEXT:         %100 = rk.read %98 : bool
// CHECK-NEXT:         rk.if %100 {
// CHECK-NEXT:           rk.break
// CHECK-NEXT:         } else {
// CHECK-NEXT:         }
// CHECK-NEXT:         %101 = rk.read %99 : usize
// CHECK-NEXT:         %102 = rk.mul %101, %0 : usize
// CHECK-NEXT:         %103 = rk.add %102, %69 : usize
// CHECK-NEXT:         %104 = rk.const 3 : usize
// CHECK-NEXT:         %105 = rk.sub %104, %101 : usize
// CHECK-NEXT:         %106 = rk.cmp lt %105, %96 : usize
// CHECK-NEXT:         rk.write %106, %98 : bool
// CHECK-NEXT:         %107 = rk.add %101, %96 : usize
// CHECK-NEXT:         rk.write %107, %99 : usize
// CHECK-NEXT:         %108 = rk.ptr_offset %3, %103 : *const f32
// CHECK-NEXT:         %109 = rk.load %108 : *const f32
// CHECK-NEXT:         %110 = rk.read %26 : f32
// CHECK-NEXT:         %111 = rk.add %110, %109 : f32
// CHECK-NEXT:         rk.write %111, %26 : f32
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %112 = rk.read %30 : bool
// CHECK-NEXT:       rk.if %112 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %113 = rk.read %31 : usize
// CHECK-NEXT:       %114 = rk.sub %0, %28 : usize
// CHECK-NEXT:       %115 = rk.sub %114, %113 : usize
// CHECK-NEXT:       %116 = rk.cmp lt %115, %28 : usize
// CHECK-NEXT:       rk.write %116, %30 : bool
// CHECK-NEXT:       %117 = rk.add %113, %28 : usize
// CHECK-NEXT:       rk.write %117, %31 : usize
// CHECK-NEXT:       %118 = rk.const 0 : usize
// CHECK-NEXT:       %119 = rk.const 1 : usize
// CHECK-NEXT:       %120 = rk.const false : bool
// CHECK-NEXT:       %121 = rk.var : bool
// CHECK-NEXT:       rk.write %120, %121 : bool
// CHECK-NEXT:       %122 = rk.var : usize
// CHECK-NEXT:       rk.write %118, %122 : usize
// CHECK-NEXT:       rk.loop unroll {
// CHECK-NEXT:         %123 = rk.read %121 : bool
// CHECK-NEXT:         rk.if %123 {
// CHECK-NEXT:           rk.break
// CHECK-NEXT:         } else {
// CHECK-NEXT:         }
// CHECK-NEXT:         %124 = rk.read %122 : usize
// CHECK-NEXT:         %125 = rk.mul %14, %0 : usize
// CHECK-NEXT:         %126 = rk.add %125, %113 : usize
// CHECK-NEXT:         %127 = rk.const 4 : usize
// CHECK-NEXT:         %128 = rk.mul %126, %127 : usize
// CHECK-NEXT:         %129 = rk.add %128, %124 : usize
// CHECK-NEXT:         rk.bounds_check %129, %4 at 13:23
// CHECK-NEXT:         %130 = rk.const 4 : usize
// CHECK-NEXT:         rk.bounds_check %124, %130 at 13:13
// CHECK-NEXT:         %131 = rk.const 3 : usize
// CHECK-NEXT:         %132 = rk.sub %131, %124 : usize
// CHECK-NEXT:         %133 = rk.cmp lt %132, %119 : usize
// CHECK-NEXT:         rk.write %133, %121 : bool
// CHECK-NEXT:         %134 = rk.add %124, %119 : usize
// CHECK-NEXT:         rk.write %134, %122 : usize
// CHECK-NEXT:         %135 = rk.ptr_offset %3, %129 : *const f32
// CHECK-NEXT:         %136 = rk.load %135 : *const f32
// CHECK-NEXT:         %137 = rk.elem_ptr %16, %124 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:         %138 = rk.load %137 : *mut f32
// CHECK-NEXT:         %139 = rk.add %138, %136 : f32
// CHECK-NEXT:         rk.store %139, %137 : *mut f32
// CHECK-NEXT:       }
// CHECK-NEXT:       %140 = rk.const 0 : usize
// CHECK-NEXT:       %141 = rk.const 1 : usize
// CHECK-NEXT:       %142 = rk.const false : bool
// CHECK-NEXT:       %143 = rk.var : bool
// CHECK-NEXT:       rk.write %142, %143 : bool
// CHECK-NEXT:       %144 = rk.var : usize
// CHECK-NEXT:       rk.write %140, %144 : usize
// CHECK-NEXT:       rk.loop cold {
// CHECK-NEXT:         %145 = rk.read %143 : bool
// CHECK-NEXT:         rk.if %145 {
// CHECK-NEXT:           rk.break
// CHECK-NEXT:         } else {
// CHECK-NEXT:         }
// CHECK-NEXT:         %146 = rk.read %144 : usize
// CHECK-NEXT:         %147 = rk.mul %146, %0 : usize
// CHECK-NEXT:         %148 = rk.add %147, %113 : usize
// CHECK-NEXT:         rk.bounds_check %148, %4 at 16:20
// CHECK-NEXT:         %149 = rk.const 3 : usize
// CHECK-NEXT:         %150 = rk.sub %149, %146 : usize
// CHECK-NEXT:         %151 = rk.cmp lt %150, %141 : usize
// CHECK-NEXT:         rk.write %151, %143 : bool
// CHECK-NEXT:         %152 = rk.add %146, %141 : usize
// CHECK-NEXT:         rk.write %152, %144 : usize
// CHECK-NEXT:         %153 = rk.ptr_offset %3, %148 : *const f32
// CHECK-NEXT:         %154 = rk.load %153 : *const f32
// CHECK-NEXT:         %155 = rk.read %26 : f32
// CHECK-NEXT:         %156 = rk.add %155, %154 : f32
// CHECK-NEXT:         rk.write %156, %26 : f32
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   rk.bounds_check %14, %6 at 19:5
// CHECK-NEXT:   %157 = rk.read %26 : f32
// CHECK-NEXT:   %158 = rk.const 0 : usize
// CHECK-NEXT:   %159 = rk.elem_ptr %16, %158 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   %160 = rk.load %159 : *mut f32
// CHECK-NEXT:   %161 = rk.add %157, %160 : f32
// CHECK-NEXT:   %162 = rk.const 1 : usize
// CHECK-NEXT:   %163 = rk.elem_ptr %16, %162 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   %164 = rk.load %163 : *mut f32
// CHECK-NEXT:   %165 = rk.add %161, %164 : f32
// CHECK-NEXT:   %166 = rk.const 2 : usize
// CHECK-NEXT:   %167 = rk.elem_ptr %16, %166 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   %168 = rk.load %167 : *mut f32
// CHECK-NEXT:   %169 = rk.add %165, %168 : f32
// CHECK-NEXT:   %170 = rk.const 3 : usize
// CHECK-NEXT:   %171 = rk.elem_ptr %16, %170 : *mut [f32; 4] to *mut f32
// CHECK-NEXT:   %172 = rk.load %171 : *mut f32
// CHECK-NEXT:   %173 = rk.add %169, %172 : f32
// CHECK-NEXT:   %174 = rk.ptr_offset %5, %14 : *mut f32
// CHECK-NEXT:   rk.store %173, %174 : *mut f32
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
// CHECK-NEXT:   %25 = rk.cast %8 : usize to u64
// CHECK-NEXT:   %26 = rk.const 64 : u64
// CHECK-NEXT:   %27 = rk.add %25, %26 : u64
// CHECK-NEXT:   %28 = rk.const 1 : u64
// CHECK-NEXT:   %29 = rk.shr %27, %28 : u64
// CHECK-NEXT:   %30 = rk.cast %4 : usize to u64
// CHECK-NEXT:   %31 = rk.cmp lt %29, %30 : u64
// CHECK-NEXT:   %32 = rk.const 3 : u64
// CHECK-NEXT:   %33 = rk.shr %27, %32 : u64
// CHECK-NEXT:   %34 = rk.cast %0 : usize to u64
// CHECK-NEXT:   %35 = rk.cast %34 : u64 to u128
// CHECK-NEXT:   %36 = rk.cast %33 : u64 to u128
// CHECK-NEXT:   %37 = rk.mul %36, %35 : u128
// CHECK-NEXT:   %38 = rk.const 0 : u64
// CHECK-NEXT:   %39 = rk.const 1 : u64
// CHECK-NEXT:   %40 = rk.sub %34, %39 : u64
// CHECK-NEXT:   %41 = rk.sub %40, %38 : u64
// CHECK-NEXT:   %42 = rk.const 18446744073709551608 : u64
// CHECK-NEXT:   %43 = rk.and %41, %42 : u64
// CHECK-NEXT:   %44 = rk.add %38, %43 : u64
// CHECK-NEXT:   %45 = rk.cast %44 : u64 to u128
// CHECK-NEXT:   %46 = rk.add %37, %45 : u128
// CHECK-NEXT:   %47 = rk.const 7 : u128
// CHECK-NEXT:   %48 = rk.add %46, %47 : u128
// CHECK-NEXT:   %49 = rk.cast %6 : usize to u64
// CHECK-NEXT:   %50 = rk.cast %49 : u64 to u128
// CHECK-NEXT:   %51 = rk.cmp lt %48, %50 : u128
// CHECK-NEXT:   %52 = rk.and %31, %51 : bool
// CHECK-NEXT:   rk.if %52 {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %53 = rk.read %24 : usize
// CHECK-NEXT:       %54 = rk.cmp lt %53, %0 : usize
// CHECK-NEXT:       %55 = rk.not %54 : bool
// CHECK-NEXT:       rk.if %55 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %56 = rk.const 0 : usize
// CHECK-NEXT:       %57 = rk.const 1 : usize
// CHECK-NEXT:       %58 = rk.const false : bool
// CHECK-NEXT:       %59 = rk.var : bool
// CHECK-NEXT:       rk.write %58, %59 : bool
// CHECK-NEXT:       %60 = rk.var : usize
// CHECK-NEXT:       rk.write %56, %60 : usize
// CHECK-NEXT:       rk.loop {
// CHECK-NEXT:         %61 = rk.read %59 : bool
// CHECK-NEXT:         rk.if %61 {
// CHECK-NEXT:           rk.break
// CHECK-NEXT:         } else {
// CHECK-NEXT:         }
// CHECK-NEXT:         %62 = rk.read %60 : usize
// CHECK-NEXT:         %63 = rk.const 1 : usize
// CHECK-NEXT:         %64 = rk.sub %63, %62 : usize
// CHECK-NEXT:         %65 = rk.cmp lt %64, %57 : usize
// CHECK-NEXT:         rk.write %65, %59 : bool
// CHECK-NEXT:         %66 = rk.add %62, %57 : usize
// CHECK-NEXT:         rk.write %66, %60 : usize
// CHECK-NEXT:         %67 = rk.const 64 : usize
// CHECK-NEXT:         %68 = rk.mul %62, %67 : usize
// CHECK-NEXT:         %69 = rk.add %8, %68 : usize
// CHECK-NEXT:         %70 = rk.const 3 : usize
// CHECK-NEXT:         %71 = rk.div %69, %70 : usize
// CHECK-NEXT:         %72 = rk.ptr_offset %3, %71 : *const f32
// CHECK-NEXT:         %73 = rk.load %72 : *const f32
// CHECK-NEXT:         %74 = rk.const 8 : usize
// CHECK-NEXT:         %75 = rk.div %69, %74 : usize
// CHECK-NEXT:         %76 = rk.mul %75, %0 : usize
// CHECK-NEXT:         %77 = rk.read %24 : usize
// CHECK-NEXT:         %78 = rk.add %76, %77 : usize
// CHECK-NEXT:         %79 = rk.const 8 : usize
// CHECK-NEXT:         %80 = rk.rem %69, %79 : usize
// CHECK-NEXT:         %81 = rk.add %78, %80 : usize
// CHECK-NEXT:         %82 = rk.ptr_offset %5, %81 : *mut f32
// CHECK-NEXT:         rk.store %73, %82 : *mut f32
// CHECK-NEXT:       }
// CHECK-NEXT:       %83 = rk.const 8 : usize
// CHECK-NEXT:       %84 = rk.read %24 : usize
// CHECK-NEXT:       %85 = rk.add %84, %83 : usize
// CHECK-NEXT:       rk.write %85, %24 : usize
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %86 = rk.read %24 : usize
// CHECK-NEXT:       %87 = rk.cmp lt %86, %0 : usize
// CHECK-NEXT:       %88 = rk.not %87 : bool
// CHECK-NEXT:       rk.if %88 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %89 = rk.const 0 : usize
// CHECK-NEXT:       %90 = rk.const 1 : usize
// CHECK-NEXT:       %91 = rk.const false : bool
// CHECK-NEXT:       %92 = rk.var : bool
// CHECK-NEXT:       rk.write %91, %92 : bool
// CHECK-NEXT:       %93 = rk.var : usize
// CHECK-NEXT:       rk.write %89, %93 : usize
// CHECK-NEXT:       rk.loop cold {
// CHECK-NEXT:         %94 = rk.read %92 : bool
// CHECK-NEXT:         rk.if %94 {
// CHECK-NEXT:           rk.break
// CHECK-NEXT:         } else {
// CHECK-NEXT:         }
// CHECK-NEXT:         %95 = rk.read %93 : usize
// CHECK-NEXT:         %96 = rk.const 1 : usize
// CHECK-NEXT:         %97 = rk.sub %96, %95 : usize
// CHECK-NEXT:         %98 = rk.cmp lt %97, %90 : usize
// CHECK-NEXT:         rk.write %98, %92 : bool
// CHECK-NEXT:         %99 = rk.add %95, %90 : usize
// CHECK-NEXT:         rk.write %99, %93 : usize
// CHECK-NEXT:         %100 = rk.const 64 : usize
// CHECK-NEXT:         %101 = rk.mul %95, %100 : usize
// CHECK-NEXT:         %102 = rk.add %8, %101 : usize
// CHECK-NEXT:         %103 = rk.const 3 : usize
// CHECK-NEXT:         %104 = rk.div %102, %103 : usize
// CHECK-NEXT:         rk.bounds_check %104, %4 at 15:47
// CHECK-NEXT:         %105 = rk.ptr_offset %3, %104 : *const f32
// CHECK-NEXT:         %106 = rk.load %105 : *const f32
// CHECK-NEXT:         %107 = rk.const 8 : usize
// CHECK-NEXT:         %108 = rk.div %102, %107 : usize
// CHECK-NEXT:         %109 = rk.mul %108, %0 : usize
// CHECK-NEXT:         %110 = rk.read %24 : usize
// CHECK-NEXT:         %111 = rk.add %109, %110 : usize
// CHECK-NEXT:         %112 = rk.const 8 : usize
// CHECK-NEXT:         %113 = rk.rem %102, %112 : usize
// CHECK-NEXT:         %114 = rk.add %111, %113 : usize
// CHECK-NEXT:         rk.bounds_check %114, %6 at 15:13
// CHECK-NEXT:         %115 = rk.ptr_offset %5, %114 : *mut f32
// CHECK-NEXT:         rk.store %106, %115 : *mut f32
// CHECK-NEXT:       }
// CHECK-NEXT:       %116 = rk.const 8 : usize
// CHECK-NEXT:       %117 = rk.read %24 : usize
// CHECK-NEXT:       %118 = rk.add %117, %116 : usize
// CHECK-NEXT:       rk.write %118, %24 : usize
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   %119 = rk.const 0 : usize
// CHECK-NEXT:   %120 = rk.const 1 : usize
// CHECK-NEXT:   %121 = rk.const false : bool
// CHECK-NEXT:   %122 = rk.var : bool
// CHECK-NEXT:   rk.write %121, %122 : bool
// CHECK-NEXT:   %123 = rk.var : usize
// CHECK-NEXT:   rk.write %119, %123 : usize
// CHECK-NEXT:   %124 = rk.const 1 : u64
// CHECK-NEXT:   %125 = rk.cast %8 : usize to u64
// CHECK-NEXT:   %126 = rk.add %125, %124 : u64
// CHECK-NEXT:   %127 = rk.cast %0 : usize to u64
// CHECK-NEXT:   %128 = rk.cast %127 : u64 to u128
// CHECK-NEXT:   %129 = rk.cast %126 : u64 to u128
// CHECK-NEXT:   %130 = rk.mul %129, %128 : u128
// CHECK-NEXT:   %131 = rk.const 1 : u128
// CHECK-NEXT:   %132 = rk.add %130, %131 : u128
// CHECK-NEXT:   %133 = rk.cast %6 : usize to u64
// CHECK-NEXT:   %134 = rk.cast %133 : u64 to u128
// CHECK-NEXT:   %135 = rk.cmp lt %132, %134 : u128
// CHECK-NEXT:   %136 = rk.const true : bool
// CHECK-NEXT:   %137 = rk.and %136, %135 : bool
// CHECK-NEXT:   rk.if %137 {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %138 = rk.read %122 : bool
// CHECK-NEXT:       rk.if %138 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %139 = rk.read %123 : usize
// CHECK-NEXT:       %140 = rk.const 1 : usize
// CHECK-NEXT:       %141 = rk.sub %140, %139 : usize
// CHECK-NEXT:       %142 = rk.cmp lt %141, %120 : usize
// CHECK-NEXT:       rk.write %142, %122 : bool
// CHECK-NEXT:       %143 = rk.add %139, %120 : usize
// CHECK-NEXT:       rk.write %143, %123 : usize
// CHECK-NEXT:       %144 = rk.const 0 : usize
// CHECK-NEXT:       %145 = rk.const 1 : usize
// CHECK-NEXT:       %146 = rk.const false : bool
// CHECK-NEXT:       %147 = rk.var : bool
// CHECK-NEXT:       rk.write %146, %147 : bool
// CHECK-NEXT:       %148 = rk.var : usize
// CHECK-NEXT:       rk.write %144, %148 : usize
// CHECK-NEXT:       rk.loop {
// CHECK-NEXT:         %149 = rk.read %147 : bool
// CHECK-NEXT:         rk.if %149 {
// CHECK-NEXT:           rk.break
// CHECK-NEXT:         } else {
// CHECK-NEXT:         }
// CHECK-NEXT:         %150 = rk.read %148 : usize
// CHECK-NEXT:         %151 = rk.add %8, %139 : usize
// CHECK-NEXT:         %152 = rk.mul %151, %0 : usize
// CHECK-NEXT:         %153 = rk.add %152, %150 : usize
// CHECK-NEXT:         %154 = rk.const 1 : usize
// CHECK-NEXT:         %155 = rk.sub %154, %150 : usize
// CHECK-NEXT:         %156 = rk.cmp lt %155, %145 : usize
// CHECK-NEXT:         rk.write %156, %147 : bool
// CHECK-NEXT:         %157 = rk.add %150, %145 : usize
// CHECK-NEXT:         rk.write %157, %148 : usize
// CHECK-NEXT:         %158 = rk.elem_ptr %10, %139 : *mut [[f32; 2]; 2] to *mut [f32; 2]
// CHECK-NEXT:         %159 = rk.elem_ptr %158, %150 : *mut [f32; 2] to *mut f32
// CHECK-NEXT:         %160 = rk.load %159 : *mut f32
// CHECK-NEXT:         %161 = rk.ptr_offset %5, %153 : *mut f32
// CHECK-NEXT:         rk.store %160, %161 : *mut f32
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %162 = rk.read %122 : bool
// CHECK-NEXT:       rk.if %162 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %163 = rk.read %123 : usize
// CHECK-NEXT:       %164 = rk.const 1 : usize
// CHECK-NEXT:       %165 = rk.sub %164, %163 : usize
// CHECK-NEXT:       %166 = rk.cmp lt %165, %120 : usize
// CHECK-NEXT:       rk.write %166, %122 : bool
// CHECK-NEXT:       %167 = rk.add %163, %120 : usize
// CHECK-NEXT:       rk.write %167, %123 : usize
// CHECK-NEXT:       %168 = rk.const 0 : usize
// CHECK-NEXT:       %169 = rk.const 1 : usize
// CHECK-NEXT:       %170 = rk.const false : bool
// CHECK-NEXT:       %171 = rk.var : bool
// CHECK-NEXT:       rk.write %170, %171 : bool
// CHECK-NEXT:       %172 = rk.var : usize
// CHECK-NEXT:       rk.write %168, %172 : usize
// CHECK-NEXT:       rk.loop cold {
// CHECK-NEXT:         %173 = rk.read %171 : bool
// CHECK-NEXT:         rk.if %173 {
// CHECK-NEXT:           rk.break
// CHECK-NEXT:         } else {
// CHECK-NEXT:         }
// CHECK-NEXT:         %174 = rk.const 2 : usize
// CHECK-NEXT:         rk.bounds_check %163, %174 at 21:36
// CHECK-NEXT:         %175 = rk.read %172 : usize
// CHECK-NEXT:         %176 = rk.const 2 : usize
// CHECK-NEXT:         rk.bounds_check %175, %176 at 21:36
// CHECK-NEXT:         %177 = rk.add %8, %163 : usize
// CHECK-NEXT:         %178 = rk.mul %177, %0 : usize
// CHECK-NEXT:         %179 = rk.add %178, %175 : usize
// CHECK-NEXT:         rk.bounds_check %179, %6 at 21:13
// CHECK-NEXT:         %180 = rk.const 1 : usize
// CHECK-NEXT:         %181 = rk.sub %180, %175 : usize
// CHECK-NEXT:         %182 = rk.cmp lt %181, %169 : usize
// CHECK-NEXT:         rk.write %182, %171 : bool
// CHECK-NEXT:         %183 = rk.add %175, %169 : usize
// CHECK-NEXT:         rk.write %183, %172 : usize
// CHECK-NEXT:         %184 = rk.elem_ptr %10, %163 : *mut [[f32; 2]; 2] to *mut [f32; 2]
// CHECK-NEXT:         %185 = rk.elem_ptr %184, %175 : *mut [f32; 2] to *mut f32
// CHECK-NEXT:         %186 = rk.load %185 : *mut f32
// CHECK-NEXT:         %187 = rk.ptr_offset %5, %179 : *mut f32
// CHECK-NEXT:         rk.store %186, %187 : *mut f32
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
// -----
// softmax's loops: a row's base and a thread's first column, stepping by the block's width.
// The proof is in 64-bit arithmetic (no `u128`): the last column the thread reads, `t + ((cols
// - 1 - t) & !255)`, cannot wrap when the loop runs; the base is taken from the length first
// (`base <= len && last < len - base`); and the step needs no test of its own, since `last`
// is below a slice's length, at most `isize::MAX / 4`, so `last + 256` cannot wrap.
// RUN: rkc-opt %s --passes=inline,simplify,version,simplify
use rkc_offload::prelude::*;
#[offload_kernel]
fn row_max(cols: usize, x: &[f32], out: &mut [f32]) {
    let t = unsafe { thread_idx_x() } as usize;
    let row = unsafe { block_idx_x() } as usize;
    let base = row * cols;
    let mut m = f32::NEG_INFINITY;
    let mut j = t;
    while j < cols {
        m = m.max(x[base + j]);
        j += 256;
    }
    out[row * 256 + t] = m;
}
// CHECK-LABEL: rk.func @row_max(cols %0: usize, x %1: &[f32], out %2: &mut [f32]) kernel {
// CHECK-NEXT:   %3 = rk.slice_ptr %1 : &[f32] to *const f32
// CHECK-NEXT:   %4 = rk.slice_len %1 : &[f32]
// CHECK-NEXT:   %5 = rk.slice_ptr %2 : &mut [f32] to *mut f32
// CHECK-NEXT:   %6 = rk.slice_len %2 : &mut [f32]
// CHECK-NEXT:   %7 = rk.thread_id x : u32
// CHECK-NEXT:   %8 = rk.cast %7 : u32 to usize
// CHECK-NEXT:   %9 = rk.block_id x : u32
// CHECK-NEXT:   %10 = rk.cast %9 : u32 to usize
// CHECK-NEXT:   %11 = rk.mul %10, %0 : usize
// CHECK-NEXT:   %12 = rk.const 4286578688 : u32
// CHECK-NEXT:   %13 = rk.math from_bits %12 : (u32) -> f32
// CHECK-NEXT:   %14 = rk.var : f32
// CHECK-NEXT:   rk.write %13, %14 : f32
// CHECK-NEXT:   %15 = rk.var : usize
// CHECK-NEXT:   rk.write %8, %15 : usize
// CHECK-NEXT:   %16 = rk.cast %11 : usize to u64
// CHECK-NEXT:   %17 = rk.cast %8 : usize to u64
// CHECK-NEXT:   %18 = rk.cast %0 : usize to u64
// CHECK-NEXT:   %19 = rk.const 1 : u64
// CHECK-NEXT:   %20 = rk.sub %18, %19 : u64
// CHECK-NEXT:   %21 = rk.sub %20, %17 : u64
// CHECK-NEXT:   %22 = rk.const 18446744073709551360 : u64
// CHECK-NEXT:   %23 = rk.and %21, %22 : u64
// CHECK-NEXT:   %24 = rk.add %17, %23 : u64
// CHECK-NEXT:   %25 = rk.cast %4 : usize to u64
// CHECK-NEXT:   %26 = rk.cmp le %16, %25 : u64
// CHECK-NEXT:   %27 = rk.sub %25, %16 : u64
// CHECK-NEXT:   %28 = rk.cmp lt %24, %27 : u64
// CHECK-NEXT:   %29 = rk.and %26, %28 : bool
// CHECK-NEXT:   %30 = rk.not %29 : bool
// CHECK-NEXT:   rk.if %30 {
// CHECK-NEXT:     %31 = rk.read %14 : f32
// CHECK-NEXT:     %32 = rk.read %15 : usize
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %33 = rk.read %15 : usize
// CHECK-NEXT:       %34 = rk.cmp lt %33, %0 : usize
// CHECK-NEXT:       %35 = rk.not %34 : bool
// CHECK-NEXT:       rk.if %35 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %36 = rk.read %15 : usize
// CHECK-NEXT:       %37 = rk.add %11, %36 : usize
// CHECK-NEXT:       rk.bounds_check %37, %4 at 16:19
// CHECK-NEXT:       %38 = rk.read %14 : f32
// CHECK-NEXT:       %39 = rk.ptr_offset %3, %37 : *const f32
// CHECK-NEXT:       %40 = rk.load %39 : *const f32
// CHECK-NEXT:       %41 = rk.math max %38, %40 : (f32, f32) -> f32
// CHECK-NEXT:       rk.write %41, %14 : f32
// CHECK-NEXT:       %42 = rk.const 256 : usize
// CHECK-NEXT:       %43 = rk.read %15 : usize
// CHECK-NEXT:       %44 = rk.add %43, %42 : usize
// CHECK-NEXT:       rk.write %44, %15 : usize
// CHECK-NEXT:     }
// CHECK-NEXT:     rk.write %31, %14 : f32
// CHECK-NEXT:     rk.write %32, %15 : usize
// CHECK-NEXT:   } else {
// CHECK-NEXT:   }
// CHECK-NEXT:   rk.loop {
// CHECK-NEXT:     %45 = rk.read %15 : usize
// CHECK-NEXT:     %46 = rk.cmp lt %45, %0 : usize
// CHECK-NEXT:     %47 = rk.not %46 : bool
// CHECK-NEXT:     rk.if %47 {
// CHECK-NEXT:       rk.break
// CHECK-NEXT:     } else {
// CHECK-NEXT:     }
// CHECK-NEXT:     %48 = rk.read %15 : usize
// CHECK-NEXT:     %49 = rk.add %11, %48 : usize
// CHECK-NEXT:     %50 = rk.read %14 : f32
// CHECK-NEXT:     %51 = rk.ptr_offset %3, %49 : *const f32
// CHECK-NEXT:     %52 = rk.load %51 : *const f32
// CHECK-NEXT:     %53 = rk.math max %50, %52 : (f32, f32) -> f32
// CHECK-NEXT:     rk.write %53, %14 : f32
// CHECK-NEXT:     %54 = rk.const 256 : usize
// CHECK-NEXT:     %55 = rk.read %15 : usize
// CHECK-NEXT:     %56 = rk.add %55, %54 : usize
// CHECK-NEXT:     rk.write %56, %15 : usize
// CHECK-NEXT:   }
// CHECK-NEXT:   %57 = rk.const 256 : usize
// CHECK-NEXT:   %58 = rk.mul %10, %57 : usize
// CHECK-NEXT:   %59 = rk.add %58, %8 : usize
// CHECK-NEXT:   rk.bounds_check %59, %6 at 19:5
// CHECK-NEXT:   %60 = rk.read %14 : f32
// CHECK-NEXT:   %61 = rk.ptr_offset %5, %59 : *mut f32
// CHECK-NEXT:   rk.store %60, %61 : *mut f32
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
// -----
// A loop that only reads, but branches on what it reads, keeps the checked copy beside the fast
// one (`if ok { fast } else { checked }`): run first for its checks alone, it could take other
// branches than the fast copy if the memory changed in between.
// RUN: rkc-opt %s --passes=inline,simplify,version,simplify
use rkc_offload::prelude::*;
#[offload_kernel]
fn positive_sum(n: usize, a: &[f32], out: &mut [f32]) {
    let row = unsafe { global_idx_x() };
    let mut acc = 0.0f32;
    for k in 0..n {
        let v = a[row * n + k];
        if v > 0.0 {
            acc += v;
        }
    }
    out[row] = acc;
}
// CHECK-LABEL: rk.func @positive_sum(n %0: usize, a %1: &[f32], out %2: &mut [f32]) kernel {
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
// CHECK-NEXT:   %23 = rk.cast %22 : usize to u64
// CHECK-NEXT:   %24 = rk.sub %0, %18 : usize
// CHECK-NEXT:   %25 = rk.cast %24 : usize to u64
// CHECK-NEXT:   %26 = rk.cast %4 : usize to u64
// CHECK-NEXT:   %27 = rk.cmp le %23, %26 : u64
// CHECK-NEXT:   %28 = rk.sub %26, %23 : u64
// CHECK-NEXT:   %29 = rk.cmp lt %25, %28 : u64
// CHECK-NEXT:   %30 = rk.and %27, %29 : bool
// CHECK-NEXT:   rk.if %30 {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %31 = rk.read %20 : bool
// CHECK-NEXT:       rk.if %31 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %32 = rk.read %21 : usize
// CHECK-NEXT:       %33 = rk.mul %14, %0 : usize
// CHECK-NEXT:       %34 = rk.add %33, %32 : usize
// CHECK-NEXT:       %35 = rk.sub %0, %18 : usize
// CHECK-NEXT:       %36 = rk.sub %35, %32 : usize
// CHECK-NEXT:       %37 = rk.cmp lt %36, %18 : usize
// CHECK-NEXT:       rk.write %37, %20 : bool
// CHECK-NEXT:       %38 = rk.add %32, %18 : usize
// CHECK-NEXT:       rk.write %38, %21 : usize
// CHECK-NEXT:       %39 = rk.ptr_offset %3, %34 : *const f32
// CHECK-NEXT:       %40 = rk.load %39 : *const f32
// CHECK-NEXT:       %41 = rk.const 0.0 : f32
// CHECK-NEXT:       %42 = rk.cmp gt %40, %41 : f32
// CHECK-NEXT:       rk.if %42 {
// CHECK-NEXT:         %43 = rk.read %16 : f32
// CHECK-NEXT:         %44 = rk.add %43, %40 : f32
// CHECK-NEXT:         rk.write %44, %16 : f32
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:     rk.loop {
// CHECK-NEXT:       %45 = rk.read %20 : bool
// CHECK-NEXT:       rk.if %45 {
// CHECK-NEXT:         rk.break
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:       %46 = rk.read %21 : usize
// CHECK-NEXT:       %47 = rk.mul %14, %0 : usize
// CHECK-NEXT:       %48 = rk.add %47, %46 : usize
// CHECK-NEXT:       rk.bounds_check %48, %4 at 11:17
// CHECK-NEXT:       %49 = rk.sub %0, %18 : usize
// CHECK-NEXT:       %50 = rk.sub %49, %46 : usize
// CHECK-NEXT:       %51 = rk.cmp lt %50, %18 : usize
// CHECK-NEXT:       rk.write %51, %20 : bool
// CHECK-NEXT:       %52 = rk.add %46, %18 : usize
// CHECK-NEXT:       rk.write %52, %21 : usize
// CHECK-NEXT:       %53 = rk.ptr_offset %3, %48 : *const f32
// CHECK-NEXT:       %54 = rk.load %53 : *const f32
// CHECK-NEXT:       %55 = rk.const 0.0 : f32
// CHECK-NEXT:       %56 = rk.cmp gt %54, %55 : f32
// CHECK-NEXT:       rk.if %56 {
// CHECK-NEXT:         %57 = rk.read %16 : f32
// CHECK-NEXT:         %58 = rk.add %57, %54 : f32
// CHECK-NEXT:         rk.write %58, %16 : f32
// CHECK-NEXT:       } else {
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   rk.bounds_check %14, %6 at 16:5
// CHECK-NEXT:   %59 = rk.read %16 : f32
// CHECK-NEXT:   %60 = rk.ptr_offset %5, %14 : *mut f32
// CHECK-NEXT:   rk.store %59, %60 : *mut f32
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
