//! Tests of the printer and the verifier on hand-built modules.

use crate::*;

/// Appends an op to `region`, creating one result per type in `results`.
fn push(
    func: &mut Func,
    region: &mut Region,
    kind: OpKind,
    operands: &[ValueId],
    results: &[Type],
) -> Vec<ValueId> {
    let results: Vec<ValueId> = results.iter().map(|t| func.new_value(t.clone())).collect();
    region.ops.push(Op {
        kind,
        operands: operands.to_vec(),
        results: results.clone(),
        regions: Vec::new(),
        loc: Loc { line: 1, col: 1 },
    });
    results
}

fn canonical() -> Module {
    let f64t = Type::Float(FloatTy::F64);
    let arr = Type::Array { elem: Box::new(f64t.clone()), len: 256 };
    let mut f = Func::new("kernel", true, Type::Unit, Loc::default());
    let x = f.add_param("x", Type::ptr(true, arr));
    let mut body = Region::default();
    let tid =
        push(&mut f, &mut body, OpKind::Geometry(Geometry::ThreadId, Dim::X), &[], &[Type::U32])[0];
    let i = push(&mut f, &mut body, OpKind::Cast, &[tid], &[Type::USIZE])[0];
    let n = push(&mut f, &mut body, OpKind::Const(Literal::Int(256)), &[], &[Type::USIZE])[0];
    let c = push(&mut f, &mut body, OpKind::Cmp(CmpOp::Lt), &[i, n], &[Type::Bool])[0];
    let mut then = Region::default();
    push(&mut f, &mut then, OpKind::BoundsCheck, &[i, n], &[]);
    let p = push(&mut f, &mut then, OpKind::ElemPtr, &[x, i], &[Type::ptr(true, f64t.clone())])[0];
    let v = push(&mut f, &mut then, OpKind::Cast, &[i], &[f64t])[0];
    push(&mut f, &mut then, OpKind::Store, &[v, p], &[]);
    body.ops.push(Op {
        kind: OpKind::If,
        operands: vec![c],
        results: vec![],
        regions: vec![then, Region::default()],
        loc: Loc::default(),
    });
    push(&mut f, &mut body, OpKind::Return, &[], &[]);
    f.body = body;
    Module { funcs: vec![f], tables: Vec::new() }
}

#[test]
fn prints_the_canonical_kernel() {
    let m = canonical();
    verify(&m).unwrap();
    insta::assert_snapshot!(print_module(&m));
}

#[test]
fn signed_constants_print_their_rust_value() {
    let mut f = Func::new("k", false, Type::Int(IntTy::I8), Loc::default());
    let mut body = Region::default();
    let c =
        push(&mut f, &mut body, OpKind::Const(Literal::Int(0xff)), &[], &[Type::Int(IntTy::I8)])[0];
    push(&mut f, &mut body, OpKind::Return, &[c], &[]);
    f.body = body;
    let m = Module { funcs: vec![f], tables: Vec::new() };
    verify(&m).unwrap();
    assert!(print_module(&m).contains("rk.const -1 : i8"));
}

fn first_error(m: &Module) -> String {
    verify(m).unwrap_err().to_string()
}

#[test]
fn rejects_a_store_through_a_const_pointer() {
    let mut m = canonical();
    let f = &mut m.funcs[0];
    f.values[0] =
        Type::ptr(false, Type::Array { elem: Box::new(Type::Float(FloatTy::F64)), len: 256 });
    // elem_ptr now sees a `*const` array but claims a `*mut` element.
    insta::assert_snapshot!(first_error(&m));
}

#[test]
fn rejects_use_before_definition() {
    let mut m = canonical();
    let f = &mut m.funcs[0];
    f.body.ops.swap(0, 1);
    insta::assert_snapshot!(first_error(&m));
}

#[test]
fn rejects_mismatched_operands() {
    let mut m = canonical();
    let f = &mut m.funcs[0];
    // Compare a u32 with a usize.
    f.body.ops[3].operands[0] = ValueId(1);
    insta::assert_snapshot!(first_error(&m));
}

#[test]
fn rejects_a_body_without_return() {
    let mut m = canonical();
    m.funcs[0].body.ops.pop();
    insta::assert_snapshot!(first_error(&m));
}

#[test]
fn rejects_an_out_of_range_literal() {
    let mut m = canonical();
    let f = &mut m.funcs[0];
    f.values[3] = Type::Int(IntTy::U8);
    insta::assert_snapshot!(first_error(&m));
}

/// The interpreter runs a block's threads at once when the kernel waits at barriers, and a
/// barrier that some threads leave the kernel without reaching is a panic, not a hang.
#[test]
fn the_interpreter_keeps_barriers_and_reports_divergence() {
    let text = "rk.func @k(out %0: *mut [u32; 4]) kernel {
  %1 = rk.thread_id x : u32
  %2 = rk.cast %1 : u32 to usize
  %3 = rk.shared : *mut [u32; 4]
  %4 = rk.elem_ptr %3, %2 : *mut [u32; 4] to *mut u32
  rk.store %1, %4 : *mut u32
  rk.barrier
  %5 = rk.const 3 : usize
  %6 = rk.sub %5, %2 : usize
  %7 = rk.elem_ptr %3, %6 : *mut [u32; 4] to *mut u32
  %8 = rk.load %7 : *mut u32
  %9 = rk.elem_ptr %0, %2 : *mut [u32; 4] to *mut u32
  rk.store %8, %9 : *mut u32
  rk.return
}
";
    let m = parse_module(text).unwrap();
    verify(&m).unwrap();
    let launch = interp::Launch { grid: [1, 1, 1], block: [4, 1, 1], dyn_shared: 0 };
    let mut args = [interp::Arg::Buffer(vec![0; 16])];
    interp::run(&m, "k", launch, &mut args).unwrap();
    let interp::Arg::Buffer(out) = &args[0] else { unreachable!() };
    // Each thread reads what the mirror thread wrote before the barrier.
    assert_eq!(out.as_slice(), [3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);

    let divergent = text.replace("  rk.barrier\n", "  %10 = rk.const 0 : u32\n  %11 = rk.cmp eq %1, %10 : u32\n  rk.if %11 {\n    rk.return\n  } else {\n  }\n  rk.barrier\n");
    let m = parse_module(&divergent).unwrap_or_else(|e| panic!("{e}\n{divergent}"));
    verify(&m).unwrap();
    let mut args = [interp::Arg::Buffer(vec![0; 16])];
    match interp::run(&m, "k", launch, &mut args) {
        Err(interp::InterpError::Panic { message, .. }) => {
            assert!(message.contains("divergent barrier"), "{message}")
        }
        other => panic!("expected a divergent barrier, got {other:?}"),
    }
}

/// Two locals of one type at one source position (in rk text every op's position is 0:0;
/// from Rust, `v.scaled(2.0)`'s receiver copy and result share one) are two buffers.
#[test]
fn the_interpreter_gives_each_local_its_own_buffer() {
    let text = "rk.func @k(out %0: *mut [u32; 2]) kernel {
  %1 = rk.local : *mut [u32; 1]
  %2 = rk.local : *mut [u32; 1]
  %3 = rk.const 0 : usize
  %4 = rk.elem_ptr %1, %3 : *mut [u32; 1] to *mut u32
  %5 = rk.elem_ptr %2, %3 : *mut [u32; 1] to *mut u32
  %6 = rk.const 7 : u32
  %7 = rk.const 9 : u32
  rk.store %6, %4 : *mut u32
  rk.store %7, %5 : *mut u32
  %8 = rk.load %4 : *mut u32
  %9 = rk.elem_ptr %0, %3 : *mut [u32; 2] to *mut u32
  rk.store %8, %9 : *mut u32
  rk.return
}
";
    let m = parse_module(text).unwrap();
    verify(&m).unwrap();
    let launch = interp::Launch { grid: [1, 1, 1], block: [1, 1, 1], dyn_shared: 0 };
    let mut args = [interp::Arg::Buffer(vec![0; 8])];
    interp::run(&m, "k", launch, &mut args).unwrap();
    let interp::Arg::Buffer(out) = &args[0] else { unreachable!() };
    assert_eq!(out[0], 7);
}

/// A module table: verified against its type, printed and parsed back, and read by the
/// interpreter; a table with the wrong number of elements is refused.
#[test]
fn tables_verify_round_trip_and_run() {
    let text = "rk.data @T : [[i16; 2]; 2] = [1, -2, 3, -4]

rk.func @k(out %0: *mut [i16; 1]) kernel {
  %1 = rk.table @T : *const [[i16; 2]; 2]
  %2 = rk.const 1 : usize
  %3 = rk.elem_ptr %1, %2 : *const [[i16; 2]; 2] to *const [i16; 2]
  %4 = rk.elem_ptr %3, %2 : *const [i16; 2] to *const i16
  %5 = rk.load %4 : *const i16
  %6 = rk.const 0 : usize
  %7 = rk.elem_ptr %0, %6 : *mut [i16; 1] to *mut i16
  rk.store %5, %7 : *mut i16
  rk.return
}
";
    let m = parse_module(text).unwrap();
    verify(&m).unwrap();
    assert_eq!(crate::print_module(&m), text);
    let launch = interp::Launch { grid: [1, 1, 1], block: [1, 1, 1], dyn_shared: 0 };
    let mut args = [interp::Arg::Buffer(vec![0; 2])];
    interp::run(&m, "k", launch, &mut args).unwrap();
    let interp::Arg::Buffer(out) = &args[0] else { unreachable!() };
    assert_eq!(i16::from_le_bytes([out[0], out[1]]), -4);

    let short = parse_module(&text.replace("[1, -2, 3, -4]", "[1, -2, 3]")).unwrap();
    let e = verify(&short).unwrap_err();
    assert!(e.to_string().contains("has 4 elements, the table gives 3"), "{e}");
}

/// Conversions to the 16-bit floats round once, to nearest with ties to even, from the exact
/// f64: for random f64s near each type's range (and every tie between two neighbours), the
/// result is a neighbour of the value no farther than the other one, and the even one on a tie.
#[test]
fn half_conversions_round_to_nearest_even() {
    use crate::types::FloatTy;
    let mut state = 0x1234_5678_9abc_def1u64;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    for f in [FloatTy::F16, FloatTy::Bf16] {
        // Exponents from below the subnormals to beyond the largest finite value.
        let (lo, hi) = if f == FloatTy::F16 { (-27, 17) } else { (-136, 129) };
        let check = |x: f64| {
            let r = f.bits_of(x);
            let v = f.value_of(r);
            // The neighbours of the result on the number line (same sign), as bit patterns.
            let up = f.value_of(r + 1);
            let down = if r & 0x7FFF == 0 { -v } else { f.value_of(r - 1) };
            for n in [up, down] {
                if n.is_nan() || v.is_infinite() {
                    continue;
                }
                let (d, dn) = ((x - v).abs(), (x - n).abs());
                assert!(
                    d < dn || (d == dn && r & 1 == 0),
                    "{f:?}: {x:e} rounded to {v:e} ({r:#x}), but {n:e} is nearer or even"
                );
            }
        };
        for _ in 0..200_000 {
            let r = next();
            let e = lo + (r % (hi - lo) as u64) as i32;
            let x = f64::from_bits((r >> 12) | 0x3FF0_0000_0000_0000) * 2f64.powi(e);
            check(if r & 1 == 0 { x } else { -x });
        }
        // Every midpoint between two finite neighbours is a tie, rounded to the even one.
        let top = if f == FloatTy::F16 { 0x7BFFu128 } else { 0x7F7F };
        for bits in 0..top {
            let (a, b) = (f.value_of(bits), f.value_of(bits + 1));
            if b.is_finite() {
                check((a + b) / 2.0);
            }
        }
    }
}

/// Arithmetic on 16-bit floats is the IEEE operation of the type: the interpreter's result
/// equals the exactly rounded f64 result (f64 holds every sum, difference and product of two
/// 16-bit values exactly), on every pair of a sample of values.
#[test]
fn half_arithmetic_is_rounded_once() {
    use crate::ir::BinOp;
    use crate::types::FloatTy;
    for f in [FloatTy::F16, FloatTy::Bf16] {
        let ty = Type::Float(f);
        let sample: Vec<u128> = (0..0xFFFFu128).step_by(97).collect();
        for &a in &sample {
            for &b in sample.iter().step_by(7) {
                let (x, y) = (f.value_of(a), f.value_of(b));
                for (op, exact) in [(BinOp::Add, x + y), (BinOp::Sub, x - y), (BinOp::Mul, x * y)] {
                    let got = interp::eval_binary(op, &ty, &ty, a, b).unwrap();
                    let want = f.bits_of(exact);
                    assert!(
                        got == want || (f.value_of(got).is_nan() && exact.is_nan()),
                        "{f:?} {op:?} {x:e} {y:e}: {got:#x} vs {want:#x}"
                    );
                }
            }
        }
    }
}

/// `rk.copy_async` copies its value, and an address that is not a multiple of the copy's size
/// (a misaligned-address fault on the GPU) is an error in the interpreter, never a copy.
#[test]
fn asynchronous_copies_need_aligned_addresses() {
    let text = "rk.func @k(src %0: *const u32, dst %1: *mut u32, at %2: usize) kernel {
  %3 = rk.ptr_offset %0, %2 : *const u32
  %4 = rk.cast %3 : *const u32 to *const [u32; 4]
  %5 = rk.cast %1 : *mut u32 to *mut [u32; 4]
  rk.copy_async %5, %4 : *mut [u32; 4]
  rk.async_commit
  rk.async_wait 0
  rk.return
}
";
    let m = parse_module(text).unwrap();
    verify(&m).unwrap();
    assert_eq!(crate::print_module(&m), text);
    let launch = interp::Launch { grid: [1, 1, 1], block: [1, 1, 1], dyn_shared: 0 };
    let input: Vec<u8> = (0..32).collect();
    let run = |offset: u64| {
        let mut args = [
            interp::Arg::Buffer(input.clone()),
            interp::Arg::Buffer(vec![0; 16]),
            interp::Arg::Scalar(offset),
        ];
        interp::run(&m, "k", launch, &mut args).map(|_| match &args[1] {
            interp::Arg::Buffer(out) => out.clone(),
            _ => unreachable!(),
        })
    };
    assert_eq!(run(4).unwrap(), (16..32).collect::<Vec<u8>>());
    let e = run(1).unwrap_err();
    assert!(matches!(e, interp::InterpError::Misaligned { bytes: 16, .. }), "{e}");
}

/// `rk.ldmatrix` gives lane 0 its fragment elements of the row-major tile (`A`: rows 0 and 8,
/// columns 0, 1, 8, 9; `B`: rows 0, 1, 8, 9 of column 0), and refuses rows that do not start
/// 16-byte aligned, where `ldmatrix` faults.
#[test]
fn ldmatrix_loads_the_lanes_fragment_from_aligned_rows() {
    let text = "rk.func @k(tile %0: *const f16, stride %1: usize, out %2: *mut [f16; 12]) kernel {
  %3, %4, %5, %6, %7, %8, %9, %10 = rk.ldmatrix a %0, %1 : *const f16
  %11, %12, %13, %14 = rk.ldmatrix b %0, %1 : *const f16
  %15 = rk.const 0 : usize
  %16 = rk.elem_ptr %2, %15 : *mut [f16; 12] to *mut f16
  rk.store %3, %16 : *mut f16
  %17 = rk.const 1 : usize
  %18 = rk.elem_ptr %2, %17 : *mut [f16; 12] to *mut f16
  rk.store %4, %18 : *mut f16
  %19 = rk.const 2 : usize
  %20 = rk.elem_ptr %2, %19 : *mut [f16; 12] to *mut f16
  rk.store %5, %20 : *mut f16
  %21 = rk.const 5 : usize
  %22 = rk.elem_ptr %2, %21 : *mut [f16; 12] to *mut f16
  rk.store %8, %22 : *mut f16
  %23 = rk.const 7 : usize
  %24 = rk.elem_ptr %2, %23 : *mut [f16; 12] to *mut f16
  rk.store %10, %24 : *mut f16
  %25 = rk.const 9 : usize
  %26 = rk.elem_ptr %2, %25 : *mut [f16; 12] to *mut f16
  rk.store %12, %26 : *mut f16
  %27 = rk.const 10 : usize
  %28 = rk.elem_ptr %2, %27 : *mut [f16; 12] to *mut f16
  rk.store %13, %28 : *mut f16
  rk.return
}
";
    let m = parse_module(text).unwrap();
    verify(&m).unwrap();
    assert_eq!(crate::print_module(&m), text);
    let launch = interp::Launch { grid: [1, 1, 1], block: [1, 1, 1], dyn_shared: 0 };
    // Element `e` of the tile holds the bits `e`, so each result names its index.
    let tile: Vec<u8> = (0..16 * 24u16).flat_map(u16::to_le_bytes).collect();
    let run = |stride: u64| {
        let mut args = [
            interp::Arg::Buffer(tile.clone()),
            interp::Arg::Scalar(stride),
            interp::Arg::Buffer(vec![0; 24]),
        ];
        interp::run(&m, "k", launch, &mut args).map(|_| match &args[2] {
            interp::Arg::Buffer(out) => {
                out.chunks(2).map(|b| u16::from_le_bytes([b[0], b[1]])).collect::<Vec<_>>()
            }
            _ => unreachable!(),
        })
    };
    let out = run(24).unwrap();
    // A: a0 = (0, 0), a1 = (0, 1), a2 = (8, 0), a5 = (0, 9), a7 = (8, 9); B: b1 = (1, 0), b2 = (8, 0).
    assert_eq!([out[0], out[1], out[2], out[5], out[7]], [0, 1, 8 * 24, 9, 8 * 24 + 9]);
    assert_eq!([out[9], out[10]], [24, 8 * 24]);
    let e = run(20).unwrap_err();
    assert!(matches!(e, interp::InterpError::Misaligned { bytes: 16, .. }), "{e}");
}

/// The expansions for targets without `mma.sync`, `cp.async` or `ldmatrix` run after the
/// kernel's panic sites are numbered for the fat binary's metadata (the host image's and the
/// older GPUs' lowering numbers the checks it emits in the same walk), so they keep every site:
/// a site they added would shift the messages of the panics after it.
#[test]
fn target_expansions_keep_the_panic_sites() {
    let text = "rk.func @k(tile %0: *const f16, stride %1: usize, out %2: *mut [f32; 4], i %3: usize) kernel {
  %4, %5, %6, %7, %8, %9, %10, %11 = rk.ldmatrix a %0, %1 : *const f16
  %12, %13, %14, %15 = rk.ldmatrix b %0, %1 : *const f16
  %16 = rk.const 0.0 : f32
  %17, %18, %19, %20 = rk.mma f16 %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %16, %16, %16
  %21 = rk.cast %2 : *mut [f32; 4] to *mut u32
  %22 = rk.cast %2 : *mut [f32; 4] to *const u32
  rk.copy_async %21, %22 : *mut u32
  rk.async_commit
  rk.async_wait 0
  %23 = rk.const 4 : usize
  rk.bounds_check %3, %23 at 14:3
  %24 = rk.elem_ptr %2, %3 : *mut [f32; 4] to *mut f32
  rk.store %17, %24 : *mut f32
  %25 = rk.div %1, %3 : usize
  rk.return
}
";
    let m = parse_module(text).unwrap();
    verify(&m).unwrap();
    let sites = |m: &crate::Module| crate::panics::panic_sites(&m.funcs[0]);
    let before = sites(&m);
    assert_eq!(before.len(), 2, "{before:?}");
    let mut expanded = m.clone();
    crate::passes::without_sm80(&mut expanded);
    verify(&expanded).unwrap();
    assert!(!crate::passes::has_ldmatrix(&expanded) && !crate::passes::has_mma(&expanded));
    assert_eq!(sites(&expanded), before);
}

/// A kernel whose only exchange is a warpgroup multiply runs with its block's threads together
/// (the runtime's metadata asks the simulator for that through `interp::synchronises`), and its
/// expansion, plain loads and arithmetic, no longer needs to.
#[test]
fn warpgroup_multiplies_synchronise_until_expanded() {
    let d: Vec<String> = (0..32).map(|i| format!("%{}", 8 + i)).collect();
    let text = format!(
        "rk.func @k(a %0: *const f16, out %1: *mut f32) kernel {{\n  %2 = rk.const 64 : usize\n  %3 = rk.const 128 : usize\n  %4 = rk.const 512 : usize\n  %5 = rk.const 0.0 : f32\n  {} = rk.wgmma f16 64 %0, %2, %3, %0, %4, %2, {}\n  rk.store %8, %1 : *mut f32\n  rk.return\n}}\n",
        d.join(", "),
        vec!["%5"; 32].join(", ")
    );
    let mut m = parse_module(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    verify(&m).unwrap();
    let k = m.funcs[0].clone();
    assert!(interp::synchronises(&m, &k, &mut Vec::new()));
    passes::expand_wgmma(&mut m);
    verify(&m).unwrap();
    let k = m.funcs[0].clone();
    assert!(!interp::synchronises(&m, &k, &mut Vec::new()));
}
