//! Semantic analysis: C types, layout, scopes, type checking, constant evaluation, OpenMP validation.
//!
//! The type layer ([`types`], [`layout`], [`conv`], [`consteval`]) is independent of the
//! syntax tree; the checker builds on it.

pub mod check;
pub mod consteval;
pub mod conv;
pub mod layout;
pub mod types;

pub use check::{
    ExprInfo, InitEntry, InitKey, Linkage, Storage, SymbolId, SymbolInfo, SymbolKind, TypedUnit,
    ValueKind, check, fold, print_typed,
};
