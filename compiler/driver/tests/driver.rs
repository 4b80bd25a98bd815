//! The driver's harness, the one test binary that links MLIR: every testsuite kernel through
//! every stage, with snapshots of the MLIR stages (verified by MLIR before printing), ptxas
//! over every PTX, the LLVM tools over every AMD object and every fat binary.

use rkc_driver::{Cubin, Error, Options, Output, TargetKind, compile, parse_offload_arch};
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn kernel_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo().join("testsuite/kernels"))
        .expect("testsuite/kernels")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    files
}

fn options(archs: &str) -> Options {
    Options {
        targets: parse_offload_arch(archs).expect("archs"),
        cubin: Cubin::Required,
        amd_assembly: true,
        default_targets: false,
        ..Options::default()
    }
}

fn compile_file(path: &Path, options: &Options) -> Output {
    let source = std::fs::read_to_string(path).expect("read kernel");
    match compile(&source, options) {
        Ok(out) => out,
        Err(Error::Source(d)) => panic!(
            "{}:\n{}",
            path.display(),
            rkc_front::render(&d, &path.display().to_string(), &source, false)
        ),
        Err(Error::Stage(d)) => panic!("{}: {}\n{}", path.display(), d.message, d.notes.join("\n")),
    }
}

fn llvm_tool(name: &str) -> PathBuf {
    let p = PathBuf::from("/usr/lib/llvm-22/bin").join(name);
    assert!(p.is_file(), "{} is missing: run tools/setup.sh", p.display());
    p
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rkc-driver-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch");
    dir
}

/// The kernel files whose target stages (the NVVM, ROCDL and host LLVM dialects) are
/// snapshotted. Between them they use every construct that a target lowers in its own way: the
/// thread and block positions (`grid2d`, `canonical`, `saxpy`), shared memory and barriers
/// (`shared`, `block_algorithms`), atomics and their fence scopes, warp operations, the
/// tensor-core and `cp.async` builtins, vector loads (`pointers`), the math library of each
/// target (`math`, `ulps`), 16-bit floats, 128-bit integers, casts, printing, the panic
/// report, calls, and slices. Every other file's target stages are built and verified by MLIR
/// here too, assembled by ptxas and the LLVM tools in the tests below, and run by the
/// conformance tests; what is rkc's own in them shows in their rk, rk-opt and gpu stages, which
/// are snapshotted for every file. (Every file's target stages, 52 files in December 2026, came
/// to 30 MB, half the repository, more than the GPU machine's copy of the tree allows.)
const TARGET_SNAPSHOTS: &[&str] = &[
    "arithmetic",
    "atomics",
    "block_algorithms",
    "canonical",
    "casts",
    "device_functions",
    "grid2d",
    "halfs",
    "math",
    "panics",
    "pointers",
    "prints",
    "saxpy",
    "shared",
    "slices",
    "tensor",
    "ulps",
    "warp",
    "wide",
];

/// Snapshots the rk, optimised rk and gpu-dialect MLIR of every testsuite kernel file, and each
/// target's lowered MLIR of the files in [`TARGET_SNAPSHOTS`].
#[test]
fn mlir_stages_of_every_kernel() {
    let files = kernel_files();
    for name in TARGET_SNAPSHOTS {
        assert!(
            files.iter().any(|f| f.file_stem().is_some_and(|s| s == *name)),
            "{name} is in TARGET_SNAPSHOTS but not in testsuite/kernels"
        );
    }
    for file in files {
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let out = compile_file(&file, &options("sm_90,gfx942,host"));
        insta::assert_snapshot!(format!("{name}.rk"), out.rk);
        insta::assert_snapshot!(format!("{name}.rk-opt"), out.rk_optimized);
        insta::assert_snapshot!(format!("{name}.gpu"), out.gpu);
        let snapshot_targets = TARGET_SNAPSHOTS.contains(&name.as_str());
        for t in &out.targets {
            // The host images of every x86-64 level share one lowered stage (only LLVM's CPU
            // differs after it): one snapshot, under the baseline's name.
            if t.kind == TargetKind::Host && t.arch != rkc_lower::Host::CPUS[0] {
                assert_eq!(
                    t.lowered,
                    out.targets.iter().find(|b| b.arch == "x86-64").unwrap().lowered
                );
                continue;
            }
            if snapshot_targets {
                insta::assert_snapshot!(format!("{name}.{}.{}", t.dialect, t.arch), t.lowered);
            }
        }
    }
}

/// Every PTX is accepted by ptxas for its architecture, and every kernel is in it: every
/// kernel file for the default architectures, and the largest file for every other NVIDIA
/// architecture rkc accepts but sm_70 (CUDA 13's ptxas, the one tools/setup.sh installs, no
/// longer targets it).
#[test]
fn ptxas_accepts_every_ptx() {
    let ptxas = rkc_driver::tools::find_ptxas().expect("ptxas is missing: run tools/setup.sh");
    let dir = scratch("ptxas");
    let default: Vec<&str> =
        rkc_driver::DEFAULT_OFFLOAD_ARCH.split(',').filter(|a| a.starts_with("sm_")).collect();
    let others: Vec<&str> = rkc_lower::NVIDIA_ARCHS
        .iter()
        .copied()
        .filter(|a| *a != "sm_70" && !default.contains(a))
        .collect();
    let files = kernel_files();
    let largest = files.iter().max_by_key(|f| std::fs::metadata(f).map(|m| m.len()).unwrap_or(0));
    let mut runs: Vec<(PathBuf, String)> =
        files.iter().map(|f| (f.clone(), default.join(","))).collect();
    runs.extend(largest.map(|f| (f.clone(), others.join(","))));
    for (file, archs) in runs {
        let out = compile_file(&file, &options(&archs));
        for t in &out.targets {
            let ptx = dir.join(format!("{}.ptx", t.arch));
            std::fs::write(&ptx, &t.assembly).unwrap();
            // The PTX's own target: sm_90a for an sm_90 image with warpgroup multiplies.
            let text = String::from_utf8_lossy(&t.assembly);
            let target = text
                .lines()
                .find_map(|l| l.strip_prefix(".target "))
                .map_or(t.arch.clone(), |a| a.trim().to_string());
            assert!(target == t.arch || target == format!("{}a", t.arch), "{} is {target}", t.arch);
            run(Command::new(&ptxas)
                .arg(format!("-arch={target}"))
                .arg(&ptx)
                .arg("-o")
                .arg(dir.join("out.cubin")));
            let text = String::from_utf8_lossy(&t.assembly);
            for k in &out.kernels {
                assert!(
                    text.contains(&format!(".entry {}(", k.name)),
                    "{} lacks {}",
                    t.arch,
                    k.name
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Every fat binary is listed by llvm-objdump with the right kinds, archs and triples, and
/// every AMD object is a gfx942 HSA code object defining each kernel.
#[test]
fn llvm_tools_read_every_fat_binary() {
    let dir = scratch("objdump");
    for file in kernel_files() {
        let out = compile_file(&file, &options("sm_90,gfx942"));
        let fatbin = dir.join("k.fatbin");
        std::fs::write(&fatbin, &out.fatbin).unwrap();
        let listing = run(Command::new(llvm_tool("llvm-objdump")).arg("--offloading").arg(&fatbin));
        let images: Vec<(String, String, String, String)> = listing
            .split("OFFLOADING IMAGE")
            .skip(1)
            .map(|block| {
                let field = |k: &str| {
                    block
                        .lines()
                        .find_map(|l| l.strip_prefix(k).map(|v| v.trim().to_string()))
                        .unwrap_or_default()
                };
                (field("kind"), field("arch"), field("triple"), field("producer"))
            })
            .collect();
        let expected: Vec<(String, String, String, String)> = [
            ("ptx", "sm_90", "nvptx64-nvidia-cuda", "cuda"),
            ("cubin", "sm_90", "nvptx64-nvidia-cuda", "cuda"),
            ("elf", "gfx942", "amdgcn-amd-amdhsa", "hip"),
        ]
        .iter()
        .map(|(a, b, c, d)| (a.to_string(), b.to_string(), c.to_string(), d.to_string()))
        .collect();
        assert_eq!(images, expected, "{}", file.display());

        // Extract the AMD image with LLVM's own tool: it must be byte-identical.
        let hsaco = dir.join("k.hsaco");
        run(Command::new(llvm_tool("llvm-offload-binary"))
            .arg(&fatbin)
            .arg(format!("--image=file={},triple=amdgcn-amd-amdhsa,arch=gfx942", hsaco.display())));
        let amd = out.targets.iter().find(|t| t.kind == TargetKind::Amd).unwrap();
        assert_eq!(std::fs::read(&hsaco).unwrap(), *amd.binary.as_ref().unwrap());
        let header = run(Command::new(llvm_tool("llvm-readelf")).arg("-h").arg(&hsaco));
        assert!(header.contains("AMDGPU - HSA") && header.contains("gfx942"), "{header}");
        let notes = run(Command::new(llvm_tool("llvm-readelf")).arg("--notes").arg(&hsaco));
        assert!(notes.contains("amdhsa.version"), "no code object metadata:\n{notes}");
        let symbols = run(Command::new(llvm_tool("llvm-nm")).arg(&hsaco));
        for k in &out.kernels {
            assert!(
                symbols.contains(&format!(" T {}\n", k.name)),
                "{} missing:\n{symbols}",
                k.name
            );
            assert!(symbols.contains(&format!(" R {}.kd\n", k.name)), "{}.kd missing", k.name);
        }

        // Our own reader agrees, and finds the kernel metadata on every image.
        let read = offload_binary::read(&out.fatbin).expect("read back");
        assert_eq!(read.len(), 3);
        for image in &read {
            let meta = image.string(offload_binary::KERNELS_KEY).expect("metadata");
            assert_eq!(offload_binary::metadata::decode(meta).unwrap(), out.kernels);
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Checks `out`'s host images of `isa` (compiled from `file`): an image for each of its
/// levels, even when every kernel is left out (it carries the reasons); each a shared object
/// of the machine `machine` (as llvm-readelf names it) that exports an entry for each kernel it
/// does not leave out, depends on nothing but the C library and libm, and names the kernels it
/// leaves out with their reasons in its strings. Returns whether it left any kernel out.
fn check_host_images(
    out: &Output,
    file: &Path,
    isa: rkc_lower::Host,
    machine: &str,
    dir: &Path,
) -> bool {
    let triple = rkc_lower::Target::triple(&isa);
    let hosts: Vec<_> = out.targets.iter().filter(|t| t.triple == triple).collect();
    let archs: Vec<&str> = hosts.iter().map(|t| t.arch.as_str()).collect();
    assert_eq!(archs, isa.levels(), "{}", file.display());
    let mut left_out_somewhere = false;
    for host in hosts {
        left_out_somewhere |= !host.left_out.is_empty();
        let so = dir.join("k.so");
        std::fs::write(&so, host.binary.as_ref().expect("shared object")).unwrap();
        let header = run(Command::new(llvm_tool("llvm-readelf")).arg("-h").arg(&so));
        assert!(
            header.contains("DYN (Shared object file)") && header.contains(machine),
            "{header}"
        );
        let dynamic = run(Command::new(llvm_tool("llvm-readelf")).arg("-d").arg(&so));
        for line in dynamic.lines().filter(|l| l.contains("(NEEDED)")) {
            assert!(
                line.contains("[libc.so.6]") || line.contains("[libm.so.6]"),
                "{}: {line}",
                file.display()
            );
        }
        let symbols =
            run(Command::new(llvm_tool("llvm-nm")).arg("-D").arg("--defined-only").arg(&so));
        let read = offload_binary::read(&out.fatbin).expect("read back");
        let image = read
            .iter()
            .find(|i| i.string("triple") == Some(triple) && i.string("arch") == Some(&host.arch))
            .expect("the host image in the fat binary");
        assert_eq!(image.bytes, *host.binary.as_ref().unwrap());
        let listing = image.string(offload_binary::LEFT_OUT_KEY).unwrap_or("");
        for k in &out.kernels {
            let exported = symbols.contains(&format!(" T {}{}\n", rkc_lower::ENTRY_PREFIX, k.name));
            let listed = listing.lines().any(|l| l.starts_with(&format!("{}: ", k.name)));
            assert!(
                exported != listed,
                "{}: {} exported {exported}, left out {listed}",
                file.display(),
                k.name
            );
        }
    }
    left_out_somewhere
}

/// Every testsuite kernel file's x86-64 host images (see `check_host_images`).
#[test]
fn host_image_of_every_kernel() {
    let dir = scratch("host");
    let mut left_out_somewhere = false;
    for file in kernel_files() {
        let out = compile_file(&file, &options("host"));
        left_out_somewhere |=
            check_host_images(&out, &file, rkc_lower::Host::X86_64, "X86-64", &dir);
    }
    // With compiler-rt's builtins (tools/setup.sh installs them) the image holds every
    // kernel; without them, the testsuite's 16-bit float and 128-bit division kernels are left
    // out (rkc-lower's unit tests check the reasons).
    if rkc_driver::tools::find_compiler_rt(rkc_lower::Host::X86_64).is_some() {
        assert!(!left_out_somewhere, "a kernel was left out although compiler-rt is linked");
    } else {
        assert!(left_out_somewhere, "no testsuite kernel exercises a left-out kernel");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// The aarch64 host image, next to the x86-64 ones in one fat binary, for the files with
/// 16-bit floats and 128-bit division (which need the builtins archive on x86-64 and GCC's
/// libgcc on aarch64, see `tools::find_compiler_rt`) and a few others; tools/aarch64-
/// conformance.sh runs every file's under qemu. `tools/setup.sh --aarch64` installs the
/// aarch64 C library it links against.
#[test]
fn aarch64_host_images() {
    let dir = scratch("aarch64");
    for name in ["halfs.rs", "wide.rs", "saxpy.rs", "shared.rs", "warp.rs"] {
        let file = repo().join("testsuite/kernels").join(name);
        let out = compile_file(&file, &options("host,aarch64"));
        check_host_images(&out, &file, rkc_lower::Host::X86_64, "X86-64", &dir);
        let left_out = check_host_images(&out, &file, rkc_lower::Host::Aarch64, "AArch64", &dir);
        assert!(!left_out, "{name}: a kernel was left out of the aarch64 image");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// The same input and flags give byte-identical outputs.
#[test]
fn compilation_is_deterministic() {
    for file in kernel_files() {
        let a = compile_file(&file, &options("sm_90,gfx942,host"));
        let b = compile_file(&file, &options("sm_90,gfx942,host"));
        assert_eq!(a.fatbin, b.fatbin, "{}", file.display());
        assert_eq!(a.gpu, b.gpu);
    }
}

/// The kernel metadata of the slice kernels, as the runtime will read it.
#[test]
fn kernel_metadata() {
    let out = compile_file(&repo().join("testsuite/kernels/saxpy.rs"), &options("sm_90"));
    insta::assert_snapshot!(offload_binary::metadata::encode(&out.kernels));
}

/// `-g`: the PTX maps instructions to the kernel's Rust lines (`.loc` of the file as named),
/// stays an optimised build (no `.target ..., debug`, the same instructions as without `-g`),
/// and ptxas keeps the line table in the cubin; the AMD object gets line directives too. Every
/// testsuite file compiles this way.
#[test]
fn line_information() {
    let source = std::fs::read_to_string(repo().join("testsuite/kernels/saxpy.rs")).unwrap();
    let mut opts = options("sm_90,gfx942");
    opts.debug_info = true;
    opts.source_name = "kernels/saxpy.rs".into();
    let out = compile(&source, &opts).unwrap_or_else(|_| panic!("saxpy with -g"));
    let plain = compile(&source, &options("sm_90,gfx942")).unwrap_or_else(|_| panic!("saxpy"));
    let ptx = String::from_utf8_lossy(&out.targets[0].assembly).into_owned();
    assert!(ptx.contains(".file\t1 \"kernels/saxpy.rs\""), "{ptx}");
    assert!(ptx.lines().any(|l| l.starts_with(".target sm_90") && !l.contains("debug")), "{ptx}");
    // Line 10 is `*y.add(i) = a * *x.add(i) + *y.add(i);`: the multiply and the add are on it.
    let mut line = 0;
    let mut on_line_10 = Vec::new();
    for l in ptx.lines() {
        if let Some(rest) = l.trim().strip_prefix(".loc\t1 ") {
            line = rest.split(' ').next().unwrap().parse::<u32>().unwrap();
        } else if line == 10 {
            on_line_10.push(l.trim().split(['\t', ' ']).next().unwrap_or("").to_string());
        }
    }
    assert!(
        on_line_10.iter().any(|i| i == "mul.rn.f32")
            && on_line_10.iter().any(|i| i == "add.rn.f32"),
        "{on_line_10:?}\n{ptx}"
    );
    let instructions = |text: &str| {
        text.lines()
            .map(str::trim)
            .filter(|l| {
                !l.is_empty() && !l.starts_with('.') && !l.starts_with("//") && !l.starts_with('$')
            })
            .count()
    };
    let plain_ptx = String::from_utf8_lossy(&plain.targets[0].assembly).into_owned();
    assert_eq!(
        instructions(ptx.split("\t.file").next().unwrap()),
        instructions(&plain_ptx),
        "-g changed the code"
    );
    let cubin = out.targets[0].binary.as_ref().expect("a cubin");
    assert!(cubin.windows(11).any(|w| w == b".debug_line"), "the cubin has a line table");
    let amd = String::from_utf8_lossy(&out.targets[1].assembly).into_owned();
    assert!(amd.contains(".loc\t1 10"), "the AMD code has line directives");
    for file in kernel_files() {
        let source = std::fs::read_to_string(&file).unwrap();
        let mut opts = options("sm_90,gfx942");
        opts.debug_info = true;
        if compile(&source, &opts).is_err() {
            panic!("{} does not compile with -g", file.display());
        }
    }
}

/// Bounds checks can be turned off; the canonical kernel then has no panic block at all.
#[test]
fn bounds_checks_switch() {
    let file = repo().join("testsuite/kernels/canonical.rs");
    let mut opts = options("sm_90");
    opts.opt_level = 0;
    let on = compile_file(&file, &opts);
    opts.bounds_checks = false;
    let off = compile_file(&file, &opts);
    assert!(on.gpu.contains("llvm.cmpxchg"), "{}", on.gpu);
    assert!(!off.gpu.contains("llvm.cmpxchg"), "{}", off.gpu);
    // The site stays in the metadata either way: numbering must not depend on the switch.
    assert_eq!(on.kernels[0].panic_sites, off.kernels[0].panic_sites);
}

/// A float's `%` is libdevice's `__nv_fmodf`, like the `math` functions: with a CUDA toolkit
/// it is linked into the PTX, without one the compilation says what is missing (it used to
/// write PTX calling an undefined function).
#[test]
fn libdevice_only_where_a_kernel_calls_it() {
    let source = "use rkc_offload::prelude::*;\n#[offload_kernel]\npub fn fm(x: &[f32], y: &mut [f32]) {\n    let i = unsafe { thread_idx_x() } as usize;\n    if i < y.len() && i < x.len() {\n        y[i] = x[i] % 3.5;\n    }\n}\n";
    let mut opts = options("sm_90");
    opts.cubin = Cubin::Off;
    match (compile(source, &opts), rkc_driver::tools::find_cuda_toolkit()) {
        (Ok(out), Some(_)) => {
            let ptx = String::from_utf8_lossy(&out.targets[0].assembly);
            assert!(!ptx.contains("__nv_fmodf"), "libdevice was not linked:\n{ptx}");
        }
        (Err(Error::Stage(d)), None) => {
            assert!(d.message.contains("need libdevice"), "{}", d.message);
        }
        (Ok(_), None) => panic!("a float's `%` compiled without libdevice"),
        (Err(Error::Source(d)), _) => panic!("{}", rkc_front::render(&d, "fm.rs", source, false)),
        (Err(Error::Stage(d)), Some(_)) => panic!("{}", d.message),
    }
}

/// A failed check records its site, block and thread, and returns instead of trapping, so
/// that the CUDA context survives a panicking launch.
#[test]
fn panics_record_and_return() {
    let out = compile_file(&repo().join("testsuite/kernels/panics.rs"), &options("sm_90"));
    let ptx = String::from_utf8_lossy(&out.targets[0].assembly);
    assert!(
        ptx.contains("atom.relaxed.sys.global.cas.b32") || ptx.contains("atom.global.cas.b32"),
        "{ptx}"
    );
    assert!(!ptx.contains("trap"), "{ptx}");
    let k = out.kernels.iter().find(|k| k.name == "failed_assert").unwrap();
    let messages: Vec<&str> = k.panic_sites.iter().map(|s| s.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "index out of bounds: the len is {len} but the index is {index}",
            "attempt to calculate the remainder with a divisor of zero",
            "assertion failed: x % 16 != 3",
            "attempt to calculate the remainder with a divisor of zero",
            "attempt to divide by zero",
            "index out of bounds: the len is {len} but the index is {index}",
        ]
    );
}

/// An architecture this ptxas cannot assemble for gets PTX only, with a warning, unless a
/// cubin is required.
#[test]
fn ptx_only_when_ptxas_cannot_target_the_arch() {
    let file = repo().join("testsuite/kernels/saxpy.rs");
    let mut opts = options("sm_70");
    opts.cubin = Cubin::WhenAvailable;
    let out = compile_file(&file, &opts);
    assert!(out.targets[0].binary.is_none());
    assert!(out.warnings.iter().any(|w| w.contains("sm_70")), "{:?}", out.warnings);
    let source = std::fs::read_to_string(&file).unwrap();
    assert!(
        matches!(compile(&source, &options("sm_70")), Err(Error::Stage(d)) if d.notes.iter().any(|n| n.contains("sm_70")))
    );
}

/// The example's kernels, compiled by rustc for the host side of the end-to-end test.
#[path = "../../../examples/slice/src/kernels.rs"]
mod slice_kernels;

/// End to end: rkc compiles the example's kernels, the runtime loads the fat binary, and
/// `offload!` runs both kernels on the default device (the CPU simulator where there is no
/// GPU); every element is checked against a CPU reference.
#[test]
fn slice_kernels_end_to_end() {
    use rkc_offload::offload;
    use slice_kernels::{kernel, saxpy};

    let out = compile_file(&repo().join("examples/slice/src/kernels.rs"), &options("sm_90,gfx942"));
    rkc_offload::register_fatbin(&out.fatbin).expect("register the fat binary rkc made");

    let mut x = [-1.0f64; 256];
    offload! {
        kernel = kernel,
        workgroup_dim = [256, 1, 1],
        args = (&mut x as *mut [f64; 256],),
    }
    let expected: Vec<f64> = (0..256).map(|i| i as f64).collect();
    assert_eq!(x.to_vec(), expected);

    let n = 4099usize;
    let xs: Vec<f32> = (0..n).map(|i| (i as f32).sin()).collect();
    let mut ys: Vec<f32> = (0..n).map(|i| (i as f32).cos()).collect();
    let a = -1.75f32;
    let expected: Vec<f32> = xs.iter().zip(&ys).map(|(x, y)| a * x + y).collect();
    offload! {
        kernel = saxpy,
        workgroup_dim = [n.div_ceil(128) as u32, 1, 1],
        thread_dim = [128, 1, 1],
        args = (n, a, &xs[..], &mut ys[..]),
    }
    assert_eq!(ys, expected);
}

/// A kernel whose asynchronous copy may read from a misaligned address, compiled by rustc for
/// the host side of the test below.
#[path = "kernels/misaligned.rs"]
mod misaligned_kernels;

/// Where the copy has no `cp.async` (here the host image; also AMD and NVIDIA before sm_80),
/// rkc checks both addresses' alignment before the plain copy it writes, so a copy that faults
/// on a GPU with `cp.async` panics there with the simulator's message instead of passing
/// silently. An aligned copy still copies.
#[test]
fn misaligned_asynchronous_copies_panic_on_the_host_image() {
    use misaligned_kernels::staged_copy;
    use rkc_offload::{Backend, OffloadError, try_offload};

    let file = repo().join("compiler/driver/tests/kernels/misaligned.rs");
    let out = compile_file(&file, &options("host"));
    rkc_offload::register_fatbin(&out.fatbin).expect("register the fat binary rkc made");
    let device = rkc_offload::executor::<staged_copy>().expect("a device");
    if device.backend != Backend::CpuHost {
        // Only a host image is compiled: a machine with a GPU has no image to run it on.
        eprintln!("skipped: the default device is {:?}, not the host image", device.backend);
        return;
    }
    // The words live in `u128`s, so word 0 of `src` starts on a 16-byte boundary and word 1
    // does not.
    let mut storage = [0u128; 2];
    // SAFETY: the 32 bytes of `storage`, as eight `u32`s (any bits are a valid `u32`).
    let src: &mut [u32] = unsafe { std::slice::from_raw_parts_mut(storage.as_mut_ptr().cast(), 8) };
    for (k, w) in src.iter_mut().enumerate() {
        *w = k as u32 + 1;
    }
    let src: &[u32] = src;
    let mut out = [0u32; 4];
    try_offload! { kernel = staged_copy, args = (0usize, src, &mut out[..]) }
        .expect("aligned copy");
    assert_eq!(out, src[..4]);
    let e = try_offload! { kernel = staged_copy, args = (1usize, src, &mut out[..]) }.unwrap_err();
    let OffloadError::KernelPanic { message, location, .. } = &e else { panic!("{e}") };
    assert_eq!(
        message, "misaligned access of 16 bytes: cp_async's addresses must be multiples of 16",
        "{e}"
    );
    assert!(location.contains(":13:"), "the panic is at the copy: {e}");
}

/// The canonical kernel's `if i < n` proves its index in range: the rk passes remove the
/// bounds check, and nothing of it is left to lower.
#[test]
fn the_canonical_guard_removes_the_bounds_check() {
    let out = compile_file(&repo().join("testsuite/kernels/canonical.rs"), &options("sm_90"));
    assert!(out.rk.contains("rk.bounds_check"), "{}", out.rk);
    assert!(!out.rk_optimized.contains("rk.bounds_check"), "{}", out.rk_optimized);
    assert!(!out.gpu.contains("llvm.cmpxchg"), "{}", out.gpu);
}

/// A thread's register tile (a local array indexed by the loops that compute it) lives in
/// registers with bounds checks on: no local memory in the PTX, and the shared tiles are read
/// with 128-bit loads. Before loops over local arrays were marked for unrolling, the checked
/// copy that loop versioning keeps left them rolled, and every multiply-add of the tiled sgemm
/// loaded and stored its accumulator in local memory.
#[test]
fn register_tiles_live_in_registers() {
    for (file, kernel) in [
        ("testsuite/bench/kernels.rs", "sgemm_tiled"),
        ("testsuite/kernels/shared.rs", "register_tile"),
    ] {
        let body = kernel_ptx(file, kernel);
        assert!(!body.contains(".local"), "{kernel} uses local memory:\n{body}");
        assert!(body.contains("ld.shared.v4"), "{kernel} reads shared memory scalar by scalar");
    }
}

/// The PTX of one kernel of a repository file, compiled for sm_90 with bounds checks on.
fn kernel_ptx(file: &str, kernel: &str) -> String {
    let out = compile_file(&repo().join(file), &options("sm_90"));
    let ptx = String::from_utf8_lossy(&out.targets[0].assembly).into_owned();
    let start = ptx.find(&format!(".entry {kernel}(")).expect("the kernel's entry");
    let end = ptx[start + 1..].find(".entry ").map_or(ptx.len(), |e| start + 1 + e);
    ptx[start..end].to_string()
}

/// An `Option` or `Result` that an `if` or a `match` chooses, each arm building its own in a
/// temporary and copying it into the result, lives in registers. MLIR's region simplification
/// (inside `convert-gpu-to-nvvm`) used to merge such arms into one block that copied through a
/// pointer argument, a `phi` of two allocas that LLVM's SROA cannot split, and these kernels
/// kept 32 and 96 bytes in local memory (`parse_numbers` 560).
#[test]
fn aggregates_chosen_by_branches_live_in_registers() {
    for (file, kernel) in [
        ("testsuite/kernels/options.rs", "combinators"),
        ("testsuite/kernels/results.rs", "checked_pipeline"),
    ] {
        let body = kernel_ptx(file, kernel);
        assert!(!body.contains(".local"), "{kernel} uses local memory:\n{body}");
    }
}

/// The tensor-core HGEMM (examples/hgemm) with bounds checks on: its 2×4 accumulator fragments
/// live in registers (no local memory), each step is eight `mma.sync` and its tiles arrive by
/// 16-byte `cp.async`.
#[test]
fn tensor_core_tiles_live_in_registers() {
    let out = compile_file(&repo().join("examples/hgemm/src/kernels.rs"), &options("sm_90"));
    let ptx = String::from_utf8_lossy(&out.targets[0].assembly).into_owned();
    assert!(!ptx.contains(".local"), "hgemm uses local memory:\n{ptx}");
    let mma = ptx.matches("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32").count();
    assert!(mma >= 8, "{mma} mma.sync in:\n{ptx}");
    assert!(ptx.contains("cp.async.cg.shared.global"), "no 16-byte cp.async in:\n{ptx}");
    // The fragments come from shared memory through ldmatrix alone: two of A and four of B
    // (transposed) per step, no element-by-element shared loads. The one 32-bit shared load
    // allowed is of the word through which the block agrees on loop versioning's proof.
    let x4 = ptx.matches("ldmatrix.sync.aligned.m8n8.x4.shared.b16").count();
    let x2 = ptx.matches("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16").count();
    assert!(x4 >= 2 && x2 >= 4 && x2 == 2 * x4, "{x4} ldmatrix.x4, {x2} ldmatrix.x2.trans");
    let element_loads = ptx
        .lines()
        .filter(|l| {
            l.contains("ld.shared") && !(l.contains("ld.shared.b32") && l.contains("[shared_"))
        })
        .count();
    assert_eq!(element_loads, 0, "element-by-element shared loads in:\n{ptx}");
}

/// The access facts in the metadata: read-only pointers are not copied back, unused ones not
/// copied at all.
#[test]
fn access_facts_reach_the_metadata() {
    let source = "
        #[offload_kernel]
        fn k(a: *mut [f32; 4], b: *mut [f32; 4], c: *const f32, d: *mut f32, n: usize) {
            unsafe {
                let v = (*a)[0] + *c;
                (*b)[1] = v;
                let _unused = d;
            }
        }";
    let out = compile(source, &options("sm_90")).unwrap_or_else(|_| panic!("compiles"));
    let access: Vec<(String, offload_binary::Access)> =
        out.kernels[0].params.iter().map(|p| (p.name.clone(), p.access)).collect();
    use offload_binary::Access::*;
    assert_eq!(
        access,
        [
            ("a".into(), Read),
            ("b".into(), Write),
            ("c".into(), Read),
            ("d".into(), Unused),
            ("n".into(), Unused)
        ]
    );
}

/// Where a kernel offsets a pointer parameter past its pointee reaches the metadata, which the
/// runtime checks a one-element raw pointer argument against; a constant 0 offset, an element
/// of a pointed-to array and a pointer the kernel does not offset are not recorded.
#[test]
fn offsets_past_the_pointee_reach_the_metadata() {
    let source = "
        use rkc_offload::prelude::*;
        #[offload_kernel]
        fn k(x: *const f32, y: *mut f32, a: *mut [f32; 4], z: *const f32, n: usize) {
            unsafe {
                let i = thread_idx_x() as usize;
                (*a)[i % 4] = *z.add(0) + *x;
                if i < n {
                    *y.add(i) = *x.add(i + 1);
                }
            }
        }";
    let out = compile(source, &options("sm_90")).unwrap_or_else(|_| panic!("compiles"));
    let past: Vec<(String, Option<(u32, u32)>)> =
        out.kernels[0].params.iter().map(|p| (p.name.clone(), p.past_pointee)).collect();
    assert_eq!(
        past,
        [
            ("x".into(), Some((9, 34))),
            ("y".into(), Some((9, 22))),
            ("a".into(), None),
            ("z".into(), None),
            ("n".into(), None)
        ]
    );
}

/// The inspector's account of the example's fat binary, as text and JSON.
#[test]
fn inspector_output_for_the_example() {
    let mut opts = options("sm_90,gfx942");
    opts.source_name = "examples/slice/src/kernels.rs".into();
    let out = compile_file(&repo().join("examples/slice/src/kernels.rs"), &opts);
    let images = offload_binary::read(&out.fatbin).unwrap();
    insta::assert_snapshot!("inspect.slice.txt", offload_binary::inspect::text(&images));
    insta::assert_snapshot!("inspect.slice.json", offload_binary::inspect::json(&images));
}

/// Rust's float semantics by default (sqrt.rn, no approximate functions); `-C fast-math`
/// opts into the approximate instructions.
#[test]
fn fast_math_is_opt_in() {
    let file = repo().join("testsuite/kernels/math.rs");
    let precise = compile_file(&file, &options("sm_90"));
    let mut opts = options("sm_90");
    opts.fast_math = true;
    let fast = compile_file(&file, &opts);
    let (p, f) = (
        String::from_utf8_lossy(&precise.targets[0].assembly),
        String::from_utf8_lossy(&fast.targets[0].assembly),
    );
    assert!(p.contains("sqrt.rn.f32") && !p.contains("sqrt.approx"), "precise PTX");
    assert!(f.contains("sqrt.approx") && !f.contains("sqrt.rn.f32"), "fast PTX");
}

/// The mapping report (`rkc --explain-mapping`) and the inspector's listing of every example's
/// kernels, as a user sees them.
#[test]
fn mapping_report_and_inspector_for_every_example() {
    for example in ["slice", "matmul", "reduction", "blur", "histogram"] {
        let file = format!("examples/{example}/src/kernels.rs");
        let source = std::fs::read_to_string(repo().join(&file)).unwrap();
        let report = rkc_driver::explain_mapping(&source, &file, false)
            .unwrap_or_else(|d| panic!("{example}: {d:?}"));
        insta::assert_snapshot!(format!("{example}.mapping"), report);
        let mut opts = options("sm_90");
        opts.source_name = file.clone();
        let out = compile_file(&repo().join(&file), &opts);
        let images = offload_binary::read(&out.fatbin).unwrap();
        insta::assert_snapshot!(
            format!("{example}.inspect"),
            offload_binary::inspect::text(&images)
        );
    }
}

#[path = "../../../testsuite/src/generator.rs"]
#[allow(dead_code, reason = "the test uses the file generator only")]
mod generator;

/// The generated kernels (the same 300 the differential test runs) through the whole
/// compiler: MLIR verifies every stage and ptxas assembles the PTX into a cubin.
#[test]
fn generated_kernels_compile_and_assemble() {
    let source = generator::file("generated", 1, 300);
    let out = match compile(&source, &options("sm_90")) {
        Ok(out) => out,
        Err(Error::Source(d)) => {
            panic!("{}", rkc_front::render(&d, "generated.rs", &source, false))
        }
        Err(Error::Stage(d)) => panic!("{}\n{}", d.message, d.notes.join("\n")),
    };
    assert_eq!(out.kernels.len(), 300);
    let cubin = out.targets.iter().find_map(|t| t.binary.as_ref()).expect("ptxas made a cubin");
    assert!(cubin.starts_with(b"\x7fELF"));
}
