//! Worksharing inside kernels: canonical loop nests flattened into one 64-bit iteration
//! space and handed out cyclically (over the grid, a team, the teams, or one thread), and the
//! OpenMP constructs a target region may contain (parallel, for, loop, distribute, single,
//! sections, master/masked, barrier, critical), each lowered for the `Par` context it is in.
//!
//! Invariants: a loop's iteration variables are private slots for the duration of the loop;
//! every construct restores `self.par` when it ends; a team-wide barrier is only emitted where
//! every thread of the team reaches it.

use crate::func::{Addr, FnLower, Local};
use crate::kernel::{Par, Split, Who};
use crate::privatize::{PrivKind, Private};
use crate::schedule::Policy;
use crate::ty::Scalar;
use ompcc_ir::{IntCC, SpecialReg, Type, Value};
use ompcc_sema::SymbolId;
use ompcc_syntax::ast::{
    self, BinaryOp, Expr, ExprKind, OmpClauseKind, OmpClauseName as C, OmpDirective,
    OmpDirectiveKind as K, Stmt, StmtKind, UnaryOp,
};

/// One canonical loop of a nest: iteration variable and bounds as `i64`.
pub(crate) struct CanonLoop {
    pub(crate) var: SymbolId,
    pub(crate) cls: Scalar,
    pub(crate) lb: Value,
    pub(crate) step: Value,
    pub(crate) trip: Value,
}

impl<'c, 'a, 'f> FnLower<'c, 'a, 'f> {
    /// `lastprivate`: sets the byte at `flag` when iteration `k` is the last of `total`
    /// (or-ed in, so a thread that ran the last iteration keeps the mark).
    pub(crate) fn mark_if_last(&mut self, flag: Addr, k: Value, total: Value) {
        let one = self.b.ins().iconst(Type::I64, 1);
        let lastk = self.b.ins().isub(total, one);
        let is_last = self.b.ins().icmp(IntCC::Eq, k, lastk);
        let f = self.b.ins().zext(Type::I8, is_last);
        let old = self.load_raw(flag, Type::I8, false);
        let f = self.b.ins().or(old, f);
        self.store_raw(flag, f, false);
    }

    // ----- loops -----

    /// Reads a canonical loop's bounds (evaluated here) as `i64` values.
    pub(crate) fn canon_loop(
        &mut self,
        s: &'a Stmt,
        outer_vars: &[SymbolId],
    ) -> Option<(CanonLoop, &'a Stmt)> {
        let StmtKind::For(init, cond, step, body) = &s.kind else {
            self.unsupported("expected a 'for' loop after the loop directive", s.span);
            return None;
        };
        let var = ompcc_omp::loop_var(self.cx.typed, s);
        let Some(var) = var else {
            self.unsupported(
                "loop is not in canonical form (no iteration variable)",
                s.span,
            );
            return None;
        };
        // Bounds of an inner loop must not use an outer loop's variable.
        let mut bad = false;
        let check = |e: &Expr, bad: &mut bool, typed: &ompcc_sema::TypedUnit| {
            crate::walk::idents_of(e, &mut |id| {
                if let Some(s) = typed.ident_symbols.get(&id)
                    && outer_vars.contains(s)
                {
                    *bad = true;
                }
            });
        };
        let qt = self.cx.typed.symbols[var].ty;
        let cls = self.class(qt, s.span)?;
        if !matches!(cls, Scalar::Int(..)) {
            self.unsupported(
                "loop iteration variables of distributed loops must be integers on the device",
                s.span,
            );
            return None;
        }
        let lb_e: &'a Expr = match init {
            ast::ForInit::Decl(d) => match &d.kind {
                ast::DeclarationKind::Vars { declarators, .. } => {
                    match declarators.first().and_then(|i| i.init.as_ref()) {
                        Some(ast::Initializer::Expr(e)) => e,
                        _ => {
                            self.unsupported("loop variable has no initial value", s.span);
                            return None;
                        }
                    }
                }
                _ => return None,
            },
            ast::ForInit::Expr(e) => match &e.kind {
                ExprKind::Assign(None, _, r) => r,
                _ => {
                    self.unsupported("loop is not in canonical form (init)", e.span);
                    return None;
                }
            },
            ast::ForInit::None => {
                self.unsupported("loop is not in canonical form (no init)", s.span);
                return None;
            }
        };
        let Some(cond) = cond.as_deref() else {
            self.unsupported("loop is not in canonical form (no condition)", s.span);
            return None;
        };
        let is_var = |e: &Expr, typed: &ompcc_sema::TypedUnit| {
            let e = crate::expr::strip_parens(e);
            matches!(e.kind, ExprKind::Ident(_)) && typed.ident_symbols.get(&e.id) == Some(&var)
        };
        let c = crate::expr::strip_parens(cond);
        let (op, ub_e) = match &c.kind {
            ExprKind::Binary(op, l, r) if is_var(l, self.cx.typed) => (*op, &**r),
            ExprKind::Binary(op, l, r) if is_var(r, self.cx.typed) => {
                let swapped = match op {
                    BinaryOp::Lt => BinaryOp::Gt,
                    BinaryOp::Le => BinaryOp::Ge,
                    BinaryOp::Gt => BinaryOp::Lt,
                    BinaryOp::Ge => BinaryOp::Le,
                    o => *o,
                };
                (swapped, &**l)
            }
            _ => {
                self.unsupported("loop is not in canonical form (condition)", cond.span);
                return None;
            }
        };
        // step: +1, -1, or an expression with a sign
        let Some(step) = step.as_deref() else {
            self.unsupported("loop is not in canonical form (no increment)", s.span);
            return None;
        };
        let st = crate::expr::strip_parens(step);
        let (step_e, neg): (Option<&'a Expr>, bool) = match &st.kind {
            ExprKind::Unary(UnaryOp::PostInc | UnaryOp::PreInc, x) if is_var(x, self.cx.typed) => {
                (None, false)
            }
            ExprKind::Unary(UnaryOp::PostDec | UnaryOp::PreDec, x) if is_var(x, self.cx.typed) => {
                (None, true)
            }
            ExprKind::Assign(Some(BinaryOp::Add), x, r) if is_var(x, self.cx.typed) => {
                (Some(r), false)
            }
            ExprKind::Assign(Some(BinaryOp::Sub), x, r) if is_var(x, self.cx.typed) => {
                (Some(r), true)
            }
            ExprKind::Assign(None, x, r) if is_var(x, self.cx.typed) => {
                match &crate::expr::strip_parens(r).kind {
                    ExprKind::Binary(BinaryOp::Add, a, b) if is_var(a, self.cx.typed) => {
                        (Some(&**b), false)
                    }
                    ExprKind::Binary(BinaryOp::Add, a, b) if is_var(b, self.cx.typed) => {
                        (Some(&**a), false)
                    }
                    ExprKind::Binary(BinaryOp::Sub, a, b) if is_var(a, self.cx.typed) => {
                        (Some(&**b), true)
                    }
                    _ => {
                        self.unsupported("loop is not in canonical form (increment)", step.span);
                        return None;
                    }
                }
            }
            _ => {
                self.unsupported("loop is not in canonical form (increment)", step.span);
                return None;
            }
        };
        if !outer_vars.is_empty() {
            check(lb_e, &mut bad, self.cx.typed);
            check(ub_e, &mut bad, self.cx.typed);
            if let Some(e) = step_e {
                check(e, &mut bad, self.cx.typed);
            }
            if bad {
                self.unsupported(
                    "collapsed loops whose bounds depend on an outer loop variable are not supported on the device yet",
                    s.span,
                );
                return None;
            }
        }
        let long = Scalar::LONG;
        let lb = self.long_value(lb_e, cls)?;
        let ub = self.long_value(ub_e, cls)?;
        // Bounds and step of at most 32 bits: `ub' - lb + step - 1` cannot wrap in 64 bits.
        let mut small = cls.ty().bits() <= 32;
        let mut stepv = match step_e {
            Some(e) => {
                let ec = self.class_of_conv(e)?;
                small &= ec.ty().bits() <= 32;
                let v = self.scalar(e)?;
                self.convert(v, ec, long)
            }
            None => self.b.ins().iconst(Type::I64, 1),
        };
        if neg {
            stepv = self.b.ins().neg(stepv);
        }
        let one = self.b.ins().iconst(Type::I64, 1);
        let zero = self.b.ins().iconst(Type::I64, 0);
        // ascending: trip = ub' > lb ? (ub' - lb + st - 1) / st : 0 with ub' = ub (+1 for <=)
        let (asc, adj) = match op {
            BinaryOp::Lt => (true, 0),
            BinaryOp::Le => (true, 1),
            BinaryOp::Gt => (false, 0),
            BinaryOp::Ge => (false, 1),
            // `i != ub` is canonical with a unit step only (it fixes the direction)
            BinaryOp::Ne if step_e.is_none() => (!neg, 0),
            _ => {
                self.unsupported("loop is not in canonical form (comparison)", cond.span);
                return None;
            }
        };
        let trip = if asc {
            let ubp = if adj == 1 {
                self.b.ins().iadd(ub, one)
            } else {
                ub
            };
            let span_v = self.b.ins().isub(ubp, lb);
            // `step - 1` first: a constant, and 0 for unit steps, which then fold away
            let sm1 = self.b.ins().isub(stepv, one);
            let t = self.b.ins().iadd(span_v, sm1);
            let t = self.b.ins().sdiv(t, stepv);
            if small {
                // Nothing wraps: `t >= 1` exactly when `ub' > lb`, and `smax` keeps the trip
                // count's range `[0, ..]` in view of range analysis (a `select` on the test
                // would join `t`'s negative values in).
                self.b.ins().smax(t, zero)
            } else {
                let c = self.b.ins().icmp(IntCC::Sgt, ubp, lb);
                self.b.ins().select(c, t, zero)
            }
        } else {
            let ubp = if adj == 1 {
                self.b.ins().isub(ub, one)
            } else {
                ub
            };
            let m = self.b.ins().neg(stepv);
            let span_v = self.b.ins().isub(lb, ubp);
            let mm1 = self.b.ins().isub(m, one);
            let t = self.b.ins().iadd(span_v, mm1);
            let t = self.b.ins().sdiv(t, m);
            if small {
                self.b.ins().smax(t, zero)
            } else {
                let c = self.b.ins().icmp(IntCC::Sgt, lb, ubp);
                self.b.ins().select(c, t, zero)
            }
        };
        let _ = ub;
        Some((
            CanonLoop {
                var,
                cls,
                lb,
                step: stepv,
                trip,
            },
            body,
        ))
    }

    /// Whether the header (init, condition, increment) of the `for` loop `l` names one of
    /// `vars`.
    fn header_uses(&self, l: &'a Stmt, vars: &[SymbolId]) -> bool {
        let StmtKind::For(init, cond, step, _) = &l.kind else {
            return false;
        };
        let mut exprs: Vec<&Expr> = cond.iter().chain(step.iter()).map(|e| &**e).collect();
        match init {
            ast::ForInit::Expr(e) => exprs.push(e),
            ast::ForInit::Decl(d) => {
                if let ast::DeclarationKind::Vars { declarators, .. } = &d.kind {
                    for i in declarators {
                        if let Some(ast::Initializer::Expr(e)) = &i.init {
                            exprs.push(e);
                        }
                    }
                }
            }
            ast::ForInit::None => {}
        }
        let mut uses = false;
        for e in exprs {
            crate::walk::idents_of(e, &mut |id| {
                if let Some(s) = self.cx.typed.ident_symbols.get(&id) {
                    uses |= vars.contains(s);
                }
            });
        }
        uses
    }

    /// `e` converted to the loop variable's class, then widened to `i64`.
    pub(crate) fn long_value(&mut self, e: &'a Expr, cls: Scalar) -> Option<Value> {
        let ec = self.class_of_conv(e)?;
        let v = self.scalar(e)?;
        let v = self.convert(v, ec, cls);
        Some(self.convert(v, cls, Scalar::LONG))
    }

    /// Runs the iterations of a loop nest distributed over `who` (cyclically), with the
    /// directive's private copies; ends the copies (and synchronizes the team) afterwards.
    /// With a grid mapping (the plan's parallel loop swap), `outer` is the loop the threads
    /// take and each of its iterations runs the mapping's sequential loops around its body.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn distributed_loop(
        &mut self,
        d: &'a OmpDirective,
        outer: &'a Stmt,
        collapse: u32,
        who: Who,
        privs: Vec<Private<'a>>,
        tree: bool,
        grid: Option<ompcc_omp::GridMapping<'a>>,
    ) {
        let span = d.span;
        let tasks = self.taskloop_split.take();
        let loops = ompcc_omp::nest_loops(outer, collapse);
        if loops.len() < collapse as usize {
            self.unsupported(
                format!("collapse({collapse}) needs {collapse} perfectly nested 'for' loops"),
                span,
            );
            return;
        }
        let mut canon = Vec::new();
        let mut vars = Vec::new();
        let mut saved = Vec::new();
        let mut body = outer;
        let lastprivate = privs
            .iter()
            .any(|p| matches!(p.kind, PrivKind::Last | PrivKind::Linear));
        // With lastprivate and a non-rectangular nest, one worker runs every iteration in
        // order (any assignment is allowed without a schedule clause), so its copies end
        // with the values of the sequentially last iteration. A loop with an `ordered` clause,
        // an `inscan` or a user-defined reduction whose schedule leaves the assignment free
        // runs on one worker too (`in_order_loop`), so its `ordered` regions and `scan`
        // phases run in iteration order where they stand.
        let in_order = who != Who::Single && self.in_order_loop(d);
        let mut elected = in_order;
        // The grid mapping's sequential loops: bounds read once here (they use no variable of
        // the nest), variables private like the distributed loop's.
        let mut sequential = Vec::new();
        if let Some(g) = &grid {
            for l in &g.sequential {
                let Some((cl, _)) = self.canon_loop(l, &[]) else {
                    return;
                };
                let qt = self.cx.typed.symbols[cl.var].ty;
                if let Some(slot) = self.new_slot(qt, l.span) {
                    let align = self.align_of(qt);
                    saved.push((cl.var, self.locals.insert(cl.var, Local::Slot(slot, align))));
                }
                sequential.push(cl);
            }
        }
        // a triangular automatic collapse: the inner loop boxed over a distributed variable
        // (`GridMapping::box_over`), and its index among `canon`
        let mut boxed_inner = None;
        for (k, l) in loops.iter().enumerate() {
            let boxed = grid.as_ref().and_then(|g| g.box_over);
            let collapsed_box = boxed.filter(|v| k > 0 && vars.contains(v));
            if k > 0 && collapsed_box.is_none() && self.header_uses(l, &vars) {
                elected |= lastprivate;
                // A non-rectangular nest: this loop's bounds use an outer loop's variable.
                // The loops before it are distributed; it and the loops inside run whole in
                // each of their iterations, in order: every logical iteration runs once, on
                // one thread, and consecutive ones stay together, which the default schedule
                // allows. Their variables stay private. (With `lastprivate` the last logical
                // iteration could belong to any thread: one worker runs them all, `elected`.)
                for inner in &loops[k..] {
                    let Some(var) = ompcc_omp::loop_var(self.cx.typed, inner) else {
                        continue;
                    };
                    // a lastprivate inner variable runs in its lastprivate copy
                    if privs
                        .iter()
                        .any(|p| p.sym == var && p.kind == PrivKind::Last)
                    {
                        continue;
                    }
                    let qt = self.cx.typed.symbols[var].ty;
                    if let Some(slot) = self.new_slot(qt, inner.span) {
                        let align = self.align_of(qt);
                        saved.push((var, self.locals.insert(var, Local::Slot(slot, align))));
                    }
                }
                body = l;
                break;
            }
            let found = match (boxed, collapsed_box) {
                (_, Some(over)) => {
                    boxed_inner = Some((*l, k));
                    self.boxed_loop(l, over, &canon)
                }
                (Some(over), None) if k == 0 && sequential.iter().any(|c| c.var == over) => {
                    self.boxed_loop(l, over, &sequential)
                }
                _ => self.canon_loop(l, &vars),
            };
            let Some((cl, b)) = found else {
                return;
            };
            vars.push(cl.var);
            // the iteration variable is private
            let qt = self.cx.typed.symbols[cl.var].ty;
            if let Some(slot) = self.new_slot(qt, l.span) {
                let align = self.align_of(qt);
                saved.push((cl.var, self.locals.insert(cl.var, Local::Slot(slot, align))));
            }
            canon.push(cl);
            body = b;
        }
        if let Some(g) = &grid {
            body = g.body;
        }
        // Loop variables listed in lastprivate end with their value after the last iteration.
        let last_flag = if privs
            .iter()
            .any(|p| matches!(p.kind, PrivKind::Last | PrivKind::Linear))
        {
            let slot = self.b.create_stack_slot(1, 1);
            let a = self.slot_addr(slot, 1);
            let z = self.b.ins().iconst(Type::I8, 0);
            self.store_raw(a, z, false);
            Some(a)
        } else {
            None
        };
        let mut total = canon[0].trip;
        for c in &canon[1..] {
            total = self.b.ins().imul(total, c.trip);
        }
        let tasks = match tasks {
            // a taskloop splits its logical iterations, which `total` counts only when the
            // nest is rectangular; without a clause asking for a split, one task is a
            // number of tasks OpenMP allows
            Some(t) if canon.len() < loops.len() && !t.asked => None,
            Some(_) if canon.len() < loops.len() => {
                self.unsupported(
                    format!(
                        "'#pragma omp {}' with 'grainsize' or 'num_tasks' over a collapsed loop \
                         nest whose bounds use an outer iteration variable is not supported \
                         in device code yet",
                        d.kind.words().join(" ")
                    ),
                    span,
                );
                return;
            }
            Some(t) => Some(self.task_bounds(t, total)),
            None => None,
        };
        // `omp unroll partial(U)` as the loop: each distributed iteration of the generated
        // loop runs U consecutive original iterations (fewer in the last chunk), in a loop
        // the unroll pass unrolls by U. Without a count the factor is ours: 1, which keeps
        // adjacent threads on adjacent iterations (the per-thread loop is still unrolled by
        // the pass's own heuristics).
        let chunk = match ompcc_omp::nest_unroll(outer, collapse) {
            Some((_, u)) if collapse > 1 => {
                self.unsupported(
                    format!(
                        "'#pragma omp unroll partial' as the innermost loop of 'collapse({collapse})' is not supported yet"
                    ),
                    u.span,
                );
                return;
            }
            Some((_, u)) => match crate::hints::omp_unroll_hint(self.cx, u) {
                Some(ompcc_ir::LoopHint::Count(n)) => i64::from(n),
                _ => 1,
            },
            None => 1,
        };
        let (thread_policy, team_policy) = if who == Who::Single || in_order {
            (None, None)
        } else {
            self.loop_policies(d)
        };
        if elected && (thread_policy.is_some() || team_policy.is_some()) {
            self.unsupported(
                "'lastprivate' on a non-rectangular collapsed loop nest with a 'schedule' or \
                 'dist_schedule' clause is not supported in a target region yet",
                d.span,
            );
            return;
        }
        if (thread_policy.is_some() || team_policy.is_some()) && grid.is_some() {
            self.unsupported(
                "internal compiler error: a grid mapping on a loop with a schedule (lower::distributed_loop)",
                d.span,
            );
            return;
        }
        if thread_policy.is_some() || team_policy.is_some() {
            self.scheduled_iterations(
                who,
                (thread_policy, team_policy),
                total,
                chunk,
                &canon,
                (last_flag, &privs),
                body,
            );
        } else {
            let units = if chunk > 1 {
                let c1 = self.b.ins().iconst(Type::I64, chunk - 1);
                let c = self.b.ins().iconst(Type::I64, chunk);
                let t = self.b.ins().iadd(total, c1);
                self.b.ins().sdiv(t, c)
            } else {
                total
            };
            let coop = grid.as_ref().and_then(|g| g.cooperative);
            // a flattened row needs the warp's lanes on consecutive iterations of one loop
            let flat = coop.filter(|c| {
                c.flattened
                    && matches!(who, Who::Grid | Who::Team)
                    && !elected
                    && chunk == 1
                    && canon.len() == 1
                    && self.generic.is_none()
            });
            let coop = coop.filter(|c| !c.flattened);
            let one = self.one_iteration_loop(d, who)
                && tasks.is_none()
                && !elected
                && chunk == 1
                && flat.is_none()
                && coop.is_none()
                && boxed_inner.is_none()
                && grid.as_ref().is_none_or(|g| g.box_over.is_none());
            if one {
                let it = crate::one_iteration::OneIteration {
                    canon: &canon,
                    sequential: &sequential,
                    total,
                    body,
                    last_flag,
                };
                self.one_iteration(it, &privs);
            } else {
                let lane_groups = match coop {
                    Some(c) => {
                        let found = self.lane_groups(who, c.lanes, units);
                        if found.is_none() {
                            self.unsupported(
                            "internal compiler error: a cooperative loop outside a grid or team loop (lower::distributed_loop)",
                            d.span,
                        );
                            return;
                        }
                        found
                    }
                    None => None,
                };
                let (mut k0, mut g) = match lane_groups {
                    Some((k0, g, _)) => (k0, g),
                    None => self.who_range(who),
                };
                if elected {
                    // worker 0 starts at 0 with stride 1, the others past the end
                    let zero = self.b.ins().iconst(Type::I64, 0);
                    let first = self.b.ins().icmp(IntCC::Eq, k0, zero);
                    k0 = self.b.ins().select(first, zero, units);
                    g = self.b.ins().iconst(Type::I64, 1);
                }
                // A collapsed nest carries each loop's index as a digit of the iteration number in
                // the mixed radix of the trip counts: the digits of the first iteration and of the
                // stride are divided out once, and each step adds the stride's digits with carries,
                // instead of dividing the iteration number by the trip counts every iteration.
                let (digits0, stride_digits, safe_trips) = if canon.len() > 1 {
                    let one = self.b.ins().iconst(Type::I64, 1);
                    let zero = self.b.ins().iconst(Type::I64, 0);
                    // a zero trip count means no iteration runs: divide by 1 instead
                    let safe: Vec<Value> = canon
                        .iter()
                        .map(|c| {
                            let empty = self.b.ins().icmp(IntCC::Eq, c.trip, zero);
                            self.b.ins().select(empty, one, c.trip)
                        })
                        .collect();
                    let d0 = self.mixed_radix_digits(k0, &safe);
                    let dg = self.mixed_radix_digits(g, &safe);
                    (d0, dg, safe)
                } else {
                    (Vec::new(), Vec::new(), Vec::new())
                };
                let head = self.b.create_block();
                let k = self.b.append_block_param(head, Type::I64);
                let digits: Vec<Value> = digits0
                    .iter()
                    .map(|_| self.b.append_block_param(head, Type::I64))
                    .collect();
                let k_unit = k;
                let body_b = self.b.create_block();
                let step_b = self.b.create_block();
                let exit = self.b.create_block();
                let mut args = vec![k0];
                args.extend(&digits0);
                self.b.ins().jump(head, &args);
                self.b.switch_to_block(head);
                let more = if flat.is_some() {
                    self.warp_has_iteration(k, units)
                } else {
                    self.b.ins().icmp(IntCC::Slt, k, units)
                };
                self.b.ins().brif(more, body_b, &[], exit, &[]);
                self.b.switch_to_block(body_b);
                // The original iteration number, and where `continue` goes.
                let (k, cont) = if chunk > 1 {
                    let c = self.b.ins().iconst(Type::I64, chunk);
                    let base = self.b.ins().imul(k, c);
                    let left = self.b.ins().isub(total, base);
                    let short = self.b.ins().icmp(IntCC::Slt, left, c);
                    let m = self.b.ins().select(short, left, c);
                    let ihead = self.b.create_block();
                    let j = self.b.append_block_param(ihead, Type::I64);
                    let ibody = self.b.create_block();
                    let istep = self.b.create_block();
                    let zero = self.b.ins().iconst(Type::I64, 0);
                    self.b.ins().jump(ihead, &[zero]);
                    self.b.switch_to_block(ihead);
                    let more = self.b.ins().icmp(IntCC::Slt, j, m);
                    self.b.ins().brif(more, ibody, &[], step_b, &[]);
                    self.b.func.loop_hints[ihead] =
                        u32::try_from(chunk).ok().map(ompcc_ir::LoopHint::Count);
                    self.b.switch_to_block(istep);
                    let one = self.b.ins().iconst(Type::I64, 1);
                    let jn = self.b.ins().iadd(j, one);
                    self.b.ins().jump(ihead, &[jn]);
                    self.b.switch_to_block(ibody);
                    (self.b.ins().iadd(base, j), istep)
                } else {
                    (k, step_b)
                };
                let mut values = Vec::new();
                for (i, c) in canon.iter().enumerate() {
                    let idx = if digits.is_empty() { k } else { digits[i] };
                    values.push(self.set_loop_var(c, idx));
                }
                self.set_linear(&privs, k);
                if let Some(flag) = last_flag {
                    self.mark_if_last(flag, k, total);
                }
                if let Some(t) = &tasks {
                    self.start_task_at(t, k);
                }
                self.breaks.push(exit);
                self.continues.push(cont);
                self.loop_runs
                    .push(if in_order { Who::Single } else { who });
                // a boxed (triangular) loop checks its value against the current range
                let guard = match boxed_inner {
                    Some((l, i)) => Some((l, values[i])),
                    None => grid
                        .as_ref()
                        .filter(|g| g.box_over.is_some())
                        .map(|g| (g.threaded, values[0])),
                };
                if let Some(c) = flat {
                    self.flattened_body(body, c, k, units);
                } else if let (Some(c), Some((_, _, grp))) = (coop, lane_groups) {
                    self.cooperative_body(body, c, grp);
                } else {
                    // `None`: a loop's bounds could not be lowered (reported)
                    let _ = self.sequential_nest(&sequential, body, guard);
                }
                self.loop_runs.pop();
                self.breaks.pop();
                self.continues.pop();
                self.jump_to(cont);
                self.b.switch_to_block(step_b);
                let next = self.b.ins().iadd(k_unit, g);
                let mut args = vec![next];
                args.extend(self.add_mixed_radix(&digits, &stride_digits, &safe_trips));
                self.b.ins().jump(head, &args);
                self.b.switch_to_block(exit);
            }
        }
        // lastprivate loop variables: the value after the sequentially last increment
        if let Some(flag) = last_flag {
            for c in &canon {
                if !privs
                    .iter()
                    .any(|p| p.sym == c.var && p.kind == PrivKind::Last)
                {
                    continue;
                }
                let f = self.load_raw(flag, Type::I8, false);
                let zero = self.b.ins().iconst(Type::I8, 0);
                let is = self.b.ins().icmp(IntCC::Ne, f, zero);
                let then_b = self.b.create_block();
                let join = self.b.create_block();
                self.b.ins().brif(is, then_b, &[], join, &[]);
                self.b.switch_to_block(then_b);
                let off = self.b.ins().imul(c.trip, c.step);
                let v = self.b.ins().iadd(c.lb, off);
                let v = self.convert(v, Scalar::LONG, c.cls);
                // `saved` holds the binding before the loop's own slot: the lastprivate copy.
                if let Some((_, Some(Local::Slot(slot, align)))) =
                    saved.iter().find(|(s, _)| *s == c.var).copied()
                {
                    let a = self.slot_addr(slot, align);
                    self.store_raw(a, v, false);
                }
                self.b.ins().jump(join, &[]);
                self.b.switch_to_block(join);
            }
        }
        for (s, old) in saved.into_iter().rev() {
            match old {
                Some(l) => {
                    self.locals.insert(s, l);
                }
                None => {
                    self.locals.remove(&s);
                }
            }
        }
        self.end_privates(privs, tree, last_flag);
    }

    /// Stores the value of loop `c`'s variable in logical iteration `idx` (`lb + idx * step`)
    /// in the variable's private slot; returns it as an `i64`.
    pub(crate) fn set_loop_var(&mut self, c: &CanonLoop, idx: Value) -> Value {
        let off = self.b.ins().imul(idx, c.step);
        let wide = self.b.ins().iadd(c.lb, off);
        let iv = self.convert(wide, Scalar::LONG, c.cls);
        if let Some(Local::Slot(slot, align)) = self.locals.get(&c.var).copied() {
            let a = self.slot_addr(slot, align);
            self.store_raw(a, iv, false);
        }
        wide
    }

    /// A triangular loop `l` (step ±1) whose bounds use the variable `over` of one of `seq`:
    /// the bounding box of its ranges at `over`'s first and last values (affine bounds are
    /// monotone in `over`, so every range lies inside), empty when `over`'s loop is.
    fn boxed_loop(
        &mut self,
        l: &'a Stmt,
        over: SymbolId,
        seq: &[CanonLoop],
    ) -> Option<(CanonLoop, &'a Stmt)> {
        let Some(o) = seq.iter().find(|c| c.var == over) else {
            self.unsupported(
                "internal compiler error: the loop a grid box is over is not sequential (lower::boxed_loop)",
                l.span,
            );
            return None;
        };
        let zero = self.b.ins().iconst(Type::I64, 0);
        let one = self.b.ins().iconst(Type::I64, 1);
        let last = self.b.ins().isub(o.trip, one);
        let any = self.b.ins().icmp(IntCC::Sgt, o.trip, zero);
        let last = self.b.ins().select(any, last, zero);
        let mut ends = Vec::new();
        let mut found = None;
        for idx in [zero, last] {
            self.set_loop_var(o, idx);
            let (c, body) = self.canon_loop(l, &[])?;
            let span = self.b.ins().imul(c.trip, c.step);
            let end = self.b.ins().iadd(c.lb, span);
            ends.push((c.lb, end));
            found = Some((c, body));
        }
        let (c, body) = found?;
        // ascending: [min lb, max end); descending: [max lb, min end)
        let up = self.b.ins().icmp(IntCC::Sgt, c.step, zero);
        let lo_min = self.b.ins().smin(ends[0].0, ends[1].0);
        let lo_max = self.b.ins().smax(ends[0].0, ends[1].0);
        let end_min = self.b.ins().smin(ends[0].1, ends[1].1);
        let end_max = self.b.ins().smax(ends[0].1, ends[1].1);
        let lb = self.b.ins().select(up, lo_min, lo_max);
        let end = self.b.ins().select(up, end_max, end_min);
        let width = self.b.ins().isub(end, lb);
        let trip = self.b.ins().imul(width, c.step);
        let pos = self.b.ins().icmp(IntCC::Sgt, trip, zero);
        let trip = self.b.ins().select(pos, trip, zero);
        let trip = self.b.ins().select(any, trip, zero);
        Some((
            CanonLoop {
                var: c.var,
                cls: c.cls,
                lb,
                step: c.step,
                trip,
            },
            body,
        ))
    }

    /// `body` inside the counted loops `seq` (outermost first), each iteration storing its
    /// variable's value in the variable's slot; a `continue` in `body` goes to the innermost
    /// loop's next iteration. No loops: `body` alone. `guard`: a boxed loop and its variable's
    /// value (`i64`), which must lie in the range the loop's bounds give at the innermost
    /// point, else the body is skipped there.
    pub(crate) fn sequential_nest(
        &mut self,
        seq: &[CanonLoop],
        body: &'a Stmt,
        guard: Option<(&'a Stmt, Value)>,
    ) -> Option<()> {
        let Some((c, rest)) = seq.split_first() else {
            // a boxed loop of the distributed nest itself: the check around the body
            let skip = match guard {
                Some((l, v)) => {
                    let inside = self.in_range(l, v)?;
                    let run = self.b.create_block();
                    let skip = self.b.create_block();
                    self.b.ins().brif(inside, run, &[], skip, &[]);
                    self.b.switch_to_block(run);
                    Some(skip)
                }
                None => None,
            };
            self.stmt(body);
            if let Some(skip) = skip {
                self.jump_to(skip);
                self.b.switch_to_block(skip);
            }
            return Some(());
        };
        let head = self.b.create_block();
        let k = self.b.append_block_param(head, Type::I64);
        let body_b = self.b.create_block();
        let step_b = self.b.create_block();
        let exit = self.b.create_block();
        let zero = self.b.ins().iconst(Type::I64, 0);
        self.b.ins().jump(head, &[zero]);
        self.b.switch_to_block(head);
        let more = self.b.ins().icmp(IntCC::Slt, k, c.trip);
        self.b.ins().brif(more, body_b, &[], exit, &[]);
        self.b.switch_to_block(body_b);
        self.set_loop_var(c, k);
        if rest.is_empty() {
            if let Some((l, v)) = guard {
                let inside = self.in_range(l, v)?;
                let run = self.b.create_block();
                self.b.ins().brif(inside, run, &[], step_b, &[]);
                self.b.switch_to_block(run);
            }
            self.continues.push(step_b);
            self.stmt(body);
            self.continues.pop();
        } else {
            self.sequential_nest(rest, body, guard)?;
        }
        self.jump_to(step_b);
        self.b.switch_to_block(step_b);
        let one = self.b.ins().iconst(Type::I64, 1);
        let next = self.b.ins().iadd(k, one);
        self.b.ins().jump(head, &[next]);
        self.b.switch_to_block(exit);
        Some(())
    }

    /// Whether `v` (`i64`) is a value the canonical loop `l` (step ±1) takes with its bounds
    /// evaluated now: its logical iteration `(v - lb) * step` is below the trip count.
    fn in_range(&mut self, l: &'a Stmt, v: Value) -> Option<Value> {
        let (r, _) = self.canon_loop(l, &[])?;
        let d = self.b.ins().isub(v, r.lb);
        let it = self.b.ins().imul(d, r.step);
        Some(self.b.ins().icmp(IntCC::Ult, it, r.trip))
    }

    /// The iterations of a loop with a `schedule` or `dist_schedule` clause (module
    /// `schedule`): chunks for the teams (Grid, Teams), then for the threads of each team
    /// (Grid, Team), then each iteration of the chunk in order, its variables recovered by
    /// division. `unroll` is an `omp unroll partial` factor: the scheduled iterations are its
    /// generated loop's, so a chunk of `c` holds `c * unroll` original iterations.
    #[allow(clippy::too_many_arguments)]
    fn scheduled_iterations(
        &mut self,
        who: Who,
        (threads, teams): (Option<Policy>, Option<Policy>),
        total: Value,
        unroll: i64,
        canon: &[CanonLoop],
        (last_flag, privs): (Option<crate::func::Addr>, &[Private<'a>]),
        body: &'a Stmt,
    ) {
        let scale = |fl: &mut Self, p: Policy| match p {
            Policy::Cyclic(c) if unroll > 1 => {
                let u = fl.b.ins().iconst(Type::I64, unroll);
                Policy::Cyclic(fl.b.ins().imul(c, u))
            }
            p => p,
        };
        let zero = self.b.ins().iconst(Type::I64, 0);
        let mut open = Vec::new();
        let (mut lo, mut hi) = (zero, total);
        if matches!(who, Who::Grid | Who::Teams) {
            let p = teams.unwrap_or(Policy::Block);
            let p = scale(self, p);
            let (me, n) = self.who_range(Who::Teams);
            let l = self.chunk_loop_open(lo, hi, me, n, p);
            (lo, hi) = (l.a, l.b);
            open.push(l);
        }
        if matches!(who, Who::Grid | Who::Team) {
            let one = self.b.ins().iconst(Type::I64, 1);
            let p = threads.unwrap_or(Policy::Cyclic(one));
            let p = scale(self, p);
            let (me, n) = self.who_range(Who::Team);
            let l = self.chunk_loop_open(lo, hi, me, n, p);
            (lo, hi) = (l.a, l.b);
            open.push(l);
        }
        // the chunk's iterations, in order
        let head = self.b.create_block();
        let k = self.b.append_block_param(head, Type::I64);
        let body_b = self.b.create_block();
        let step_b = self.b.create_block();
        let exit = self.b.create_block();
        self.b.ins().jump(head, &[lo]);
        self.b.switch_to_block(head);
        let more = self.b.ins().icmp(IntCC::Slt, k, hi);
        self.b.ins().brif(more, body_b, &[], exit, &[]);
        self.b.switch_to_block(body_b);
        let mut rest = k;
        let mut idx = vec![k; canon.len()];
        for i in (1..canon.len()).rev() {
            let q = self.b.ins().udiv(rest, canon[i].trip);
            idx[i] = self.b.ins().urem(rest, canon[i].trip);
            rest = q;
        }
        idx[0] = rest;
        for (c, i) in canon.iter().zip(idx) {
            self.set_loop_var(c, i);
        }
        self.set_linear(privs, k);
        if let Some(flag) = last_flag {
            self.mark_if_last(flag, k, total);
        }
        self.breaks.push(exit);
        self.continues.push(step_b);
        self.loop_runs.push(who);
        self.stmt(body);
        self.loop_runs.pop();
        self.breaks.pop();
        self.continues.pop();
        self.jump_to(step_b);
        self.b.switch_to_block(step_b);
        let one = self.b.ins().iconst(Type::I64, 1);
        let kn = self.b.ins().iadd(k, one);
        self.b.ins().jump(head, &[kn]);
        self.b.switch_to_block(exit);
        while let Some(l) = open.pop() {
            self.chunk_loop_close(l);
        }
    }

    /// The binding of a `loop` construct's `bind` clause as written (`thread`, `parallel`,
    /// `teams`).
    fn loop_bind(&self, d: &OmpDirective) -> Option<&'static str> {
        d.clauses.iter().find_map(|c| match &c.kind {
            OmpClauseKind::Keyword(k) if c.name == C::Bind => {
                match self.cx.tu.symbols.resolve(k.name) {
                    "thread" => Some("thread"),
                    "parallel" => Some("parallel"),
                    "teams" => Some("teams"),
                    _ => None,
                }
            }
            _ => None,
        })
    }

    /// The digits of `v >= 0` in the mixed radix `radix` (outermost first; the outermost
    /// digit is unbounded).
    pub(crate) fn mixed_radix_digits(&mut self, v: Value, radix: &[Value]) -> Vec<Value> {
        let mut out = vec![v; radix.len()];
        let mut rest = v;
        for i in (1..radix.len()).rev() {
            // quotient first: `divrem` then computes the remainder from it
            let q = self.b.ins().udiv(rest, radix[i]);
            out[i] = self.b.ins().urem(rest, radix[i]);
            rest = q;
        }
        out[0] = rest;
        out
    }

    /// `a + b` digit by digit in the mixed radix `radix`, where every digit but the outermost
    /// is below its radix, so each carry is 0 or 1.
    fn add_mixed_radix(&mut self, a: &[Value], b: &[Value], radix: &[Value]) -> Vec<Value> {
        let mut out = Vec::with_capacity(a.len());
        let mut carry = None;
        for i in (0..a.len()).rev() {
            let mut s = self.b.ins().iadd(a[i], b[i]);
            if let Some(c) = carry {
                s = self.b.ins().iadd(s, c);
            }
            if i > 0 {
                let wrap = self.b.ins().icmp(IntCC::Sge, s, radix[i]);
                let zero = self.b.ins().iconst(Type::I64, 0);
                let one = self.b.ins().iconst(Type::I64, 1);
                let sub = self.b.ins().select(wrap, radix[i], zero);
                s = self.b.ins().isub(s, sub);
                carry = Some(self.b.ins().select(wrap, one, zero));
            }
            out.push(s);
        }
        out.reverse();
        out
    }

    /// `get`'s `i32` value widened to `i64`.
    fn zext_i64(&mut self, get: fn(&mut Self) -> Value) -> Value {
        let v = get(self);
        self.b.ins().zext(Type::I64, v)
    }

    /// First index and stride of a distributed loop, as `i64`.
    pub(crate) fn who_range(&mut self, who: Who) -> (Value, Value) {
        let r = |fl: &mut Self, r: SpecialReg| {
            let v = fl.b.ins().sreg(r);
            fl.b.ins().zext(Type::I64, v)
        };
        // The team of a forked sized construct is its active threads (module `generic`).
        let team = |fl: &mut Self| match fl.generic.as_ref().and_then(|t| t.active) {
            Some(n) => fl.b.ins().zext(Type::I64, n),
            None => r(fl, SpecialReg::NtidX),
        };
        match who {
            Who::Grid => {
                let (c, n, t, nc) = (
                    Self::zext_i64(self, Self::team_num),
                    team(self),
                    r(self, SpecialReg::TidX),
                    Self::zext_i64(self, Self::num_teams),
                );
                let base = self.b.ins().imul(c, n);
                let k0 = self.b.ins().iadd(base, t);
                let g = self.b.ins().imul(nc, n);
                (k0, g)
            }
            Who::Team => (r(self, SpecialReg::TidX), team(self)),
            Who::Teams => (
                Self::zext_i64(self, Self::team_num),
                Self::zext_i64(self, Self::num_teams),
            ),
            Who::Single => (
                self.b.ins().iconst(Type::I64, 0),
                self.b.ins().iconst(Type::I64, 1),
            ),
        }
    }

    /// Runs a loop-associated construct's loop in order on this thread, with its private
    /// copies.
    pub(crate) fn sequential_loop(&mut self, d: &'a OmpDirective) {
        let mut privs = Vec::new();
        self.privatize(d, true, false, &mut privs);
        let Some(body) = d.body.as_deref() else {
            return;
        };
        let collapse = ompcc_omp::collapse_of(self.cx.typed, d);
        // The same iteration variables, lastprivate values and reductions as a distributed
        // loop, over this one thread.
        self.distributed_loop(d, body, collapse, Who::Single, privs, false, None);
    }

    // ----- constructs -----

    /// Lowers an OpenMP construct inside a kernel (`icv::omp_construct` wraps it in the
    /// construct's ICV data environment).
    pub(crate) fn omp_construct_inner(&mut self, d: &'a OmpDirective) {
        let par = self.par;
        let body = d.body.as_deref();
        match d.kind {
            _ if par.main && self.generic.is_some() && ompcc_omp::forkable(d) => self.fork_team(d),
            K::Parallel | K::ParallelMaster | K::ParallelMasked | K::ParallelSections => {
                self.shared_scopes.push(self.locals.clone());
                let mut privs = Vec::new();
                self.privatize(d, true, false, &mut privs);
                self.par = Par {
                    split: Split::Alone,
                    threads: false,
                    league: par.league,
                    main: false,
                };
                if let Some(b) = body {
                    self.stmt(b);
                }
                self.par = par;
                self.ensure_open();
                self.end_privates(privs, false, None);
                self.shared_scopes.pop();
            }
            K::ParallelFor | K::ParallelForSimd | K::ParallelLoop => {
                self.par = Par {
                    split: Split::Alone,
                    threads: false,
                    league: par.league,
                    main: false,
                };
                self.shared_scopes.push(self.locals.clone());
                self.sequential_loop(d);
                self.shared_scopes.pop();
                self.par = par;
            }
            K::Task => self.undeferred_task(d),
            K::Dispatch => self.dispatch(d),
            K::Taskloop | K::TaskloopSimd => self.taskloop(d),
            // In a loop run in order, the scan phases are the statements as they stand: the
            // shared item holds the running value (`in_order_loop`).
            K::Scan => {
                if self.loop_runs.last() != Some(&Who::Single) {
                    self.unsupported(
                        "'#pragma omp scan' in a loop whose iterations run on several threads \
                         (a static 'schedule' or 'dist_schedule') is not supported in a target \
                         region yet",
                        d.span,
                    );
                }
            }
            K::Ordered => match self.loop_runs.last() {
                // In a loop run in order, the ordered region is simply its body.
                Some(Who::Single) => {
                    if let Some(b) = body {
                        self.stmt(b);
                    }
                }
                _ => self.unsupported(
                    "'#pragma omp ordered' in a loop whose iterations run on several threads is \
                     not supported in a target region yet",
                    d.span,
                ),
            },
            // `bind(thread)`: every thread runs all iterations; `bind(parallel)` directly in a
            // teams region binds to each team's initial thread, which runs them all too
            K::Loop
                if self.loop_bind(d) == Some("thread")
                    || (par.split == Split::TeamsLevel
                        && self.loop_bind(d) == Some("parallel")) =>
            {
                self.sequential_loop(d);
            }
            K::Loop if par.split == Split::TeamsLevel => {
                // `loop` bound to the teams region: the teams share the iterations.
                let mut privs = Vec::new();
                self.privatize(d, true, false, &mut privs);
                let Some(b) = body else { return };
                let collapse = ompcc_omp::collapse_of(self.cx.typed, d);
                self.par = Par {
                    split: Split::Alone,
                    threads: false,
                    league: par.league,
                    main: par.main,
                };
                self.distributed_loop(d, b, collapse, Who::Teams, privs, false, None);
                self.par = par;
            }
            K::For | K::ForSimd | K::Loop | K::Simd => {
                if par.split == Split::Team && d.kind != K::Simd {
                    let mut privs = Vec::new();
                    self.privatize(d, true, false, &mut privs);
                    let Some(b) = body else { return };
                    let collapse = ompcc_omp::collapse_of(self.cx.typed, d);
                    self.distributed_loop(d, b, collapse, Who::Team, privs, false, None);
                    if !d.clauses.iter().any(|c| c.name == C::Nowait) {
                        self.b.ins().barrier();
                    }
                } else {
                    self.sequential_loop(d);
                }
            }
            K::Distribute
            | K::DistributeSimd
            | K::DistributeParallelFor
            | K::DistributeParallelForSimd => {
                if par.split == Split::TeamsLevel {
                    let mut privs = Vec::new();
                    self.privatize(d, true, false, &mut privs);
                    let Some(b) = body else { return };
                    let collapse = ompcc_omp::collapse_of(self.cx.typed, d);
                    self.par = Par {
                        split: Split::Alone,
                        threads: false,
                        league: par.league,
                        main: par.main,
                    };
                    self.distributed_loop(d, b, collapse, Who::Teams, privs, false, None);
                    self.par = par;
                } else {
                    self.sequential_loop(d);
                }
            }
            K::Single | K::Sections => {
                let mut privs = Vec::new();
                self.privatize(d, false, false, &mut privs);
                if par.split == Split::Team {
                    let t = self.b.ins().sreg(SpecialReg::TidX);
                    let zero = self.b.ins().iconst(Type::I32, 0);
                    let c = self.b.ins().icmp(IntCC::Eq, t, zero);
                    let then_b = self.b.create_block();
                    let join = self.b.create_block();
                    self.b.ins().brif(c, then_b, &[], join, &[]);
                    self.b.switch_to_block(then_b);
                    self.par = Par {
                        split: Split::Alone,
                        threads: true,
                        league: par.league,
                        main: false,
                    };
                    if let Some(b) = body {
                        self.stmt(b);
                    }
                    self.par = par;
                    self.jump_to(join);
                    self.b.switch_to_block(join);
                    self.end_privates(privs, false, None);
                    if !d.clauses.iter().any(|c| c.name == C::Nowait) {
                        self.b.ins().barrier();
                    }
                } else {
                    if let Some(b) = body {
                        self.stmt(b);
                    }
                    self.ensure_open();
                    self.end_privates(privs, false, None);
                }
            }
            K::Scope => {
                // Every thread of the team runs the block with its own private copies; the
                // reductions combine into the shared originals, seen by all after the barrier.
                let mut privs = Vec::new();
                self.privatize(d, false, false, &mut privs);
                if let Some(b) = body {
                    self.stmt(b);
                }
                self.ensure_open();
                self.end_privates(privs, false, None);
                if par.split == Split::Team && !d.clauses.iter().any(|c| c.name == C::Nowait) {
                    self.b.ins().barrier();
                }
            }
            K::Section => {
                if let Some(b) = body {
                    self.stmt(b);
                }
            }
            K::Master | K::Masked => {
                let filter = d.clauses.iter().find_map(|c| match (&c.kind, c.name) {
                    (OmpClauseKind::Expr(e), C::Filter) => Some(&**e),
                    _ => None,
                });
                let me = self.thread_num();
                let want = match filter {
                    Some(e) => {
                        let Some(ec) = self.class_of_conv(e) else {
                            return;
                        };
                        let Some(v) = self.scalar(e) else { return };
                        self.convert(v, ec, Scalar::INT)
                    }
                    None => self.b.ins().iconst(Type::I32, 0),
                };
                let c = self.b.ins().icmp(IntCC::Eq, me, want);
                let then_b = self.b.create_block();
                let join = self.b.create_block();
                self.b.ins().brif(c, then_b, &[], join, &[]);
                self.b.switch_to_block(then_b);
                if let Some(b) = body {
                    self.stmt(b);
                }
                self.jump_to(join);
                self.b.switch_to_block(join);
            }
            K::Barrier => {
                if par.split == Split::Team {
                    self.b.ins().barrier();
                }
            }
            K::Taskwait | K::Taskyield => {}
            K::Unsupported if informational_only(d) => {}
            K::Taskgroup => self.taskgroup(d, par),
            K::Critical => self.critical(d),
            _ => self.unsupported(
                format!(
                    "'#pragma omp {}' is not supported in a target region yet",
                    d.name()
                ),
                d.span,
            ),
        }
    }

    /// An OpenMP construct in a device function, whose callers' teams are not known here.
    ///
    /// A `parallel` region there is serialized: it runs on the encountering thread as a team
    /// of one, which OpenMP allows for any parallel region (a nested one is inactive anyway,
    /// and the number of threads a region gets may be fewer than requested), so its own
    /// worksharing constructs run in order. An orphaned worksharing construct or barrier binds
    /// to the caller's team, which may be one thread or a whole block: it is rejected rather
    /// than guessed. An orphaned `distribute` binds to the caller's league, whose teams are
    /// the grid's blocks, so it divides its iterations by block.
    pub(crate) fn device_function_construct(&mut self, d: &'a OmpDirective) {
        let words = d.kind.words().join(" ");
        match d.kind {
            K::Parallel
            | K::ParallelFor
            | K::ParallelForSimd
            | K::ParallelLoop
            | K::ParallelSections
            | K::ParallelMaster
            | K::ParallelMasked
            | K::Simd
            | K::Critical
            | K::Task
            | K::Taskloop
            | K::TaskloopSimd
            | K::Taskwait
            | K::Taskyield
            | K::Taskgroup
            | K::Dispatch
            | K::Ordered => self.omp_construct(d),
            K::Unsupported if informational_only(d) => {}
            // Orphaned in a function a `teams` region calls: the encountering thread of each
            // team (its initial thread, as OpenMP requires) runs the team's share.
            K::Distribute | K::DistributeSimd => {
                let mut privs = Vec::new();
                self.privatize(d, true, false, &mut privs);
                let Some(b) = d.body.as_deref() else { return };
                let collapse = ompcc_omp::collapse_of(self.cx.typed, d);
                // no grid-mapping decision outside a region: the loops run as written
                self.distributed_loop(d, b, collapse, Who::Teams, privs, false, None);
            }
            _ if d.kind.words().first() == Some(&"target") => self.unsupported(
                format!(
                    "'#pragma omp {words}' cannot be used in a device function: a target region \
                     cannot contain another target construct"
                ),
                d.span,
            ),
            K::For
            | K::ForSimd
            | K::Loop
            | K::Sections
            | K::Single
            | K::Scope
            | K::Master
            | K::Masked
            | K::Barrier => self.unsupported(
                format!(
                    "orphaned '#pragma omp {words}' in a device function is not supported yet \
                     (it binds to the caller's team); put it inside the function's own \
                     '#pragma omp parallel'"
                ),
                d.span,
            ),
            _ => self.unsupported(
                format!(
                    "'#pragma omp {}' inside a device function is not supported yet",
                    d.name()
                ),
                d.span,
            ),
        }
    }
}

impl FnLower<'_, '_, '_> {
    /// Whether loop directive `d` runs in order on one worker: it has an `ordered` clause
    /// (without a doacross depth), an `inscan` reduction or a user-defined reduction, and a
    /// schedule that fixes no assignment of iterations: none, `dynamic`, `guided`, `auto` or
    /// `runtime`, and no `dist_schedule`. Such schedules leave the assignment to the implementation (OpenMP 5.2
    /// 11.5.3), so one worker may run every iteration, and the loop's `ordered` regions and
    /// `scan` phases need no hand-off between threads.
    pub(crate) fn in_order_loop(&self, d: &OmpDirective) -> bool {
        use ompcc_syntax::ast::ScheduleKind;
        let mut in_order = false;
        for c in &d.clauses {
            match (&c.kind, c.name) {
                (OmpClauseKind::Schedule { kind, .. }, _) if *kind == ScheduleKind::Static => {
                    return false;
                }
                (_, C::DistSchedule) => return false,
                (OmpClauseKind::Flag, C::Ordered) => in_order = true,
                (OmpClauseKind::UserReduction { .. }, C::Reduction) => in_order = true,
                (_, C::Ordered) => return false,
                _ if self.inscan(c) => in_order = true,
                _ => {}
            }
        }
        in_order
    }
}

/// Directives that change nothing a device runs: `nothing` (OpenMP 5.1), and `assume` /
/// `assumes`, whose assumptions ompcc does not use (the statement after an `assume` is
/// lowered as an ordinary statement, which is what it is without the hint).
fn informational_only(d: &OmpDirective) -> bool {
    matches!(
        d.unsupported_name,
        ["nothing"] | ["assume"] | ["assumes"] | ["begin", "assumes"] | ["end", "assumes"]
    )
}
