//! Constant folding over the typed tree: the values of integer constant expressions and
//! arithmetic constant expressions, computed with exactly the implicit conversions the
//! checker recorded in each expression's `conv`, so folded values agree with the lowering.
//!
//! Invariant: only checked expressions fold (an expression without type information has no
//! value); address constants are recognised by the initializer checks, not folded here.

use super::expr::strip_parens;
use super::{ExprInfo, SymbolKind, ValueKind};
use crate::consteval::{
    ConstFloat, ConstInt, ConstValue, IntOp, IntUnOp, float_to_int, int_binop, int_unop,
    round_float, to_bool,
};
use crate::types::{FloatKind, IntKind, QualType, TypeKind};
use ompcc_diag::Span;
use ompcc_syntax::ast::{self, BinaryOp, CharPrefix, Expr, ExprKind, UnaryOp};

/// The constant value of a checked expression, if it has one: integer and floating
/// constants, enumerators, `sizeof`/`_Alignof`/`offsetof`, and operators and casts on these,
/// with the same implicit conversions the checker recorded. Address constants are not folded.
pub fn fold(unit: &super::TypedUnit, e: &Expr) -> Option<ConstValue> {
    let info = unit.expr(e.id)?;
    let v = fold_raw(unit, e, info)?;
    convert(unit, v, info.conv)
}

/// The constant value of `e` converted to `to` instead of the type the checker recorded for
/// its use: lowering folds a `long double` constant expression (gcc's `<float.h>` spells
/// `DBL_MAX` as `(double)1.79...e+308L`) straight into the `double` or `float` it becomes.
/// Like every floating constant here, a `long double` one is evaluated in double precision.
pub fn fold_as(unit: &super::TypedUnit, e: &Expr, to: QualType) -> Option<ConstValue> {
    let info = unit.expr(e.id)?;
    let v = fold_raw(unit, e, info)?;
    convert(unit, v, to)
}

fn convert(unit: &super::TypedUnit, v: ConstValue, to: QualType) -> Option<ConstValue> {
    let t = &unit.types;
    match t.ckind(to) {
        TypeKind::Bool => Some(ConstValue::Int(to_bool(v))),
        TypeKind::Int(_) | TypeKind::Enum(_) => {
            let k = t.int_kind(to)?;
            match v {
                ConstValue::Int(i) => Some(ConstValue::Int(i.cast(k))),
                ConstValue::Float(f) => float_to_int(f.value, k).ok().map(ConstValue::Int),
            }
        }
        TypeKind::Float(k) | TypeKind::Complex(k) => {
            let k = *k;
            let x = match v {
                ConstValue::Int(i) => i.to_f64(),
                ConstValue::Float(f) => f.value,
            };
            Some(ConstValue::Float(ConstFloat {
                value: round_float(x, k),
                kind: k,
            }))
        }
        // integer constants cast to pointers stay integers (null pointer constants)
        TypeKind::Pointer(_) => match v {
            ConstValue::Int(i) => Some(ConstValue::Int(i.cast(IntKind::ULong))),
            ConstValue::Float(_) => None,
        },
        _ => None,
    }
}

fn fold_raw(unit: &super::TypedUnit, e: &Expr, info: &ExprInfo) -> Option<ConstValue> {
    if let Some(v) = unit.consts.get(&e.id) {
        return Some(*v);
    }
    let t = &unit.types;
    let int_of = |v: i128| -> Option<ConstValue> {
        let k = t.int_kind(info.ty).unwrap_or(IntKind::Int);
        Some(ConstValue::Int(ConstInt::new(v, k)))
    };
    match &e.kind {
        ExprKind::Int { value, .. } => {
            if t.is_complex(info.ty) {
                return None;
            }
            int_of(*value as i128)
        }
        ExprKind::Char { value, prefix } => {
            let v = if *prefix == CharPrefix::None && *value <= 0xff {
                i128::from(*value as u8 as i8)
            } else {
                i128::from(*value)
            };
            int_of(v)
        }
        ExprKind::Float { value, .. } => {
            if t.is_complex(info.ty) {
                return None;
            }
            let k = match t.ckind(info.ty) {
                TypeKind::Float(k) => *k,
                _ => FloatKind::Double,
            };
            Some(ConstValue::Float(ConstFloat {
                value: round_float(*value, k),
                kind: k,
            }))
        }
        ExprKind::Ident(_) => {
            let sym = unit.ident_symbols.get(&e.id)?;
            match unit.symbols[*sym].kind {
                SymbolKind::EnumConstant(v) => int_of(v),
                _ => None,
            }
        }
        ExprKind::Paren(x) => fold(unit, x),
        ExprKind::Cast(_, x) => {
            let v = fold(unit, x)?;
            if t.is_void(info.ty) {
                return None;
            }
            convert(unit, v, info.ty)
        }
        ExprKind::Unary(op, x) => {
            let v = fold(unit, x)?;
            match (op, v) {
                (UnaryOp::Plus, v) => Some(v),
                (UnaryOp::Minus, ConstValue::Int(i)) => {
                    Some(ConstValue::Int(int_unop(IntUnOp::Neg, i).value))
                }
                (UnaryOp::Minus, ConstValue::Float(f)) => Some(ConstValue::Float(ConstFloat {
                    value: -f.value,
                    ..f
                })),
                (UnaryOp::BitNot, ConstValue::Int(i)) => {
                    Some(ConstValue::Int(int_unop(IntUnOp::BitNot, i).value))
                }
                (UnaryOp::Not, v) => Some(ConstValue::Int(ConstInt::new(
                    i128::from(to_bool(v).is_zero()),
                    IntKind::Int,
                ))),
                _ => None,
            }
        }
        ExprKind::Binary(op, l, r) => {
            use BinaryOp::*;
            if matches!(op, LogAnd | LogOr) {
                let a = to_bool(fold(unit, l)?);
                let decided = if *op == LogAnd {
                    a.is_zero()
                } else {
                    !a.is_zero()
                };
                if decided {
                    return int_of(i128::from(*op == LogOr));
                }
                let b = to_bool(fold(unit, r)?);
                return int_of(i128::from(!b.is_zero()));
            }
            let a = fold(unit, l)?;
            let b = fold(unit, r)?;
            match (a, b) {
                (ConstValue::Int(a), ConstValue::Int(b)) => {
                    let iop = match op {
                        Mul => IntOp::Mul,
                        Div => IntOp::Div,
                        Rem => IntOp::Rem,
                        Add => IntOp::Add,
                        Sub => IntOp::Sub,
                        Shl => IntOp::Shl,
                        Shr => IntOp::Shr,
                        Lt => IntOp::Lt,
                        Gt => IntOp::Gt,
                        Le => IntOp::Le,
                        Ge => IntOp::Ge,
                        Eq => IntOp::Eq,
                        Ne => IntOp::Ne,
                        BitAnd => IntOp::And,
                        BitXor => IntOp::Xor,
                        BitOr => IntOp::Or,
                        LogAnd | LogOr => return None,
                    };
                    // pointer arithmetic is not folded
                    if t.is_pointer(info.ty) {
                        return None;
                    }
                    int_binop(iop, a, b).ok().map(|f| ConstValue::Int(f.value))
                }
                (ConstValue::Float(a), ConstValue::Float(b)) => {
                    let (x, y) = (a.value, b.value);
                    let k = a.kind.max(b.kind);
                    let fl = |v: f64| {
                        Some(ConstValue::Float(ConstFloat {
                            value: round_float(v, k),
                            kind: k,
                        }))
                    };
                    let cmp =
                        |c: bool| Some(ConstValue::Int(ConstInt::new(i128::from(c), IntKind::Int)));
                    match op {
                        Mul => fl(x * y),
                        Div => fl(x / y),
                        Add => fl(x + y),
                        Sub => fl(x - y),
                        Lt => cmp(x < y),
                        Gt => cmp(x > y),
                        Le => cmp(x <= y),
                        Ge => cmp(x >= y),
                        Eq => cmp(x == y),
                        Ne => cmp(x != y),
                        _ => None,
                    }
                }
                _ => None,
            }
        }
        ExprKind::Cond(c, a, b) => {
            let cv = to_bool(fold(unit, c)?);
            if cv.is_zero() {
                fold(unit, b)
            } else {
                match a {
                    Some(a) => fold(unit, a),
                    None => fold(unit, c),
                }
            }
        }
        ExprKind::Comma(_, r) => fold(unit, r),
        ExprKind::Generic(..) => {
            let sel = unit.selected.get(&e.id)?;
            find_expr(e, *sel).and_then(|x| fold(unit, x))
        }
        ExprKind::Call(f, args) => {
            // INFINITY, HUGE_VAL and NAN expand to these builtins, also in static initializers
            if let Some(sym) = unit.ident_symbols.get(&strip_parens(f).id) {
                let name = unit.symbols[*sym].name.as_str();
                let inf = ["__builtin_inf", "__builtin_huge_val"].iter().any(|p| {
                    name.strip_prefix(p)
                        .is_some_and(|s| matches!(s, "" | "f" | "l" | "f128"))
                });
                let nan = ["__builtin_nan", "__builtin_nans"].iter().any(|p| {
                    name.strip_prefix(p)
                        .is_some_and(|s| matches!(s, "" | "f" | "l" | "f128"))
                }) && matches!(
                    args.first().map(|a| &strip_parens(a).kind),
                    Some(ExprKind::Str(_))
                );
                if inf || nan {
                    let k = match t.ckind(info.ty) {
                        TypeKind::Float(k) => *k,
                        _ => return None,
                    };
                    let value = if inf { f64::INFINITY } else { f64::NAN };
                    return Some(ConstValue::Float(ConstFloat { value, kind: k }));
                }
            }
            // __builtin_expect(x, c) is x; __builtin_choose_expr picks an argument
            if let Some(sel) = unit.selected.get(&e.id)
                && !unit.expr(*sel).is_some_and(|i| {
                    i.kind == ValueKind::Function
                        || unit.types.is_pointer(i.ty)
                            && unit
                                .types
                                .pointee(i.ty)
                                .is_some_and(|p| unit.types.is_function(p))
                })
            {
                return args
                    .iter()
                    .find(|a| a.id == *sel)
                    .and_then(|a| fold(unit, a));
            }
            None
        }
        _ => None,
    }
}

fn find_expr(e: &Expr, id: ast::ExprId) -> Option<&Expr> {
    if let ExprKind::Generic(_, assocs) = &e.kind {
        return assocs.iter().map(|a| &a.expr).find(|x| x.id == id);
    }
    None
}

/// The innermost operation that makes a constant expression fail (division by zero, bad
/// shift count), for a precise message.
pub(super) fn eval_error(
    unit: &super::TypedUnit,
    e: &Expr,
) -> Option<(Span, crate::consteval::EvalError)> {
    use crate::consteval::EvalError;
    match &e.kind {
        ExprKind::Binary(op, l, r) => {
            if let Some(x) = eval_error(unit, l).or_else(|| eval_error(unit, r)) {
                return Some(x);
            }
            let rv = fold(unit, r);
            match (op, rv) {
                (BinaryOp::Div | BinaryOp::Rem, Some(ConstValue::Int(v))) if v.is_zero() => {
                    fold(unit, l).map(|_| (e.span, EvalError::DivisionByZero))
                }
                (BinaryOp::Shl | BinaryOp::Shr, Some(ConstValue::Int(_))) => {
                    let a = fold(unit, l)?;
                    let b = fold(unit, r)?;
                    match (a, b) {
                        (ConstValue::Int(a), ConstValue::Int(b)) => {
                            let iop = if *op == BinaryOp::Shl {
                                IntOp::Shl
                            } else {
                                IntOp::Shr
                            };
                            int_binop(iop, a, b).err().map(|err| (e.span, err))
                        }
                        _ => None,
                    }
                }
                _ => None,
            }
        }
        ExprKind::Paren(x) | ExprKind::Unary(_, x) | ExprKind::Cast(_, x) => eval_error(unit, x),
        ExprKind::Cond(c, a, b) => eval_error(unit, c)
            .or_else(|| a.as_ref().and_then(|a| eval_error(unit, a)))
            .or_else(|| eval_error(unit, b)),
        _ => None,
    }
}

/// The constant value of `e` in its own type, before the conversion its context applies.
pub(super) fn fold_raw_value(unit: &super::TypedUnit, e: &Expr) -> Option<ConstValue> {
    let info = unit.expr(e.id)?;
    let v = fold_raw(unit, e, info)?;
    convert(unit, v, unit.types.canon(info.ty).unqual())
}
