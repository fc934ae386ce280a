//! The grid loop of a one-iteration kernel variant (`ompcc_omp::choose_one_iteration`): the
//! runtime launches the variant only with at least one thread per iteration, so each thread
//! runs the iteration its global thread number names, if there is one, with no loop around
//! it, no stride and no carries: CUDA's `if (idx < n)` form. A collapsed nest's indices are
//! the thread number's digits in the mixed radix of the trip counts, divided out once.

use crate::func::{Addr, FnLower};
use crate::kernel::Who;
use crate::privatize::Private;
use crate::worksharing::CanonLoop;
use ompcc_ir::{IntCC, Value};
use ompcc_syntax::ast::Stmt;

/// What a grid loop's one iteration runs: the nest's loops and the body inside them.
pub(crate) struct OneIteration<'s, 'a> {
    /// The distributed (collapsed) loops, outermost first.
    pub(crate) canon: &'s [CanonLoop],
    /// The grid mapping's sequential loops each iteration runs around the body.
    pub(crate) sequential: &'s [CanonLoop],
    /// Iterations of the collapsed nest (`i64`).
    pub(crate) total: Value,
    pub(crate) body: &'a Stmt,
    /// The `lastprivate` mark (`mark_if_last`).
    pub(crate) last_flag: Option<Addr>,
}

impl<'c, 'a, 'f> FnLower<'c, 'a, 'f> {
    /// Whether the grid loop of directive `d` is lowered in the one-iteration form: in a
    /// one-iteration variant, the region's own loop nest shared by the grid, without a
    /// schedule, chunks, lane groups or an elected worker.
    pub(crate) fn one_iteration_loop(&self, d: &ompcc_syntax::ast::OmpDirective, who: Who) -> bool {
        self.cx.one_iteration_loop == Some(d.span) && who == Who::Grid && self.generic.is_none()
    }

    /// Runs iteration `%ctaid.x * %ntid.x + %tid.x` of `it`'s nest on this thread when there
    /// is one. A grid smaller than the iterations breaks the launch's promise (a host count
    /// that disagrees with the kernel's): the kernel traps rather than skip iterations.
    pub(crate) fn one_iteration(&mut self, it: OneIteration<'_, 'a>, privs: &[Private<'a>]) {
        let (k, threads) = self.who_range(Who::Grid);
        let covered = self.b.create_block();
        let broken = self.b.create_block();
        let fits = self.b.ins().icmp(IntCC::Sle, it.total, threads);
        self.b.ins().brif(fits, covered, &[], broken, &[]);
        self.b.switch_to_block(broken);
        self.b.ins().trap();
        self.b.switch_to_block(covered);
        // every thread of the block, with an iteration or not, stages the shared tiles
        if let [c] = it.canon
            && it.sequential.is_empty()
        {
            self.stage_tiles(k, it.total, c);
        }
        let run = self.b.create_block();
        let done = self.b.create_block();
        let has = self.b.ins().icmp(IntCC::Slt, k, it.total);
        self.b.ins().brif(has, run, &[], done, &[]);
        self.b.switch_to_block(run);
        // every trip count is positive here (their product is): no guard on the divisions
        let trips: Vec<Value> = it.canon.iter().map(|c| c.trip).collect();
        let digits = self.mixed_radix_digits(k, &trips);
        for (c, &idx) in it.canon.iter().zip(&digits) {
            self.set_loop_var(c, idx);
        }
        self.set_linear(privs, k);
        if let Some(flag) = it.last_flag {
            self.mark_if_last(flag, k, it.total);
        }
        // `continue` ends the thread's iteration; `break` cannot leave an OpenMP loop
        self.breaks.push(done);
        self.continues.push(done);
        self.loop_runs.push(Who::Grid);
        // `None`: a sequential loop's bounds could not be lowered (reported)
        let _ = self.sequential_nest(it.sequential, it.body, None);
        self.loop_runs.pop();
        self.continues.pop();
        self.breaks.pop();
        self.jump_to(done);
        self.b.switch_to_block(done);
    }
}
