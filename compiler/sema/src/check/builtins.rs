//! The GNU builtins C headers and programs use: ordinary ones get a prototype at file scope
//! (as if declared by the compiler), type-generic ones are typed by special rules in
//! `expr.rs`. Only names the translation unit mentions are declared.
//!
//! Signatures are written in a small notation: a return type, then parameter types, each a
//! short code (`v` void, `i` int, `u` unsigned, `l` long, `ul` unsigned long, `ll`, `ull`,
//! `us` unsigned short, `f` float, `d` double, `ld` long double, `q` _Float128, `s` size_t,
//! `p` void *, `cp` const void *, `c` char *, `cs` const char *, `va` va_list), and `...`.

use super::Checker;
use crate::types::{FloatKind, FnType, IntKind, QualType, Quals};

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
    /// Result has the type of the first argument (`__builtin_complex` is handled as this
    /// with a complex result computed by the caller's conversion).
    SameAsFirst,
    /// `__builtin_tgmath(f, g, h, args...)`
    Tgmath,
    /// `__builtin_add_overflow(a, b, &r)` and friends.
    Overflow,
    /// `__atomic_*` / `__sync_*` taking a pointer first.
    AtomicLike,
}

impl Generic {
    pub(super) fn arity(self) -> (usize, usize) {
        match self {
            Generic::ChooseExpr => (3, 3),
            Generic::ConstantP | Generic::Classify => (1, 1),
            Generic::FloatPredicate => (1, 6),
            Generic::SameAsFirst => (1, 2),
            Generic::Tgmath => (2, 16),
            Generic::Overflow => (3, 3),
            Generic::AtomicLike => (1, 6),
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
    ("__builtin_complex", Generic::SameAsFirst),
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
    ("__atomic_thread_fence", "v i"),
    ("__atomic_signal_fence", "v i"),
    ("__sync_synchronize", "v"),
];

impl Checker<'_> {
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

    /// Whether an undeclared `name` is a type-generic atomic builtin.
    pub(super) fn atomic_builtin(&self, name: &str) -> bool {
        (name.starts_with("__atomic_") || name.starts_with("__sync_"))
            && !SIGS.iter().any(|(n, _)| *n == name)
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
