//! simplify: constant folding and algebraic identities.
//!
//! Visits instructions in reverse postorder (definitions before uses, outside loops' back
//! edges), so a fold feeds the folds after it. An instruction whose result becomes a new
//! constant is rewritten in place into `iconst`/`fconst` (its result value stays); one whose
//! result equals an existing value is removed and its uses rewired. Nothing with side effects
//! is touched, and folds that would trap (division by zero, `MIN / -1`) are left alone.
//! Shift amounts are taken modulo the width, as the IR defines them. Integer constants are kept
//! sign-extended from their width (`normalize_imm`), so signed and unsigned views come from
//! the same `i64`. Float folds compute in the operand type with Rust's IEEE arithmetic.
//! Constants move to the right-hand side of commutative integer operations.

use crate::util::{Replacements, fconst_value, iconst_value, mask};
use ompcc_ir::analysis::{ControlFlowGraph, DominatorTree};
use ompcc_ir::builder::normalize_imm;
use ompcc_ir::{Block, FloatCC, Function, Inst, InstData, IntCC, Opcode, Type, Value};

enum Fold {
    Int(i64),
    Float(f64),
    Alias(Value),
}

fn fold_int_binary(op: Opcode, ty: Type, a: i64, b: i64) -> Option<i64> {
    let bits = ty.bits();
    let m = mask(ty);
    let (ua, ub) = (a as u64 & m, b as u64 & m);
    let min = normalize_imm(ty, 1i64 << (bits - 1));
    let amt = (ub % bits as u64) as u32;
    let v = match op {
        Opcode::Iadd => a.wrapping_add(b),
        Opcode::Isub => a.wrapping_sub(b),
        Opcode::Imul => a.wrapping_mul(b),
        Opcode::Sdiv if b != 0 && !(a == min && b == -1) => a / b,
        Opcode::Srem if b != 0 && !(a == min && b == -1) => a % b,
        Opcode::Udiv if ub != 0 => (ua / ub) as i64,
        Opcode::Urem if ub != 0 => (ua % ub) as i64,
        Opcode::Smulhi => ((a as i128 * b as i128) >> bits) as i64,
        Opcode::Umulhi => ((ua as u128 * ub as u128) >> bits) as i64,
        Opcode::And => a & b,
        Opcode::Or => a | b,
        Opcode::Xor => a ^ b,
        Opcode::Shl => (ua << amt) as i64,
        Opcode::Lshr => (ua >> amt) as i64,
        Opcode::Ashr => a >> amt,
        Opcode::Smin => a.min(b),
        Opcode::Smax => a.max(b),
        Opcode::Umin => ua.min(ub) as i64,
        Opcode::Umax => ua.max(ub) as i64,
        _ => return None,
    };
    Some(normalize_imm(ty, v))
}

fn fold_int_unary(op: Opcode, ty: Type, to: Type, a: i64) -> Option<i64> {
    let bits = ty.bits();
    let ua = a as u64 & mask(ty);
    let v = match op {
        Opcode::Neg => a.wrapping_neg(),
        Opcode::Not => !a,
        Opcode::Popcnt => ua.count_ones() as i64,
        Opcode::Clz => (ua.leading_zeros() - (64 - bits)) as i64,
        Opcode::Ctz if ua == 0 => bits as i64,
        Opcode::Ctz => ua.trailing_zeros() as i64,
        Opcode::Bswap => (ua.swap_bytes() >> (64 - bits)) as i64,
        Opcode::Sext | Opcode::Trunc => a,
        Opcode::Zext => ua as i64,
        _ => return None,
    };
    Some(normalize_imm(to, v))
}

fn icmp(cc: IntCC, ty: Type, a: i64, b: i64) -> bool {
    let m = mask(ty);
    let (ua, ub) = (a as u64 & m, b as u64 & m);
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

fn fcmp(cc: FloatCC, a: f64, b: f64) -> bool {
    let uno = a.is_nan() || b.is_nan();
    match cc {
        FloatCC::Oeq => a == b,
        FloatCC::One => !uno && a != b,
        FloatCC::Olt => a < b,
        FloatCC::Ole => a <= b,
        FloatCC::Ogt => a > b,
        FloatCC::Oge => a >= b,
        FloatCC::Ord => !uno,
        FloatCC::Ueq => uno || a == b,
        FloatCC::Une => a != b,
        FloatCC::Ult => uno || a < b,
        FloatCC::Ule => uno || a <= b,
        FloatCC::Ugt => uno || a > b,
        FloatCC::Uge => uno || a >= b,
        FloatCC::Uno => uno,
    }
}

fn fold_float_binary(op: Opcode, ty: Type, a: f64, b: f64) -> Option<f64> {
    if ty == Type::F32 {
        let (a, b) = (a as f32, b as f32);
        let v = match op {
            Opcode::Fadd => a + b,
            Opcode::Fsub => a - b,
            Opcode::Fmul => a * b,
            Opcode::Fdiv => a / b,
            _ => return None,
        };
        Some(v as f64)
    } else {
        Some(match op {
            Opcode::Fadd => a + b,
            Opcode::Fsub => a - b,
            Opcode::Fmul => a * b,
            Opcode::Fdiv => a / b,
            _ => return None,
        })
    }
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
        InstData::Binary { opcode, mut args } => {
            if is_commutative(opcode)
                && iconst_value(func, args[0]).is_some()
                && iconst_value(func, args[1]).is_none()
            {
                args.swap(0, 1);
                *func.dfg.inst_mut(inst) = InstData::Binary { opcode, args };
            }
            let [x, y] = args;
            let (cx, cy) = (iconst_value(func, x), iconst_value(func, y));
            if rty.is_int() {
                if let (Some(a), Some(b)) = (cx, cy) {
                    return fold_int_binary(opcode, rty, a, b).map(Fold::Int);
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
                return fold_float_binary(opcode, rty, a, b).map(Fold::Float);
            }
            None
        }
        InstData::Unary { opcode, arg } => {
            let aty = func.dfg.value_type(arg);
            if let Some(a) = iconst_value(func, arg)
                && rty.is_int()
            {
                return fold_int_unary(opcode, aty, rty, a).map(Fold::Int);
            }
            if let Some(a) = fconst_value(func, arg) {
                let v = match opcode {
                    Opcode::Fneg => -a,
                    Opcode::Fabs => a.abs(),
                    Opcode::Fpext => a,
                    Opcode::Fptrunc => a as f32 as f64,
                    _ => return None,
                };
                return Some(Fold::Float(v));
            }
            if let Some(a) = iconst_value(func, arg) {
                let signed = normalize_imm(aty, a);
                let unsigned = a as u64 & mask(aty);
                let v = match opcode {
                    Opcode::Sitofp => signed as f64,
                    Opcode::Uitofp => unsigned as f64,
                    _ => return None,
                };
                // Round once, directly to the target type.
                let v = if rty == Type::F32 {
                    match opcode {
                        Opcode::Sitofp => signed as f32 as f64,
                        _ => unsigned as f32 as f64,
                    }
                } else {
                    v
                };
                return Some(Fold::Float(v));
            }
            match opcode {
                Opcode::Not | Opcode::Neg | Opcode::Fneg => {
                    unary_of(func, arg, opcode).map(Fold::Alias)
                }
                _ => None,
            }
        }
        InstData::IntCompare { cond, args: [x, y] } => {
            let ty = func.dfg.value_type(x);
            if let (Some(a), Some(b)) = (iconst_value(func, x), iconst_value(func, y)) {
                return Some(Fold::Int(icmp(cond, ty, a, b) as i64));
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
            Some(Fold::Int(fcmp(cond, a, b) as i64))
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

/// Runs simplify; returns whether anything changed.
pub fn simplify(func: &mut Function) -> bool {
    let cfg = ControlFlowGraph::compute(func);
    let dt = DominatorTree::compute(func, &cfg);
    let mut order: Vec<Block> = dt.rpo().to_vec();
    order.extend(func.layout.blocks().filter(|&b| !dt.is_reachable(b)));
    let mut repl = Replacements::default();
    let mut changed = false;
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
    changed
}
