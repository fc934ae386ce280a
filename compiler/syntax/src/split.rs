//! Combined constructs that the parser splits into their leaf constructs.
//!
//! `master taskloop`, `masked taskloop`, `parallel master taskloop`, `parallel masked
//! taskloop` and their `simd` forms (OpenMP 5.1/5.2) are no composite constructs of their
//! own: OpenMP defines them as the nested leaves (`parallel` { `masked` { `taskloop` } }), so
//! the parser builds that nest, and every later stage (the checker, the plan, lowering)
//! handles them as the split forms it already knows. The host text keeps the combined line,
//! which gcc implements with the same distribution.
//!
//! Clauses go to the leaves as OpenMP 5.2 section 17.2 (and 3.4 for `if`) says:
//! - `private`, `firstprivate`, `lastprivate`, `reduction`, `in_reduction`, `linear`,
//!   `allocate`, `collapse`: the innermost leaf that permits them (the `taskloop`: a
//!   `parallel` combined with `taskloop` takes neither `firstprivate` nor `reduction`);
//!   the variables of `firstprivate`, `lastprivate`, `reduction` and `linear` (for an array
//!   section, its base variable) are `shared` on the `parallel`;
//! - `if(name: c)`: the leaf `name` denotes; `if(c)`: every leaf that permits `if`
//!   (`parallel` and `taskloop`, so `c` is evaluated once before each);
//! - every other clause (`shared`, `default`, `num_threads`, `proc_bind`, `copyin`,
//!   `filter`, `grainsize`, `num_tasks`, `nogroup`, `final`, `priority`, `untied`,
//!   `mergeable`, the `simd` clauses): every leaf that permits it.
//!
//! A clause given to two leaves is the same expression (the same `ExprId`) in both: both
//! are checked in the same scope, so the checker's side tables agree.

use crate::actions::stmt;
use crate::ast::{Expr, ExprKind, OmpClause, OmpClauseKind, OmpDirective, Stmt, StmtKind};
use crate::omp::{OmpClauseName as C, OmpDirectiveKind as K};

/// The statement for directive `d` (a kind with [`K::split`] parts) owning `body`: the leaf
/// directives nested, each spanning the pragma line, the innermost owning `body`.
pub(crate) fn split_combined(d: OmpDirective, body: Stmt, l: usize, r: usize) -> Stmt {
    let parts = d.kind.split();
    let mut clauses = distribute(parts, d.clauses);
    let mut inner = body;
    for (i, kind) in parts.iter().enumerate().rev() {
        let leaf = OmpDirective {
            span: d.span,
            kind: *kind,
            name_span: d.name_span,
            args: Vec::new(),
            clauses: std::mem::take(&mut clauses[i]),
            body: Some(Box::new(inner)),
            unsupported_name: &[],
        };
        inner = stmt(l, r, StmtKind::Omp(Box::new(leaf)));
    }
    inner
}

/// The clauses of each of `parts`.
fn distribute(parts: &[K], clauses: Vec<OmpClause>) -> Vec<Vec<OmpClause>> {
    let mut out: Vec<Vec<OmpClause>> = vec![Vec::new(); parts.len()];
    let innermost = parts.len().saturating_sub(1);
    let parallel = parts.iter().position(|k| *k == K::Parallel);
    // the variables shared on the `parallel`, and the clause that made each shared
    let mut shared: Vec<Expr> = Vec::new();
    let mut shared_span = None;
    for c in clauses {
        let takers: Vec<usize> = (0..parts.len())
            .filter(|i| parts[*i].allows(c.name))
            .collect();
        let to: Vec<usize> = match (&c.kind, c.name) {
            (
                _,
                C::Private
                | C::Firstprivate
                | C::Lastprivate
                | C::Reduction
                | C::InReduction
                | C::Linear
                | C::Allocate
                | C::Collapse,
            ) => takers.last().copied().into_iter().collect(),
            (
                OmpClauseKind::If {
                    modifier: Some(m), ..
                },
                _,
            ) => takers
                .iter()
                .copied()
                .filter(|i| parts[*i].contains(*m))
                .take(1)
                .collect(),
            _ => takers,
        };
        if let Some(p) = parallel
            && matches!(
                c.name,
                C::Firstprivate | C::Lastprivate | C::Reduction | C::Linear
            )
            && !to.contains(&p)
        {
            for item in list_items(&c.kind) {
                let Some(base) = base_variable(item) else {
                    continue;
                };
                if !shared.iter().any(|s| same_ident(s, base)) {
                    shared.push(base.clone());
                    shared_span.get_or_insert(c.span);
                }
            }
        }
        match to.split_last() {
            // permitted by no leaf: the innermost one reports it
            None => out[innermost].push(c),
            Some((last, rest)) => {
                for i in rest {
                    out[*i].push(c.clone());
                }
                out[*last].push(c);
            }
        }
    }
    if let (Some(p), Some(span)) = (parallel, shared_span) {
        // a variable the user already lists in `shared` is not listed twice
        let explicit: Vec<&Expr> = out[p]
            .iter()
            .filter(|c| c.name == C::Shared)
            .flat_map(|c| list_items(&c.kind))
            .collect();
        shared.retain(|s| !explicit.iter().any(|e| same_ident(e, s)));
        if !shared.is_empty() {
            out[p].push(OmpClause {
                span,
                name: C::Shared,
                modifier: None,
                kind: OmpClauseKind::List(shared),
            });
        }
    }
    out
}

fn list_items(k: &OmpClauseKind) -> &[Expr] {
    match k {
        OmpClauseKind::List(v)
        | OmpClauseKind::Lastprivate { list: v, .. }
        | OmpClauseKind::Reduction { list: v, .. }
        | OmpClauseKind::UserReduction { list: v, .. }
        | OmpClauseKind::Linear { list: v, .. } => v,
        _ => &[],
    }
}

/// The variable a list item names: itself, or the base array or pointer of a section.
fn base_variable(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Ident(_) => Some(e),
        ExprKind::Paren(b) | ExprKind::Index(b, _) => base_variable(b),
        ExprKind::ArraySection { base, .. } => base_variable(base),
        _ => None,
    }
}

fn same_ident(a: &Expr, b: &Expr) -> bool {
    matches!((&a.kind, &b.kind), (ExprKind::Ident(x), ExprKind::Ident(y)) if x == y)
}
