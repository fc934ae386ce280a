//! Stage 2: the frontend on one preprocessed unit — parse (ompcc-syntax), check (ompcc-sema),
//! render diagnostics (ompcc-diag), and print a stage for `--emit=tokens|ast`.
//!
//! Every `-fopenmp` unit is parsed and checked, whether or not it has device constructs: a
//! program our frontend rejects is a bug we want to see, and later stages (automatic offload
//! of `parallel for`) need the tree of every unit. Errors stop the build. Warnings are shown
//! only for units with device constructs: for host-only units the host compiler, which
//! compiles them, already warns about the same code.

use ompcc_diag::{ColorChoice, Emitter, Severity, SourceMap};
use ompcc_syntax::ast::TranslationUnit;

use crate::cli::{Color, EmitStage};

/// A unit that parsed and type-checked.
pub struct Checked {
    pub tu: TranslationUnit,
    pub typed: ompcc_sema::TypedUnit,
}

/// Why the frontend stopped: its diagnostics are already printed.
#[derive(Debug)]
pub struct Rejected;

/// Diagnostic options the frontend takes from the command line.
pub struct DiagOptions {
    pub color: Color,
    /// Show warnings (units with device constructs).
    pub warnings: bool,
    /// `-Werror`: a shown warning fails the unit.
    pub warnings_are_errors: bool,
}

/// `--emit=tokens`: the token stream as the parser sees it.
pub fn tokens(text: &str, file_name: &str) -> String {
    ompcc_syntax::dump_tokens(text, file_name)
}

/// Parses and checks one unit; prints its diagnostics.
pub fn check(text: &str, file_name: &str, opts: &DiagOptions) -> Result<Checked, Rejected> {
    let mut emitter = Emitter::new(match opts.color {
        Color::Auto => ColorChoice::Auto,
        Color::Always => ColorChoice::Always,
        Color::Never => ColorChoice::Never,
    });
    let (tu, source_map, parse_diags) = ompcc_syntax::parse_translation_unit(text, file_name);
    let mut report = |diags: &[ompcc_diag::Diagnostic], sm: &SourceMap| {
        for d in diags {
            if d.severity != Severity::Warning || opts.warnings {
                emitter.emit(d, sm);
            }
        }
    };
    report(&parse_diags, &source_map);
    let tu = match tu {
        Some(tu) if !has_errors(&parse_diags) => tu,
        _ => return Err(Rejected),
    };
    let (typed, sema_diags) = ompcc_sema::check(&tu);
    report(&sema_diags, &source_map);
    let failed = has_errors(&sema_diags)
        || (opts.warnings_are_errors && opts.warnings && emitter.warning_count() > 0);
    if failed {
        return Err(Rejected);
    }
    Ok(Checked { tu, typed })
}

/// `--emit=ast`: the tree with the type of every expression.
pub fn typed_ast(checked: &Checked, text: &str) -> String {
    ompcc_sema::print_typed(&checked.tu, &checked.typed, text)
}

fn has_errors(diags: &[ompcc_diag::Diagnostic]) -> bool {
    diags.iter().any(|d| d.severity == Severity::Error)
}

/// The stages after the AST, which this build cannot produce yet.
pub fn later_stage(stage: EmitStage) -> bool {
    !matches!(stage, EmitStage::Tokens | EmitStage::Ast)
}
