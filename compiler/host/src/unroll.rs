//! `#pragma omp unroll` in the host text. gcc 12 does not know the directive: it ignores it,
//! and warns under `-Wall` ("ignoring '#pragma omp unroll'") about a pragma ompcc honours.
//! So in units ompcc rewrites, each `omp unroll` line becomes what gcc understands, with
//! the same meaning for the host fallback: `#pragma GCC unroll N` for `partial(N)`, and for
//! `full` the largest count gcc accepts (it unrolls at most the trip count, which sema checked
//! is a constant); nothing for a bare `unroll` or `partial` without a count (the factor is the
//! implementation's) and for an `unroll` that is the loop of a loop directive (gcc wants the
//! `for` right after `#pragma omp for`, and `GCC unroll` may not stand between them).
//!
//! Invariant: each replacement is one line (the pragma line has no newline), so line numbers
//! stay the user's; the loop itself is untouched.

use ompcc_omp::walk::{self, Node};
use ompcc_sema::TypedUnit;
use ompcc_syntax::ast::{
    BlockItem, OmpClauseKind, OmpClauseName, OmpDirective, OmpDirectiveKind, Stmt, StmtKind,
    TranslationUnit,
};
use std::collections::{BTreeMap, HashSet};

/// gcc's largest `#pragma GCC unroll` count.
const GCC_MAX_UNROLL: i128 = 65534;

/// Adds to `subst` (start -> (end, text)) the replacement of every `omp unroll` line of `tu`.
pub(crate) fn host_pragmas(
    tu: &TranslationUnit,
    typed: &TypedUnit,
    subst: &mut BTreeMap<usize, (usize, String)>,
) {
    let mut unrolls: Vec<&OmpDirective> = Vec::new();
    // `unroll` directives that are the loop of a loop directive, by the start of their line.
    let mut nested: HashSet<u32> = HashSet::new();
    walk::unit(tu, &mut |n| {
        let Node::Directive(d) = n else { return };
        if d.kind == OmpDirectiveKind::Unroll {
            unrolls.push(d);
        }
        if (d.kind.is_loop() || d.kind == OmpDirectiveKind::Unroll)
            && let Some(body) = &d.body
        {
            // Through the perfectly nested `for` loops of a collapsed nest.
            let mut s = single(body);
            loop {
                match &s.kind {
                    StmtKind::Omp(u) if u.kind == OmpDirectiveKind::Unroll => {
                        nested.insert(u.span.lo);
                        break;
                    }
                    StmtKind::For(_, _, _, inner) => s = single(inner),
                    _ => break,
                }
            }
        }
    });
    for d in unrolls {
        let line = if nested.contains(&d.span.lo) {
            String::new()
        } else {
            match gcc_count(d, typed) {
                Some(n) => format!("#pragma GCC unroll {n}"),
                None => String::new(),
            }
        };
        subst.insert(d.span.lo as usize, (d.span.hi as usize, line));
    }
}

/// The `GCC unroll` count meaning what `d` asks, if it asks for one.
fn gcc_count(d: &OmpDirective, typed: &TypedUnit) -> Option<i128> {
    for c in &d.clauses {
        match (c.name, &c.kind) {
            (OmpClauseName::Full, _) => return Some(GCC_MAX_UNROLL),
            (OmpClauseName::Partial, OmpClauseKind::Expr(e)) => {
                return match ompcc_sema::fold(typed, e) {
                    Some(ompcc_sema::consteval::ConstValue::Int(v)) => {
                        v.as_i128().map(|n| n.clamp(0, GCC_MAX_UNROLL))
                    }
                    _ => None,
                };
            }
            _ => {}
        }
    }
    None
}

/// `{ stmt }` stands for `stmt`.
fn single(s: &Stmt) -> &Stmt {
    match &s.kind {
        StmtKind::Compound(b) => match b.items.as_slice() {
            [BlockItem::Stmt(one)] => single(one),
            _ => s,
        },
        _ => s,
    }
}
