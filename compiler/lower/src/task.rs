//! OpenMP tasks in device code. Every task runs undeferred: at once, to completion, on the
//! thread that encounters it (an included task). That is a valid schedule for any conforming
//! program: `depend` is satisfied by creation order, `taskwait` and `taskgroup` find nothing
//! left to wait for, and a `taskloop`'s tasks run its iterations in order.
//!
//! The task still gets its own data environment (OpenMP 5.2 section 5.1.1): its `private` and
//! `firstprivate` items and every variable whose implicit data-sharing attribute is
//! firstprivate get copies, so a task's writes to them stay inside it. A variable is shared
//! when it has static storage or the innermost enclosing parallel region shares it (it still
//! has the binding recorded in `FnLower::shared_scopes`); in a device function without a
//! `parallel` of its own, the function's variables are private to the calling thread, so
//! firstprivate in its tasks.
//!
//! Invariants: the copies are installed before the task's body and ended (their bindings
//! restored) after it.

use crate::func::FnLower;
use crate::privatize::{PrivKind, Private};
use ompcc_sema::{Storage, SymbolId, SymbolKind};
use ompcc_syntax::ast::{
    DefaultKind, Expr, OmpClauseKind, OmpClauseName as C, OmpDirective, OmpDirectiveKind as K,
};
use rustc_hash::FxHashSet;

impl<'c, 'a, 'f> FnLower<'c, 'a, 'f> {
    /// `#pragma omp task`: the body, now, in the task's data environment.
    pub(crate) fn undeferred_task(&mut self, d: &'a OmpDirective) {
        let Some(privs) = self.task_data(d) else {
            return;
        };
        if let Some(b) = d.body.as_deref() {
            self.stmt(b);
        }
        self.ensure_open();
        self.end_privates(privs, false, None);
    }

    /// Installs the copies of a task's (or a taskloop's) data environment other than those
    /// a taskloop's own loop privatizes; `None` after a diagnostic for a clause an included
    /// task cannot honour.
    pub(crate) fn task_data(&mut self, d: &'a OmpDirective) -> Option<Vec<Private<'a>>> {
        if let Some(c) = d.clauses.iter().find(|c| c.name == C::Detach) {
            self.unsupported(
                format!(
                    "'{}' on '#pragma omp {}' is not supported in device code yet",
                    c.name.as_str(),
                    d.kind.words().join(" ")
                ),
                c.span,
            );
            return None;
        }
        let mut privs = Vec::new();
        if d.kind == K::Task {
            self.privatize(d, false, false, &mut privs);
        }
        let default = d.clauses.iter().find_map(|c| match c.kind {
            OmpClauseKind::Default(k) => Some(k),
            _ => None,
        });
        let Some(body) = d.body.as_deref() else {
            return Some(privs);
        };
        if default == Some(DefaultKind::Shared) {
            return Some(privs);
        }
        self.implicit_privates(d, body, default, &mut privs);
        Some(privs)
    }

    /// `#pragma omp taskgroup [task_reduction(op: list)]`: its tasks run at once on this
    /// thread, so those with `in_reduction` update the list items themselves and the
    /// reduction is complete at the end. A taskgroup every thread of a team runs would have
    /// them race on a shared item: refused.
    pub(crate) fn taskgroup(&mut self, d: &'a OmpDirective, par: crate::kernel::Par) {
        if par.split == crate::kernel::Split::Team
            && let Some(c) = d.clauses.iter().find(|c| c.name == C::TaskReduction)
        {
            self.unsupported(
                "'task_reduction' on a 'taskgroup' that every thread of a team runs is not                  supported in a target region (put it in 'single' or 'masked')",
                c.span,
            );
            return;
        }
        if let Some(b) = d.body.as_deref() {
            self.stmt(b);
        }
    }

    /// Privatizes the variables `body` uses that `d`'s clauses do not name and that have a
    /// local binding (the program's globals and statics are shared): as `default` says, or,
    /// without one, as a task's implicit rule says (firstprivate unless the innermost
    /// enclosing parallel region shares the variable).
    pub(crate) fn implicit_privates(
        &mut self,
        d: &'a OmpDirective,
        body: &'a ompcc_syntax::ast::Stmt,
        default: Option<DefaultKind>,
        privs: &mut Vec<Private<'a>>,
    ) {
        let named = self.clause_symbols(d);
        let (declared, used) = crate::walk::declared_and_used(body, self.cx.typed);
        let mut seen = FxHashSet::default();
        for (id, s) in used {
            let info = &self.cx.typed.symbols[s];
            if info.kind != SymbolKind::Object
                || matches!(info.storage, Storage::Static | Storage::Thread)
                || declared.contains(&s)
                || named.contains(&s)
                || !seen.insert(s)
            {
                continue;
            }
            // Variables without a local binding are the program's globals: shared.
            let Some(now) = self.locals.get(&s).copied() else {
                continue;
            };
            let shared_by_team = self
                .shared_scopes
                .last()
                .is_some_and(|m| m.get(&s) == Some(&now));
            let kind = match default {
                Some(DefaultKind::Private) => PrivKind::Private,
                Some(DefaultKind::Firstprivate) => PrivKind::First,
                _ if shared_by_team => continue,
                _ => PrivKind::First,
            };
            let Some(e) = self.cx.expr_by_id(id) else {
                continue;
            };
            self.privatize_item(e, kind, privs);
        }
    }

    /// The variables a directive's clauses name.
    fn clause_symbols(&self, d: &'a OmpDirective) -> FxHashSet<SymbolId> {
        let mut out = FxHashSet::default();
        for c in &d.clauses {
            let list: &[Expr] = match &c.kind {
                OmpClauseKind::List(l) => l,
                OmpClauseKind::Lastprivate { list, .. }
                | OmpClauseKind::Reduction { list, .. }
                | OmpClauseKind::UserReduction { list, .. } => list,
                _ => continue,
            };
            for item in list {
                crate::walk::idents_of(item, &mut |id| {
                    if let Some(&s) = self.cx.typed.ident_symbols.get(&id) {
                        out.insert(s);
                    }
                });
            }
        }
        out
    }
}
