//! reassoc: pointer-offset reassociation, so constant parts of addresses end up in the PTX
//! `[reg+imm]` addressing mode.
//!
//! The PTX emitter folds an access through `ptr_offset base, C` (C a constant) into
//! `[base+C]`. This pass rewrites `ptr_offset p, off` where the `i64` offset has a constant
//! part into `ptr_offset (ptr_offset p, rest), C`: `off = x + C`, `x - C`, `C + x`, or
//! `(x + C) * K` / `(x + C) << S` (then `rest = x * K`, `C * K`). Nested constant offsets
//! are merged (`ptr_offset (ptr_offset p, C1), C2` becomes `ptr_offset p, C1 + C2`) and a
//! constant inner offset moves outward (`ptr_offset (ptr_offset p, C), x` becomes
//! `ptr_offset (ptr_offset p, x), C`). Unrolled stencils then share one base register per
//! row (GVN merges the `ptr_offset p, rest` copies) and differ only in immediates.
//!
//! Only `i64` offsets are split: pointer arithmetic wraps modulo 2^64 like `i64`
//! arithmetic, so the rewrite is exact; a 32-bit offset (sign-extended by `ptr_offset`) is
//! left alone since `x + C` may wrap at 32 bits.

use crate::remarks::{Remarks, plural};
use crate::util::{all_insts, iconst_value};
use ompcc_ir::{FuncCursor, Function, Inst, InstData, Opcode, Type, Value, ValueDef};

/// Runs the pass; returns whether anything changed.
pub fn reassoc(func: &mut Function) -> bool {
    reassoc_with_remarks(func, &mut Remarks::default())
}

fn binary(func: &Function, v: Value) -> Option<(Opcode, Value, Value)> {
    match func.dfg.value_def(v) {
        ValueDef::Result(i, 0) => match func.dfg.inst(i) {
            InstData::Binary { opcode, args } => Some((*opcode, args[0], args[1])),
            _ => None,
        },
        _ => None,
    }
}

/// What `off` splits into: an existing or to-be-built variable part and a constant.
enum Rest {
    Value(Value),
    Scaled(Value, Opcode, Value),
}

/// Splits an `i64` offset into `rest + c` (c != 0), one level deep.
fn split(func: &Function, off: Value) -> Option<(Rest, i64)> {
    let (op, a, b) = binary(func, off)?;
    let (ca, cb) = (iconst_value(func, a), iconst_value(func, b));
    match op {
        Opcode::Iadd => match (ca, cb) {
            (None, Some(c)) if c != 0 => Some((Rest::Value(a), c)),
            (Some(c), None) if c != 0 => Some((Rest::Value(b), c)),
            _ => None,
        },
        Opcode::Isub => match (ca, cb) {
            (None, Some(c)) if c != 0 => Some((Rest::Value(a), c.wrapping_neg())),
            _ => None,
        },
        Opcode::Imul | Opcode::Shl => {
            let k = cb?;
            let scale = if op == Opcode::Shl {
                if !(0..64).contains(&k) {
                    return None;
                }
                1i64.wrapping_shl(k as u32)
            } else {
                k
            };
            let (inner, c) = match split(func, a)? {
                (Rest::Value(x), c) => (x, c),
                _ => return None,
            };
            let c = c.wrapping_mul(scale);
            (c != 0).then_some((Rest::Scaled(inner, op, b), c))
        }
        _ => None,
    }
}

/// `reassoc`, reporting the number of addresses rewritten.
pub fn reassoc_with_remarks(func: &mut Function, remarks: &mut Remarks) -> bool {
    let mut rewritten = 0;
    for inst in all_insts(func) {
        if rewrite(func, inst) {
            rewritten += 1;
        }
    }
    if rewritten > 0 {
        remarks.emit(
            Default::default(),
            format!(
                "moved constant offsets outward in {}",
                plural(rewritten, "address", "addresses")
            ),
        );
    }
    rewritten > 0
}

fn rewrite(func: &mut Function, inst: Inst) -> bool {
    let InstData::Binary {
        opcode: Opcode::PtrOffset,
        args: [p, off],
    } = *func.dfg.inst(inst)
    else {
        return false;
    };
    if func.dfg.value_type(off) != Type::I64 {
        return false;
    }
    let loc = func.srcloc(inst);
    let inner = binary(func, p).filter(|(op, _, _)| *op == Opcode::PtrOffset);
    let off_c = iconst_value(func, off);
    let mut cur = FuncCursor::new(func);
    cur.goto_inst(inst);
    cur.set_srcloc(loc);
    match (inner, off_c) {
        // (p0 + C1) + C2 -> p0 + (C1 + C2)
        (Some((_, p0, o0)), Some(c2)) => {
            let Some(c1) = iconst_value(cur.func, o0) else {
                return false;
            };
            let c = cur.ins().iconst(Type::I64, c1.wrapping_add(c2));
            *cur.func.dfg.inst_mut(inst) = InstData::Binary {
                opcode: Opcode::PtrOffset,
                args: [p0, c],
            };
            true
        }
        // (p0 + C) + x -> (p0 + x) + C
        (Some((_, p0, o0)), None)
            if iconst_value(cur.func, o0).is_some() && cur.func.dfg.value_type(o0) == Type::I64 =>
        {
            let q = cur.ins().ptr_offset(p0, off);
            *cur.func.dfg.inst_mut(inst) = InstData::Binary {
                opcode: Opcode::PtrOffset,
                args: [q, o0],
            };
            true
        }
        (_, None) => {
            let Some((rest, c)) = split(cur.func, off) else {
                return false;
            };
            let rest = match rest {
                Rest::Value(v) => v,
                Rest::Scaled(x, op, k) => match op {
                    Opcode::Shl => cur.ins().shl(x, k),
                    _ => cur.ins().imul(x, k),
                },
            };
            let q = cur.ins().ptr_offset(p, rest);
            let cv = cur.ins().iconst(Type::I64, c);
            *cur.func.dfg.inst_mut(inst) = InstData::Binary {
                opcode: Opcode::PtrOffset,
                args: [q, cv],
            };
            true
        }
        _ => false,
    }
}
