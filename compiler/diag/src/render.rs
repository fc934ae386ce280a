//! Renders diagnostics: a gcc-style first line, then an ariadne snippet of the original source.
//!
//! The first line is exactly `file:line:col: error: message [E0101]` with the original file and
//! line, so make, editors and IDE problem matchers parse it. The snippet shows the original file
//! when it can be read and its line still matches the preprocessed line (no macro expansion on
//! it); otherwise the preprocessed line is shown under the original file name and line number.

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::ops::Range;

use ariadne::{Color, Config, IndexType, Report, ReportKind, Source};

use crate::{Diagnostic, FileId, Severity, SourceMap, Span};

/// When to color the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    /// Never emit escape sequences.
    Never,
    /// Always emit them.
    Always,
    /// Only when stderr is a terminal.
    Auto,
}

/// Renders diagnostics and counts them by severity.
#[derive(Debug)]
pub struct Emitter {
    color: bool,
    errors: usize,
    warnings: usize,
    /// `-w`: warnings are neither printed nor counted.
    hide_warnings: bool,
    files: HashMap<FileId, Option<String>>,
}

/// The highest line number a preprocessed-line snippet shows (it is placed after that many
/// blank lines); past it a diagnostic has its first line, notes and help only.
const MAX_PADDED_LINE: usize = 100_000;

/// A snippet source: its display name, its text, and (for preprocessed-line fallbacks) the
/// number of blank lines placed before the line.
struct Snippet {
    id: String,
    text: String,
    line_offset: usize,
}

impl Emitter {
    /// A new emitter with no diagnostics counted.
    pub fn new(color: ColorChoice) -> Emitter {
        let color = match color {
            ColorChoice::Never => false,
            ColorChoice::Always => true,
            ColorChoice::Auto => std::io::stderr().is_terminal(),
        };
        Emitter {
            color,
            errors: 0,
            warnings: 0,
            hide_warnings: false,
            files: HashMap::new(),
        }
    }

    /// The same emitter, printing no warnings when `hide` (cc's `-w`).
    pub fn hiding_warnings(mut self, hide: bool) -> Emitter {
        self.hide_warnings = hide;
        self
    }

    /// Errors rendered so far.
    pub fn error_count(&self) -> usize {
        self.errors
    }

    /// Warnings rendered so far.
    pub fn warning_count(&self) -> usize {
        self.warnings
    }

    /// Renders `diag` to stderr (and counts it).
    pub fn emit(&mut self, diag: &Diagnostic, sm: &SourceMap) {
        if self.hide_warnings && diag.severity == Severity::Warning {
            return;
        }
        let text = self.render(diag, sm);
        // A closed stderr is not worth failing the compilation over.
        let _ = std::io::stderr().write_all(text.as_bytes());
    }

    /// Renders `diag` to a string (and counts it).
    pub fn render(&mut self, diag: &Diagnostic, sm: &SourceMap) -> String {
        match diag.severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
            Severity::Note => {}
        }
        let mut out = String::new();
        let code = if diag.code.is_empty() {
            String::new()
        } else {
            format!(" [{}]", diag.code)
        };
        out.push_str(&format!(
            "{}: {}: {}{}\n",
            self.describe(diag.primary.span, sm),
            diag.severity.as_str(),
            diag.message,
            code
        ));

        let mut snippets: Vec<Snippet> = Vec::new();
        let Some(primary) = self.place(diag.primary.span, sm, &mut snippets) else {
            // No snippet (a line number past what a padded snippet can show): the notes
            // and help as plain lines, as gcc writes them.
            for note in &diag.notes {
                out.push_str(&format!("note: {note}\n"));
            }
            if let Some(help) = &diag.help {
                out.push_str(&format!("help: {help}\n"));
            }
            return out;
        };
        let kind = match diag.severity {
            Severity::Error => ReportKind::Error,
            Severity::Warning => ReportKind::Warning,
            Severity::Note => ReportKind::Advice,
        };
        let config = Config::default()
            .with_color(self.color)
            .with_index_type(IndexType::Byte);
        let mut report = Report::build(kind, primary.clone()).with_config(config);
        let label = |range: (String, Range<usize>), msg: &str, color: Color| {
            let mut l = ariadne::Label::new(range).with_color(color);
            if !msg.is_empty() {
                l = l.with_message(msg);
            }
            l
        };
        // ariadne may skip the underline of a label without text, so the primary one always
        // says something.
        let primary_msg = if diag.primary.message.is_empty() {
            "here"
        } else {
            &diag.primary.message
        };
        report.add_label(label(primary, primary_msg, Color::Red));
        for extra in &diag.labels {
            if let Some(range) = self.place(extra.span, sm, &mut snippets) {
                report.add_label(label(range, &extra.message, Color::Blue));
            }
        }
        for note in &diag.notes {
            report.add_note(note);
        }
        if let Some(help) = &diag.help {
            report.add_help(help);
        }
        let map: HashMap<String, Source<&str>> = snippets
            .iter()
            .map(|s| (s.id.clone(), Source::from(s.text.as_str())))
            .collect();
        let missing = |id: &String| -> Result<&str, Box<dyn std::fmt::Debug>> {
            Err(Box::new(format!("no source for {id}")))
        };
        let cache = ariadne::FnCache::new(missing).with_sources(map);
        let mut buf = Vec::new();
        if report.finish().write(cache, &mut buf).is_ok() {
            let text = String::from_utf8_lossy(&buf);
            // Drop ariadne's own header line: ours above says the same, in gcc's format.
            let body = text.split_once('\n').map_or("", |(_, rest)| rest);
            out.push_str(body);
        }
        out
    }

    /// Finds (or adds) the snippet that shows `span` and returns the label range in it;
    /// `None` when the span's line is shown by no snippet.
    fn place(
        &mut self,
        span: Span,
        sm: &SourceMap,
        snippets: &mut Vec<Snippet>,
    ) -> Option<(String, Range<usize>)> {
        let loc = sm.lookup(span.lo);
        let pp_line = sm.pp_line(span.lo);
        let pp_text = sm.pp_line_text(pp_line);
        let col0 = (loc.col - 1) as usize;
        // Labels never leave their line: multi-line spans are cut at the end of the first line.
        let len = (span.len() as usize).min(pp_text.len().saturating_sub(col0));
        let name = sm.file_name(loc.file).to_owned();
        if let Some(orig) = self.original(loc.file, sm)
            && let Some((start, line)) = nth_line(orig, loc.line)
        {
            // On a line with a macro expansion: the user's column (see `macro_column`).
            let (col0, len) = if line == pp_text {
                (col0, len)
            } else {
                let col = crate::macro_column::original_column(line, pp_text, col0);
                (col, len.min(line.len().saturating_sub(col)).max(1))
            };
            let id = name;
            if !snippets.iter().any(|s| s.id == id) {
                snippets.push(Snippet {
                    id: id.clone(),
                    text: orig.to_owned(),
                    line_offset: 0,
                });
            }
            return Some((id, start + col0..start + col0 + len));
        }
        // Fallback: the preprocessed line alone, placed at its original line number (blank
        // lines before it) so ariadne numbers it as the user expects.
        let id = format!("{name} (preprocessed)");
        let pad = loc.line.saturating_sub(1) as usize;
        if pad > MAX_PADDED_LINE {
            // ariadne numbers lines by counting them (its gutter ignores a display offset),
            // and `#line 2147483647` must not cost gigabytes.
            return None;
        }
        if let Some(s) = snippets.iter().find(|s| s.id == id) {
            if s.line_offset != pad {
                // Another line of the same file is already shown: keep the first one's
                // numbering and label this one at the start of that snippet's line.
                return Some((id, s.line_offset..s.line_offset));
            }
        } else {
            snippets.push(Snippet {
                id: id.clone(),
                text: format!("{}{pp_text}\n", "\n".repeat(pad)),
                line_offset: pad,
            });
        }
        Some((id, pad + col0..pad + col0 + len))
    }

    /// `file:line:col` of the start of `span` as gcc prints it: on a line where a macro was
    /// expanded, the column in the user's line (when the file can be read).
    fn describe(&mut self, span: crate::Span, sm: &SourceMap) -> String {
        let loc = sm.lookup(span.lo);
        let pp_text = sm.pp_line_text(sm.pp_line(span.lo));
        let col0 = (loc.col - 1) as usize;
        let col = match self
            .original(loc.file, sm)
            .and_then(|o| nth_line(o, loc.line))
        {
            Some((_, line)) => crate::macro_column::original_column(line, pp_text, col0),
            None => col0,
        };
        format!("{}:{}:{}", sm.file_name(loc.file), loc.line, col + 1)
    }

    fn original<'a>(&'a mut self, file: FileId, sm: &'a SourceMap) -> Option<&'a str> {
        if let Some(text) = sm.supplied_original(file) {
            return Some(text);
        }
        self.files
            .entry(file)
            .or_insert_with(|| std::fs::read_to_string(sm.file_name(file)).ok())
            .as_deref()
    }
}

/// Byte offset and text (without newline) of 1-based line `n` of `text`.
fn nth_line(text: &str, n: u32) -> Option<(usize, &str)> {
    let mut start = 0usize;
    for (i, line) in text.split('\n').enumerate() {
        if i + 1 == n as usize {
            return Some((start, line.strip_suffix('\r').unwrap_or(line)));
        }
        start += line.len() + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (SourceMap, Diagnostic, Diagnostic) {
        let pp = "# 1 \"t.c\"\nint main(void) {\n  return 0\n}\n";
        let mut sm = SourceMap::new(pp, "t.c");
        sm.supply_original(sm.main_file(), "int main(void) {\n  return 0\n}\n".into());
        let at = pp.find("0\n}").unwrap() as u32 + 1;
        let err = Diagnostic::error("E0101", "expected ';', found '}'", Span::point(at))
            .with_primary_label("expected ';' here")
            .with_note("statements end with ';'")
            .with_help("add ';'");
        let w = Diagnostic::warning("W0001", "odd", Span::new(at - 1, at));
        (sm, err, w)
    }

    #[test]
    fn renders_gcc_first_line_and_snippet() {
        let (sm, err, w) = sample();
        let mut em = Emitter::new(ColorChoice::Never);
        let text = em.render(&err, &sm);
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some("t.c:2:11: error: expected ';', found '}' [E0101]")
        );
        assert!(text.contains("  return 0"), "{text}");
        assert!(text.contains("expected ';' here"), "{text}");
        assert!(text.contains("Note: statements end with ';'"), "{text}");
        assert!(text.contains("Help: add ';'"), "{text}");
        assert!(!text.contains('\x1b'), "{text}");
        let text = em.render(&w, &sm);
        assert!(
            text.starts_with("t.c:2:10: warning: odd [W0001]\n"),
            "{text}"
        );
        assert_eq!((em.error_count(), em.warning_count()), (1, 1));
        let mut colored = Emitter::new(ColorChoice::Always);
        assert!(colored.render(&err, &sm).contains('\x1b'));
    }

    #[test]
    fn macro_lines_show_the_users_line_and_column() {
        // The original line differs (a macro was expanded): gcc's column, on the user's line.
        let pp = "# 7 \"u.c\"\nint x = 1 +;\n";
        let mut sm = SourceMap::new(pp, "u.c");
        sm.supply_original(sm.main_file(), "\n\n\n\n\n\nint x = ONE +;\n".into());
        let at = pp.find(';').unwrap() as u32;
        let d = Diagnostic::error("E0102", "expected expression", Span::new(at, at + 1));
        let text = Emitter::new(ColorChoice::Never).render(&d, &sm);
        assert!(
            text.starts_with("u.c:7:14: error: expected expression [E0102]\n"),
            "{text}"
        );
        assert!(text.contains(" 7 │ int x = ONE +;"), "{text}");
        assert!(text.contains("┬"), "the label is drawn: {text}");
    }

    #[test]
    fn falls_back_to_preprocessed_line() {
        // The original line is not there (a file that cannot be read): the preprocessed one.
        let pp = "# 7 \"u.c\"\nint x = 1 +;\n";
        let mut sm = SourceMap::new(pp, "u.c");
        sm.supply_original(sm.main_file(), "\n".into());
        let at = pp.find(';').unwrap() as u32;
        let d = Diagnostic::error("E0102", "expected expression", Span::new(at, at + 1));
        let text = Emitter::new(ColorChoice::Never).render(&d, &sm);
        assert!(
            text.starts_with("u.c:7:12: error: expected expression [E0102]\n"),
            "{text}"
        );
        assert!(text.contains("int x = 1 +;"), "{text}");
        assert!(text.contains("[ u.c (preprocessed):7:12 ]"), "{text}");
        assert!(text.contains(" 7 │ int x = 1 +;"), "{text}");
        assert!(text.contains("┬"), "the label is drawn: {text}");
    }
}
