//! The mapping report (`rkc --explain-mapping kernels.rs`): each kernel parameter's source
//! span labelled with how the runtime will move it and why. The facts come from the compiler's
//! access analysis (through the caller); this module finds the spans and renders the report.

use crate::diag::{LineIndex, Span};
use ariadne::{Config, Label, Report, ReportKind, Source};

/// Renders one report per kernel: `facts` holds, per kernel, each parameter's name and the
/// sentence that explains its movement. Kernels or parameters not found in `source` are
/// listed without a span.
pub fn explain_mapping(
    source: &str,
    path: &str,
    facts: &[(String, Vec<(String, String)>)],
    colour: bool,
) -> String {
    let spans = param_spans(source);
    let index = LineIndex::new(source);
    let mut out = Vec::new();
    for (kernel, params) in facts {
        let found = spans.iter().find(|(k, _, _)| k == kernel);
        let Some((_, name_span, param_spans)) = found else {
            out.extend_from_slice(format!("kernel `{kernel}`\n").as_bytes());
            for (p, how) in params {
                out.extend_from_slice(format!("  {p}: {how}\n").as_bytes());
            }
            continue;
        };
        let mut report = Report::build(
            ReportKind::Custom("mapping", ariadne::Color::Cyan),
            (path, index.range(*name_span)),
        )
        .with_config(Config::default().with_color(colour))
        .with_message(format!("how `offload!` moves the arguments of `{kernel}`"));
        for (k, (p, how)) in params.iter().enumerate() {
            if let Some((_, span)) = param_spans.iter().find(|(n, _)| n == p) {
                report = report.with_label(
                    Label::new((path, index.range(*span))).with_message(how).with_order(k as i32),
                );
            } else {
                report = report.with_note(format!("{p}: {how}"));
            }
        }
        let _ = report.finish().write((path, Source::from(source)), &mut out);
    }
    let text = String::from_utf8_lossy(&out).into_owned();
    if colour { text } else { strip_ansi(&text) }
}

/// Every `#[offload_kernel]` function of the file (inline modules included): its name's span
/// and each parameter's name and span.
fn param_spans(source: &str) -> Vec<(String, Span, Vec<(String, Span)>)> {
    fn walk(list: &[syn::Item], out: &mut Vec<(String, Span, Vec<(String, Span)>)>) {
        for item in list {
            match item {
                syn::Item::Fn(f) if crate::items::collect::is_kernel_attr(&f.attrs) => {
                    let params = f
                        .sig
                        .inputs
                        .iter()
                        .filter_map(|a| match a {
                            syn::FnArg::Typed(t) => match t.pat.as_ref() {
                                syn::Pat::Ident(i) => Some((
                                    i.ident.to_string(),
                                    Span::from_pm2(syn::spanned::Spanned::span(t)),
                                )),
                                _ => None,
                            },
                            syn::FnArg::Receiver(_) => None,
                        })
                        .collect();
                    out.push((f.sig.ident.to_string(), Span::from_pm2(f.sig.ident.span()), params));
                }
                syn::Item::Mod(m) => {
                    if let Some((_, inner)) = &m.content {
                        walk(inner, out);
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    if let Ok(file) = syn::parse_file(source) {
        walk(&file.items, &mut out);
    }
    out
}

/// ariadne colours a custom report kind's name even without colour; plain output drops it.
fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}
