// A destructured `[f32; 4]` of global memory (`let [x, y, z, w] = a[i]`), which the front end
// lowers as the first element's address and three steps from it, is one 128-bit access too
// when the slice's start is 16-byte aligned, as the copy of a whole array is (vector.rs).
// RUN: rkc-opt %s --passes=inline,simplify --emit=gpu
use rkc_offload::prelude::*;
#[offload_kernel]
fn spread(i: usize, a: &[[f32; 4]], c: &mut [f32]) {
    let [x, y, z, w] = a[i];
    c[4 * i] = w;
    c[4 * i + 1] = z;
    c[4 * i + 2] = y;
    c[4 * i + 3] = x;
}
// CHECK: module attributes {gpu.container_module} {
// CHECK-NEXT:   gpu.module @kernels {
// CHECK-LABEL:     gpu.func @spread(%v0: i64, %v1_global: !llvm.ptr<1>, %v1_len: i64, %v4_global: !llvm.ptr<1>, %v4_len: i64, %panic_record: !llvm.ptr<1>) kernel {
// CHECK-NEXT:       %v1 = llvm.addrspacecast %v1_global : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:       %v4 = llvm.addrspacecast %v4_global : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:       %zero_index = arith.constant 0 : index
// CHECK-NEXT:       %t1 = arith.constant 0 : i64
// CHECK-NEXT:       %v3 = arith.addi %v1_len, %t1 : i64
// CHECK-NEXT:       %t2 = arith.constant 0 : i64
// CHECK-NEXT:       %v6 = arith.addi %v4_len, %t2 : i64
// CHECK-NEXT:       %v23 = arith.constant 4 : i64
// CHECK-NEXT:       %v24 = arith.muli %v23, %v0 : i64
// CHECK-NEXT:       %v26 = arith.constant 4 : i64
// CHECK-NEXT:       %v27 = arith.muli %v26, %v0 : i64
// CHECK-NEXT:       %v28 = arith.constant 1 : i64
// CHECK-NEXT:       %v29 = arith.addi %v27, %v28 : i64
// CHECK-NEXT:       %v31 = arith.constant 4 : i64
// CHECK-NEXT:       %v32 = arith.muli %v31, %v0 : i64
// CHECK-NEXT:       %v33 = arith.constant 2 : i64
// CHECK-NEXT:       %v34 = arith.addi %v32, %v33 : i64
// CHECK-NEXT:       %v36 = arith.constant 4 : i64
// CHECK-NEXT:       %v37 = arith.muli %v36, %v0 : i64
// CHECK-NEXT:       %v38 = arith.constant 3 : i64
// CHECK-NEXT:       %v39 = arith.addi %v37, %v38 : i64
// CHECK-NEXT:       %t3 = arith.cmpi ult, %v0, %v3 : i64
// CHECK-NEXT:       %t4 = arith.cmpi ult, %v24, %v6 : i64
// CHECK-NEXT:       %t5 = arith.cmpi ult, %v29, %v6 : i64
// CHECK-NEXT:       %t6 = arith.cmpi ult, %v34, %v6 : i64
// CHECK-NEXT:       %t7 = arith.cmpi ult, %v39, %v6 : i64
// CHECK-NEXT:       %t8 = arith.andi %t3, %t4 : i1
// CHECK-NEXT:       %t9 = arith.andi %t8, %t5 : i1
// CHECK-NEXT:       %t10 = arith.andi %t9, %t6 : i1
// CHECK-NEXT:       %t11 = arith.andi %t10, %t7 : i1
// CHECK-NEXT:       cf.cond_br %t11, ^bb1, ^bb2
// CHECK-NEXT:     ^bb2:
// CHECK-NEXT:       %t12 = arith.constant 0 : i32
// CHECK-NEXT:       cf.cond_br %t3, ^bb3, ^panic(%t12, %v0, %v3 : i32, i64, i64)
// CHECK-NEXT:     ^bb3:
// CHECK-NEXT:       %t13 = arith.constant 1 : i32
// CHECK-NEXT:       cf.cond_br %t4, ^bb4, ^panic(%t13, %v24, %v6 : i32, i64, i64)
// CHECK-NEXT:     ^bb4:
// CHECK-NEXT:       %t14 = arith.constant 2 : i32
// CHECK-NEXT:       cf.cond_br %t5, ^bb5, ^panic(%t14, %v29, %v6 : i32, i64, i64)
// CHECK-NEXT:     ^bb5:
// CHECK-NEXT:       %t15 = arith.constant 3 : i32
// CHECK-NEXT:       cf.cond_br %t6, ^bb6, ^panic(%t15, %v34, %v6 : i32, i64, i64)
// CHECK-NEXT:     ^bb6:
// CHECK-NEXT:       %t16 = arith.constant 4 : i32
// CHECK-NEXT:       cf.cond_br %t7, ^bb7, ^panic(%t16, %v39, %v6 : i32, i64, i64)
// CHECK-NEXT:     ^bb7:
// CHECK-NEXT:       cf.br ^bb1
// CHECK-NEXT:     ^bb1:
// CHECK-NEXT:       %v2 = llvm.getelementptr %v1[0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT:       %v5 = llvm.getelementptr %v4[0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT:       %v7 = llvm.getelementptr inbounds %v2[%v0] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       %v8 = arith.constant 0 : i64
// CHECK-NEXT:       %v9 = llvm.getelementptr inbounds %v7[%v8] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %v11 = arith.constant 0 : i64
// CHECK-NEXT:       %v12 = llvm.getelementptr inbounds %v9[%v11] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %v14 = arith.constant 1 : i64
// CHECK-NEXT:       %v15 = llvm.getelementptr inbounds %v9[%v14] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %v17 = arith.constant 2 : i64
// CHECK-NEXT:       %v18 = llvm.getelementptr inbounds %v9[%v17] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %v20 = arith.constant 3 : i64
// CHECK-NEXT:       %v21 = llvm.getelementptr inbounds %v9[%v20] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       %t17 = llvm.ptrtoint %v2 : !llvm.ptr to i64
// CHECK-NEXT:       %t18 = llvm.mlir.constant(15 : i64) : i64
// CHECK-NEXT:       %t19 = llvm.and %t17, %t18 : i64
// CHECK-NEXT:       %t20 = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:       %t21 = llvm.icmp "eq" %t19, %t20 : i64
// CHECK-NEXT:       cf.cond_br %t21, ^bb8, ^bb9
// CHECK-NEXT:     ^bb8:
// CHECK-NEXT:       %t22 = llvm.load %v7 {alignment = 16 : i64} : !llvm.ptr -> i128
// CHECK-NEXT:       %t23 = llvm.mlir.constant(0 : i128) : i128
// CHECK-NEXT:       %t24 = llvm.lshr %t22, %t23 : i128
// CHECK-NEXT:       %t25 = llvm.trunc %t24 : i128 to i32
// CHECK-NEXT:       %t26 = llvm.bitcast %t25 : i32 to f32
// CHECK-NEXT:       %t27 = llvm.mlir.constant(32 : i128) : i128
// CHECK-NEXT:       %t28 = llvm.lshr %t22, %t27 : i128
// CHECK-NEXT:       %t29 = llvm.trunc %t28 : i128 to i32
// CHECK-NEXT:       %t30 = llvm.bitcast %t29 : i32 to f32
// CHECK-NEXT:       %t31 = llvm.mlir.constant(64 : i128) : i128
// CHECK-NEXT:       %t32 = llvm.lshr %t22, %t31 : i128
// CHECK-NEXT:       %t33 = llvm.trunc %t32 : i128 to i32
// CHECK-NEXT:       %t34 = llvm.bitcast %t33 : i32 to f32
// CHECK-NEXT:       %t35 = llvm.mlir.constant(96 : i128) : i128
// CHECK-NEXT:       %t36 = llvm.lshr %t22, %t35 : i128
// CHECK-NEXT:       %t37 = llvm.trunc %t36 : i128 to i32
// CHECK-NEXT:       %t38 = llvm.bitcast %t37 : i32 to f32
// CHECK-NEXT:       cf.br ^bb10(%t26, %t30, %t34, %t38 : f32, f32, f32, f32)
// CHECK-NEXT:     ^bb9:
// CHECK-NEXT:       %t39 = llvm.getelementptr inbounds %v7[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       %t40 = llvm.load %t39 {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %t41 = llvm.getelementptr inbounds %v7[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       %t42 = llvm.load %t41 {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %t43 = llvm.getelementptr inbounds %v7[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       %t44 = llvm.load %t43 {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       %t45 = llvm.getelementptr inbounds %v7[0, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:       %t46 = llvm.load %t45 {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:       cf.br ^bb10(%t40, %t42, %t44, %t46 : f32, f32, f32, f32)
// CHECK-NEXT:     ^bb10(%v13: f32, %v16: f32, %v19: f32, %v22: f32):
// CHECK-NEXT:       %v25 = llvm.getelementptr inbounds %v5[%v24] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %v22, %v25 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %v30 = llvm.getelementptr inbounds %v5[%v29] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %v19, %v30 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %v35 = llvm.getelementptr inbounds %v5[%v34] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %v16, %v35 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       %v40 = llvm.getelementptr inbounds %v5[%v39] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:       llvm.store %v13, %v40 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:       gpu.return
// CHECK-NEXT:     ^panic(%panic_site: i32, %panic_a: i64, %panic_b: i64):
// CHECK-NEXT:       %t47 = arith.constant 0 : i32
// CHECK-NEXT:       %t48 = arith.constant 1 : i32
// CHECK-NEXT:       %t49 = llvm.cmpxchg %panic_record, %t47, %t48 monotonic monotonic : !llvm.ptr<1>, i32
// CHECK-NEXT:       %t50 = llvm.extractvalue %t49[1] : !llvm.struct<(i32, i1)>
// CHECK-NEXT:       cf.cond_br %t50, ^bb11, ^bb12
// CHECK-NEXT:     ^bb11:
// CHECK-NEXT:       %t51 = gpu.block_id x {rk.panic_position}
// CHECK-NEXT:       %t52 = arith.index_castui %t51 : index to i32
// CHECK-NEXT:       %t53 = gpu.block_id y {rk.panic_position}
// CHECK-NEXT:       %t54 = arith.index_castui %t53 : index to i32
// CHECK-NEXT:       %t55 = gpu.block_id z {rk.panic_position}
// CHECK-NEXT:       %t56 = arith.index_castui %t55 : index to i32
// CHECK-NEXT:       %t57 = gpu.thread_id x {rk.panic_position}
// CHECK-NEXT:       %t58 = arith.index_castui %t57 : index to i32
// CHECK-NEXT:       %t59 = gpu.thread_id y {rk.panic_position}
// CHECK-NEXT:       %t60 = arith.index_castui %t59 : index to i32
// CHECK-NEXT:       %t61 = gpu.thread_id z {rk.panic_position}
// CHECK-NEXT:       %t62 = arith.index_castui %t61 : index to i32
// CHECK-NEXT:       %t63 = llvm.getelementptr %panic_record[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %panic_site, %t63 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %t64 = llvm.getelementptr %panic_record[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %t52, %t64 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %t65 = llvm.getelementptr %panic_record[3] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %t54, %t65 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %t66 = llvm.getelementptr %panic_record[4] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %t56, %t66 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %t67 = llvm.getelementptr %panic_record[5] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %t58, %t67 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %t68 = llvm.getelementptr %panic_record[6] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %t60, %t68 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %t69 = llvm.getelementptr %panic_record[7] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
// CHECK-NEXT:       llvm.store %t62, %t69 : i32, !llvm.ptr<1>
// CHECK-NEXT:       %t70 = llvm.getelementptr %panic_record[4] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
// CHECK-NEXT:       llvm.store %panic_a, %t70 : i64, !llvm.ptr<1>
// CHECK-NEXT:       %t71 = llvm.getelementptr %panic_record[5] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
// CHECK-NEXT:       llvm.store %panic_b, %t71 : i64, !llvm.ptr<1>
// CHECK-NEXT:       %t72 = llvm.getelementptr %panic_record[6] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i64
// CHECK-NEXT:       %t73 = llvm.load %t72 : !llvm.ptr<1> -> i64
// CHECK-NEXT:       %t74 = arith.constant 0 : i64
// CHECK-NEXT:       %t75 = arith.cmpi ne, %t73, %t74 : i64
// CHECK-NEXT:       cf.cond_br %t75, ^bb13, ^bb12
// CHECK-NEXT:     ^bb13:
// CHECK-NEXT:       %t76 = llvm.inttoptr %t73 : i64 to !llvm.ptr<1>
// CHECK-NEXT:       llvm.store %t48, %t76 : i32, !llvm.ptr<1>
// CHECK-NEXT:       cf.br ^bb12
// CHECK-NEXT:     ^bb12:
// CHECK-NEXT:       gpu.return
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
