//! Device standard library of ompcc: the C sources of the device math library, of the
//! <string.h>, <ctype.h> and some <stdlib.h> functions (`string/`, `ctype/`, `stdlib/`, with
//! `strtod` and the allocation functions), of errno (`errno/`), wide strings in the C locale
//! (`wchar/`), `puts` and `putchar` as device printf calls (`output/`), of the <complex.h>
//! functions with the routines behind complex `*` and `/` (`complex/`), and <stdio.h>'s
//! `snprintf`, `sprintf`, `vsnprintf`, `vsprintf` (`stdio/`: variadic functions of the device
//! varargs ABI, printing exactly what glibc prints).
//!
//! The library is portable C11 written for ompcc (see `math/`): the compiler compiles
//! [`MATH_SOURCES`] for the device (with [`MATH_HEADERS`] reachable by `#include "name"`;
//! [`write_math_tree`] puts both in a directory for `cc -E -I dir`) and links them into the
//! device module, then rewrites calls to C library functions in device code to their device
//! symbols ([`device_symbol`]): `sin` -> `__ompcc_sin`. The sources call each other
//! (internal `__ompcc_i_*` routines, e.g. pow uses the exp and log cores), so link them all,
//! then drop the unreferenced functions.
//!
//! Invariants of the sources: no libm calls (the allocation functions in `heap.c` build on
//! the driver's `malloc`/`free`), no `long double`, no inline asm, no recursion, only const
//! tables of a few KB; builtins limited to those that map to exact PTX instructions (`fma`,
//! `sqrt`, `fabs`, `floor`, `ceil`, `trunc`, `rint`, `fmin`, `fmax`, `copysign`); no string
//! literals (their globals would take names the user module may hold). The mutable globals
//! are errno (`errno/errno.c`): one int per device module, shared by all its threads (exact
//! in code one thread runs), which the conversions (`strtol`, `strtod`, `wctomb`, ...) set as
//! C and glibc do and the math functions never do; and strerror's buffer for unknown error
//! numbers, shared the same way. Accuracy against glibc is measured on the host by
//! `tests/accuracy.rs` and recorded in `ACCURACY.md`.

/// Headers of the math library, as `(file name, text)`; sources include them by name.
pub const MATH_HEADERS: &[(&str, &str)] = &[
    ("ompcc_math.h", include_str!("../math/ompcc_math.h")),
    ("internal.h", include_str!("../math/internal.h")),
    ("consts.h", include_str!("../math/consts.h")),
    ("ompcc_string.h", include_str!("../string/ompcc_string.h")),
    ("ompcc_ctype.h", include_str!("../ctype/ompcc_ctype.h")),
    ("ompcc_stdlib.h", include_str!("../stdlib/ompcc_stdlib.h")),
    ("ompcc_errno.h", include_str!("../errno/ompcc_errno.h")),
    ("ompcc_wchar.h", include_str!("../wchar/ompcc_wchar.h")),
    ("ompcc_output.h", include_str!("../output/ompcc_output.h")),
    (
        "ompcc_complex.h",
        include_str!("../complex/ompcc_complex.h"),
    ),
    ("ompcc_stdio.h", include_str!("../stdio/ompcc_stdio.h")),
];

/// Translation units of the library (math, then `string.c`, `ctype.c`, `stdlib.c`,
/// `heap.c`, `strtod.c`, `errno.c`, `strerror.c`, `wchar.c`, `output.c`, `complex.c`,
/// `stdio.c`), as
/// `(file name, text)`.
pub const MATH_SOURCES: &[(&str, &str)] = &[
    ("basic.c", include_str!("../math/basic.c")),
    ("exp.c", include_str!("../math/exp.c")),
    ("log.c", include_str!("../math/log.c")),
    ("pow.c", include_str!("../math/pow.c")),
    ("trig.c", include_str!("../math/trig.c")),
    ("invtrig.c", include_str!("../math/invtrig.c")),
    ("erf.c", include_str!("../math/erf.c")),
    ("extra.c", include_str!("../math/extra.c")),
    ("gamma.c", include_str!("../math/gamma.c")),
    ("string.c", include_str!("../string/string.c")),
    ("ctype.c", include_str!("../ctype/ctype.c")),
    ("stdlib.c", include_str!("../stdlib/stdlib.c")),
    ("heap.c", include_str!("../stdlib/heap.c")),
    ("strtod.c", include_str!("../stdlib/strtod.c")),
    ("errno.c", include_str!("../errno/errno.c")),
    ("strerror.c", include_str!("../string/strerror.c")),
    ("wchar.c", include_str!("../wchar/wchar.c")),
    ("output.c", include_str!("../output/output.c")),
    ("complex.c", include_str!("../complex/complex.c")),
    ("stdio.c", include_str!("../stdio/stdio.c")),
];

/// `(C library function, device symbol)` for every function the library provides.
macro_rules! device_functions {
    ($($name:ident),* $(,)?) => {
        &[$((stringify!($name), concat!("__ompcc_", stringify!($name)))),*]
    };
}

/// C library functions the device library provides, each with its device symbol
/// (`"sin"` -> `"__ompcc_sin"`).
pub const FUNCTIONS: &[(&str, &str)] = device_functions![
    sqrt,
    sqrtf,
    fabs,
    fabsf,
    floor,
    floorf,
    ceil,
    ceilf,
    trunc,
    truncf,
    rint,
    rintf,
    round,
    roundf,
    fmin,
    fminf,
    fmax,
    fmaxf,
    fdim,
    fdimf,
    fma,
    fmaf,
    copysign,
    copysignf,
    ldexp,
    ldexpf,
    frexp,
    frexpf,
    modf,
    modff,
    fmod,
    fmodf,
    remainder,
    remainderf,
    abs,
    labs,
    llabs,
    exp,
    expf,
    exp2,
    exp2f,
    expm1,
    expm1f,
    sinh,
    sinhf,
    cosh,
    coshf,
    tanh,
    tanhf,
    log,
    logf,
    log2,
    log2f,
    log10,
    log10f,
    log1p,
    log1pf,
    asinh,
    asinhf,
    acosh,
    acoshf,
    atanh,
    atanhf,
    cbrt,
    cbrtf,
    pow,
    powf,
    hypot,
    hypotf,
    sin,
    sinf,
    cos,
    cosf,
    tan,
    tanf,
    asin,
    asinf,
    acos,
    acosf,
    atan,
    atanf,
    atan2,
    atan2f,
    erf,
    erff,
    erfc,
    erfcf,
    nearbyint,
    nearbyintf,
    lrint,
    lrintf,
    llrint,
    llrintf,
    lround,
    lroundf,
    llround,
    llroundf,
    scalbn,
    scalbnf,
    scalbln,
    scalblnf,
    ilogb,
    ilogbf,
    logb,
    logbf,
    nextafter,
    nextafterf,
    tgamma,
    tgammaf, // <string.h>
    memcpy,
    memmove,
    memset,
    memcmp,
    memchr,
    strlen,
    strnlen,
    strcmp,
    strncmp,
    strcpy,
    strncpy,
    strcat,
    strncat,
    strchr,
    strrchr,
    strstr,
    strdup,
    strndup,
    strerror,
    // <ctype.h> ("C" locale): the functions and the tables glibc's macros read
    isupper,
    islower,
    isalpha,
    isdigit,
    isxdigit,
    isspace,
    isprint,
    isgraph,
    isblank,
    iscntrl,
    ispunct,
    isalnum,
    tolower,
    toupper,
    __ctype_b_loc,
    __ctype_tolower_loc,
    __ctype_toupper_loc,
    // <stdlib.h>: the allocation functions keep a header in each block on the driver's heap
    malloc,
    free,
    realloc,
    aligned_alloc,
    posix_memalign,
    calloc,
    qsort,
    bsearch,
    strtol,
    strtoll,
    strtoul,
    strtoull,
    atoi,
    atol,
    atoll,
    strtod,
    strtof,
    atof,
    // <errno.h>: glibc's `errno` is `(*__errno_location ())`
    __errno_location,
    // <stdio.h>: the two that are exactly a device printf
    puts,
    putchar,
    // <wchar.h>, <wctype.h> and the multibyte conversions, C locale
    wcslen,
    wcscpy,
    wcsncpy,
    wcscat,
    wcsncat,
    wcscmp,
    wcsncmp,
    wcschr,
    wcsrchr,
    wcsstr,
    wcsspn,
    wcscspn,
    wcspbrk,
    wcstok,
    wmemcpy,
    wmemmove,
    wmemset,
    wmemcmp,
    wmemchr,
    iswalnum,
    iswalpha,
    iswblank,
    iswcntrl,
    iswdigit,
    iswgraph,
    iswlower,
    iswprint,
    iswpunct,
    iswspace,
    iswupper,
    iswxdigit,
    towlower,
    towupper,
    wctype,
    iswctype,
    wctrans,
    towctrans,
    wcstol,
    wcstoul,
    wcstoll,
    wcstoull,
    wcstod,
    wcstof,
    wcstombs,
    mbstowcs,
    mbtowc,
    wctomb,
    // <complex.h>
    cabs,
    cabsf,
    carg,
    cargf,
    cproj,
    cprojf,
    cexp,
    cexpf,
    clog,
    clogf,
    csqrt,
    csqrtf,
    cpow,
    cpowf,
    csin,
    csinf,
    ccos,
    ccosf,
    ctan,
    ctanf,
    csinh,
    csinhf,
    ccosh,
    ccoshf,
    ctanh,
    ctanhf,
    // complex `*` (when the textbook formula gives NaN + NaN i) and `/` (libgcc's names)
    __muldc3,
    __mulsc3,
    __divdc3,
    __divsc3,
    // <stdio.h> string formatting (variadic: the device varargs ABI)
    snprintf,
    sprintf,
    vsnprintf,
    vsprintf,
];

/// Prefix of every device symbol of the library.
pub const SYMBOL_PREFIX: &str = "__ompcc_";

/// The device symbol implementing C library function `name`, if the library provides it.
pub fn device_symbol(name: &str) -> Option<&'static str> {
    FUNCTIONS
        .iter()
        .find(|(c, _)| *c == name)
        .map(|(_, sym)| *sym)
}

/// Writes the math library's headers and sources into `dir` (created if needed) and returns
/// the paths of the sources, ready for `cc -E -I dir` and ompcc's device compilation. This
/// is exactly the text the host accuracy test measures.
pub fn write_math_tree(dir: &std::path::Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    std::fs::create_dir_all(dir)?;
    for (name, text) in MATH_HEADERS {
        std::fs::write(dir.join(name), text)?;
    }
    let mut sources = Vec::with_capacity(MATH_SOURCES.len());
    for (name, text) in MATH_SOURCES {
        let path = dir.join(name);
        std::fs::write(&path, text)?;
        sources.push(path);
    }
    Ok(sources)
}

/// All of [`MATH_SOURCES`] as one translation unit (each file after a `#line 1 "name"`), for
/// a compiler that wants the whole library in one module: the headers are include-guarded
/// and the files' static helpers have distinct names, so the concatenation is valid C.
/// It still includes the headers, so preprocess it with `-I` a [`write_math_tree`] directory.
pub fn amalgamation() -> String {
    let mut out = String::new();
    for (name, text) in MATH_SOURCES {
        out.push_str(&format!("#line 1 \"{name}\"\n"));
        out.push_str(text);
        if !text.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// The text of math library header `name` (as written in `#include "name"`), if it is one.
pub fn header(name: &str) -> Option<&'static str> {
    MATH_HEADERS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_function_is_defined_in_a_source() {
        for (f, sym) in FUNCTIONS {
            assert_eq!(device_symbol(f), Some(*sym));
            assert!(sym.starts_with(SYMBOL_PREFIX));
            let def = format!("{sym}(");
            let found = MATH_SOURCES.iter().any(|(_, text)| {
                text.lines()
                    .any(|l| !l.starts_with(' ') && l.contains(&def))
            });
            assert!(found, "{sym} has no definition in MATH_SOURCES");
            let declared = MATH_HEADERS.iter().any(|(_, text)| text.contains(&def));
            assert!(declared, "{sym} is not declared in a library header");
        }
        assert_eq!(device_symbol("printf"), None);
        assert_eq!(device_symbol("sin"), Some("__ompcc_sin"));
        assert!(header("internal.h").is_some() && header("stdio.h").is_none());
    }
}
