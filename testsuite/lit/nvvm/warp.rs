// Warp operations at the nvvm stage: an xor shuffle is one native butterfly shuffle; a down
// shuffle reads a computed lane through an idx shuffle; a block fence is `cta`-scoped; the
// dynamic shared memory is the zero-sized external workgroup global.
// RUN: rkc %s --offload-arch sm_90 --emit=nvvm -C checks=off
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn k(out: *mut f32) {
    unsafe {
        let v = warp_shuffle_xor(1.0f32, 3) + warp_shuffle_down(2.0f32, 1);
        thread_fence_block();
        *dynamic_shared::<f32>() = v;
        *out = v;
    }
}
// CHECK: module attributes {gpu.container_module} {
// CHECK-NEXT:   gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_90">] {
// CHECK-NEXT:     llvm.mlir.global external @rkc_dynamic_shared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL:     llvm.func @k(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
// CHECK-NEXT:       %0 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:       %1 = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT:       %2 = llvm.mlir.addressof @rkc_dynamic_shared : !llvm.ptr<3>
// CHECK-NEXT:       %3 = llvm.mlir.constant(-32 : i32) : i32
// CHECK-NEXT:       %4 = llvm.mlir.constant(2.000000e+00 : f32) : f32
// CHECK-NEXT:       %5 = llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT:       %6 = llvm.mlir.constant(31 : i32) : i32
// CHECK-NEXT:       %7 = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK-NEXT:       %8 = llvm.addrspacecast %arg0 : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:       %9 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:       %10 = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT:       %11 = llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT:       %12 = llvm.sub %11, %5 : i32
// CHECK-NEXT:       %13 = llvm.lshr %10, %12 : i32
// CHECK-NEXT:       %14 = llvm.sub %5, %9 : i32
// CHECK-NEXT:       %15 = nvvm.shfl.sync  bfly %13, %7, %1, %14 : f32 -> f32
// CHECK-NEXT:       %16 = nvvm.read.ptx.sreg.laneid range <i32, 0, 32> : i32
// CHECK-NEXT:       %17 = llvm.sext %16 : i32 to i64
// CHECK-NEXT:       %18 = llvm.trunc %17 : i64 to i32
// CHECK-NEXT:       %19 = llvm.and %18, %6 : i32
// CHECK-NEXT:       %20 = llvm.and %18, %3 : i32
// CHECK-NEXT:       %21 = llvm.add %19, %0 : i32
// CHECK-NEXT:       %22 = llvm.icmp "ule" %21, %6 : i32
// CHECK-NEXT:       %23 = llvm.select %22, %21, %19 : i1, i32
// CHECK-NEXT:       %24 = llvm.or %20, %23 : i32
// CHECK-NEXT:       %25 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:       %26 = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT:       %27 = llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT:       %28 = llvm.sub %27, %5 : i32
// CHECK-NEXT:       %29 = llvm.lshr %26, %28 : i32
// CHECK-NEXT:       %30 = llvm.sub %5, %25 : i32
// CHECK-NEXT:       %31 = nvvm.shfl.sync  idx %29, %4, %24, %30 : f32 -> f32
// CHECK-NEXT:       %32 = llvm.fadd %15, %31 : f32
// CHECK-NEXT:       llvm.fence syncscope("block") seq_cst
// CHECK-NEXT:       llvm.store %32, %2 {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NEXT:       llvm.store %32, %8 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       llvm.return
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
