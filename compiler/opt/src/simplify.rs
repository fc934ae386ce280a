//! simplify: constant folding and algebraic identities.
//!
//! Visits instructions in reverse postorder (definitions before uses, outside loops' back
//! edges), so a fold feeds the folds after it. An instruction whose result becomes a new
//! constant is rewritten in place into `iconst`/`fconst` (its result value stays); one whose
//! result equals an existing value is removed and its uses rewired. Nothing with side effects
//! is touched, and folds that would trap (division by zero, `MIN / -1`) are left alone.
//! Shifts follow the IR's PTX-like semantics (`ompcc_ir::semantics`). Integer constants are kept
//! sign-extended from their width (`normalize_imm`), so signed and unsigned views come from
//! the same `i64`. Float folds compute in the operand type with Rust's IEEE arithmetic.
//! Constants move to the right-hand side of commutative integer operations. First, block
//! parameters that receive the same value on every edge (or themselves, around a loop) are
//! replaced by that value.

use crate::remarks::{Remarks, plural};
use crate::util::{Replacements, fconst_value, iconst_value};
use ompcc_ir::analysis::{ControlFlowGraph, DominatorTree};
use ompcc_ir::builder::normalize_imm;
use ompcc_ir::semantics;
use ompcc_ir::{Block, Function, Inst, InstData, IntCC, Opcode, Type, Value};

enum Fold {
    Int(i64),
    Float(f64),
    Alias(Value),
}

fn is_commutative(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Iadd
            | Opcode::Imul
            | Opcode::And
            | Opcode::Or
            | Opcode::Xor
            | Opcode::Smin
            | Opcode::Smax
            | Opcode::Umin
            | Opcode::Umax
            | Opcode::Smulhi
            | Opcode::Umulhi
    )
}

/// The operand of a unary instruction defining `v`, if it has opcode `op`.
fn unary_of(func: &Function, v: Value, op: Opcode) -> Option<Value> {
    match func.dfg.value_def(v) {
        ompcc_ir::ValueDef::Result(i, 0) => match func.dfg.inst(i) {
            InstData::Unary { opcode, arg } if *opcode == op => Some(*arg),
            _ => None,
        },
        _ => None,
    }
}

fn simplify_inst(func: &mut Function, inst: Inst) -> Option<Fold> {
    let res = *func.dfg.inst_results(inst).first()?;
    let rty = func.dfg.value_type(res);
    let data = func.dfg.inst(inst).clone();
    match data {
        InstData::Binary {
            opcode,
            mut args,
            flags,
        } => {
            if is_commutative(opcode)
                && iconst_value(func, args[0]).is_some()
                && iconst_value(func, args[1]).is_none()
            {
                // Swapping a commutative operation's operands keeps its facts.
                args.swap(0, 1);
                *func.dfg.inst_mut(inst) = InstData::Binary {
                    opcode,
                    args,
                    flags,
                };
            }
            let [x, y] = args;
            let (cx, cy) = (iconst_value(func, x), iconst_value(func, y));
            if rty.is_int() {
                if let (Some(a), Some(b)) = (cx, cy) {
                    return semantics::int_binary(opcode, rty, a, b).map(Fold::Int);
                }
                if let Some(fold) = cancelling_constants(func, opcode, x, cy) {
                    return Some(fold);
                }
                let all_ones = normalize_imm(rty, -1);
                return match (opcode, cy) {
                    (Opcode::Iadd | Opcode::Isub | Opcode::Or | Opcode::Xor, Some(0)) => {
                        Some(Fold::Alias(x))
                    }
                    (Opcode::Shl | Opcode::Lshr | Opcode::Ashr, Some(0)) => Some(Fold::Alias(x)),
                    (Opcode::Imul | Opcode::Sdiv | Opcode::Udiv, Some(1)) => Some(Fold::Alias(x)),
                    (Opcode::Imul | Opcode::And, Some(0)) => Some(Fold::Int(0)),
                    (Opcode::And, Some(c)) if c == all_ones => Some(Fold::Alias(x)),
                    (Opcode::Or, Some(c)) if c == all_ones => Some(Fold::Int(all_ones)),
                    (Opcode::Isub | Opcode::Xor, _) if x == y => Some(Fold::Int(0)),
                    (
                        Opcode::And
                        | Opcode::Or
                        | Opcode::Smin
                        | Opcode::Smax
                        | Opcode::Umin
                        | Opcode::Umax,
                        _,
                    ) if x == y => Some(Fold::Alias(x)),
                    _ => None,
                };
            }
            if opcode == Opcode::PtrOffset && cy == Some(0) {
                return Some(Fold::Alias(x));
            }
            if rty.is_float()
                && let (Some(a), Some(b)) = (fconst_value(func, x), fconst_value(func, y))
            {
                return semantics::float_binary(opcode, rty, a, b).map(Fold::Float);
            }
            None
        }
        InstData::Unary { opcode, arg } => {
            let aty = func.dfg.value_type(arg);
            if let Some(a) = iconst_value(func, arg) {
                if rty.is_int() {
                    return semantics::int_unary(opcode, aty, rty, a).map(Fold::Int);
                }
                let signed = match opcode {
                    Opcode::Sitofp => true,
                    Opcode::Uitofp => false,
                    _ => return None,
                };
                return Some(Fold::Float(semantics::int_to_float(signed, aty, rty, a)));
            }
            if let Some(a) = fconst_value(func, arg) {
                return match opcode {
                    Opcode::Fpext => Some(Fold::Float(a)),
                    Opcode::Fptrunc => Some(Fold::Float(a as f32 as f64)),
                    Opcode::Fptosi | Opcode::Fptoui => Some(Fold::Int(semantics::float_to_int(
                        opcode == Opcode::Fptosi,
                        rty,
                        a,
                    ))),
                    _ => semantics::float_unary(opcode, rty, a).map(Fold::Float),
                };
            }
            match opcode {
                Opcode::Not | Opcode::Neg | Opcode::Fneg => {
                    unary_of(func, arg, opcode).map(Fold::Alias)
                }
                Opcode::Trunc => trunc_of_ext(func, arg, rty),
                _ => None,
            }
        }
        InstData::IntCompare { cond, args: [x, y] } => {
            let ty = func.dfg.value_type(x);
            if let (Some(a), Some(b)) = (iconst_value(func, x), iconst_value(func, y)) {
                return Some(Fold::Int(semantics::icmp(cond, ty, a, b) as i64));
            }
            if x == y {
                let v = matches!(
                    cond,
                    IntCC::Eq | IntCC::Sle | IntCC::Sge | IntCC::Ule | IntCC::Uge
                );
                return Some(Fold::Int(v as i64));
            }
            None
        }
        InstData::FloatCompare { cond, args: [x, y] } => {
            let (a, b) = (fconst_value(func, x)?, fconst_value(func, y)?);
            Some(Fold::Int(semantics::fcmp(cond, a, b) as i64))
        }
        InstData::Ternary {
            opcode: Opcode::Select,
            args: [c, x, y],
        } => {
            if x == y {
                return Some(Fold::Alias(x));
            }
            iconst_value(func, c).map(|c| Fold::Alias(if c != 0 { x } else { y }))
        }
        _ => None,
    }
}

/// `(x + c) - c` (either step `+` or `-` of a constant, the two cancelling) is `x`: the
/// `y + 1 - 1` of an unrolled `y + dy - 1`. Integer sums wrap, so this is exact. Chains that
/// do not cancel are left to `reassoc`, which follows `nsw` steps through sign extensions:
/// merging them here could lose the flag (GVN keeps a merged twin's flags only when both
/// have them).
fn cancelling_constants(
    func: &Function,
    opcode: Opcode,
    x: Value,
    c2: Option<i64>,
) -> Option<Fold> {
    let step = |op: Opcode, c: i64| match op {
        Opcode::Iadd => Some(c as i128),
        Opcode::Isub => Some(-(c as i128)),
        _ => None,
    };
    let c2 = step(opcode, c2?)?;
    let ompcc_ir::ValueDef::Result(def, 0) = func.dfg.value_def(x) else {
        return None;
    };
    let InstData::Binary {
        opcode: op1,
        args: [inner, k],
        ..
    } = *func.dfg.inst(def)
    else {
        return None;
    };
    let c1 = step(op1, iconst_value(func, k)?)?;
    (c1 + c2 == 0 && iconst_value(func, inner).is_none()).then_some(Fold::Alias(inner))
}

/// `trunc(ext y)` is `y` when `y` has the result's type.
fn trunc_of_ext(func: &Function, arg: Value, rty: Type) -> Option<Fold> {
    [Opcode::Sext, Opcode::Zext]
        .into_iter()
        .find_map(|op| unary_of(func, arg, op))
        .filter(|&y| func.dfg.value_type(y) == rty)
        .map(Fold::Alias)
}

/// Replaces block parameters that receive one value on every incoming edge (other than the
/// parameter itself, around a loop) by that value, removing the parameter and its arguments.
/// Repeats until no such parameter is left, since one removal can make another redundant.
fn redundant_params(func: &mut Function, cfg: &ControlFlowGraph, dt: &DominatorTree) -> bool {
    let entry = func.layout.entry_block();
    let mut changed = false;
    loop {
        let mut repl = Replacements::default();
        for &b in dt.rpo() {
            if Some(b) == entry {
                continue;
            }
            let params = func.dfg.block_params(b).to_vec();
            for (i, &p) in params.iter().enumerate().rev() {
                let mut same: Option<Value> = None;
                let mut redundant = true;
                for &(_, br) in cfg.preds(b) {
                    for call in func
                        .dfg
                        .branch_destinations(br)
                        .iter()
                        .filter(|c| c.block == b)
                    {
                        let a = func.dfg.block_call_args(call).get(i).copied();
                        match a {
                            Some(a) if a == p => {}
                            Some(a) if same.is_none() || same == Some(a) => same = Some(a),
                            _ => redundant = false,
                        }
                    }
                }
                let Some(v) = same.filter(|_| redundant) else {
                    continue;
                };
                // A value defined in `b` itself cannot replace its parameter (it would not
                // dominate its uses); this only happens in unreachable code.
                let defined_in_b = match func.dfg.value_def(v) {
                    ompcc_ir::ValueDef::Result(d, _) => func.layout.inst_block(d) == Some(b),
                    ompcc_ir::ValueDef::Param(pb, _) => pb == b,
                    ompcc_ir::ValueDef::Placeholder => true,
                };
                if defined_in_b {
                    continue;
                }
                for &(_, br) in cfg.preds(b) {
                    let (calls, pool) = func.dfg.branch_destinations_and_pool(br);
                    for call in calls.iter_mut().filter(|c| c.block == b) {
                        if i < call.args.len(pool) {
                            call.args.remove(i, pool);
                        }
                    }
                }
                func.dfg.remove_block_param(b, i);
                repl.insert(p, v);
            }
        }
        if repl.is_empty() {
            return changed;
        }
        repl.apply(func);
        changed = true;
    }
}

/// Runs simplify; returns whether anything changed.
pub fn simplify(func: &mut Function) -> bool {
    simplify_with_remarks(func, &mut Remarks::default())
}

/// `simplify`, reporting how many instructions it folds to `remarks`.
pub fn simplify_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    let cfg = ControlFlowGraph::compute(func);
    let dt = DominatorTree::compute(func, &cfg);
    let params_changed = redundant_params(func, &cfg, &dt);
    let mut order: Vec<Block> = dt.rpo().to_vec();
    order.extend(func.layout.blocks().filter(|&b| !dt.is_reachable(b)));
    let mut repl = Replacements::default();
    let mut changed = false;
    let (mut folded, mut aliased) = (0, 0);
    for b in order {
        let insts: Vec<Inst> = func.layout.block_insts(b).collect();
        for inst in insts {
            repl.apply_to_inst(func, inst);
            if func.dfg.inst(inst).opcode().has_side_effects() {
                continue;
            }
            let Some(fold) = simplify_inst(func, inst) else {
                continue;
            };
            let res = func.dfg.inst_results(inst)[0];
            let ty = func.dfg.value_type(res);
            match &fold {
                Fold::Alias(_) => aliased += 1,
                _ => folded += 1,
            }
            match fold {
                Fold::Int(v) => {
                    *func.dfg.inst_mut(inst) = InstData::UnaryImm {
                        opcode: Opcode::Iconst,
                        imm: normalize_imm(ty, v),
                    }
                }
                Fold::Float(x) => {
                    let x = if ty == Type::F32 { x as f32 as f64 } else { x };
                    *func.dfg.inst_mut(inst) = InstData::UnaryIeee {
                        opcode: Opcode::Fconst,
                        bits: x.to_bits(),
                    }
                }
                Fold::Alias(v) => {
                    repl.insert(res, v);
                    func.layout.remove_inst(inst);
                }
            }
            changed = true;
        }
    }
    repl.apply(func);
    if remarks.wants() && (folded > 0 || aliased > 0) {
        let mut parts = Vec::new();
        if folded > 0 {
            parts.push(format!(
                "folded {} to constants",
                plural(folded, "instruction", "instructions")
            ));
        }
        if aliased > 0 {
            parts.push(format!(
                "replaced {} by an operand",
                plural(aliased, "instruction", "instructions")
            ));
        }
        remarks.emit(Default::default(), parts.join(", "));
    }
    changed || params_changed
}
