//! Checks that the math library sources keep the rules the device compiler relies on: no
//! libm calls, no `long double`, no inline asm, only builtins that map to exact PTX
//! instructions, only quoted includes of the library's own headers, no mutable globals but errno's.

use ompcc_stdlib::{FUNCTIONS, MATH_HEADERS, MATH_SOURCES};

/// The library's only mutable state, `(file, definition)`: errno (see `errno/errno.c`) and
/// strerror's buffer for unknown numbers.
const MUTABLE_GLOBALS: &[(&str, &str)] = &[
    ("errno.c", "static int ompcc_errno_value;"),
    ("strerror.c", "static char ompcc_strerror_buf[32];"),
];

const ALLOWED_BUILTINS: &[&str] = &[
    "fma",
    "fmaf",
    "sqrt",
    "sqrtf",
    "fabs",
    "fabsf",
    "floor",
    "floorf",
    "ceil",
    "ceilf",
    "trunc",
    "truncf",
    "rint",
    "rintf",
    "fmin",
    "fminf",
    "fmax",
    "fmaxf",
    "copysign",
    "copysignf",
    // the varargs ABI (stdio.c): lowered by the compiler itself, no library call
    "va_list",
    "va_start",
    "va_arg",
    "va_end",
];

/// The text with comments replaced by spaces (string literals do not occur in the sources).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '/' && chars.peek() == Some(&'*') {
            chars.next();
            let mut prev = ' ';
            for d in chars.by_ref() {
                if prev == '*' && d == '/' {
                    break;
                }
                prev = d;
                out.push(if d == '\n' { '\n' } else { ' ' });
            }
        } else if c == '/' && chars.peek() == Some(&'/') {
            for d in chars.by_ref() {
                if d == '\n' {
                    out.push('\n');
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Identifiers of the text with the byte offset just after each.
fn identifiers(text: &str) -> Vec<(&str, usize)> {
    let b = text.as_bytes();
    let mut v = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphabetic() || b[i] == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            // skip numeric literals such as 0x1p-53 (their letters follow a digit)
            if s == 0 || !(b[s - 1].is_ascii_alphanumeric() || b[s - 1] == b'.') {
                v.push((&text[s..i], i));
            }
        } else {
            i += 1;
        }
    }
    v
}

fn followed_by_paren(text: &str, at: usize) -> bool {
    text[at..].trim_start().starts_with('(')
}

#[test]
fn sources_follow_the_device_rules() {
    let mut problems = Vec::new();
    let libm: Vec<&str> = FUNCTIONS.iter().map(|(c, _)| *c).collect();
    for (file, text) in MATH_SOURCES.iter().chain(MATH_HEADERS) {
        let code = strip_comments(text);
        if code.contains("long double") {
            problems.push(format!("{file}: uses long double"));
        }
        for (id, end) in identifiers(&code) {
            if matches!(id, "asm" | "__asm__" | "__asm") {
                problems.push(format!("{file}: inline asm"));
            }
            if let Some(b) = id.strip_prefix("__builtin_")
                && !ALLOWED_BUILTINS.contains(&b)
            {
                problems.push(format!(
                    "{file}: builtin {id} is not an exact PTX instruction"
                ));
            }
            // heap.c builds the allocation functions on the driver's own malloc/free.
            let driver_heap = *file == "heap.c" && matches!(id, "malloc" | "free");
            if libm.contains(&id) && followed_by_paren(&code, end) && !driver_heap {
                problems.push(format!("{file}: calls C library function {id}"));
            }
        }
        for line in code.lines() {
            let l = line.trim_end();
            if let Some(inc) = l.strip_prefix("#include ") {
                let name = inc.trim().trim_matches('"');
                if !inc.trim().starts_with('"') || !MATH_HEADERS.iter().any(|(h, _)| *h == name) {
                    problems.push(format!("{file}: includes {inc}, not a library header"));
                }
            }
            // a top-level data definition must be a const table (or errno's one int)
            let top = !l.starts_with(' ') && !l.starts_with('#') && !l.starts_with('}');
            let data = (l.contains('=') || (l.starts_with("static ") && l.ends_with(';')))
                && !l.contains('(');
            if top
                && data
                && !l.starts_with("static const ")
                && !l.starts_with("typedef ")
                && !MUTABLE_GLOBALS.contains(&(*file, l))
            {
                problems.push(format!("{file}: mutable global `{l}`"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The amalgamation is one valid translation unit: builds it with `cc -fsyntax-only`.
#[test]
fn amalgamation_is_one_valid_translation_unit() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ompcc_math_amalgamation");
    ompcc_stdlib::write_math_tree(&dir).expect("writing the math sources");
    let unit = dir.join("all.c");
    std::fs::write(&unit, ompcc_stdlib::amalgamation()).expect("writing the amalgamation");
    let st = std::process::Command::new("cc")
        .args([
            "-std=c11",
            "-fsyntax-only",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-I",
        ])
        .arg(&dir)
        .arg(&unit)
        .status()
        .expect("running cc");
    assert!(st.success(), "the amalgamation does not compile");
}

#[test]
fn the_rule_checker_catches_violations() {
    let bad =
        "static double t = 1.0; /* sin( */\nint f(void) { return __builtin_exp(2.0) + sin(1.0); }";
    let code = strip_comments(bad);
    assert!(!code.contains("sin( "));
    let ids: Vec<&str> = identifiers(&code).into_iter().map(|(i, _)| i).collect();
    assert!(ids.contains(&"__builtin_exp") && ids.contains(&"sin"));
    assert!(!identifiers("0x1p-53").iter().any(|(i, _)| *i == "p"));
}
