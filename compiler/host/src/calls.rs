//! Calls of the OpenMP API that the runtime can report better with their source line.
//! `omp_target_free(p, d)` becomes `ompcc_rt_target_free_at(p, d, "file:line:col")`, so
//! freeing a pointer twice (or one `omp_target_alloc` did not return) names the call, as
//! map errors name their construct.
//!
//! Invariant: only the callee's name changes and one argument is appended before the `)`:
//! the arguments' text, the evaluation and the line numbers stay the user's.
//!
//! A unit with such calls also gets [`FREE_FALLBACK`], a weak definition that frees through
//! the API: an object compiled alone with `-c` may be linked by cc without the runtime (a
//! host-only program), and links then all the same; where the runtime is linked, its own
//! definition wins (the driver forces it out of the archive: `FREE_AT_SYMBOL`).

use ompcc_diag::SourceMap;
use ompcc_omp::walk::{self, Node};
use ompcc_sema::{SymbolKind, TypedUnit};
use ompcc_syntax::ast::{ExprKind, TranslationUnit};
use std::collections::BTreeMap;

/// The runtime's located free.
pub const FREE_AT_SYMBOL: &str = "ompcc_rt_target_free_at";

/// Appended to a unit whose calls [`located_frees`] rewrote.
pub(crate) const FREE_FALLBACK: &str = "\
extern void omp_target_free(void *, int);
__attribute__((weak)) void ompcc_rt_target_free_at(void *p, int d, const char *loc) \
{ (void)loc; omp_target_free(p, d); }
";

/// Adds to `subst` (start -> (end, text)) the rewrite of each direct call of the API's own
/// `omp_target_free` (a function of that name, not a variable that shadows it); returns
/// whether there was one.
pub(crate) fn located_frees(
    tu: &TranslationUnit,
    typed: &TypedUnit,
    text: &str,
    sm: &SourceMap,
    subst: &mut BTreeMap<usize, (usize, String)>,
) -> bool {
    let mut any = false;
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
        subst.insert(lo, (hi, FREE_AT_SYMBOL.to_owned()));
        subst.insert(close, (close, format!(", {loc}")));
        any = true;
    });
    any
}
