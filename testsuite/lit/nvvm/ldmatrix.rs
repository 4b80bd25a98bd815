// `ldmatrix` on sm_80 and later: each lane computes its row's address in the shared tile
// (lane % 16 rows down; for `A` the lanes from 16 on in the right half), `.x4` for `A` and
// `.x2` with the `col` layout (`.trans`) for `B`; each 32-bit register is two f16s.
// RUN: rkc %s --offload-arch sm_90 --emit=nvvm -C checks=off
use half::f16;
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn k(out: *mut [f32; 4]) {
    unsafe {
        let tile = shared_array::<f16, 512>() as *const f16;
        let a = mma_ldmatrix_a(tile, 16);
        let b = mma_ldmatrix_b(tile.add(256), 8);
        *out = mma_m16n8k16_f16(a, b, [0.0; 4]);
    }
}
// CHECK: module attributes {gpu.container_module} {
// CHECK-NEXT:   gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_90">] {
// CHECK-NEXT:     llvm.mlir.global internal @shared_11_20_f16_512() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<512 x f16> {
// CHECK-NEXT:       %0 = llvm.mlir.undef : !llvm.array<512 x f16>
// CHECK-NEXT:       llvm.return %0 : !llvm.array<512 x f16>
// CHECK-NEXT:     }
// CHECK-LABEL:     llvm.func @k(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
// CHECK-NEXT:       %0 = llvm.mlir.undef : vector<4xf32>
// CHECK-NEXT:       %1 = llvm.mlir.constant(3 : i64) : i64
// CHECK-NEXT:       %2 = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT:       %3 = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:       %4 = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:       %5 = llvm.mlir.constant(15 : i64) : i64
// CHECK-NEXT:       %6 = llvm.mlir.undef : vector<2xf16>
// CHECK-NEXT:       %7 = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK-NEXT:       %8 = llvm.mlir.constant(8 : i64) : i64
// CHECK-NEXT:       %9 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:       %10 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:       %11 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:       %12 = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT:       %13 = llvm.mlir.constant(15 : i32) : i32
// CHECK-NEXT:       %14 = llvm.mlir.constant(31 : i32) : i32
// CHECK-NEXT:       %15 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:       %16 = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:       %17 = llvm.mlir.constant(15 : i64) : i64
// CHECK-NEXT:       %18 = llvm.mlir.constant(32 : i64) : i64
// CHECK-NEXT:       %19 = llvm.mlir.constant(16 : i64) : i64
// CHECK-NEXT:       %20 = llvm.mlir.addressof @shared_11_20_f16_512 : !llvm.ptr<3>
// CHECK-NEXT:       %21 = llvm.addrspacecast %arg0 : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:       %22 = llvm.addrspacecast %20 : !llvm.ptr<3> to !llvm.ptr
// CHECK-NEXT:       %23 = llvm.ptrtoint %22 : !llvm.ptr to i64
// CHECK-NEXT:       %24 = llvm.or %23, %18 : i64
// CHECK-NEXT:       %25 = llvm.and %24, %17 : i64
// CHECK-NEXT:       %26 = llvm.icmp "eq" %25, %16 : i64
// CHECK-NEXT:       llvm.cond_br %26, ^bb1, ^bb6(%15 : i32)
// CHECK-NEXT:     ^bb1:  // pred: ^bb0
// CHECK-NEXT:       %27 = nvvm.read.ptx.sreg.laneid range <i32, 0, 32> : i32
// CHECK-NEXT:       %28 = llvm.sext %27 : i32 to i64
// CHECK-NEXT:       %29 = llvm.trunc %28 : i64 to i32
// CHECK-NEXT:       %30 = llvm.and %29, %14 : i32
// CHECK-NEXT:       %31 = llvm.and %30, %13 : i32
// CHECK-NEXT:       %32 = llvm.zext %31 : i32 to i64
// CHECK-NEXT:       %33 = llvm.mul %32, %19 : i64
// CHECK-NEXT:       %34 = llvm.and %30, %12 : i32
// CHECK-NEXT:       %35 = llvm.lshr %34, %11 : i32
// CHECK-NEXT:       %36 = llvm.zext %35 : i32 to i64
// CHECK-NEXT:       %37 = llvm.add %33, %36 : i64
// CHECK-NEXT:       %38 = llvm.getelementptr %20[%37] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
// CHECK-NEXT:       %39 = nvvm.ldmatrix %38 {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:       %40 = llvm.extractvalue %39[0] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:       %41 = llvm.bitcast %40 : i32 to vector<2xf16>
// CHECK-NEXT:       %42 = llvm.extractelement %41[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %43 = llvm.extractelement %41[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %44 = llvm.extractvalue %39[1] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:       %45 = llvm.bitcast %44 : i32 to vector<2xf16>
// CHECK-NEXT:       %46 = llvm.extractelement %45[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %47 = llvm.extractelement %45[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %48 = llvm.extractvalue %39[2] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:       %49 = llvm.bitcast %48 : i32 to vector<2xf16>
// CHECK-NEXT:       %50 = llvm.extractelement %49[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %51 = llvm.extractelement %49[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %52 = llvm.extractvalue %39[3] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:       %53 = llvm.bitcast %52 : i32 to vector<2xf16>
// CHECK-NEXT:       %54 = llvm.extractelement %53[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %55 = llvm.extractelement %53[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %56 = llvm.getelementptr inbounds %22[256] : (!llvm.ptr) -> !llvm.ptr, f16
// CHECK-NEXT:       %57 = llvm.ptrtoint %56 : !llvm.ptr to i64
// CHECK-NEXT:       %58 = llvm.or %57, %19 : i64
// CHECK-NEXT:       %59 = llvm.and %58, %17 : i64
// CHECK-NEXT:       %60 = llvm.icmp "eq" %59, %16 : i64
// CHECK-NEXT:       llvm.cond_br %60, ^bb2, ^bb6(%11 : i32)
// CHECK-NEXT:     ^bb2:  // pred: ^bb1
// CHECK-NEXT:       %61 = llvm.addrspacecast %56 : !llvm.ptr to !llvm.ptr<3>
// CHECK-NEXT:       %62 = nvvm.read.ptx.sreg.laneid range <i32, 0, 32> : i32
// CHECK-NEXT:       %63 = llvm.sext %62 : i32 to i64
// CHECK-NEXT:       %64 = llvm.trunc %63 : i64 to i32
// CHECK-NEXT:       %65 = llvm.and %64, %14 : i32
// CHECK-NEXT:       %66 = llvm.and %65, %13 : i32
// CHECK-NEXT:       %67 = llvm.zext %66 : i32 to i64
// CHECK-NEXT:       %68 = llvm.mul %67, %8 : i64
// CHECK-NEXT:       %69 = llvm.getelementptr %61[%68] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
// CHECK-NEXT:       %70 = nvvm.ldmatrix %69 {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 2 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// CHECK-NEXT:       %71 = llvm.extractvalue %70[0] : !llvm.struct<(i32, i32)>
// CHECK-NEXT:       %72 = llvm.bitcast %71 : i32 to vector<2xf16>
// CHECK-NEXT:       %73 = llvm.extractelement %72[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %74 = llvm.extractelement %72[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %75 = llvm.extractvalue %70[1] : !llvm.struct<(i32, i32)>
// CHECK-NEXT:       %76 = llvm.bitcast %75 : i32 to vector<2xf16>
// CHECK-NEXT:       %77 = llvm.extractelement %76[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %78 = llvm.extractelement %76[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %79 = llvm.insertelement %42, %6[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %80 = llvm.insertelement %43, %79[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %81 = llvm.insertelement %46, %6[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %82 = llvm.insertelement %47, %81[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %83 = llvm.insertelement %50, %6[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %84 = llvm.insertelement %51, %83[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %85 = llvm.insertelement %54, %6[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %86 = llvm.insertelement %55, %85[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %87 = llvm.insertelement %73, %6[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %88 = llvm.insertelement %74, %87[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %89 = llvm.insertelement %77, %6[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %90 = llvm.insertelement %78, %89[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %91 = nvvm.mma.sync A[%80, %82, %84, %86]  B[%88, %90]  C[%7, %7, %7, %7]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:       %92 = llvm.extractvalue %91[0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:       %93 = llvm.extractvalue %91[1] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:       %94 = llvm.extractvalue %91[2] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:       %95 = llvm.extractvalue %91[3] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:       %96 = llvm.ptrtoint %21 : !llvm.ptr to i64
// CHECK-NEXT:       %97 = llvm.and %96, %5 : i64
// CHECK-NEXT:       %98 = llvm.icmp "eq" %97, %4 : i64
// CHECK-NEXT:       llvm.cond_br %98, ^bb3, ^bb4
// CHECK-NEXT:     ^bb3:  // pred: ^bb2
// CHECK-NEXT:       %99 = llvm.insertelement %92, %0[%4 : i64] : vector<4xf32>
// CHECK-NEXT:       %100 = llvm.insertelement %93, %99[%3 : i64] : vector<4xf32>
// CHECK-NEXT:       %101 = llvm.insertelement %94, %100[%2 : i64] : vector<4xf32>
// CHECK-NEXT:       %102 = llvm.insertelement %95, %101[%1 : i64] : vector<4xf32>
// CHECK-NEXT:       llvm.store %102, %21 {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr
// CHECK-NEXT:       llvm.br ^bb5
// CHECK-NEXT:     ^bb4:  // pred: ^bb2
// CHECK-NEXT:       %103 = llvm.getelementptr inbounds %21[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       llvm.store %92, %103 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %104 = llvm.getelementptr inbounds %21[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       llvm.store %93, %104 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %105 = llvm.getelementptr inbounds %21[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       llvm.store %94, %105 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %106 = llvm.getelementptr inbounds %21[0, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       llvm.store %95, %106 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       llvm.br ^bb5
// CHECK-NEXT:     ^bb5:  // 5 preds: ^bb3, ^bb4, ^bb6, ^bb7, ^bb8
// CHECK-NEXT:       llvm.return
// CHECK-NEXT:     ^bb6(%107: i32):  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:       %108 = llvm.cmpxchg %arg1, %15, %11 monotonic monotonic : !llvm.ptr<1>, i32
// CHECK-NEXT:       %109 = llvm.extractvalue %108[1] : !llvm.struct<(i32, i1)>
// CHECK-NEXT:       llvm.cond_br %109, ^bb7, ^bb5
// CHECK-NEXT:     ^bb7:  // pred: ^bb6
// CHECK-NEXT:       %110 = llvm.inline_asm has_side_effects "mov.u32 $0, %ctaid.x;", "=r"  : () -> i32
// CHECK-NEXT:       %111 = llvm.zext %110 : i32 to i64
// CHECK-NEXT:       %112 = llvm.trunc %111 : i64 to i32
// CHECK-NEXT:       %113 = llvm.inline_asm has_side_effects "mov.u32 $0, %ctaid.y;", "=r"  : () -> i32
// CHECK-NEXT:       %114 = llvm.zext %113 : i32 to i64
// CHECK-NEXT:       %115 = llvm.trunc %114 : i64 to i32
// CHECK-NEXT:       %116 = llvm.inline_asm has_side_effects "mov.u32 $0, %ctaid.z;", "=r"  : () -> i32
// CHECK-NEXT:       %117 = llvm.zext %116 : i32 to i64
// CHECK-NEXT:       %118 = llvm.trunc %117 : i64 to i32
// CHECK-NEXT:       %119 = llvm.inline_asm has_side_effects "mov.u32 $0, %tid.x;", "=r"  : () -> i32
// CHECK-NEXT:       %120 = llvm.zext %119 : i32 to i64
// CHECK-NEXT:       %121 = llvm.trunc %120 : i64 to i32
// CHECK-NEXT:       %122 = llvm.inline_asm has_side_effects "mov.u32 $0, %tid.y;", "=r"  : () -> i32
// CHECK-NEXT:       %123 = llvm.zext %122 : i32 to i64
// CHECK-NEXT:       %124 = llvm.trunc %123 : i64 to i32
// CHECK-NEXT:       %125 = llvm.inline_asm has_side_effects "mov.u32 $0, %tid.z;", "=r"  : () -> i32
// CHECK-NEXT:       %126 = llvm.zext %125 : i32 to i64
// CHECK-NEXT:       %127 = llvm.trunc %126 : i64 to i32
// CHECK-NEXT:       %128 = llvm.getelementptr %arg1[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %107, %128 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %129 = llvm.getelementptr %arg1[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %112, %129 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %130 = llvm.getelementptr %arg1[3] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %115, %130 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %131 = llvm.getelementptr %arg1[4] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %118, %131 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %132 = llvm.getelementptr %arg1[5] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %121, %132 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %133 = llvm.getelementptr %arg1[6] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %124, %133 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %134 = llvm.getelementptr %arg1[7] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %127, %134 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %135 = llvm.getelementptr %arg1[4] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
// CHECK-NEXT:       llvm.store %16, %135 : i64, !llvm.ptr<1>
// CHECK-NEXT:       %136 = llvm.getelementptr %arg1[5] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
// CHECK-NEXT:       llvm.store %16, %136 : i64, !llvm.ptr<1>
// CHECK-NEXT:       %137 = llvm.getelementptr %arg1[6] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
// CHECK-NEXT:       %138 = llvm.load %137 : !llvm.ptr<1> -> i64
// CHECK-NEXT:       %139 = llvm.icmp "ne" %138, %16 : i64
// CHECK-NEXT:       llvm.cond_br %139, ^bb8, ^bb5
// CHECK-NEXT:     ^bb8:  // pred: ^bb7
// CHECK-NEXT:       %140 = llvm.inttoptr %138 : i64 to !llvm.ptr<1>
// CHECK-NEXT:       llvm.store %11, %140 : i32, !llvm.ptr<1>
// CHECK-NEXT:       llvm.br ^bb5
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
