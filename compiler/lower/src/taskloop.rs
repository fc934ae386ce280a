//! A device `taskloop` splits its logical iterations into tasks exactly as libgomp's
//! `GOMP_taskloop` does, so a program whose output shows the split (a firstprivate variable
//! the loop changes, a lastprivate one) prints what gcc's host build prints. The tasks still
//! run undeferred, one after the other, on the encountering thread (module `task`): the split
//! decides where each task's data environment starts afresh.
//!
//! libgomp's rule over the `n` logical iterations (of the collapsed space with `collapse`),
//! in unsigned 64-bit arithmetic (the clause values become `unsigned long`):
//! - `grainsize(strict: g)`: tasks of `g` iterations, the last one takes what is left;
//! - `grainsize(g)`: `max(n / g, 1)` tasks;
//! - `num_tasks([strict:] t)`: `min(t, n)` tasks (`t == 0` counts as no clause);
//! - neither: as many tasks as the encountering team has threads, at most `n`;
//!
//! and `T` tasks share the iterations as evenly as they can, the first `n % T` taking one
//! more. A `grainsize` of 0 (non-conforming: libgomp divides by it) counts as 1.
//!
//! Each task starts with the firstprivate values of the moment the taskloop was encountered,
//! kept in a snapshot (as libgomp's tasks copy one argument block filled before the first
//! runs: a write to the original through a pointer meanwhile does not reach later tasks).
//! Private and lastprivate copies just carry on (their values are undefined where a task
//! starts), so the lastprivate copies end with the values of the last task, which runs last;
//! reductions accumulate across the tasks into one copy.
//!
//! Invariants: the snapshots are taken after every copy of the taskloop's data environment
//! is initialized and before its first iteration; `FnLower::taskloop_split` is set only for
//! the `distributed_loop` call that runs the taskloop's loop, which takes it.

use crate::func::{FnLower, Local};
use crate::kernel::Who;
use crate::privatize::{PrivKind, Private};
use crate::ty::Scalar;
use ompcc_diag::Span;
use ompcc_ir::{IntCC, StackSlot, Type, Value};
use ompcc_sema::SymbolId;
use ompcc_sema::types::QualType;
use ompcc_syntax::ast::{OmpClauseKind, OmpClauseName as C, OmpDirective};

/// How many tasks a taskloop makes: its clause's value (as an `i64` read unsigned),
/// evaluated where the taskloop is encountered.
#[derive(Clone, Copy)]
enum TaskCount {
    /// `grainsize([strict:] g)`.
    Grainsize { g: Value, strict: bool },
    /// `num_tasks(t)`, or without either clause the team's number of threads.
    Tasks(Value),
}

/// A firstprivate copy that every task starts from the snapshot.
struct Restart {
    copy: StackSlot,
    snapshot: StackSlot,
    align: u32,
    qt: QualType,
    span: Span,
}

/// A taskloop's split as its clauses ask, before the loop's iteration count is known.
pub(crate) struct TaskSplit {
    count: TaskCount,
    restarts: Vec<Restart>,
    /// A `grainsize` or `num_tasks` clause asks for the split (without one, the number of
    /// tasks is the implementation's to choose).
    pub(crate) asked: bool,
}

/// Where the tasks start among the loop's logical iterations (values computed once, before
/// the loop).
enum Starts {
    /// At every multiple of the grain (`grainsize(strict: g)`, `g >= 1`).
    Every(Value),
    /// The first `head` iterations in tasks of `big`, the others in tasks of `big - 1`.
    Even {
        head: Value,
        big: Value,
        small: Value,
    },
}

/// A taskloop's tasks over a loop of known size.
pub(crate) struct TaskBounds {
    starts: Starts,
    restarts: Vec<Restart>,
}

impl<'c, 'a, 'f> FnLower<'c, 'a, 'f> {
    /// `#pragma omp taskloop [simd]`: its tasks run at once, in order, on this thread, each
    /// with its own data environment, the iterations split as libgomp splits them.
    pub(crate) fn taskloop(&mut self, d: &'a OmpDirective) {
        // The clause is evaluated in the encountering context, before any copy exists.
        let Some(count) = self.task_count(d) else {
            return;
        };
        let Some(implicit) = self.task_data(d) else {
            return;
        };
        let mut privs = Vec::new();
        self.privatize(d, true, false, &mut privs);
        let mut restarts = Vec::new();
        self.snapshot_firstprivates(d, &implicit, &mut restarts);
        self.snapshot_firstprivates(d, &privs, &mut restarts);
        match d.body.as_deref() {
            Some(body) => {
                let asked = d
                    .clauses
                    .iter()
                    .any(|c| matches!(c.name, C::Grainsize | C::NumTasks));
                self.taskloop_split = Some(TaskSplit {
                    count,
                    restarts,
                    asked,
                });
                let collapse = ompcc_omp::collapse_of(self.cx.typed, d);
                self.distributed_loop(d, body, collapse, Who::Single, privs, false, None);
                // the loop takes it, unless it stopped at a diagnostic first
                self.taskloop_split = None;
            }
            None => self.end_privates(privs, false, None),
        }
        self.end_privates(implicit, false, None);
    }

    /// The taskloop's `grainsize` or `num_tasks` clause, evaluated, or the team's size.
    fn task_count(&mut self, d: &'a OmpDirective) -> Option<TaskCount> {
        let clause = d.clauses.iter().find_map(|c| match (&c.kind, c.name) {
            (OmpClauseKind::Expr(e), C::Grainsize | C::NumTasks) => Some((c, &**e)),
            _ => None,
        });
        let Some((c, e)) = clause else {
            return Some(TaskCount::Tasks(self.team_threads()));
        };
        let v = self.long_value(e, Scalar::LONG)?;
        if c.name == C::Grainsize {
            // `strict` is the only modifier the parser accepts here
            let strict = c.modifier.is_some();
            return Some(TaskCount::Grainsize { g: v, strict });
        }
        // libgomp reads `num_tasks(0)` as no clause
        let team = self.team_threads();
        let zero = self.b.ins().iconst(Type::I64, 0);
        let unset = self.b.ins().icmp(IntCC::Eq, v, zero);
        Some(TaskCount::Tasks(self.b.ins().select(unset, team, v)))
    }

    /// The number of threads of the encountering team (`omp_get_num_threads()` here), as an
    /// `i64`: libgomp's number of tasks without a clause.
    fn team_threads(&mut self) -> Value {
        let n = match self.omp_api_value("omp_get_num_threads") {
            Some(n) => n,
            None => self.b.ins().iconst(Type::I32, 1),
        };
        self.b.ins().zext(Type::I64, n)
    }

    /// Copies the firstprivate items among `privs` (implicit ones and those also lastprivate
    /// included), as they are now, into snapshots the tasks restart from.
    fn snapshot_firstprivates(
        &mut self,
        d: &'a OmpDirective,
        privs: &[Private<'a>],
        out: &mut Vec<Restart>,
    ) {
        let named = self.firstprivate_symbols(d);
        for p in privs {
            let first =
                p.kind == PrivKind::First || (p.kind == PrivKind::Last && named.contains(&p.sym));
            if !first {
                continue;
            }
            let Some(Local::Slot(copy, align)) = self.locals.get(&p.sym).copied() else {
                continue;
            };
            let qt = self.cx.typed.symbols[p.sym].ty;
            let span = p.item.span;
            let Some(snapshot) = self.new_slot(qt, span) else {
                continue;
            };
            let src = self.slot_addr(copy, align);
            let dst = self.slot_addr(snapshot, align);
            self.copy(dst, src, qt, span);
            out.push(Restart {
                copy,
                snapshot,
                align,
                qt,
                span,
            });
        }
    }

    /// The variables `d`'s `firstprivate` clauses name.
    fn firstprivate_symbols(&self, d: &'a OmpDirective) -> Vec<SymbolId> {
        let mut out = Vec::new();
        for c in d.clauses.iter().filter(|c| c.name == C::Firstprivate) {
            let OmpClauseKind::List(list) = &c.kind else {
                continue;
            };
            for item in list {
                let e = crate::expr::strip_parens(item);
                if let Some(&s) = self.cx.typed.ident_symbols.get(&e.id) {
                    out.push(s);
                }
            }
        }
        out
    }

    /// Where `split`'s tasks start in a loop of `n` logical iterations (an `i64`).
    pub(crate) fn task_bounds(&mut self, split: TaskSplit, n: Value) -> TaskBounds {
        let one = self.b.ins().iconst(Type::I64, 1);
        let starts = match split.count {
            TaskCount::Grainsize { g, strict } => {
                let g = self.b.ins().umax(g, one);
                if strict {
                    Starts::Every(g)
                } else {
                    let tasks = self.b.ins().udiv(n, g);
                    let tasks = self.b.ins().umax(tasks, one);
                    self.even_split(n, tasks)
                }
            }
            TaskCount::Tasks(t) => {
                let tasks = self.b.ins().umin(t, n);
                let tasks = self.b.ins().umax(tasks, one);
                self.even_split(n, tasks)
            }
        };
        TaskBounds {
            starts,
            restarts: split.restarts,
        }
    }

    /// `tasks` (1 to `n`, or 1 when `n` is 0) sharing `n` iterations, the first `n % tasks`
    /// with one more.
    fn even_split(&mut self, n: Value, tasks: Value) -> Starts {
        let small = self.b.ins().udiv(n, tasks);
        let extra = self.b.ins().urem(n, tasks);
        let one = self.b.ins().iconst(Type::I64, 1);
        let big = self.b.ins().iadd(small, one);
        let head = self.b.ins().imul(extra, big);
        Starts::Even { head, big, small }
    }

    /// At logical iteration `k` (an `i64`): where a task starts, its firstprivate copies
    /// take the snapshots' values.
    pub(crate) fn start_task_at(&mut self, bounds: &TaskBounds, k: Value) {
        if bounds.restarts.is_empty() {
            return;
        }
        let zero = self.b.ins().iconst(Type::I64, 0);
        // `k`'s offset in its task
        let offset = match bounds.starts {
            Starts::Every(g) => self.b.ins().urem(k, g),
            Starts::Even { head, big, small } => {
                let in_head = self.b.ins().icmp(IntCC::Ult, k, head);
                let base = self.b.ins().select(in_head, zero, head);
                let len = self.b.ins().select(in_head, big, small);
                let from = self.b.ins().isub(k, base);
                self.b.ins().urem(from, len)
            }
        };
        let first = self.b.ins().icmp(IntCC::Eq, offset, zero);
        let restart = self.b.create_block();
        let join = self.b.create_block();
        self.b.ins().brif(first, restart, &[], join, &[]);
        self.b.switch_to_block(restart);
        for r in &bounds.restarts {
            let dst = self.slot_addr(r.copy, r.align);
            let src = self.slot_addr(r.snapshot, r.align);
            self.copy(dst, src, r.qt, r.span);
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
    }
}
