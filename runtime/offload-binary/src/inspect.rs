//! A human- and machine-readable account of a fat binary: its images (kind, arch, triple,
//! size) and, per kernel, each parameter with how it is mapped and how many bytes a launch
//! moves. `rkc inspect` prints it.

use crate::Image;
use crate::metadata::{Access, KernelInfo, ParamKind};
use std::fmt::Write as _;

fn mapping(p: &crate::ParamInfo) -> (String, String) {
    let direction = match p.access {
        Access::Unused => "not copied",
        Access::Read => "copied in",
        Access::Write | Access::ReadWrite => "copied in and back",
        Access::Overwrite => "copied back",
    };
    match p.kind {
        ParamKind::Value { size } => ("by value".into(), format!("{size} bytes")),
        ParamKind::Pointer { pointee_size, .. } => (
            direction.into(),
            match p.past_pointee {
                None => format!(
                    "{pointee_size} bytes (size_of the pointee; a slice argument maps the whole slice)"
                ),
                Some((line, col)) => format!(
                    "needs a slice or array argument: the kernel offsets it past its {pointee_size}-byte pointee at {line}:{col}"
                ),
            },
        ),
        ParamKind::Slice { elem_size, .. } => {
            (direction.into(), format!("len × {elem_size} bytes"))
        }
    }
}

/// The kernels of the first image that has metadata (every image rkc writes carries the same).
fn kernels(images: &[Image]) -> Vec<KernelInfo> {
    images
        .iter()
        .find_map(|i| i.string(crate::KERNELS_KEY))
        .and_then(|m| crate::metadata::decode(m).ok())
        .unwrap_or_default()
}

/// The inspector's text report.
pub fn text(images: &[Image]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "images: {}", images.len());
    for (k, i) in images.iter().enumerate() {
        let _ = writeln!(
            out,
            "  [{k}] {:<6} {:<8} {:<20} {:>8} bytes  ({})",
            i.image_kind.name(),
            i.arch(),
            i.triple(),
            i.bytes.len(),
            i.offload_kind.name()
        );
    }
    for k in kernels(images) {
        let prints = match k.print_sites.len() {
            0 => String::new(),
            n => format!(", {n} print sites"),
        };
        let _ = writeln!(
            out,
            "kernel {}  (from {}, {} panic sites{prints})",
            k.signature(),
            k.source,
            k.panic_sites.len()
        );
        for p in &k.params {
            let (how, bytes) = mapping(p);
            let _ = writeln!(out, "  {:<10} {:<18} {:<20} {bytes}", p.name, p.ty, how);
        }
    }
    out
}

/// A JSON string literal (RFC 8259 escaping); also used for rkc's JSON diagnostics.
pub fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The inspector's report as JSON.
pub fn json(images: &[Image]) -> String {
    let images_json: Vec<String> = images
        .iter()
        .map(|i| {
            format!(
                "{{\"kind\":{},\"arch\":{},\"triple\":{},\"producer\":{},\"bytes\":{}}}",
                json_string(i.image_kind.name()),
                json_string(i.arch()),
                json_string(i.triple()),
                json_string(i.offload_kind.name()),
                i.bytes.len()
            )
        })
        .collect();
    let kernels_json: Vec<String> = kernels(images)
        .iter()
        .map(|k| {
            let params: Vec<String> = k
                .params
                .iter()
                .map(|p| {
                    let (how, bytes) = mapping(p);
                    format!(
                        "{{\"name\":{},\"type\":{},\"access\":{},\"mapping\":{},\"bytes\":{}}}",
                        json_string(&p.name),
                        json_string(&p.ty),
                        json_string(p.access.as_str()),
                        json_string(&how),
                        json_string(&bytes)
                    )
                })
                .collect();
            format!(
                "{{\"name\":{},\"signature\":{},\"source\":{},\"panic_sites\":{},\"print_sites\":{},\"params\":[{}]}}",
                json_string(&k.name),
                json_string(&k.signature()),
                json_string(&k.source),
                k.panic_sites.len(),
                k.print_sites.len(),
                params.join(",")
            )
        })
        .collect();
    format!("{{\"images\":[{}],\"kernels\":[{}]}}\n", images_json.join(","), kernels_json.join(","))
}
