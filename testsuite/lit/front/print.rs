// `println!` and its family become one `rk.print` each: the format names every value by its
// index, a value shown twice is evaluated once, string literal arguments are formatted into
// the text, references are read through, and `eprintln!` goes to standard error.
// RUN: rkc-opt %s
use rkc_offload::prelude::*;

#[offload_kernel]
fn k(xs: *const [f32; 4]) {
    let i = unsafe { thread_idx_x() } as usize;
    let x = unsafe { &(*xs)[i % 4] };
    println!("thread {i:>3}: {x:.2} {0:e} {1} {{}}", x, "lit");
    print!("{}", i as i128);
    eprintln!("{:?} {}", i == 0, char::from(b'a'));
    println!();
}
// CHECK-LABEL: rk.func @k(xs %0: *const [f32; 4]) kernel {
// CHECK-NEXT:   %1 = rk.thread_id x : u32
// CHECK-NEXT:   %2 = rk.cast %1 : u32 to usize
// CHECK-NEXT:   %3 = rk.const 4 : usize
// CHECK-NEXT:   %4 = rk.rem %2, %3 : usize
// CHECK-NEXT:   %5 = rk.const 4 : usize
// CHECK-NEXT:   rk.bounds_check %4, %5 at 10:23
// CHECK-NEXT:   %6 = rk.elem_ptr %0, %4 : *const [f32; 4] to *const f32
// CHECK-NEXT:   %7 = rk.load %6 : *const f32
// CHECK-NEXT:   %8 = rk.load %6 : *const f32
// CHECK-NEXT:   rk.print %2, %7, %8 : u64, f32, f32 "thread {0:>3}: {1:.2} {2:e} lit {{}}\n" at 11:5
// CHECK-NEXT:   %9 = rk.cast %2 : usize to i128
// CHECK-NEXT:   rk.print %9 : i128 "{0}" at 12:5
// CHECK-NEXT:   %10 = rk.const 0 : usize
// CHECK-NEXT:   %11 = rk.cmp eq %2, %10 : usize
// CHECK-NEXT:   %12 = rk.const 97 : u8
// CHECK-NEXT:   %13 = rk.call @"<char as From>::from"(%12) : (u8) -> u32
// CHECK-NEXT:   rk.print stderr %11, %13 : bool, char "{0:?} {1}\n" at 13:5
// CHECK-NEXT:   rk.print "\n" at 14:5
// CHECK-NEXT:   rk.return
// CHECK-NEXT: }
// CHECK-LABEL: rk.func @"<char as From>::from"(v %0: u8) -> u32 {
// CHECK-NEXT:   %1 = rk.cast %0 : u8 to u32
// CHECK-NEXT:   rk.return %1 : u32
// CHECK-NEXT: }
