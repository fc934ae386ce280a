//! Diagnostics: error codes, spans mapped to the user's files, rendering through ariadne.
//!
//! Every stage of the compiler reports problems as [`Diagnostic`] values carrying [`Span`]s,
//! which are byte ranges into the *preprocessed* text. A [`SourceMap`] built from that text
//! (its `# 12 "file.c"` line markers) maps a span back to the user's original file, line and
//! column; an [`Emitter`] renders diagnostics gcc-style (`file:line:col: error: message [E0101]`)
//! followed by an ariadne snippet, and counts errors and warnings so callers pick the exit code.

mod diagnostic;
mod macro_column;
mod render;
mod source_map;
mod span;
mod ucn;

pub use diagnostic::{Diagnostic, Label, Severity};
pub use render::{ColorChoice, Emitter};
pub use source_map::{FileId, Location, SourceMap};
pub use span::Span;
pub use ucn::ucn_decoded;
