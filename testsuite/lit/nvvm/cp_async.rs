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
// CHECK-NEXT:     llvm.mlir.global internal @shared_10_20__llvm_array_4_x_f32__1() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<1 x array<4 x f32>> {
// CHECK-NEXT:       %0 = llvm.mlir.undef : !llvm.array<1 x array<4 x f32>>
// CHECK-NEXT:       llvm.return %0 : !llvm.array<1 x array<4 x f32>>
// CHECK-NEXT:     }
// CHECK-NEXT:     llvm.mlir.global internal @shared_11_20_i32_1() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<1 x i32> {
// CHECK-NEXT:       %0 = llvm.mlir.undef : !llvm.array<1 x i32>
// CHECK-NEXT:       llvm.return %0 : !llvm.array<1 x i32>
// CHECK-NEXT:     }
// CHECK-LABEL:     llvm.func @k(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr<1>, %arg2: !llvm.ptr<1>, %arg3: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
// CHECK-NEXT:       %0 = llvm.mlir.addressof @shared_11_20_i32_1 : !llvm.ptr<3>
// CHECK-NEXT:       %1 = llvm.mlir.addressof @shared_10_20__llvm_array_4_x_f32__1 : !llvm.ptr<3>
// CHECK-NEXT:       %2 = llvm.addrspacecast %arg2 : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:       nvvm.cp.async.shared.global %1, %arg0, 16, cache =  cg : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NEXT:       nvvm.cp.async.shared.global %0, %arg1, 4, cache =  ca : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NEXT:       nvvm.cp.async.commit.group
// CHECK-NEXT:       nvvm.cp.async.wait.group 0
// CHECK-NEXT:       %3 = llvm.getelementptr inbounds %1[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NEXT:       %4 = llvm.load %3 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NEXT:       %5 = llvm.load %0 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK-NEXT:       %6 = llvm.uitofp %5 : i32 to f32
// CHECK-NEXT:       %7 = llvm.fadd %4, %6 : f32
// CHECK-NEXT:       llvm.store %7, %2 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       llvm.return
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
