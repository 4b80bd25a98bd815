//! Every diagnostic code the front end emits, with the explanation `rkc --explain` prints.

pub const RK_SYNTAX: &str = "RK0001";
pub const RK_NO_KERNEL: &str = "RK0002";
pub const RK_NON_EXHAUSTIVE: &str = "RK0004";
pub const RK_REFUTABLE_LET: &str = "RK0005";
pub const RK_MISSING_TRAIT_ITEMS: &str = "RK0046";
pub const RK_ARGUMENT_COUNT: &str = "RK0061";
pub const RK_MISSING_FIELD: &str = "RK0063";
pub const RK_INVALID_ASSIGN: &str = "RK0070";
pub const RK_UNSUPPORTED_TYPE: &str = "RK0101";
pub const RK_CONFLICTING_IMPLS: &str = "RK0119";
pub const RK_MISSING_GENERICS: &str = "RK0107";
pub const RK_UNSUPPORTED_EXPR: &str = "RK0102";
pub const RK_UNSUPPORTED_PATTERN: &str = "RK0104";
pub const RK_REQUIRES_UNSAFE: &str = "RK0133";
pub const RK_UNKNOWN_NAME: &str = "RK0201";
pub const RK_UNKNOWN_FUNCTION: &str = "RK0202";
pub const RK_UNKNOWN_METHOD: &str = "RK0203";
pub const RK_BREAK_OUTSIDE_LOOP: &str = "RK0268";
pub const RK_UNSATISFIED_BOUND: &str = "RK0277";
pub const RK_CANNOT_INFER: &str = "RK0282";
pub const RK_MISMATCHED_TYPES: &str = "RK0301";
pub const RK_LITERAL_OUT_OF_RANGE: &str = "RK0302";
pub const RK_INVALID_CAST: &str = "RK0303";
pub const RK_USE_UNINIT: &str = "RK0381";
pub const RK_ASSIGN_IMMUTABLE: &str = "RK0384";
pub const RK_KERNEL_RETURNS_VALUE: &str = "RK0401";
pub const RK_GENERIC_KERNEL: &str = "RK0402";
pub const RK_ASYNC_KERNEL: &str = "RK0403";
pub const RK_BAD_KERNEL_PARAM: &str = "RK0404";
pub const RK_DUPLICATE_KERNEL: &str = "RK0405";
pub const RK_RECURSION: &str = "RK0406";
pub const RK_CALL_KERNEL: &str = "RK0407";
pub const RK_STATIC: &str = "RK0409";
pub const RK_DIVERGENT_BARRIER: &str = "RK0410";
pub const RK_NOT_TRAIT_MEMBER: &str = "RK0437";
pub const RK_BREAK_WITH_VALUE: &str = "RK0571";
pub const RK_DUPLICATE_DEFINITION: &str = "RK0592";
pub const RK_ASSIGN_THROUGH_CONST: &str = "RK0594";
pub const RK_UNKNOWN_FIELD: &str = "RK0609";
pub const RK_AMBIGUOUS_NUMERIC: &str = "RK0689";
pub const RK_INTERNAL: &str = "RK0999";

/// (code, one-line title, explanation) for every code above.
pub const EXPLANATIONS: &[(&str, &str, &str)] = &[
    (
        RK_SYNTAX,
        "the file is not valid Rust",
        "rkc parses kernels.rs as a Rust file (with syn). Fix the syntax error; `cargo check` on the host crate shows the same error.",
    ),
    (
        RK_NO_KERNEL,
        "no kernel in the file",
        "rkc compiles the functions marked `#[offload_kernel]`. A file with none has nothing to compile. Mark at least one function:\n\n    #[offload_kernel]\n    fn kernel(x: *mut [f64; 256]) { ... }",
    ),
    (
        RK_NON_EXHAUSTIVE,
        "a `match` that does not cover every value",
        "A `match` must cover every value of its scrutinee (rustc's E0004); the message names a value no arm covers. Add arms for it, or a `_ => ...` arm.",
    ),
    (
        RK_MISSING_TRAIT_ITEMS,
        "an impl that leaves out items of its trait",
        "An impl of a trait must define every item the trait declares without a default: each method without a body, each associated type and constant without a value (rustc's E0046). Add the missing items to the impl, or give them defaults in the trait.",
    ),
    (
        RK_REFUTABLE_LET,
        "a `let` whose pattern does not match every value",
        "A `let` without `else` must bind every value of its type (rustc's E0005); the message names a value the pattern does not match. Use `let PATTERN = value else { return; };` to leave on the others, or `if let` / `match`.",
    ),
    (
        RK_ARGUMENT_COUNT,
        "a call with the wrong number of arguments",
        "The call passes more or fewer arguments than the function declares (rustc's E0061).",
    ),
    (
        RK_MISSING_FIELD,
        "a struct literal or pattern that leaves out fields",
        "A struct literal must give every field a value (or copy the rest with `..base`), and a struct pattern must name every field (or end with `..`), as rustc requires (E0063, E0027).",
    ),
    (
        RK_MISSING_GENERICS,
        "a type written without a generic argument it needs",
        "A type's const parameters must be given where the type is written (`Buf<8>`), unless the parameter has a default (`struct Buf<const N: usize = 8>`) or the type is inferred from a value (rustc's E0107).",
    ),
    (
        RK_INVALID_ASSIGN,
        "an assignment to something that is not a place",
        "The left side of `=` must be a place: a variable, a field, an element, or `*p` (rustc's E0070). A constant, a literal or a call's result is a value, not a place.",
    ),
    (
        RK_UNSUPPORTED_TYPE,
        "a type kernels cannot use",
        "Kernels work on `bool`, `char`, the integer types (`u8` to `u128`, `i8` to `i128`, `usize`, `isize`), `f32`, `f64`; arrays, tuples, structs and enums of them; slices, references and raw pointers; closures and generic code over all of these. Types that own host memory (`Vec`, `String`, `Box`, `HashMap`...), trait objects (`dyn Trait`), function pointers and unions have no device form. Data that crosses to the host (kernel parameters) must have a layout both sides agree on: `#[repr(C)]` structs, `#[repr(C)]` or `#[repr(int)]` enums. A local holds at most 64 KiB. When the type is in a helper function, a note names the kernel that reaches it.",
    ),
    (
        RK_UNSUPPORTED_EXPR,
        "an expression kernels cannot use",
        "The expression has no device meaning: `async` code, macros that build host values (`format!`, `vec!`, `write!`...), prints of values other than integers, floats, `bool`, `char` and string literals, panic messages with formatting beyond `{}` and `{:?}` of up to two integers, and array lengths or const arguments that rkc cannot evaluate at compile time (rkc evaluates integer, `bool` and `char` arithmetic, casts, `if`, `match`, `let mut`, `while`, `loop` and `const fn` calls; not floats, structs or arrays). The label says what to write instead, or why the value could not be computed.",
    ),
    (
        RK_UNSUPPORTED_PATTERN,
        "a pattern kernels cannot use",
        "String patterns (`\"add\" => ...`) and range patterns whose bounds are not literals or constants cannot be matched in kernels.",
    ),
    (
        RK_REQUIRES_UNSAFE,
        "an unsafe operation outside `unsafe`",
        "Dereferencing a raw pointer, `ptr.add`/`ptr.offset`, and calling the offload builtins are unsafe in Rust (E0133). Kernels are ordinary Rust, so rkc requires an `unsafe` block as rustc does.",
    ),
    (
        RK_UNKNOWN_NAME,
        "a name that is not in scope",
        "The name is not a local, an item of the file, an import, or a name of Rust's prelude (rustc's E0425, E0412). The offload builtins come from `use rkc_offload::prelude::*;`; the help names the `use` that would bring an item of another module into scope.",
    ),
    (
        RK_UNKNOWN_FUNCTION,
        "an associated function that does not exist",
        "`Type::name` names no function or constant of the type's `impl` blocks, the traits it implements, or rkc's core library (rustc's E0599).",
    ),
    (
        RK_UNKNOWN_METHOD,
        "a method that does not exist",
        "No method of that name is found for the receiver's type, through auto-deref and auto-ref, in its `impl` blocks, the traits implemented for it, or rkc's core library (the methods of `core` that kernels use; rustc's E0599).",
    ),
    (
        RK_BREAK_OUTSIDE_LOOP,
        "`break` or `continue` outside a loop",
        "`break` and `continue` must be inside `loop`, `while` or `for` (rustc's E0268), and a labelled `continue` must name a loop, not a labelled block (E0696).",
    ),
    (
        RK_UNSATISFIED_BOUND,
        "a trait bound that does not hold",
        "A generic function, method or impl requires its type parameters to implement traits (`T: Shape`), and the type given does not (rustc's E0277). Implement the trait for the type, or pass a type that implements it.",
    ),
    (
        RK_CANNOT_INFER,
        "a type that cannot be inferred",
        "Inference found no type for a value, often a generic parameter that appears in no argument (rustc's E0282). Give the `let` a type or the call its generic arguments: `f::<f32>(x)`.",
    ),
    (
        RK_MISMATCHED_TYPES,
        "mismatched types",
        "The value's type is not the one its place expects (rustc's E0308). Rust does not convert between numeric types implicitly, and neither does rkc: convert explicitly with `as`.",
    ),
    (
        RK_LITERAL_OUT_OF_RANGE,
        "an integer literal out of its type's range",
        "rustc rejects such literals (the `overflowing_literals` lint is deny-by-default); so does rkc. An unsuffixed integer literal with no other constraint is an `i32`.",
    ),
    (
        RK_INVALID_CAST,
        "an invalid `as` cast",
        "`as` converts between numeric types, from `bool`, `char` and fieldless enums to integers, from `u8` to `char`, and between pointers and integers (rustc's E0605, E0606).",
    ),
    (
        RK_USE_UNINIT,
        "a variable read before it is assigned",
        "A variable declared without a value (`let v: u32;`) must be assigned on every path before it is read (rustc's E0381).",
    ),
    (
        RK_ASSIGN_IMMUTABLE,
        "an assignment to an immutable variable",
        "A binding without `mut` cannot be assigned again or borrowed mutably, and a `static` cannot be written (rustc's E0384, E0594, E0596). Declare it `let mut`.",
    ),
    (
        RK_KERNEL_RETURNS_VALUE,
        "a kernel that returns a value",
        "A kernel's launch has no return value; results come back through `*mut` pointer arguments. Declare the kernel as returning `()`.",
    ),
    (
        RK_GENERIC_KERNEL,
        "a generic kernel",
        "A kernel is launched by name from the host, so it cannot have type or const parameters. Write a non-generic kernel that calls generic code.",
    ),
    (
        RK_ASYNC_KERNEL,
        "an async, const or unsafe-ABI kernel",
        "Kernels are plain `fn`s: not `async`, not `const`, with no `extern` ABI, and no self parameter.",
    ),
    (
        RK_BAD_KERNEL_PARAM,
        "a kernel parameter that cannot be offloaded",
        "Kernel parameters must be plain names with a type that can be moved to the device: scalars by value, slices, raw pointers and references to scalars, arrays or `#[repr(C)]` structs (copied in, and back for `*mut` and `&mut`). Arrays and `#[repr(C)]` structs by value are copied to the device for the launch, as upstream maps them. Tuples cannot cross to the device at all, because Rust does not fix their layout.",
    ),
    (
        RK_DUPLICATE_KERNEL,
        "two kernels with one name",
        "Each kernel is found by name in the fat binary, so kernel names must be unique in a file, including kernels in inline modules.",
    ),
    (
        RK_RECURSION,
        "recursion",
        "GPU code in rkc's subset has no call stack: every device function is inlined into its kernel, so a function that calls itself, directly or through others, cannot be compiled. The error names the cycle. Rewrite the recursion as a loop.",
    ),
    (
        RK_CALL_KERNEL,
        "a kernel called from a kernel",
        "Kernels are entry points launched by the host with `offload!`. Put the shared code in a plain function and call that from both kernels.",
    ),
    (
        RK_STATIC,
        "a `static mut` used in a kernel",
        "A `static mut` lives in the host's memory, which a GPU kernel cannot reach, and the host may change it. Read-only statics are fine: their value is compiled into the kernel, as a `const`'s is. Pass mutable data as a `*mut` argument.",
    ),
    (
        RK_DIVERGENT_BARRIER,
        "a barrier under divergent control flow",
        "Every thread of a block must reach the same `sync_threads()` calls: a barrier inside an `if` whose condition differs between the threads (it depends on `thread_idx_x()`, a lane, a value loaded through such an index...), inside a loop that threads leave at different iterations, or after a `return` that only some threads take, makes threads wait for others that never arrive. On a GPU that hangs or corrupts the block, and the simulator reports it as a divergent barrier. Move the barrier out of the condition (threads that have nothing to do skip the work, not the barrier), or compute the condition from values all threads of the block share: block indices, parameters, shared memory read after a barrier. One comparison is not refused: the thread's index against a parameter or a length (`if i < n { ... }`, the guard of most kernels), which is the same for every thread of a block whenever the launch covers whole blocks; the compiler cannot know the launch, and the simulator reports a launch where it differs.",
    ),
    (
        RK_CONFLICTING_IMPLS,
        "two impls of a trait for the same type",
        "A trait can be implemented only once for a type (rustc's E0119): which impl a call would use is otherwise undecided. The message names both: remove one, or merge them. A `#[derive]` writes an impl too, so a derived trait must not be implemented by hand as well; and a generic impl (`impl<T: Copy> Tr for T`) covers every type its bounds allow, so an impl of the same trait for one of those types conflicts with it.",
    ),
    (
        RK_DUPLICATE_DEFINITION,
        "two definitions of one name in a type's inherent impls",
        "A type's inherent impls (`impl V { ... }`, all of them together) may define each method, associated function or constant once (rustc's E0592, and E0201 within one impl): a call would otherwise be ambiguous. Rename one, or remove it.",
    ),
    (
        RK_NOT_TRAIT_MEMBER,
        "an impl item that its trait does not declare",
        "An impl of a trait may define only the items the trait declares (rustc's E0407 for methods, E0437 for types, E0438 for constants). Declare the item in the trait, or move it to an inherent `impl` of the type.",
    ),
    (
        RK_BREAK_WITH_VALUE,
        "`break` with a value outside `loop`",
        "Only `loop` and labelled blocks are expressions with a value; `while` and `for` loops are `()` (rustc's E0571).",
    ),
    (
        RK_ASSIGN_THROUGH_CONST,
        "an assignment through a `*const` pointer, a `&` reference or a `Deref` impl",
        "Writing through a `*const T` or a `&T` is an error in Rust (E0594). Declare the parameter `*mut T` or `&mut T`; the runtime then copies the data back after the launch. Writing through a type's `Deref` impl needs a `DerefMut` impl too (E0594, E0596).",
    ),
    (
        RK_UNKNOWN_FIELD,
        "a field that the type does not have",
        "The struct or tuple has no field of that name (or index). The note lists the fields it has. rustc reports the same as E0609.",
    ),
    (
        RK_AMBIGUOUS_NUMERIC,
        "a method call on an unsuffixed literal",
        "`2.0.sqrt()` does not say whether the literal is an `f32` or an `f64`, so rustc refuses it (E0689) and so does rkc. Write `2.0f32.sqrt()`.",
    ),
    (
        RK_INTERNAL,
        "an internal error of rkc",
        "rkc found an inconsistency in its own work: in its device core, in the code it writes for a `#[derive]`, or between its stages. The kernel may well be valid Rust; the message names what rkc was doing. Report it with the kernel that triggers it.",
    ),
];

/// The explanation of a code, for `rkc --explain`.
pub fn explain(code: &str) -> Option<(&'static str, &'static str)> {
    let code = code.to_ascii_uppercase();
    EXPLANATIONS.iter().find(|(c, _, _)| *c == code).map(|(_, title, text)| (*title, *text))
}
