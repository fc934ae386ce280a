//! contract: floating-point contraction of a multiply feeding an add or subtract into one
//! `fma` (PTX `fma.rn`, the `mad` of older targets), following the `fp-contract` knob.
//!
//! `a*b + c` and `c + a*b` become `fma a, b, c`; `a*b - c` becomes `fma a, b, -c`; `c - a*b`
//! becomes `fma -a, b, c`. The product is rounded once instead of twice, so results may differ
//! in the last bit from separately rounded code: that is what `-ffp-contract` permits.
//! - `off`: nothing changes. The device math library (stdlib) must be compiled this way: its
//!   error bounds are measured with separately rounded products.
//! - `on`: only a product with a single use, in the same block as the add (the shape of one
//!   C expression; the IR no longer knows expression boundaries).
//! - `fast` (gcc's default for GNU C): any product whose only uses are adds/subtracts, across
//!   blocks.
//!
//! The multiply is left for DCE once nothing uses it; a product with another use (not an add
//! or subtract) is never contracted, so the multiply is not computed twice.

use crate::knobs::{FpContract, Knobs};
use crate::remarks::{Remarks, plural};
use crate::util::{all_insts, fconst_value};
use ompcc_ir::analysis::DefUse;
use ompcc_ir::{FuncCursor, Function, Inst, InstData, Opcode, Value, ValueDef};

/// Runs the pass with `fp-contract=fast`.
pub fn contract(func: &mut Function) -> bool {
    contract_with_remarks(func, &Knobs::default(), &mut Remarks::default())
}

/// The `fmul` defining `v`, when contracting it is allowed for a use in `user`.
fn product(func: &Function, du: &DefUse, v: Value, user: Inst, mode: FpContract) -> Option<Inst> {
    let ValueDef::Result(mul, 0) = func.dfg.value_def(v) else {
        return None;
    };
    if func.dfg.inst(mul).opcode() != Opcode::Fmul {
        return None;
    }
    let users = du.users(v);
    let ok = match mode {
        FpContract::Off => false,
        FpContract::On => {
            users.len() == 1 && func.layout.inst_block(mul) == func.layout.inst_block(user)
        }
        FpContract::Fast => users
            .iter()
            // An `fma` user is an add this pass already contracted.
            .all(|&u| {
                matches!(
                    func.dfg.inst(u).opcode(),
                    Opcode::Fadd | Opcode::Fsub | Opcode::Fma
                )
            }),
    };
    ok.then_some(mul)
}

/// `contract`, reading `fp-contract` from `knobs` and reporting the number of fmas formed.
pub fn contract_with_remarks(func: &mut Function, knobs: &Knobs, remarks: &mut Remarks) -> bool {
    if knobs.fp_contract == FpContract::Off {
        return false;
    }
    let du = DefUse::compute(func);
    let mut formed = 0;
    for inst in all_insts(func) {
        let InstData::Binary { opcode, args, .. } = *func.dfg.inst(inst) else {
            continue;
        };
        if !matches!(opcode, Opcode::Fadd | Opcode::Fsub) {
            continue;
        }
        let mode = knobs.fp_contract;
        // Prefer the first operand as the product (`a*b + c`, `a*b - c`).
        let (mul, other, product_first) = match (
            product(func, &du, args[0], inst, mode),
            product(func, &du, args[1], inst, mode),
        ) {
            (Some(m), _) => (m, args[1], true),
            (None, Some(m)) => (m, args[0], false),
            (None, None) => continue,
        };
        let [a, b] = match func.dfg.inst(mul) {
            InstData::Binary { args, .. } => *args,
            _ => continue,
        };
        let loc = func.srcloc(inst);
        let mut cur = FuncCursor::new(func);
        cur.goto_inst(inst);
        cur.set_srcloc(loc);
        // A negated constant is a new constant, not an `fneg` left in the loop.
        let neg = |cur: &mut FuncCursor, v: Value| match fconst_value(cur.func, v) {
            Some(c) => {
                let ty = cur.func.dfg.value_type(v);
                cur.ins().fconst(ty, -c)
            }
            None => cur.ins().fneg(v),
        };
        let (x, y, z) = match (opcode, product_first) {
            (Opcode::Fadd, _) => (a, b, other),
            (_, true) => (a, b, neg(&mut cur, other)),
            // c - a*b: negate the factor that is a constant, if one is
            (_, false) if fconst_value(cur.func, b).is_some() => (a, neg(&mut cur, b), other),
            (_, false) => (neg(&mut cur, a), b, other),
        };
        *cur.func.dfg.inst_mut(inst) = InstData::Ternary {
            opcode: Opcode::Fma,
            args: [x, y, z],
        };
        formed += 1;
    }
    if formed > 0 {
        remarks.emit(
            Default::default(),
            format!(
                "contracted {} (fp-contract={})",
                plural(
                    formed,
                    "multiply-add into an fma",
                    "multiply-adds into fmas"
                ),
                knobs.fp_contract
            ),
        );
    }
    formed > 0
}
