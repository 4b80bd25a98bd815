//! Lowering of a verified rk module to MLIR's upstream dialects (`gpu`, `arith`, `cf`,
//! `llvm`), and the [`Target`] trait behind which every vendor difference lives.
//!
//! The output is MLIR's textual form: one `gpu.module @kernels` holding one `gpu.func` per
//! kernel, inside a module marked `gpu.container_module`. The driver parses it with melior,
//! verifies it, and runs the target's pipeline on it. Emitting text keeps this crate free of
//! MLIR (it builds and tests in seconds); each emitter in [`emit`] documents the IR it writes,
//! and the driver's tests verify and snapshot every module it produces.
//!
//! Architecture Invariant: lowering takes [`rkc_rk::Verified`], the verifier's proof, so the
//! typing rules of the rk specification hold for everything this crate reads.

mod emit;
mod target;

pub use emit::{ENTRY_PREFIX, HostModule};
pub use target::{
    AMD_ARCHS, DEFAULT_OFFLOAD_ARCH, HOST_SUPPORTED, Host, ImageFormat, NVIDIA_ARCHS, Nvvm, Rocdl,
    Target, TargetError, TargetKind, parse_offload_arch,
};

use rkc_rk::Verified;

/// Options that change the emitted IR.
#[derive(Clone, Debug)]
pub struct LowerOptions {
    /// Emit `rk.bounds_check` as a check and a device panic (`true`), or drop it (`false`).
    pub bounds_checks: bool,
    /// `-C fast-math`: float ops may be reassociated, contracted and approximated (`sqrt` and
    /// division approximate, no NaN/infinity guarantees). Off by default: Rust's semantics.
    pub fast_math: bool,
    /// `-g`: the source file's name for line information. Each operation carries its Rust
    /// line and column (`loc(...)`), and each kernel a debug-info subprogram in a compile unit
    /// of kind `DebugDirectivesOnly`: the back ends write `.loc` line tables (PTX's, which
    /// `ptxas -lineinfo` keeps in the cubin) without turning into a debug build (`LineTablesOnly`
    /// would mark the PTX `.target ..., debug`, and ptxas then stops optimising: measured, the
    /// code of `shared.rs`'s `block_sum` grew 2.8x).
    pub debug_file: Option<String>,
    /// The host image is linked with compiler-rt's builtins (LLVM's `libclang_rt.builtins`):
    /// the kernels whose x86-64 code calls them (16-bit floats, 128-bit division, conversions
    /// between 128-bit integers and floats) are in the image instead of left out.
    pub compiler_rt: bool,
    /// The module has swizzled warpgroup multiplies (`rk.wgmma ... sw128`), whose tiles must
    /// start at multiples of 1024 bytes of shared memory: the dynamic shared memory and every
    /// shared array of 1024 bytes or more are then 1024-byte aligned on the GPU, as the
    /// interpreter's buffers and the simulator's are, so that the same tiles pass the same
    /// checks everywhere. Only then: the padding would cost other kernels shared memory (the
    /// mma.sync HGEMM fits three blocks to a multiprocessor with 768 bytes to spare).
    pub swizzled_tiles: bool,
}

impl Default for LowerOptions {
    fn default() -> Self {
        LowerOptions {
            bounds_checks: true,
            fast_math: false,
            debug_file: None,
            compiler_rt: false,
            swizzled_tiles: false,
        }
    }
}

/// Why a verified module cannot be lowered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LowerError {
    pub message: String,
}

impl std::fmt::Display for LowerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LowerError {}

/// Lowers a verified rk module to the textual MLIR of a `gpu.module` of kernels.
///
/// Kernels must be call-free: device functions are inlined first
/// (`rkc_rk::passes::inline_calls`), since GPU kernels here have no call stack. A kernel that
/// still calls is refused, never lowered without its call.
pub fn lower(module: &Verified<'_>, options: &LowerOptions) -> Result<String, LowerError> {
    refuse_calls(module)?;
    Ok(emit::module(module.module(), options))
}

/// Lowers a verified rk module to the host stage: the kernels that the host image can run,
/// as functions over a range of blocks (see the `emit::host` module), and the others with
/// the reason they are left out. The text is ready for [`Host`]'s lowering pipeline.
pub fn lower_host(module: &Verified<'_>, options: &LowerOptions) -> Result<HostModule, LowerError> {
    refuse_calls(module)?;
    // The host image copies at once and loads matrix fragments element by element:
    // asynchronous copies become loads and stores, `rk.ldmatrix` loads, warpgroup multiplies
    // loads and arithmetic (warp matrix multiplies are computed by the block functions
    // themselves).
    let copied;
    let m = module.module();
    let passes = || rkc_rk::passes::has_async_copies(m) || rkc_rk::passes::has_ldmatrix(m);
    let rk = if passes() || rkc_rk::passes::has_wgmma(m) {
        let mut m = m.clone();
        rkc_rk::passes::expand_async_copies(&mut m);
        rkc_rk::passes::expand_ldmatrix(&mut m);
        rkc_rk::passes::expand_wgmma(&mut m);
        copied = m;
        &copied
    } else {
        m
    };
    let mut host = emit::host_module(rk, options);
    // The host stage is the same for every instruction set: fences and allocas are alike.
    host.text = specialize(&host.text, &Host::X86_64);
    Ok(host)
}

fn refuse_calls(module: &Verified<'_>) -> Result<(), LowerError> {
    fn first_call(region: &rkc_rk::Region) -> Option<&str> {
        region.ops.iter().find_map(|op| match &op.kind {
            rkc_rk::OpKind::Call { callee } => Some(callee.as_str()),
            _ => op.regions.iter().find_map(first_call),
        })
    }
    for k in module.module().kernels() {
        if let Some(callee) = first_call(&k.body) {
            return Err(LowerError {
                message: format!(
                    "the kernel @{} still calls @{callee}: inline device functions before lowering",
                    k.name
                ),
            });
        }
    }
    Ok(())
}

/// The gpu-stage text for one target. Two things differ between the back ends, and the
/// emitters write both in a form this function rewrites: the fence scopes (placeholders that
/// get the target's names), and the address space of local arrays and structs (written as
/// AMD's: an alloca in space 5, the only use of that space in the text, cast to a generic
/// pointer; a target that allocates in the generic space gets the alloca there and a
/// zero-offset GEP for the cast, since LLVM refuses a cast within one space).
/// And third, the panic block's reads of the block and thread indices: where the target can
/// read them afresh ([`Target::position_register`]), each becomes an assembly read with a side
/// effect, which LLVM neither merges with the kernel's own reads nor moves. A merged read
/// would keep the kernel's value live from its start to every check, for the sake of a path
/// that runs once if ever (softmax: four of its 40 registers).
/// Everything else in the gpu-stage text is the same for every target.
pub fn specialize(gpu_text: &str, target: &dyn Target) -> String {
    let mut text = fresh_panic_positions(gpu_text, target);
    for scope in [rkc_rk::FenceScope::Block, rkc_rk::FenceScope::Device] {
        let placeholder = format!("syncscope(\"{}\")", emit::scope_placeholder(scope));
        let named = match target.fence_scope(scope) {
            "" => String::new(),
            name => format!("syncscope(\"{name}\")"),
        };
        text = text.replace(&placeholder, &named);
    }
    if target.alloca_address_space() == 0 && text.contains(emit::PRIVATE_POINTER) {
        let lines: Vec<String> = text
            .lines()
            .map(|whole| {
                // A line's location (under `-g`) stays at its end.
                let (line, loc) = whole.rfind(" loc(").map_or((whole, ""), |k| whole.split_at(k));
                match line.split_once(" = llvm.addrspacecast ") {
                    Some((result, rest)) if rest.ends_with(&format!(" : {} to !llvm.ptr", emit::PRIVATE_POINTER)) => {
                        let source = rest.split(' ').next().unwrap_or_default();
                        format!("{result} = llvm.getelementptr {source}[0] : (!llvm.ptr) -> !llvm.ptr, i8{loc}")
                    }
                    _ => whole.replace(&format!("-> {}", emit::PRIVATE_POINTER), "-> !llvm.ptr"),
                }
            })
            .collect();
        text = lines.join("\n") + "\n";
    }
    text
}

/// See `specialize`: `%v = gpu.<op> <dim> {rk.panic_position}` becomes an inline assembly
/// read of the target's register, or loses its mark where the target has none.
fn fresh_panic_positions(gpu_text: &str, target: &dyn Target) -> String {
    let mark = format!(" {{{}}}", emit::PANIC_POSITION);
    if !gpu_text.contains(&mark) {
        return gpu_text.to_string();
    }
    let mut out = String::with_capacity(gpu_text.len());
    for whole in gpu_text.lines() {
        let Some((head, tail)) = whole.split_once(&mark) else {
            out.push_str(whole);
            out.push('\n');
            continue;
        };
        // `head` is `<indent>%v = gpu.<op> <dim>`, `tail` the line's location under `-g`.
        let read = head.split_once(" = gpu.").and_then(|(result, call)| {
            let mut words = call.split_whitespace();
            let register = target.position_register(words.next()?, words.next()?)?;
            Some((result, register))
        });
        match read {
            Some((result, register)) => {
                let indent = &result[..result.len() - result.trim_start().len()];
                let v = result.trim_start();
                out.push_str(&format!(
                    "{indent}{v}_rkasm = llvm.inline_asm has_side_effects \"mov.u32 $0, {register};\", \"=r\" : () -> i32{tail}\n\
                     {indent}{v} = arith.index_castui {v}_rkasm : i32 to index{tail}\n"
                ));
            }
            None => {
                out.push_str(head);
                out.push_str(tail);
                out.push('\n');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
