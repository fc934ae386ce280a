//! C11 + GNU + OpenMP syntax: logos lexer, lalrpop grammar, AST with spans.
//!
//! Input is preprocessed text (`cc -E -fopenmp`); line markers are skipped by the lexer and
//! read by `ompcc_diag::SourceMap`. `#pragma omp` lines become tokens the grammar parses into
//! [`ast::OmpDirective`] nodes; other pragmas are kept as [`ast::Pragma`] items.

pub mod ast;
pub mod omp;
