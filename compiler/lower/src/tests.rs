//! Tests of the target list and of the emitted text's shape; the driver's harness verifies
//! the emitted MLIR with MLIR itself and snapshots it.

use crate::*;

#[test]
fn parses_offload_arch_lists() {
    let t = parse_offload_arch("sm_90, gfx942").unwrap();
    assert_eq!(t.len(), 2);
    assert_eq!(
        (t[0].kind(), t[0].arch(), t[0].triple()),
        (TargetKind::Nvidia, "sm_90", "nvptx64-nvidia-cuda")
    );
    assert_eq!(
        (t[1].kind(), t[1].arch(), t[1].triple()),
        (TargetKind::Amd, "gfx942", "amdgcn-amd-amdhsa")
    );
    assert_eq!(parse_offload_arch("sm_91").unwrap_err(), TargetError::Unknown("sm_91".into()));
    assert_eq!(
        parse_offload_arch("sm_90,sm_90").unwrap_err(),
        TargetError::Duplicate("sm_90".into())
    );
    assert_eq!(parse_offload_arch(" , ").unwrap_err(), TargetError::Empty);
}

#[test]
fn pipelines_name_the_chip() {
    let t = parse_offload_arch("sm_80,gfx90a").unwrap();
    assert!(t[0].lowering_pipeline(3, false).contains("nvvm-attach-target{chip=sm_80 O=3}"));
    assert!(t[1].lowering_pipeline(2, false).contains("rocdl-attach-target{chip=gfx90a O=2}"));
    assert!(t[0].lowering_pipeline(3, true).contains("ftz=true fast=true"));
    assert_eq!(
        t[0].serialize_pipeline(ImageFormat::Assembly, None).as_deref(),
        Some("builtin.module(gpu-module-to-binary{format=isa})")
    );
}

/// A local aggregate's alloca: AMD keeps it in the private space with a cast to generic;
/// NVIDIA gets it in the generic space (NVPTX addresses a space-5 alloca from the generic
/// stack pointer with `ld.local`, which traps: found by the GPU conformance run).
#[test]
fn specialize_places_allocas_per_target() {
    let module = rkc_rk::parse_module(
        "rk.func @k(out %0: *mut f32) kernel {\n  %1 = rk.local : *mut [f32; 4]\n  %2 = rk.const 0 : usize\n  %3 = rk.elem_ptr %1, %2 : *mut [f32; 4] to *mut f32\n  %4 = rk.const 1.0 : f32\n  rk.store %4, %3 : *mut f32\n  rk.return\n}\n",
    )
    .unwrap();
    let verified = rkc_rk::verify(&module).unwrap();
    let gpu = lower(&verified, &LowerOptions::default()).unwrap();
    let t = parse_offload_arch("sm_90,gfx942").unwrap();
    let nvidia = specialize(&gpu, t[0].as_ref());
    let amd = specialize(&gpu, t[1].as_ref());
    assert!(!nvidia.contains("!llvm.ptr<5>"), "{nvidia}");
    assert!(
        nvidia.contains("llvm.alloca") && !nvidia.contains("llvm.addrspacecast %t"),
        "{nvidia}"
    );
    assert!(
        amd.contains("-> !llvm.ptr<5>") && amd.contains(": !llvm.ptr<5> to !llvm.ptr"),
        "{amd}"
    );
}

/// The host stage: a kernel whose threads never wait for each other becomes a body over its
/// position parameters and an exported entry, with no `gpu` op, no private address space and
/// no syncscope left; a kernel with a barrier becomes one function per block, its stretches
/// loops over the threads, with values that cross a barrier kept per thread or computed again;
/// a kernel that divides 128-bit integers (a compiler-rt call on
/// x86-64) is left out with the reason.
#[test]
fn host_stage_splits_blocks_at_barriers() {
    let module = rkc_rk::parse_module(
        "rk.func @fill(out %0: *mut u32) kernel {\n  %1 = rk.thread_id x : u32\n  %2 = rk.cast %1 : u32 to usize\n  %3 = rk.ptr_offset %0, %2 : *mut u32\n  rk.fence device\n  rk.store %1, %3 : *mut u32\n  rk.return\n}\nrk.func @wait(out %0: *mut u32) kernel {\n  %1 = rk.thread_id x : u32\n  %2 = rk.cast %1 : u32 to usize\n  %3 = rk.ptr_offset %0, %2 : *mut u32\n  %4 = rk.load %3 : *mut u32\n  rk.barrier\n  %5 = rk.add %4, %1 : u32\n  rk.store %5, %3 : *mut u32\n  rk.return\n}\nrk.func @wide(out %0: *mut u128) kernel {\n  %1 = rk.const 7 : u128\n  %2 = rk.div %1, %1 : u128\n  rk.store %2, %0 : *mut u128\n  rk.return\n}\n",
    )
    .unwrap();
    let verified = rkc_rk::verify(&module).unwrap();
    let host = crate::lower_host(&verified, &LowerOptions::default()).unwrap();
    assert_eq!(host.kernels, ["fill", "wait"]);
    assert_eq!(host.left_out, [("wide".to_string(), "it divides 128-bit integers".to_string())]);
    let text = &host.text;
    assert!(text.contains("func.func @__rkc_host_fill(%params: !llvm.ptr, %dims: !llvm.ptr, %begin: i64, %end: i64)"), "{text}");
    assert!(text.contains("llvm.linkage = #llvm.linkage<internal>"), "{text}");
    assert!(text.contains("%host_thread_id_x"), "{text}");
    assert!(!text.contains("gpu."), "{text}");
    assert!(!text.contains("syncscope"), "{text}");
    // The block function: two stretches, each a loop over the threads, written twice: for
    // when every thread runs it (the block's flags say so), without a test of the thread's
    // masks, and with the tests. The value loaded before the barrier is kept per thread; the
    // thread index and the address, pure arithmetic on the thread's position, are computed
    // again after it.
    let wait = &text[text.find("@__rkc_body_wait").unwrap()..];
    assert_eq!(wait.matches("scf.execute_region").count(), 4, "{wait}");
    assert_eq!(wait.matches("memref.load %blk_alive[%blk_c0]").count(), 2, "{wait}");
    assert_eq!(wait.matches("cf.cond_br").count(), 2, "{wait}");
    assert!(wait.contains("%blk_keep4 = llvm.alloca %blk_threads x i32"), "{wait}");
    for recomputed in ["%blk_keep1 ", "%blk_keep2 ", "%blk_keep3 "] {
        assert!(!wait.contains(recomputed), "{wait}");
    }
    assert_eq!(wait.matches("%v1 = ").count(), 4, "{wait}");
}

/// A grid-stride loop (a slot advanced by `grid_dim * block_dim`) makes a kernel without
/// barriers a block function whose loop runs in lockstep, with per-thread masks, a strip of
/// iterations of each thread at a time; the same loop with a constant stride stays in the
/// thread's own body.
#[test]
fn host_stage_runs_grid_stride_loops_in_lockstep() {
    let kernel = |name: &str, stride: &str| {
        format!(
            "rk.func @{name}(x %0: &mut [f32]) kernel {{\n  %1 = rk.slice_ptr %0 : &mut [f32] to *mut f32\n  %2 = rk.slice_len %0 : &mut [f32]\n  %3 = rk.thread_id x : u32\n  %4 = rk.cast %3 : u32 to usize\n{stride}  %9 = rk.var : usize\n  rk.write %4, %9 : usize\n  rk.loop {{\n    %10 = rk.read %9 : usize\n    %11 = rk.cmp lt %10, %2 : usize\n    %12 = rk.not %11 : bool\n    rk.if %12 {{\n      rk.break\n    }} else {{\n    }}\n    %13 = rk.const 0.0 : f32\n    %14 = rk.ptr_offset %1, %10 : *mut f32\n    rk.store %13, %14 : *mut f32\n    %15 = rk.read %9 : usize\n    %16 = rk.add %15, %8 : usize\n    rk.write %16, %9 : usize\n  }}\n  rk.return\n}}\n"
        )
    };
    let grid_stride = "  %5 = rk.grid_dim x : u32\n  %6 = rk.block_dim x : u32\n  %7 = rk.mul %5, %6 : u32\n  %8 = rk.cast %7 : u32 to usize\n";
    let unit_stride = "  %8 = rk.const 1 : usize\n";
    let text = kernel("grid", grid_stride) + &kernel("unit", unit_stride);
    let module = rkc_rk::parse_module(&text).unwrap();
    let verified = rkc_rk::verify(&module).unwrap();
    let host = crate::lower_host(&verified, &LowerOptions::default()).unwrap();
    assert_eq!(host.kernels, ["grid", "unit"]);
    let body = |name: &str| {
        let at = host.text.find(&format!("@__rkc_body_{name}(")).unwrap();
        let text = &host.text[at..];
        let end = text[1..].find("@__rkc_").map_or(text.len(), |e| e + 1);
        text[..end].to_string()
    };
    let signature = |body: &str| body[..body.find('{').unwrap()].to_string();
    let (grid, unit) = (body("grid"), body("unit"));
    // A block function takes the block's position, not a thread's, and masks the loop.
    assert!(!signature(&grid).contains("%host_thread_id_x"), "{grid}");
    assert!(grid.contains("%blk_live"), "{grid}");
    assert!(grid.contains("scf.for %blk_j = %blk_c0 to %blk_strip step %blk_c1 {"), "{grid}");
    assert!(signature(&unit).contains("%host_thread_id_x"), "{unit}");
    assert!(!unit.contains("%blk_"), "{unit}");
}

/// In a block function's copy of a stretch for when every thread runs it, a slot that every
/// thread writes alike (a uniform value under uniform control) is read from thread 0's
/// element, which LLVM hoists out of the loop over the threads; a slot that one thread writes
/// under a condition on its index is read from the thread's own element in both copies.
#[test]
fn host_stage_reads_uniform_slots_once() {
    let module = rkc_rk::parse_module(
        "rk.func @slots(out %0: *mut u32) kernel {\n  %1 = rk.thread_id x : u32\n  %2 = rk.var : u32\n  %3 = rk.var : u32\n  %4 = rk.const 7 : u32\n  rk.write %4, %2 : u32\n  rk.write %4, %3 : u32\n  %5 = rk.const 0 : u32\n  %6 = rk.cmp eq %1, %5 : u32\n  rk.if %6 {\n    rk.write %1, %3 : u32\n  } else {\n  }\n  rk.barrier\n  %7 = rk.read %2 : u32\n  %8 = rk.read %3 : u32\n  %9 = rk.add %7, %8 : u32\n  %10 = rk.cast %1 : u32 to usize\n  %11 = rk.ptr_offset %0, %10 : *mut u32\n  rk.store %9, %11 : *mut u32\n  rk.return\n}\n",
    )
    .unwrap();
    let verified = rkc_rk::verify(&module).unwrap();
    let host = crate::lower_host(&verified, &LowerOptions::default()).unwrap();
    let text = &host.text;
    assert_eq!(text.matches("memref.load %v2[%blk_c0]").count(), 1, "{text}");
    assert_eq!(text.matches("memref.load %v2[%zero_index]").count(), 1, "{text}");
    assert_eq!(text.matches("memref.load %v3[%blk_c0]").count(), 0, "{text}");
    assert_eq!(text.matches("memref.load %v3[%zero_index]").count(), 2, "{text}");
}
