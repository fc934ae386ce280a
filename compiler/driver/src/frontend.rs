//! Stage 2: the frontend on one preprocessed unit — parse (ompcc-syntax), check (ompcc-sema),
//! render diagnostics (ompcc-diag), and print a stage for `--emit=tokens|ast`.
//!
//! Every `-fopenmp` unit is parsed and checked, whether or not it has device constructs (later
//! stages, like automatic offload of `parallel for`, need the tree of every unit). For a unit
//! with device constructs our diagnostics are the ones shown and errors stop the build. A unit
//! without them is the host compiler's: the caller runs the frontend quietly and, if it
//! rejects the unit, leaves the unit to the host compiler, so the user sees exactly cc's
//! messages and exit code (a drop-in `cc` must not reword them).

use ompcc_diag::{ColorChoice, Emitter, Severity, SourceMap};
use ompcc_syntax::ast::TranslationUnit;

use crate::cli::{Color, EmitStage};

/// A unit that parsed and type-checked.
pub struct Checked {
    pub tu: TranslationUnit,
    pub typed: ompcc_sema::TypedUnit,
}

/// The frontend rejected the unit; `diagnostics` is their rendered text (not yet printed: the
/// caller lets the host compiler speak first, see `pipeline::Outcome::Rejected`).
#[derive(Debug)]
pub struct Rejected {
    pub diagnostics: String,
}

/// Diagnostic options the frontend takes from the command line.
pub struct DiagOptions {
    pub color: Color,
    /// Print nothing (a host-only unit: the host compiler reports its problems).
    pub quiet: bool,
    /// Show warnings (units with device constructs).
    pub warnings: bool,
    /// `-Werror`: a shown warning fails the unit.
    pub warnings_are_errors: bool,
}

/// `--emit=tokens`: the token stream as the parser sees it.
pub fn tokens(text: &str, file_name: &str) -> String {
    ompcc_syntax::dump_tokens(text, file_name)
}

/// Parses and checks one unit. On success its warnings are printed; on failure every
/// diagnostic is returned rendered.
pub fn check(text: &str, file_name: &str, opts: &DiagOptions) -> Result<Checked, Rejected> {
    let mut emitter = Emitter::new(match opts.color {
        Color::Auto => ColorChoice::Auto,
        Color::Always => ColorChoice::Always,
        Color::Never => ColorChoice::Never,
    });
    let (tu, source_map, parse_diags) = ompcc_syntax::parse_translation_unit(text, file_name);
    let mut rendered = String::new();
    let mut report = |diags: &[ompcc_diag::Diagnostic], sm: &SourceMap| {
        for d in diags {
            if !opts.quiet && (d.severity != Severity::Warning || opts.warnings) {
                rendered.push_str(&emitter.render(d, sm));
            }
        }
    };
    report(&parse_diags, &source_map);
    let tu = match tu {
        Some(tu) if !has_errors(&parse_diags) => tu,
        _ => {
            return Err(Rejected {
                diagnostics: rendered,
            });
        }
    };
    let (typed, sema_diags) = ompcc_sema::check(&tu);
    report(&sema_diags, &source_map);
    let failed = has_errors(&sema_diags)
        || (opts.warnings_are_errors && opts.warnings && emitter.warning_count() > 0);
    if failed {
        return Err(Rejected {
            diagnostics: rendered,
        });
    }
    eprint!("{rendered}");
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
