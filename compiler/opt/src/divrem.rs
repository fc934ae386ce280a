//! divrem: a remainder whose quotient is also computed becomes `a - (a / b) * b`.
//!
//! GPUs have no divide instruction: each `div`/`rem` expands to a long sequence (a 64-bit one
//! to a much longer one), while a multiply and a subtract are two cheap instructions. Code that
//! splits a flat index (`row = k / n; col = k % n`) divides twice by the same divisor; after
//! this pass it divides once. For each `srem a, b` (`urem`) with an `sdiv a, b` (`udiv`) of the
//! same operands:
//!
//! - the division dominates the remainder: the remainder becomes `isub a, (imul q, b)`;
//! - the remainder dominates the division: a division is created at the remainder, the later
//!   one takes its value, and the remainder is rewritten as above.
//!
//! Otherwise (neither dominates) nothing changes. The identity holds for C's truncating
//! division at every operand the original division accepts, and the division only moves to a
//! point where the remainder, which fails on the same operands, already ran. Runs before
//! `divbypass`, so only the remaining division gets a 32-bit path.

use crate::remarks::{Remarks, plural};
use ompcc_ir::analysis::{ControlFlowGraph, DominatorTree};
use ompcc_ir::{Function, InsertBuilder, InsertPoint, Inst, InstData, Opcode, Value};

/// Runs the pass; returns whether anything changed.
pub fn divrem(func: &mut Function) -> bool {
    divrem_with_remarks(func, &mut Remarks::default())
}

/// The division matching a remainder opcode.
fn quotient_of(rem: Opcode) -> Option<Opcode> {
    match rem {
        Opcode::Srem => Some(Opcode::Sdiv),
        Opcode::Urem => Some(Opcode::Udiv),
        _ => None,
    }
}

fn binary(func: &Function, inst: Inst) -> Option<(Opcode, Value, Value)> {
    match func.dfg.inst(inst) {
        InstData::Binary { opcode, args, .. } => Some((*opcode, args[0], args[1])),
        _ => None,
    }
}

/// `divrem`, reporting how many remainders now reuse a quotient.
pub fn divrem_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    let cfg = ControlFlowGraph::compute(func);
    let dt = DominatorTree::compute(func, &cfg);
    let insts: Vec<Inst> = func.layout.all_insts().collect();
    let divs: Vec<(Opcode, Value, Value, Inst)> = insts
        .iter()
        .filter_map(|&i| {
            let (op, a, b) = binary(func, i)?;
            matches!(op, Opcode::Sdiv | Opcode::Udiv).then_some((op, a, b, i))
        })
        .collect();
    let mut count = 0;
    for &rem in &insts {
        let Some((op, a, b)) = binary(func, rem) else {
            continue;
        };
        let Some(qop) = quotient_of(op) else { continue };
        let Some(r) = func.dfg.first_result(rem) else {
            continue;
        };
        let matching = divs.iter().filter(|&&(o, x, y, d)| {
            o == qop && x == a && y == b && func.layout.inst_block(d).is_some()
        });
        let mut quotient = None;
        for &(_, _, _, div) in matching.clone() {
            let Some(q) = func.dfg.first_result(div) else {
                continue;
            };
            if dt.value_dominates(func, q, rem) {
                quotient = Some(q);
                break;
            }
        }
        if quotient.is_none() {
            // A division the remainder dominates moves up to the remainder.
            let later = matching.clone().find(|&&(_, _, _, div)| {
                dt.value_dominates(func, r, div) && func.dfg.first_result(div).is_some()
            });
            if let Some(&(_, _, _, div)) = later {
                let old = func.dfg.first_result(div).expect("checked above");
                let loc = func.srcloc(rem);
                let q = {
                    let b_ = InsertBuilder::new(func, InsertPoint::Before(rem)).with_srcloc(loc);
                    if qop == Opcode::Sdiv {
                        b_.sdiv(a, b)
                    } else {
                        b_.udiv(a, b)
                    }
                };
                func.replace_all_uses(old, q);
                func.layout.remove_inst(div);
                quotient = Some(q);
            }
        }
        let Some(q) = quotient else { continue };
        let loc = func.srcloc(rem);
        let m = InsertBuilder::new(func, InsertPoint::Before(rem))
            .with_srcloc(loc)
            .imul(q, b);
        let diff = InsertBuilder::new(func, InsertPoint::Before(rem))
            .with_srcloc(loc)
            .isub(a, m);
        func.replace_all_uses(r, diff);
        func.layout.remove_inst(rem);
        count += 1;
    }
    if count > 0 {
        remarks.emit(
            Default::default(),
            format!(
                "{} the quotient computed beside {}",
                plural(count, "remainder reuses", "remainders reuse"),
                if count == 1 { "it" } else { "them" }
            ),
        );
    }
    count > 0
}
