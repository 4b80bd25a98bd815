//! The host image's back end: the LLVM-dialect module of the host stage becomes LLVM IR
//! (MLIR's translation), is optimised and compiled for each level of its instruction set (for
//! x86-64 the baseline, then x86-64-v3; for aarch64 Armv8-A: see `rkc_lower::Host::levels`) by
//! LLVM's own target machine (the static LLVM libraries MLIR links), and is linked into a
//! shared object by `ld.lld` against that system's C library.
//!
//! MLIR's `gpu-module-to-binary` serialises GPU modules only, and its execution engine
//! compiles for the machine it runs on (every feature of its CPU): an image made that way
//! could stop with an illegal instruction on the machine that loads it. The target machines
//! here are named levels (`x86-64`, which every x86-64 Linux machine runs, and `x86-64-v3`),
//! never the build machine's CPU; the runtime loads an image only where the CPU has its
//! level's features.

use melior::ir::Module;
use mlir_sys::{LLVMContextRef, LLVMModuleRef};
use std::ffi::{CStr, CString, c_char, c_void};
use std::path::Path;
use std::sync::Once;

type TargetRef = *mut c_void;
type TargetMachineRef = *mut c_void;
type TargetDataRef = *mut c_void;
type PassBuilderOptionsRef = *mut c_void;
type ErrorRef = *mut c_void;
type MemoryBufferRef = *mut c_void;

// LLVM's C API (`llvm-c/TargetMachine.h`, `llvm-c/Transforms/PassBuilder.h`, `llvm-c/Error.h`,
// the X86 and AArch64 targets' initialisers), from the static LLVM libraries linked with MLIR;
// mlir-sys declares only part of it.
unsafe extern "C" {
    fn LLVMContextCreate() -> LLVMContextRef;
    fn LLVMContextDispose(context: LLVMContextRef);
    fn LLVMDisposeModule(module: LLVMModuleRef);
    fn LLVMSetTarget(module: LLVMModuleRef, triple: *const c_char);
    fn LLVMPrintModuleToString(module: LLVMModuleRef) -> *mut c_char;
    fn LLVMDisposeMessage(message: *mut c_char);
    fn LLVMInitializeX86TargetInfo();
    fn LLVMInitializeX86Target();
    fn LLVMInitializeX86TargetMC();
    fn LLVMInitializeX86AsmPrinter();
    fn LLVMInitializeAArch64TargetInfo();
    fn LLVMInitializeAArch64Target();
    fn LLVMInitializeAArch64TargetMC();
    fn LLVMInitializeAArch64AsmPrinter();
    fn LLVMGetTargetFromTriple(
        triple: *const c_char,
        target: *mut TargetRef,
        error: *mut *mut c_char,
    ) -> i32;
    fn LLVMCreateTargetMachine(
        target: TargetRef,
        triple: *const c_char,
        cpu: *const c_char,
        features: *const c_char,
        level: u32,
        reloc: u32,
        code_model: u32,
    ) -> TargetMachineRef;
    fn LLVMDisposeTargetMachine(machine: TargetMachineRef);
    fn LLVMCreateTargetDataLayout(machine: TargetMachineRef) -> TargetDataRef;
    fn LLVMSetModuleDataLayout(module: LLVMModuleRef, layout: TargetDataRef);
    fn LLVMDisposeTargetData(layout: TargetDataRef);
    fn LLVMCreatePassBuilderOptions() -> PassBuilderOptionsRef;
    fn LLVMDisposePassBuilderOptions(options: PassBuilderOptionsRef);
    fn LLVMRunPasses(
        module: LLVMModuleRef,
        passes: *const c_char,
        machine: TargetMachineRef,
        options: PassBuilderOptionsRef,
    ) -> ErrorRef;
    fn LLVMGetErrorMessage(error: ErrorRef) -> *mut c_char;
    fn LLVMDisposeErrorMessage(message: *mut c_char);
    fn LLVMTargetMachineEmitToMemoryBuffer(
        machine: TargetMachineRef,
        module: LLVMModuleRef,
        file_type: u32,
        error: *mut *mut c_char,
        out: *mut MemoryBufferRef,
    ) -> i32;
    fn LLVMGetBufferStart(buffer: MemoryBufferRef) -> *const c_char;
    fn LLVMGetBufferSize(buffer: MemoryBufferRef) -> usize;
    fn LLVMDisposeMemoryBuffer(buffer: MemoryBufferRef);
}

// The values of LLVM's C enums that are used here.
const CODEGEN_OPT_DEFAULT: u32 = 2;
const CODEGEN_OPT_AGGRESSIVE: u32 = 3;
const RELOC_PIC: u32 = 2;
const CODE_MODEL_DEFAULT: u32 = 0;
const OBJECT_FILE: u32 = 1;

/// The host image's relocatable object, and the optimised LLVM IR when asked for.
pub struct HostObject {
    pub object: Vec<u8>,
    pub llvm_ir: Option<String>,
}

/// Owns what the C API hands out, so that every early return frees it.
struct Owned {
    context: LLVMContextRef,
    module: LLVMModuleRef,
    machine: TargetMachineRef,
}

impl Drop for Owned {
    fn drop(&mut self) {
        // SAFETY: each handle is null or was created by the C API and is freed once, the
        // module before the context that owns it.
        unsafe {
            if !self.module.is_null() {
                LLVMDisposeModule(self.module);
            }
            if !self.context.is_null() {
                LLVMContextDispose(self.context);
            }
            if !self.machine.is_null() {
                LLVMDisposeTargetMachine(self.machine);
            }
        }
    }
}

/// Takes an LLVM-owned message.
///
/// # Safety
///
/// `message` must be null or a string LLVM allocated for `LLVMDisposeMessage`.
unsafe fn take_message(message: *mut c_char) -> String {
    if message.is_null() {
        return String::new();
    }
    // SAFETY: the caller's promise.
    unsafe {
        let text = CStr::from_ptr(message).to_string_lossy().into_owned();
        LLVMDisposeMessage(message);
        text
    }
}

/// The host stage translated to LLVM IR: an LLVM context of its own and the module in it,
/// which `compile` optimises and compiles on any one thread.
pub struct LlvmModule(Owned);

// SAFETY: an LLVM context, with the module it owns, may be used from any thread as long as
// one thread at a time does; `LlvmModule` is moved, never shared, and nothing else holds its
// handles.
unsafe impl Send for LlvmModule {}

/// Translates the host stage (a module in the LLVM dialect only) to LLVM IR, on the thread
/// that owns its MLIR context.
pub fn translate(module: &Module<'_>) -> Result<LlvmModule, String> {
    let mut owned = Owned {
        context: std::ptr::null_mut(),
        module: std::ptr::null_mut(),
        machine: std::ptr::null_mut(),
    };
    // SAFETY: the context is new and `owned` frees it (and the module) when dropped; the
    // MLIR module is alive for the call.
    unsafe {
        owned.context = LLVMContextCreate();
        owned.module =
            mlir_sys::mlirTranslateModuleToLLVMIR(module.as_operation().to_raw(), owned.context);
    }
    if owned.module.is_null() {
        return Err("MLIR could not translate the host stage to LLVM IR".into());
    }
    Ok(LlvmModule(owned))
}

/// Optimises the translated host stage and compiles it to an object for `triple` and `cpu`.
pub fn compile(
    module: LlvmModule,
    triple: &str,
    cpu: &str,
    opt_level: u8,
    llvm_ir: bool,
) -> Result<HostObject, String> {
    static TARGETS: Once = Once::new();
    // SAFETY: LLVM's target initialisers only register the X86 and AArch64 targets; once per
    // process.
    TARGETS.call_once(|| unsafe {
        LLVMInitializeX86TargetInfo();
        LLVMInitializeX86Target();
        LLVMInitializeX86TargetMC();
        LLVMInitializeX86AsmPrinter();
        LLVMInitializeAArch64TargetInfo();
        LLVMInitializeAArch64Target();
        LLVMInitializeAArch64TargetMC();
        LLVMInitializeAArch64AsmPrinter();
    });
    let triple_c = CString::new(triple).map_err(|e| e.to_string())?;
    let cpu_c = CString::new(cpu).map_err(|e| e.to_string())?;
    let mut owned = module.0;
    // SAFETY: every handle passed below was returned by the C API and is alive (`owned`
    // frees them when this function returns); strings are NUL-terminated and outlive the calls.
    unsafe {
        let mut target: TargetRef = std::ptr::null_mut();
        let mut error: *mut c_char = std::ptr::null_mut();
        if LLVMGetTargetFromTriple(triple_c.as_ptr(), &mut target, &mut error) != 0 {
            return Err(format!("no LLVM target for {triple}: {}", take_message(error)));
        }
        let level = if opt_level >= 3 { CODEGEN_OPT_AGGRESSIVE } else { CODEGEN_OPT_DEFAULT };
        owned.machine = LLVMCreateTargetMachine(
            target,
            triple_c.as_ptr(),
            cpu_c.as_ptr(),
            c"".as_ptr(),
            level,
            RELOC_PIC,
            CODE_MODEL_DEFAULT,
        );
        if owned.machine.is_null() {
            return Err(format!("LLVM cannot make a target machine for {triple} ({cpu})"));
        }
        LLVMSetTarget(owned.module, triple_c.as_ptr());
        let layout = LLVMCreateTargetDataLayout(owned.machine);
        LLVMSetModuleDataLayout(owned.module, layout);
        LLVMDisposeTargetData(layout);

        let passes =
            CString::new(format!("default<O{}>", opt_level.min(3))).map_err(|e| e.to_string())?;
        let options = LLVMCreatePassBuilderOptions();
        let failed = LLVMRunPasses(owned.module, passes.as_ptr(), owned.machine, options);
        LLVMDisposePassBuilderOptions(options);
        if !failed.is_null() {
            let message = LLVMGetErrorMessage(failed);
            let text = CStr::from_ptr(message).to_string_lossy().into_owned();
            LLVMDisposeErrorMessage(message);
            return Err(format!("LLVM's optimisation pipeline failed: {text}"));
        }
        let llvm_ir = llvm_ir.then(|| take_message(LLVMPrintModuleToString(owned.module)));

        let mut buffer: MemoryBufferRef = std::ptr::null_mut();
        if LLVMTargetMachineEmitToMemoryBuffer(
            owned.machine,
            owned.module,
            OBJECT_FILE,
            &mut error,
            &mut buffer,
        ) != 0
        {
            return Err(format!("LLVM could not compile the host image: {}", take_message(error)));
        }
        let start = LLVMGetBufferStart(buffer).cast::<u8>();
        let object = std::slice::from_raw_parts(start, LLVMGetBufferSize(buffer)).to_vec();
        LLVMDisposeMemoryBuffer(buffer);
        Ok(HostObject { object, llvm_ir })
    }
}

/// The folders where each instruction set's C library is found: the system's own (x86-64
/// here), and for aarch64 Debian's cross-compilation sysroot (libc6-dev-arm64-cross) or an
/// Arm machine's own folders.
fn library_folders(host: rkc_lower::Host) -> &'static [&'static str] {
    match host {
        rkc_lower::Host::X86_64 => {
            &["/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64"]
        }
        rkc_lower::Host::Aarch64 => {
            &["/usr/aarch64-linux-gnu/lib", "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu"]
        }
    }
}

/// The C library and libm of `host`'s system, which the image's undefined symbols (`memcpy`,
/// `tanhf`) must resolve against: linked as `DT_NEEDED` entries, so that loading the image
/// never depends on what the program happens to link, and with `-z defs` any other undefined
/// symbol (a compiler-rt routine) fails here, not at load time.
pub fn system_libraries(host: rkc_lower::Host) -> Result<[std::path::PathBuf; 2], String> {
    let folders = library_folders(host);
    folders
        .iter()
        .map(Path::new)
        .find(|dir| dir.join("libc.so.6").is_file() && dir.join("libm.so.6").is_file())
        .map(|dir| [dir.join("libc.so.6"), dir.join("libm.so.6")])
        .ok_or_else(|| {
            let hint = match host {
                rkc_lower::Host::X86_64 => "",
                rkc_lower::Host::Aarch64 => {
                    "; install aarch64's C library for cross-linking (Debian: `apt-get install libc6-dev-arm64-cross`), or leave `aarch64` out of --offload-arch"
                }
            };
            format!(
                "the C library (libc.so.6 and libm.so.6) was not found in {}{hint}",
                folders.join(", ")
            )
        })
}

/// Links the object into the shared object the runtime loads.
pub fn link(
    ld_lld: &Path,
    libraries: &[std::path::PathBuf; 2],
    object: &[u8],
    compiler_rt: Option<&Path>,
    cpu: &str,
    scratch: &Path,
) -> Result<Vec<u8>, String> {
    // Each level's files are its own: the levels are linked at the same time.
    let input = scratch.join(format!("host-{cpu}.o"));
    let output = scratch.join(format!("host-{cpu}.so"));
    std::fs::write(&input, object).map_err(|e| format!("cannot write {}: {e}", input.display()))?;
    let (input_s, output_s) = (input.to_string_lossy(), output.to_string_lossy());
    let (libc, libm) = (libraries[0].to_string_lossy(), libraries[1].to_string_lossy());
    // compiler-rt's builtins, an archive: only the members the object calls are linked in,
    // and the image still needs nothing but libc and libm at load time.
    let builtins = compiler_rt.map(|p| p.to_string_lossy().into_owned());
    let mut args = vec![
        "-shared",
        "-z",
        "defs",
        "-z",
        "now",
        "-z",
        "relro",
        "--hash-style=gnu",
        "--as-needed",
        "-o",
        &output_s,
        &input_s,
    ];
    args.extend(builtins.as_deref());
    args.extend([&*libm, &*libc]);
    crate::tools::run(ld_lld, &args, None).map_err(|e| e.message)?;
    std::fs::read(&output).map_err(|e| format!("cannot read {}: {e}", output.display()))
}
