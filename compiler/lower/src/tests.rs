//! Tests of the target list and of the emitted text's shape; the driver's harness verifies
//! the emitted MLIR with MLIR itself and snapshots it.

use crate::*;

#[test]
fn parses_offload_arch_lists() {
    let t = parse_offload_arch("sm_90, gfx942").unwrap();
    assert_eq!(t.len(), 2);
    assert_eq!((t[0].kind(), t[0].arch(), t[0].triple()), (TargetKind::Nvidia, "sm_90", "nvptx64-nvidia-cuda"));
    assert_eq!((t[1].kind(), t[1].arch(), t[1].triple()), (TargetKind::Amd, "gfx942", "amdgcn-amd-amdhsa"));
    assert_eq!(parse_offload_arch("sm_91").unwrap_err(), TargetError::Unknown("sm_91".into()));
    assert_eq!(parse_offload_arch("sm_90,sm_90").unwrap_err(), TargetError::Duplicate("sm_90".into()));
    assert_eq!(parse_offload_arch(" , ").unwrap_err(), TargetError::Empty);
}

#[test]
fn pipelines_name_the_chip() {
    let t = parse_offload_arch("sm_80,gfx90a").unwrap();
    assert!(t[0].lowering_pipeline(3, false).contains("nvvm-attach-target{chip=sm_80 O=3}"));
    assert!(t[1].lowering_pipeline(2, false).contains("rocdl-attach-target{chip=gfx90a O=2}"));
    assert!(t[0].lowering_pipeline(3, true).contains("ftz=true fast=true"));
    assert_eq!(
        t[0].serialize_pipeline(ImageFormat::Assembly, None),
        "builtin.module(gpu-module-to-binary{format=isa})"
    );
}
