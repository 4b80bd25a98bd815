//! The rk dialect: rkc's kernel IR. This file is its specification.
//!
//! An rk [`Module`] holds functions ([`Func`]); a function's body is a [`Region`], a list of
//! operations ([`Op`]). Each op has operands and results, which are typed SSA values
//! ([`ValueId`], typed by the function's value table), and may hold regions of its own.
//! Control flow is structured: `rk.if` owns its arms, so there are no branches or blocks.
//! Types ([`Type`]) are Rust's, spelled as Rust spells them.
//!
//! # Textual form
//!
//! ```text
//! rk.func @saxpy(%0: usize, %1: f32, %2: *const f32, %3: *mut f32) kernel {
//!   %4 = rk.thread_id x : u32
//!   %5 = rk.cmp lt %4, %4 : u32
//!   rk.if %5 {
//!     rk.yield
//!   } else {
//!     rk.yield
//!   }
//!   rk.return
//! }
//! ```
//!
//! Values are numbered in order of definition, so printing depends only on the IR.
//!
//! Arrays, structs and tuples are never SSA values: they live in memory (`rk.local`, or behind
//! a pointer) and are read and written scalar by scalar. A struct type is spelled with its
//! fields in the text (`*mut Vec2{x: f32, y: f32}`; a tuple is `(u32, f32)`), laid out as C
//! lays it out. A kernel parameter marked `byval` (`p %0: *const Params{...} byval`) is an
//! array, struct or 128-bit integer the kernel takes by value: a `*const` to the launch's copy of it.
//!
//! The float types are `f32`, `f64` and the 16-bit `f16` (IEEE binary16) and `bf16`
//! (bfloat16), which are the `half` crate's types on the host. Each arithmetic op on a 16-bit
//! float is the IEEE operation of that type, rounded to nearest with ties to even (what the
//! GPU's native instructions do, and what `half` computes in f32 and rounds once);
//! conversions to them (`rk.cast`) round to nearest with ties to even from the exact source
//! value. They have no `rk.math` functions except `to_bits`/`from_bits`, no warp exchanges and
//! no atomics.
//!
//! # Operations and their typing rules
//!
//! | op | operands | results | rule and meaning |
//! |---|---|---|---|
//! | `rk.const V : T` | — | `T` | `T` scalar; an integer literal fits `T`'s width |
//! | `rk.thread_id d`, `rk.block_id d`, `rk.block_dim d`, `rk.grid_dim d` | — | `u32` | CUDA's threadIdx, blockIdx, blockDim, gridDim in dimension `d` ∈ {x, y, z} |
//! | `rk.add`, `sub`, `mul`, `div`, `rem` | `T, T` | `T` | `T` numeric. Integers wrap on overflow (Rust's release build); signed division uses `T`'s sign; float ops are IEEE |
//! | `rk.and`, `or`, `xor` | `T, T` | `T` | `T` integer or `bool` |
//! | `rk.shl`, `shr` | `T, U` | `T` | integers; the amount is taken modulo `T`'s width (release build); `shr` is arithmetic for signed `T` |
//! | `rk.cmp P` | `T, T` | `bool` | `P` ∈ {eq, ne, lt, le, gt, ge}; signedness from `T`; float comparisons are ordered (false on NaN) except `ne` |
//! | `rk.neg` | `T` | `T` | signed integer (wrapping) or float |
//! | `rk.not` | `T` | `T` | bitwise on integers, logical on `bool` |
//! | `rk.cast : A to B` | `A` | `B` | Rust's `as` between numeric types (and from `bool`); also the coercions `*mut T` → `*const T` and `&mut [T]` → `&[T]` |
//! | `rk.barrier` | — | — | waits for every thread of the block (`sync_threads()`); every thread must reach the same barriers; every lane of a warp must reach the same `rk.warp` exchanges and `rk.mma`s |
//! | `rk.shared : *mut [T; N]` | — | `*mut [T; N]` | the block's shared array of this source site (`shared_array::<T, N>()`), one per block, uninitialised |
//! | `rk.local : *mut A` | — | `*mut A` | the thread's own array, struct or tuple `A` of this source site (a local `let a = [x; N]`, `let p = P { .. }`), uninitialised; the front end writes every element before any read |
//! | `rk.table @NAME : *const A` | — | `*const A` | the module's read-only table `NAME` (`rk.data @NAME : A = [v, ...]` at the top of the text: an array `A`, possibly nested, of integers or floats, its elements in memory order); one copy in device memory that every thread reads |
//! | `rk.field_ptr %p, k` | `*S` | `*F` | address of field `k` of the struct or tuple `S` (same mutability), at its C-layout offset |
//! | `rk.atomic op` | `*mut T, T` | `T` | atomic `op` ∈ {add, sub, and, or, xor, min, max, exchange} through the pointer, relaxed; yields the old value. Integers of 32/64 bits; floats but for and, or and xor |
//! | `rk.atomic_cas` | `*mut T, T, T` | `T` | atomic compare-and-exchange (pointer, current, new), relaxed; yields the old value |
//! | `rk.warp lane_id` | — | `u32` | the thread's lane in its warp (`0..32`; warps are 32 threads of the block's linear order on every target) |
//! | `rk.warp shuffle[_xor\|_up\|_down]` | `T, u32` | `T` | the value of lane `rkc_simt::shuffle_source(mode, lane, k)` (only `k`'s low five bits count; `up`/`down` past the warp's edge keep the own value); `T` a 32/64-bit integer or a float (the front end widens narrower integers) |
//! | `rk.warp any`, `all` / `ballot` | `bool` | `bool` / `u32` | votes over the warp's 32 lanes; the ballot's bit `l` is lane `l`'s vote |
//! | `rk.warp reduce_add`, `reduce_min`, `reduce_max` | `T` | `T` | the warp's reduction in butterfly order (`rkc_simt::butterfly`), the same in every lane; `min`/`max` on floats are Rust's (NaN-ignoring) |
//! | `rk.mma f16\|bf16` | 8 + 4 of `f16`/`bf16`, 4 `f32` | 4 `f32` | one warp's 16×8×16 matrix multiply-accumulate `D = A·B + C`: the lane's fragments of `A` (eight elements), `B` (four) and `C` in PTX's m16n8k16 layouts (`rkc_simt::mma`); each element of `D` is `C` plus the sixteen products added in `k`'s order in `f64` and rounded once. A warp exchange: every lane must reach it |
//! | `rk.ldmatrix a\|b` | `*T, usize` | 8 (`a`) or 4 (`b`) `T` | `T` `f16` or `bf16`: the lane's fragment of `rk.mma`'s `A` (a 16×16 tile) or `B` (16×8, `k` by `n`), read from the row-major tile at the pointer whose rows are `stride` elements apart: the same elements as loading them one by one. On NVIDIA `ldmatrix`, which needs the tile in shared memory, each row 16-byte aligned and the same tile and stride in every lane of the warp |
//! | `rk.wgmma f16\|bf16 N [sw128]` | `*T, usize, usize, *T, usize, usize`, `N / 2` `f32` | `N / 2` `f32` | the warpgroup's (four warps, 128 threads) 64×N×16 multiply-accumulate `D = A·B + D`, `N` 64, 128 or 256: `A` (64×16) and `B` (16×N) read from the tiles at the two pointers in the layout `rkc_simt::wgmma` defines (without swizzling: two strides each; `sw128`: `a_k0`, `a_m`, `b_k`, `b_n`), the thread's elements of `D` in and out; each element `D` plus the sixteen products added in `k`'s order in `f64` and rounded once. Every thread of the warpgroup must reach it |
//! | `rk.wgmma_sync proxy_fence\|fence\|commit\|wait N` | — | — | the orderings around `rk.wgmma` on a GPU (`fence.proxy.async`, `wgmma.fence`, `wgmma.commit_group`, `wgmma.wait_group N`); nothing on the CPU, which computes each multiply at once |
//! | `rk.copy_async` | `*mut T, *T` | — | starts copying the `T` (4, 8 or 16 bytes, both addresses aligned to its size) at the second pointer into the first (`cp_async`); the destination may be read only after a wait that covers it |
//! | `rk.async_commit` / `rk.async_wait N` | — | — | closes the thread's group of copies started since its last commit / waits until at most `N` of its groups are pending |
//! | `rk.dyn_shared : *mut T` | — | `*mut T` | the block's dynamic shared memory (the launch's `dyn_cache` bytes), `T` scalar, 16-byte aligned |
//! | `rk.fence block\|device` | — | — | a sequentially consistent memory fence for the block's / the device's threads |
//! | `rk.slice_len` | `&[T]` or `&mut [T]` | `usize` | the slice's length in elements |
//! | `rk.slice_ptr : S to P` | a slice | `*const T` (`*mut T` for `&mut [T]`) | a pointer to the slice's first element |
//! | `rk.ptr_offset` | `*T, usize\|isize` | `*T` | `p.add(i)` / `p.offset(i)`: advance by `i` elements |
//! | `rk.elem_ptr` | `*[T; N], usize` | `*T` | address of element `i` (same mutability); no check, see `rk.bounds_check` |
//! | `rk.load` | `*T` | `T` | `T` scalar |
//! | `rk.store` | `T, *mut T` | — | `T` scalar |
//! | `rk.bounds_check at L:C` | `usize i, usize n` | — | device panic "index out of bounds" at `L:C` unless `i < n` |
//! | `rk.assert "msg" at L:C` | `bool` | — | device panic with `msg` at `L:C` unless the operand holds (`assert!`, `panic!`) |
//! | `rk.print [stderr] %a, ... : K, ... "fmt" at L:C` | scalars carrying the kinds `K` | — | writes the text of Rust's format `fmt` (every argument by index, `{0:>8.3}`) for the operands, shown as the kinds say (`u8`…`i128`, `f16`, `bf16`, `f32`, `f64`, `bool`, `char` carried as its `u32`), to the launch's standard output (or error); one print's text stays whole; the order between threads is unspecified (`print!`, `println!`, `eprint!`, `eprintln!`) |
//! | `rk.math f` | per [`math::MathFn::result_type`] | one | the Rust method `f` of a primitive type: `sqrt`, `exp`, `sin`, `min`, `mul_add` (fused), `count_ones`, `to_bits`... with Rust's semantics |
//! | `rk.var : T` | — | `slot<T>` | a mutable local (`let mut`), `T` scalar |
//! | `rk.read` / `rk.write` | `slot<T>` / `T, slot<T>` | `T` / — | read or write a slot |
//! | `rk.loop [cold \| unroll]` | — | any | runs its region again whenever it ends or `rk.continue`s; its results come from `rk.break`; `cold` marks a loop nested in the checked copy that loop versioning keeps, which the back ends do not unroll; `unroll`, a loop that steps through a small thread-private array, which they unroll completely when its trip count is a constant (see [`LoopHint`]) |
//! | `rk.break [d]` / `rk.continue [d]` | the loop's result types / — | — | leave / restart the loop `d` levels out (0 = innermost) |
//! | `rk.call @f` | `f`'s parameters | `f`'s result | calls the device function `f` (inlined before lowering) |
//! | `rk.if` | `bool` | any | two regions (then, else); each ends in `rk.yield` of the results' types, or in `rk.return`; without results an arm may also just end |
//! | `rk.yield` | any | — | ends an `rk.if` arm |
//! | `rk.return` | the function's return type, or nothing for `()` | — | ends the function |
//!
//! A function body must end in `rk.return`; a kernel returns `()`. Every operand must be
//! defined earlier in its region or in an enclosing one; every value is defined once.
//!
//! # Crate boundaries
//!
//! This crate depends on neither syn nor MLIR: it builds and tests in seconds, and everything
//! that reasons about kernels (verifier, printer) works without LLVM.

pub mod interp;
pub mod ir;
pub mod math;
pub mod panics;
pub mod parse;
pub mod passes;
pub mod print;
pub mod prints;
pub mod types;
pub mod verify;

pub use ir::{
    AtomicOp, BinOp, CmpOp, Dim, FenceScope, Func, Geometry, Literal, Loc, LoopHint, MatrixOperand,
    Module, Op, OpKind, Param, ReduceOp, Region, Table, ValueId, WarpOp, WgmmaSync,
};
pub use parse::{ParseError, parse_module};
pub use print::print_module;
pub use rkc_simt::mma::{self, MmaType};
pub use rkc_simt::wgmma;
pub use rkc_simt::{MISALIGNED_LDMATRIX, ShuffleMode, WARP_SIZE, misaligned_async_copy};
pub use types::{FloatTy, IntTy, Type};
pub use verify::{Verified, VerifyError, verify};

#[cfg(test)]
mod tests;
