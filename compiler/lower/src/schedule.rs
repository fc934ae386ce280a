//! Loop schedules written on a worksharing construct, as OpenMP 5.2 defines them (11.5.3
//! `schedule`, 11.6.1 `dist_schedule`): a loop with such a clause runs its iterations in
//! chunks handed to the workers (threads of a team, teams of the league) exactly as the
//! clause says, so a program that observes `omp_get_thread_num`/`omp_get_team_num` per
//! iteration sees the specified assignment. Loops without one keep the cyclic grid-stride
//! split of `worksharing::distributed_loop` (the default schedule is ours to choose).
//!
//! - `static, c` and `dist_schedule(static, c)`: chunk `j` of `c` iterations goes to worker
//!   `j % n`;
//! - `static` and `dist_schedule(static)`: one contiguous chunk per worker, in worker order,
//!   the first `N % n` workers one iteration more than the others;
//! - `dynamic[, c]`: chunks of `c` (default 1) consecutive iterations, each run whole by one
//!   worker; handing them out round-robin is one of the assignments the schedule allows;
//! - `guided[, c]`: chunk `j` has `max(c, ceil(R_j / n))` iterations (`R_j`: those not yet
//!   assigned) and goes to worker `j % n`, as if the workers asked in turn;
//! - `auto`, `runtime`: ours to choose (the cyclic split).
//!
//! A combined `distribute parallel for` distributes chunks to the teams first (its
//! `dist_schedule`, contiguous blocks without one) and the threads of each team then share
//! their team's chunk by the `schedule` clause (chunks of one without it).
//!
//! Invariant: every iteration runs exactly once; the body is emitted once, in the innermost
//! loop, with `continue` going to the next iteration.

use crate::func::FnLower;
use ompcc_ir::{Block, IntCC, Type, Value};
use ompcc_syntax::ast::{OmpClauseKind, OmpDirective, ScheduleKind};

/// How one level of workers shares a range of iterations.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Policy {
    /// Chunks of this many iterations, round-robin.
    Cyclic(Value),
    /// One contiguous chunk per worker.
    Block,
    /// Decreasing chunks of at least this many iterations, round-robin.
    Guided(Value),
}

/// An open loop over the chunks one worker runs: the builder is in its body, where the
/// chunk is `[a, b)`.
pub(crate) struct ChunkLoop {
    pub(crate) a: Value,
    pub(crate) b: Value,
    next: Block,
    exit: Block,
}

impl<'a> FnLower<'_, 'a, '_> {
    /// The policies `d`'s clauses prescribe: for the threads of a team (`schedule`) and for the
    /// teams of the league (`dist_schedule`); `None` where no clause fixes one. Chunk sizes
    /// are evaluated here.
    pub(crate) fn loop_policies(
        &mut self,
        d: &'a OmpDirective,
    ) -> (Option<Policy>, Option<Policy>) {
        let mut threads = None;
        let mut teams = None;
        for c in &d.clauses {
            match &c.kind {
                OmpClauseKind::Schedule { kind, chunk, .. } => {
                    let chunk = match chunk {
                        Some(e) => self.chunk_value(e),
                        None => None,
                    };
                    threads = match (kind, chunk) {
                        (ScheduleKind::Static, Some(c)) => Some(Policy::Cyclic(c)),
                        (ScheduleKind::Static, None) => Some(Policy::Block),
                        (ScheduleKind::Dynamic, c) => {
                            Some(Policy::Cyclic(c.unwrap_or_else(|| self.one())))
                        }
                        (ScheduleKind::Guided, c) => {
                            Some(Policy::Guided(c.unwrap_or_else(|| self.one())))
                        }
                        (ScheduleKind::Auto | ScheduleKind::Runtime, _) => None,
                    };
                }
                OmpClauseKind::DistSchedule { chunk } => {
                    teams = Some(match chunk {
                        Some(e) => match self.chunk_value(e) {
                            Some(c) => Policy::Cyclic(c),
                            None => Policy::Block,
                        },
                        None => Policy::Block,
                    });
                }
                _ => {}
            }
        }
        (threads, teams)
    }

    fn one(&mut self) -> Value {
        self.b.ins().iconst(Type::I64, 1)
    }

    /// A chunk size as a positive `i64` (values below 1 count as 1).
    fn chunk_value(&mut self, e: &'a ompcc_syntax::ast::Expr) -> Option<Value> {
        let v = self.long_value(e, crate::ty::Scalar::LONG)?;
        let one = self.one();
        Some(self.b.ins().smax(v, one))
    }

    /// Opens the loop over the chunks of `[lo, hi)` that worker `me` of `n` runs under `p`.
    pub(crate) fn chunk_loop_open(
        &mut self,
        lo: Value,
        hi: Value,
        me: Value,
        n: Value,
        p: Policy,
    ) -> ChunkLoop {
        let one = self.one();
        let body = self.b.create_block();
        let next = self.b.create_block();
        let exit = self.b.create_block();
        if let Policy::Block = p {
            // q = len / n, r = len % n: worker me runs [lo + me*q + min(me, r), + q + (me < r))
            let zero = self.b.ins().iconst(Type::I64, 0);
            let len = self.b.ins().isub(hi, lo);
            let len = self.b.ins().smax(len, zero);
            let q = self.b.ins().sdiv(len, n);
            let r = self.b.ins().srem(len, n);
            let extra = self.b.ins().smin(me, r);
            let off = self.b.ins().imul(me, q);
            let off = self.b.ins().iadd(off, extra);
            let a = self.b.ins().iadd(lo, off);
            let below = self.b.ins().icmp(IntCC::Slt, me, r);
            let plus = self.b.ins().select(below, one, zero);
            let size = self.b.ins().iadd(q, plus);
            let b = self.b.ins().iadd(a, size);
            let some = self.b.ins().icmp(IntCC::Slt, a, b);
            self.b.ins().brif(some, body, &[], exit, &[]);
            self.b.switch_to_block(next);
            self.b.ins().jump(exit, &[]);
            self.b.switch_to_block(body);
            return ChunkLoop { a, b, next, exit };
        }
        let head = self.b.create_block();
        if let Policy::Cyclic(c) = p {
            // chunk u = me, me + n, ...: [lo + u*c, min(lo + (u+1)*c, hi))
            let u = self.b.append_block_param(head, Type::I64);
            self.b.ins().jump(head, &[me]);
            self.b.switch_to_block(head);
            let off = self.b.ins().imul(u, c);
            let a = self.b.ins().iadd(lo, off);
            let more = self.b.ins().icmp(IntCC::Slt, a, hi);
            self.b.ins().brif(more, body, &[], exit, &[]);
            self.b.switch_to_block(next);
            let un = self.b.ins().iadd(u, n);
            self.b.ins().jump(head, &[un]);
            self.b.switch_to_block(body);
            let end = self.b.ins().iadd(a, c);
            let b = self.b.ins().smin(end, hi);
            return ChunkLoop { a, b, next, exit };
        }
        // Block and Cyclic returned above
        let min = match p {
            Policy::Guided(m) => m,
            _ => one,
        };
        // chunk j = [start, start + max(min, ceil((hi - start) / n))), worker j % n
        let start = self.b.append_block_param(head, Type::I64);
        let j = self.b.append_block_param(head, Type::I64);
        let check = self.b.create_block();
        let zero = self.b.ins().iconst(Type::I64, 0);
        self.b.ins().jump(head, &[lo, zero]);
        self.b.switch_to_block(head);
        let more = self.b.ins().icmp(IntCC::Slt, start, hi);
        self.b.ins().brif(more, check, &[], exit, &[]);
        self.b.switch_to_block(check);
        let left = self.b.ins().isub(hi, start);
        let nm1 = self.b.ins().isub(n, one);
        let t = self.b.ins().iadd(left, nm1);
        let share = self.b.ins().sdiv(t, n);
        let size = self.b.ins().smax(share, min);
        let end = self.b.ins().iadd(start, size);
        let b = self.b.ins().smin(end, hi);
        let owner = self.b.ins().srem(j, n);
        let mine = self.b.ins().icmp(IntCC::Eq, owner, me);
        self.b.ins().brif(mine, body, &[], next, &[]);
        self.b.switch_to_block(next);
        let jn = self.b.ins().iadd(j, one);
        self.b.ins().jump(head, &[b, jn]);
        self.b.switch_to_block(body);
        ChunkLoop {
            a: start,
            b,
            next,
            exit,
        }
    }

    /// Closes a chunk loop: the current block goes on to the next chunk; the builder continues
    /// after the loop.
    pub(crate) fn chunk_loop_close(&mut self, l: ChunkLoop) {
        self.jump_to(l.next);
        self.b.switch_to_block(l.exit);
    }
}
