//! Shared helpers for the checker's integration tests: parse C text with ompcc-syntax and
//! check it.

#![allow(dead_code)]

use ompcc_diag::{Diagnostic, Severity};
use ompcc_sema::TypedUnit;
use ompcc_syntax::ast::TranslationUnit;

pub struct Checked {
    pub tu: TranslationUnit,
    pub unit: TypedUnit,
    pub parse_diags: Vec<Diagnostic>,
    pub diags: Vec<Diagnostic>,
}

/// Parses and checks `src`; panics (in tests only) if the parser gives up entirely.
pub fn check_src(src: &str) -> Checked {
    let (tu, _sm, parse_diags) = ompcc_syntax::parse_translation_unit(src, "test.c");
    let tu = tu.unwrap_or_else(|| panic!("parser gave up: {parse_diags:?}"));
    let (unit, diags) = ompcc_sema::check(&tu);
    Checked {
        tu,
        unit,
        parse_diags,
        diags,
    }
}

pub fn errors(d: &[Diagnostic]) -> Vec<&Diagnostic> {
    d.iter().filter(|d| d.severity == Severity::Error).collect()
}

/// Source text of a diagnostic's primary span.
pub fn span_text<'a>(src: &'a str, d: &Diagnostic) -> &'a str {
    src.get(d.primary.span.range()).unwrap_or("")
}
