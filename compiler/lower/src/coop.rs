//! Warp-cooperative inner loops (the plan's `Cooperative`, issue 16 item 4): each iteration
//! of the threaded loop goes to a group of lanes of one warp instead of one thread. The group
//! runs the body's leading declarations on every lane, shares the inner reduction loop
//! (lane `l` takes its iterations `l, l + width, ...`, into a private partial value started at
//! the operator's identity), combines the partials by butterfly shuffles among the group's
//! lanes and into the variable's value before the loop, and lane 0 runs the rest of the body.
//!
//! An ordered group (`Cooperative::ordered`) keeps the loop's order instead: for each run of
//! `width` consecutive iterations, lane `l` evaluates the term `e` of the body's update
//! `var op= e` for the run's iteration `l`, and every lane applies the run's terms to `var`
//! in order, each read from its lane by an indexed shuffle; all lanes end with the value the
//! loop gives.
//!
//! Groups are `lanes` wide, a power of two dividing 32, so a group never spans warps; a team
//! narrower than that runs groups of one lane (each thread its own iteration, as without the
//! mapping). Threads past the last whole group of a team take no iteration.

use crate::func::{FnLower, Local};
use crate::kernel::Who;
use ompcc_diag::Span;
use ompcc_ir::{IntCC, ShuffleMode, SpecialReg, Type, Value};
use ompcc_omp::Cooperative;
use ompcc_sema::SymbolId;
use ompcc_syntax::ast::{BinaryOp, BlockItem, Expr, ExprKind, ReductionOp, Stmt, StmtKind};

use crate::ty::Scalar;

/// One thread's place in its lane group (all `i32`).
#[derive(Clone, Copy)]
pub(crate) struct LaneGroup {
    /// The lane in the group, from 0.
    lane: Value,
    /// The group's width at run time: `lanes`, or 1 in a team narrower than that.
    width: Value,
    /// The warp's lanes of the group, for the shuffles' member mask.
    mask: Value,
    /// The warp lane of the group's lane 0.
    first: Value,
}

impl<'c, 'a, 'f> FnLower<'c, 'a, 'f> {
    /// The first group index and the stride of groups for `who` (the grid or the team), and
    /// this thread's place in its group; `units` for a thread past the team's last whole group.
    pub(crate) fn lane_groups(
        &mut self,
        who: Who,
        lanes: u32,
        units: Value,
    ) -> Option<(Value, Value, LaneGroup)> {
        if !matches!(who, Who::Grid | Who::Team) {
            return None;
        }
        let tid = self.b.ins().sreg(SpecialReg::TidX);
        let ntid = self.b.ins().sreg(SpecialReg::NtidX);
        let l = self.b.ins().iconst(Type::I32, i64::from(lanes));
        let one = self.b.ins().iconst(Type::I32, 1);
        let wide = self.b.ins().icmp(IntCC::Uge, ntid, l);
        let width = self.b.ins().select(wide, l, one);
        let per_team = self.b.ins().udiv(ntid, width);
        let gi = self.b.ins().udiv(tid, width);
        let lane = self.b.ins().urem(tid, width);
        // the group's lanes of the warp: `width` bits from its first lane
        let laneid = self.b.ins().sreg(SpecialReg::Laneid);
        let off = self.b.ins().urem(laneid, width);
        let first = self.b.ins().isub(laneid, off);
        let one64 = self.b.ins().iconst(Type::I64, 1);
        let w64 = self.b.ins().zext(Type::I64, width);
        let bits = self.b.ins().shl(one64, w64);
        let ones = self.b.ins().isub(bits, one64);
        let f64_ = self.b.ins().zext(Type::I64, first);
        let m = self.b.ins().shl(ones, f64_);
        let mask = self.b.ins().trunc(Type::I32, m);
        let per_team = self.b.ins().zext(Type::I64, per_team);
        let gi64 = self.b.ins().zext(Type::I64, gi);
        let (k0, g) = if who == Who::Grid {
            let c = self.b.ins().sreg(SpecialReg::CtaidX);
            let c = self.b.ins().zext(Type::I64, c);
            let nc = self.b.ins().sreg(SpecialReg::NctaidX);
            let nc = self.b.ins().zext(Type::I64, nc);
            let base = self.b.ins().imul(c, per_team);
            (
                self.b.ins().iadd(base, gi64),
                self.b.ins().imul(nc, per_team),
            )
        } else {
            (gi64, per_team)
        };
        let idle = self.b.ins().icmp(IntCC::Uge, gi64, per_team);
        let k0 = self.b.ins().select(idle, units, k0);
        Some((
            k0,
            g,
            LaneGroup {
                lane,
                width,
                mask,
                first,
            },
        ))
    }

    /// The threaded loop's `body` (a compound statement) with its inner loop shared by the
    /// lanes of `grp` (module header).
    pub(crate) fn cooperative_body(
        &mut self,
        body: &'a Stmt,
        coop: Cooperative<'a>,
        grp: LaneGroup,
    ) {
        let Some((before, after)) = self.around_inner_loop(body, &coop, "cooperative_body") else {
            return;
        };
        self.depth += 1;
        self.block_items(before);
        self.cooperative_loop(coop, grp);
        // lane 0 alone runs the rest of the iteration
        let zero = self.b.ins().iconst(Type::I32, 0);
        let first = self.b.ins().icmp(IntCC::Eq, grp.lane, zero);
        let run = self.b.create_block();
        let join = self.b.create_block();
        self.b.ins().brif(first, run, &[], join, &[]);
        self.b.switch_to_block(run);
        self.block_items(after);
        self.free_block_vlas();
        self.jump_to(join);
        self.b.switch_to_block(join);
        self.depth -= 1;
    }

    /// The items of a distributed loop's body before and after its inner loop `coop.item`
    /// (which the plan found there); `None` after an internal error naming `site`.
    pub(crate) fn around_inner_loop(
        &mut self,
        body: &'a Stmt,
        coop: &Cooperative<'a>,
        site: &str,
    ) -> Option<(&'a [BlockItem], &'a [BlockItem])> {
        let at = match &body.kind {
            StmtKind::Compound(blk) => blk
                .items
                .iter()
                .position(|it| matches!(it, BlockItem::Stmt(s) if std::ptr::eq(s, coop.item)))
                .map(|at| (&blk.items[..at], &blk.items[at + 1..])),
            _ => None,
        };
        if at.is_none() {
            self.unsupported(
                format!(
                    "internal compiler error: the inner loop of a cooperative or flattened loop \
                     is not in the loop's body block (lower::{site})"
                ),
                body.span,
            );
        }
        at
    }

    /// The shared reduction loop: each lane's iterations into its partial value, then the
    /// group's partials combined into the variable's value before the loop, on every lane.
    fn cooperative_loop(&mut self, coop: Cooperative<'a>, grp: LaneGroup) {
        let span = coop.inner.span;
        let Some((c, ibody)) = self.canon_loop(coop.inner, &[]) else {
            return;
        };
        let Some(Local::Slot(slot, align)) = self.locals.get(&coop.var).copied() else {
            self.unsupported(
                "internal compiler error: a cooperative reduction variable is not a local (lower::cooperative_loop)",
                span,
            );
            return;
        };
        let qt = self.cx.typed.symbols[coop.var].ty;
        let Some(cls) = self.reduction_class(qt, coop.op, span) else {
            return;
        };
        let t = self.slot_addr(slot, align);
        if coop.ordered {
            let Some(term) = update_term(ibody, coop.op) else {
                self.unsupported(
                    "internal compiler error: an ordered cooperative loop's body is not one update (lower::cooperative_loop)",
                    span,
                );
                return;
            };
            self.ordered_loop(coop, grp, &c, term, (t, cls));
            return;
        }
        let before = self.load_raw(t, cls.ty(), false);
        let id = self.identity(coop.op, cls);
        self.store_raw(t, id, false);
        // the loop variable is private to the loop
        let saved = self.private_loop_var(c.var, span);
        let head = self.b.create_block();
        let k = self.b.append_block_param(head, Type::I64);
        let body_b = self.b.create_block();
        let step_b = self.b.create_block();
        let exit = self.b.create_block();
        let k0 = self.b.ins().zext(Type::I64, grp.lane);
        self.b.ins().jump(head, &[k0]);
        self.b.switch_to_block(head);
        let more = self.b.ins().icmp(IntCC::Slt, k, c.trip);
        self.b.ins().brif(more, body_b, &[], exit, &[]);
        self.b.switch_to_block(body_b);
        self.set_loop_var(&c, k);
        self.breaks.push(exit);
        self.continues.push(step_b);
        self.stmt(ibody);
        self.continues.pop();
        self.breaks.pop();
        self.jump_to(step_b);
        self.b.switch_to_block(step_b);
        let w = self.b.ins().zext(Type::I64, grp.width);
        let next = self.b.ins().iadd(k, w);
        self.b.ins().jump(head, &[next]);
        self.b.switch_to_block(exit);
        self.restore_loop_var(c.var, saved);
        let part = self.load_raw(t, cls.ty(), false);
        let all = self.group_tree(coop.op, cls, part, grp);
        let v = self.combine(coop.op, cls, before, all);
        self.store_raw(t, v, false);
    }

    /// The ordered form of the shared loop `c` (module header): `var` at `t` (class `cls`)
    /// updated by `term` for each iteration in order, on every lane of `grp`.
    fn ordered_loop(
        &mut self,
        coop: Cooperative<'a>,
        grp: LaneGroup,
        c: &crate::worksharing::CanonLoop,
        term: &'a Expr,
        (t, cls): (crate::func::Addr, Scalar),
    ) {
        let span = coop.inner.span;
        // the loop variable is private to the loop
        let saved = self.private_loop_var(c.var, span);
        let w = self.b.ins().zext(Type::I64, grp.width);
        let lane = self.b.ins().zext(Type::I64, grp.lane);
        let head = self.b.create_block();
        let base = self.b.append_block_param(head, Type::I64);
        let run_b = self.b.create_block();
        let eval_b = self.b.create_block();
        let join = self.b.create_block();
        let v = self.b.append_block_param(join, cls.ty());
        let exit = self.b.create_block();
        let zero = self.b.ins().iconst(Type::I64, 0);
        self.b.ins().jump(head, &[zero]);
        self.b.switch_to_block(head);
        let more = self.b.ins().icmp(IntCC::Slt, base, c.trip);
        self.b.ins().brif(more, run_b, &[], exit, &[]);
        // this lane's term: iteration base + lane, when there is one
        self.b.switch_to_block(run_b);
        let k = self.b.ins().iadd(base, lane);
        let mine = self.b.ins().icmp(IntCC::Slt, k, c.trip);
        let none = self.identity(coop.op, cls);
        self.b.ins().brif(mine, eval_b, &[], join, &[none]);
        self.b.switch_to_block(eval_b);
        self.set_loop_var(c, k);
        let Some(x) = self.scalar(term) else {
            return;
        };
        self.b.ins().jump(join, &[x]);
        // every lane applies the run's terms in order
        self.b.switch_to_block(join);
        let left = self.b.ins().isub(c.trip, base);
        let n = self.b.ins().smin(left, w);
        let shead = self.b.create_block();
        let s = self.b.append_block_param(shead, Type::I64);
        let sbody = self.b.create_block();
        let next_b = self.b.create_block();
        // a whole run of the planned width: the updates written out, each from a constant
        // lane of the group; a shorter run (the last, or a team narrower than the group) in
        // a loop
        let full_b = self.b.create_block();
        let lanes = self.b.ins().iconst(Type::I64, i64::from(coop.lanes));
        let full = self.b.ins().icmp(IntCC::Eq, n, lanes);
        self.b.ins().brif(full, full_b, &[], shead, &[zero]);
        self.b.switch_to_block(full_b);
        let mut acc = self.load_raw(t, cls.ty(), false);
        for lane in 0..coop.lanes {
            let o = self.b.ins().iconst(Type::I32, i64::from(lane));
            let src = self.b.ins().iadd(grp.first, o);
            let got = self.b.ins().shuffle(ShuffleMode::Idx, v, src, grp.mask);
            acc = self.combine(coop.op, cls, acc, got);
        }
        self.store_raw(t, acc, false);
        self.b.ins().jump(next_b, &[]);
        self.b.switch_to_block(shead);
        let go = self.b.ins().icmp(IntCC::Slt, s, n);
        self.b.ins().brif(go, sbody, &[], next_b, &[]);
        self.b.switch_to_block(sbody);
        let s32 = self.b.ins().trunc(Type::I32, s);
        let src = self.b.ins().iadd(grp.first, s32);
        // (a floating-point value: no narrow widening)
        let got = self.b.ins().shuffle(ShuffleMode::Idx, v, src, grp.mask);
        let acc = self.load_raw(t, cls.ty(), false);
        let acc = self.combine(coop.op, cls, acc, got);
        self.store_raw(t, acc, false);
        let one = self.b.ins().iconst(Type::I64, 1);
        let s1 = self.b.ins().iadd(s, one);
        self.b.ins().jump(shead, &[s1]);
        self.b.switch_to_block(next_b);
        let nb = self.b.ins().iadd(base, w);
        self.b.ins().jump(head, &[nb]);
        self.b.switch_to_block(exit);
        self.restore_loop_var(c.var, saved);
    }

    /// Combines `v` over the lanes of `grp` (butterfly shuffles: every lane gets the result).
    fn group_tree(&mut self, op: ReductionOp, cls: Scalar, v: Value, grp: LaneGroup) -> Value {
        let (mut v, work) = self.widen(v, cls);
        for off in [16, 8, 4, 2, 1] {
            // the width is uniform in the group: all of its lanes shuffle or none
            let o = self.b.ins().iconst(Type::I32, off);
            let inside = self.b.ins().icmp(IntCC::Ult, o, grp.width);
            let then_b = self.b.create_block();
            let join = self.b.create_block();
            let r = self.b.append_block_param(join, work.ty());
            self.b.ins().brif(inside, then_b, &[], join, &[v]);
            self.b.switch_to_block(then_b);
            let other = self.b.ins().shuffle(ShuffleMode::Xor, v, o, grp.mask);
            let c = self.combine_work(op, work, v, other);
            self.b.ins().jump(join, &[c]);
            self.b.switch_to_block(join);
            v = r;
        }
        self.unwiden(v, cls)
    }

    /// Gives loop variable `var` a slot of its own for the loop: what it shadowed, for
    /// [`Self::restore_loop_var`] (`None` when no slot could be made).
    pub(crate) fn private_loop_var(&mut self, var: SymbolId, span: Span) -> Option<Option<Local>> {
        let vqt = self.cx.typed.symbols[var].ty;
        self.new_slot(vqt, span).map(|s| {
            let a = self.align_of(vqt);
            self.locals.insert(var, Local::Slot(s, a))
        })
    }

    /// Undoes [`Self::private_loop_var`] after the loop.
    pub(crate) fn restore_loop_var(&mut self, var: SymbolId, saved: Option<Option<Local>>) {
        match saved {
            Some(Some(l)) => {
                self.locals.insert(var, l);
            }
            Some(None) => {
                self.locals.remove(&var);
            }
            None => {}
        }
    }
}

/// The term `e` of a loop body that is the one update `v op= e` or `v = v op e` (`op` the
/// reduction's `+` or `*`).
pub(crate) fn update_term(body: &Stmt, op: ReductionOp) -> Option<&Expr> {
    let bop = match op {
        ReductionOp::Add => BinaryOp::Add,
        ReductionOp::Mul => BinaryOp::Mul,
        _ => return None,
    };
    let StmtKind::Expr(Some(e)) = &ompcc_omp::strip_compound(body).kind else {
        return None;
    };
    match &crate::expr::strip_parens(e).kind {
        ExprKind::Assign(Some(o), _, r) if *o == bop => Some(r),
        ExprKind::Assign(None, _, r) => match &crate::expr::strip_parens(r).kind {
            ExprKind::Binary(o, _, b) if *o == bop => Some(b),
            _ => None,
        },
        _ => None,
    }
}
