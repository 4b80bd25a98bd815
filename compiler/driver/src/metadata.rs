//! The kernel metadata written into every image: derived from the verified rk module.

use offload_binary::{Access, KernelInfo, PanicSite, ParamInfo, ParamKind};
use rkc_rk::{Module, Type};

/// Describes every kernel of a module for the runtime.
///
/// The access of a pointer parameter follows its mutability, as upstream's mapping does:
/// `*const T` is read (copied in), `*mut T` is read and written (copied in and back).
pub fn kernels(module: &Module, source: &str) -> Vec<KernelInfo> {
    module
        .kernels()
        .map(|f| KernelInfo {
            name: f.name.clone(),
            source: source.to_string(),
            panic_sites: rkc_rk::panics::panic_sites(f)
                .into_iter()
                .map(|s| PanicSite { message: s.message, line: s.loc.line, col: s.loc.col })
                .collect(),
            params: f
                .params
                .iter()
                .map(|p| {
                    let ty = f.ty(p.value).cloned().unwrap_or(Type::Unit);
                    let (kind, access) = match &ty {
                        Type::Ptr { mutable, pointee } => (
                            ParamKind::Pointer {
                                pointee_size: pointee.size_of(),
                                mutable: *mutable,
                            },
                            if *mutable { Access::ReadWrite } else { Access::Read },
                        ),
                        other => (ParamKind::Value { size: other.size_of() }, Access::Read),
                    };
                    ParamInfo {
                        name: p.name.clone(),
                        ty: ty.to_string(),
                        kind,
                        access,
                    }
                })
                .collect(),
        })
        .collect()
}
