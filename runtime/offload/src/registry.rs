//! The registered fat binaries and the lookup of a kernel's images and metadata in them.

use crate::ParamShape;
use crate::error::OffloadError;
use offload_binary::{Image, ImageKind, KernelInfo, ParamInfo, ParamKind};
use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};

/// One registered fat binary, parsed once.
#[derive(Debug)]
pub(crate) struct FatBinary {
    /// Distinguishes fat binaries in the per-device module caches.
    pub id: usize,
    pub images: Vec<Image>,
    /// The decoded metadata of each image, by image index (shared with every launch's
    /// `Found`, so that a launch does not copy it).
    pub kernels: Vec<Vec<Arc<KernelInfo>>>,
}

static REGISTRY: RwLock<Vec<Arc<FatBinary>>> = RwLock::new(Vec::new());

/// How many fat binaries have been registered: a lookup remembered under another count may
/// be out of date (a newer fat binary may hold the kernel).
static GENERATION: AtomicUsize = AtomicUsize::new(0);

/// A launching thread's recent successful lookups, by the address of the kernel's name and
/// parameter shapes (both `'static` in `Kernel`) and the registry's generation: a launch in a
/// loop finds its kernel without a lock, a search through every kernel's name and the
/// comparison of the parameters.
type Remembered = Vec<((usize, usize, usize), usize, Found)>;

thread_local! {
    static RECENT: RefCell<Remembered> = const { RefCell::new(Vec::new()) };
}

/// How many lookups a thread remembers (a program launches a handful of kernels in turn).
const RECENT_LOOKUPS: usize = 16;

/// Registers a fat binary made by rkc, so that `offload!` can launch its kernels. A kernel is
/// looked up in the most recently registered fat binary first.
pub fn register_fatbin(bytes: impl AsRef<[u8]>) -> Result<(), OffloadError> {
    let bad = |reason: String| OffloadError::BadFatBinary { reason };
    let images = offload_binary::read(bytes.as_ref()).map_err(|e| bad(e.to_string()))?;
    let mut kernels = Vec::with_capacity(images.len());
    for (k, image) in images.iter().enumerate() {
        let meta = image.string(offload_binary::KERNELS_KEY).ok_or_else(|| {
            bad(format!(
                "image {k} ({} {}) has no rkc kernel metadata; was it made by rkc?",
                image.image_kind.name(),
                image.arch()
            ))
        })?;
        kernels.push(
            offload_binary::metadata::decode(meta)
                .map_err(|e| bad(format!("image {k}: {e}")))?
                .into_iter()
                .map(Arc::new)
                .collect(),
        );
    }
    let mut registry = REGISTRY.write().unwrap_or_else(|e| e.into_inner());
    let id = registry.len();
    registry.push(Arc::new(FatBinary { id, images, kernels }));
    GENERATION.fetch_add(1, Ordering::Release);
    Ok(())
}

/// A kernel found in a fat binary, with its metadata.
#[derive(Clone, Debug)]
pub(crate) struct Found {
    pub fatbin: Arc<FatBinary>,
    pub info: Arc<KernelInfo>,
}

/// Finds a kernel by name and checks that the fat binary's kernel takes the parameters the
/// host's does: the same number, each with the same mapping and sizes (`host_params`, which
/// rustc computed from the host's types). The signatures are only for the message: the host's
/// as its source writes the types, the fat binary's as the compiler spells them, so that two
/// spellings of one type (`types::Vec3` and `Vec3`, a constant or a literal as an array length)
/// agree.
pub(crate) fn find(
    name: &'static str,
    host_signature: &str,
    host_params: &'static [ParamShape],
) -> Result<Found, OffloadError> {
    let key = (name.as_ptr() as usize, host_params.as_ptr() as usize, host_params.len());
    let generation = GENERATION.load(Ordering::Acquire);
    let remembered = RECENT.with_borrow(|recent| {
        recent.iter().find(|(k, g, _)| *k == key && *g == generation).map(|(_, _, f)| f.clone())
    });
    if let Some(found) = remembered {
        return Ok(found);
    }
    let found = search(name, host_signature, host_params)?;
    RECENT.with_borrow_mut(|recent| {
        recent.retain(|(_, g, _)| *g == generation);
        if recent.len() == RECENT_LOOKUPS {
            recent.remove(0);
        }
        recent.push((key, generation, found.clone()));
    });
    Ok(found)
}

/// `find` without the thread's memory of earlier lookups.
fn search(
    name: &str,
    host_signature: &str,
    host_params: &[ParamShape],
) -> Result<Found, OffloadError> {
    let registry = REGISTRY.read().unwrap_or_else(|e| e.into_inner());
    for fatbin in registry.iter().rev() {
        let info = fatbin.kernels.iter().flatten().find(|k| k.name == name);
        if let Some(info) = info {
            if let Some(difference) = difference(host_params, info) {
                return Err(OffloadError::StaleFatBinary {
                    kernel: name.into(),
                    host: host_signature.into(),
                    fatbin: info.signature(),
                    difference,
                });
            }
            return Ok(Found { fatbin: Arc::clone(fatbin), info: Arc::clone(info) });
        }
    }
    Err(OffloadError::KernelNotFound { kernel: name.into() })
}

/// What differs between the host's parameters and the fat binary's kernel, in words; `None`
/// when they agree.
fn difference(host: &[ParamShape], info: &KernelInfo) -> Option<String> {
    if host.len() != info.params.len() {
        let count =
            |n: usize| if n == 1 { "1 parameter".to_string() } else { format!("{n} parameters") };
        return Some(format!(
            "the host's kernel takes {}, the fat binary's {}",
            count(host.len()),
            count(info.params.len())
        ));
    }
    let (k, (shape, param)) = host
        .iter()
        .zip(&info.params)
        .enumerate()
        .find(|(_, (shape, p))| !shape.matches(p.kind, &p.ty))?;
    Some(format!(
        "parameter {} (`{}`) is {shape} on the host and {} in the fat binary",
        k + 1,
        param.name,
        describe(param)
    ))
}

/// A fat binary's parameter in the words of `ParamShape`'s `Display`.
fn describe(param: &ParamInfo) -> String {
    let access = |mutable: bool| if mutable { "writable" } else { "read-only" };
    match param.kind {
        ParamKind::Value { .. } => format!("a `{}` by value", param.ty),
        // The compiler spells an array or struct taken by value as the host writes it, and
        // passes it as a pointer to its read-only copy.
        ParamKind::Pointer { pointee_size, mutable: false }
            if !param.ty.starts_with(['*', '&']) =>
        {
            format!("{pointee_size} bytes by value")
        }
        ParamKind::Pointer { pointee_size, mutable } => {
            format!("a pointer to {pointee_size} {} bytes", access(mutable))
        }
        ParamKind::Slice { elem_size, mutable } => {
            format!("a {} slice of {elem_size}-byte elements", access(mutable))
        }
    }
}

/// Finds a kernel by name alone (for raw launches, which have no host signature).
pub(crate) fn find_by_name(name: &str) -> Result<Found, OffloadError> {
    let registry = REGISTRY.read().unwrap_or_else(|e| e.into_inner());
    for fatbin in registry.iter().rev() {
        if let Some(info) = fatbin.kernels.iter().flatten().find(|k| k.name == name) {
            return Ok(Found { fatbin: Arc::clone(fatbin), info: Arc::clone(info) });
        }
    }
    Err(OffloadError::KernelNotFound { kernel: name.into() })
}

/// The `sm_XY` number of an arch string (`sm_90` → 90).
fn sm_number(arch: &str) -> Option<u32> {
    arch.strip_prefix("sm_")?.parse().ok()
}

impl FatBinary {
    /// The best NVIDIA image of a kernel for a device of compute capability `sm` (`sm_XY` as
    /// a number: 90 for 9.0, 100 for 10.0): the cubin for exactly that arch; else the cubin of
    /// the same major version with the highest minor not above the device's (a cubin for X.y
    /// runs on X.z for z ≥ y: sm_80's on an sm_86, sm_120's on an sm_121); else the PTX of the
    /// newest arch not newer than the device, which the driver compiles.
    pub fn best_nvidia_image(&self, kernel: &str, sm: u32) -> Option<&Image> {
        let has_kernel = |k: usize| self.kernels[k].iter().any(|i| i.name == kernel);
        let candidates = |kind: ImageKind| {
            self.images
                .iter()
                .enumerate()
                .filter(move |(k, i)| {
                    i.triple().starts_with("nvptx") && i.image_kind == kind && has_kernel(*k)
                })
                .filter_map(|(_, i)| Some((sm_number(i.arch())?, i)))
        };
        candidates(ImageKind::Cubin)
            .filter(|(n, _)| n / 10 == sm / 10 && *n <= sm)
            .max_by_key(|(n, _)| *n)
            .or_else(|| {
                candidates(ImageKind::Ptx).filter(|(n, _)| *n <= sm).max_by_key(|(n, _)| *n)
            })
            .map(|(_, i)| i)
    }

    /// The indices of the AMD code objects that hold a kernel, in the order they were written:
    /// the HIP backend tries each, since the runtime rejects one built for another architecture.
    pub fn amd_images(&self, kernel: &str) -> Vec<usize> {
        (0..self.images.len())
            .filter(|&k| {
                self.images[k].triple().starts_with("amdgcn")
                    && self.images[k].image_kind == ImageKind::Object
            })
            .filter(|&k| self.kernels[k].iter().any(|i| i.name == kernel))
            .collect()
    }

    /// What the fat binary holds, for error messages.
    pub fn describe_images(&self) -> Vec<String> {
        self.images.iter().map(|i| format!("{} {}", i.image_kind.name(), i.arch())).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use offload_binary::OffloadKind;

    /// A fat binary holding kernel `k` as a cubin and PTX for each of `archs`, and kernel
    /// `other` only as PTX for sm_90.
    fn fatbin(archs: &[&str]) -> FatBinary {
        let decode = |text: &str| -> Vec<Arc<KernelInfo>> {
            offload_binary::metadata::decode(text).unwrap().into_iter().map(Arc::new).collect()
        };
        let k = decode("rkc-kernels 1\nkernel\tk\nsource\tt.rs\n");
        let other = decode("rkc-kernels 1\nkernel\tother\nsource\tt.rs\n");
        let image = |kind: ImageKind, arch: &str| Image {
            image_kind: kind,
            offload_kind: OffloadKind::Cuda,
            flags: 0,
            strings: vec![
                ("triple".into(), "nvptx64-nvidia-cuda".into()),
                ("arch".into(), arch.into()),
            ],
            bytes: Vec::new(),
        };
        let mut images = Vec::new();
        let mut kernels = Vec::new();
        for arch in archs {
            for kind in [ImageKind::Ptx, ImageKind::Cubin] {
                images.push(image(kind, arch));
                kernels.push(k.clone());
            }
        }
        images.push(image(ImageKind::Ptx, "sm_90"));
        kernels.push(other);
        FatBinary { id: 0, images, kernels }
    }

    fn pick(f: &FatBinary, kernel: &str, sm: u32) -> Option<String> {
        f.best_nvidia_image(kernel, sm).map(|i| format!("{} {}", i.image_kind.name(), i.arch()))
    }

    /// The exact cubin first, then a cubin of the same major version and a lower minor, then
    /// the newest PTX the device can compile; never a cubin of another major version.
    #[test]
    fn nvidia_images_by_compute_capability() {
        let f = fatbin(&["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"]);
        let cubin = |a: &str| Some(format!("cubin {a}"));
        let ptx = |a: &str| Some(format!("ptx {a}"));
        assert_eq!(pick(&f, "k", 90), cubin("sm_90"));
        assert_eq!(pick(&f, "k", 86), cubin("sm_86"));
        assert_eq!(pick(&f, "k", 87), cubin("sm_86"));
        assert_eq!(pick(&f, "k", 103), cubin("sm_100"));
        assert_eq!(pick(&f, "k", 121), cubin("sm_120"));
        assert_eq!(pick(&f, "k", 110), ptx("sm_100"));
        assert_eq!(pick(&f, "k", 130), ptx("sm_120"));
        assert_eq!(pick(&f, "k", 70), None);
        assert_eq!(pick(&f, "other", 120), ptx("sm_90"));
        assert_eq!(pick(&f, "other", 89), None);
        assert_eq!(pick(&f, "missing", 90), None);
        let only_80 = fatbin(&["sm_80"]);
        assert_eq!(pick(&only_80, "k", 89), cubin("sm_80"));
        assert_eq!(pick(&only_80, "k", 90), ptx("sm_80"));
    }
}
