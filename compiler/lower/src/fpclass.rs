//! The type-generic floating-point classification builtins that glibc's `<math.h>` macros
//! expand to (`isnan` -> `__builtin_isnan`, `isinf` -> `__builtin_isinf_sign`, `signbit`,
//! `isfinite`, `isnormal`, `fpclassify`, `issignaling`) and the quiet comparisons
//! (`isgreater`, ..., `isunordered`), and the special values `__builtin_inf()`/`nan("")`
//! where they are not folded as constants.
//!
//! Invariants: each is computed exactly, in the argument's own type (a `float` is never
//! widened first, which would turn its subnormals into normal doubles), by compares of the
//! value or of its magnitude (`fcmp` maps to PTX `setp`, whose unordered forms test NaN) and,
//! for the sign and signaling bits, by integer tests of the bits; results are `int` 0/1
//! (`isinf_sign`: -1/0/1; `fpclassify`: the caller's class numbers).

use crate::expr::Rv;
use crate::expr::strip_parens;
use crate::func::FnLower;
use crate::ty::{self, Scalar};
use ompcc_diag::Span;
use ompcc_ir::{FloatCC, IntCC, Type, Value};
use ompcc_sema::ExprInfo;
use ompcc_syntax::ast::{Expr, ExprKind};

/// A classification of one value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Nan,
    Inf,
    InfSign,
    Finite,
    Normal,
    Signbit,
    Signaling,
    /// `fpclassify(nan, inf, normal, subnormal, zero, x)`
    Fpclassify,
}

impl<'a> FnLower<'_, 'a, '_> {
    /// Lowers a call of `name` if it is one of this module's builtins; `None` otherwise.
    pub(crate) fn float_class_builtin(
        &mut self,
        name: &str,
        args: &'a [Expr],
        info: ExprInfo,
        span: Span,
    ) -> Option<Option<Rv>> {
        let base = name.strip_prefix("__builtin_")?;
        if let Some(v) = self.special_value(base, args, info) {
            return Some(v);
        }
        let class = match base {
            "isnan" | "isnanf" | "isnanl" => Class::Nan,
            "isinf" | "isinff" | "isinfl" => Class::Inf,
            "isinf_sign" => Class::InfSign,
            "isfinite" | "finite" | "finitef" | "finitel" => Class::Finite,
            "isnormal" => Class::Normal,
            "signbit" | "signbitf" | "signbitl" => Class::Signbit,
            "issignaling" => Class::Signaling,
            "fpclassify" => Class::Fpclassify,
            _ => {
                let cc = match base {
                    "isgreater" => FloatCC::Ogt,
                    "isgreaterequal" => FloatCC::Oge,
                    "isless" => FloatCC::Olt,
                    "islessequal" => FloatCC::Ole,
                    "islessgreater" => FloatCC::One,
                    "isunordered" => FloatCC::Uno,
                    "iseqsig" => FloatCC::Oeq,
                    _ => return None,
                };
                return Some(self.quiet_compare(cc, args, info, span));
            }
        };
        Some((|| {
            let (x, nums) = match (class, args) {
                (Class::Fpclassify, [n0, n1, n2, n3, n4, x]) => (x, Some([n0, n1, n2, n3, n4])),
                (Class::Fpclassify, _) => {
                    self.unsupported("'__builtin_fpclassify' takes six arguments", span);
                    return None;
                }
                (_, [x]) => (x, None),
                _ => {
                    self.unsupported(format!("'{name}' takes one argument"), span);
                    return None;
                }
            };
            // the class numbers are evaluated first, as the call's arguments in order
            let mut ks = Vec::new();
            for n in nums.into_iter().flatten() {
                let c = self.class_of_conv(n)?;
                let v = self.scalar(n)?;
                ks.push(self.convert(v, c, Scalar::INT));
            }
            let Some(Scalar::Float(t)) = self.class_of_conv(x) else {
                self.unsupported(
                    format!("'{name}' needs a float or double argument on the device"),
                    x.span,
                );
                return None;
            };
            let v = self.scalar(x)?;
            let r = self.classify(class, t, v, &ks);
            let to = self.class(info.ty, span)?;
            Some(Rv::S(self.convert(r, Scalar::INT, to)))
        })())
    }

    /// `__builtin_inf()`, `__builtin_huge_val()` and `__builtin_nan("")` (quiet NaN, payload
    /// from the string as `strtoull` reads it) in each width, outside constant expressions;
    /// `None` for anything else (signaling NaNs, a string that is not a number).
    fn special_value(
        &mut self,
        base: &str,
        args: &'a [Expr],
        info: ExprInfo,
    ) -> Option<Option<Rv>> {
        let stem = base
            .strip_suffix('f')
            .filter(|b| matches!(*b, "inf" | "huge_val" | "nan"))
            .unwrap_or(base);
        let Some(Scalar::Float(t)) = ty::scalar(&self.cx.typed.types, info.ty).ok().flatten()
        else {
            return None;
        };
        let bits = match (stem, args) {
            ("inf" | "huge_val", []) => {
                return Some(Some(Rv::S(self.b.ins().fconst(t, f64::INFINITY))));
            }
            ("nan", [a]) => {
                let ExprKind::Str(lit) = &strip_parens(a).kind else {
                    return None;
                };
                let text: String = lit
                    .value
                    .iter()
                    .filter_map(|&c| char::from_u32(c))
                    .collect();
                if text.is_empty() {
                    0
                } else if let Some(h) = text.strip_prefix("0x").or(text.strip_prefix("0X")) {
                    u64::from_str_radix(h, 16).ok()?
                } else {
                    text.parse::<u64>().ok()?
                }
            }
            _ => return None,
        };
        // the quiet bit and the payload's low mantissa bits, in the result's own width
        let v = if t == Type::F32 {
            let b = 0x7fc0_0000u32 | (bits as u32 & 0x003f_ffff);
            f64::from(f32::from_bits(b))
        } else {
            f64::from_bits(0x7ff8_0000_0000_0000 | (bits & 0x0007_ffff_ffff_ffff))
        };
        Some(Some(Rv::S(self.b.ins().fconst(t, v))))
    }

    /// `class` of `v` (of float type `t`) as an `int`.
    fn classify(&mut self, class: Class, t: Type, v: Value, ks: &[Value]) -> Value {
        let int = |s: &mut Self, c: Value| s.b.ins().zext(Type::I32, c);
        match class {
            Class::Nan => {
                let c = self.b.ins().fcmp(FloatCC::Uno, v, v);
                int(self, c)
            }
            Class::Inf => {
                let c = self.is_inf(t, v);
                int(self, c)
            }
            Class::InfSign => {
                let inf = self.is_inf(t, v);
                let neg = self.sign_bit(t, v);
                let m1 = self.b.ins().iconst(Type::I32, -1);
                let p1 = self.b.ins().iconst(Type::I32, 1);
                let z = self.b.ins().iconst(Type::I32, 0);
                let s = self.b.ins().select(neg, m1, p1);
                self.b.ins().select(inf, s, z)
            }
            Class::Finite => {
                let c = self.is_finite(t, v);
                int(self, c)
            }
            Class::Normal => {
                let c = self.is_normal(t, v);
                int(self, c)
            }
            Class::Signbit => {
                let c = self.sign_bit(t, v);
                int(self, c)
            }
            Class::Signaling => {
                // a NaN whose quiet bit (the top mantissa bit) is clear
                let it = Type::int(t.bits()).unwrap_or(Type::I64);
                let bits = self.b.ins().bitcast(it, v);
                let quiet: i64 = if t == Type::F32 { 1 << 22 } else { 1 << 51 };
                let q = self.b.ins().iconst(it, quiet);
                let qb = self.b.ins().and(bits, q);
                let z = self.b.ins().iconst(it, 0);
                let clear = self.b.ins().icmp(IntCC::Eq, qb, z);
                let nan = self.b.ins().fcmp(FloatCC::Uno, v, v);
                let one = self.b.ins().iconst(Type::I32, 1);
                let zero = self.b.ins().iconst(Type::I32, 0);
                let c = self.b.ins().select(clear, one, zero);
                self.b.ins().select(nan, c, zero)
            }
            Class::Fpclassify => {
                let [k_nan, k_inf, k_normal, k_sub, k_zero] = [ks[0], ks[1], ks[2], ks[3], ks[4]];
                let zero = self.b.ins().fconst(t, 0.0);
                let is_zero = self.b.ins().fcmp(FloatCC::Oeq, v, zero);
                let normal = self.is_normal(t, v);
                let inf = self.is_inf(t, v);
                let nan = self.b.ins().fcmp(FloatCC::Uno, v, v);
                let r = self.b.ins().select(is_zero, k_zero, k_sub);
                let r = self.b.ins().select(normal, k_normal, r);
                let r = self.b.ins().select(inf, k_inf, r);
                self.b.ins().select(nan, k_nan, r)
            }
        }
    }

    /// `|v| == inf` as an `i1`.
    fn is_inf(&mut self, t: Type, v: Value) -> Value {
        let a = self.b.ins().fabs(v);
        let inf = self.b.ins().fconst(t, f64::INFINITY);
        self.b.ins().fcmp(FloatCC::Oeq, a, inf)
    }

    /// `|v| < inf` (false for NaN) as an `i1`.
    fn is_finite(&mut self, t: Type, v: Value) -> Value {
        let a = self.b.ins().fabs(v);
        let inf = self.b.ins().fconst(t, f64::INFINITY);
        self.b.ins().fcmp(FloatCC::Olt, a, inf)
    }

    /// `min_normal <= |v| < inf` as an `i1`.
    fn is_normal(&mut self, t: Type, v: Value) -> Value {
        let a = self.b.ins().fabs(v);
        let min = if t == Type::F32 {
            f64::from(f32::MIN_POSITIVE)
        } else {
            f64::MIN_POSITIVE
        };
        let lo = self.b.ins().fconst(t, min);
        let inf = self.b.ins().fconst(t, f64::INFINITY);
        let ge = self.b.ins().fcmp(FloatCC::Oge, a, lo);
        let lt = self.b.ins().fcmp(FloatCC::Olt, a, inf);
        self.b.ins().and(ge, lt)
    }

    /// The sign bit of `v` (set for -0.0 and negative NaNs too) as an `i1`.
    fn sign_bit(&mut self, t: Type, v: Value) -> Value {
        let it = Type::int(t.bits()).unwrap_or(Type::I64);
        let bits = self.b.ins().bitcast(it, v);
        let z = self.b.ins().iconst(it, 0);
        self.b.ins().icmp(IntCC::Slt, bits, z)
    }

    /// `isgreater(x, y)` and the other comparisons that never trap: both operands in their
    /// common real type, then an ordered compare (`isunordered`: unordered).
    fn quiet_compare(
        &mut self,
        cc: FloatCC,
        args: &'a [Expr],
        info: ExprInfo,
        span: Span,
    ) -> Option<Rv> {
        let [x, y] = args else {
            self.unsupported("this comparison builtin takes two arguments", span);
            return None;
        };
        let xc = self.class_of_conv(x)?;
        let yc = self.class_of_conv(y)?;
        // the usual arithmetic conversions: the wider float; an integer takes the other's
        let t = match (xc, yc) {
            (Scalar::Float(a), Scalar::Float(b)) => {
                if a.bits() >= b.bits() {
                    a
                } else {
                    b
                }
            }
            (Scalar::Float(a), _) | (_, Scalar::Float(a)) => a,
            _ => Type::F64,
        };
        let xv = self.scalar(x)?;
        let yv = self.scalar(y)?;
        let a = self.convert(xv, xc, Scalar::Float(t));
        let b = self.convert(yv, yc, Scalar::Float(t));
        let c = self.b.ins().fcmp(cc, a, b);
        let r = self.b.ins().zext(Type::I32, c);
        let to = self.class(info.ty, span)?;
        Some(Rv::S(self.convert(r, Scalar::INT, to)))
    }
}
