//! Diagnostics: rustc-shaped errors with a code, spans, notes and help, rendered by ariadne.

use ariadne::{Config, Label, Report, ReportKind, Source};
use offload_binary::inspect::json_string;
use std::ops::Range;

/// A source span as 1-based line and 0-based column (in chars) of its start and end, the form
/// proc-macro2 reports for syn's tokens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Span {
    pub start: (usize, usize),
    pub end: (usize, usize),
}

impl Span {
    /// Converts a proc-macro2 span of a file parsed from source text.
    pub fn from_pm2(span: proc_macro2::Span) -> Span {
        let (s, e) = (span.start(), span.end());
        Span { start: (s.line, s.column), end: (e.line, e.column) }
    }

    /// A span covering `self` through `other`.
    pub fn to(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }

    pub fn line(&self) -> u32 {
        self.start.0 as u32
    }

    pub fn col(&self) -> u32 {
        self.start.1 as u32 + 1
    }
}

/// One error, with everything needed to render it the way rustc would.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// `RK` followed by four digits; `rkc --explain` knows each.
    pub code: &'static str,
    pub message: String,
    /// The primary span and its label; `None` when the error concerns the whole file.
    pub primary: Option<(Span, String)>,
    pub secondary: Vec<(Span, String)>,
    pub notes: Vec<String>,
    pub helps: Vec<String>,
}

impl Diagnostic {
    pub fn new(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            message: message.into(),
            primary: None,
            secondary: Vec::new(),
            notes: Vec::new(),
            helps: Vec::new(),
        }
    }

    pub fn at(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.primary = Some((span, label.into()));
        self
    }

    pub fn with_secondary(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.secondary.push((span, label.into()));
        self
    }

    pub fn note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.helps.push(help.into());
        self
    }
}

/// Maps (line, column) positions to char offsets of one source text.
pub(crate) struct LineIndex {
    /// Char offset at which each line starts.
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub(crate) fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        let mut n = 0;
        for c in text.chars() {
            n += 1;
            if c == '\n' {
                starts.push(n);
            }
        }
        LineIndex { starts, len: n }
    }

    fn offset(&self, (line, col): (usize, usize)) -> usize {
        let start = self.starts.get(line.saturating_sub(1)).copied().unwrap_or(self.len);
        (start + col).min(self.len)
    }

    pub(crate) fn range(&self, span: Span) -> Range<usize> {
        let (a, b) = (self.offset(span.start), self.offset(span.end));
        a..b.max(a)
    }
}

/// The source text a span covers, as the user wrote it.
pub fn snippet(text: &str, span: Span) -> String {
    let range = LineIndex::new(text).range(span);
    text.chars().skip(range.start).take(range.len()).collect()
}

/// Renders diagnostics as rustc does, without colour (for files and snapshots) or with it.
pub fn render(diagnostics: &[Diagnostic], path: &str, text: &str, colour: bool) -> String {
    let index = LineIndex::new(text);
    let mut out = Vec::new();
    for d in diagnostics {
        let Some((span, label)) = &d.primary else {
            out.extend_from_slice(header(d, colour).as_bytes());
            for n in &d.notes {
                out.extend_from_slice(format!("  = note: {n}\n").as_bytes());
            }
            for h in &d.helps {
                out.extend_from_slice(format!("  = help: {h}\n").as_bytes());
            }
            continue;
        };
        let range = index.range(*span);
        let mut report = Report::build(ReportKind::Error, (path, range.clone()))
            .with_config(Config::default().with_color(colour))
            .with_code(d.code)
            .with_message(&d.message)
            .with_label(Label::new((path, range)).with_message(label).with_order(0));
        for (k, (span, label)) in d.secondary.iter().enumerate() {
            report = report.with_label(
                Label::new((path, index.range(*span))).with_message(label).with_order(k as i32 + 1),
            );
        }
        for n in &d.notes {
            report = report.with_note(n);
        }
        for h in &d.helps {
            report = report.with_help(h);
        }
        // ariadne's header reads `[CODE] Error: message`; rustc's reads `error[CODE]: message`,
        // which is what users and their tools expect, so the header is written here instead.
        let mut body = Vec::new();
        // Writing into a Vec cannot fail.
        let _ = report.finish().write((path, Source::from(text)), &mut body);
        let body = String::from_utf8_lossy(&body);
        let rest = body.split_once('\n').map(|(_, rest)| rest).unwrap_or("");
        out.extend_from_slice(header(d, colour).as_bytes());
        out.extend_from_slice(rest.as_bytes());
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The first line of a diagnostic, as rustc writes it.
/// A diagnostic without a code (an error about a file or the command) reads `error: ...`.
fn header(d: &Diagnostic, colour: bool) -> String {
    let kind = if d.code.is_empty() { "error".to_string() } else { format!("error[{}]", d.code) };
    if colour {
        format!("\x1b[1;31m{kind}\x1b[0m\x1b[1m: {}\x1b[0m\n", d.message)
    } else {
        format!("{kind}: {}\n", d.message)
    }
}

/// Renders diagnostics in rustc's JSON diagnostic format (`--error-format=json`): one object
/// per line, with the message, the `RKxxxx` code, the spans (byte offsets, 1-based lines and
/// columns, the source lines they cover, labels; the primary one marked), the notes and helps
/// as children, and `rendered`, the human text. Tools that read rustc's JSON (cargo's
/// consumers, editors, CI annotators) read rkc's without change. A diagnostic without a code
/// (about a file or the command) has `"code": null`. The writer is hand-made, with the
/// inspector's string escaping, because rkc-front is also linked into the `#[offload_kernel]`
/// macro, which should stay light; the tests parse its output with serde_json.
pub fn render_json(diagnostics: &[Diagnostic], path: &str, text: &str) -> String {
    let mut out = String::new();
    for d in diagnostics {
        let mut spans = Vec::new();
        if let Some((span, label)) = &d.primary {
            spans.push(json_span(path, text, *span, label, true));
        }
        for (span, label) in &d.secondary {
            spans.push(json_span(path, text, *span, label, false));
        }
        let child = |level: &str, message: &str| {
            format!(
                r#"{{"message":{},"code":null,"level":"{level}","spans":[],"children":[],"rendered":null}}"#,
                json_string(message)
            )
        };
        let children: Vec<String> = d
            .notes
            .iter()
            .map(|n| child("note", n))
            .chain(d.helps.iter().map(|h| child("help", h)))
            .collect();
        out.push_str(&format!(
            r#"{{"$message_type":"diagnostic","message":{},"code":{},"level":"error","spans":[{}],"children":[{}],"rendered":{}}}"#,
            json_string(&d.message),
            if d.code.is_empty() { "null".to_string() } else { format!(r#"{{"code":"{}","explanation":null}}"#, d.code) },
            spans.join(","),
            children.join(","),
            json_string(&render(std::slice::from_ref(d), path, text, false)),
        ));
        out.push('\n');
    }
    out
}

/// One span in rustc's JSON form.
fn json_span(path: &str, text: &str, span: Span, label: &str, primary: bool) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let line_of = |l: usize| lines.get(l.saturating_sub(1)).copied().unwrap_or("");
    // The byte offset of a (line, char column) position.
    let byte = |(line, col): (usize, usize)| -> usize {
        let before: usize = lines.iter().take(line.saturating_sub(1)).map(|l| l.len() + 1).sum();
        before + line_of(line).char_indices().nth(col).map_or(line_of(line).len(), |(b, _)| b)
    };
    let (first, last) = (span.start.0.max(1), span.end.0.max(span.start.0).max(1));
    let text_lines: Vec<String> = (first..=last)
        .map(|l| {
            let chars = line_of(l).chars().count();
            let start = if l == first { span.start.1 } else { 0 };
            let end = if l == last { span.end.1 } else { chars };
            format!(
                r#"{{"text":{},"highlight_start":{},"highlight_end":{}}}"#,
                json_string(line_of(l)),
                start + 1,
                end.max(start) + 1
            )
        })
        .collect();
    format!(
        r#"{{"file_name":{},"byte_start":{},"byte_end":{},"line_start":{first},"line_end":{last},"column_start":{},"column_end":{},"is_primary":{primary},"text":[{}],"label":{},"suggested_replacement":null,"suggestion_applicability":null,"expansion":null}}"#,
        json_string(path),
        byte(span.start),
        byte(span.end).max(byte(span.start)),
        span.start.1 + 1,
        span.end.1 + 1,
        text_lines.join(","),
        if label.is_empty() { "null".to_string() } else { json_string(label) },
    )
}
