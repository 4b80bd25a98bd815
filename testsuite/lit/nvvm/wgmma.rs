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
// CHECK-NEXT:       %37 = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:       %38 = llvm.mlir.constant(16383 : i64) : i64
// CHECK-NEXT:       %39 = llvm.mlir.constant(4 : i64) : i64
// CHECK-NEXT:       %40 = llvm.mlir.constant(15 : i64) : i64
// CHECK-NEXT:       %41 = llvm.mlir.constant(127 : i64) : i64
// CHECK-NEXT:       %42 = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:       %43 = llvm.mlir.constant(true) : i1
// CHECK-NEXT:       %44 = llvm.mlir.constant(32 : i64) : i64
// CHECK-NEXT:       %45 = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:       %46 = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK-NEXT:       %47 = llvm.mlir.addressof @shared_13_17_f16_1024 : !llvm.ptr<3>
// CHECK-NEXT:       %48 = llvm.mlir.addressof @shared_12_17_f16_1024 : !llvm.ptr<3>
// CHECK-NEXT:       %49 = llvm.mlir.constant(0 : index) : i64
// CHECK-NEXT:       %50 = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:       %51 = llvm.alloca %50 x !llvm.array<32 x f32> {alignment = 16 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:       %52 = llvm.alloca %50 x !llvm.array<32 x f32> {alignment = 16 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:       %53 = llvm.alloca %50 x !llvm.array<32 x f32> {alignment = 16 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:       %54 = llvm.addrspacecast %arg0 : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:       %55 = llvm.addrspacecast %48 : !llvm.ptr<3> to !llvm.ptr
// CHECK-NEXT:       %56 = llvm.addrspacecast %47 : !llvm.ptr<3> to !llvm.ptr
// CHECK-NEXT:       llvm.inline_asm has_side_effects "fence.proxy.async.shared::cta;", "~{memory}"  : () -> ()
// CHECK-NEXT:       nvvm.barrier0
// CHECK-NEXT:       llvm.inline_asm has_side_effects "wgmma.fence.sync.aligned;", "~{memory}"  : () -> ()
// CHECK-NEXT:       %57 = llvm.extractvalue %10[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %58 = llvm.getelementptr inbounds|nuw %57[%49] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:       llvm.store %45, %58 : i64, !llvm.ptr
// CHECK-NEXT:       llvm.br ^bb1
// CHECK-NEXT:     ^bb1:  // 2 preds: ^bb0, ^bb4
// CHECK-NEXT:       %59 = llvm.extractvalue %10[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %60 = llvm.getelementptr inbounds|nuw %59[%49] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:       %61 = llvm.load %60 : !llvm.ptr -> i64
// CHECK-NEXT:       %62 = llvm.icmp "ult" %61, %44 : i64
// CHECK-NEXT:       %63 = llvm.xor %62, %43 : i1
// CHECK-NEXT:       llvm.cond_br %63, ^bb2, ^bb3
// CHECK-NEXT:     ^bb2:  // pred: ^bb1
// CHECK-NEXT:       llvm.br ^bb5
// CHECK-NEXT:     ^bb3:  // pred: ^bb1
// CHECK-NEXT:       llvm.br ^bb4
// CHECK-NEXT:     ^bb4:  // pred: ^bb3
// CHECK-NEXT:       %64 = llvm.getelementptr inbounds %51[%61] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %46, %64 {alignment = 4 : i64, rk.local = 10 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %65 = llvm.add %61, %42 : i64
// CHECK-NEXT:       %66 = llvm.extractvalue %10[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %67 = llvm.getelementptr inbounds|nuw %66[%49] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:       llvm.store %65, %67 : i64, !llvm.ptr
// CHECK-NEXT:       llvm.br ^bb1 {loop_annotation = #loop_annotation}
// CHECK-NEXT:     ^bb5:  // pred: ^bb2
// CHECK-NEXT:       %68 = nvvm.read.ptx.sreg.ntid.x : i32
// CHECK-NEXT:       %69 = llvm.sext %68 : i32 to i64
// CHECK-NEXT:       %70 = llvm.trunc %69 : i64 to i32
// CHECK-NEXT:       %71 = llvm.zext %70 : i32 to i64
// CHECK-NEXT:       %72 = nvvm.read.ptx.sreg.ntid.y : i32
// CHECK-NEXT:       %73 = llvm.sext %72 : i32 to i64
// CHECK-NEXT:       %74 = llvm.trunc %73 : i64 to i32
// CHECK-NEXT:       %75 = llvm.zext %74 : i32 to i64
// CHECK-NEXT:       %76 = llvm.mul %71, %75 : i64
// CHECK-NEXT:       %77 = nvvm.read.ptx.sreg.ntid.z : i32
// CHECK-NEXT:       %78 = llvm.sext %77 : i32 to i64
// CHECK-NEXT:       %79 = llvm.trunc %78 : i64 to i32
// CHECK-NEXT:       %80 = llvm.zext %79 : i32 to i64
// CHECK-NEXT:       %81 = llvm.mul %76, %80 : i64
// CHECK-NEXT:       %82 = llvm.and %81, %41 : i64
// CHECK-NEXT:       %83 = llvm.icmp "eq" %82, %45 : i64
// CHECK-NEXT:       %84 = llvm.zext %83 : i1 to i32
// CHECK-NEXT:       %85 = llvm.ptrtoint %arg1 : !llvm.ptr<1> to i64
// CHECK-NEXT:       llvm.inline_asm has_side_effects "{ .reg .pred f, w, m; .reg .b32 o, t, lo, hi; .reg .b64 fl; setp.eq.u32 f, $0, 0; @f atom.relaxed.sys.global.cas.b32 o, [$1], 0, 1; setp.eq.and.u32 w, o, 0, f; @w st.global.b32 [$1+4], 0; mov.u32 t, %ctaid.x; @w st.global.b32 [$1+8], t; mov.u32 t, %ctaid.y; @w st.global.b32 [$1+12], t; mov.u32 t, %ctaid.z; @w st.global.b32 [$1+16], t; mov.u32 t, %tid.x; @w st.global.b32 [$1+20], t; mov.u32 t, %tid.y; @w st.global.b32 [$1+24], t; mov.u32 t, %tid.z; @w st.global.b32 [$1+28], t; mov.b64 {lo, hi}, $2; @w st.global.b32 [$1+32], lo; @w st.global.b32 [$1+36], hi; mov.b64 {lo, hi}, $3; @w st.global.b32 [$1+40], lo; @w st.global.b32 [$1+44], hi; @w ld.global.b32 lo, [$1+48]; @w ld.global.b32 hi, [$1+52]; mov.b64 fl, {lo, hi}; setp.ne.and.u64 m, fl, 0, w; @m st.global.b32 [fl], 1; @f exit; }", "r,l,l,l,~{memory}" %84, %85, %45, %45 : (i32, i64, i64, i64) -> ()
// CHECK-NEXT:       %86 = llvm.ptrtoint %55 : !llvm.ptr to i64
// CHECK-NEXT:       %87 = llvm.ptrtoint %56 : !llvm.ptr to i64
// CHECK-NEXT:       %88 = llvm.or %86, %87 : i64
// CHECK-NEXT:       %89 = llvm.and %88, %40 : i64
// CHECK-NEXT:       %90 = llvm.icmp "eq" %89, %45 : i64
// CHECK-NEXT:       %91 = llvm.zext %90 : i1 to i32
// CHECK-NEXT:       %92 = llvm.ptrtoint %arg1 : !llvm.ptr<1> to i64
// CHECK-NEXT:       llvm.inline_asm has_side_effects "{ .reg .pred f, w, m; .reg .b32 o, t, lo, hi; .reg .b64 fl; setp.eq.u32 f, $0, 0; @f atom.relaxed.sys.global.cas.b32 o, [$1], 0, 1; setp.eq.and.u32 w, o, 0, f; @w st.global.b32 [$1+4], 1; mov.u32 t, %ctaid.x; @w st.global.b32 [$1+8], t; mov.u32 t, %ctaid.y; @w st.global.b32 [$1+12], t; mov.u32 t, %ctaid.z; @w st.global.b32 [$1+16], t; mov.u32 t, %tid.x; @w st.global.b32 [$1+20], t; mov.u32 t, %tid.y; @w st.global.b32 [$1+24], t; mov.u32 t, %tid.z; @w st.global.b32 [$1+28], t; mov.b64 {lo, hi}, $2; @w st.global.b32 [$1+32], lo; @w st.global.b32 [$1+36], hi; mov.b64 {lo, hi}, $3; @w st.global.b32 [$1+40], lo; @w st.global.b32 [$1+44], hi; @w ld.global.b32 lo, [$1+48]; @w ld.global.b32 hi, [$1+52]; mov.b64 fl, {lo, hi}; setp.ne.and.u64 m, fl, 0, w; @m st.global.b32 [fl], 1; @f exit; }", "r,l,l,l,~{memory}" %91, %92, %45, %45 : (i32, i64, i64, i64) -> ()
// CHECK-NEXT:       %93 = llvm.ptrtoint %arg1 : !llvm.ptr<1> to i64
// CHECK-NEXT:       llvm.inline_asm has_side_effects "{ .reg .pred f, w, m; .reg .b32 o, t, lo, hi; .reg .b64 fl; setp.eq.u32 f, $0, 0; @f atom.relaxed.sys.global.cas.b32 o, [$1], 0, 1; setp.eq.and.u32 w, o, 0, f; @w st.global.b32 [$1+4], 2; mov.u32 t, %ctaid.x; @w st.global.b32 [$1+8], t; mov.u32 t, %ctaid.y; @w st.global.b32 [$1+12], t; mov.u32 t, %ctaid.z; @w st.global.b32 [$1+16], t; mov.u32 t, %tid.x; @w st.global.b32 [$1+20], t; mov.u32 t, %tid.y; @w st.global.b32 [$1+24], t; mov.u32 t, %tid.z; @w st.global.b32 [$1+28], t; mov.b64 {lo, hi}, $2; @w st.global.b32 [$1+32], lo; @w st.global.b32 [$1+36], hi; mov.b64 {lo, hi}, $3; @w st.global.b32 [$1+40], lo; @w st.global.b32 [$1+44], hi; @w ld.global.b32 lo, [$1+48]; @w ld.global.b32 hi, [$1+52]; mov.b64 fl, {lo, hi}; setp.ne.and.u64 m, fl, 0, w; @m st.global.b32 [fl], 1; @f exit; }", "r,l,l,l,~{memory}" %37, %93, %45, %45 : (i32, i64, i64, i64) -> ()
// CHECK-NEXT:       %94 = llvm.load %51 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %95 = llvm.getelementptr inbounds %51[1] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %96 = llvm.load %95 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %97 = llvm.getelementptr inbounds %51[2] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %98 = llvm.load %97 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %99 = llvm.getelementptr inbounds %51[3] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %100 = llvm.load %99 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %101 = llvm.getelementptr inbounds %51[4] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %102 = llvm.load %101 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %103 = llvm.getelementptr inbounds %51[5] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %104 = llvm.load %103 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %105 = llvm.getelementptr inbounds %51[6] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %106 = llvm.load %105 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %107 = llvm.getelementptr inbounds %51[7] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %108 = llvm.load %107 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %109 = llvm.getelementptr inbounds %51[8] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %110 = llvm.load %109 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %111 = llvm.getelementptr inbounds %51[9] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %112 = llvm.load %111 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %113 = llvm.getelementptr inbounds %51[10] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %114 = llvm.load %113 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %115 = llvm.getelementptr inbounds %51[11] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %116 = llvm.load %115 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %117 = llvm.getelementptr inbounds %51[12] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %118 = llvm.load %117 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %119 = llvm.getelementptr inbounds %51[13] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %120 = llvm.load %119 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %121 = llvm.getelementptr inbounds %51[14] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %122 = llvm.load %121 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %123 = llvm.getelementptr inbounds %51[15] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %124 = llvm.load %123 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %125 = llvm.getelementptr inbounds %51[16] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %126 = llvm.load %125 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %127 = llvm.getelementptr inbounds %51[17] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %128 = llvm.load %127 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %129 = llvm.getelementptr inbounds %51[18] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %130 = llvm.load %129 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %131 = llvm.getelementptr inbounds %51[19] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %132 = llvm.load %131 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %133 = llvm.getelementptr inbounds %51[20] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %134 = llvm.load %133 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %135 = llvm.getelementptr inbounds %51[21] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %136 = llvm.load %135 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %137 = llvm.getelementptr inbounds %51[22] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %138 = llvm.load %137 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %139 = llvm.getelementptr inbounds %51[23] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %140 = llvm.load %139 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %141 = llvm.getelementptr inbounds %51[24] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %142 = llvm.load %141 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %143 = llvm.getelementptr inbounds %51[25] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %144 = llvm.load %143 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %145 = llvm.getelementptr inbounds %51[26] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %146 = llvm.load %145 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %147 = llvm.getelementptr inbounds %51[27] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %148 = llvm.load %147 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %149 = llvm.getelementptr inbounds %51[28] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %150 = llvm.load %149 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %151 = llvm.getelementptr inbounds %51[29] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %152 = llvm.load %151 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %153 = llvm.getelementptr inbounds %51[30] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %154 = llvm.load %153 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %155 = llvm.getelementptr inbounds %51[31] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       %156 = llvm.load %155 {alignment = 4 : i64, rk.local = 10 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %157 = llvm.ptrtoint %48 : !llvm.ptr<3> to i32
// CHECK-NEXT:       %158 = llvm.zext %157 : i32 to i64
// CHECK-NEXT:       %159 = llvm.lshr %158, %39 : i64
// CHECK-NEXT:       %160 = llvm.and %159, %38 : i64
// CHECK-NEXT:       %161 = llvm.or %160, %36 : i64
// CHECK-NEXT:       %162 = llvm.or %161, %35 : i64
// CHECK-NEXT:       %163 = llvm.ptrtoint %47 : !llvm.ptr<3> to i32
// CHECK-NEXT:       %164 = llvm.zext %163 : i32 to i64
// CHECK-NEXT:       %165 = llvm.lshr %164, %39 : i64
// CHECK-NEXT:       %166 = llvm.and %165, %38 : i64
// CHECK-NEXT:       %167 = llvm.or %166, %34 : i64
// CHECK-NEXT:       %168 = llvm.or %167, %33 : i64
// CHECK-NEXT:       %169 = llvm.inline_asm has_side_effects "{ .reg .pred p; setp.ne.b32 p, $34, 0; wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $32, $33, p, 1, 1, 0, 1; }", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,l,l,r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31" %162, %168, %37, %94, %96, %98, %100, %102, %104, %106, %108, %110, %112, %114, %116, %118, %120, %122, %124, %126, %128, %130, %132, %134, %136, %138, %140, %142, %144, %146, %148, %150, %152, %154, %156 : (i64, i64, i32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %170 = llvm.extractvalue %169[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %171 = llvm.extractvalue %169[1] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %172 = llvm.extractvalue %169[2] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %173 = llvm.extractvalue %169[3] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %174 = llvm.extractvalue %169[4] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %175 = llvm.extractvalue %169[5] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %176 = llvm.extractvalue %169[6] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %177 = llvm.extractvalue %169[7] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %178 = llvm.extractvalue %169[8] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %179 = llvm.extractvalue %169[9] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %180 = llvm.extractvalue %169[10] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %181 = llvm.extractvalue %169[11] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %182 = llvm.extractvalue %169[12] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %183 = llvm.extractvalue %169[13] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %184 = llvm.extractvalue %169[14] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %185 = llvm.extractvalue %169[15] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %186 = llvm.extractvalue %169[16] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %187 = llvm.extractvalue %169[17] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %188 = llvm.extractvalue %169[18] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %189 = llvm.extractvalue %169[19] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %190 = llvm.extractvalue %169[20] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %191 = llvm.extractvalue %169[21] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %192 = llvm.extractvalue %169[22] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %193 = llvm.extractvalue %169[23] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %194 = llvm.extractvalue %169[24] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %195 = llvm.extractvalue %169[25] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %196 = llvm.extractvalue %169[26] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %197 = llvm.extractvalue %169[27] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %198 = llvm.extractvalue %169[28] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %199 = llvm.extractvalue %169[29] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %200 = llvm.extractvalue %169[30] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       %201 = llvm.extractvalue %169[31] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:       llvm.store %170, %52 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %202 = llvm.getelementptr inbounds %52[1] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %171, %202 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %203 = llvm.getelementptr inbounds %52[2] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %172, %203 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %204 = llvm.getelementptr inbounds %52[3] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %173, %204 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %205 = llvm.getelementptr inbounds %52[4] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %174, %205 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %206 = llvm.getelementptr inbounds %52[5] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %175, %206 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %207 = llvm.getelementptr inbounds %52[6] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %176, %207 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %208 = llvm.getelementptr inbounds %52[7] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %177, %208 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %209 = llvm.getelementptr inbounds %52[8] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %178, %209 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %210 = llvm.getelementptr inbounds %52[9] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %179, %210 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %211 = llvm.getelementptr inbounds %52[10] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %180, %211 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %212 = llvm.getelementptr inbounds %52[11] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %181, %212 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %213 = llvm.getelementptr inbounds %52[12] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %182, %213 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %214 = llvm.getelementptr inbounds %52[13] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %183, %214 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %215 = llvm.getelementptr inbounds %52[14] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %184, %215 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %216 = llvm.getelementptr inbounds %52[15] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %185, %216 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %217 = llvm.getelementptr inbounds %52[16] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %186, %217 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %218 = llvm.getelementptr inbounds %52[17] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %187, %218 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %219 = llvm.getelementptr inbounds %52[18] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %188, %219 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %220 = llvm.getelementptr inbounds %52[19] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %189, %220 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %221 = llvm.getelementptr inbounds %52[20] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %190, %221 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %222 = llvm.getelementptr inbounds %52[21] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %191, %222 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %223 = llvm.getelementptr inbounds %52[22] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %192, %223 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %224 = llvm.getelementptr inbounds %52[23] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %193, %224 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %225 = llvm.getelementptr inbounds %52[24] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %194, %225 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %226 = llvm.getelementptr inbounds %52[25] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %195, %226 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %227 = llvm.getelementptr inbounds %52[26] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %196, %227 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %228 = llvm.getelementptr inbounds %52[27] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %197, %228 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %229 = llvm.getelementptr inbounds %52[28] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %198, %229 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %230 = llvm.getelementptr inbounds %52[29] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %199, %230 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %231 = llvm.getelementptr inbounds %52[30] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %200, %231 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %232 = llvm.getelementptr inbounds %52[31] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %201, %232 {alignment = 4 : i64, rk.local = 176 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %233 = llvm.extractvalue %21[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %234 = llvm.getelementptr inbounds|nuw %233[%49] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:       llvm.store %45, %234 : i64, !llvm.ptr
// CHECK-NEXT:       llvm.br ^bb6
// CHECK-NEXT:     ^bb6:  // 2 preds: ^bb5, ^bb9
// CHECK-NEXT:       %235 = llvm.extractvalue %21[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %236 = llvm.getelementptr inbounds|nuw %235[%49] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:       %237 = llvm.load %236 : !llvm.ptr -> i64
// CHECK-NEXT:       %238 = llvm.icmp "ult" %237, %44 : i64
// CHECK-NEXT:       %239 = llvm.xor %238, %43 : i1
// CHECK-NEXT:       llvm.cond_br %239, ^bb7, ^bb8
// CHECK-NEXT:     ^bb7:  // pred: ^bb6
// CHECK-NEXT:       llvm.br ^bb10
// CHECK-NEXT:     ^bb8:  // pred: ^bb6
// CHECK-NEXT:       llvm.br ^bb9
// CHECK-NEXT:     ^bb9:  // pred: ^bb8
// CHECK-NEXT:       %240 = llvm.getelementptr inbounds %52[%237] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %241 = llvm.getelementptr inbounds %53[%237] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %242 = llvm.load %240 {alignment = 4 : i64, rk.local = 176 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       llvm.store %242, %241 {alignment = 4 : i64, rk.local = 241 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %243 = llvm.add %237, %42 : i64
// CHECK-NEXT:       %244 = llvm.extractvalue %21[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %245 = llvm.getelementptr inbounds|nuw %244[%49] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:       llvm.store %243, %245 : i64, !llvm.ptr
// CHECK-NEXT:       llvm.br ^bb6 {loop_annotation = #loop_annotation}
// CHECK-NEXT:     ^bb10:  // pred: ^bb7
// CHECK-NEXT:       %246 = llvm.extractvalue %32[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %247 = llvm.getelementptr inbounds|nuw %246[%49] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:       llvm.store %45, %247 : i64, !llvm.ptr
// CHECK-NEXT:       llvm.br ^bb11
// CHECK-NEXT:     ^bb11:  // 2 preds: ^bb10, ^bb14
// CHECK-NEXT:       %248 = llvm.extractvalue %32[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %249 = llvm.getelementptr inbounds|nuw %248[%49] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:       %250 = llvm.load %249 : !llvm.ptr -> i64
// CHECK-NEXT:       %251 = llvm.icmp "ult" %250, %44 : i64
// CHECK-NEXT:       %252 = llvm.xor %251, %43 : i1
// CHECK-NEXT:       llvm.cond_br %252, ^bb12, ^bb13
// CHECK-NEXT:     ^bb12:  // pred: ^bb11
// CHECK-NEXT:       llvm.br ^bb15
// CHECK-NEXT:     ^bb13:  // pred: ^bb11
// CHECK-NEXT:       llvm.br ^bb14
// CHECK-NEXT:     ^bb14:  // pred: ^bb13
// CHECK-NEXT:       %253 = llvm.getelementptr inbounds %53[%250] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %254 = llvm.getelementptr inbounds %54[%250] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %255 = llvm.load %253 {alignment = 4 : i64, rk.local = 241 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       llvm.store %255, %254 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %256 = llvm.add %250, %42 : i64
// CHECK-NEXT:       %257 = llvm.extractvalue %32[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:       %258 = llvm.getelementptr inbounds|nuw %257[%49] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:       llvm.store %256, %258 : i64, !llvm.ptr
// CHECK-NEXT:       llvm.br ^bb11 {loop_annotation = #loop_annotation}
// CHECK-NEXT:     ^bb15:  // pred: ^bb12
// CHECK-NEXT:       llvm.inline_asm has_side_effects "wgmma.commit_group.sync.aligned;", "~{memory}"  : () -> ()
// CHECK-NEXT:       llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0;", "~{memory}"  : () -> ()
// CHECK-NEXT:       llvm.return
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
