//! The GNU builtins C headers and programs use: ordinary ones get a prototype at file scope
//! (as if declared by the compiler), type-generic ones are typed by special rules in
//! `expr.rs`. Only names the translation unit mentions are declared.
//!
//! Signatures are written in a small notation: a return type, then parameter types, each a
//! short code (`v` void, `i` int, `u` unsigned, `l` long, `ul` unsigned long, `ll`, `ull`,
//! `us` unsigned short, `f` float, `d` double, `ld` long double, `q` _Float128, `s` size_t,
//! `p` void *, `cp` const void *, `c` char *, `cs` const char *, `va` va_list), and `...`.

use super::Checker;
use super::ExprInfo;
use super::expr::rv;
use super::fold::fold;
use crate::consteval::{ConstInt, ConstValue};
use crate::types::TypeKind;
use crate::types::{FloatKind, FnType, IntKind, QualType, Quals};
use ompcc_syntax::ast::{self, Expr};

/// Builtins whose typing depends on their arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Generic {
    /// `__builtin_choose_expr(c, a, b)`
    ChooseExpr,
    /// `__builtin_constant_p(x)`
    ConstantP,
    /// `__builtin_classify_type(x)`
    Classify,
    /// `__builtin_isnan(x)` and other floating classification, returning int.
    FloatPredicate,
    /// `__builtin_complex(re, im)`: the complex type of its real floating arguments.
    Complex,
    /// `__builtin_tgmath(f, g, h, args...)`
    Tgmath,
    /// `__builtin_add_overflow(a, b, &r)` and friends.
    Overflow,
}

impl Generic {
    pub(super) fn arity(self) -> (usize, usize) {
        match self {
            Generic::ChooseExpr => (3, 3),
            Generic::ConstantP | Generic::Classify => (1, 1),
            Generic::FloatPredicate => (1, 6),
            Generic::Complex => (2, 2),
            Generic::Tgmath => (2, 16),
            Generic::Overflow => (3, 3),
        }
    }
}

const GENERIC: &[(&str, Generic)] = &[
    ("__builtin_choose_expr", Generic::ChooseExpr),
    ("__builtin_constant_p", Generic::ConstantP),
    ("__builtin_classify_type", Generic::Classify),
    ("__builtin_isnan", Generic::FloatPredicate),
    ("__builtin_isinf", Generic::FloatPredicate),
    ("__builtin_isinf_sign", Generic::FloatPredicate),
    ("__builtin_isfinite", Generic::FloatPredicate),
    ("__builtin_isnormal", Generic::FloatPredicate),
    ("__builtin_issignaling", Generic::FloatPredicate),
    ("__builtin_signbit", Generic::FloatPredicate),
    ("__builtin_signbitf", Generic::FloatPredicate),
    ("__builtin_signbitl", Generic::FloatPredicate),
    ("__builtin_fpclassify", Generic::FloatPredicate),
    ("__builtin_isgreater", Generic::FloatPredicate),
    ("__builtin_isgreaterequal", Generic::FloatPredicate),
    ("__builtin_isless", Generic::FloatPredicate),
    ("__builtin_islessequal", Generic::FloatPredicate),
    ("__builtin_islessgreater", Generic::FloatPredicate),
    ("__builtin_isunordered", Generic::FloatPredicate),
    ("__builtin_iseqsig", Generic::FloatPredicate),
    ("__builtin_complex", Generic::Complex),
    ("__builtin_tgmath", Generic::Tgmath),
    ("__builtin_add_overflow", Generic::Overflow),
    ("__builtin_sub_overflow", Generic::Overflow),
    ("__builtin_mul_overflow", Generic::Overflow),
];

const SIGS: &[(&str, &str)] = &[
    ("__builtin_va_start", "v va ..."),
    ("__builtin_va_end", "v va"),
    ("__builtin_va_copy", "v va va"),
    ("__builtin_va_arg_pack", "i"),
    ("__builtin_va_arg_pack_len", "i"),
    ("__builtin_expect", "l l l"),
    ("__builtin_expect_with_probability", "l l l d"),
    ("__builtin_assume_aligned", "p cp s ..."),
    ("__builtin_unreachable", "v"),
    ("__builtin_trap", "v"),
    ("__builtin_abort", "v"),
    ("__builtin_exit", "v i"),
    ("__builtin_bswap16", "us us"),
    ("__builtin_bswap32", "u u"),
    ("__builtin_bswap64", "ul ul"),
    ("__builtin_clz", "i u"),
    ("__builtin_clzl", "i ul"),
    ("__builtin_clzll", "i ull"),
    ("__builtin_ctz", "i u"),
    ("__builtin_ctzl", "i ul"),
    ("__builtin_ctzll", "i ull"),
    ("__builtin_popcount", "i u"),
    ("__builtin_popcountl", "i ul"),
    ("__builtin_popcountll", "i ull"),
    ("__builtin_parity", "i u"),
    ("__builtin_parityl", "i ul"),
    ("__builtin_parityll", "i ull"),
    ("__builtin_ffs", "i i"),
    ("__builtin_ffsl", "i l"),
    ("__builtin_ffsll", "i ll"),
    ("__builtin_abs", "i i"),
    ("__builtin_labs", "l l"),
    ("__builtin_llabs", "ll ll"),
    ("__builtin_huge_val", "d"),
    ("__builtin_huge_valf", "f"),
    ("__builtin_huge_vall", "ld"),
    ("__builtin_huge_valf128", "q"),
    ("__builtin_inf", "d"),
    ("__builtin_inff", "f"),
    ("__builtin_infl", "ld"),
    ("__builtin_inff128", "q"),
    ("__builtin_nan", "d cs"),
    ("__builtin_nanf", "f cs"),
    ("__builtin_nanl", "ld cs"),
    ("__builtin_nanf128", "q cs"),
    ("__builtin_nans", "d cs"),
    ("__builtin_nansf", "f cs"),
    ("__builtin_nansl", "ld cs"),
    ("__builtin_nansf128", "q cs"),
    ("__builtin_fabs", "d d"),
    ("__builtin_fabsf", "f f"),
    ("__builtin_fabsl", "ld ld"),
    ("__builtin_fabsf128", "q q"),
    ("__builtin_copysign", "d d d"),
    ("__builtin_copysignf", "f f f"),
    ("__builtin_copysignl", "ld ld ld"),
    ("__builtin_copysignf128", "q q q"),
    ("__builtin_sqrt", "d d"),
    ("__builtin_sqrtf", "f f"),
    ("__builtin_sqrtl", "ld ld"),
    ("__builtin_sin", "d d"),
    ("__builtin_sinf", "f f"),
    ("__builtin_cos", "d d"),
    ("__builtin_cosf", "f f"),
    ("__builtin_tan", "d d"),
    ("__builtin_exp", "d d"),
    ("__builtin_expf", "f f"),
    ("__builtin_log", "d d"),
    ("__builtin_logf", "f f"),
    ("__builtin_log2", "d d"),
    ("__builtin_log10", "d d"),
    ("__builtin_pow", "d d d"),
    ("__builtin_powf", "f f f"),
    ("__builtin_powi", "d d i"),
    ("__builtin_powif", "f f i"),
    ("__builtin_floor", "d d"),
    ("__builtin_floorf", "f f"),
    ("__builtin_ceil", "d d"),
    ("__builtin_ceilf", "f f"),
    ("__builtin_trunc", "d d"),
    ("__builtin_truncf", "f f"),
    ("__builtin_round", "d d"),
    ("__builtin_roundf", "f f"),
    ("__builtin_fmin", "d d d"),
    ("__builtin_fminf", "f f f"),
    ("__builtin_fmax", "d d d"),
    ("__builtin_fmaxf", "f f f"),
    ("__builtin_fma", "d d d d"),
    ("__builtin_fmaf", "f f f f"),
    ("__builtin_object_size", "s cp i"),
    ("__builtin_dynamic_object_size", "s cp i"),
    ("__builtin_alloca", "p s"),
    ("__builtin_alloca_with_align", "p s s"),
    ("__builtin_malloc", "p s"),
    ("__builtin_calloc", "p s s"),
    ("__builtin_free", "v p"),
    ("__builtin_memcpy", "p p cp s"),
    ("__builtin_memmove", "p p cp s"),
    ("__builtin_memset", "p p i s"),
    ("__builtin_memcmp", "i cp cp s"),
    ("__builtin_strlen", "s cs"),
    ("__builtin_strcmp", "i cs cs"),
    ("__builtin_strncmp", "i cs cs s"),
    ("__builtin_strcpy", "c c cs"),
    ("__builtin_strncpy", "c c cs s"),
    ("__builtin_strcat", "c c cs"),
    ("__builtin_strchr", "c cs i"),
    ("__builtin_printf", "i cs ..."),
    ("__builtin_puts", "i cs"),
    ("__builtin___memcpy_chk", "p p cp s s"),
    ("__builtin___memmove_chk", "p p cp s s"),
    ("__builtin___mempcpy_chk", "p p cp s s"),
    ("__builtin___memset_chk", "p p i s s"),
    ("__builtin___strcpy_chk", "c c cs s"),
    ("__builtin___stpcpy_chk", "c c cs s"),
    ("__builtin___strncpy_chk", "c c cs s s"),
    ("__builtin___stpncpy_chk", "c c cs s s"),
    ("__builtin___strcat_chk", "c c cs s"),
    ("__builtin___strncat_chk", "c c cs s s"),
    ("__builtin___sprintf_chk", "i c i s cs ..."),
    ("__builtin___snprintf_chk", "i c s i s cs ..."),
    ("__builtin___vsprintf_chk", "i c i s cs va"),
    ("__builtin___vsnprintf_chk", "i c s i s cs va"),
    ("__builtin_prefetch", "v cp ..."),
    ("__builtin_return_address", "p u"),
    ("__builtin_frame_address", "p u"),
    ("__builtin_LINE", "i"),
    ("__builtin_FILE", "cs"),
    ("__builtin_FUNCTION", "cs"),
];

/// OpenMP 5.1/5.2 routines ompcc's runtime defines that libgomp 12's `<omp.h>` does not
/// declare; the host rewrite's prelude declares them for the host compiler (the depend object
/// pointer is typed `void *` here).
const OMP_ROUTINES: &[(&str, &str)] = &[
    ("omp_target_memcpy_async", "i p cp s s s i i i p"),
    (
        "omp_target_memcpy_rect_async",
        "i p cp s i cp cp cp cp cp i i i p",
    ),
    ("omp_get_mapped_ptr", "p cp i"),
    ("omp_target_is_accessible", "i cp s i"),
    ("omp_in_explicit_task", "i"),
    // automatic offload's run-time choice (`runtime/src/auto_offload.rs`)
    ("__ompcc_auto_select", "i cs l l l l l l l l"),
    ("__ompcc_auto_done", "v cs"),
];

impl Checker<'_> {
    /// Declares `name` at file scope when it is one of [`OMP_ROUTINES`] (called for a call
    /// of an undeclared function); returns whether it was.
    pub(super) fn declare_omp_routine(&mut self, name: ast::Symbol) -> bool {
        let Some((_, sig)) = OMP_ROUTINES.iter().find(|(n, _)| *n == self.name(name)) else {
            return false;
        };
        let ty = self.parse_sig(sig);
        self.declare_builtin_fn(name, ty);
        true
    }

    pub(super) fn declare_builtins(&mut self) {
        for (name, g) in GENERIC {
            if let Some(s) = self.tu.symbols.get(name) {
                self.generic_builtins.insert(s, *g);
            }
        }
        for (name, sig) in SIGS {
            let Some(s) = self.tu.symbols.get(name) else {
                continue;
            };
            let ty = self.parse_sig(sig);
            self.declare_builtin_fn(s, ty);
        }
    }

    fn parse_sig(&mut self, sig: &str) -> QualType {
        let mut parts = sig.split_whitespace();
        let ret = self.sig_type(parts.next().unwrap_or("v"));
        let mut params = Vec::new();
        let mut variadic = false;
        for p in parts {
            if p == "..." {
                variadic = true;
            } else {
                params.push(self.sig_type(p));
            }
        }
        self.out.types.function(FnType {
            ret,
            params,
            variadic,
            prototyped: true,
        })
    }

    fn sig_type(&mut self, code: &str) -> QualType {
        let t = &mut self.out.types;
        match code {
            "i" => t.int(IntKind::Int),
            "u" => t.int(IntKind::UInt),
            "l" => t.int(IntKind::Long),
            "ul" | "s" => t.int(IntKind::ULong),
            "ll" => t.int(IntKind::LongLong),
            "ull" => t.int(IntKind::ULongLong),
            "us" => t.int(IntKind::UShort),
            "f" => t.float(FloatKind::Float),
            "d" => t.float(FloatKind::Double),
            "ld" => t.float(FloatKind::LongDouble),
            "q" => t.float(FloatKind::Float128),
            "p" => {
                let v = t.void();
                t.pointer(v)
            }
            "cp" => {
                let v = t.void().with(Quals::CONST);
                t.pointer(v)
            }
            "c" => {
                let c = t.int(IntKind::Char);
                t.pointer(c)
            }
            "cs" => {
                let c = t.int(IntKind::Char).with(Quals::CONST);
                t.pointer(c)
            }
            "va" => {
                let va = self.va_list_type();
                self.adjust_param(va)
            }
            _ => t.void(),
        }
    }
}

impl Checker<'_> {
    /// Types a call of a type-generic builtin (see [`Generic`]).
    pub(super) fn generic_builtin_call(
        &mut self,
        e: &Expr,
        name: ast::Symbol,
        g: super::builtins::Generic,
        args: &[Expr],
    ) -> Option<ExprInfo> {
        use super::builtins::Generic;
        let n = self.name(name);
        let (min, max) = g.arity();
        if args.len() < min || args.len() > max {
            self.error(
                "E0431",
                format!("wrong number of arguments to '{n}'"),
                e.span,
            );
            return None;
        }
        let int = self.out.types.int(IntKind::Int);
        match g {
            Generic::ChooseExpr => {
                let c = self.const_int(&args[0])?;
                let pick = if c.is_zero() { &args[2] } else { &args[1] };
                let i = self.expr(pick)?;
                self.out.selected.insert(e.id, pick.id);
                Some(ExprInfo { conv: i.ty, ..i })
            }
            Generic::ConstantP => {
                self.unevaluated += 1;
                let t = self.rvalue(&args[0]);
                self.unevaluated -= 1;
                let v = t.is_some() && fold(&self.out, &args[0]).is_some();
                self.out.consts.insert(
                    e.id,
                    ConstValue::Int(ConstInt::new(i128::from(v), IntKind::Int)),
                );
                Some(rv(int))
            }
            Generic::Classify | Generic::FloatPredicate => {
                let tys: Vec<_> = args.iter().map(|a| self.rvalue(a)).collect();
                for (a, t) in args.iter().zip(tys) {
                    let t = t?;
                    if g == Generic::FloatPredicate && !self.out.types.is_real(t) {
                        let s = self.ty_str(t);
                        self.error(
                            "E0433",
                            format!(
                                "non-floating-point argument in call to function '{n}' (type '{s}')"
                            ),
                            a.span,
                        );
                        return None;
                    }
                }
                Some(rv(int))
            }
            Generic::Complex => {
                let tys: Vec<_> = args.iter().map(|a| self.rvalue(a)).collect();
                let t = tys.first().copied().flatten()?;
                let TypeKind::Float(k) = *self.out.types.ckind(t) else {
                    self.error(
                        "E0433",
                        "'__builtin_complex' needs real floating arguments",
                        e.span,
                    );
                    return None;
                };
                Some(rv(self.out.types.complex(k)))
            }
            Generic::Tgmath => {
                let tys: Vec<Option<QualType>> = args.iter().map(|a| self.rvalue(a)).collect();
                // leading arguments are the candidate functions, the rest the call's
                // arguments (as many as the first candidate has parameters)
                let fns: Vec<(usize, FnType)> = tys
                    .iter()
                    .enumerate()
                    .map_while(|(i, t)| {
                        let p = self.out.types.pointee((*t)?)?;
                        Some((i, self.out.types.fn_type(p)?.clone()))
                    })
                    .collect();
                let nparams = fns.first().map_or(0, |f| f.1.params.len());
                if fns.is_empty() || fns.len() + nparams != args.len() {
                    self.error("E0433", format!("invalid arguments to '{n}'"), e.span);
                    return None;
                }
                // the generic type: complex if any argument is, real type from the usual
                // arithmetic conversions with integers counted as double
                let mut real: Option<FloatKind> = None;
                let mut complex = false;
                for t in tys[fns.len()..].iter().flatten() {
                    let k = match self.out.types.ckind(*t) {
                        TypeKind::Float(k) => *k,
                        TypeKind::Complex(k) => {
                            complex = true;
                            *k
                        }
                        _ if self.out.types.is_integer(*t) => FloatKind::Double,
                        _ => continue,
                    };
                    real = Some(real.map_or(k, |r| r.max(k)));
                }
                let want = real.unwrap_or(FloatKind::Double);
                let pick = fns.iter().find(|(_, f)| {
                    f.params
                        .first()
                        .is_some_and(|p| match self.out.types.ckind(*p) {
                            TypeKind::Float(k) => !complex && *k == want,
                            TypeKind::Complex(k) => complex && *k == want,
                            _ => false,
                        })
                });
                let Some((i, f)) = pick else {
                    self.error(
                        "E0433",
                        format!("no matching function for type-generic call to '{n}'"),
                        e.span,
                    );
                    return None;
                };
                // the call stands for a call of the chosen candidate
                self.out.selected.insert(e.id, args[*i].id);
                for (a, p) in args[fns.len()..].iter().zip(f.params.clone()) {
                    self.set_conv(a.id, p);
                }
                Some(rv(f.ret))
            }
            Generic::Overflow => {
                let tys: Vec<_> = args.iter().map(|a| self.rvalue(a)).collect();
                if let Some(Some(p)) = tys.get(2)
                    && self
                        .out
                        .types
                        .pointee(*p)
                        .is_none_or(|q| !self.out.types.is_integer(q))
                {
                    self.error("E0433", format!("argument 3 in call to function '{n}' does not have pointer to integer type"), args[2].span);
                    return None;
                }
                let b = self.out.types.bool_();
                Some(rv(b))
            }
        }
    }
}
