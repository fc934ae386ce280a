//! Irregular loop collapsing (issue 16 item 6, OpenMPC 4.1.3; the plan's
//! `Cooperative::flattened`): each thread keeps its iteration `i` of the distributed loop (a
//! row of a CSR matrix), and its warp computes the rows' sums `v op= e(k)` over the rows'
//! nonzeros `k` flattened. The rows of a warp's 32 iterations are consecutive in memory when
//! each row starts where the one before ends (row `i` ends at `rowptr[i+1]`, where row `i+1`
//! starts), which the warp checks at run time: then, for each window of its share of
//! `SHARED_BYTES` of terms, consecutive
//! lanes evaluate the terms of consecutive nonzeros (`val[k]`, `col[k]`: coalesced) into the
//! warp's part of a `.shared` array, and each lane applies the terms of its own row in the
//! window to its `v` in the loop's order, so `v` ends with the loop's value, rounded the
//! same. A warp whose rows are not consecutive (or do not run upward) runs the loop as
//! written on each lane.
//!
//! The distributed loop runs while the warp's first lane has an iteration (so the warp's
//! lanes stay together through the shuffles, votes and `bar.warp.sync`); a lane past the last
//! iteration takes an empty row and runs neither the body's declarations nor its rest.

use crate::func::{Addr, Local};
use crate::worksharing::CanonLoop;
use ompcc_ir::{AddrSpace, IntCC, LoopHint, ShuffleMode, SpecialReg, Type, Value, VoteMode};
use ompcc_omp::Cooperative;
use ompcc_syntax::ast::Stmt;

use crate::func::FnLower;

/// The kernel's `.shared` array of terms, divided among the block's warps at run time: a
/// warp's window is `SHARED_BYTES` over the warps rounded up to a power of two (6 KiB for the
/// 4 warps of a default team of 128 threads, 768 bytes for 17 to 32 warps). Only SPMD kernels collapse rows (generic ones may give
/// their variables' homes 32 of the 48 KiB a block can always have).
const SHARED_BYTES: u32 = 24 * 1024;

impl<'c, 'a, 'f> FnLower<'c, 'a, 'f> {
    /// The condition of the distributed loop around a flattened body: the warp's first lane
    /// (iteration `k - laneid`) has an iteration below `units`, the same on every lane.
    pub(crate) fn warp_has_iteration(&mut self, k: Value, units: Value) -> Value {
        let lane = self.b.ins().sreg(SpecialReg::Laneid);
        let lane = self.b.ins().zext(Type::I64, lane);
        let first = self.b.ins().isub(k, lane);
        self.b.ins().icmp(IntCC::Slt, first, units)
    }

    /// The distributed loop's `body` for iteration `k` of `units` with its inner loop
    /// collapsed over the warp's rows (module header).
    pub(crate) fn flattened_body(
        &mut self,
        body: &'a Stmt,
        coop: Cooperative<'a>,
        k: Value,
        units: Value,
    ) {
        let Some((before, after)) = self.around_inner_loop(body, &coop, "flattened_body") else {
            return;
        };
        // the warp's lanes (a block's last warp may be partial) and how many have a row
        let tid = self.b.ins().sreg(SpecialReg::TidX);
        let ntid = self.b.ins().sreg(SpecialReg::NtidX);
        let lane = self.b.ins().sreg(SpecialReg::Laneid);
        let wstart = self.b.ins().isub(tid, lane);
        let left_in_block = self.b.ins().isub(ntid, wstart);
        let c32 = self.b.ins().iconst(Type::I32, 32);
        let exist = self.b.ins().umin(left_in_block, c32);
        let one64 = self.b.ins().iconst(Type::I64, 1);
        let e64 = self.b.ins().zext(Type::I64, exist);
        let bits = self.b.ins().shl(one64, e64);
        let ones = self.b.ins().isub(bits, one64);
        let mask = self.b.ins().trunc(Type::I32, ones);
        let lane64 = self.b.ins().zext(Type::I64, lane);
        let first_k = self.b.ins().isub(k, lane64);
        let left = self.b.ins().isub(units, first_k);
        let rows = self.b.ins().smin(left, e64);
        let active = self.b.ins().icmp(IntCC::Slt, k, units);
        self.depth += 1;
        // this lane's row: the body's declarations, then the loop's bounds (an idle lane: an
        // empty row)
        let row_b = self.b.create_block();
        let join = self.b.create_block();
        let lo = self.b.append_block_param(join, Type::I64);
        let trip = self.b.append_block_param(join, Type::I64);
        let zero64 = self.b.ins().iconst(Type::I64, 0);
        self.b
            .ins()
            .brif(active, row_b, &[], join, &[zero64, zero64]);
        self.b.switch_to_block(row_b);
        self.block_items(before);
        let Some((c, ibody)) = self.canon_loop(coop.inner, &[]) else {
            self.depth -= 1;
            return;
        };
        self.b.ins().jump(join, &[c.lb, c.trip]);
        self.b.switch_to_block(join);
        let end = self.b.ins().iadd(lo, trip);
        // consecutive rows: each starts where the lane before ends (lane 0 gets its own)
        let one = self.b.ins().iconst(Type::I32, 1);
        let prev = self.b.ins().shuffle(ShuffleMode::Up, end, one, mask);
        let linked = self.b.ins().icmp(IntCC::Eq, lo, prev);
        let zero = self.b.ins().iconst(Type::I32, 0);
        let is0 = self.b.ins().icmp(IntCC::Eq, lane, zero);
        let idle = self.b.ins().icmp(IntCC::Sge, k, units);
        let ok = self.b.ins().or(linked, is0);
        let ok = self.b.ins().or(ok, idle);
        let all = self.b.ins().vote(VoteMode::All, ok, mask);
        let staged_b = self.b.create_block();
        let serial_b = self.b.create_block();
        let done = self.b.create_block();
        self.b.ins().brif(all, staged_b, &[], serial_b, &[]);
        // not consecutive: each lane runs its loop as written (not unrolled: CSR rows are
        // consecutive, so this path is cold, and its copies would only cost code size)
        self.b.switch_to_block(serial_b);
        let own_b = self.b.create_block();
        self.b.ins().brif(active, own_b, &[], done, &[]);
        self.b.switch_to_block(own_b);
        self.stmt_with_hint(coop.item, Some(LoopHint::Disable));
        self.jump_to(done);
        self.b.switch_to_block(staged_b);
        self.staged_rows(coop, &c, ibody, (lo, end, active), (lane, mask, rows, e64));
        self.jump_to(done);
        // each lane with a row runs the rest of its iteration
        self.b.switch_to_block(done);
        let rest_b = self.b.create_block();
        let out = self.b.create_block();
        self.b.ins().brif(active, rest_b, &[], out, &[]);
        self.b.switch_to_block(rest_b);
        self.block_items(after);
        self.free_block_vlas();
        self.jump_to(out);
        self.b.switch_to_block(out);
        self.depth -= 1;
    }

    /// The warp's consecutive rows `[lo, end)` (this lane's; `active`: it has one) summed
    /// window by window through shared memory (module header). `rows`: the warp's lanes
    /// with a row, the first ones; `mask`: its lanes, `exist` of them (a block's last warp
    /// may have fewer than 32).
    fn staged_rows(
        &mut self,
        coop: Cooperative<'a>,
        c: &CanonLoop,
        ibody: &'a Stmt,
        (lo, end, active): (Value, Value, Value),
        (lane, mask, rows, exist): (Value, Value, Value, Value),
    ) {
        let span = coop.inner.span;
        let Some(term) = crate::coop::update_term(ibody, coop.op) else {
            self.unsupported(
                "internal compiler error: a flattened loop's body is not one update (lower::staged_rows)",
                span,
            );
            return;
        };
        let Some(Local::Slot(slot, align)) = self.locals.get(&coop.var).copied() else {
            self.unsupported(
                "internal compiler error: a flattened reduction variable is not a local (lower::staged_rows)",
                span,
            );
            return;
        };
        let qt = self.cx.typed.symbols[coop.var].ty;
        let Some(cls) = self.reduction_class(qt, coop.op, span) else {
            return;
        };
        let ty = cls.ty();
        let bytes = ty.bytes();
        let t = self.slot_addr(slot, align);
        let acc0 = self.load_raw(t, ty, false);
        // the warp's nonzeros: from its lane 0's start to its last row's end
        let zero = self.b.ins().iconst(Type::I32, 0);
        let w0 = self.b.ins().shuffle(ShuffleMode::Idx, lo, zero, mask);
        let one64 = self.b.ins().iconst(Type::I64, 1);
        let last = self.b.ins().isub(rows, one64);
        let last = self.b.ins().trunc(Type::I32, last);
        let hi = self.b.ins().shuffle(ShuffleMode::Idx, end, last, mask);
        // the warp's window in the kernel's `.shared` array (one per kernel): `window` terms,
        // a multiple of 32 (the block has at most 32 warps: at least 192 of 4 bytes)
        let name = format!("{}__rows", self.name);
        let g = match self.cx.module.globals.iter().find(|g| g.name == name) {
            Some(g) => g.name.clone(),
            None => self.cx.shared_global(&name, u64::from(SHARED_BYTES), 8),
        };
        let gr = self.b.import_global(&g, AddrSpace::Shared);
        let sh = self.b.ins().global_addr(gr);
        let tid = self.b.ins().sreg(SpecialReg::TidX);
        let ntid = self.b.ins().sreg(SpecialReg::NtidX);
        let c31 = self.b.ins().iconst(Type::I32, 31);
        let five = self.b.ins().iconst(Type::I32, 5);
        let up = self.b.ins().iadd(ntid, c31);
        let warps = self.b.ins().lshr(up, five);
        // the array split between the warps rounded up to a power of two, 2^ceil(log2 warps)
        // (a shift, where a division would cost a subroutine): `32 - clz(warps - 1)`
        let one = self.b.ins().iconst(Type::I32, 1);
        let below = self.b.ins().isub(warps, one);
        let lz = self.b.ins().clz(below);
        let c32 = self.b.ins().iconst(Type::I32, 32);
        let log = self.b.ins().isub(c32, lz);
        let all = self
            .b
            .ins()
            .iconst(Type::I32, i64::from(SHARED_BYTES / bytes));
        let window = self.b.ins().lshr(all, log);
        let window = self.b.ins().zext(Type::I64, window);
        let warp = self.b.ins().lshr(tid, five);
        let warp = self.b.ins().zext(Type::I64, warp);
        let bytes64 = self.b.ins().iconst(Type::I64, i64::from(bytes));
        let wb = self.b.ins().imul(window, bytes64);
        let off = self.b.ins().imul(warp, wb);
        let sh = self.b.ins().ptr_offset(sh, off);
        let lane64 = self.b.ins().zext(Type::I64, lane);
        let elem = |fl: &mut Self, i: Value| {
            let o = fl.b.ins().imul(i, bytes64);
            Addr {
                ptr: fl.b.ins().ptr_offset(sh, o),
                space: AddrSpace::Shared,
                align: bytes,
            }
        };
        // the loop variable is private to the loop; `kv` sets it to a nonzero's index
        let saved = self.private_loop_var(c.var, span);
        let kv = CanonLoop {
            var: c.var,
            cls: c.cls,
            lb: self.b.ins().iconst(Type::I64, 0),
            step: one64,
            trip: c.trip,
        };
        let win = window;
        let whead = self.b.create_block();
        let w = self.b.append_block_param(whead, Type::I64);
        let acc = self.b.append_block_param(whead, ty);
        let wbody = self.b.create_block();
        let wexit = self.b.create_block();
        let fin = self.b.append_block_param(wexit, ty);
        self.b.ins().jump(whead, &[w0, acc0]);
        self.b.switch_to_block(whead);
        let more = self.b.ins().icmp(IntCC::Slt, w, hi);
        self.b.ins().brif(more, wbody, &[], wexit, &[acc]);
        // stage: lane l evaluates the terms of nonzeros w + l, w + l + exist, ... below hi
        self.b.switch_to_block(wbody);
        let rest = self.b.ins().isub(hi, w);
        let span_w = self.b.ins().smin(win, rest);
        let shead = self.b.create_block();
        let j = self.b.append_block_param(shead, Type::I64);
        let sbody = self.b.create_block();
        let eval_b = self.b.create_block();
        let snext = self.b.create_block();
        let staged = self.b.create_block();
        let zero64 = self.b.ins().iconst(Type::I64, 0);
        self.b.ins().jump(shead, &[zero64]);
        self.b.switch_to_block(shead);
        let smore = self.b.ins().icmp(IntCC::Slt, j, span_w);
        self.b.ins().brif(smore, sbody, &[], staged, &[]);
        self.b.switch_to_block(sbody);
        let slot_i = self.b.ins().iadd(j, lane64);
        let kk = self.b.ins().iadd(w, slot_i);
        let inside = self.b.ins().icmp(IntCC::Slt, kk, hi);
        self.b.ins().brif(inside, eval_b, &[], snext, &[]);
        self.b.switch_to_block(eval_b);
        self.set_loop_var(&kv, kk);
        let Some(x) = self.scalar(term) else {
            return;
        };
        let at = elem(self, slot_i);
        self.store_raw(at, x, false);
        self.b.ins().jump(snext, &[]);
        self.b.switch_to_block(snext);
        let jn = self.b.ins().iadd(j, exist);
        self.b.ins().jump(shead, &[jn]);
        self.b.switch_to_block(staged);
        self.b.ins().warp_sync(mask);
        // fold: this lane's row in the window, in order
        let wend = self.b.ins().iadd(w, win);
        let a = self.b.ins().smax(lo, w);
        let b = self.b.ins().smin(end, wend);
        let b = self.b.ins().select(active, b, a);
        let fhead = self.b.create_block();
        let p = self.b.append_block_param(fhead, Type::I64);
        let facc = self.b.append_block_param(fhead, ty);
        let fbody = self.b.create_block();
        let fdone = self.b.create_block();
        let racc = self.b.append_block_param(fdone, ty);
        self.b.ins().jump(fhead, &[a, acc]);
        self.b.switch_to_block(fhead);
        let fmore = self.b.ins().icmp(IntCC::Slt, p, b);
        self.b.ins().brif(fmore, fbody, &[], fdone, &[facc]);
        self.b.switch_to_block(fbody);
        let i = self.b.ins().isub(p, w);
        let at = elem(self, i);
        let e = self.load_raw(at, ty, false);
        let nacc = self.combine(coop.op, cls, facc, e);
        let pn = self.b.ins().iadd(p, one64);
        self.b.ins().jump(fhead, &[pn, nacc]);
        self.b.switch_to_block(fdone);
        // the window is read before the next one is written
        self.b.ins().warp_sync(mask);
        self.b.ins().jump(whead, &[wend, racc]);
        self.b.switch_to_block(wexit);
        self.store_raw(t, fin, false);
        self.restore_loop_var(c.var, saved);
    }
}
