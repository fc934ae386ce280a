//! The reserved locator `omp_all_memory` (OpenMP 5.1) in `depend` clauses, which gcc 12 does
//! not know, made into orderings gcc understands, conservatively: a construct with
//! `depend(out|inout: omp_all_memory)` depends on every earlier sibling task with a
//! dependence, and every later sibling task with a dependence depends on it. ompcc orders it
//! after *all* earlier sibling tasks and before all later ones:
//! - `task`: a `#pragma omp taskwait` first (every earlier child task of the encountering
//!   task completes), and the task made undeferred (`if(0)` in place of the clause; its own
//!   `if(c)` becomes `if(((void)(c), 0))`, so `c` is still evaluated), so it completes before the encountering task makes another one. The
//!   taskwait is a statement before the task, so the two are wrapped in braces: the task may
//!   be the body of an `if`, a loop, a label or another directive.
//! - `taskwait depend(...)` with `omp_all_memory`: a plain `taskwait` (the clause removed).
//!   Other directives (`depobj`) keep the clause, which gcc 12 rejects.
//! - `target` with the clause: the host rewrite puts a plain `taskwait` before it (see
//!   `wait_for_dependences`) and the runtime runs the region at once; its host-fallback copy
//!   loses the clause and `nowait`, so the fallback also completes before anything later.
//!   So does the fallback of a `target` with an `iterator(...)` modifier, whose `taskwait`
//!   keeps the clause: gcc 12 fails on iterators with run-time bounds on `target` ("size of
//!   variable is too large"), not on `task` or `taskwait`.
//!
//! A `task` with `detach` and `omp_all_memory` is refused (E0914): it completes when its
//! event is fulfilled, maybe after later sibling tasks start, which no such rewrite orders.
//!
//! Other `depend` clauses (also with an `iterator(...)` modifier on `task` and `taskwait`)
//! reach gcc as written. Invariant: line numbers stay the user's: the one inserted line is
//! followed by a line marker, and every other replacement keeps its line.

use ompcc_diag::{Diagnostic, SourceMap};
use ompcc_omp::walk::{self, Node};
use ompcc_syntax::ast::{
    OmpClauseKind, OmpClauseName, OmpDirective, OmpDirectiveKind, TranslationUnit,
};
use std::collections::BTreeMap;

/// Whether `d` has a `depend` clause naming `omp_all_memory`.
pub(crate) fn all_memory(d: &OmpDirective) -> bool {
    d.clauses.iter().any(|c| {
        matches!(
            c.kind,
            OmpClauseKind::Depend {
                all_memory: true,
                ..
            }
        )
    })
}

/// Whether `d` has a `depend` clause with an `iterator(...)` modifier.
fn iterated(d: &OmpDirective) -> bool {
    d.clauses.iter().any(|c| {
        matches!(
            c.kind,
            OmpClauseKind::Depend {
                iterated: Some(_),
                ..
            }
        )
    })
}

/// Adds to `subst` (start -> (end, text), the pragma-only substitutions) the rewrites of the
/// directives of `tu` that name `omp_all_memory` (`text` is what `tu` was parsed from).
pub(crate) fn host_pragmas(
    tu: &TranslationUnit,
    text: &str,
    sm: &SourceMap,
    subst: &mut BTreeMap<usize, (usize, String)>,
    errors: &mut Vec<Diagnostic>,
) {
    walk::unit(tu, &mut |n| {
        let Node::Directive(d) = n else { return };
        let target = ompcc_omp::is_target_region(d.kind);
        let task = d.kind == OmpDirectiveKind::Task;
        // a detached task completes when its event is fulfilled, maybe after later sibling
        // tasks start: the undeferred rewrite below would not order those
        if task
            && all_memory(d)
            && let Some(c) = d.clauses.iter().find(|c| c.name == OmpClauseName::Detach)
        {
            errors.push(Diagnostic::error(
                "E0914",
                "a task with 'detach' cannot use 'depend(...: omp_all_memory)' with ompcc: \
                 it orders such tasks by running them undeferred, and a detached task may \
                 complete after later sibling tasks start"
                    .to_owned(),
                c.span,
            ));
            return;
        }
        // `depobj` and the rest keep the clause: gcc's error, not a lost dependence
        let orders = task || target || d.kind == OmpDirectiveKind::Taskwait;
        if !((orders && all_memory(d)) || (target && iterated(d))) {
            return;
        }
        // The task's braces go around its pragma line and its body; where another rewrite
        // already claims either place, nothing is rewritten (gcc then rejects the clause:
        // never a task that runs out of order).
        let braces = match d.body.as_deref().filter(|_| task) {
            Some(body) => {
                let (at, last) = (d.span.lo as usize, body.span.hi as usize);
                let free = |k: usize, end: usize| subst.get(&k).is_none_or(|(e, _)| *e == end);
                let closing = last.checked_sub(1).and_then(|first| text.get(first..last));
                match closing {
                    Some(b) if free(at, at) && free(last - 1, last) => Some((at, last, b)),
                    _ => return,
                }
            }
            None if task => return,
            None => None,
        };
        for c in &d.clauses {
            let (lo, hi) = (c.span.lo as usize, c.span.hi as usize);
            let drop = match (&c.kind, c.name) {
                (
                    OmpClauseKind::Depend {
                        all_memory: true, ..
                    },
                    _,
                ) => true,
                (
                    OmpClauseKind::Depend {
                        iterated: Some(_), ..
                    },
                    _,
                ) => target,
                (_, OmpClauseName::Nowait) => target,
                _ => false,
            };
            if drop {
                subst.insert(lo, (hi, String::new()));
            }
        }
        let Some((at, last, closing)) = braces else {
            return;
        };
        // the task: undeferred, after a taskwait, both in braces; its own condition is still
        // evaluated (it may have side effects), its value no longer matters
        let own_if = d.clauses.iter().find_map(|c| match &c.kind {
            OmpClauseKind::If { cond, .. } => Some((c.span, cond.span)),
            _ => None,
        });
        match own_if.and_then(|(clause, cond)| {
            Some((clause, text.get(cond.lo as usize..cond.hi as usize)?))
        }) {
            Some((clause, cond)) => {
                let undeferred = format!("if(((void)({cond}), 0))");
                subst.insert(clause.lo as usize, (clause.hi as usize, undeferred));
            }
            None => {
                let end = d.span.hi as usize;
                subst
                    .entry(end)
                    .or_insert((end, String::new()))
                    .1
                    .insert_str(0, " if(0)");
            }
        }
        let loc = sm.lookup(d.span.lo);
        let marker = crate::embed::line_marker(loc.line, sm.file_name(loc.file), loc.system_header);
        let open = format!("{{\n#pragma omp taskwait\n{marker}");
        subst
            .entry(at)
            .or_insert((at, String::new()))
            .1
            .push_str(&open);
        // `}` after the body's last byte (a `;` or `}`): a zero-width insertion at the very
        // end would fall outside a copy ending there.
        subst
            .entry(last - 1)
            .or_insert((last, closing.to_owned()))
            .1
            .push('}');
    });
}
