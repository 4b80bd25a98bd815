// Warp operations at the rocdl stage (wave64): an xor shuffle is a `ds_bpermute` from the xor lane; a down
// shuffle reads a computed lane through an idx shuffle; a block fence is `workgroup`-scoped; the
// dynamic shared memory is the zero-sized external workgroup global.
// RUN: rkc %s --offload-arch gfx942 --emit=rocdl -C checks=off
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
// CHECK-NEXT:   gpu.module @kernels [#rocdl.target<O = 3, chip = "gfx942">] attributes {llvm.data_layout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"} {
// CHECK-NEXT:     llvm.mlir.global external @rkc_dynamic_shared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL:     llvm.func @k(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr<1>) attributes {gpu.kernel, rocdl.kernel} {
// CHECK-NEXT:       %0 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:       %1 = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT:       %2 = llvm.mlir.addressof @rkc_dynamic_shared : !llvm.ptr<3>
// CHECK-NEXT:       %3 = llvm.mlir.constant(-32 : i32) : i32
// CHECK-NEXT:       %4 = llvm.mlir.constant(2.000000e+00 : f32) : f32
// CHECK-NEXT:       %5 = llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT:       %6 = llvm.mlir.constant(31 : i32) : i32
// CHECK-NEXT:       %7 = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK-NEXT:       %8 = llvm.addrspacecast %arg0 : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:       %9 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:       %10 = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT:       %11 = rocdl.mbcnt.lo %10, %9 {res_attrs = [{llvm.noundef, llvm.range = #llvm.constant_range<i32, 0, 32>}]} : (i32, i32) -> i32
// CHECK-NEXT:       %12 = rocdl.mbcnt.hi %10, %11 {res_attrs = [{llvm.noundef, llvm.range = #llvm.constant_range<i32, 0, 64>}]} : (i32, i32) -> i32
// CHECK-NEXT:       %13 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:       %14 = llvm.sub %13, %5 : i32
// CHECK-NEXT:       %15 = llvm.add %12, %5 : i32
// CHECK-NEXT:       %16 = llvm.and %15, %14 : i32
// CHECK-NEXT:       %17 = llvm.xor %12, %1 : i32
// CHECK-NEXT:       %18 = llvm.icmp "slt" %17, %16 : i32
// CHECK-NEXT:       %19 = llvm.select %18, %17, %12 : i1, i32
// CHECK-NEXT:       %20 = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT:       %21 = llvm.shl %19, %20 : i32
// CHECK-NEXT:       %22 = llvm.bitcast %7 : f32 to i32
// CHECK-NEXT:       %23 = rocdl.ds_bpermute %21, %22 : (i32, i32) -> i32
// CHECK-NEXT:       %24 = llvm.bitcast %23 : i32 to f32
// CHECK-NEXT:       %25 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:       %26 = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT:       %27 = rocdl.mbcnt.lo %26, %25 {res_attrs = [{llvm.noundef, llvm.range = #llvm.constant_range<i32, 0, 32>}]} : (i32, i32) -> i32
// CHECK-NEXT:       %28 = rocdl.mbcnt.hi %26, %27 {res_attrs = [{llvm.noundef, llvm.range = #llvm.constant_range<i32, 0, 64>}]} : (i32, i32) -> i32
// CHECK-NEXT:       %29 = llvm.sext %28 : i32 to i64
// CHECK-NEXT:       %30 = llvm.trunc %29 : i64 to i32
// CHECK-NEXT:       %31 = llvm.and %30, %6 : i32
// CHECK-NEXT:       %32 = llvm.and %30, %3 : i32
// CHECK-NEXT:       %33 = llvm.add %31, %0 : i32
// CHECK-NEXT:       %34 = llvm.icmp "ule" %33, %6 : i32
// CHECK-NEXT:       %35 = llvm.select %34, %33, %31 : i1, i32
// CHECK-NEXT:       %36 = llvm.or %32, %35 : i32
// CHECK-NEXT:       %37 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:       %38 = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT:       %39 = rocdl.mbcnt.lo %38, %37 {res_attrs = [{llvm.noundef, llvm.range = #llvm.constant_range<i32, 0, 32>}]} : (i32, i32) -> i32
// CHECK-NEXT:       %40 = rocdl.mbcnt.hi %38, %39 {res_attrs = [{llvm.noundef, llvm.range = #llvm.constant_range<i32, 0, 64>}]} : (i32, i32) -> i32
// CHECK-NEXT:       %41 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:       %42 = llvm.sub %41, %5 : i32
// CHECK-NEXT:       %43 = llvm.add %40, %5 : i32
// CHECK-NEXT:       %44 = llvm.and %43, %42 : i32
// CHECK-NEXT:       %45 = llvm.icmp "slt" %36, %44 : i32
// CHECK-NEXT:       %46 = llvm.select %45, %36, %40 : i1, i32
// CHECK-NEXT:       %47 = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT:       %48 = llvm.shl %46, %47 : i32
// CHECK-NEXT:       %49 = llvm.bitcast %4 : f32 to i32
// CHECK-NEXT:       %50 = rocdl.ds_bpermute %48, %49 : (i32, i32) -> i32
// CHECK-NEXT:       %51 = llvm.bitcast %50 : i32 to f32
// CHECK-NEXT:       %52 = llvm.fadd %24, %51 : f32
// CHECK-NEXT:       llvm.fence syncscope("workgroup") seq_cst
// CHECK-NEXT:       llvm.store %52, %2 {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK-NEXT:       llvm.store %52, %8 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       llvm.return
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
