//! Semantic analysis: C types, layout, scopes, type checking, constant evaluation, OpenMP validation.
