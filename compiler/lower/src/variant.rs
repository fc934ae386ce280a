//! `declare variant` in device code: the variant ompcc-omp chose for a direct call
//! (`ompcc_omp::device_variant_calls`, handed over in `LowerOptions::variant_calls`).

use ompcc_sema::SymbolId;
use ompcc_syntax::ast::{Expr, ExprKind};

use crate::ctx::Ctx;

impl Ctx<'_> {
    /// The function a direct call with callee expression `f` (of symbol `sym`) calls: a
    /// `declare variant` of it chosen for this call (`ompcc_omp::device_variant_calls`), else
    /// `sym`.
    pub(crate) fn variant_of(&self, f: &Expr, mut sym: SymbolId) -> SymbolId {
        let mut e = f;
        while let ExprKind::Paren(x) = &e.kind {
            e = x;
        }
        if let Some(&v) = self.variant_calls.get(&e.id) {
            sym = v;
        }
        sym
    }
}
