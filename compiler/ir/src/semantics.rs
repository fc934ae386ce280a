//! The meaning of the IR's scalar operations, shared by the interpreter and constant folding.
//!
//! Integers are carried as `i64` normalized to their type (`normalize_imm`: sign-extended from
//! the width, `i1` as 0/1), so the signed view is the value and the unsigned view is the value
//! masked to the width. Shift amounts are unsigned and clamp as in PTX: shifting by the width
//! or more gives 0 (`ashr`: the sign). Floats are carried as `f64`;
//! `f32` operations round to `f32`.

use crate::builder::normalize_imm;
use crate::instructions::{FloatCC, IntCC, Opcode};
use crate::types::Type;

/// The bits of `ty` as a mask.
pub fn mask(ty: Type) -> u64 {
    match ty.bits() {
        64 => u64::MAX,
        b => (1u64 << b) - 1,
    }
}

/// Integer binary operation on normalized constants of type `ty`; `None` when it would
/// trap (division by zero, `MIN / -1`) or `op` is not one.
pub fn int_binary(op: Opcode, ty: Type, a: i64, b: i64) -> Option<i64> {
    let bits = ty.bits();
    let m = mask(ty);
    let (ua, ub) = (a as u64 & m, b as u64 & m);
    let min = normalize_imm(ty, 1i64 << (bits - 1));
    // PTX semantics: the amount is unsigned and amounts >= width shift everything out.
    let amt = ub.min(bits as u64) as u32;
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
        Opcode::Shl => ua.checked_shl(amt).unwrap_or(0) as i64,
        Opcode::Lshr => ua.checked_shr(amt).unwrap_or(0) as i64,
        Opcode::Ashr => a >> amt.min(63),
        Opcode::Smin => a.min(b),
        Opcode::Smax => a.max(b),
        Opcode::Umin => ua.min(ub) as i64,
        Opcode::Umax => ua.max(ub) as i64,
        _ => return None,
    };
    Some(normalize_imm(ty, v))
}

/// Integer unary operation or integer-to-integer conversion from `ty` to `to`.
pub fn int_unary(op: Opcode, ty: Type, to: Type, a: i64) -> Option<i64> {
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

/// Integer comparison of normalized constants of type `ty`.
pub fn icmp(cc: IntCC, ty: Type, a: i64, b: i64) -> bool {
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

/// Float comparison (`a`, `b` exact in `f64`).
pub fn fcmp(cc: FloatCC, a: f64, b: f64) -> bool {
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

/// Float arithmetic computed in `ty` (an `f32` result is exact in the returned `f64`).
pub fn float_binary(op: Opcode, ty: Type, a: f64, b: f64) -> Option<f64> {
    if ty == Type::F32 {
        let (a, b) = (a as f32, b as f32);
        let v = match op {
            Opcode::Fadd => a + b,
            Opcode::Fsub => a - b,
            Opcode::Fmul => a * b,
            Opcode::Fdiv => a / b,
            Opcode::Frem => a % b,
            Opcode::Fmin => a.min(b),
            Opcode::Fmax => a.max(b),
            Opcode::Fcopysign => a.copysign(b),
            _ => return None,
        };
        Some(v as f64)
    } else {
        Some(match op {
            Opcode::Fadd => a + b,
            Opcode::Fsub => a - b,
            Opcode::Fmul => a * b,
            Opcode::Fdiv => a / b,
            Opcode::Frem => a % b,
            Opcode::Fmin => a.min(b),
            Opcode::Fmax => a.max(b),
            Opcode::Fcopysign => a.copysign(b),
            _ => return None,
        })
    }
}

/// Float unary operation computed in `ty`.
pub fn float_unary(op: Opcode, ty: Type, a: f64) -> Option<f64> {
    let r = match op {
        Opcode::Fneg => -a,
        Opcode::Fabs => a.abs(),
        Opcode::Sqrt => a.sqrt(),
        Opcode::Floor => a.floor(),
        Opcode::Ceil => a.ceil(),
        Opcode::Ftrunc => a.trunc(),
        Opcode::Nearest => a.round_ties_even(),
        _ => return None,
    };
    // sqrt of an f32 computed in f64 then rounded is correctly rounded (53 >= 2*24+2).
    Some(if ty == Type::F32 { r as f32 as f64 } else { r })
}

/// Float to integer conversion toward zero, saturating, NaN to 0 (PTX `cvt.rzi` semantics).
pub fn float_to_int(signed: bool, to: Type, a: f64) -> i64 {
    let bits = to.bits();
    if a.is_nan() {
        return 0;
    }
    let v = if signed {
        let lo = -(2f64.powi(bits as i32 - 1));
        let hi = 2f64.powi(bits as i32 - 1) - 1.0;
        a.trunc().clamp(lo, hi) as i64
    } else {
        let hi = 2f64.powi(bits as i32) - 1.0;
        a.trunc().clamp(0.0, hi) as u64 as i64
    };
    normalize_imm(to, v)
}

/// Integer to float conversion, rounded once to `to`.
pub fn int_to_float(signed: bool, from: Type, to: Type, a: i64) -> f64 {
    let u = a as u64 & mask(from);
    match (signed, to) {
        (true, Type::F32) => a as f32 as f64,
        (true, _) => a as f64,
        (false, Type::F32) => u as f32 as f64,
        (false, _) => u as f64,
    }
}
