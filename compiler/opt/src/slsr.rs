//! slsr: straight-line strength reduction of multiplications (the gpucc paper's "mul form").
//!
//! Unrolled loops and stencils compute several products of one variable stride with indices
//! a constant apart: `(b + 1) * s`, `b * s`, `(b - 1) * s`, typically rows of a 2-D array.
//! Each product `x = (b + c2) * s` (`s` not a constant; `b + c` is an `iadd`/`isub` with a
//! constant, or plain `b` for c = 0) whose basis `y = (b + c1) * s` with the same `b` and `s`
//! dominates it is rebuilt from the nearest such basis as `y + (c2 - c1) * s`, when the
//! difference is +-1 (one add) or +-2^k (a shift and an add); other differences would need a
//! multiplication again. The identity is exact in wrapping arithmetic, so no overflow
//! reasoning is needed. A rebuilt product serves as the basis of later ones, chaining the rows.
//! The old multiplications are left for DCE.

use crate::remarks::{Remarks, plural};
use crate::util::iconst_value;
use ompcc_ir::analysis::{ControlFlowGraph, DominatorTree};
use ompcc_ir::{Block, FuncCursor, Function, Inst, InstData, Opcode, Type, Value, ValueDef};

/// Runs the pass; returns whether anything changed.
pub fn slsr(func: &mut Function) -> bool {
    slsr_with_remarks(func, &mut Remarks::default())
}

/// A product `(base + konst) * stride` available as `value` from `block` on.
struct Candidate {
    base: Value,
    stride: Value,
    konst: i64,
    value: Value,
    block: Block,
}

/// How far back (in candidates) a basis is searched for: keeps the pass linear.
const SEARCH: usize = 64;

/// `x` as `(base, konst)`: `iadd b, C`, `iadd C, b`, `isub b, C`, or `(x, 0)`.
fn split(func: &Function, x: Value) -> (Value, i64) {
    if let ValueDef::Result(inst, 0) = func.dfg.value_def(x)
        && let InstData::Binary { opcode, args } = func.dfg.inst(inst)
    {
        let (c0, c1) = (iconst_value(func, args[0]), iconst_value(func, args[1]));
        match (opcode, c0, c1) {
            (Opcode::Iadd, None, Some(c)) => return (args[0], c),
            (Opcode::Iadd, Some(c), None) => return (args[1], c),
            (Opcode::Isub, None, Some(c)) => return (args[0], c.wrapping_neg()),
            _ => {}
        }
    }
    (x, 0)
}

/// The candidate shapes of an `imul`: each operand in turn as the stride.
fn shapes(func: &Function, inst: Inst) -> Vec<(Value, i64, Value)> {
    let InstData::Binary {
        opcode: Opcode::Imul,
        args,
    } = func.dfg.inst(inst)
    else {
        return Vec::new();
    };
    if !func.dfg.value_type(args[0]).is_int() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (idx, other) in [(0, 1), (1, 0)] {
        let (s, x) = (args[idx], args[other]);
        if iconst_value(func, s).is_some() {
            continue;
        }
        let (b, c) = split(func, x);
        out.push((b, c, s));
    }
    out
}

/// `slsr`, reporting how many multiplications became additions.
pub fn slsr_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    let cfg = ControlFlowGraph::compute(func);
    let dt = DominatorTree::compute(func, &cfg);
    let mut cands: Vec<Candidate> = Vec::new();
    let mut count = 0;
    for &b in dt.rpo() {
        let insts: Vec<Inst> = func.layout.block_insts(b).collect();
        for inst in insts {
            let Some(res) = func.dfg.first_result(inst) else {
                continue;
            };
            let shapes = shapes(func, inst);
            if shapes.is_empty() {
                continue;
            }
            let ty = func.dfg.value_type(res);
            let mut value = res;
            'find: for &(base, konst, stride) in &shapes {
                for c in cands.iter().rev().take(SEARCH) {
                    if c.base != base || c.stride != stride || !dt.dominates(c.block, b) {
                        continue;
                    }
                    let d = konst.wrapping_sub(c.konst);
                    let Some(r) = rebuild(func, inst, ty, c.value, stride, d) else {
                        continue;
                    };
                    func.replace_all_uses(res, r);
                    value = r;
                    count += 1;
                    break 'find;
                }
            }
            for (base, konst, stride) in shapes {
                cands.push(Candidate {
                    base,
                    stride,
                    konst,
                    value,
                    block: b,
                });
            }
        }
    }
    if count > 0 {
        remarks.emit(
            Default::default(),
            format!(
                "turned {} into additions",
                plural(count, "multiplication", "multiplications")
            ),
        );
    }
    count > 0
}

/// `basis + d * stride` before `inst`, when `d` is +-2^k (k < bits); `None` otherwise.
fn rebuild(
    func: &mut Function,
    inst: Inst,
    ty: Type,
    basis: Value,
    stride: Value,
    d: i64,
) -> Option<Value> {
    let mag = d.unsigned_abs();
    if d == 0 || !mag.is_power_of_two() || mag.trailing_zeros() >= ty.bits() {
        return None;
    }
    let mut cur = FuncCursor::new(func);
    cur.goto_inst(inst);
    let step = if mag == 1 {
        stride
    } else {
        let k = cur.ins().iconst(ty, i64::from(mag.trailing_zeros()));
        cur.ins().shl(stride, k)
    };
    Some(if d > 0 {
        cur.ins().iadd(basis, step)
    } else {
        cur.ins().isub(basis, step)
    })
}
