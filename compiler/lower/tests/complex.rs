//! `_Complex` lowering: C snippets with complex arithmetic lowered to IR, optimized and run in
//! the IR interpreter at -O0..-O3; results must equal the host C compiler's. Also the
//! diagnostics for `_Complex long double` and the shape of optimized complex code.

mod common;
use common::*;

/// (name, source defining `test` returning long long).
const CASES: &[(&str, &str)] = &[
    (
        "arith_mixed",
        r#"
static double _Complex f(double _Complex a, double r) { return a * r + (r - a) * a; }
long long test(void) {
    double _Complex a = 1.5 + 2.0 * __extension__ 1.0iF, b = __builtin_complex(0.5, -3.0);
    double _Complex c = a * b - a / 4 + f(b, 2.0);
    float _Complex g = (float _Complex)c;
    g *= 2.0f;
    g += b;
    return (long long)(__real__ c * 1000) * 1000000 + (long long)(__imag__ c * 1000)
         + (long long)(__imag__ g * 8) * 1000000000000LL;
}"#,
    ),
    (
        "parts_and_compare",
        r#"
struct S { int tag; double _Complex z; };
static struct S mk(double x) { struct S s; s.tag = 1; s.z = x; __imag__ s.z = -x; return s; }
long long test(void) {
    struct S s = mk(3.0);
    double _Complex z = s.z, w = ~z;
    __real__ z += 1.0;
    int eq = (z == w) + 2 * (w != s.z) + 4 * (z == 4.0 - 3.0 * 1.0i) + 8 * !(z - z);
    double d = z;
    int i = (int)w;
    _Bool nz = w;
    return eq * 100000 + (long long)(d * 100) * 10 + i + nz * 1000000000LL + (long long)sizeof z * 10000000000LL;
}"#,
    ),
    (
        "loop_mandel",
        r#"
long long test(void) {
    long long total = 0;
    for (int p = 0; p < 64; p++) {
        double _Complex c = (-2.0 + 0.25 * (p % 8)) + (-1.0 + 0.25 * (p / 8)) * 1.0i, z = 0;
        int n = 0;
        while (n < 50 && __real__ z * __real__ z + __imag__ z * __imag__ z <= 4.0) {
            z = z * z + c;
            n++;
        }
        total = total * 3 + n;
    }
    return total;
}"#,
    ),
];

#[test]
fn complex_snippets_match_the_host_compiler() {
    let failures: Vec<String> = CASES
        .iter()
        .flat_map(|(name, src)| mismatches_with_host(name, src, false))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn complex_long_double_is_reported() {
    let errs = lower_errors("long double _Complex f(long double _Complex z) { return z * z; }");
    assert!(
        errs.iter().any(|e| e.contains("long double")),
        "expected a long double error, got {errs:?}"
    );
}

#[test]
fn complex_parts_live_in_registers_at_o2() {
    let (o0, _) = lower_ok(
        "double f(double _Complex a, double _Complex b) { double _Complex c = a + b * 2.0; c -= a; return __real__ c + __imag__ c; }",
    );
    let text = optimized(&o0, 2).to_string();
    assert!(
        !text.contains("stack_addr"),
        "temporaries left in memory:\n{text}"
    );
    assert!(text.contains("fadd"), "{text}");
}
