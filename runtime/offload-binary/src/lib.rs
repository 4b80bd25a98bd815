//! LLVM's OffloadBinary container and rkc's kernel metadata, defined once for the compiler
//! (which writes them) and the runtime (which reads them).
//!
//! # Container
//!
//! A fat binary is a concatenation of OffloadBinary records, each aligned to 8 bytes and each
//! starting with its own magic, exactly as clang's offload packager writes them, so that
//! `llvm-objdump --offloading` and `llvm-offload-binary` read our output. One record:
//!
//! ```text
//! header  (32 bytes): magic 10 ff 10 ad, u32 version = 1, u64 total size,
//!                     u64 entry offset, u64 entry size
//! entry   (40 bytes): u16 image kind, u16 offload kind (a bit mask), u32 flags, u64 string offset,
//!                     u64 number of strings, u64 image offset, u64 image size
//! strings (16 bytes each): u64 key offset, u64 value offset (NUL-terminated, in a table)
//! image   (aligned to 8)
//! ```
//!
//! All integers are little-endian and all offsets are relative to the start of the record.
//!
//! # Kernel metadata
//!
//! Every image rkc writes carries the string key [`KERNELS_KEY`] whose value describes each
//! kernel in the image: its name and, per parameter, the Rust type, how the runtime passes
//! it and what the kernel does through it. The runtime needs this to map arguments and to
//! refuse a fat binary that no longer matches the host's view of a kernel.

use std::fmt;

/// The four bytes that open every OffloadBinary record.
pub const MAGIC: [u8; 4] = [0x10, 0xff, 0x10, 0xad];
/// The only container version LLVM 22 writes and reads.
pub const VERSION: u32 = 1;
/// The string key under which rkc stores its kernel metadata.
pub const KERNELS_KEY: &str = "rkc.kernels";
/// The string key naming the tool that produced an image.
pub const PRODUCER_KEY: &str = "rkc.producer";
/// The string key of an image that runs only some of the kernels: one line per kernel it
/// leaves out, `name: reason` (the host image leaves out kernels whose threads wait for each
/// other; the runtime runs those on its simulator and says why).
pub const LEFT_OUT_KEY: &str = "rkc.left-out";

const HEADER_SIZE: usize = 32;
const ENTRY_SIZE: usize = 40;
const STRING_ENTRY_SIZE: usize = 16;
const ALIGN: usize = 8;

/// What an image holds; the numbering is LLVM's `ImageKind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageKind {
    None,
    Object,
    Bitcode,
    Cubin,
    Fatbinary,
    Ptx,
    Other(u16),
}

impl ImageKind {
    fn to_u16(self) -> u16 {
        match self {
            ImageKind::None => 0,
            ImageKind::Object => 1,
            ImageKind::Bitcode => 2,
            ImageKind::Cubin => 3,
            ImageKind::Fatbinary => 4,
            ImageKind::Ptx => 5,
            ImageKind::Other(n) => n,
        }
    }

    fn from_u16(n: u16) -> ImageKind {
        match n {
            0 => ImageKind::None,
            1 => ImageKind::Object,
            2 => ImageKind::Bitcode,
            3 => ImageKind::Cubin,
            4 => ImageKind::Fatbinary,
            5 => ImageKind::Ptx,
            n => ImageKind::Other(n),
        }
    }

    /// The name LLVM's tools print for this kind.
    pub fn name(self) -> &'static str {
        match self {
            ImageKind::None => "none",
            ImageKind::Object => "elf",
            ImageKind::Bitcode => "bc",
            ImageKind::Cubin => "cubin",
            ImageKind::Fatbinary => "fatbinary",
            ImageKind::Ptx => "ptx",
            ImageKind::Other(_) => "unknown",
        }
    }
}

/// Which offloading model produced an image; the numbering is LLVM's `OffloadKind`, a bit
/// mask (None 0, OpenMP 1, CUDA 2, HIP 4, SYCL 8), as llvm-offload-binary-22 writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OffloadKind {
    None,
    OpenMp,
    Cuda,
    Hip,
    Sycl,
    Other(u16),
}

impl OffloadKind {
    fn to_u16(self) -> u16 {
        match self {
            OffloadKind::None => 0,
            OffloadKind::OpenMp => 1,
            OffloadKind::Cuda => 2,
            OffloadKind::Hip => 4,
            OffloadKind::Sycl => 8,
            OffloadKind::Other(n) => n,
        }
    }

    fn from_u16(n: u16) -> OffloadKind {
        match n {
            0 => OffloadKind::None,
            1 => OffloadKind::OpenMp,
            2 => OffloadKind::Cuda,
            4 => OffloadKind::Hip,
            8 => OffloadKind::Sycl,
            n => OffloadKind::Other(n),
        }
    }

    /// The name LLVM's tools print as the image's producer.
    pub fn name(self) -> &'static str {
        match self {
            OffloadKind::None => "none",
            OffloadKind::OpenMp => "openmp",
            OffloadKind::Cuda => "cuda",
            OffloadKind::Hip => "hip",
            OffloadKind::Sycl => "sycl",
            OffloadKind::Other(_) => "unknown",
        }
    }
}

/// One image of a fat binary with its string table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub image_kind: ImageKind,
    pub offload_kind: OffloadKind,
    pub flags: u32,
    /// Key/value strings in the order they are written; `triple` and `arch` are always present
    /// in what rkc writes. Keys are unique.
    pub strings: Vec<(String, String)>,
    pub bytes: Vec<u8>,
}

impl Image {
    /// Returns the value of a string key.
    pub fn string(&self, key: &str) -> Option<&str> {
        self.strings.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The target triple, or "" when the image has none.
    pub fn triple(&self) -> &str {
        self.string("triple").unwrap_or("")
    }

    /// The target architecture (`sm_90`, `gfx942`), or "" when the image has none.
    pub fn arch(&self) -> &str {
        self.string("arch").unwrap_or("")
    }
}

/// Why a byte string is not a valid fat binary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    Empty,
    BadMagic { offset: usize },
    UnsupportedVersion { offset: usize, version: u32 },
    Truncated { offset: usize, what: &'static str },
    OutOfBounds { offset: usize, what: &'static str },
    BadString { offset: usize },
    BadMetadata { line: usize, reason: String },
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Empty => write!(f, "the file is empty"),
            FormatError::BadMagic { offset } => {
                write!(f, "no OffloadBinary magic (10 ff 10 ad) at byte {offset}: not a fat binary")
            }
            FormatError::UnsupportedVersion { offset, version } => write!(
                f,
                "OffloadBinary version {version} at byte {offset} is not supported (expected {VERSION})"
            ),
            FormatError::Truncated { offset, what } => {
                write!(f, "the file ends inside the {what} of the record at byte {offset}")
            }
            FormatError::OutOfBounds { offset, what } => {
                write!(f, "the {what} of the record at byte {offset} points outside the record")
            }
            FormatError::BadString { offset } => {
                write!(f, "a string of the record at byte {offset} is not NUL-terminated UTF-8")
            }
            FormatError::BadMetadata { line, reason } => {
                write!(f, "kernel metadata line {line}: {reason}")
            }
        }
    }
}

impl std::error::Error for FormatError {}

/// Serializes images into one fat binary: a concatenation of 8-byte aligned records.
pub fn write(images: &[Image]) -> Vec<u8> {
    let mut out = Vec::new();
    for image in images {
        write_record(&mut out, image);
    }
    out
}

fn align_up(n: usize) -> usize {
    n.div_ceil(ALIGN) * ALIGN
}

fn write_record(out: &mut Vec<u8>, image: &Image) {
    let strings_at = HEADER_SIZE + ENTRY_SIZE;
    let table_at = strings_at + STRING_ENTRY_SIZE * image.strings.len();
    // The table starts with a NUL, as LLVM's does, so that offset 0 names the empty string.
    let mut table = vec![0u8];
    let mut string_entries = Vec::with_capacity(image.strings.len());
    for (key, value) in &image.strings {
        let key_at = table_at + table.len();
        table.extend_from_slice(key.as_bytes());
        table.push(0);
        let value_at = table_at + table.len();
        table.extend_from_slice(value.as_bytes());
        table.push(0);
        string_entries.push((key_at as u64, value_at as u64));
    }
    let image_at = align_up(table_at + table.len());
    let total = align_up(image_at + image.bytes.len());

    let start = out.len();
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(total as u64).to_le_bytes());
    out.extend_from_slice(&(HEADER_SIZE as u64).to_le_bytes());
    out.extend_from_slice(&(ENTRY_SIZE as u64).to_le_bytes());

    out.extend_from_slice(&image.image_kind.to_u16().to_le_bytes());
    out.extend_from_slice(&image.offload_kind.to_u16().to_le_bytes());
    out.extend_from_slice(&image.flags.to_le_bytes());
    out.extend_from_slice(&(strings_at as u64).to_le_bytes());
    out.extend_from_slice(&(image.strings.len() as u64).to_le_bytes());
    out.extend_from_slice(&(image_at as u64).to_le_bytes());
    out.extend_from_slice(&(image.bytes.len() as u64).to_le_bytes());

    for (key_at, value_at) in string_entries {
        out.extend_from_slice(&key_at.to_le_bytes());
        out.extend_from_slice(&value_at.to_le_bytes());
    }
    out.extend_from_slice(&table);
    out.resize(start + image_at, 0);
    out.extend_from_slice(&image.bytes);
    out.resize(start + total, 0);
}

/// A little-endian cursor over one record that reports where it ran out.
struct Record<'a> {
    bytes: &'a [u8],
    start: usize,
}

impl Record<'_> {
    fn u16_at(&self, at: usize, what: &'static str) -> Result<u16, FormatError> {
        self.slice(at, 2, what).map(|b| u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32_at(&self, at: usize, what: &'static str) -> Result<u32, FormatError> {
        self.slice(at, 4, what).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64_at(&self, at: usize, what: &'static str) -> Result<u64, FormatError> {
        self.slice(at, 8, what).map(|b| {
            let mut a = [0u8; 8];
            a.copy_from_slice(b);
            u64::from_le_bytes(a)
        })
    }

    fn usize_at(&self, at: usize, what: &'static str) -> Result<usize, FormatError> {
        let v = self.u64_at(at, what)?;
        usize::try_from(v).map_err(|_| FormatError::OutOfBounds { offset: self.start, what })
    }

    fn slice(&self, at: usize, len: usize, what: &'static str) -> Result<&[u8], FormatError> {
        let end =
            at.checked_add(len).ok_or(FormatError::OutOfBounds { offset: self.start, what })?;
        self.bytes.get(at..end).ok_or(FormatError::Truncated { offset: self.start, what })
    }

    fn c_string(&self, at: usize) -> Result<String, FormatError> {
        let tail = self
            .bytes
            .get(at..)
            .ok_or(FormatError::OutOfBounds { offset: self.start, what: "string table" })?;
        let len = tail
            .iter()
            .position(|&b| b == 0)
            .ok_or(FormatError::BadString { offset: self.start })?;
        String::from_utf8(tail[..len].to_vec())
            .map_err(|_| FormatError::BadString { offset: self.start })
    }
}

/// Parses every record of a fat binary. Any structural fault is an error; nothing panics.
pub fn read(bytes: &[u8]) -> Result<Vec<Image>, FormatError> {
    if bytes.is_empty() {
        return Err(FormatError::Empty);
    }
    let mut images = Vec::new();
    let mut offset = 0;
    while offset < bytes.len() {
        let rest = &bytes[offset..];
        if rest.len() < 4 || rest[..4] != MAGIC {
            return Err(FormatError::BadMagic { offset });
        }
        let head = Record { bytes: rest, start: offset };
        let version = head.u32_at(4, "header")?;
        if version != VERSION {
            return Err(FormatError::UnsupportedVersion { offset, version });
        }
        let total = head.usize_at(8, "header")?;
        if total < HEADER_SIZE || total > rest.len() {
            return Err(FormatError::Truncated { offset, what: "record" });
        }
        let record = Record { bytes: &rest[..total], start: offset };
        let entry_at = record.usize_at(16, "header")?;
        let image_kind = ImageKind::from_u16(record.u16_at(entry_at, "entry")?);
        let offload_kind = OffloadKind::from_u16(record.u16_at(entry_at + 2, "entry")?);
        let flags = record.u32_at(entry_at + 4, "entry")?;
        let strings_at = record.usize_at(entry_at + 8, "entry")?;
        let n_strings = record.usize_at(entry_at + 16, "entry")?;
        let image_at = record.usize_at(entry_at + 24, "entry")?;
        let image_size = record.usize_at(entry_at + 32, "entry")?;

        let mut strings = Vec::new();
        for k in 0..n_strings {
            let at = k
                .checked_mul(STRING_ENTRY_SIZE)
                .and_then(|d| strings_at.checked_add(d))
                .ok_or(FormatError::OutOfBounds { offset, what: "string entries" })?;
            let key_at = record.usize_at(at, "string entries")?;
            let value_at = record.usize_at(at + 8, "string entries")?;
            strings.push((record.c_string(key_at)?, record.c_string(value_at)?));
        }
        let image = record.slice(image_at, image_size, "image")?.to_vec();
        images.push(Image { image_kind, offload_kind, flags, strings, bytes: image });
        offset += align_up(total);
    }
    Ok(images)
}

pub mod format;
pub mod inspect;
pub mod metadata;
pub use metadata::{Access, KernelInfo, PanicSite, ParamInfo, ParamKind, PrintSite};

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Image> {
        vec![
            Image {
                image_kind: ImageKind::Ptx,
                offload_kind: OffloadKind::Cuda,
                flags: 0,
                strings: vec![
                    ("triple".into(), "nvptx64-nvidia-cuda".into()),
                    ("arch".into(), "sm_90".into()),
                ],
                bytes: b"abcdefghij".to_vec(),
            },
            Image {
                image_kind: ImageKind::Object,
                offload_kind: OffloadKind::Hip,
                flags: 0,
                strings: vec![
                    ("triple".into(), "amdgcn-amd-amdhsa".into()),
                    ("arch".into(), "gfx942".into()),
                ],
                bytes: b"XYZ".to_vec(),
            },
        ]
    }

    #[test]
    fn write_then_read_is_identity() {
        let images = sample();
        let bytes = write(&images);
        assert_eq!(bytes.len() % 8, 0);
        assert_eq!(read(&bytes).unwrap(), images);
    }

    #[test]
    fn record_layout_matches_llvm() {
        // The fields LLVM's reader checks: magic, version, size, entry offset and size, and an
        // image offset aligned to 8 bytes.
        let bytes = write(&sample()[..1]);
        assert_eq!(&bytes[..4], &MAGIC);
        assert_eq!(u32::from_le_bytes(bytes[4..8].try_into().unwrap()), 1);
        assert_eq!(u64::from_le_bytes(bytes[8..16].try_into().unwrap()) as usize, bytes.len());
        assert_eq!(u64::from_le_bytes(bytes[16..24].try_into().unwrap()), 32);
        assert_eq!(u64::from_le_bytes(bytes[24..32].try_into().unwrap()), 40);
        assert_eq!(u16::from_le_bytes([bytes[32], bytes[33]]), 5);
        assert_eq!(u16::from_le_bytes([bytes[34], bytes[35]]), 2);
        let image_at = u64::from_le_bytes(bytes[56..64].try_into().unwrap()) as usize;
        assert_eq!(image_at % 8, 0);
        assert_eq!(&bytes[image_at..image_at + 10], b"abcdefghij");
    }

    #[test]
    fn every_truncation_is_an_error_not_a_panic() {
        let bytes = write(&sample());
        for len in 0..bytes.len() {
            // A cut at a record boundary is a valid, shorter fat binary; anywhere else it is
            // an error. Either way the reader must return.
            let _ = read(&bytes[..len]);
        }
        assert_eq!(read(&[]), Err(FormatError::Empty));
        assert!(matches!(read(&bytes[..20]), Err(FormatError::Truncated { .. })));
        assert!(matches!(read(b"ELF\x7f...."), Err(FormatError::BadMagic { offset: 0 })));
    }

    #[test]
    fn corrupt_offsets_are_errors() {
        let mut bytes = write(&sample()[..1]);
        // Point the image far beyond the record.
        bytes[56..64].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(read(&bytes).is_err());
        let mut bytes = write(&sample()[..1]);
        bytes[48..56].copy_from_slice(&(u64::MAX / 2).to_le_bytes());
        assert!(read(&bytes).is_err());
    }
}
