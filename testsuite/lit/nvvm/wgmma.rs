// Warpgroup multiplies on sm_90: the tiles' matrix descriptors (address and strides over 16
// bytes, leading offset along k, stride offset along m or n) and one
// `wgmma.mma_async.sync.aligned` of inline PTX whose outputs are tied to D's inputs; the
// fences and groups as inline PTX that clobbers memory. The image is compiled for sm_90a.
// RUN: rkc %s --offload-arch sm_90 --emit=nvvm -C checks=off
use half::f16;
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn k(out: &mut [f32; 32]) {
    unsafe {
        let a = shared_array::<f16, 1024>() as *const f16;
        let b = shared_array::<f16, 1024>() as *const f16;
        fence_proxy_async();
        sync_threads();
        wgmma_fence();
        *out = wgmma_m64n64k16_f16(a, 64, 128, b, 512, 64, [0.0; 32]);
        wgmma_commit();
        wgmma_wait::<0>();
    }
}
// CHECK: #loop_unroll = #llvm.loop_unroll<full = true>
// CHECK-NEXT: #loop_annotation = #llvm.loop_annotation<unroll = #loop_unroll>
// CHECK-NEXT: module attributes {gpu.container_module} {
// CHECK-NEXT:   gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_90a">] {
// CHECK-NEXT:     llvm.mlir.global internal @shared_12_17_f16_1024() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<1024 x f16> {
// CHECK-NEXT:       %0 = llvm.mlir.undef : !llvm.array<1024 x f16>
// CHECK-NEXT:       llvm.return %0 : !llvm.array<1024 x f16>
// CHECK-NEXT:     }
// CHECK-NEXT:     llvm.mlir.global internal @shared_13_17_f16_1024() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<1024 x f16> {
// CHECK-NEXT:       %0 = llvm.mlir.undef : !llvm.array<1024 x f16>
// CHECK-NEXT:       llvm.return %0 : !llvm.array<1024 x f16>
// CHECK-NEXT:     }
// CHECK-LABEL:     llvm.func @k(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
// CHECK-NEXT:       %0 = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:       %1 = llvm.alloca %0 x i64 : (i64) -> !llvm.ptr
// CHECK-NEXT:       %2 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %3 = llvm.insertvalue %1, %2[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %4 = llvm.insertvalue %1, %3[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %5 = llvm.mlir.constant(0 : index) : i64
// CHECK-NEXT:       %6 = llvm.insertvalue %5, %4[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %7 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:       %8 = llvm.insertvalue %7, %6[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %9 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:       %10 = llvm.insertvalue %9, %8[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %11 = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:       %12 = llvm.alloca %11 x i64 : (i64) -> !llvm.ptr
// CHECK-NEXT:       %13 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %14 = llvm.insertvalue %12, %13[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %15 = llvm.insertvalue %12, %14[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %16 = llvm.mlir.constant(0 : index) : i64
// CHECK-NEXT:       %17 = llvm.insertvalue %16, %15[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %18 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:       %19 = llvm.insertvalue %18, %17[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %20 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:       %21 = llvm.insertvalue %20, %19[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %22 = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:       %23 = llvm.alloca %22 x i64 : (i64) -> !llvm.ptr
// CHECK-NEXT:       %24 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %25 = llvm.insertvalue %23, %24[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %26 = llvm.insertvalue %23, %25[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %27 = llvm.mlir.constant(0 : index) : i64
// CHECK-NEXT:       %28 = llvm.insertvalue %27, %26[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %29 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:       %30 = llvm.insertvalue %29, %28[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %31 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:       %32 = llvm.insertvalue %31, %30[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %33 = llvm.mlir.constant(34359738368 : i64) : i64
// CHECK-NEXT:       %34 = llvm.mlir.constant(4194304 : i64) : i64
// CHECK-NEXT:       %35 = llvm.mlir.constant(68719476736 : i64) : i64
// CHECK-NEXT:       %36 = llvm.mlir.constant(524288 : i64) : i64
// CHECK-NEXT:       %37 = llvm.mlir.constant(16383 : i64) : i64
// CHECK-NEXT:       %38 = llvm.mlir.constant(4 : i64) : i64
// CHECK-NEXT:       %39 = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT:       %40 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:       %41 = llvm.mlir.constant(15 : i64) : i64
// CHECK-NEXT:       %42 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:       %43 = llvm.mlir.constant(127 : i64) : i64
// CHECK-NEXT:       %44 = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:       %45 = llvm.mlir.constant(true) : i1
// CHECK-NEXT:       %46 = llvm.mlir.constant(32 : i64) : i64
// CHECK-NEXT:       %47 = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:       %48 = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK-NEXT:       %49 = llvm.mlir.addressof @shared_13_17_f16_1024 : !llvm.ptr<3>
// CHECK-NEXT:       %50 = llvm.mlir.addressof @shared_12_17_f16_1024 : !llvm.ptr<3>
// CHECK-NEXT:       %51 = llvm.mlir.constant(0 : index) : i64
// CHECK-NEXT:       %52 = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:       %53 = llvm.alloca %52 x !llvm.array<32 x f32> {alignment = 16 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:       %54 = llvm.alloca %52 x !llvm.array<32 x f32> {alignment = 16 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:       %55 = llvm.alloca %52 x !llvm.array<32 x f32> {alignment = 16 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:       %56 = llvm.addrspacecast %arg0 : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:       %57 = llvm.addrspacecast %50 : !llvm.ptr<3> to !llvm.ptr
// CHECK-NEXT:       %58 = llvm.addrspacecast %49 : !llvm.ptr<3> to !llvm.ptr
// CHECK-NEXT:       llvm.inline_asm has_side_effects "fence.proxy.async.shared::cta;", "~{memory}"  : () -> ()
// CHECK-NEXT:       nvvm.barrier0
// CHECK-NEXT:       llvm.inline_asm has_side_effects "wgmma.fence.sync.aligned;", "~{memory}"  : () -> ()
// CHECK-NEXT:       %59 = llvm.extractvalue %10[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %60 = llvm.getelementptr inbounds|nuw %59[%51] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:       llvm.store %47, %60 : i64, !llvm.ptr
// CHECK-NEXT:       llvm.br ^bb1
// CHECK-NEXT:     ^bb1:  // 2 preds: ^bb0, ^bb4
// CHECK-NEXT:       %61 = llvm.extractvalue %10[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %62 = llvm.getelementptr inbounds|nuw %61[%51] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:       %63 = llvm.load %62 : !llvm.ptr -> i64
// CHECK-NEXT:       %64 = llvm.icmp "ult" %63, %46 : i64
// CHECK-NEXT:       %65 = llvm.xor %64, %45 : i1
// CHECK-NEXT:       llvm.cond_br %65, ^bb2, ^bb3
// CHECK-NEXT:     ^bb2:  // pred: ^bb1
// CHECK-NEXT:       llvm.br ^bb5
// CHECK-NEXT:     ^bb3:  // pred: ^bb1
// CHECK-NEXT:       llvm.br ^bb4
// CHECK-NEXT:     ^bb4:  // pred: ^bb3
// CHECK-NEXT:       %66 = llvm.getelementptr inbounds %53[%63] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %48, %66 {alignment = 4 : i64, rk.local = 10 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %67 = llvm.add %63, %44 : i64
// CHECK-NEXT:       %68 = llvm.extractvalue %10[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %69 = llvm.getelementptr inbounds|nuw %68[%51] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:       llvm.store %67, %69 : i64, !llvm.ptr
// CHECK-NEXT:       llvm.br ^bb1 {loop_annotation = #loop_annotation}
// CHECK-NEXT:     ^bb5:  // pred: ^bb2
// CHECK-NEXT:       %70 = nvvm.read.ptx.sreg.ntid.x : i32
// CHECK-NEXT:       %71 = llvm.sext %70 : i32 to i64
// CHECK-NEXT:       %72 = llvm.trunc %71 : i64 to i32
// CHECK-NEXT:       %73 = llvm.zext %72 : i32 to i64
// CHECK-NEXT:       %74 = nvvm.read.ptx.sreg.ntid.y : i32
// CHECK-NEXT:       %75 = llvm.sext %74 : i32 to i64
// CHECK-NEXT:       %76 = llvm.trunc %75 : i64 to i32
// CHECK-NEXT:       %77 = llvm.zext %76 : i32 to i64
// CHECK-NEXT:       %78 = llvm.mul %73, %77 : i64
// CHECK-NEXT:       %79 = nvvm.read.ptx.sreg.ntid.z : i32
// CHECK-NEXT:       %80 = llvm.sext %79 : i32 to i64
// CHECK-NEXT:       %81 = llvm.trunc %80 : i64 to i32
// CHECK-NEXT:       %82 = llvm.zext %81 : i32 to i64
// CHECK-NEXT:       %83 = llvm.mul %78, %82 : i64
// CHECK-NEXT:       %84 = llvm.and %83, %43 : i64
// CHECK-NEXT:       %85 = llvm.icmp "eq" %84, %47 : i64
// CHECK-NEXT:       llvm.cond_br %85, ^bb6, ^bb19(%42 : i32)
// CHECK-NEXT:     ^bb6:  // pred: ^bb5
// CHECK-NEXT:       %86 = llvm.ptrtoint %57 : !llvm.ptr to i64
// CHECK-NEXT:       %87 = llvm.ptrtoint %58 : !llvm.ptr to i64
// CHECK-NEXT:       %88 = llvm.or %86, %87 : i64
// CHECK-NEXT:       %89 = llvm.and %88, %41 : i64
// CHECK-NEXT:       %90 = llvm.icmp "eq" %89, %47 : i64
// CHECK-NEXT:       llvm.cond_br %90, ^bb7, ^bb19(%40 : i32)
// CHECK-NEXT:     ^bb7:  // pred: ^bb6
// CHECK-NEXT:       llvm.cond_br %45, ^bb8, ^bb19(%39 : i32)
// CHECK-NEXT:     ^bb8:  // pred: ^bb7
// CHECK-NEXT:       %91 = llvm.load %53 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %92 = llvm.getelementptr inbounds %53[1] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %93 = llvm.load %92 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %94 = llvm.getelementptr inbounds %53[2] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %95 = llvm.load %94 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %96 = llvm.getelementptr inbounds %53[3] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %97 = llvm.load %96 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %98 = llvm.getelementptr inbounds %53[4] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %99 = llvm.load %98 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %100 = llvm.getelementptr inbounds %53[5] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %101 = llvm.load %100 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %102 = llvm.getelementptr inbounds %53[6] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %103 = llvm.load %102 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %104 = llvm.getelementptr inbounds %53[7] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %105 = llvm.load %104 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %106 = llvm.getelementptr inbounds %53[8] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %107 = llvm.load %106 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %108 = llvm.getelementptr inbounds %53[9] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %109 = llvm.load %108 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %110 = llvm.getelementptr inbounds %53[10] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %111 = llvm.load %110 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %112 = llvm.getelementptr inbounds %53[11] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %113 = llvm.load %112 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %114 = llvm.getelementptr inbounds %53[12] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %115 = llvm.load %114 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %116 = llvm.getelementptr inbounds %53[13] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %117 = llvm.load %116 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %118 = llvm.getelementptr inbounds %53[14] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %119 = llvm.load %118 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %120 = llvm.getelementptr inbounds %53[15] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %121 = llvm.load %120 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %122 = llvm.getelementptr inbounds %53[16] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %123 = llvm.load %122 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %124 = llvm.getelementptr inbounds %53[17] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %125 = llvm.load %124 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %126 = llvm.getelementptr inbounds %53[18] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %127 = llvm.load %126 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %128 = llvm.getelementptr inbounds %53[19] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %129 = llvm.load %128 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %130 = llvm.getelementptr inbounds %53[20] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %131 = llvm.load %130 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %132 = llvm.getelementptr inbounds %53[21] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %133 = llvm.load %132 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %134 = llvm.getelementptr inbounds %53[22] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %135 = llvm.load %134 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %136 = llvm.getelementptr inbounds %53[23] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %137 = llvm.load %136 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %138 = llvm.getelementptr inbounds %53[24] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %139 = llvm.load %138 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %140 = llvm.getelementptr inbounds %53[25] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %141 = llvm.load %140 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %142 = llvm.getelementptr inbounds %53[26] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %143 = llvm.load %142 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %144 = llvm.getelementptr inbounds %53[27] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %145 = llvm.load %144 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %146 = llvm.getelementptr inbounds %53[28] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %147 = llvm.load %146 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %148 = llvm.getelementptr inbounds %53[29] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %149 = llvm.load %148 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %150 = llvm.getelementptr inbounds %53[30] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %151 = llvm.load %150 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %152 = llvm.getelementptr inbounds %53[31] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %153 = llvm.load %152 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %154 = llvm.ptrtoint %50 : !llvm.ptr<3> to i32
// CHECK-NEXT:       %155 = llvm.zext %154 : i32 to i64
// CHECK-NEXT:       %156 = llvm.lshr %155, %38 : i64
// CHECK-NEXT:       %157 = llvm.and %156, %37 : i64
// CHECK-NEXT:       %158 = llvm.or %157, %36 : i64
// CHECK-NEXT:       %159 = llvm.or %158, %35 : i64
// CHECK-NEXT:       %160 = llvm.ptrtoint %49 : !llvm.ptr<3> to i32
// CHECK-NEXT:       %161 = llvm.zext %160 : i32 to i64
// CHECK-NEXT:       %162 = llvm.lshr %161, %38 : i64
// CHECK-NEXT:       %163 = llvm.and %162, %37 : i64
// CHECK-NEXT:       %164 = llvm.or %163, %34 : i64
// CHECK-NEXT:       %165 = llvm.or %164, %33 : i64
// CHECK-NEXT:       %166 = llvm.inline_asm has_side_effects "{ .reg .pred p; setp.ne.b32 p, $34, 0; wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $32, $33, p, 1, 1, 0, 1; }", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,l,l,r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31" %159, %165, %40, %91, %93, %95, %97, %99, %101, %103, %105, %107, %109, %111, %113, %115, %117, %119, %121, %123, %125, %127, %129, %131, %133, %135, %137, %139, %141, %143, %145, %147, %149, %151, %153 : (i64, i64, i32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %167 = llvm.extractvalue %166[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %168 = llvm.extractvalue %166[1] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %169 = llvm.extractvalue %166[2] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %170 = llvm.extractvalue %166[3] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %171 = llvm.extractvalue %166[4] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %172 = llvm.extractvalue %166[5] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %173 = llvm.extractvalue %166[6] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %174 = llvm.extractvalue %166[7] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %175 = llvm.extractvalue %166[8] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %176 = llvm.extractvalue %166[9] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %177 = llvm.extractvalue %166[10] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %178 = llvm.extractvalue %166[11] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %179 = llvm.extractvalue %166[12] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %180 = llvm.extractvalue %166[13] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %181 = llvm.extractvalue %166[14] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %182 = llvm.extractvalue %166[15] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %183 = llvm.extractvalue %166[16] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %184 = llvm.extractvalue %166[17] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %185 = llvm.extractvalue %166[18] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %186 = llvm.extractvalue %166[19] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %187 = llvm.extractvalue %166[20] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %188 = llvm.extractvalue %166[21] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %189 = llvm.extractvalue %166[22] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %190 = llvm.extractvalue %166[23] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %191 = llvm.extractvalue %166[24] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %192 = llvm.extractvalue %166[25] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %193 = llvm.extractvalue %166[26] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %194 = llvm.extractvalue %166[27] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %195 = llvm.extractvalue %166[28] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %196 = llvm.extractvalue %166[29] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %197 = llvm.extractvalue %166[30] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %198 = llvm.extractvalue %166[31] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       llvm.store %167, %54 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %199 = llvm.getelementptr inbounds %54[1] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %168, %199 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %200 = llvm.getelementptr inbounds %54[2] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %169, %200 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %201 = llvm.getelementptr inbounds %54[3] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %170, %201 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %202 = llvm.getelementptr inbounds %54[4] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %171, %202 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %203 = llvm.getelementptr inbounds %54[5] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %172, %203 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %204 = llvm.getelementptr inbounds %54[6] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %173, %204 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %205 = llvm.getelementptr inbounds %54[7] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %174, %205 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %206 = llvm.getelementptr inbounds %54[8] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %175, %206 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %207 = llvm.getelementptr inbounds %54[9] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %176, %207 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %208 = llvm.getelementptr inbounds %54[10] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %177, %208 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %209 = llvm.getelementptr inbounds %54[11] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %178, %209 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %210 = llvm.getelementptr inbounds %54[12] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %179, %210 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %211 = llvm.getelementptr inbounds %54[13] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %180, %211 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %212 = llvm.getelementptr inbounds %54[14] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %181, %212 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %213 = llvm.getelementptr inbounds %54[15] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %182, %213 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %214 = llvm.getelementptr inbounds %54[16] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %183, %214 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %215 = llvm.getelementptr inbounds %54[17] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %184, %215 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %216 = llvm.getelementptr inbounds %54[18] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %185, %216 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %217 = llvm.getelementptr inbounds %54[19] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %186, %217 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %218 = llvm.getelementptr inbounds %54[20] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %187, %218 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %219 = llvm.getelementptr inbounds %54[21] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %188, %219 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %220 = llvm.getelementptr inbounds %54[22] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %189, %220 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %221 = llvm.getelementptr inbounds %54[23] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %190, %221 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %222 = llvm.getelementptr inbounds %54[24] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %191, %222 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %223 = llvm.getelementptr inbounds %54[25] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %192, %223 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %224 = llvm.getelementptr inbounds %54[26] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %193, %224 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %225 = llvm.getelementptr inbounds %54[27] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %194, %225 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %226 = llvm.getelementptr inbounds %54[28] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %195, %226 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %227 = llvm.getelementptr inbounds %54[29] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %196, %227 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %228 = llvm.getelementptr inbounds %54[30] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %197, %228 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %229 = llvm.getelementptr inbounds %54[31] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %198, %229 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %230 = llvm.extractvalue %21[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %231 = llvm.getelementptr inbounds|nuw %230[%51] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:       llvm.store %47, %231 : i64, !llvm.ptr
// CHECK-NEXT:       llvm.br ^bb9
// CHECK-NEXT:     ^bb9:  // 2 preds: ^bb8, ^bb12
// CHECK-NEXT:       %232 = llvm.extractvalue %21[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %233 = llvm.getelementptr inbounds|nuw %232[%51] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:       %234 = llvm.load %233 : !llvm.ptr -> i64
// CHECK-NEXT:       %235 = llvm.icmp "ult" %234, %46 : i64
// CHECK-NEXT:       %236 = llvm.xor %235, %45 : i1
// CHECK-NEXT:       llvm.cond_br %236, ^bb10, ^bb11
// CHECK-NEXT:     ^bb10:  // pred: ^bb9
// CHECK-NEXT:       llvm.br ^bb13
// CHECK-NEXT:     ^bb11:  // pred: ^bb9
// CHECK-NEXT:       llvm.br ^bb12
// CHECK-NEXT:     ^bb12:  // pred: ^bb11
// CHECK-NEXT:       %237 = llvm.getelementptr inbounds %54[%234] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %238 = llvm.getelementptr inbounds %55[%234] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %239 = llvm.load %237 {alignment = 4 : i64, rk.local = 176 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       llvm.store %239, %238 {alignment = 4 : i64, rk.local = 241 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %240 = llvm.add %234, %44 : i64
// CHECK-NEXT:       %241 = llvm.extractvalue %21[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %242 = llvm.getelementptr inbounds|nuw %241[%51] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:       llvm.store %240, %242 : i64, !llvm.ptr
// CHECK-NEXT:       llvm.br ^bb9 {loop_annotation = #loop_annotation}
// CHECK-NEXT:     ^bb13:  // pred: ^bb10
// CHECK-NEXT:       %243 = llvm.extractvalue %32[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %244 = llvm.getelementptr inbounds|nuw %243[%51] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:       llvm.store %47, %244 : i64, !llvm.ptr
// CHECK-NEXT:       llvm.br ^bb14
// CHECK-NEXT:     ^bb14:  // 2 preds: ^bb13, ^bb17
// CHECK-NEXT:       %245 = llvm.extractvalue %32[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %246 = llvm.getelementptr inbounds|nuw %245[%51] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:       %247 = llvm.load %246 : !llvm.ptr -> i64
// CHECK-NEXT:       %248 = llvm.icmp "ult" %247, %46 : i64
// CHECK-NEXT:       %249 = llvm.xor %248, %45 : i1
// CHECK-NEXT:       llvm.cond_br %249, ^bb15, ^bb16
// CHECK-NEXT:     ^bb15:  // pred: ^bb14
// CHECK-NEXT:       llvm.br ^bb18
// CHECK-NEXT:     ^bb16:  // pred: ^bb14
// CHECK-NEXT:       llvm.br ^bb17
// CHECK-NEXT:     ^bb17:  // pred: ^bb16
// CHECK-NEXT:       %250 = llvm.getelementptr inbounds %55[%247] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %251 = llvm.getelementptr inbounds %56[%247] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %252 = llvm.load %250 {alignment = 4 : i64, rk.local = 241 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       llvm.store %252, %251 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %253 = llvm.add %247, %44 : i64
// CHECK-NEXT:       %254 = llvm.extractvalue %32[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %255 = llvm.getelementptr inbounds|nuw %254[%51] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:       llvm.store %253, %255 : i64, !llvm.ptr
// CHECK-NEXT:       llvm.br ^bb14 {loop_annotation = #loop_annotation}
// CHECK-NEXT:     ^bb18:  // pred: ^bb15
// CHECK-NEXT:       llvm.inline_asm has_side_effects "wgmma.commit_group.sync.aligned;", "~{memory}"  : () -> ()
// CHECK-NEXT:       llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0;", "~{memory}"  : () -> ()
// CHECK-NEXT:       llvm.return
// CHECK-NEXT:     ^bb19(%256: i32):  // 3 preds: ^bb5, ^bb6, ^bb7
// CHECK-NEXT:       %257 = llvm.cmpxchg %arg1, %42, %40 monotonic monotonic : !llvm.ptr<1>, i32
// CHECK-NEXT:       %258 = llvm.extractvalue %257[1] : !llvm.struct<(i32, i1)>
// CHECK-NEXT:       llvm.cond_br %258, ^bb20, ^bb22
// CHECK-NEXT:     ^bb20:  // pred: ^bb19
// CHECK-NEXT:       %259 = llvm.inline_asm has_side_effects "mov.u32 $0, %ctaid.x;", "=r"  : () -> i32
// CHECK-NEXT:       %260 = llvm.zext %259 : i32 to i64
// CHECK-NEXT:       %261 = llvm.trunc %260 : i64 to i32
// CHECK-NEXT:       %262 = llvm.inline_asm has_side_effects "mov.u32 $0, %ctaid.y;", "=r"  : () -> i32
// CHECK-NEXT:       %263 = llvm.zext %262 : i32 to i64
// CHECK-NEXT:       %264 = llvm.trunc %263 : i64 to i32
// CHECK-NEXT:       %265 = llvm.inline_asm has_side_effects "mov.u32 $0, %ctaid.z;", "=r"  : () -> i32
// CHECK-NEXT:       %266 = llvm.zext %265 : i32 to i64
// CHECK-NEXT:       %267 = llvm.trunc %266 : i64 to i32
// CHECK-NEXT:       %268 = llvm.inline_asm has_side_effects "mov.u32 $0, %tid.x;", "=r"  : () -> i32
// CHECK-NEXT:       %269 = llvm.zext %268 : i32 to i64
// CHECK-NEXT:       %270 = llvm.trunc %269 : i64 to i32
// CHECK-NEXT:       %271 = llvm.inline_asm has_side_effects "mov.u32 $0, %tid.y;", "=r"  : () -> i32
// CHECK-NEXT:       %272 = llvm.zext %271 : i32 to i64
// CHECK-NEXT:       %273 = llvm.trunc %272 : i64 to i32
// CHECK-NEXT:       %274 = llvm.inline_asm has_side_effects "mov.u32 $0, %tid.z;", "=r"  : () -> i32
// CHECK-NEXT:       %275 = llvm.zext %274 : i32 to i64
// CHECK-NEXT:       %276 = llvm.trunc %275 : i64 to i32
// CHECK-NEXT:       %277 = llvm.getelementptr %arg1[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %256, %277 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %278 = llvm.getelementptr %arg1[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %261, %278 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %279 = llvm.getelementptr %arg1[3] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %264, %279 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %280 = llvm.getelementptr %arg1[4] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %267, %280 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %281 = llvm.getelementptr %arg1[5] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %270, %281 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %282 = llvm.getelementptr %arg1[6] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %273, %282 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %283 = llvm.getelementptr %arg1[7] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %276, %283 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %284 = llvm.getelementptr %arg1[4] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
// CHECK-NEXT:       llvm.store %47, %284 : i64, !llvm.ptr<1>
// CHECK-NEXT:       %285 = llvm.getelementptr %arg1[5] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
// CHECK-NEXT:       llvm.store %47, %285 : i64, !llvm.ptr<1>
// CHECK-NEXT:       %286 = llvm.getelementptr %arg1[6] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
// CHECK-NEXT:       %287 = llvm.load %286 : !llvm.ptr<1> -> i64
// CHECK-NEXT:       %288 = llvm.icmp "ne" %287, %47 : i64
// CHECK-NEXT:       llvm.cond_br %288, ^bb21, ^bb22
// CHECK-NEXT:     ^bb21:  // pred: ^bb20
// CHECK-NEXT:       %289 = llvm.inttoptr %287 : i64 to !llvm.ptr<1>
// CHECK-NEXT:       llvm.store %40, %289 : i32, !llvm.ptr<1>
// CHECK-NEXT:       llvm.br ^bb22
// CHECK-NEXT:     ^bb22:  // 3 preds: ^bb19, ^bb20, ^bb21
// CHECK-NEXT:       llvm.return
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
