//! The device varargs ABI: variadic definitions, direct calls, calls through pointers,
//! `va_list` passed on, `va_copy`, struct and double arguments, each run in the IR
//! interpreter at -O0..-O3 and compared with the host compiler's build; the IR shape of the
//! ABI (hidden trailing pointer, buffer layout); and what stays an error.

mod common;
use common::*;

const CASES: &[(&str, &str)] = &[
    (
        "sum_count",
        r#"
static long sum_count(int n, ...) {
    __builtin_va_list ap;
    __builtin_va_start(ap, n);
    long s = 0;
    for (int i = 0; i < n; i++) s = s * 10 + __builtin_va_arg(ap, int);
    __builtin_va_end(ap);
    return s;
}
long long test(void) { return sum_count(0) + sum_count(3, 1, 2, 3) * 100 + sum_count(1, (char)9); }"#,
    ),
    (
        "mixed_types_and_promotions",
        r#"
static double mix(const char *f, ...) {
    __builtin_va_list ap;
    __builtin_va_start(ap, f);
    double r = 0;
    for (; *f; f++) {
        if (*f == 'i') r = r * 3 + __builtin_va_arg(ap, int);
        else if (*f == 'u') r = r * 3 + __builtin_va_arg(ap, unsigned);
        else if (*f == 'd') r = r * 3 + __builtin_va_arg(ap, double);
        else if (*f == 'l') r = r * 3 + __builtin_va_arg(ap, long);
        else if (*f == 'p') r = r * 3 + *__builtin_va_arg(ap, int *);
    }
    __builtin_va_end(ap);
    return r;
}
long long test(void) {
    float f = 1.25f; short s = -7; unsigned char c = 200; int k = 11;
    return (long long)(mix("idldiupd", 1, 2.5, 1L << 40, f, s, c, &k, 0.125) * 64);
}"#,
    ),
    (
        "struct_arguments_by_value",
        r#"
struct P { char tag; double x; int n; };
struct S { char a, b, c; };
static long take(int n, ...) {
    __builtin_va_list ap;
    __builtin_va_start(ap, n);
    long r = 0;
    for (int i = 0; i < n; i++) {
        struct P p = __builtin_va_arg(ap, struct P);
        struct S s = __builtin_va_arg(ap, struct S);
        r = r * 7 + p.tag + (long)(p.x * 4) + p.n + s.a * s.b - s.c;
    }
    __builtin_va_end(ap);
    return r;
}
long long test(void) {
    struct P a = {3, 2.75, -4}, b = {9, -1.5, 100};
    struct S s = {1, 2, 3}, t = {5, 6, 7};
    return take(2, a, s, b, t);
}"#,
    ),
    (
        "va_list_passed_on_and_copied",
        r#"
static int vsum(int n, __builtin_va_list ap) { int s = 0; while (n--) s = s * 10 + __builtin_va_arg(ap, int); return s; }
static long twice(int n, ...) {
    __builtin_va_list ap, aq;
    __builtin_va_start(ap, n);
    __builtin_va_copy(aq, ap);
    long a = vsum(n, ap);
    long b = vsum(n, aq);
    __builtin_va_end(aq);
    __builtin_va_end(ap);
    return a * 100000 + b + (long)sizeof(__builtin_va_list);
}
long long test(void) { return twice(4, 4, 3, 2, 1); }"#,
    ),
    (
        "calls_through_pointers",
        r#"
static long first_plus_rest(long first, ...) {
    __builtin_va_list ap;
    __builtin_va_start(ap, first);
    long s = first;
    for (long v; (v = __builtin_va_arg(ap, long)) != 0;) s += v;
    __builtin_va_end(ap);
    return s;
}
static long (*pick(int i))(long, ...) { return i ? first_plus_rest : 0; }
long long test(void) {
    long (*fp)(long, ...) = first_plus_rest;
    return fp(1, 2L, 3L, 0L) * 1000 + pick(1)(10, 20L, 0L);
}"#,
    ),
];

#[test]
fn variadic_functions_match_the_host_compiler() {
    let failures: Vec<String> = CASES
        .iter()
        .flat_map(|(name, src)| mismatches_with_host(name, src, false))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_variadic_function_takes_a_hidden_trailing_buffer_pointer() {
    let (m, _) = lower_ok(
        "int f(int n, ...) { __builtin_va_list ap; __builtin_va_start(ap, n);\n\
         int x = __builtin_va_arg(ap, int); __builtin_va_end(ap); return x + n; }\n\
         int g(void) { return f(1, 2.0, 7); }",
    );
    let f = m.function("f").expect("f");
    assert_eq!(f.sig.params.len(), 2, "{f}");
    assert_eq!(f.sig.params[1], ompcc_ir::Type::PTR, "{f}");
    // the caller packs a double at offset 0 and an int at offset 8 into one 16-byte slot
    let g = m.function("g").expect("g").to_string();
    assert!(g.contains("stack_slot size 16, align 8"), "{g}");
    assert!(g.contains("call fn0(v"), "{g}");
}

#[test]
fn misuses_of_the_varargs_builtins_are_errors() {
    let errs = lower_errors(
        "int f(int n) { __builtin_va_list ap; __builtin_va_start(ap, n); __builtin_va_end(ap); return n; }",
    );
    assert!(
        errs.iter()
            .any(|e| e.contains("'va_start' used in a function with fixed arguments")),
        "{errs:?}"
    );
}

#[test]
fn va_arg_of_a_promoted_away_type_traps() {
    // C: undefined (no argument has type float after the promotions); gcc traps too
    let (m, _) = lower_ok(
        "double f(int n, ...) { __builtin_va_list ap; __builtin_va_start(ap, n);\n\
         double x = __builtin_va_arg(ap, float); __builtin_va_end(ap); return x; }",
    );
    let f = m.function("f").expect("f").to_string();
    assert!(f.contains("trap"), "{f}");
}

#[test]
fn vprintf_of_a_va_list_passes_its_cursor() {
    let (m, _) = lower_ok(
        "int vprintf(const char *, __builtin_va_list);\n\
         int logf_(const char *fmt, ...) { __builtin_va_list ap; __builtin_va_start(ap, fmt);\n\
         int n = vprintf(fmt, ap); __builtin_va_end(ap); return n; }",
    );
    let f = m.function("logf_").expect("logf_").to_string();
    // the hidden buffer pointer is stored as the cursor, loaded back and handed to vprintf
    assert!(f.contains("block0(v0: ptr, v1: ptr)"), "{f}");
    assert!(f.contains("load.ptr generic"), "{f}");
    assert!(f.contains("call fn0("), "{f}");
    assert!(m.decls.iter().any(|d| d.name == "vprintf"), "{m}");
}
