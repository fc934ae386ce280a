//! 32x32->64-bit multiplies (`mul.wide.s32` / `mul.wide.u32`) for 64-bit products of
//! widened 32-bit values: the address arithmetic `sext(i) * 4` of an `int` index.
//!
//! A 64-bit `imul` (or `shl` by a constant) whose operands are both 32-bit values widened the
//! same way, or one such value and a constant, is exact in a 32x32->64 multiply: the product
//! of two sign-extended (zero-extended) 32-bit numbers has at most 64 significant bits, so the
//! wrapping 64-bit product equals the wide one. Recognized:
//! - `imul (sext a), (sext b)` -> `mul.wide.s32 d, a, b`; `zext`/`zext` -> `mul.wide.u32`;
//! - `imul (sext a), C` (either order) with `C` in `i32` -> `mul.wide.s32 d, a, C`, and
//!   `imul (zext a), C` with `C` in `u32` -> `mul.wide.u32 d, a, C`;
//! - `shl (sext a), k` with `k` in `0..=30` -> `mul.wide.s32 d, a, 2^k` (`0..=31` for `zext`).
//!
//! The widening instruction's text is then dropped by the writer when nothing else reads its
//! register (`FuncEmitter::live_text`). Pattern matching only: no IR changes, so the IR that
//! was verified is the one emitted.

use crate::regs::Reg;
use crate::writer::FuncEmitter;
use ompcc_ir::{InstData, Opcode, Type, Value, ValueDef};

/// How a 64-bit operand is a widened 32-bit value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wide {
    /// `sext.i64` or `zext.i64` of an `i32` value.
    Ext { value: Value, signed: bool },
    /// A constant.
    Const(i64),
}

impl FuncEmitter<'_> {
    fn wide_operand(&self, v: Value) -> Option<Wide> {
        let dfg = &self.func.dfg;
        let ValueDef::Result(i, 0) = dfg.value_def(v) else {
            return None;
        };
        match dfg.inst(i) {
            InstData::Unary {
                opcode: op @ (Opcode::Sext | Opcode::Zext),
                arg,
            } if dfg.value_type(*arg) == Type::I32 => Some(Wide::Ext {
                value: *arg,
                signed: *op == Opcode::Sext,
            }),
            InstData::UnaryImm {
                opcode: Opcode::Iconst,
                imm,
            } => Some(Wide::Const(*imm)),
            _ => None,
        }
    }

    /// Emits `d = a op b` (an `i64` `imul` or `shl`) as one `mul.wide` when it is one; returns
    /// whether it did.
    pub(crate) fn wide_mul(&mut self, op: Opcode, d: Reg, d_ty: Type, a: Value, b: Value) -> bool {
        if d_ty != Type::I64 {
            return false;
        }
        let (x, y) = match (op, self.wide_operand(a), self.wide_operand(b)) {
            (Opcode::Imul, Some(x), Some(y)) => (x, y),
            (Opcode::Shl, Some(x @ Wide::Ext { .. }), Some(Wide::Const(k)))
                if (0..32).contains(&k) =>
            {
                (x, Wide::Const(1i64 << k))
            }
            _ => return false,
        };
        let (value, signed, other) = match (x, y) {
            (Wide::Ext { value, signed }, o) | (o, Wide::Ext { value, signed }) => {
                (value, signed, o)
            }
            _ => return false,
        };
        let fits = |c: i64| {
            if signed {
                i32::try_from(c).is_ok()
            } else {
                u32::try_from(c).is_ok()
            }
        };
        let rhs = match other {
            Wide::Const(c) if fits(c) => c.to_string(),
            Wide::Ext {
                value: w,
                signed: s,
            } if s == signed => self.v(w).to_string(),
            _ => return false,
        };
        let r = self.v(value);
        let t = if signed { "s32" } else { "u32" };
        self.e(format_args!("mul.wide.{t} {d}, {r}, {rhs}"));
        true
    }
}
