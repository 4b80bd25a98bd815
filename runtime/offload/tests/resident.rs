//! Resident data on the CPU simulator, in a test binary of its own with one sequential test,
//! so that the process-wide transfer counters measure exactly these launches.

use offload_binary::{Access, KernelInfo, ParamInfo, ParamKind};
use rkc_offload::prelude::*;

/// Adds one to every element, so that repeated launches show where the data was.
#[offload_kernel]
fn increment(x: *mut [u32; 8]) {
    // SAFETY: the pointer is mapped for the launch; the thread index is below 8.
    unsafe {
        let i = thread_idx_x() as usize;
        (*x)[i] += 1;
    }
}

#[offload_kernel]
fn scale(a: f32, x: &[f32], y: &mut [f32]) {
    // SAFETY: the builtin only reads the thread's position.
    let i = unsafe { (block_idx_x() * block_dim_x() + thread_idx_x()) as usize };
    if i < y.len() {
        y[i] = a * x[i];
    }
}

fn register() {
    // SAFETY: set before the runtime first reads the environment, in this one-test binary.
    unsafe { std::env::set_var("OFFLOAD_TARGET", "disabled") };
    let param = |name: &str, ty: &str, kind, access| ParamInfo {
        name: name.into(),
        ty: ty.into(),
        kind,
        access,
        past_pointee: None,
    };
    let kernels = vec![
        KernelInfo {
            name: "increment".into(),
            source: "resident.rs".into(),
            params: vec![param(
                "x",
                "*mut [u32; 8]",
                ParamKind::Pointer { pointee_size: 32, mutable: true },
                Access::ReadWrite,
            )],
            panic_sites: vec![],
            print_sites: Vec::new(),
            barriers: false,
        },
        KernelInfo {
            name: "scale".into(),
            source: "resident.rs".into(),
            params: vec![
                param("a", "f32", ParamKind::Value { size: 4 }, Access::Read),
                param(
                    "x",
                    "&[f32]",
                    ParamKind::Slice { elem_size: 4, mutable: false },
                    Access::Read,
                ),
                param(
                    "y",
                    "&mut [f32]",
                    ParamKind::Slice { elem_size: 4, mutable: true },
                    Access::Write,
                ),
            ],
            panic_sites: vec![],
            print_sites: Vec::new(),
            barriers: false,
        },
    ];
    let image = offload_binary::metadata::metadata_only_image(&kernels);
    rkc_offload::register_fatbin(offload_binary::write(&[image])).expect("register");
}

#[test]
fn resident_data_moves_once_and_gives_the_implicit_paths_results() {
    register();

    // The implicit path: every launch copies the array in and back.
    let mut implicit = [10u32, 20, 30, 40, 50, 60, 70, 80];
    let start = rkc_offload::transfer_totals();
    for _ in 0..3 {
        offload! { kernel = increment, thread_dim = [8, 1, 1], args = (&mut implicit as *mut [u32; 8],) }
    }
    let after_implicit = rkc_offload::transfer_totals();
    assert_eq!((after_implicit.0 - start.0, after_implicit.1 - start.1), (3 * 32, 3 * 32));

    // Resident: the launches move nothing; `finish` copies the result back once.
    let mut resident = [10u32, 20, 30, 40, 50, 60, 70, 80];
    let guard = rkc_offload::preload_mut(&mut resident);
    for _ in 0..3 {
        offload! { kernel = increment, thread_dim = [8, 1, 1], args = (&guard,) }
    }
    assert_eq!(rkc_offload::transfer_totals(), after_implicit, "resident launches copied data");
    guard.finish().unwrap();
    assert_eq!(resident, implicit);
    assert_eq!(resident, [13, 23, 33, 43, 53, 63, 73, 83]);

    // A read-only guard passes for a slice parameter; two guards of the same data share one
    // copy; only `y` (not resident) moves.
    let xs: Vec<f32> = (0..200).map(|i| i as f32).collect();
    let g1 = rkc_offload::preload(&xs[..]);
    let g2 = rkc_offload::preload(&xs[..]);
    let mut ys = vec![1.0f32; 200];
    let before = rkc_offload::transfer_totals();
    offload! { kernel = scale, workgroup_dim = [4, 1, 1], thread_dim = [64, 1, 1], args = (2.0f32, &g1, &mut ys[..]) }
    let moved = rkc_offload::transfer_totals();
    // `y` is written only (Access::Write): copied in (a partial write keeps the rest) and back.
    assert_eq!((moved.0 - before.0, moved.1 - before.1), (800, 800));
    drop(g1);
    let mut zs = vec![0.5f32; 200];
    offload! { kernel = scale, workgroup_dim = [4, 1, 1], thread_dim = [64, 1, 1], args = (1.0f32, &g2, &mut zs[..]) }
    drop(g2);
    for i in 0..200 {
        assert_eq!(ys[i], 2.0 * i as f32);
        assert_eq!(zs[i], i as f32);
    }
    rkc_offload::offload_sync().unwrap();
}
