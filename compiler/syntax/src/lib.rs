//! C11 + GNU + OpenMP syntax: logos lexer, lalrpop grammar, AST with spans.
//!
//! Input is preprocessed text (`cc -E -fopenmp`); line markers are skipped by the lexer and
//! read by `ompcc_diag::SourceMap`. `#pragma omp` lines become tokens the grammar parses into
//! [`ast::OmpDirective`] nodes; loop pragmas (`GCC unroll`, `unroll`, `nounroll`, `ivdep`) are
//! kept as [`ast::Pragma`] items and other pragmas are skipped. The parser never panics on
//! input: every problem is a [`Diagnostic`], and it recovers at statement and declaration
//! boundaries so several errors are reported in one run. Input is bounded so that recursive
//! walks over the tree fit a thread's stack: at most 256 nested brackets and 4096 operators
//! per statement (error E0105 otherwise). Work is linear in the input size.
//!
//! Diagnostic codes: E0100 stray character, E0101 syntax error, E0102 invalid literal, E0103
//! unterminated literal, E0104 input too large, E0105 nesting/size limit, E0120 unknown OpenMP
//! directive, E0121 unknown clause, E0122 clause not allowed on the directive, E0123 duplicate
//! clause, E0124 malformed clause argument, E0125 misplaced or malformed array section, E0126
//! unpaired `declare target`.

pub mod ast;
pub mod omp;

mod actions;
mod lexer;
mod literal;
mod ompbuild;
mod printer;
mod split;
mod state;
mod token;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, clippy::pedantic, unused, missing_docs, unreachable_pub)]
    grammar
);

use ompcc_diag::{Diagnostic, SourceMap, Span};

pub use printer::print_ast;

/// The headers the frontend is required to parse and check with no diagnostic (C11, the POSIX
/// ones OpenMP programs use, and `<omp.h>`): the tests, the corpus coverage check and the
/// frontend benchmark all use this list.
pub const STANDARD_HEADERS: &[&str] = &[
    "assert.h",
    "complex.h",
    "ctype.h",
    "errno.h",
    "fenv.h",
    "float.h",
    "inttypes.h",
    "limits.h",
    "locale.h",
    "math.h",
    "setjmp.h",
    "signal.h",
    "stdalign.h",
    "stdarg.h",
    "stdatomic.h",
    "stdbool.h",
    "stddef.h",
    "stdint.h",
    "stdio.h",
    "stdlib.h",
    "stdnoreturn.h",
    "string.h",
    "tgmath.h",
    "time.h",
    "uchar.h",
    "wchar.h",
    "wctype.h",
    "unistd.h",
    "sys/time.h",
    "sys/types.h",
    "pthread.h",
    "omp.h",
];
use token::Tok;

/// Parses a preprocessed translation unit.
///
/// Returns the tree (also when errors were recovered from; `None` only if the parser could
/// not recover), the source map for `file_name`, and the diagnostics in source order.
pub fn parse_translation_unit(
    preprocessed: &str,
    file_name: &str,
) -> (Option<ast::TranslationUnit>, SourceMap, Vec<Diagnostic>) {
    let sm = SourceMap::new(preprocessed, file_name);
    if preprocessed.len() >= u32::MAX as usize {
        let d = Diagnostic::error(
            "E0104",
            "input is too large (4 GiB or more)",
            Span::point(0),
        );
        return (None, sm, vec![d]);
    }
    let st = state::State::new(preprocessed, false);
    let (tu, diags) = run(&st);
    (tu, sm, diags)
}

fn run(st: &state::State) -> (Option<ast::TranslationUnit>, Vec<Diagnostic>) {
    let lexer = lexer::Lexer::new(st.src, st);
    let result = grammar::TranslationUnitParser::new().parse(st, lexer);
    let items = match result {
        Ok(items) => Some(items),
        Err(e) => {
            st.syntax_error(e);
            None
        }
    };
    if let Some(items) = &items {
        check_declare_target_nesting(st, items);
    }
    let diags = st.finish_diagnostics();
    let (num_exprs, num_decls) = st.counts();
    let tu = items.map(|items| ast::TranslationUnit {
        items,
        symbols: st.interner.take(),
        num_exprs,
        num_decls,
    });
    (tu, diags)
}

/// `declare target` (without clauses) / `begin declare target` open a region that
/// `end declare target` closes; both must pair up at file scope.
fn check_declare_target_nesting(st: &state::State, items: &[ast::ExternalDecl]) {
    use ast::{ExternalDecl, OmpDirectiveKind as K};
    let mut open: Vec<Span> = Vec::new();
    for item in items {
        let ExternalDecl::Omp(d) = item else { continue };
        match d.kind {
            K::BeginDeclareTarget => open.push(d.span),
            K::DeclareTarget if d.clauses.is_empty() && d.args.is_empty() => open.push(d.span),
            K::EndDeclareTarget if open.pop().is_none() => {
                st.error(Diagnostic::error(
                    "E0126",
                    "'#pragma omp end declare target' without a matching 'declare target'",
                    d.span,
                ));
            }
            _ => {}
        }
    }
    for span in open {
        st.error(
            Diagnostic::error("E0126", "'#pragma omp declare target' is never ended", span)
                .with_help("add '#pragma omp end declare target' after the device declarations"),
        );
    }
}

/// The token stream as the parser sees it (typedef names classified), one token per line as
/// `file:line:col kind 'text'`, for `--emit=tokens`.
pub fn dump_tokens(preprocessed: &str, file_name: &str) -> String {
    use std::fmt::Write;
    let sm = SourceMap::new(preprocessed, file_name);
    if preprocessed.len() >= u32::MAX as usize {
        return String::new();
    }
    let st = state::State::new(preprocessed, true);
    let (tu, _) = run(&st);
    let tokens = st.recorded.map(|r| r.into_inner()).unwrap_or_default();
    let interner = tu.map_or_else(|| st.interner.take(), |tu| tu.symbols);
    let mut out = String::new();
    for (l, t, r) in tokens {
        let kind = match t {
            Tok::Ident(s) => format!("Ident({})", interner.resolve(s)),
            Tok::TypeName(s) => format!("TypeName({})", interner.resolve(s)),
            Tok::OmpStmt(k) | Tok::OmpStandalone(k) | Tok::OmpDecl(k) => format!("PragmaOmp({k})"),
            other => format!("{other:?}"),
        };
        let text = preprocessed.get(l..r).unwrap_or("");
        let _ = writeln!(
            out,
            "{} {} {:?}",
            sm.describe(Span::new(l as u32, r as u32)),
            kind,
            text
        );
    }
    out
}
