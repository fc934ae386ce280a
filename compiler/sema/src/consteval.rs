//! Constant arithmetic with C semantics on x86-64: the value operations the checker's
//! constant evaluator applies while walking an expression (integer constant expressions,
//! arithmetic constant expressions in initializers, `case` labels, array sizes, enum values).
//!
//! Invariant: a [`ConstInt`]'s `value` is always normalized to its kind, i.e. truncated to
//! the kind's width and sign-extended for signed kinds, zero-extended for unsigned kinds
//! narrower than 128 bits. `unsigned __int128` values above `i128::MAX` are kept as their bit
//! pattern (negative i128), and every operation treats them as unsigned.

use crate::conv::common_int;
use crate::types::{FloatKind, IntKind};

/// An integer constant of a given type.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ConstInt {
    pub value: i128,
    pub kind: IntKind,
}

/// A floating constant; `long double` and `_Float128` are evaluated in double precision.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ConstFloat {
    pub value: f64,
    pub kind: FloatKind,
}

/// A constant value.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum ConstValue {
    Int(ConstInt),
    Float(ConstFloat),
}

/// Why a constant operation has no value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    DivisionByZero,
    /// Shift count negative or not less than the width of the promoted left operand.
    ShiftCount,
    /// A floating value out of range of the integer type it is converted to.
    FloatToIntRange,
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            EvalError::DivisionByZero => "division by zero",
            EvalError::ShiftCount => "shift count is negative or too large for the type",
            EvalError::FloatToIntRange => "floating value out of range of the integer type",
        })
    }
}

/// Truncates / extends `v` to the width and signedness of `kind`.
pub fn normalize(v: i128, kind: IntKind) -> i128 {
    let bits = kind.bits();
    if bits == 128 {
        return v;
    }
    let mask = (1i128 << bits) - 1;
    let t = v & mask;
    if kind.is_signed() && t >> (bits - 1) & 1 == 1 {
        t - (1i128 << bits)
    } else {
        t
    }
}

impl ConstInt {
    pub fn new(value: i128, kind: IntKind) -> ConstInt {
        ConstInt {
            value: normalize(value, kind),
            kind,
        }
    }
    pub fn is_zero(self) -> bool {
        self.value == 0
    }
    /// The value as u128 bits (for unsigned kinds, the mathematical value).
    pub fn as_u128(self) -> u128 {
        self.value as u128
    }
    /// The mathematical value as f64.
    pub fn to_f64(self) -> f64 {
        if self.kind == IntKind::UInt128 {
            self.as_u128() as f64
        } else {
            self.value as f64
        }
    }
    /// Converts to another integer kind (C11 6.3.1.3, modulo 2^N as gcc does).
    pub fn cast(self, to: IntKind) -> ConstInt {
        ConstInt::new(self.value, to)
    }
    /// The value if it is representable as i128 (everything except huge `unsigned __int128`).
    pub fn as_i128(self) -> Option<i128> {
        if self.kind == IntKind::UInt128 && self.value < 0 {
            None
        } else {
            Some(self.value)
        }
    }
    fn truth(b: bool) -> ConstInt {
        ConstInt::new(i128::from(b), IntKind::Int)
    }
}

/// Integer binary operators (arithmetic, bitwise, shifts, relational, equality, logical).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum IntOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    LogAnd,
    LogOr,
}

/// The result of a constant operation that may have overflowed a signed type (gcc warns and
/// keeps the wrapped value).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Folded {
    pub value: ConstInt,
    pub overflow: bool,
}

fn cmp(a: ConstInt, b: ConstInt) -> std::cmp::Ordering {
    if a.kind.is_signed() {
        a.value.cmp(&b.value)
    } else {
        a.as_u128().cmp(&b.as_u128())
    }
}

/// Applies a binary operator with C semantics. Operands are first brought to their common
/// type by the usual arithmetic conversions (shifts use the promoted left type), so callers may
/// pass the operands as they are after integer promotion.
pub fn int_binop(op: IntOp, a: ConstInt, b: ConstInt) -> Result<Folded, EvalError> {
    let promote = |c: ConstInt| {
        if c.kind.rank() < IntKind::Int.rank() {
            c.cast(IntKind::Int)
        } else {
            c
        }
    };
    let (a, b) = (promote(a), promote(b));
    let (a0, b0) = (a, b);
    let k = common_int(a.kind, b.kind);
    let (a, b) = (a.cast(k), b.cast(k));
    let signed = k.is_signed();
    let exact = |r: Option<i128>, wrapped: i128| -> Folded {
        let value = ConstInt::new(wrapped, k);
        let overflow = signed && r.is_none_or(|r| !k.fits_i128(r));
        Folded { value, overflow }
    };
    Ok(match op {
        IntOp::Add => exact(a.value.checked_add(b.value), a.value.wrapping_add(b.value)),
        IntOp::Sub => exact(a.value.checked_sub(b.value), a.value.wrapping_sub(b.value)),
        IntOp::Mul => exact(a.value.checked_mul(b.value), a.value.wrapping_mul(b.value)),
        IntOp::Div | IntOp::Rem => {
            if b.is_zero() {
                return Err(EvalError::DivisionByZero);
            }
            if signed {
                let q = a.value.checked_div(b.value);
                let r = a.value.checked_rem(b.value);
                if op == IntOp::Div {
                    exact(q, a.value.wrapping_div(b.value))
                } else {
                    exact(r.or(Some(0)), a.value.wrapping_rem(b.value))
                }
            } else {
                let (x, y) = (a.as_u128(), b.as_u128());
                let v = if op == IntOp::Div { x / y } else { x % y };
                plain(ConstInt::new(v as i128, k))
            }
        }
        IntOp::And => plain(ConstInt::new(a.value & b.value, k)),
        IntOp::Or => plain(ConstInt::new(a.value | b.value, k)),
        IntOp::Xor => plain(ConstInt::new(a.value ^ b.value, k)),
        IntOp::Lt => plain(ConstInt::truth(cmp(a, b).is_lt())),
        IntOp::Gt => plain(ConstInt::truth(cmp(a, b).is_gt())),
        IntOp::Le => plain(ConstInt::truth(cmp(a, b).is_le())),
        IntOp::Ge => plain(ConstInt::truth(cmp(a, b).is_ge())),
        IntOp::Eq => plain(ConstInt::truth(a.value == b.value)),
        IntOp::Ne => plain(ConstInt::truth(a.value != b.value)),
        IntOp::LogAnd => plain(ConstInt::truth(!a.is_zero() && !b.is_zero())),
        IntOp::LogOr => plain(ConstInt::truth(!a.is_zero() || !b.is_zero())),
        IntOp::Shl | IntOp::Shr => return shift(op == IntOp::Shl, a0, b0),
    })
}

/// Shifts take the promoted type of the left operand, not the common type.
fn shift(left: bool, a: ConstInt, b: ConstInt) -> Result<Folded, EvalError> {
    let bits = a.kind.bits();
    let count = match b.as_i128() {
        Some(c) if (0..i128::from(bits)).contains(&c) => c as u32,
        _ => return Err(EvalError::ShiftCount),
    };
    let (value, overflow) = if left {
        let r = ConstInt::new(a.value.wrapping_shl(count), a.kind);
        // gcc: left shift of a negative value or into the sign bit overflows
        let back = if a.kind.is_signed() {
            r.value >> count
        } else {
            a.value
        };
        (r, a.kind.is_signed() && (a.value < 0 || back != a.value))
    } else if a.kind.is_signed() {
        (ConstInt::new(a.value >> count, a.kind), false)
    } else {
        (ConstInt::new((a.as_u128() >> count) as i128, a.kind), false)
    };
    Ok(Folded { value, overflow })
}

fn plain(value: ConstInt) -> Folded {
    Folded {
        value,
        overflow: false,
    }
}

/// Unary operators on integers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum IntUnOp {
    Neg,
    BitNot,
    LogNot,
    Plus,
}

pub fn int_unop(op: IntUnOp, a: ConstInt) -> Folded {
    let a = if a.kind.rank() < IntKind::Int.rank() {
        a.cast(IntKind::Int)
    } else {
        a
    };
    match op {
        IntUnOp::Plus => plain(a),
        IntUnOp::Neg => Folded {
            value: ConstInt::new(a.value.wrapping_neg(), a.kind),
            overflow: a.kind.is_signed() && a.value == a.kind.min_value(),
        },
        IntUnOp::BitNot => plain(ConstInt::new(!a.value, a.kind)),
        IntUnOp::LogNot => plain(ConstInt::truth(a.is_zero())),
    }
}

/// Rounds a double to the precision of `kind`.
pub fn round_float(v: f64, kind: FloatKind) -> f64 {
    if kind == FloatKind::Float {
        v as f32 as f64
    } else {
        v
    }
}

/// Converts a floating value to an integer kind, truncating toward zero (C11 6.3.1.4).
pub fn float_to_int(v: f64, kind: IntKind) -> Result<ConstInt, EvalError> {
    if v.is_nan() {
        return Err(EvalError::FloatToIntRange);
    }
    let t = v.trunc();
    let (lo, hi) = if kind == IntKind::UInt128 {
        (0.0, 2f64.powi(128))
    } else {
        (kind.min_value() as f64, kind.max_value() as f64 + 1.0)
    };
    if t < lo || t >= hi {
        return Err(EvalError::FloatToIntRange);
    }
    if kind == IntKind::UInt128 {
        Ok(ConstInt::new(t as u128 as i128, kind))
    } else {
        Ok(ConstInt::new(t as i128, kind))
    }
}

/// Converts to `_Bool`: 0 or 1, returned as an `unsigned char` constant.
pub fn to_bool(v: ConstValue) -> ConstInt {
    let nz = match v {
        ConstValue::Int(i) => !i.is_zero(),
        ConstValue::Float(f) => f.value != 0.0,
    };
    ConstInt::new(i128::from(nz), IntKind::UChar)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ci(v: i128, k: IntKind) -> ConstInt {
        ConstInt::new(v, k)
    }
    fn fold(op: IntOp, a: ConstInt, b: ConstInt) -> ConstInt {
        int_binop(op, a, b).unwrap().value
    }

    #[test]
    fn normalization() {
        assert_eq!(ci(300, IntKind::UChar).value, 44);
        assert_eq!(ci(200, IntKind::SChar).value, -56);
        assert_eq!(ci(-1, IntKind::UInt).value, 0xffff_ffff);
        assert_eq!(ci(-1, IntKind::UInt128).as_u128(), u128::MAX);
        assert_eq!(ci(1 << 40, IntKind::Int).value, 0);
    }

    #[test]
    fn arithmetic_follows_c() {
        let i = IntKind::Int;
        let u = IntKind::UInt;
        // -1 < 1u is false: -1 converts to UINT_MAX
        assert_eq!(fold(IntOp::Lt, ci(-1, i), ci(1, u)).value, 0);
        assert_eq!(fold(IntOp::Lt, ci(-1, i), ci(1, IntKind::Long)).value, 1);
        assert_eq!(fold(IntOp::Div, ci(-7, i), ci(2, i)).value, -3);
        assert_eq!(fold(IntOp::Rem, ci(-7, i), ci(2, i)).value, -1);
        assert_eq!(fold(IntOp::Div, ci(-7, i), ci(2, u)).value, 2147483644);
        assert_eq!(fold(IntOp::Shr, ci(-8, i), ci(1, i)).value, -4);
        assert_eq!(fold(IntOp::Shr, ci(-8, u), ci(1, i)).value, 0x7fff_fffc);
        let r = fold(IntOp::Add, ci(1, IntKind::UChar), ci(255, IntKind::UChar));
        assert_eq!((r.value, r.kind), (256, IntKind::Int));
        assert_eq!(fold(IntOp::LogAnd, ci(2, i), ci(3, u)).value, 1);
        assert_eq!(
            fold(IntOp::Mul, ci(-1, IntKind::UInt128), ci(2, IntKind::Int)).as_u128(),
            u128::MAX - 1
        );
    }

    #[test]
    fn overflow_and_errors() {
        let i = IntKind::Int;
        let f = int_binop(IntOp::Add, ci(i32::MAX.into(), i), ci(1, i)).unwrap();
        assert!(f.overflow);
        assert_eq!(f.value.value, i32::MIN.into());
        let f = int_binop(IntOp::Add, ci(u32::MAX.into(), IntKind::UInt), ci(1, i)).unwrap();
        assert!(!f.overflow);
        assert_eq!(f.value.value, 0);
        assert_eq!(
            int_binop(IntOp::Div, ci(1, i), ci(0, i)),
            Err(EvalError::DivisionByZero)
        );
        assert_eq!(
            int_binop(IntOp::Shl, ci(1, i), ci(32, i)),
            Err(EvalError::ShiftCount)
        );
        assert_eq!(
            int_binop(IntOp::Shl, ci(1, i), ci(-1, i)),
            Err(EvalError::ShiftCount)
        );
        assert!(int_binop(IntOp::Shl, ci(1, i), ci(31, i)).unwrap().overflow);
        assert!(
            !int_binop(IntOp::Shl, ci(1, IntKind::Long), ci(31, i))
                .unwrap()
                .overflow
        );
        assert!(int_unop(IntUnOp::Neg, ci(i32::MIN.into(), i)).overflow);
        assert!(
            int_binop(IntOp::Div, ci(i32::MIN.into(), i), ci(-1, i))
                .unwrap()
                .overflow
        );
    }

    #[test]
    fn float_conversions() {
        assert_eq!(float_to_int(-3.9, IntKind::Int).unwrap().value, -3);
        assert_eq!(
            float_to_int(4294967296.0, IntKind::UInt),
            Err(EvalError::FloatToIntRange)
        );
        assert_eq!(
            float_to_int(-1.0, IntKind::UInt),
            Err(EvalError::FloatToIntRange)
        );
        assert_eq!(float_to_int(255.5, IntKind::UChar).unwrap().value, 255);
        assert_eq!(round_float(0.1, FloatKind::Float), 0.1f32 as f64);
        assert_eq!(
            int_unop(IntUnOp::BitNot, ci(0, IntKind::UInt)).value.value,
            0xffff_ffff
        );
        assert_eq!(
            to_bool(ConstValue::Float(ConstFloat {
                value: 0.5,
                kind: FloatKind::Double
            }))
            .value,
            1
        );
    }
}
