//! Calls of the OpenMP API that the runtime can report better with their source line.
//! `omp_target_free(p, d)` becomes `ompcc_rt_target_free_at(p, d, "file:line:col")`, so
//! freeing a pointer twice (or one `omp_target_alloc` did not return) names the call, as
//! map errors name their construct.
//!
//! Invariant: only the callee's name changes and one argument is appended before the `)`:
//! the arguments' text, the evaluation and the line numbers stay the user's.

use ompcc_diag::SourceMap;
use ompcc_omp::walk::{self, Node};
use ompcc_sema::{SymbolKind, TypedUnit};
use ompcc_syntax::ast::{ExprKind, TranslationUnit};
use std::collections::BTreeMap;

/// Adds to `subst` (start -> (end, text)) the rewrite of each direct call of the API's own
/// `omp_target_free` (a function of that name, not a variable that shadows it).
pub(crate) fn located_frees(
    tu: &TranslationUnit,
    typed: &TypedUnit,
    text: &str,
    sm: &SourceMap,
    subst: &mut BTreeMap<usize, (usize, String)>,
) {
    walk::unit(tu, &mut |n| {
        let Node::Expr(e) = n else { return };
        let ExprKind::Call(callee, _) = &e.kind else {
            return;
        };
        let ExprKind::Ident(_) = &callee.kind else {
            return;
        };
        let is_api = typed.ident_symbols.get(&callee.id).is_some_and(|&s| {
            let sym = &typed.symbols[s];
            sym.kind == SymbolKind::Function && sym.name == "omp_target_free"
        });
        let (lo, hi) = (callee.span.lo as usize, callee.span.hi as usize);
        let close = (e.span.hi as usize).saturating_sub(1);
        // Spelled out in the text (not through a macro that hides the parentheses).
        if !is_api
            || text.get(lo..hi) != Some("omp_target_free")
            || text.as_bytes().get(close) != Some(&b')')
        {
            return;
        }
        let loc = crate::cexpr::c_string(&sm.describe(e.span));
        subst.insert(lo, (hi, "ompcc_rt_target_free_at".to_owned()));
        subst.insert(close, (close, format!(", {loc}")));
    });
}
