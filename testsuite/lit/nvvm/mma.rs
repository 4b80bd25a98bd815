// Warp matrix multiplies on sm_80 and later: one `mma.sync.aligned.m16n8k16` each, the f16
// pairs packed into 32-bit registers, bf16 pairs as i32.
// RUN: rkc %s --offload-arch sm_90 --emit=nvvm -C checks=off
use half::{bf16, f16};
use rkc_offload::prelude::*;

#[offload_kernel]
pub fn k(a: &[f16; 8], b: &[f16; 4], x: &[bf16; 8], y: &[bf16; 4], out: &mut [f32; 4]) {
    unsafe {
        let d = mma_m16n8k16_f16(*a, *b, [0.0; 4]);
        *out = mma_m16n8k16_bf16(*x, *y, d);
    }
}
// CHECK: module attributes {gpu.container_module} {
// CHECK-NEXT:   gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_90">] {
// CHECK-LABEL:     llvm.func @k(%arg0: !llvm.ptr<1>, %arg1: !llvm.ptr<1>, %arg2: !llvm.ptr<1>, %arg3: !llvm.ptr<1>, %arg4: !llvm.ptr<1>, %arg5: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
// CHECK-NEXT:       %0 = llvm.mlir.undef : vector<4xf32>
// CHECK-NEXT:       %1 = llvm.mlir.constant(3 : i64) : i64
// CHECK-NEXT:       %2 = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT:       %3 = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:       %4 = llvm.mlir.undef : vector<2xbf16>
// CHECK-NEXT:       %5 = llvm.mlir.undef : vector<2xf16>
// CHECK-NEXT:       %6 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:       %7 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:       %8 = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK-NEXT:       %9 = llvm.mlir.constant(48 : i64) : i64
// CHECK-NEXT:       %10 = llvm.mlir.constant(32 : i64) : i64
// CHECK-NEXT:       %11 = llvm.mlir.constant(16 : i64) : i64
// CHECK-NEXT:       %12 = llvm.mlir.constant(7 : i64) : i64
// CHECK-NEXT:       %13 = llvm.mlir.constant(112 : i128) : i128
// CHECK-NEXT:       %14 = llvm.mlir.constant(96 : i128) : i128
// CHECK-NEXT:       %15 = llvm.mlir.constant(80 : i128) : i128
// CHECK-NEXT:       %16 = llvm.mlir.constant(64 : i128) : i128
// CHECK-NEXT:       %17 = llvm.mlir.constant(48 : i128) : i128
// CHECK-NEXT:       %18 = llvm.mlir.constant(32 : i128) : i128
// CHECK-NEXT:       %19 = llvm.mlir.constant(16 : i128) : i128
// CHECK-NEXT:       %20 = llvm.mlir.constant(0 : i128) : i128
// CHECK-NEXT:       %21 = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:       %22 = llvm.mlir.constant(15 : i64) : i64
// CHECK-NEXT:       %23 = llvm.addrspacecast %arg0 : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:       %24 = llvm.addrspacecast %arg1 : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:       %25 = llvm.addrspacecast %arg2 : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:       %26 = llvm.addrspacecast %arg3 : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:       %27 = llvm.addrspacecast %arg4 : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:       %28 = llvm.ptrtoint %23 : !llvm.ptr to i64
// CHECK-NEXT:       %29 = llvm.and %28, %22 : i64
// CHECK-NEXT:       %30 = llvm.icmp "eq" %29, %21 : i64
// CHECK-NEXT:       llvm.cond_br %30, ^bb1, ^bb2
// CHECK-NEXT:     ^bb1:  // pred: ^bb0
// CHECK-NEXT:       %31 = llvm.load %23 {alignment = 16 : i64} : !llvm.ptr -> i128
// CHECK-NEXT:       %32 = llvm.lshr %31, %20 : i128
// CHECK-NEXT:       %33 = llvm.trunc %32 : i128 to i16
// CHECK-NEXT:       %34 = llvm.bitcast %33 : i16 to f16
// CHECK-NEXT:       %35 = llvm.lshr %31, %19 : i128
// CHECK-NEXT:       %36 = llvm.trunc %35 : i128 to i16
// CHECK-NEXT:       %37 = llvm.bitcast %36 : i16 to f16
// CHECK-NEXT:       %38 = llvm.lshr %31, %18 : i128
// CHECK-NEXT:       %39 = llvm.trunc %38 : i128 to i16
// CHECK-NEXT:       %40 = llvm.bitcast %39 : i16 to f16
// CHECK-NEXT:       %41 = llvm.lshr %31, %17 : i128
// CHECK-NEXT:       %42 = llvm.trunc %41 : i128 to i16
// CHECK-NEXT:       %43 = llvm.bitcast %42 : i16 to f16
// CHECK-NEXT:       %44 = llvm.lshr %31, %16 : i128
// CHECK-NEXT:       %45 = llvm.trunc %44 : i128 to i16
// CHECK-NEXT:       %46 = llvm.bitcast %45 : i16 to f16
// CHECK-NEXT:       %47 = llvm.lshr %31, %15 : i128
// CHECK-NEXT:       %48 = llvm.trunc %47 : i128 to i16
// CHECK-NEXT:       %49 = llvm.bitcast %48 : i16 to f16
// CHECK-NEXT:       %50 = llvm.lshr %31, %14 : i128
// CHECK-NEXT:       %51 = llvm.trunc %50 : i128 to i16
// CHECK-NEXT:       %52 = llvm.bitcast %51 : i16 to f16
// CHECK-NEXT:       %53 = llvm.lshr %31, %13 : i128
// CHECK-NEXT:       %54 = llvm.trunc %53 : i128 to i16
// CHECK-NEXT:       %55 = llvm.bitcast %54 : i16 to f16
// CHECK-NEXT:       llvm.br ^bb3(%34, %37, %40, %43, %46, %49, %52, %55 : f16, f16, f16, f16, f16, f16, f16, f16)
// CHECK-NEXT:     ^bb2:  // pred: ^bb0
// CHECK-NEXT:       %56 = llvm.getelementptr inbounds %23[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x f16>
// CHECK-NEXT:       %57 = llvm.load %56 {alignment = 2 : i64} : !llvm.ptr -> f16
// CHECK-NEXT:       %58 = llvm.getelementptr inbounds %23[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x f16>
// CHECK-NEXT:       %59 = llvm.load %58 {alignment = 2 : i64} : !llvm.ptr -> f16
// CHECK-NEXT:       %60 = llvm.getelementptr inbounds %23[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x f16>
// CHECK-NEXT:       %61 = llvm.load %60 {alignment = 2 : i64} : !llvm.ptr -> f16
// CHECK-NEXT:       %62 = llvm.getelementptr inbounds %23[0, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x f16>
// CHECK-NEXT:       %63 = llvm.load %62 {alignment = 2 : i64} : !llvm.ptr -> f16
// CHECK-NEXT:       %64 = llvm.getelementptr inbounds %23[0, 4] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x f16>
// CHECK-NEXT:       %65 = llvm.load %64 {alignment = 2 : i64} : !llvm.ptr -> f16
// CHECK-NEXT:       %66 = llvm.getelementptr inbounds %23[0, 5] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x f16>
// CHECK-NEXT:       %67 = llvm.load %66 {alignment = 2 : i64} : !llvm.ptr -> f16
// CHECK-NEXT:       %68 = llvm.getelementptr inbounds %23[0, 6] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x f16>
// CHECK-NEXT:       %69 = llvm.load %68 {alignment = 2 : i64} : !llvm.ptr -> f16
// CHECK-NEXT:       %70 = llvm.getelementptr inbounds %23[0, 7] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x f16>
// CHECK-NEXT:       %71 = llvm.load %70 {alignment = 2 : i64} : !llvm.ptr -> f16
// CHECK-NEXT:       llvm.br ^bb3(%57, %59, %61, %63, %65, %67, %69, %71 : f16, f16, f16, f16, f16, f16, f16, f16)
// CHECK-NEXT:     ^bb3(%72: f16, %73: f16, %74: f16, %75: f16, %76: f16, %77: f16, %78: f16, %79: f16):  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT:       %80 = llvm.ptrtoint %24 : !llvm.ptr to i64
// CHECK-NEXT:       %81 = llvm.and %80, %12 : i64
// CHECK-NEXT:       %82 = llvm.icmp "eq" %81, %21 : i64
// CHECK-NEXT:       llvm.cond_br %82, ^bb4, ^bb5
// CHECK-NEXT:     ^bb4:  // pred: ^bb3
// CHECK-NEXT:       %83 = llvm.load %24 {alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK-NEXT:       %84 = llvm.lshr %83, %21 : i64
// CHECK-NEXT:       %85 = llvm.trunc %84 : i64 to i16
// CHECK-NEXT:       %86 = llvm.bitcast %85 : i16 to f16
// CHECK-NEXT:       %87 = llvm.lshr %83, %11 : i64
// CHECK-NEXT:       %88 = llvm.trunc %87 : i64 to i16
// CHECK-NEXT:       %89 = llvm.bitcast %88 : i16 to f16
// CHECK-NEXT:       %90 = llvm.lshr %83, %10 : i64
// CHECK-NEXT:       %91 = llvm.trunc %90 : i64 to i16
// CHECK-NEXT:       %92 = llvm.bitcast %91 : i16 to f16
// CHECK-NEXT:       %93 = llvm.lshr %83, %9 : i64
// CHECK-NEXT:       %94 = llvm.trunc %93 : i64 to i16
// CHECK-NEXT:       %95 = llvm.bitcast %94 : i16 to f16
// CHECK-NEXT:       llvm.br ^bb6(%86, %89, %92, %95 : f16, f16, f16, f16)
// CHECK-NEXT:     ^bb5:  // pred: ^bb3
// CHECK-NEXT:       %96 = llvm.getelementptr inbounds %24[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f16>
// CHECK-NEXT:       %97 = llvm.load %96 {alignment = 2 : i64} : !llvm.ptr -> f16
// CHECK-NEXT:       %98 = llvm.getelementptr inbounds %24[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f16>
// CHECK-NEXT:       %99 = llvm.load %98 {alignment = 2 : i64} : !llvm.ptr -> f16
// CHECK-NEXT:       %100 = llvm.getelementptr inbounds %24[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f16>
// CHECK-NEXT:       %101 = llvm.load %100 {alignment = 2 : i64} : !llvm.ptr -> f16
// CHECK-NEXT:       %102 = llvm.getelementptr inbounds %24[0, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f16>
// CHECK-NEXT:       %103 = llvm.load %102 {alignment = 2 : i64} : !llvm.ptr -> f16
// CHECK-NEXT:       llvm.br ^bb6(%97, %99, %101, %103 : f16, f16, f16, f16)
// CHECK-NEXT:     ^bb6(%104: f16, %105: f16, %106: f16, %107: f16):  // 2 preds: ^bb4, ^bb5
// CHECK-NEXT:       %108 = llvm.insertelement %72, %5[%7 : i32] : vector<2xf16>
// CHECK-NEXT:       %109 = llvm.insertelement %73, %108[%6 : i32] : vector<2xf16>
// CHECK-NEXT:       %110 = llvm.insertelement %74, %5[%7 : i32] : vector<2xf16>
// CHECK-NEXT:       %111 = llvm.insertelement %75, %110[%6 : i32] : vector<2xf16>
// CHECK-NEXT:       %112 = llvm.insertelement %76, %5[%7 : i32] : vector<2xf16>
// CHECK-NEXT:       %113 = llvm.insertelement %77, %112[%6 : i32] : vector<2xf16>
// CHECK-NEXT:       %114 = llvm.insertelement %78, %5[%7 : i32] : vector<2xf16>
// CHECK-NEXT:       %115 = llvm.insertelement %79, %114[%6 : i32] : vector<2xf16>
// CHECK-NEXT:       %116 = llvm.insertelement %104, %5[%7 : i32] : vector<2xf16>
// CHECK-NEXT:       %117 = llvm.insertelement %105, %116[%6 : i32] : vector<2xf16>
// CHECK-NEXT:       %118 = llvm.insertelement %106, %5[%7 : i32] : vector<2xf16>
// CHECK-NEXT:       %119 = llvm.insertelement %107, %118[%6 : i32] : vector<2xf16>
// CHECK-NEXT:       %120 = nvvm.mma.sync A[%109, %111, %113, %115]  B[%117, %119]  C[%8, %8, %8, %8]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:       %121 = llvm.extractvalue %120[0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:       %122 = llvm.extractvalue %120[1] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:       %123 = llvm.extractvalue %120[2] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:       %124 = llvm.extractvalue %120[3] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:       %125 = llvm.ptrtoint %25 : !llvm.ptr to i64
// CHECK-NEXT:       %126 = llvm.and %125, %22 : i64
// CHECK-NEXT:       %127 = llvm.icmp "eq" %126, %21 : i64
// CHECK-NEXT:       llvm.cond_br %127, ^bb7, ^bb8
// CHECK-NEXT:     ^bb7:  // pred: ^bb6
// CHECK-NEXT:       %128 = llvm.load %25 {alignment = 16 : i64} : !llvm.ptr -> i128
// CHECK-NEXT:       %129 = llvm.lshr %128, %20 : i128
// CHECK-NEXT:       %130 = llvm.trunc %129 : i128 to i16
// CHECK-NEXT:       %131 = llvm.bitcast %130 : i16 to bf16
// CHECK-NEXT:       %132 = llvm.lshr %128, %19 : i128
// CHECK-NEXT:       %133 = llvm.trunc %132 : i128 to i16
// CHECK-NEXT:       %134 = llvm.bitcast %133 : i16 to bf16
// CHECK-NEXT:       %135 = llvm.lshr %128, %18 : i128
// CHECK-NEXT:       %136 = llvm.trunc %135 : i128 to i16
// CHECK-NEXT:       %137 = llvm.bitcast %136 : i16 to bf16
// CHECK-NEXT:       %138 = llvm.lshr %128, %17 : i128
// CHECK-NEXT:       %139 = llvm.trunc %138 : i128 to i16
// CHECK-NEXT:       %140 = llvm.bitcast %139 : i16 to bf16
// CHECK-NEXT:       %141 = llvm.lshr %128, %16 : i128
// CHECK-NEXT:       %142 = llvm.trunc %141 : i128 to i16
// CHECK-NEXT:       %143 = llvm.bitcast %142 : i16 to bf16
// CHECK-NEXT:       %144 = llvm.lshr %128, %15 : i128
// CHECK-NEXT:       %145 = llvm.trunc %144 : i128 to i16
// CHECK-NEXT:       %146 = llvm.bitcast %145 : i16 to bf16
// CHECK-NEXT:       %147 = llvm.lshr %128, %14 : i128
// CHECK-NEXT:       %148 = llvm.trunc %147 : i128 to i16
// CHECK-NEXT:       %149 = llvm.bitcast %148 : i16 to bf16
// CHECK-NEXT:       %150 = llvm.lshr %128, %13 : i128
// CHECK-NEXT:       %151 = llvm.trunc %150 : i128 to i16
// CHECK-NEXT:       %152 = llvm.bitcast %151 : i16 to bf16
// CHECK-NEXT:       llvm.br ^bb9(%131, %134, %137, %140, %143, %146, %149, %152 : bf16, bf16, bf16, bf16, bf16, bf16, bf16, bf16)
// CHECK-NEXT:     ^bb8:  // pred: ^bb6
// CHECK-NEXT:       %153 = llvm.getelementptr inbounds %25[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x bf16>
// CHECK-NEXT:       %154 = llvm.load %153 {alignment = 2 : i64} : !llvm.ptr -> bf16
// CHECK-NEXT:       %155 = llvm.getelementptr inbounds %25[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x bf16>
// CHECK-NEXT:       %156 = llvm.load %155 {alignment = 2 : i64} : !llvm.ptr -> bf16
// CHECK-NEXT:       %157 = llvm.getelementptr inbounds %25[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x bf16>
// CHECK-NEXT:       %158 = llvm.load %157 {alignment = 2 : i64} : !llvm.ptr -> bf16
// CHECK-NEXT:       %159 = llvm.getelementptr inbounds %25[0, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x bf16>
// CHECK-NEXT:       %160 = llvm.load %159 {alignment = 2 : i64} : !llvm.ptr -> bf16
// CHECK-NEXT:       %161 = llvm.getelementptr inbounds %25[0, 4] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x bf16>
// CHECK-NEXT:       %162 = llvm.load %161 {alignment = 2 : i64} : !llvm.ptr -> bf16
// CHECK-NEXT:       %163 = llvm.getelementptr inbounds %25[0, 5] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x bf16>
// CHECK-NEXT:       %164 = llvm.load %163 {alignment = 2 : i64} : !llvm.ptr -> bf16
// CHECK-NEXT:       %165 = llvm.getelementptr inbounds %25[0, 6] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x bf16>
// CHECK-NEXT:       %166 = llvm.load %165 {alignment = 2 : i64} : !llvm.ptr -> bf16
// CHECK-NEXT:       %167 = llvm.getelementptr inbounds %25[0, 7] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x bf16>
// CHECK-NEXT:       %168 = llvm.load %167 {alignment = 2 : i64} : !llvm.ptr -> bf16
// CHECK-NEXT:       llvm.br ^bb9(%154, %156, %158, %160, %162, %164, %166, %168 : bf16, bf16, bf16, bf16, bf16, bf16, bf16, bf16)
// CHECK-NEXT:     ^bb9(%169: bf16, %170: bf16, %171: bf16, %172: bf16, %173: bf16, %174: bf16, %175: bf16, %176: bf16):  // 2 preds: ^bb7, ^bb8
// CHECK-NEXT:       %177 = llvm.ptrtoint %26 : !llvm.ptr to i64
// CHECK-NEXT:       %178 = llvm.and %177, %12 : i64
// CHECK-NEXT:       %179 = llvm.icmp "eq" %178, %21 : i64
// CHECK-NEXT:       llvm.cond_br %179, ^bb10, ^bb11
// CHECK-NEXT:     ^bb10:  // pred: ^bb9
// CHECK-NEXT:       %180 = llvm.load %26 {alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK-NEXT:       %181 = llvm.lshr %180, %21 : i64
// CHECK-NEXT:       %182 = llvm.trunc %181 : i64 to i16
// CHECK-NEXT:       %183 = llvm.bitcast %182 : i16 to bf16
// CHECK-NEXT:       %184 = llvm.lshr %180, %11 : i64
// CHECK-NEXT:       %185 = llvm.trunc %184 : i64 to i16
// CHECK-NEXT:       %186 = llvm.bitcast %185 : i16 to bf16
// CHECK-NEXT:       %187 = llvm.lshr %180, %10 : i64
// CHECK-NEXT:       %188 = llvm.trunc %187 : i64 to i16
// CHECK-NEXT:       %189 = llvm.bitcast %188 : i16 to bf16
// CHECK-NEXT:       %190 = llvm.lshr %180, %9 : i64
// CHECK-NEXT:       %191 = llvm.trunc %190 : i64 to i16
// CHECK-NEXT:       %192 = llvm.bitcast %191 : i16 to bf16
// CHECK-NEXT:       llvm.br ^bb12(%183, %186, %189, %192 : bf16, bf16, bf16, bf16)
// CHECK-NEXT:     ^bb11:  // pred: ^bb9
// CHECK-NEXT:       %193 = llvm.getelementptr inbounds %26[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x bf16>
// CHECK-NEXT:       %194 = llvm.load %193 {alignment = 2 : i64} : !llvm.ptr -> bf16
// CHECK-NEXT:       %195 = llvm.getelementptr inbounds %26[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x bf16>
// CHECK-NEXT:       %196 = llvm.load %195 {alignment = 2 : i64} : !llvm.ptr -> bf16
// CHECK-NEXT:       %197 = llvm.getelementptr inbounds %26[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x bf16>
// CHECK-NEXT:       %198 = llvm.load %197 {alignment = 2 : i64} : !llvm.ptr -> bf16
// CHECK-NEXT:       %199 = llvm.getelementptr inbounds %26[0, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x bf16>
// CHECK-NEXT:       %200 = llvm.load %199 {alignment = 2 : i64} : !llvm.ptr -> bf16
// CHECK-NEXT:       llvm.br ^bb12(%194, %196, %198, %200 : bf16, bf16, bf16, bf16)
// CHECK-NEXT:     ^bb12(%201: bf16, %202: bf16, %203: bf16, %204: bf16):  // 2 preds: ^bb10, ^bb11
// CHECK-NEXT:       %205 = llvm.insertelement %169, %4[%7 : i32] : vector<2xbf16>
// CHECK-NEXT:       %206 = llvm.insertelement %170, %205[%6 : i32] : vector<2xbf16>
// CHECK-NEXT:       %207 = llvm.bitcast %206 : vector<2xbf16> to i32
// CHECK-NEXT:       %208 = llvm.insertelement %171, %4[%7 : i32] : vector<2xbf16>
// CHECK-NEXT:       %209 = llvm.insertelement %172, %208[%6 : i32] : vector<2xbf16>
// CHECK-NEXT:       %210 = llvm.bitcast %209 : vector<2xbf16> to i32
// CHECK-NEXT:       %211 = llvm.insertelement %173, %4[%7 : i32] : vector<2xbf16>
// CHECK-NEXT:       %212 = llvm.insertelement %174, %211[%6 : i32] : vector<2xbf16>
// CHECK-NEXT:       %213 = llvm.bitcast %212 : vector<2xbf16> to i32
// CHECK-NEXT:       %214 = llvm.insertelement %175, %4[%7 : i32] : vector<2xbf16>
// CHECK-NEXT:       %215 = llvm.insertelement %176, %214[%6 : i32] : vector<2xbf16>
// CHECK-NEXT:       %216 = llvm.bitcast %215 : vector<2xbf16> to i32
// CHECK-NEXT:       %217 = llvm.insertelement %201, %4[%7 : i32] : vector<2xbf16>
// CHECK-NEXT:       %218 = llvm.insertelement %202, %217[%6 : i32] : vector<2xbf16>
// CHECK-NEXT:       %219 = llvm.bitcast %218 : vector<2xbf16> to i32
// CHECK-NEXT:       %220 = llvm.insertelement %203, %4[%7 : i32] : vector<2xbf16>
// CHECK-NEXT:       %221 = llvm.insertelement %204, %220[%6 : i32] : vector<2xbf16>
// CHECK-NEXT:       %222 = llvm.bitcast %221 : vector<2xbf16> to i32
// CHECK-NEXT:       %223 = nvvm.mma.sync A[%207, %210, %213, %216]  B[%219, %222]  C[%121, %122, %123, %124]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:       %224 = llvm.extractvalue %223[0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:       %225 = llvm.extractvalue %223[1] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:       %226 = llvm.extractvalue %223[2] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:       %227 = llvm.extractvalue %223[3] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:       %228 = llvm.ptrtoint %27 : !llvm.ptr to i64
// CHECK-NEXT:       %229 = llvm.and %228, %22 : i64
// CHECK-NEXT:       %230 = llvm.icmp "eq" %229, %21 : i64
// CHECK-NEXT:       llvm.cond_br %230, ^bb13, ^bb14
// CHECK-NEXT:     ^bb13:  // pred: ^bb12
// CHECK-NEXT:       %231 = llvm.insertelement %224, %0[%21 : i64] : vector<4xf32>
// CHECK-NEXT:       %232 = llvm.insertelement %225, %231[%3 : i64] : vector<4xf32>
// CHECK-NEXT:       %233 = llvm.insertelement %226, %232[%2 : i64] : vector<4xf32>
// CHECK-NEXT:       %234 = llvm.insertelement %227, %233[%1 : i64] : vector<4xf32>
// CHECK-NEXT:       llvm.store %234, %27 {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr
// CHECK-NEXT:       llvm.br ^bb15
// CHECK-NEXT:     ^bb14:  // pred: ^bb12
// CHECK-NEXT:       %235 = llvm.getelementptr inbounds %27[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       llvm.store %224, %235 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %236 = llvm.getelementptr inbounds %27[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       llvm.store %225, %236 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %237 = llvm.getelementptr inbounds %27[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       llvm.store %226, %237 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %238 = llvm.getelementptr inbounds %27[0, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       llvm.store %227, %238 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       llvm.br ^bb15
// CHECK-NEXT:     ^bb15:  // 2 preds: ^bb13, ^bb14
// CHECK-NEXT:       llvm.return
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
