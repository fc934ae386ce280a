//! C11 + GNU + OpenMP syntax: source map, logos lexer, lalrpop grammar, AST with spans.
