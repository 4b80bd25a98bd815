// Asynchronous copies on sm_80 and later: a 16-byte copy into shared memory is
// `nvvm.cp.async.shared.global` from the global space into the shared array's own space,
// bypassing L1 (`cg`); a 4-byte one may only be `ca`; commit and wait are the group ops.
// RUN: rkc %s --offload-arch sm_90 --emit=nvvm -C checks=off
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn k(src: *const [f32; 4], word: *const u32, out: *mut f32) {
    unsafe {
        let tile = shared_array::<[f32; 4], 1>();
        let flag = shared_array::<u32, 1>();
        cp_async(&mut (*tile)[0], src);
        cp_async(&mut (*flag)[0], word);
        cp_async_commit();
        cp_async_wait::<0>();
        *out = (*tile)[0][1] + (*flag)[0] as f32;
    }
}
// CHECK: module attributes {gpu.container_module} {
// CHECK-NEXT:   gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_90">] {
// CHECK-NEXT:     llvm.mlir.global internal @shared_10_20__f32__4__1() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<1 x array<4 x f32>> {
// CHECK-NEXT:       %0 = llvm.mlir.undef : !llvm.array<1 x array<4 x f32>>
// CHECK-NEXT:       llvm.return %0 : !llvm.array<1 x array<4 x f32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     llvm.mlir.global internal @shared_11_20_u32_1() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<1 x i32> {
// CHECK-NEXT:       %0 = llvm.mlir.undef : !llvm.array<1 x i32>
// CHECK-NEXT:       llvm.return %0 : !llvm.array<1 x i32>
// CHECK-NEXT:     }
// CHECK-LABEL:     llvm.func @k(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr<1>, %arg2: !llvm.ptr<1>, %arg3: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
// CHECK-NEXT:       %0 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:       %1 = llvm.mlir.constant(3 : i64) : i64
// CHECK-NEXT:       %2 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:       %3 = llvm.mlir.constant(15 : i64) : i64
// CHECK-NEXT:       %4 = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:       %5 = llvm.mlir.addressof @shared_11_20_u32_1 : !llvm.ptr<3>
// CHECK-NEXT:       %6 = llvm.mlir.addressof @shared_10_20__f32__4__1 : !llvm.ptr<3>
// CHECK-NEXT:       %7 = llvm.addrspacecast %arg0 : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:       %8 = llvm.addrspacecast %arg1 : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:       %9 = llvm.addrspacecast %arg2 : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:       %10 = llvm.addrspacecast %6 : !llvm.ptr<3> to !llvm.ptr
// CHECK-NEXT:       %11 = llvm.ptrtoint %7 : !llvm.ptr to i64
// CHECK-NEXT:       %12 = llvm.ptrtoint %10 : !llvm.ptr to i64
// CHECK-NEXT:       %13 = llvm.or %11, %12 : i64
// CHECK-NEXT:       %14 = llvm.and %13, %3 : i64
// CHECK-NEXT:       %15 = llvm.icmp "eq" %14, %4 : i64
// CHECK-NEXT:       llvm.cond_br %15, ^bb1, ^bb3(%2 : i32)
// CHECK-NEXT:     ^bb1:  // pred: ^bb0
// CHECK-NEXT:       nvvm.cp.async.shared.global %6, %arg0, 16, cache =  cg : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NEXT:       %16 = llvm.addrspacecast %5 : !llvm.ptr<3> to !llvm.ptr
// CHECK-NEXT:       %17 = llvm.ptrtoint %8 : !llvm.ptr to i64
// CHECK-NEXT:       %18 = llvm.ptrtoint %16 : !llvm.ptr to i64
// CHECK-NEXT:       %19 = llvm.or %17, %18 : i64
// CHECK-NEXT:       %20 = llvm.and %19, %1 : i64
// CHECK-NEXT:       %21 = llvm.icmp "eq" %20, %4 : i64
// CHECK-NEXT:       llvm.cond_br %21, ^bb2, ^bb3(%0 : i32)
// CHECK-NEXT:     ^bb2:  // pred: ^bb1
// CHECK-NEXT:       nvvm.cp.async.shared.global %5, %arg1, 4, cache =  ca : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NEXT:       nvvm.cp.async.commit.group
// CHECK-NEXT:       nvvm.cp.async.wait.group 0
// CHECK-NEXT:       %22 = llvm.getelementptr inbounds %6[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NEXT:       %23 = llvm.load %22 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NEXT:       %24 = llvm.load %5 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK-NEXT:       %25 = llvm.uitofp %24 : i32 to f32
// CHECK-NEXT:       %26 = llvm.fadd %23, %25 : f32
// CHECK-NEXT:       llvm.store %26, %9 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       llvm.return
// CHECK-NEXT:     ^bb3(%27: i32):  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:       %28 = llvm.cmpxchg %arg3, %2, %0 monotonic monotonic : !llvm.ptr<1>, i32
// CHECK-NEXT:       %29 = llvm.extractvalue %28[1] : !llvm.struct<(i32, i1)>
// CHECK-NEXT:       llvm.cond_br %29, ^bb4, ^bb6
// CHECK-NEXT:     ^bb4:  // pred: ^bb3
// CHECK-NEXT:       %30 = llvm.inline_asm has_side_effects "mov.u32 $0, %ctaid.x;", "=r"  : () -> i32
// CHECK-NEXT:       %31 = llvm.zext %30 : i32 to i64
// CHECK-NEXT:       %32 = llvm.trunc %31 : i64 to i32
// CHECK-NEXT:       %33 = llvm.inline_asm has_side_effects "mov.u32 $0, %ctaid.y;", "=r"  : () -> i32
// CHECK-NEXT:       %34 = llvm.zext %33 : i32 to i64
// CHECK-NEXT:       %35 = llvm.trunc %34 : i64 to i32
// CHECK-NEXT:       %36 = llvm.inline_asm has_side_effects "mov.u32 $0, %ctaid.z;", "=r"  : () -> i32
// CHECK-NEXT:       %37 = llvm.zext %36 : i32 to i64
// CHECK-NEXT:       %38 = llvm.trunc %37 : i64 to i32
// CHECK-NEXT:       %39 = llvm.inline_asm has_side_effects "mov.u32 $0, %tid.x;", "=r"  : () -> i32
// CHECK-NEXT:       %40 = llvm.zext %39 : i32 to i64
// CHECK-NEXT:       %41 = llvm.trunc %40 : i64 to i32
// CHECK-NEXT:       %42 = llvm.inline_asm has_side_effects "mov.u32 $0, %tid.y;", "=r"  : () -> i32
// CHECK-NEXT:       %43 = llvm.zext %42 : i32 to i64
// CHECK-NEXT:       %44 = llvm.trunc %43 : i64 to i32
// CHECK-NEXT:       %45 = llvm.inline_asm has_side_effects "mov.u32 $0, %tid.z;", "=r"  : () -> i32
// CHECK-NEXT:       %46 = llvm.zext %45 : i32 to i64
// CHECK-NEXT:       %47 = llvm.trunc %46 : i64 to i32
// CHECK-NEXT:       %48 = llvm.getelementptr %arg3[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %27, %48 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %49 = llvm.getelementptr %arg3[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %32, %49 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %50 = llvm.getelementptr %arg3[3] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %35, %50 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %51 = llvm.getelementptr %arg3[4] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %38, %51 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %52 = llvm.getelementptr %arg3[5] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %41, %52 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %53 = llvm.getelementptr %arg3[6] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %44, %53 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %54 = llvm.getelementptr %arg3[7] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %47, %54 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %55 = llvm.getelementptr %arg3[4] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
// CHECK-NEXT:       llvm.store %4, %55 : i64, !llvm.ptr<1>
// CHECK-NEXT:       %56 = llvm.getelementptr %arg3[5] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
// CHECK-NEXT:       llvm.store %4, %56 : i64, !llvm.ptr<1>
// CHECK-NEXT:       %57 = llvm.getelementptr %arg3[6] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
// CHECK-NEXT:       %58 = llvm.load %57 : !llvm.ptr<1> -> i64
// CHECK-NEXT:       %59 = llvm.icmp "ne" %58, %4 : i64
// CHECK-NEXT:       llvm.cond_br %59, ^bb5, ^bb6
// CHECK-NEXT:     ^bb5:  // pred: ^bb4
// CHECK-NEXT:       %60 = llvm.inttoptr %58 : i64 to !llvm.ptr<1>
// CHECK-NEXT:       llvm.store %0, %60 : i32, !llvm.ptr<1>
// CHECK-NEXT:       llvm.br ^bb6
// CHECK-NEXT:     ^bb6:  // 3 preds: ^bb3, ^bb4, ^bb5
// CHECK-NEXT:       llvm.return
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
