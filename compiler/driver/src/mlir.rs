//! The one place that talks to MLIR: a context with every dialect, translation and pass
//! registered (dialects load on first use), parsing with verification, pass pipelines with
//! their diagnostics captured, and the extraction of the objects `gpu-module-to-binary`
//! produced.

use melior::{
    Context,
    dialect::DialectRegistry,
    ir::{
        BlockLike, Module,
        attribute::{ArrayAttribute, AttributeLike},
        operation::{OperationLike, OperationPrintingFlags},
    },
    pass::PassManager,
    utility::{
        parse_pass_pipeline, register_all_dialects, register_all_llvm_translations,
        register_all_passes,
    },
};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Once;

/// MLIR's messages for a failed step, with the step's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MlirError {
    pub step: String,
    pub messages: Vec<String>,
}

/// A context plus the messages its diagnostic handler collected.
pub struct Mlir {
    context: Context,
    messages: Rc<RefCell<Vec<String>>>,
    print_ir: bool,
}

/// An object that `gpu-module-to-binary` produced.
pub struct GpuObject {
    pub format: ObjectFormat,
    pub bytes: Vec<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectFormat {
    Bitcode,
    Assembly,
    Binary,
    Fatbin,
}

impl Mlir {
    /// A context of its own; with `print_ir`, every pass manager prints the module after each
    /// pass to stderr (`--print-ir-after-all`).
    pub fn new(print_ir: bool) -> Mlir {
        Mlir::register_passes();
        let registry = DialectRegistry::new();
        register_all_dialects(&registry);
        let context = Context::new();
        // The dialects load when the parser or a pass first needs them (a pass manager loads
        // its passes' dependent dialects before it runs): loading every registered dialect up
        // front took 12 ms of each compilation's 16 ms of lowering (measured on a one-kernel file).
        context.append_dialect_registry(&registry);
        register_all_llvm_translations(&context);
        let messages = Rc::new(RefCell::new(Vec::new()));
        let sink = Rc::clone(&messages);
        context.attach_diagnostic_handler(move |d| {
            // Notes of the form "see current operation" dump whole modules; the message and
            // the first line of each other note are what a user can act on.
            let mut text = format!("{}: {d}", d.location());
            for k in 0..d.note_count() {
                if let Ok(note) = d.note(k) {
                    let note = note.to_string();
                    let first = note.lines().next().unwrap_or("");
                    if !first.starts_with("see current operation") {
                        text.push_str(&format!("; {first}"));
                    }
                }
            }
            sink.borrow_mut().push(text);
            true
        });
        // MLIR refuses IR printing on a multi-threaded pass manager.
        if print_ir {
            context.enable_multi_threading(false);
        }
        Mlir { context, messages, print_ir }
    }

    /// Registers MLIR's passes and sets LLVM's options, once per process (about 2 ms), which
    /// every context needs: the driver calls it on a thread of its own while the front end
    /// runs, so that a one-kernel compilation does not wait for it.
    pub fn register_passes() {
        static PASSES: Once = Once::new();
        PASSES.call_once(|| {
            register_all_passes();
            llvm_options();
        });
    }

    /// Turns MLIR's own threads off: for a context whose caller runs several side by side.
    pub fn single_threaded(&self) {
        self.context.enable_multi_threading(false);
    }

    pub(crate) fn take_messages(&self) -> Vec<String> {
        std::mem::take(&mut *self.messages.borrow_mut())
    }

    /// Parses and verifies a module.
    pub fn parse(&self, text: &str, step: &str) -> Result<Module<'_>, MlirError> {
        self.take_messages();
        let module = Module::parse(&self.context, text);
        let messages = self.take_messages();
        match module {
            Some(m) if m.as_operation().verify() => Ok(m),
            Some(_) => Err(MlirError {
                step: step.into(),
                messages: self.nonempty(self.take_messages(), "the module does not verify"),
            }),
            None => Err(MlirError {
                step: step.into(),
                messages: self.nonempty(messages, "the module does not parse"),
            }),
        }
    }

    fn nonempty(&self, messages: Vec<String>, fallback: &str) -> Vec<String> {
        if messages.is_empty() { vec![fallback.to_string()] } else { messages }
    }

    /// Runs a textual pass pipeline on a module, in place.
    pub fn run(
        &self,
        module: &mut Module<'_>,
        pipeline: &str,
        step: &str,
    ) -> Result<(), MlirError> {
        self.take_messages();
        let pm = PassManager::new(&self.context);
        if self.print_ir {
            pm.enable_ir_printing(&melior::pass::PassIrPrintingOptions {
                before_all: false,
                after_all: true,
                module_scope: true,
                on_change: false,
                on_failure: false,
                flags: melior::ir::operation::OperationPrintingFlags::new(),
                tree_printing_path: std::path::PathBuf::new(),
            });
        }
        if parse_pass_pipeline(pm.as_operation_pass_manager(), pipeline).is_err() {
            return Err(MlirError {
                step: step.into(),
                messages: self
                    .nonempty(self.take_messages(), &format!("invalid pipeline `{pipeline}`")),
            });
        }
        let result = pm.run(module);
        let messages = self.take_messages();
        // Some passes report an error and still succeed (gpu-module-to-binary with a bad
        // option); any message at all counts as a failure, since the pipelines rkc runs emit
        // none when they work.
        if result.is_err() || !messages.is_empty() {
            return Err(MlirError {
                step: step.into(),
                messages: self.nonempty(messages, "the pass pipeline failed"),
            });
        }
        Ok(())
    }

    /// Prints a module deterministically (no locations, the custom assembly form).
    /// With `debug_info`, the operations' locations are printed too (`loc(...)`), so that the
    /// next stage, which parses this text, keeps them (`-g`).
    pub fn print(module: &Module<'_>, debug_info: bool) -> String {
        module
            .as_operation()
            .to_string_with_flags(
                OperationPrintingFlags::new().enable_debug_info(debug_info, false),
            )
            .unwrap_or_else(|_| module.as_operation().to_string())
    }

    /// A copy of a module, in the same context.
    pub fn duplicate<'c>(module: &Module<'c>) -> Module<'c> {
        // SAFETY: cloning a live operation gives a new operation that the returned module
        // owns; a module's operation is a `builtin.module`, so the conversion succeeds.
        unsafe {
            let copy = mlir_sys::mlirOperationClone(module.as_operation().to_raw());
            Module::from_raw(mlir_sys::mlirModuleFromOperation(copy))
        }
    }

    /// Reads the objects of every `gpu.binary` op of a serialised module.
    pub fn objects(module: &Module<'_>) -> Vec<GpuObject> {
        let mut out = Vec::new();
        let mut op = module.body().first_operation();
        while let Some(o) = op {
            if o.name().as_string_ref().as_str() == Ok("gpu.binary")
                && let Some(objects) =
                    o.attribute("objects").ok().and_then(|a| ArrayAttribute::try_from(a).ok())
            {
                for k in 0..objects.len() {
                    let Ok(obj) = objects.element(k) else { continue };
                    // SAFETY: the attribute is checked to be a #gpu.object before its object
                    // bytes are read; the bytes are copied while the module is alive.
                    unsafe {
                        let raw = obj.to_raw();
                        if !mlir_sys::mlirAttributeIsAGPUObjectAttr(raw) {
                            continue;
                        }
                        let format = match mlir_sys::mlirGPUObjectAttrGetFormat(raw) {
                            1 => ObjectFormat::Bitcode,
                            2 => ObjectFormat::Assembly,
                            3 => ObjectFormat::Binary,
                            _ => ObjectFormat::Fatbin,
                        };
                        let s = mlir_sys::mlirGPUObjectAttrGetObject(raw);
                        let bytes = if s.data.is_null() {
                            Vec::new()
                        } else {
                            std::slice::from_raw_parts(s.data.cast::<u8>(), s.length).to_vec()
                        };
                        out.push(GpuObject { format, bytes });
                    }
                }
            }
            op = o.next_in_block();
        }
        out
    }
}

unsafe extern "C" {
    /// LLVM's C API for its command-line options (LLVMSupport, linked with MLIR).
    fn LLVMParseCommandLineOptions(
        argc: i32,
        argv: *const *const std::os::raw::c_char,
        overview: *const std::os::raw::c_char,
    );
}

/// LLVM options rkc sets once per process, before any compilation (LLVM's options are global).
///
/// `-unroll-partial-threshold=150`: NVPTX's unrolling preferences allow partial unrolling only
/// up to a quarter of the full-unroll threshold (75), so a hot loop with a constant trip count
/// such as n-body's inner loop is unrolled twice where nvcc unrolls it four times; measured on
/// the H200 (testsuite/bench/), this closes that gap. It applies to every target alike.
fn llvm_options() {
    let args = [c"rkc".as_ptr(), c"-unroll-partial-threshold=150".as_ptr()];
    // SAFETY: two valid NUL-terminated strings, and an overview string; LLVM copies what it keeps.
    unsafe { LLVMParseCommandLineOptions(args.len() as i32, args.as_ptr(), c"".as_ptr()) };
}

impl Default for Mlir {
    fn default() -> Self {
        Mlir::new(false)
    }
}
