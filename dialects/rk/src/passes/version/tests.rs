//! The proof's arithmetic at the edges of `usize`: for each loop below, the versioned function
//! and the original give the same result (the iterations counted, or the same panic) for
//! arguments at and around 0, 2^63 and `usize::MAX`, where a sum or product in the proof could
//! wrap if it were computed in the index's own width without care (see `Proof`).

use crate::interp::{self, Arg, InterpError, Launch};
use crate::{parse_module, verify};

/// A kernel counting the iterations of `j = t; while j < cols { check(INDEX < len); j += STEP }`
/// into `out[0]`, with `INDEX` computed from `j`, `base` and `row` by the ops in `index`
/// (which define `%12` from `%11`, the read of `j`).
fn kernel(index: &str, step: u64) -> String {
    format!(
        "rk.func @k(cols %0: usize, base %1: usize, len %2: usize, t %3: usize, row %4: usize, out %5: *mut u64) kernel {{
  %6 = rk.var : usize
  rk.write %3, %6 : usize
  %7 = rk.var : u64
  %8 = rk.const 0 : u64
  rk.write %8, %7 : u64
  rk.loop {{
    %9 = rk.read %6 : usize
    %10 = rk.cmp lt %9, %0 : usize
    %20 = rk.not %10 : bool
    rk.if %20 {{
      rk.break
    }} else {{
    }}
    %11 = rk.read %6 : usize
{index}
    rk.bounds_check %12, %2 at 1:1
    %13 = rk.const 1 : u64
    %14 = rk.read %7 : u64
    %15 = rk.add %14, %13 : u64
    rk.write %15, %7 : u64
    %16 = rk.const {step} : usize
    %17 = rk.read %6 : usize
    %18 = rk.add %17, %16 : usize
    rk.write %18, %6 : usize
  }}
  %19 = rk.read %7 : u64
  rk.store %19, %5 : *mut u64
  rk.return
}}
"
    )
}

/// The iterations counted, or the panic's message, or that the loop did not end (a step that
/// wraps `j` past `usize::MAX` can keep it below `cols` for ever).
fn outcome(m: &crate::Module, args: [u64; 5]) -> Result<u64, String> {
    let launch = Launch { grid: [1, 1, 1], block: [1, 1, 1], dyn_shared: 0 };
    let mut a: Vec<Arg> = args.iter().map(|v| Arg::Scalar(*v)).collect();
    a.push(Arg::Buffer(vec![0; 8]));
    match interp::run_with_limit(m, "k", launch, &mut a, 5_000) {
        Ok(()) => match &a[5] {
            Arg::Buffer(out) => Ok(u64::from_le_bytes(out[..8].try_into().unwrap())),
            _ => unreachable!(),
        },
        Err(InterpError::Panic { message, .. }) => Err(message),
        Err(InterpError::StepLimit) => Err("no end".into()),
        Err(e) => panic!("the kernel did not run: {e}"),
    }
}

/// The most iterations a compared loop runs (longer ones are skipped, except those that wrap
/// for ever, which the step limit ends).
const MAX_ITERATIONS: u128 = 8;

fn agree(index: &str, step: u64) {
    let text = kernel(index, step);
    let original = parse_module(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    verify(&original).unwrap();
    let mut versioned = original.clone();
    assert_eq!(crate::passes::version_loops(&mut versioned, true), 1, "not versioned:\n{text}");
    verify(&versioned).unwrap();
    // The first and last iterations' edges: around the constants' quotients `usize::MAX / 3`
    // and `usize::MAX / 2^60` (15), where a product starts to wrap, and around `usize::MAX`.
    const M: u64 = u64::MAX;
    let edges = [0, 1, 3, 15, 17, 256, 1 << 63, M / 3, M / 3 + 2, M - 256, M - 2, M - 1, M];
    let bases = [0, 1, 256, 1 << 63, M - 1, M];
    let lens = [0, 1, 3, 256, 1 << 63, M - 2, M];
    let mut compared = 0;
    for cols in edges {
        for t in edges {
            // Only loops short enough to interpret (or that wrap for ever).
            if cols > t && u128::from(cols - t) / u128::from(step) > MAX_ITERATIONS {
                continue;
            }
            for base in bases {
                for len in lens {
                    for row in [0, 3, u64::MAX / 3 + 1] {
                        let args = [cols, base, len, t, row];
                        assert_eq!(
                            outcome(&versioned, args),
                            outcome(&original, args),
                            "cols, base, len, t, row = {args:?}\n{}",
                            crate::print_module(&versioned)
                        );
                        compared += 1;
                    }
                }
            }
        }
    }
    assert!(compared > 1000, "{compared}");
}

/// softmax's shape: `base + j` with a constant step, the proof through the progression's last
/// value and `base <= len && last < len - base`.
#[test]
fn a_sum_of_two_usizes() {
    agree("    %12 = rk.add %1, %11 : usize", 1 << 62);
    agree("    %12 = rk.add %11, %1 : usize", 256);
}

/// A step that is not a power of two: the largest value is `cols - 1`, and `cols - 1 + 3`
/// must not wrap.
#[test]
fn a_sum_with_a_step_of_three() {
    agree("    %12 = rk.add %1, %11 : usize", 3);
}

/// Products by constants (`j * 2^60 + base`, `j * 3 + base`, `row * 3 + base + j`), which fit
/// `usize` where the other factor is at most `usize::MAX / c`; a product that wraps is not
/// monotone in `j`.
#[test]
fn products_by_constants() {
    for (c, step) in [(1u64 << 60, 1u64 << 62), (1 << 60, 1), (3, 1), (3, 1 << 62)] {
        agree(
            &format!(
                "    %21 = rk.const {c} : usize
    %22 = rk.mul %11, %21 : usize
    %12 = rk.add %22, %1 : usize"
            ),
            step,
        );
    }
    agree(
        "    %21 = rk.const 3 : usize
    %22 = rk.mul %4, %21 : usize
    %23 = rk.add %22, %1 : usize
    %12 = rk.add %23, %11 : usize",
        1,
    );
}

/// A loop that leaves in the middle of its body (at `j == row`), after writing a slot. It only
/// reads, so it is versioned with its checks first (see `version`): the checked copy runs alone
/// when the proof fails, and the slots it wrote must get their values back, or the fast copy
/// would start where it stopped and count that exit twice.
#[test]
fn an_early_exit_after_a_write() {
    for step in [1, 3, 256] {
        agree(
            "    %12 = rk.add %1, %11 : usize
    %30 = rk.cmp eq %11, %4 : usize
    rk.if %30 {
      %31 = rk.const 100 : u64
      %32 = rk.read %7 : u64
      %33 = rk.add %32, %31 : u64
      rk.write %33, %7 : u64
      rk.break
    } else {
    }",
            step,
        );
    }
}
