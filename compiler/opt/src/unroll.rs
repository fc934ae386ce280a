//! unroll: full unrolling of loops with small constant trip counts and partial unrolling by a
//! factor with a remainder loop.
//!
//! Works on innermost loops with one latch and one edge entering the header, using
//! `ompcc_ir::analysis::scev`. A loop's `LoopHint` decides first: `nounroll` leaves it alone,
//! `unroll(full)` unrolls it fully when the trip count is known, `unroll(N)` unrolls fully when
//! the trip count is known and at most N, else partially by N. Without a hint a loop is fully
//! unrolled when trip count x size is within the `unroll-threshold` knob, else partially by the
//! `unroll-count` knob when count x size is within it.
//! The size counts instructions other than constants and `i32` -> `i64` widenings (the PTX
//! writer folds those into the `mul.wide` of an address).
//!
//! Full unrolling (trip count T, header executions): T - 1 copies of the loop body are chained
//! after the original, each back edge going to the next copy's header; the exit test of every
//! copy but the last becomes a jump into the body and the last one's a jump out, so no loop is
//! left. Uses after the loop read the last copy's values.
//!
//! Partial unrolling by U needs a recognized exit test `x cc bound` on an induction variable
//! with a monotone condition (`slt/sle/ult/ule` counting up, `sgt/sge/ugt/uge` counting down).
//! A new header `G` checks that the U tests ahead would all continue (`x + K*step cc bound`,
//! K = U - 1, or U when `x` is the incremented value, with a no-wrap check) and then runs U
//! copies of the body with their exit tests removed, returning to `G`; otherwise it branches to
//! the original loop, which is kept unchanged as the remainder. Values used after the loop
//! still come from the original (the only exit). Both new loops get `nounroll` so a later run
//! leaves them alone.
//!
//! `-Rpass-missed=unroll` says, for each innermost loop it leaves alone, why: the trip count
//! (unknown, or beyond the full-unrolling limit), the size against the threshold, a pragma's
//! request beyond the size limit, or a loop shape it does not handle.
//!
//! Invariant: the unrolled code runs exactly the iterations of the original in order; nothing
//! is assumed about memory or side effects.

use crate::knobs::Knobs;
use crate::remarks::Remarks;
use crate::util::{InstCopy, Remap};
use ompcc_ir::analysis::{ControlFlowGraph, DominatorTree, Loop, LoopAnalysis, LoopScev};
use ompcc_ir::{
    Block, FuncCursor, Function, Inst, InstData, IntCC, LoopHint, Opcode, SourceLoc, Value,
};
use rustc_hash::FxHashSet;

/// Most header executions a loop is fully unrolled for.
const MAX_FULL_TRIPS: u64 = 1024;
/// Most instructions an unrolled loop may reach, even when a pragma asks.
const MAX_UNROLLED_SIZE: usize = 20_000;
/// Most loops one run unrolls per function.
const MAX_LOOPS: usize = 64;

/// Runs the pass with the default knobs.
pub fn unroll(func: &mut Function) -> bool {
    unroll_with_remarks(func, &Knobs::default(), &mut Remarks::default())
}

fn loop_size(func: &Function, lp: &Loop) -> usize {
    lp.blocks
        .iter()
        .flat_map(|&b| func.layout.block_insts(b))
        .filter(|&i| !matches!(func.dfg.inst(i).opcode(), Opcode::Iconst | Opcode::Fconst))
        .filter(|&i| !is_free_widening(func, i))
        .count()
}

/// A widening of an `i32` to `i64`: the PTX writer folds it into the `mul.wide` of an
/// address, so it costs no instruction there.
fn is_free_widening(func: &Function, inst: ompcc_ir::Inst) -> bool {
    match func.dfg.inst(inst) {
        ompcc_ir::InstData::Unary {
            opcode: Opcode::Sext | Opcode::Zext,
            arg,
        } => func.dfg.value_type(*arg) == ompcc_ir::Type::I32,
        _ => false,
    }
}

enum Plan {
    Full(u64),
    Partial(u32),
}

/// `unroll`, reporting each unrolled loop to `remarks`.
pub fn unroll_with_remarks(func: &mut Function, knobs: &Knobs, remarks: &mut Remarks) -> bool {
    let mut changed = false;
    let mut done: FxHashSet<Block> = FxHashSet::default();
    for _ in 0..MAX_LOOPS {
        let cfg = ControlFlowGraph::compute(func);
        let dt = DominatorTree::compute(func, &cfg);
        let la = LoopAnalysis::compute(&cfg, &dt);
        let mut acted = false;
        for (i, lp) in la.loops().iter().enumerate() {
            let innermost = !la.loops().iter().any(|l| l.parent == Some(i));
            if !innermost || done.contains(&lp.header) {
                continue;
            }
            done.insert(lp.header);
            let hint = func.loop_hints[lp.header];
            if hint == Some(LoopHint::Disable) {
                continue;
            }
            let scev = LoopScev::compute(func, &cfg, lp);
            if scev.latch.is_none() || scev.entry_branch.is_none() {
                if remarks.wants_missed() {
                    let loc = func
                        .layout
                        .first_inst(lp.header)
                        .map_or(SourceLoc::default(), |i| func.srcloc(i));
                    let what = if scev.latch.is_none() {
                        "it has several back edges"
                    } else {
                        "it has several entries"
                    };
                    remarks.emit_missed(loc, format!("loop at {} not unrolled: {what}", lp.header));
                }
                continue;
            }
            let size = loop_size(func, lp).max(1);
            let trips = scev.constant_trip_count(func, MAX_FULL_TRIPS);
            let threshold = knobs.unroll_threshold as usize;
            let plan = match (hint, trips) {
                (Some(LoopHint::Full), Some(t)) if size * t as usize <= MAX_UNROLLED_SIZE => {
                    Some(Plan::Full(t))
                }
                // `unroll(n)` with n at least the iteration count unrolls fully (clang's rule)
                (Some(LoopHint::Count(n)), Some(t))
                    if scev.body_runs(t) <= u64::from(n)
                        && size * t as usize <= MAX_UNROLLED_SIZE =>
                {
                    Some(Plan::Full(t))
                }
                (Some(LoopHint::Count(n)), _) if size * n as usize <= MAX_UNROLLED_SIZE => {
                    Some(Plan::Partial(n))
                }
                (None, Some(t)) if size * t as usize <= threshold => Some(Plan::Full(t)),
                (None, _)
                    if knobs.unroll_count >= 2
                        && size * knobs.unroll_count as usize <= threshold =>
                {
                    Some(Plan::Partial(knobs.unroll_count))
                }
                _ => None,
            };
            let loc = func
                .layout
                .first_inst(lp.header)
                .map_or(SourceLoc::default(), |i| func.srcloc(i));
            if plan.is_none() && remarks.wants_missed() {
                let why = why_not(func, &scev, hint, size, trips, knobs);
                remarks.emit_missed(loc, format!("loop at {} not unrolled: {why}", lp.header));
            }
            match plan {
                Some(Plan::Full(t)) => {
                    full_unroll(func, lp, &scev, t);
                    remarks.emit(
                        loc,
                        format!(
                            "fully unrolled the loop at {} ({} iterations)",
                            lp.header,
                            scev.body_runs(t)
                        ),
                    );
                }
                Some(Plan::Partial(u)) => {
                    if !partial_unroll(func, lp, &scev, u) {
                        remarks.emit_missed(
                            loc,
                            format!(
                                "loop at {} not unrolled by {u}: its exit test is not a monotone comparison of an induction variable",
                                lp.header
                            ),
                        );
                        continue;
                    }
                    remarks.emit(
                        loc,
                        format!(
                            "unrolled the loop at {} by {u} with a remainder loop",
                            lp.header
                        ),
                    );
                }
                None => continue,
            }
            changed = true;
            acted = true;
            break;
        }
        if !acted {
            break;
        }
    }
    changed
}

/// Why a loop gets no unrolling plan, for `-Rpass-missed=unroll`.
fn why_not(
    func: &Function,
    scev: &LoopScev,
    hint: Option<LoopHint>,
    size: usize,
    trips: Option<u64>,
    knobs: &Knobs,
) -> String {
    let threshold = knobs.unroll_threshold as usize;
    // The trip count beyond the full-unrolling limit, when it is still a constant.
    let far = || {
        trips
            .is_none()
            .then(|| scev.constant_trip_count(func, 1 << 20))
            .flatten()
    };
    match (hint, trips) {
        (Some(LoopHint::Full), Some(t)) => format!(
            "'unroll full' asked, but {t} copies of {size} instructions exceed the limit of {MAX_UNROLLED_SIZE}"
        ),
        (Some(LoopHint::Full), None) => match far() {
            Some(t) => format!(
                "'unroll full' asked, but the trip count is too large ({t} > {MAX_FULL_TRIPS})"
            ),
            None => "'unroll full' asked, but the trip count is unknown".to_string(),
        },
        (Some(LoopHint::Count(n)), _) => format!(
            "unrolling by {n} asked, but {n} copies of {size} instructions exceed the limit of {MAX_UNROLLED_SIZE}"
        ),
        (Some(LoopHint::Disable), _) => "unrolling is disabled for it".to_string(),
        (None, Some(t)) => format!(
            "trip count {t} x {size} instructions = {} exceeds the unroll threshold ({threshold})",
            t as usize * size
        ),
        (None, None) => {
            let count = match far() {
                Some(t) => format!("trip count too large ({t} > {MAX_FULL_TRIPS})"),
                None => "trip count unknown".to_string(),
            };
            if knobs.unroll_count < 2 {
                format!(
                    "{count}, and partial unrolling is off (unroll-count={})",
                    knobs.unroll_count
                )
            } else {
                format!(
                    "{count}, and {} copies x {size} instructions = {} exceed the unroll threshold ({threshold})",
                    knobs.unroll_count,
                    knobs.unroll_count as usize * size
                )
            }
        }
    }
}

/// Copies the blocks of `lp` once, placing them after `after`; branch targets inside the loop
/// go to the copy (the header included). Returns the renaming.
fn copy_loop(func: &mut Function, lp: &Loop, after: &mut Block) -> Remap {
    let mut m = Remap::default();
    for &b in &lp.blocks {
        let nb = func.dfg.make_block();
        func.layout.insert_block_after(nb, *after);
        *after = nb;
        m.blocks.insert(b, nb);
        let params: Vec<Value> = func.dfg.block_params(b).to_vec();
        for p in params {
            let np = func.dfg.append_block_param(nb, func.dfg.value_type(p));
            m.values.insert(p, np);
        }
    }
    for &b in &lp.blocks {
        let nb = m.block(b);
        let insts: Vec<Inst> = func.layout.block_insts(b).collect();
        for inst in insts {
            let copy = InstCopy::read(func, inst);
            let ni = copy.write(func, &mut m);
            func.layout.append_inst(ni, nb);
            let loc = func.srcloc(inst);
            func.set_srcloc(ni, loc);
        }
    }
    m
}

/// Points the branches of `from` that target `old` at `new`.
fn retarget(func: &mut Function, from: Block, old: Block, new: Block) {
    if let Some(term) = func.layout.last_inst(from) {
        for call in func.dfg.branch_destinations_mut(term) {
            if call.block == old {
                call.block = new;
            }
        }
    }
}

/// Replaces the `brif` ending `block` by a jump to its first (`then`) or second target.
fn fold_brif(func: &mut Function, block: Block, then: bool) {
    let Some(term) = func.layout.last_inst(block) else {
        return;
    };
    if let InstData::Brif { blocks, .. } = func.dfg.inst(term) {
        let dest = blocks[if then { 0 } else { 1 }].clone();
        *func.dfg.inst_mut(term) = InstData::Jump { dest };
    }
}

fn last_block_of(func: &Function, lp: &Loop) -> Block {
    let mut last = lp.header;
    for b in func.layout.blocks() {
        if lp.blocks.contains(&b) {
            last = b;
        }
    }
    last
}

fn full_unroll(func: &mut Function, lp: &Loop, scev: &LoopScev, trips: u64) {
    let (Some(exit), Some(latch)) = (scev.exit, scev.latch) else {
        return;
    };
    let mut after = last_block_of(func, lp);
    let mut maps = vec![Remap::default()];
    for _ in 1..trips {
        maps.push(copy_loop(func, lp, &mut after));
    }
    let n = maps.len();
    for j in 0..n {
        let (h, l, e) = (
            maps[j].block(lp.header),
            maps[j].block(latch),
            maps[j].block(exit.block),
        );
        if j + 1 < n {
            fold_brif(func, e, exit.stay_is_then);
            retarget(func, l, h, maps[j + 1].block(lp.header));
        } else {
            fold_brif(func, e, !exit.stay_is_then);
        }
    }
    // Uses after the loop read the last copy's values.
    let last = &maps[n - 1];
    if n > 1 {
        let inside: FxHashSet<Block> = maps
            .iter()
            .flat_map(|m| lp.blocks.iter().map(|&b| m.block(b)))
            .collect();
        let outside: Vec<Inst> = func
            .layout
            .blocks()
            .filter(|b| !inside.contains(b))
            .flat_map(|b| func.layout.block_insts(b))
            .collect();
        for inst in outside {
            func.dfg.map_inst_uses(inst, |v| last.value(v));
        }
    }
    func.loop_hints[lp.header] = None;
}

fn partial_unroll(func: &mut Function, lp: &Loop, scev: &LoopScev, factor: u32) -> bool {
    let (Some(exit), Some(latch), Some(entry)) = (scev.exit, scev.latch, scev.entry_branch) else {
        return false;
    };
    let iv = scev.ivs[exit.iv];
    let ty = func.dfg.value_type(iv.param);
    let (signed, up) = match exit.cc {
        IntCC::Slt | IntCC::Sle => (true, true),
        IntCC::Ult | IntCC::Ule => (false, true),
        IntCC::Sgt | IntCC::Sge => (true, false),
        IntCC::Ugt | IntCC::Uge => (false, false),
        IntCC::Eq | IntCC::Ne => return false,
    };
    if (iv.step > 0) != up || iv.step == 0 {
        return false;
    }
    let k = i64::from(factor - 1) + i64::from(exit.uses_next);
    let Some(offset) = k.checked_mul(iv.step) else {
        return false;
    };
    if offset.unsigned_abs() >= 1u64 << (ty.bits() - 2) {
        return false;
    }
    // The guard block G: the main loop's header.
    let g = func.dfg.make_block();
    func.layout.insert_block_before(g, lp.header);
    let gparams: Vec<Value> = func
        .dfg
        .block_params(lp.header)
        .to_vec()
        .into_iter()
        .map(|p| {
            let t = func.dfg.value_type(p);
            func.dfg.append_block_param(g, t)
        })
        .collect();
    for call in func.dfg.branch_destinations_mut(entry) {
        if call.block == lp.header {
            call.block = g;
        }
    }
    let mut after = last_block_of(func, lp);
    let maps: Vec<Remap> = (0..factor)
        .map(|_| copy_loop(func, lp, &mut after))
        .collect();
    for (j, m) in maps.iter().enumerate() {
        let next = maps.get(j + 1).map_or(g, |n| n.block(lp.header));
        fold_brif(func, m.block(exit.block), exit.stay_is_then);
        retarget(func, m.block(latch), m.block(lp.header), next);
    }
    let loc = func
        .layout
        .first_inst(lp.header)
        .map_or(SourceLoc::default(), |i| func.srcloc(i));
    let mut cur = FuncCursor::new(func);
    cur.goto_bottom(g);
    cur.set_srcloc(loc);
    let p = gparams[iv.index];
    let off = cur.ins().iconst(ty, offset);
    let q = cur.ins().iadd(p, off);
    let nowrap_cc = match (signed, up) {
        (true, true) => IntCC::Slt,
        (false, true) => IntCC::Ult,
        (true, false) => IntCC::Sgt,
        (false, false) => IntCC::Ugt,
    };
    let nowrap = cur.ins().icmp(nowrap_cc, p, q);
    // A constant bound may be defined inside the loop, where G cannot see it.
    let bound = match ompcc_ir::analysis::scev::const_of(cur.func, exit.bound) {
        Some(c) => cur.ins().iconst(ty, c),
        None => exit.bound,
    };
    let inside = cur.ins().icmp(exit.cc, q, bound);
    let ok = cur.ins().and(nowrap, inside);
    let main = maps[0].block(lp.header);
    cur.ins().brif(ok, main, &gparams, lp.header, &gparams);
    func.loop_hints[g] = Some(LoopHint::Disable);
    func.loop_hints[lp.header] = Some(LoopHint::Disable);
    true
}
