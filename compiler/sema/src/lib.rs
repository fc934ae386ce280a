//! Semantic analysis: C types, layout, scopes, type checking, constant evaluation, OpenMP
//! validation.
//!
//! Two layers:
//! - the type layer, independent of the syntax tree: [`types`] (interned C types, records,
//!   enums, typedefs), [`layout`] (sizes, alignments and record layout identical to gcc on
//!   x86-64), [`conv`] (promotions, usual arithmetic conversions, compatible and composite
//!   types) and [`consteval`] (constant arithmetic with C semantics);
//! - the checker ([`check()`]), which walks an `ompcc_syntax` translation unit and returns a
//!   [`TypedUnit`]: the type table plus side tables keyed by `ExprId` / `DeclId` (type,
//!   value category and implicit conversion of every expression; the entity of every
//!   declarator and identifier; member paths; folded constants; flattened initializers; VLA
//!   size expressions; `declare target` entities), and the diagnostics.
//!
//! ```text
//! let (unit, diags) = ompcc_sema::check(&tu);
//! let info = unit.expr(e.id);            // type, lvalue-ness, conversion applied by context
//! let sym = unit.ident_symbols[&e.id];   // what a name refers to
//! let layout = unit.types.record_layout(rid);
//! let params = unit.params(&fdef);      // parameter symbols of a function definition
//! ```
//!
//! [`print_typed`] renders the typed tree for `--emit=ast`; [`atomic`] classifies the GNU
//! atomic builtins for the checker and for lowering.

pub mod atomic;
pub mod check;
pub mod consteval;
pub mod conv;
pub mod layout;
pub mod types;

pub use check::{
    ExprInfo, InitEntry, InitKey, Linkage, Storage, SymbolId, SymbolInfo, SymbolKind, TypedUnit,
    ValueKind, check, fold, fold_as, print_typed,
};
