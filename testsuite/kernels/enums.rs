//! Enums with data, as ray tracers and interpreters on GPUs use them: a `Shape` with struct
//! and tuple variants and methods, `match` with bindings, guards, nested patterns and `@`,
//! `impl` on the enum, an enum in an `Option`, a tiny stack machine over an instruction
//! enum, and a `#[repr(u8)]` fieldless enum converted with `as` and `TryFrom`.
use rkc_offload::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    Circle { r: f32 },
    Rect { w: f32, h: f32 },
    Triangle(f32, f32, f32),
    Point,
}

impl Shape {
    fn area(&self) -> f32 {
        match *self {
            Shape::Circle { r } => core::f32::consts::PI * r * r,
            Shape::Rect { w, h } => w * h,
            Shape::Triangle(a, b, c) => {
                let s = (a + b + c) / 2.0;
                (s * (s - a) * (s - b) * (s - c)).max(0.0).sqrt()
            }
            Shape::Point => 0.0,
        }
    }

    fn scaled(self, k: f32) -> Shape {
        match self {
            Shape::Circle { r } => Shape::Circle { r: r * k },
            Shape::Rect { w, h } => Shape::Rect { w: w * k, h: h * k },
            Shape::Triangle(a, b, c) => Shape::Triangle(a * k, b * k, c * k),
            p @ Shape::Point => p,
        }
    }

    fn from_code(code: u32, x: f32) -> Option<Shape> {
        match code % 5 {
            0 => Some(Shape::Circle { r: x }),
            1 => Some(Shape::Rect { w: x, h: x / 2.0 }),
            2 => Some(Shape::Triangle(x, x, x)),
            3 => Some(Shape::Point),
            _ => None,
        }
    }
}

#[offload_kernel]
pub fn shapes(codes: *const [u32; 64], sizes: *const [f32; 64], out: *mut [f32; 64]) {
    // SAFETY: the pointers are mapped for the launch; the thread index is below 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let x = (*sizes)[t].abs() / 10.0;
        let shape = Shape::from_code((*codes)[t], x);
        (*out)[t] = match shape.map(|s| s.scaled(2.0)) {
            Some(s @ Shape::Circle { .. }) if s.area() > 100.0 => -1.0,
            Some(Shape::Rect { w, h: height }) if w > height * 3.0 => w,
            Some(s) => s.area() + (s == Shape::Point) as u32 as f32,
            None => -2.0,
        };
    }
}

#[derive(Clone, Copy)]
enum Instr {
    Push(i32),
    Add,
    Mul,
    Dup,
    Swap,
    JumpIfNeg(usize),
    Halt,
}

/// A stack machine with a fixed program: `match` on an instruction enum in a loop, with a
/// small local stack.
fn run(program: &[Instr], input: i32) -> i32 {
    let mut stack = [0i32; 8];
    let mut sp = 1;
    stack[0] = input;
    let mut pc = 0;
    let mut fuel = 32;
    while fuel > 0 {
        fuel -= 1;
        let Some(&instr) = program.get(pc) else { break };
        pc += 1;
        match instr {
            Instr::Push(v) => {
                stack[sp] = v;
                sp += 1;
            }
            Instr::Add | Instr::Mul => {
                sp -= 1;
                let (a, b) = (stack[sp - 1], stack[sp]);
                stack[sp - 1] =
                    if matches!(instr, Instr::Add) { a.wrapping_add(b) } else { a.wrapping_mul(b) };
            }
            Instr::Dup => {
                stack[sp] = stack[sp - 1];
                sp += 1;
            }
            Instr::Swap => stack.swap(sp - 1, sp - 2),
            Instr::JumpIfNeg(target) => {
                if stack[sp - 1] < 0 {
                    pc = target;
                }
            }
            Instr::Halt => break,
        }
    }
    stack[sp - 1]
}

#[offload_kernel]
pub fn stack_machine(xs: *const [i32; 64], out: *mut [i32; 64]) {
    // SAFETY: `xs` and `out` are mapped for the launch; the thread index is below 64.
    unsafe {
        let t = thread_idx_x() as usize;
        // x * x + 3, negated inputs first made positive by the jump's branch.
        let program = [
            Instr::JumpIfNeg(6),
            Instr::Dup,
            Instr::Mul,
            Instr::Push(3),
            Instr::Add,
            Instr::Halt,
            Instr::Push(-1),
            Instr::Mul,
            Instr::Push(7),
            Instr::Swap,
            Instr::Halt,
        ];
        (*out)[t] = run(&program, (*xs)[t] % 1000);
    }
}

#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Low = 1,
    Mid = 5,
    High = 9,
}

impl TryFrom<u32> for Level {
    type Error = u32;
    fn try_from(v: u32) -> Result<Level, u32> {
        match v {
            1 => Ok(Level::Low),
            5 => Ok(Level::Mid),
            9 => Ok(Level::High),
            other => Err(other),
        }
    }
}

#[offload_kernel]
pub fn levels(xs: *const [u32; 64], out: *mut [u32; 64]) {
    // SAFETY: `xs` and `out` are mapped for the launch; the thread index is below 64.
    unsafe {
        let t = thread_idx_x() as usize;
        let v = (*xs)[t] % 11;
        let level = Level::try_from(v);
        let code = match level {
            Ok(l) if l >= Level::Mid => l as u32 * 100,
            Ok(l) => l as u8 as u32,
            Err(e) => 1000 + e,
        };
        let highest =
            [Level::Mid, Level::Low, Level::High].into_iter().max().map_or(0, |l| l as u32);
        (*out)[t] = code + highest * 10_000;
    }
}
