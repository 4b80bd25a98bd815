//! Differential test: every testsuite kernel runs (1) as rustc compiled it, on the CPU
//! simulator, and (2) in the rk interpreter, before and after the rk passes, on the same
//! inputs. The buffers must agree exactly (floats: equal values, any NaN equal to any NaN),
//! and a kernel that panics must panic on every side with the same message.

use rkc_offload::{Kernel, LaunchConfig, OffloadError};
use rkc_rk::interp::{self, Arg, InterpError, Launch};
use rkc_rk::{FloatTy, Module, Type};
use rkc_testsuite::*;
use std::path::Path;

/// How one argument is made.
#[derive(Clone, Debug)]
enum Input {
    /// A scalar's bits.
    Scalar(u64),
    /// A buffer of `len` elements of the parameter's pointee element type, random.
    Random(usize),
}

struct Case {
    file: &'static str,
    kernel: &'static str,
    grid: [u32; 3],
    block: [u32; 3],
    /// `None`: derived from the parameter types (every parameter a pointer to an array).
    inputs: Option<Vec<Input>>,
    simulate: fn(&LaunchConfig, &[u64]) -> Result<(), OffloadError>,
}

macro_rules! sim {
    ($k:path) => {
        // SAFETY: the harness passes addresses of buffers sized from the kernel's own types.
        |config, args| unsafe { rkc_offload::simulate_raw::<$k>(config, args) }
    };
}

fn cases() -> Vec<Case> {
    let f32b = |x: f32| u64::from(x.to_bits());
    vec![
        Case { file: "canonical.rs", kernel: "kernel", grid: [256, 1, 1], block: [1, 1, 1], inputs: None, simulate: sim!(canonical::kernel) },
        Case {
            file: "saxpy.rs",
            kernel: "saxpy",
            grid: [4, 1, 1],
            block: [64, 1, 1],
            inputs: Some(vec![Input::Scalar(250), Input::Scalar(f32b(2.5)), Input::Random(256), Input::Random(256)]),
            simulate: sim!(saxpy::saxpy),
        },
        Case { file: "loops.rs", kernel: "loops", grid: [1, 1, 1], block: [64, 1, 1], inputs: None, simulate: sim!(loops::loops) },
        Case { file: "matching.rs", kernel: "classify", grid: [1, 1, 1], block: [128, 1, 1], inputs: None, simulate: sim!(matching::classify) },
        Case { file: "device_functions.rs", kernel: "device_functions", grid: [1, 1, 1], block: [40, 1, 1], inputs: None, simulate: sim!(device_functions::device_functions) },
        Case { file: "arithmetic.rs", kernel: "arithmetic", grid: [1, 1, 1], block: [64, 1, 1], inputs: None, simulate: sim!(arithmetic::arithmetic) },
    ]
}

/// xorshift64*, seeded per case: the same inputs on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// The element type of a pointer parameter (the array's element, or the pointee).
fn element(ty: &Type) -> Type {
    match ty.pointee() {
        Some(Type::Array { elem, .. }) => (**elem).clone(),
        Some(t) => t.clone(),
        None => ty.clone(),
    }
}

fn random_buffer(rng: &mut Rng, elem: &Type, len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len * elem.size_of() as usize);
    for _ in 0..len {
        let r = rng.next();
        let bytes: Vec<u8> = match elem {
            // Floats in [-100, 100), so that results are mostly finite and interesting.
            Type::Float(FloatTy::F32) => ((r >> 40) as f32 / (1u64 << 24) as f32 * 200.0 - 100.0).to_le_bytes().to_vec(),
            Type::Float(FloatTy::F64) => ((r >> 11) as f64 / (1u64 << 53) as f64 * 200.0 - 100.0).to_le_bytes().to_vec(),
            Type::Bool => vec![(r & 1) as u8],
            other => r.to_le_bytes()[..other.size_of() as usize].to_vec(),
        };
        out.extend(bytes);
    }
    out
}

fn inputs_for(case: &Case, module: &Module) -> Vec<Arg> {
    let func = module.funcs.iter().find(|f| f.kernel && f.name == case.kernel).expect("kernel in module");
    let tys: Vec<Type> = func.param_types().cloned().collect();
    let mut rng = Rng(case.kernel.bytes().fold(0x9e37_79b9_7f4a_7c15, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)) | 1);
    match &case.inputs {
        Some(inputs) => inputs
            .iter()
            .zip(&tys)
            .map(|(input, ty)| match input {
                Input::Scalar(bits) => Arg::Scalar(*bits),
                Input::Random(len) => Arg::Buffer(random_buffer(&mut rng, &element(ty), *len)),
            })
            .collect(),
        None => tys
            .iter()
            .map(|ty| match ty.pointee() {
                Some(Type::Array { elem, len }) => Arg::Buffer(random_buffer(&mut rng, elem, *len as usize)),
                _ => panic!("{}: give inputs for parameter type `{ty}`", case.kernel),
            })
            .collect(),
    }
}

/// A run's outcome: the buffers, or a panic message.
#[derive(Debug)]
enum Outcome {
    Buffers(Vec<Vec<u8>>),
    Panicked(String),
}

fn run_interpreter(module: &Module, case: &Case, inputs: &[Arg]) -> Outcome {
    let mut args = inputs.to_vec();
    match interp::run(module, case.kernel, Launch { grid: case.grid, block: case.block }, &mut args) {
        Ok(()) => Outcome::Buffers(buffers(&args)),
        Err(InterpError::Panic { message, .. }) => Outcome::Panicked(message),
        Err(e) => panic!("{}: the interpreter failed: {e}", case.kernel),
    }
}

fn buffers(args: &[Arg]) -> Vec<Vec<u8>> {
    args.iter()
        .filter_map(|a| match a {
            Arg::Buffer(b) => Some(b.clone()),
            Arg::Scalar(_) => None,
        })
        .collect()
}

fn run_rustc(case: &Case, inputs: &[Arg]) -> Outcome {
    // 16-byte aligned copies, as a device allocation would be.
    let mut storage: Vec<Vec<u128>> = Vec::new();
    let mut raw = Vec::new();
    for a in inputs {
        match a {
            Arg::Scalar(bits) => raw.push(*bits),
            Arg::Buffer(b) => {
                let mut s = vec![0u128; b.len().div_ceil(16).max(1)];
                // SAFETY: `s` holds at least b.len() bytes.
                unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), s.as_mut_ptr().cast::<u8>(), b.len()) };
                raw.push(s.as_mut_ptr() as usize as u64);
                storage.push(s);
            }
        }
    }
    let config = LaunchConfig { workgroup_dim: case.grid, thread_dim: case.block, dyn_cache: 0, device: None };
    let result = (case.simulate)(&config, &raw);
    let mut lens = inputs.iter().filter_map(|a| match a {
        Arg::Buffer(b) => Some(b.len()),
        Arg::Scalar(_) => None,
    });
    match result {
        Ok(()) => Outcome::Buffers(
            storage
                .iter()
                .map(|s| {
                    let n = lens.next().unwrap_or(0);
                    // SAFETY: `s` holds at least n bytes.
                    unsafe { std::slice::from_raw_parts(s.as_ptr().cast::<u8>(), n) }.to_vec()
                })
                .collect(),
        ),
        Err(OffloadError::KernelPanic { message, .. }) => Outcome::Panicked(message),
        Err(e) => panic!("{}: the simulator failed: {e}", case.kernel),
    }
}

/// Compares buffers element by element in the parameter's element type.
fn same(a: &Outcome, b: &Outcome, elems: &[Type]) -> Result<(), String> {
    match (a, b) {
        (Outcome::Panicked(x), Outcome::Panicked(y)) if x == y => Ok(()),
        (Outcome::Buffers(xs), Outcome::Buffers(ys)) => {
            for (k, ((x, y), elem)) in xs.iter().zip(ys).zip(elems).enumerate() {
                let n = elem.size_of() as usize;
                for (i, (ex, ey)) in x.chunks(n).zip(y.chunks(n)).enumerate() {
                    let equal = match elem {
                        Type::Float(FloatTy::F32) => {
                            let (p, q) = (f32::from_le_bytes(ex.try_into().unwrap()), f32::from_le_bytes(ey.try_into().unwrap()));
                            p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan())
                        }
                        Type::Float(FloatTy::F64) => {
                            let (p, q) = (f64::from_le_bytes(ex.try_into().unwrap()), f64::from_le_bytes(ey.try_into().unwrap()));
                            p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan())
                        }
                        _ => ex == ey,
                    };
                    if !equal {
                        return Err(format!("buffer {k}, element {i}: {ex:?} vs {ey:?}"));
                    }
                }
            }
            Ok(())
        }
        _ => Err(format!("{a:?} vs {b:?}")),
    }
}

#[test]
fn interpreter_agrees_with_rustc_on_every_kernel() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels");
    let cases = cases();
    // Every kernel file of the testsuite has a case.
    let mut files: Vec<String> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    files.sort();
    let mut covered: Vec<String> = cases.iter().map(|c| c.file.to_string()).collect();
    covered.sort();
    covered.dedup();
    assert_eq!(files, covered, "each testsuite kernel needs a differential case");

    for case in &cases {
        let source = std::fs::read_to_string(dir.join(case.file)).unwrap();
        let module = rkc_front::compile(&source).unwrap_or_else(|d| panic!("{}: {:?}", case.file, d));
        rkc_rk::verify(&module).unwrap();
        let mut inlined = module.clone();
        rkc_rk::passes::inline_calls(&mut inlined).unwrap();
        rkc_rk::verify(&inlined).unwrap();

        let inputs = inputs_for(case, &module);
        let func = module.funcs.iter().find(|f| f.name == case.kernel).unwrap();
        let elems: Vec<Type> = func.param_types().filter(|t| t.pointee().is_some()).map(element).collect();

        let reference = run_rustc(case, &inputs);
        let before = run_interpreter(&module, case, &inputs);
        let after = run_interpreter(&inlined, case, &inputs);
        if let Err(e) = same(&reference, &before, &elems) {
            panic!("{}: rustc and the interpreter (before passes) disagree: {e}", case.kernel);
        }
        if let Err(e) = same(&reference, &after, &elems) {
            panic!("{}: rustc and the interpreter (after passes) disagree: {e}", case.kernel);
        }
        // The inputs must have been changed, or the comparison proves little.
        if let Outcome::Buffers(out) = &reference {
            assert_ne!(out, &buffers(&inputs), "{}: the kernel wrote nothing", case.kernel);
        }
    }
}

/// Keeps `Kernel` in use for the macro's expansion paths.
#[allow(dead_code, reason = "names the trait the sim! macro's expansion relies on")]
fn kernel_name<K: Kernel>() -> &'static str {
    K::NAME
}
