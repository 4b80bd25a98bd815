//! The kernel metadata written into every image: derived from the verified rk module.

use offload_binary::{Access, KernelInfo, PanicSite, ParamInfo, ParamKind};
use rkc_rk::passes::access::ParamAccess;
use rkc_rk::{Module, Type};

/// Describes every kernel of a module for the runtime.
///
/// The access of each parameter comes from `rkc_rk::passes::access_of_params`: a `*mut` the
/// kernel never writes is only copied in, one it never uses is not copied at all.
pub fn kernels(module: &Module, source: &str) -> Vec<KernelInfo> {
    module
        .kernels()
        .map(|f| KernelInfo {
            name: f.name.clone(),
            source: source.to_string(),
            // What the interpreter runs with the block's threads together: barriers and the
            // exchanges of warp operations, warp and warpgroup multiplies.
            barriers: rkc_rk::interp::synchronises(module, f, &mut Vec::new()),
            panic_sites: rkc_rk::panics::panic_sites(f)
                .into_iter()
                .map(|s| PanicSite { message: s.message, line: s.loc.line, col: s.loc.col })
                .collect(),
            print_sites: rkc_rk::prints::print_sites(f),
            params: f
                .params
                .iter()
                .zip(rkc_rk::passes::access_of_params(f))
                .zip(rkc_rk::passes::offsets_past_pointee(f))
                .map(|((p, facts), past)| {
                    let ty = f.ty(p.value).cloned().unwrap_or(Type::Unit);
                    let access = match facts {
                        ParamAccess::Unused => Access::Unused,
                        ParamAccess::Read => Access::Read,
                        ParamAccess::Write => Access::Write,
                        ParamAccess::ReadWrite => Access::ReadWrite,
                    };
                    let kind = match &ty {
                        Type::Ptr { mutable, pointee } => ParamKind::Pointer {
                            pointee_size: pointee.size_of(),
                            mutable: *mutable,
                        },
                        Type::Slice { mutable, elem } => {
                            ParamKind::Slice { elem_size: elem.size_of(), mutable: *mutable }
                        }
                        other => ParamKind::Value { size: other.size_of() },
                    };
                    // A by-value array or struct is spelled as the host writes it; the runtime
                    // moves it as the read-only buffer the kernel reads it from. A reference
                    // parameter is a pointer in rk (upstream maps the two alike) and is spelled
                    // as the reference the kernel takes, so that `rkc inspect` and the runtime's
                    // messages show what the user wrote.
                    let spelled = match (&ty, p.by_value, p.by_ref) {
                        (Type::Ptr { pointee, .. }, true, _) => pointee.to_string(),
                        (Type::Ptr { mutable, pointee }, _, true) => {
                            format!("&{}{pointee}", if *mutable { "mut " } else { "" })
                        }
                        _ => ty.to_string(),
                    };
                    ParamInfo {
                        name: p.name.clone(),
                        ty: spelled,
                        kind,
                        access,
                        past_pointee: past.map(|l| (l.line, l.col)),
                    }
                })
                .collect(),
        })
        .collect()
}
