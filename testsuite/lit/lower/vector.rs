// A whole `[f32; 4]` of global memory, loaded or stored by a statement, is one 128-bit access
// when the slice's start is 16-byte aligned (tested once, on the slice's pointer: every element
// is then aligned), else four 4-byte ones as before. The load reads one `i128` and cuts it into
// the elements, so that LLVM cannot split it back into scalar loads.
// RUN: rkc-opt %s --passes=inline,simplify --emit=gpu
use rkc_offload::prelude::*;
#[offload_kernel]
fn copy4(i: usize, a: &[[f32; 4]], c: &mut [[f32; 4]]) {
    let x = a[i];
    c[i] = [x[3], x[2], x[1], x[0]];
}
// CHECK: module attributes {gpu.container_module} {
// CHECK-NEXT:   gpu.module @kernels {
// CHECK-LABEL:     gpu.func @copy4(%v0: i64, %v1_global: !llvm.ptr<1>, %v1_len: i64, %v4_global: !llvm.ptr<1>, %v4_len: i64, %panic_record: !llvm.ptr<1>) kernel {
// CHECK-NEXT:       %v1 = llvm.addrspacecast %v1_global : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:       %v4 = llvm.addrspacecast %v4_global : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:       %zero_index = arith.constant 0 : index
// CHECK-NEXT:       %t1 = arith.constant 0 : i64
// CHECK-NEXT:       %v3 = arith.addi %v1_len, %t1 : i64
// CHECK-NEXT:       %t2 = arith.constant 0 : i64
// CHECK-NEXT:       %v6 = arith.addi %v4_len, %t2 : i64
// CHECK-NEXT:       %t3 = arith.cmpi ult, %v0, %v3 : i64
// CHECK-NEXT:       %t4 = arith.cmpi ult, %v0, %v6 : i64
// CHECK-NEXT:       %t5 = arith.andi %t3, %t4 : i1
// CHECK-NEXT:       cf.cond_br %t5, ^bb1, ^bb2
// CHECK-NEXT:     ^bb2:
// CHECK-NEXT:       %t6 = arith.constant 0 : i32
// CHECK-NEXT:       cf.cond_br %t3, ^bb3, ^panic(%t6, %v0, %v3 : i32, i64, i64)
// CHECK-NEXT:     ^bb3:
// CHECK-NEXT:       %t7 = arith.constant 1 : i32
// CHECK-NEXT:       cf.cond_br %t4, ^bb4, ^panic(%t7, %v0, %v6 : i32, i64, i64)
// CHECK-NEXT:     ^bb4:
// CHECK-NEXT:       cf.br ^bb1
// CHECK-NEXT:     ^bb1:
// CHECK-NEXT:       %v2 = llvm.getelementptr %v1[0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT:       %v5 = llvm.getelementptr %v4[0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT:       %v7 = llvm.getelementptr inbounds %v2[%v0] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       %v9 = arith.constant 0 : i64
// CHECK-NEXT:       %v10 = llvm.getelementptr inbounds %v7[%v9] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %v13 = arith.constant 1 : i64
// CHECK-NEXT:       %v14 = llvm.getelementptr inbounds %v7[%v13] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %v17 = arith.constant 2 : i64
// CHECK-NEXT:       %v18 = llvm.getelementptr inbounds %v7[%v17] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %v21 = arith.constant 3 : i64
// CHECK-NEXT:       %v22 = llvm.getelementptr inbounds %v7[%v21] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %t8 = llvm.ptrtoint %v2 : !llvm.ptr to i64
// CHECK-NEXT:       %t9 = llvm.mlir.constant(15 : i64) : i64
// CHECK-NEXT:       %t10 = llvm.and %t8, %t9 : i64
// CHECK-NEXT:       %t11 = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:       %t12 = llvm.icmp "eq" %t10, %t11 : i64
// CHECK-NEXT:       cf.cond_br %t12, ^bb5, ^bb6
// CHECK-NEXT:     ^bb5:
// CHECK-NEXT:       %t13 = llvm.load %v7 {alignment = 16 : i64} : !llvm.ptr -> i128
// CHECK-NEXT:       %t14 = llvm.mlir.constant(0 : i128) : i128
// CHECK-NEXT:       %t15 = llvm.lshr %t13, %t14 : i128
// CHECK-NEXT:       %t16 = llvm.trunc %t15 : i128 to i32
// CHECK-NEXT:       %t17 = llvm.bitcast %t16 : i32 to f32
// CHECK-NEXT:       %t18 = llvm.mlir.constant(32 : i128) : i128
// CHECK-NEXT:       %t19 = llvm.lshr %t13, %t18 : i128
// CHECK-NEXT:       %t20 = llvm.trunc %t19 : i128 to i32
// CHECK-NEXT:       %t21 = llvm.bitcast %t20 : i32 to f32
// CHECK-NEXT:       %t22 = llvm.mlir.constant(64 : i128) : i128
// CHECK-NEXT:       %t23 = llvm.lshr %t13, %t22 : i128
// CHECK-NEXT:       %t24 = llvm.trunc %t23 : i128 to i32
// CHECK-NEXT:       %t25 = llvm.bitcast %t24 : i32 to f32
// CHECK-NEXT:       %t26 = llvm.mlir.constant(96 : i128) : i128
// CHECK-NEXT:       %t27 = llvm.lshr %t13, %t26 : i128
// CHECK-NEXT:       %t28 = llvm.trunc %t27 : i128 to i32
// CHECK-NEXT:       %t29 = llvm.bitcast %t28 : i32 to f32
// CHECK-NEXT:       cf.br ^bb7(%t17, %t21, %t25, %t29 : f32, f32, f32, f32)
// CHECK-NEXT:     ^bb6:
// CHECK-NEXT:       %t30 = llvm.getelementptr inbounds %v7[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       %t31 = llvm.load %t30 {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %t32 = llvm.getelementptr inbounds %v7[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       %t33 = llvm.load %t32 {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %t34 = llvm.getelementptr inbounds %v7[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       %t35 = llvm.load %t34 {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %t36 = llvm.getelementptr inbounds %v7[0, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       %t37 = llvm.load %t36 {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       cf.br ^bb7(%t31, %t33, %t35, %t37 : f32, f32, f32, f32)
// CHECK-NEXT:     ^bb7(%v12: f32, %v16: f32, %v20: f32, %v24: f32):
// CHECK-NEXT:       %v50 = llvm.getelementptr inbounds %v5[%v0] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       %v51 = arith.constant 0 : i64
// CHECK-NEXT:       %v53 = llvm.getelementptr inbounds %v50[%v51] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %v55 = arith.constant 1 : i64
// CHECK-NEXT:       %v57 = llvm.getelementptr inbounds %v50[%v55] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %v59 = arith.constant 2 : i64
// CHECK-NEXT:       %v61 = llvm.getelementptr inbounds %v50[%v59] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %v63 = arith.constant 3 : i64
// CHECK-NEXT:       %v65 = llvm.getelementptr inbounds %v50[%v63] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %t38 = llvm.ptrtoint %v5 : !llvm.ptr to i64
// CHECK-NEXT:       %t39 = llvm.mlir.constant(15 : i64) : i64
// CHECK-NEXT:       %t40 = llvm.and %t38, %t39 : i64
// CHECK-NEXT:       %t41 = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:       %t42 = llvm.icmp "eq" %t40, %t41 : i64
// CHECK-NEXT:       cf.cond_br %t42, ^bb8, ^bb9
// CHECK-NEXT:     ^bb8:
// CHECK-NEXT:       %t43 = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:       %t44 = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:       %t45 = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT:       %t46 = llvm.mlir.constant(3 : i64) : i64
// CHECK-NEXT:       %t47 = llvm.mlir.undef : vector<4xf32>
// CHECK-NEXT:       %t48 = llvm.insertelement %v24, %t47[%t43 : i64] : vector<4xf32>
// CHECK-NEXT:       %t49 = llvm.insertelement %v20, %t48[%t44 : i64] : vector<4xf32>
// CHECK-NEXT:       %t50 = llvm.insertelement %v16, %t49[%t45 : i64] : vector<4xf32>
// CHECK-NEXT:       %t51 = llvm.insertelement %v12, %t50[%t46 : i64] : vector<4xf32>
// CHECK-NEXT:       llvm.store %t51, %v50 {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr
// CHECK-NEXT:       cf.br ^bb10
// CHECK-NEXT:     ^bb9:
// CHECK-NEXT:       %t52 = llvm.getelementptr inbounds %v50[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       llvm.store %v24, %t52 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %t53 = llvm.getelementptr inbounds %v50[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       llvm.store %v20, %t53 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %t54 = llvm.getelementptr inbounds %v50[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       llvm.store %v16, %t54 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %t55 = llvm.getelementptr inbounds %v50[0, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       llvm.store %v12, %t55 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       cf.br ^bb10
// CHECK-NEXT:     ^bb10:
// CHECK-NEXT:       gpu.return
// CHECK-NEXT:     ^panic(%panic_site: i32, %panic_a: i64, %panic_b: i64):
// CHECK-NEXT:       %t56 = arith.constant 0 : i32
// CHECK-NEXT:       %t57 = arith.constant 1 : i32
// CHECK-NEXT:       %t58 = llvm.cmpxchg %panic_record, %t56, %t57 monotonic monotonic : !llvm.ptr<1>, i32
// CHECK-NEXT:       %t59 = llvm.extractvalue %t58[1] : !llvm.struct<(i32, i1)>
// CHECK-NEXT:       cf.cond_br %t59, ^bb11, ^bb12
// CHECK-NEXT:     ^bb11:
// CHECK-NEXT:       %t60 = gpu.block_id x {rk.panic_position}
// CHECK-NEXT:       %t61 = arith.index_castui %t60 : index to i32
// CHECK-NEXT:       %t62 = gpu.block_id y {rk.panic_position}
// CHECK-NEXT:       %t63 = arith.index_castui %t62 : index to i32
// CHECK-NEXT:       %t64 = gpu.block_id z {rk.panic_position}
// CHECK-NEXT:       %t65 = arith.index_castui %t64 : index to i32
// CHECK-NEXT:       %t66 = gpu.thread_id x {rk.panic_position}
// CHECK-NEXT:       %t67 = arith.index_castui %t66 : index to i32
// CHECK-NEXT:       %t68 = gpu.thread_id y {rk.panic_position}
// CHECK-NEXT:       %t69 = arith.index_castui %t68 : index to i32
// CHECK-NEXT:       %t70 = gpu.thread_id z {rk.panic_position}
// CHECK-NEXT:       %t71 = arith.index_castui %t70 : index to i32
// CHECK-NEXT:       %t72 = llvm.getelementptr %panic_record[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %panic_site, %t72 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %t73 = llvm.getelementptr %panic_record[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %t61, %t73 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %t74 = llvm.getelementptr %panic_record[3] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %t63, %t74 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %t75 = llvm.getelementptr %panic_record[4] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %t65, %t75 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %t76 = llvm.getelementptr %panic_record[5] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %t67, %t76 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %t77 = llvm.getelementptr %panic_record[6] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %t69, %t77 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %t78 = llvm.getelementptr %panic_record[7] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %t71, %t78 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %t79 = llvm.getelementptr %panic_record[4] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
// CHECK-NEXT:       llvm.store %panic_a, %t79 : i64, !llvm.ptr<1>
// CHECK-NEXT:       %t80 = llvm.getelementptr %panic_record[5] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
// CHECK-NEXT:       llvm.store %panic_b, %t80 : i64, !llvm.ptr<1>
// CHECK-NEXT:       %t81 = llvm.getelementptr %panic_record[6] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
// CHECK-NEXT:       %t82 = llvm.load %t81 : !llvm.ptr<1> -> i64
// CHECK-NEXT:       %t83 = arith.constant 0 : i64
// CHECK-NEXT:       %t84 = arith.cmpi ne, %t82, %t83 : i64
// CHECK-NEXT:       cf.cond_br %t84, ^bb13, ^bb12
// CHECK-NEXT:     ^bb13:
// CHECK-NEXT:       %t85 = llvm.inttoptr %t82 : i64 to !llvm.ptr<1>
// CHECK-NEXT:       llvm.store %t57, %t85 : i32, !llvm.ptr<1>
// CHECK-NEXT:       cf.br ^bb12
// CHECK-NEXT:     ^bb12:
// CHECK-NEXT:       gpu.return
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
