//! The scanner that prepares the device core's text for parsing: it marks the templates and
//! leaves function bodies out. build.rs runs it over the core when rkc is built
//! (`super::FILES` holds what it wrote), and the front end over the impls that `#[derive]`
//! writes; it uses only `std`, so that build.rs can include it.

/// A function body of the core that the front end parses only when a kernel reaches the
/// function: most of the core's text is bodies, and a kernel uses few of them, so parsing
/// every body at every run was most of the front end's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LazyBody {
    /// The body's bytes in the file's text, from its `{` through its `}`.
    pub start: usize,
    pub end: usize,
    /// Where the `{` is: line from 1, column (in characters) from 0, as proc-macro2 counts
    /// them, so that the body parsed alone has the spans it has in the file.
    pub line: usize,
    pub column: usize,
    /// The function's signature when it too is left out of the parse (the device core's,
    /// not a derived impl's): the skeleton keeps `fn name()` in its place.
    pub sig: Option<SigText>,
}

/// Where a signature left out of the parse is: from its `fn` through the end of its `where`
/// clause (the byte before the body's `{`), and the line (from 1) and column (from 0) of
/// its `fn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SigText {
    pub start: usize,
    pub line: usize,
    pub column: usize,
}

/// The file's text with every function body that declares no items replaced by a stub, and
/// those bodies. The stub is the body's braces with nothing between them but the body's
/// newlines and, before the `}`, spaces: everything after the body keeps its line and column,
/// and the stub is the cheapest block there is to parse and to copy. The parsed file tells a
/// stub from an empty body by where its `{` is (`core_lib::lazy_stub`). A body that declares items
/// (`fn`, `use`, `const`, ...) stays: the item table must see its items. The text is the
/// core's own, so this small scanner knows only what the core writes: comments, strings,
/// characters and lifetimes, and braces.
///
/// With `sigs`, such a function's signature is left out too: what follows its name, through
/// its `where` clause, becomes `()` padded to the same length, so that the skeleton declares
/// `fn name()` where the text declares the function, with its qualifiers and attributes. The
/// item table needs only the name until a kernel reaches the function; parsing the core's
/// two thousand signatures (templates' copies included) at every run was a third of the
/// skeleton's parse.
pub fn skeleton(text: &str, sigs: bool) -> (String, Vec<LazyBody>) {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut bodies = Vec::new();
    // `copied` is where the text not yet copied to `out` starts; `line` is the line there.
    let (mut copied, mut line) = (0usize, 1usize);
    let mut i = 0;
    while i < bytes.len() {
        if let Some(next) = skip_literal(bytes, i) {
            i = next;
            continue;
        }
        if !is_ident_start(bytes[i]) || (i > 0 && is_ident_char(bytes[i - 1])) {
            i += 1;
            continue;
        }
        let word_end = i + bytes[i..].iter().take_while(|b| is_ident_char(**b)).count();
        if &text[i..word_end] != "fn" {
            i = word_end;
            continue;
        }
        let Some((open, close)) = fn_body(bytes, word_end) else {
            i = word_end;
            continue;
        };
        let fn_at = i;
        i = close + 1;
        let inner = &text[open + 1..close];
        // An empty body has nothing to leave out.
        if inner.trim().is_empty() || declares_items(inner) {
            continue;
        }
        let column_at = |at: usize| text[..at].rsplit('\n').next().map_or(0, |l| l.chars().count());
        let name_end = (sigs)
            .then(|| fn_name_end(bytes, word_end))
            .flatten()
            .filter(|&e| text[e..open].trim_start().starts_with(['(', '<']));
        let sig = name_end.map(|_| {
            let line = line + text[copied..fn_at].matches('\n').count();
            SigText { start: fn_at, line, column: column_at(fn_at) }
        });
        line += text[copied..open].matches('\n').count();
        let column = column_at(open);
        bodies.push(LazyBody { start: open, end: close + 1, line, column, sig });
        match name_end {
            Some(name_end) => {
                // `()` and the signature's newlines, then spaces to the `{`'s column (on the
                // signature's line, to its length).
                out.push_str(&text[copied..name_end]);
                let left_out = &text[name_end..open];
                out.push_str("()");
                let newlines = left_out.matches('\n').count();
                out.extend(std::iter::repeat_n('\n', newlines));
                let spaces = match newlines {
                    0 => left_out.chars().count().saturating_sub(2),
                    _ => column,
                };
                out.extend(std::iter::repeat_n(' ', spaces));
            }
            None => out.push_str(&text[copied..open]),
        }
        let newlines = inner.matches('\n').count();
        // The `}` keeps its column: after the body's last newline, or, for a body on one
        // line, at the body's end.
        let padding = inner.rsplit('\n').next().map_or(0, |l| l.chars().count());
        out.push('{');
        out.extend(std::iter::repeat_n('\n', newlines));
        out.extend(std::iter::repeat_n(' ', padding));
        out.push('}');
        line += newlines;
        copied = close + 1;
    }
    out.push_str(&text[copied..]);
    (out, bodies)
}

/// The end of the name that follows the `fn` keyword ending at `from`.
fn fn_name_end(bytes: &[u8], from: usize) -> Option<usize> {
    let start = from + bytes[from..].iter().take_while(|b| b.is_ascii_whitespace()).count();
    let first = *bytes.get(start)?;
    is_ident_start(first)
        .then(|| start + bytes[start..].iter().take_while(|b| is_ident_char(**b)).count())
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// If a comment, a string or a character literal starts at `i`, the index after it.
fn skip_literal(bytes: &[u8], i: usize) -> Option<usize> {
    let at = |k: usize| bytes.get(k).copied().unwrap_or(0);
    match at(i) {
        b'/' if at(i + 1) == b'/' => {
            Some(i + bytes[i..].iter().position(|b| *b == b'\n').unwrap_or(bytes.len() - i))
        }
        b'/' if at(i + 1) == b'*' => {
            let (mut depth, mut k) = (0usize, i);
            while k < bytes.len() {
                if at(k) == b'/' && at(k + 1) == b'*' {
                    depth += 1;
                    k += 2;
                } else if at(k) == b'*' && at(k + 1) == b'/' {
                    depth -= 1;
                    k += 2;
                    if depth == 0 {
                        return Some(k);
                    }
                } else {
                    k += 1;
                }
            }
            Some(k)
        }
        b'"' => {
            let mut k = i + 1;
            while k < bytes.len() && at(k) != b'"' {
                k += if at(k) == b'\\' { 2 } else { 1 };
            }
            Some(k + 1)
        }
        // A raw string: `r"..."`, `r#"..."#`, with `b` before it or not.
        b'r' if (i == 0
            || !is_ident_char(at(i - 1))
            || (at(i - 1) == b'b' && (i < 2 || !is_ident_char(at(i - 2)))))
            && matches!(at(i + 1), b'"' | b'#') =>
        {
            let hashes = bytes[i + 1..].iter().take_while(|b| **b == b'#').count();
            if at(i + 1 + hashes) != b'"' {
                return None;
            }
            let mut closing = vec![b'"'];
            closing.extend(std::iter::repeat_n(b'#', hashes));
            let from = i + 2 + hashes;
            let len = bytes[from..].windows(closing.len()).position(|w| w == closing.as_slice());
            Some(len.map_or(bytes.len(), |l| from + l + closing.len()))
        }
        // A character (`'a'`, `'\n'`, `'\u{1F600}'`), not a lifetime (`'a`).
        b'\'' => {
            if at(i + 1) == b'\\' {
                let close = bytes[i + 2..].iter().position(|b| *b == b'\'')?;
                return Some(i + 2 + close + 1);
            }
            let width = std::str::from_utf8(&bytes[i + 1..bytes.len().min(i + 5)])
                .or_else(|e| std::str::from_utf8(&bytes[i + 1..i + 1 + e.valid_up_to()]))
                .ok()
                .and_then(|s| s.chars().next())
                .map_or(1, char::len_utf8);
            (at(i + 1 + width) == b'\'').then_some(i + 2 + width)
        }
        _ => None,
    }
}

/// The braces of the body of the function whose `fn` keyword ends at `from`: the first `{`
/// outside parentheses and brackets, and its partner. `None` for a function without a body
/// (`fn f();`) or a function pointer type (`fn(u32)` in a field, closed by the item's `}`,
/// `)` or `;`).
fn fn_body(bytes: &[u8], from: usize) -> Option<(usize, usize)> {
    let mut depth = 0i32;
    let mut i = from;
    let open = loop {
        if let Some(next) = skip_literal(bytes, i) {
            i = next;
            continue;
        }
        match *bytes.get(i)? {
            b'(' | b'[' => depth += 1,
            // A function pointer type closed by the item around it: `struct F(fn(u32));`.
            b')' | b']' if depth == 0 => return None,
            b')' | b']' => depth -= 1,
            b'{' if depth == 0 => break i,
            b';' | b'}' if depth == 0 => return None,
            _ => {}
        }
        i += 1;
    };
    let mut depth = 0i32;
    i = open;
    loop {
        if let Some(next) = skip_literal(bytes, i) {
            i = next;
            continue;
        }
        match *bytes.get(i)? {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some((open, i));
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// Whether a body's text may declare items, which the item table must see. Conservative:
/// any of the keywords that start an item, anywhere in the text.
fn declares_items(body: &str) -> bool {
    const ITEM_WORDS: &[&str] = &[
        "fn",
        "struct",
        "enum",
        "union",
        "impl",
        "trait",
        "mod",
        "use",
        "const",
        "static",
        "type",
        "extern",
        "macro_rules",
    ];
    body.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).any(|w| ITEM_WORDS.contains(&w))
}

/// Rewrites each `//@ for $T in <types>` ... `//@ end` block as a module
/// `#[rkc_template = "<types>"] mod __template { .. }` whose `$T`, `$U`, `$S`, `$BITS` are
/// the identifiers `__T`, `__U`, `__S`, `__BITS`. The block is parsed once and its items
/// copied per type after parsing (`core_lib::expand_templates`), which is far cheaper than
/// parsing every copy.
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "build.rs marks the core's templates; the crate's tests mark their own"
    )
)]
pub fn mark_templates(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 256);
    for line in text.lines() {
        if let Some(spec) = line.trim().strip_prefix("//@ for $T in ") {
            out.push_str(&format!("#[rkc_template = \"{}\"] mod __template {{", spec.trim()));
        } else if line.trim() == "//@ end" {
            out.push('}');
        } else if line.contains('$') {
            out.push_str(
                &line
                    .replace("$T", "__T")
                    .replace("$U", "__U")
                    .replace("$S", "__S")
                    .replace("$BITS", "__BITS"),
            );
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}
