//! narrowiv: 64-bit loop counters kept in 32 bits where value ranges prove it exact.
//!
//! Lowering carries the counter of a worksharing loop in 64 bits (the grid-stride loop's
//! `i = thread; i < trip; i += stride`, widened for address arithmetic), though over `int`
//! bounds every value it takes is below 2^32: the trip count is `smax(span, 0) < 2^31` and the
//! grid stride is below 2^31 (`ompcc_ir::analysis::MAX_TEAMS`), so `trip - 1 + stride < 2^32`.
//! For a loop whose header tests a 64-bit block parameter `p` (`brif (icmp cc p, bound)`) and
//! whose latches pass back `p + s` (`s` defined outside the loop), when `Ranges` proves every
//! value `p` takes lies in `[0, 2^32)`, the pass:
//! - adds an `i32` parameter `p32` to the header, passed `trunc(start)` on entry and
//!   `p32 + trunc(s)` (wrapping) from each latch, so `p32 == trunc(p)` always, and thus
//!   `zext(p32) == p` (the fact proven);
//! - replaces the header's compare, when the other operand also lies in `[0, 2^32)`, by the
//!   unsigned 32-bit compare of the truncations (both sides non-negative below 2^32, so every
//!   condition reads the same);
//! - replaces `trunc.i32 p` by `p32`, and every other use of `p` by `sext(p32)` where the
//!   range of `p` at the use lies in `[0, 2^31)` (inside the body, after the test), else by
//!   `zext(p32)`; the old parameter and its increment are then dead (DCE removes them).
//!
//! The PTX writer turns `sext(p32) * 4` into `mul.wide.s32` (`ompcc-ptx`'s `widemul`), so the
//! loop runs a 32-bit add and compare and forms addresses as nvcc does. Nothing is taken from
//! C's undefined signed overflow: only proven ranges decide. When a 64-bit counter's range is
//! not proven, `-Rpass-missed=narrowiv` names what is missing.

use crate::remarks::Remarks;
use crate::util::iconst_value;
use ompcc_ir::analysis::range::{def_block, step_of};
use ompcc_ir::analysis::{ControlFlowGraph, DominatorTree, LoopAnalysis, Range, Ranges};
use ompcc_ir::{Block, FuncCursor, Function, Inst, InstData, IntCC, Opcode, Type, Value, ValueDef};

const U32_MAX: i128 = u32::MAX as i128;
const I32_MAX: i128 = i32::MAX as i128;

/// Runs the pass; returns whether anything changed.
pub fn narrowiv(func: &mut Function) -> bool {
    narrowiv_with_remarks(func, &mut Remarks::default())
}

/// A loop counter of the shape the pass rewrites.
struct Counter {
    header: Block,
    param: Value,
    index: usize,
    cmp: Inst,
    start: Value,
    step: Value,
    blocks: Vec<Block>,
}

/// `narrowiv`, reporting each counter kept in 32 bits and each one that could not be.
pub fn narrowiv_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    let mut changed = false;
    let mut done: Vec<Block> = Vec::new();
    // One counter at a time, with ranges recomputed after each: a counter that starts from
    // an outer one is then seen through the outer one's new form.
    loop {
        let ranges = Ranges::compute(func);
        let cfg = ControlFlowGraph::compute(func);
        let dt = DominatorTree::compute(func, &cfg);
        let loops = LoopAnalysis::compute(&cfg, &dt);
        let mut next = None;
        for lp in loops.loops() {
            if done.contains(&lp.header) {
                continue;
            }
            let Some(c) = counter(func, &cfg, lp.header, &lp.blocks) else {
                continue;
            };
            done.push(lp.header);
            let r = ranges.get(func, c.param);
            if r.within(0, U32_MAX) {
                next = Some(c);
                break;
            }
            if remarks.wants_missed() {
                let loc = func.srcloc(c.cmp);
                let msg = missing_fact(func, &ranges, &c, r);
                remarks.emit_missed(loc, msg);
            }
        }
        let Some(c) = next else { break };
        let loc = func.srcloc(c.cmp);
        let r = ranges.get(func, c.param);
        rewrite(func, &ranges, &cfg, &c);
        remarks.emit(
            loc,
            format!(
                "kept the 64-bit loop counter {} of {} in 32 bits (its values lie in [{}, {}])",
                c.param, c.header, r.lo, r.hi
            ),
        );
        changed = true;
    }
    changed
}

/// What keeps counter `c`, of range `r`, from 32 bits.
fn missing_fact(func: &Function, ranges: &Ranges, c: &Counter, r: Range) -> String {
    let show = |v: Value| {
        let x = ranges.get(func, v);
        if x == Range::full(func.dfg.value_type(v).bits()) {
            format!("{v} unknown")
        } else {
            format!("{v} in [{}, {}]", x.lo, x.hi)
        }
    };
    let bound = match func.dfg.inst(c.cmp) {
        InstData::IntCompare { args, .. } => args[usize::from(args[0] == c.param)],
        _ => c.param,
    };
    let why = if r.lo < 0 && r.hi > U32_MAX {
        "not proven to lie in [0, 2^32)".to_string()
    } else if r.lo < 0 {
        format!("may be negative (down to {})", r.lo)
    } else {
        format!("may reach {} (2^32 or more)", r.hi)
    };
    format!(
        "64-bit loop counter {} of {} not kept in 32 bits: its value {why}; start {}, bound {}, step {}",
        c.param,
        c.header,
        show(c.start),
        show(bound),
        show(c.step)
    )
}

/// The counter `header` tests, when it has the shape: an `i64` parameter compared in the
/// header's branch condition, entered with one start value and advanced by one
/// loop-invariant step on every latch.
fn counter(
    func: &Function,
    cfg: &ControlFlowGraph,
    header: Block,
    blocks: &[Block],
) -> Option<Counter> {
    let term = func.layout.last_inst(header)?;
    let InstData::Brif { arg, .. } = func.dfg.inst(term) else {
        return None;
    };
    let ValueDef::Result(cmp, 0) = func.dfg.value_def(*arg) else {
        return None;
    };
    if func.layout.inst_block(cmp) != Some(header) {
        return None;
    }
    let InstData::IntCompare { args, .. } = func.dfg.inst(cmp) else {
        return None;
    };
    let params = func.dfg.block_params(header);
    let (index, param) = args.iter().find_map(|&a| {
        let i = params.iter().position(|&p| p == a)?;
        (func.dfg.value_type(a) == Type::I64).then_some((i, a))
    })?;
    let inside = |v: Value| def_block(func, v).is_some_and(|b| blocks.contains(&b));
    let (mut start, mut step) = (None, None);
    for &(from, br) in cfg.preds(header) {
        for call in func
            .dfg
            .branch_destinations(br)
            .iter()
            .filter(|c| c.block == header)
        {
            let a = *func.dfg.block_call_args(call).get(index)?;
            if blocks.contains(&from) {
                let s = step_of(func, param, a)?;
                if inside(s) || step.is_some_and(|t| t != s) {
                    return None;
                }
                step = Some(s);
            } else {
                if start.is_some_and(|t| t != a) {
                    return None;
                }
                start = Some(a);
            }
        }
    }
    Some(Counter {
        header,
        param,
        index,
        cmp,
        start: start?,
        step: step?,
        blocks: blocks.to_vec(),
    })
}

/// An `i32` equal to `trunc(v)`: the operand of a widening, a constant, or a `trunc` placed
/// right after `v`'s definition (the top of its block for a parameter).
fn low32(func: &mut Function, v: Value) -> Value {
    if let ValueDef::Result(i, 0) = func.dfg.value_def(v)
        && let InstData::Unary {
            opcode: Opcode::Sext | Opcode::Zext,
            arg,
        } = *func.dfg.inst(i)
        && func.dfg.value_type(arg) == Type::I32
    {
        return arg;
    }
    let at = match func.dfg.value_def(v) {
        ValueDef::Result(d, _) => func.layout.next_inst(d),
        ValueDef::Param(b, _) => func.layout.first_inst(b),
        ValueDef::Placeholder => None,
    };
    let mut cur = FuncCursor::new(func);
    if let Some(at) = at {
        cur.goto_inst(at);
    }
    match iconst_value(cur.func, v) {
        Some(c) => cur.ins().iconst(Type::I32, c as i32 as i64),
        None => cur.ins().trunc(Type::I32, v),
    }
}

/// The unsigned condition that reads the same as `cc` on two values in `[0, 2^32)`.
fn unsigned(cc: IntCC) -> IntCC {
    match cc {
        IntCC::Slt => IntCC::Ult,
        IntCC::Sle => IntCC::Ule,
        IntCC::Sgt => IntCC::Ugt,
        IntCC::Sge => IntCC::Uge,
        other => other,
    }
}

fn rewrite(func: &mut Function, ranges: &Ranges, cfg: &ControlFlowGraph, c: &Counter) {
    let (start, step) = (low32(func, c.start), low32(func, c.step));
    let p32 = func.dfg.append_block_param(c.header, Type::I32);
    // The increment, next to the old one on each latch.
    for &(from, br) in cfg.preds(c.header) {
        let n = func.dfg.branch_destinations(br).len();
        for k in 0..n {
            let call = func.dfg.branch_destinations(br)[k].clone();
            if call.block != c.header {
                continue;
            }
            let arg = if c.blocks.contains(&from) {
                let old = func.dfg.block_call_args(&call)[c.index];
                let ValueDef::Result(inc, _) = func.dfg.value_def(old) else {
                    continue;
                };
                let mut cur = FuncCursor::new(func);
                cur.goto_inst(inc);
                cur.set_srcloc(cur.func.srcloc(inc));
                cur.ins().iadd(p32, step)
            } else {
                start
            };
            let (calls, pool) = func.dfg.branch_destinations_and_pool(br);
            calls[k].args.push(arg, pool);
        }
    }
    // The header's test, in 32 bits when the other side is in [0, 2^32) too.
    if let InstData::IntCompare { cond, args } = *func.dfg.inst(c.cmp) {
        let other = if args[0] == c.param { args[1] } else { args[0] };
        let o_range = ranges.get(func, other);
        if other != c.param && o_range.within(0, U32_MAX) {
            let o32 = low32(func, other);
            let (a, b) = if args[0] == c.param {
                (p32, o32)
            } else {
                (o32, p32)
            };
            let loc = func.srcloc(c.cmp);
            let mut cur = FuncCursor::new(func);
            cur.goto_inst(c.cmp);
            cur.set_srcloc(loc);
            let new = cur.ins().icmp(unsigned(cond), a, b);
            func.replace_all_uses(func.dfg.first_result(c.cmp).unwrap_or(new), new);
        }
    }
    // Widenings at the top of the header, used where they are equal to `p`.
    let first = func.layout.first_inst(c.header);
    let mut cur = FuncCursor::new(func);
    if let Some(f) = first {
        cur.goto_inst(f);
    }
    let zext = cur.ins().zext(Type::I64, p32);
    let sext = cur.ins().sext(Type::I64, p32);
    let blocks: Vec<Block> = func.layout.blocks().collect();
    for b in blocks {
        let fits = ranges.range_at(func, c.param, b).within(0, I32_MAX);
        let wide = if fits { sext } else { zext };
        let insts: Vec<Inst> = func.layout.block_insts(b).collect();
        for inst in insts {
            if inst == c.cmp || !func.dfg.inst_uses(inst).contains(&c.param) {
                continue;
            }
            if let InstData::Unary {
                opcode: Opcode::Trunc,
                arg,
            } = *func.dfg.inst(inst)
                && arg == c.param
                && let Some(r) = func.dfg.first_result(inst)
                && func.dfg.value_type(r) == Type::I32
            {
                func.replace_all_uses(r, p32);
                continue;
            }
            func.dfg
                .map_inst_uses(inst, |v| if v == c.param { wide } else { v });
        }
    }
}
