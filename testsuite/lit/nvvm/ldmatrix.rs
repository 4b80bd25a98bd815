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
// CHECK-NEXT:       %15 = llvm.mlir.constant(16 : i64) : i64
// CHECK-NEXT:       %16 = llvm.mlir.addressof @shared_11_20_f16_512 : !llvm.ptr<3>
// CHECK-NEXT:       %17 = llvm.addrspacecast %arg0 : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:       %18 = llvm.addrspacecast %16 : !llvm.ptr<3> to !llvm.ptr
// CHECK-NEXT:       %19 = nvvm.read.ptx.sreg.laneid range <i32, 0, 32> : i32
// CHECK-NEXT:       %20 = llvm.sext %19 : i32 to i64
// CHECK-NEXT:       %21 = llvm.trunc %20 : i64 to i32
// CHECK-NEXT:       %22 = llvm.and %21, %14 : i32
// CHECK-NEXT:       %23 = llvm.and %22, %13 : i32
// CHECK-NEXT:       %24 = llvm.zext %23 : i32 to i64
// CHECK-NEXT:       %25 = llvm.mul %24, %15 : i64
// CHECK-NEXT:       %26 = llvm.and %22, %12 : i32
// CHECK-NEXT:       %27 = llvm.lshr %26, %11 : i32
// CHECK-NEXT:       %28 = llvm.zext %27 : i32 to i64
// CHECK-NEXT:       %29 = llvm.add %25, %28 : i64
// CHECK-NEXT:       %30 = llvm.getelementptr %16[%29] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
// CHECK-NEXT:       %31 = nvvm.ldmatrix %30 {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:       %32 = llvm.extractvalue %31[0] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:       %33 = llvm.bitcast %32 : i32 to vector<2xf16>
// CHECK-NEXT:       %34 = llvm.extractelement %33[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %35 = llvm.extractelement %33[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %36 = llvm.extractvalue %31[1] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:       %37 = llvm.bitcast %36 : i32 to vector<2xf16>
// CHECK-NEXT:       %38 = llvm.extractelement %37[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %39 = llvm.extractelement %37[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %40 = llvm.extractvalue %31[2] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:       %41 = llvm.bitcast %40 : i32 to vector<2xf16>
// CHECK-NEXT:       %42 = llvm.extractelement %41[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %43 = llvm.extractelement %41[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %44 = llvm.extractvalue %31[3] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:       %45 = llvm.bitcast %44 : i32 to vector<2xf16>
// CHECK-NEXT:       %46 = llvm.extractelement %45[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %47 = llvm.extractelement %45[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %48 = llvm.getelementptr inbounds %18[256] : (!llvm.ptr) -> !llvm.ptr, f16
// CHECK-NEXT:       %49 = llvm.addrspacecast %48 : !llvm.ptr to !llvm.ptr<3>
// CHECK-NEXT:       %50 = nvvm.read.ptx.sreg.laneid range <i32, 0, 32> : i32
// CHECK-NEXT:       %51 = llvm.sext %50 : i32 to i64
// CHECK-NEXT:       %52 = llvm.trunc %51 : i64 to i32
// CHECK-NEXT:       %53 = llvm.and %52, %14 : i32
// CHECK-NEXT:       %54 = llvm.and %53, %13 : i32
// CHECK-NEXT:       %55 = llvm.zext %54 : i32 to i64
// CHECK-NEXT:       %56 = llvm.mul %55, %8 : i64
// CHECK-NEXT:       %57 = llvm.getelementptr %49[%56] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
// CHECK-NEXT:       %58 = nvvm.ldmatrix %57 {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 2 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// CHECK-NEXT:       %59 = llvm.extractvalue %58[0] : !llvm.struct<(i32, i32)>
// CHECK-NEXT:       %60 = llvm.bitcast %59 : i32 to vector<2xf16>
// CHECK-NEXT:       %61 = llvm.extractelement %60[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %62 = llvm.extractelement %60[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %63 = llvm.extractvalue %58[1] : !llvm.struct<(i32, i32)>
// CHECK-NEXT:       %64 = llvm.bitcast %63 : i32 to vector<2xf16>
// CHECK-NEXT:       %65 = llvm.extractelement %64[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %66 = llvm.extractelement %64[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %67 = llvm.insertelement %34, %6[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %68 = llvm.insertelement %35, %67[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %69 = llvm.insertelement %38, %6[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %70 = llvm.insertelement %39, %69[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %71 = llvm.insertelement %42, %6[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %72 = llvm.insertelement %43, %71[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %73 = llvm.insertelement %46, %6[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %74 = llvm.insertelement %47, %73[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %75 = llvm.insertelement %61, %6[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %76 = llvm.insertelement %62, %75[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %77 = llvm.insertelement %65, %6[%10 : i32] : vector<2xf16>
// CHECK-NEXT:       %78 = llvm.insertelement %66, %77[%9 : i32] : vector<2xf16>
// CHECK-NEXT:       %79 = nvvm.mma.sync A[%68, %70, %72, %74]  B[%76, %78]  C[%7, %7, %7, %7]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:       %80 = llvm.extractvalue %79[0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:       %81 = llvm.extractvalue %79[1] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:       %82 = llvm.extractvalue %79[2] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:       %83 = llvm.extractvalue %79[3] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:       %84 = llvm.ptrtoint %17 : !llvm.ptr to i64
// CHECK-NEXT:       %85 = llvm.and %84, %5 : i64
// CHECK-NEXT:       %86 = llvm.icmp "eq" %85, %4 : i64
// CHECK-NEXT:       llvm.cond_br %86, ^bb1, ^bb2
// CHECK-NEXT:     ^bb1:  // pred: ^bb0
// CHECK-NEXT:       %87 = llvm.insertelement %80, %0[%4 : i64] : vector<4xf32>
// CHECK-NEXT:       %88 = llvm.insertelement %81, %87[%3 : i64] : vector<4xf32>
// CHECK-NEXT:       %89 = llvm.insertelement %82, %88[%2 : i64] : vector<4xf32>
// CHECK-NEXT:       %90 = llvm.insertelement %83, %89[%1 : i64] : vector<4xf32>
// CHECK-NEXT:       llvm.store %90, %17 {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr
// CHECK-NEXT:       llvm.br ^bb3
// CHECK-NEXT:     ^bb2:  // pred: ^bb0
// CHECK-NEXT:       %91 = llvm.getelementptr inbounds %17[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       llvm.store %80, %91 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %92 = llvm.getelementptr inbounds %17[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       llvm.store %81, %92 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %93 = llvm.getelementptr inbounds %17[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       llvm.store %82, %93 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %94 = llvm.getelementptr inbounds %17[0, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       llvm.store %83, %94 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       llvm.br ^bb3
// CHECK-NEXT:     ^bb3:  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT:       llvm.return
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
