//! Scalar evolution of loop induction variables, and loop exit tests with trip counts.
//!
//! An induction variable is a loop header parameter `p` that enters the loop with a value
//! `start` (from the single edge entering the header from outside) and comes back on the single
//! latch's back edge as `next = p + step` (`iadd p, C`, `iadd C, p`, `isub p, C` or, for
//! pointers, `ptr_offset p, C`, with `C` an integer constant): the chain of recurrences
//! `{start, +, step}`. On iteration k (counting header executions from 0) `p` is
//! `start + k * step`, wrapping at its width.
//!
//! The exit test is recognized when the loop leaves through exactly one edge, from the header
//! (top-tested `for`/`while`) or from the latch (bottom-tested), by a `brif` on
//! `icmp cc x, bound` where `x` is an induction variable or its `next` and `bound` is defined
//! outside the loop. It is normalized so that the loop continues while `x cc bound` holds.
//! With constant `start` and `bound` the trip count (header executions) is found by evaluating
//! the test exactly, iteration by iteration, up to a caller-given limit: wraparound and every
//! condition code are handled without closed-form reasoning.
//!
//! Results are valid while the loop's instructions and control flow are unchanged.

use super::cfg::ControlFlowGraph;
use super::loops::Loop;
use crate::dfg::ValueDef;
use crate::entities::{Block, Inst, Value};
use crate::function::Function;
use crate::instructions::{InstData, IntCC, Opcode};
use crate::types::Type;

/// An induction variable `{start, +, step}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Induction {
    /// The header parameter.
    pub param: Value,
    /// Its index among the header's parameters.
    pub index: usize,
    /// The value entering the loop.
    pub start: Value,
    /// The constant added per iteration (bytes for pointers).
    pub step: i64,
    /// The value passed back on the back edge (`param + step`).
    pub next: Value,
}

/// The recognized exit test of a loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExitTest {
    /// The block whose `brif` leaves the loop (the header or the latch).
    pub block: Block,
    /// That `brif`.
    pub branch: Inst,
    /// Whether the loop continues on the `brif`'s first target.
    pub stay_is_then: bool,
    /// The induction variable tested (index into `LoopScev::ivs`).
    pub iv: usize,
    /// Whether the test reads the IV's `next` (`p + step`) rather than `p`.
    pub uses_next: bool,
    /// The loop continues while `x cc bound` holds.
    pub cc: IntCC,
    /// The loop-invariant bound (defined outside the loop, or a constant, possibly inside).
    pub bound: Value,
}

/// What is known about one loop.
#[derive(Clone, Debug, Default)]
pub struct LoopScev {
    /// The single latch, when there is one.
    pub latch: Option<Block>,
    /// The single branch entering the header from outside the loop.
    pub entry_branch: Option<Inst>,
    /// Induction variables of the header.
    pub ivs: Vec<Induction>,
    /// The exit test, when recognized.
    pub exit: Option<ExitTest>,
}

/// Whether `v` varies in `lp`: defined inside it and not a constant.
fn defined_in(func: &Function, v: Value, lp: &Loop) -> bool {
    if const_of(func, v).is_some() {
        return false;
    }
    let block = match func.dfg.value_def(v) {
        ValueDef::Result(i, _) => func.layout.inst_block(i),
        ValueDef::Param(b, _) => Some(b),
        ValueDef::Placeholder => None,
    };
    block.is_some_and(|b| lp.blocks.contains(&b))
}

/// The integer constant `v` is defined as.
pub fn const_of(func: &Function, v: Value) -> Option<i64> {
    match func.dfg.value_def(v) {
        ValueDef::Result(i, 0) => match func.dfg.inst(i) {
            InstData::UnaryImm { imm, .. } => Some(*imm),
            _ => None,
        },
        _ => None,
    }
}

/// The arguments `branch` passes to `target` (its only call to it).
fn args_to(func: &Function, branch: Inst, target: Block) -> Option<&[Value]> {
    let calls: Vec<_> = func
        .dfg
        .branch_destinations(branch)
        .iter()
        .filter(|c| c.block == target)
        .collect();
    match calls.as_slice() {
        [c] => Some(func.dfg.block_call_args(c)),
        _ => None,
    }
}

/// `step` when `next` is `p + step`.
fn step_of(func: &Function, p: Value, next: Value) -> Option<i64> {
    let ValueDef::Result(i, 0) = func.dfg.value_def(next) else {
        return None;
    };
    let InstData::Binary { opcode, args, .. } = func.dfg.inst(i) else {
        return None;
    };
    match opcode {
        Opcode::Iadd | Opcode::PtrOffset if args[0] == p => const_of(func, args[1]),
        Opcode::Iadd if args[1] == p => const_of(func, args[0]),
        Opcode::Isub if args[0] == p => const_of(func, args[1]).and_then(i64::checked_neg),
        _ => None,
    }
}

impl LoopScev {
    /// Analyzes `lp` of `func`.
    pub fn compute(func: &Function, cfg: &ControlFlowGraph, lp: &Loop) -> LoopScev {
        let mut s = LoopScev::default();
        if let [latch] = lp.latches.as_slice() {
            s.latch = Some(*latch);
        }
        let outside: Vec<_> = cfg
            .preds(lp.header)
            .iter()
            .filter(|(b, _)| !lp.blocks.contains(b))
            .collect();
        if let [(_, br)] = outside.as_slice() {
            s.entry_branch = Some(*br);
        }
        let (Some(latch), Some(entry)) = (s.latch, s.entry_branch) else {
            return s;
        };
        let Some(back) = func.layout.last_inst(latch) else {
            return s;
        };
        let (Some(starts), Some(nexts)) = (
            args_to(func, entry, lp.header),
            args_to(func, back, lp.header),
        ) else {
            return s;
        };
        for (index, &param) in func.dfg.block_params(lp.header).iter().enumerate() {
            let (Some(&start), Some(&next)) = (starts.get(index), nexts.get(index)) else {
                continue;
            };
            if let Some(step) = step_of(func, param, next) {
                s.ivs.push(Induction {
                    param,
                    index,
                    start,
                    step,
                    next,
                });
            }
        }
        s.exit = s.exit_test(func, cfg, lp, latch);
        s
    }

    fn exit_test(
        &self,
        func: &Function,
        cfg: &ControlFlowGraph,
        lp: &Loop,
        latch: Block,
    ) -> Option<ExitTest> {
        let mut exiting = Vec::new();
        for &b in &lp.blocks {
            if cfg.succs(b).iter().any(|s| !lp.blocks.contains(s)) {
                exiting.push(b);
            }
        }
        let [block] = exiting.as_slice() else {
            return None;
        };
        let block = *block;
        if block != lp.header && block != latch {
            return None;
        }
        let branch = func.layout.last_inst(block)?;
        let InstData::Brif { arg, blocks } = func.dfg.inst(branch) else {
            return None;
        };
        let then_in = lp.blocks.contains(&blocks[0].block);
        let else_in = lp.blocks.contains(&blocks[1].block);
        if then_in == else_in {
            return None;
        }
        let ValueDef::Result(cmp, 0) = func.dfg.value_def(*arg) else {
            return None;
        };
        let InstData::IntCompare { cond, args } = func.dfg.inst(cmp) else {
            return None;
        };
        let find = |v: Value| {
            self.ivs.iter().enumerate().find_map(|(i, iv)| {
                if iv.param == v {
                    Some((i, false))
                } else if iv.next == v {
                    Some((i, true))
                } else {
                    None
                }
            })
        };
        let (iv, uses_next, mut cc, bound) = match (find(args[0]), find(args[1])) {
            (Some((i, n)), _) if !defined_in(func, args[1], lp) => (i, n, *cond, args[1]),
            (None, Some((i, n))) if !defined_in(func, args[0], lp) => {
                (i, n, cond.swapped(), args[0])
            }
            _ => return None,
        };
        if !then_in {
            cc = cc.inverse();
        }
        if !func.dfg.value_type(self.ivs[iv].param).is_int() {
            return None;
        }
        Some(ExitTest {
            block,
            branch,
            stay_is_then: then_in,
            iv,
            uses_next,
            cc,
            bound,
        })
    }

    /// How many times the loop's body runs in `header_runs` header executions: one fewer
    /// when the exit test is in the header of a loop whose latch is another block (the last
    /// header execution only leaves), as many otherwise.
    pub fn body_runs(&self, header_runs: u64) -> u64 {
        match (&self.exit, self.latch) {
            (Some(e), Some(latch)) if e.block != latch => header_runs.saturating_sub(1),
            _ => header_runs,
        }
    }

    /// The number of header executions when the start and bound are constants and the loop
    /// leaves within `limit` header executions (else `None`).
    pub fn constant_trip_count(&self, func: &Function, limit: u64) -> Option<u64> {
        let exit = self.exit?;
        let iv = self.ivs.get(exit.iv)?;
        let start = const_of(func, iv.start)?;
        let bound = const_of(func, exit.bound)?;
        let ty = func.dfg.value_type(iv.param);
        let mut x = wrap(
            ty,
            start.wrapping_add(if exit.uses_next { iv.step } else { 0 }),
        );
        let bound = wrap(ty, bound);
        for k in 0..limit {
            if !holds(ty, exit.cc, x, bound) {
                return Some(k + 1);
            }
            x = wrap(ty, x.wrapping_add(iv.step));
        }
        None
    }
}

/// `v` truncated to the width of `ty` and sign-extended back.
fn wrap(ty: Type, v: i64) -> i64 {
    let bits = ty.bits();
    if bits >= 64 {
        v
    } else {
        (v << (64 - bits)) >> (64 - bits)
    }
}

/// Evaluates `a cc b` on values of type `ty` kept sign-extended.
pub fn holds(ty: Type, cc: IntCC, a: i64, b: i64) -> bool {
    let bits = ty.bits();
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let (ua, ub) = (a as u64 & mask, b as u64 & mask);
    match cc {
        IntCC::Eq => a == b,
        IntCC::Ne => a != b,
        IntCC::Slt => a < b,
        IntCC::Sle => a <= b,
        IntCC::Sgt => a > b,
        IntCC::Sge => a >= b,
        IntCC::Ult => ua < ub,
        IntCC::Ule => ua <= ub,
        IntCC::Ugt => ua > ub,
        IntCC::Uge => ua >= ub,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_compare() {
        assert_eq!(wrap(Type::I8, 130), -126);
        assert!(holds(Type::I8, IntCC::Ult, 1, -1));
        assert!(!holds(Type::I8, IntCC::Slt, 1, -1));
        assert!(holds(Type::I64, IntCC::Ugt, -1, 5));
    }
}
