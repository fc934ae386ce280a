//! The diagnostic value every stage produces: severity, code, message, labelled spans, notes.

use crate::Span;

/// How bad a diagnostic is. Callers turn warnings into errors (-Werror) themselves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The program is rejected.
    Error,
    /// Suspicious but accepted.
    Warning,
    /// Extra information, usually attached to an earlier error or warning.
    Note,
}

impl Severity {
    /// The word gcc prints for this severity.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// A span with an (optionally empty) explanation drawn under it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Where, in the preprocessed text.
    pub span: Span,
    /// What to say there; may be empty.
    pub message: String,
}

/// One problem found in the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error, warning or note.
    pub severity: Severity,
    /// Stable code such as `E0101`; empty when the diagnostic has none.
    pub code: &'static str,
    /// The one-line message (gcc style: lower case, no final period).
    pub message: String,
    /// The main location and its label.
    pub primary: Label,
    /// Secondary locations.
    pub labels: Vec<Label>,
    /// `note:` lines.
    pub notes: Vec<String>,
    /// `help:` line.
    pub help: Option<String>,
}

impl Diagnostic {
    fn new(severity: Severity, code: &'static str, message: impl Into<String>, span: Span) -> Self {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            primary: Label {
                span,
                message: String::new(),
            },
            labels: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    /// An error with code `code` at `span`.
    pub fn error(code: &'static str, message: impl Into<String>, span: Span) -> Self {
        Self::new(Severity::Error, code, message, span)
    }

    /// A warning with code `code` at `span`.
    pub fn warning(code: &'static str, message: impl Into<String>, span: Span) -> Self {
        Self::new(Severity::Warning, code, message, span)
    }

    /// A standalone note at `span`.
    pub fn note(message: impl Into<String>, span: Span) -> Self {
        Self::new(Severity::Note, "", message, span)
    }

    /// Sets the text drawn under the primary span.
    pub fn with_primary_label(mut self, message: impl Into<String>) -> Self {
        self.primary.message = message.into();
        self
    }

    /// Adds a secondary labelled span.
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// Adds a `note:` line.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Sets the `help:` line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}
