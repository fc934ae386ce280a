//! nary: global reassociation of n-ary sums (the gpucc paper's "global reassociation").
//!
//! Unrolled loops and stencils compute sums that share parts in a different grouping:
//! `(i + j) + k` next to an existing `i + k`, or an address `(p + a) + b` next to an
//! existing `p + b`. Reassociating to reuse the existing part turns one of the additions into
//! a common subexpression. For `x = (a + b) + c` (an `iadd` whose operand is an `iadd`),
//! when `a + c` (or `b + c`, operands in either order) is computed at a point that dominates
//! `x`, `x` is rebuilt as `(a + c) + b` (or `(b + c) + a`); for `x = ptr_offset (ptr_offset
//! p, i), j`, when `ptr_offset p, j` dominates, `x` becomes `ptr_offset (ptr_offset p, j),
//! i`. The old inner sum dies if nothing else uses it (DCE), so the rewrite never adds an
//! instruction. The rebuilt sum carries `nsw` only when the old sum, its inner sum and the
//! reused part all do: then `a + b + c` and `a + c` are exact, so `(a + c) + b` is the old
//! sum's exact value, which fits (later passes read it through sign extensions: `cache`).
//! Otherwise it carries no flags (`nsw` of the old grouping says nothing about the new one).
//!
//! Exactness: integer addition of one type wraps modulo 2^n, so it is associative and
//! commutative; `ptr_offset` adds its (sign-extended) offset modulo 2^64 the same way, so the
//! two offsets of a chain commute. Floating-point sums are never touched.

use crate::remarks::{Remarks, plural};
use crate::util::nsw_value;
use ompcc_ir::analysis::{ControlFlowGraph, DominatorTree};
use ompcc_ir::{ArithFlags, Block, FuncCursor, Function, Inst, InstData, Opcode, Value, ValueDef};
use rustc_hash::FxHashMap;

/// Runs the pass; returns whether anything changed.
pub fn nary(func: &mut Function) -> bool {
    nary_with_remarks(func, &mut Remarks::default())
}

/// A sum the pass can look up: integer `a + b` (operands ordered) or `ptr_offset p, off`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Sum {
    Add(Value, Value),
    Offset(Value, Value),
}

impl Sum {
    fn add(a: Value, b: Value) -> Sum {
        if a <= b {
            Sum::Add(a, b)
        } else {
            Sum::Add(b, a)
        }
    }
}

/// The sum `inst` computes, if it is one.
fn sum_of(func: &Function, inst: Inst) -> Option<Sum> {
    match *func.dfg.inst(inst) {
        InstData::Binary {
            opcode: Opcode::Iadd,
            args: [a, b],
            ..
        } if func.dfg.value_type(a).is_int() => Some(Sum::add(a, b)),
        InstData::Binary {
            opcode: Opcode::PtrOffset,
            args: [p, off],
            ..
        } => Some(Sum::Offset(p, off)),
        _ => None,
    }
}

/// The sum that defines `v`, if any.
fn def_sum(func: &Function, v: Value) -> Option<Sum> {
    match func.dfg.value_def(v) {
        ValueDef::Result(inst, 0) => sum_of(func, inst),
        _ => None,
    }
}

/// `nary`, reporting how many sums were regrouped.
pub fn nary_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    let cfg = ControlFlowGraph::compute(func);
    let dt = DominatorTree::compute(func, &cfg);
    // Every sum seen so far (in dominator-compatible order: reverse postorder, and within a
    // block in layout order), with where it is available.
    let mut seen: FxHashMap<Sum, Vec<(Value, Block)>> = FxHashMap::default();
    let mut count = 0;
    for &b in dt.rpo() {
        let insts: Vec<Inst> = func.layout.block_insts(b).collect();
        for inst in insts {
            let (Some(sum), Some(res)) = (sum_of(func, inst), func.dfg.first_result(inst)) else {
                continue;
            };
            let available = |s: Sum, seen: &FxHashMap<Sum, Vec<(Value, Block)>>| {
                seen.get(&s)?
                    .iter()
                    .rev()
                    .find(|&&(_, at)| dt.dominates(at, b))
                    .map(|&(v, _)| v)
            };
            // (existing part, the remaining operand, whether the new sum is exact) of a
            // regrouping of `sum`.
            let mut regroup: Option<(Value, Value, bool)> = None;
            match sum {
                Sum::Add(x, y) => {
                    'outer: for (inner, c) in [(x, y), (y, x)] {
                        if let Some(Sum::Add(a, bb)) = def_sum(func, inner) {
                            let exact = func.dfg.inst(inst).is_nsw() && nsw_value(func, inner);
                            for (keep, rest) in [(a, bb), (bb, a)] {
                                // `t == inner` regroups into the same sum (`(a + 1) + 1`
                                // with `a + 1` available): nothing to gain, and rebuilding it
                                // would drop its flags.
                                if let Some(t) = available(Sum::add(keep, c), &seen)
                                    && t != res
                                    && t != inner
                                {
                                    regroup = Some((t, rest, exact && nsw_value(func, t)));
                                    break 'outer;
                                }
                            }
                        }
                    }
                }
                Sum::Offset(inner, j) => {
                    if let Some(Sum::Offset(p, i)) = def_sum(func, inner)
                        && let Some(t) = available(Sum::Offset(p, j), &seen)
                        && t != res
                    {
                        regroup = Some((t, i, false));
                    }
                }
            }
            let mut value = res;
            if let Some((t, rest, exact)) = regroup {
                let mut cur = FuncCursor::new(func);
                cur.goto_inst(inst);
                let flags = if exact {
                    ArithFlags::NSW
                } else {
                    ArithFlags::NONE
                };
                let new = match sum {
                    Sum::Add(..) => cur.ins().binary_flags(Opcode::Iadd, flags, t, rest),
                    Sum::Offset(..) => cur.ins().ptr_offset(t, rest),
                };
                func.replace_all_uses(res, new);
                value = new;
                count += 1;
            }
            let key = match value == res {
                true => sum,
                false => def_sum(func, value).unwrap_or(sum),
            };
            seen.entry(key).or_default().push((value, b));
            if key != sum {
                // The old grouping stays known: its value is the same.
                seen.entry(sum).or_default().push((value, b));
            }
        }
    }
    if count > 0 {
        remarks.emit(
            Default::default(),
            format!(
                "regrouped {} to reuse a computed part",
                plural(count, "sum", "sums")
            ),
        );
    }
    count > 0
}
