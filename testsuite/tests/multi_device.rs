//! Issue 8's checks on the CPU simulator configured as two devices (`OFFLOAD_SIM_DEVICES=2`),
//! in a test binary of its own so that the environment is set before the runtime starts.

use offload_binary::{Access, KernelInfo, ParamInfo, ParamKind};

#[test]
fn two_simulated_devices() {
    // SAFETY: set before anything in this one-test binary reads the environment.
    unsafe {
        std::env::set_var("OFFLOAD_TARGET", "disabled");
        std::env::set_var("OFFLOAD_SIM_DEVICES", "2");
    }
    let p = |name: &str, ty: &str, kind, access| ParamInfo {
        name: name.into(),
        ty: ty.into(),
        kind,
        access,
        past_pointee: None,
    };
    let saxpy = KernelInfo {
        name: "saxpy".into(),
        source: "testsuite/kernels/saxpy.rs".into(),
        params: vec![
            p("n", "usize", ParamKind::Value { size: 8 }, Access::Read),
            p("a", "f32", ParamKind::Value { size: 4 }, Access::Read),
            p(
                "x",
                "*const f32",
                ParamKind::Pointer { pointee_size: 4, mutable: false },
                Access::Read,
            ),
            p(
                "y",
                "*mut f32",
                ParamKind::Pointer { pointee_size: 4, mutable: true },
                Access::ReadWrite,
            ),
        ],
        panic_sites: vec![],
        print_sites: Vec::new(),
        barriers: false,
    };
    let image = offload_binary::metadata::metadata_only_image(std::slice::from_ref(&saxpy));
    rkc_offload::register_fatbin(offload_binary::write(&[image])).unwrap();
    let report = rkc_testsuite::multi_device::run_checks().unwrap_or_else(|e| panic!("{e}"));
    println!("{report}");
    assert!(report.contains("offload_get_num_devices() = 2"));
    assert!(!report.contains("SKIPPED"), "{report}");
}
