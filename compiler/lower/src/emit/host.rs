//! The host image's text: each kernel the host can run as a plain function over its
//! threads.
//!
//! A kernel becomes two functions in a module of upstream dialects (no `gpu` ops):
//!
//! - `@__rkc_body_K`, internal: the kernel's body for one thread, as the GPU emitters write it,
//!   with twelve `index` parameters after the panic record for the thread's position
//!   (`thread_id`, `block_id`, `block_dim`, `grid_dim`, each x, y, z), and allocas for what
//!   is private memory on a GPU;
//! - `@__rkc_host_K(params: !llvm.ptr, dims: !llvm.ptr, begin: i64, end: i64)`, exported:
//!   runs the blocks whose linear index (`x + gx * (y + gy * z)`) is in `begin..end`, each
//!   block's threads in x-fastest order. `params` is the array `cuLaunchKernel` receives (a
//!   pointer to each parameter slot's value, the panic record's address last), `dims` six
//!   u32: the grid's x, y, z, then the block's. It touches no state but its arguments, so the
//!   runtime calls it from several host threads at once with disjoint block ranges.
//!
//! Running a block's threads one after another is the GPU's semantics only for kernels whose
//! threads never wait for each other: kernels with barriers, warp operations or shared memory
//! are left out (with the reason, for the driver's notes), and the runtime runs those on its
//! simulator. So are kernels with 16-bit floats, 128-bit division or conversions between
//! 128-bit integers and floats, which the x86-64 back end lowers to calls of compiler-rt
//! functions that a loaded shared object cannot count on finding.

use super::{FuncEmitter, mlir_type};
use crate::LowerOptions;
use rkc_rk::{BinOp, FloatTy, Func, IntTy, Module, OpKind, Region, Type, ValueId};
use std::fmt::Write as _;

/// The body's position parameters, in order.
pub(crate) const GEOMETRY: [&str; 12] = [
    "%host_thread_id_x",
    "%host_thread_id_y",
    "%host_thread_id_z",
    "%host_block_id_x",
    "%host_block_id_y",
    "%host_block_id_z",
    "%host_block_dim_x",
    "%host_block_dim_y",
    "%host_block_dim_z",
    "%host_grid_dim_x",
    "%host_grid_dim_y",
    "%host_grid_dim_z",
];

pub(crate) const BODY_PREFIX: &str = "__rkc_body_";

/// The exported entry's name is this prefix and the kernel's name; the runtime looks it up.
pub const ENTRY_PREFIX: &str = "__rkc_host_";

/// The host stage of a module.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostModule {
    /// The module's text, empty of functions when no kernel can run on the host.
    pub text: String,
    /// The kernels it holds, in module order.
    pub kernels: Vec<String>,
    /// The kernels left out, each with the reason in words.
    pub left_out: Vec<(String, String)>,
}

/// Emits the host stage of every kernel the host can run.
pub(crate) fn host_module(module: &Module, options: &LowerOptions) -> HostModule {
    // Line information is for the GPU images' tools; the host image carries none.
    let options = LowerOptions { debug_file: None, ..options.clone() };
    let mut out = HostModule::default();
    let mut funcs = String::new();
    let mut globals: Vec<String> = Vec::new();
    for func in module.kernels() {
        if let Some(reason) = unsupported(func) {
            out.left_out.push((func.name.clone(), reason));
            continue;
        }
        let mut emitter = FuncEmitter::new(func, module, &options);
        emitter.host = true;
        for g in emitter.emit(&mut funcs) {
            if !globals.contains(&g) {
                globals.push(g);
            }
        }
        entry(func, &mut funcs);
        out.kernels.push(func.name.clone());
    }
    out.text.push_str("module {\n");
    for g in &globals {
        out.text.push_str(g);
    }
    out.text.push_str(&funcs);
    out.text.push_str("}\n");
    // Per-thread memory is in the default space on the host.
    out.text = out.text.replace(", #gpu.address_space<private>>", ">");
    out
}

/// Why the host image cannot run a kernel by running its threads one after another, if so.
fn unsupported(func: &Func) -> Option<String> {
    let wide_int = |v: &ValueId| matches!(func.ty(*v), Some(Type::Int(IntTy::I128 | IntTy::U128)));
    let float = |v: &ValueId| matches!(func.ty(*v), Some(Type::Float(_)));
    let walk = |region: &Region| -> Option<&'static str> {
        fn go<'r>(
            region: &'r Region,
            check: &dyn Fn(&'r rkc_rk::Op) -> Option<&'static str>,
        ) -> Option<&'static str> {
            region
                .ops
                .iter()
                .find_map(|op| check(op).or_else(|| op.regions.iter().find_map(|r| go(r, check))))
        }
        go(region, &|op| match op.kind {
            OpKind::Barrier => Some("it synchronises its block's threads"),
            OpKind::Warp(_) => Some("it uses warp operations"),
            OpKind::Shared | OpKind::DynShared => Some("it uses shared memory"),
            // The x86-64 back end calls compiler-rt for these (`__divti3`, `__floattisf`).
            OpKind::Binary(BinOp::Div | BinOp::Rem) if op.operands.iter().any(wide_int) => {
                Some("it divides 128-bit integers")
            }
            OpKind::Cast
                if (op.operands.iter().any(wide_int) && op.results.iter().any(float))
                    || (op.operands.iter().any(float) && op.results.iter().any(wide_int)) =>
            {
                Some("it converts between 128-bit integers and floats")
            }
            _ => None,
        })
    };
    // 16-bit float arithmetic is a compiler-rt call on the x86-64 baseline too.
    fn half(ty: &Type) -> bool {
        match ty {
            Type::Float(FloatTy::F16 | FloatTy::Bf16) => true,
            Type::Ptr { pointee, .. } => half(pointee),
            Type::Array { elem, .. } | Type::Slice { elem, .. } => half(elem),
            Type::Slot(t) => half(t),
            Type::Struct { fields, .. } => fields.iter().any(|(_, t)| half(t)),
            _ => false,
        }
    }
    walk(&func.body)
        .or_else(|| func.values.iter().any(half).then_some("it uses 16-bit floats"))
        .map(str::to_string)
}

/// Writes `@__rkc_host_K`, the exported loop over a range of blocks and their threads.
fn entry(func: &Func, out: &mut String) {
    // The body's parameters after unpacking: one slot each, a slice two (address, length).
    let mut slots: Vec<String> = Vec::new();
    for p in &func.params {
        match func.ty(p.value) {
            Some(Type::Slice { .. }) => {
                slots.push("!llvm.ptr<1>".into());
                slots.push("i64".into());
            }
            Some(Type::Ptr { .. }) => slots.push("!llvm.ptr<1>".into()),
            Some(t) => slots.push(mlir_type(t)),
            None => slots.push("i64".into()),
        }
    }
    slots.push("!llvm.ptr<1>".into());
    let name = &func.name;
    let _ = writeln!(
        out,
        "  func.func @{ENTRY_PREFIX}{name}(%params: !llvm.ptr, %dims: !llvm.ptr, %begin: i64, %end: i64) {{"
    );
    let mut l = |s: String| {
        let _ = writeln!(out, "    {s}");
    };
    l("%c0 = arith.constant 0 : index".into());
    l("%c1 = arith.constant 1 : index".into());
    let mut args = Vec::new();
    for (k, ty) in slots.iter().enumerate() {
        l(format!(
            "%slot{k} = llvm.getelementptr %params[{k}] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr"
        ));
        l(format!("%at{k} = llvm.load %slot{k} : !llvm.ptr -> !llvm.ptr"));
        l(format!("%arg{k} = llvm.load %at{k} : !llvm.ptr -> {ty}"));
        args.push(format!("%arg{k}"));
    }
    for d in 0..6 {
        l(format!("%dim{d}_at = llvm.getelementptr %dims[{d}] : (!llvm.ptr) -> !llvm.ptr, i32"));
        l(format!("%dim{d}_word = llvm.load %dim{d}_at : !llvm.ptr -> i32"));
        l(format!("%dim{d} = arith.index_castui %dim{d}_word : i32 to index"));
    }
    l("%grid_xy = arith.muli %dim0, %dim1 : index".into());
    l("%first = arith.index_castui %begin : i64 to index".into());
    l("%last = arith.index_castui %end : i64 to index".into());
    l("scf.for %b = %first to %last step %c1 {".into());
    l("  %bx = arith.remui %b, %dim0 : index".into());
    l("  %b_yz = arith.divui %b, %dim0 : index".into());
    l("  %by = arith.remui %b_yz, %dim1 : index".into());
    l("  %bz = arith.divui %b, %grid_xy : index".into());
    l("  scf.for %tz = %c0 to %dim5 step %c1 {".into());
    l("    scf.for %ty = %c0 to %dim4 step %c1 {".into());
    l("      scf.for %tx = %c0 to %dim3 step %c1 {".into());
    let geometry = "%tx, %ty, %tz, %bx, %by, %bz, %dim3, %dim4, %dim5, %dim0, %dim1, %dim2";
    let types: Vec<String> =
        slots.iter().cloned().chain(std::iter::repeat_n("index".to_string(), 12)).collect();
    l(format!(
        "        func.call @{BODY_PREFIX}{name}({}, {geometry}) : ({}) -> ()",
        args.join(", "),
        types.join(", ")
    ));
    l("      }".into());
    l("    }".into());
    l("  }".into());
    l("}".into());
    l("return".into());
    let _ = writeln!(out, "  }}");
}
